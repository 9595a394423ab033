//! Saving and loading games as PDN.
//!
//! Interim local stand-in with the signatures of the `crown-notation` contract (`game_to_pdn`,
//! `pdn_to_game`), used until that crate lands on main. It writes one plain PDN game (tags, numbered
//! moves, result) and reads back such a game: tags, an optional `FEN` setup, move numbers, `{}`
//! comments and the result token. Moves are read with `crown_core::Position::parse_move`.

use crown_core::{Game, Position, Variant};
use std::fmt;

/// Why a PDN text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError(pub String);

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PdnError {}

fn game_type(variant: Variant) -> &'static str {
    match variant {
        Variant::American | Variant::Impasse => "21",
        Variant::Pool => "23",
    }
}

/// One PDN game: the given tags, `GameType`, `Variant`, `FEN` (when not the standard start), the
/// numbered moves and the result.
pub fn game_to_pdn(game: &crown_core::Game, tags: &[(&str, &str)]) -> String {
    let variant = game.variant();
    let result = game.outcome().map(|o| o.pdn_result(variant)).unwrap_or("*");
    let mut s = String::new();
    for (k, v) in tags {
        s.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "'")));
    }
    s.push_str(&format!("[Result \"{result}\"]\n"));
    s.push_str(&format!("[GameType \"{}\"]\n", game_type(variant)));
    s.push_str(&format!("[Variant \"{}\"]\n", variant.id()));
    let start = game.start();
    if start.to_fen() != Position::new(variant).to_fen() {
        s.push_str(&format!("[SetUp \"1\"]\n[FEN \"{}\"]\n", start.to_fen()));
    }
    s.push('\n');
    let mut line = String::new();
    let mut number = 1;
    for (i, (before, mv)) in game.history().enumerate() {
        let text = before.move_text(mv);
        let token = if i == 0 && before.side_to_move() != variant.first_player() {
            format!("{number}... {text}")
        } else if before.side_to_move() == variant.first_player() {
            format!("{number}. {text}")
        } else {
            text
        };
        if before.side_to_move() != variant.first_player() {
            number += 1;
        }
        if line.len() + token.len() + 1 > 78 {
            s.push_str(line.trim_end());
            s.push('\n');
            line.clear();
        }
        line.push_str(&token);
        line.push(' ');
    }
    line.push_str(result);
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

/// The first game of a PDN text, replayed move by move.
///
/// # Errors
/// A [`PdnError`] naming the tag or the move (with its number) that could not be used.
pub fn pdn_to_game(text: &str) -> Result<crown_core::Game, PdnError> {
    let mut variant = Variant::American;
    let mut fen: Option<String> = None;
    let mut body = String::new();
    let mut in_moves = false;
    for line in text.lines() {
        let t = line.trim();
        if !in_moves && t.starts_with('[') {
            let inner = t.trim_start_matches('[').trim_end_matches(']');
            let (key, value) = inner.split_once(' ').unwrap_or((inner, ""));
            let value = value.trim().trim_matches('"');
            match key {
                "GameType" if value.starts_with("23") => variant = Variant::Pool,
                "Variant" => {
                    variant = value
                        .parse()
                        .map_err(|e| PdnError(format!("tag Variant: {e}")))?;
                }
                "FEN" => fen = Some(value.to_string()),
                _ => {}
            }
        } else if !t.is_empty() {
            in_moves = true;
            body.push_str(t);
            body.push(' ');
        } else if in_moves {
            break;
        }
    }
    let start = match fen {
        Some(f) => {
            Position::from_fen(variant, &f).map_err(|e| PdnError(format!("tag FEN: {e}")))?
        }
        None => Position::new(variant),
    };
    let mut game = Game::from_position(start);
    let mut comment = 0usize;
    for raw in body.split_whitespace() {
        if raw.starts_with('{') {
            comment += 1;
        }
        if comment > 0 {
            if raw.ends_with('}') {
                comment -= 1;
            }
            continue;
        }
        // "12." and "12..." are move numbers; "12.11-15" carries the move after the dots.
        let token = raw.rsplit('.').next().unwrap_or(raw);
        if token.is_empty() {
            continue;
        }
        if matches!(
            token,
            "*" | "1-0" | "0-1" | "1/2-1/2" | "2-0" | "0-2" | "1-1"
        ) {
            break;
        }
        let ply = game.ply_count() + 1;
        game.play_text(token)
            .map_err(|e| PdnError(format!("move {ply} '{token}': {e}")))?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_survives_the_round_trip() {
        let mut g = Game::new(Variant::American);
        for m in ["11-15", "23-19", "8-11", "22-17"] {
            g.play_text(m).unwrap();
        }
        for _ in 0..10 {
            let mv = g.legal_moves()[0];
            g.play(&mv).unwrap();
        }
        let text = game_to_pdn(&g, &[("Event", "test")]);
        assert!(text.contains("1. 11-15 23-19 2. 8-11 22-17 3. "), "{text}");
        let back = pdn_to_game(&text).unwrap();
        assert_eq!(back.moves(), g.moves());
        let bad = pdn_to_game("1. 11-15 23-14 *").unwrap_err();
        assert!(bad.0.contains("move 2 '23-14'"), "{bad}");
    }
}

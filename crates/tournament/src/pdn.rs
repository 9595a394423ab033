//! One PDN of a whole tournament: every game of every round, in round and board order, written by
//! crown-notation's PDN writer with the tags `Event` (the tournament's name), `Round` (`1.1` and
//! `1.2` for games 1 and 2 of the matches of round 1), `Board`, `White` and `Black` (the player
//! with the first move plays Black in American and pool checkers, APCA rule 7; White in Impasse),
//! `Date` (the day the game was created, UTC; `????.??.??` for a forfeit, which has no game),
//! `Result`, and `FEN` when the round's opening is not the start position, with `Opening` then
//! naming it (its label: `ACF three-move ballot 5 (Dreaded Edinburgh)`, `11-man ballot 17`,
//! `Steere setup`).

use crate::arena::Arena;
use crate::matches::Pairing;
use crate::openings::Opening;
use crate::player::PlayerId;
use crate::result::Seat;
use crate::tournament::Tournament;
use crown_core::{Color, Game, Position, Variant};
use crown_notation::{game_record, pdn_date_of_unix_ms, write_game};

/// Which game of a tournament: round (from 1), board (from 1) and game of the match (1 or 2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameSlot {
    /// The round, from 1.
    pub round: u32,
    /// The board, from 1.
    pub board: u32,
    /// The game of the match, 1 or 2.
    pub game: u8,
}

/// The PDN of `tournament`: for each game that has a result or a record, the record that `games`
/// gives for its slot (the moves played, from the round's opening) with the time it was created
/// (ms since the Unix epoch: its `Date` tag), or, for a game without one
/// (a forfeit), the opening alone. The `Result` tag is the tournament's result of the game when
/// recorded (a forfeit or a resignation is not visible in the moves), else the record's own.
/// Games with neither a result nor a record (not started) are left out; byes are not games.
pub fn tournament_pdn<'g>(
    tournament: &Tournament,
    games: impl Fn(GameSlot) -> Option<(&'g Game, u64)>,
) -> String {
    let variant = tournament.settings().variant;
    let name = |p: PlayerId| {
        tournament
            .player(p)
            .map_or_else(|_| "?".to_string(), |p| p.name.clone())
    };
    let mut out = String::new();
    for round in tournament.rounds() {
        let start = Position::from_fen(variant, &round.opening.fen).ok();
        let opening = named_opening(variant, &round.opening);
        for pairing in &round.pairings {
            let Pairing::Match(m) = pairing else { continue };
            for game in [1u8, 2] {
                let slot = GameSlot {
                    round: round.number,
                    board: m.board,
                    game,
                };
                let result = m.games[usize::from(game - 1)];
                let mover = Seat::moving_first_in(game).unwrap_or(Seat::First);
                write_one(
                    &mut out,
                    OneGame {
                        variant,
                        event: &tournament.settings().name,
                        round: format!("{}.{game}", round.number),
                        board: Some(m.board),
                        first: name(m.player(mover)),
                        second: name(m.player(mover.other())),
                        start: start.as_ref(),
                        opening,
                        record: games(slot),
                        result: result.and_then(|r| r.pdn_result(game)),
                        decided: result.is_some(),
                    },
                );
            }
        }
    }
    out
}

/// The PDN of `arena`: each game in pairing order with the `Round` tag its number (from 1),
/// as [`tournament_pdn`] writes a game: `games` gives the record of game `k` (an index of
/// [`Arena::games`]) and the time it was created; a game with neither a result nor a record is
/// left out.
pub fn arena_pdn<'g>(arena: &Arena, games: impl Fn(usize) -> Option<(&'g Game, u64)>) -> String {
    let name = |p: PlayerId| {
        arena
            .players()
            .get(p.0 as usize)
            .map_or_else(|| "?".to_string(), |p| p.name.clone())
    };
    let mut out = String::new();
    for (k, g) in arena.games().iter().enumerate() {
        write_one(
            &mut out,
            OneGame {
                variant: arena.variant,
                event: &arena.name,
                round: (k + 1).to_string(),
                board: None,
                first: name(g.first),
                second: name(g.second),
                start: Position::from_fen(arena.variant, &g.opening.fen)
                    .ok()
                    .as_ref(),
                opening: named_opening(arena.variant, &g.opening),
                record: games(k),
                result: g.result.and_then(|r| r.pdn_result(1)),
                decided: g.result.is_some(),
            },
        );
    }
    out
}

/// The label of `opening` (the `Opening` tag) unless it is `variant`'s start position.
fn named_opening(variant: Variant, opening: &Opening) -> Option<&str> {
    (opening.fen != variant.start_fen()).then_some(opening.label.as_str())
}

/// One game to write: its tags, its record or opening, its result.
struct OneGame<'a, 'g> {
    variant: Variant,
    event: &'a str,
    round: String,
    board: Option<u32>,
    /// The name of the player moving first.
    first: String,
    second: String,
    /// The opening, for a game without a record.
    start: Option<&'a Position>,
    /// The opening's name (the `Opening` tag) when it is not the start position.
    opening: Option<&'a str>,
    /// The record and the time it was created.
    record: Option<(&'g Game, u64)>,
    /// The tournament's result, when it has one.
    result: Option<&'static str>,
    /// Whether the tournament has a result of the game (a forfeit included).
    decided: bool,
}

/// Append game `g` to `out` (see [`tournament_pdn`]); nothing for a game with neither a result
/// nor a record.
fn write_one(out: &mut String, g: OneGame<'_, '_>) {
    let (white, black) = if g.variant.first_player() == Color::White {
        (g.first, g.second)
    } else {
        (g.second, g.first)
    };
    let opening_only;
    let (record, date) = match (g.record, g.decided, g.start) {
        (Some((r, created_ms)), _, _) => (r, Some(pdn_date_of_unix_ms(created_ms))),
        (None, true, Some(p)) => {
            opening_only = Game::from_position(*p);
            (&opening_only, None)
        }
        _ => return,
    };
    let board = g.board.map(|b| b.to_string());
    let mut tags: Vec<(&str, &str)> = vec![
        ("Event", g.event),
        ("Round", &g.round),
        ("White", &white),
        ("Black", &black),
    ];
    if let Some(b) = &board {
        tags.push(("Board", b));
    }
    if let Some(d) = &date {
        tags.push(("Date", d));
    }
    if let Some(r) = g.result {
        tags.push(("Result", r));
    }
    if let Some(o) = g.opening {
        tags.push(("Opening", o));
    }
    out.push_str(&write_game(&game_record(record, &tags)));
}

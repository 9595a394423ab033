//! One PDN of a whole tournament: every game of every round, in round and board order, written by
//! crown-notation's PDN writer with the tags `Event` (the tournament's name), `Round` (`1.1` and
//! `1.2` for games 1 and 2 of the matches of round 1), `Board`, `White` and `Black` (the player
//! with the first move plays Black in American and pool checkers, APCA rule 7; White in Impasse),
//! `Date` (the day the game was created, UTC; `????.??.??` for a forfeit, which has no game),
//! `Result`, and `FEN` when the round's opening is not the start position.

use crate::matches::Pairing;
use crate::player::PlayerId;
use crate::result::Seat;
use crate::tournament::Tournament;
use crown_core::{Color, Game, Position};
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
                let (first, second) = (name(m.player(mover)), name(m.player(mover.other())));
                let (white, black) = if variant.first_player() == Color::White {
                    (first, second)
                } else {
                    (second, first)
                };
                let opening_only;
                let (record, date) = match (games(slot), result, &start) {
                    (Some((g, created_ms)), _, _) => (g, Some(pdn_date_of_unix_ms(created_ms))),
                    (None, Some(_), Some(p)) => {
                        opening_only = Game::from_position(*p);
                        (&opening_only, None)
                    }
                    _ => continue,
                };
                let round_tag = format!("{}.{game}", round.number);
                let board_tag = m.board.to_string();
                let mut tags: Vec<(&str, &str)> = vec![
                    ("Event", &tournament.settings().name),
                    ("Round", &round_tag),
                    ("White", &white),
                    ("Black", &black),
                    ("Board", &board_tag),
                ];
                if let Some(d) = &date {
                    tags.push(("Date", d));
                }
                if let Some(r) = result.and_then(|r| r.pdn_result(game)) {
                    tags.push(("Result", r));
                }
                out.push_str(&write_game(&game_record(record, &tags)));
            }
        }
    }
    out
}

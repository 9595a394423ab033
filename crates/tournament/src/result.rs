//! The result of one game of a match, forfeits included, and its game points.
//!
//! Game points are counted in whole numbers: **2 for a win, 1 for a draw, 0 for a loss** — chess's
//! 1, ½, 0 doubled, and half of APCA rule 32's 4, 2, 0 (same order, same ratios). A forfeit (a game
//! not started within the abort window, APCA rule 8's forfeiture) scores as a win for the player
//! present and a loss for the one absent; when both are absent both lose.

use serde::{Deserialize, Serialize};

/// Game points of a won game (a game won by forfeit included).
pub const WIN_POINTS: u32 = 2;
/// Game points of a drawn game.
pub const DRAW_POINTS: u32 = 1;

/// One of the two players of a match: `First` moves first in game 1 of the match, `Second` moves
/// first in game 2 (colours swapped from the same opening, APCA rule 32).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Seat {
    /// The player who moves first in game 1.
    First,
    /// The player who moves first in game 2.
    Second,
}

impl Seat {
    /// The other seat.
    pub const fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    /// The seat that moves first in game `game` (1 or 2) of a match: `First` in game 1, `Second`
    /// in game 2; `None` for another number.
    pub const fn moving_first_in(game: u8) -> Option<Seat> {
        match game {
            1 => Some(Seat::First),
            2 => Some(Seat::Second),
            _ => None,
        }
    }
}

/// How one game of a match ended, seen from the match's seats (not from the colours).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// The player in this seat won over the board (or the opponent resigned or lost on time).
    Win(Seat),
    /// A draw.
    Draw,
    /// The player in `absent` did not start the game within the abort window and loses it; the
    /// other player wins it without playing.
    Forfeit {
        /// The seat of the absent player.
        absent: Seat,
    },
    /// Neither player started the game: both lose it.
    DoubleForfeit,
}

impl GameResult {
    /// The game points the player in `seat` scores: [`WIN_POINTS`], [`DRAW_POINTS`] or 0 (see the
    /// module documentation).
    pub const fn points(self, seat: Seat) -> u32 {
        match self {
            GameResult::Win(w) => {
                if w as u8 == seat as u8 {
                    WIN_POINTS
                } else {
                    0
                }
            }
            GameResult::Draw => DRAW_POINTS,
            GameResult::Forfeit { absent } => {
                if absent as u8 == seat as u8 {
                    0
                } else {
                    WIN_POINTS
                }
            }
            GameResult::DoubleForfeit => 0,
        }
    }

    /// Whether the game was played over the board (not a forfeit).
    pub const fn is_played(self) -> bool {
        matches!(self, GameResult::Win(_) | GameResult::Draw)
    }

    /// The PDN result tag of game `game` (1 or 2) of the match, from the point of view of the side
    /// that moves first (`1-0`: the first mover won; Crown's PDN convention, see
    /// `crown_core::Outcome::pdn_result`); a double forfeit is written `*` (PDN has no result in
    /// which both sides lose). `None` for a game number other than 1 or 2.
    pub fn pdn_result(self, game: u8) -> Option<&'static str> {
        let first = Seat::moving_first_in(game)?;
        Some(match self {
            GameResult::DoubleForfeit => "*",
            GameResult::Draw => "1/2-1/2",
            r if r.points(first) == WIN_POINTS => "1-0",
            _ => "0-1",
        })
    }
}

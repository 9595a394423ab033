//! Why a setup is not a legal position ([`PositionError`]) and why a move text was not accepted
//! ([`MoveError`]).

use crate::setup::FenError;
use crate::square::{Color, Square};
use std::fmt;

/// Why a setup is not a legal position of a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The FEN text could not be read.
    Fen(FenError),
    /// More than 12 pieces (checkers) or more than 12 checkers (Impasse: a double counts 2) of a colour.
    TooManyPieces {
        /// The colour.
        color: Color,
        /// How many pieces or checkers it has.
        count: u32,
    },
    /// Neither side has a piece.
    EmptyBoard,
    /// A square holds two pieces (a [`Setup`](crate::Setup) built by hand with overlapping sets).
    SquareTwice {
        /// The square.
        square: Square,
    },
    /// Checkers: a man stands on the row where it would have been crowned (American rule 7,
    /// APCA rule 23).
    ManOnKingRow {
        /// The man's colour.
        color: Color,
        /// Its square.
        square: Square,
    },
    /// Impasse: a double on its owner's nearest row would have been borne off (Bear Off section).
    DoubleOnNearestRow {
        /// The double's colour.
        color: Color,
        /// Its square.
        square: Square,
    },
    /// Impasse: a single on its owner's furthest row while another single of that colour is on the
    /// board would have been crowned (Crown section).
    UncrownedSingle {
        /// The colour.
        color: Color,
        /// The single on the furthest row.
        square: Square,
        /// Another single of the same colour.
        other: Square,
    },
    /// Impasse: the side to move has no checkers, so it already won on its previous turn.
    MoverHasNoCheckers {
        /// The side to move.
        color: Color,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen(e) => write!(f, "bad FEN: {e}"),
            PositionError::TooManyPieces { color, count } => write!(
                f,
                "{color} has {count} checkers; a side has at most 12 (an Impasse double counts two)"
            ),
            PositionError::EmptyBoard => write!(f, "neither side has a piece"),
            PositionError::SquareTwice { square } => write!(f, "square {square} holds more than one piece"),
            PositionError::ManOnKingRow { color, square } => write!(
                f,
                "{color} man on square {square} stands on its king row and would have been crowned"
            ),
            PositionError::DoubleOnNearestRow { color, square } => write!(
                f,
                "{color} double on square {square} stands on its nearest row and would have been borne off"
            ),
            PositionError::UncrownedSingle { color, square, other } => write!(
                f,
                "{color} single on square {square} stands on its furthest row beside another single on {other}; it would have been crowned"
            ),
            PositionError::MoverHasNoCheckers { color } => write!(
                f,
                "{color} is to move but has no checkers left: that side already won on its previous turn"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

impl From<FenError> for PositionError {
    fn from(e: FenError) -> Self {
        PositionError::Fen(e)
    }
}

/// Why a move text was not accepted by [`Position::parse_move`](crate::Position::parse_move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not in the move notation (docs/notation.md).
    Syntax {
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The move is not legal here.
    Illegal {
        /// The text given.
        text: String,
        /// Every legal move, in notation.
        legal: Vec<String>,
    },
    /// The text fits several legal moves (for example `10x26` taking different pieces).
    Ambiguous {
        /// The text given.
        text: String,
        /// The moves it fits, written in full.
        candidates: Vec<String>,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax { text, reason } => write!(f, "cannot read move '{text}': {reason}"),
            MoveError::Illegal { text, legal } if legal.is_empty() => {
                write!(
                    f,
                    "illegal move '{text}': the game is over, there are no legal moves"
                )
            }
            MoveError::Illegal { text, legal } => {
                write!(f, "illegal move '{text}'; legal moves: {}", legal.join(" "))
            }
            MoveError::Ambiguous { text, candidates } => {
                write!(
                    f,
                    "ambiguous move '{text}': it fits {}",
                    candidates.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for MoveError {}

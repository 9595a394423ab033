//! # crown-core
//!
//! The rules of three games on the 32 dark squares of a checkers board — **American checkers**
//! (English draughts), **American pool checkers** (APCA rules) and Mark Steere's **Impasse** — with
//! bitboard move generation that never allocates, PDN FEN, move text, game outcomes and perft.
//!
//! - [`Setup`] is an unvalidated board read from PDN FEN; [`Position`] is a board checked against the
//!   rules of one [`Variant`].
//! - [`Move`] is one whole turn (a multi-jump, or an Impasse slide with its bear-off and crown); it is
//!   small and `Copy`. [`Position::legal_moves`] lists them in a [`MoveList`].
//! - [`Game`] adds history: threefold repetition, the 40-move rule, the APCA counts, resignation.
//! - [`perft`] counts the move tree, proving the generator against published tables.
//!
//! Squares use the standard numbering 1–32 (Black at the top, square 1 = b8, 32 = g1).
//!
//! ## Listing the legal moves of a FEN
//! ```
//! use crown_core::{Position, Variant};
//!
//! // Black to move must capture: 10x26 can take 14 and 22, or 15 and 23.
//! let pos = Position::from_fen(Variant::American, "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13").unwrap();
//! let moves: Vec<String> = pos.legal_moves().iter().map(|m| pos.move_text(m)).collect();
//! assert!(moves.contains(&"10x17x26".to_string()));
//! assert!(moves.contains(&"10x19x26".to_string()));
//! assert!(pos.legal_moves().iter().all(|m| m.is_capture()));
//! ```
//!
//! ## Playing a game to its end
//! ```
//! use crown_core::{Game, Outcome, Variant};
//!
//! let mut game = Game::new(Variant::Impasse);
//! // Always play the first legal move: Impasse cannot cycle, so this ends.
//! while game.outcome().is_none() {
//!     let mv = game.legal_moves()[0];
//!     game.play(&mv).unwrap();
//! }
//! assert!(matches!(game.outcome(), Some(Outcome::Win { .. })));
//! ```
//!
//! ## Perft
//! ```
//! use crown_core::{perft, PerftConvention, Position, Variant};
//! let start = Position::new(Variant::American);
//! assert_eq!(perft(&start, 4, PerftConvention::Distinct), 1469); // OEIS A133046
//! ```

mod bitboard;
mod game;
mod movegen;
mod moves;
mod perft;
mod position;
pub mod rng;
mod setup;
mod square;
mod variant;

pub use bitboard::SquareSet;
pub use game::{
    Count, CountRule, DrawReason, DrawRules, Game, GameError, Outcome, WinReason, FORTY_MOVE_PLIES,
};
pub use moves::{Move, MoveKind, MoveList, MAX_PATH, MOVE_LIST_CAPACITY};
pub use perft::{divide, perft, perft_hashed, PerftConvention, PerftTable};
pub use position::{
    zobrist_piece_key, zobrist_white_to_move_key, MoveError, Position, PositionError,
};
pub use setup::{FenError, Setup};
pub use square::{Color, Piece, Role, Square};
pub use variant::{ImpasseSetup, UnknownName, Variant};

/// The README example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

//! # crown-notation
//!
//! PDN 3.0 game records for Crown: reading archives liberally, writing strictly. Positions (PDN FEN)
//! and move text are implemented in `crown-core` ([`crown_core::Setup`], [`crown_core::Position::parse_move`])
//! and re-exported here.

pub use crown_core::{FenError, MoveError, Setup};

//! # crown-rating
//!
//! Ratings of players for Crown: [`Glicko2`] (Mark Glickman's Glicko-2, a rating with its
//! deviation and volatility) and [`rate_game`], one game as its own rating period for both sides
//! (the policy of rated games on the Crown server). The puzzle trainer rates attempts with it too
//! (`crown_puzzle::PuzzleRatings`: an attempt is a game of the player against the puzzle).
//!
//! The crate is plain arithmetic: it depends on no other crate of the workspace, so the server,
//! the terminal UI and the web app rate without pulling in the match runner.
//!
//! ```
//! use crown_rating::{rate_game, Glicko2, Outcome};
//! let (winner, loser) = rate_game(Glicko2::default(), Glicko2::default(), Outcome::Win);
//! assert!(winner.rating > 1500.0 && loser.rating < 1500.0);
//! ```

pub mod glicko;

pub use glicko::{rate_game, Glicko2, Outcome};

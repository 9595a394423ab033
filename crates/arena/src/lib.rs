//! # crown-arena
//!
//! Engine against engine for Crown's three games, as a library: the `crown match`, `crown tune gen`
//! and `crown book build` commands are thin layers over it. The split follows fastchess
//! (`matchmaking/{match,sprt,elo}`, `engine/`, `game/book`):
//!
//! - [`openings`]: where games start — the embedded ACF three-move deck, PDN files of openings,
//!   random balanced openings and random playouts, all seeded by [`crown_core::rng`].
//! - [`player`]: the [`Player`] trait (a move for a game under [`crown_ai::Limits`]), implemented
//!   by the in-process [`crown_ai::Engine`] and by [`external::ExternalEngine`], another binary
//!   driven over Crown's engine protocol (`docs/protocol.md`, line syntax in [`protocol`]).
//! - [`game`]: the one game loop, with game clocks (loss on time), a ply cap (draw adjudication)
//!   and an observer of every reply.
//! - [`elo`] and [`sprt`]: Elo from win/draw/loss counts, the pentanomial of game pairs, its Elo
//!   interval and fishtest's generalised SPRT.
//! - [`datagen`]: self-play training data at scale — varied openings, quiet positions labelled by
//!   result, search score and endgame databases, deterministic chunks of [`crown_train::dataset`]
//!   files, resumable.
//! - [`runner`]: jobs on worker threads with a stop flag (Ctrl-C) and a callback per result, and
//!   [`runner::Match`], game pairs with colours swapped.
//!
//! The crate prints nothing: errors are [`ArenaError`] values and progress reaches the caller
//! through callbacks.
//!
//! ```
//! use crown_ai::{Engine, EngineOptions, Limits};
//! use crown_arena::game::{play, SeatConfig};
//! use crown_core::{Game, Variant};
//!
//! let engine = || Engine::new(EngineOptions { hash_mib: 1, threads: 1, level: None });
//! let seat = |name: &str| SeatConfig { name: name.into(), limits: Limits::depth(2), clock: None };
//! let (a, b) = (seat("A"), seat("B"));
//! let start = Game::new(Variant::American);
//! let color = start.position().side_to_move();
//! let record = play(&mut (engine(), engine()), [&a, &b], start, color, 20, &mut |_, _| {}).unwrap();
//! assert!(record.game.ply_count() <= 20);
//! ```

pub mod datagen;
pub mod elo;
mod error;
pub mod external;
pub mod game;
pub mod openings;
pub mod player;
pub mod protocol;
pub mod runner;
pub mod sprt;

pub use error::ArenaError;

// The README's example runs as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
pub use player::{Player, Reply};

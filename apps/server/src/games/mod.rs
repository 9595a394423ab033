//! The games feature: a new game checked and built from a request ([`new_game`]), the rules of a
//! game in play ([`live`]), the games held in memory ([`registry`], one [`handle::GameHandle`]
//! each), coherence between instances sharing a store ([`cluster`]), the background tasks
//! ([`housekeeping`]) and PDN export ([`pdn`]).

pub mod cluster;
pub mod handle;
pub mod housekeeping;
pub mod live;
pub mod new_game;
pub mod pdn;
pub mod registry;

pub use new_game::{GameRequest, NewGame, NewGameError, SeatedGame};

//! The games feature: a new game checked and built from a request ([`new_game`]).

pub mod new_game;

pub use new_game::{GameRequest, NewGame, NewGameError, SeatedGame};

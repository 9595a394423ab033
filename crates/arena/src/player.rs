//! The [`Player`] trait: one side of a game, asked for a move under search limits.

use crate::ArenaError;
use crown_ai::{Engine, Limits, Score};
use crown_core::{Game, Move};
use std::sync::atomic::AtomicBool;

/// A player's answer to [`Player::go`].
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The move to play; `None` when the player has none to give (it should then be the end of
    /// the game: [`crate::game::play`] calls it an error when the side to move has legal moves).
    pub best_move: Option<Move>,
    /// The player's score for the side to move, when it tells one (the in-process engine always
    /// does; an external engine does not).
    pub score: Option<Score>,
}

/// One side of a game: the in-process [`Engine`] or another program
/// ([`crate::external::ExternalEngine`]).
pub trait Player {
    /// A new game begins: forget what the last one taught (the engine's hash table).
    ///
    /// # Errors
    /// The player cannot be told (an external engine's input is closed).
    fn new_game(&mut self) -> Result<(), ArenaError>;

    /// The move to play in `game` (its position after its history, which counts for repetitions)
    /// within `limits`, the clock included when it has one.
    ///
    /// # Errors
    /// The player failed to answer (see [`crate::external::ExternalEngine::go`]).
    fn go(&mut self, game: &Game, limits: &Limits) -> Result<Reply, ArenaError>;
}

impl Player for Engine {
    /// Clear the transposition table ([`Engine::new_game`]).
    fn new_game(&mut self) -> Result<(), ArenaError> {
        Engine::new_game(self);
        Ok(())
    }

    /// Search to the end of `limits` (nothing stops it early); never fails.
    fn go(&mut self, game: &Game, limits: &Limits) -> Result<Reply, ArenaError> {
        let stop = AtomicBool::new(false);
        let r = self.search(game, limits, &stop, &mut |_| {});
        Ok(Reply {
            best_move: r.best_move,
            score: Some(r.score),
        })
    }
}

impl<P: Player + ?Sized> Player for Box<P> {
    /// The boxed player's [`Player::new_game`].
    fn new_game(&mut self) -> Result<(), ArenaError> {
        (**self).new_game()
    }

    /// The boxed player's [`Player::go`].
    fn go(&mut self, game: &Game, limits: &Limits) -> Result<Reply, ArenaError> {
        (**self).go(game, limits)
    }
}

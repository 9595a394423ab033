//! The one error type of the crate: every refused operation names what was asked and why.

use crate::player::PlayerId;
use thiserror::Error;

/// Why a tournament operation was refused. The state is unchanged whenever one is returned.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TournamentError {
    /// The settings cannot make a tournament (e.g. zero Swiss rounds, an opening rule of another
    /// game, an empty ballot list or a ballot FEN that is not a position of the game).
    #[error("invalid settings: {0}")]
    Settings(String),
    /// A player joined or was withdrawn after the tournament started (`operation` names which).
    #[error("cannot {operation}: the tournament has already started")]
    AlreadyStarted {
        /// What was tried: `join`, `start`, `cancel`.
        operation: &'static str,
    },
    /// An operation that needs a running tournament was made before [`crate::Tournament::start`].
    #[error("cannot {operation}: the tournament has not started")]
    NotStarted {
        /// What was tried: `pair a round`, `record a result`, `finish`.
        operation: &'static str,
    },
    /// An operation was made on a finished tournament.
    #[error("cannot {operation}: the tournament is finished")]
    Finished {
        /// What was tried.
        operation: &'static str,
    },
    /// The name is empty, too long, or already taken by another player.
    #[error("player name {name:?}: {reason}")]
    BadName {
        /// The name given.
        name: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// No player has this id.
    #[error("no player {0}")]
    NoSuchPlayer(PlayerId),
    /// The player has already withdrawn.
    #[error("player {0} has already withdrawn")]
    AlreadyWithdrawn(PlayerId),
    /// Fewer than two players are in the tournament at its start.
    #[error("cannot start with {0} player(s): at least 2 are needed")]
    TooFewPlayers(usize),
    /// A round was to be paired while round `round` still has games without a result.
    #[error("round {round} is not complete: {missing} game(s) have no result")]
    RoundIncomplete {
        /// The incomplete round (1-based).
        round: u32,
        /// Its games without a result.
        missing: usize,
    },
    /// This round has already been paired: pairing it again would make a second pairing.
    #[error("round {0} has already been paired")]
    RoundAlreadyPaired(u32),
    /// Rounds are paired in order: the next round to pair is `next`, not `asked`.
    #[error("cannot pair round {asked}: the next round to pair is {next}")]
    RoundOutOfOrder {
        /// The round asked for.
        asked: u32,
        /// The next round to pair.
        next: u32,
    },
    /// Every round of the tournament has been paired.
    #[error("all {0} rounds have been paired")]
    NoMoreRounds(u32),
    /// No round with this number has been paired.
    #[error("no round {0} has been paired")]
    NoSuchRound(u32),
    /// The round has no match on this board (or the board is a bye).
    #[error("round {round} has no match on board {board}")]
    NoSuchBoard {
        /// The round (1-based).
        round: u32,
        /// The board asked for (1-based).
        board: u32,
    },
    /// A match has games 1 and 2 only.
    #[error("a match has games 1 and 2, not game {0}")]
    NoSuchGame(u8),
    /// The game already has a result: recording it again would count it twice.
    #[error("round {round} board {board} game {game} already has a result")]
    AlreadyRecorded {
        /// The round (1-based).
        round: u32,
        /// The board (1-based).
        board: u32,
        /// The game of the match (1 or 2).
        game: u8,
    },
    /// No pairing of the round exists that keeps the rules (no repeat pairing), e.g. a Swiss of
    /// four players paired for a fourth round.
    #[error("round {round} cannot be paired: {reason}")]
    NoPairing {
        /// The round (1-based).
        round: u32,
        /// Why (e.g. every remaining pairing repeats one of an earlier round).
        reason: String,
    },
    /// The arena game does not exist or is over.
    #[error("no arena game {0} in progress")]
    NoSuchArenaGame(usize),
}

//! The domain's error: why an operation on a game, a seat, the chat or the lobby was refused or
//! failed. It says *what kind* of refusal it is ([`ErrorKind`]), with the API's stable `code`, a
//! readable message and optional details; the HTTP layer (`routes::error`) alone turns it into a
//! status and a JSON body (docs/api.md).

/// The most characters of a caller's value an error message repeats ([`echo`]).
pub const ECHO_MAX_CHARS: usize = 40;

/// A caller's value (an id, a name, a query parameter) as an error message quotes it: in single
/// quotes, its control characters escaped, and cut to its first [`ECHO_MAX_CHARS`] characters
/// followed by `…` and its length when longer, so that a 5,000-character name is not sent back
/// whole (docs/api.md, "Errors").
pub fn echo(value: &str) -> String {
    let n = value.chars().count();
    let head: String = value
        .chars()
        .take(ECHO_MAX_CHARS)
        .flat_map(char::escape_debug)
        .collect();
    if n > ECHO_MAX_CHARS {
        format!("'{head}…' ({n} characters)")
    } else {
        format!("'{head}'")
    }
}

/// What kind of refusal or failure an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The request's values are not acceptable (a bad name, an empty chat message, …).
    Invalid,
    /// The caller is not logged in, or its username or password is wrong (accounts).
    Unauthenticated,
    /// The caller's seat token is not a seat of the game.
    NotSeated,
    /// The game does not exist.
    NotFound,
    /// The request does not fit the game's state (not your turn, game over, stale ply, …).
    Conflict,
    /// A move the rules refuse (illegal, ambiguous, unreadable).
    Rejected,
    /// The caller is over a per-client or per-seat limit (too many games, messages, …).
    Limited,
    /// The request's body is larger than the endpoint accepts.
    TooLarge,
    /// The server is full (too many unfinished games).
    Full,
    /// This server was built without what the request needs (the engine).
    Unsupported,
    /// The server cannot do it now (storage failed, no randomness); nothing changed.
    Internal,
}

/// Extra facts an [`Error`] carries to the client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Detail {
    /// The legal moves, in notation (an illegal move).
    Legal(Vec<String>),
    /// The moves an ambiguous text could mean, in notation.
    Candidates(Vec<String>),
    /// Wait this many ms before trying again (a rate limit).
    RetryAfterMs(u64),
}

/// A refused or failed operation: its kind, the API's stable `code` (e.g. `illegal_move`,
/// `not_your_turn`), a readable message and optional details.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{code}: {message}")]
pub struct Error {
    /// What kind of refusal it is.
    pub kind: ErrorKind,
    /// Stable machine-readable code (docs/api.md).
    pub code: &'static str,
    /// Readable explanation.
    pub message: String,
    /// Extra facts for the client.
    pub detail: Option<Detail>,
}

/// The domain's result.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error of `kind` with `code` and `message`.
    pub fn new(kind: ErrorKind, code: &'static str, message: impl Into<String>) -> Error {
        Error {
            kind,
            code,
            message: message.into(),
            detail: None,
        }
    }

    /// This error with `detail`.
    #[must_use]
    pub fn with(mut self, detail: Detail) -> Error {
        self.detail = Some(detail);
        self
    }

    /// [`ErrorKind::Invalid`].
    pub fn invalid(code: &'static str, message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Invalid, code, message)
    }

    /// [`ErrorKind::Conflict`]: the request does not fit the game's state.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Conflict, code, message)
    }

    /// [`ErrorKind::Rejected`]: a move the rules refuse.
    pub fn rejected(code: &'static str, message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Rejected, code, message)
    }

    /// [`ErrorKind::Limited`].
    pub fn limited(code: &'static str, message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Limited, code, message)
    }

    /// `game_over` (a conflict): the game ended with `o`.
    pub fn game_over(o: &crown_core::Outcome) -> Error {
        Error::conflict("game_over", format!("the game is over ({o})"))
    }

    /// `not_found` for game `id` (quoted as [`echo`] shows it).
    pub fn not_found(id: &str) -> Error {
        Error::new(
            ErrorKind::NotFound,
            "not_found",
            format!("no game with id {}", echo(id)),
        )
    }

    /// `storage` (internal): the change was not saved, for reason `e`.
    pub fn storage(e: impl std::fmt::Display) -> Error {
        Error::new(
            ErrorKind::Internal,
            "storage",
            format!("the change could not be saved and was not made: {e}"),
        )
    }
}

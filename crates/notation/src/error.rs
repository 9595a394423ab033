//! [`PdnError`] and [`PdnWarning`]: what went wrong or looked odd, and exactly where.

use crate::input::quote_n;
use std::fmt;

/// Most characters of an `Event` tag shown in a [`Location`], so that an error line stays short
/// whatever the file holds (issue 14: never echo unbounded input).
const EVENT_CHARS: usize = crate::input::MAX_QUOTE_CHARS;
/// Most characters of a move text shown in a [`Location`] (a long king capture fits).
const MOVE_TEXT_CHARS: usize = 40;

/// Where in a PDN file something happened, and in which game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Location {
    /// 1-based index of the game in the file.
    pub game: usize,
    /// The game's `Event` tag, if it has one.
    pub event: Option<String>,
    /// 1-based line in the file (0 when unknown, e.g. for a text built in memory).
    pub line: usize,
    /// 1-based column in characters (0 when unknown, only with `line` 0). An error about the whole
    /// game (its `GameType` or `FEN`) points at column 1 of the game's first line.
    pub column: usize,
    /// The PDN move number of the move concerned (`62` for `62. 14-18` or `62... 18-23`).
    pub move_number: Option<u32>,
    /// The move as written in the file.
    pub move_text: Option<String>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        if let Some(e) = &self.event {
            if e.chars().count() <= EVENT_CHARS {
                write!(f, " ({e})")?;
            } else {
                let head: String = e.chars().take(EVENT_CHARS - 1).collect();
                write!(f, " ({head}…)")?;
            }
        }
        if self.line > 0 {
            write!(f, ", line {}:{}", self.line, self.column)?;
        }
        if let Some(n) = self.move_number {
            write!(f, ", move {n}")?;
        }
        if let Some(t) = &self.move_text {
            write!(f, " {}", quote_n(t, MOVE_TEXT_CHARS))?;
        }
        Ok(())
    }
}

/// Why a game could not be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PdnErrorKind {
    /// The text does not follow the PDN grammar (unbalanced parentheses, a nested comment, a word
    /// that is neither a move, a move number nor a result, …).
    Syntax(String),
    /// The file could not be read (an I/O error from the underlying reader).
    Io(String),
    /// A square that is not on Crown's 32-square board (`33`, a light square `a2`).
    UnknownSquare(String),
    /// The `GameType` tag names a game Crown does not play; the game was read but not replayed.
    UnsupportedGameType(String),
    /// The `FEN` tag or a `/FEN "…"/` setup is not a legal position of the game type.
    BadFen(String),
    /// The move is not legal in the position.
    IllegalMove {
        /// The position before the move, as PDN FEN.
        fen: String,
        /// Every legal move there, in notation.
        legal: Vec<String>,
    },
    /// A short capture fits several legal moves and looking ahead did not single one out.
    AmbiguousMove {
        /// The position before the move, as PDN FEN.
        fen: String,
        /// The candidate moves with their full paths.
        candidates: Vec<String>,
    },
    /// A construct the reader accepts but replay cannot follow (an unknown move `- -`, a setup
    /// in the middle of the main line).
    Unsupported(String),
}

impl fmt::Display for PdnErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdnErrorKind::Syntax(s) => write!(f, "syntax error: {s}"),
            PdnErrorKind::Io(s) => write!(f, "read error: {s}"),
            PdnErrorKind::UnknownSquare(s) => write!(f, "unknown square: {s}"),
            PdnErrorKind::UnsupportedGameType(s) => write!(f, "game type not supported: {s}"),
            PdnErrorKind::BadFen(s) => write!(f, "bad position: {s}"),
            PdnErrorKind::IllegalMove { fen, legal } => {
                if legal.is_empty() {
                    write!(f, "illegal move: the game is over in position {fen}")
                } else {
                    write!(
                        f,
                        "illegal move in position {fen}; legal moves: {}",
                        legal.join(" ")
                    )
                }
            }
            PdnErrorKind::AmbiguousMove { fen, candidates } => write!(
                f,
                "ambiguous move in position {fen}: it fits {}",
                candidates.join(", ")
            ),
            PdnErrorKind::Unsupported(s) => write!(f, "cannot replay: {s}"),
        }
    }
}

/// An error in one game of a PDN file: where it is ([`Location`]) and why ([`PdnErrorKind`]).
///
/// Display gives one line: `game 12 (Event), line 40:7, move 31 '14-18': illegal move in …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    /// Where (boxed to keep `Result<_, PdnError>` small).
    pub location: Box<Location>,
    /// Why.
    pub kind: PdnErrorKind,
}

impl PdnError {
    /// A short reason without the location (for JSON output).
    pub fn reason(&self) -> String {
        self.kind.to_string()
    }
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.kind)
    }
}

impl std::error::Error for PdnError {}

/// Something the reader accepted but that a person may want to check (an ambiguous capture resolved
/// by looking ahead, an unknown side to move in a FEN).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnWarning {
    /// Where.
    pub location: Location,
    /// What happened.
    pub message: String,
}

impl fmt::Display for PdnWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: warning: {}", self.location, self.message)
    }
}

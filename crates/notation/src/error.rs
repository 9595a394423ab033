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

impl Location {
    /// The location as Display writes it, with the `Event` tag cut to `event_chars` characters
    /// (left out when 0).
    fn text(&self, event_chars: usize) -> String {
        let mut s = format!("game {}", self.game);
        if let Some(e) = self.event.as_ref().filter(|_| event_chars > 0) {
            if e.chars().count() <= event_chars {
                s.push_str(&format!(" ({e})"));
            } else {
                let head: String = e.chars().take(event_chars - 1).collect();
                s.push_str(&format!(" ({head}…)"));
            }
        }
        if self.line > 0 {
            s.push_str(&format!(", line {}:{}", self.line, self.column));
        }
        if let Some(n) = self.move_number {
            s.push_str(&format!(", move {n}"));
        }
        if let Some(t) = &self.move_text {
            s.push_str(&format!(" {}", quote_n(t, MOVE_TEXT_CHARS)));
        }
        s
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(EVENT_CHARS))
    }
}

/// Most legal moves an illegal-move error lists (`legal: 9-13, 9-14, … (+5 more)`), so that the
/// line stays short; the position's FEN is always given.
pub const LEGAL_MOVES_SHOWN: usize = 6;

/// `legal: 9-13, 9-14, … (+5 more)`: at most `max` of `legal` (all of them when one more would be
/// hidden), then how many more there are; only the count (`7 legal moves`) when `max` is 0.
fn legal_list(legal: &[String], max: usize) -> String {
    if max == 0 {
        return match legal.len() {
            1 => "1 legal move".into(),
            n => format!("{n} legal moves"),
        };
    }
    // "(+1 more)" would take the room of the one move it hides.
    if legal.len() <= max + 1 {
        return format!("legal: {}", legal.join(", "));
    }
    format!(
        "legal: {}, … (+{} more)",
        legal[..max].join(", "),
        legal.len() - max
    )
}

/// The message of `kind` with at most `legal_max` legal moves or candidates listed.
fn kind_text(kind: &PdnErrorKind, legal_max: usize) -> String {
    match kind {
        PdnErrorKind::Syntax(s) => format!("syntax error: {s}"),
        PdnErrorKind::Io(s) => format!("read error: {s}"),
        PdnErrorKind::UnknownSquare(s) => format!("unknown square: {s}"),
        PdnErrorKind::UnsupportedGameType(s) => format!("game type not supported: {s}"),
        PdnErrorKind::BadFen(s) => format!("bad position: {s}"),
        PdnErrorKind::IllegalMove { fen, legal } => {
            if legal.is_empty() {
                format!("illegal move: the game is over in position {fen}")
            } else {
                format!(
                    "illegal move in position {fen}; {}",
                    legal_list(legal, legal_max)
                )
            }
        }
        PdnErrorKind::AmbiguousMove { fen, candidates } => {
            let shown = legal_max.max(2);
            let mut list = candidates[..candidates.len().min(shown)].join(", ");
            if candidates.len() > shown {
                list.push_str(&format!(", … (+{} more)", candidates.len() - shown));
            }
            format!("ambiguous move in position {fen}: it fits {list}")
        }
        PdnErrorKind::Unsupported(s) => format!("cannot replay: {s}"),
    }
}

/// `prefix` + `body(event_chars, legal_max)` made one printable line of at most
/// [`crate::MAX_ERROR_CHARS`] characters: the fullest form that fits (fewer legal moves listed,
/// then the `Event` tag cut shorter), else the shortest form cut with `…`.
fn fit_line(prefix: &str, body: impl Fn(usize, usize) -> String) -> String {
    let max = crate::input::MAX_ERROR_CHARS;
    let mut last = String::new();
    // Fewer legal moves first: the Event names the game in an archive.
    let forms = [
        (EVENT_CHARS, LEGAL_MOVES_SHOWN),
        (EVENT_CHARS, 3),
        (EVENT_CHARS, 1),
        (EVENT_CHARS, 0),
        (24, 0),
        (12, 0),
        (0, 0),
    ];
    for (event_chars, legal_max) in forms {
        last = crate::input::printable(&format!("{prefix}{}", body(event_chars, legal_max)));
        if last.chars().count() <= max {
            return last;
        }
    }
    crate::input::one_line(&last)
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
    /// One line; an illegal move lists at most [`LEGAL_MOVES_SHOWN`] legal moves.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&kind_text(self, LEGAL_MOVES_SHOWN))
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

    /// `prefix` (e.g. the file's path and `: `), the error and `suffix` (e.g. ` (game written as
    /// read)`) as one printable line of at most [`crate::MAX_ERROR_CHARS`] characters: the list of
    /// legal moves and then the `Event` tag are cut first, so that the game, line, column, move,
    /// reason and position stay.
    pub fn line(&self, prefix: &str, suffix: &str) -> String {
        fit_line(prefix, |event, legal| {
            format!(
                "{}: {}{suffix}",
                self.location.text(event),
                kind_text(&self.kind, legal)
            )
        })
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

impl PdnWarning {
    /// `prefix` and the warning as one printable line of at most [`crate::MAX_ERROR_CHARS`]
    /// characters (the `Event` tag cut first, then the message's tail).
    pub fn line(&self, prefix: &str) -> String {
        fit_line(prefix, |event, _| {
            format!("{}: warning: {}", self.location.text(event), self.message)
        })
    }
}

impl fmt::Display for PdnWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: warning: {}", self.location, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_illegal_move_line_fits_200_characters_and_keeps_the_key_facts() {
        let fen = "W:WK1,K2,K3,K4,K5,K6,K7,K8,K9,K10,K11,K12:BK21,K22,K23,K24,K25,K26,K27,K28";
        let e = PdnError {
            location: Box::new(Location {
                game: 12,
                event: Some("E".repeat(500)),
                line: 40,
                column: 7,
                move_number: Some(31),
                move_text: Some("14-18".into()),
            }),
            kind: PdnErrorKind::IllegalMove {
                fen: fen.into(),
                legal: (1..=30).map(|i| format!("{i}-{}", i + 4)).collect(),
            },
        };
        let prefix = format!("{}/games.pdn: ", "d".repeat(20));
        let line = e.line(&prefix, "");
        assert!(
            line.chars().count() <= 200,
            "{}: {line}",
            line.chars().count()
        );
        for fact in [
            prefix.as_str(),
            "game 12",
            "line 40:7",
            "move 31 '14-18'",
            fen,
            "30 legal moves",
        ] {
            assert!(line.contains(fact), "{fact} missing: {line}");
        }
        // With room, more is said: the Event and six of the legal moves.
        let full = e.kind.to_string();
        assert!(
            full.ends_with("legal: 1-5, 2-6, 3-7, 4-8, 5-9, 6-10, … (+24 more)"),
            "{full}"
        );
        // Seven legal moves are all listed rather than "(+1 more)".
        let seven: Vec<String> = (1..=7).map(|i| format!("{i}-{}", i + 4)).collect();
        assert_eq!(
            legal_list(&seven, 6),
            format!("legal: {}", seven.join(", "))
        );
    }
}

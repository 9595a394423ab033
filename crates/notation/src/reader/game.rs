//! One PDN game as read: its tags and movetext tree ([`PdnGame`], [`Node`], [`MoveNode`]).

use crate::error::{Location, PdnWarning};

/// One PDN game as written in the file: its tags and its movetext tree, not yet replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// 1-based index of the game in its file.
    pub index: usize,
    /// 1-based line where the game starts (0 for games built in memory).
    pub line: usize,
    /// Tags in file order, as `(name, value)` with escapes resolved.
    pub tags: Vec<(String, String)>,
    /// The movetext: moves, comments, NAGs, variations and setup commands, in order.
    pub nodes: Vec<Node>,
    /// The game terminator as written (`1-0`, `0-1`, `1/2-1/2`, `2-0`, `0-2`, `1-1`, `0-0` or `*`), if any.
    pub result: Option<String>,
    /// Repairs the reader made (a move glued to a word, read as the move and a comment).
    pub warnings: Vec<PdnWarning>,
}

/// One element of movetext.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// A move.
    Move(MoveNode),
    /// A comment `{…}` or a `%` line comment (the text after `%` to the end of the line); runs of
    /// white space (including line breaks) are read as one space and the ends are trimmed.
    Comment(String),
    /// A numeric annotation glyph `$n`.
    Nag(u32),
    /// A variation `( … )`: an alternative to the move just before it.
    Variation(Vec<Node>),
    /// A setup command `/FEN "…"/`; the FEN text without quotes.
    Setup {
        /// The FEN.
        fen: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
}

/// A move as written, with its position in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNode {
    /// The move text without move number and strength mark (`11x18x25`, `c3-d4`, `6>10=3`).
    pub text: String,
    /// A move strength mark written right after the move: `!`, `?`, `!?`, `(?)`, ….
    pub strength: Option<String>,
    /// The move number written before it, if any.
    pub number: Option<u32>,
    /// 1-based line (0 when built in memory).
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

impl MoveNode {
    /// A move built in memory (no file position).
    pub fn new(text: impl Into<String>) -> MoveNode {
        MoveNode {
            text: text.into(),
            strength: None,
            number: None,
            line: 0,
            column: 0,
        }
    }
}

impl PdnGame {
    /// An empty game (no tags, no moves) with the given index.
    pub fn new(index: usize) -> PdnGame {
        PdnGame {
            index,
            line: 0,
            tags: Vec::new(),
            nodes: Vec::new(),
            result: None,
            warnings: Vec::new(),
        }
    }

    /// The value of tag `name`, compared without regard to case (so `SetUp` finds `Setup`).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Set tag `name` (replacing a tag of the same name, compared without regard to case).
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self
            .tags
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The `Event` tag, if not empty.
    pub fn event(&self) -> Option<&str> {
        self.tag("Event").filter(|e| !e.is_empty())
    }

    /// The game's result as the file gives it: the terminator unless it is `*`, else the `Result`
    /// tag (`None` when neither says anything). Not checked against the board.
    pub fn final_result(&self) -> Option<&str> {
        self.result
            .as_deref()
            .filter(|r| *r != "*")
            .or(self.tag("Result"))
    }

    /// The main-line moves in order (variations left out).
    pub fn main_line(&self) -> impl Iterator<Item = &MoveNode> {
        self.nodes.iter().filter_map(|n| match n {
            Node::Move(m) => Some(m),
            _ => None,
        })
    }

    /// A [`Location`] in this game at `line:column`.
    pub fn location(&self, line: usize, column: usize) -> Location {
        Location {
            game: self.index,
            event: self.event().map(str::to_string),
            line,
            column,
            move_number: None,
            move_text: None,
        }
    }
}

/// The deepest nesting of variations the reader accepts: a `(` opening level 65 is a syntax error.
/// Replay and the writer walk variations recursively; this bound keeps them far from the stack's
/// limit on any input (PDN sets no limit; real annotated games nest a few levels).
pub const MAX_VARIATION_DEPTH: usize = 64;

/// The results the reader knows (PDN reading grammar `Result`).
pub const RESULTS: [&str; 7] = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0"];

//! A puzzle record and its file: [`Puzzle`] (FEN, variant, solution line, [`Goal`], [`Proof`],
//! [`Theme`] tags, [`Source`], difficulty), stored one per line as JSON ([`read_jsonl`],
//! [`write_jsonl`]; the format is in docs/puzzles.md), and the committed sets ([`embedded_set`]).

use crown_core::{Move, Position, Variant};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::{BufRead, Write};

/// What the solver achieves with the solution.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Goal {
    /// The only move that wins.
    Win,
    /// The only move that does not lose (every other move loses, it draws).
    Draw,
}

/// How a puzzle was proven.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Proof {
    /// By the endgame databases: exact.
    Database,
    /// By two searches (a margin, then a deeper confirmation).
    Search,
}

/// A theme tag of a puzzle.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Theme {
    /// The key move is not a capture and the opponent must capture in reply: a piece is given to
    /// win more (the classic two-for-one).
    Shot,
    /// The solver captures two or more pieces in one move of the line.
    MultiJump,
    /// The solver crowns a piece in the line without the key move being a capture (checkers: a man
    /// reaches the king row; Impasse: a crown).
    Breakthrough,
    /// Few pieces: at most 8 on the board, or the position is in the databases.
    Ending,
    /// The goal is a draw ([`Goal::Draw`]).
    DrawSave,
}

impl Theme {
    /// Every theme, in the order of the tags.
    pub const ALL: [Theme; 5] = [
        Theme::Shot,
        Theme::MultiJump,
        Theme::Breakthrough,
        Theme::Ending,
        Theme::DrawSave,
    ];

    /// The tag as written in the files: `shot`, `multi-jump`, `breakthrough`, `ending`, `draw-save`.
    pub const fn id(self) -> &'static str {
        match self {
            Theme::Shot => "shot",
            Theme::MultiJump => "multi-jump",
            Theme::Breakthrough => "breakthrough",
            Theme::Ending => "ending",
            Theme::DrawSave => "draw-save",
        }
    }

    /// The theme of a tag ([`Theme::id`]), `None` for an unknown one.
    pub fn from_id(id: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.id() == id)
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// Where a puzzle comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Source {
    /// The file or collection (e.g. `tinsley.pdn`).
    pub file: String,
    /// 1-based number of the game in the file.
    pub game: usize,
    /// The game's name (its PDN players and event), empty when unknown.
    #[serde(default)]
    pub name: String,
    /// Plies played in the game before the puzzle position.
    pub ply: usize,
}

/// One puzzle: a position, its solution and what it is about. Stored as one JSON object per line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Puzzle {
    /// A name unique within a set: `<variant>-<file stem>-<game>-<ply>`.
    pub id: String,
    /// The game: `american`, `pool` or `impasse`.
    #[serde(with = "variant_id")]
    pub variant: Variant,
    /// The position (side to move = the solver).
    pub fen: String,
    /// The solution in move text (docs/notation.md): the solver's key move, then the opponent's
    /// reply and the solver's next move in turn; always ends with a move of the solver.
    pub solution: Vec<String>,
    /// Win or draw.
    pub goal: Goal,
    /// Database or search.
    pub proof: Proof,
    /// Theme tags.
    pub themes: Vec<Theme>,
    /// The game and ply the position comes from.
    pub source: Source,
    /// Difficulty estimate on a rating scale (about 800–2400; see [`crate::difficulty`]); the starting
    /// rating of the puzzle in a trainer.
    pub difficulty: u32,
}

mod variant_id {
    use crown_core::Variant;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Variant, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v.id())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        let s = String::deserialize(d)?;
        Variant::ALL
            .into_iter()
            .find(|v| v.id() == s)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "unknown variant '{}' (american, pool or impasse)",
                    s.chars().take(30).collect::<String>()
                ))
            })
    }
}

impl Puzzle {
    /// The puzzle position.
    ///
    /// # Errors
    /// A [`PuzzleError`] naming the puzzle when the FEN cannot be read.
    pub fn position(&self) -> Result<Position, PuzzleError> {
        Position::from_fen(self.variant, &self.fen).map_err(|e| PuzzleError::Invalid {
            id: self.id.clone(),
            reason: format!("bad FEN: {e}"),
        })
    }

    /// The solution as moves, each read in the position it is played in, and the positions before
    /// each (`positions[i]` is where `moves[i]` is played).
    ///
    /// # Errors
    /// A [`PuzzleError`] naming the puzzle and the move when the FEN or a move cannot be read, or
    /// when the solution is empty or ends with an opponent's move.
    pub fn line(&self) -> Result<(Vec<Position>, Vec<Move>), PuzzleError> {
        let mut pos = self.position()?;
        let invalid = |reason: String| PuzzleError::Invalid {
            id: self.id.clone(),
            reason,
        };
        if self.solution.is_empty() {
            return Err(invalid("empty solution".into()));
        }
        if self.solution.len() % 2 == 0 {
            return Err(invalid(
                "the solution must end with a move of the solver (an odd number of moves)".into(),
            ));
        }
        let mut positions = Vec::new();
        let mut moves = Vec::new();
        for (i, text) in self.solution.iter().enumerate() {
            let mv = pos
                .parse_move(text)
                .map_err(|e| invalid(format!("solution move {} '{text}': {e}", i + 1)))?;
            positions.push(pos);
            moves.push(mv);
            pos = pos.after(&mv);
        }
        Ok((positions, moves))
    }
}

/// What went wrong reading, writing or checking puzzles.
#[derive(Debug)]
pub enum PuzzleError {
    /// A line of a JSON Lines file is not a puzzle.
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A puzzle's own content is wrong (FEN, solution).
    Invalid {
        /// The puzzle's id.
        id: String,
        /// What is wrong.
        reason: String,
    },
    /// Reading or writing failed.
    Io(std::io::Error),
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuzzleError::Line { line, reason } => write!(f, "line {line}: {reason}"),
            PuzzleError::Invalid { id, reason } => write!(f, "puzzle {id}: {reason}"),
            PuzzleError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PuzzleError {}

/// Read puzzles, one JSON object per line; blank lines are skipped. Each puzzle's FEN and solution
/// are checked to be readable and legal.
///
/// # Errors
/// [`PuzzleError::Line`] with the 1-based line number for the first line that is not UTF-8, not a
/// puzzle object, or whose FEN or solution cannot be read; [`PuzzleError::Io`] for a read error.
pub fn read_jsonl(input: impl BufRead) -> Result<Vec<Puzzle>, PuzzleError> {
    let mut out = Vec::new();
    for (i, line) in input.split(b'\n').enumerate() {
        let n = i + 1;
        let bytes = line.map_err(PuzzleError::Io)?;
        let text = std::str::from_utf8(&bytes).map_err(|_| PuzzleError::Line {
            line: n,
            reason: "not UTF-8".into(),
        })?;
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let p: Puzzle = serde_json::from_str(text).map_err(|e| PuzzleError::Line {
            line: n,
            reason: format!("not a puzzle: {e}"),
        })?;
        p.line().map_err(|e| PuzzleError::Line {
            line: n,
            reason: e.to_string(),
        })?;
        out.push(p);
    }
    Ok(out)
}

/// The committed puzzle set of `variant` (`crates/puzzle/puzzles/<variant>.jsonl`), as JSON Lines text
/// for [`read_jsonl`].
pub fn embedded_set(variant: Variant) -> &'static str {
    match variant {
        Variant::American => include_str!("../puzzles/american.jsonl"),
        Variant::Pool => include_str!("../puzzles/pool.jsonl"),
        Variant::Impasse => include_str!("../puzzles/impasse.jsonl"),
    }
}

/// Write puzzles, one JSON object per line.
///
/// # Errors
/// The writer's error.
pub fn write_jsonl(mut out: impl Write, puzzles: &[Puzzle]) -> std::io::Result<()> {
    for p in puzzles {
        let line = serde_json::to_string(p).map_err(std::io::Error::other)?;
        writeln!(out, "{line}")?;
    }
    Ok(())
}

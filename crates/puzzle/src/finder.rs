//! Mining and proof of puzzles: positions from real games where the side to move has exactly one
//! move that wins, or exactly one move that keeps a draw every other move loses, proven by the endgame
//! databases where they hold the position and by two searches otherwise.
//!
//! - [`Finder`]: replays a game and returns its puzzles ([`Finder::find_in_game`]); [`Finder::prove`]
//!   decides one position; [`Finder::check`] re-proves a stored puzzle.
//!
//! How a position is decided ([`Finder::prove`]):
//!
//! 1. In the databases (every child probed): the position is a win and exactly one move leads to a
//!    position lost for the opponent ([`Goal::Win`]), or the position is a draw, no move wins, and
//!    exactly one move draws ([`Goal::Draw`]).
//! 2. Otherwise by search: the position is searched ([`FinderOptions::limits`]), then every other
//!    legal move by a search of the position after it (stopping at the first that fails). A win
//!    needs the best score to be a proven win or at least [`WIN_SCORE`] and every other move at
//!    most [`WIN_SCORE`] − [`MARGIN`]; a draw save needs the best score at least −[`DRAW_BAND`]
//!    and every other move at most −[`DRAW_BAND`] − [`MARGIN`] (or a proven loss). The same test is
//!    then repeated with [`FinderOptions::confirm`] (a deeper search) and must give the same move.
//!
//! The solution line is the key move followed by the opponent's best reply and the solver's next
//! move, as long as the solver's move is again the only one (proven the same way), until the game
//! is over, the solver has won at least one piece net ([`is_decisive`]), a puzzle proven by search
//! reaches a database win (or draw, for a draw save), or [`MAX_SOLVER_MOVES`] moves.

use crate::record::{Goal, Proof, Puzzle, Source, Theme};
use crown_ai::tables::{pieces_on_board, probe, EndgameTables, TableProbe, Wdl};
use crown_ai::{Engine, Limits, Score};
use crown_core::{Color, DrawRules, Game, Move, Position, Variant};
use std::collections::HashSet;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Smallest search score (centi-men) counted as a win when no proof is found: 1.5 men.
pub const WIN_SCORE: i32 = 150;
/// Largest distance from 0 (centi-men) of a score counted as a draw by search.
pub const DRAW_BAND: i32 = 40;
/// How far below the winning (or drawing) threshold every other move must score: 1.2 men.
pub const MARGIN: i32 = 120;
/// The most moves of the solver in a solution line.
pub const MAX_SOLVER_MOVES: usize = 6;
/// The verdict on one position: its only good move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The only move that reaches the goal.
    pub mv: Move,
    /// Win or draw.
    pub goal: Goal,
    /// Database or search.
    pub proof: Proof,
    /// The score of the move (from the solver's view) in the decisive search or probe.
    pub score: Score,
}

/// How hard the finder searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinderOptions {
    /// The first search of each position, and of the position after each other move.
    pub limits: Limits,
    /// The confirmation of a candidate (deeper): the same test again.
    pub confirm: Limits,
}

impl FinderOptions {
    /// Searches of `ms` milliseconds, confirmed with four times as long.
    pub fn movetime(ms: u64) -> FinderOptions {
        FinderOptions {
            limits: Limits::movetime(ms),
            confirm: Limits::movetime(ms.saturating_mul(4)),
        }
    }

    /// Searches of `plies` plies, confirmed four plies deeper (deterministic with one thread).
    pub fn depth(plies: u32) -> FinderOptions {
        FinderOptions {
            limits: Limits::depth(plies),
            confirm: Limits::depth(plies + 4),
        }
    }
}

/// Finds, proves and re-proves puzzles with one engine (and its endgame databases, if any).
pub struct Finder<'a> {
    engine: &'a mut Engine,
    tables: Option<Arc<dyn EndgameTables>>,
    options: FinderOptions,
    stop: &'a AtomicBool,
}

/// How a stored puzzle fails its check ([`Finder::check`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckFailure {
    /// The FEN or a solution move cannot be read.
    Invalid(String),
    /// A solver's move of the line is no longer proven the only one (1-based index of the move in
    /// the solution).
    NotUnique {
        /// 1-based index in the solution.
        index: usize,
    },
    /// Another move was proven the only one.
    OtherMove {
        /// 1-based index in the solution.
        index: usize,
        /// The move found instead.
        found: String,
    },
    /// The goal changed (e.g. a win is now only a draw save).
    Goal {
        /// 1-based index in the solution.
        index: usize,
    },
}

impl fmt::Display for CheckFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckFailure::Invalid(s) => f.write_str(s),
            CheckFailure::NotUnique { index } => {
                write!(f, "solution move {index} is not proven the only move")
            }
            CheckFailure::OtherMove { index, found } => {
                write!(f, "solution move {index}: {found} is the only move instead")
            }
            CheckFailure::Goal { index } => {
                write!(f, "solution move {index}: the goal (win or draw) differs")
            }
        }
    }
}

/// Material balance from `side`'s view in checkers (pieces, a king counting 1.5, in halves); `None`
/// in Impasse, where material does not decide.
fn material_halves(pos: &Position, side: Color) -> Option<i32> {
    if pos.variant() == Variant::Impasse {
        return None;
    }
    let value = |c: Color| {
        let kings = pos.kings(c).len() as i32;
        let men = pos.men(c).len() as i32;
        2 * men + 3 * kings
    };
    Some(value(side) - value(side.opposite()))
}

/// Whether the solver (`side`) has won decisively on the board since `start`: checkers, at least
/// one piece more (net) than at the start with the opponent (to move in `pos`) unable to capture.
pub fn is_decisive(start: &Position, pos: &Position, side: Color) -> bool {
    match (material_halves(start, side), material_halves(pos, side)) {
        (Some(a), Some(b)) => b - a >= 2 && !pos.must_capture(),
        _ => false,
    }
}

/// The difficulty estimate of a solution: 1000, plus 150 per solver move after the first, plus 250
/// when the key move is not a capture (it must be seen, not forced), plus 150 when it gives material
/// (a shot), plus 100 per legal alternative beyond the first three (at most 300), plus 150 for a
/// draw save (only defence). Clamped to 800–2400.
pub fn difficulty(pos: &Position, line: &[Move], goal: Goal) -> u32 {
    let Some(key) = line.first() else {
        return 800;
    };
    let mut d: i32 = 1000;
    d += 150 * (line.len() as i32 / 2);
    if !key.is_capture() {
        d += 250;
        if line.get(1).is_some_and(|r| r.is_capture()) {
            d += 150;
        }
    }
    let legal = pos.legal_moves().len() as i32;
    d += (100 * (legal - 3)).clamp(0, 300);
    if goal == Goal::Draw {
        d += 150;
    }
    d.clamp(800, 2400) as u32
}

/// The theme tags of a solution `line` from `pos`.
pub fn themes(pos: &Position, line: &[Move], goal: Goal, proof: Proof) -> Vec<Theme> {
    let mut t = Vec::new();
    let solver: Vec<&Move> = line.iter().step_by(2).collect();
    if let Some(key) = line.first() {
        if !key.is_capture() && line.get(1).is_some_and(|r| r.is_capture()) {
            t.push(Theme::Shot);
        }
        if solver.iter().any(|m| m.capture_count() >= 2) {
            t.push(Theme::MultiJump);
        }
        let crowns = |m: &&Move| m.is_promotion() || m.crown().is_some();
        if !key.is_capture() && solver.iter().any(crowns) {
            t.push(Theme::Breakthrough);
        }
    }
    if pieces_on_board(pos) <= 8 || proof == Proof::Database {
        t.push(Theme::Ending);
    }
    if goal == Goal::Draw {
        t.push(Theme::DrawSave);
    }
    t
}

fn game_of(pos: &Position) -> Game {
    let mut g = Game::from_position(*pos);
    g.set_draw_rules(DrawRules::default());
    g
}

fn is_win(s: Score) -> bool {
    matches!(s, Score::Win(_) | Score::DatabaseWin(_))
}

fn is_loss(s: Score) -> bool {
    matches!(s, Score::Loss(_) | Score::DatabaseLoss(_))
}

/// Whether a score reaches the goal.
fn reaches(goal: Goal, s: Score) -> bool {
    match goal {
        Goal::Win => is_win(s) || matches!(s, Score::Value(v) if v >= WIN_SCORE),
        Goal::Draw => !is_loss(s) && (is_win(s) || s.as_centi() >= -DRAW_BAND),
    }
}

/// Whether a score of another move is far enough below the goal.
fn fails(goal: Goal, s: Score) -> bool {
    match goal {
        Goal::Win => is_loss(s) || matches!(s, Score::Value(v) if v <= WIN_SCORE - MARGIN),
        Goal::Draw => is_loss(s) || matches!(s, Score::Value(v) if v <= -DRAW_BAND - MARGIN),
    }
}

impl<'a> Finder<'a> {
    /// A finder searching with `engine` (and the databases set on it, [`Engine::set_tables`]);
    /// `stop` ends the work early (the results are then incomplete).
    pub fn new(engine: &'a mut Engine, options: FinderOptions, stop: &'a AtomicBool) -> Finder<'a> {
        let tables = engine.tables().cloned();
        Finder {
            engine,
            tables,
            options,
            stop,
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn probe(&self, pos: &Position) -> Option<TableProbe> {
        let t = self.tables.as_deref()?;
        probe(t, pos)
    }

    /// The value of `pos` after the solver's move `mv`, from the solver's view, by the databases.
    fn probe_child(&self, pos: &Position, mv: &Move) -> Option<Wdl> {
        let child = pos.after(mv);
        if let Some(w) = child.winner() {
            return Some(if w == pos.side_to_move() {
                Wdl::Win
            } else {
                Wdl::Loss
            });
        }
        self.probe(&child).map(|p| match p.wdl {
            Wdl::Win => Wdl::Loss,
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
        })
    }

    /// Decide `pos` by the databases: `Some(verdict or None)` when every child is in them.
    fn prove_by_tables(&self, pos: &Position) -> Option<Option<Verdict>> {
        let here = self.probe(pos)?;
        let legal = pos.legal_moves();
        let mut values = Vec::with_capacity(legal.len());
        for mv in legal.iter() {
            values.push((*mv, self.probe_child(pos, mv)?));
        }
        let goal = match here.wdl {
            Wdl::Win => Goal::Win,
            Wdl::Draw => Goal::Draw,
            Wdl::Loss => return Some(None),
        };
        let want = if goal == Goal::Win {
            Wdl::Win
        } else {
            Wdl::Draw
        };
        let good: Vec<Move> = values
            .iter()
            .filter(|(_, w)| *w == want)
            .map(|(m, _)| *m)
            .collect();
        if good.len() != 1 {
            return Some(None);
        }
        let score = match (goal, here.distance) {
            (Goal::Win, Some(d)) => Score::DatabaseWin(d),
            (Goal::Win, None) => Score::DatabaseWin(0),
            (Goal::Draw, _) => Score::Value(0),
        };
        Some(Some(Verdict {
            mv: good[0],
            goal,
            proof: Proof::Database,
            score,
        }))
    }

    /// The score of playing `mv` in `pos`, from the mover's view.
    fn score_after(&mut self, pos: &Position, mv: &Move, limits: &Limits) -> Score {
        let child = pos.after(mv);
        if let Some(w) = child.winner() {
            return if w == pos.side_to_move() {
                Score::Win(1)
            } else {
                Score::Loss(1)
            };
        }
        let r = self
            .engine
            .search(&game_of(&child), limits, self.stop, &mut |_| {});
        r.score.negate()
    }

    /// One round of the search test with `limits`: the only move and its goal, if any.
    fn search_round(&mut self, pos: &Position, limits: &Limits) -> Option<(Move, Goal, Score)> {
        let r = self
            .engine
            .search(&game_of(pos), limits, self.stop, &mut |_| {});
        let best = r.best_move?;
        let goal = if reaches(Goal::Win, r.score) {
            Goal::Win
        } else if reaches(Goal::Draw, r.score) {
            Goal::Draw
        } else {
            return None;
        };
        let legal = pos.legal_moves();
        for alt in legal.iter().filter(|m| **m != best) {
            if self.stopped() {
                return None;
            }
            let s = self.score_after(pos, alt, limits);
            if !fails(goal, s) {
                return None;
            }
        }
        // A draw save: the best move itself must not lose when searched the same way.
        if goal == Goal::Draw {
            let s = self.score_after(pos, &best, limits);
            if !reaches(Goal::Draw, s) {
                return None;
            }
        }
        Some((best, goal, r.score))
    }

    /// Decide whether `pos` has exactly one move that wins (or, when it does not win, one move that
    /// keeps a draw that every other move loses): see the module documentation. The engine's hash
    /// table is cleared first. `None` when not,
    /// when the position has fewer than two legal moves, or when stopped.
    pub fn prove(&mut self, pos: &Position) -> Option<Verdict> {
        if pos.winner().is_some() || pos.legal_moves().len() < 2 {
            return None;
        }
        if let Some(v) = self.prove_by_tables(pos) {
            return v;
        }
        // A fresh hash table: the same position gets the same answer whatever was searched before
        // (with node or depth limits and one thread, `check` repeats `find_in_game` exactly).
        self.engine.new_game();
        let limits = self.options.limits.clone();
        let (mv, goal, _) = self.search_round(pos, &limits)?;
        let confirm = self.options.confirm.clone();
        let (mv2, goal2, score) = self.search_round(pos, &confirm)?;
        if self.stopped() || mv2 != mv || goal2 != goal {
            return None;
        }
        Some(Verdict {
            mv,
            goal,
            proof: Proof::Search,
            score,
        })
    }

    /// Whether the line has reached its end after the solver's move: the position (opponent to
    /// move) is over, or decisive on the board ([`is_decisive`]), or — for a puzzle proven by
    /// search — in the databases with the goal reached. A puzzle proven by the databases goes on
    /// while the solver's moves are the only ones (a database win alone can be far from its end).
    fn line_done(
        &mut self,
        start: &Position,
        pos: &Position,
        solver: Color,
        first: &Verdict,
    ) -> bool {
        if pos.winner().is_some() {
            return true;
        }
        if first.goal == Goal::Win && is_decisive(start, pos, solver) {
            return true;
        }
        if first.proof == Proof::Search || first.goal == Goal::Draw {
            if let Some(p) = self.probe(pos) {
                return match first.goal {
                    Goal::Win => p.wdl == Wdl::Loss,
                    Goal::Draw => p.wdl != Wdl::Win,
                };
            }
        }
        false
    }

    /// The solution line from a proven position: the key move, then replies and only moves.
    fn solution(&mut self, pos: &Position, first: &Verdict) -> Vec<Move> {
        let solver = pos.side_to_move();
        let mut line = vec![first.mv];
        let mut here = pos.after(&first.mv);
        while line.len().div_ceil(2) < MAX_SOLVER_MOVES {
            if self.stopped() || self.line_done(pos, &here, solver, first) {
                break;
            }
            // The opponent's best reply (the databases' by their probe inside the search).
            let reply = match here.legal_moves().len() {
                0 => break,
                1 => here.legal_moves()[0],
                _ => {
                    let limits = self.options.limits.clone();
                    match self
                        .engine
                        .search(&game_of(&here), &limits, self.stop, &mut |_| {})
                        .best_move
                    {
                        Some(m) => m,
                        None => break,
                    }
                }
            };
            let next = here.after(&reply);
            if next.winner().is_some() {
                break;
            }
            let mv = if next.legal_moves().len() == 1 {
                next.legal_moves()[0]
            } else {
                match self.prove(&next) {
                    Some(v) if v.goal == first.goal => v.mv,
                    _ => break,
                }
            };
            line.push(reply);
            line.push(mv);
            here = next.after(&mv);
        }
        line
    }

    /// The puzzle at `pos`, if it is one, with its source filled in from `source`.
    pub fn puzzle_at(&mut self, pos: &Position, source: Source) -> Option<Puzzle> {
        let v = self.prove(pos)?;
        let line = self.solution(pos, &v);
        if self.stopped() {
            return None;
        }
        let mut texts = Vec::with_capacity(line.len());
        let mut p = *pos;
        for m in &line {
            texts.push(p.move_text(m));
            p = p.after(m);
        }
        let stem = std::path::Path::new(&source.file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        Some(Puzzle {
            id: format!(
                "{}-{}-{}-{}",
                pos.variant().id(),
                stem,
                source.game,
                source.ply
            ),
            variant: pos.variant(),
            fen: pos.to_fen(),
            solution: texts,
            goal: v.goal,
            proof: v.proof,
            themes: themes(pos, &line, v.goal, v.proof),
            difficulty: difficulty(pos, &line, v.goal),
            source,
        })
    }

    /// Replay a game of `moves` from `start` and return its puzzles in order. `source` gives the
    /// file, game number and name (its ply is set per puzzle); `seen` holds the Zobrist keys of
    /// positions already made puzzles (in this or earlier games), which are skipped and to which
    /// new ones are added. Positions the game reaches by following a puzzle's solution line are not
    /// tried again (they are part of that puzzle).
    /// `on_ply` is called after each ply (for progress). Stops at the first illegal move.
    pub fn find_in_game(
        &mut self,
        start: &Position,
        moves: &[Move],
        source: &Source,
        seen: &mut HashSet<u64>,
        on_ply: &mut dyn FnMut(usize),
    ) -> Vec<Puzzle> {
        self.engine.new_game();
        let mut out = Vec::new();
        let mut pos = *start;
        // The rest of the last puzzle's line while the game follows it: those positions are part
        // of that puzzle.
        let mut following: Vec<Move> = Vec::new();
        for (ply, mv) in moves.iter().enumerate() {
            if self.stopped() {
                break;
            }
            let inside = !following.is_empty();
            if inside {
                if following[0] == *mv {
                    following.remove(0);
                } else {
                    following.clear();
                }
            }
            if !inside && !seen.contains(&pos.zobrist()) {
                let src = Source {
                    ply,
                    ..source.clone()
                };
                if let Some(p) = self.puzzle_at(&pos, src) {
                    seen.insert(pos.zobrist());
                    if let Ok((_, line)) = p.line() {
                        if line.first() == Some(mv) {
                            following = line[1..].to_vec();
                        }
                    }
                    out.push(p);
                }
            }
            on_ply(ply + 1);
            if !pos.is_legal(mv) {
                break;
            }
            pos = pos.after(mv);
        }
        out
    }

    /// Re-prove a stored puzzle: the key move and every later solver's move of the solution must
    /// again be proven the only one with the same goal (a forced move, the only legal one, passes).
    ///
    /// # Errors
    /// The first [`CheckFailure`].
    pub fn check(&mut self, puzzle: &Puzzle) -> Result<(), CheckFailure> {
        let (positions, moves) = puzzle
            .line()
            .map_err(|e| CheckFailure::Invalid(e.to_string()))?;
        for i in (0..moves.len()).step_by(2) {
            let pos = &positions[i];
            if pos.legal_moves().len() == 1 && i > 0 {
                continue;
            }
            match self.prove(pos) {
                None => return Err(CheckFailure::NotUnique { index: i + 1 }),
                Some(v) if v.mv != moves[i] => {
                    return Err(CheckFailure::OtherMove {
                        index: i + 1,
                        found: pos.move_text(&v.mv),
                    })
                }
                Some(v) if v.goal != puzzle.goal => {
                    return Err(CheckFailure::Goal { index: i + 1 })
                }
                Some(_) => {}
            }
        }
        Ok(())
    }
}

//! Game review: every move of a game checked by the engine, as `crown annotate`, the TUI's "Review
//! game" and the web app show it.
//!
//! For each position of the game the engine searches once ([`Engine::search`]) for its best move and
//! score; when the move played differs, the position after it is searched as well (one ply less deep
//! with a depth limit) for the score of the move played. A move forced by the rules (the only legal
//! move) is scored by a search of the position after it, as the engine answers a single legal move
//! at once under a time limit. The mover's **loss** is the drop of its
//! expected score ([`expected_score`], a logistic of the evaluation; a proven win is 1 and a proven
//! loss 0), so one man lost in a won position weighs less than one man lost in a level position.
//! [`Mark`]s come from the loss ([`Mark::from_loss`]); [`Mark::Only`] (`!`) is given only to the move
//! played when it is the engine's best move, it is not itself lost, and every other legal move was
//! searched to a proven loss. Constants and thresholds are documented in docs/engine.md
//! ("Game review").
//!
//! ```
//! use crown_ai::review::{review_game, ReviewOptions};
//! use crown_ai::{Engine, EngineOptions, Limits};
//! use crown_core::{Game, Variant};
//! use std::sync::atomic::AtomicBool;
//!
//! let mut game = Game::new(Variant::American);
//! for m in ["11-15", "23-19", "8-11", "22-17"] {
//!     game.play_text(m).unwrap();
//! }
//! let mut engine = Engine::new(EngineOptions::default());
//! let opts = ReviewOptions { limits: Limits::depth(3), check_only_moves: false };
//! let review = review_game(&mut engine, game.start(), &game.moves(), &opts, &AtomicBool::new(false), &mut |_| {})
//!     .expect("not stopped");
//! assert_eq!(review.moves.len(), 4);
//! ```

use crate::{Engine, Limits, Score, SearchResult};
use crown_core::{Color, DrawRules, Game, Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};

/// The scale of the logistic in [`expected_score`], in centi-men: an evaluation of `+K` is an
/// expected score of `1 / (1 + e^-1)` ≈ 0.73.
pub const EXPECTED_SCORE_SCALE: f64 = 100.0;

/// Smallest loss (expected-score units, 0–1) marked an inaccuracy `?!`.
pub const INACCURACY: f64 = 0.06;
/// Smallest loss (expected-score units) marked a mistake `?`.
pub const MISTAKE: f64 = 0.12;
/// Smallest loss (expected-score units) marked a blunder `??`.
pub const BLUNDER: f64 = 0.20;
/// Expected score (of the first player) at or above which a position is counted as won, and at or
/// below `1 − WIN_BAND` as lost, for [`TurningPoint`]s: ±1.39 men with
/// [`EXPECTED_SCORE_SCALE`] = 100.
pub const WIN_BAND: f64 = 0.8;

/// The expected score (0 = lost, 1 = won) of the side a [`Score`] belongs to: `1 / (1 + e^(−v/K))`
/// for an evaluation of `v` centi-men with `K` = [`EXPECTED_SCORE_SCALE`]; a proven win is 1, a
/// proven loss 0.
pub fn expected_score(score: Score) -> f64 {
    match score {
        Score::Win(_) | Score::DatabaseWin(_) => 1.0,
        Score::Loss(_) | Score::DatabaseLoss(_) => 0.0,
        Score::Value(v) => 1.0 / (1.0 + (-f64::from(v) / EXPECTED_SCORE_SCALE).exp()),
    }
}

/// A mark given to a move, written as a PDN move-strength NAG.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// `!` (NAG 1): the only move that keeps the game (every other legal move was proven lost).
    Only,
    /// `?!` (NAG 6): a loss of at least [`INACCURACY`].
    Inaccuracy,
    /// `?` (NAG 2): a loss of at least [`MISTAKE`].
    Mistake,
    /// `??` (NAG 4): a loss of at least [`BLUNDER`].
    Blunder,
}

impl Mark {
    /// The mark for a loss in expected-score units (0–1), `None` below [`INACCURACY`].
    pub fn from_loss(loss: f64) -> Option<Mark> {
        if loss >= BLUNDER {
            Some(Mark::Blunder)
        } else if loss >= MISTAKE {
            Some(Mark::Mistake)
        } else if loss >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// The PDN numeric annotation glyph (PGN/PDN NAG table): 1 `!`, 6 `?!`, 2 `?`, 4 `??`.
    pub fn nag(self) -> u32 {
        match self {
            Mark::Only => 1,
            Mark::Inaccuracy => 6,
            Mark::Mistake => 2,
            Mark::Blunder => 4,
        }
    }

    /// The symbol: `!`, `?!`, `?`, `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Only => "!",
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// What the engine says about one move of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// 0-based ply of the move in the game.
    pub ply: usize,
    /// The side that played it.
    pub mover: Color,
    /// The move played.
    pub played: Move,
    /// The engine's best move in the position before it.
    pub best: Move,
    /// The engine's principal variation from the position before the move (starts with `best`).
    pub best_line: Vec<Move>,
    /// Score of the engine's best move, from the mover's view.
    pub best_score: Score,
    /// Score of the move played, from the mover's view, in the position after it: a win or loss
    /// counts the plies from there (`best_score` one ply nearer its end when the move is `best`).
    pub played_score: Score,
    /// Depth in plies of the search that scored the move played.
    pub depth: u32,
    /// The mover's loss in expected-score units (0–1): `E(best) − E(played)`, never negative.
    pub loss: f64,
    /// The mark, if any.
    pub mark: Option<Mark>,
}

impl MoveReview {
    /// True when the move played is the engine's best move.
    pub fn is_best(&self) -> bool {
        self.played == self.best
    }
}

/// Which way a position leans, from the first player's view, by [`WIN_BAND`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Band {
    /// The first player wins (expected score ≥ [`WIN_BAND`] or a proven win).
    FirstWins,
    /// Neither side is winning.
    Balanced,
    /// The second player wins.
    SecondWins,
}

impl Band {
    /// The band of an expected score of the first player (0–1).
    pub fn of(expected_first: f64) -> Band {
        if expected_first >= WIN_BAND {
            Band::FirstWins
        } else if expected_first <= 1.0 - WIN_BAND {
            Band::SecondWins
        } else {
            Band::Balanced
        }
    }
}

/// A ply where the evaluation crossed a win/draw/loss boundary: the move at `ply` changed the band
/// of the position from `before` to `after` (first player's view).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TurningPoint {
    /// 0-based ply of the move that turned the game.
    pub ply: usize,
    /// Band before the move.
    pub before: Band,
    /// Band after the move.
    pub after: Band,
}

/// Counts for one side of a game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Moves reviewed.
    pub moves: usize,
    /// `!` moves.
    pub only_moves: usize,
    /// `?!` moves.
    pub inaccuracies: usize,
    /// `?` moves.
    pub mistakes: usize,
    /// `??` moves.
    pub blunders: usize,
    /// Average loss per move in expected-score units (0–1; 0 with no moves).
    pub average_loss: f64,
}

/// The review of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReview {
    /// The variant's first player (Black in checkers, White in Impasse), whose view `evals` take.
    pub first: Color,
    /// One entry per move reviewed, in order (moves played in a position that was already over by
    /// the draw rules, e.g. after an unclaimed threefold repetition, are not reviewed).
    pub moves: Vec<MoveReview>,
    /// The evaluation of every position from the first player's view, in expected-score units
    /// (0–1): `evals[i]` is the position before ply `i`; `evals.len() = plies + 1` when the last
    /// position was evaluated. Positions not evaluated repeat the previous value.
    pub evals: Vec<f64>,
    /// Turning points in order.
    pub turning_points: Vec<TurningPoint>,
}

impl GameReview {
    /// The summary of `side`'s moves.
    pub fn summary(&self, side: Color) -> SideSummary {
        let mut s = SideSummary::default();
        let mut total = 0.0;
        for m in self.moves.iter().filter(|m| m.mover == side) {
            s.moves += 1;
            total += m.loss;
            match m.mark {
                Some(Mark::Only) => s.only_moves += 1,
                Some(Mark::Inaccuracy) => s.inaccuracies += 1,
                Some(Mark::Mistake) => s.mistakes += 1,
                Some(Mark::Blunder) => s.blunders += 1,
                None => {}
            }
        }
        if s.moves > 0 {
            s.average_loss = total / s.moves as f64;
        }
        s
    }

    /// The review of the move at `ply`, if it was reviewed.
    pub fn at(&self, ply: usize) -> Option<&MoveReview> {
        self.moves.iter().find(|m| m.ply == ply)
    }
}

/// How to review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewOptions {
    /// Limits of the search of each position. The search of the position after a move that is not
    /// the engine's best gets the same limits, one ply less deep when a depth is set.
    pub limits: Limits,
    /// Look for `!` moves: when the move played is the engine's best, search every other legal move
    /// until one is not a proven loss — with the limits of the move played, but a quarter of the
    /// time (at least 10 ms) when a time is set: a loss proven in less time is still proven, and
    /// the usual answer (not lost) costs a quarter of a search.
    pub check_only_moves: bool,
}

impl Default for ReviewOptions {
    fn default() -> Self {
        ReviewOptions {
            limits: Limits::movetime(100),
            check_only_moves: true,
        }
    }
}

/// Limits for the other moves searched when looking for a `!` move (see
/// [`ReviewOptions::check_only_moves`]).
fn alternative_limits(limits: &Limits) -> Limits {
    let mut l = child_limits(limits);
    if let Some(ms) = l.movetime_ms {
        l.movetime_ms = Some((ms / 4).max(10));
    }
    l
}

fn child_limits(limits: &Limits) -> Limits {
    let mut l = limits.clone();
    if let Some(d) = l.depth {
        l.depth = Some(d.saturating_sub(1).max(1));
    }
    l
}

/// The run of forced moves from `game` (each the only legal move, at least one) and the first
/// position after them with a choice of moves; `None` when the run ends the game (or is longer
/// than 64 plies), where a search of `game` itself sees the end.
fn forced_run(game: &Game) -> Option<(Vec<Move>, Game)> {
    let mut g = game.clone();
    let mut line = Vec::new();
    loop {
        if g.outcome().is_some() || line.len() > 64 {
            return None;
        }
        let legal = g.legal_moves();
        match legal.len() {
            0 => return None,
            1 => {
                g.play(&legal[0]).ok()?;
                line.push(legal[0]);
            }
            _ => return (!line.is_empty()).then_some((line, g)),
        }
    }
}

/// Score of playing `mv` in `game`, from the mover's view: a search of the position after it.
fn score_after(
    engine: &mut Engine,
    game: &Game,
    mv: &Move,
    limits: &Limits,
    stop: &AtomicBool,
) -> (Score, u32) {
    let mut g = game.clone();
    // The move came from the legal moves of the position; the game is not over (checked by caller).
    let _ = g.play(mv);
    // A move that leaves the opponent a single legal move (an exchange offered) is scored past the
    // forced run, as the engine answers a single legal move at once (see `review_game`).
    let (g, run) = match forced_run(&g) {
        Some((line, after)) => (after, line.len()),
        None => (g, 0),
    };
    let r = engine.search(&g, limits, stop, &mut |_| {});
    let score = if run % 2 == 0 {
        r.score.negate()
    } else {
        r.score
    };
    // Counted from the position right after `mv`: the forced run's plies come first.
    (plies_later(score, run as i64), r.depth + 1 + run as u32)
}

/// `score` with its win or loss distance moved by `delta` plies (never below 0); a value unchanged.
fn plies_later(score: Score, delta: i64) -> Score {
    let d = |n: u32| (i64::from(n) + delta).clamp(0, i64::from(u32::MAX)) as u32;
    match score {
        Score::Value(v) => Score::Value(v),
        Score::Win(n) => Score::Win(d(n)),
        Score::Loss(n) => Score::Loss(d(n)),
        Score::DatabaseWin(n) => Score::DatabaseWin(d(n)),
        Score::DatabaseLoss(n) => Score::DatabaseLoss(d(n)),
    }
}

/// Review a game of `moves` from `start` with `engine`: see the module documentation. `on_ply` is
/// called after each move reviewed with the number of moves done so far (for progress bars).
/// Returns `None` when `stop` was set before the review finished (a partial review would hold
/// scores of interrupted searches). Moves must be legal in turn (as [`crown_core::Game::play`]
/// checks); the review stops at the first one that is not.
pub fn review_game(
    engine: &mut Engine,
    start: &Position,
    moves: &[Move],
    options: &ReviewOptions,
    stop: &AtomicBool,
    on_ply: &mut dyn FnMut(usize),
) -> Option<GameReview> {
    engine.new_game();
    let first = start.variant().first_player();
    // Recorded games may go on past a repetition nobody claimed: play with the history rules off and
    // search with them on.
    let mut game = Game::from_position(*start);
    game.set_draw_rules(DrawRules {
        repetition: false,
        forty_moves: false,
    });
    let child = child_limits(&options.limits);
    let alternative = alternative_limits(&options.limits);
    let mut reviewed = Vec::new();
    let mut evals = Vec::with_capacity(moves.len() + 1);
    let first_view = |mover: Color, s: Score| {
        let e = expected_score(s);
        if mover == first {
            e
        } else {
            1.0 - e
        }
    };
    // A search done ahead (for a forced move, see below): the ply of the position it searched, and
    // its result.
    let mut ahead: Option<(usize, SearchResult)> = None;
    for (ply, mv) in moves.iter().enumerate() {
        let searched_ahead = ahead.take();
        let mut here = game.clone();
        here.set_draw_rules(DrawRules::default());
        let mover = here.position().side_to_move();
        let legal = here.legal_moves();
        if here.outcome().is_some() || legal.is_empty() {
            evals.push(evals.last().copied().unwrap_or(0.5));
        } else {
            // Under a time limit the engine answers a single legal move at once, at depth 1: a
            // forced move (and a run of them, a capture answered by a forced recapture) is scored
            // by a search of the first position after it where there is a choice. Later plies of
            // the run reuse that search instead of searching it again.
            let forced = (legal.len() == 1 && legal[0] == *mv)
                .then(|| forced_run(&here))
                .flatten();
            let r = match forced {
                Some((line, g)) => {
                    let target = ply + line.len();
                    let next = match searched_ahead {
                        Some((at, r)) if at == target => r,
                        _ => engine.search(&g, &options.limits, stop, &mut |_| {}),
                    };
                    let r = SearchResult {
                        best_move: Some(*mv),
                        score: if line.len() % 2 == 1 {
                            next.score.negate()
                        } else {
                            next.score
                        },
                        pv: line.iter().chain(next.pv.iter()).copied().collect(),
                        depth: next.depth + line.len() as u32,
                        nodes: next.nodes,
                        time_ms: next.time_ms,
                    };
                    ahead = Some((target, next));
                    r
                }
                None => match searched_ahead {
                    Some((at, r)) if at == ply => r,
                    _ => engine.search(&here, &options.limits, stop, &mut |_| {}),
                },
            };
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let best = r.best_move.unwrap_or(*mv);
            evals.push(first_view(mover, r.score));
            let (played_score, depth) = if best == *mv {
                (plies_later(r.score, -1), r.depth)
            } else {
                score_after(engine, &here, mv, &child, stop)
            };
            let loss = (expected_score(r.score) - expected_score(played_score)).max(0.0);
            let mut mark = if best == *mv {
                None
            } else {
                Mark::from_loss(loss)
            };
            if best == *mv
                && options.check_only_moves
                && legal.len() > 1
                && !matches!(played_score, Score::Loss(_) | Score::DatabaseLoss(_))
            {
                let all_lost = legal.iter().filter(|m| *m != mv).all(|alt| {
                    let (s, _) = score_after(engine, &here, alt, &alternative, stop);
                    matches!(s, Score::Loss(_) | Score::DatabaseLoss(_))
                });
                if all_lost {
                    mark = Some(Mark::Only);
                }
            }
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            reviewed.push(MoveReview {
                ply,
                mover,
                played: *mv,
                best,
                best_line: r.pv,
                best_score: r.score,
                played_score,
                depth,
                loss,
                mark,
            });
        }
        if game.play(mv).is_err() {
            break;
        }
        on_ply(reviewed.len());
    }
    // The final position.
    let mut end = game.clone();
    end.set_draw_rules(DrawRules::default());
    let last = evals.last().copied().unwrap_or(0.5);
    let end_eval = match end.outcome() {
        Some(o) => match o.winner() {
            Some(w) if w == first => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        },
        None => {
            let r = match ahead.take() {
                Some((at, r)) if at == moves.len() => r,
                _ => engine.search(&end, &options.limits, stop, &mut |_| {}),
            };
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            if r.best_move.is_some() {
                first_view(end.position().side_to_move(), r.score)
            } else {
                last
            }
        }
    };
    evals.push(end_eval);
    let turning_points = turning_points(&evals);
    Some(GameReview {
        first,
        moves: reviewed,
        evals,
        turning_points,
    })
}

/// The plies where the evaluation (first player's expected score, `evals[i]` before ply `i`) moves
/// into another [`Band`] and stays there after the reply: the move at ply `i` is a turning point
/// when `evals[i + 1]` is in another band than the last band held, and `evals[i + 2]` (when there
/// is one) is in that band too. A band left for one ply only (an evaluation that swings with the
/// side to move) is not a turning point.
pub fn turning_points(evals: &[f64]) -> Vec<TurningPoint> {
    let Some(first) = evals.first() else {
        return Vec::new();
    };
    let mut held = Band::of(*first);
    let mut out = Vec::new();
    for ply in 0..evals.len().saturating_sub(1) {
        let after = Band::of(evals[ply + 1]);
        let stays = evals.get(ply + 2).is_none_or(|e| Band::of(*e) == after);
        if after != held && stays {
            out.push(TurningPoint {
                ply,
                before: held,
                after,
            });
            held = after;
        }
    }
    out
}

/// A one-line graph of `evals` (first player's expected score, 0–1) in `width` cells of the block
/// characters `▁▂▃▄▅▆▇█` (low = the second player is winning), each cell the average of the plies
/// it covers; empty for no evals or a width of 0.
pub fn sparkline(evals: &[f64], width: usize) -> String {
    const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    if evals.is_empty() || width == 0 {
        return String::new();
    }
    let cells = width.min(evals.len());
    (0..cells)
        .map(|c| {
            let lo = c * evals.len() / cells;
            let hi = ((c + 1) * evals.len() / cells).max(lo + 1);
            let avg = evals[lo..hi].iter().sum::<f64>() / (hi - lo) as f64;
            BLOCKS[((avg.clamp(0.0, 1.0) * 8.0) as usize).min(7)]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_score_is_a_logistic_with_proven_ends() {
        assert_eq!(expected_score(Score::Value(0)), 0.5);
        assert_eq!(expected_score(Score::Win(3)), 1.0);
        assert_eq!(expected_score(Score::Loss(3)), 0.0);
        // 1 / (1 + e^-1)
        assert!((expected_score(Score::Value(100)) - 0.731_058_6).abs() < 1e-6);
        // A man lost in a level position weighs more than a man lost two men up.
        let level = expected_score(Score::Value(0)) - expected_score(Score::Value(-100));
        let won = expected_score(Score::Value(300)) - expected_score(Score::Value(200));
        assert!(level > won);
        assert_eq!(Mark::from_loss(level), Some(Mark::Blunder));
        assert_eq!(Mark::from_loss(won), Some(Mark::Inaccuracy));
    }

    #[test]
    fn marks_and_nags() {
        assert_eq!(Mark::from_loss(0.0), None);
        assert_eq!(Mark::from_loss(0.059), None);
        assert_eq!(Mark::from_loss(0.06), Some(Mark::Inaccuracy));
        assert_eq!(Mark::from_loss(0.12), Some(Mark::Mistake));
        assert_eq!(Mark::from_loss(0.5), Some(Mark::Blunder));
        // PGN/PDN NAG table: $1 good move, $2 poor move, $4 very poor move, $6 questionable move.
        let nags: Vec<u32> = [Mark::Only, Mark::Mistake, Mark::Blunder, Mark::Inaccuracy]
            .iter()
            .map(|m| m.nag())
            .collect();
        assert_eq!(nags, [1, 2, 4, 6]);
    }

    #[test]
    fn sparkline_blocks() {
        assert_eq!(sparkline(&[0.0, 0.5, 1.0], 3), "▁▅█");
        assert_eq!(sparkline(&[0.0, 0.0, 1.0, 1.0], 2), "▁█");
        assert_eq!(sparkline(&[], 5), "");
    }

    #[test]
    fn turning_points_cross_bands() {
        // 0.85 at ply 2 holds after the reply (0.9): a turning point at ply 1. 0.5 at ply 4 is
        // left at once (0.1): the turn is the move at ply 4, from the first player winning to the
        // second.
        let t = turning_points(&[0.5, 0.6, 0.85, 0.9, 0.5, 0.1]);
        assert_eq!(
            t,
            vec![
                TurningPoint {
                    ply: 1,
                    before: Band::Balanced,
                    after: Band::FirstWins
                },
                TurningPoint {
                    ply: 4,
                    before: Band::FirstWins,
                    after: Band::SecondWins
                },
            ]
        );
        // A swing for one ply with the side to move is no turning point.
        assert!(turning_points(&[0.5, 0.85, 0.5, 0.85, 0.5, 0.5]).is_empty());
        assert!(turning_points(&[]).is_empty());
    }
}

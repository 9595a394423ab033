//! The search: iterative deepening over a principal-variation negamax with a shared transposition
//! table, run by one main thread and `threads − 1` lazy-SMP helpers.

use crate::tables::{self, EndgameTables, TableProbe, Wdl};
use crate::tt::{Bound, Table};
use crate::{Engine, Limits, Score, SearchInfo, SearchResult};
use crown_core::{Game, Move, MoveList, Position, Variant, FORTY_MOVE_PLIES, MOVE_LIST_CAPACITY};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use web_time::Instant;

mod driver;
mod root;
mod root_tables;
mod score;
mod time;

pub(crate) use driver::run;
use root_tables::table_root;
pub(crate) use score::score_of;
use score::{db_score, from_tt, to_tt};
use time::time_bounds;

/// The deepest ply the search can reach (nominal depth plus extensions and quiescence).
pub const MAX_PLY: usize = 128;
/// Score of a win at the root; a win in `n` plies scores `MATE − n`.
pub(crate) const MATE: i32 = 30_000;
/// Scores beyond this are wins or losses.
const MATE_BOUND: i32 = MATE - 1_000;
/// Score of a database win at the root: a database win in `n` plies scores `DB_WIN − n`, in a band
/// of its own below the searched wins, so that a score says where it came from.
pub(crate) const DB_WIN: i32 = MATE_BOUND - 1_000;
/// Scores beyond this (and below [`MATE_BOUND`]) are database wins or losses.
const DB_BOUND: i32 = DB_WIN - 1_000;
/// Longest distance in plies a database score can carry (longer ones are clamped).
pub(crate) const MAX_DB_DISTANCE: u32 = 900;
const INF: i32 = 31_000;
/// Nodes between checks of the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;
/// One ply of remaining depth inside the search (and in the transposition table): depths are
/// counted in quarter plies, so that extensions and reductions can be fractions of a ply.
pub(crate) const PLY: i32 = 4;

/// Everything the threads of one search share.
struct Shared<'a> {
    tt: &'a Table,
    stop: &'a AtomicBool,
    abort: AtomicBool,
    nodes: AtomicU64,
    start: Instant,
    hard: Option<Instant>,
    node_limit: Option<u64>,
    variant: Variant,
    /// Trained evaluation weights, or `None` for the classic evaluation.
    weights: Option<&'a crate::trained::Weights>,
    /// The network evaluation, when chosen and given for this game (it replaces `weights`).
    network: Option<&'a crate::eval::network::Network>,
    repetition: bool,
    forty_moves: bool,
    exact_root: bool,
    /// The endgame databases and the most pieces they hold for this variant (0: none).
    tables: Option<&'a dyn EndgameTables>,
    table_pieces: u32,
    /// The search switches in force.
    tweaks: crate::Tweaks,
}

#[derive(Clone)]
struct RootMove {
    mv: Move,
    score: i32,
    pv: Vec<Move>,
}

struct Worker<'a> {
    sh: &'a Shared<'a>,
    id: usize,
    lists: Vec<MoveList>,
    scores: Vec<[i32; MOVE_LIST_CAPACITY]>,
    order: Vec<[u16; MOVE_LIST_CAPACITY]>,
    /// Per ply: history slots of the quiet moves searched so far at the node (for the malus on a
    /// cutoff); kept here, like `order`, so no node zeroes a 1 KiB array on the stack.
    tried: Vec<[u16; MOVE_LIST_CAPACITY]>,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    /// Zobrist keys of the positions before the current one (game history, then the search path).
    keys: Vec<u64>,
    pv: Vec<Vec<Move>>,
    root_moves: Vec<RootMove>,
    nodes: u64,
    flushed: u64,
    seldepth: usize,
    /// Positions evaluated statically (the leaves) in the current iteration, and the sum of their
    /// plies: the `mean-depth` of the Hub protocol's `info` line.
    leaves: u64,
    leaf_plies: u64,
    stopped: bool,
    /// The main thread may stop on time or the flag only after completing depth 1.
    can_stop: bool,
    /// The network's accumulators, one per ply (`None` without the network evaluation).
    accs: Option<crate::eval::network::AccStack>,
}

/// The outcome of one completed iteration.
#[derive(Clone)]
struct Completed {
    depth: u32,
    score: i32,
    root: Vec<RootMove>,
}

impl<'a> Worker<'a> {
    fn new(sh: &'a Shared<'a>, id: usize, keys: Vec<u64>, root: &Position) -> Worker<'a> {
        let list = root.legal_moves();
        Worker {
            sh,
            id,
            lists: (0..MAX_PLY).map(|_| MoveList::new()).collect(),
            scores: vec![[0; MOVE_LIST_CAPACITY]; MAX_PLY],
            order: vec![[0; MOVE_LIST_CAPACITY]; MAX_PLY],
            tried: vec![[0; MOVE_LIST_CAPACITY]; MAX_PLY],
            killers: vec![[None, None]; MAX_PLY],
            history: vec![0; 2 * 32 * 32],
            keys,
            pv: vec![Vec::new(); MAX_PLY + 1],
            root_moves: list
                .iter()
                .map(|&mv| RootMove {
                    mv,
                    score: -INF,
                    pv: vec![mv],
                })
                .collect(),
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            leaves: 0,
            leaf_plies: 0,
            stopped: false,
            can_stop: false,
            accs: sh
                .network
                .map(|net| crate::eval::network::AccStack::new(net, MAX_PLY + 1)),
        }
    }

    /// The static evaluation of `board`, the node at `ply`: the network's (its accumulator brought
    /// up to date) when the search has one and the board at least
    /// [`crate::eval::network::MIN_PIECES`] pieces, else the trained or classic evaluation.
    #[inline]
    fn static_eval(&mut self, board: &crate::board::Board, ply: usize) -> i32 {
        match (self.sh.network, self.accs.as_mut()) {
            (Some(net), Some(accs)) if board.network_sized() => accs.evaluate(net, ply),
            _ => board.evaluate_with(self.sh.variant, self.sh.weights),
        }
    }

    /// Count a leaf (a static evaluation) at `ply`.
    #[inline]
    fn leaf(&mut self, ply: usize) {
        self.leaves += 1;
        self.leaf_plies += ply as u64;
    }

    /// The mean ply of the leaves of the current iteration in hundredths of a ply (0 when none).
    fn mean_depth_hundredths(&self) -> u32 {
        (self.leaf_plies * 100)
            .checked_div(self.leaves)
            .map_or(0, |m| m.min(u64::from(u32::MAX)) as u32)
    }

    fn flush(&mut self) {
        self.sh
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    fn check(&mut self) {
        self.flush();
        if self.sh.abort.load(Ordering::Relaxed) && (self.id != 0 || self.can_stop) {
            self.stopped = true;
            return;
        }
        if self.id != 0 || !self.can_stop {
            return;
        }
        let out_of_time = self.sh.hard.is_some_and(|h| Instant::now() >= h);
        let out_of_nodes = self
            .sh
            .node_limit
            .is_some_and(|n| self.sh.nodes.load(Ordering::Relaxed) >= n);
        if out_of_time || out_of_nodes || self.sh.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            self.sh.abort.store(true, Ordering::Relaxed);
        }
    }

    /// One step of the selection sort of the moves at `ply`: the best-scored of moves `k..n` is
    /// swapped to `k`.
    fn select(&mut self, ply: usize, k: usize, n: usize) {
        let mut bi = k;
        for j in k + 1..n {
            if self.scores[ply][j] > self.scores[ply][bi] {
                bi = j;
            }
        }
        self.scores[ply].swap(k, bi);
        self.order[ply].swap(k, bi);
    }

    fn is_man_move(&self, pos: &Position, mv: &Move) -> bool {
        self.sh.variant.is_draughts() && pos.men(pos.side_to_move()).contains(mv.from())
    }

    /// The alpha-beta search of `pos` at `ply` with `depth` left (in [`PLY`] units: quarter
    /// plies); `quiet` counts the plies since the last capture or man move (draw rules), `trunc`
    /// the depth the material truncation took on the way here (given back when the material comes
    /// inside the margin again).
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        quiet: u32,
        trunc: i32,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        if pv_node {
            self.pv[ply].clear();
        }
        self.nodes += 1;
        if self.nodes % CHECK_EVERY == 0 {
            self.check();
        }
        if self.stopped {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        let side = pos.side_to_move();
        let board = crate::board::Board::of(pos);
        if let Some(accs) = self.accs.as_mut() {
            accs.enter(ply, &board);
        }
        // Impasse: the side that just moved removed its last checker and won.
        if self.sh.variant == Variant::Impasse && pos.checkers(side.opposite()) == 0 {
            return -(MATE - ply as i32);
        }
        let key = pos.zobrist();
        if self.sh.forty_moves && quiet >= FORTY_MOVE_PLIES {
            return 0;
        }
        if self.sh.repetition && quiet >= 4 {
            let len = self.keys.len();
            let window = (quiet as usize).min(len);
            let mut k = 2;
            while k <= window {
                if self.keys[len - k] == key {
                    return 0;
                }
                k += 2;
            }
        }
        // Endgame databases: the perfect-play value, no search below.
        if self.sh.table_pieces > 0 && tables::pieces_on_board(pos) <= self.sh.table_pieces {
            if let Some(p) = self.sh.tables.and_then(|t| t.probe(pos)) {
                return db_score(p, ply);
            }
        }
        // Mate distance pruning.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if ply >= MAX_PLY - 1 {
            self.leaf(ply);
            return self.static_eval(&board, ply);
        }
        let tw = self.sh.tweaks;
        let (depth_in, trunc_in) = (depth, trunc);
        let mut depth = depth;
        let mut trunc = trunc;
        // Material truncation (Cake): a side far outside the window by material alone loses a
        // ply; the plies come back once the material is inside the margin again.
        if tw.truncation > 0 {
            let outside = pos.piece_count(side) + pos.piece_count(side.opposite()) > 8 && {
                let m = material(pos, side, self.sh.variant);
                m < alpha - tw.truncation || m > beta + tw.truncation
            };
            if outside {
                depth -= tw.truncation_depth;
                trunc += tw.truncation_depth;
            } else {
                depth += trunc;
                trunc = 0;
            }
        }
        let mut hash_idx = None;
        // Leaves and capture quiescence do not use the table (it would cost a cache miss per node).
        let use_tt = depth > 0;
        if let Some(e) = if use_tt { self.sh.tt.probe(key) } else { None } {
            hash_idx = e.move_index;
            if !pv_node && e.depth >= depth {
                let s = from_tt(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        // ProbCut (Buro): a shallower null-window search of this node well above beta that fails
        // high is taken as a cutoff.
        // Not in small endgames, as reverse futility below.
        if tw.probcut
            && !pv_node
            && depth >= 5 * PLY
            && beta.abs() < DB_BOUND - crate::PROBCUT_MARGIN
            && board.network_sized()
        {
            let rbeta = beta + crate::PROBCUT_MARGIN;
            let s = self.negamax(
                pos,
                depth_in - crate::PROBCUT_REDUCTION * PLY,
                rbeta - 1,
                rbeta,
                ply,
                quiet,
                trunc_in,
            );
            if self.stopped {
                return 0;
            }
            if s >= rbeta {
                return s;
            }
        }
        pos.legal_moves_into(&mut self.lists[ply]);
        let n = self.lists[ply].len();
        if n == 0 {
            return -(MATE - ply as i32);
        }
        let captures = self.lists[ply][0].is_capture();
        let draughts = self.sh.variant.is_draughts();
        // At the horizon: stand pat, unless the opponent threatens a capture; then every move is
        // searched one more ply (its replies only resolve captures).
        let mut threat = false;
        // Impasse crown quiescence: the static evaluation this node may stand pat on.
        let mut stand_pat = None;
        if depth <= 0 && !captures {
            if depth > -PLY && draughts && tw.threat_extension && pos.can_capture(side.opposite()) {
                if tw.threat_margin > 0 {
                    let ev = self.static_eval(&board, ply);
                    if ev < alpha - tw.threat_margin || ev > beta + tw.threat_margin {
                        return ev;
                    }
                }
                threat = true;
                depth = PLY;
            } else if !draughts
                && tw.crown_quiescence > 0
                && depth > -crate::CROWN_QUIESCENCE_PLIES * PLY
                && self.lists[ply]
                    .iter()
                    .any(|m| progress_move(m, tw.crown_quiescence))
            {
                // Impasse crown quiescence: stand pat, or crown (bear off) and look again.
                let ev = self.static_eval(&board, ply);
                if ev >= beta {
                    self.leaf(ply);
                    return ev;
                }
                stand_pat = Some(ev);
            } else {
                self.leaf(ply);
                return self.static_eval(&board, ply);
            }
        }
        // Internal iterative reduction: no move from the table, one ply less.
        if tw.iir && depth >= 4 * PLY && hash_idx.is_none() {
            depth -= PLY;
        }
        let ext = if n == 1 && depth > 0 {
            tw.single_reply
        } else {
            0
        };
        // Reverse futility and futility pruning near the horizon (switches in `SearchTweaks`), only
        // where the static evaluation means something: no capture for either side, no proven score.
        let mut futile = false;
        if (tw.reverse_futility || tw.futility)
            && !pv_node
            && !captures
            && !threat
            && n > 1
            && depth > 0
            && depth <= (3 * PLY).max(tw.rfp_depth)
            && alpha.abs() < DB_BOUND
            && beta.abs() < DB_BOUND
            && !(draughts && pos.can_capture(side.opposite()))
        {
            let ev = self.static_eval(&board, ply);
            let rfp = tw.rfp_margin * depth / PLY;
            // Not in small endgames (fewer than the network's `MIN_PIECES`): there a won
            // position scores far above beta at every node, and cutting on it keeps the search
            // from finding the win (two kings against one in the double corner went unproven).
            if tw.reverse_futility
                && depth <= tw.rfp_depth
                && board.network_sized()
                && ev - rfp >= beta
            {
                return ev - rfp;
            }
            futile = tw.futility
                && depth <= 2 * PLY
                && ev + crate::FUTILITY_MARGIN * depth / PLY <= alpha;
        }
        let my_men = if draughts {
            board.men[side as usize]
        } else {
            0
        };
        let ci = side as usize * 1024;
        // Score the moves for ordering.
        let killers = self.killers[ply];
        for i in 0..n {
            let mv = &self.lists[ply][i];
            let s = if Some(i) == hash_idx {
                1 << 30
            } else if mv.is_capture() {
                (1 << 24) + mv.capture_count() as i32 * 1024
            } else if mv.is_promotion() || mv.bears_off() {
                1 << 23
            } else if mv.crown().is_some() {
                (1 << 23) - 1
            } else if killers[0].as_ref() == Some(mv) {
                1 << 22
            } else if killers[1].as_ref() == Some(mv) {
                1 << 21
            } else {
                self.history[ci + mv.from().index() * 32 + mv.to().index()]
            };
            self.scores[ply][i] = s;
            self.order[ply][i] = i as u16;
        }
        // Enhanced transposition cutoffs: a child whose stored bound already refutes this node.
        if tw.etc && !pv_node && !threat && depth >= 3 * PLY && beta.abs() < DB_BOUND {
            let child_depth = depth - PLY + ext;
            for i in 0..n {
                let child = pos.after(&self.lists[ply][i]);
                if let Some(e) = self.sh.tt.probe(child.zobrist()) {
                    let s = -from_tt(e.score, ply + 1);
                    if e.depth >= child_depth && e.bound != Bound::Lower && s >= beta {
                        return s;
                    }
                }
            }
        }
        // Late-move pruning: near the horizon, quiet moves after the first few are skipped.
        let lmp_after = if tw.lmp
            && !pv_node
            && !captures
            && !threat
            && stand_pat.is_none()
            && depth <= 3 * PLY
        {
            let d = (depth + PLY - 1) / PLY;
            (3 + d * d) as usize
        } else {
            usize::MAX
        };
        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_idx = None;
        if let Some(ev) = stand_pat {
            best = ev;
            alpha = alpha.max(ev);
        }
        // Quiet moves searched so far at this node: `self.tried[ply][..n_tried]`.
        let mut n_tried = 0;
        self.keys.push(key);
        // Multi-cut (Björnsson and Marsland): three of the first six moves failing high in a
        // shallower search end the node.
        if tw.multicut
            && !pv_node
            && !captures
            && !threat
            && depth >= 6 * PLY
            && n >= 3
            && beta.abs() < DB_BOUND
        {
            let mut cuts = 0;
            for k in 0..n.min(6) {
                self.select(ply, k, n);
                let idx = self.order[ply][k] as usize;
                let mv = self.lists[ply][idx];
                let child = pos.after(&mv);
                let man_move = draughts && my_men & (1 << mv.from().index()) != 0;
                let cq = if man_move { 0 } else { quiet + 1 };
                let d = depth - PLY + ext - crate::MULTICUT_REDUCTION * PLY;
                let s = -self.negamax(&child, d, -beta, -beta + 1, ply + 1, cq, trunc);
                if self.stopped {
                    self.keys.pop();
                    return 0;
                }
                if s >= beta {
                    cuts += 1;
                    if cuts >= 3 {
                        self.keys.pop();
                        return beta;
                    }
                }
            }
        }
        for k in 0..n {
            self.select(ply, k, n);
            let idx = self.order[ply][k] as usize;
            let mv = self.lists[ply][idx];
            let quiet_move = !captures
                && !mv.is_promotion()
                && !mv.bears_off()
                && mv.crown().is_none()
                && self.scores[ply][k] < (1 << 21);
            if (futile && k > 0 || k >= lmp_after) && quiet_move {
                continue;
            }
            if stand_pat.is_some() && !progress_move(&mv, tw.crown_quiescence) {
                continue;
            }
            let child = pos.after(&mv);
            let man_move = draughts && my_men & (1 << mv.from().index()) != 0;
            let cq = if mv.is_capture() || man_move {
                0
            } else {
                quiet + 1
            };
            let new_depth = if threat { -PLY } else { depth - PLY + ext };
            let s = if k == 0 {
                -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, cq, trunc)
            } else {
                let r = if quiet_move && depth >= 3 * PLY && k >= 3 {
                    let base = if tw.lmr == 2 {
                        lmr_reduction(depth / PLY, k) - i32::from(pv_node)
                    } else {
                        1 + i32::from(depth >= 6 * PLY && k >= 8)
                    };
                    let history = self.scores[ply][k];
                    let adjust = if tw.lmr >= 1 {
                        i32::from(history < 0) - i32::from(history > HISTORY_MAX / 2)
                    } else {
                        0
                    };
                    ((base + adjust) * PLY).clamp(0, new_depth - PLY)
                } else {
                    0
                };
                let mut s = -self.negamax(
                    &child,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    cq,
                    trunc,
                );
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.negamax(&child, new_depth, -alpha - 1, -alpha, ply + 1, cq, trunc);
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, cq, trunc);
                }
                s
            };
            if self.stopped {
                self.keys.pop();
                return 0;
            }
            if s > best {
                best = s;
                best_idx = Some(idx);
                if s > alpha {
                    alpha = s;
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(mv);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if s >= beta {
                        if !mv.is_capture() && stand_pat.is_none() {
                            if self.killers[ply][0] != Some(mv) {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = Some(mv);
                            }
                            let bonus = depth * depth / (PLY * PLY);
                            let slot = ci + mv.from().index() * 32 + mv.to().index();
                            update_history(&mut self.history[slot], bonus);
                            // The quiet moves tried before it failed to cut: a malus.
                            let tried = if self.sh.tweaks.history_malus {
                                n_tried
                            } else {
                                0
                            };
                            for i in 0..tried {
                                let t = usize::from(self.tried[ply][i]);
                                update_history(&mut self.history[t], -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if !mv.is_capture() && n_tried < MOVE_LIST_CAPACITY {
                self.tried[ply][n_tried] = (ci + mv.from().index() * 32 + mv.to().index()) as u16;
                n_tried += 1;
            }
        }
        self.keys.pop();
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if use_tt {
            self.sh
                .tt
                .store(key, to_tt(best, ply), depth, bound, best_idx);
        }
        best
    }
}

/// Whether `mv` is searched by the Impasse crown quiescence at setting `cq` (1: crowns; 2: crowns
/// and bear-offs).
fn progress_move(mv: &Move, cq: u8) -> bool {
    mv.crown().is_some() || (cq >= 2 && mv.bears_off())
}

/// Material of the side to move minus the other's, in centi-men (man 100, king
/// [`crate::TRUNC_KING_AMERICAN`] or [`crate::TRUNC_KING_POOL`]), for the material truncation.
fn material(pos: &Position, side: crown_core::Color, variant: Variant) -> i32 {
    let king = if variant == Variant::Pool {
        crate::TRUNC_KING_POOL
    } else {
        crate::TRUNC_KING_AMERICAN
    };
    let count = |c| (pos.men(c).len() as i32, pos.kings(c).len() as i32);
    let ((m0, k0), (m1, k1)) = (count(side), count(side.opposite()));
    100 * (m0 - m1) + king * (k0 - k1)
}

/// The logarithmic late-move reduction for the `k`-th move (0-based) at `depth`:
/// `round(ln depth · ln (k + 1) / 2.25)` ([`crate::SearchTweaks::lmr`] = 2), from a table.
fn lmr_reduction(depth: i32, k: usize) -> i32 {
    static TABLE: std::sync::OnceLock<[[u8; 64]; 64]> = std::sync::OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (k, r) in row.iter_mut().enumerate() {
                *r = ((d as f64).ln() * ((k + 1) as f64).ln() / 2.25).round() as u8;
            }
        }
        t
    });
    i32::from(t[depth.clamp(0, 63) as usize][k.min(63)])
}

/// Most a history score can reach in either direction (killers score 2^21 and more, above it).
const HISTORY_MAX: i32 = 1 << 16;

/// Add `bonus` (negative: a malus) to a history score with "gravity": the change shrinks as the
/// score nears ±`HISTORY_MAX`, so scores stay bounded and recent results weigh more.
fn update_history(h: &mut i32, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *h += b - *h * b.abs() / HISTORY_MAX;
}

/// Nodes per second from the elapsed time measured in microseconds (so a search of a few
/// microseconds does not report nodes per millisecond as if they took one), 0 when no time at all
/// was measured.
pub(crate) fn nodes_per_second(nodes: u64, elapsed: Duration) -> u64 {
    let us = elapsed.as_micros();
    if us == 0 {
        return 0;
    }
    (u128::from(nodes) * 1_000_000 / us).min(u128::from(u64::MAX)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nps_counts_microseconds() {
        // 10 nodes in 50 µs is 200 000 nodes/s, not 10 000 (nodes per rounded-up millisecond) nor
        // 10 000 000 (nodes in "0 ms").
        assert_eq!(nodes_per_second(10, Duration::from_micros(50)), 200_000);
        assert_eq!(nodes_per_second(1_500, Duration::from_millis(3)), 500_000);
        assert_eq!(nodes_per_second(10, Duration::ZERO), 0);
    }
}

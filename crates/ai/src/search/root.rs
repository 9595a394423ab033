//! The root of the search: iterative deepening with aspiration windows ([`Worker::iterate`]) and
//! the search of the root moves at one depth ([`Worker::root`]); the nodes below are
//! [`Worker::negamax`]'s.

use super::*;

impl Worker<'_> {
    /// Iterative deepening; returns the last completed iteration.
    pub(super) fn iterate(
        &mut self,
        pos: &Position,
        quiet: u32,
        max_depth: u32,
        soft: Option<Duration>,
        stop_on_mate: bool,
        report: &mut dyn FnMut(&Worker, &Completed),
    ) -> Option<Completed> {
        let mut done: Option<Completed> = None;
        let mut prev: i32 = 0;
        let mut depth = 1;
        while depth <= max_depth {
            self.leaves = 0;
            self.leaf_plies = 0;
            // Helpers search one ply deeper on odd ids, for diversity.
            let d = if self.id % 2 == 1 && depth > 1 {
                depth + 1
            } else {
                depth
            } as i32;
            let score = if d >= 5 && !self.sh.exact_root && prev.abs() < DB_BOUND {
                let mut delta = self.sh.tweaks.aspiration;
                let mut alpha = (prev - delta).max(-INF);
                let mut beta = (prev + delta).min(INF);
                loop {
                    let s = self.root(pos, d, alpha, beta, quiet);
                    if self.stopped {
                        break s;
                    }
                    if s <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (s - delta).max(-INF);
                    } else if s >= beta {
                        beta = (s + delta).min(INF);
                    } else {
                        break s;
                    }
                    delta *= 2;
                    if delta > 500 {
                        alpha = -INF;
                        beta = INF;
                    }
                }
            } else {
                self.root(pos, d, -INF, INF, quiet)
            };
            if self.stopped {
                break;
            }
            if self.sh.exact_root {
                self.root_moves.sort_by_key(|r| std::cmp::Reverse(r.score));
            }
            prev = score;
            let c = Completed {
                depth: d as u32,
                score,
                root: self.root_moves.clone(),
            };
            report(self, &c);
            done = Some(c);
            self.can_stop = true;
            if self.id == 0 {
                if self.sh.stop.load(Ordering::Relaxed) {
                    break;
                }
                if soft.is_some_and(|s| self.sh.start.elapsed() >= s) {
                    break;
                }
                if self.root_moves.len() == 1 && soft.is_some() {
                    break;
                }
                if stop_on_mate && score.abs() >= MATE_BOUND && (MATE - score.abs()) < d {
                    break;
                }
                // A database win or loss is proven (every line ends in a database value).
                if stop_on_mate && score.abs() >= DB_BOUND && score.abs() < MATE_BOUND {
                    break;
                }
                if self.sh.abort.load(Ordering::Relaxed) {
                    break;
                }
            } else if self.sh.abort.load(Ordering::Relaxed) {
                break;
            }
            depth += 1;
        }
        done
    }

    /// The search of the root position: every root move in turn, the best first (principal
    /// variation search), at nominal `depth` in [`PLY`] units.
    pub(super) fn root(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        quiet: u32,
    ) -> i32 {
        let key = pos.zobrist();
        let mut best = -INF;
        let n = self.root_moves.len();
        self.keys.push(key);
        for k in 0..n {
            let mv = self.root_moves[k].mv;
            let child = pos.after(&mv);
            let cq = if mv.is_capture() || self.is_man_move(pos, &mv) {
                0
            } else {
                quiet + 1
            };
            let ext = if n == 1 {
                self.sh.tweaks.single_reply
            } else {
                0
            };
            let s = if k == 0 || self.sh.exact_root {
                let (a, b) = if self.sh.exact_root {
                    (-INF, INF)
                } else {
                    (alpha, beta)
                };
                -self.negamax(&child, (depth - 1) * PLY + ext, -b, -a, 1, cq, 0)
            } else {
                let d = (depth - 1) * PLY;
                let mut s = -self.negamax(&child, d, -alpha - 1, -alpha, 1, cq, 0);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.negamax(&child, d, -beta, -alpha, 1, cq, 0);
                }
                s
            };
            if self.stopped {
                break;
            }
            if self.sh.exact_root {
                self.root_moves[k].score = s;
                let mut line = vec![mv];
                line.extend_from_slice(&self.pv[1]);
                self.root_moves[k].pv = line;
            }
            if s > best {
                best = s;
                if s > alpha || k == 0 {
                    let mut line = vec![mv];
                    line.extend_from_slice(&self.pv[1]);
                    self.root_moves[k].pv = line;
                    self.root_moves[k].score = s;
                    if !self.sh.exact_root {
                        self.root_moves[..=k].rotate_right(1);
                    }
                }
                if s > alpha {
                    alpha = s;
                }
                if s >= beta {
                    break;
                }
            }
        }
        self.keys.pop();
        if !self.stopped && !self.sh.exact_root {
            // Store the root for the helpers and the next iteration.
            let list = pos.legal_moves();
            let idx = list.iter().position(|m| *m == self.root_moves[0].mv);
            let bound = if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.sh
                .tt
                .store(key, to_tt(best, 0), depth * PLY, bound, idx);
        }
        best
    }
}

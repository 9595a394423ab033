//! The first layer kept as an accumulator: its sums for both perspectives, computed from scratch
//! for a position ([`Accumulator::refresh`]) or updated from another position's by the pieces that
//! differ ([`Accumulator::update`]); and the search's stack of them, one per ply ([`AccStack`]).
//!
//! The update reads the difference of the two boards' piece sets (men and kings of each side):
//! a bit set in the new set and not the old is a feature that appeared (its weight row is added),
//! one set in the old and not the new vanished (its row is subtracted). A quiet move changes two
//! features per perspective, a capture one more per captured piece, a crowning swaps a man's
//! feature for a king's; so the update costs a handful of row additions, whatever the move.

use super::simd::Kernel;
use super::{feature, Network};
use crate::board::{squares, Board};
use crown_core::Position;

/// The first layer's sums for one position: Black's perspective, then White's, each of the
/// network's first-layer width, in `i16` (wrapping).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    pub(super) data: Vec<i16>,
}

/// The four piece sets of a board: `[colour][role]` (role 0 man, 1 king).
fn sets(b: &Board) -> [[u32; 2]; 2] {
    [[b.men[0], b.kings[0]], [b.men[1], b.kings[1]]]
}

impl Accumulator {
    /// The accumulator of `pos` for network `net`, from scratch.
    pub fn new(net: &Network, pos: &Position) -> Accumulator {
        let mut a = Accumulator {
            data: vec![0; 2 * net.l1],
        };
        a.refresh(net, &Board::of(pos));
        a
    }

    /// The side's half: 0 Black's perspective, 1 White's.
    pub(crate) fn half(&self, side: usize) -> &[i16] {
        let n = self.data.len() / 2;
        &self.data[side * n..(side + 1) * n]
    }

    /// Both perspectives' sums, Black's first.
    pub fn values(&self) -> &[i16] {
        &self.data
    }

    /// Recompute from scratch for `board`: the biases plus the row of every piece's feature.
    pub(crate) fn refresh(&mut self, net: &Network, board: &Board) {
        self.refresh_with(net, board, net.kernel);
    }

    pub(crate) fn refresh_with(&mut self, net: &Network, board: &Board, kernel: Kernel) {
        let n = net.l1;
        let (black, white) = self.data.split_at_mut(n);
        black.copy_from_slice(&net.l1_bias);
        white.copy_from_slice(&net.l1_bias);
        let mut rows = Rows::default();
        for (c, roles) in sets(board).iter().enumerate() {
            for (r, &set) in roles.iter().enumerate() {
                for sq in squares(set) {
                    rows.push(net, kernel, (black, white), false, (c, r, sq));
                }
            }
        }
        rows.apply(net, kernel, black, white);
    }

    /// Change this accumulator, which is `from`'s, into `to`'s: add the rows of the features that
    /// appear and subtract those that vanish (or recompute from scratch when that is fewer rows).
    pub(crate) fn update(&mut self, net: &Network, from: &Board, to: &Board) {
        self.update_with(net, from, to, net.kernel);
    }

    pub(crate) fn update_with(&mut self, net: &Network, from: &Board, to: &Board, kernel: Kernel) {
        let (old, new) = (sets(from), sets(to));
        let changed = distance(from, to);
        if changed > to.occupied().count_ones() {
            self.refresh_with(net, to, kernel);
            return;
        }
        let n = net.l1;
        let (black, white) = self.data.split_at_mut(n);
        let mut rows = Rows::default();
        for c in 0..2 {
            for r in 0..2 {
                let (o, w) = (old[c][r], new[c][r]);
                for (set, sub) in [(w & !o, false), (o & !w, true)] {
                    for sq in squares(set) {
                        rows.push(net, kernel, (black, white), sub, (c, r, sq));
                    }
                }
            }
        }
        rows.apply(net, kernel, black, white);
    }

    /// Change this accumulator, which is `from`'s, into `to`'s ([`Accumulator::update`] on
    /// positions: the pieces that differ between them).
    pub fn update_positions(&mut self, net: &Network, from: &Position, to: &Position) {
        self.update(net, &Board::of(from), &Board::of(to));
    }
}

/// The features of one change of an accumulator, per perspective, to add and to subtract; applied
/// in one pass ([`Kernel::apply`]) when full (32 each) and at the end ([`Rows::apply`]).
#[derive(Default)]
struct Rows {
    /// `[perspective][0 add, 1 subtract]`: the features and how many are in use.
    rows: [[([u8; 32], usize); 2]; 2],
}

impl Rows {
    /// Add (or subtract) the feature of a piece of colour `c`, role `r` on square `sq`.
    #[inline]
    fn push(
        &mut self,
        net: &Network,
        kernel: Kernel,
        halves: (&mut [i16], &mut [i16]),
        sub: bool,
        (c, r, sq): (usize, usize, usize),
    ) {
        if self.rows[0][usize::from(sub)].1 == 32 {
            self.apply(net, kernel, halves.0, halves.1);
        }
        for persp in 0..2 {
            let (list, len) = &mut self.rows[persp][usize::from(sub)];
            list[*len] = feature(persp, c, r, sq) as u8;
            *len += 1;
        }
    }

    /// Apply the features gathered to Black's and White's halves, and forget them.
    fn apply(&mut self, net: &Network, kernel: Kernel, black: &mut [i16], white: &mut [i16]) {
        for (persp, half) in [black, white].into_iter().enumerate() {
            let [(add, na), (sub, ns)] = &mut self.rows[persp];
            kernel.apply(half, &net.l1_weights, &add[..*na], &sub[..*ns]);
            (*na, *ns) = (0, 0);
        }
    }
}

/// The search's accumulators, one per ply, allocated once per search thread: a node enters its
/// board ([`AccStack::enter`]) and, only when it evaluates, brings its accumulator up to date from
/// the nearest ply above it whose accumulator is current ([`AccStack::evaluate`]), so the nodes
/// that never evaluate (cutoffs from the table, interior nodes) cost nothing.
pub(crate) struct AccStack {
    accs: Vec<Accumulator>,
    /// The board entered at each ply.
    boards: Vec<Board>,
    /// The board `accs[ply]` was last computed for (`None`: never), e.g. a sibling's.
    computed: Vec<Option<Board>>,
    /// Whether `accs[ply]` is `boards[ply]`'s.
    current: Vec<bool>,
    /// The clipped activations of the evaluation in progress (`2 · l1` bytes).
    input: Vec<u8>,
}

/// How many features differ between two boards (the rows an update adds or subtracts).
fn distance(a: &Board, b: &Board) -> u32 {
    let (x, y) = (sets(a), sets(b));
    (0..4)
        .map(|k| (x[k / 2][k % 2] ^ y[k / 2][k % 2]).count_ones())
        .sum()
}

impl AccStack {
    /// A stack of `plies` accumulators for `net`.
    pub(crate) fn new(net: &Network, plies: usize) -> AccStack {
        let empty = Board {
            men: [0; 2],
            kings: [0; 2],
            side: 0,
        };
        AccStack {
            accs: vec![
                Accumulator {
                    data: vec![0; 2 * net.l1]
                };
                plies
            ],
            boards: vec![empty; plies],
            computed: vec![None; plies],
            current: vec![false; plies],
            input: vec![0; 2 * net.l1],
        }
    }

    /// The node at `ply` is `board` (its accumulator is not computed yet).
    #[inline]
    pub(crate) fn enter(&mut self, ply: usize, board: &Board) {
        self.boards[ply] = *board;
        self.current[ply] = false;
    }

    /// The network's score of the board entered at `ply`, in centi-men for the side to move. Its
    /// accumulator is updated from whichever differs from it by fewer features: the one this ply
    /// last computed (a sibling's, typically two moves away), or the nearest current one above it
    /// (from scratch when neither exists).
    pub(crate) fn evaluate(&mut self, net: &Network, ply: usize) -> i32 {
        if !self.current[ply] {
            let target = self.boards[ply];
            let own = self.computed[ply].map(|b| (distance(&b, &target), b));
            let above = (0..ply)
                .rev()
                .find(|&q| self.current[q])
                .map(|q| (distance(&self.boards[q], &target), q));
            match (own, above) {
                (Some((d, from)), a) if a.is_none_or(|(da, _)| d <= da) => {
                    self.accs[ply].update(net, &from, &target);
                }
                (_, Some((_, q))) => {
                    let (up, down) = self.accs.split_at_mut(ply);
                    let acc = &mut down[0];
                    acc.data.copy_from_slice(&up[q].data);
                    acc.update(net, &self.boards[q], &target);
                }
                _ => self.accs[ply].refresh(net, &target),
            }
            self.computed[ply] = Some(target);
            self.current[ply] = true;
            // Debug builds (the tests' searches) check every incremental result from scratch.
            #[cfg(debug_assertions)]
            {
                let mut fresh = self.accs[ply].clone();
                fresh.refresh(net, &target);
                debug_assert_eq!(fresh, self.accs[ply], "accumulator at ply {ply}");
            }
        }
        let b = &self.boards[ply];
        net.evaluate_in(
            &self.accs[ply],
            b.side,
            b.occupied().count_ones(),
            &mut self.input,
        )
    }
}

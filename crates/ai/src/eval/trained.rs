//! The trained evaluation: pattern tables and piece-square tables whose weights are learnt from
//! self-play by `crown tune` (see docs/engine.md, "Trained evaluation"); the weights files and
//! their format are in [`super::weights`] (re-exported here).
//!
//! The board is first **oriented** for the side to move: when White is to move it is rotated by
//! 180° (square `n` becomes square `33 − n`) and the colours swapped, so "us" always moves toward
//! row 7 (squares 29–32). The checkers rules are symmetric under that map, so the colour-flipped
//! position gets exactly the same score by construction.
//!
//! Every feature has two weights, an opening one and an endgame one; the score is their blend by
//! the number of occupied squares `p` (capped at 24): `(open × p + end × (24 − p)) / 24`.
//! Weights are stored as `i16` in 1/16 centi-men ([`SCALE`]).
//!
//! Features (indices into the weight table, [`FEATURES`] in all):
//! - `0..128` piece-square tables: our man, our king, their man, their king on each oriented square
//!   (Impasse: single = man, double = king);
//! - `128..128 + 21 × 625` patterns: 21 regions of four squares (two adjacent squares of a row and
//!   the two below them: rows r and r + 1, squares k and k + 1 of each), each square empty / our man /
//!   our king / their man / their king, a base-5 index;
//! - [`MISC`] terms that patterns cannot see (listed at [`Misc`]);
//! - with [`FeatureSet::blocks`], from [`BLOCK_BASE`]: 15 **blocks** of 4 × 4 board squares (rows
//!   r to r + 3, squares k and k + 1 of each: 8 playable squares), each square empty / ours / theirs
//!   (a king counts as its side's piece), a base-3 index into 3⁸ = 6561 weights per block.
//!
//! The first [`BASE_FEATURES`] features are those of format version 1, at the same indices, so a
//! version-1 file is a [`FeatureSet::BASE`] set of weights.
//!
//! With [`FeatureSet::scale`] the score is then multiplied by a learnt **material scale**
//! `scale / 256` chosen by the material on the board (our men, our kings, their men, their kings:
//! [`scale_index`]): it lets equal-force endings that are dead draws read near 0, and lets the
//! leads that win count fully.

use super::board::{clear_to_edge, squares, Board, CONES, LONG_DIAGONAL, NEIGH, NO};
use crown_core::Variant;

pub use super::layout::{
    FeatureSet, BASE_FEATURES, BLOCKS, BLOCK_BASE, BLOCK_STATES, FEATURES, MISC, MISC_BASE,
    PATTERN_BASE, REGIONS, REGION_STATES, SCALE, SCALE_ENTRIES, SCALE_MAX, SCALE_ONE,
};
pub use super::weights::{
    embedded, embedded_without_tables, fnv1a, Weights, WeightsError, EMBEDDED,
    EMBEDDED_WITHOUT_TABLES, MAGIC, TABLES_COVER, VERSION,
};

/// Pieces at which the opening weights apply fully.
const PHASE_MAX: i32 = 24;

/// Miscellaneous features, offsets from [`MISC_BASE`]; "us / them" pairs are consecutive.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Misc {
    /// Checkers: (our pieces − their pieces) × (24 − pieces): trading down when ahead.
    TradeDown = 0,
    /// Our runaway men (no enemy piece in the cone ahead), then theirs.
    Runaway = 1,
    /// Rows advanced summed over our runaway men, then theirs.
    RunawayRows = 3,
    /// Free forward steps of our men, then theirs.
    ManMobility = 5,
    /// Free steps of our kings, then theirs.
    KingMobility = 7,
    /// Our kings with no free neighbour, then theirs.
    TrappedKings = 9,
    /// Men-only endings with equal numbers and at most 8 pieces: +1 when the pieces on the side to
    /// move's system squares are odd in number, else −1 ("the move").
    Opposition = 11,
    /// Pool: our men that can be jumped from behind, then theirs.
    Exposed = 12,
    /// Pool: our kings on the long diagonal, then theirs.
    LongDiagonal = 14,
    /// Impasse: our doubles with a free diagonal back to their nearest row, then theirs.
    BearOffReady = 16,
    /// Impasse: our singles with a free diagonal to the far row (and another single), then theirs.
    CrownReady = 18,
    /// Our men whose forward squares are both occupied or off the board, then theirs.
    Blocked = 20,
    /// A constant 1 (the value of having the move).
    Tempo = 22,
}

/// The board seen from the side to move: index 0 = us (moving toward row 7), 1 = them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Oriented {
    /// Men (Impasse: singles) of us and them, bit `n − 1` = oriented square `n`.
    pub men: [u32; 2],
    /// Kings (Impasse: doubles) of us and them.
    pub kings: [u32; 2],
}

impl Oriented {
    /// The oriented view of `pos`, for its side to move (the view the evaluation scores; the
    /// training tools compute their features from it).
    pub fn of_position(pos: &crown_core::Position) -> Oriented {
        Oriented::of(&Board::of(pos))
    }

    /// Orient `b` for its side to move.
    pub(crate) fn of(b: &Board) -> Oriented {
        if b.side == 0 {
            Oriented {
                men: b.men,
                kings: b.kings,
            }
        } else {
            Oriented {
                men: [b.men[1].reverse_bits(), b.men[0].reverse_bits()],
                kings: [b.kings[1].reverse_bits(), b.kings[0].reverse_bits()],
            }
        }
    }

    fn occupied(&self) -> u32 {
        self.men[0] | self.men[1] | self.kings[0] | self.kings[1]
    }
}

/// The first square of each region (the others are +1, +4, +5).
const fn region_start(r: usize) -> usize {
    (r / 3) * 4 + r % 3
}

/// Base-3 value of each 8-bit set of block squares: bit j counts 3ʲ.
static BASE3: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut m = 0;
    while m < 256 {
        let (mut v, mut p, mut j) = (0u16, 1u16, 0);
        while j < 8 {
            if m & (1 << j) != 0 {
                v += p;
            }
            p *= 3;
            j += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

/// The 8 squares of block `r` in set `x`, as 8 bits (row by row, two squares each).
#[inline]
fn block_bits(x: u32, r: usize) -> usize {
    let y = (x >> (4 * (r / 3) + r % 3)) & 0x3333;
    ((y & 3) | ((y >> 2) & 0xc) | ((y >> 4) & 0x30) | ((y >> 6) & 0xc0)) as usize
}

/// The base-3 index (0 empty, 1 ours, 2 theirs per square) of block `r` of `o`.
#[inline]
pub fn block_index(o: &Oriented, r: usize) -> usize {
    let ours = o.men[0] | o.kings[0];
    let theirs = o.men[1] | o.kings[1];
    usize::from(BASE3[block_bits(ours, r)]) + 2 * usize::from(BASE3[block_bits(theirs, r)])
}

/// The entry of the material scale table for `o`: our men, our kings, their men and their kings,
/// each counted up to 12, as a base-13 number.
#[inline]
pub fn scale_index(o: &Oriented) -> usize {
    let n = |x: u32| (x.count_ones() as usize).min(12);
    ((n(o.men[0]) * 13 + n(o.kings[0])) * 13 + n(o.men[1])) * 13 + n(o.kings[1])
}

/// Call `f(feature, value)` for every active feature of `o` in `variant` with the parts of `set`
/// (features with value 0 may be skipped). The same function drives the evaluation and the
/// training, so they agree.
#[inline]
pub fn features(o: &Oriented, variant: Variant, set: FeatureSet, f: &mut impl FnMut(usize, i32)) {
    if set.blocks {
        for r in 0..BLOCKS {
            f(BLOCK_BASE + r * BLOCK_STATES + block_index(o, r), 1);
        }
    }
    let occ = o.occupied();
    let empty = !occ;
    let mut state = [0u8; 32];
    for (k, set) in [o.men[0], o.kings[0], o.men[1], o.kings[1]]
        .into_iter()
        .enumerate()
    {
        for i in squares(set) {
            state[i] = k as u8 + 1;
            f(k * 32 + i, 1);
        }
    }
    for r in 0..REGIONS {
        let s = region_start(r);
        let idx = state[s] as usize
            + 5 * state[s + 1] as usize
            + 25 * state[s + 4] as usize
            + 125 * state[s + 5] as usize;
        f(PATTERN_BASE + r * REGION_STATES + idx, 1);
    }
    let m = |x: Misc| MISC_BASE + x as usize;
    f(m(Misc::Tempo), 1);
    let pieces = occ.count_ones() as i32;
    let draughts = variant != Variant::Impasse;
    let count = |c: usize| (o.men[c] | o.kings[c]).count_ones() as i32;
    if draughts {
        f(
            m(Misc::TradeDown),
            (count(0) - count(1)) * (24 - pieces).max(0),
        );
    }
    for (c, cones) in CONES.iter().enumerate() {
        let enemy = o.men[1 - c] | o.kings[1 - c];
        let fwd: [usize; 2] = if c == 0 { [0, 1] } else { [2, 3] };
        let back: [usize; 2] = if c == 0 { [2, 3] } else { [0, 1] };
        let (mut run, mut run_rows, mut mob, mut blocked) = (0, 0, 0, 0);
        let (mut crown_ready, mut bear_ready) = (0, 0);
        let singles = o.men[c].count_ones();
        for i in squares(o.men[c]) {
            let row = (i / 4) as i32;
            let advanced = if c == 0 { row } else { 7 - row };
            let mut free = 0;
            for d in fwd {
                let n = NEIGH[i][d];
                if n != NO && empty & (1 << n) != 0 {
                    free += 1;
                }
            }
            mob += free;
            if free == 0 {
                blocked += 1;
            }
            if draughts {
                if cones[i] & enemy == 0 {
                    run += 1;
                    run_rows += advanced;
                }
            } else if singles > 1 && advanced < 7 && fwd.iter().any(|&d| clear_to_edge(i, d, empty))
            {
                crown_ready += 1;
            }
        }
        let (mut kmob, mut trapped, mut diag) = (0, 0, 0);
        for i in squares(o.kings[c]) {
            let mut free = 0;
            for &n in &NEIGH[i] {
                if n != NO && empty & (1 << n) != 0 {
                    free += 1;
                }
            }
            kmob += free;
            if free == 0 {
                trapped += 1;
            }
            if !draughts {
                let row = (i / 4) as i32;
                let to_near = if c == 0 { row } else { 7 - row };
                if to_near > 0 && back.iter().any(|&d| clear_to_edge(i, d, empty)) {
                    bear_ready += 1;
                }
            }
        }
        if variant == Variant::Pool {
            diag = (o.kings[c] & LONG_DIAGONAL).count_ones() as i32;
            f(m(Misc::Exposed) + c, exposed(o, c));
        }
        f(m(Misc::Runaway) + c, run);
        f(m(Misc::RunawayRows) + c, run_rows);
        f(m(Misc::ManMobility) + c, mob);
        f(m(Misc::KingMobility) + c, kmob);
        f(m(Misc::TrappedKings) + c, trapped);
        f(m(Misc::LongDiagonal) + c, diag);
        f(m(Misc::BearOffReady) + c, bear_ready);
        f(m(Misc::CrownReady) + c, crown_ready);
        f(m(Misc::Blocked) + c, blocked);
    }
    if draughts
        && o.kings[0] == 0
        && o.kings[1] == 0
        && pieces <= 8
        && o.men[0].count_ones() == o.men[1].count_ones()
    {
        // Oriented, the side to move is Black: its system is rows 1, 3, 5, 7 (0-based).
        const SYSTEM: u32 = 0xf0f0_f0f0;
        let odd = (occ & SYSTEM).count_ones() % 2 == 1;
        f(m(Misc::Opposition), if odd { 1 } else { -1 });
    }
}

/// Pool: men of `c` with an enemy piece (or, when the enemy has a king, an empty square) behind
/// them and an empty square ahead on the same diagonal.
fn exposed(o: &Oriented, c: usize) -> i32 {
    let e = 1 - c;
    let empty = !o.occupied();
    let enemy = o.men[e] | o.kings[e];
    let enemy_kings = o.kings[e] != 0;
    let pairs: [(usize, usize); 2] = if c == 0 {
        [(2, 1), (3, 0)]
    } else {
        [(0, 3), (1, 2)]
    };
    let mut s = 0;
    for i in squares(o.men[c]) {
        for (behind, ahead) in pairs {
            let (nb, na) = (NEIGH[i][behind], NEIGH[i][ahead]);
            if nb == NO || na == NO || empty & (1 << na) == 0 {
                continue;
            }
            let bb = 1u32 << nb;
            if enemy & bb != 0 || (enemy_kings && empty & bb != 0) {
                s += 1;
                break;
            }
        }
    }
    s
}

/// The blend factor of the opening weights: occupied squares, at most 24.
pub fn phase(o: &Oriented) -> i32 {
    (o.occupied().count_ones() as i32).min(PHASE_MAX)
}

impl Weights {
    /// Evaluate `pos` for its side to move with these weights, in centi-men (the game's rules come
    /// from `pos`, whatever game the weights were trained for).
    pub fn evaluate_position(&self, pos: &crown_core::Position) -> i32 {
        self.evaluate(&Board::of(pos), pos.variant())
    }

    /// Evaluate `b` for its side to move, in centi-men.
    #[inline]
    pub(crate) fn evaluate(&self, b: &Board, variant: Variant) -> i32 {
        let o = Oriented::of(b);
        let (mut open, mut end) = (0i32, 0i32);
        let w = &self.w[..];
        features(&o, variant, self.set, &mut |i, v| {
            // Every index is below FEATURES; weights built by hand may be shorter.
            if let Some(pair) = w.get(i) {
                open += i32::from(pair[0]) * v;
                end += i32::from(pair[1]) * v;
            }
        });
        let p = phase(&o);
        let s = (open * p + end * (PHASE_MAX - p)) / (PHASE_MAX * SCALE);
        match self.set.scale {
            true => self.scale.get(scale_index(&o)).map_or(s, |&k| {
                (i64::from(s) * i64::from(k) / i64::from(SCALE_ONE)) as i32
            }),
            false => s,
        }
    }
}

//! Bitboards.
//!
//! Public API uses [`SquareSet`], a 32-bit set indexed by square number − 1. Move generation works on
//! an internal 64-bit "ghost square" layout in which every diagonal step is a constant shift: square
//! index `i` (row `r = i / 4`, column `c = i % 4`) lives at bit `4r + c + r/2`, which leaves one unused
//! (ghost) bit after every second row (bits 8, 17, 26, 35). Then
//! - `+4` is a step down-left and `+5` down-right (toward squares 29–32, Black's forward),
//! - `-4` is a step up-right and `-5` up-left (toward squares 1–4, White's forward),
//!
//! and a step off the board lands on a ghost bit or beyond bit 34, removed by masking with [`BOARD`].

use crate::square::{Color, Square};
use std::fmt;

/// Internal bitboard in the ghost-square layout.
pub(crate) type Bb = u64;

/// Bit of square index `i` in the ghost layout.
pub(crate) const fn ghost_bit(i: u8) -> u8 {
    let r = i / 4;
    4 * r + i % 4 + r / 2
}

/// Every playable bit of the ghost layout.
pub(crate) const BOARD: Bb = {
    let mut b = 0u64;
    let mut i = 0u8;
    while i < 32 {
        b |= 1 << ghost_bit(i);
        i += 1;
    }
    b
};

/// Square index for each ghost bit (255 for a ghost or out-of-range bit).
const BIT_TO_INDEX: [u8; 64] = {
    let mut t = [255u8; 64];
    let mut i = 0u8;
    while i < 32 {
        t[ghost_bit(i) as usize] = i;
        i += 1;
    }
    t
};

/// The 8 rows (0 = squares 1–4, 7 = squares 29–32) as ghost bitboards.
pub(crate) const ROWS: [Bb; 8] = {
    let mut rows = [0u64; 8];
    let mut i = 0u8;
    while i < 32 {
        rows[(i / 4) as usize] |= 1 << ghost_bit(i);
        i += 1;
    }
    rows
};

/// Diagonal directions as ghost-layout shifts: down-left, down-right, up-right, up-left.
pub(crate) const DIRS: [i32; 4] = [4, 5, -4, -5];

/// Shift a bitboard one diagonal step in direction `d` (one of [`DIRS`]), dropping what leaves the board.
#[inline(always)]
pub(crate) const fn step(bb: Bb, d: i32) -> Bb {
    (if d > 0 { bb << d } else { bb >> (-d) }) & BOARD
}

/// The ghost bit of a square.
#[inline(always)]
pub(crate) const fn bit(sq: Square) -> Bb {
    1 << ghost_bit(sq.index() as u8)
}

/// The square at the lowest set ghost bit of a non-empty bitboard.
#[inline(always)]
pub(crate) fn lowest_square(bb: Bb) -> Square {
    let idx = BIT_TO_INDEX[bb.trailing_zeros() as usize & 63];
    Square::from_index(idx).unwrap_or(Square::ALL[0])
}

/// Iterate the squares of a ghost bitboard in ascending order.
pub(crate) fn squares(mut bb: Bb) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if bb == 0 {
            None
        } else {
            let sq = lowest_square(bb);
            bb &= bb - 1;
            Some(sq)
        }
    })
}

/// Convert a ghost bitboard to a [`SquareSet`]: each pair of rows is 8 consecutive bits in both
/// layouts (ghost bits 9k..9k+7 hold square indices 8k..8k+7), so four shifts do it.
#[inline]
pub(crate) fn to_set(bb: Bb) -> SquareSet {
    let mut out = 0u32;
    for k in 0..4 {
        out |= (((bb >> (9 * k)) & 0xFF) as u32) << (8 * k);
    }
    SquareSet(out)
}

/// Convert a [`SquareSet`] to a ghost bitboard (the inverse of [`to_set`]).
#[inline]
pub(crate) fn from_set(set: SquareSet) -> Bb {
    let mut out = 0u64;
    for k in 0..4 {
        out |= (((set.0 >> (8 * k)) & 0xFF) as u64) << (9 * k);
    }
    out
}

/// A set of squares, bit `n - 1` standing for square `n` (1–32).
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct SquareSet(pub u32);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet(0);
    /// All 32 squares.
    pub const FULL: SquareSet = SquareSet(u32::MAX);

    /// Whether `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// Add a square.
    pub fn insert(&mut self, sq: Square) {
        self.0 |= 1 << sq.index();
    }

    /// Remove a square.
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !(1 << sq.index());
    }

    /// Number of squares in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The squares in ascending order.
    pub fn iter(self) -> impl Iterator<Item = Square> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let i = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                Square::from_index(i)
            }
        })
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<T: IntoIterator<Item = Square>>(iter: T) -> Self {
        let mut s = SquareSet::EMPTY;
        for sq in iter {
            s.insert(sq);
        }
        s
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|s| s.number()))
            .finish()
    }
}

/// Forward directions of a side's men / singles: Black toward 29–32, White toward 1–4.
#[inline(always)]
pub(crate) const fn forward(color: Color) -> [i32; 2] {
    match color {
        Color::Black => [4, 5],
        Color::White => [-4, -5],
    }
}

/// The row where a side's men are crowned (checkers) / its furthest row (Impasse).
#[inline(always)]
pub(crate) const fn far_row(color: Color) -> Bb {
    match color {
        Color::Black => ROWS[7],
        Color::White => ROWS[0],
    }
}

/// A side's own back row: its nearest row in Impasse.
#[inline(always)]
pub(crate) const fn near_row(color: Color) -> Bb {
    far_row(color.opposite())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: u8) -> Square {
        Square::new(n).unwrap()
    }

    #[test]
    fn ghost_steps_follow_the_diagonals() {
        // From the standard diagram: 14 (c5... row 4) touches 9, 10 above and 17, 18 below.
        let neighbours = |n: u8| -> Vec<u8> {
            let mut v: Vec<u8> = DIRS
                .iter()
                .flat_map(|&d| squares(step(bit(sq(n)), d)))
                .map(|s| s.number())
                .collect();
            v.sort();
            v
        };
        assert_eq!(neighbours(14), vec![9, 10, 17, 18]);
        assert_eq!(neighbours(1), vec![5, 6]);
        assert_eq!(neighbours(4), vec![8]);
        assert_eq!(neighbours(5), vec![1, 9]);
        assert_eq!(neighbours(12), vec![8, 16]); // h6 touches g7 and g5
        assert_eq!(neighbours(13), vec![9, 17]);
        assert_eq!(neighbours(29), vec![25]);
        assert_eq!(neighbours(32), vec![27, 28]);
        // Every dark square touches its diagonal neighbours on the 8×8 board and nothing else.
        for a in Square::ALL {
            for d in DIRS {
                for b in squares(step(bit(a), d)) {
                    assert_eq!((a.file() as i8 - b.file() as i8).abs(), 1);
                    assert_eq!((a.rank() as i8 - b.rank() as i8).abs(), 1);
                }
            }
        }
    }

    #[test]
    fn set_conversion_round_trips() {
        let s: SquareSet = [sq(1), sq(9), sq(32)].into_iter().collect();
        assert_eq!(to_set(from_set(s)), s);
        assert_eq!(BOARD.count_ones(), 32);
        assert_eq!(from_set(SquareSet::FULL), BOARD);
        for sq in Square::ALL {
            let one: SquareSet = [sq].into_iter().collect();
            assert_eq!(from_set(one), bit(sq));
            assert_eq!(to_set(bit(sq)), one);
        }
    }
}

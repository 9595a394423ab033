//! Material classes and the perfect hash between the positions of a class and `0..size`.
//!
//! Every stored position has **Black to move**: a position with White to move is first turned
//! around (the board rotated 180°, the colours swapped — square `n` becomes `33 - n`), which maps
//! the rules of all three games onto themselves. A class is the material of the side to move
//! (men/singles, kings/doubles) and of the other side.
//!
//! Index layout (most significant first): the black men, split by how many of them stand on squares
//! 1–4 where no white man may stand (`k`), then the black men as a combination of their allowed
//! squares, the white men as a combination of their allowed squares left free by the black men,
//! the black kings and the white kings as combinations of the squares left free. Combinations are
//! ranked in colexicographic order. American and pool: a man never stands on its own king row
//! (Black: 29–32, White: 1–4), so every index is a position. Impasse: singles and doubles may
//! stand anywhere in the index; the few indices the rules forbid (a double on its owner's nearest
//! row, an uncrowned single beside another single) are marked invalid in the table.

use crown_core::{Color, Position, Setup, SquareSet, Variant};

/// Binomial coefficients C(n, k) for n, k ≤ 32.
static BINOM: [[u64; 33]; 33] = {
    let mut t = [[0u64; 33]; 33];
    let mut n = 0;
    while n < 33 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// C(n, k), 0 when k > n.
#[inline]
pub(crate) fn binom(n: u32, k: u32) -> u64 {
    if k > n || n > 32 {
        0
    } else {
        BINOM[n as usize][k as usize]
    }
}

/// The material of a class, seen from the side to move ("mover") and the other side.
///
/// American and pool: `men`/`kings`; Impasse: singles (`men`) and doubles (`kings`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Men (singles) of the side to move.
    pub mover_men: u8,
    /// Kings (doubles) of the side to move.
    pub mover_kings: u8,
    /// Men (singles) of the other side.
    pub other_men: u8,
    /// Kings (doubles) of the other side.
    pub other_kings: u8,
}

impl Material {
    /// The material of `pos`, side to move first.
    pub fn of(pos: &Position) -> Material {
        let us = pos.side_to_move();
        let them = us.opposite();
        Material {
            mover_men: pos.men(us).len() as u8,
            mover_kings: pos.kings(us).len() as u8,
            other_men: pos.men(them).len() as u8,
            other_kings: pos.kings(them).len() as u8,
        }
    }

    /// The same material with the sides swapped (the class a quiet move leads into).
    pub fn mirror(&self) -> Material {
        Material {
            mover_men: self.other_men,
            mover_kings: self.other_kings,
            other_men: self.mover_men,
            other_kings: self.mover_kings,
        }
    }

    /// Pieces counted for `variant`: pieces on the board in American and pool, checkers in Impasse
    /// (a double counts two).
    pub fn pieces(&self, variant: Variant) -> u32 {
        let k = u32::from(self.mover_kings) + u32::from(self.other_kings);
        let m = u32::from(self.mover_men) + u32::from(self.other_men);
        if variant == Variant::Impasse {
            m + 2 * k
        } else {
            m + k
        }
    }

    /// Whether both sides have something on the board (otherwise the game is over and the value is
    /// known without a table).
    pub fn both_sides_present(&self) -> bool {
        self.mover_men + self.mover_kings > 0 && self.other_men + self.other_kings > 0
    }

    /// The file-name part of the class, e.g. `m1k0-m0k1` (side to move first).
    pub fn name(&self) -> String {
        format!(
            "m{}k{}-m{}k{}",
            self.mover_men, self.mover_kings, self.other_men, self.other_kings
        )
    }

    /// Every class with exactly `pieces` pieces (see [`Material::pieces`]) and something on both
    /// sides, in build order: kings (doubles) before men (singles), since a promotion or crown
    /// leads into the class with one king (double) more.
    pub fn with_pieces(variant: Variant, pieces: u32) -> Vec<Material> {
        let mut out = Vec::new();
        let w = |m: u32, k: u32| {
            if variant == Variant::Impasse {
                m + 2 * k
            } else {
                m + k
            }
        };
        for mm in 0..=pieces {
            for mk in 0..=pieces {
                for om in 0..=pieces {
                    for ok in 0..=pieces {
                        let m = Material {
                            mover_men: mm as u8,
                            mover_kings: mk as u8,
                            other_men: om as u8,
                            other_kings: ok as u8,
                        };
                        if w(mm, mk) + w(om, ok) == pieces
                            && m.both_sides_present()
                            && w(mm, mk) <= 12
                            && w(om, ok) <= 12
                            && mm + mk + om + ok <= 32
                        {
                            out.push(m);
                        }
                    }
                }
            }
        }
        out.sort_by_key(|m| (std::cmp::Reverse(m.mover_kings + m.other_kings), *m));
        out
    }
}

/// Squares (as a 32-bit set over indices 0–31) where men of Black / White may stand.
fn men_masks(variant: Variant) -> (u32, u32) {
    if variant.is_draughts() {
        // Black men never on 29–32 (indices 28–31), White men never on 1–4 (indices 0–3).
        (0x0FFF_FFFF, 0xFFFF_FFF0)
    } else {
        (u32::MAX, u32::MAX)
    }
}

/// Rank of the squares `set` within the universe `univ` (both as 32-bit sets) in colex order.
#[inline]
fn rank_in(set: u32, univ: u32) -> u64 {
    let mut r = 0;
    let mut s = set;
    let mut i = 1;
    while s != 0 {
        let sq = s.trailing_zeros();
        s &= s - 1;
        let pos = (univ & ((1u32 << sq) - 1)).count_ones();
        r += binom(pos, i);
        i += 1;
    }
    r
}

/// The `n`-element subset of `univ` with colex rank `rank`.
#[inline]
fn unrank_in(mut rank: u64, n: u32, univ: u32) -> u32 {
    let mut out = 0u32;
    let size = univ.count_ones();
    let mut hi = size;
    for i in (1..=n).rev() {
        // Largest p < hi with C(p, i) <= rank.
        let mut p = hi - 1;
        while binom(p, i) > rank {
            p -= 1;
        }
        rank -= binom(p, i);
        hi = p;
        out |= nth_bit(univ, p);
    }
    out
}

/// The `n`-th (0-based) set bit of `univ`, as a one-bit set.
#[inline]
fn nth_bit(mut univ: u32, n: u32) -> u32 {
    for _ in 0..n {
        univ &= univ - 1;
    }
    univ & univ.wrapping_neg()
}

/// The perfect hash of one class: position (Black to move) ⇄ index in `0..size`.
#[derive(Clone, Debug)]
pub struct ClassIndex {
    /// The game.
    pub variant: Variant,
    /// The material, Black (to move) first.
    pub material: Material,
    /// Black men allowed only on squares White men may not use (X) and on shared squares (Y).
    x: u32,
    y: u32,
    /// Allowed squares of White men.
    wmask: u32,
    /// Start of each `k` block (number of black men in X), and the sizes used inside it.
    offsets: Vec<u64>,
    /// Number of indices.
    size: u64,
}

impl ClassIndex {
    /// The index of `material` in `variant`.
    pub fn new(variant: Variant, material: Material) -> ClassIndex {
        let (bmask, wmask) = men_masks(variant);
        let x = bmask & !wmask;
        let y = bmask & wmask;
        let bm = u32::from(material.mover_men);
        let wm = u32::from(material.other_men);
        let bk = u32::from(material.mover_kings);
        let wk = u32::from(material.other_kings);
        let kings = binom(32 - bm - wm, bk) * binom(32 - bm - wm - bk, wk);
        let mut offsets = Vec::new();
        let mut total = 0u64;
        for k in 0..=bm {
            offsets.push(total);
            let block = binom(x.count_ones(), k)
                * binom(y.count_ones(), bm - k)
                * binom(wmask.count_ones() - (bm - k), wm)
                * kings;
            total += block;
        }
        offsets.push(total);
        ClassIndex {
            variant,
            material,
            x,
            y,
            wmask,
            offsets,
            size: total,
        }
    }

    /// Number of indices (positions with Black to move, plus the invalid Impasse indices).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The index of the board `b` (Black to move; men and kings of each colour as 32-bit sets).
    /// The board must have this class's material.
    pub fn index_of(&self, men: [u32; 2], kings: [u32; 2]) -> u64 {
        let m = &self.material;
        let (bm, wm, bk, wk) = (
            u32::from(m.mover_men),
            u32::from(m.other_men),
            u32::from(m.mover_kings),
            u32::from(m.other_kings),
        );
        let bx = men[0] & self.x;
        let by = men[0] & self.y;
        let k = bx.count_ones();
        let nx = binom(self.y.count_ones(), bm - k);
        let wuniv = self.wmask & !by;
        let nw = binom(wuniv.count_ones(), wm);
        let free = !(men[0] | men[1]);
        let nbk = binom(32 - bm - wm, bk);
        let free2 = free & !kings[0];
        let nwk = binom(32 - bm - wm - bk, wk);
        let men_rank =
            (rank_in(bx, self.x) * nx + rank_in(by, self.y)) * nw + rank_in(men[1], wuniv);
        let king_rank = rank_in(kings[0], free) * nwk + rank_in(kings[1], free2);
        self.offsets[k as usize] + men_rank * nbk * nwk + king_rank
    }

    /// The board at `index` as (men, kings) per colour, Black first. `index` must be below
    /// [`ClassIndex::size`].
    pub fn board_at(&self, index: u64) -> ([u32; 2], [u32; 2]) {
        let m = &self.material;
        let (bm, wm, bk, wk) = (
            u32::from(m.mover_men),
            u32::from(m.other_men),
            u32::from(m.mover_kings),
            u32::from(m.other_kings),
        );
        let k = (self.offsets.partition_point(|&o| o <= index) - 1) as u32;
        let mut r = index - self.offsets[k as usize];
        let nbk = binom(32 - bm - wm, bk);
        let nwk = binom(32 - bm - wm - bk, wk);
        let king_rank = r % (nbk * nwk);
        r /= nbk * nwk;
        let ny = binom(self.y.count_ones(), bm - k);
        let nw = binom(self.wmask.count_ones() - (bm - k), wm);
        let wr = r % nw;
        r /= nw;
        let yr = r % ny;
        let xr = r / ny;
        let bx = unrank_in(xr, k, self.x);
        let by = unrank_in(yr, bm - k, self.y);
        let wmen = unrank_in(wr, wm, self.wmask & !by);
        let free = !(bx | by | wmen);
        let bkings = unrank_in(king_rank / nwk, bk, free);
        let wkings = unrank_in(king_rank % nwk, wk, free & !bkings);
        ([bx | by, wmen], [bkings, wkings])
    }

    /// The position at `index` (Black to move), or `None` when the index is not a legal position of
    /// the game (Impasse only).
    pub fn position_at(&self, index: u64) -> Option<Position> {
        let (men, kings) = self.board_at(index);
        let setup = Setup {
            men: [SquareSet(men[0]), SquareSet(men[1])],
            kings: [SquareSet(kings[0]), SquareSet(kings[1])],
            side_to_move: Color::Black,
        };
        Position::from_setup(self.variant, &setup).ok()
    }
}

/// The position turned so that the side to move is Black, as (men, kings) per colour, Black first:
/// unchanged when Black is to move, otherwise rotated 180° (square `n` → `33 - n`) with the colours
/// swapped. The rules of all three games are symmetric under this map.
pub fn canonical(pos: &Position) -> ([u32; 2], [u32; 2]) {
    let b = [pos.men(Color::Black).0, pos.men(Color::White).0];
    let k = [pos.kings(Color::Black).0, pos.kings(Color::White).0];
    if pos.side_to_move() == Color::Black {
        (b, k)
    } else {
        (
            [b[1].reverse_bits(), b[0].reverse_bits()],
            [k[1].reverse_bits(), k[0].reverse_bits()],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_round_trips() {
        for variant in [Variant::American, Variant::Impasse] {
            for pieces in 2..=3 {
                for m in Material::with_pieces(variant, pieces) {
                    let ci = ClassIndex::new(variant, m);
                    for i in 0..ci.size() {
                        let (men, kings) = ci.board_at(i);
                        assert_eq!(ci.index_of(men, kings), i, "{variant:?} {m:?} {i}");
                        let all = men[0] | men[1] | kings[0] | kings[1];
                        assert_eq!(
                            all.count_ones(),
                            u32::from(m.mover_men + m.mover_kings + m.other_men + m.other_kings)
                        );
                    }
                }
            }
        }
    }
}

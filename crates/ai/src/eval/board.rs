//! The evaluations' view of a position: four 32-bit sets (bit `n − 1` = square `n`) and the side to
//! move, with the geometry of the 32 playable squares (neighbours, files, forward cones, the long
//! diagonal). Shared by every evaluation: the classic one ([`super::classic`]) and the trained one
//! ([`super::trained`]), and by the search, which builds one [`Board`] per node.

use crown_core::{Color, Position, Role};

/// No neighbour.
pub(crate) const NO: u8 = 255;

/// Neighbours by direction: 0 down-left, 1 down-right (toward row 7), 2 up-left, 3 up-right.
pub(crate) static NEIGH: [[u8; 4]; 32] = build_neighbours();

/// The file (0–7, a–h) of square index `i` (square `i + 1`): rows 0, 2, 4, 6 hold the odd files.
pub(crate) const fn file_of(i: usize) -> i32 {
    let r = i / 4;
    let c = i % 4;
    if r % 2 == 0 {
        (2 * c + 1) as i32
    } else {
        (2 * c) as i32
    }
}

const fn index_of(row: i32, file: i32) -> u8 {
    if row < 0 || row > 7 || file < 0 || file > 7 || (row + file) % 2 == 0 {
        NO
    } else {
        (row * 4 + file / 2) as u8
    }
}

const fn build_neighbours() -> [[u8; 4]; 32] {
    let mut t = [[NO; 4]; 32];
    let mut i = 0;
    while i < 32 {
        let r = (i / 4) as i32;
        let f = file_of(i);
        t[i][0] = index_of(r + 1, f - 1);
        t[i][1] = index_of(r + 1, f + 1);
        t[i][2] = index_of(r - 1, f - 1);
        t[i][3] = index_of(r - 1, f + 1);
        i += 1;
    }
    t
}

/// The squares of the long diagonal (4, 8, 11, 15, 18, 22, 25, 29), which the 180° turn maps to
/// itself.
pub(crate) const LONG_DIAGONAL: u32 = bits_of(&[4, 8, 11, 15, 18, 22, 25, 29]);

/// The set of the given squares (numbered 1–32).
pub(crate) const fn bits_of(squares: &[u8]) -> u32 {
    let mut m = 0u32;
    let mut i = 0;
    while i < squares.len() {
        m |= 1 << (squares[i] - 1);
        i += 1;
    }
    m
}

/// The square indices (0–31) of the set `m`, lowest first.
pub(crate) fn squares(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            i
        })
    })
}

/// The forward directions of colour `c` (0 = Black moves down, toward row 7; 1 = White moves up).
pub(crate) const fn forward(c: usize) -> [usize; 2] {
    if c == 0 {
        [0, 1]
    } else {
        [2, 3]
    }
}

/// Squares strictly ahead of square index `i` for a side moving down (`down`) or up, within a cone
/// widening by one file per row plus one of slack (a piece there may reach the man's path).
const fn cone(i: usize, down: bool) -> u32 {
    let r = (i / 4) as i32;
    let f = file_of(i);
    let mut mask = 0u32;
    let mut j = 0;
    while j < 32 {
        let rj = (j / 4) as i32;
        let dr = if down { rj - r } else { r - rj };
        let fj = file_of(j);
        let df = if fj > f { fj - f } else { f - fj };
        if dr > 0 && df <= dr + 1 {
            mask |= 1 << j;
        }
        j += 1;
    }
    mask
}

/// The forward cones ([`cone`]) of each square for colour 0 (moving down) and colour 1 (up): a man
/// with no enemy piece in its cone cannot be stopped from crowning.
pub(crate) static CONES: [[u32; 32]; 2] = {
    let mut t = [[0u32; 32]; 2];
    let mut i = 0;
    while i < 32 {
        t[0][i] = cone(i, true);
        t[1][i] = cone(i, false);
        i += 1;
    }
    t
};

/// Whether the diagonal from square index `i` in direction `d` is empty up to the board edge.
pub(crate) fn clear_to_edge(mut i: usize, d: usize, empty: u32) -> bool {
    loop {
        let n = NEIGH[i][d];
        if n == NO {
            return true;
        }
        if empty & (1 << n) == 0 {
            return false;
        }
        i = n as usize;
    }
}

/// The board as four 32-bit sets (bit `n − 1` = square `n`) plus the side to move.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Board {
    pub men: [u32; 2],
    pub kings: [u32; 2],
    pub side: usize,
}

impl Board {
    /// The view of `pos`.
    pub fn of(pos: &Position) -> Board {
        Board {
            men: [pos.men(Color::Black).0, pos.men(Color::White).0],
            kings: [pos.kings(Color::Black).0, pos.kings(Color::White).0],
            side: pos.side_to_move() as usize,
        }
    }

    /// Every occupied square.
    pub(crate) fn occupied(&self) -> u32 {
        self.men[0] | self.men[1] | self.kings[0] | self.kings[1]
    }

    /// Whether the board has at least [`crate::eval::network::MIN_PIECES`] pieces: where the
    /// network evaluates (when the game has one) and where the search's evaluation-margin prunings
    /// (reverse futility, ProbCut) may cut.
    #[inline]
    pub(crate) fn network_sized(&self) -> bool {
        self.occupied().count_ones() >= crate::eval::network::MIN_PIECES
    }

    /// The Zobrist key of the position, equal to `Position::zobrist` (which core keeps incrementally;
    /// this from-scratch version checks it in the tests).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn zobrist(&self) -> u64 {
        let mut h = if self.side == 1 {
            crown_core::zobrist_white_to_move_key()
        } else {
            0
        };
        for c in 0..2 {
            for i in squares(self.men[c]) {
                h ^= crown_core::zobrist_piece_key(Color::ALL[c], Role::Man, i);
            }
            for i in squares(self.kings[c]) {
                h ^= crown_core::zobrist_piece_key(Color::ALL[c], Role::King, i);
            }
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown_core::{Game, Variant};

    #[test]
    fn neighbours_follow_the_standard_numbering() {
        // Square 1 (b8) touches 5 (a7) and 6 (c7); square 32 (g1) touches 27 (f2) and 28 (h2).
        assert_eq!(NEIGH[0][0], 4);
        assert_eq!(NEIGH[0][1], 5);
        assert_eq!(NEIGH[0][2], NO);
        assert_eq!(NEIGH[31][2], 26);
        assert_eq!(NEIGH[31][3], 27);
        // Square 5 (a7) is on the edge: only 1 above and 9 below.
        assert_eq!(NEIGH[4][0], NO);
        assert_eq!(NEIGH[4][1], 8);
        assert_eq!(NEIGH[4][3], 0);
    }

    /// Our Zobrist keys equal core's in every variant, along 40 pseudo-random games of each.
    #[test]
    fn keys_match_core() {
        for v in Variant::ALL {
            let mut seed = 0x9876_5432u64;
            for _ in 0..40 {
                let mut game = Game::new(v);
                for _ in 0..80 {
                    let pos = game.position();
                    assert_eq!(Board::of(pos).zobrist(), pos.zobrist());
                    let moves = game.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let mv = moves[(seed % moves.len() as u64) as usize];
                    game.play(&mv).unwrap();
                }
            }
        }
    }
}

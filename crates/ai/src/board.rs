//! The evaluation's view of a position: four 32-bit sets (bit `n − 1` = square `n`) and the side to
//! move, with the neighbour table of the 32 playable squares. Shared by the hand-written evaluation
//! ([`crate::eval`]) and the trained one ([`crate::trained`]), which both depend on this module.

use crown_core::{Color, Position};

/// No neighbour.
pub(crate) const NO: u8 = 255;

/// Neighbours by direction: 0 down-left, 1 down-right (toward row 7), 2 up-left, 3 up-right.
pub(crate) static NEIGH: [[u8; 4]; 32] = build_neighbours();

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

/// The board as four 32-bit sets (bit `n − 1` = square `n`) plus the side to move.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Board {
    pub men: [u32; 2],
    pub kings: [u32; 2],
    pub side: usize,
}

impl Board {
    pub fn of(pos: &Position) -> Board {
        Board {
            men: [pos.men(Color::Black).0, pos.men(Color::White).0],
            kings: [pos.kings(Color::Black).0, pos.kings(Color::White).0],
            side: pos.side_to_move() as usize,
        }
    }

    pub(crate) fn occupied(&self) -> u32 {
        self.men[0] | self.men[1] | self.kings[0] | self.kings[1]
    }
}

//! Squares, colours and piece kinds.
//!
//! Squares use the standard checkers numbering (PDN `N1`): the board is drawn with Black at the top,
//! row 1 holds squares 1–4 on b8, d8, f8, h8, row 2 holds 5–8 on a7, c7, e7, g7, … and row 8 holds
//! 29–32 on a1, c1, e1, g1. Black's men start on 1–12 and move toward 29–32.

use std::fmt;

/// One of the 32 dark squares, numbered 1–32 in the standard checkers numbering (PDN `N1`).
///
/// Internally stored zero-based (0–31), so `Square::new(1)` is index 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// All 32 squares in ascending order.
    pub const ALL: [Square; 32] = {
        let mut out = [Square(0); 32];
        let mut i = 0;
        while i < 32 {
            out[i] = Square(i as u8);
            i += 1;
        }
        out
    };

    /// The square with standard number `number` (1–32), or `None` when out of range.
    pub const fn new(number: u8) -> Option<Square> {
        if number >= 1 && number <= 32 {
            Some(Square(number - 1))
        } else {
            None
        }
    }

    /// The square with zero-based index `index` (0–31), or `None` when out of range.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 32 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The standard number, 1–32.
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// The zero-based index, 0–31.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The row seen from the top of the diagram (Black's side): 0 for squares 1–4, 7 for 29–32.
    pub const fn row(self) -> u8 {
        self.0 / 4
    }

    /// The file (column) on the 8×8 board, 0 = file a … 7 = file h.
    pub const fn file(self) -> u8 {
        let row = self.0 / 4;
        let col = self.0 % 4;
        if row % 2 == 0 {
            2 * col + 1
        } else {
            2 * col
        }
    }

    /// The rank on the 8×8 board, 1–8 (rank 8 is the top row, squares 1–4).
    pub const fn rank(self) -> u8 {
        8 - self.row()
    }

    /// The square on a given file (0–7) and rank (1–8), or `None` for a light square or off the board.
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Square> {
        if file > 7 || rank < 1 || rank > 8 {
            return None;
        }
        let row = 8 - rank;
        // Dark squares: file + row is odd.
        if (file + row) % 2 == 0 {
            return None;
        }
        Some(Square(row * 4 + file / 2))
    }

    /// The algebraic name of the square, e.g. `b8` for square 1 and `g1` for square 32.
    pub fn algebraic(self) -> String {
        format!("{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

impl fmt::Display for Square {
    /// Writes the standard number (1–32).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// A side. In checkers Black moves first; in Impasse White moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The dark pieces, starting on squares 1–12 and moving toward 29–32.
    Black,
    /// The light pieces, starting on squares 21–32 and moving toward 1–4.
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other side.
    #[must_use]
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White (for indexing per-colour arrays).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter: `B` or `W`.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// Lower-case English name: `black` or `white`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}

/// The kind of a piece. In checkers a `Man` or a `King`; in Impasse the same two kinds are a *single*
/// checker (`Man`) and a *double* (`King`, a stack of two checkers).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// A man (checkers) or a single (Impasse).
    Man,
    /// A king (checkers) or a double (Impasse).
    King,
}

/// A coloured piece on a square.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// Man/single or king/double.
    pub role: Role,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_the_standard_diagram() {
        // Issue 2 / PDN N1: square 1 is b8, 5 is a7, 29 is a1, 32 is g1.
        assert_eq!(Square::new(1).unwrap().algebraic(), "b8");
        assert_eq!(Square::new(4).unwrap().algebraic(), "h8");
        assert_eq!(Square::new(5).unwrap().algebraic(), "a7");
        assert_eq!(Square::new(8).unwrap().algebraic(), "g7");
        assert_eq!(Square::new(29).unwrap().algebraic(), "a1");
        assert_eq!(Square::new(32).unwrap().algebraic(), "g1");
        for sq in Square::ALL {
            assert_eq!(Square::from_file_rank(sq.file(), sq.rank()), Some(sq));
        }
        assert_eq!(Square::from_file_rank(0, 8), None); // a8 is light
        assert_eq!(Square::new(0), None);
        assert_eq!(Square::new(33), None);
    }
}

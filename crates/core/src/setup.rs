//! [`Setup`]: an unvalidated board with a side to move, read from and written to PDN FEN.
//!
//! Grammar (PDN 3.0 FEN tag, `shared/docs/pdn-standard/fen.rst`, with its extensions):
//! `COLOR (":" COLOR [list])+ "."?` where the side to move `COLOR` is `B` or `W`, each list is a
//! comma-separated sequence of squares `K? N` or ranges `K? N-M`, numeric (1–32) or algebraic (`c3`).
//! An empty list (`B:W18:B`) and a trailing dot are accepted; a list that is left out altogether
//! means that side has no pieces. Spaces are ignored.

use crate::bitboard::SquareSet;
use crate::square::{Color, Piece, Role, Square};
use std::fmt;
use std::str::FromStr;

/// Pieces on squares plus the side to move, not yet checked against the rules of a variant.
///
/// Convert it to a [`crate::Position`] with [`crate::Position::from_setup`], which applies the checks
/// of the chosen variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Men (Impasse: singles) of each colour, indexed by [`Color::index`].
    pub men: [SquareSet; 2],
    /// Kings (Impasse: doubles) of each colour, indexed by [`Color::index`].
    pub kings: [SquareSet; 2],
    /// The side to move.
    pub side_to_move: Color,
}

/// Why a FEN string was rejected. `column` values are 1-based character positions in the string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The string is empty.
    Empty,
    /// The first character is not `B` or `W`.
    BadSideToMove {
        /// What was found instead.
        found: String,
    },
    /// A character that has no meaning at this place.
    UnexpectedChar {
        /// The character.
        ch: char,
        /// 1-based column.
        column: usize,
        /// What the grammar expected.
        expected: &'static str,
    },
    /// A square number outside 1–32 (or an algebraic name of a light square or off the board).
    SquareOutOfRange {
        /// The square as written.
        square: String,
        /// 1-based column.
        column: usize,
    },
    /// A range whose end is below its start, like `12-5`.
    BadRange {
        /// The range as written.
        range: String,
        /// 1-based column.
        column: usize,
    },
    /// A square listed twice (in one list or in both).
    DuplicateSquare {
        /// The square.
        square: Square,
    },
    /// A colour's list given twice.
    ColorTwice {
        /// The colour.
        color: Color,
    },
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::BadSideToMove { found } => {
                write!(f, "side to move must be 'B' or 'W', found '{found}'")
            }
            FenError::UnexpectedChar {
                ch,
                column,
                expected,
            } => {
                write!(
                    f,
                    "unexpected '{ch}' at column {column}: expected {expected}"
                )
            }
            FenError::SquareOutOfRange { square, column } => {
                write!(
                    f,
                    "square '{square}' at column {column} is not one of the squares 1-32"
                )
            }
            FenError::BadRange { range, column } => {
                write!(f, "range '{range}' at column {column} ends below its start")
            }
            FenError::DuplicateSquare { square } => write!(f, "square {square} is given twice"),
            FenError::ColorTwice { color } => {
                write!(f, "the {} pieces are listed twice", color.name())
            }
        }
    }
}

impl std::error::Error for FenError {}

impl Setup {
    /// An empty board with `side_to_move` to move.
    pub const fn empty(side_to_move: Color) -> Setup {
        Setup {
            men: [SquareSet::EMPTY; 2],
            kings: [SquareSet::EMPTY; 2],
            side_to_move,
        }
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        for color in Color::ALL {
            if self.men[color.index()].contains(sq) {
                return Some(Piece {
                    color,
                    role: Role::Man,
                });
            }
            if self.kings[color.index()].contains(sq) {
                return Some(Piece {
                    color,
                    role: Role::King,
                });
            }
        }
        None
    }

    /// All occupied squares.
    pub fn occupied(&self) -> SquareSet {
        SquareSet(self.men[0].0 | self.men[1].0 | self.kings[0].0 | self.kings[1].0)
    }

    /// Parse PDN FEN (see the module documentation for the grammar).
    ///
    /// # Errors
    /// A [`FenError`] naming the first problem and its column.
    pub fn from_fen(fen: &str) -> Result<Setup, FenError> {
        let chars: Vec<(usize, char)> = fen
            .chars()
            .enumerate()
            .filter(|(_, c)| !c.is_whitespace())
            .map(|(i, c)| (i + 1, c))
            .collect();
        let Some(&(_, first)) = chars.first() else {
            return Err(FenError::Empty);
        };
        let side_to_move = match first.to_ascii_uppercase() {
            'B' => Color::Black,
            'W' => Color::White,
            _ => {
                return Err(FenError::BadSideToMove {
                    found: first.to_string(),
                })
            }
        };
        let mut setup = Setup::empty(side_to_move);
        let mut seen = [false; 2];
        let mut i = 1;
        let end = if chars.last().map(|c| c.1) == Some('.') {
            chars.len() - 1
        } else {
            chars.len()
        };
        if i >= end && end == chars.len() && chars.len() == 1 {
            // Only the side to move: an empty board is allowed here and rejected by the variant checks.
            return Ok(setup);
        }
        while i < end {
            let (col, c) = chars[i];
            if c != ':' {
                return Err(FenError::UnexpectedChar {
                    ch: c,
                    column: col,
                    expected: "':'",
                });
            }
            i += 1;
            let Some(&(col, c)) = chars.get(i).filter(|_| i < end) else {
                return Err(FenError::UnexpectedChar {
                    ch: ':',
                    column: col,
                    expected: "a colour 'B' or 'W' after ':'",
                });
            };
            let color = match c.to_ascii_uppercase() {
                'B' => Color::Black,
                'W' => Color::White,
                _ => {
                    return Err(FenError::UnexpectedChar {
                        ch: c,
                        column: col,
                        expected: "colour 'B' or 'W'",
                    })
                }
            };
            if seen[color.index()] {
                return Err(FenError::ColorTwice { color });
            }
            seen[color.index()] = true;
            i += 1;
            // Square list until ':' or end.
            // True at the start of the list and after a comma: a square must come next.
            let mut expect_item = false;
            let mut items = 0;
            while i < end && chars[i].1 != ':' {
                let (col, c) = chars[i];
                if c == ',' {
                    if expect_item || items == 0 || i + 1 >= end || chars[i + 1].1 == ':' {
                        return Err(FenError::UnexpectedChar {
                            ch: c,
                            column: col,
                            expected: "a square",
                        });
                    }
                    expect_item = true;
                    i += 1;
                    continue;
                }
                let start_col = col;
                let king = c == 'K' || c == 'k';
                if king {
                    i += 1;
                }
                let (first_sq, text, next) = parse_square(&chars, i, end)?;
                i = next;
                let mut last_sq = first_sq;
                if i < end && chars[i].1 == '-' {
                    i += 1;
                    let (sq2, text2, next2) = parse_square(&chars, i, end)?;
                    i = next2;
                    if sq2 < first_sq {
                        return Err(FenError::BadRange {
                            range: format!("{text}-{text2}"),
                            column: start_col,
                        });
                    }
                    last_sq = sq2;
                }
                for n in first_sq.index()..=last_sq.index() {
                    let sq = Square::ALL[n];
                    if setup.occupied().contains(sq) {
                        return Err(FenError::DuplicateSquare { square: sq });
                    }
                    if king {
                        setup.kings[color.index()].insert(sq);
                    } else {
                        setup.men[color.index()].insert(sq);
                    }
                }
                expect_item = false;
                items += 1;
                if i < end && chars[i].1 != ',' && chars[i].1 != ':' {
                    let (col, c) = chars[i];
                    return Err(FenError::UnexpectedChar {
                        ch: c,
                        column: col,
                        expected: "',' or ':'",
                    });
                }
            }
        }
        Ok(setup)
    }

    /// Write canonical PDN FEN: side to move, the White list, the Black list, squares ascending with
    /// `K` before kings, no ranges, no trailing dot. Example: `B:W18,24,27,28,K10,K15:B12` is written
    /// `B:WK10,K15,18,24,27,28:B12`.
    pub fn to_fen(&self) -> String {
        let mut out = String::new();
        out.push(self.side_to_move.letter());
        for color in [Color::White, Color::Black] {
            out.push(':');
            out.push(color.letter());
            let mut first = true;
            let all = SquareSet(self.men[color.index()].0 | self.kings[color.index()].0);
            for sq in all.iter() {
                if !first {
                    out.push(',');
                }
                first = false;
                if self.kings[color.index()].contains(sq) {
                    out.push('K');
                }
                out.push_str(&sq.number().to_string());
            }
        }
        out
    }
}

/// Parse one square (numeric or algebraic) starting at `i`; returns it, its text and the next index.
fn parse_square(
    chars: &[(usize, char)],
    mut i: usize,
    end: usize,
) -> Result<(Square, String, usize), FenError> {
    let Some(&(col, c)) = chars.get(i).filter(|_| i < end) else {
        let (col, ch) = chars
            .get(i.min(chars.len().saturating_sub(1)))
            .copied()
            .unwrap_or((1, ' '));
        return Err(FenError::UnexpectedChar {
            ch,
            column: col,
            expected: "a square",
        });
    };
    if c.is_ascii_digit() {
        let mut text = String::new();
        // Digits of one number must be adjacent in the text: "1 2" is not 12.
        while i < end
            && chars[i].1.is_ascii_digit()
            && (text.is_empty() || chars[i].0 == chars[i - 1].0 + 1)
        {
            text.push(chars[i].1);
            i += 1;
        }
        let n: u32 = text.parse().unwrap_or(u32::MAX);
        let sq = u8::try_from(n).ok().and_then(Square::new);
        match sq {
            Some(sq) => Ok((sq, text, i)),
            None => Err(FenError::SquareOutOfRange {
                square: text,
                column: col,
            }),
        }
    } else if c.is_ascii_lowercase() && ('a'..='h').contains(&c) {
        let file = c as u8 - b'a';
        let Some(&(_, r)) = chars.get(i + 1).filter(|_| i + 1 < end) else {
            return Err(FenError::SquareOutOfRange {
                square: c.to_string(),
                column: col,
            });
        };
        let text: String = [c, r].iter().collect();
        let sq = r
            .to_digit(10)
            .and_then(|rank| Square::from_file_rank(file, rank as u8));
        match sq {
            Some(sq) => Ok((sq, text, i + 2)),
            None => Err(FenError::SquareOutOfRange {
                square: text,
                column: col,
            }),
        }
    } else {
        Err(FenError::UnexpectedChar {
            ch: c,
            column: col,
            expected: "a square number or 'K'",
        })
    }
}

impl FromStr for Setup {
    type Err = FenError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Setup::from_fen(s)
    }
}

impl fmt::Display for Setup {
    /// Writes canonical FEN, as [`Setup::to_fen`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_pdn_example_and_writes_it_canonically() {
        let s = Setup::from_fen("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29").unwrap();
        assert_eq!(s.side_to_move, Color::Black);
        assert_eq!(s.to_fen(), "B:WK10,K15,18,24,27,28:B12,16,20,K22,K25,K29");
        assert_eq!(Setup::from_fen(&s.to_fen()).unwrap(), s);
    }

    #[test]
    fn accepts_ranges_empty_lists_trailing_dot_and_any_order() {
        let a = Setup::from_fen("B:W21-32:B1-12").unwrap();
        let b = Setup::from_fen("B:B1-12:W21-32.").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.men[Color::White.index()].len(), 12);
        let e = Setup::from_fen("B:W18:B").unwrap();
        assert!(e.men[Color::Black.index()].is_empty());
        assert_eq!(e.to_fen(), "B:W18:B");
        let alpha = Setup::from_fen("W:Wc3,Kd4:Bb8").unwrap();
        // c3 is square 22, d4 is square 18, b8 is square 1 (PDN N1 numbering).
        assert_eq!(alpha.to_fen(), "W:WK18,22:B1");
    }

    #[test]
    fn rejects_bad_fens_with_a_reason() {
        let err = |f: &str| Setup::from_fen(f).unwrap_err().to_string();
        assert_eq!(
            err("B:W33:B1"),
            "square '33' at column 4 is not one of the squares 1-32"
        );
        assert_eq!(
            err("B:W0:B1"),
            "square '0' at column 4 is not one of the squares 1-32"
        );
        assert_eq!(err("B:W5,5:B1"), "square 5 is given twice");
        assert_eq!(err("B:W5:B5"), "square 5 is given twice");
        assert_eq!(err("B:W5:W6"), "the white pieces are listed twice");
        assert_eq!(
            err("B:W5:X6"),
            "unexpected 'X' at column 6: expected colour 'B' or 'W'"
        );
        assert_eq!(
            err("B:W5,Q:B1"),
            "unexpected 'Q' at column 6: expected a square number or 'K'"
        );
        assert_eq!(err("X:W5:B1"), "side to move must be 'B' or 'W', found 'X'");
        assert_eq!(err(""), "empty FEN");
        assert_eq!(
            err("B:W12-5:B1"),
            "range '12-5' at column 4 ends below its start"
        );
        assert!(Setup::from_fen("B:W5,:B1").is_err());
        assert!(Setup::from_fen("B:W,5:B1").is_err());
        // Spaces may separate tokens but not split a number.
        assert_eq!(
            err("B:W1 2:B5"),
            "unexpected '2' at column 6: expected ',' or ':'"
        );
        assert_eq!(
            Setup::from_fen(" B : W 5 , 6 : B 1 ").unwrap().to_fen(),
            "B:W5,6:B1"
        );
        assert!(Setup::from_fen("B:W99999999999999999999:B1").is_err());
    }
}

//! [`Position`]: a board checked against the rules of one variant, with its side to move.

//!
//! One concept per file: the errors in `position/error.rs`, the Zobrist keys in
//! `position/zobrist.rs`, move text (writing and parsing) in `position/parse.rs`.

mod error;
mod parse;
mod zobrist;

pub use error::{MoveError, PositionError};
pub use zobrist::{zobrist_piece_key, zobrist_white_to_move_key};

use crate::bitboard::{self, bit, far_row, near_row, squares, Bb, SquareSet, BOARD};
use crate::moves::{Move, MoveKind, MoveList};
use crate::setup::Setup;
use crate::square::{Color, Piece, Role, Square};
use crate::variant::{ImpasseSetup, Variant};
use std::fmt;

/// A legal position of one [`Variant`]: the pieces, the side to move, nothing else.
///
/// Build it from the start ([`Position::new`]), from a [`Setup`] ([`Position::from_setup`]) or from
/// PDN FEN ([`Position::from_fen`]). History-dependent rules (repetition, the 40-move rule, the APCA
/// counts) live in [`crate::Game`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) variant: Variant,
    /// Men / singles per colour (ghost layout).
    pub(crate) men: [Bb; 2],
    /// Kings / doubles per colour (ghost layout).
    pub(crate) kings: [Bb; 2],
    pub(crate) side: Color,
    /// The Zobrist key of the fields above (see [`Position::zobrist`]), kept up to date by
    /// [`Position::play`]. Positions that move generation builds only to count their moves may
    /// leave it stale; they never leave the crate.
    pub(crate) key: u64,
}

impl Position {
    /// The start position of `variant` (Impasse: the [`ImpasseSetup::Seed`] setup).
    pub fn new(variant: Variant) -> Position {
        Position::from_fen(variant, variant.start_fen()).unwrap_or_else(|_| unreachable_start())
    }

    /// The start position of Impasse in the chosen setup.
    pub fn impasse(setup: ImpasseSetup) -> Position {
        Position::from_fen(Variant::Impasse, setup.fen()).unwrap_or_else(|_| unreachable_start())
    }

    /// Check `setup` against the rules of `variant`.
    ///
    /// # Errors
    /// A [`PositionError`] when the position cannot arise in a game: too many pieces, an empty board,
    /// a man on its crowning row (checkers); a double on its nearest row, an uncrowned furthest-row
    /// single beside another single, a side to move with no checkers (Impasse).
    pub fn from_setup(variant: Variant, setup: &Setup) -> Result<Position, PositionError> {
        let pos = Position {
            variant,
            men: [
                bitboard::from_set(setup.men[0]),
                bitboard::from_set(setup.men[1]),
            ],
            kings: [
                bitboard::from_set(setup.kings[0]),
                bitboard::from_set(setup.kings[1]),
            ],
            side: setup.side_to_move,
            key: 0,
        };
        let pos = Position {
            key: pos.zobrist_from_scratch(),
            ..pos
        };
        if pos.occupied() == 0 {
            return Err(PositionError::EmptyBoard);
        }
        let sets = [pos.men[0], pos.men[1], pos.kings[0], pos.kings[1]];
        let total: u32 = sets.iter().map(|b| b.count_ones()).sum();
        if total != pos.occupied().count_ones() {
            let mut seen = 0;
            for b in sets {
                if let Some(square) = squares(seen & b).next() {
                    return Err(PositionError::SquareTwice { square });
                }
                seen |= b;
            }
        }
        for color in Color::ALL {
            let count = pos.checkers(color);
            if count > 12 {
                return Err(PositionError::TooManyPieces { color, count });
            }
            let c = color.index();
            if variant.is_draughts() {
                if let Some(square) = squares(pos.men[c] & far_row(color)).next() {
                    return Err(PositionError::ManOnKingRow { color, square });
                }
            } else {
                if let Some(square) = squares(pos.kings[c] & near_row(color)).next() {
                    return Err(PositionError::DoubleOnNearestRow { color, square });
                }
                let far = pos.men[c] & far_row(color);
                if far != 0 && pos.men[c].count_ones() > 1 {
                    let square = bitboard::lowest_square(far);
                    let other = squares(pos.men[c] ^ bit(square)).next().unwrap_or(square);
                    return Err(PositionError::UncrownedSingle {
                        color,
                        square,
                        other,
                    });
                }
            }
        }
        if variant == Variant::Impasse && pos.checkers(pos.side) == 0 {
            return Err(PositionError::MoverHasNoCheckers { color: pos.side });
        }
        Ok(pos)
    }

    /// Read a position of `variant` from PDN FEN (see [`Setup::from_fen`]).
    ///
    /// # Errors
    /// [`PositionError::Fen`] for unreadable text, or the rule checks of [`Position::from_setup`].
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Position, PositionError> {
        Position::from_setup(variant, &Setup::from_fen(fen)?)
    }

    /// The position as an unvalidated [`Setup`].
    pub fn to_setup(&self) -> Setup {
        Setup {
            men: [bitboard::to_set(self.men[0]), bitboard::to_set(self.men[1])],
            kings: [
                bitboard::to_set(self.kings[0]),
                bitboard::to_set(self.kings[1]),
            ],
            side_to_move: self.side,
        }
    }

    /// Canonical PDN FEN (see [`Setup::to_fen`]).
    pub fn to_fen(&self) -> String {
        self.to_setup().to_fen()
    }

    /// The game this position belongs to.
    pub const fn variant(&self) -> Variant {
        self.variant
    }

    /// The side to move.
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let b = bit(sq);
        for color in Color::ALL {
            if self.men[color.index()] & b != 0 {
                return Some(Piece {
                    color,
                    role: Role::Man,
                });
            }
            if self.kings[color.index()] & b != 0 {
                return Some(Piece {
                    color,
                    role: Role::King,
                });
            }
        }
        None
    }

    /// The men (Impasse: singles) of `color`.
    pub fn men(&self, color: Color) -> SquareSet {
        bitboard::to_set(self.men[color.index()])
    }

    /// The kings (Impasse: doubles) of `color`.
    pub fn kings(&self, color: Color) -> SquareSet {
        bitboard::to_set(self.kings[color.index()])
    }

    /// Number of pieces of `color` on the board (a king or double counts once).
    pub const fn piece_count(&self, color: Color) -> u32 {
        (self.men[color.index()] | self.kings[color.index()]).count_ones()
    }

    /// Checkers count: in Impasse the checkers of `color` on the board (a double is two); in checkers
    /// the number of pieces.
    pub const fn checkers(&self, color: Color) -> u32 {
        let c = color.index();
        match self.variant {
            Variant::Impasse => self.men[c].count_ones() + 2 * self.kings[c].count_ones(),
            _ => (self.men[c] | self.kings[c]).count_ones(),
        }
    }

    pub(crate) const fn occupied(&self) -> Bb {
        self.men[0] | self.men[1] | self.kings[0] | self.kings[1]
    }

    pub(crate) const fn empty(&self) -> Bb {
        BOARD & !self.occupied()
    }

    /// The side not to move has nothing left: in Impasse it removed its last checker and won; in
    /// checkers it lost all of its pieces (such a position cannot arise in play, since the side that
    /// took the last piece hands over the move, but a FEN can set it up).
    pub(crate) fn is_over_by_material(&self) -> bool {
        self.checkers(self.side.opposite()) == 0
    }

    /// The legal moves. Captures are compulsory in checkers (American rule 6, APCA rules 20–21); the
    /// list holds one move per (from, to, captured set). Empty when the game is over.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list, false);
        list
    }

    /// The legal moves in reading order (by start square, then end square, then captured squares),
    /// for listing to people; [`Position::legal_moves`] gives generation order.
    pub fn legal_moves_sorted(&self) -> Vec<Move> {
        let mut v: Vec<Move> = self.legal_moves().to_vec();
        v.sort_by_key(|m| {
            (
                m.from,
                m.to,
                m.captures().0,
                m.crown(),
                m.kind() == MoveKind::Remove,
            )
        });
        v
    }

    /// Like [`Position::legal_moves`] but filling a caller's list (cleared first), to avoid copying.
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        self.generate(list, false);
    }

    /// Every capture path separately (the perft `paths` convention): a king taking the same pieces in
    /// two orders gives two entries.
    pub fn legal_move_paths_into(&self, list: &mut MoveList) {
        self.generate(list, true);
    }

    /// Whether `mv` is one of the legal moves.
    pub fn is_legal(&self, mv: &Move) -> bool {
        self.legal_moves().contains(mv)
    }

    /// Whether the side to move must capture (checkers).
    pub fn must_capture(&self) -> bool {
        self.has_captures()
    }

    /// Whether `color` would have a capture if it were to move (checkers; `false` in Impasse), for
    /// threat detection.
    pub fn can_capture(&self, color: Color) -> bool {
        let mut p = *self;
        p.side = color;
        p.has_captures()
    }

    /// The pieces of the side to move that can capture (checkers), for front ends that mark them.
    pub fn capturers(&self) -> SquareSet {
        self.legal_moves()
            .iter()
            .filter(|m| m.is_capture())
            .map(|m| m.from)
            .collect()
    }

    /// Play `mv`, which must come from this position's legal moves (otherwise the board is left in a
    /// meaningless but memory-safe state). Flips the side to move and updates the Zobrist key.
    #[inline]
    pub fn play(&mut self, mv: &Move) {
        *self = self.after(mv);
    }

    /// The position after `mv` (see [`Position::play`]).
    #[must_use]
    #[inline]
    pub fn after(&self, mv: &Move) -> Position {
        self.moved(mv, self.key ^ self.key_change(mv))
    }

    /// [`Position::after`] without updating the Zobrist key, for perft, which never reads it: the
    /// result has a stale key and must not leave the crate.
    #[inline]
    pub(crate) fn after_unkeyed(&self, mv: &Move) -> Position {
        self.moved(mv, self.key)
    }

    /// The board after `mv`, with Zobrist key `key`. Masks instead of indexing the arrays by the side
    /// to move: every word is computed in registers, so that a copied position is not read back
    /// through memory in pieces (an indexed read-modify-write of one half of a just-copied 16-byte
    /// pair stalls the CPU's store forwarding).
    #[inline(always)]
    fn moved(&self, mv: &Move, key: u64) -> Position {
        let black = if self.side == Color::Black {
            Bb::MAX
        } else {
            0
        };
        let white = !black;
        Position {
            variant: self.variant,
            men: [
                (self.men[0] ^ (mv.men_xor & black)) & !(mv.captured & white),
                (self.men[1] ^ (mv.men_xor & white)) & !(mv.captured & black),
            ],
            kings: [
                (self.kings[0] ^ (mv.kings_xor & black)) & !(mv.captured & white),
                (self.kings[1] ^ (mv.kings_xor & white)) & !(mv.captured & black),
            ],
            side: self.side.opposite(),
            key,
        }
    }

    /// The outcome decided by the board alone, or `None` while the game goes on. Checkers: the side to
    /// move with no legal move (including no pieces) loses (American rules 4 and 9, APCA rule 26).
    /// Impasse: the side that removed all of its checkers has won.
    pub fn winner(&self) -> Option<Color> {
        match self.variant {
            Variant::Impasse => {
                if self.checkers(self.side.opposite()) == 0 {
                    Some(self.side.opposite())
                } else {
                    None
                }
            }
            _ => {
                if self.piece_count(self.side.opposite()) == 0 {
                    Some(self.side)
                } else if self.legal_moves().is_empty() {
                    Some(self.side.opposite())
                } else {
                    None
                }
            }
        }
    }

    /// A text diagram, Black at the top, files a–h and ranks 8–1 around it. Empty dark squares show
    /// their number; men/singles are `b`/`w`, kings/doubles `B`/`W`.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for rank in (1..=8u8).rev() {
            s.push_str(&format!("{rank} "));
            for file in 0..8u8 {
                match Square::from_file_rank(file, rank) {
                    None => s.push_str("  ."),
                    Some(sq) => match self.piece_at(sq) {
                        None => s.push_str(&format!("{:>3}", sq.number())),
                        Some(p) => {
                            let c = match (p.color, p.role) {
                                (Color::Black, Role::Man) => 'b',
                                (Color::Black, Role::King) => 'B',
                                (Color::White, Role::Man) => 'w',
                                (Color::White, Role::King) => 'W',
                            };
                            s.push_str(&format!("  {c}"));
                        }
                    },
                }
            }
            s.push('\n');
        }
        s.push_str("    a  b  c  d  e  f  g  h\n");
        s
    }
}

#[cold]
fn unreachable_start() -> Position {
    // The start FENs are constants checked by tests; this fallback keeps `new` panic-free.
    Position {
        variant: Variant::American,
        men: [0, 0],
        kings: [0, 0],
        side: Color::Black,
        key: 0,
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {})", self.variant, self.to_fen())
    }
}

impl fmt::Display for Position {
    /// Writes [`Position::diagram`] followed by the side to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{} to move", self.diagram(), self.side)
    }
}

//! [`Position`]: a board checked against the rules of one variant, with its side to move.

use crate::bitboard::{self, bit, far_row, near_row, squares, Bb, SquareSet, BOARD};
use crate::moves::{Move, MoveKind, MoveList};
use crate::setup::{FenError, Setup};
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

/// Why a setup is not a legal position of a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The FEN text could not be read.
    Fen(FenError),
    /// More than 12 pieces (checkers) or more than 12 checkers (Impasse: a double counts 2) of a colour.
    TooManyPieces {
        /// The colour.
        color: Color,
        /// How many pieces or checkers it has.
        count: u32,
    },
    /// Neither side has a piece.
    EmptyBoard,
    /// A square holds two pieces (a [`Setup`] built by hand with overlapping sets).
    SquareTwice {
        /// The square.
        square: Square,
    },
    /// Checkers: a man stands on the row where it would have been crowned (American rule 7,
    /// APCA rule 23).
    ManOnKingRow {
        /// The man's colour.
        color: Color,
        /// Its square.
        square: Square,
    },
    /// Impasse: a double on its owner's nearest row would have been borne off (Bear Off section).
    DoubleOnNearestRow {
        /// The double's colour.
        color: Color,
        /// Its square.
        square: Square,
    },
    /// Impasse: a single on its owner's furthest row while another single of that colour is on the
    /// board would have been crowned (Crown section).
    UncrownedSingle {
        /// The colour.
        color: Color,
        /// The single on the furthest row.
        square: Square,
        /// Another single of the same colour.
        other: Square,
    },
    /// Impasse: the side to move has no checkers, so it already won on its previous turn.
    MoverHasNoCheckers {
        /// The side to move.
        color: Color,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen(e) => write!(f, "bad FEN: {e}"),
            PositionError::TooManyPieces { color, count } => write!(
                f,
                "{color} has {count} checkers; a side has at most 12 (an Impasse double counts two)"
            ),
            PositionError::EmptyBoard => write!(f, "neither side has a piece"),
            PositionError::SquareTwice { square } => write!(f, "square {square} holds more than one piece"),
            PositionError::ManOnKingRow { color, square } => write!(
                f,
                "{color} man on square {square} stands on its king row and would have been crowned"
            ),
            PositionError::DoubleOnNearestRow { color, square } => write!(
                f,
                "{color} double on square {square} stands on its nearest row and would have been borne off"
            ),
            PositionError::UncrownedSingle { color, square, other } => write!(
                f,
                "{color} single on square {square} stands on its furthest row beside another single on {other}; it would have been crowned"
            ),
            PositionError::MoverHasNoCheckers { color } => write!(
                f,
                "{color} is to move but has no checkers left: that side already won on its previous turn"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

impl From<FenError> for PositionError {
    fn from(e: FenError) -> Self {
        PositionError::Fen(e)
    }
}

/// Why a move text was not accepted by [`Position::parse_move`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not in the move notation (docs/notation.md).
    Syntax {
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The move is not legal here.
    Illegal {
        /// The text given.
        text: String,
        /// Every legal move, in notation.
        legal: Vec<String>,
    },
    /// The text fits several legal moves (for example `10x26` taking different pieces).
    Ambiguous {
        /// The text given.
        text: String,
        /// The moves it fits, written in full.
        candidates: Vec<String>,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax { text, reason } => write!(f, "cannot read move '{text}': {reason}"),
            MoveError::Illegal { text, legal } if legal.is_empty() => {
                write!(
                    f,
                    "illegal move '{text}': the game is over, there are no legal moves"
                )
            }
            MoveError::Illegal { text, legal } => {
                write!(f, "illegal move '{text}'; legal moves: {}", legal.join(" "))
            }
            MoveError::Ambiguous { text, candidates } => {
                write!(
                    f,
                    "ambiguous move '{text}': it fits {}",
                    candidates.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// Zobrist keys: [colour][role][square index], plus one for White to move. Generated by splitmix64.
const fn zobrist_keys() -> ([[[u64; 32]; 2]; 2], u64) {
    let mut state: u64 = 0x0c0f_fee0_d15e_a5e5;
    let mut t = [[[0u64; 32]; 2]; 2];
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 2 {
            let mut s = 0;
            while s < 32 {
                state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                t[c][r][s] = z ^ (z >> 31);
                s += 1;
            }
            r += 1;
        }
        c += 1;
    }
    state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (t, z ^ (z >> 31))
}

/// The Zobrist keys by square index. A `static`, so that reading it never copies the table.
static ZOBRIST: ([[[u64; 32]; 2]; 2], u64) = zobrist_keys();

/// The same piece keys indexed by ghost-layout bit ([colour][role][bit], 0 on ghost bits), so that
/// [`Position::play`] updates the key straight from a move's bitboards.
static ZOBRIST_GHOST: [[[u64; 64]; 2]; 2] = {
    let keys = zobrist_keys().0;
    let mut t = [[[0u64; 64]; 2]; 2];
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 2 {
            let mut i = 0;
            while i < 32 {
                t[c][r][bitboard::ghost_bit(i as u8) as usize] = keys[c][r][i];
                i += 1;
            }
            r += 1;
        }
        c += 1;
    }
    t
};

/// Xor of the keys in `table` of every set bit of `bb`.
#[inline(always)]
fn keys_of(mut bb: Bb, table: &[u64; 64]) -> u64 {
    let mut h = 0;
    while bb != 0 {
        h ^= table[bb.trailing_zeros() as usize & 63];
        bb &= bb - 1;
    }
    h
}

/// The Zobrist key of a `role` piece of `color` on the square with zero-based `index` (0–31), as
/// used by [`Position::zobrist`]; engines that hash their own board representation can reuse it so
/// that their keys equal core's. An index above 31 gives 0.
#[inline]
pub fn zobrist_piece_key(color: Color, role: Role, index: usize) -> u64 {
    let r = match role {
        Role::Man => 0,
        Role::King => 1,
    };
    ZOBRIST.0[color.index()][r].get(index).copied().unwrap_or(0)
}

/// The Zobrist key xored in when White is to move (see [`Position::zobrist`]).
#[inline]
pub fn zobrist_white_to_move_key() -> u64 {
    ZOBRIST.1
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

    /// Incremental Zobrist: the keys of the mover's changed squares, of the captured pieces and of
    /// the side to move.
    #[inline]
    fn key_change(&self, mv: &Move) -> u64 {
        let us = self.side.index();
        let them = 1 - us;
        keys_of(mv.men_xor, &ZOBRIST_GHOST[us][0])
            ^ keys_of(mv.kings_xor, &ZOBRIST_GHOST[us][1])
            ^ keys_of(mv.captured & self.men[them], &ZOBRIST_GHOST[them][0])
            ^ keys_of(mv.captured & self.kings[them], &ZOBRIST_GHOST[them][1])
            ^ ZOBRIST.1
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

    /// Zobrist hash of pieces and side to move (64 bits; equal positions of one variant hash equal):
    /// the xor of [`zobrist_piece_key`] over every piece, and [`zobrist_white_to_move_key`] when White
    /// is to move. Kept up to date by [`Position::play`], so reading it costs nothing.
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.key
    }

    /// [`Position::zobrist`] computed from every piece on the board.
    fn zobrist_from_scratch(&self) -> u64 {
        let mut h = if self.side == Color::White {
            ZOBRIST.1
        } else {
            0
        };
        for c in 0..2 {
            for sq in squares(self.men[c]) {
                h ^= ZOBRIST.0[c][0][sq.index()];
            }
            for sq in squares(self.kings[c]) {
                h ^= ZOBRIST.0[c][1][sq.index()];
            }
        }
        h
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

    /// The move written for a reader: captures short (`11x25`) unless another legal move has the same
    /// start and end, then with the full path (`11x18x25`).
    pub fn move_text(&self, mv: &Move) -> String {
        if mv.kind == MoveKind::Jump
            && self
                .legal_moves()
                .iter()
                .any(|m| m.from == mv.from && m.to == mv.to && m != mv)
        {
            mv.long_text()
        } else {
            mv.short_text()
        }
    }

    /// Find the legal move that `text` names, in the notation of docs/notation.md.
    ///
    /// Checkers: `11-15`, `11x18`, `11x18x25`, `11:18`; a capture may give only start and end, or any
    /// of its landing squares in order. Impasse: `22-18` (slide), `6>10` (transpose), `x14` (removal),
    /// an optional `+` for a bear-off, `=N` for the single stacked by a crown (may be left out when
    /// only one crown is possible).
    ///
    /// # Errors
    /// [`MoveError::Syntax`], [`MoveError::Illegal`] (with the legal moves) or
    /// [`MoveError::Ambiguous`] (with the candidates written in full).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        let syntax = |reason: &str| MoveError::Syntax {
            text: t.to_string(),
            reason: reason.to_string(),
        };
        if t.is_empty() {
            return Err(syntax("empty move"));
        }
        let mut paths = MoveList::new();
        self.legal_move_paths_into(&mut paths);
        let legal = self.legal_moves();
        let legal_texts = || {
            self.legal_moves_sorted()
                .iter()
                .map(|m| self.move_text(m))
                .collect::<Vec<_>>()
        };
        let mut candidates: Vec<Move> = Vec::new();
        if self.variant.is_draughts() {
            let parts: Vec<&str> = t.split(['-', 'x', 'X', ':']).collect();
            let mut sqs = Vec::with_capacity(parts.len());
            for p in &parts {
                if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(syntax("expected square numbers separated by '-' or 'x'"));
                }
                let n: u32 = p.parse().unwrap_or(u32::MAX);
                match u8::try_from(n).ok().and_then(Square::new) {
                    Some(sq) => sqs.push(sq),
                    None => return Err(syntax(&format!("square {p} is not one of 1-32"))),
                }
            }
            if sqs.len() < 2 {
                return Err(syntax("a move needs a start and an end square"));
            }
            let (first, last) = (sqs[0], sqs[sqs.len() - 1]);
            for m in paths.iter() {
                if m.from != first || m.to != last {
                    continue;
                }
                // Intermediate squares must be landing squares of the path before the last, in order.
                let landings = m.path().count().saturating_sub(1);
                let mut path = m.path().take(landings);
                let fits = sqs[1..sqs.len() - 1].iter().all(|s| path.any(|p| p == *s));
                if fits && !candidates.contains(m) {
                    candidates.push(*m);
                }
            }
            // A text that spells one candidate's whole path names it, even when the other
            // candidates also fit (a capture that loops back through its start square: `19x12` is
            // both the single jump and `19x26x17x10x19x12`); `move_text` writes such a move so.
            if candidates.len() > 1 {
                let exact: Vec<Move> = candidates
                    .iter()
                    .filter(|m| m.path().eq(sqs[1..].iter().copied()))
                    .copied()
                    .collect();
                if exact.len() == 1 {
                    candidates = exact;
                }
            }
        } else {
            let (kind_ok, rest): (fn(MoveKind) -> bool, &str) =
                if let Some(r) = t.strip_prefix(['x', 'X']) {
                    (|k| k == MoveKind::Remove, r)
                } else {
                    (|k| k != MoveKind::Remove, t)
                };
            let (body, crown) = match rest.split_once('=') {
                Some((b, c)) => (b, Some(c)),
                None => (rest, None),
            };
            let (body, bear_mark) = match body.strip_suffix('+') {
                Some(b) => (b, true),
                None => (body, false),
            };
            let num = |s: &str| -> Result<Square, MoveError> {
                let n: u32 = if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                    s.parse().unwrap_or(u32::MAX)
                } else {
                    return Err(syntax(&format!("'{s}' is not a square number")));
                };
                u8::try_from(n)
                    .ok()
                    .and_then(Square::new)
                    .ok_or_else(|| syntax(&format!("square {s} is not one of 1-32")))
            };
            let (from, to, transpose) = if let Some((a, b)) = body.split_once('>') {
                (num(a)?, num(b)?, Some(true))
            } else if let Some((a, b)) = body.split_once('-') {
                (num(a)?, num(b)?, Some(false))
            } else {
                let s = num(body)?;
                (s, s, None)
            };
            let crown_sq = crown.map(num).transpose()?;
            for m in legal.iter() {
                if !kind_ok(m.kind) || m.from != from || m.to != to {
                    continue;
                }
                match transpose {
                    Some(true) if m.kind != MoveKind::Transpose => continue,
                    Some(false) if m.kind == MoveKind::Transpose || m.kind == MoveKind::Remove => {
                        continue
                    }
                    None if m.kind != MoveKind::Remove => continue,
                    _ => {}
                }
                if bear_mark && !m.bears_off() {
                    continue;
                }
                if let Some(c) = crown_sq {
                    if m.crown().map(|x| x.0) != Some(c) {
                        continue;
                    }
                }
                candidates.push(*m);
            }
        }
        match candidates.len() {
            1 => Ok(candidates[0]),
            0 => Err(MoveError::Illegal {
                text: t.to_string(),
                legal: legal_texts(),
            }),
            _ => Err(MoveError::Ambiguous {
                text: t.to_string(),
                candidates: candidates.iter().map(|m| m.long_text()).collect(),
            }),
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

//! [`Move`]: one whole turn, and [`MoveList`], a fixed-capacity list that never allocates.

use crate::bitboard::{self, Bb, SquareSet};
use crate::square::Square;
use std::fmt;
use std::hash::{Hash, Hasher};

/// What kind of turn a [`Move`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Checkers: a man steps one square forward, or a king moves (one square in American checkers,
    /// any distance along a free diagonal in pool, APCA rule 15). American rule 5.1.
    Simple,
    /// Checkers: a single or multiple jump capturing one or more pieces (American rules 5.2–5.3,
    /// APCA rules 16–21).
    Jump,
    /// Impasse: a single slides diagonally forward any number of empty squares.
    Slide,
    /// Impasse: a double slides diagonally backward any number of empty squares.
    DoubleSlide,
    /// Impasse: the top checker of a double moves onto an adjacent own single in a nearer row.
    Transpose,
    /// Impasse: at an impasse (no basic move), one checker is removed: a single, or the top of a double.
    Remove,
}

impl MoveKind {
    /// The identifier used in JSON output: `simple`, `jump`, `slide`, `double_slide`, `transpose`,
    /// `remove`.
    pub const fn id(self) -> &'static str {
        match self {
            MoveKind::Simple => "simple",
            MoveKind::Jump => "jump",
            MoveKind::Slide => "slide",
            MoveKind::DoubleSlide => "double_slide",
            MoveKind::Transpose => "transpose",
            MoveKind::Remove => "remove",
        }
    }
}

/// Maximum number of landing squares in one multi-jump (a side has at most 12 pieces to take).
pub const MAX_PATH: usize = 12;

const NONE: u8 = u8::MAX;

/// One complete turn: for checkers, the moving piece's start, end, landing squares and captured pieces;
/// for Impasse, the basic move or removal together with its forced bear-off and chosen crown.
///
/// A `Move` is small and `Copy` (48 bytes). It is only meaningful for the position it was generated
/// from. Two moves compare equal when they have the same kind, start, end, captured squares, bear-off
/// and crown, whatever the order in which the pieces were taken (the path is not compared).
#[derive(Copy, Clone, Debug)]
pub struct Move {
    pub(crate) men_xor: Bb,
    pub(crate) kings_xor: Bb,
    pub(crate) captured: Bb,
    pub(crate) from: Square,
    pub(crate) to: Square,
    pub(crate) kind: MoveKind,
    /// Checkers: the man is crowned. Impasse: a bear-off happened.
    pub(crate) flag: bool,
    pub(crate) crown_from: u8,
    pub(crate) crown_to: u8,
    pub(crate) path_len: u8,
    pub(crate) path: [u8; MAX_PATH],
}

impl Move {
    pub(crate) fn new(
        kind: MoveKind,
        from: Square,
        to: Square,
        men_xor: Bb,
        kings_xor: Bb,
    ) -> Move {
        Move {
            men_xor,
            kings_xor,
            captured: 0,
            from,
            to,
            kind,
            flag: false,
            crown_from: NONE,
            crown_to: NONE,
            path_len: 0,
            path: [0; MAX_PATH],
        }
    }

    /// The square the moving piece starts on (Impasse transpose: the double; removal: the square a
    /// checker is removed from).
    pub const fn from(&self) -> Square {
        self.from
    }

    /// The square the moving piece ends on (Impasse transpose: the single that becomes a double;
    /// removal: same as [`Move::from`]).
    pub const fn to(&self) -> Square {
        self.to
    }

    /// The kind of turn.
    pub const fn kind(&self) -> MoveKind {
        self.kind
    }

    /// Whether this is a capture.
    pub const fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// The squares of the captured pieces (empty for a non-capture).
    pub fn captures(&self) -> SquareSet {
        bitboard::to_set(self.captured)
    }

    /// The number of pieces captured.
    pub const fn capture_count(&self) -> u32 {
        self.captured.count_ones()
    }

    /// The landing squares of a jump in order, ending with [`Move::to`]; empty for other kinds.
    /// When the same pieces can be taken along several paths, this is one of them.
    pub fn path(&self) -> impl Iterator<Item = Square> + '_ {
        self.path[..self.path_len as usize]
            .iter()
            .map(|&i| Square::ALL[i as usize])
    }

    /// Checkers: whether a man is crowned king by this move (American rule 7, APCA rules 23–24).
    pub const fn is_promotion(&self) -> bool {
        self.flag && matches!(self.kind, MoveKind::Simple | MoveKind::Jump)
    }

    /// Impasse: whether the move bears off the top checker of a double that reached its owner's
    /// nearest row.
    pub const fn bears_off(&self) -> bool {
        self.flag && !matches!(self.kind, MoveKind::Simple | MoveKind::Jump)
    }

    /// Impasse: the crown made in this turn, as (the single that is stacked, the square it is stacked
    /// on), or `None`.
    pub fn crown(&self) -> Option<(Square, Square)> {
        if self.crown_from == NONE {
            None
        } else {
            Some((
                Square::ALL[self.crown_from as usize],
                Square::ALL[self.crown_to as usize],
            ))
        }
    }

    /// Same move, same result: equal kind, squares, captures, bear-off and crown (the fields that
    /// [`PartialEq`] compares).
    fn key(&self) -> (MoveKind, Square, Square, Bb, bool, u8, u8) {
        (
            self.kind,
            self.from,
            self.to,
            self.captured,
            self.flag,
            self.crown_from,
            self.crown_to,
        )
    }

    /// The move in Crown's move notation (docs/notation.md), with captures written short (`11x25`).
    /// [`crate::Position::move_text`] writes the full path when the short form is ambiguous.
    pub fn short_text(&self) -> String {
        self.text(false)
    }

    /// The move with every landing square of a capture written out (`11x18x25`).
    pub fn long_text(&self) -> String {
        self.text(true)
    }

    fn text(&self, long: bool) -> String {
        let mut s = String::new();
        match self.kind {
            MoveKind::Simple | MoveKind::Slide | MoveKind::DoubleSlide => {
                s.push_str(&format!("{}-{}", self.from, self.to));
            }
            MoveKind::Jump => {
                s.push_str(&self.from.to_string());
                if long {
                    for sq in self.path() {
                        s.push_str(&format!("x{sq}"));
                    }
                } else {
                    s.push_str(&format!("x{}", self.to));
                }
            }
            MoveKind::Transpose => s.push_str(&format!("{}>{}", self.from, self.to)),
            MoveKind::Remove => s.push_str(&format!("x{}", self.from)),
        }
        if self.bears_off() {
            s.push('+');
        }
        if let Some((c, _)) = self.crown() {
            s.push_str(&format!("={c}"));
        }
        s
    }
}

impl PartialEq for Move {
    #[inline(always)]
    fn eq(&self, other: &Move) -> bool {
        // Bitwise `&` of all comparisons: no branches (the engine compares every move with its
        // killer moves).
        (self.captured == other.captured)
            & (self.from == other.from)
            & (self.to == other.to)
            & (self.kind == other.kind)
            & (self.flag == other.flag)
            & (self.crown_from == other.crown_from)
            & (self.crown_to == other.crown_to)
    }
}

impl Eq for Move {}

impl Hash for Move {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl fmt::Display for Move {
    /// Writes [`Move::short_text`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.short_text())
    }
}

/// Capacity of a [`MoveList`]. The largest legal-move lists (Impasse with many crown choices, pool with
/// many flying kings) stay well below it.
pub const MOVE_LIST_CAPACITY: usize = 512;

/// A list of moves with fixed capacity ([`MOVE_LIST_CAPACITY`]); filling it never allocates.
#[derive(Clone, Debug, Default)]
pub struct MoveList {
    inner: arrayvec::ArrayVec<Move, MOVE_LIST_CAPACITY>,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList {
            inner: arrayvec::ArrayVec::new(),
        }
    }

    /// Add a move; a move beyond the capacity is dropped (cannot happen for legal positions, see
    /// [`MOVE_LIST_CAPACITY`]).
    #[inline]
    pub fn push(&mut self, mv: Move) {
        let _ = self.inner.try_push(mv);
    }

    /// Remove every move.
    pub fn clear(&mut self) {
        self.inner.clear();
    }

    /// Keep only the moves for which `f` returns true.
    pub fn retain(&mut self, f: impl FnMut(&mut Move) -> bool) {
        self.inner.retain(f);
    }

    /// Swap two entries (for move ordering).
    pub fn swap(&mut self, a: usize, b: usize) {
        self.inner.swap(a, b);
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.inner
    }
}

impl std::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.inner
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.inner.iter()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn move_is_small() {
        assert!(std::mem::size_of::<super::Move>() <= 48);
    }
}

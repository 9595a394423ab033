//! Impasse move generation (`impasse.txt`, sections Basic Moves, Crown, Bear Off, Impasse).

use super::sq_of;
use crate::bitboard::{far_row, forward, near_row, squares, step, Bb};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::square::Square;

impl Position {
    /// Impasse basic moves, or removals at an impasse, each with its forced bear-off and crown.
    pub(super) fn gen_impasse(&self, list: &mut MoveList) {
        let us = self.side;
        let singles = self.men[us.index()];
        let doubles = self.kings[us.index()];
        let empty = self.empty();
        let fwd = forward(us);
        let back = forward(us.opposite());
        let near = near_row(us);
        let emit = |list: &mut MoveList, kind, from: Bb, to: Bb, s2: Bb, d2: Bb, bear_off: bool| {
            self.impasse_finish(list, kind, sq_of(from), sq_of(to), s2, d2, bear_off);
        };
        // Single slide: forward, any number of empty squares.
        for s in squares(singles) {
            let from = crate::bitboard::bit(s);
            for d in fwd {
                let mut t = step(from, d) & empty;
                while t != 0 {
                    emit(
                        list,
                        MoveKind::Slide,
                        from,
                        t,
                        singles ^ from ^ t,
                        doubles,
                        false,
                    );
                    t = step(t, d) & empty;
                }
            }
        }
        for dsq in squares(doubles) {
            let from = crate::bitboard::bit(dsq);
            for d in back {
                // Double slide: backward, any number of empty squares; bear off on the nearest row.
                let mut t = step(from, d) & empty;
                while t != 0 {
                    if t & near != 0 {
                        emit(
                            list,
                            MoveKind::DoubleSlide,
                            from,
                            t,
                            singles | t,
                            doubles ^ from,
                            true,
                        );
                    } else {
                        emit(
                            list,
                            MoveKind::DoubleSlide,
                            from,
                            t,
                            singles,
                            doubles ^ from ^ t,
                            false,
                        );
                    }
                    t = step(t, d) & empty;
                }
                // Transpose: onto an own single one row nearer; bear off if that single is on the
                // nearest row.
                let s = step(from, d) & singles;
                if s != 0 {
                    let s2 = singles ^ s ^ from;
                    if s & near != 0 {
                        emit(
                            list,
                            MoveKind::Transpose,
                            from,
                            s,
                            s2 | s,
                            doubles ^ from,
                            true,
                        );
                    } else {
                        emit(
                            list,
                            MoveKind::Transpose,
                            from,
                            s,
                            s2,
                            doubles ^ from ^ s,
                            false,
                        );
                    }
                }
            }
        }
        if !list.is_empty() {
            return;
        }
        // Impasse: remove one checker, a single or the top of a double.
        for s in squares(singles) {
            let b = crate::bitboard::bit(s);
            emit(list, MoveKind::Remove, b, b, singles ^ b, doubles, false);
        }
        for dsq in squares(doubles) {
            let b = crate::bitboard::bit(dsq);
            emit(
                list,
                MoveKind::Remove,
                b,
                b,
                singles | b,
                doubles ^ b,
                false,
            );
        }
    }

    /// Apply the Crown section to the result of a basic move or removal and push the move(s): a single
    /// on the furthest row must be crowned by another on-board single (one move per choice); with no
    /// other single it waits; two singles on the furthest row stack one onto the other (either way).
    #[allow(clippy::too_many_arguments)]
    fn impasse_finish(
        &self,
        list: &mut MoveList,
        kind: MoveKind,
        from: Square,
        to: Square,
        s2: Bb,
        d2: Bb,
        bear_off: bool,
    ) {
        let us = self.side;
        let s0 = self.men[us.index()];
        let d0 = self.kings[us.index()];
        let far = s2 & far_row(us);
        let mk = |s3: Bb, d3: Bb, crown: Option<(Bb, Bb)>| {
            let mut mv = Move::new(kind, from, to, s0 ^ s3, d0 ^ d3);
            mv.flag = bear_off;
            if let Some((c, t)) = crown {
                mv.crown_from = sq_of(c).index() as u8;
                mv.crown_to = sq_of(t).index() as u8;
            }
            mv
        };
        if far == 0 {
            list.push(mk(s2, d2, None));
        } else if far.count_ones() >= 2 {
            // Two singles on the furthest row (the second via the impasse rule): stack one onto the other.
            for f in squares(far) {
                let c = crate::bitboard::bit(f);
                let t = far ^ c;
                list.push(mk(s2 ^ far, d2 | t, Some((c, t))));
            }
        } else {
            let others = s2 ^ far;
            if others == 0 {
                list.push(mk(s2, d2, None));
            } else {
                for c in squares(others) {
                    let c = crate::bitboard::bit(c);
                    list.push(mk(s2 ^ far ^ c, d2 | far, Some((c, far))));
                }
            }
        }
    }
}

//! Legal move generation for the three games, on ghost-layout bitboards, without heap allocation.
//!
//! Rule references: American checkers (`american-checkers.txt`, rules 5–8), APCA pool rules
//! (`american-pool-checkers-apca.txt`, rules 14–24), Impasse (`impasse.txt`, sections Basic Moves,
//! Crown, Bear Off, Impasse). docs/rules.md explains every interpretation.

use crate::bitboard::{far_row, forward, lowest_square, squares, step, Bb, BOARD, DIRS};
use crate::moves::{Move, MoveKind, MoveList, MAX_PATH};
use crate::position::Position;
use crate::square::Square;
use crate::variant::Variant;

mod count;
mod impasse;

#[inline(always)]
fn sq_of(bb: Bb) -> Square {
    lowest_square(bb)
}

/// Everything the capture search needs, fixed for one root position.
struct JumpCtx<'a> {
    list: &'a mut MoveList,
    /// Opponent pieces.
    opp: Bb,
    /// Empty squares, with the moving piece's start square counted empty.
    empty: Bb,
    /// Crowning row for the mover's men.
    promo: Bb,
    /// Keep every capture order (perft `paths` convention) instead of one move per
    /// (from, to, captured set).
    all_paths: bool,
    /// Only count moves (men only: their paths never repeat a captured set).
    count_only: bool,
    /// Count without listing the paths of fewer than 4 captures (pool men, distinct moves): two
    /// different jump paths from one square to another over the same set of pieces need at least
    /// 4 captures (a ring), since a path's end square is its start plus twice the alternating sum
    /// of the captured squares, which fixes the order of 2 captures and the middle one of 3.
    count_short: bool,
    count: u64,
    from: Bb,
    is_king: bool,
    /// Pool rules (men capture both ways, so their paths can repeat a captured set).
    pool: bool,
    path: [u8; MAX_PATH],
    /// Captured squares in capture order, 5 bits each (the identity of a path for `all_paths`).
    order: u64,
    depth: usize,
    /// Paths convention: (from, to, order) of flying-king captures already listed.
    seen: arrayvec::ArrayVec<(u8, u8, u64), 256>,
}

impl JumpCtx<'_> {
    fn push(&mut self, to: Bb, captured: Bb, promotes: bool) {
        if self.count_only || (self.count_short && self.depth < 4) {
            self.count += 1;
            return;
        }
        let from_sq = sq_of(self.from);
        let to_sq = sq_of(to);
        if self.all_paths {
            // Two flying-king paths that take the same pieces in the same order and differ only in
            // intermediate landing squares are one path (the convention of the published pool tables).
            if self.is_king {
                let key = (from_sq.index() as u8, to_sq.index() as u8, self.order);
                if self.seen.contains(&key) {
                    return;
                }
                let _ = self.seen.try_push(key);
            }
        } else if (self.is_king || self.pool)
            && self
                .list
                .iter()
                .any(|m| m.from == from_sq && m.to == to_sq && m.captured == captured)
        {
            // American men jump forward only, so their captured set fixes their path: no repeats.
            return;
        }
        let (men_xor, kings_xor) = if self.is_king {
            (0, self.from ^ to)
        } else if promotes {
            (self.from, to)
        } else {
            (self.from ^ to, 0)
        };
        let mut mv = Move::new(MoveKind::Jump, from_sq, to_sq, men_xor, kings_xor);
        mv.captured = captured;
        mv.flag = promotes;
        mv.path = self.path;
        mv.path_len = self.depth.min(MAX_PATH) as u8;
        self.list.push(mv);
    }

    #[inline(always)]
    fn enter(&mut self, land: Bb, taken: Bb) {
        if self.depth < MAX_PATH {
            self.path[self.depth] = sq_of(land).index() as u8;
        }
        self.order = (self.order << 5) | sq_of(taken).index() as u64;
        self.depth += 1;
    }

    #[inline(always)]
    fn leave(&mut self) {
        self.depth -= 1;
        self.order >>= 5;
    }

    /// American men: jump forward only (rule 5.2); reaching the king row crowns the man and ends the
    /// move (rule 7).
    fn american_man(&mut self, cur: Bb, captured: Bb, fwd: [i32; 2]) {
        let mut found = false;
        for d in fwd {
            let mid = step(cur, d) & self.opp & !captured;
            let land = step(mid, d) & self.empty;
            if land == 0 {
                continue;
            }
            found = true;
            self.enter(land, mid);
            if land & self.promo != 0 {
                self.push(land, captured | mid, true);
            } else {
                self.american_man(land, captured | mid, fwd);
            }
            self.leave();
        }
        if !found && captured != 0 {
            self.push(cur, captured, false);
        }
    }

    /// Short kings (American rule 8): jump one square in any of the four directions, in any order.
    fn short_king(&mut self, cur: Bb, captured: Bb) {
        let mut found = false;
        for d in DIRS {
            let mid = step(cur, d) & self.opp & !captured;
            let land = step(mid, d) & self.empty;
            if land == 0 {
                continue;
            }
            found = true;
            self.enter(land, mid);
            self.short_king(land, captured | mid);
            self.leave();
        }
        if !found && captured != 0 {
            self.push(cur, captured, false);
        }
    }

    /// Pool men capture forward and backward (APCA rule 14). A man that lands on the king row keeps
    /// capturing as a man if it can and is crowned only if the move ends there (rules 23–24).
    fn pool_man(&mut self, cur: Bb, captured: Bb) {
        let mut found = false;
        for d in DIRS {
            let mid = step(cur, d) & self.opp & !captured;
            let land = step(mid, d) & self.empty;
            if land == 0 {
                continue;
            }
            found = true;
            self.enter(land, mid);
            self.pool_man(land, captured | mid);
            self.leave();
        }
        if !found && captured != 0 {
            self.push(cur, captured, cur & self.promo != 0);
        }
    }

    /// Flying king captures (APCA rules 15–19): the king may capture a piece at any distance along a
    /// free diagonal and land on any empty square beyond it; when some landing squares allow the capture
    /// to continue, it must land on one of those. Captured pieces stay on the board and block until the
    /// move ends (rules 18–19).
    fn flying(&mut self, cur: Bb, captured: Bb) {
        for d in DIRS {
            let Some((target, first_land)) = self.flying_target(cur, captured, d) else {
                continue;
            };
            let cap = captured | target;
            let mut any_continues = false;
            let mut l = first_land;
            while l != 0 {
                if self.flying_can_capture(l, cap) {
                    any_continues = true;
                    break;
                }
                l = step(l, d) & self.empty;
            }
            let mut l = first_land;
            while l != 0 {
                self.enter(l, target);
                if any_continues {
                    if self.flying_can_capture(l, cap) {
                        self.flying(l, cap);
                    }
                } else {
                    self.push(l, cap, false);
                }
                self.leave();
                l = step(l, d) & self.empty;
            }
        }
    }

    /// The piece a flying king on `cur` could capture in direction `d`, and the first landing square.
    #[inline]
    fn flying_target(&self, cur: Bb, captured: Bb, d: i32) -> Option<(Bb, Bb)> {
        let mut x = step(cur, d);
        while x & self.empty != 0 {
            x = step(x, d);
        }
        if x & self.opp & !captured == 0 {
            return None;
        }
        let land = step(x, d) & self.empty;
        if land == 0 {
            None
        } else {
            Some((x, land))
        }
    }

    fn flying_can_capture(&self, cur: Bb, captured: Bb) -> bool {
        DIRS.iter()
            .any(|&d| self.flying_target(cur, captured, d).is_some())
    }
}

impl Position {
    /// Generate legal moves into `list` (cleared first). `all_paths` keeps every capture path (perft
    /// `paths` convention) instead of one move per (from, to, captured set).
    pub(crate) fn generate(&self, list: &mut MoveList, all_paths: bool) {
        list.clear();
        if self.is_over_by_material() {
            return;
        }
        match self.variant {
            Variant::American | Variant::Pool => {
                if self.has_captures() {
                    self.gen_captures(list, all_paths, false, true);
                } else {
                    self.gen_simple(list);
                }
            }
            Variant::Impasse => self.gen_impasse(list),
        }
    }

    /// Capture moves into `list`; with `count_only`, returns their number without listing the men's.
    fn gen_captures(
        &self,
        list: &mut MoveList,
        all_paths: bool,
        count_only: bool,
        men_too: bool,
    ) -> u64 {
        let us = self.side;
        let men = self.men[us.index()];
        let kings = self.kings[us.index()];
        let opp = self.men[us.opposite().index()] | self.kings[us.opposite().index()];
        let empty = BOARD & !(men | kings | opp);
        let fwd = forward(us);
        let pool = self.variant == Variant::Pool;
        let mut ctx = JumpCtx {
            list,
            opp,
            empty,
            promo: far_row(us),
            all_paths,
            // Pool men capture both ways, so two orders can take the same set: list them to dedup.
            count_only: count_only && (all_paths || !pool),
            count_short: count_only && pool && !all_paths,
            count: 0,
            from: 0,
            is_king: false,
            pool,
            path: [0; MAX_PATH],
            order: 0,
            depth: 0,
            seen: arrayvec::ArrayVec::new(),
        };
        // Men that have a first jump: American rule 5.2 (forward only), APCA rule 14 (both ways).
        let man_dirs: &[i32] = if pool { &DIRS } else { &fwd };
        let mut jumpers = 0;
        for &d in man_dirs {
            jumpers |= step(step(empty, -d) & opp, -d) & men;
        }
        let mut b = if men_too { jumpers } else { 0 };
        while b != 0 {
            let from = b & b.wrapping_neg();
            b ^= from;
            ctx.from = from;
            ctx.empty = empty | from;
            if pool {
                ctx.pool_man(from, 0);
            } else {
                ctx.american_man(from, 0, fwd);
            }
        }
        ctx.count_only = false;
        ctx.count_short = false;
        let mut b = kings;
        while b != 0 {
            let from = b & b.wrapping_neg();
            b ^= from;
            ctx.from = from;
            ctx.is_king = true;
            ctx.empty = empty | from;
            if pool {
                ctx.flying(from, 0);
            } else {
                ctx.short_king(from, 0);
            }
        }
        ctx.count + ctx.list.len() as u64
    }

    fn gen_simple(&self, list: &mut MoveList) {
        let us = self.side;
        let men = self.men[us.index()];
        let kings = self.kings[us.index()];
        let empty = self.empty();
        let promo = far_row(us);
        for d in forward(us) {
            let mut targets = step(men, d) & empty;
            while targets != 0 {
                let to = targets & targets.wrapping_neg();
                targets ^= to;
                let from = step(to, -d);
                // American rule 7 / APCA rule 23: a man reaching the king row is crowned.
                let mv = if to & promo != 0 {
                    let mut mv = Move::new(MoveKind::Simple, sq_of(from), sq_of(to), from, to);
                    mv.flag = true;
                    mv
                } else {
                    Move::new(MoveKind::Simple, sq_of(from), sq_of(to), from | to, 0)
                };
                list.push(mv);
            }
        }
        let flying = self.variant == Variant::Pool;
        for k in squares(kings) {
            let from = crate::bitboard::bit(k);
            for d in DIRS {
                let mut to = step(from, d) & empty;
                while to != 0 {
                    list.push(Move::new(MoveKind::Simple, k, sq_of(to), 0, from | to));
                    if !flying {
                        break;
                    }
                    to = step(to, d) & empty;
                }
            }
        }
    }

    /// Whether the side to move has a capture (checkers only), by bitboard tests without generating.
    pub(crate) fn has_captures(&self) -> bool {
        let us = self.side;
        let men = self.men[us.index()];
        let kings = self.kings[us.index()];
        let opp = self.men[us.opposite().index()] | self.kings[us.opposite().index()];
        let empty = self.empty();
        match self.variant {
            Variant::American => {
                let [a, b] = forward(us);
                let jumpers = |p: Bb, d: i32| step(step(p, d) & opp, d) & empty != 0;
                jumpers(men | kings, a)
                    || jumpers(men | kings, b)
                    || jumpers(kings, -a)
                    || jumpers(kings, -b)
            }
            Variant::Pool => {
                for d in DIRS {
                    if step(step(men, d) & opp, d) & empty != 0 {
                        return true;
                    }
                    let mut x = kings;
                    loop {
                        x = step(x, d);
                        if step(x & opp, d) & empty != 0 {
                            return true;
                        }
                        x &= empty;
                        if x == 0 {
                            break;
                        }
                    }
                }
                false
            }
            Variant::Impasse => false,
        }
    }
}

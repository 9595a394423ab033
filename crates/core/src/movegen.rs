//! Legal move generation for the three games, on ghost-layout bitboards, without heap allocation.
//!
//! Rule references: American checkers (`american-checkers.txt`, rules 5–8), APCA pool rules
//! (`american-pool-checkers-apca.txt`, rules 14–24), Impasse (`impasse.txt`, sections Basic Moves,
//! Crown, Bear Off, Impasse). docs/rules.md explains every interpretation.

use crate::bitboard::{lowest_square, squares, step, Bb, BOARD, DIRS, ROWS};
use crate::moves::{Move, MoveKind, MoveList, MAX_PATH};
use crate::position::Position;
use crate::square::{Color, Square};
use crate::variant::Variant;

/// Forward directions of a side's men / singles: Black toward 29–32, White toward 1–4.
#[inline(always)]
pub(crate) const fn forward(color: Color) -> [i32; 2] {
    match color {
        Color::Black => [4, 5],
        Color::White => [-4, -5],
    }
}

/// The row where a side's men are crowned (checkers) / its furthest row (Impasse).
#[inline(always)]
pub(crate) const fn far_row(color: Color) -> Bb {
    match color {
        Color::Black => ROWS[7],
        Color::White => ROWS[0],
    }
}

/// A side's own back row: its nearest row in Impasse.
#[inline(always)]
pub(crate) const fn near_row(color: Color) -> Bb {
    far_row(color.opposite())
}

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

    /// Count legal moves without building them when possible (perft bulk counting).
    pub(crate) fn count_moves(&self, all_paths: bool, scratch: &mut MoveList) -> u64 {
        match self.variant {
            Variant::Impasse => {
                self.generate(scratch, all_paths);
                return scratch.len() as u64;
            }
            Variant::American => return self.count_american(scratch, all_paths),
            Variant::Pool => {}
        }
        if self.has_captures() {
            scratch.clear();
            if self.variant == Variant::American {
                return self.count_american_man_jumps(scratch, all_paths);
            }
            return self.gen_captures(scratch, all_paths, true, true);
        }
        let us = self.side;
        let men = self.men[us.index()];
        let kings = self.kings[us.index()];
        let empty = self.empty();
        let mut n = 0u64;
        for d in forward(us) {
            n += (step(men, d) & empty).count_ones() as u64;
        }
        for d in DIRS {
            let mut x = step(kings, d) & empty;
            n += x.count_ones() as u64;
            if self.variant == Variant::Pool {
                while x != 0 {
                    x = step(x, d) & empty;
                    n += x.count_ones() as u64;
                }
            }
        }
        n
    }

    /// American checkers move count: one pass finds the jumps of both men and kings; without jumps
    /// the simple moves are counted with popcounts. Specialised by side to move, so that every
    /// diagonal step is a shift by a constant.
    #[inline]
    fn count_american(&self, scratch: &mut MoveList, all_paths: bool) -> u64 {
        let us = self.side.index();
        let them = 1 - us;
        let (men, kings) = (self.men[us], self.kings[us]);
        let opp = self.men[them] | self.kings[them];
        let n = match self.side {
            Color::Black => american_simple_count::<true>(men, kings, opp, self.empty()),
            Color::White => american_simple_count::<false>(men, kings, opp, self.empty()),
        };
        match n {
            Some(n) => n,
            None => {
                scratch.clear();
                self.count_american_man_jumps(scratch, all_paths)
            }
        }
    }

    /// American checkers capture count: men's jumps are counted with bit operations (a man jumps
    /// forward only, so neither its vacated start square nor a piece it took can matter to its next
    /// jump); kings' jumps go through the generator, which removes repeated captured sets.
    fn count_american_man_jumps(&self, scratch: &mut MoveList, all_paths: bool) -> u64 {
        let us = self.side;
        let men = self.men[us.index()];
        let opp = self.men[us.opposite().index()] | self.kings[us.opposite().index()];
        let empty = self.empty();
        let fwd = forward(us);
        let promo = far_row(us);
        // Squares from which a man could jump forward.
        let mut sources = 0;
        for d in fwd {
            sources |= step(step(empty, -d) & opp, -d);
        }
        let mut n = 0u64;
        for d in fwd {
            let land = step(step(men, d) & opp, d) & empty;
            n += (land & (promo | !sources)).count_ones() as u64;
            let mut more = land & sources & !promo;
            while more != 0 {
                let l = more & more.wrapping_neg();
                more ^= l;
                n += count_man_continuations(l, opp, empty, promo, fwd);
            }
        }
        if self.kings[us.index()] != 0 {
            n += self.gen_captures(scratch, all_paths, true, false);
        }
        n
    }

    /// Perft at depth 2 for a checkers position without captures: play each simple move with bit
    /// operations and bulk-count the replies, without building [`Move`]s. `None` when not applicable.
    pub(crate) fn perft2_simple(&self, scratch: &mut MoveList, all_paths: bool) -> Option<u64> {
        match (self.variant, self.side) {
            (Variant::Impasse, _) => return None,
            (Variant::American, Color::Black) => {
                return self.american_perft2::<true, false>(scratch, all_paths)
            }
            (Variant::American, Color::White) => {
                return self.american_perft2::<false, true>(scratch, all_paths)
            }
            (Variant::Pool, _) => {}
        }
        if self.has_captures() {
            return None;
        }
        let us = self.side.index();
        let men = self.men[us];
        let kings = self.kings[us];
        let empty = self.empty();
        let promo = far_row(self.side);
        let mut n = 0u64;
        let mut child = *self;
        child.side = self.side.opposite();
        for d in forward(self.side) {
            let mut targets = step(men, d) & empty;
            while targets != 0 {
                let to = targets & targets.wrapping_neg();
                targets ^= to;
                let from = step(to, -d);
                if to & promo != 0 {
                    child.men[us] = men ^ from;
                    child.kings[us] = kings | to;
                } else {
                    child.men[us] = men ^ from ^ to;
                    child.kings[us] = kings;
                }
                n += child.count_moves(all_paths, scratch);
            }
        }
        child.men[us] = men;
        let flying = self.variant == Variant::Pool;
        let mut ks = kings;
        while ks != 0 {
            let from = ks & ks.wrapping_neg();
            ks ^= from;
            for d in DIRS {
                let mut to = step(from, d) & empty;
                while to != 0 {
                    child.kings[us] = kings ^ from ^ to;
                    n += child.count_moves(all_paths, scratch);
                    if !flying {
                        break;
                    }
                    to = step(to, d) & empty;
                }
            }
        }
        Some(n)
    }

    /// [`Position::perft2_simple`] for American checkers with `BLACK` to move (`OTHER` is its
    /// negation, spelled out because stable Rust cannot negate a const parameter): each simple move
    /// is played on bitboards and the replies are counted by [`american_simple_count`]; only a child
    /// where the opponent has a jump builds a [`Position`].
    #[inline]
    fn american_perft2<const BLACK: bool, const OTHER: bool>(
        &self,
        scratch: &mut MoveList,
        all_paths: bool,
    ) -> Option<u64> {
        let (us, them) = if BLACK { (0, 1) } else { (1, 0) };
        let (a, b) = if BLACK { (4, 5) } else { (-4, -5) };
        let (men, kings) = (self.men[us], self.kings[us]);
        let (omen, okings) = (self.men[them], self.kings[them]);
        let empty = self.empty();
        american_simple_count::<BLACK>(men, kings, omen | okings, empty)?;
        let promo = far_row(self.side);
        let mut child = *self;
        child.side = self.side.opposite();
        let mut replies = |m: Bb, k: Bb, e: Bb| -> u64 {
            match american_simple_count::<OTHER>(omen, okings, m | k, e) {
                Some(n) => n,
                None => {
                    child.men[us] = m;
                    child.kings[us] = k;
                    scratch.clear();
                    child.count_american_man_jumps(scratch, all_paths)
                }
            }
        };
        let mut n = 0u64;
        for d in [a, b] {
            let mut targets = step(men, d) & empty;
            while targets != 0 {
                let to = targets & targets.wrapping_neg();
                targets ^= to;
                let from = step(to, -d);
                let e = empty ^ from ^ to;
                // American rule 7: a man reaching the king row is crowned.
                n += if to & promo != 0 {
                    replies(men ^ from, kings | to, e)
                } else {
                    replies(men ^ from ^ to, kings, e)
                };
            }
        }
        let mut ks = kings;
        while ks != 0 {
            let from = ks & ks.wrapping_neg();
            ks ^= from;
            for d in DIRS {
                let to = step(from, d) & empty;
                if to != 0 {
                    n += replies(men, kings ^ from ^ to, empty ^ from ^ to);
                }
            }
        }
        Some(n)
    }

    /// Impasse basic moves, or removals at an impasse, each with its forced bear-off and crown.
    fn gen_impasse(&self, list: &mut MoveList) {
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

/// Number of complete jump sequences an American man can still make from the landing square `cur`
/// (1 when it cannot jump again). Crowning ends the move (American rule 7).
fn count_man_continuations(cur: Bb, opp: Bb, empty: Bb, promo: Bb, fwd: [i32; 2]) -> u64 {
    let mut n = 0;
    for d in fwd {
        let land = step(step(cur, d) & opp, d) & empty;
        if land != 0 {
            n += if land & promo != 0 {
                1
            } else {
                count_man_continuations(land, opp, empty, promo, fwd)
            };
        }
    }
    n.max(1)
}

/// American checkers: the number of simple moves of the side whose men move toward squares 29–32
/// (`BLACK`) or toward 1–4, or `None` when that side has a jump (American rule 6: then only jumps are
/// legal). `men`, `kings`: the mover's pieces; `opp`: the opponent's; `empty`: the empty squares.
#[inline(always)]
fn american_simple_count<const BLACK: bool>(men: Bb, kings: Bb, opp: Bb, empty: Bb) -> Option<u64> {
    let (a, b) = if BLACK { (4, 5) } else { (-4, -5) };
    let movers = men | kings;
    let jumps_fwd = step(step(movers, a) & opp, a) | step(step(movers, b) & opp, b);
    let jumps_back = step(step(kings, -a) & opp, -a) | step(step(kings, -b) & opp, -b);
    if (jumps_fwd | jumps_back) & empty != 0 {
        return None;
    }
    let n = (step(movers, a) & empty).count_ones()
        + (step(movers, b) & empty).count_ones()
        + (step(kings, -a) & empty).count_ones()
        + (step(kings, -b) & empty).count_ones();
    Some(u64::from(n))
}

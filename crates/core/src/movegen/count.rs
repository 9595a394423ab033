//! Bulk move counting for perft: counts of legal moves without building them, and perft at depth 2
//! of positions without captures played on bitboards (American checkers specialised by side).
use crate::bitboard::{far_row, forward, step, Bb, DIRS};
use crate::moves::MoveList;
use crate::position::Position;
use crate::square::Color;
use crate::variant::Variant;

impl Position {
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

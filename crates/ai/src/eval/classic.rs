//! The classic (hand-set) evaluation, one function per game, in centi-men (100 = one man) from the
//! side to move's view.
//!
//! Every term is computed for each colour and the result is `ours - theirs`. Squares use the standard
//! numbering; "row" 0 holds squares 1–4 (Black's back rank, White's king row) and row 7 squares 29–32.
//! Black's men move toward row 7, White's toward row 0.
//!
//! ## American checkers ([`american`])
//! - **Material**: man 100, king 135 ([`AM_KING`]). When one side is ahead, the lead is worth more as
//!   pieces come off (trade down when ahead): `lead × (24 − pieces) / 48`.
//! - **Back-rank guard**: 8 per man still on its own back rank while the opponent has men that could
//!   crown, plus 12 for the "bridge" (Black 1 and 3, White 30 and 32) held together.
//! - **Centre**: 5 per man and 8 per king on the eight central squares 10, 11, 14, 15, 18, 19, 22, 23.
//! - **Mobility**: 2 per empty square a man can step to (forward) or a king can step to (any way).
//! - **Advancement (tempo)**: in the endgame (fewer than 14 pieces) each man earns
//!   `rows advanced × (14 − pieces) / 4`: men should run for the crown when the board empties.
//! - **Runaway men**: a man with no enemy piece in the cone of squares ahead of it (nothing can stop
//!   it crowning) earns `40 − 5 × rows to go`.
//! - **Trapped kings**: −20 for a king whose every neighbouring square is occupied.
//! - **Opposition ("the move")**: in endings with men only and equal numbers, 6 for the side to move
//!   when the pieces on its "system" squares (Black: squares 5–8, 13–16, 21–24, 29–32; White: 1–4,
//!   9–12, 17–20, 25–28) are odd in number.
//!
//! ## Pool checkers ([`pool`])
//! - **Material**: man 100, flying king 300 ([`POOL_KING`]); trade-down as in American checkers.
//! - **Long diagonal**: 25 for each king on the long diagonal (squares 4, 8, 11, 15, 18, 22, 25, 29),
//!   and 20 more when one side holds it alone.
//! - **Men attackable from behind**: −10 per man whose square behind it on a diagonal holds an enemy
//!   piece (or is empty while the enemy has a flying king) and whose square ahead on that diagonal is
//!   empty, so it can be jumped from behind.
//! - **Back-rank guard, centre, mobility, advancement, runaway men** as for American checkers.
//!
//! ## Impasse ([`impasse`])
//! The game is a race to remove one's own checkers; the evaluation is `their work − our work` with
//! - **Checkers left**: 100 per checker on the board (a double is two).
//! - **Singles' distance**: 6 per row between a single and its furthest row (where it is crowned).
//! - **Doubles' distance**: 6 per row between a double and its nearest row (where it bears off).
//! - **Bear-off opportunity**: −20 for a double with an empty diagonal backward to its nearest row.
//! - **Crowning opportunity**: −15 for a single with an empty diagonal forward to its furthest row
//!   while another single is on the board to crown it with.
//! - **Blocking**: 4 per enemy single whose two forward squares are both occupied (a blocked single
//!   forces slow moves elsewhere); it counts against the blocker when the enemy has no other move,
//!   because an impasse lets the blocked side remove a checker — that case is left to the search.

use super::board::{
    bits_of, clear_to_edge, forward, squares, Board, CONES, LONG_DIAGONAL, NEIGH, NO,
};

/// American checkers: value of a king in centi-men.
pub const AM_KING: i32 = 135;
/// Pool checkers: value of a flying king in centi-men.
pub const POOL_KING: i32 = 300;

const ROW_MASK: [u32; 8] = [
    0xf,
    0xf0,
    0xf00,
    0xf000,
    0xf_0000,
    0xf0_0000,
    0xf00_0000,
    0xf000_0000,
];
const CENTRE: u32 = bits_of(&[10, 11, 14, 15, 18, 19, 22, 23]);
const BLACK_SYSTEM: u32 = ROW_MASK[1] | ROW_MASK[3] | ROW_MASK[5] | ROW_MASK[7];
const WHITE_SYSTEM: u32 = ROW_MASK[0] | ROW_MASK[2] | ROW_MASK[4] | ROW_MASK[6];

/// Terms shared by both checkers games, for colour `c`, without material.
fn checkers_terms(b: &Board, c: usize, pieces: i32) -> i32 {
    let o = 1 - c;
    let occ = b.occupied();
    let empty = !occ;
    let enemy = b.men[o] | b.kings[o];
    let mut s = 0;
    // Back-rank guard.
    let (back, bridge) = if c == 0 {
        (ROW_MASK[0], bits_of(&[1, 3]))
    } else {
        (ROW_MASK[7], bits_of(&[30, 32]))
    };
    if b.men[o] != 0 {
        s += 8 * (b.men[c] & back).count_ones() as i32;
        if b.men[c] & bridge == bridge {
            s += 12;
        }
    }
    // Centre.
    s += 5 * (b.men[c] & CENTRE).count_ones() as i32;
    s += 8 * (b.kings[c] & CENTRE).count_ones() as i32;
    let cone = &CONES[c];
    let endgame = (14 - pieces).max(0);
    for i in squares(b.men[c]) {
        // Mobility.
        for d in forward(c) {
            let n = NEIGH[i][d];
            if n != NO && empty & (1 << n) != 0 {
                s += 2;
            }
        }
        let row = (i / 4) as i32;
        let advanced = if c == 0 { row } else { 7 - row };
        s += advanced * endgame / 4;
        // Runaway.
        if cone[i] & enemy == 0 {
            s += 40 - 5 * (7 - advanced);
        }
    }
    for i in squares(b.kings[c]) {
        let mut free = 0;
        for &n in &NEIGH[i] {
            if n != NO && empty & (1 << n) != 0 {
                free += 1;
            }
        }
        s += 2 * free;
        if free == 0 {
            s -= 20;
        }
    }
    s
}

fn trade_down(material: [i32; 2], pieces: i32) -> i32 {
    let lead = material[0] - material[1];
    lead * (24 - pieces).max(0) / 48
}

/// American checkers evaluation (see the module documentation for the terms).
pub(crate) fn american(b: &Board) -> i32 {
    let pieces = b.occupied().count_ones() as i32;
    let mat =
        |c: usize| 100 * b.men[c].count_ones() as i32 + AM_KING * b.kings[c].count_ones() as i32;
    let material = [mat(0), mat(1)];
    let mut black = material[0] - material[1] + trade_down(material, pieces);
    black += checkers_terms(b, 0, pieces) - checkers_terms(b, 1, pieces);
    let mut s = if b.side == 0 { black } else { -black };
    // Opposition in men-only endings with equal numbers.
    if b.kings[0] == 0
        && b.kings[1] == 0
        && pieces <= 8
        && b.men[0].count_ones() == b.men[1].count_ones()
    {
        let system = if b.side == 0 {
            BLACK_SYSTEM
        } else {
            WHITE_SYSTEM
        };
        if (b.occupied() & system).count_ones() % 2 == 1 {
            s += 6;
        } else {
            s -= 6;
        }
    }
    s
}

/// Pool checkers evaluation (see the module documentation for the terms).
pub(crate) fn pool(b: &Board) -> i32 {
    let pieces = b.occupied().count_ones() as i32;
    let mat =
        |c: usize| 100 * b.men[c].count_ones() as i32 + POOL_KING * b.kings[c].count_ones() as i32;
    let material = [mat(0), mat(1)];
    let mut black = material[0] - material[1] + trade_down(material, pieces);
    black += checkers_terms(b, 0, pieces) - checkers_terms(b, 1, pieces);
    let on_diag = [
        (b.kings[0] & LONG_DIAGONAL).count_ones() as i32,
        (b.kings[1] & LONG_DIAGONAL).count_ones() as i32,
    ];
    black += 25 * (on_diag[0] - on_diag[1]);
    if on_diag[0] > 0 && on_diag[1] == 0 {
        black += 20;
    } else if on_diag[1] > 0 && on_diag[0] == 0 {
        black -= 20;
    }
    black -= pool_exposed(b, 0) - pool_exposed(b, 1);
    if b.side == 0 {
        black
    } else {
        -black
    }
}

/// Penalty for men of `c` that can be jumped from behind.
fn pool_exposed(b: &Board, c: usize) -> i32 {
    let o = 1 - c;
    let empty = !b.occupied();
    let enemy = b.men[o] | b.kings[o];
    let enemy_kings = b.kings[o] != 0;
    // Pairs (behind, ahead) on the same diagonal, for colour c.
    let pairs: [(usize, usize); 2] = if c == 0 {
        [(2, 1), (3, 0)]
    } else {
        [(0, 3), (1, 2)]
    };
    let mut s = 0;
    for i in squares(b.men[c]) {
        for (behind, ahead) in pairs {
            let (nb, na) = (NEIGH[i][behind], NEIGH[i][ahead]);
            if nb == NO || na == NO || empty & (1 << na) == 0 {
                continue;
            }
            let bb = 1u32 << nb;
            if enemy & bb != 0 || (enemy_kings && empty & bb != 0) {
                s += 10;
                break;
            }
        }
    }
    s
}

/// Impasse evaluation: `their work − our work` (see the module documentation for the terms).
pub(crate) fn impasse(b: &Board) -> i32 {
    let us = b.side;
    impasse_work(b, 1 - us) - impasse_work(b, us)
}

/// Estimated work left for colour `c` to remove all of its checkers, in centi-men.
fn impasse_work(b: &Board, c: usize) -> i32 {
    let o = 1 - c;
    let empty = !b.occupied();
    let checkers = b.men[c].count_ones() as i32 + 2 * b.kings[c].count_ones() as i32;
    let mut w = 100 * checkers;
    // Black's nearest row is row 0, furthest row 7; White the reverse.
    let fwd = forward(c);
    let back = forward(o);
    let singles = b.men[c].count_ones();
    for i in squares(b.men[c]) {
        let row = (i / 4) as i32;
        let to_far = if c == 0 { 7 - row } else { row };
        w += 6 * to_far;
        if singles > 1 && to_far > 0 && fwd.iter().any(|&d| clear_to_edge(i, d, empty)) {
            w -= 15;
        }
    }
    for i in squares(b.kings[c]) {
        let row = (i / 4) as i32;
        let to_near = if c == 0 { row } else { 7 - row };
        w += 6 * to_near;
        if to_near > 0 && back.iter().any(|&d| clear_to_edge(i, d, empty)) {
            w -= 20;
        }
    }
    // Blocking enemy singles makes them slow: less work for us in relative terms.
    let ofwd = forward(o);
    for i in squares(b.men[o]) {
        let blocked = ofwd.iter().all(|&d| {
            let n = NEIGH[i][d];
            n == NO || empty & (1 << n) == 0
        });
        if blocked {
            w -= 4;
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown_core::{Position, Variant};

    #[test]
    fn start_positions_are_balanced() {
        for v in Variant::ALL {
            let p = Position::new(v);
            // Symmetric start: the evaluation of both sides' terms cancels.
            let b = Board::of(&p);
            let s = match v {
                Variant::American => american(&b),
                Variant::Pool => pool(&b),
                Variant::Impasse => impasse(&b),
            };
            assert!(s.abs() <= 10, "{v}: {s}");
        }
    }
}

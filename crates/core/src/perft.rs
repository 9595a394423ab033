//! Perft: counting the leaf nodes of the move tree, to prove move generation against published tables.

use crate::moves::{Move, MoveList};
use crate::position::Position;

/// How capture paths are counted (see `shared/perft/README.md`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum PerftConvention {
    /// One move per (from, to, captured set): the legal-move list a player sees.
    #[default]
    Distinct,
    /// Every capture path counts, even when two paths take the same pieces (older published tables).
    Paths,
}

impl PerftConvention {
    fn all_paths(self) -> bool {
        self == PerftConvention::Paths
    }
}

/// Number of complete turns sequences of length `depth` from `pos` (leaf count). A finished game is not
/// expanded: it counts 1 at depth 0 and 0 below. Uses bulk counting at the last ply and no heap
/// allocation.
pub fn perft(pos: &Position, depth: u32, convention: PerftConvention) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_rec(pos, depth, &mut [], convention.all_paths())
}

/// Move lists allocated at once: one per ply, up to this many (more only for deeper trees).
const STACK_CHUNK: u32 = 64;

fn perft_rec(pos: &Position, depth: u32, stack: &mut [MoveList], all_paths: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    if stack.is_empty() {
        // One list per ply, allocated once for the next plies: move generation never allocates.
        let mut more: Vec<MoveList> = (0..depth.min(STACK_CHUNK))
            .map(|_| MoveList::new())
            .collect();
        return perft_rec(pos, depth, &mut more, all_paths);
    }
    let Some((list, rest)) = stack.split_first_mut() else {
        return 1;
    };
    if depth == 1 {
        return pos.count_moves(all_paths, list);
    }
    if depth == 2 {
        if let Some(scratch) = rest.first_mut() {
            if let Some(n) = pos.perft2_simple(scratch, all_paths) {
                return n;
            }
        }
    }
    pos.generate(list, all_paths);
    let mut n = 0;
    for mv in list.iter() {
        // Perft never reads the Zobrist key: skip its update.
        n += perft_rec(&pos.after_unkeyed(mv), depth - 1, rest, all_paths);
    }
    n
}

/// A transposition table for [`perft_hashed`]: counts of (position, depth) already searched.
/// Keys are 64-bit Zobrist hashes mixed with the depth; a wrong count needs a full 64-bit key collision.
pub struct PerftTable {
    entries: Vec<(u64, u64)>,
}

impl PerftTable {
    /// A table of about `mib` mebibytes (16 bytes an entry, rounded down to a power of two, at least
    /// one entry).
    pub fn new(mib: usize) -> PerftTable {
        let want = (mib.saturating_mul(1 << 20) / 16).max(1);
        let size = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        };
        PerftTable {
            entries: vec![(0, 0); size],
        }
    }
}

/// [`perft`] with a transposition table: the same counts, much faster from the start position
/// because checkers positions transpose a lot. Positions 3 or more plies from the leaves are stored.
pub fn perft_hashed(
    pos: &Position,
    depth: u32,
    convention: PerftConvention,
    table: &mut PerftTable,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth > STACK_CHUNK {
        // Deeper than any table-worthy search: fall back to the plain count.
        return perft(pos, depth, convention);
    }
    let mut stack: Vec<MoveList> = (0..depth).map(|_| MoveList::new()).collect();
    hashed_rec(pos, &mut stack, convention.all_paths(), table)
}

fn hashed_rec(
    pos: &Position,
    stack: &mut [MoveList],
    all_paths: bool,
    table: &mut PerftTable,
) -> u64 {
    let depth = stack.len() as u64;
    if depth < 3 {
        return perft_rec(pos, depth as u32, stack, all_paths);
    }
    let key = pos.zobrist() ^ depth.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (depth << 59);
    let slot = (key as usize) & (table.entries.len() - 1);
    if table.entries[slot].0 == key {
        return table.entries[slot].1;
    }
    let Some((list, rest)) = stack.split_first_mut() else {
        return 1;
    };
    pos.generate(list, all_paths);
    let mut n = 0;
    for mv in list.iter() {
        n += hashed_rec(&pos.after(mv), rest, all_paths, table);
    }
    table.entries[slot] = (key, n);
    n
}

/// Perft split by root move: each legal move (all paths under [`PerftConvention::Paths`]) with the
/// leaf count below it. The counts add up to [`perft`] for `depth` (which must be at least 1).
pub fn divide(pos: &Position, depth: u32, convention: PerftConvention) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    pos.generate(&mut list, convention.all_paths());
    list.iter()
        .map(|mv| {
            (
                *mv,
                perft(&pos.after(mv), depth.saturating_sub(1), convention),
            )
        })
        .collect()
}

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
    // One list per ply, allocated once up front: move generation itself never allocates.
    let mut stack: Vec<MoveList> = (0..depth).map(|_| MoveList::new()).collect();
    perft_rec(pos, &mut stack, convention.all_paths())
}

fn perft_rec(pos: &Position, stack: &mut [MoveList], all_paths: bool) -> u64 {
    let Some((list, rest)) = stack.split_first_mut() else {
        return 1;
    };
    if rest.is_empty() {
        return pos.count_moves(all_paths, list);
    }
    pos.generate(list, all_paths);
    let mut n = 0;
    for mv in list.iter() {
        n += perft_rec(&pos.after(mv), rest, all_paths);
    }
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

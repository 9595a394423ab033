//! Endgame databases at the root: the value of each root move and the database's best move.

use super::*;

/// The value of a root move from the databases, from the mover's view: (win/draw/loss, plies to
/// the end, the position after it); `None` when that position is not in the databases.
pub(super) fn table_move_value(
    tables: &dyn EndgameTables,
    pos: &Position,
    mv: &Move,
) -> Option<(Wdl, u32, Position)> {
    let child = pos.after(mv);
    let mover = pos.side_to_move();
    // The game ends with this move: the opponent has no piece left (checkers) or the mover has
    // borne off its last checker (Impasse).
    let over = if pos.variant() == Variant::Impasse {
        child.checkers(mover) == 0
    } else {
        child.piece_count(mover.opposite()) == 0
    };
    if over {
        return Some((Wdl::Win, 1, child));
    }
    let p = tables::probe(tables, &child)?;
    let d = p.distance.unwrap_or(MAX_DB_DISTANCE) + 1;
    Some(match p.wdl {
        Wdl::Loss => (Wdl::Win, d, child),
        Wdl::Draw => (Wdl::Draw, 0, child),
        Wdl::Win => (Wdl::Loss, d, child),
    })
}

/// The best root move by the databases: the shortest win, else a draw (the one the evaluation
/// likes best for the mover), else the longest loss. `None` when some move leads out of them.
pub(super) fn table_best(tables: &dyn EndgameTables, pos: &Position) -> Option<(Move, Wdl, u32)> {
    let mut best: Option<((i32, i32), Move, Wdl, u32)> = None;
    for mv in pos.legal_moves().iter() {
        let (wdl, d, child) = table_move_value(tables, pos, mv)?;
        let key = match wdl {
            Wdl::Win => (2, -(d as i32)),
            Wdl::Draw => (1, -crate::board::Board::of(&child).evaluate(pos.variant())),
            Wdl::Loss => (0, d as i32),
        };
        if best.as_ref().is_none_or(|b| key > b.0) {
            best = Some((key, *mv, wdl, d));
        }
    }
    best.map(|(_, mv, wdl, d)| (mv, wdl, d))
}

/// The root in the databases: play the database-best move without searching (the winner makes
/// progress by the distance, so it always converts; the loser resists longest). `None` when the
/// root or one of its moves is not in the databases (then the normal search runs, probing inside).
pub(super) fn table_root(
    tables: &dyn EndgameTables,
    pos: &Position,
    start: Instant,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> Option<SearchResult> {
    tables::probe(tables, pos)?;
    let (mv, wdl, d) = table_best(tables, pos)?;
    let score = match wdl {
        Wdl::Win => Score::DatabaseWin(d),
        Wdl::Draw => Score::Value(0),
        Wdl::Loss => Score::DatabaseLoss(d),
    };
    // The principal variation: both sides keep playing the database-best move.
    let mut pv = vec![mv];
    let mut probes = pos.legal_moves().len() as u64 + 1;
    if wdl != Wdl::Draw {
        let mut p = pos.after(&mv);
        while pv.len() < 40 && !p.legal_moves().is_empty() {
            probes += p.legal_moves().len() as u64;
            let Some((m, _, _)) = table_best(tables, &p) else {
                break;
            };
            pv.push(m);
            p = p.after(&m);
        }
    }
    let elapsed = start.elapsed();
    let time_ms = elapsed.as_millis() as u64;
    on_info(&SearchInfo {
        depth: 1,
        seldepth: pv.len() as u32,
        mean_depth_hundredths: 0,
        score,
        nodes: probes,
        nps: nodes_per_second(probes, elapsed),
        time_ms,
        pv: pv.clone(),
    });
    Some(SearchResult {
        best_move: Some(mv),
        score,
        pv,
        depth: 1,
        nodes: probes,
        time_ms,
    })
}

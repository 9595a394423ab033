//! Search scores: conversion to [`Score`], database scores by distance, and the ply adjustment of
//! mate and database scores stored in the transposition table.

use super::*;

pub(crate) fn score_of(s: i32) -> Score {
    if s >= MATE_BOUND {
        Score::Win((MATE - s) as u32)
    } else if s <= -MATE_BOUND {
        Score::Loss((MATE + s) as u32)
    } else if s >= DB_BOUND {
        Score::DatabaseWin((DB_WIN - s) as u32)
    } else if s <= -DB_BOUND {
        Score::DatabaseLoss((DB_WIN + s) as u32)
    } else {
        Score::Value(s)
    }
}

/// The search score of a database answer `ply` plies below the root.
pub(super) fn db_score(p: TableProbe, ply: usize) -> i32 {
    let plies = |d: Option<u32>| (ply as u32 + d.unwrap_or(MAX_DB_DISTANCE)).min(MAX_DB_DISTANCE);
    match p.wdl {
        Wdl::Draw => 0,
        Wdl::Win => DB_WIN - plies(p.distance) as i32,
        Wdl::Loss => -(DB_WIN - plies(p.distance) as i32),
    }
}

/// Wins and losses (searched or from the databases) are stored relative to the node.
pub(super) fn to_tt(s: i32, ply: usize) -> i32 {
    if s >= DB_BOUND {
        s + ply as i32
    } else if s <= -DB_BOUND {
        s - ply as i32
    } else {
        s
    }
}

pub(super) fn from_tt(s: i32, ply: usize) -> i32 {
    if s >= DB_BOUND {
        s - ply as i32
    } else if s <= -DB_BOUND {
        s + ply as i32
    } else {
        s
    }
}

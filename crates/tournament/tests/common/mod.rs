//! Helpers of the tournament tests: settings, joining players, recording a match by its players.
#![allow(dead_code)]

use crown_core::Variant;
use crown_tournament::{
    Format, GameResult, OpeningRule, Pairing, PlayerId, Scoring, Seat, Settings, Tournament,
};

/// Settings of American checkers with the start position, seed 1, default scoring.
pub fn settings(format: Format) -> Settings {
    Settings {
        name: "Test".into(),
        variant: Variant::American,
        format,
        openings: OpeningRule::StartPosition,
        seed: 1,
        scoring: Scoring::default(),
    }
}

/// A tournament with players named by `names`, rated from 3000 down by 10 (so the seeding is
/// the order given), started.
pub fn started(format: Format, names: &[&str]) -> (Tournament, Vec<PlayerId>) {
    started_with_seed(format, names, 1)
}

/// As [`started`], with the tournament's seed `seed`.
pub fn started_with_seed(format: Format, names: &[&str], seed: u64) -> (Tournament, Vec<PlayerId>) {
    let mut t = Tournament::new(Settings {
        seed,
        ..settings(format)
    })
    .unwrap();
    let ids = names
        .iter()
        .enumerate()
        .map(|(i, n)| t.join(n, 3000 - 10 * i as u32).unwrap())
        .collect();
    t.start().unwrap();
    (t, ids)
}

/// The game result of a game with outcome `c` ('W' win, 'D' draw, 'L' loss) for the player in
/// `seat`.
pub fn result_for(seat: Seat, c: char) -> GameResult {
    match c {
        'W' => GameResult::Win(seat),
        'D' => GameResult::Draw,
        'L' => GameResult::Win(seat.other()),
        _ => panic!("outcome {c}"),
    }
}

/// Records both games of the match of `p` and `q` in round `round`: `games` are p's outcomes of
/// games 1 and 2 ('W', 'D', 'L'). Panics when they are not paired together.
pub fn play(t: &mut Tournament, round: u32, p: PlayerId, q: PlayerId, games: &str) {
    let r = &t.rounds()[round as usize - 1];
    let m = r
        .matches()
        .find(|m| m.seat_of(p).is_some() && m.seat_of(q).is_some())
        .unwrap_or_else(|| panic!("{p} and {q} do not meet in round {round}: {r:?}"))
        .clone();
    let seat = m.seat_of(p).unwrap();
    for (i, c) in games.chars().enumerate() {
        t.record(round, m.board, i as u8 + 1, result_for(seat, c))
            .unwrap();
    }
}

/// The pairs of round `round` as sorted pairs of ids, sorted; and the bye.
pub fn pairs_of(t: &Tournament, round: u32) -> (Vec<(PlayerId, PlayerId)>, Option<PlayerId>) {
    let mut pairs = Vec::new();
    let mut bye = None;
    for p in &t.rounds()[round as usize - 1].pairings {
        match p {
            Pairing::Match(m) => pairs.push((m.first.min(m.second), m.first.max(m.second))),
            Pairing::Bye(b) => bye = Some(*b),
        }
    }
    pairs.sort();
    (pairs, bye)
}

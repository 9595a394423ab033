//! The engine's reply lines (docs/protocol.md): Hub 2's `info` and `done`, with Crown's extension
//! fields, and the bounded `error`/`info warning` lines.

use crown_ai::{Score, SearchInfo};
use crown_core::{Move, Position};
use crown_notation::{hub_move, one_line};

/// The largest number of plies a Hub win score can tell: `score` is `100 - plies/100` men, and a
/// Hub client reads a score above 90 men as a win (pydraughts: `10000 - centi-men` plies).
const MAX_SCORE_PLIES: u32 = 999;

/// A reply line `{head}="{value}"` of at most [`crown_notation::MAX_ERROR_CHARS`] characters in
/// all: the value made one printable line (control characters escaped), its double quotes written
/// as single ones so that it stays one value, cut with `…` when too long.
pub fn quoted_line(head: &str, value: &str) -> String {
    let room = crown_notation::MAX_ERROR_CHARS - head.chars().count() - 3;
    let mut v = one_line(&value.replace('"', "'"));
    if v.chars().count() > room {
        v = v.chars().take(room - 1).collect();
        v.push('…');
    }
    format!("{head}=\"{v}\"")
}

/// An `error message="…"` line of at most 200 characters, printable.
pub fn error_line(message: &str) -> String {
    quoted_line("error message", message)
}

/// Hundredths as a decimal number: `-5` → `-0.05`, `1350` → `13.50`.
fn hundredths(v: i64) -> String {
    let sign = if v < 0 { "-" } else { "" };
    let a = v.unsigned_abs();
    format!("{sign}{}.{:02}", a / 100, a % 100)
}

/// The Hub `score` of `s`, a bare number in men from the side to move's point of view (`0.30`,
/// `-1.25`); a win in N plies is `100 - N/100` (`99.93` for 7 plies), a loss its negation, as Scan
/// writes them (database wins and losses too: their plies are the distance to the end).
pub fn hub_score(s: Score) -> String {
    let win = |n: u32| 10_000 - i64::from(n.min(MAX_SCORE_PLIES));
    hundredths(match s {
        // An evaluation stays below the band a client reads as a win.
        Score::Value(v) => i64::from(v.clamp(-8_999, 8_999)),
        Score::Win(n) | Score::DatabaseWin(n) => win(n),
        Score::Loss(n) | Score::DatabaseLoss(n) => -win(n),
    })
}

/// Milliseconds as Hub's seconds: `1234` → `1.234`.
fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

/// The moves of `line` from `start` in Hub text ([`hub_move`]), up to the first that is not legal.
pub fn hub_line(start: &Position, line: &[Move]) -> Vec<String> {
    let mut pos = *start;
    let mut out = Vec::with_capacity(line.len());
    for mv in line {
        if !pos.is_legal(mv) {
            break;
        }
        out.push(hub_move(&pos, mv));
        pos.play(mv);
    }
    out
}

/// The `info` line of a completed depth: Hub 2's `depth mean-depth score nodes time nps pv`, then
/// Crown's `seldepth` and `crown-score` (its own text: `+0.25`, `win in 7`, `win in 23 (db)`),
/// which a strict client ignores.
pub fn info_line(root: &Position, i: &SearchInfo) -> String {
    format!(
        "info depth={} mean-depth={} score={} nodes={} time={} nps={} pv=\"{}\" seldepth={} crown-score=\"{}\"",
        i.depth,
        hundredths(i64::from(i.mean_depth_hundredths)),
        hub_score(i.score),
        i.nodes,
        seconds(i.time_ms),
        i.nps,
        hub_line(root, &i.pv).join(" "),
        i.seldepth,
        i.score,
    )
}

/// The `info` line of a move from the opening book (no search): depth 0, the book's score, and
/// Crown's `book=true`.
pub fn book_info_line(root: &Position, mv: &Move, score: Score, time_ms: u64) -> String {
    format!(
        "info depth=0 mean-depth=0.00 score={} nodes=0 time={} nps=0 pv=\"{}\" book=true crown-score=\"{score}\"",
        hub_score(score),
        seconds(time_ms),
        hub_move(root, mv),
    )
}

/// `done move=M [ponder=P]` in Hub text; a bare `done` when there is no move (the game is over),
/// as Scan writes it.
pub fn done_line(root: &Position, best: Option<&Move>, pv: &[Move]) -> String {
    let Some(m) = best else {
        return "done".into();
    };
    let after = root.after(m);
    let ponder = pv
        .get(1)
        .filter(|p| pv.first() == Some(m) && after.is_legal(p))
        .map(|p| format!(" ponder={}", hub_move(&after, p)))
        .unwrap_or_default();
    format!("done move={}{ponder}", hub_move(root, m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown_core::Variant;

    #[test]
    fn scores_are_bare_numbers_in_men() {
        assert_eq!(hub_score(Score::Value(30)), "0.30");
        assert_eq!(hub_score(Score::Value(-5)), "-0.05");
        assert_eq!(hub_score(Score::Value(0)), "0.00");
        assert_eq!(hub_score(Score::Value(-125)), "-1.25");
        assert_eq!(hub_score(Score::Win(7)), "99.93");
        assert_eq!(hub_score(Score::Loss(4)), "-99.96");
        assert_eq!(hub_score(Score::DatabaseWin(23)), "99.77");
        assert_eq!(hub_score(Score::DatabaseLoss(5000)), "-90.01");
        assert_eq!(hub_score(Score::Value(100_000)), "89.99");
    }

    #[test]
    fn done_names_the_move_and_the_expected_answer() {
        let pos = Position::new(Variant::American);
        let m = crown_notation::read_move(&pos, "11-15").unwrap();
        let after = pos.after(&m);
        let p = crown_notation::read_move(&after, "23-19").unwrap();
        assert_eq!(
            done_line(&pos, Some(&m), &[m, p]),
            "done move=11-15 ponder=23-19"
        );
        assert_eq!(done_line(&pos, Some(&m), &[m]), "done move=11-15");
        assert_eq!(done_line(&pos, None, &[]), "done");
    }

    #[test]
    fn info_has_the_hub_fields_in_seconds() {
        let pos = Position::new(Variant::American);
        let m = crown_notation::read_move(&pos, "11-15").unwrap();
        let i = SearchInfo {
            depth: 12,
            seldepth: 20,
            mean_depth_hundredths: 1350,
            score: Score::Value(12),
            nodes: 1000,
            nps: 3225,
            time_ms: 310,
            pv: vec![m],
        };
        assert_eq!(
            info_line(&pos, &i),
            "info depth=12 mean-depth=13.50 score=0.12 nodes=1000 time=0.310 nps=3225 pv=\"11-15\" seldepth=20 crown-score=\"+0.12\""
        );
    }
}

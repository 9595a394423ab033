//! Tests of a game in memory.

use super::*;

/// The first-move limit of the test games (the server's default, 30 s).
const ABORT_MS: u64 = crate::config::DEFAULT_ABORT_AFTER_SECS * 1000;

const SHA256_TB: &str = "7aa5ae9ecf82f6fc5208ecd0940fd71d50cd4ac596fccac2ede05af806a87b6e";

fn human_game(tc: Option<TimeControl>) -> Live {
    let start = Position::new(Variant::American);
    let mut live = Live::create(
        "g".into(),
        start,
        Color::Black,
        "tb".into(),
        Seat::Human { token_sha256: None },
        tc,
        1_000,
    );
    live.rec.meta.abort_after_ms = ABORT_MS;
    live.join("tw".into(), 1_000).unwrap();
    live
}

#[test]
fn only_an_untimed_game_idle_past_the_limit_is_abandoned() {
    // Joined at 1,000: Black's turn started then.
    let mut g = human_game(None);
    assert!(!g.abandon_if_idle(500, 1_499));
    assert!(!g.abandon_if_idle(0, u64::MAX), "0 never abandons");
    assert!(g.abandon_if_idle(500, 1_500));
    assert_eq!(g.rec.status, "finished");
    assert_eq!(g.rec.result, None);
    let v = g.view(1_500, None);
    assert_eq!(v.outcome.as_ref().unwrap().result, "*");
    assert!(v.legal_moves.is_empty());
    assert_eq!(
        g.play(Color::Black, "11-15", None, 1_600).unwrap_err().code,
        "game_over"
    );
    assert_eq!(g.resign(Color::Black, 1_600).unwrap_err().code, "game_over");
    // Read back from the record: still abandoned.
    let back = Live::from_record(g.rec.clone()).unwrap();
    assert!(back.abandoned());
    // A timed game ends by its flag, never as abandoned.
    let tc = TimeControl {
        initial_ms: 60_000,
        increment_ms: 0,
    };
    let mut timed = human_game(Some(tc));
    assert!(!timed.abandon_if_idle(500, 10_000_000));
}

#[test]
fn only_the_token_hash_is_stored() {
    let g = human_game(None);
    let stored = serde_json::to_string(&g.rec.meta).unwrap();
    assert!(
        !stored.contains("\"tb\"") && !stored.contains("\"tw\""),
        "{stored}"
    );
    // SHA-256("tb") per FIPS 180-4, computed independently with `printf tb | sha256sum`.
    assert!(stored.contains(SHA256_TB), "{stored}");
    assert_eq!(g.seat_of("tb"), Some(Color::Black));
    assert_eq!(g.seat_of("tw"), Some(Color::White));
    assert_eq!(g.seat_of("t"), None);
    assert_eq!(g.seat_of(SHA256_TB), None);
}

#[test]
fn clock_charges_mover_and_adds_increment() {
    let mut g = human_game(Some(TimeControl {
        initial_ms: 10_000,
        increment_ms: 500,
    }));
    // Joined at 1 000. Each side's first move is not timed: no charge, no increment.
    g.play(Color::Black, "11-15", Some(0), 4_000).unwrap();
    g.play(Color::White, "23-19", Some(1), 6_000).unwrap();
    assert_eq!(g.remaining(Color::Black, 6_000), 10_000);
    assert_eq!(g.remaining(Color::White, 6_000), 10_000);
    // Black's clock runs from White's first move; Black thinks 3 s: 10 000 - 3 000 + 500.
    assert_eq!(g.remaining(Color::Black, 7_000), 9_000);
    g.play(Color::Black, "8-11", Some(2), 9_000).unwrap();
    assert_eq!(g.remaining(Color::Black, 9_000), 7_500);
    assert_eq!(g.remaining(Color::White, 10_000), 9_000);
    // White lets the flag fall: 10 000 ms after its turn started at 9 000.
    assert!(!g.check_flag(18_999));
    assert!(g.check_flag(19_000));
    assert_eq!(g.game.outcome().unwrap().winner(), Some(Color::Black));
    assert_eq!(g.rec.status, "finished");
}

#[test]
fn downtime_is_not_charged_after_the_heartbeat() {
    let mut g = human_game(Some(TimeControl {
        initial_ms: 10_000,
        increment_ms: 0,
    }));
    // Before the first moves the wait for a first move is shifted: turn started at 1 000,
    // last heartbeat 3 000, restart at 60 000: 2 s of the 30 s are gone.
    assert!(g.resume_after_downtime(3_000, 60_000));
    assert_eq!(g.abort_deadline(), Some(60_000 - 2_000 + ABORT_MS));
    assert_eq!(g.remaining(Color::Black, 60_000), 10_000);
    // Both first moves; Black's turn started at 62 000, last heartbeat 64 000, restart at
    // 120 000: 2 s charged.
    g.play(Color::Black, "11-15", None, 61_000).unwrap();
    g.play(Color::White, "23-19", None, 62_000).unwrap();
    assert!(g.resume_after_downtime(64_000, 120_000));
    assert_eq!(g.remaining(Color::Black, 120_000), 8_000);
}

/// What another instance sees: the change `after` made to `before` (moves kept up to
/// `keep`), applied to its copy of `before`, must be the game `after` itself.
fn assert_change_applies(before: &Live, after: &Live, keep: usize) {
    let state = crate::store::ChangeState::of(&after.rec, keep);
    let got = before.apply_change(&state, before.rec.version + 1).unwrap();
    let mut want = after.rec.clone();
    want.version = before.rec.version + 1;
    assert_eq!(got.rec, want);
    assert_eq!(got.game.position(), after.game.position());
    assert_eq!(got.game.outcome(), after.game.outcome());
    assert_eq!(got.game.ply_count(), after.rec.moves.len());
}

#[test]
fn a_notified_change_rebuilds_the_same_game() {
    let g0 = human_game(None);
    // Moves appended.
    let mut g1 = g0.clone();
    g1.play(Color::Black, "11-15", None, 2_000).unwrap();
    g1.play(Color::White, "23-19", None, 3_000).unwrap();
    assert_change_applies(&g0, &g1, 0);
    // A resignation: no move, a declared result.
    let mut g2 = g1.clone();
    g2.resign(Color::White, 4_000).unwrap();
    assert_change_applies(&g1, &g2, 2);
    assert_eq!(g2.game.outcome().unwrap().winner(), Some(Color::Black));
    // A takeback of both moves (kept plies below those held), then another opening.
    let mut g3 = g1.clone();
    g3.request_takeback(Color::Black, 4_000).unwrap();
    g3.accept_takeback(Color::White, 5_000).unwrap();
    g3.play(Color::Black, "9-13", None, 6_000).unwrap();
    assert_change_applies(&g1, &g3, 0);
    // A change that keeps more plies than the copy holds is refused (reload instead).
    let state = crate::store::ChangeState::of(&g1.rec, 2);
    assert!(g0.apply_change(&state, 1).is_err());
}

#[test]
fn takeback_removes_own_move_and_reply() {
    let mut g = human_game(None);
    g.play(Color::Black, "11-15", None, 2_000).unwrap();
    g.play(Color::White, "23-19", None, 3_000).unwrap();
    g.request_takeback(Color::Black, 4_000).unwrap();
    assert_eq!(g.accept_takeback(Color::White, 5_000).unwrap(), 2);
    assert_eq!(g.rec.moves.len(), 0);
    assert_eq!(*g.game.position(), Position::new(Variant::American));
}

#[test]
fn takeback_keeps_time_spent() {
    let mut g = human_game(Some(TimeControl {
        initial_ms: 60_000,
        increment_ms: 0,
    }));
    // Turn started at 1 000 (join). Black 11-15 at 2 000 and White 23-19 at 5 000 are first
    // moves (not timed); Black 8-11 at 6 000 (1 s); White waits 5 s and asks at 11 000,
    // granted at 12 000.
    g.play(Color::Black, "11-15", None, 2_000).unwrap();
    g.play(Color::White, "23-19", None, 5_000).unwrap();
    g.play(Color::Black, "8-11", None, 6_000).unwrap();
    g.request_takeback(Color::White, 11_000).unwrap();
    assert_eq!(g.accept_takeback(Color::Black, 12_000).unwrap(), 2);
    // White: 60 000 - 6 000 (6 s thinking until the takeback); Black: 59 000.
    assert_eq!(g.remaining(Color::White, 12_000), 54_000);
    assert_eq!(g.remaining(Color::Black, 12_000), 59_000);
    // White's first move is taken back: its clock waits for it again, and so does the
    // first-move limit, from the takeback.
    assert_eq!(g.remaining(Color::White, 13_000), 54_000);
    assert_eq!(g.abort_deadline(), Some(12_000 + ABORT_MS));
    g.play(Color::White, "22-18", None, 14_000).unwrap();
    // Black's clock runs again from White's move.
    assert_eq!(g.remaining(Color::Black, 15_000), 58_000);
}

/// 0.25+0: the time control of the browser test of issue 26.
const QUARTER: TimeControl = TimeControl {
    initial_ms: 15_000,
    increment_ms: 0,
};

#[test]
fn no_clock_runs_before_the_first_moves_and_an_unstarted_game_aborts() {
    let mut g = human_game(Some(QUARTER));
    // Joined at 1 000: Black has 30 s for its first move; its clock does not run.
    assert_eq!(g.abort_deadline(), Some(1_000 + ABORT_MS));
    assert_eq!(g.flag_deadline(), None);
    assert!(!g.check_flag(1_000 + 15_000));
    assert_eq!(g.remaining(Color::Black, 1_000 + 20_000), 15_000);
    let v = g.view(2_000, None);
    assert_eq!(v.clock.as_ref().unwrap().running, None);
    assert_eq!(v.first_move_deadline_ms, Some(1_000 + ABORT_MS));
    assert!(!g.abort_if_unstarted(1_000 + ABORT_MS - 1));
    assert!(g.abort_if_unstarted(1_000 + ABORT_MS));
    assert_eq!(g.rec.status, "aborted");
    assert_eq!(g.rec.result, None);
    assert!(crate::store::is_over(&g.rec.status));
    let v = g.view(1_000 + ABORT_MS, None);
    let o = v.outcome.as_ref().unwrap();
    assert_eq!(o.result, "*");
    assert_eq!(o.winner, None);
    assert_eq!(o.reason, "aborted: black did not make a first move in time");
    assert!(v.legal_moves.is_empty());
    assert_eq!(v.first_move_deadline_ms, None);
    // Over: no move, resignation, abort or draw offer is accepted.
    let later = 1_000 + ABORT_MS + 1;
    assert_eq!(
        g.play(Color::Black, "11-15", None, later).unwrap_err().code,
        "game_over"
    );
    assert_eq!(g.resign(Color::White, later).unwrap_err().code, "game_over");
    assert_eq!(g.abort(Color::White, later).unwrap_err().code, "game_over");
    assert_eq!(
        g.offer_draw(Color::White, later).unwrap_err().code,
        "game_over"
    );
    assert!(!g.check_flag(u64::MAX));
    // Read back from the record: still aborted.
    let back = Live::from_record(g.rec.clone()).unwrap();
    assert!(back.aborted());
    assert_eq!(back.rec.status, "aborted");
}

#[test]
fn the_second_player_has_its_own_first_move_limit() {
    let mut g = human_game(Some(QUARTER));
    // Black moves at 20 000; White's 30 s start then, and no clock runs yet.
    g.play(Color::Black, "11-15", None, 20_000).unwrap();
    assert_eq!(g.abort_deadline(), Some(20_000 + ABORT_MS));
    assert_eq!(g.flag_deadline(), None);
    assert_eq!(g.remaining(Color::Black, 40_000), 15_000);
    assert_eq!(g.remaining(Color::White, 40_000), 15_000);
    assert!(!g.abort_if_unstarted(20_000 + ABORT_MS - 1));
    assert!(g.abort_if_unstarted(20_000 + ABORT_MS));
    let v = g.view(20_000 + ABORT_MS, None);
    assert_eq!(
        v.outcome.unwrap().reason,
        "aborted: white did not make a first move in time"
    );
    // Once both have moved, the clocks run and no abort deadline remains.
    let mut g = human_game(Some(QUARTER));
    g.play(Color::Black, "11-15", None, 2_000).unwrap();
    g.play(Color::White, "23-19", None, 3_000).unwrap();
    assert_eq!(g.abort_deadline(), None);
    assert_eq!(g.flag_deadline(), Some(3_000 + 15_000));
    assert!(!g.abort_if_unstarted(u64::MAX));
    assert!(g.check_flag(3_000 + 15_000));
    assert_eq!(g.game.outcome().unwrap().winner(), Some(Color::White));
}

#[test]
fn a_side_aborts_only_before_both_first_moves() {
    let mut g = human_game(Some(QUARTER));
    g.play(Color::Black, "11-15", None, 2_000).unwrap();
    g.abort(Color::White, 3_000).unwrap();
    assert_eq!(g.rec.status, "aborted");
    assert_eq!(g.rec.result, None);
    assert_eq!(
        g.view(3_000, None).outcome.unwrap().reason,
        "aborted by white"
    );
    // An untimed game can be aborted too.
    let mut g = human_game(None);
    g.abort(Color::Black, 2_000).unwrap();
    assert_eq!(g.rec.status, "aborted");
    // After both first moves: resign instead.
    let mut g = human_game(Some(QUARTER));
    g.play(Color::Black, "11-15", None, 2_000).unwrap();
    g.play(Color::White, "23-19", None, 3_000).unwrap();
    assert_eq!(
        g.abort(Color::Black, 4_000).unwrap_err().code,
        "not_abortable"
    );
    assert_eq!(g.rec.status, "ongoing");
    // An open game is cancelled, not aborted.
    let mut open = Live::create(
        "o".into(),
        Position::new(Variant::American),
        Color::Black,
        "tb".into(),
        Seat::Human { token_sha256: None },
        Some(QUARTER),
        1_000,
    );
    assert_eq!(
        open.abort(Color::Black, 2_000).unwrap_err().code,
        "seat_open"
    );
}

#[test]
fn without_the_first_move_rule_the_clock_runs_from_the_start() {
    // A limit of 0 (or a game stored before the rule): the clock runs from the join.
    let mut g = human_game(Some(QUARTER));
    g.rec.meta.abort_after_ms = 0;
    assert_eq!(g.abort_deadline(), None);
    assert_eq!(g.remaining(Color::Black, 4_000), 12_000);
    assert!(g.check_flag(1_000 + 15_000));
    // Against the engine: the engine always moves, so the clock runs from the start and a
    // person who never moves loses on time as before.
    let mut e = Live::create(
        "e".into(),
        Position::new(Variant::American),
        Color::Black,
        "tb".into(),
        Seat::Engine { level: 1 },
        Some(QUARTER),
        1_000,
    );
    e.rec.meta.abort_after_ms = ABORT_MS;
    assert!(e.seated());
    assert!(!e.first_move_rule());
    assert_eq!(e.abort_deadline(), None);
    assert_eq!(e.flag_deadline(), Some(1_000 + 15_000));
}

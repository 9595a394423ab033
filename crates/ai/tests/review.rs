//! Game review on positions whose verdict is forced by the rules: a move that hangs a piece to a
//! shot is `??`, the only move that avoids the shot is `!`. Every verdict is checked again by a
//! brute-force minimax over the legal moves of crown-core, independent of the engine.

use crown_ai::review::{review_game, Mark, ReviewOptions};
use crown_ai::{Engine, EngineOptions, Limits, Score};
use crown_core::{Move, Position, Variant};
use std::sync::atomic::AtomicBool;

/// True when the side to move in `pos` loses by force within `plies` (it has no legal move now, or
/// every move leads to a position the opponent wins within `plies − 1`).
fn lost_within(pos: &Position, plies: u32) -> bool {
    let moves = pos.legal_moves_sorted();
    if moves.is_empty() {
        return true;
    }
    plies > 0 && moves.iter().all(|m| won_within(&pos.after(m), plies - 1))
}

/// True when the side to move in `pos` wins by force within `plies`.
fn won_within(pos: &Position, plies: u32) -> bool {
    plies > 0
        && pos
            .legal_moves_sorted()
            .iter()
            .any(|m| lost_within(&pos.after(m), plies - 1))
}

fn mv(pos: &Position, text: &str) -> Move {
    pos.parse_move(text).expect("legal move")
}

fn review_one(fen: &str, text: &str, depth: u32) -> crown_ai::review::MoveReview {
    let pos = Position::from_fen(Variant::American, fen).expect("FEN");
    let m = mv(&pos, text);
    let mut engine = Engine::new(EngineOptions::default());
    let options = ReviewOptions {
        limits: Limits::depth(depth),
        check_only_moves: true,
    };
    let review = review_game(
        &mut engine,
        &pos,
        &[m],
        &options,
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .expect("not stopped");
    review.moves[0].clone()
}

/// Black: king on 3. White: men on 16 and 20. Black to move has two moves, 3-7 and 3-8.
/// After 3-7 White shoots 16-11: the king must jump 7x16 (captures are compulsory, and it is its
/// only capture), and 20x11 takes it, the last black piece: Black has lost in four plies. 3-8 keeps
/// the king out of the shot.
const SHOT: &str = "B:W16,20:BK3";

#[test]
fn the_shot_is_real_by_brute_force() {
    let pos = Position::from_fen(Variant::American, SHOT).unwrap();
    let texts: Vec<String> = pos
        .legal_moves_sorted()
        .iter()
        .map(|m| pos.move_text(m))
        .collect();
    assert_eq!(texts, ["3-7", "3-8"]);
    let after_3_7 = pos.after(&mv(&pos, "3-7"));
    assert!(won_within(&after_3_7, 3), "16-11 7x16 20x11 wins for White");
    let after_3_8 = pos.after(&mv(&pos, "3-8"));
    assert!(
        !won_within(&after_3_8, 7),
        "no White win within 7 plies after 3-8"
    );
}

#[test]
fn hanging_the_king_to_a_shot_is_a_blunder() {
    let r = review_one(SHOT, "3-7", 8);
    assert_eq!(r.mark, Some(Mark::Blunder));
    assert!(
        matches!(r.played_score, Score::Loss(_)),
        "{:?}",
        r.played_score
    );
    let pos = Position::from_fen(Variant::American, SHOT).unwrap();
    assert_eq!(r.best, mv(&pos, "3-8"));
    // The loss is the whole expected score of the better move: proven lost scores 0.
    assert!(r.loss >= 0.2, "{}", r.loss);
}

#[test]
fn the_only_move_that_avoids_the_shot_is_marked_good() {
    let r = review_one(SHOT, "3-8", 8);
    assert_eq!(r.mark, Some(Mark::Only));
    assert!(r.is_best());
    assert_eq!(r.loss, 0.0);
}

#[test]
fn forced_moves_get_no_mark() {
    // Black's man on 14 must jump 14x23 (the only legal move): a forced capture is neither `!`
    // nor an error.
    let r = review_one("B:W18,29:B14", "14x23", 6);
    assert_eq!(r.mark, None);
    assert_eq!(r.loss, 0.0);
}

#[test]
fn the_only_winning_shot_is_marked_good() {
    // After 3-7 White has two moves, 16-11 and 16-12 (20 is blocked by its own man on 16).
    // 16-11 wins at once (7x16 is forced, 20x11 takes the king). 16-12 loses: the brute force finds
    // a black win within 9 plies (7-11 20-16 11x20 12-8 20-16 8-3 16-11 3-7 11x2 is one line).
    let start = Position::from_fen(Variant::American, SHOT).unwrap();
    let pos = start.after(&mv(&start, "3-7"));
    let texts: Vec<String> = pos
        .legal_moves_sorted()
        .iter()
        .map(|m| pos.move_text(m))
        .collect();
    assert_eq!(texts, ["16-11", "16-12"]);
    assert!(won_within(&pos.after(&mv(&pos, "16-12")), 9));
    assert!(lost_within(&pos.after(&mv(&pos, "16-11")), 2));
    let r = review_one(&pos.to_fen(), "16-11", 10);
    assert_eq!(r.mark, Some(Mark::Only));
    assert!(matches!(r.played_score, Score::Win(_)));
}

/// Material balance (pieces) for the side to move after the best play of `plies` plies, never
/// stopping while a capture is pending (captures are compulsory): a brute-force negamax over
/// crown-core's legal moves. A side with no legal move scores −100.
fn material(pos: &Position, plies: u32) -> i32 {
    let moves = pos.legal_moves_sorted();
    if moves.is_empty() {
        return -100;
    }
    if plies == 0 && !pos.must_capture() {
        let me = pos.side_to_move();
        return pos.piece_count(me) as i32 - pos.piece_count(me.opposite()) as i32;
    }
    moves
        .iter()
        .map(|m| -material(&pos.after(m), plies.saturating_sub(1)))
        .max()
        .unwrap_or(-100)
}

#[test]
fn dropping_a_man_to_a_shot_in_the_opening_is_at_least_a_mistake() {
    // 1. 9-13 21-17 2. 5-9 24-19?? runs into the two-for-one shot 10-15! 19x10 7x14x21. The brute
    // force agrees: after 24-19 Black wins a man by force within 6 plies, while White's 25-21 keeps
    // the material level. One man in a level position is E(0) − E(−100) = 0.23 ≥ 0.20: `??`.
    // But the position is not level for the engine: the trained evaluation of issue 21 reads it as
    // about −0.35 for White, and a man more from there costs E(−35) − E(−135) ≈ 0.21; the search
    // measured 0.1997 at depth 10 and 0.164 at depth 12 (0.101 at depth 8, too shallow to see it
    // all): at depth 10, at least a mistake `?` (0.12), not surely a blunder (0.20).
    let mut pos = Position::new(Variant::American);
    for m in ["9-13", "21-17", "5-9"] {
        pos = pos.after(&mv(&pos, m));
    }
    assert_eq!(material(&pos.after(&mv(&pos, "24-19")), 6), 1);
    assert_eq!(material(&pos.after(&mv(&pos, "25-21")), 6), 0);
    let r = review_one(&pos.to_fen(), "24-19", 10);
    assert!(
        matches!(r.mark, Some(Mark::Blunder | Mark::Mistake)),
        "{r:?}"
    );
    assert!(!r.is_best());
}

/// A move forced by the rules (the only legal move) is scored as deeply as any other. Under a time
/// limit the engine answers a single legal move at once, at depth 1; the review used to keep that
/// depth-1 guess as the move's score, the graph's point and the `{score / 1}` comment (false
/// swings and turning points on every forced capture). In 1. 9-13 21-17 2. 5-9 24-19?? 10-15
/// White's 19x10 is forced, and the brute force says White is then a man down (7x14x21).
#[test]
fn a_forced_capture_is_scored_by_a_real_search() {
    let mut pos = Position::new(Variant::American);
    let mut moves = Vec::new();
    for m in ["9-13", "21-17", "5-9", "24-19", "10-15"] {
        let m = mv(&pos, m);
        moves.push(m);
        pos = pos.after(&m);
    }
    assert_eq!(pos.legal_moves_sorted().len(), 1, "19x10 is forced");
    let forced = mv(&pos, "19x10");
    assert_eq!(
        material(&pos.after(&forced), 6),
        1,
        "Black wins a man back and more"
    );
    moves.push(forced);
    let mut engine = Engine::new(EngineOptions::default());
    let options = ReviewOptions {
        limits: Limits::movetime(100),
        check_only_moves: false,
    };
    let review = review_game(
        &mut engine,
        &Position::new(Variant::American),
        &moves,
        &options,
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .expect("not stopped");
    let r = review.at(5).expect("19x10 reviewed");
    assert_eq!(r.mark, None, "a forced move is never marked");
    assert!(r.depth > 1, "{r:?}");
    // White (the mover) is a man down: at least half a man below level, or a proven loss.
    assert!(
        matches!(r.played_score, Score::Loss(_) | Score::Value(..=-50)),
        "{r:?}"
    );
}

/// A run of forced moves (a capture answered by the only recapture) is scored by a search of the
/// position after the run. Tinsley - Chamblee (tinsley.pdn game 8), the first 30 plies: 15. 24-19
/// 15x24 28x19, where 15x24 and 28x19 are each the only legal move.
#[test]
fn a_run_of_forced_moves_is_scored_past_its_end() {
    let line = "10-14 22-17 14-18 23x14 9x18 26-23 6-9 23x14 9x18 30-26 2-6 26-23 6-9 23x14 9x18 \
                31-26 5-9 17-13 11-15 13x6 1x10 25-22 18x25 29x22 10-14 27-23 8-11 24-19 15x24 28x19";
    let start = Position::new(Variant::American);
    let mut pos = start;
    let mut moves = Vec::new();
    for (ply, text) in line.split_whitespace().enumerate() {
        if ply >= 28 {
            assert_eq!(pos.legal_moves_sorted().len(), 1, "{text} is forced");
        }
        let m = mv(&pos, text);
        moves.push(m);
        pos = pos.after(&m);
    }
    let mut engine = Engine::new(EngineOptions::default());
    let options = ReviewOptions {
        limits: Limits::movetime(50),
        check_only_moves: false,
    };
    let review = review_game(
        &mut engine,
        &start,
        &moves,
        &options,
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .expect("not stopped");
    for ply in [28, 29] {
        let r = review.at(ply).expect("reviewed");
        assert_eq!(r.mark, None);
        // The forced plies left in the run, then a real search (50 ms reach well past 4 plies);
        // the engine's instant answer to a single legal move is depth 1, plus the run's plies.
        let run = 30 - ply as u32;
        assert!(r.depth >= run + 4, "ply {ply}: {r:?}");
    }
}

/// The move played is scored past a forced reply too: in Tinsley - Rex (tinsley.pdn game 1) 13... 22-18
/// (not always the engine's first choice) offers an exchange that Black must take at once
/// (14. 15x22 is its only legal move), and that score used to be the engine's instant depth-1
/// answer. Here the search goes past the capture.
#[test]
fn a_move_answered_by_a_forced_capture_is_scored_past_it() {
    let line = "11-15 23-18 8-11 27-23 4-8 23-19 10-14 19x10 14x23 26x19 7x14 24-20 6-10 30-26 \
                11-15 28-24 14-18 20-16 18-23 16-11 23x30 11x4 2-7 4-8 1-6 22-18";
    let start = Position::new(Variant::American);
    let mut pos = start;
    let mut moves = Vec::new();
    for text in line.split_whitespace() {
        let m = mv(&pos, text);
        moves.push(m);
        pos = pos.after(&m);
    }
    assert_eq!(moves.len(), 26);
    assert_eq!(
        pos.legal_moves_sorted().len(),
        1,
        "15x22 is forced after 22-18"
    );
    let mut engine = Engine::new(EngineOptions::default());
    let options = ReviewOptions {
        limits: Limits::movetime(50),
        check_only_moves: false,
    };
    let review = review_game(
        &mut engine,
        &start,
        &moves,
        &options,
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .expect("not stopped");
    let r = review.at(25).expect("22-18 reviewed");
    // The move, the forced capture, then a real search (50 ms reach well past 4 plies).
    assert!(r.is_best() || r.depth >= 2 + 4, "{r:?}");
}

//! One test per rule: small positions whose legal-move sets were derived by hand from the rule text
//! (`shared/rules/`). Square geometry used in the derivations: 1 = b8 … 32 = g1; from an even row
//! (1–4, 9–12, 17–20, 25–28) the squares below are +4 and +5, from an odd row (5–8, 13–16, 21–24,
//! 29–32) they are +3 and +4.

use crown_core::{
    CountRule, DrawReason, DrawRules, Game, MoveKind, Outcome, Position, PositionError, Variant,
    WinReason,
};
use std::collections::BTreeSet;

fn moves(variant: Variant, fen: &str) -> BTreeSet<String> {
    let pos = Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    pos.legal_moves().iter().map(|m| pos.move_text(m)).collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------- American checkers

#[test]
fn american_rule_5_1_men_step_forward_kings_step_both_ways() {
    // Black man on 14 (c5) steps down to 17 or 18; never back to 9 or 10.
    assert_eq!(
        moves(Variant::American, "B:W32:B14"),
        set(&["14-17", "14-18"])
    );
    // White men move up: 18 (d4) to 14 or 15.
    assert_eq!(
        moves(Variant::American, "W:W18:B1"),
        set(&["18-14", "18-15"])
    );
    // Rule 8: a king steps one square in all four directions.
    assert_eq!(
        moves(Variant::American, "B:W32:BK14"),
        set(&["14-9", "14-10", "14-17", "14-18"])
    );
}

#[test]
fn american_rule_6_capture_is_compulsory_and_men_jump_forward_only() {
    // Black man 14 can jump 18 (landing 23); 10 is behind it, and men jump forward only (rule 5.2),
    // so 14x7 is not legal; the simple moves are not legal because a jump exists (rule 6).
    assert_eq!(moves(Variant::American, "B:W10,18:B14"), set(&["14x23"]));
}

#[test]
fn american_rule_6_any_sequence_may_be_chosen_and_must_be_completed() {
    // 14x23x32 takes two pieces (18, 27), 12x19 takes one (16): either may be chosen, and the double
    // jump may not stop at 23.
    let pos = Position::from_fen(Variant::American, "B:W16,18,27:B12,14").unwrap();
    let list = pos.legal_moves();
    let texts: BTreeSet<String> = list.iter().map(|m| pos.move_text(m)).collect();
    assert_eq!(texts, set(&["12x19", "14x32"]));
    let double = list.iter().find(|m| m.from().number() == 14).unwrap();
    assert_eq!(
        double.path().map(|s| s.number()).collect::<Vec<_>>(),
        vec![23, 32]
    );
    assert_eq!(
        double
            .captures()
            .iter()
            .map(|s| s.number())
            .collect::<Vec<_>>(),
        vec![18, 27]
    );
    assert!(
        double.is_promotion(),
        "rule 7: landing on 32 crowns the black man"
    );
}

#[test]
fn american_rule_7_crowning_ends_the_move() {
    // Black man 22 jumps 26 and lands on 31 (king row). As a king it could jump 27 to 24, but
    // crowning ends the turn.
    let pos = Position::from_fen(Variant::American, "B:W26,27:B22").unwrap();
    let list = pos.legal_moves();
    assert_eq!(list.len(), 1);
    assert_eq!(pos.move_text(&list[0]), "22x31");
    assert!(list[0].is_promotion());
    let after = pos.after(&list[0]);
    assert_eq!(after.to_fen(), "W:W27:BK31");
}

#[test]
fn american_rule_8_same_pieces_in_another_order_is_one_move() {
    // The windmill: the white king on 17 can take the four men in two orders ending on 17.
    // perft.json: 1 move (distinct), 2 paths.
    let pos = Position::from_fen(Variant::American, "W:WK17,32:B4,14,15,22,23").unwrap();
    assert_eq!(pos.legal_moves().len(), 1);
    let mut paths = crown_core::MoveList::new();
    pos.legal_move_paths_into(&mut paths);
    assert_eq!(paths.len(), 2);
}

#[test]
fn american_rules_4_and_9_no_move_or_no_piece_loses() {
    // White man on 29 can only go to 25 (black) and cannot jump it: 22 behind is occupied.
    let game = Game::from_position(Position::from_fen(Variant::American, "W:W29:B22,25").unwrap());
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: crown_core::Color::Black,
            reason: WinReason::NoLegalMove
        })
    );
    let game = Game::from_position(Position::from_fen(Variant::American, "W:W:B1").unwrap());
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: crown_core::Color::Black,
            reason: WinReason::NoPiecesLeft
        })
    );
}

#[test]
fn ambiguous_short_capture_is_written_with_its_path() {
    // Issue 3's example: 10x26 can take 14 and 22 (via 17) or 15 and 23 (via 19).
    let fen = "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13";
    let texts = moves(Variant::American, fen);
    assert!(texts.contains("10x17x26") && texts.contains("10x19x26"));
    let pos = Position::from_fen(Variant::American, fen).unwrap();
    let err = pos.parse_move("10x26").unwrap_err().to_string();
    assert_eq!(err, "ambiguous move '10x26': it fits 10x17x26, 10x19x26");
    assert_eq!(
        pos.parse_move("10x17x26")
            .unwrap()
            .captures()
            .iter()
            .map(|s| s.number())
            .collect::<Vec<_>>(),
        vec![14, 22]
    );
}

// ---------------------------------------------------------------- American pool checkers

#[test]
fn pool_rule_14_men_capture_backward_but_step_forward_only() {
    // Same board as the American test: the pool man also takes 10 backward, landing on 7.
    assert_eq!(
        moves(Variant::Pool, "B:W10,18:B14"),
        set(&["14x7", "14x23"])
    );
    assert_eq!(moves(Variant::Pool, "B:W32:B14"), set(&["14-17", "14-18"]));
}

#[test]
fn pool_rule_15_kings_fly_along_free_diagonals() {
    // King on 1 (b8): 5 on one diagonal, 6 10 15 19 24 28 on the long one.
    assert_eq!(
        moves(Variant::Pool, "B:W32:BK1"),
        set(&["1-5", "1-6", "1-10", "1-15", "1-19", "1-24", "1-28"])
    );
    assert_eq!(moves(Variant::American, "B:W32:BK1"), set(&["1-5", "1-6"]));
}

#[test]
fn pool_rule_16_king_lands_where_the_capture_continues() {
    // King on 1 takes 10 and may land on 15, 19, 24 or 28; only from 19 can it take 23 (landing 26
    // or 30), so it must land on 19 and continue.
    assert_eq!(moves(Variant::Pool, "B:W10,23:BK1"), set(&["1x26", "1x30"]));
    // Without the second piece every landing square is allowed.
    assert_eq!(
        moves(Variant::Pool, "B:W10:BK1"),
        set(&["1x15", "1x19", "1x24", "1x28"])
    );
}

#[test]
fn pool_rules_23_24_a_man_passing_the_king_row_continues_as_a_man() {
    // Black man 22 takes 26 and lands on 31 (king row); it must go on taking 27 backward (as a man),
    // ending on 24 uncrowned. American rule 7 stops it on 31 instead (see above).
    let pos = Position::from_fen(Variant::Pool, "B:W26,27:B22").unwrap();
    let list = pos.legal_moves();
    assert_eq!(list.len(), 1);
    assert_eq!(
        list[0].path().map(|s| s.number()).collect::<Vec<_>>(),
        vec![31, 24]
    );
    assert!(!list[0].is_promotion());
    assert_eq!(pos.after(&list[0]).to_fen(), "W:W:B24");
}

#[test]
fn pool_rule_28_thirteen_count() {
    // Three kings against a lone king: once claimed, the lone king's 13th move draws.
    let pos = Position::from_fen(Variant::Pool, "B:WK5,K13,K21:BK32").unwrap();
    let mut game = Game::from_position(pos);
    game.set_draw_rules(DrawRules {
        repetition: false,
        forty_moves: false,
    });
    assert!(game
        .claim_count(crown_core::Color::White, CountRule::Thirteen)
        .is_err());
    game.claim_count(crown_core::Color::Black, CountRule::Thirteen)
        .unwrap();
    for i in 0..13 {
        assert_eq!(game.outcome(), None, "black move {i}");
        game.play_text(if i % 2 == 0 { "32-28" } else { "28-32" })
            .unwrap();
        if i < 12 {
            game.play_text(if i % 2 == 0 { "21-25" } else { "25-21" })
                .unwrap();
        }
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::ThirteenCount
        })
    );
}

// ---------------------------------------------------------------- draw rules (Crown defaults)

#[test]
fn threefold_repetition_draws() {
    let mut game =
        Game::from_position(Position::from_fen(Variant::American, "B:WK32:BK1").unwrap());
    let cycle = ["1-6", "32-27", "6-1", "27-32"];
    for (i, mv) in cycle.iter().chain(cycle.iter()).enumerate() {
        assert_eq!(game.outcome(), None, "ply {i}");
        game.play_text(mv).unwrap();
    }
    // The start position has now occurred three times with Black to move.
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::Repetition
        })
    );
    game.set_draw_rules(DrawRules {
        repetition: false,
        forty_moves: true,
    });
    assert_eq!(game.outcome(), None);
}

#[test]
fn forty_moves_without_capture_or_man_move_draw() {
    let mut game =
        Game::from_position(Position::from_fen(Variant::American, "B:WK32:BK1").unwrap());
    game.set_draw_rules(DrawRules {
        repetition: false,
        forty_moves: true,
    });
    let cycle = ["1-6", "32-27", "6-1", "27-32"];
    for i in 0..80 {
        assert_eq!(game.outcome(), None, "ply {i}");
        game.play_text(cycle[i % 4]).unwrap();
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::FortyMoveRule
        })
    );
    // Undo takes the draw back.
    game.undo();
    assert_eq!(game.outcome(), None);
}

// ---------------------------------------------------------------- Impasse

#[test]
fn impasse_single_slides_forward_any_distance() {
    // White single on 22 (c3): up-left 17, 13; up-right 18, 15, 11, 8, 4. Reaching 4 (White's
    // furthest row) with no other single, it waits uncrowned.
    assert_eq!(
        moves(Variant::Impasse, "W:W22:B1"),
        set(&["22-17", "22-13", "22-18", "22-15", "22-11", "22-8", "22-4"])
    );
}

#[test]
fn impasse_crown_with_another_single() {
    // With a second single on 30, sliding to 4 must be crowned by it: 22-4=30.
    let pos = Position::from_fen(Variant::Impasse, "W:W22,30:B1").unwrap();
    let texts: BTreeSet<String> = pos.legal_moves().iter().map(|m| pos.move_text(m)).collect();
    assert!(texts.contains("22-4=30"));
    assert!(!texts.contains("22-4"));
    // 22: 6 other slides; 30: 25, 21 and 26, 23, 19, 16, 12.
    assert_eq!(texts.len(), 14);
    let mv = pos.parse_move("22-4").unwrap(); // only one crown is possible: the short form is accepted
    assert_eq!(
        mv.crown().map(|(a, b)| (a.number(), b.number())),
        Some((30, 4))
    );
    assert_eq!(pos.after(&mv).to_fen(), "B:WK4:B1");
}

#[test]
fn impasse_double_slides_backward_and_bears_off() {
    // White double on 26 (d2) slides toward White's nearest row (29–32) and must bear off there.
    assert_eq!(
        moves(Variant::Impasse, "W:WK26:B1"),
        set(&["26-30+", "26-31+"])
    );
    let pos = Position::from_fen(Variant::Impasse, "W:WK26:B1").unwrap();
    let mv = pos.parse_move("26-30").unwrap();
    assert!(mv.bears_off());
    assert_eq!(pos.after(&mv).to_fen(), "B:W30:B1");
}

#[test]
fn impasse_transpose() {
    // Double on 18 (d4), single on 22 (c3) one row nearer and adjacent: 18>22 moves the top checker.
    assert_eq!(
        moves(Variant::Impasse, "W:WK18,22:B1"),
        set(&["18>22", "18-23", "18-27", "18-32+", "22-17", "22-13"])
    );
    let pos = Position::from_fen(Variant::Impasse, "W:WK18,22:B1").unwrap();
    let mv = pos.parse_move("18>22").unwrap();
    assert_eq!(mv.kind(), MoveKind::Transpose);
    assert_eq!(pos.after(&mv).to_fen(), "B:W18,K22:B1");
}

#[test]
fn impasse_removal_and_win() {
    // White's only checker waits on its furthest row: no basic move, so White must remove it, and
    // removing the last checker wins.
    let pos = Position::from_fen(Variant::Impasse, "W:W4:B29").unwrap();
    assert_eq!(moves(Variant::Impasse, "W:W4:B29"), set(&["x4"]));
    let mut game = Game::from_position(pos);
    game.play_text("x4").unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: crown_core::Color::White,
            reason: WinReason::AllCheckersRemoved
        })
    );
    assert!(game.legal_moves().is_empty());
}

#[test]
fn impasse_two_singles_on_the_furthest_row() {
    // White: waiting single on 4, double on 1 blocked by black singles on 5 and 6 → impasse.
    // Removing the top of the double leaves two singles on the furthest row: stack either onto the other.
    assert_eq!(
        moves(Variant::Impasse, "W:WK1,4:B5,6"),
        set(&["x4", "x1=1", "x1=4"])
    );
}

#[test]
fn impasse_bear_off_crowns_the_waiting_single() {
    // The waiting single on 4 is crowned by the single that the bear-off leaves on 30 or 31.
    assert_eq!(
        moves(Variant::Impasse, "W:W4,K26:B1"),
        set(&["26-30+=30", "26-31+=31"])
    );
    let pos = Position::from_fen(Variant::Impasse, "W:W4,K26:B1").unwrap();
    assert_eq!(
        pos.after(&pos.parse_move("26-30+").unwrap()).to_fen(),
        "B:WK4:B1"
    );
}

#[test]
fn impasse_positions_that_cannot_arise_are_rejected() {
    let err = |fen: &str| Position::from_fen(Variant::Impasse, fen).unwrap_err();
    assert!(matches!(
        err("W:WK30:B1"),
        PositionError::DoubleOnNearestRow { .. }
    ));
    assert!(matches!(
        err("W:W4,22:B1"),
        PositionError::UncrownedSingle { .. }
    ));
    assert!(matches!(
        err("W:W:B1"),
        PositionError::MoverHasNoCheckers { .. }
    ));
    assert_eq!(
        err("W:W4,22:B1").to_string(),
        "White single on square 4 stands on its furthest row beside another single on 22; it would have been crowned"
    );
    // Checkers: a man on its crowning row.
    assert!(matches!(
        Position::from_fen(Variant::American, "B:W1:B5").unwrap_err(),
        PositionError::ManOnKingRow { .. }
    ));
}

#[test]
fn impasse_first_player_is_white_and_checkers_first_player_is_black() {
    assert_eq!(
        Position::new(Variant::Impasse).side_to_move(),
        crown_core::Color::White
    );
    assert_eq!(
        Position::new(Variant::American).side_to_move(),
        crown_core::Color::Black
    );
    assert_eq!(
        Position::new(Variant::Pool).side_to_move(),
        crown_core::Color::Black
    );
}

#[test]
fn pool_rules_18_19_captured_pieces_block_until_the_move_ends() {
    // White king on 29 takes 22 and may land on 18 (then takes 9, ending on 5) or on 15 (then takes
    // 10, lands on 6, takes 9 and lands on 13). From 13 the man on 17 cannot be taken: the square
    // behind it, 22, still holds the captured piece (rule 18: captured pieces stay until the jump is
    // completed).
    assert_eq!(
        moves(Variant::Pool, "W:WK29:B9,10,17,22"),
        set(&["29x5", "29x13"])
    );
}

#[test]
fn pool_rule_27_thirty_eight_count() {
    // Black (one king, 2 points) is weaker than White (two kings, 4 points) and claims the count.
    let pos = Position::from_fen(Variant::Pool, "B:WK5,K13:BK32").unwrap();
    let mut game = Game::from_position(pos);
    game.set_draw_rules(DrawRules {
        repetition: false,
        forty_moves: false,
    });
    assert!(game
        .claim_count(crown_core::Color::White, CountRule::ThirtyEight)
        .is_err());
    game.claim_count(crown_core::Color::Black, CountRule::ThirtyEight)
        .unwrap();
    for i in 0..38 {
        assert_eq!(game.outcome(), None, "black move {i}");
        game.play_text(if i % 2 == 0 { "32-28" } else { "28-32" })
            .unwrap();
        if i < 37 {
            game.play_text(if i % 2 == 0 { "13-9" } else { "9-13" })
                .unwrap();
        }
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::ThirtyEightCount
        })
    );
}

#[test]
fn the_claimable_count_follows_apca_rules_27_and_28() {
    use crown_core::Color::{Black, White};
    let game = |variant, fen| Game::from_position(Position::from_fen(variant, fen).unwrap());
    // Rule 28: four pieces, all kings, three against one: the lone king's side claims the 13 count.
    let g = game(Variant::Pool, "B:WK5,K13,K21:BK32");
    assert_eq!(g.claimable_count(Black), Some(CountRule::Thirteen));
    assert_eq!(
        g.claimable_count(White),
        None,
        "the stronger side has nothing to claim"
    );
    // Three men against a king: not all kings, so rule 27 (1+1+1 = 3 points against 2).
    let g = game(Variant::Pool, "B:W5,13,21:BK32");
    assert_eq!(g.claimable_count(Black), Some(CountRule::ThirtyEight));
    // Equal points (a king against two men): neither side is weaker.
    let g = game(Variant::Pool, "B:W5,13:BK32");
    assert_eq!(
        (g.claimable_count(Black), g.claimable_count(White)),
        (None, None)
    );
    // The counts are pool rules only.
    let g = game(Variant::American, "B:WK5,K13,K21:BK32");
    assert_eq!(g.claimable_count(Black), None);
    // Nothing more to claim while a count runs.
    let mut g = game(Variant::Pool, "B:WK5,K13:BK32");
    assert_eq!(g.claimable_count(Black), Some(CountRule::ThirtyEight));
    g.claim_count(Black, CountRule::ThirtyEight).unwrap();
    assert_eq!(g.claimable_count(Black), None);
}

#[test]
fn move_text_with_the_end_square_repeated_is_illegal() {
    let pos = Position::from_fen(Variant::Pool, "B:W10,23:BK1").unwrap();
    assert!(matches!(
        pos.parse_move("1x26x26"),
        Err(crown_core::MoveError::Illegal { .. })
    ));
    assert_eq!(pos.parse_move("1x19x26").unwrap().to().number(), 26);
}

#[test]
fn overlapping_setup_squares_are_rejected() {
    let mut setup = crown_core::Setup::from_fen("W:W14:B18").unwrap();
    setup.men[crown_core::Color::White.index()].insert(crown_core::Square::new(18).unwrap());
    assert_eq!(
        Position::from_setup(Variant::American, &setup).unwrap_err(),
        PositionError::SquareTwice {
            square: crown_core::Square::new(18).unwrap()
        }
    );
}

#[test]
fn perft_of_a_finished_game_at_any_depth_is_zero() {
    let pos = Position::from_fen(Variant::American, "W:W29:B22,25").unwrap();
    assert_eq!(
        crown_core::perft(&pos, 1_000_000, crown_core::PerftConvention::Distinct),
        0
    );
}

#[test]
fn a_side_with_no_pieces_has_lost_even_when_not_to_move() {
    // American rule 9 / APCA rule 26: White to move, Black has no pieces left: Black has lost.
    let pos = Position::from_fen(Variant::American, "W:W18:B").unwrap();
    assert_eq!(pos.winner(), Some(crown_core::Color::White));
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        Game::from_position(pos).outcome(),
        Some(Outcome::Win {
            winner: crown_core::Color::White,
            reason: WinReason::NoPiecesLeft
        })
    );
}

/// Found by the `fen` fuzz target: a pool man's single jump 19x12 (men capture backward in pool) and its loop 19x26x17x10x19x12
/// share start and end; `move_text` of each must read back as that move (the single jump's text
/// `19x12` spells its whole path, so it names it).
#[test]
fn pool_capture_loop_and_single_jump_read_back() {
    let pos = Position::from_fen(Variant::Pool, "B:W14,15,16,21,22,23,30:B6,7,8,19,11,13").unwrap();
    let moves = pos.legal_moves();
    let from_19: Vec<_> = moves.iter().filter(|m| m.from().number() == 19).collect();
    assert!(from_19.len() >= 2, "{from_19:?}");
    for m in moves.iter() {
        assert_eq!(
            pos.parse_move(&pos.move_text(m)).as_ref(),
            Ok(m),
            "{}",
            pos.move_text(m)
        );
    }
}

//! Positions with a forced win derived by hand from the rules (each checked with `crown moves` and
//! `crown apply`): the engine must find the winning move at a modest depth.

use crown_ai::{Clock, Engine, EngineOptions, Limits, Score, SearchResult, SearchTweaks};
use crown_core::{Game, Position, Variant};
use std::sync::atomic::{AtomicBool, Ordering};

fn search(
    variant: Variant,
    fen: &str,
    limits: Limits,
    options: EngineOptions,
) -> (Position, SearchResult) {
    let pos = Position::from_fen(variant, fen).unwrap();
    let game = Game::from_position(pos);
    let mut engine = Engine::new(options);
    let stop = AtomicBool::new(false);
    let result = engine.search(&game, &limits, &stop, &mut |_| {});
    (pos, result)
}

fn small() -> EngineOptions {
    EngineOptions {
        hash_mib: 4,
        threads: 1,
        level: None,
    }
}

/// American two-for-one shot. Black 11-15 offers a man; White's only legal move is 18x11 (19 cannot
/// take toward 10, which is occupied), and Black answers 8x24, taking 11 and 19. Material goes from
/// 5 v 5 to 4 v 3.
#[test]
fn american_two_for_one_shot() {
    let (pos, r) = search(
        Variant::American,
        "B:W18,19,25,29,30:B1,4,8,10,11",
        Limits::depth(6),
        small(),
    );
    let mv = r.best_move.unwrap();
    assert_eq!(pos.move_text(&mv), "11-15");
    assert!(r.score.as_centi() >= 60, "score {}", r.score);
    let pv: Vec<String> = {
        let mut p = pos;
        r.pv.iter()
            .take(3)
            .map(|m| {
                let t = p.move_text(m);
                p.play(m);
                t
            })
            .collect()
    };
    assert_eq!(pv, ["11-15", "18x11", "8x24"]);
}

/// Pool king trap. The White king on 4 (h8) has one diagonal, through Black's man on 8. After 7-11
/// the square behind 8 is taken, so the king can neither move nor jump; White's man on 32 is blocked
/// by 27 and 28 (its jump over 27 lands on 23, occupied). White has no legal move and loses
/// (APCA rule 26): a win in one ply, and no other Black move wins at once.
#[test]
fn pool_king_trap() {
    let fen = "B:WK4,32:B7,8,23,27,28";
    let (pos, r) = search(Variant::Pool, fen, Limits::depth(4), small());
    assert_eq!(pos.move_text(&r.best_move.unwrap()), "7-11");
    assert_eq!(r.score, Score::Win(1));
}

/// Impasse race won by one tempo. White's lone single on 14 reaches its furthest row in one slide
/// (14-3); it is then at an impasse and removes it next turn. Black's single needs the same two turns
/// (19-30, then removal) but White moves first: W 14-3, B 19-30, W x3 wins in 3 plies. Any other
/// White slide (14-5, 14-9, 14-7, 14-10) needs a second slide and Black removes first.
#[test]
fn impasse_race_won_by_one_tempo() {
    let (pos, r) = search(Variant::Impasse, "W:W14:B19", Limits::depth(6), small());
    assert_eq!(pos.move_text(&r.best_move.unwrap()), "14-3");
    assert_eq!(r.score, Score::Win(3));
    // The losing alternative is seen as lost.
    let (_, r2) = search(Variant::Impasse, "B:W5:B19", Limits::depth(6), small());
    assert_eq!(r2.score, Score::Win(3));
}

/// The search switches (history malus, reverse futility, futility) never lose these tactics: every
/// combination still finds the two-for-one shot, the pool king trap and the Impasse race.
#[test]
fn search_switches_keep_the_tactics() {
    let cases: [(Variant, &str, &str, u32); 3] = [
        (
            Variant::American,
            "B:W18,19,25,29,30:B1,4,8,10,11",
            "11-15",
            6,
        ),
        (Variant::Pool, "B:WK4,32:B7,8,23,27,28", "7-11", 4),
        (Variant::Impasse, "W:W14:B19", "14-3", 6),
    ];
    let stop = AtomicBool::new(false);
    for bits in 0..8u8 {
        let tweaks = SearchTweaks {
            history_malus: Some(bits & 1 != 0),
            reverse_futility: Some(bits & 2 != 0),
            futility: Some(bits & 4 != 0),
            ..SearchTweaks::default()
        };
        for (variant, fen, best, depth) in cases {
            let pos = Position::from_fen(variant, fen).unwrap();
            let mut engine = Engine::new(small());
            engine.set_tweaks(tweaks);
            let r = engine.search(
                &Game::from_position(pos),
                &Limits::depth(depth),
                &stop,
                &mut |_| {},
            );
            assert_eq!(
                pos.move_text(&r.best_move.unwrap()),
                best,
                "{fen} {tweaks:?}"
            );
        }
    }
}

/// Every other search switch (each of `SearchTweaks::KEYS` set away from its default, alone, at
/// depths two plies above those of the test before, so the reductions and pruning have room)
/// keeps these tactics too, and the search stays deterministic with it.
#[test]
fn each_search_switch_keeps_the_tactics() {
    let cases: [(Variant, &str, &str, u32); 3] = [
        (
            Variant::American,
            "B:W18,19,25,29,30:B1,4,8,10,11",
            "11-15",
            8,
        ),
        (Variant::Pool, "B:WK4,32:B7,8,23,27,28", "7-11", 6),
        (Variant::Impasse, "W:W14:B19", "14-3", 8),
    ];
    // Each alone, but the margins of a pruning with the pruning on.
    let settings: [&[(&str, u64)]; 21] = [
        &[("malus", 0)],
        &[("rfp", 1)],
        &[("rfp", 1), ("rfpm", 40)],
        &[("rfp", 1), ("rfpd", 6)],
        &[("futility", 1)],
        &[("lmr", 1)],
        &[("lmr", 2)],
        &[("trunc", 100)],
        &[("threat", 0)],
        &[("tmargin", 60)],
        &[("ext", 0)],
        &[("ext", 2)],
        &[("truncd", 6)],
        &[("iir", 1)],
        &[("asp", 10)],
        &[("probcut", 1)],
        &[("mc", 1)],
        &[("lmp", 1)],
        &[("etc", 1)],
        &[("cq", 1)],
        &[("cq", 2)],
    ];
    let keys: std::collections::BTreeSet<&str> = settings
        .iter()
        .flat_map(|s| s.iter().map(|(k, _)| *k))
        .collect();
    assert_eq!(
        keys.len(),
        SearchTweaks::KEYS.len(),
        "a switch of SearchTweaks::KEYS is missing here"
    );
    let stop = AtomicBool::new(false);
    for setting in settings {
        let mut tweaks = SearchTweaks::default();
        for &(key, value) in setting {
            tweaks.set(key, value).unwrap();
        }
        for (variant, fen, best, depth) in cases {
            let pos = Position::from_fen(variant, fen).unwrap();
            let run = || {
                let mut engine = Engine::new(small());
                engine.set_tweaks(tweaks);
                engine.search(
                    &Game::from_position(pos),
                    &Limits::depth(depth),
                    &stop,
                    &mut |_| {},
                )
            };
            let (a, b) = (run(), run());
            assert_eq!(
                pos.move_text(&a.best_move.unwrap()),
                best,
                "{fen} {setting:?}"
            );
            assert_eq!((a.score, a.nodes), (b.score, b.nodes), "{fen} {setting:?}");
        }
    }
}

/// `SearchTweaks::set` takes each key of `SearchTweaks::KEYS` within its range and refuses an
/// unknown key or a value outside the range, naming both.
#[test]
fn search_switch_keys_and_ranges() {
    for &(key, lo, hi) in SearchTweaks::KEYS {
        let mut t = SearchTweaks::default();
        t.set(key, lo).unwrap();
        t.set(key, hi).unwrap();
        assert_ne!(t, SearchTweaks::default(), "{key}");
        let e = t.set(key, hi + 1).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{key} {} is not {lo} to {hi}", hi + 1)
        );
    }
    let mut t = SearchTweaks::default();
    t.set("lmr", 2).unwrap();
    t.set("trunc", 110).unwrap();
    t.set("asp", 15).unwrap();
    assert_eq!(
        t,
        SearchTweaks {
            lmr: Some(2),
            truncation: Some(110),
            aspiration: Some(15),
            ..SearchTweaks::default()
        }
    );
    assert_eq!(
        SearchTweaks::default()
            .set("speed", 1)
            .unwrap_err()
            .to_string(),
        "unknown search switch 'speed'"
    );
    assert!(SearchTweaks::default().set("asp", 4).is_err());
}

/// The low levels choose randomly among good moves but never miss a win in one.
#[test]
fn level_one_never_misses_a_win_in_one() {
    let pos = Position::from_fen(Variant::Pool, "B:WK4,32:B7,8,23,27,28").unwrap();
    let game = Game::from_position(pos);
    let stop = AtomicBool::new(false);
    for seed in 0..20 {
        let mut engine = Engine::new(EngineOptions {
            hash_mib: 1,
            threads: 1,
            level: Some(1),
        });
        engine.set_seed(seed);
        let r = engine.search(&game, &Limits::level(1), &stop, &mut |_| {});
        assert_eq!(pos.move_text(&r.best_move.unwrap()), "7-11", "seed {seed}");
    }
}

/// Every casual level with randomness (1–6) takes a short forced win, at every seed, even beyond its
/// depth cap (levels 1–5 first look 7 plies ahead for a forced win). American: Black's 21-25
/// leaves White's man on 29 without a move (25 is taken and the jump over it lands on 22, taken
/// too), a win in one; the other three moves (5-9, 22-25, 22-26) do not win (after 22-25 White
/// jumps 29x22). Impasse: White's single on 14 wins the race in 3 plies only by 14-3 (see
/// `impasse_race_won_by_one_tempo`). Pool (found by a reviewer at level 1): Black's flying king
/// 31-22 leaves White's man on 12 only 12-8, and 22x4 takes it along the diagonal 22-18-15-11-8-4:
/// a win in 3 plies (APCA rules 15 and 16: a king moves and captures along the whole diagonal);
/// a 1-ply search does not see it.
#[test]
fn low_levels_never_miss_a_forced_win() {
    let cases: [(Variant, &str, &str, u8, Score); 3] = [
        (
            Variant::American,
            "B:W29:B21,22,5",
            "21-25",
            1,
            Score::Win(1),
        ),
        (Variant::Impasse, "W:W14:B19", "14-3", 1, Score::Win(3)),
        (
            Variant::Pool,
            "B:W12:B1,28,K31,17",
            "31-22",
            1,
            Score::Win(3),
        ),
    ];
    let stop = AtomicBool::new(false);
    for (variant, fen, winning, lowest, score) in cases {
        let pos = Position::from_fen(variant, fen).unwrap();
        let game = Game::from_position(pos);
        for level in lowest..=6 {
            for seed in 0..10 {
                let mut engine = Engine::new(EngineOptions {
                    hash_mib: 1,
                    threads: 1,
                    level: Some(level),
                });
                engine.set_seed(seed * 7919 + 1);
                let r = engine.search(&game, &Limits::level(level), &stop, &mut |_| {});
                let mv = pos.move_text(&r.best_move.unwrap());
                assert_eq!(mv, winning, "{fen} level {level} seed {seed}");
                assert_eq!(r.score, score, "{fen} level {level} seed {seed}");
            }
        }
    }
}

/// The low levels do vary their play in the opening (the randomness is real).
#[test]
fn level_one_varies() {
    let game = Game::new(Variant::American);
    let stop = AtomicBool::new(false);
    let mut seen = std::collections::HashSet::new();
    for seed in 0..20 {
        let mut engine = Engine::new(EngineOptions {
            hash_mib: 1,
            threads: 1,
            level: Some(1),
        });
        engine.set_seed(seed * 7919 + 1);
        let r = engine.search(&game, &Limits::level(1), &stop, &mut |_| {});
        seen.insert(r.best_move.unwrap());
    }
    assert!(seen.len() >= 2);
}

/// Fixed depth with one thread gives the same move, score and node count every time.
#[test]
fn fixed_depth_is_deterministic() {
    let run = || {
        search(
            Variant::American,
            "B:W21-32:B1-12",
            Limits::depth(7),
            small(),
        )
        .1
    };
    let a = run();
    let b = run();
    assert_eq!(a.best_move, b.best_move);
    assert_eq!(a.score, b.score);
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.depth, 7);
}

/// A stop flag set before the search still yields a legal move (depth 1 always completes).
#[test]
fn stop_flag_still_gives_a_move() {
    let game = Game::new(Variant::Pool);
    let stop = AtomicBool::new(true);
    let mut engine = Engine::new(small());
    let r = engine.search(
        &game,
        &Limits {
            infinite: true,
            ..Limits::default()
        },
        &stop,
        &mut |_| {},
    );
    assert!(game.position().is_legal(&r.best_move.unwrap()));
    assert!(stop.load(Ordering::Relaxed));
}

/// A finished game has no best move; the side to move has lost.
#[test]
fn game_over_has_no_move() {
    let (_, r) = search(Variant::American, "W:W:B1", Limits::depth(3), small());
    assert_eq!(r.best_move, None);
    assert_eq!(r.score, Score::Loss(0));
}

/// With two threads the search still returns a legal move and completes the depth.
#[test]
fn lazy_smp_returns_legal_move() {
    let (pos, r) = search(
        Variant::Impasse,
        Variant::Impasse.start_fen(),
        Limits::depth(6),
        EngineOptions {
            hash_mib: 4,
            threads: 2,
            level: None,
        },
    );
    assert!(pos.is_legal(&r.best_move.unwrap()));
    assert!(r.depth >= 6);
}

/// A clock search stays well inside the time allotted from 1 s + 0.1 s.
#[test]
fn clock_search_is_quick() {
    let limits = Limits {
        clock: Some(Clock {
            remaining_ms: 1000,
            increment_ms: 100,
        }),
        ..Limits::default()
    };
    let (_, r) = search(Variant::American, "B:W21-32:B1-12", limits, small());
    assert!(r.time_ms < 500, "{} ms", r.time_ms);
}

/// Repetition awareness from the game history: Black's lone king against two kings (a lost ending)
/// escapes with 5-1, which repeats a position for the third time; the game rules then declare a
/// draw, and the engine, seeing the history, prefers it to 5-9.
#[test]
fn repetition_from_game_history_is_taken_as_a_draw() {
    // White to move at the start, so Black's 5-1 recreates it for the third time after 8 plies.
    let start = Position::from_fen(Variant::American, "W:WK28,K31:BK1").unwrap();
    let mut game = Game::from_position(start);
    for m in ["28-32", "1-5", "32-28", "5-1", "28-32", "1-5", "32-28"] {
        game.play_text(m).unwrap();
    }
    assert!(game.outcome().is_none());
    let mut engine = Engine::new(small());
    let stop = AtomicBool::new(false);
    let r = engine.search(&game, &Limits::depth(8), &stop, &mut |_| {});
    let mv = r.best_move.unwrap();
    assert_eq!(game.position().move_text(&mv), "5-1");
    assert_eq!(r.score, Score::Value(0));
    game.play(&mv).unwrap();
    assert!(matches!(
        game.outcome(),
        Some(crown_core::Outcome::Draw {
            reason: crown_core::DrawReason::Repetition
        })
    ));
}

/// The switches' defaults per game: the history malus and the history-adjusted late-move
/// reductions (`lmr=1`) are on in American and pool checkers and off in Impasse, the material
/// truncation (`trunc=100`) is on in American checkers only (docs/engine.md, SPRT results), the
/// other switches as documented on `SearchTweaks`. A default engine searches exactly like one given
/// those settings explicitly (same node count at a fixed depth).
#[test]
fn search_switch_defaults_per_game() {
    let stop = AtomicBool::new(false);
    let nodes = |variant: Variant, tweaks: SearchTweaks| {
        let mut engine = Engine::new(small());
        engine.set_tweaks(tweaks);
        let game = Game::new(variant);
        engine
            .search(&game, &Limits::depth(7), &stop, &mut |_| {})
            .nodes
    };
    for (variant, malus, lmr, truncation, (rfp, rfp_margin, probcut)) in [
        (Variant::American, true, 1, 100, (true, 50, true)),
        (Variant::Pool, true, 1, 0, (false, 80, false)),
        (Variant::Impasse, false, 0, 0, (false, 80, false)),
    ] {
        let explicit = SearchTweaks {
            history_malus: Some(malus),
            reverse_futility: Some(rfp),
            rfp_margin: Some(rfp_margin),
            rfp_depth: Some(3),
            futility: Some(false),
            lmr: Some(lmr),
            truncation: Some(truncation),
            threat_extension: Some(true),
            threat_margin: Some(0),
            truncation_depth: Some(4),
            single_reply: Some(1),
            iir: Some(false),
            aspiration: Some(30),
            probcut: Some(probcut),
            multicut: Some(false),
            lmp: Some(false),
            etc: Some(false),
            crown_quiescence: Some(0),
        };
        assert_eq!(
            nodes(variant, SearchTweaks::default()),
            nodes(variant, explicit),
            "{variant:?}"
        );
    }
}

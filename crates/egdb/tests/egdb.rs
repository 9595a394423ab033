//! crown-egdb against published numbers and endings, the rules, and damaged files.
//!
//! The databases are built once per test binary (American and pool up to 4 pieces, Impasse up to
//! 4 checkers) into temporary directories and verified.

use crown_core::{Color, Position, Variant};
use crown_egdb::{build, verify, BuildOptions, ClassIndex, EgdbError, Material, Tablebase, Wdl};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The directory holding `variant` built up to `pieces`, built and verified on first use. The
/// temporary directories live as long as the test binary.
fn built(variant: Variant, pieces: u32) -> PathBuf {
    type Built = Vec<(Variant, u32, tempfile::TempDir)>;
    static DIRS: OnceLock<Mutex<Built>> = OnceLock::new();
    let dirs = DIRS.get_or_init(Default::default);
    let mut dirs = dirs.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, _, d)) = dirs.iter().find(|(v, p, _)| *v == variant && *p == pieces) {
        return d.path().to_path_buf();
    }
    let dir = tempfile::tempdir().unwrap();
    let opts = BuildOptions {
        variant,
        pieces,
        dir: dir.path().to_path_buf(),
        threads: None,
    };
    build(&opts, &()).unwrap();
    verify(dir.path(), variant, None, &()).unwrap();
    let p = dir.path().to_path_buf();
    dirs.push((variant, pieces, dir));
    p
}

fn tb(variant: Variant, pieces: u32) -> Tablebase {
    Tablebase::open(&built(variant, pieces)).unwrap()
}

fn probe(tb: &Tablebase, variant: Variant, fen: &str) -> (Wdl, Option<u32>) {
    let p = tb
        .probe(&Position::from_fen(variant, fen).unwrap())
        .unwrap();
    (p.wdl, p.distance)
}

/// OEIS A055213 (Schaeffer et al., "Checkers Is Solved", Science 317, 2007; Chinook "Total Number of
/// Positions"): positions with n pieces on the board, side to move not counted, one-sided boards
/// included (n = 1: 28 squares for a man + 32 for a king, times two colours = 120). Our index stores
/// Black-to-move boards of every material split (White to move is the mirror image), so the index
/// sizes summed over all splits of n pieces must give exactly these numbers.
#[test]
fn index_sizes_sum_to_the_published_position_counts() {
    let a055213: [u64; 12] = [
        120,
        6_972,
        261_224,
        7_092_774,
        148_688_232,
        2_503_611_964,
        34_779_531_480,
        406_309_208_481,
        4_048_627_642_976,
        34_778_882_769_216,
        259_669_578_902_016,
        1_695_618_078_654_976,
    ];
    for (n, &want) in (1u32..).zip(a055213.iter()) {
        let mut total = 0u64;
        for bm in 0..=n.min(12) {
            for bk in 0..=(n - bm).min(12 - bm) {
                for wm in 0..=(n - bm - bk).min(12) {
                    let wk = n - bm - bk - wm;
                    if wm + wk > 12 {
                        continue;
                    }
                    let m = Material {
                        mover_men: bm as u8,
                        mover_kings: bk as u8,
                        other_men: wm as u8,
                        other_kings: wk as u8,
                    };
                    total += ClassIndex::new(Variant::American, m).size();
                }
            }
        }
        assert_eq!(total, want, "{n} pieces");
    }
}

/// First Position, Lasker, "Chess and Checkers: the Way to Mastership" (1918), Diagram 93:
/// White kings 19 and 23, Black king 28 and man 12. "White to Move and Win ... If Black has the move
/// the ending is a draw." The book's first move 23-27 keeps the win.
#[test]
fn american_first_position_is_won_with_the_move_and_drawn_without() {
    let tb = tb(Variant::American, 4);
    let fen = "W:WK19,K23:B12,K28";
    assert_eq!(probe(&tb, Variant::American, fen).0, Wdl::Win);
    let pos = Position::from_fen(Variant::American, fen).unwrap();
    let after = pos.after(&pos.parse_move("23-27").unwrap());
    assert_eq!(tb.probe(&after).unwrap().wdl, Wdl::Loss);
    let (mv, best) = tb.best_move(&pos).unwrap().unwrap();
    assert_eq!(best.wdl, Wdl::Win);
    assert_eq!(tb.probe(&pos.after(&mv)).unwrap().parent(), best);
    assert_eq!(
        probe(&tb, Variant::American, "B:WK19,K23:B12,K28").0,
        Wdl::Draw
    );
    // Lasker: the man may stand on 3, 4, 7, 8, 10, 11, 16, 20 or 24 instead of 12 with the same
    // result, "the essential point is that he must not be able to march to the King row without
    // being intercepted by White". The databases agree for the squares below and find draws with
    // the man on 8 or 24 (docs/egdb.md lists them; not asserted either way).
    for man in [3, 4, 7, 10, 11, 16, 20] {
        let fen = format!("W:WK19,K23:B{man},K28");
        assert_eq!(probe(&tb, Variant::American, &fen).0, Wdl::Win, "{fen}");
    }
}

/// The opposition with one king each, Lasker, "Chess and Checkers: the Way to Mastership" (1918),
/// "Elementary tactics", Diagram 88: White king 32, Black king 26. "White wins by playing 32-27.
/// With this move White takes the opposition ... Whatever Black replies he is forced to the edge
/// of the board and finally he is obliged to let White capture his King. ... If it had been
/// Black's move ... he would have gained the opposition by 26-31 and White would have been
/// compelled to retire to the double corner and to draw." So king against king is not always a
/// draw: who has the move decides.
#[test]
fn american_king_against_king_the_opposition_decides() {
    let tb = tb(Variant::American, 2);
    let pos = Position::from_fen(Variant::American, "W:WK32:BK26").unwrap();
    assert_eq!(tb.probe(&pos).unwrap().wdl, Wdl::Win);
    // The book's move takes the opposition and keeps the win.
    let after = pos.after(&pos.parse_move("32-27").unwrap());
    assert_eq!(tb.probe(&after).unwrap().wdl, Wdl::Loss);
    // Black to move: 26-31 gains the opposition, a draw.
    let pos = Position::from_fen(Variant::American, "B:WK32:BK26").unwrap();
    assert_eq!(tb.probe(&pos).unwrap().wdl, Wdl::Draw);
    let after = pos.after(&pos.parse_move("26-31").unwrap());
    assert_eq!(tb.probe(&after).unwrap().wdl, Wdl::Draw);
}

/// "The move" with three men each, Lasker (1918), Diagram 96: White men 19, 24, 31, Black men 2,
/// 8, 12. The Black system (the ranks starting 1, 9, 17, 25) holds an odd number of men, so "the
/// player whose turn it is to play, has the move, which in the present instance secures the win
/// for White and a draw for Black": White to move wins, Black to move draws (Black's line 8-11,
/// 31-26, 2-6, 26-22, 6-10, 22-18, 11-16, 18-15, "Draw").
///
/// Six pieces: no CI build reaches it. Run with `CROWN_EGDB_DIR` holding American up to six
/// pieces: `CROWN_EGDB_DIR=DIR cargo test -p crown-egdb --test egdb -- --ignored`.
#[test]
#[ignore = "needs American 6-piece databases in CROWN_EGDB_DIR"]
fn american_the_move_with_three_men_each() {
    let dir = std::env::var_os("CROWN_EGDB_DIR").expect("CROWN_EGDB_DIR must be set");
    let tb = Tablebase::open(Path::new(&dir)).unwrap();
    assert!(
        tb.max_pieces(Variant::American) >= 6,
        "{}",
        tb.coverage(Variant::American).unwrap_or_default()
    );
    assert_eq!(
        probe(&tb, Variant::American, "W:W19,24,31:B2,8,12").0,
        Wdl::Win
    );
    assert_eq!(
        probe(&tb, Variant::American, "B:W19,24,31:B2,8,12").0,
        Wdl::Draw
    );
}

/// First Position as the American Checker Federation sets it ("Standard Positions", "Winning 1st
/// Position", acfcheckers.com/std2.html): White king 15 and man 20, Red (Black) king 28 and man 12,
/// White to move wins, the trunk starting 15-19 20-16 16-11 (White crowns the man, then drives the
/// Red king out of the double corner). Black to move it is a draw: Black has the move.
#[test]
fn american_first_position_as_the_acf_sets_it() {
    let tb = tb(Variant::American, 4);
    let pos = Position::from_fen(Variant::American, "W:WK15,20:BK28,12").unwrap();
    assert_eq!(tb.probe(&pos).unwrap().wdl, Wdl::Win);
    // The published first move keeps the win, and after Red's published reply 28-32 White still
    // wins.
    let after = pos.after(&pos.parse_move("15-19").unwrap());
    assert_eq!(tb.probe(&after).unwrap().wdl, Wdl::Loss);
    let after = after.after(&after.parse_move("28-32").unwrap());
    assert_eq!(tb.probe(&after).unwrap().wdl, Wdl::Win);
    assert_eq!(
        probe(&tb, Variant::American, "B:WK15,20:BK28,12").0,
        Wdl::Draw
    );
}

/// Two six-piece studies from Ben Boland, "Famous Positions in the Game of Checkers", as given
/// (with FEN and the solution checked by KingsRow's 10-piece database) by The Checker Maven
/// (bobnewell.net): W. Strickland's "Negative Second Position", `B:WK28,13,12:BK15,5,3`, "Black to
/// Play and Win", solution starting 15-11; and E. McMillan's `W:W29,14,K2:B8,5,1`, "White to Play
/// and Win", solution starting 29-25. Run as `american_the_move_with_three_men_each`.
#[test]
#[ignore = "needs American 6-piece databases in CROWN_EGDB_DIR"]
fn american_six_piece_studies_from_boland() {
    let dir = std::env::var_os("CROWN_EGDB_DIR").expect("CROWN_EGDB_DIR must be set");
    let tb = Tablebase::open(Path::new(&dir)).unwrap();
    for (fen, first) in [
        ("B:WK28,13,12:BK15,5,3", "15-11"),
        ("W:W29,14,K2:B8,5,1", "29-25"),
    ] {
        let pos = Position::from_fen(Variant::American, fen).unwrap();
        assert_eq!(tb.probe(&pos).unwrap().wdl, Wdl::Win, "{fen}");
        let after = pos.after(&pos.parse_move(first).unwrap());
        assert_eq!(tb.probe(&after).unwrap().wdl, Wdl::Loss, "{fen} {first}");
    }
}

/// Lasker, Diagram 89: two kings (19, 23) drive a king out of the double corner (32); White to
/// move wins, starting 19-24. "Two kings beat one" has exceptions: a lone king on 11 can hold kings
/// on 3 and 4 in the corner (3-7 and 4-8 lose a king to a capture, 3-8 is met by 11-7 and back), so
/// the test asserts the book position and that the exceptions are rare.
#[test]
fn american_two_kings_beat_one_in_the_double_corner() {
    let tb = tb(Variant::American, 4);
    let (wdl, d) = probe(&tb, Variant::American, "W:WK19,K23:BK32");
    assert_eq!(wdl, Wdl::Win);
    assert_eq!(d.unwrap() % 2, 1, "a win ends on the winner's move");
    let pos = Position::from_fen(Variant::American, "W:WK19,K23:BK32").unwrap();
    let after = pos.after(&pos.parse_move("19-24").unwrap());
    assert_eq!(tb.probe(&after).unwrap().wdl, Wdl::Loss);
    assert_eq!(probe(&tb, Variant::American, "W:WK3,K4:BK11").0, Wdl::Draw);
    let (mut n, mut wins) = (0, 0);
    for a in 1..=32u8 {
        for b in a + 1..=32 {
            for c in 1..=32u8 {
                if c == a || c == b {
                    continue;
                }
                let pos =
                    Position::from_fen(Variant::American, &format!("W:WK{a},K{b}:BK{c}")).unwrap();
                if pos.must_capture() || pos.can_capture(Color::Black) {
                    continue;
                }
                n += 1;
                wins += usize::from(tb.probe(&pos).unwrap().wdl == Wdl::Win);
            }
        }
    }
    assert!(n > 10_000);
    assert!(wins * 1000 >= n * 995, "{wins} of {n}");
}

/// "First position without" (Dr. Call's book of "Midget" problems, as given by Bob Newell, The
/// Checker Maven, 2017-04-08, checked there with KingsRow): B:W22,K5:BK15,K6, Black to play and win,
/// starting 15-10.
#[test]
fn american_first_position_without_is_a_black_win() {
    let tb = tb(Variant::American, 4);
    let fen = "B:W22,K5:BK15,K6";
    assert_eq!(probe(&tb, Variant::American, fen).0, Wdl::Win);
    let pos = Position::from_fen(Variant::American, fen).unwrap();
    let after = pos.after(&pos.parse_move("15-10").unwrap());
    assert_eq!(tb.probe(&after).unwrap().wdl, Wdl::Loss);
}

/// Positions the rules decide by themselves: a capture pending that takes the last piece (win in
/// 1), no legal move (American rule: the side that cannot move loses; loss in 0), a man on the
/// square before its king row that is blocked.
#[test]
fn american_rule_decided_positions() {
    let tb = tb(Variant::American, 3);
    // Black must capture 14x23 and White has nothing left.
    assert_eq!(
        probe(&tb, Variant::American, "B:W18:B14"),
        (Wdl::Win, Some(1))
    );
    // White's man on 29 is blocked by 25, and 25 cannot be jumped (22 is occupied): no move.
    assert_eq!(
        probe(&tb, Variant::American, "W:W29:B25,22"),
        (Wdl::Loss, Some(0))
    );
    // Black's man on 27, one step from its king row, is blocked by White's men on 31 and 32.
    assert_eq!(
        probe(&tb, Variant::American, "B:W31,32:B27"),
        (Wdl::Loss, Some(0))
    );
    let no_move = Position::from_fen(Variant::American, "W:W29:B25,22").unwrap();
    assert_eq!(tb.best_move(&no_move).unwrap(), None);
    // Outside the built classes: an error naming the position, not a guess.
    let five = Position::from_fen(Variant::American, "B:W18,19,20:B14,15").unwrap();
    assert!(matches!(tb.probe(&five), Err(EgdbError::NotCovered { .. })));
    assert!(!tb.covers(&five));
    assert_eq!(tb.max_pieces(Variant::American), 3);
    assert_eq!(tb.max_pieces(Variant::Pool), 0);
    assert_eq!(tb.describe(), "american ≤3 pieces");
}

/// Pool (APCA: flying kings, men capture backward). Three kings cannot beat a lone king that holds
/// the main line, the long diagonal 29-25-22-18-15-11-8-4 ("Mini Course 1 - Winning with Three
/// Kings against One", boardgamegeek.com thread 1414778, for pool, Russian, Brazilian and Spanish
/// checkers: "Keep the Main Line occupied ... or your opponent will take it and thereby making the
/// game end in a draw"). The exceptions are tactical: when the lone king must capture, it can be
/// led into a loss. Off the main line, the three kings win.
#[test]
fn pool_three_kings_cannot_beat_one_on_the_main_line() {
    let tb = tb(Variant::Pool, 4);
    let main_line = [29u8, 25, 22, 18, 15, 11, 8, 4];
    let (mut draws, mut forced_losses) = (0, 0);
    for &lone in &main_line {
        for a in 1..=32u8 {
            for b in a + 1..=32 {
                for c in b + 1..=32 {
                    if [a, b, c]
                        .iter()
                        .any(|s| *s == lone || main_line.contains(s))
                    {
                        continue;
                    }
                    let fen = format!("B:WK{a},K{b},K{c}:BK{lone}");
                    let pos = Position::from_fen(Variant::Pool, &fen).unwrap();
                    let v = tb.probe(&pos).unwrap();
                    if pos.must_capture() {
                        forced_losses += usize::from(v.wdl == Wdl::Loss);
                    } else {
                        assert_eq!(v.wdl, Wdl::Draw, "{fen}");
                        draws += 1;
                    }
                }
            }
        }
    }
    assert!(draws > 10_000);
    assert!(forced_losses > 0, "the exceptions exist");
    // Off the main line, with the kings to move, they win (almost always: a few positions lose a
    // king to a capture first).
    let (mut n, mut wins) = (0, 0);
    for lone in (1..=32u8).filter(|s| !main_line.contains(s)) {
        for a in [1u8, 5, 14, 27] {
            for b in [2u8, 10, 23, 32] {
                for c in [3u8, 12, 21, 30] {
                    if [a, b, c].contains(&lone) {
                        continue;
                    }
                    let fen = format!("W:WK{a},K{b},K{c}:BK{lone}");
                    let pos = Position::from_fen(Variant::Pool, &fen).unwrap();
                    n += 1;
                    wins += usize::from(tb.probe(&pos).unwrap().wdl == Wdl::Win);
                }
            }
        }
    }
    assert!(wins * 100 >= n * 95, "{wins} of {n}");
    // APCA: men capture backward too, so Black's man on 14 takes 10 and wins at once.
    assert_eq!(probe(&tb, Variant::Pool, "B:W10:B14"), (Wdl::Win, Some(1)));
}

/// Impasse (shared/rules/impasse.txt): the game cannot cycle, so there are no draws; a side with no
/// basic move removes a checker, and removing its last checker wins.
#[test]
fn impasse_has_no_draws_and_removal_wins() {
    let tb = tb(Variant::Impasse, 4);
    let classes = tb.classes();
    assert!(!classes.is_empty());
    for c in &classes {
        assert_eq!(c.draws, 0, "{}", c.material.name());
    }
    assert_eq!(tb.max_pieces(Variant::Impasse), 4);
    // White's lone single on its furthest row has no basic move: it is removed and White wins.
    assert_eq!(
        probe(&tb, Variant::Impasse, "W:W1:B29"),
        (Wdl::Win, Some(1))
    );
    // White must slide 5-1 (a basic move exists, so no removal); then Black removes its blocked
    // single on 29 and wins.
    assert_eq!(
        probe(&tb, Variant::Impasse, "W:W5:B29"),
        (Wdl::Loss, Some(2))
    );
}

fn copy_dir(from: &Path) -> tempfile::TempDir {
    let to = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, to.path().join(p.file_name().unwrap())).unwrap();
    }
    to
}

fn file_of(dir: &Path, class: &str) -> PathBuf {
    dir.join(format!("american-{class}.egdb"))
}

fn rebuild(dir: &Path) -> crown_egdb::BuildReport {
    build(
        &BuildOptions {
            variant: Variant::American,
            pieces: 3,
            dir: dir.to_path_buf(),
            threads: Some(2),
        },
        &(),
    )
    .unwrap()
}

#[test]
fn damaged_files_are_named_and_only_they_are_rebuilt() {
    let good = built(Variant::American, 3);
    let n_classes = Tablebase::open(&good).unwrap().classes().len();
    // A flipped byte in a compressed block: open succeeds, reading the block names the file.
    let d = copy_dir(&good);
    let f = file_of(d.path(), "m1k1-m0k1");
    let mut bytes = std::fs::read(&f).unwrap();
    let last = bytes.len() - 10;
    bytes[last] ^= 0x55;
    std::fs::write(&f, &bytes).unwrap();
    let tb = Tablebase::open(d.path()).unwrap();
    let e = tb.check_files().unwrap_err();
    assert!(matches!(e, EgdbError::Corrupt { .. }), "{e}");
    assert!(e.to_string().contains("american-m1k1-m0k1.egdb"), "{e}");
    let r = rebuild(d.path());
    assert_eq!(r.built, vec!["american-m1k1-m0k1.egdb".to_string()]);
    assert_eq!(r.kept.len(), n_classes - 1);
    Tablebase::open(d.path()).unwrap().check_files().unwrap();
    verify(d.path(), Variant::American, None, &()).unwrap();

    // Truncated: open fails naming the file; build replaces it.
    let d = copy_dir(&good);
    let f = file_of(d.path(), "m0k2-m1k0");
    let bytes = std::fs::read(&f).unwrap();
    std::fs::write(&f, &bytes[..bytes.len() / 2]).unwrap();
    // Only its class is left out: the others answer, a probe of it names the file.
    let tb = Tablebase::open(d.path()).unwrap();
    assert_eq!(tb.damaged().len(), 1);
    let (p, why) = &tb.damaged()[0];
    assert_eq!(p, &f);
    assert!(why.contains("american-m0k2-m1k0.egdb"), "{why}");
    assert!(why.contains("truncated"), "{why}");
    assert_eq!(tb.classes().len(), n_classes - 1);
    assert_eq!(tb.max_pieces(Variant::American), 2);
    assert_eq!(tb.max_loaded_pieces(Variant::American), 3);
    assert!(tb
        .describe()
        .ends_with("; 1 damaged file left out: american-m0k2-m1k0.egdb"));
    // Black kings on 1 and 5 against a White man on 30, Black to move (class m0k2-m1k0).
    let e = tb
        .probe(&Position::from_fen(Variant::American, "B:W30:BK1,K5").unwrap())
        .unwrap_err();
    assert!(matches!(e, EgdbError::Damaged { .. }), "{e}");
    assert!(e.to_string().contains("american-m0k2-m1k0.egdb"), "{e}");
    // Two kings against one in the double corner (another 3-piece class) still answer: White to
    // move wins (the search without databases proves it too, tests/engine_cli.rs).
    let pos = Position::from_fen(Variant::American, "W:WK27,K32:BK1").unwrap();
    assert_eq!(tb.probe(&pos).unwrap().wdl, Wdl::Win);
    let r = rebuild(d.path());
    assert_eq!(r.built, vec!["american-m0k2-m1k0.egdb".to_string()]);
    assert_eq!(r.replaced.len(), 1);
    // The report line names the file once (it used to read `PATH: PATH: corrupt ...`).
    assert_eq!(
        r.replaced[0].matches("american-m0k2-m1k0.egdb").count(),
        1,
        "{}",
        r.replaced[0]
    );

    // Wrong version.
    let d = copy_dir(&good);
    let f = file_of(d.path(), "m1k0-m1k0");
    let mut bytes = std::fs::read(&f).unwrap();
    bytes[8] = 99;
    std::fs::write(&f, &bytes).unwrap();
    let tb = Tablebase::open(d.path()).unwrap();
    assert_eq!(tb.damaged().len(), 1);
    let why = &tb.damaged()[0].1;
    assert!(why.contains("american-m1k0-m1k0.egdb"), "{why}");
    assert!(why.contains("version 99"), "{why}");
    // A probe of the class says once how to repair it (the version error used to say it too).
    let e = tb
        .probe(&Position::from_fen(Variant::American, "B:W18:B14").unwrap())
        .unwrap_err();
    assert!(matches!(e, EgdbError::Damaged { .. }), "{e}");
    assert_eq!(e.to_string().matches("crown egdb build").count(), 1, "{e}");
    assert_eq!(tb.max_pieces(Variant::American), 0);
    assert_eq!(tb.classes().len(), n_classes - 1);
    let r = rebuild(d.path());
    assert_eq!(r.built, vec!["american-m1k0-m1k0.egdb".to_string()]);

    // A missing class: not covered (no guess), max_pieces drops, build writes just that one; a
    // temporary file left by a killed build is removed.
    let d = copy_dir(&good);
    std::fs::remove_file(file_of(d.path(), "m2k0-m1k0")).unwrap();
    std::fs::write(d.path().join("american-m2k0-m1k0.egdb.tmp"), b"half").unwrap();
    let tb = Tablebase::open(d.path()).unwrap();
    assert_eq!(tb.max_pieces(Variant::American), 2);
    // 3 pieces: 12 classes (1 piece against 2: 2 × 3 splits of men and kings, and the mirror).
    assert_eq!(
        tb.coverage(Variant::American).unwrap(),
        "american: complete up to 2 pieces; 3 pieces: 11 of 12 classes, missing m2k0-m1k0"
    );
    assert_eq!(
        tb.describe(),
        "american ≤2 pieces (3 pieces: 11 of 12 classes)"
    );
    // A missing 2-piece class: no complete count; the 3-piece classes are all there. 2 pieces: 4
    // classes (a man or a king on each side).
    let d2 = copy_dir(&good);
    std::fs::remove_file(file_of(d2.path(), "m1k0-m1k0")).unwrap();
    let tb2 = Tablebase::open(d2.path()).unwrap();
    assert_eq!(
        tb2.describe(),
        "american (2 pieces: 3 of 4 classes; 3 pieces: all 12 classes)"
    );
    // The detail line says the same (it used to end in "3 pieces: 12 of 12 classes, missing ").
    assert_eq!(
        tb2.coverage(Variant::American).unwrap(),
        "american: no complete piece count; 2 pieces: 3 of 4 classes, missing m1k0-m1k0; 3 pieces: all 12 classes"
    );
    assert_eq!(tb.coverage(Variant::Pool), None);
    let pos = Position::from_fen(Variant::American, "B:W30:B5,6").unwrap();
    let e = tb.probe(&pos).unwrap_err();
    assert!(matches!(e, EgdbError::NotCovered { .. }), "{e}");
    let r = rebuild(d.path());
    assert_eq!(r.built, vec!["american-m2k0-m1k0.egdb".to_string()]);
    assert!(!d.path().join("american-m2k0-m1k0.egdb.tmp").exists());
    assert_eq!(
        Tablebase::open(d.path())
            .unwrap()
            .max_pieces(Variant::American),
        3
    );

    // Not a database at all.
    let d = copy_dir(&good);
    std::fs::write(file_of(d.path(), "m0k1-m0k1"), b"hello").unwrap();
    let tb = Tablebase::open(d.path()).unwrap();
    let why = &tb.damaged()[0].1;
    assert!(why.contains("american-m0k1-m0k1.egdb"), "{why}");
    assert!(why.contains("shorter than the 72-byte header"), "{why}");
    let e = tb
        .probe(&Position::from_fen(Variant::American, "B:WK32:BK1").unwrap())
        .unwrap_err();
    assert!(matches!(e, EgdbError::Damaged { .. }), "{e}");
}

#[test]
fn a_missing_directory_is_an_empty_set() {
    let tb = Tablebase::open(Path::new("/nonexistent/crown-egdb-test")).unwrap();
    assert_eq!(tb.max_pieces(Variant::American), 0);
    assert_eq!(tb.describe(), "no endgame databases");
    let pos = Position::from_fen(Variant::American, "B:W18:B14").unwrap();
    assert!(matches!(tb.probe(&pos), Err(EgdbError::NotCovered { .. })));
}

/// Rewrite a version-1 database file (docs/egdb.md, "On-disk format") with `change` applied to its
/// decoded values, recomputing every checksum, so that only the values are wrong.
fn rewrite_values(path: &Path, change: impl FnOnce(&mut [u16])) {
    let bytes = std::fs::read(path).unwrap();
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    let (per_block, nblocks) = (u32_at(28) as usize, u32_at(32) as usize);
    let mut values = Vec::new();
    for b in 0..nblocks {
        let e = 72 + 16 * b;
        let off = u64::from_le_bytes(bytes[e..e + 8].try_into().unwrap()) as usize;
        let len = u32_at(e + 8) as usize;
        let raw = lz4_flex::decompress_size_prepended(&bytes[off..off + len]).unwrap();
        values.extend(raw.chunks(2).map(|c| u16::from_le_bytes([c[0], c[1]])));
    }
    change(&mut values);
    let blocks: Vec<Vec<u8>> = values
        .chunks(per_block)
        .map(|c| {
            lz4_flex::compress_prepend_size(
                &c.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>(),
            )
        })
        .collect();
    assert_eq!(blocks.len(), nblocks);
    let mut idx = Vec::new();
    let mut off = (72 + 16 * nblocks) as u64;
    for b in &blocks {
        idx.extend(off.to_le_bytes());
        idx.extend((b.len() as u32).to_le_bytes());
        idx.extend(crc32fast::hash(b).to_le_bytes());
        off += b.len() as u64;
    }
    let mut h = bytes[..64].to_vec();
    h.extend(crc32fast::hash(&idx).to_le_bytes());
    let hc = crc32fast::hash(&h);
    h.extend(hc.to_le_bytes());
    let mut out = h;
    out.extend(idx);
    for b in &blocks {
        out.extend(b);
    }
    std::fs::write(path, out).unwrap();
}

/// The issue's `verify`: "re-checks every stored value against its successors (a value must equal
/// the best over the legal moves); reports the first mismatch with its FEN". A file whose checksums
/// are all right but one value is wrong must be caught by `verify`, not only by the checksums.
#[test]
fn verify_catches_a_wrong_value_with_good_checksums() {
    let good = built(Variant::American, 3);
    // Each kind of lie: a longer win, a win turned into a draw, a draw turned into a win in 1.
    type Lie = fn(u16) -> Option<u16>;
    let lies: [(&str, Lie); 3] = [
        ("longer win", |c| {
            (c >= 3 && (c - 2) % 2 == 1).then_some(c + 2)
        }),
        ("win to draw", |c| (c >= 3 && (c - 2) % 2 == 1).then_some(0)),
        ("draw to win", |c| (c == 0).then_some(3)),
    ];
    for (what, lie) in lies {
        let d = copy_dir(&good);
        let f = file_of(d.path(), "m1k1-m0k1");
        let mut changed = false;
        rewrite_values(&f, |vals| {
            if let Some((i, new)) = vals
                .iter()
                .enumerate()
                .find_map(|(i, &c)| lie(c).map(|n| (i, n)))
            {
                vals[i] = new;
                changed = true;
            }
        });
        assert!(changed, "{what}: no value to change");
        // The checksums are right, so the file opens and reads whole.
        Tablebase::open(d.path()).unwrap().check_files().unwrap();
        let e = verify(d.path(), Variant::American, Some(1), &()).unwrap_err();
        assert!(matches!(e, EgdbError::Mismatch { .. }), "{what}: {e}");
    }
}

/// The smallest class has two pieces (one per side; a side with none has lost): `--pieces 0` or
/// `1` would build nothing, and must say so instead of reporting "built 0 classes" as a success.
#[test]
fn fewer_than_two_pieces_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    for pieces in [0, 1] {
        let opts = BuildOptions {
            variant: Variant::American,
            pieces,
            dir: dir.path().join("db"),
            threads: Some(1),
        };
        let e = build(&opts, &()).unwrap_err();
        assert!(matches!(e, EgdbError::Invalid(_)), "{e}");
        assert!(e.to_string().contains("--pieces"), "{e}");
    }
}

/// The in-memory builder (the web UI's) gives the same classes as the file builder: the same
/// positions and win/loss/draw counts and largest distance per class, and the same answers.
#[test]
fn the_in_memory_build_equals_the_files() {
    let files = tb(Variant::American, 3);
    let mem = crown_egdb::build_in_memory(Variant::American, 3).unwrap();
    let key = |c: &crown_egdb::ClassInfo| {
        (
            c.material,
            c.positions,
            c.wins,
            c.losses,
            c.draws,
            c.max_distance,
        )
    };
    let a: Vec<_> = files.classes().iter().map(key).collect();
    let b: Vec<_> = mem.classes().iter().map(key).collect();
    assert_eq!(a, b);
    assert_eq!(mem.max_pieces(Variant::American), 3);
    // Lasker's Diagram 88 (the opposition) from memory too.
    assert_eq!(probe(&mem, Variant::American, "W:WK32:BK26").0, Wdl::Win);
    assert_eq!(probe(&mem, Variant::American, "B:WK32:BK26").0, Wdl::Draw);
    for fen in ["W:WK27,K32:BK1", "B:W30:BK1,K5", "W:W9:B13,K1"] {
        let pos = Position::from_fen(Variant::American, fen).unwrap();
        assert_eq!(
            mem.probe(&pos).unwrap(),
            files.probe(&pos).unwrap(),
            "{fen}"
        );
    }
    assert!(crown_egdb::build_in_memory(Variant::American, 7).is_err());
}

/// Found by the `egdb` fuzz target: a block whose lz4 size prefix claims gigabytes (checksums
/// recomputed) is a corrupt file, not a 3 GB allocation.
#[test]
fn a_block_claiming_a_huge_size_is_corrupt() {
    let src = built(Variant::American, 2).join("american-m0k1-m0k1.egdb");
    let mut bytes = std::fs::read(&src).unwrap();
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let nblocks = u32_at(&bytes, 32) as usize;
    let off = u64::from_le_bytes(bytes[72..80].try_into().unwrap()) as usize;
    let len = u32_at(&bytes, 80) as usize;
    bytes[off..off + 4].copy_from_slice(&0xC000_0000u32.to_le_bytes());
    let crc = crc32fast::hash(&bytes[off..off + len]);
    bytes[84..88].copy_from_slice(&crc.to_le_bytes());
    let crc = crc32fast::hash(&bytes[72..72 + 16 * nblocks]);
    bytes[64..68].copy_from_slice(&crc.to_le_bytes());
    let crc = crc32fast::hash(&bytes[..68]);
    bytes[68..72].copy_from_slice(&crc.to_le_bytes());
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("american-m0k1-m0k1.egdb"), &bytes).unwrap();
    let tb = Tablebase::open(dir.path()).unwrap();
    match tb.check_files() {
        Err(EgdbError::Corrupt { reason, .. }) => {
            assert!(reason.contains("wrong length"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
}

/// `Tablebase::from_file_bytes` (the browser's way, no file system) answers as the files do, and a
/// truncated file is left out by name without a panic.
#[test]
fn databases_from_file_bytes_answer_as_the_files() {
    let dir = built(Variant::Pool, 3);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "egdb"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    let disk = Tablebase::open(&dir).unwrap();
    let mem = Tablebase::from_file_bytes(files.clone());
    assert_eq!(mem.max_pieces(Variant::Pool), 3);
    assert!(mem.damaged().is_empty());
    for fen in ["W:WK29:B22,19", "B:WK32:BK1,5", "W:W28:B5,K1"] {
        let pos = Position::from_fen(Variant::Pool, fen).unwrap();
        assert_eq!(mem.probe(&pos).unwrap(), disk.probe(&pos).unwrap(), "{fen}");
    }
    let (name, data) = files.pop().unwrap();
    let half = data[..data.len() / 2].to_vec();
    files.push((name.clone(), half));
    let cut = Tablebase::from_file_bytes(files);
    assert_eq!(cut.damaged().len(), 1);
    assert!(cut.damaged()[0].1.contains(&name), "{:?}", cut.damaged());
}

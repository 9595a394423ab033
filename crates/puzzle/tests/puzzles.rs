//! Puzzles: found, refused and re-proved on hand-made positions whose answers follow from the rules,
//! with endgame databases built in memory (crown-egdb, ≤ 4 pieces); the JSON Lines reader's errors.

use crown_ai::{EndgameTables, Engine, EngineOptions, TableProbe, Wdl};
use crown_core::{Position, Variant};
use crown_puzzle::{
    read_jsonl, write_jsonl, CheckFailure, Finder, FinderOptions, Goal, Proof, PuzzleError, Source,
    Theme,
};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

/// crown-egdb's databases as the engine sees them (the `egdb` feature's adapter, written here so
/// that the test needs no feature).
struct Db(crown_egdb::Tablebase);

impl EndgameTables for Db {
    fn max_pieces(&self, variant: Variant) -> u32 {
        self.0.max_loaded_pieces(variant)
    }
    fn probe(&self, pos: &Position) -> Option<TableProbe> {
        if !self.0.covers(pos) {
            return None;
        }
        let p = self.0.probe(pos).ok()?;
        let wdl = match p.wdl {
            crown_egdb::Wdl::Win => Wdl::Win,
            crown_egdb::Wdl::Draw => Wdl::Draw,
            crown_egdb::Wdl::Loss => Wdl::Loss,
        };
        Some(TableProbe {
            wdl,
            distance: p.distance,
        })
    }
    fn describe(&self) -> String {
        self.0.describe()
    }
}

fn american4() -> Arc<dyn EndgameTables> {
    static DB: OnceLock<Arc<dyn EndgameTables>> = OnceLock::new();
    DB.get_or_init(|| {
        Arc::new(Db(
            crown_egdb::build_in_memory(Variant::American, 4).expect("in-memory build")
        ))
    })
    .clone()
}

fn engine() -> Engine {
    let mut e = Engine::new(EngineOptions {
        hash_mib: 8,
        threads: 1,
        level: None,
    });
    e.set_tables(Some(american4()));
    e
}

fn source() -> Source {
    Source {
        file: "hand.pdn".into(),
        game: 1,
        name: String::new(),
        ply: 0,
    }
}

/// The two-for-one: White men f2 (27) and e1 (31), Black men b4 (17) and f4 (19), White to move.
/// 27-23 offers a man on e3: Black's only capture is 19x26 (f4 over e3 to d2; it cannot go on, the
/// squares beyond c1 and e1 are off the board, and b4 has nothing to take), and then e1 jumps d2 to
/// c3 and on over b4 to a5, 31x22x13, taking both Black pieces: Black has no piece left and has
/// lost (American rule 4). Of White's two other moves, 27-24 gives a man for nothing (19x28).
const SHOT: &str = "W:W27,31:B17,19";

#[test]
fn a_two_for_one_shot_is_found_with_its_line_and_themes() {
    let mut e = engine();
    let stop = AtomicBool::new(false);
    let mut f = Finder::new(&mut e, FinderOptions::depth(8), &stop);
    let pos = Position::from_fen(Variant::American, SHOT).unwrap();
    let p = f.puzzle_at(&pos, source()).expect("a puzzle");
    assert_eq!(p.solution, ["27-23", "19x26", "31x13"]);
    assert_eq!(p.goal, Goal::Win);
    assert_eq!(p.proof, Proof::Database);
    assert!(p.themes.contains(&Theme::Shot), "{:?}", p.themes);
    assert!(p.themes.contains(&Theme::MultiJump), "{:?}", p.themes);
    assert!(p.themes.contains(&Theme::Ending), "{:?}", p.themes);
    assert!(!p.themes.contains(&Theme::DrawSave));
    assert_eq!(p.id, "american-hand-1-0");
    assert_eq!(p.fen, pos.to_fen());
    // It re-proves.
    assert_eq!(f.check(&p), Ok(()));
}

/// The shot in a game: the position one move each earlier (White g1, Black c5), then 32-27 14-17
/// reach it. Replaying the game finds a puzzle whose line plays 27-23 at ply 2 (a puzzle at ply 2
/// itself, or one found earlier whose line runs through it).
#[test]
fn the_shot_is_found_when_a_game_is_replayed() {
    let mut e = engine();
    let stop = AtomicBool::new(false);
    let mut f = Finder::new(&mut e, FinderOptions::depth(8), &stop);
    let start = Position::from_fen(Variant::American, "W:W31,32:B14,19").unwrap();
    let mut moves = Vec::new();
    let mut pos = start;
    for t in ["32-27", "14-17", "27-23", "19x26", "31x13"] {
        let m = pos.parse_move(t).unwrap();
        moves.push(m);
        pos = pos.after(&m);
    }
    let mut seen = HashSet::new();
    let mut plies = 0;
    let found = f.find_in_game(&start, &moves, &source(), &mut seen, &mut |n| plies = n);
    assert_eq!(plies, 5);
    let covers = found.iter().any(|p| {
        p.source.ply <= 2 && p.solution.get(2 - p.source.ply).map(String::as_str) == Some("27-23")
    });
    assert!(covers, "{found:?}");
    // Found once: the positions are now known and are skipped in a later game.
    let again = f.find_in_game(&start, &moves, &source(), &mut seen, &mut |_| {});
    assert!(again.is_empty(), "{again:?}");
}

/// Two kings against one king far away (White kings on d4 and f4, Black king on b8): a win
/// (three kings against two are won, two against one all the more), and no White move can lose a
/// king, so every one of White's moves keeps the win: no puzzle.
#[test]
fn a_position_with_two_winning_moves_is_not_a_puzzle() {
    let mut e = engine();
    let stop = AtomicBool::new(false);
    let mut f = Finder::new(&mut e, FinderOptions::depth(6), &stop);
    let pos = Position::from_fen(Variant::American, "W:WK18,K19:BK1").unwrap();
    assert!(pos.legal_moves().len() >= 2);
    assert_eq!(f.prove(&pos), None);
    // The same without databases, by search: still no single move.
    let mut bare = Engine::new(EngineOptions::default());
    let mut f = Finder::new(&mut bare, FinderOptions::depth(6), &stop);
    assert_eq!(f.prove(&pos), None);
}

#[test]
fn a_puzzle_whose_move_is_not_the_only_one_fails_its_check() {
    let mut e = engine();
    let stop = AtomicBool::new(false);
    let mut f = Finder::new(&mut e, FinderOptions::depth(8), &stop);
    let pos = Position::from_fen(Variant::American, SHOT).unwrap();
    let mut p = f.puzzle_at(&pos, source()).unwrap();
    // A wrong key move: 27-24 gives a man for nothing (19x28).
    p.solution = vec!["27-24".into()];
    assert!(matches!(
        f.check(&p),
        Err(CheckFailure::OtherMove { index: 1, found }) if found == "27-23"
    ));
}

#[test]
fn jsonl_round_trip_and_errors_name_the_line() {
    let mut e = engine();
    let stop = AtomicBool::new(false);
    let mut f = Finder::new(&mut e, FinderOptions::depth(8), &stop);
    let pos = Position::from_fen(Variant::American, SHOT).unwrap();
    let p = f.puzzle_at(&pos, source()).unwrap();
    let mut buf = Vec::new();
    write_jsonl(&mut buf, std::slice::from_ref(&p)).unwrap();
    let text = String::from_utf8(buf.clone()).unwrap();
    assert!(text.contains("\"variant\":\"american\""), "{text}");
    assert!(
        text.contains("\"themes\":[\"shot\",\"multi-jump\",\"ending\"]"),
        "{text}"
    );
    let back = read_jsonl(&buf[..]).unwrap();
    assert_eq!(back, vec![p.clone()]);

    let good = text.trim_end().to_string();
    let cases: [(String, usize, &str); 6] = [
        (format!("{good}\n\n{{not json\n"), 3, "not a puzzle"),
        (
            format!("{good}\n{}\n", good.replace("american", "chess")),
            2,
            "unknown variant",
        ),
        (
            format!("{}\n", good.replace(&p.fen, "W:W99:B1")),
            1,
            "bad FEN",
        ),
        (
            format!("{}\n", good.replace("\"27-23\"", "\"27-22\"")),
            1,
            "solution move 1 '27-22'",
        ),
        (
            format!("{}\n", good.replace(",\"31x13\"", "")),
            1,
            "must end with a move of the solver",
        ),
        (format!("{good}\n{{\"id\":\"x\"}}\n"), 2, "missing field"),
    ];
    for (input, line, what) in cases {
        match read_jsonl(input.as_bytes()) {
            Err(PuzzleError::Line { line: l, reason }) => {
                assert_eq!(l, line, "{reason}");
                assert!(reason.contains(what), "{reason}");
            }
            other => panic!("expected an error on line {line} for {input}: {other:?}"),
        }
    }
    // Not UTF-8.
    let mut bad = buf.clone();
    bad.extend_from_slice(b"\xff\xfe\n");
    match read_jsonl(&bad[..]) {
        Err(e) => assert_eq!(e.to_string(), "line 2: not UTF-8"),
        Ok(_) => panic!("accepted bytes that are not UTF-8"),
    }
}

/// The committed sets read (every FEN and solution legal), hold only their own game, have unique
/// ids, and each solution has an odd number of moves (it ends with the solver's move).
#[test]
fn the_committed_sets_read() {
    for v in Variant::ALL {
        let path = format!("{}/puzzles/{}.jsonl", env!("CARGO_MANIFEST_DIR"), v.id());
        let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let set =
            read_jsonl(std::io::BufReader::new(file)).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(set.len() >= 12, "{path}: {} puzzles", set.len());
        let ids: HashSet<&str> = set.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids.len(), set.len(), "{path}: duplicate ids");
        for p in &set {
            assert_eq!(p.variant, v, "{}", p.id);
            assert_eq!(p.solution.len() % 2, 1, "{}", p.id);
            assert_eq!(
                p.themes.contains(&Theme::DrawSave),
                p.goal == Goal::Draw,
                "{}",
                p.id
            );
        }
    }
}

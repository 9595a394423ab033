//! The real archives of `shared/data/pdn`: tinsley.pdn, the PDN 3.0 conformance corpus and the
//! 11-man ballots.

use crown_notation::{replay, PdnError, PdnErrorKind, PdnGame, PdnReader};
use std::path::PathBuf;

fn shared() -> PathBuf {
    if let Ok(p) = std::env::var("CROWN_SHARED") {
        return PathBuf::from(p);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

fn read(path: &PathBuf) -> Vec<Result<PdnGame, PdnError>> {
    let f = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    PdnReader::new(f).collect()
}

#[test]
fn tinsley_replays_except_petal_game_18() {
    let games = read(&shared().join("data/pdn/tinsley.pdn"));
    assert_eq!(games.len(), 724);
    let mut failures = Vec::new();
    for g in &games {
        let g = g.as_ref().unwrap_or_else(|e| panic!("{e}"));
        if let Err(e) = replay(g) {
            failures.push(e);
        }
    }
    for f in &failures {
        eprintln!("{f}");
    }
    assert_eq!(failures.len(), 1);
    let e = &failures[0];
    assert_eq!(e.location.event.as_deref(), Some("Petal 1981, game 18"));
    assert_eq!(e.location.move_number, Some(62));
    assert!(matches!(e.kind, PdnErrorKind::IllegalMove { .. }), "{e}");
}

fn files(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(shared().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

#[test]
fn conformance_succeed_files_all_parse() {
    let mut total = 0;
    for path in files("data/pdn/conformance/succeed") {
        let games = read(&path);
        assert!(!games.is_empty(), "{}", path.display());
        for g in &games {
            if let Err(e) = g {
                panic!("{}: {e}", path.display());
            }
        }
        total += games.len();
    }
    eprintln!("{total} games");
}

#[test]
fn conformance_fail_files_are_all_rejected() {
    for path in files("data/pdn/conformance/fail") {
        let games = read(&path);
        let errors: Vec<_> = games.iter().filter_map(|g| g.as_ref().err()).collect();
        eprintln!(
            "{}: {} games, {} errors",
            path.display(),
            games.len(),
            errors.len()
        );
        for e in &errors {
            eprintln!("  {e}");
        }
        assert!(!errors.is_empty(), "{} was accepted", path.display());
    }
}

/// The English-checkers files of the conformance corpus (no GameType tag: American checkers).
const ENGLISH: [&str; 6] = [
    "OCA_2.0.pdn",
    "Principles of Strategy.pdn",
    "beginner.pdn",
    "borderclassics.pdn",
    "bridges.pdn",
    "gem.pdn",
];

#[test]
fn every_english_game_of_the_conformance_corpus_replays() {
    for name in ENGLISH {
        let path = shared().join("data/pdn/conformance/succeed").join(name);
        let games = read(&path);
        assert!(!games.is_empty());
        let mut plies = 0;
        for g in &games {
            let g = g.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
            if g.event() == Some("Boland's Bridges #14") {
                // Its record is `[FEN "W::."]` and no moves: an empty board, which is not a
                // position. It must be reported, not replayed.
                let e = replay(g).unwrap_err();
                assert!(matches!(e.kind, PdnErrorKind::BadFen(_)), "{e}");
                assert!(e.to_string().contains("no pieces"), "{e}");
                assert!(g.main_line().next().is_none());
                continue;
            }
            let r = replay(g).unwrap_or_else(|e| panic!("{name}: {e}"));
            plies += r.moves.len();
        }
        eprintln!("{name}: {} games, {plies} plies", games.len());
    }
}

#[test]
fn ballots_load_as_start_positions() {
    let games = read(&shared().join("data/pdn/ballots-11-man-english.pdn"));
    assert_eq!(games.len(), 2400);
    for g in &games {
        let g = g.as_ref().unwrap_or_else(|e| panic!("{e}"));
        let r = replay(g).unwrap_or_else(|e| panic!("{e}"));
        assert!(r.moves.is_empty());
        // 11-man ballots: each side has 11 men (one man of the 12 removed), Black to move.
        assert_eq!(r.start.piece_count(crown_core::Color::Black), 11);
        assert_eq!(r.start.piece_count(crown_core::Color::White), 11);
        assert_eq!(r.start.side_to_move(), crown_core::Color::Black);
    }
}

/// The opening explorer of tinsley.pdn: the games whose first move is 11-15, counted from the move
/// text the reader gives for each game (no replay, no index), equal the explorer's count of 11-15 in
/// the start position. Prints the build time and the index's size (the figures of docs/notation.md:
/// `cargo test --release -p crown-notation --test real_data explorer -- --nocapture`).
#[test]
fn explorer_of_tinsley() {
    use crown_core::{Position, Variant};
    use crown_notation::Explorer;
    let path = shared().join("data/pdn/tinsley.pdn");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut by_text = 0;
    let mut from_start = 0;
    for g in read(&path) {
        let g = g.unwrap();
        if g.tag("FEN").is_some() {
            continue;
        }
        from_start += 1;
        if g.main_line().next().map(|m| m.text.as_str()) == Some("11-15") {
            by_text += 1;
        }
    }
    let t0 = std::time::Instant::now();
    let e = Explorer::from_pdn(&text);
    let ms = t0.elapsed().as_secs_f64() * 1000.0;
    let s = e.stats();
    eprintln!(
        "tinsley.pdn: {} bytes, {} games, {} positions ({} game-positions), built in {ms:.0} ms, {} bytes of index",
        text.len(),
        s.indexed,
        e.positions(),
        s.plies,
        e.heap_bytes()
    );
    assert_eq!(
        (s.games, s.indexed, s.skipped, s.stopped_early),
        (724, 724, 0, 1)
    );
    let start = Position::new(Variant::American);
    let here = e.probe(&start);
    assert_eq!(here.tally.games, from_start);
    let first = here
        .moves
        .iter()
        .find(|m| start.move_text(&m.mv) == "11-15")
        .unwrap();
    // `grep -c '^1\. 11-15' tinsley.pdn` counts 98 too (every game starts its movetext on a line)
    assert_eq!(by_text, 98);
    assert_eq!(first.tally.games, by_text);
    // the index stays small: at most 64 bytes per position a game reached
    assert!(e.heap_bytes() as u64 <= 64 * s.plies, "{}", e.heap_bytes());
}

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

//! `crown book build` and `crown book probe` end to end.

mod common;

use common::crown;

#[test]
fn a_small_pool_book_is_built_then_probed() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("book-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("pool.bin");
    let path = file.to_str().unwrap();
    let (code, out, err) = crown(&[
        "book",
        "build",
        "--variant",
        "pool",
        "--plies",
        "2",
        "--nodes",
        "300",
        "--max-positions",
        "3",
        "--threads",
        "1",
        "--out",
        path,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("pool book, 3 positions"), "{out}");
    // The start position's book moves are among its 7 legal moves (APCA rules: the men's first
    // steps are those of American checkers).
    let (code, out, err) = crown(&[
        "book",
        "probe",
        "--variant",
        "pool",
        "--book",
        path,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let moves = v["moves"].as_array().unwrap();
    assert!(!moves.is_empty() && moves.len() <= 3, "{out}");
    let first = ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"];
    for m in moves {
        assert!(first.contains(&m["move"].as_str().unwrap()), "{out}");
    }
    // A book of another game is refused with one line.
    let (code, _, err) = crown(&["book", "probe", "--variant", "american", "--book", path]);
    assert_eq!(code, 2);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("pool"), "{err}");
    // So is a file that is not a book.
    std::fs::write(dir.join("bad.bin"), b"not a book").unwrap();
    let bad = dir.join("bad.bin");
    let (code, _, err) = crown(&["book", "probe", "--book", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("bad magic"), "{err}");
}

#[test]
fn the_embedded_american_book_is_shown_by_analyze_but_not_played() {
    let (code, out, err) = crown(&["analyze", "--depth", "2", "--no-egdb"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "info egdb none", "{out}");
    assert!(lines[1].starts_with("info book "), "{out}");
    // The search still ran: one line per depth, then the best move at depth 2.
    assert!(lines.last().unwrap().contains("depth 2"), "{out}");
}

#[test]
fn build_checks_its_out_file_and_threads_before_any_work() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("book-cli-out");
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("no-such-dir").join("pool.bin");
    let out = missing.to_str().unwrap();
    // A budget that would take a long while: the error must come first, with nothing analysed.
    let (code, stdout, err) = crown(&[
        "book",
        "build",
        "--variant",
        "pool",
        "--plies",
        "8",
        "--nodes",
        "100000",
        "--max-positions",
        "1000",
        "--out",
        out,
    ]);
    assert_eq!(code, 2, "{stdout}{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(out) && err.contains("does not exist"), "{err}");
    // An existing book is left whole when the build is refused.
    let file = dir.join("kept.bin");
    std::fs::write(&file, b"an older book").unwrap();
    let (code, _, err) = crown(&[
        "book",
        "build",
        "--variant",
        "pool",
        "--threads",
        "0",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--threads 0"), "{err}");
    assert_eq!(std::fs::read(&file).unwrap(), b"an older book");
    // No temporary file is left beside it.
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().contains("partial"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

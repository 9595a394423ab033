//! `crown egdb`: build, probe (JSON shape, values decided by the rules), info, verify, and a clear
//! error with exit code 2 outside the built databases.

mod common;

fn crown(args: &[&str]) -> (i32, String, String) {
    crown_env(args, None)
}

/// `crown args` with `CROWN_EGDB_DIR` set to `egdb_dir` (removed when `None`).
fn crown_env(args: &[&str], egdb_dir: Option<&str>) -> (i32, String, String) {
    common::crown_with(args, |cmd| {
        match egdb_dir {
            Some(d) => cmd.env("CROWN_EGDB_DIR", d),
            None => cmd.env_remove("CROWN_EGDB_DIR"),
        };
    })
}

#[test]
fn build_probe_info_verify() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = crown(&[
        "egdb",
        "build",
        "--variant",
        "american",
        "--pieces",
        "3",
        "--dir",
        d,
        "--threads",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("built 16 classes"), "{out}");
    // Resuming keeps everything.
    let (code, out, _) = crown(&[
        "egdb",
        "build",
        "--variant",
        "american",
        "--pieces",
        "3",
        "--dir",
        d,
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("built 0 classes") && out.contains("kept 16"),
        "{out}"
    );

    // Black must capture 14x23, taking White's last piece: a win in 1 ply.
    let (code, out, err) = crown(&[
        "egdb",
        "probe",
        "--variant",
        "american",
        "--fen",
        "B:W18:B14",
        "--dir",
        d,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"variant": "american", "fen": "B:W18:B14", "result": "win",
            "distance": 1, "best_move": "14x23"})
    );
    // A FEN as archives write it is read the lenient way, as by every other command: `?` as
    // side to move is the first player (Black in American checkers), with a warning.
    let (code, out, err) = crown(&[
        "egdb",
        "probe",
        "--variant",
        "american",
        "--fen",
        "?:W18:B14",
        "--dir",
        d,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.starts_with("warning: "), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["fen"], "B:W18:B14");
    assert_eq!(v["best_move"], "14x23");
    // White's man on 29 cannot move: lost, no best move.
    let (_, out, _) = crown(&[
        "egdb",
        "probe",
        "--variant",
        "american",
        "--fen",
        "W:W29:B22,25",
        "--dir",
        d,
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["result"], "loss");
    assert_eq!(v["distance"], 0);
    assert!(v["best_move"].is_null());

    // Outside the built classes: one line, exit 2.
    let (code, out, err) = crown(&[
        "egdb",
        "probe",
        "--variant",
        "american",
        "--fen",
        "B:W18,19,20:B14,15",
        "--dir",
        d,
    ]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("not covered"), "{err}");

    let (code, out, _) = crown(&["egdb", "info", "--dir", d]);
    assert_eq!(code, 0);
    assert!(out.contains("american ≤3 pieces"), "{out}");
    assert!(out.contains("16 classes"), "{out}");
    let (code, out, err) = crown(&["egdb", "verify", "--dir", d]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("positions verified"), "{out}");
    // `--threads 0` is refused by verify as by build (it used to be taken as "one per core").
    let (code, _, err) = crown(&["egdb", "verify", "--dir", d, "--threads", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("--threads must be at least 1"), "{err}");
}

/// `verify` on a directory without any database file (empty, or a mistyped path) has nothing to
/// check: it must say so and fail, not report success ("0 classes, 0 positions verified").
#[test]
fn verify_of_a_directory_without_databases_fails() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-dir");
    // A file given as the directory is named as what it is, not as missing.
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"x").unwrap();
    for (d, why) in [
        (dir.path(), "no endgame database"),
        (missing.as_path(), "does not exist"),
        (file.as_path(), "is not a directory"),
    ] {
        let d = d.to_str().unwrap();
        let (code, out, err) = crown(&["egdb", "verify", "--dir", d]);
        assert_eq!(code, 2, "{d}: {out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(d) && err.contains(why), "{err}");
    }
}

/// A nonexistent database directory, given with `--dir` or `CROWN_EGDB_DIR`, is one clear error
/// for `egdb probe/info/verify` and one warning line for engine commands (which play on without
/// databases), never silence.
#[test]
fn a_nonexistent_directory_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-dir");
    let m = missing.to_str().unwrap();
    for args in [
        vec!["egdb", "info", "--dir", m],
        vec![
            "egdb",
            "probe",
            "--variant",
            "american",
            "--fen",
            "B:W18:B14",
            "--dir",
            m,
        ],
    ] {
        let (code, out, err) = crown(&args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(m) && err.contains("does not exist"), "{err}");
    }
    let (code, _, err) = crown_env(&["egdb", "info"], Some(m));
    assert_eq!(code, 2);
    assert!(err.contains("CROWN_EGDB_DIR") && err.contains(m), "{err}");
    let (code, out, err) = crown_env(
        &["analyze", "--fen", "W:WK27,K32:BK1", "--depth", "1"],
        Some(m),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().next(), Some("info egdb none"), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("warning: CROWN_EGDB_DIR") && err.contains(m),
        "{err}"
    );
}

/// A damaged file leaves out only its class, and a missing class only itself: `info` names what
/// is missing for a complete set and the damaged file, `verify` fails naming it, the engine
/// still proves a database win with the other classes, and `build` rebuilds just those two.
#[test]
fn a_damaged_or_missing_class_leaves_the_others_working() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let build = [
        "egdb",
        "build",
        "--variant",
        "american",
        "--pieces",
        "3",
        "--dir",
        d,
    ];
    let (code, _, err) = crown(&build);
    assert_eq!(code, 0, "{err}");
    std::fs::remove_file(dir.path().join("american-m2k0-m1k0.egdb")).unwrap();
    std::fs::write(
        dir.path().join("american-m0k2-m1k0.egdb"),
        b"not a database",
    )
    .unwrap();

    let (code, out, err) = crown(&["egdb", "info", "--dir", d]);
    assert_eq!(code, 0, "{err}");
    // American, 3 pieces: 12 classes (one piece against two: 2 x 3 splits into men and kings,
    // and its mirror).
    assert!(
        out.contains(
            "american: complete up to 2 pieces; 3 pieces: 10 of 12 classes, missing m0k2-m1k0, m2k0-m1k0\n"
        ),
        "{out}"
    );
    assert!(
        out.lines().any(|l| l.starts_with("damaged")
            && l.contains("american-m0k2-m1k0.egdb")
            && l.contains("shorter than the 72-byte header")),
        "{out}"
    );
    let (code, _, err) = crown(&["egdb", "verify", "--dir", d]);
    assert_eq!(code, 2);
    assert!(err.contains("american-m0k2-m1k0.egdb"), "{err}");

    // Two kings against one in the double corner (class m0k2-m0k1, present): still a database win.
    let (code, out, err) = crown(&[
        "analyze",
        "--fen",
        "W:WK27,K32:BK1",
        "--depth",
        "30",
        "--egdb",
        d,
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines().next(),
        Some("info egdb american ≤2 pieces (3 pieces: 10 of 12 classes); 1 damaged file left out: american-m0k2-m1k0.egdb"),
        "{out}"
    );
    assert!(out.lines().last().unwrap().contains("(db)"), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("warning:") && err.contains("american-m0k2-m1k0.egdb"),
        "{err}"
    );

    let (code, out, err) = crown(&build);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("built 2 classes"), "{out}");
    assert!(out.contains("kept 14"), "{out}");
    let (code, out, _) = crown(&["egdb", "info", "--dir", d]);
    assert_eq!(code, 0);
    assert!(out.contains("american: complete up to 3 pieces\n"), "{out}");
}

/// `crown play` at its default level (6) uses the databases like every engine command: from a
/// set position (`--fen`) of two kings against one in the double corner, White (the engine) to
/// move, its first move already scores the database win; the saved PDN starts from the FEN.
#[test]
fn play_from_a_fen_converts_with_the_databases() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    common::build_egdb("american", 3, dir.path());
    let save = dir.path().join("game.pdn");
    let (code, out, err) = crown(&[
        "play",
        "--fen",
        "W:WK27,K32:BK1",
        "--as",
        "black",
        "--egdb",
        d,
        "--save",
        save.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    // The default level (crown_ai::DEFAULT_LEVEL, issue 40: was 6 in `crown play`).
    assert!(out.contains("level 4"), "{out}");
    let first = out
        .lines()
        .find(|l| l.contains("engine plays"))
        .unwrap_or_else(|| panic!("no engine move: {out}"));
    assert!(first.contains("(db)"), "{first}");
    let pdn = std::fs::read_to_string(&save).unwrap();
    assert!(pdn.contains("[SetUp \"1\"]"), "{pdn}");
    assert!(pdn.contains("[FEN \"W:WK27,K32:BK1\"]"), "{pdn}");
    // A FEN that is no position is one clear error before the game starts.
    let (code, _, err) = crown(&["play", "--fen", "W:W33:B1", "--save", "-"]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("FEN"), "{err}");
}

/// The background build of the recommended set: `crown analyze` (as `play`; `engine` says it in
/// an `info` line instead, tests/engine_cli.rs) with an empty default directory prints one line on
/// stderr saying it builds there; the variable, the
/// option and an explicit `--egdb`/`--no-egdb` turn it off. (The process ends after its search;
/// the build resumes at the next run.)
#[test]
fn an_empty_default_directory_starts_the_background_build_with_one_stderr_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let run = |extra: &[&str], build_env: Option<&str>| {
        let mut args = vec!["analyze", "--variant", "impasse", "--depth", "1"];
        args.extend_from_slice(extra);
        common::crown_with(&args, |cmd| {
            cmd.env("CROWN_EGDB_DIR", d);
            match build_env {
                Some(v) => cmd.env("CROWN_EGDB_BUILD", v),
                None => cmd.env_remove("CROWN_EGDB_BUILD"),
            };
        })
    };
    let (code, _, err) = run(&[], None);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("endgame databases"))
        .collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].starts_with(&format!(
            "building the ≤5-piece impasse endgame databases in {d} in the background"
        )),
        "{err}"
    );
    assert!(
        lines[0].contains("--no-egdb-build or CROWN_EGDB_BUILD=0"),
        "{err}"
    );
    for (extra, env) in [
        (&["--no-egdb-build"][..], None),
        (&[][..], Some("0")),
        (&["--egdb", d][..], None),
        (&["--no-egdb"][..], None),
    ] {
        let (code, _, err) = run(extra, env);
        assert_eq!(code, 0, "{extra:?} {env:?}: {err}");
        assert!(!err.contains("building the"), "{extra:?} {env:?}: {err}");
    }
}

//! `crown egdb`: build, probe (JSON shape, values decided by the rules), info, verify, and a clear
//! error with exit code 2 outside the built databases.

use std::process::Command;

fn crown(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_crown"))
        .args(args)
        .env_remove("CROWN_EGDB_DIR")
        .output()
        .expect("run crown");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
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
}

/// `verify` on a directory without any database file (empty, or a mistyped path) has nothing to
/// check: it must say so and fail, not report success ("0 classes, 0 positions verified").
#[test]
fn verify_of_a_directory_without_databases_fails() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-dir");
    for d in [dir.path(), missing.as_path()] {
        let d = d.to_str().unwrap();
        let (code, out, err) = crown(&["egdb", "verify", "--dir", d]);
        assert_eq!(code, 2, "{d}: {out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(d) && err.contains("no endgame database"),
            "{err}"
        );
    }
}

//! `crown tune`: self-play data that does not depend on the thread count, quiet positions only,
//! a loadable weights file, and one-line errors for bad data.

use crown_core::{Position, Variant};
use std::path::PathBuf;
use std::process::Command;

fn crown(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_crown"))
        .args(args)
        .output()
        .expect("run crown");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("crown-tune-{}-{name}", std::process::id()))
}

#[test]
fn gen_is_deterministic_and_quiet_and_fit_writes_loadable_weights() {
    let (a, b, w) = (temp("a.txt"), temp("b.txt"), temp("w.bin"));
    for (path, threads) in [(&a, "1"), (&b, "2")] {
        let (code, _, err) = crown(&[
            "tune",
            "gen",
            "--variant",
            "pool",
            "--games",
            "6",
            "--depth",
            "2",
            "--seed",
            "9",
            "--threads",
            threads,
            "--out",
            path.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
    }
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(text, std::fs::read_to_string(&b).unwrap());
    let mut lines = 0;
    for line in text.lines() {
        let parts: Vec<&str> = line.splitn(4, ' ').collect();
        assert!(["1", "0.5", "0"].contains(&parts[1]), "{line}");
        let pos = Position::from_fen(Variant::Pool, parts[3]).unwrap();
        assert!(!pos.must_capture(), "not quiet: {line}");
        lines += 1;
    }
    assert!(lines > 100, "{lines} positions");
    let (code, out, err) = crown(&[
        "tune",
        "fit",
        "--variant",
        "pool",
        "--data",
        a.to_str().unwrap(),
        "--epochs",
        "2",
        "--out",
        w.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("validation loss"), "{out}");
    let weights = crown_ai::trained::Weights::from_bytes(&std::fs::read(&w).unwrap()).unwrap();
    assert_eq!(weights.variant, Variant::Pool);
    for p in [a, b, w] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn fit_rejects_a_bad_line_naming_file_and_line() {
    let data = temp("bad.txt");
    std::fs::write(&data, "0 1 12 B:W21-32:B1-12\n0 2 12 B:W21-32:B1-12\n").unwrap();
    let (code, _, err) = crown(&[
        "tune",
        "fit",
        "--variant",
        "american",
        "--data",
        data.to_str().unwrap(),
        "--out",
        temp("never.bin").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("line 2") && err.contains("result '2'"),
        "{err}"
    );
    let _ = std::fs::remove_file(data);
}

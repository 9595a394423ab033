//! `crown tune`: self-play data that does not depend on the thread count, quiet positions only,
//! a loadable weights file, and one-line errors for bad data.

mod common;

use common::crown;

use crown_core::{Position, Variant};
use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("crown-tune-{}-{name}", std::process::id()))
}

/// The arguments of `crown tune fit --variant VARIANT --data DATA --out OUT`, then `extra`.
fn fit_args<'a>(
    variant: &'a str,
    data: &'a Path,
    out: &'a Path,
    extra: &[&'a str],
) -> Vec<&'a str> {
    let mut args = vec![
        "tune",
        "fit",
        "--variant",
        variant,
        "--data",
        data.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args
}

/// The arguments of `crown tune gen --variant pool --out OUT`, then `extra`.
fn gen_args<'a>(out: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "tune",
        "gen",
        "--variant",
        "pool",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn gen_is_deterministic_and_quiet_and_fit_writes_loadable_weights() {
    let (a, b, w) = (temp("a.txt"), temp("b.txt"), temp("w.bin"));
    for (path, threads) in [(&a, "1"), (&b, "2")] {
        let (code, _, err) = crown(&gen_args(
            path,
            &[
                "--games",
                "6",
                "--depth",
                "2",
                "--seed",
                "9",
                "--threads",
                threads,
            ],
        ));
        assert_eq!(code, 0, "{err}");
    }
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(text, std::fs::read_to_string(&b).unwrap());
    // The first line names the game and the settings.
    let (header, body) = text.split_once('\n').unwrap();
    assert_eq!(
        header.split_whitespace().take(7).collect::<Vec<_>>(),
        [
            "#",
            "crown",
            "tune",
            "gen",
            "variant=pool",
            "depth=2",
            "seed=9"
        ],
        "{header}"
    );
    assert!(header.contains(" games=6"), "{header}");
    let mut lines = 0;
    for line in body.lines() {
        let parts: Vec<&str> = line.splitn(4, ' ').collect();
        assert!(["1", "0.5", "0"].contains(&parts[1]), "{line}");
        let pos = Position::from_fen(Variant::Pool, parts[3]).unwrap();
        assert!(!pos.must_capture(), "not quiet: {line}");
        // The quiet rule of `--out-dir` too (issue 40): the other side has no capture either.
        assert!(
            !pos.can_capture(pos.side_to_move().opposite()),
            "not quiet for the other side: {line}"
        );
        lines += 1;
    }
    assert!(lines > 100, "{lines} positions");
    let (code, out, err) = crown(&fit_args("pool", &a, &w, &["--epochs", "2"]));
    assert_eq!(code, 0, "{err}");
    // A validation loss only when one of the 6 games is held out (fit's default seed is 1).
    if (0..6).any(|g| crown_train::train::is_validation(g, 1)) {
        assert!(out.contains("validation loss"), "{out}");
    } else {
        assert!(out.contains("no game was held out"), "{out}");
    }
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
    let (code, _, err) = crown(&fit_args("american", &data, &temp("never.bin"), &[]));
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("line 2") && err.contains("result '2'"),
        "{err}"
    );
    let _ = std::fs::remove_file(data);
}

/// Exit code 2 and exactly one line on stderr (no progress line: no work was done).
fn assert_one_line_error(args: &[&str], needles: &[&str]) -> String {
    let (code, out, err) = crown(args);
    assert_eq!(code, 2, "crown {args:?}: {out}{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "crown {args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "crown {args:?}: {err}");
    }
    err
}

/// A data file: `header`, then `games` games of two start positions (one for each side to move).
fn data_file(name: &str, header: &str, games: u32) -> PathBuf {
    let path = temp(name);
    let mut text = String::from(header);
    for g in 0..games {
        text.push_str(&format!(
            "{g} 1 10 B:W21-32:B1-12\n{g} 0 -10 W:W21-32:B1-12\n"
        ));
    }
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn an_unwritable_out_is_refused_before_any_work() {
    let missing = temp("no-such-dir").join("x.txt");
    let out = missing.to_str().unwrap();
    // gen: not one game played (no progress line) before the error.
    assert_one_line_error(
        &gen_args(&missing, &["--games", "3", "--depth", "1"]),
        &[out, "does not exist"],
    );
    // fit: no epoch trained.
    let data = data_file("fit-out.txt", "", 3);
    assert_one_line_error(
        &fit_args("american", &data, &missing, &["--epochs", "1"]),
        &[out, "does not exist"],
    );
    // A directory is not a file name.
    let dir = std::env::temp_dir();
    assert_one_line_error(&fit_args("american", &data, &dir, &[]), &["is a directory"]);
    let _ = std::fs::remove_file(data);
}

#[test]
fn fit_does_not_overwrite_its_own_data() {
    let data = data_file("own.txt", "", 3);
    let before = std::fs::read(&data).unwrap();
    // The same file spelled another way (through its directory and "..").
    let dir = data.parent().unwrap();
    let other = dir
        .join("..")
        .join(dir.file_name().unwrap())
        .join(data.file_name().unwrap());
    assert_one_line_error(
        &fit_args("american", &data, &other, &["--epochs", "1"]),
        &["is the data file"],
    );
    assert_eq!(std::fs::read(&data).unwrap(), before);
    let _ = std::fs::remove_file(data);
}

#[test]
fn data_of_another_variant_is_refused_and_comments_are_skipped() {
    let pool = data_file(
        "pool.txt",
        "# crown tune gen variant=pool depth=2 seed=9 games=2\n",
        2,
    );
    assert_one_line_error(
        &fit_args("american", &pool, &temp("never.bin"), &[]),
        &["line 1", "pool, not american"],
    );
    // The same file read as pool data, and a file with a plain comment and no header, are read.
    let plain = data_file("plain.txt", "# my own notes\n", 2);
    for (variant, data) in [("pool", &pool), ("american", &plain)] {
        let w = temp(&format!("{variant}-w.bin"));
        let (code, out, err) = crown(&fit_args(variant, data, &w, &["--epochs", "1"]));
        assert_eq!(code, 0, "{err}");
        // Two games of two positions each: the comment lines are not positions.
        assert!(out.lines().any(|l| l.starts_with("4 positions,")), "{out}");
        assert!(out.contains(": 4 positions from 2 games (text)"), "{out}");
        let _ = std::fs::remove_file(w);
    }
    for p in [pool, plain] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn bad_settings_are_refused_naming_the_option_and_value() {
    let data = data_file("settings.txt", "", 2);
    let w = temp("settings.bin");
    for (option, value) in [
        ("--lr", "0"),
        ("--lr", "-0.5"),
        ("--lr", "inf"),
        ("--lr", "NaN"),
        ("--lambda", "1.5"),
        ("--lambda", "-0.1"),
        ("--l2", "-1"),
        ("--l2", "inf"),
        ("--epochs", "0"),
        ("--k", "0e0"),
        ("--k", "1e-300"),
        ("--k", "2e0"),
    ] {
        let set = format!("{option}={value}");
        assert_one_line_error(
            &fit_args("american", &data, &w, &[&set]),
            &[&format!("{option} {value}")],
        );
    }
    assert!(!w.exists());
    assert_one_line_error(
        &gen_args(&temp("threads.txt"), &["--games", "1", "--threads", "0"]),
        &["--threads 0"],
    );
    let _ = std::fs::remove_file(data);
}

#[test]
fn with_no_held_out_game_no_validation_loss_is_printed() {
    // One game in ten is held out, chosen by its number and the seed: find a seed that keeps the
    // only game (number 0) for training.
    let seed = (1..100)
        .find(|&s| !crown_train::train::is_validation(0, s))
        .unwrap();
    let data = data_file("one-game.txt", "", 1);
    let w = temp("one-game.bin");
    let seed = seed.to_string();
    let (code, out, err) = crown(&fit_args(
        "american",
        &data,
        &w,
        &["--seed", &seed, "--epochs", "1"],
    ));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("no game was held out"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("2 positions, all for training")),
        "{out}"
    );
    assert!(!out.contains("validation loss"), "{out}");
    assert!(!out.contains("0 validation"), "{out}");
    assert!(!err.contains("validation"), "{err}");
    for p in [data, w] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn egdb_that_labels_nothing_is_a_warning_and_a_file_is_not_a_directory() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("tune-egdb-pool-2");
    common::build_egdb("pool", 2, &dir);
    let data = data_file("egdb.txt", "", 2);
    let w = temp("egdb.bin");
    let (code, out, err) = crown(&fit_args(
        "american",
        &data,
        &w,
        &["--egdb", dir.to_str().unwrap(), "--epochs", "1"],
    ));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("0 positions labelled"), "{out}");
    assert!(
        err.lines()
            .any(|l| l.starts_with("warning:") && l.contains("nothing for american")),
        "{err}"
    );
    // A regular file given as the directory.
    assert_one_line_error(
        &fit_args("american", &data, &w, &["--egdb", data.to_str().unwrap()]),
        &["is not a directory"],
    );
    for p in [data, w] {
        let _ = std::fs::remove_file(p);
    }
}

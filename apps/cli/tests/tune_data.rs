//! `crown tune gen --out-dir`, `crown tune pack` and binary data in `crown tune fit`: chunks that
//! are the same bytes on any thread count and after a kill and resume, quiet positions only,
//! database labels, text converted without loss, and one-line errors naming the file and record.

mod common;

use common::{crown_command, crown_with, shared};
use crown_ai::Wdl;
use crown_core::{Position, Variant};
use crown_train::dataset::{Reader, Record};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Run `crown args` with the shared data; exit code, stdout, stderr.
fn crown(args: &[&str]) -> (i32, String, String) {
    crown_with(args, |c| {
        c.env("CROWN_SHARED", shared());
    })
}

/// A fresh empty directory under the target's test directory.
fn dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("tune-data-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `crown tune gen --variant VARIANT --out-dir DIR --chunk-games 1 --nodes 200 --max-plies 120
/// --seed 5`, then `extra`.
fn gen_args<'a>(variant: &'a str, dir: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "tune",
        "gen",
        "--variant",
        variant,
        "--out-dir",
        dir.to_str().unwrap(),
        "--chunk-games",
        "1",
        "--nodes",
        "200",
        "--max-plies",
        "120",
        "--seed",
        "5",
    ];
    v.extend_from_slice(extra);
    v
}

/// Every file of `dir` (hidden ones included) by name, with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect()
}

/// The records of a data file, checked whole.
fn records(path: &Path) -> Vec<Record> {
    Reader::open(path)
        .unwrap()
        .map(|r| r.unwrap())
        .collect::<Vec<_>>()
}

#[test]
fn chunks_do_not_depend_on_threads_and_a_killed_run_resumes_to_the_same_files() {
    let (one, two, resumed, stopped) = (dir("t1"), dir("t2"), dir("kill"), dir("stop"));
    for (d, threads) in [(&one, "1"), (&two, "2")] {
        let (code, out, err) = crown(&gen_args(
            "pool",
            d,
            &["--chunks", "0..8", "--threads", threads],
        ));
        assert_eq!(code, 0, "{err}");
        assert!(
            out.starts_with("8 chunks written, 0 already there: 8 games"),
            "{out}"
        );
    }
    let reference = files(&one);
    let names: Vec<&String> = reference.keys().collect();
    let want: Vec<String> = (0..8).map(|c| format!("pool-5-c{c:05}.ctd")).collect();
    assert_eq!(names, want.iter().collect::<Vec<_>>());
    assert_eq!(files(&two), reference);
    // Each chunk is its game: game c of the run, numbered c.
    for (c, name) in want.iter().enumerate() {
        let recs = records(&one.join(name));
        assert!(!recs.is_empty());
        assert!(recs.iter().all(|r| r.game == c as u32), "{name}");
    }

    // Killed once the first chunk is there, then run again: the same files.
    let args = gen_args("pool", &resumed, &["--chunks", "0..8"]);
    let mut child = crown_command()
        .args(&args)
        .env("CROWN_SHARED", shared())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while !resumed.join(&want[0]).exists() {
        assert!(
            t0.elapsed() < Duration::from_secs(300),
            "no chunk after 300 s"
        );
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
    // What the kill left: complete chunks, each identical to the reference (and maybe a
    // temporary file, never a half chunk under a chunk's name).
    let left = files(&resumed);
    for (name, bytes) in &left {
        if !name.starts_with('.') {
            assert_eq!(Some(bytes), reference.get(name), "{name} after the kill");
        }
    }
    let (code, out, err) = crown(&args);
    assert_eq!(code, 0, "{err}");
    let kept = left.keys().filter(|n| !n.starts_with('.')).count();
    assert!(
        out.starts_with(&format!(
            "{} chunks written, {kept} already there",
            8 - kept
        )),
        "{out}"
    );
    let after: BTreeMap<String, Vec<u8>> = files(&resumed)
        .into_iter()
        .filter(|(n, _)| !n.starts_with('.'))
        .collect();
    assert_eq!(after, reference);

    // Stopped after some chunks (a smaller range), then the whole range.
    let (code, _, err) = crown(&gen_args("pool", &stopped, &["--chunks", "0..=2"]));
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = crown(&gen_args("pool", &stopped, &["--games", "8"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("5 chunks written, 3 already there"),
        "{out}"
    );
    assert_eq!(files(&stopped), reference);

    // A chunk of other settings in the directory is refused, naming it.
    let (code, _, err) = crown(&gen_args(
        "pool",
        &stopped,
        &["--chunks", "0..2", "--random-plies", "3"],
    ));
    assert_eq!(code, 2);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("pool-5-c00000.ctd was made with other settings"),
        "{err}"
    );
}

/// The generated positions are quiet for both sides, of legal plies, and labelled consistently:
/// one result per game, from each side to move's point of view.
#[test]
fn generated_positions_are_quiet_and_labelled_per_game() {
    for variant in ["american", "pool", "impasse"] {
        let d = dir(&format!("quiet-{variant}"));
        let (code, _, err) = crown(&gen_args(variant, &d, &["--chunks", "0..3"]));
        assert_eq!(code, 0, "{variant}: {err}");
        for (name, _) in files(&d) {
            let recs = records(&d.join(&name));
            let v: Variant = variant.parse().unwrap();
            for r in &recs {
                let p = &r.position;
                assert_eq!(p.variant(), v);
                assert!(!p.must_capture(), "{name}: {}", p.to_fen());
                assert!(
                    !p.can_capture(p.side_to_move().opposite()),
                    "{name}: {}",
                    p.to_fen()
                );
                assert!(
                    r.ply.is_some_and(|ply| ply < 120),
                    "{name}: ply {:?}",
                    r.ply
                );
                assert_eq!(r.exact, None);
            }
            // The result seen by Black is the same at every position of the game.
            let black_view = |r: &Record| match (r.result, r.position.side_to_move()) {
                (Wdl::Draw, _) => 1,
                (Wdl::Win, crown_core::Color::Black) | (Wdl::Loss, crown_core::Color::White) => 2,
                _ => 0,
            };
            assert!(
                recs.windows(2)
                    .all(|w| black_view(&w[0]) == black_view(&w[1])),
                "{name}"
            );
            // Plies rise along the game.
            assert!(recs.windows(2).all(|w| w[0].ply < w[1].ply), "{name}");
        }
    }
}

#[test]
fn database_positions_get_their_exact_value_and_end_the_game() {
    let egdb = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tune-data-egdb-american-4");
    common::build_egdb("american", 4, &egdb);
    let d = dir("egdb");
    let (code, _, err) = crown(&gen_args(
        "american",
        &d,
        &["--chunks", "0..6", "--egdb", egdb.to_str().unwrap()],
    ));
    assert_eq!(code, 0, "{err}");
    let tb = crown_egdb::Tablebase::open(&egdb).unwrap();
    let mut labelled = 0;
    for (name, _) in files(&d) {
        let recs = records(&d.join(&name));
        for (i, r) in recs.iter().enumerate() {
            let pieces = crown_ai::tables::pieces_on_board(&r.position);
            if pieces <= 4 {
                // The databases' own answer, and the game ends there with that result.
                let p = tb.probe(&r.position).unwrap();
                let want = match p.wdl {
                    crown_egdb::Wdl::Win => Wdl::Win,
                    crown_egdb::Wdl::Draw => Wdl::Draw,
                    crown_egdb::Wdl::Loss => Wdl::Loss,
                };
                assert_eq!(r.exact, Some(want), "{name}: {}", r.position.to_fen());
                assert_eq!(r.result, want, "{name}: the adjudicated result");
                assert_eq!(
                    i,
                    recs.len() - 1,
                    "{name}: the game ends at its first database position"
                );
                labelled += 1;
            } else {
                assert_eq!(r.exact, None);
            }
        }
    }
    assert!(labelled > 0, "no game reached 4 pieces");
}

#[test]
fn pack_converts_text_without_loss_and_fit_reads_text_and_binary_mixed() {
    let d = dir("pack");
    let text = d.join("pool.txt");
    let (code, _, err) = crown(&[
        "tune",
        "gen",
        "--variant",
        "pool",
        "--games",
        "4",
        "--depth",
        "2",
        "--seed",
        "3",
        "--out",
        text.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let packed = d.join("pool.ctd");
    let (code, out, err) = crown(&[
        "tune",
        "pack",
        "--variant",
        "pool",
        "--data",
        text.to_str().unwrap(),
        "--out",
        packed.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("bytes/position"), "{out}");
    // Line by line: the same game, result, score and position.
    let lines: Vec<String> = std::fs::read_to_string(&text)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    let recs = records(&packed);
    assert_eq!(recs.len(), lines.len());
    for (line, r) in lines.iter().zip(&recs) {
        let f: Vec<&str> = line.splitn(4, ' ').collect();
        let result = match r.result {
            Wdl::Win => "1",
            Wdl::Draw => "0.5",
            Wdl::Loss => "0",
        };
        assert_eq!(
            (f[0], f[1], f[2]),
            (
                r.game.to_string().as_str(),
                result,
                r.score.to_string().as_str()
            )
        );
        assert_eq!(Position::from_fen(Variant::Pool, f[3]).unwrap(), r.position);
        assert_eq!((r.ply, r.exact), (None, None));
    }
    // --out-dir: one file per input, with the seed of its header and the same records.
    let each = d.join("each");
    std::fs::create_dir_all(&each).unwrap();
    let (code, _, err) = crown(&[
        "tune",
        "pack",
        "--variant",
        "pool",
        "--data",
        text.to_str().unwrap(),
        "--out-dir",
        each.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let one = each.join("pool.ctd");
    assert_eq!(Reader::open(&one).unwrap().header().seed, 3);
    assert_eq!(records(&one), recs);
    // fit: the text file, the binary file and a directory of chunks, mixed.
    let chunks = dir("pack-chunks");
    let (code, _, err) = crown(&gen_args("pool", &chunks, &["--chunks", "0..2"]));
    assert_eq!(code, 0, "{err}");
    let chunk_positions: usize = files(&chunks)
        .keys()
        .map(|n| records(&chunks.join(n)).len())
        .sum();
    let w = d.join("w.bin");
    let (code, out, err) = crown(&[
        "tune",
        "fit",
        "--variant",
        "pool",
        "--epochs",
        "1",
        "--data",
        text.to_str().unwrap(),
        packed.to_str().unwrap(),
        chunks.to_str().unwrap(),
        "--out",
        w.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let n = lines.len();
    assert!(
        out.contains(&format!("pool.txt: {n} positions from 4 games (text)")),
        "{out}"
    );
    assert!(
        out.contains(&format!("pool.ctd: {n} positions from 4 games (binary)")),
        "{out}"
    );
    assert!(out.contains("pool-5-c00001.ctd: "), "{out}");
    let total = 2 * n + chunk_positions;
    assert!(
        out.lines()
            .any(|l| l.starts_with(&format!("{total} positions"))),
        "{out}"
    );
    // A chunk of another game is refused, naming it.
    let (code, _, err) = crown(&[
        "tune",
        "fit",
        "--variant",
        "american",
        "--data",
        chunks.to_str().unwrap(),
        "--out",
        w.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("pool-5-c00000.ctd: the data is for pool, not american"),
        "{err}"
    );
}

#[test]
fn a_truncated_or_damaged_chunk_is_a_one_line_error_naming_file_and_record() {
    let d = dir("damaged");
    let (code, _, err) = crown(&gen_args("american", &d, &["--chunks", "0"]));
    assert_eq!(code, 0, "{err}");
    let chunk = d.join("american-5-c00000.ctd");
    let bytes = std::fs::read(&chunk).unwrap();
    let bad = d.join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    let w = d.join("w.bin");
    let path = bad.join("american-5-c00000.ctd");
    let fit = |expect: &str| {
        let (code, out, err) = crown(&[
            "tune",
            "fit",
            "--variant",
            "american",
            "--data",
            path.to_str().unwrap(),
            "--out",
            w.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{out}{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(&format!("{}: ", path.display())), "{err}");
        assert!(err.contains(expect), "{err}");
    };
    std::fs::write(&path, &bytes[..bytes.len() - 30]).unwrap();
    fit("record 0: the file ends inside a block");
    std::fs::write(&path, &bytes[..bytes.len() - 20]).unwrap();
    fit("the file is truncated: it has no end");
    let mut damaged = bytes.clone();
    let at = damaged.len() - 40;
    damaged[at] ^= 0x55;
    std::fs::write(&path, &damaged).unwrap();
    fit("record 0: ");
    // The generator refuses to skip it too.
    let (code, _, err) = crown(&gen_args("american", &bad, &["--chunks", "0"]));
    assert_eq!(code, 2);
    assert!(err.contains("remove the file to make it again"), "{err}");
}

//! `crown puzzles gen` and `check`: a game whose shot follows from the rules is found and re-proved,
//! a changed solution fails its check naming the puzzle, a malformed file names its line.

mod common;

use common::crown;

/// White men f2 (27) and e1 (31), Black men b4 (17) and f4 (19), White to move: 27-23 forces 19x26
/// (f4 over e3 to d2, the only capture) and 31x22x13 then takes both Black men (American rule 4:
/// Black, without pieces, has lost). 27-24 instead loses a man to 19x28.
const SHOT_PDN: &str = "[Event \"hand\"]\n[Black \"B\"]\n[White \"W\"]\n[SetUp \"1\"]\n\
[FEN \"W:W27,31:B17,19\"]\n[Result \"0-1\"]\n\n1... 27-23 2. 19x26 31x13 0-1\n\n";

#[test]
fn gen_finds_the_shot_and_check_reproves_it() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("shot.pdn");
    std::fs::write(&pdn, SHOT_PDN).unwrap();
    let out = dir.path().join("p.jsonl");
    let (p, o) = (pdn.to_str().unwrap(), out.to_str().unwrap());
    let (code, stdout, err) = crown(&[
        "puzzles",
        "gen",
        p,
        "--out",
        o,
        "--nodes",
        "20000",
        "--no-egdb",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("1 puzzles from 1 of 1 games"), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.contains("\"solution\":[\"27-23\",\"19x26\",\"31x13\"]"),
        "{text}"
    );
    assert!(text.contains("\"id\":\"american-shot-1-0\""), "{text}");
    let (code, stdout, err) = crown(&["puzzles", "check", o, "--nodes", "20000", "--no-egdb"]);
    assert_eq!(code, 0, "{stdout}{err}");
    assert!(stdout.contains("1 puzzles, 1 proven, 0 failed"), "{stdout}");
    // Without databases the check says once that results may differ (it builds none).
    assert_eq!(
        err.lines()
            .filter(|l| l.starts_with("warning: --no-egdb:") && l.contains("may differ"))
            .count(),
        1,
        "{err}"
    );

    // 27-24 is no solution: the check fails and names the puzzle and the move it finds instead.
    std::fs::write(
        &out,
        text.replace("[\"27-23\",\"19x26\",\"31x13\"]", "[\"27-24\"]"),
    )
    .unwrap();
    let (code, stdout, _) = crown(&["puzzles", "check", o, "--nodes", "20000", "--no-egdb"]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains(
            "puzzle american-shot-1-0 (line 1): solution move 1: 27-23 is the only move instead"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("1 puzzles, 0 proven, 1 failed"), "{stdout}");

    // A malformed line: exit 2, one line naming the file and the line.
    std::fs::write(&out, format!("{text}{{\"id\": 3}}\n")).unwrap();
    let (code, _, err) = crown(&["puzzles", "check", o, "--no-egdb"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with(&format!("error: {o}: line 2: not a puzzle")),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn gen_refuses_bad_input_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.jsonl");
    let o = out.to_str().unwrap();
    let missing = dir.path().join("none.pdn");
    let (code, _, err) = crown(&["puzzles", "gen", missing.to_str().unwrap(), "--out", o]);
    assert_eq!(code, 2);
    assert!(err.contains("none.pdn"), "{err}");
    let pdn = dir.path().join("g.pdn");
    std::fs::write(&pdn, SHOT_PDN).unwrap();
    let (code, _, err) = crown(&[
        "puzzles",
        "gen",
        pdn.to_str().unwrap(),
        "--out",
        o,
        "--nodes",
        "0",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--nodes"), "{err}");
}

/// A file already at `--out` is never emptied before there is something to write: it keeps its
/// content when `gen` refuses its input (a file with no game), and when Ctrl-C stops the run
/// before a puzzle is found (then the exit code is 130, as `check`'s). It used to be replaced by
/// an empty file up front. The first game of the Tinsley file is searched with a budget no
/// position can finish quickly; SIGINT is sent once `gen` says it is searching.
#[cfg(unix)]
#[test]
fn gen_keeps_an_existing_output_until_it_has_puzzles() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("keep.jsonl");
    let old = "{\"earlier\": \"set\"}\n";
    std::fs::write(&out, old).unwrap();
    let o = out.to_str().unwrap();

    let empty = dir.path().join("empty.pdn");
    std::fs::write(&empty, "").unwrap();
    let (code, _, err) = crown(&["puzzles", "gen", empty.to_str().unwrap(), "--out", o]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no PDN game"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), old);

    let tinsley = common::shared().join("data/pdn/tinsley.pdn");
    let mut child = common::crown_command()
        .args(["puzzles", "gen", tinsley.to_str().unwrap()])
        .args(["--max-games", "1", "--out", o, "--nodes", "1000000000"])
        .arg("--no-egdb")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run crown");
    // Wait for the start line (at most two minutes), then interrupt.
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            let _ = tx.send(line);
        }
    });
    let bound = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while let Ok(line) = rx.recv_timeout(bound.saturating_duration_since(std::time::Instant::now()))
    {
        if line.starts_with("searching 1 games") {
            break;
        }
    }
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(killed.success());
    let done = child.wait_with_output().expect("wait for crown");
    let summary = String::from_utf8_lossy(&done.stdout);
    assert_eq!(done.status.code(), Some(130), "{summary}");
    assert!(
        summary.contains("0 puzzles from 0 of 1 games")
            && summary.contains("(interrupted; nothing written)"),
        "{summary}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), old);
}

//! End to end in a real pseudo-terminal: start `crown-tui` inside tmux, play a few moves with
//! `send-keys` (against the engine when the build has one), read the screen with `capture-pane`,
//! and quit. Skipped, with a message, only when tmux is not installed.

use std::process::Command;
use std::time::{Duration, Instant};

struct Tmux {
    socket: String,
}

impl Tmux {
    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "crown"])
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "crown"];
        args.extend_from_slice(keys);
        self.run(&args);
    }

    /// Wait until the screen contains `text` (at most 20 s); returns the screen.
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(text) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "'{text}' did not appear; the screen is:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

#[test]
fn plays_a_few_moves_in_a_real_terminal() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("SKIPPED: tmux is not installed, so the end-to-end terminal test cannot run");
        return;
    }
    let tmux = Tmux {
        socket: format!("crown-e2e-{}", std::process::id()),
    };
    let bin = env!("CARGO_BIN_EXE_crown-tui");
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "crown",
        "-x",
        "100",
        "-y",
        "30",
        "-e",
        "TERM=xterm-256color",
        "-e",
        "CROWN_EGDB_BUILD=0",
        bin,
    ]);
    let dialog = tmux.wait_for("Start game");
    let engine = dialog.contains("< Engine >");
    // The default game: American checkers, the human is Black and moves first.
    tmux.keys(&["Enter"]);
    tmux.wait_for("Black to move");
    tmux.keys(&["1", "1", "-", "1", "5", "Enter"]);
    tmux.wait_for("11-15");
    if engine {
        // The engine answers on its own thread; the screen shows its move in the list.
        let s = tmux.wait_for("The engine played");
        assert!(s.contains("Black to move"), "{s}");
        tmux.keys(&["t"]);
        tmux.wait_for("Hint:");
    } else {
        tmux.keys(&["2", "3", "-", "1", "9", "Enter"]);
        tmux.wait_for("23-19");
    }
    // Help opens and closes.
    tmux.keys(&["?"]);
    tmux.wait_for("this help");
    tmux.keys(&["Escape"]);
    let start = Instant::now();
    while tmux.screen().contains("this help") {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "help did not close"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // Quit asks first because a game is in progress.
    tmux.keys(&["q"]);
    tmux.wait_for("Quit?");
    tmux.keys(&["y"]);
    let start = Instant::now();
    while tmux.run(&["list-sessions"]).contains("crown") {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "crown-tui did not exit"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Puzzles mode in a real terminal: the first committed American puzzle near a new player's rating
/// (1500) is solved by typing its solution (the reply is played by the program), the next one
/// served is failed with another legal move.
#[test]
fn solves_one_puzzle_and_fails_one() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("SKIPPED: tmux is not installed, so the end-to-end terminal test cannot run");
        return;
    }
    let set = crown_puzzle::read_jsonl(
        crown_puzzle::embedded_set(crown_core::Variant::American).as_bytes(),
    )
    .expect("the committed set reads");
    assert!(set.len() >= 2);
    let first = set
        .iter()
        .position(|p| p.difficulty == 1500)
        .expect("the American set has puzzles of 1500");
    let tmux = Tmux {
        socket: format!("crown-e2e-pz-{}", std::process::id()),
    };
    let bin = env!("CARGO_BIN_EXE_crown-tui");
    // The ratings go to a fresh data directory of this test.
    let data = std::env::temp_dir().join(format!("crown-e2e-pz-data-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let data_env = format!("CROWN_DATA_DIR={}", data.display());
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "crown",
        "-x",
        "120",
        "-y",
        "32",
        "-e",
        "TERM=xterm-256color",
        "-e",
        "CROWN_EGDB_BUILD=0",
        "-e",
        &data_env,
        bin,
    ]);
    tmux.wait_for("Start game");
    tmux.keys(&["Enter"]);
    tmux.wait_for("Black to move");
    let type_move = |text: &str| {
        let keys: Vec<String> = text.chars().map(|c| c.to_string()).collect();
        let mut k: Vec<&str> = keys.iter().map(String::as_str).collect();
        k.push("Enter");
        tmux.keys(&k);
    };
    tmux.keys(&["z"]);
    tmux.wait_for(&format!("Puzzle {}/{}", first + 1, set.len()));
    let solution = &set[first].solution;
    for i in (0..solution.len()).step_by(2) {
        type_move(&solution[i]);
        match solution.get(i + 1) {
            Some(reply) => {
                tmux.wait_for(&format!("The reply: {reply}."));
            }
            None => {
                tmux.wait_for("Solved! Streak 1");
            }
        }
    }
    // A clean solve raises the player's rating above the starting 1500, stored in the data
    // directory.
    let store = data.join("puzzles.json");
    let start = Instant::now();
    let stored = loop {
        if let Ok(t) = std::fs::read_to_string(&store) {
            if t.contains(&set[first].id) {
                break t;
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{} not written",
            store.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let v: serde_json::Value = serde_json::from_str(&stored).unwrap();
    assert!(v["player"]["rating"].as_f64().unwrap() > 1500.0, "{stored}");
    assert_eq!(v["best_streak"], 1, "{stored}");
    // The next puzzle (the trainer's rule with the stored ratings): a legal move that is not the
    // solution is refused, the board unchanged.
    let ratings: crown_puzzle::PuzzleRatings = serde_json::from_str(&stored).unwrap();
    let next = crown_puzzle::next_index(
        &set,
        Some(first),
        None,
        |id| ratings.is_rated(id),
        ratings.player.rating,
    )
    .unwrap();
    tmux.keys(&["z"]);
    tmux.wait_for(&format!("Puzzle {}/{}", next + 1, set.len()));
    let pos = crown_core::Position::from_fen(set[next].variant, &set[next].fen).unwrap();
    let key = pos.parse_move(&set[next].solution[0]).unwrap();
    let wrong = pos
        .legal_moves()
        .iter()
        .find(|m| **m != key)
        .copied()
        .expect("a puzzle has at least two legal moves");
    let wrong_text = pos.move_text(&wrong);
    type_move(&wrong_text);
    tmux.wait_for(&format!("{wrong_text} is not the move"));
    tmux.keys(&["t"]);
    tmux.wait_for("Hint: move the piece on");
    tmux.keys(&["q"]);
    let start = Instant::now();
    let _ = std::fs::remove_dir_all(&data);
    while tmux.run(&["list-sessions"]).contains("crown") {
        if tmux.screen().contains("Quit?") {
            tmux.keys(&["y"]);
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "crown-tui did not exit"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

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

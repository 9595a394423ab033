//! Puzzles mode (key `z`): the committed puzzles of the current game, one after another. The board
//! is turned to the side to move; the player finds the move, the forced reply is played, until the
//! line ends; a wrong move leaves the board as it was and shows the engine's refutation; `t` is a
//! hint (the piece, then the move), `g` gives up (shows the solution), `z` goes to the next puzzle.
//! The rules of the trainer (which puzzle next, rated once, the streak) are
//! [`crown_puzzle::PuzzleTrainer`]'s, shared with the web; this module turns keys into its calls and
//! its answers into the board and the status line.

use crate::state::App;
use crown_ai::{Engine, EngineOptions, Limits};
use crown_core::{Color, DrawRules, Game, Move};
use crown_puzzle::{
    embedded_set, read_jsonl, Answer, Goal, Hint, PuzzleTrainer, Theme, TrainerError,
};
use std::path::PathBuf;

pub use crown_puzzle::PuzzleRatings;

/// The ratings file: `puzzles.json` in `$CROWN_DATA_DIR`, else in `crown` in the per-user data
/// directory (`$XDG_DATA_HOME`, else `~/.local/share`; the directory of the endgame databases'
/// `crown/egdb`); `None` when none is known.
pub fn puzzle_store_path() -> Option<PathBuf> {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = env("CROWN_DATA_DIR") {
        return Some(d.join("puzzles.json"));
    }
    let data =
        env("XDG_DATA_HOME").or_else(|| env("HOME").map(|h| h.join(".local").join("share")))?;
    Some(data.join("crown").join("puzzles.json"))
}

impl App {
    /// Where the puzzle ratings are kept: read them from `path` now (a missing or unreadable file
    /// starts afresh) and write them there after each rated attempt.
    pub fn set_puzzle_store(&mut self, path: Option<PathBuf>) {
        if let Some(p) = &path {
            if let Ok(text) = std::fs::read_to_string(p) {
                if let Ok(r) = serde_json::from_str(&text) {
                    self.puzzle_ratings = r;
                }
            }
        }
        self.puzzle_store = path;
    }

    fn store_ratings(&mut self) {
        if let (Some(path), Ok(text)) = (
            self.puzzle_store.clone(),
            serde_json::to_string_pretty(&self.puzzle_ratings),
        ) {
            self.effects.push(crate::msg::Effect::Store { path, text });
        }
    }

    /// Start the puzzles of the current game, or go on to the next one.
    pub(crate) fn next_puzzle(&mut self) {
        self.stop_thinking();
        let variant = self.game.variant();
        let theme = self.puzzle_theme;
        let before = self.puzzle_ratings.clone();
        // The same game: the trainer goes on (leaving a puzzle unfinished and not yet rated ends
        // the streak); else the game's set is read and the trainer opens at its first puzzle.
        let opened = match self.puzzles.take() {
            Some(mut m) if m.set().first().map(|p| p.variant) == Some(variant) => {
                m.next(theme, &mut self.puzzle_ratings).map(|()| m)
            }
            _ => match read_jsonl(embedded_set(variant).as_bytes()) {
                Ok(set) => {
                    PuzzleTrainer::open(set, None, theme, &self.puzzle_ratings, Default::default())
                }
                Err(e) => {
                    self.status = format!("The puzzle set of {variant} is damaged: {e}");
                    return;
                }
            },
        };
        if self.puzzle_ratings != before {
            self.store_ratings();
        }
        let m = match opened {
            Ok(m) => m,
            Err(TrainerError::Empty) => {
                self.status = format!("No puzzles for {variant}.");
                return;
            }
            Err(TrainerError::NoTheme(t)) => {
                self.status =
                    format!("No {variant} puzzle has the theme {t}; Z changes the filter.");
                return;
            }
            Err(e) => {
                self.status = format!("{e}");
                return;
            }
        };
        let session = &m.session;
        let mut game = Game::from_position(session.position());
        game.set_draw_rules(DrawRules::default());
        self.game = game;
        self.engine_side = None;
        self.clocks = None;
        self.dialog = None;
        self.popup = None;
        self.selected = None;
        self.hint = None;
        self.thought = None;
        self.view_ply = None;
        self.review = None;
        self.names = [None, None];
        self.started = true;
        let solver = session.solver();
        // The solver at the bottom (Black starts at the top of the standard diagram).
        self.flipped = solver == Color::Black;
        let p = session.puzzle();
        let goal = match p.goal {
            Goal::Win => "win",
            Goal::Draw => "save the draw",
        };
        let themes: Vec<&str> = p.themes.iter().map(|t| t.id()).collect();
        self.status = format!(
            "Puzzle {}/{} ({}, {}): {solver} to move and {goal}. [{}]{}",
            m.index() + 1,
            m.set().len(),
            p.id,
            p.difficulty,
            themes.join(" "),
            if m.rated_before() {
                " (already rated)"
            } else {
                ""
            }
        );
        self.puzzles = Some(m);
        self.home_cursor();
    }

    /// Change the theme filter of the puzzles (all, then each theme in turn) and go to the next
    /// puzzle that has it.
    pub(crate) fn cycle_puzzle_theme(&mut self) {
        let all = Theme::ALL;
        self.puzzle_theme = match self.puzzle_theme {
            None => Some(all[0]),
            Some(t) => all
                .iter()
                .position(|x| *x == t)
                .and_then(|i| all.get(i + 1))
                .copied(),
        };
        self.next_puzzle();
        if !self.status.starts_with("No ") {
            let f = self
                .puzzle_theme
                .map_or("all themes".to_string(), |t| format!("theme {t}"));
            self.status = format!("Puzzles: {f}. {}", self.status);
        }
    }

    /// Whether a puzzle is being solved (the player's moves go to it).
    pub fn in_puzzle(&self) -> bool {
        self.puzzles.as_ref().is_some_and(|m| !m.session.is_over())
    }

    /// The player's move in a puzzle.
    pub(crate) fn puzzle_move(&mut self, mv: Move) {
        let Some(m) = self.puzzles.as_mut() else {
            return;
        };
        let mut engine = Engine::new(EngineOptions {
            hash_mib: 4,
            threads: 1,
            level: None,
        });
        let limits = Limits::depth(6);
        let played = m.play(&mv, Some((&mut engine, &limits)), &mut self.puzzle_ratings);
        if played.rated {
            self.store_ratings();
        }
        self.selected = None;
        match played.answer {
            Answer::Correct { reply, solved } => {
                let _ = self.game.play(&mv);
                let text = reply.clone().unwrap_or_default();
                if let Some(r) = reply {
                    if let Ok(rm) = self.game.position().parse_move(&r) {
                        let _ = self.game.play(&rm);
                    }
                }
                if solved {
                    let Some(m) = self.puzzles.as_ref() else {
                        return;
                    };
                    let clean = m.solved_clean();
                    let r = self.puzzle_ratings.player;
                    self.status =
                        format!(
                        "Solved{}! Streak {}, {}/{} clean, rating {:.0} ±{:.0}{}. z: next puzzle.",
                        if clean { "" } else { " (with help)" },
                        m.streak,
                        m.solved,
                        m.tried,
                        r.rating,
                        r.deviation,
                        if played.rated { "" } else { " (already rated: not rated again)" }
                    );
                } else {
                    self.status = format!("Correct. The reply: {text}. Your move.");
                }
            }
            Answer::Wrong { played, refutation } => {
                // The first wrong move decided the result (a loss): rated at once, so that
                // leaving and coming back cannot turn it into a clean solve.
                self.status = if refutation.is_empty() {
                    format!("{played} is not the move. Try again (t hint, g give up, z next).")
                } else {
                    format!(
                        "{played} is not the move: {}. Try again (t hint, g give up, z next).",
                        refutation.join(" ")
                    )
                };
            }
            Answer::Over => self.status = "This puzzle is over: z for the next one.".into(),
        }
    }

    /// A hint in a puzzle (a loss for the ratings, as a wrong move).
    pub(crate) fn puzzle_hint(&mut self) {
        if let Some(m) = self.puzzles.as_mut() {
            let before = self.puzzle_ratings.clone();
            let hint = m.hint(&mut self.puzzle_ratings);
            self.status = match hint {
                Some(Hint::From(sq)) => format!("Hint: move the piece on {sq}."),
                Some(Hint::Move(t)) => format!("Hint: {t}."),
                None => "This puzzle is over: z for the next one.".into(),
            };
            if self.puzzle_ratings != before {
                self.store_ratings();
            }
        }
    }

    /// Give up the puzzle: the solution is shown.
    pub(crate) fn puzzle_give_up(&mut self) {
        if let Some(m) = self.puzzles.as_mut() {
            let before = self.puzzle_ratings.clone();
            let rest = m.give_up(&mut self.puzzle_ratings);
            if !rest.is_empty() {
                self.status = format!("The solution: {}. z: next puzzle.", rest.join(" "));
            }
            if self.puzzle_ratings != before {
                self.store_ratings();
            }
        }
    }
}

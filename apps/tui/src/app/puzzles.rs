//! Puzzles mode (key `z`): the committed puzzles of the current game, one after another. The board
//! is turned to the side to move; the player finds the move, the forced reply is played, until the
//! line ends; a wrong move leaves the board as it was and shows the engine's refutation; `t` is a
//! hint (the piece, then the move), `g` gives up (shows the solution), `z` goes to the next puzzle.
//! The session itself is [`crown_ai::puzzle_session`], shared with the web.

use crate::state::{App, PuzzleMode};
use crown_ai::puzzle::{embedded_set, read_jsonl, Theme};
use crown_ai::puzzle_session::{Answer, Hint, PuzzleSession};
use crown_ai::{Engine, EngineOptions, Limits};
use crown_core::{Color, DrawRules, Game, Move};
use std::path::PathBuf;

pub use crown_arena::glicko::PuzzleRatings;

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

    /// Rate the current puzzle once: a puzzle already rated (solved or failed, in this run or an
    /// earlier one) is not rated again, so re-solving puzzles cannot raise the rating. A failure
    /// ends the streak, a clean solve adds to it; both are stored. Returns whether it rated.
    fn rate_puzzle_once(&mut self, clean: bool) -> bool {
        let Some(m) = self.puzzles.as_mut() else {
            return false;
        };
        let p = m.session.puzzle();
        if self.puzzle_ratings.is_rated(&p.id) {
            return false;
        }
        self.puzzle_ratings.rate(&p.id, p.difficulty, clean);
        m.tried += 1;
        if clean {
            m.solved += 1;
            m.streak += 1;
        } else {
            m.streak = 0;
        }
        self.puzzle_ratings.streak = m.streak;
        self.puzzle_ratings.best_streak = self.puzzle_ratings.best_streak.max(m.streak);
        self.store_ratings();
        true
    }

    /// Start the puzzles of the current game, or go on to the next one.
    pub(crate) fn next_puzzle(&mut self) {
        self.stop_thinking();
        let variant = self.game.variant();
        if self
            .puzzles
            .as_ref()
            .is_some_and(|m| m.set.first().map(|p| p.variant) == Some(variant))
        {
            // Skipping a puzzle after a wrong move or a hint rates it as failed (if not yet
            // rated; a wrong move or a hint already rates it).
            let failed = self.puzzles.as_ref().is_some_and(|m| {
                !m.session.is_over() && (m.session.mistakes() > 0 || m.session.hints() > 0)
            });
            if failed {
                self.rate_puzzle_once(false);
            }
            // A puzzle not yet rated and left unfinished counts as tried and ends the streak.
            if let Some(m) = self.puzzles.as_mut() {
                if !m.session.is_over() && !self.puzzle_ratings.is_rated(&m.session.puzzle().id) {
                    m.tried += 1;
                    m.streak = 0;
                    if self.puzzle_ratings.streak != 0 {
                        self.puzzle_ratings.streak = 0;
                        self.store_ratings();
                    }
                }
            }
        }
        let (set, index, streak, solved, tried) = match self.puzzles.take() {
            Some(m) if m.set.first().map(|p| p.variant) == Some(variant) => {
                let next = (m.index + 1) % m.set.len().max(1);
                (m.set, next, m.streak, m.solved, m.tried)
            }
            _ => match read_jsonl(embedded_set(variant).as_bytes()) {
                Ok(set) if !set.is_empty() => (set, 0, self.puzzle_ratings.streak, 0, 0),
                Ok(_) => {
                    self.status = format!("No puzzles for {variant}.");
                    return;
                }
                Err(e) => {
                    self.status = format!("The puzzle set of {variant} is damaged: {e}");
                    return;
                }
            },
        };
        // The theme filter: the next puzzle (from `index`, round the set) that has the theme and
        // is not yet rated; when all of those are rated, the next one that has the theme.
        let theme = self.puzzle_theme;
        let has_theme = |i: usize| theme.is_none_or(|t| set[i].themes.contains(&t));
        let round = || (0..set.len()).map(|k| (index + k) % set.len());
        let Some(index) = round()
            .find(|&i| has_theme(i) && !self.puzzle_ratings.is_rated(&set[i].id))
            .or_else(|| round().find(|&i| has_theme(i)))
        else {
            self.status = format!(
                "No {variant} puzzle has the theme {}; Z changes the filter.",
                theme.map_or("?", |t| t.id())
            );
            return;
        };
        let session = match PuzzleSession::new(set[index].clone()) {
            Ok(s) => s,
            Err(e) => {
                self.status = format!("{e}");
                return;
            }
        };
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
            crown_ai::puzzle::Goal::Win => "win",
            crown_ai::puzzle::Goal::Draw => "save the draw",
        };
        let themes: Vec<&str> = p.themes.iter().map(|t| t.id()).collect();
        self.status = format!(
            "Puzzle {}/{} ({}, {}): {solver} to move and {goal}. [{}]{}",
            index + 1,
            set.len(),
            p.id,
            p.difficulty,
            themes.join(" "),
            if self.puzzle_ratings.is_rated(&p.id) {
                " (already rated)"
            } else {
                ""
            }
        );
        self.puzzles = Some(PuzzleMode {
            set,
            index,
            session,
            streak,
            solved,
            tried,
        });
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
        let answer = m.session.play(&mv, Some((&mut engine, &limits)));
        self.selected = None;
        match answer {
            Answer::Correct { reply, solved } => {
                let _ = self.game.play(&mv);
                let text = reply.clone().unwrap_or_default();
                if let Some(r) = reply {
                    if let Ok(rm) = self.game.position().parse_move(&r) {
                        let _ = self.game.play(&rm);
                    }
                }
                if solved {
                    let clean = m.session.solved_clean();
                    let rated = self.rate_puzzle_once(clean);
                    let Some(m) = self.puzzles.as_ref() else {
                        return;
                    };
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
                        if rated { "" } else { " (already rated: not rated again)" }
                    );
                } else {
                    self.status = format!("Correct. The reply: {text}. Your move.");
                }
            }
            Answer::Wrong { played, refutation } => {
                // The first wrong move decides the result (a loss): rated now, so that leaving
                // and coming back cannot turn it into a clean solve.
                self.rate_puzzle_once(false);
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

    /// A hint in a puzzle.
    pub(crate) fn puzzle_hint(&mut self) {
        if let Some(m) = self.puzzles.as_mut() {
            let hint = m.session.hint();
            if hint.is_some() {
                // A hint decides the result (a loss), as a wrong move does.
                self.rate_puzzle_once(false);
            }
            self.status = match hint {
                Some(Hint::From(sq)) => format!("Hint: move the piece on {sq}."),
                Some(Hint::Move(t)) => format!("Hint: {t}."),
                None => "This puzzle is over: z for the next one.".into(),
            };
        }
    }

    /// Give up the puzzle: the solution is shown.
    pub(crate) fn puzzle_give_up(&mut self) {
        if let Some(m) = self.puzzles.as_mut() {
            let rest = m.session.give_up();
            if !rest.is_empty() {
                self.rate_puzzle_once(false);
                self.status = format!("The solution: {}. z: next puzzle.", rest.join(" "));
            }
        }
    }
}

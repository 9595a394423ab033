//! The puzzle trainer for JavaScript: crown-puzzle's [`PuzzleTrainer`] (which puzzle next, an
//! attempt rated once, the streak: the TUI's rules) with the ratings the page keeps in its storage.
//! The page holds no rule of its own: it opens a set, passes the player's moves and buttons on, and
//! stores [`WasmPuzzleTrainer::saved`] after each action.
//!
//! ```js
//! const t = new PuzzleTrainer(storage.loadPuzzles()); // {ratings, streak, solved} or {}
//! t.open(set, id, theme);          // the puzzle `id` of the PuzzleSet, or the next to serve
//! t.playIndex(3);                  // as PuzzleSession.playIndex; the attempt is rated
//! t.next(theme);                   // the next puzzle (not yet rated, nearest the rating, first)
//! storage.savePuzzles(t.saved());
//! ```

use crate::puzzles::{answer_view, hint_view, line_views, refuter, WasmPuzzleSet};
use crate::{error, to_js};
use crown_puzzle::{PuzzleRatings, PuzzleTrainer, Theme};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use wasm_bindgen::prelude::*;

/// What the page stores (`crown.puzzles.v1` in localStorage): the ratings in the format of the
/// TUI's `puzzles.json`, the current streak and the ids solved.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Saved {
    /// The Glicko-2 ratings (`null`: a new player).
    #[serde(default)]
    pub ratings: Option<PuzzleRatings>,
    /// The current streak of clean solves.
    #[serde(default)]
    pub streak: u32,
    /// The ids of the puzzles solved.
    #[serde(default)]
    pub solved: Vec<String>,
}

/// The rating as the page shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShownRating {
    /// The player's rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// The current streak of clean solves.
    pub streak: u32,
    /// The best streak.
    pub best: u32,
    /// How many puzzles were solved.
    pub solved: usize,
}

/// The trainer's state without the wasm wrapper (for the host tests): the ratings, the ids solved
/// while no set is open, and the trainer over the open set.
#[derive(Clone, Debug, Default)]
pub struct TrainerState {
    ratings: PuzzleRatings,
    solved: BTreeSet<String>,
    trainer: Option<PuzzleTrainer>,
}

impl TrainerState {
    /// The state of `saved` (the stored streak is the current one).
    pub fn from_saved(saved: Saved) -> TrainerState {
        let mut ratings = saved.ratings.unwrap_or_default();
        ratings.streak = saved.streak;
        TrainerState {
            ratings,
            solved: saved.solved.into_iter().collect(),
            trainer: None,
        }
    }

    /// What the page stores.
    pub fn saved(&self) -> Saved {
        Saved {
            ratings: Some(self.ratings.clone()),
            streak: self.ratings.streak,
            solved: self.solved_ids().iter().cloned().collect(),
        }
    }

    /// The ids solved: the open trainer's (which started with the earlier ones), else the stored.
    pub fn solved_ids(&self) -> &BTreeSet<String> {
        self.trainer
            .as_ref()
            .map_or(&self.solved, |t| t.solved_ids())
    }

    /// The ratings.
    pub fn ratings(&self) -> &PuzzleRatings {
        &self.ratings
    }

    /// The trainer over the open set, if any.
    pub fn trainer(&self) -> Option<&PuzzleTrainer> {
        self.trainer.as_ref()
    }

    /// Open `set` at the puzzle `id` when it holds it, else at the next puzzle to serve with the
    /// theme `theme` (a tag, `""` for every puzzle). The open set stays when this fails.
    ///
    /// # Errors
    /// The [`crown_puzzle::TrainerError`] as text.
    pub fn open(
        &mut self,
        set: &WasmPuzzleSet,
        id: Option<&str>,
        theme: &str,
    ) -> Result<usize, String> {
        let index = id.and_then(|id| set.puzzles().iter().position(|p| p.id == id));
        let ids = self.solved_ids().clone();
        let t = PuzzleTrainer::open(
            set.puzzles().to_vec(),
            index,
            theme_of(theme),
            &self.ratings,
            ids,
        )
        .map_err(|e| e.to_string())?;
        let index = t.index();
        self.trainer = Some(t);
        Ok(index)
    }

    /// Go on to the next puzzle with the theme `theme` (see [`PuzzleTrainer::next`]).
    ///
    /// # Errors
    /// No set open, or the [`crown_puzzle::TrainerError`], as text.
    pub fn next(&mut self, theme: &str) -> Result<usize, String> {
        let t = self.trainer.as_mut().ok_or("no puzzle set is open")?;
        t.next(theme_of(theme), &mut self.ratings)
            .map_err(|e| e.to_string())?;
        Ok(t.index())
    }
}

/// The theme of a tag, `None` for `""` or an unknown tag (every puzzle).
fn theme_of(tag: &str) -> Option<Theme> {
    Theme::from_id(tag)
}

/// The puzzle trainer ([`PuzzleTrainer`]) and the ratings it keeps.
#[wasm_bindgen(js_name = PuzzleTrainer)]
pub struct WasmPuzzleTrainer {
    state: TrainerState,
}

impl WasmPuzzleTrainer {
    fn trainer(&self) -> Result<&PuzzleTrainer, JsValue> {
        self.state
            .trainer
            .as_ref()
            .ok_or_else(|| error("ArgumentError", "no puzzle set is open"))
    }

    fn parts(&mut self) -> Result<(&mut PuzzleTrainer, &mut PuzzleRatings), JsValue> {
        let TrainerState {
            ratings, trainer, ..
        } = &mut self.state;
        let t = trainer
            .as_mut()
            .ok_or_else(|| error("ArgumentError", "no puzzle set is open"))?;
        Ok((t, ratings))
    }

    /// The state (for tests).
    pub fn state(&self) -> &TrainerState {
        &self.state
    }
}

#[wasm_bindgen(js_class = PuzzleTrainer)]
impl WasmPuzzleTrainer {
    /// A trainer with the stored `{ratings, streak, solved}` (as `saved()` gives them; `null`,
    /// `{}` or anything unreadable: a new player).
    #[wasm_bindgen(constructor)]
    pub fn new(saved: JsValue) -> WasmPuzzleTrainer {
        let saved = if saved.is_null() || saved.is_undefined() {
            Saved::default()
        } else {
            serde_wasm_bindgen::from_value(saved).unwrap_or_default()
        };
        WasmPuzzleTrainer {
            state: TrainerState::from_saved(saved),
        }
    }

    /// Open `set` at the puzzle `id` when it holds it, else at the next puzzle to serve with the
    /// theme `theme` (a tag, `""` for every puzzle); returns its index in the set.
    ///
    /// # Errors
    /// `PuzzleError` when no puzzle has the theme or the set is empty.
    pub fn open(
        &mut self,
        set: &WasmPuzzleSet,
        id: Option<String>,
        theme: &str,
    ) -> Result<usize, JsValue> {
        self.state
            .open(set, id.as_deref(), theme)
            .map_err(|e| error("PuzzleError", e))
    }

    /// The next puzzle with the theme `theme` (not yet rated and nearest the player's rating
    /// first); leaving a puzzle unfinished and not rated ends the streak. Returns its index in the
    /// set.
    ///
    /// # Errors
    /// `PuzzleError` when no puzzle has the theme (the current one stays).
    pub fn next(&mut self, theme: &str) -> Result<usize, JsValue> {
        self.state.next(theme).map_err(|e| error("PuzzleError", e))
    }

    /// Try the current puzzle again from its position (the same attempt: rated once).
    pub fn retry(&mut self) {
        if let Some(t) = self.state.trainer.as_mut() {
            t.retry();
        }
    }

    /// The index of the current puzzle in its set, -1 when no set is open.
    pub fn index(&self) -> i32 {
        self.state
            .trainer
            .as_ref()
            .map_or(-1, |t| i32::try_from(t.index()).unwrap_or(-1))
    }

    /// The board now as PDN FEN (`""` when no set is open).
    pub fn fen(&self) -> String {
        self.state
            .trainer
            .as_ref()
            .map(|t| t.session.position().to_fen())
            .unwrap_or_default()
    }

    /// Play the legal move with this index in the legal moves of [`WasmPuzzleTrainer::fen`]: as
    /// `PuzzleSession.playIndex`; a wrong move or the solve rates the attempt.
    ///
    /// # Errors
    /// `ArgumentError` for an index out of range or no set open.
    #[wasm_bindgen(js_name = playIndex)]
    pub fn play_index(&mut self, index: usize) -> Result<JsValue, JsValue> {
        let (t, ratings) = self.parts()?;
        let pos = t.session.position();
        let list = pos.legal_moves();
        if t.session.is_over() {
            return to_js(&crate::puzzles::AnswerView::Over);
        }
        let Some(mv) = list.get(index).copied() else {
            return Err(error(
                "ArgumentError",
                format!(
                    "move index {index} is out of range: there are {} legal moves",
                    list.len()
                ),
            ));
        };
        let (mut engine, limits) = refuter();
        let played = t.play(&mv, Some((&mut engine, &limits)), ratings);
        to_js(&answer_view(&pos, &mv, played.answer))
    }

    /// A hint (a loss for the ratings): as `PuzzleSession.hint`.
    ///
    /// # Errors
    /// `ArgumentError` when no set is open.
    pub fn hint(&mut self) -> Result<JsValue, JsValue> {
        let (t, ratings) = self.parts()?;
        let expected = t.session.expected();
        hint_view(t.hint(ratings), expected)
    }

    /// Give up (a loss for the ratings): the rest of the solution as board moves (`[]` when over).
    ///
    /// # Errors
    /// `ArgumentError` when no set is open.
    #[wasm_bindgen(js_name = giveUp)]
    pub fn give_up(&mut self) -> Result<JsValue, JsValue> {
        let (t, ratings) = self.parts()?;
        let start = t.session.position();
        let rest = t.give_up(ratings);
        to_js(&line_views(start, &rest))
    }

    /// The current puzzle is solved (the whole line played).
    #[wasm_bindgen(js_name = isSolved)]
    pub fn is_solved(&self) -> bool {
        self.trainer().is_ok_and(|t| t.session.is_solved())
    }

    /// The current puzzle is solved or given up (true when no set is open).
    #[wasm_bindgen(js_name = isOver)]
    pub fn is_over(&self) -> bool {
        self.trainer().map_or(true, |t| t.session.is_over())
    }

    /// Solved with no wrong move and no hint in any try of this attempt (a win for the ratings).
    #[wasm_bindgen(js_name = solvedClean)]
    pub fn solved_clean(&self) -> bool {
        self.trainer().is_ok_and(PuzzleTrainer::solved_clean)
    }

    /// The current puzzle was rated before this attempt: it is not rated again.
    #[wasm_bindgen(js_name = ratedBefore)]
    pub fn rated_before(&self) -> bool {
        self.trainer().is_ok_and(PuzzleTrainer::rated_before)
    }

    /// What to store: `{ratings, streak, solved}`.
    pub fn saved(&self) -> Result<JsValue, JsValue> {
        to_js(&self.state.saved())
    }

    /// The rating shown: `{rating, deviation, volatility, streak, best, solved}`.
    #[wasm_bindgen(js_name = shownRating)]
    pub fn shown_rating(&self) -> Result<JsValue, JsValue> {
        let r = &self.state.ratings;
        to_js(&ShownRating {
            rating: r.player.rating,
            deviation: r.player.deviation,
            volatility: r.player.volatility,
            streak: r.streak,
            best: r.best_streak,
            solved: self.state.solved_ids().len(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn american() -> WasmPuzzleSet {
        let json = |l: &str| serde_json::from_str(l).map_err(|e| e.to_string());
        let text = crown_puzzle::embedded_set(crown_core::Variant::American);
        WasmPuzzleSet::from_puzzles(crate::puzzles::read_lines(text, json).unwrap())
    }

    #[test]
    fn a_stored_state_goes_on_and_is_given_back() {
        let mut ratings = PuzzleRatings::default();
        ratings.rate("x", 1500, true);
        let saved = Saved {
            ratings: Some(ratings.clone()),
            streak: 3,
            solved: vec!["x".into()],
        };
        let s = TrainerState::from_saved(saved.clone());
        assert_eq!(
            s.ratings().streak,
            3,
            "the stored streak is the current one"
        );
        assert_eq!(
            s.saved(),
            Saved {
                ratings: Some(PuzzleRatings {
                    streak: 3,
                    ..ratings
                }),
                ..saved
            }
        );
    }

    #[test]
    fn open_by_id_or_first_and_next_passes_over_the_solved() {
        let set = american();
        let puzzles = set.puzzles();
        let ids: Vec<String> = puzzles.iter().map(|p| p.id.clone()).collect();
        // A new player (1500): the puzzles of difficulty 1500, in file order.
        let at_1500: Vec<usize> = (0..puzzles.len())
            .filter(|&i| puzzles[i].difficulty == 1500)
            .collect();
        assert!(at_1500.len() >= 3, "the American set has puzzles of 1500");
        let mut s = TrainerState::from_saved(Saved {
            solved: vec![ids[at_1500[1]].clone()],
            ..Saved::default()
        });
        assert_eq!(s.open(&set, Some(&ids[2]), ""), Ok(2));
        // No such id: the first puzzle as near the player's 1500 as can be.
        assert_eq!(s.open(&set, Some("no such id"), ""), Ok(at_1500[0]));
        // The second of 1500 was solved before: the third is served.
        assert_eq!(s.next(""), Ok(at_1500[2]));
        // Leaving the first unfinished and unrated ended the streak; nothing was rated.
        assert_eq!(s.ratings().streak, 0);
        assert!(s.ratings().puzzles.is_empty());
        assert!(
            s.open(&set, None, "no-such-theme").is_ok(),
            "an unknown tag: every puzzle"
        );
    }
}

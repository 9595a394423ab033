//! Puzzles ("find the shot") for JavaScript: a puzzle set read from its JSON Lines text (each
//! line by the browser's `JSON.parse` into crown-puzzle's [`Puzzle`], checked as
//! [`crown_puzzle::read_jsonl`] checks it) and one puzzle being solved ([`PuzzleSession`], the
//! session the TUI uses too). The trainer's rules and ratings over a set are
//! [`crate::puzzle_trainer`].
//!
//! The sets are not in the `.wasm` file: the web app fetches `pkg/puzzles/<variant>.jsonl` (copied
//! there by `cargo xtask wasm`) when the Puzzles page first needs a game's set, so the first load
//! of the app stays as small as it was.
//!
//! ```js
//! const set = PuzzleSet.fromJsonl(await (await fetch("pkg/puzzles/american.jsonl")).text());
//! set.list();                     // [{id, variant, fen, solver, goal, themes, difficulty, ...}]
//! const s = set.session(0);       // a PuzzleSession
//! s.playIndex(3);                 // {kind: "correct", reply: {...} | null, solved} | {kind: "wrong", ...}
//! s.hint();                       // {kind: "from", square} then {kind: "move", text}
//! ```

use crate::view::{color_id, move_view, MoveView};
use crate::{error, to_js};
use crown_ai::{Engine, EngineOptions, Limits};
use crown_core::{Move, Position};
use crown_puzzle::{Answer, Goal, Hint, Puzzle, PuzzleError, PuzzleSession};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// How deep the engine searches for the refutation of a wrong move (the TUI's depth).
pub const REFUTATION_DEPTH: u32 = 6;
/// The most moves of a refutation line shown.
pub const REFUTATION_MOVES: usize = 6;

/// One puzzle of a set, as the page lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleView {
    /// The puzzle's id (unique within its set).
    pub id: String,
    /// `american`, `pool` or `impasse`.
    pub variant: String,
    /// The puzzle position (PDN FEN); the solver is to move.
    pub fen: String,
    /// The side that solves: `black` or `white`.
    pub solver: String,
    /// `win` or `draw`.
    pub goal: String,
    /// Theme tags (`shot`, `multi-jump`, `breakthrough`, `ending`, `draw-save`).
    pub themes: Vec<String>,
    /// The starting rating of the puzzle.
    pub difficulty: u32,
    /// Where the position comes from: the game's name, or its file and number.
    pub source: String,
}

/// The view of `p` (its FEN was checked when the set was read).
pub fn puzzle_view(p: &Puzzle) -> PuzzleView {
    let solver = p
        .position()
        .map(|pos| color_id(pos.side_to_move()).to_string())
        .unwrap_or_default();
    PuzzleView {
        id: p.id.clone(),
        variant: p.variant.id().to_string(),
        fen: p.fen.clone(),
        solver,
        goal: match p.goal {
            Goal::Win => "win",
            Goal::Draw => "draw",
        }
        .to_string(),
        themes: p.themes.iter().map(|t| t.id().to_string()).collect(),
        difficulty: p.difficulty,
        source: if p.source.name.is_empty() {
            format!("{}, game {}", p.source.file, p.source.game)
        } else {
            p.source.name.clone()
        },
    }
}

/// What the page is told about a move of the player ([`Answer`] with the moves as board moves).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum AnswerView {
    /// The expected move: `reply` is the opponent's forced answer (already played in the session)
    /// or `None` when the line has ended; `solved` when the puzzle is done.
    Correct {
        /// The player's move.
        played: MoveView,
        /// The reply, in the position after the player's move.
        reply: Option<MoveView>,
        /// The puzzle is solved.
        solved: bool,
    },
    /// Not the move: the session's board is unchanged. `refutation` is the engine's line after
    /// it, the opponent's answer first.
    Wrong {
        /// The wrong move.
        played: MoveView,
        /// The engine's answer and what follows.
        refutation: Vec<MoveView>,
    },
    /// The puzzle is over already; nothing was played.
    Over,
}

/// The moves of `texts`, read one after another from `start`, as board moves; stops at the first
/// that cannot be read.
pub fn line_views(start: Position, texts: &[String]) -> Vec<MoveView> {
    let mut p = start;
    let mut out = Vec::new();
    for t in texts {
        let Ok(mv) = p.parse_move(t) else { break };
        let index = p.legal_moves().iter().position(|m| *m == mv).unwrap_or(0);
        out.push(move_view(&p, &mv, index));
        p = p.after(&mv);
    }
    out
}

/// The engine and limits that refute a wrong move: a small engine, depth [`REFUTATION_DEPTH`].
pub fn refuter() -> (Engine, Limits) {
    let engine = Engine::new(EngineOptions {
        hash_mib: 4,
        threads: 1,
        level: None,
    });
    (engine, Limits::depth(REFUTATION_DEPTH))
}

/// Play `mv` (legal in `s.position()`) in `s`, refuting a wrong move with a small engine search.
pub fn answer(s: &mut PuzzleSession, mv: &Move) -> AnswerView {
    let pos = s.position();
    let (mut engine, limits) = refuter();
    let a = s.play(mv, Some((&mut engine, &limits)));
    answer_view(&pos, mv, a)
}

/// The page's view of the session's answer `a` to `mv`, played in `pos` (the board before it).
pub fn answer_view(pos: &Position, mv: &Move, a: Answer) -> AnswerView {
    let index = pos.legal_moves().iter().position(|m| m == mv).unwrap_or(0);
    let played = move_view(pos, mv, index);
    match a {
        Answer::Correct { reply, solved } => {
            let after = pos.after(mv);
            let reply = reply.and_then(|r| line_views(after, &[r]).into_iter().next());
            AnswerView::Correct {
                played,
                reply,
                solved,
            }
        }
        Answer::Wrong { refutation, .. } => {
            let mut refutation = line_views(pos.after(mv), &refutation);
            refutation.truncate(REFUTATION_MOVES);
            AnswerView::Wrong { played, refutation }
        }
        Answer::Over => AnswerView::Over,
    }
}

/// The puzzles of a JSON Lines text, each non-blank line read by `parse` and checked as
/// [`crown_puzzle::read_jsonl`] checks it (its FEN and solution must be readable and legal).
///
/// # Errors
/// [`PuzzleError::Line`] with the 1-based line number of the first bad line.
pub fn read_lines(
    text: &str,
    parse: impl Fn(&str) -> Result<Puzzle, String>,
) -> Result<Vec<Puzzle>, PuzzleError> {
    let mut out = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let bad = |reason: String| PuzzleError::Line {
            line: i + 1,
            reason,
        };
        let p = parse(line).map_err(|e| bad(format!("not a puzzle: {e}")))?;
        p.line().map_err(|e| bad(e.to_string()))?;
        out.push(p);
    }
    Ok(out)
}

/// A puzzle set: the puzzles of one JSON Lines file.
#[wasm_bindgen(js_name = PuzzleSet)]
pub struct WasmPuzzleSet {
    puzzles: Vec<Puzzle>,
}

impl WasmPuzzleSet {
    /// A set of `puzzles` (already checked).
    pub fn from_puzzles(puzzles: Vec<Puzzle>) -> WasmPuzzleSet {
        WasmPuzzleSet { puzzles }
    }

    /// The puzzles, in file order.
    pub fn puzzles(&self) -> &[Puzzle] {
        &self.puzzles
    }
}

#[wasm_bindgen(js_class = PuzzleSet)]
impl WasmPuzzleSet {
    /// Read a set from its JSON Lines text (docs/puzzles.md); every puzzle's FEN and solution are
    /// checked.
    ///
    /// # Errors
    /// `PuzzleError` naming the line and what is wrong with it.
    #[wasm_bindgen(js_name = fromJsonl)]
    pub fn from_jsonl(text: &str) -> Result<WasmPuzzleSet, JsValue> {
        // Each line is parsed by the browser's JSON.parse and read into crown-puzzle's `Puzzle` by
        // serde (its one format): no JSON parser of our own in the .wasm file.
        let puzzles = read_lines(text, |line| {
            let value = js_sys::JSON::parse(line).map_err(|e| {
                e.dyn_into::<js_sys::Error>()
                    .map(|e| String::from(e.message()))
                    .unwrap_or_else(|_| "not JSON".to_string())
            })?;
            serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string())
        })
        .map_err(|e| error("PuzzleError", e))?;
        Ok(WasmPuzzleSet { puzzles })
    }

    /// The number of puzzles.
    pub fn len(&self) -> usize {
        self.puzzles.len()
    }

    /// Whether the set has no puzzle.
    #[wasm_bindgen(js_name = isEmpty)]
    pub fn is_empty(&self) -> bool {
        self.puzzles.is_empty()
    }

    /// The puzzles, in file order: an array of `{id, variant, fen, solver, goal, themes,
    /// difficulty, source}`.
    pub fn list(&self) -> Result<JsValue, JsValue> {
        to_js(&self.puzzles.iter().map(puzzle_view).collect::<Vec<_>>())
    }

    /// Start solving puzzle `index` (in [`WasmPuzzleSet::list`]).
    ///
    /// # Errors
    /// `ArgumentError` for an index out of range; `PuzzleError` for a puzzle that cannot be played.
    pub fn session(&self, index: usize) -> Result<WasmPuzzleSession, JsValue> {
        let p = self.puzzles.get(index).ok_or_else(|| {
            error(
                "ArgumentError",
                format!(
                    "puzzle index {index} is out of range: the set has {} puzzles",
                    self.puzzles.len()
                ),
            )
        })?;
        let session = PuzzleSession::new(p.clone()).map_err(|e| error("PuzzleError", e))?;
        Ok(WasmPuzzleSession { session })
    }
}

/// One puzzle being solved ([`PuzzleSession`]).
#[wasm_bindgen(js_name = PuzzleSession)]
pub struct WasmPuzzleSession {
    session: PuzzleSession,
}

impl WasmPuzzleSession {
    /// The underlying session (for tests).
    pub fn core(&self) -> &PuzzleSession {
        &self.session
    }
}

#[wasm_bindgen(js_class = PuzzleSession)]
impl WasmPuzzleSession {
    /// The puzzle: `{id, variant, fen, solver, goal, themes, difficulty, source}`.
    pub fn puzzle(&self) -> Result<JsValue, JsValue> {
        to_js(&puzzle_view(self.session.puzzle()))
    }

    /// The puzzle's id.
    pub fn id(&self) -> String {
        self.session.puzzle().id.clone()
    }

    /// The puzzle's starting rating.
    pub fn difficulty(&self) -> u32 {
        self.session.puzzle().difficulty
    }

    /// The board now as PDN FEN (the solver to move while the puzzle goes on).
    pub fn fen(&self) -> String {
        self.session.position().to_fen()
    }

    /// The side that solves: `black` or `white`.
    pub fn solver(&self) -> String {
        color_id(self.session.solver()).to_string()
    }

    /// Play the legal move with this index in the legal moves of [`WasmPuzzleSession::fen`]
    /// (the board's move): `{kind: "correct", played, reply, solved}`, `{kind: "wrong", played,
    /// refutation}` (the engine's line, a few plies) or `{kind: "over"}`; moves as in
    /// `Game.legalMoves`.
    ///
    /// # Errors
    /// `ArgumentError` for an index out of range.
    #[wasm_bindgen(js_name = playIndex)]
    pub fn play_index(&mut self, index: usize) -> Result<JsValue, JsValue> {
        if self.session.is_over() {
            return to_js(&AnswerView::Over);
        }
        let list = self.session.position().legal_moves();
        let Some(mv) = list.get(index).copied() else {
            return Err(error(
                "ArgumentError",
                format!(
                    "move index {index} is out of range: there are {} legal moves",
                    list.len()
                ),
            ));
        };
        to_js(&answer(&mut self.session, &mv))
    }

    /// Play a move given as text (docs/notation.md), as [`WasmPuzzleSession::play_index`].
    ///
    /// # Errors
    /// `MoveError` for a move that cannot be read or is not legal here.
    pub fn play(&mut self, text: &str) -> Result<JsValue, JsValue> {
        if self.session.is_over() {
            return to_js(&AnswerView::Over);
        }
        let mv = self
            .session
            .position()
            .parse_move(text)
            .map_err(|e| error("MoveError", e))?;
        to_js(&answer(&mut self.session, &mv))
    }

    /// A hint: first `{kind: "from", square}` (the piece to move), then `{kind: "move", text,
    /// from, to}`; `null` when the puzzle is over.
    pub fn hint(&mut self) -> Result<JsValue, JsValue> {
        let expected = self.session.expected();
        hint_view(self.session.hint(), expected)
    }

    /// Give up: the rest of the solution as board moves (`[]` when already over); the puzzle is
    /// over.
    #[wasm_bindgen(js_name = giveUp)]
    pub fn give_up(&mut self) -> Result<JsValue, JsValue> {
        let start = self.session.position();
        let rest = self.session.give_up();
        to_js(&line_views(start, &rest))
    }

    /// Solved (the whole line played).
    #[wasm_bindgen(js_name = isSolved)]
    pub fn is_solved(&self) -> bool {
        self.session.is_solved()
    }

    /// Solved or given up.
    #[wasm_bindgen(js_name = isOver)]
    pub fn is_over(&self) -> bool {
        self.session.is_over()
    }

    /// Wrong moves played so far.
    pub fn mistakes(&self) -> u32 {
        self.session.mistakes()
    }

    /// Hints asked so far.
    pub fn hints(&self) -> u32 {
        self.session.hints()
    }

    /// Solved with no wrong move and no hint (a win for the ratings).
    #[wasm_bindgen(js_name = solvedClean)]
    pub fn solved_clean(&self) -> bool {
        self.session.solved_clean()
    }
}

/// A hint as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum HintView {
    /// The square of the piece to move.
    From {
        /// Square number 1–32.
        square: u8,
    },
    /// The whole move.
    Move {
        /// Move text.
        text: String,
        /// Start square.
        from: u8,
        /// End square.
        to: u8,
    },
}

/// The page's view of `hint` of the expected move `expected`: `{kind: "from", square}`, `{kind:
/// "move", text, from, to}`, or `null` for none.
pub fn hint_view(hint: Option<Hint>, expected: Option<Move>) -> Result<JsValue, JsValue> {
    match (hint, expected) {
        (Some(Hint::From(sq)), _) => to_js(&HintView::From {
            square: sq.number(),
        }),
        (Some(Hint::Move(text)), Some(mv)) => to_js(&HintView::Move {
            text,
            from: mv.from().number(),
            to: mv.to().number(),
        }),
        _ => Ok(JsValue::NULL),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown_core::Variant;
    use crown_puzzle::{embedded_set, read_jsonl};

    /// The two-for-one of crown-puzzle's session tests: 27-23 19x26 31x13.
    const SHOT: &str = r#"{"id":"shot","variant":"american","fen":"W:W27,31:B17,19","solution":["27-23","19x26","31x13"],"goal":"win","proof":"database","themes":["shot"],"source":{"file":"hand.pdn","game":1,"ply":0},"difficulty":1500}"#;

    fn shot() -> PuzzleSession {
        let set = read_jsonl(SHOT.as_bytes()).unwrap();
        PuzzleSession::new(set[0].clone()).unwrap()
    }

    fn mv(s: &PuzzleSession, text: &str) -> Move {
        s.position().parse_move(text).unwrap()
    }

    #[test]
    fn the_solution_is_answered_with_the_reply_as_a_board_move() {
        let mut s = shot();
        let m = mv(&s, "27-23");
        match answer(&mut s, &m) {
            AnswerView::Correct {
                played,
                reply: Some(r),
                solved: false,
            } => {
                assert_eq!((played.from, played.to), (27, 23));
                assert_eq!((r.text.as_str(), r.from, r.to), ("19x26", 19, 26));
                assert_eq!(r.captures, [23]);
            }
            other => panic!("{other:?}"),
        }
        let m = mv(&s, "31x13");
        assert!(matches!(
            answer(&mut s, &m),
            AnswerView::Correct {
                reply: None,
                solved: true,
                ..
            }
        ));
        assert!(s.solved_clean());
    }

    #[test]
    fn a_wrong_move_gets_the_engines_capture_as_its_refutation() {
        let mut s = shot();
        let m = mv(&s, "27-24");
        match answer(&mut s, &m) {
            AnswerView::Wrong { played, refutation } => {
                assert_eq!(played.text, "27-24");
                // 19x28 is Black's only legal move after 27-24 (a capture is compulsory).
                assert_eq!(
                    refutation.first().map(|m| (m.text.as_str(), m.from, m.to)),
                    Some(("19x28", 19, 28))
                );
                assert!(refutation.len() <= REFUTATION_MOVES);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(s.position().to_fen(), "W:W27,31:B17,19");
        assert_eq!(s.mistakes(), 1);
    }

    #[test]
    fn line_views_stop_at_an_unreadable_move() {
        let s = shot();
        let v = line_views(
            s.position(),
            &["27-23".into(), "19x26".into(), "1-5".into(), "31x13".into()],
        );
        assert_eq!(
            v.iter().map(|m| m.text.as_str()).collect::<Vec<_>>(),
            ["27-23", "19x26"]
        );
    }

    #[test]
    fn every_committed_set_reads_and_lists_its_solver_and_themes() {
        for v in Variant::ALL {
            let set = read_jsonl(embedded_set(v).as_bytes()).unwrap();
            assert!(!set.is_empty(), "{v}");
            for p in &set {
                let view = puzzle_view(p);
                assert_eq!(view.variant, v.id());
                // The solver is the side to move of the FEN (its first letter).
                let first = if p.fen.starts_with('B') {
                    "black"
                } else {
                    "white"
                };
                assert_eq!(view.solver, first, "{}", p.id);
                assert_eq!(view.themes.len(), p.themes.len());
            }
        }
    }

    #[test]
    fn read_lines_reads_as_read_jsonl_does_and_names_the_bad_line() {
        let json = |l: &str| serde_json::from_str::<Puzzle>(l).map_err(|e| e.to_string());
        let text = embedded_set(Variant::Pool);
        assert_eq!(
            read_lines(text, json).unwrap(),
            read_jsonl(text.as_bytes()).unwrap()
        );
        // An illegal solution move on line 3 (after a blank line).
        let bad = SHOT.replace("31x13", "31-26");
        let e = read_lines(&format!("{SHOT}\n\n{bad}\n"), json).unwrap_err();
        assert!(e.to_string().starts_with("line 3: "), "{e}");
        let e = read_lines("{", json).unwrap_err();
        assert!(e.to_string().starts_with("line 1: not a puzzle"), "{e}");
    }

    #[test]
    fn a_puzzle_view_names_the_game_or_its_file() {
        let p = &read_jsonl(SHOT.as_bytes()).unwrap()[0];
        let v = puzzle_view(p);
        assert_eq!(v.source, "hand.pdn, game 1");
        assert_eq!((v.goal.as_str(), v.solver.as_str()), ("win", "white"));
        assert_eq!(v.themes, ["shot"]);
    }
}

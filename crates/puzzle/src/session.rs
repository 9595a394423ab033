//! One puzzle being solved: the position, the expected move, the player's move → correct (the
//! forced reply is played) or wrong (with the engine's refutation), hints, retry. The TUI and the
//! web share it; rating the attempt is the trainer's ([`crate::trainer`]: the puzzle files hold
//! each puzzle's starting difficulty, [`crate::PuzzleRatings`] rates).
//!
//! ```
//! use crown_puzzle::{Answer, Goal, Proof, Puzzle, PuzzleSession, Source};
//! use crown_core::Variant;
//!
//! let p = Puzzle {
//!     id: "x".into(), variant: Variant::American, fen: "W:W27,31:B17,19".into(),
//!     solution: vec!["27-23".into(), "19x26".into(), "31x13".into()],
//!     goal: Goal::Win, proof: Proof::Database, themes: vec![],
//!     source: Source { file: "f".into(), game: 1, name: String::new(), ply: 0 }, difficulty: 1500,
//! };
//! let mut s = PuzzleSession::new(p).unwrap();
//! assert!(matches!(s.play_text("27-23", None).unwrap(), Answer::Correct { reply: Some(_), solved: false }));
//! assert!(matches!(s.play_text("31x13", None).unwrap(), Answer::Correct { reply: None, solved: true }));
//! assert!(s.solved_clean());
//! ```

use crate::record::{Puzzle, PuzzleError};
use crown_ai::{Engine, Limits};
use crown_core::{Color, DrawRules, Game, Move, MoveError, Position, Square};
use std::sync::atomic::AtomicBool;

/// What the session says about a move of the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The expected move. `reply` is the opponent's forced answer, already played (move text), or
    /// `None` when the line has ended; `solved` is true when the puzzle is done.
    Correct {
        /// The opponent's reply, played on the board.
        reply: Option<String>,
        /// The line has ended: solved.
        solved: bool,
    },
    /// Not the move: the board stays where it was (retry, hint or next). `refutation` is the
    /// engine's best line after the wrong move (move texts, the opponent's answer first), empty
    /// when no engine was given.
    Wrong {
        /// The move played (move text).
        played: String,
        /// The engine's answer to it.
        refutation: Vec<String>,
    },
    /// The puzzle is already over (solved or given up): nothing was played.
    Over,
}

/// A hint, growing with each ask: first the piece to move, then the whole move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hint {
    /// The square of the piece that moves.
    From(Square),
    /// The move (move text).
    Move(String),
}

/// One puzzle being solved.
#[derive(Clone, Debug)]
pub struct PuzzleSession {
    puzzle: Puzzle,
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// Index in the solution of the solver's next move (even).
    index: usize,
    mistakes: u32,
    hints: u32,
    given_up: bool,
}

impl PuzzleSession {
    /// Start `puzzle` at its position.
    ///
    /// # Errors
    /// A [`PuzzleError`] naming the puzzle when its FEN or solution cannot be read.
    pub fn new(puzzle: Puzzle) -> Result<PuzzleSession, PuzzleError> {
        let (positions, moves) = puzzle.line()?;
        Ok(PuzzleSession {
            puzzle,
            positions,
            moves,
            index: 0,
            mistakes: 0,
            hints: 0,
            given_up: false,
        })
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The board now (the solver to move unless the puzzle is over; after the last move when
    /// solved).
    pub fn position(&self) -> Position {
        match self.positions.get(self.index) {
            Some(p) => *p,
            None => {
                let last = self.positions.len() - 1;
                self.positions[last].after(&self.moves[last])
            }
        }
    }

    /// The side that solves (to move in the puzzle position).
    pub fn solver(&self) -> Color {
        self.positions[0].side_to_move()
    }

    /// The moves played so far from the puzzle position (the solver's and the replies).
    pub fn played(&self) -> &[Move] {
        &self.moves[..self.index.min(self.moves.len())]
    }

    /// The expected move now, `None` when over.
    pub fn expected(&self) -> Option<Move> {
        if self.is_over() {
            None
        } else {
            self.moves.get(self.index).copied()
        }
    }

    /// Solved (the whole line played).
    pub fn is_solved(&self) -> bool {
        self.index >= self.moves.len()
    }

    /// Solved or given up.
    pub fn is_over(&self) -> bool {
        self.is_solved() || self.given_up
    }

    /// Wrong moves played so far.
    pub fn mistakes(&self) -> u32 {
        self.mistakes
    }

    /// Hints asked so far.
    pub fn hints(&self) -> u32 {
        self.hints
    }

    /// Solved with no wrong move and no hint: a win over the puzzle for the ratings (anything else
    /// is a loss).
    pub fn solved_clean(&self) -> bool {
        self.is_solved() && self.mistakes == 0 && self.hints == 0
    }

    /// A hint: the first ask names the square of the piece to move, the next ones the move.
    /// `None` when over.
    pub fn hint(&mut self) -> Option<Hint> {
        let mv = self.expected()?;
        self.hints += 1;
        Some(if self.hints == 1 {
            Hint::From(mv.from())
        } else {
            Hint::Move(self.position().move_text(&mv))
        })
    }

    /// Give up: the rest of the solution (move texts) is returned and the puzzle is over.
    pub fn give_up(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.is_over() {
            let mut p = self.position();
            for m in &self.moves[self.index..] {
                out.push(p.move_text(m));
                p = p.after(m);
            }
            self.given_up = true;
        }
        out
    }

    /// Play the player's move `mv` (a legal move of [`PuzzleSession::position`]). The expected
    /// move advances the board and plays the opponent's reply; another move leaves the board as it
    /// was (retry) and, with `refute` (an engine and its limits), names the engine's answer.
    pub fn play(&mut self, mv: &Move, refute: Option<(&mut Engine, &Limits)>) -> Answer {
        if self.is_over() {
            return Answer::Over;
        }
        let pos = self.position();
        if Some(*mv) == self.expected() {
            self.index += 1;
            if self.index >= self.moves.len() {
                return Answer::Correct {
                    reply: None,
                    solved: true,
                };
            }
            let reply = self.positions[self.index].move_text(&self.moves[self.index]);
            self.index += 1;
            return Answer::Correct {
                reply: Some(reply),
                solved: self.index >= self.moves.len(),
            };
        }
        self.mistakes += 1;
        let played = pos.move_text(mv);
        let mut refutation = Vec::new();
        if let Some((engine, limits)) = refute {
            let after = pos.after(mv);
            if after.winner().is_none() {
                let mut g = Game::from_position(after);
                g.set_draw_rules(DrawRules::default());
                let r = engine.search(&g, limits, &AtomicBool::new(false), &mut |_| {});
                let mut p = after;
                for m in r.pv.iter().take(6) {
                    if !p.is_legal(m) {
                        break;
                    }
                    refutation.push(p.move_text(m));
                    p = p.after(m);
                }
            }
        }
        Answer::Wrong { played, refutation }
    }

    /// [`PuzzleSession::play`] with the move as text (docs/notation.md).
    ///
    /// # Errors
    /// The [`MoveError`] of a move that cannot be read or is not legal here.
    pub fn play_text(
        &mut self,
        text: &str,
        refute: Option<(&mut Engine, &Limits)>,
    ) -> Result<Answer, MoveError> {
        let mv = self.position().parse_move(text)?;
        Ok(self.play(&mv, refute))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Goal, Proof, Source};
    use crown_ai::EngineOptions;
    use crown_core::Variant;

    /// The two-for-one of tests/puzzles.rs: 27-23 19x26 31x13 (White men f2, e1; Black b4, f4).
    fn shot() -> PuzzleSession {
        PuzzleSession::new(Puzzle {
            id: "shot".into(),
            variant: Variant::American,
            fen: "W:W27,31:B17,19".into(),
            solution: vec!["27-23".into(), "19x26".into(), "31x13".into()],
            goal: Goal::Win,
            proof: Proof::Database,
            themes: vec![],
            source: Source {
                file: "hand.pdn".into(),
                game: 1,
                name: String::new(),
                ply: 0,
            },
            difficulty: 1500,
        })
        .unwrap()
    }

    #[test]
    fn the_right_moves_solve_with_the_forced_reply_played() {
        let mut s = shot();
        assert_eq!(s.solver(), Color::White);
        assert_eq!(
            s.play_text("27-23", None).unwrap(),
            Answer::Correct {
                reply: Some("19x26".into()),
                solved: false
            }
        );
        assert_eq!(s.position().to_fen(), "W:W31:B17,26");
        assert_eq!(
            s.play_text("31x13", None).unwrap(),
            Answer::Correct {
                reply: None,
                solved: true
            }
        );
        assert!(s.solved_clean());
        assert_eq!(s.play_text("13-9", None).ok(), None);
        assert_eq!(s.position().to_fen(), "B:W13:B");
    }

    #[test]
    fn a_wrong_move_is_refuted_and_can_be_retried() {
        let mut s = shot();
        let mut e = Engine::new(EngineOptions::default());
        // 27-24 loses a man: Black's answer is the capture 19x28 (the only legal move).
        match s
            .play_text("27-24", Some((&mut e, &Limits::depth(4))))
            .unwrap()
        {
            Answer::Wrong { played, refutation } => {
                assert_eq!(played, "27-24");
                assert_eq!(refutation.first().map(String::as_str), Some("19x28"));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(s.mistakes(), 1);
        assert_eq!(s.position().to_fen(), "W:W27,31:B17,19");
        assert_eq!(s.hint(), Some(Hint::From(Square::new(27).unwrap())));
        assert_eq!(s.hint(), Some(Hint::Move("27-23".into())));
        assert!(matches!(
            s.play_text("27-23", None),
            Ok(Answer::Correct { .. })
        ));
        assert!(!s.solved_clean());
        assert!(s.play_text("12-16", None).is_err());
        assert_eq!(s.give_up(), ["31x13"]);
        assert_eq!(s.play_text("31x13", None).ok(), Some(Answer::Over));
    }
}

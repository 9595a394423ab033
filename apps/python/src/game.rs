//! `crown.Game`: a start position and the moves played, with the draw rules of its variant.

use crate::convert::value_error;
use crate::moves::Move;
use crate::position::Position;
use crown_core::{Game as RustGame, ImpasseSetup, Variant};
use crown_notation::{game_to_pdn, read_game_move};
use pyo3::prelude::*;

/// A game: a start position and the moves played, with the draw rules of its variant.
#[pyclass(module = "crown")]
#[derive(Clone)]
pub(crate) struct Game {
    /// The game of core.
    pub(crate) game: RustGame,
}

#[pymethods]
impl Game {
    /// A new game of `variant` from its start (Impasse: `setup="seed"`/`"steere"`) or from `fen`.
    #[new]
    #[pyo3(signature = (variant = "american", fen = None, setup = None))]
    fn py_new(variant: &str, fen: Option<&str>, setup: Option<&str>) -> PyResult<Game> {
        let p = Position::py_new(variant, fen, setup)?;
        Ok(Game {
            game: if fen.is_none() && p.pos.variant() == Variant::Impasse {
                RustGame::impasse(
                    setup
                        .unwrap_or("seed")
                        .parse::<ImpasseSetup>()
                        .map_err(value_error)?,
                )
            } else {
                RustGame::from_position(p.pos)
            },
        })
    }

    /// The position now.
    #[getter]
    fn position(&self) -> Position {
        Position {
            pos: *self.game.position(),
        }
    }

    /// The start position.
    #[getter]
    fn start(&self) -> Position {
        Position {
            pos: *self.game.start(),
        }
    }

    /// The moves played, in Crown's notation.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.game.history().map(|(p, m)| p.move_text(m)).collect()
    }

    /// Play `mv` (a `Move` of the current position or its text); returns the move played.
    /// Raises `ValueError` for an illegal move or a finished game.
    fn play(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<Move> {
        let before = *self.game.position();
        let m = if let Ok(m) = mv.downcast::<Move>() {
            m.get().mv
        } else {
            let text: String = mv.extract()?;
            read_game_move(&self.game, &text).map_err(value_error)?
        };
        self.game.play(&m).map_err(value_error)?;
        Ok(Move::new(&before, m))
    }

    /// Take the last move back; returns its text, or `None` at the start.
    fn undo(&mut self) -> Option<String> {
        let n = self.game.ply_count();
        let text = self
            .game
            .history()
            .nth(n.checked_sub(1)?)
            .map(|(p, m)| p.move_text(m));
        self.game.undo();
        text
    }

    /// The legal moves now (none once the game is over).
    fn legal_moves(&self) -> Vec<Move> {
        let pos = *self.game.position();
        self.game
            .legal_moves()
            .iter()
            .map(|m| Move::new(&pos, *m))
            .collect()
    }

    /// How the game ended (`Black wins: …`, `Draw: …`), or `None` while it goes on.
    fn outcome(&self) -> Option<String> {
        self.game.outcome().map(|o| o.to_string())
    }

    /// The game as PDN 3.0 text, with `tags` (e.g. `{"Event": "Club"}`) in the roster.
    #[pyo3(signature = (tags = None))]
    fn pdn(&self, tags: Option<Vec<(String, String)>>) -> String {
        let tags = tags.unwrap_or_default();
        let refs: Vec<(&str, &str)> = tags.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        game_to_pdn(&self.game, &refs)
    }

    fn __repr__(&self) -> String {
        format!(
            "Game('{}', {} plies)",
            self.game.variant().id(),
            self.game.ply_count()
        )
    }
}

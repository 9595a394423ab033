//! PDN files: `crown.PdnGame` (one game as read), `crown.PdnFile` (streaming over a file),
//! `crown.read_pdn` and `crown.parse_pdn`.

use crate::convert::value_error;
use crate::game::Game;
use crown_core::Game as RustGame;
use crown_notation::{replay, PdnReader};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

/// One game of a PDN file: its tags, its main-line move texts and its result, as read (not yet
/// replayed against the rules).
#[pyclass(module = "crown", frozen)]
pub(crate) struct PdnGame {
    game: crown_notation::PdnGame,
}

#[pymethods]
impl PdnGame {
    /// The 1-based index of the game in its file.
    #[getter]
    fn index(&self) -> usize {
        self.game.index
    }

    /// The tags in file order, as `(name, value)` pairs.
    #[getter]
    fn tags(&self) -> Vec<(String, String)> {
        self.game.tags.clone()
    }

    /// The value of tag `name`, or `None`.
    fn tag(&self, name: &str) -> Option<String> {
        self.game.tag(name).map(str::to_string)
    }

    /// The main-line move texts as written.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.game
            .nodes
            .iter()
            .filter_map(|n| match n {
                crown_notation::Node::Move(m) => Some(m.text.clone()),
                _ => None,
            })
            .collect()
    }

    /// The game terminator as written (`1-0`, `0-1`, `1/2-1/2`, `*`), or `None`.
    #[getter]
    fn result(&self) -> Option<String> {
        self.game.result.clone()
    }

    /// Replay the moves against the rules: the `Game`. Raises `ValueError` naming the move, line
    /// and column of the first one that is not legal. Archives play on past a draw that could
    /// have been claimed, so the moves are played with the draw rules off; the game's `outcome`
    /// then applies them.
    fn replay(&self) -> PyResult<Game> {
        let r = replay(&self.game).map_err(value_error)?;
        let mut game = RustGame::from_position(r.start);
        let rules = game.draw_rules();
        game.set_draw_rules(crown_core::DrawRules {
            repetition: false,
            forty_moves: false,
        });
        for m in &r.moves {
            game.play(m).map_err(value_error)?;
        }
        game.set_draw_rules(rules);
        Ok(Game { game })
    }

    /// The game in canonical PDN 3.0 (as `crown pdn fmt` writes it).
    fn pdn(&self) -> String {
        crown_notation::write_game(&self.game)
    }
}

/// The games of a PDN file, read one at a time (the file is never held in memory whole). Each item
/// is a `PdnGame`; a game whose text breaks the grammar raises `ValueError` naming its line, and
/// the next call goes on with the following game.
#[pyclass(module = "crown")]
pub(crate) struct PdnFile {
    reader: PdnReader<BufReader<File>>,
}

#[pymethods]
impl PdnFile {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> PyResult<Option<PdnGame>> {
        match self.reader.next() {
            None => Ok(None),
            Some(Ok(game)) => Ok(Some(PdnGame { game })),
            Some(Err(e)) => Err(value_error(e)),
        }
    }
}

/// Open `path` for reading its games one at a time (see `PdnFile`). Raises `OSError` when it
/// cannot be opened.
#[pyfunction]
pub(crate) fn read_pdn(path: PathBuf) -> PyResult<PdnFile> {
    let f =
        File::open(&path).map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?;
    Ok(PdnFile {
        reader: PdnReader::new(BufReader::new(f)),
    })
}

/// Every game of PDN `text` (for small inputs; `read_pdn` streams a file). Raises `ValueError`
/// for the first game that breaks the grammar.
#[pyfunction]
pub(crate) fn parse_pdn(text: &str) -> PyResult<Vec<PdnGame>> {
    crown_notation::read_games(text)
        .into_iter()
        .map(|g| g.map(|game| PdnGame { game }).map_err(value_error))
        .collect()
}

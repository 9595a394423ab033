//! `crown.Tablebase`: the endgame databases of a directory (`crown egdb build`).

use crate::moves::Move;
use crate::position::Position;
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// The endgame databases of a directory (`crown egdb build`): perfect-play values of positions
/// with few pieces.
#[pyclass(module = "crown")]
pub(crate) struct Tablebase {
    tb: Arc<crown_egdb::Tablebase>,
}

#[pymethods]
impl Tablebase {
    /// Open the databases in `path` (default: `$CROWN_EGDB_DIR` or the per-user data directory).
    /// Raises `OSError` when the directory cannot be read.
    #[new]
    #[pyo3(signature = (path = None))]
    fn py_new(path: Option<PathBuf>) -> PyResult<Tablebase> {
        let dir = match path {
            Some(p) => p,
            None => std::env::var_os("CROWN_EGDB_DIR")
                .map(PathBuf::from)
                .or_else(crown_egdb::Tablebase::default_dir)
                .ok_or_else(|| PyOSError::new_err("no endgame database directory"))?,
        };
        let tb = crown_egdb::Tablebase::open(&dir)
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", dir.display())))?;
        Ok(Tablebase { tb: Arc::new(tb) })
    }

    /// The classes present, e.g. `american ≤4 pieces`.
    fn describe(&self) -> String {
        self.tb.describe()
    }

    /// The value of `position` for the side to move: `("win" | "loss" | "draw", plies or None)`,
    /// plies being the distance to the end under perfect play; `None` when its class is not
    /// built. Raises `OSError` for a damaged file.
    fn probe(&self, position: &Position) -> PyResult<Option<(&'static str, Option<u32>)>> {
        if !self.tb.covers(&position.pos) {
            return Ok(None);
        }
        let p = self
            .tb
            .probe(&position.pos)
            .map_err(|e| PyOSError::new_err(e.to_string()))?;
        let wdl = match p.wdl {
            crown_egdb::Wdl::Win => "win",
            crown_egdb::Wdl::Loss => "loss",
            crown_egdb::Wdl::Draw => "draw",
        };
        Ok(Some((wdl, p.distance)))
    }

    /// The database's best move of `position` (the shortest win, the longest loss), or `None`
    /// when its class is not built or there is no move.
    fn best_move(&self, position: &Position) -> PyResult<Option<Move>> {
        if !self.tb.covers(&position.pos) {
            return Ok(None);
        }
        let best = self
            .tb
            .best_move(&position.pos)
            .map_err(|e| PyOSError::new_err(e.to_string()))?;
        Ok(best.map(|(m, _)| Move::new(&position.pos, m)))
    }
}

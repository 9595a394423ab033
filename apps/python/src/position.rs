//! `crown.Position` (pieces, side to move, the variant's rules; immutable) and `crown.perft`.

use crate::convert::{color_name, value_error, variant_of};
use crate::moves::Move;
use crown_core::{
    ImpasseSetup, Move as RustMove, PerftConvention, Position as RustPosition, Variant,
};
use crown_notation::{
    hub_position, is_hub_position, read_fen, read_hub_position, read_move, FenPolicy,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The start position of `variant` (Impasse: `setup` is `seed` or `steere`).
fn start_position(variant: Variant, setup: Option<&str>) -> PyResult<RustPosition> {
    match (variant, setup) {
        (Variant::Impasse, Some(s)) => Ok(RustPosition::impasse(
            s.parse::<ImpasseSetup>().map_err(value_error)?,
        )),
        (_, Some(_)) => Err(PyValueError::new_err(
            "setup= is for Impasse only (seed or steere)",
        )),
        (v, None) => Ok(RustPosition::new(v)),
    }
}

/// A position of one of the three games: pieces, side to move and the variant's rules.
/// Immutable: `play` returns a new position.
#[pyclass(module = "crown", frozen)]
#[derive(Clone)]
pub(crate) struct Position {
    /// The position of core.
    pub(crate) pos: RustPosition,
}

#[pymethods]
impl Position {
    /// The start of `variant` (`american`, `english`, `pool`, `impasse`), or the position of `fen`
    /// (a PDN FEN such as `B:W21-32:B1-12` or a 33-character Hub position string). Impasse takes
    /// `setup="seed"` or `"steere"` for its start. Raises `ValueError` for a bad FEN or name.
    #[new]
    #[pyo3(signature = (variant = "american", fen = None, setup = None))]
    pub(crate) fn py_new(
        variant: &str,
        fen: Option<&str>,
        setup: Option<&str>,
    ) -> PyResult<Position> {
        let v = variant_of(variant)?;
        let pos = match fen {
            Some(t) if is_hub_position(t) => read_hub_position(v, t).map_err(value_error)?,
            Some(t) => {
                read_fen(v, t, FenPolicy::Strict)
                    .map_err(value_error)?
                    .position
            }
            None => start_position(v, setup)?,
        };
        Ok(Position { pos })
    }

    /// The variant's identifier: `american`, `pool` or `impasse`.
    #[getter]
    fn variant(&self) -> &'static str {
        self.pos.variant().id()
    }

    /// The side to move: `black` or `white`.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        color_name(self.pos.side_to_move())
    }

    /// The PDN FEN, e.g. `B:W21,…,32:B1,…,12`.
    fn fen(&self) -> String {
        self.pos.to_fen()
    }

    /// The Hub protocol's position string (docs/protocol.md), e.g.
    /// `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww` for the start of American checkers.
    fn hub(&self) -> String {
        hub_position(&self.pos)
    }

    /// The legal moves, in Crown's order (by notation).
    fn legal_moves(&self) -> Vec<Move> {
        self.pos
            .legal_moves_sorted()
            .into_iter()
            .map(|m| Move::new(&self.pos, m))
            .collect()
    }

    /// The legal move named by `text` (Crown notation, algebraic squares or Hub text). Raises
    /// `ValueError` for an illegal, ambiguous or unreadable move, naming the legal ones.
    fn parse_move(&self, text: &str) -> PyResult<Move> {
        let m = read_move(&self.pos, text).map_err(value_error)?;
        Ok(Move::new(&self.pos, m))
    }

    /// The position after `mv` (a `Move` of this position or its text).
    fn play(&self, mv: &Bound<'_, PyAny>) -> PyResult<Position> {
        let m = self.move_of(mv)?;
        Ok(Position {
            pos: self.pos.after(&m),
        })
    }

    /// The winner (`black`/`white`) when the side to move has lost (no pieces or no legal move;
    /// Impasse: a side has removed all its checkers), else `None`.
    fn winner(&self) -> Option<&'static str> {
        self.pos.winner().map(color_name)
    }

    /// The number of move sequences of `depth` plies (perft), captures counted once per set of
    /// captured pieces (the legal-move list a player sees); `paths=True` counts every capture path.
    #[pyo3(signature = (depth, paths = false))]
    pub(crate) fn perft(&self, py: Python<'_>, depth: u32, paths: bool) -> u64 {
        let pos = self.pos;
        let convention = if paths {
            PerftConvention::Paths
        } else {
            PerftConvention::Distinct
        };
        py.allow_threads(|| crown_core::perft(&pos, depth, convention))
    }

    /// A text diagram of the board.
    fn __str__(&self) -> String {
        self.pos.diagram()
    }

    fn __repr__(&self) -> String {
        format!(
            "Position('{}', '{}')",
            self.pos.variant().id(),
            self.pos.to_fen()
        )
    }

    fn __eq__(&self, other: &Position) -> bool {
        self.pos == other.pos
    }

    fn __hash__(&self) -> u64 {
        self.pos.zobrist()
    }
}

impl Position {
    fn move_of(&self, mv: &Bound<'_, PyAny>) -> PyResult<RustMove> {
        if let Ok(m) = mv.downcast::<Move>() {
            let m = m.get().mv;
            if !self.pos.is_legal(&m) {
                return Err(PyValueError::new_err(format!(
                    "move {} is not legal in this position",
                    m.short_text()
                )));
            }
            return Ok(m);
        }
        let text: String = mv.extract()?;
        read_move(&self.pos, &text).map_err(value_error)
    }
}

/// Perft of the start of `variant` (or of `fen`) to `depth` plies.
#[pyfunction]
#[pyo3(signature = (variant, depth, fen = None, paths = false))]
pub(crate) fn perft(
    py: Python<'_>,
    variant: &str,
    depth: u32,
    fen: Option<&str>,
    paths: bool,
) -> PyResult<u64> {
    Ok(Position::py_new(variant, fen, None)?.perft(py, depth, paths))
}

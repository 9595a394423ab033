//! `crown.Move`: a legal move of one position, with its texts (Crown's notation and the Hub
//! protocol's).

use crown_core::{Move as RustMove, Position as RustPosition};
use crown_notation::hub_move;
use pyo3::prelude::*;

/// A move of one position (only meaningful there).
#[pyclass(module = "crown", frozen)]
#[derive(Clone)]
pub(crate) struct Move {
    /// The move of core.
    pub(crate) mv: RustMove,
    /// Crown's notation in the position it was made from.
    text: String,
    /// The Hub protocol's text.
    hub: String,
}

impl Move {
    /// `mv`, a legal move of `pos`, with its texts there.
    pub(crate) fn new(pos: &RustPosition, mv: RustMove) -> Move {
        Move {
            text: pos.move_text(&mv),
            hub: hub_move(pos, &mv),
            mv,
        }
    }
}

#[pymethods]
impl Move {
    /// Crown's notation: `11-15`, `11x18`, `11x18x25`, Impasse `6>10`, `x14`, `22-18=3`.
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }

    /// The Hub protocol's text: `11-15`, or `from x to x captured…` for a capture.
    #[getter]
    fn hub(&self) -> &str {
        &self.hub
    }

    /// The square the piece starts on (1–32).
    #[getter(from_square)]
    fn start_square(&self) -> u32 {
        u32::from(self.mv.from().number())
    }

    /// The square the piece ends on (1–32).
    #[getter]
    fn to_square(&self) -> u32 {
        u32::from(self.mv.to().number())
    }

    /// The squares of the captured pieces, ascending (empty for a non-capture).
    #[getter]
    fn captures(&self) -> Vec<u32> {
        self.mv
            .captures()
            .iter()
            .map(|s| u32::from(s.number()))
            .collect()
    }

    /// The landing squares of a jump in order (empty for other moves).
    #[getter]
    fn path(&self) -> Vec<u32> {
        self.mv.path().map(|s| u32::from(s.number())).collect()
    }

    /// Whether the move captures.
    #[getter]
    fn is_capture(&self) -> bool {
        self.mv.is_capture()
    }

    fn __str__(&self) -> &str {
        &self.text
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.text)
    }

    fn __eq__(&self, other: &Move) -> bool {
        self.mv == other.mv && self.text == other.text
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.text.hash(&mut h);
        h.finish()
    }
}

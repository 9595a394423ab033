//! Conversions shared by the classes: Rust errors to Python's `ValueError`, variant and colour
//! names.

use crown_core::{Color, Variant};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// `e`'s one-line message as a Python `ValueError`.
pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The variant named `name` (`american`, `english`, `pool`, `impasse`); `ValueError` otherwise.
pub(crate) fn variant_of(name: &str) -> PyResult<Variant> {
    name.parse::<Variant>().map_err(value_error)
}

/// `black` or `white`.
pub(crate) fn color_name(c: Color) -> &'static str {
    c.name()
}

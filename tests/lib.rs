//! Cross-crate tests for Crown live in `tests/tests/`; this library is empty.

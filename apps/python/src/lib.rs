//! `import crown`: Crown's rules, notation, engine and endgame databases for Python (PyO3).
//!
//! Every class and function is a thin layer over the Rust crates: positions and moves
//! (`crown-core`), FEN, Hub strings and PDN (`crown-notation`, streaming over big files), perft,
//! the engine (`crown-ai`) and the endgame databases (`crown-egdb`). Bad input raises `ValueError`
//! with the same one-line message the command line prints; nothing panics across the boundary.
//! The type stubs are in `crown.pyi` beside this crate.
//!
//! One file per concept, as in `apps/wasm/src`: `moves.rs` (`Move`), `position.rs` (`Position`,
//! `perft`), `game.rs` (`Game`), `pdn.rs` (`PdnGame`, `PdnFile`, `read_pdn`, `parse_pdn`),
//! `engine.rs` (`Engine`, `Score`, `Info`, `SearchResult`), `tablebase.rs` (`Tablebase`), and the
//! shared conversions in `convert.rs`.

mod convert;
mod engine;
mod game;
mod moves;
mod pdn;
mod position;
mod tablebase;

use pyo3::prelude::*;

/// Crown: American checkers, pool checkers and Impasse.
#[pymodule]
fn crown(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("VARIANTS", vec!["american", "pool", "impasse"])?;
    m.add_class::<position::Position>()?;
    m.add_class::<moves::Move>()?;
    m.add_class::<game::Game>()?;
    m.add_class::<pdn::PdnGame>()?;
    m.add_class::<pdn::PdnFile>()?;
    m.add_class::<engine::Score>()?;
    m.add_class::<engine::Info>()?;
    m.add_class::<engine::SearchResult>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<tablebase::Tablebase>()?;
    m.add_function(wrap_pyfunction!(pdn::read_pdn, m)?)?;
    m.add_function(wrap_pyfunction!(pdn::parse_pdn, m)?)?;
    m.add_function(wrap_pyfunction!(position::perft, m)?)?;
    Ok(())
}

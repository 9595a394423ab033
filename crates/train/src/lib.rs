//! # crown-train
//!
//! Training the Crown engine's evaluation, apart from the engine (`crown-ai`), which only reads
//! the weights it produces:
//!
//! - [`dataset`]: the binary training-data format (labelled self-play positions; written by
//!   `crown tune gen --out-dir` through `crown_arena::datagen`, read by `crown tune fit`);
//! - [`train`]: the logistic-regression fit of the trained evaluation's weights
//!   ([`crown_ai::trained`]) from labelled positions (`crown tune fit`, `crown tune loss`).
//!
//! Native only in practice (threads, files), though nothing here stops a wasm32 build.

pub mod dataset;
pub mod train;

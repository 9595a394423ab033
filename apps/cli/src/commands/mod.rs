//! One module per `crown` command: its clap arguments and its `run`. Code two commands share is in
//! [`crate::common`] (or a library crate), never in another command's module.

pub mod analyze;
pub mod annotate;
pub mod bench;
pub mod book;
pub mod bot;
pub mod egdb;
pub mod engine;
#[path = "match/mod.rs"]
pub mod r#match;
pub mod pdn;
pub mod perft;
pub mod play;
pub mod puzzles;
pub mod rules;
pub mod tune;

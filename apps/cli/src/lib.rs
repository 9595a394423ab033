//! The library half of the `crown` command: the commands whose input loops and readers are tested
//! as functions (`crown engine` and `crown play` over any `BufRead` and `Write`, `crown apply`,
//! `crown moves`, `crown analyze`), and the error type every command returns.

pub mod analyze_cmd;
pub mod commands;
pub mod common;
pub mod engine_cmd;
pub mod rules_cmd;

/// An error reported as one line on stderr with exit code 2.
#[derive(Debug)]
pub struct CliError(pub String);

impl<E: std::fmt::Display> From<E> for CliError {
    fn from(e: E) -> Self {
        CliError(e.to_string())
    }
}

//! The library half of the `crown` command: every command (under [`commands`], each with its
//! arguments and `run`; the input loops of `crown engine` and `crown play` are tested as functions
//! over any `BufRead` and `Write`), what they share ([`common`]), and the error type every command
//! returns. `main.rs` holds the clap tree and the dispatch.

pub mod commands;
pub mod common;

/// An error reported as one line on stderr with exit code 2.
#[derive(Debug)]
pub struct CliError(pub String);

impl<E: std::fmt::Display> From<E> for CliError {
    fn from(e: E) -> Self {
        CliError(e.to_string())
    }
}

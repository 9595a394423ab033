//! One module per `crown` command: its clap arguments and its `run`.

pub mod play;

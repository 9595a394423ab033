//! The new-game dialog: the games, sides and settings it offers, and its rows.

use crown_ai::level::{MAX_LEVEL, MIN_LEVEL};
use crown_core::{Game, ImpasseSetup, Variant};

/// The games offered in the new-game dialog.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameChoice {
    /// American checkers.
    American,
    /// American pool checkers.
    Pool,
    /// Impasse from the seed (checkers-like) setup.
    ImpasseSeed,
    /// Impasse from Mark Steere's figure.
    ImpasseSteere,
}

impl GameChoice {
    const ALL: [GameChoice; 4] = [
        GameChoice::American,
        GameChoice::Pool,
        GameChoice::ImpasseSeed,
        GameChoice::ImpasseSteere,
    ];

    /// Label in the dialog.
    pub fn label(self) -> &'static str {
        match self {
            GameChoice::American => "American checkers",
            GameChoice::Pool => "Pool checkers (APCA)",
            GameChoice::ImpasseSeed => "Impasse, seed setup",
            GameChoice::ImpasseSteere => "Impasse, Steere setup",
        }
    }

    /// A fresh game.
    pub fn game(self) -> Game {
        match self {
            GameChoice::American => Game::new(Variant::American),
            GameChoice::Pool => Game::new(Variant::Pool),
            GameChoice::ImpasseSeed => Game::impasse(ImpasseSetup::Seed),
            GameChoice::ImpasseSteere => Game::impasse(ImpasseSetup::Steere),
        }
    }
}

/// Which side the human takes against the engine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SideChoice {
    /// Black.
    Black,
    /// White.
    White,
    /// Decided at random.
    Random,
}

/// The choices of the new-game dialog.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Which game.
    pub game: GameChoice,
    /// Against the engine (else two people at one keyboard).
    pub vs_engine: bool,
    /// Engine level 1–10.
    pub level: u8,
    /// The human's side against the engine.
    pub side: SideChoice,
    /// Minutes per side; 0 = no clock.
    pub clock_minutes: u32,
    /// Increment per move in seconds.
    pub increment_s: u32,
}

const CLOCK_MINUTES: [u32; 8] = [0, 1, 3, 5, 10, 15, 30, 60];
const INCREMENTS: [u32; 6] = [0, 1, 2, 3, 5, 10];

/// Number of rows of the new-game dialog (the last is the Start button).
pub const DIALOG_ROWS: usize = 7;

/// The new-game dialog.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Dialog {
    /// The values being edited.
    pub settings: Settings,
    /// The focused row, 0..[`DIALOG_ROWS`].
    pub focus: usize,
}

impl Dialog {
    /// The label and value text of row `i`.
    pub fn row(&self, i: usize) -> (&'static str, String) {
        let s = &self.settings;
        match i {
            0 => ("Game", s.game.label().to_string()),
            1 => (
                "Opponent",
                if s.vs_engine {
                    "Engine".into()
                } else {
                    "Human (same keyboard)".into()
                },
            ),
            2 => ("Level", format!("{} of {MAX_LEVEL}", s.level)),
            3 => (
                "You play",
                match s.side {
                    SideChoice::Black => "Black".into(),
                    SideChoice::White => "White".into(),
                    SideChoice::Random => "Random".into(),
                },
            ),
            4 => (
                "Clock",
                if s.clock_minutes == 0 {
                    "off".into()
                } else {
                    format!("{} min", s.clock_minutes)
                },
            ),
            5 => ("Increment", format!("{} s", s.increment_s)),
            _ => ("", "[ Start game ]".into()),
        }
    }

    pub(crate) fn change(&mut self, row: usize, forward: bool, engine_available: bool) {
        let s = &mut self.settings;
        fn step<T: Copy + PartialEq>(all: &[T], cur: T, fwd: bool) -> T {
            let i = all.iter().position(|x| *x == cur).unwrap_or(0);
            let n = all.len();
            all[if fwd { (i + 1) % n } else { (i + n - 1) % n }]
        }
        match row {
            0 => s.game = step(&GameChoice::ALL, s.game, forward),
            1 => s.vs_engine = engine_available && !s.vs_engine,
            2 => {
                // round the range of crown_ai::level, both ways
                s.level = if forward {
                    if s.level >= MAX_LEVEL {
                        MIN_LEVEL
                    } else {
                        s.level + 1
                    }
                } else if s.level <= MIN_LEVEL {
                    MAX_LEVEL
                } else {
                    s.level - 1
                }
            }
            3 => {
                s.side = step(
                    &[SideChoice::Black, SideChoice::White, SideChoice::Random],
                    s.side,
                    forward,
                )
            }
            4 => s.clock_minutes = step(&CLOCK_MINUTES, s.clock_minutes, forward),
            5 => s.increment_s = step(&INCREMENTS, s.increment_s, forward),
            _ => {}
        }
    }
}

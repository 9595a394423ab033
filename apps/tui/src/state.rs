//! The whole state of the terminal app ([`App`]) and the questions the views ask of it. The
//! handlers that change it live in [`crate::app`]; the views read it ([`crate::ui`],
//! [`crate::layout`]).

use crate::dialog::{Dialog, Settings};
use crate::engine::{Purpose, Thought};
use crate::msg::Effect;
use crate::popup::Popup;
use crate::review::ReviewState;
use crown_core::rng::Rng;
use crown_core::{Color, Game, Move, Position, Square};

/// Which panel the arrow keys steer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Focus {
    /// The cursor on the board.
    Board,
    /// The move list (←/→ walk through the game).
    Moves,
}

/// Chess-style clocks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// Time left in ms, indexed by [`Color::index`].
    pub remaining_ms: [u64; 2],
    /// Added after each move, ms.
    pub increment_ms: u64,
}

/// The whole state of the terminal app.
#[derive(Clone, Debug)]
pub struct App {
    /// The game being played.
    pub game: Game,
    /// The settings it was started with (also the dialog's defaults).
    pub settings: Settings,
    /// The engine's side, or `None` for two people at one keyboard.
    pub engine_side: Option<Color>,
    /// Whether this build has an engine.
    pub engine_available: bool,
    /// Board cursor as (file 0–7, rank 1–8).
    pub cursor: (u8, u8),
    /// The selected piece.
    pub selected: Option<Square>,
    /// Browsing the game: the number of plies shown (None = the live position).
    pub view_ply: Option<usize>,
    /// Which panel the arrows steer.
    pub focus: Focus,
    /// White at the top instead of Black.
    pub flipped: bool,
    /// Show the numbers of the dark squares.
    pub show_numbers: bool,
    /// Plain ASCII, no colours.
    pub ascii: bool,
    /// The new-game dialog, when open.
    pub dialog: Option<Dialog>,
    /// A popup, when open.
    pub popup: Option<Popup>,
    /// The engine's suggestion for the human.
    pub hint: Option<Move>,
    /// The running search: its id and purpose.
    pub thinking: Option<(u64, Purpose)>,
    /// The latest engine report.
    pub thought: Option<Thought>,
    /// The clocks, when the game has them.
    pub clocks: Option<Clocks>,
    /// Player names from a loaded PDN's `Black` and `White` tags, indexed by [`Color::index`]
    /// (`None`: the panel says You / Engine / Player).
    pub names: [Option<String>; 2],
    /// The game review ("Review game", key `v`), running or done.
    pub review: Option<ReviewState>,
    /// Puzzles mode (key `z`), when on.
    pub puzzles: Option<PuzzleMode>,
    /// The player's and the puzzles' Glicko-2 ratings, kept across sessions.
    pub puzzle_ratings: crown_puzzle::PuzzleRatings,
    /// The puzzles' theme filter (key `Z`; `None`: every puzzle).
    pub puzzle_theme: Option<crown_puzzle::Theme>,
    /// Where the ratings are stored (`None`: not stored).
    pub puzzle_store: Option<std::path::PathBuf>,
    /// One line of feedback.
    pub status: String,
    /// The background endgame database build, shown at the right of the status line (e.g.
    /// `building databases (american ≤5): 37%`, then `databases ready (american ≤5)`); empty when
    /// there is none.
    pub egdb_status: String,
    /// Terminal size (columns, rows).
    pub size: (u16, u16),
    /// Whether a game was started (the dialog can then be closed with Esc).
    pub started: bool,
    /// Set when the program should end.
    pub quit: bool,
    pub(crate) effects: Vec<Effect>,
    /// The clocks wait for the next move (after a resignation or draw agreement was taken back).
    pub(crate) clock_paused: bool,
    /// The position (Zobrist key, ply count) the running search was started on.
    pub(crate) searched: (u64, usize),
    pub(crate) next_id: u64,
    /// The seeded generator of the random side choice.
    pub(crate) rng: Rng,
}

impl App {
    /// The position on the board: the live one, or the one being browsed.
    pub fn shown_position(&self) -> Position {
        match self.view_ply {
            Some(n) => self
                .game
                .history()
                .nth(n)
                .map(|(p, _)| *p)
                .unwrap_or(*self.game.position()),
            None => *self.game.position(),
        }
    }

    /// The move that led to the shown position, if any.
    pub fn shown_last_move(&self) -> Option<Move> {
        let n = self.view_ply.unwrap_or(self.game.ply_count());
        n.checked_sub(1)
            .and_then(|i| self.game.history().nth(i).map(|(_, m)| *m))
    }

    /// Whether the human may move now (live position, game on, their turn, no search for a move).
    pub fn human_to_move(&self) -> bool {
        self.view_ply.is_none()
            && self.game.outcome().is_none()
            && Some(self.game.position().side_to_move()) != self.engine_side
    }

    /// The legal moves of the selected piece.
    pub fn selected_moves(&self) -> Vec<Move> {
        match self.selected {
            Some(from) if self.human_to_move() => self
                .game
                .legal_moves()
                .iter()
                .filter(|m| m.from() == from)
                .copied()
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The square under the cursor (None on a light square).
    pub fn cursor_square(&self) -> Option<Square> {
        Square::from_file_rank(self.cursor.0, self.cursor.1)
    }
}

/// The puzzles being solved: the trainer over the committed set of the current game (the puzzle,
/// the attempt at it, the streak, this run's counts).
pub type PuzzleMode = crown_puzzle::PuzzleTrainer;

//! The application state and its update function: every key press, mouse click, tick and engine
//! report is a [`Msg`] handled by [`App::update`]; anything that must happen outside (start a search,
//! write a file) is queued as an [`Effect`] for the runtime. No rules live here: legality, outcomes
//! and move text all come from `crown-core`.

use crate::engine::{EngineEvent, Job, Purpose, Request, Thought};
use crate::layout::{self, Hit};
use crate::review::{ReviewEvent, ReviewState};
use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use crown_ai::opponent::{self, Opponent};
use crown_core::{
    Color, CountRule, DrawReason, Game, ImpasseSetup, Move, MoveError, Outcome, Position, Square,
    Variant, WinReason,
};
use crown_notation as pdn;

/// Something that happened: input, time, or a report from the engine or the file system.
#[derive(Clone, Debug)]
pub enum Msg {
    /// A key press.
    Key(KeyEvent),
    /// A mouse event.
    Mouse(MouseEvent),
    /// The terminal now has this many columns and rows.
    Resize(u16, u16),
    /// This many ms passed (drives the clocks).
    Tick(u64),
    /// The engine reported.
    Engine(EngineEvent),
    /// A file asked for by [`Effect::Load`] was read (or not: the error text).
    Loaded {
        /// The path.
        path: String,
        /// Its text, or why it could not be read.
        result: Result<String, String>,
    },
    /// The game review reported.
    Review(ReviewEvent),
    /// A file asked for by [`Effect::Save`] was written (or not).
    Saved {
        /// The path.
        path: String,
        /// Ok, or why it could not be written.
        result: Result<(), String>,
    },
}

/// Work for the runtime.
#[derive(Clone, Debug)]
pub enum Effect {
    /// Start this search on the engine thread.
    Search(Job),
    /// Stop the running search.
    StopSearch,
    /// A new game starts: clear the engine's tables.
    NewGame,
    /// Write `text` to `path`.
    Save {
        /// File path.
        path: String,
        /// PDN text.
        text: String,
    },
    /// Read `path` and answer with [`Msg::Loaded`].
    Load {
        /// File path.
        path: String,
    },
    /// Review the game (`crown_ai::review`) on a background thread, answering with
    /// [`Msg::Review`]; a review already running is stopped.
    Review {
        /// Identifies the review.
        id: u64,
        /// The game's start position.
        start: Position,
        /// The moves to review.
        moves: Vec<Move>,
    },
    /// Stop the running review.
    StopReview,
}

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
            2 => ("Level", format!("{} of 10", s.level)),
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

    fn change(&mut self, row: usize, forward: bool, engine_available: bool) {
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
                s.level = if forward {
                    s.level % 10 + 1
                } else if s.level <= 1 {
                    10
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

/// What a confirmation popup confirms.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Confirm {
    /// Leave the program with a game in progress.
    Quit,
    /// Resign the game for this side.
    Resign(Color),
    /// The other player (same keyboard) accepts a draw offered by this side.
    Draw(Color),
}

/// What an input line is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// A move in notation.
    Move,
    /// A file to save the game to.
    Save,
    /// A PDN file or a FEN to load.
    Load,
}

/// A popup over the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Popup {
    /// All keys.
    Help,
    /// Several moves go from the selected piece to the chosen square (multi-jump paths, Impasse
    /// crowns): pick one.
    Choice {
        /// The candidates.
        options: Vec<Move>,
        /// The highlighted one.
        index: usize,
    },
    /// Yes or no.
    Confirm(Confirm),
    /// A line of text.
    Input {
        /// What for.
        kind: InputKind,
        /// The text typed so far.
        text: String,
    },
    /// The game just ended.
    GameOver,
}

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
    /// One line of feedback.
    pub status: String,
    /// Terminal size (columns, rows).
    pub size: (u16, u16),
    /// Whether a game was started (the dialog can then be closed with Esc).
    pub started: bool,
    /// Set when the program should end.
    pub quit: bool,
    effects: Vec<Effect>,
    /// The clocks wait for the next move (after a resignation or draw agreement was taken back).
    clock_paused: bool,
    /// The position (Zobrist key, ply count) the running search was started on.
    searched: (u64, usize),
    next_id: u64,
    rng: u64,
}

impl App {
    /// A new app showing the new-game dialog. `seed` drives the random side choice.
    pub fn new(engine_available: bool, seed: u64) -> App {
        let settings = Settings {
            game: GameChoice::American,
            vs_engine: engine_available,
            level: 3,
            side: SideChoice::Black,
            clock_minutes: 0,
            increment_s: 0,
        };
        App {
            game: Game::new(Variant::American),
            settings,
            engine_side: None,
            engine_available,
            cursor: (2, 3),
            selected: None,
            view_ply: None,
            focus: Focus::Board,
            flipped: false,
            show_numbers: false,
            ascii: false,
            dialog: Some(Dialog { settings, focus: 0 }),
            popup: None,
            hint: None,
            thinking: None,
            thought: None,
            clocks: None,
            names: [None, None],
            review: None,
            status: String::new(),
            size: (80, 24),
            started: false,
            quit: false,
            effects: Vec::new(),
            clock_paused: false,
            searched: (0, 0),
            next_id: 1,
            rng: seed | 1,
        }
    }

    /// Take the queued effects.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    /// Start a game with these settings right away (as the dialog's Start button does).
    pub fn start_game(&mut self, settings: Settings) {
        self.stop_thinking();
        self.settings = settings;
        self.game = settings.game.game();
        let first = self.game.variant().first_player();
        self.engine_side = if settings.vs_engine && self.engine_available {
            let human = match settings.side {
                SideChoice::Black => Color::Black,
                SideChoice::White => Color::White,
                SideChoice::Random => {
                    if self.random() & 1 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    }
                }
            };
            Some(human.opposite())
        } else {
            None
        };
        // The human's pieces at the bottom (Black starts at the top of the standard diagram).
        self.flipped = self.engine_side == Some(Color::White);
        self.clocks = (settings.clock_minutes > 0).then(|| Clocks {
            remaining_ms: [u64::from(settings.clock_minutes) * 60_000; 2],
            increment_ms: u64::from(settings.increment_s) * 1000,
        });
        self.dialog = None;
        self.popup = None;
        self.selected = None;
        self.hint = None;
        self.thought = None;
        self.view_ply = None;
        self.clock_paused = false;
        self.names = [None, None];
        self.started = true;
        self.effects.push(Effect::NewGame);
        self.status = match self.engine_side {
            Some(e) => format!(
                "New game: you play {} against the engine (level {}). {} moves first.",
                e.opposite(),
                settings.level,
                first
            ),
            None => format!("New game: two players. {first} moves first."),
        };
        self.home_cursor();
        self.after_change();
    }

    fn random(&mut self) -> u64 {
        // splitmix64
        self.rng = self.rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

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

    fn home_cursor(&mut self) {
        let moves = self.game.legal_moves();
        if let Some(m) = moves.first() {
            if self.human_to_move() {
                self.cursor = (m.from().file(), m.from().rank());
            }
        }
    }

    /// Handle one message.
    pub fn update(&mut self, msg: Msg) {
        match msg {
            Msg::Key(k) => {
                if k.kind != KeyEventKind::Release {
                    self.on_key(k);
                }
            }
            Msg::Mouse(m) => self.on_mouse(m),
            Msg::Resize(w, h) => self.size = (w, h),
            Msg::Tick(ms) => self.on_tick(ms),
            Msg::Engine(e) => self.on_engine(e),
            Msg::Loaded { path, result } => match result {
                Ok(text) => self.load_text(&text, &path),
                Err(e) => self.status = format!("Could not read {path}: {e}"),
            },
            Msg::Review(e) => self.on_review(e),
            Msg::Saved { path, result } => {
                self.status = match result {
                    Ok(()) => format!("Game saved to {path}"),
                    Err(e) => format!("Could not save to {path}: {e}"),
                }
            }
        }
    }

    // ---- keys -------------------------------------------------------------------------------

    fn on_key(&mut self, k: KeyEvent) {
        if k.modifiers.contains(KeyModifiers::CONTROL) && k.code == KeyCode::Char('c') {
            self.stop_thinking();
            self.quit = true;
            return;
        }
        if layout::too_small(self.size) {
            if matches!(k.code, KeyCode::Char('q') | KeyCode::Esc) {
                self.request_quit();
            }
            return;
        }
        if self.dialog.is_some() {
            self.dialog_key(k.code);
        } else if self.popup.is_some() {
            self.popup_key(k.code);
        } else {
            self.main_key(k.code);
        }
    }

    fn dialog_key(&mut self, code: KeyCode) {
        let Some(mut d) = self.dialog else { return };
        match code {
            KeyCode::Up | KeyCode::Char('k') | KeyCode::BackTab => {
                d.focus = (d.focus + DIALOG_ROWS - 1) % DIALOG_ROWS
            }
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                d.focus = (d.focus + 1) % DIALOG_ROWS
            }
            KeyCode::Left | KeyCode::Char('h') => d.change(d.focus, false, self.engine_available),
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char(' ') => {
                d.change(d.focus, true, self.engine_available)
            }
            KeyCode::Enter => {
                self.start_game(d.settings);
                return;
            }
            KeyCode::Esc => {
                if self.started {
                    self.dialog = None;
                    // The engine may have moved, or be due to move, while the dialog was open.
                    self.after_change();
                }
                return;
            }
            KeyCode::Char('q') => {
                self.dialog = None;
                self.request_quit();
                if !self.quit && !self.started {
                    self.dialog = Some(d);
                }
                return;
            }
            _ => {}
        }
        self.dialog = Some(d);
    }

    fn popup_key(&mut self, code: KeyCode) {
        let Some(popup) = self.popup.clone() else {
            return;
        };
        match popup {
            Popup::Help | Popup::GameOver => match code {
                KeyCode::Char('n') if popup == Popup::GameOver => {
                    self.popup = None;
                    self.open_dialog();
                }
                KeyCode::Char('u') if popup == Popup::GameOver => {
                    self.popup = None;
                    self.undo();
                }
                KeyCode::Char('q') if popup == Popup::GameOver => {
                    self.popup = None;
                    self.request_quit();
                }
                _ => self.popup = None,
            },
            Popup::Choice { options, index } => match code {
                KeyCode::Up | KeyCode::Char('k') => {
                    self.popup = Some(Popup::Choice {
                        index: (index + options.len() - 1) % options.len(),
                        options,
                    })
                }
                KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                    self.popup = Some(Popup::Choice {
                        index: (index + 1) % options.len(),
                        options,
                    })
                }
                KeyCode::Enter | KeyCode::Char(' ') => {
                    self.popup = None;
                    self.play(options[index]);
                }
                KeyCode::Char(c @ '1'..='9') => {
                    let i = c as usize - '1' as usize;
                    if i < options.len() {
                        self.popup = None;
                        self.play(options[i]);
                    }
                }
                KeyCode::Esc => {
                    self.popup = None;
                    self.status = "Move cancelled.".into();
                }
                _ => {}
            },
            Popup::Confirm(what) => match code {
                KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Enter => {
                    self.popup = None;
                    self.confirmed(what);
                }
                KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc => {
                    self.popup = None;
                    if let Confirm::Draw(c) = what {
                        self.status = format!("{} declines the draw.", c.opposite());
                    }
                }
                _ => {}
            },
            Popup::Input { kind, mut text } => match code {
                KeyCode::Esc => self.popup = None,
                KeyCode::Enter => {
                    self.popup = None;
                    self.submit_input(kind, text.trim());
                }
                KeyCode::Backspace => {
                    text.pop();
                    self.popup = Some(Popup::Input { kind, text });
                }
                KeyCode::Char(c) => {
                    if text.chars().count() < 200 {
                        text.push(c);
                    }
                    self.popup = Some(Popup::Input { kind, text });
                }
                _ => {}
            },
        }
    }

    fn main_key(&mut self, code: KeyCode) {
        match code {
            KeyCode::Left | KeyCode::Right | KeyCode::Up | KeyCode::Down
                if self.focus == Focus::Moves =>
            {
                match code {
                    KeyCode::Left | KeyCode::Up => self.browse_by(-1),
                    _ => self.browse_by(1),
                }
            }
            KeyCode::Left | KeyCode::Char('h') => self.move_cursor(-1, 0),
            KeyCode::Right | KeyCode::Char('l') => self.move_cursor(1, 0),
            KeyCode::Up | KeyCode::Char('k') => self.move_cursor(0, 1),
            KeyCode::Down | KeyCode::Char('j') => self.move_cursor(0, -1),
            KeyCode::Enter | KeyCode::Char(' ') => {
                if let Some(sq) = self.cursor_square() {
                    self.activate(sq);
                }
            }
            KeyCode::Tab | KeyCode::BackTab => {
                self.focus = match self.focus {
                    Focus::Board => Focus::Moves,
                    Focus::Moves => Focus::Board,
                };
                self.status = match self.focus {
                    Focus::Board => "Arrows move the cursor on the board.".into(),
                    Focus::Moves => {
                        "Arrows walk through the moves; End returns to the game.".into()
                    }
                };
            }
            KeyCode::Char(',') | KeyCode::Char('<') | KeyCode::PageUp => self.browse_by(-1),
            KeyCode::Char('.') | KeyCode::Char('>') | KeyCode::PageDown => self.browse_by(1),
            KeyCode::Home => self.browse_to(Some(0)),
            KeyCode::End => self.browse_to(None),
            KeyCode::Esc => {
                self.selected = None;
                self.hint = None;
                if self.view_ply.is_some() {
                    self.browse_to(None);
                }
            }
            KeyCode::Char(c @ ('0'..='9' | 'x' | ':' | 'm')) => {
                let text = if c.is_ascii_digit() || c == 'x' {
                    c.to_string()
                } else {
                    String::new()
                };
                self.popup = Some(Popup::Input {
                    kind: InputKind::Move,
                    text,
                });
            }
            KeyCode::Char('u') => self.undo(),
            KeyCode::Char('t') => self.hint(),
            KeyCode::Char('d') => self.offer_draw(),
            KeyCode::Char('r') if self.game.outcome().is_none() => {
                let who = self
                    .engine_side
                    .map(Color::opposite)
                    .unwrap_or(self.game.position().side_to_move());
                self.popup = Some(Popup::Confirm(Confirm::Resign(who)));
            }
            KeyCode::Char('c') => self.claim_count(),
            KeyCode::Char('s') => {
                self.popup = Some(Popup::Input {
                    kind: InputKind::Save,
                    text: format!("crown-{}.pdn", self.game.variant().id()),
                })
            }
            KeyCode::Char('o') => {
                self.popup = Some(Popup::Input {
                    kind: InputKind::Load,
                    text: String::new(),
                })
            }
            KeyCode::Char('v') => self.review_game(),
            KeyCode::Char(']') => self.jump_moment(true),
            KeyCode::Char('[') => self.jump_moment(false),
            KeyCode::Char('f') => self.flipped = !self.flipped,
            KeyCode::Char('#') => self.show_numbers = !self.show_numbers,
            KeyCode::Char('a') => self.ascii = !self.ascii,
            KeyCode::Char('n') => self.open_dialog(),
            KeyCode::Char('?') | KeyCode::F(1) => self.popup = Some(Popup::Help),
            KeyCode::Char('q') => self.request_quit(),
            _ => {}
        }
    }

    // ---- game review ---------------------------------------------------------------------------

    /// "Review game": start a review of the moves so far, or stop the one running.
    pub fn review_game(&mut self) {
        if self.review.as_ref().is_some_and(|r| r.result.is_none()) {
            self.effects.push(Effect::StopReview);
            self.review = None;
            self.status = "Review stopped.".into();
            return;
        }
        if !self.engine_available {
            self.status = "This build has no engine to review with.".into();
            return;
        }
        let moves = self.game.moves();
        if moves.is_empty() {
            self.status = "No moves to review yet.".into();
            return;
        }
        let id = self.next_id;
        self.next_id += 1;
        self.effects.push(Effect::Review {
            id,
            start: *self.game.start(),
            moves: moves.clone(),
        });
        self.status = format!("Reviewing {} moves…", moves.len());
        self.review = Some(ReviewState {
            id,
            start: *self.game.start(),
            moves,
            done: 0,
            result: None,
        });
    }

    /// The review, when it belongs to this game (its moves and the game's agree on the plies both
    /// have).
    pub fn current_review(&self) -> Option<&ReviewState> {
        let r = self
            .review
            .as_ref()
            .filter(|r| r.start == *self.game.start())?;
        let moves = self.game.moves();
        let n = moves.len().min(r.moves.len());
        (moves[..n] == r.moves[..n]).then_some(r)
    }

    fn on_review(&mut self, e: ReviewEvent) {
        let Some(r) = self.review.as_mut() else {
            return;
        };
        match e {
            ReviewEvent::Progress { id, done } if id == r.id => r.done = done,
            ReviewEvent::Done { id, review } if id == r.id => match review {
                Some(review) => {
                    let first = review.first;
                    let count = |side| {
                        let s = review.summary(side);
                        format!(
                            "{side} {}?! {}? {}??",
                            s.inaccuracies, s.mistakes, s.blunders
                        )
                    };
                    self.status = format!(
                        "Review done: {}, {}. [ and ] jump between key moments.",
                        count(first),
                        count(first.opposite())
                    );
                    r.done = r.moves.len();
                    r.result = Some(*review);
                }
                None => self.review = None,
            },
            _ => {}
        }
    }

    /// Show the position after the next (or previous) key moment of the review: a turning point
    /// or a `?`/`??` move. From the live position, `]` goes to the first and `[` to the last.
    fn jump_moment(&mut self, forward: bool) {
        let Some(r) = self.current_review() else {
            self.status = "Press v to review the game first.".into();
            return;
        };
        let moments = r.key_moments();
        let n = self.game.ply_count();
        // The move shown now is the one before the position shown; from the live position `]`
        // starts at the beginning of the game.
        let cur = match self.view_ply {
            Some(v) => v as i64 - 1,
            None if forward => -1,
            None => n as i64,
        };
        let target = if forward {
            moments.iter().copied().find(|&p| p as i64 > cur)
        } else {
            moments.iter().rev().copied().find(|&p| (p as i64) < cur)
        };
        let Some(ply) = target.filter(|p| *p < n) else {
            self.status = "No more key moments that way.".into();
            return;
        };
        let text = self.describe_moment(ply);
        self.browse_to(Some(ply + 1));
        self.status = text;
    }

    /// `12... 23-19?? (balanced → Black winning; better 22-17 +0.35)` for the move at `ply`.
    fn describe_moment(&self, ply: usize) -> String {
        let Some(r) = self.current_review().and_then(|r| r.result.as_ref()) else {
            return String::new();
        };
        let Some((pos, mv)) = self.game.history().nth(ply) else {
            return String::new();
        };
        let (num, second) =
            pdn::move_number(self.game.variant(), self.game.start().side_to_move(), ply);
        let mut t = format!(
            "{num}{} {}",
            if second { "..." } else { "." },
            pos.move_text(mv)
        );
        let m = r.at(ply);
        if let Some(mark) = m.and_then(|m| m.mark) {
            t.push_str(mark.symbol());
        }
        if let Some(tp) = r.turning_points.iter().find(|t| t.ply == ply) {
            let band = |b| match b {
                crown_ai::review::Band::FirstWins => format!("{} winning", r.first),
                crown_ai::review::Band::SecondWins => format!("{} winning", r.first.opposite()),
                crown_ai::review::Band::Balanced => "balanced".to_string(),
            };
            t.push_str(&format!(" ({} -> {})", band(tp.before), band(tp.after)));
        }
        if let Some(m) = m.filter(|m| !m.is_best()) {
            t.push_str(&format!(
                "; better {} {}",
                pos.move_text(&m.best),
                m.best_score
            ));
        }
        t
    }

    fn open_dialog(&mut self) {
        self.dialog = Some(Dialog {
            settings: self.settings,
            focus: DIALOG_ROWS - 1,
        });
    }

    fn request_quit(&mut self) {
        if self.started && self.game.outcome().is_none() && self.game.ply_count() > 0 {
            self.popup = Some(Popup::Confirm(Confirm::Quit));
        } else {
            self.stop_thinking();
            self.quit = true;
        }
    }

    fn confirmed(&mut self, what: Confirm) {
        match what {
            Confirm::Quit => {
                self.stop_thinking();
                self.quit = true;
            }
            Confirm::Resign(c) => {
                self.stop_thinking();
                self.game.resign(c);
                self.after_change();
            }
            Confirm::Draw(_) => {
                self.game.agree_draw();
                self.after_change();
            }
        }
    }

    fn move_cursor(&mut self, dx: i8, dy: i8) {
        let (dx, dy) = if self.flipped { (-dx, -dy) } else { (dx, dy) };
        let f = (self.cursor.0 as i8 + dx).clamp(0, 7) as u8;
        let r = (self.cursor.1 as i8 + dy).clamp(1, 8) as u8;
        self.cursor = (f, r);
    }

    // ---- playing ----------------------------------------------------------------------------

    /// Act on a board square: select a piece, move the selected piece there, or ask which of several
    /// moves is meant.
    pub fn activate(&mut self, sq: Square) {
        self.cursor = (sq.file(), sq.rank());
        if self.view_ply.is_some() {
            self.browse_to(None);
            self.status = "Back to the game.".into();
            return;
        }
        if let Some(o) = self.game.outcome() {
            self.status = format!("The game is over ({o}). Press n for a new game.");
            return;
        }
        if !self.human_to_move() {
            self.status = "The engine is thinking…".into();
            return;
        }
        let legal = self.game.legal_moves();
        if let Some(from) = self.selected {
            let cands: Vec<Move> = legal
                .iter()
                .filter(|m| m.from() == from && m.to() == sq)
                .copied()
                .collect();
            match cands.len() {
                0 if sq == from => {
                    self.selected = None;
                    self.status.clear();
                    return;
                }
                0 => {}
                1 => {
                    self.play(cands[0]);
                    return;
                }
                _ => {
                    self.popup = Some(Popup::Choice {
                        options: cands,
                        index: 0,
                    });
                    self.status = "Several moves end there: choose one.".into();
                    return;
                }
            }
        }
        if legal.iter().any(|m| m.from() == sq) {
            self.selected = Some(sq);
            self.status = if self.game.position().must_capture() {
                format!("{sq} selected: you must capture.")
            } else {
                format!("{sq} selected.")
            };
        } else if let Some(from) = self.selected {
            self.status = format!("No legal move from {from} to {sq}.");
        } else {
            let pos = self.game.position();
            let mine = pos
                .piece_at(sq)
                .is_some_and(|p| p.color == pos.side_to_move());
            self.status = if mine && pos.must_capture() {
                let who: Vec<String> = pos.capturers().iter().map(|s| s.to_string()).collect();
                format!(
                    "The piece on {sq} cannot move: a capture is compulsory ({}).",
                    who.join(", ")
                )
            } else if mine {
                format!("The piece on {sq} has no legal move.")
            } else {
                format!("Select one of {}'s pieces.", pos.side_to_move())
            };
        }
    }

    fn play(&mut self, mv: Move) {
        // A hint or draw offer was about the position before this move: drop it.
        if self.thinking.is_some_and(|t| t.1 != Purpose::Move) {
            self.stop_thinking();
        }
        let before = *self.game.position();
        let mover = before.side_to_move();
        let text = before.move_text(&mv);
        match self.game.play(&mv) {
            Ok(()) => {
                self.clock_paused = false;
                if let Some(c) = &mut self.clocks {
                    c.remaining_ms[mover.index()] += c.increment_ms;
                }
                self.selected = None;
                self.hint = None;
                self.status = if Some(mover) == self.engine_side {
                    format!("The engine played {text}.")
                } else {
                    format!("{mover} played {text}.")
                };
                self.after_change();
            }
            Err(e) => self.status = format!("Cannot play {text}: {e}"),
        }
    }

    fn submit_input(&mut self, kind: InputKind, text: &str) {
        let text = text.trim();
        match kind {
            InputKind::Move => {
                if !self.human_to_move() {
                    self.status = "It is not your move.".into();
                    return;
                }
                match typed_move(&self.game, text) {
                    Ok(mv) => self.play(mv),
                    Err(e) if e.kind == pdn::InputErrorKind::AmbiguousMove => {
                        let candidates = match self.game.position().parse_move(text) {
                            Err(MoveError::Ambiguous { candidates, .. }) => candidates,
                            _ => Vec::new(),
                        };
                        // The same choice list a click opens: pick the path or the crowned single.
                        let options: Vec<Move> = self
                            .game
                            .legal_moves()
                            .iter()
                            .filter(|m| candidates.contains(&m.long_text()))
                            .copied()
                            .collect();
                        if options.len() > 1 {
                            self.selected = options.first().map(Move::from);
                            self.popup = Some(Popup::Choice { options, index: 0 });
                            self.status = format!("{text} fits several moves: choose one.");
                        } else if let [only] = options[..] {
                            self.play(only);
                        } else {
                            self.status = format!("{e}");
                        }
                    }
                    Err(e) => self.status = format!("{e}"),
                }
            }
            InputKind::Save => {
                if text.is_empty() {
                    return;
                }
                let (white, black) = match self.engine_side {
                    Some(Color::White) => ("Crown engine", "Player"),
                    Some(Color::Black) => ("Player", "Crown engine"),
                    None => ("Player 2", "Player 1"),
                };
                let pdn = pdn::game_to_pdn(
                    &self.game,
                    &[
                        ("Event", "crown-tui game"),
                        ("Black", black),
                        ("White", white),
                    ],
                );
                self.effects.push(Effect::Save {
                    path: text.to_string(),
                    text: pdn,
                });
            }
            InputKind::Load => {
                if text.is_empty() {
                    return;
                }
                if looks_like_fen(text) {
                    self.load_text(text, "FEN");
                } else {
                    self.effects.push(Effect::Load {
                        path: text.to_string(),
                    });
                }
            }
        }
    }

    /// Replace the game with one read from PDN or FEN text (`source` names it in messages).
    pub fn load_text(&mut self, text: &str, source: &str) {
        let t = text.trim();
        let fen = looks_like_fen(t);
        let mut names = [None, None];
        let mut count = 1;
        // What a lenient FEN reading repaired (`?` to move, a man on its king row), shown in the
        // status line after the load message.
        let mut repaired: Vec<String> = Vec::new();
        let loaded = if fen {
            pdn::read_fen(self.game.variant(), t, pdn::FenPolicy::Lenient)
                .map(|r| {
                    repaired = r.warnings;
                    Game::from_position(r.position)
                })
                .map_err(|e| e.to_string())
        } else {
            let games = pdn::read_games(t);
            count = games.len();
            if let Some(Ok(first)) = games.first() {
                for color in [Color::Black, Color::White] {
                    names[color.index()] = first
                        .tag(if color == Color::Black {
                            "Black"
                        } else {
                            "White"
                        })
                        .map(str::trim)
                        .filter(|n| !n.is_empty() && *n != "?")
                        .map(str::to_string);
                }
            }
            pdn::pdn_to_game(t).map_err(|e| e.to_string())
        };
        match loaded {
            Ok(game) => {
                self.stop_thinking();
                self.game = game;
                self.clock_paused = false;
                self.names = names;
                self.started = true;
                self.selected = None;
                self.hint = None;
                self.view_ply = None;
                self.thought = None;
                if let Some(c) = &mut self.clocks {
                    let full = u64::from(self.settings.clock_minutes) * 60_000;
                    c.remaining_ms = [full; 2];
                }
                let plies = self.game.ply_count();
                let what = format!(
                    "{}, {plies} {}",
                    self.game.variant().name(),
                    if plies == 1 { "ply" } else { "plies" }
                );
                let loaded = if count > 1 {
                    format!("Loaded game 1 of {count} from {source}: {what}.")
                } else {
                    format!("Loaded {source}: {what}.")
                };
                let loaded = match repaired.first() {
                    Some(w) => format!("{loaded} Warning: {w}"),
                    None => loaded,
                };
                self.effects.push(Effect::NewGame);
                self.home_cursor();
                self.after_change();
                // The load message stays visible, with the result when the game is over.
                self.status = match self.game.outcome() {
                    Some(o) => format!("{loaded} {o}."),
                    None => loaded,
                };
            }
            Err(e) => self.status = format!("Could not load {source}: {e}"),
        }
    }

    /// Take back moves: against the engine, back to the human's previous turn; otherwise one ply.
    /// A resignation or draw agreement is taken back on its own (the game goes on, the clocks wait
    /// for the next move); a loss on time cannot be taken back.
    pub fn undo(&mut self) {
        let declared = match self.game.outcome() {
            Some(Outcome::Win {
                reason: WinReason::Time,
                ..
            }) => {
                self.popup = None;
                self.status =
                    "The game was lost on time and cannot be taken back. Press n for a new game."
                        .into();
                return;
            }
            Some(Outcome::Win {
                reason: WinReason::Resignation,
                ..
            }) => Some("resignation"),
            Some(Outcome::Draw {
                reason: DrawReason::Agreement,
            }) => Some("draw agreement"),
            _ => None,
        };
        if declared.is_none() && self.game.ply_count() == 0 {
            self.popup = None;
            self.status = "Nothing to undo.".into();
            return;
        }
        self.stop_thinking();
        self.popup = None;
        self.view_ply = None;
        self.selected = None;
        self.hint = None;
        let before = self.game.ply_count();
        if let Some(what) = declared {
            self.game.undo();
            self.clock_paused = true;
            self.status = format!("Took back the {what}; the game goes on.");
        } else {
            match self.engine_side {
                None => {
                    self.game.undo();
                }
                Some(engine) => {
                    let human = engine.opposite();
                    loop {
                        let undone = self.game.undo();
                        if self.game.position().side_to_move() == human || undone.is_none() {
                            break;
                        }
                        if self.game.ply_count() == 0 {
                            break;
                        }
                    }
                }
            }
            let n = before - self.game.ply_count();
            self.status = format!("Took back {n} {}.", if n == 1 { "ply" } else { "plies" });
        }
        self.after_change();
    }

    fn hint(&mut self) {
        if !self.engine_available {
            self.status = "No engine in this build: hints are not available.".into();
        } else if !self.human_to_move() || self.thinking.is_some() {
            self.status = "A hint is available on your move.".into();
        } else {
            self.search(Purpose::Hint);
            self.status = "Looking for a hint…".into();
        }
    }

    fn offer_draw(&mut self) {
        if self.game.outcome().is_some() {
            return;
        }
        match self.engine_side {
            None => {
                let c = self.game.position().side_to_move();
                self.popup = Some(Popup::Confirm(Confirm::Draw(c)));
            }
            Some(_) => {
                if !self.human_to_move() || self.thinking.is_some() {
                    self.status = "Offer a draw on your move.".into();
                } else {
                    self.search(Purpose::DrawOffer);
                    self.status = "Draw offered; the engine considers it…".into();
                }
            }
        }
    }

    fn claim_count(&mut self) {
        if self.game.variant() != Variant::Pool {
            self.status = "Counts (APCA rules 27 and 28) apply only to pool checkers.".into();
            return;
        }
        let who = self
            .engine_side
            .map(Color::opposite)
            .unwrap_or(self.game.position().side_to_move());
        let r = self
            .game
            .claim_count(who, CountRule::Thirteen)
            .or_else(|_| self.game.claim_count(who, CountRule::ThirtyEight));
        self.status = match r {
            Ok(()) => match self.game.count() {
                Some(c) => format!("{who} claims the {}-move count.", c.rule.limit()),
                None => "Count claimed.".into(),
            },
            Err(e) => e.to_string(),
        };
    }

    fn browse_by(&mut self, delta: i64) {
        let n = self.game.ply_count() as i64;
        let cur = self.view_ply.map(|v| v as i64).unwrap_or(n);
        let next = (cur + delta).clamp(0, n);
        self.browse_to(if next >= n { None } else { Some(next as usize) });
    }

    /// Show the position after `ply` plies (`None`: the live position).
    pub fn browse_to(&mut self, ply: Option<usize>) {
        let n = self.game.ply_count();
        let was_browsing = self.view_ply.is_some();
        self.view_ply = ply.filter(|p| *p < n);
        self.selected = None;
        match self.view_ply {
            Some(p) => {
                self.status =
                    format!("Viewing after ply {p} of {n}. End or Esc returns to the game.")
            }
            None if was_browsing => self.status = "Back to the game.".into(),
            None => {}
        }
    }

    // ---- engine -----------------------------------------------------------------------------

    fn search(&mut self, purpose: Purpose) {
        let id = self.next_id;
        self.next_id += 1;
        self.thinking = Some((id, purpose));
        self.searched = (self.game.position().zobrist(), self.game.ply_count());
        self.thought = None;
        let stm = self.game.position().side_to_move();
        let request = Request {
            level: if purpose == Purpose::Move {
                self.settings.level
            } else {
                10
            },
            clock: if purpose == Purpose::Move {
                self.clocks
                    .map(|c| (c.remaining_ms[stm.index()], c.increment_ms))
            } else {
                None
            },
            movetime_ms: match purpose {
                Purpose::Move => None,
                Purpose::Hint => Some(opponent::HINT_MOVETIME_MS),
                Purpose::DrawOffer => Some(opponent::DRAW_JUDGEMENT_MOVETIME_MS),
            },
        };
        self.effects.push(Effect::Search(Job {
            id,
            purpose,
            game: self.game.clone(),
            request,
        }));
    }

    fn stop_thinking(&mut self) {
        if self.thinking.take().is_some() {
            self.effects.push(Effect::StopSearch);
        }
    }

    fn on_engine(&mut self, e: EngineEvent) {
        match e {
            EngineEvent::Info { id, thought } => {
                if self.thinking.map(|t| t.0) == Some(id) {
                    self.thought = Some(thought);
                }
            }
            EngineEvent::Done { id, best, thought } => {
                let Some((cur, purpose)) = self.thinking else {
                    return;
                };
                if cur != id {
                    return;
                }
                self.thinking = None;
                if self.searched != (self.game.position().zobrist(), self.game.ply_count()) {
                    // Judged on another position: the verdict does not apply to this one.
                    self.after_change();
                    return;
                }
                self.thought = Some(thought.clone());
                match purpose {
                    Purpose::Move => match best {
                        Some(mv) if self.game.position().is_legal(&mv) => self.play(mv),
                        _ => self.status = "The engine found no move.".into(),
                    },
                    Purpose::Hint => {
                        self.hint = best;
                        self.status = match best {
                            Some(m) => format!(
                                "Hint: {} ({}).",
                                self.game.position().move_text(&m),
                                thought.score
                            ),
                            None => "No hint: there is no legal move.".into(),
                        };
                        if let Some(m) = best {
                            self.cursor = (m.from().file(), m.from().rank());
                        }
                    }
                    Purpose::DrawOffer => {
                        // The search saw the human to move; turn the score to the engine's view.
                        let engine_view = thought.score.negate();
                        if Opponent::accepts_draw(engine_view, self.game.ply_count()) {
                            self.game.agree_draw();
                            self.status = format!("The engine accepts the draw ({engine_view}).");
                            self.after_change();
                        } else {
                            self.status = format!("The engine declines the draw ({engine_view}).");
                        }
                    }
                }
                // Whatever the search was for, the engine must not sit idle on its turn.
                if self.game.outcome().is_none() {
                    self.after_change();
                }
            }
        }
    }

    /// After any change of the game: report the end, or let the engine move.
    fn after_change(&mut self) {
        if let Some(o) = self.game.outcome() {
            self.stop_thinking();
            self.selected = None;
            if self.dialog.is_none() {
                self.popup = Some(Popup::GameOver);
            }
            self.status = format!("{o}.");
            return;
        }
        if self.dialog.is_none() && self.engine_side == Some(self.game.position().side_to_move()) {
            match self.thinking {
                Some((_, Purpose::Move)) => {}
                Some(_) => {
                    // A hint or draw search cannot hold up the engine's move.
                    self.stop_thinking();
                    self.search(Purpose::Move);
                }
                None => self.search(Purpose::Move),
            }
        } else if self.human_to_move() {
            self.home_cursor_if_idle();
        }
    }

    fn home_cursor_if_idle(&mut self) {
        let legal = self.game.legal_moves();
        let on_own = self
            .cursor_square()
            .is_some_and(|s| legal.iter().any(|m| m.from() == s));
        if !on_own {
            self.home_cursor();
        }
    }

    fn on_tick(&mut self, ms: u64) {
        if self.dialog.is_some()
            || self.clock_paused
            || self.game.outcome().is_some()
            || self.game.ply_count() == 0
        {
            return;
        }
        let stm = self.game.position().side_to_move();
        let Some(c) = &mut self.clocks else { return };
        let r = &mut c.remaining_ms[stm.index()];
        *r = r.saturating_sub(ms);
        if *r == 0 {
            self.stop_thinking();
            self.game.lose_on_time(stm);
            self.after_change();
        }
    }

    // ---- mouse ------------------------------------------------------------------------------

    fn on_mouse(&mut self, m: MouseEvent) {
        let hit = layout::hit(self, m.column, m.row);
        match m.kind {
            MouseEventKind::Down(button) => self.click(hit, button),
            MouseEventKind::ScrollUp if self.dialog.is_none() && self.popup.is_none() => {
                self.browse_by(-1)
            }
            MouseEventKind::ScrollDown if self.dialog.is_none() && self.popup.is_none() => {
                self.browse_by(1)
            }
            _ => {}
        }
    }

    fn click(&mut self, hit: Hit, button: MouseButton) {
        let fwd = button != MouseButton::Right;
        if let Some(mut d) = self.dialog {
            match hit {
                Hit::DialogRow(i) if i == DIALOG_ROWS - 1 => self.start_game(d.settings),
                Hit::DialogRow(i) => {
                    d.focus = i;
                    d.change(i, fwd, self.engine_available);
                    self.dialog = Some(d);
                }
                _ => {}
            }
            return;
        }
        if let Some(popup) = self.popup.clone() {
            match (popup, hit) {
                (Popup::Choice { options, .. }, Hit::Choice(i)) if i < options.len() => {
                    self.popup = None;
                    self.play(options[i]);
                }
                (Popup::Choice { options, .. }, Hit::Square(sq)) => {
                    // Narrow the choice by a square on the path, a captured piece or the crowned single.
                    let fit: Vec<Move> = options
                        .iter()
                        .filter(|m| {
                            m.path().any(|p| p == sq && p != m.to())
                                || m.captures().iter().any(|c| c == sq)
                                || m.crown().is_some_and(|(c, _)| c == sq)
                        })
                        .copied()
                        .collect();
                    match fit.len() {
                        0 => {
                            self.status =
                                "Click a move in the list, or a square only one of them uses."
                                    .into()
                        }
                        1 => {
                            self.popup = None;
                            self.play(fit[0]);
                        }
                        _ => {
                            self.popup = Some(Popup::Choice {
                                options: fit,
                                index: 0,
                            })
                        }
                    }
                }
                (Popup::Choice { .. }, Hit::Outside) => {
                    self.popup = None;
                    self.status = "Move cancelled.".into();
                }
                (Popup::Choice { .. }, _) => {}
                (Popup::Confirm(_), Hit::Yes) => self.popup_key(KeyCode::Char('y')),
                (Popup::Confirm(_), Hit::No) => self.popup_key(KeyCode::Char('n')),
                (Popup::Input { .. }, Hit::Yes) => self.popup_key(KeyCode::Enter),
                (Popup::Input { .. }, Hit::No) => self.popup_key(KeyCode::Esc),
                (Popup::GameOver, Hit::Yes) => self.popup_key(KeyCode::Char('n')),
                (Popup::GameOver, _) | (Popup::Help, _) => self.popup = None,
                _ => {}
            }
            return;
        }
        match hit {
            Hit::Square(sq) => self.activate(sq),
            Hit::Ply(p) => {
                self.focus = Focus::Moves;
                self.browse_to(Some(p + 1));
                if p + 1 >= self.game.ply_count() {
                    self.browse_to(None);
                }
            }
            Hit::Button(key) => self.main_key(KeyCode::Char(key)),
            _ => {}
        }
    }
}

fn looks_like_fen(t: &str) -> bool {
    let t = t.trim().trim_matches('"');
    let mut c = t.chars();
    matches!(c.next(), Some('W' | 'B' | 'w' | 'b' | '?')) && c.next() == Some(':')
}

/// A move typed in the move box, read by the one move reader of crown-notation
/// ([`crown_notation::read_game_move`]: Crown notation, algebraic squares `f6-e5`, Hub captures).
///
/// # Errors
/// The reader's [`crown_notation::InputError`] (one printable line of at most 200 characters).
pub fn typed_move(game: &Game, text: &str) -> Result<Move, pdn::InputError> {
    pdn::read_game_move(game, text)
}

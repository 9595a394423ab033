//! The application's dispatch: every key press, mouse click, tick and engine report is a [`Msg`]
//! handled by [`App::update`]; anything that must happen outside (start a search, write a file) is
//! queued as an [`Effect`] for the runtime. No rules live here: legality, outcomes and move text all
//! come from `crown-core`.
//!
//! The state itself is [`crate::state`] (with the new-game [`crate::dialog`] and the
//! [`crate::popup`]s); the handlers are split by concern: [`App::update`], the main keys and the
//! confirmations here, the dialog's and popups' keys, playing moves, the engine's turn, the mouse
//! and the game review in this module's files.

mod dialog_keys;
mod mouse;
mod play;
mod popup_keys;
mod puzzles;
mod review;
mod thinking;

pub use crate::dialog::{Dialog, GameChoice, Settings, SideChoice, DIALOG_ROWS};
pub use crate::msg::{Effect, Msg};
pub use crate::popup::{Confirm, InputKind, Popup};
pub use crate::state::{App, Clocks, Focus, PuzzleMode};
pub use play::typed_move;
pub use puzzles::{puzzle_store_path, PuzzleRatings};

use crate::layout;
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crown_core::rng::Rng;
use crown_core::{Color, Game, Variant};

impl App {
    /// A new app showing the new-game dialog. `seed` drives the random side choice.
    pub fn new(engine_available: bool, seed: u64) -> App {
        let settings = Settings {
            game: GameChoice::American,
            vs_engine: engine_available,
            level: crown_ai::DEFAULT_LEVEL,
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
            puzzles: None,
            puzzle_ratings: PuzzleRatings::default(),
            puzzle_store: None,
            puzzle_theme: None,
            status: String::new(),
            egdb_status: String::new(),
            size: (80, 24),
            started: false,
            quit: false,
            effects: Vec::new(),
            clock_paused: false,
            searched: (0, 0),
            next_id: 1,
            rng: Rng::new(seed | 1),
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
                    if self.rng.next_u64() & 1 == 0 {
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
        self.puzzles = None;
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

    pub(crate) fn main_key(&mut self, code: KeyCode) {
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
            KeyCode::Char('u') if self.in_puzzle() => {
                self.status =
                    "No take-back in a puzzle: a wrong move is not played (z: next).".into()
            }
            KeyCode::Char('u') => self.undo(),
            KeyCode::Char('d' | 'r') if self.in_puzzle() => {
                self.status =
                    "No draw offer or resignation in a puzzle (g: give up, z: next).".into()
            }
            KeyCode::Char('t') if self.in_puzzle() => self.puzzle_hint(),
            KeyCode::Char('g') if self.in_puzzle() => self.puzzle_give_up(),
            KeyCode::Char('z') => self.next_puzzle(),
            KeyCode::Char('Z') => self.cycle_puzzle_theme(),
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

    pub(crate) fn open_dialog(&mut self) {
        self.dialog = Some(Dialog {
            settings: self.settings,
            focus: DIALOG_ROWS - 1,
        });
    }

    pub(crate) fn request_quit(&mut self) {
        if self.started && self.game.outcome().is_none() && self.game.ply_count() > 0 {
            self.popup = Some(Popup::Confirm(Confirm::Quit));
        } else {
            self.stop_thinking();
            self.quit = true;
        }
    }

    pub(crate) fn confirmed(&mut self, what: Confirm) {
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

    pub(crate) fn move_cursor(&mut self, dx: i8, dy: i8) {
        let (dx, dy) = if self.flipped { (-dx, -dy) } else { (dx, dy) };
        let f = (self.cursor.0 as i8 + dx).clamp(0, 7) as u8;
        let r = (self.cursor.1 as i8 + dy).clamp(1, 8) as u8;
        self.cursor = (f, r);
    }
}

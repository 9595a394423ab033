//! Keys in the new-game dialog.

use crate::dialog::DIALOG_ROWS;
use crate::state::App;
use crossterm::event::KeyCode;

impl App {
    pub(crate) fn dialog_key(&mut self, code: KeyCode) {
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
}

//! Keys in a popup.

use crate::popup::{Confirm, Popup};
use crate::state::App;
use crossterm::event::KeyCode;

impl App {
    pub(crate) fn popup_key(&mut self, code: KeyCode) {
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
}

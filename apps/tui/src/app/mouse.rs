//! The mouse: clicks on the board, the move list, the buttons, the dialog and the popups.

use crate::dialog::DIALOG_ROWS;
use crate::layout::{self, Hit};
use crate::popup::Popup;
use crate::state::{App, Focus};
use crossterm::event::{KeyCode, MouseButton, MouseEvent, MouseEventKind};
use crown_core::Move;

impl App {
    pub(crate) fn on_mouse(&mut self, m: MouseEvent) {
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

    pub(crate) fn click(&mut self, hit: Hit, button: MouseButton) {
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

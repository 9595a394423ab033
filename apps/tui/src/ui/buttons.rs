//! The row of buttons under the board.

use super::theme::{put, style};
use crate::layout::{self, Geometry};
use crate::state::App;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier, Style};

pub(super) fn render_buttons(app: &App, g: &Geometry, buf: &mut Buffer) {
    let y = g.buttons.y;
    for (label, key, x, w) in layout::buttons(g.buttons.width) {
        if x + w > g.buttons.width {
            break;
        }
        let st = style(
            app,
            Style::default().bg(Color::Indexed(238)).fg(Color::White),
        );
        let pad = w.saturating_sub(label.len() as u16) / 2;
        put(
            buf,
            x,
            y,
            &format!("{label:^width$}", width = w as usize),
            st,
        );
        if let Some(i) = label.to_lowercase().find(key) {
            let k = &label[i..i + 1];
            put(
                buf,
                x + pad + i as u16,
                y,
                k,
                if app.ascii {
                    Style::default()
                } else {
                    st.fg(Color::Yellow).add_modifier(Modifier::BOLD)
                },
            );
        } else {
            // The key is not a letter of the label (Help = ?).
        }
    }
}

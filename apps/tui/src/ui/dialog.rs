//! The new-game dialog.

use super::theme::{block, put};
use crate::dialog::{Dialog, DIALOG_ROWS};
use crate::layout::{self};
use crate::state::App;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Clear, Widget};

pub(super) fn render_dialog(app: &App, d: &Dialog, area: Rect, buf: &mut Buffer) {
    let r = layout::dialog_rect(area);
    Clear.render(r, buf);
    block(app, " New game ", true).render(r, buf);
    for i in 0..DIALOG_ROWS {
        let (label, value) = d.row(i);
        let y = layout::dialog_row_y(r, i);
        let dim = match i {
            2 | 3 => !d.settings.vs_engine,
            5 => d.settings.clock_minutes == 0,
            _ => false,
        };
        let focused = d.focus == i;
        let marker = if focused { "> " } else { "  " };
        let text = if i == DIALOG_ROWS - 1 {
            format!("{marker}{value:^46}")
        } else {
            format!("{marker}{label:<10} < {value} >")
        };
        let mut st = Style::default();
        if focused {
            st = st.add_modifier(Modifier::REVERSED);
        }
        if dim {
            st = st.add_modifier(Modifier::DIM);
        }
        put(
            buf,
            r.x + 2,
            y,
            &text,
            if app.ascii { Style::default() } else { st },
        );
    }
    let help = if app.engine_available {
        "↑↓ choose  ←→ change  Enter start  Esc back"
    } else {
        "No engine in this build: two players only"
    };
    let help = if app.ascii {
        "Up/Down choose, Left/Right change, Enter start"
    } else {
        help
    };
    put(buf, r.x + 2, r.y + r.height - 2, help, Style::default());
}

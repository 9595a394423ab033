//! Drawing: [`view`] renders the whole [`App`] from its state, one file per panel and dialog
//! (board, game info, engine, moves, buttons, the new-game dialog, popups), sharing the look of
//! `theme` and the geometry of [`crate::layout`] (so mouse clicks hit what is drawn).

mod board;
mod buttons;
mod dialog;
mod engine_panel;
mod info;
mod moves;
mod popup;
mod theme;

pub use board::BoardWidget;
pub use popup::{HELP, PUZZLE_HELP};

use crate::layout;
use crate::state::App;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use ratatui::Frame;

/// Draw the app.
pub fn view(app: &App, frame: &mut Frame) {
    let area = frame.area();
    let buf = frame.buffer_mut();
    render(app, area, buf);
}

/// Draw the app into a buffer of size `area` (which should equal `app.size`).
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    if layout::too_small(app.size) || area.width < app.size.0 || area.height < app.size.1 {
        let msg = format!(
            "Terminal too small: Crown needs {}×{}, this one is {}×{}. Enlarge it, or press q to quit.",
            layout::MIN_SIZE.0,
            layout::MIN_SIZE.1,
            area.width,
            area.height
        );
        Paragraph::new(msg)
            .wrap(Wrap { trim: true })
            .render(area, buf);
        return;
    }
    let g = layout::geometry(app);
    BoardWidget { app, geometry: &g }.render(g.board, buf);
    info::render_info(app, &g, buf);
    engine_panel::render_engine(app, &g, buf);
    moves::render_moves(app, &g, buf);
    // The database build's state takes the right end of the status line (at most half of it).
    let mut status_area = g.status;
    if !app.egdb_status.is_empty() {
        let want = app.egdb_status.chars().count() as u16 + 2;
        let width = want.min(g.status.width / 2);
        status_area.width -= width;
        let right = Rect {
            x: status_area.x + status_area.width,
            width,
            ..g.status
        };
        Paragraph::new(Line::from(Span::styled(
            app.egdb_status.clone(),
            theme::style(app, Style::default()),
        )))
        .alignment(ratatui::layout::Alignment::Right)
        .render(right, buf);
    }
    Paragraph::new(Line::from(Span::styled(
        app.status.clone(),
        theme::style(app, Style::default().add_modifier(Modifier::BOLD)),
    )))
    .render(status_area, buf);
    buttons::render_buttons(app, &g, buf);
    if let Some(d) = &app.dialog {
        dialog::render_dialog(app, d, g.area, buf);
    } else if let Some(p) = &app.popup {
        popup::render_popup(app, p, &g, buf);
    }
}

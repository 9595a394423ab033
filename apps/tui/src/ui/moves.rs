//! The move list, with the review's marks.

use super::theme::{block, put, style};
use crate::layout::{self, Geometry};
use crate::state::{App, Focus};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;

pub(super) fn render_moves(app: &App, g: &Geometry, buf: &mut Buffer) {
    let outer = g.moves;
    if outer.height < 3 {
        return;
    }
    block(app, " Moves ", app.focus == Focus::Moves).render(outer, buf);
    let inner = Rect::new(outer.x + 1, outer.y + 1, outer.width - 2, outer.height - 2);
    let lines = layout::move_lines(app);
    let first = layout::move_scroll(app, &lines, inner.height as usize);
    let cur = app.view_ply.unwrap_or(app.game.ply_count()).checked_sub(1);
    let history: Vec<String> = app.game.history().map(|(p, m)| p.move_text(m)).collect();
    let review = app.current_review();
    let hl = style(
        app,
        Style::default()
            .add_modifier(Modifier::REVERSED)
            .add_modifier(Modifier::BOLD),
    );
    for (i, line) in lines
        .iter()
        .skip(first)
        .take(inner.height as usize)
        .enumerate()
    {
        let y = inner.y + i as u16;
        put(
            buf,
            inner.x,
            y,
            &format!("{:>3}.", line.0),
            Style::default(),
        );
        for (ply, col) in [
            (line.1, layout::PLY_COLUMNS.0),
            (line.2, layout::PLY_COLUMNS.1),
        ] {
            let text = match ply {
                Some(p) => {
                    let mark = review.and_then(|r| r.mark(p)).map_or("", |m| m.symbol());
                    format!("{}{mark}", history[p])
                }
                None => "...".into(),
            };
            if inner.x + col < inner.x + inner.width {
                let mut st = Style::default();
                if ply.is_some() && ply == cur {
                    st = if app.ascii { Style::default() } else { hl };
                }
                let shown = if app.ascii && ply.is_some() && ply == cur {
                    format!("{text}*")
                } else {
                    text
                };
                let maxw = (inner.width - col) as usize;
                buf.set_stringn(inner.x + col, y, shown, maxw, st);
            }
        }
    }
    if lines.is_empty() {
        put(buf, inner.x, inner.y, "No moves yet.", Style::default());
    }
}

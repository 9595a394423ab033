//! The engine panel: the engine's latest depth, score, speed and principal variation.

use super::theme::block;
use crate::engine::Purpose;
use crate::layout::Geometry;
use crate::state::App;
use crown_core::Move;
use ratatui::buffer::Buffer;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};

pub(super) fn render_engine(app: &App, g: &Geometry, buf: &mut Buffer) {
    if g.engine.height == 0 {
        return;
    }
    let mut lines = Vec::new();
    let state = match app.thinking {
        Some((_, Purpose::Move)) => "thinking",
        Some((_, Purpose::Hint)) => "looking for a hint",
        Some((_, Purpose::DrawOffer)) => "considering the draw",
        None => "idle",
    };
    lines.push(Line::from(format!("Level {}  {state}", app.settings.level)));
    if let Some(t) = &app.thought {
        // A move from the opening book comes without a search: depth 0, no nodes.
        lines.push(Line::from(
            if t.depth == 0 && t.nodes == 0 && !t.pv.is_empty() {
                format!("Score {}  from the opening book", t.score)
            } else {
                format!(
                    "Score {}  depth {}  {} nodes",
                    t.score,
                    t.depth,
                    human_count(t.nodes)
                )
            },
        ));
        let pv: Vec<String> = t.pv.iter().map(Move::short_text).collect();
        lines.push(Line::from(format!("PV {}", pv.join(" "))));
    }
    Paragraph::new(lines)
        .wrap(Wrap { trim: true })
        .block(block(app, " Engine ", false))
        .render(g.engine, buf);
}

pub(super) fn human_count(n: u64) -> String {
    if n >= 10_000_000 {
        format!("{}M", n / 1_000_000)
    } else if n >= 10_000 {
        format!("{}k", n / 1000)
    } else {
        n.to_string()
    }
}

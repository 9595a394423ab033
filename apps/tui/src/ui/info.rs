//! The game panel: the game, the players with their pieces and clocks, the state of play.

use super::theme::{block, style, BLACK_PIECE, DARK, WHITE_PIECE};
use crate::engine::Purpose;
use crate::layout::Geometry;
use crate::state::App;
use crown_core::Color as Side;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

pub(super) fn fmt_clock(ms: u64) -> String {
    let s = ms.div_ceil(1000);
    format!("{}:{:02}", s / 60, s % 60)
}

pub(super) fn player_name(app: &App, side: Side) -> String {
    if let Some(name) = &app.names[side.index()] {
        // Long PDN names are cut so the piece count and clock stay on the line.
        return if name.chars().count() > 16 {
            name.chars().take(15).chain(['…']).collect()
        } else {
            name.clone()
        };
    }
    match app.engine_side {
        Some(e) if e == side => format!("Engine (level {})", app.settings.level),
        Some(_) => "You".into(),
        None => "Player".into(),
    }
}

pub(super) fn render_info(app: &App, g: &Geometry, buf: &mut Buffer) {
    let mut lines: Vec<Line> = Vec::new();
    let pos = app.shown_position();
    let stm = app.game.position().side_to_move();
    let first = app.game.variant().first_player();
    for side in [first, first.opposite()] {
        let arrow = if app.game.outcome().is_none() && stm == side {
            if app.ascii {
                "> "
            } else {
                "▶ "
            }
        } else {
            "  "
        };
        let clock = app
            .clocks
            .map(|c| format!("  {}", fmt_clock(c.remaining_ms[side.index()])))
            .unwrap_or_default();
        let glyph = match (app.ascii, side) {
            (true, Side::Black) => "b",
            (true, Side::White) => "w",
            (false, _) => "●",
        };
        let fg = if side == Side::Black {
            BLACK_PIECE
        } else {
            WHITE_PIECE
        };
        lines.push(Line::from(vec![
            Span::raw(arrow),
            Span::styled(glyph, style(app, Style::default().fg(fg).bg(DARK))),
            Span::raw(format!(
                " {side:<5} {} ({}){clock}",
                player_name(app, side),
                if app.game.variant().is_draughts() {
                    pos.piece_count(side)
                } else {
                    pos.checkers(side)
                }
            )),
        ]));
    }
    match app.game.outcome() {
        Some(o) => {
            lines.push(Line::from(Span::styled(
                format!("{o}"),
                style(
                    app,
                    Style::default()
                        .fg(Color::LightRed)
                        .add_modifier(Modifier::BOLD),
                ),
            )));
            lines.push(Line::from(format!(
                "Result {}",
                o.pdn_result(app.game.variant())
            )));
        }
        None => {
            let mut t = format!("{stm} to move");
            if app.thinking.is_some_and(|t| t.1 == Purpose::Move) {
                t.push_str(" (engine thinking…)");
            } else if app.game.position().must_capture() {
                t.push_str(": must capture");
            }
            lines.push(Line::from(t));
        }
    }
    if let Some(p) = app.view_ply {
        lines.push(Line::from(Span::styled(
            format!("Viewing ply {p} of {}", app.game.ply_count()),
            style(app, Style::default().fg(Color::Yellow)),
        )));
    }
    if let Some(r) = app.current_review() {
        match &r.result {
            None => lines.push(Line::from(format!(
                "Reviewing: {} of {} moves",
                r.done,
                r.moves.len()
            ))),
            Some(res) => {
                let width = g.info.width.saturating_sub(2) as usize;
                let graph = if app.ascii {
                    // Plain ASCII: the first player's expected score in tenths, 0-9.
                    res.evals
                        .iter()
                        .take(width)
                        .map(|e| char::from(b'0' + ((e * 10.0) as u8).min(9)))
                        .collect()
                } else {
                    crown_ai::review::sparkline(&res.evals, width)
                };
                lines.push(Line::from(graph));
                let count = |side: Side| {
                    let s = res.summary(side);
                    let initial = if side == Side::Black { 'B' } else { 'W' };
                    format!(
                        "{initial} {}?! {}? {}??",
                        s.inaccuracies, s.mistakes, s.blunders
                    )
                };
                lines.push(Line::from(format!(
                    "{}  {}",
                    count(first),
                    count(first.opposite())
                )));
            }
        }
    }
    if let Some(c) = app.game.count() {
        lines.push(Line::from(format!(
            "Count: {} of {} moves ({})",
            c.moves,
            c.rule.limit(),
            c.claimant
        )));
    } else if app.game.variant().is_draughts() && app.game.quiet_plies() >= 20 {
        lines.push(Line::from(format!(
            "40-move rule: {} of 80 plies",
            app.game.quiet_plies()
        )));
    }
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(block(app, " Game ", false))
        .render(g.info, buf);
}

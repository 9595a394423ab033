//! The popups: help, move choice, confirmations, input lines, game over.

use super::theme::{block, put};
use crate::layout::{self, Geometry};
use crate::popup::{Confirm, InputKind, Popup};
use crate::state::App;
use crown_core::{Move, Square};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Clear, Paragraph, Widget, Wrap};

pub(super) fn render_popup(app: &App, p: &Popup, g: &Geometry, buf: &mut Buffer) {
    let r = layout::popup_rect(g.area, p, g.board);
    Clear.render(r, buf);
    let inner = Rect::new(
        r.x + 2,
        r.y + 1,
        r.width.saturating_sub(4),
        r.height.saturating_sub(2),
    );
    let buttons = |buf: &mut Buffer, yes: &str, no: &str| {
        let y = layout::popup_buttons_y(r);
        let half = r.width / 2;
        put(
            buf,
            r.x + half.saturating_sub(yes.len() as u16) / 2,
            y,
            yes,
            Style::default().add_modifier(Modifier::BOLD),
        );
        put(
            buf,
            r.x + half + half.saturating_sub(no.len() as u16) / 2,
            y,
            no,
            Style::default().add_modifier(Modifier::BOLD),
        );
    };
    match p {
        Popup::Help => {
            block(app, " Keys ", true).render(r, buf);
            let lines = if app.puzzles.is_some() {
                PUZZLE_HELP
            } else {
                HELP
            };
            Paragraph::new(lines.join("\n")).render(inner, buf);
        }
        Popup::Choice { options, index } => {
            let pos = app.game.position();
            let title = if options.iter().any(|m| m.crown().is_some()) {
                " Crown "
            } else {
                " Which capture? "
            };
            block(app, title, true).render(r, buf);
            let prompt = if options.iter().any(|m| m.crown().is_some()) {
                "Which single crowns the piece?"
            } else {
                "Several jumps end there:"
            };
            put(buf, inner.x, inner.y, prompt, Style::default());
            for (i, mv) in options.iter().enumerate() {
                let desc = describe(pos.move_text(mv), mv);
                // Number keys choose the first nine; arrows (or a click) reach the rest.
                let number = if i < 9 {
                    format!("{}", i + 1)
                } else {
                    " ".into()
                };
                let text = format!("{number} {desc}");
                let st = if i == *index {
                    if app.ascii {
                        Style::default()
                    } else {
                        Style::default().add_modifier(Modifier::REVERSED)
                    }
                } else {
                    Style::default()
                };
                let marker = if i == *index { ">" } else { " " };
                put(
                    buf,
                    inner.x,
                    inner.y + 1 + i as u16,
                    &format!("{marker}{text}"),
                    st,
                );
            }
        }
        Popup::Confirm(c) => {
            block(app, " Confirm ", true).render(r, buf);
            let q = match c {
                Confirm::Quit => "Quit? The game in progress is not saved.".to_string(),
                Confirm::Resign(side) => format!("Resign the game for {side}?"),
                Confirm::Draw(side) => {
                    format!("{side} offers a draw. {}, do you accept?", side.opposite())
                }
            };
            Paragraph::new(q)
                .wrap(Wrap { trim: true })
                .render(inner, buf);
            buttons(buf, "[y] Yes", "[n] No");
        }
        Popup::Input { kind, text } => {
            let (title, prompt) = match kind {
                InputKind::Move => (" Move ", "Type a move (11-15, 11x18x25, 6>10, x14):"),
                InputKind::Save => (" Save ", "Save the game as PDN to the file:"),
                InputKind::Load => (" Load ", "A PDN file to open, or a FEN (B:W21-32:B1-12):"),
            };
            block(app, title, true).render(r, buf);
            put(buf, inner.x, inner.y, prompt, Style::default());
            let shown: String = {
                let w = inner.width.saturating_sub(2) as usize;
                let n = text.chars().count();
                text.chars().skip(n.saturating_sub(w)).collect()
            };
            put(
                buf,
                inner.x,
                inner.y + 2,
                &format!("{shown}_"),
                Style::default().add_modifier(Modifier::BOLD),
            );
            buttons(buf, "[Enter] OK", "[Esc] Cancel");
        }
        Popup::GameOver => {
            block(app, " Game over ", true).render(r, buf);
            let text = match app.game.outcome() {
                Some(o) => format!(
                    "{o}.\nResult {}  after {} plies.",
                    o.pdn_result(app.game.variant()),
                    app.game.ply_count()
                ),
                None => "The game goes on.".into(),
            };
            Paragraph::new(text)
                .wrap(Wrap { trim: true })
                .render(inner, buf);
            buttons(buf, "[n] New game", "[Esc] Close");
        }
    }
}

pub(super) fn describe(text: String, mv: &Move) -> String {
    if let Some((single, onto)) = mv.crown() {
        return format!("{text}  (stack {single} onto {onto})");
    }
    let taken: Vec<String> = mv
        .captures()
        .iter()
        .map(|s: Square| s.to_string())
        .collect();
    if taken.is_empty() {
        text
    } else {
        format!("{}  takes {}", mv.long_text(), taken.join(", "))
    }
}

/// The lines of the help popup during a game (the puzzle keys that open puzzles included).
pub const HELP: [&str; 22] = [
    "Arrows / h j k l   move the cursor",
    "Enter / Space      select a piece, then its destination",
    "mouse              click squares, list entries, buttons",
    "0-9, x, :          type a move (11-15, 11x18x25, 6>10, x14)",
    "Esc                cancel the selection / back to the game",
    "Tab                switch the arrows to the move list",
    ", .  PgUp PgDn     walk back / forward through the moves",
    "Home / End         start of the game / back to the game",
    "u                  undo (to your last move)",
    "t                  hint from the engine",
    "v, [ ]             review the game; jump between key moments",
    "d / r              offer a draw / resign",
    "c                  claim a count (pool, APCA rules 27-28)",
    "s / o              save as PDN / load PDN or FEN",
    "z / Z              puzzles: find the shot / by theme",
    "f                  flip the board",
    "#                  show square numbers",
    "a                  ASCII mode (no colour, no Unicode)",
    "n                  new game",
    "? / F1             this help",
    "q / Ctrl-C         quit",
    "Any key closes this help.",
];

/// The lines of the help popup in puzzles mode (key `z`): the puzzle keys in place of the game's.
pub const PUZZLE_HELP: [&str; 22] = [
    "Arrows / h j k l   move the cursor",
    "Enter / Space      select a piece, then its destination",
    "mouse              click squares, list entries, buttons",
    "0-9, x, :          type a move (11-15, 11x18x25, 6>10, x14)",
    "Esc                cancel the selection / back to the puzzle",
    "Tab                switch the arrows to the move list",
    ", .  PgUp PgDn     walk back / forward through the moves",
    "Home / End         start of the line / back to the puzzle",
    "",
    "Puzzles: find the only move; the forced reply is played.",
    "t                  hint: the piece to move, then the move",
    "g                  give up: show the solution",
    "z                  next puzzle",
    "Z                  theme filter: all, shot, multi-jump, ...",
    "",
    "f                  flip the board",
    "#                  show square numbers",
    "a                  ASCII mode (no colour, no Unicode)",
    "n                  new game (leaves the puzzles)",
    "? / F1             this help",
    "q / Ctrl-C         quit",
    "Any key closes this help.",
];

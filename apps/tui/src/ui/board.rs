//! The board panel: squares, pieces, labels and highlights.

use super::theme::{
    block, put, style, BLACK_PIECE, CURSOR, DARK, DEST, HINT, LAST, LIGHT, MUST, PATH, SELECTED,
    TAKEN, WHITE_PIECE,
};
use crate::layout::{self, Geometry};
use crate::popup::Popup;
use crate::state::{App, Focus};
use crown_core::{Color as Side, Role};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;

/// The board: squares, pieces, labels and highlights.
pub struct BoardWidget<'a> {
    /// What to draw.
    pub app: &'a App,
    /// Where (the widget's area is `geometry.board`).
    pub geometry: &'a Geometry,
}

#[derive(Default, Clone, Copy)]
struct Marks {
    cursor: bool,
    selected: bool,
    dest: bool,
    last: bool,
    hint: bool,
    must: bool,
    path: bool,
    taken: bool,
}

impl BoardWidget<'_> {
    fn marks(&self) -> [Marks; 32] {
        let app = self.app;
        let mut m = [Marks::default(); 32];
        if let Some(sq) = app.cursor_square() {
            m[sq.index()].cursor = app.dialog.is_none();
        }
        if let Some(sq) = app.selected {
            m[sq.index()].selected = true;
        }
        for mv in app.selected_moves() {
            m[mv.to().index()].dest = true;
        }
        if let Some(mv) = app.shown_last_move() {
            m[mv.from().index()].last = true;
            m[mv.to().index()].last = true;
        }
        if let Some(mv) = app.hint {
            if app.view_ply.is_none() {
                m[mv.from().index()].hint = true;
                m[mv.to().index()].hint = true;
            }
        }
        if app.human_to_move() && app.game.position().must_capture() && app.selected.is_none() {
            for sq in app.game.position().capturers().iter() {
                m[sq.index()].must = true;
            }
        }
        if let Some(Popup::Choice { options, index }) = &app.popup {
            if let Some(mv) = options.get(*index) {
                for sq in mv.path() {
                    m[sq.index()].path = true;
                }
                m[mv.to().index()].path = true;
                for sq in mv.captures().iter() {
                    m[sq.index()].taken = true;
                }
                if let Some((c, _)) = mv.crown() {
                    m[c.index()].taken = true;
                }
            }
        }
        m
    }
}

impl Widget for BoardWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let app = self.app;
        let g = self.geometry;
        let title = format!(" {} ", app.game.variant().name());
        block(app, &title, app.focus == Focus::Board).render(area, buf);
        let pos = app.shown_position();
        let marks = self.marks();
        let (sx, sy) = g.squares;
        let (cw, ch) = g.cell;
        let impasse = !app.game.variant().is_draughts();
        for row in 0..8u16 {
            let rank = if app.flipped { row + 1 } else { 8 - row };
            put(
                buf,
                area.x + 1,
                sy + row * ch + ch / 2,
                &format!("{rank}"),
                Style::default(),
            );
            for col in 0..8u16 {
                let x = sx + col * cw;
                let y = sy + row * ch;
                let sq = layout::square_at_cell(app.flipped, col, row);
                if row == 0 {
                    let f = if app.flipped { 7 - col } else { col };
                    let letter = ((b'a' + f as u8) as char).to_string();
                    put(buf, x + cw / 2, sy + 8 * ch, &letter, Style::default());
                }
                let Some(sq) = sq else {
                    let (f, r) = if app.flipped {
                        (7 - col as u8, row as u8 + 1)
                    } else {
                        (col as u8, 8 - row as u8)
                    };
                    let on_cursor = app.dialog.is_none() && app.cursor == (f, r);
                    let bg = if on_cursor { CURSOR } else { LIGHT };
                    for dy in 0..ch {
                        put(
                            buf,
                            x,
                            y + dy,
                            &" ".repeat(cw as usize),
                            style(app, Style::default().bg(bg)),
                        );
                    }
                    if on_cursor && app.ascii && cw >= 3 {
                        put(buf, x + cw / 2 - 1, y + ch / 2, "[ ]", Style::default());
                    }
                    continue;
                };
                let mk = marks[sq.index()];
                let bg = if mk.cursor {
                    CURSOR
                } else if mk.taken {
                    TAKEN
                } else if mk.path {
                    PATH
                } else if mk.selected {
                    SELECTED
                } else if mk.dest {
                    DEST
                } else if mk.hint {
                    HINT
                } else if mk.must {
                    MUST
                } else if mk.last {
                    LAST
                } else {
                    DARK
                };
                let base = style(app, Style::default().bg(bg));
                for dy in 0..ch {
                    put(buf, x, y + dy, &" ".repeat(cw as usize), base);
                }
                let mid = y + ch / 2;
                let cx = x + cw / 2;
                let piece = pos.piece_at(sq);
                match piece {
                    Some(p) => {
                        let glyph = match (app.ascii, p.color, p.role) {
                            (true, Side::Black, Role::Man) => "b",
                            (true, Side::Black, Role::King) => "B",
                            (true, Side::White, Role::Man) => "w",
                            (true, Side::White, Role::King) => "W",
                            (false, _, Role::Man) => "●",
                            (false, _, Role::King) if impasse => "◎",
                            (false, _, Role::King) => "♛",
                        };
                        let fg = match p.color {
                            Side::Black => BLACK_PIECE,
                            Side::White => WHITE_PIECE,
                        };
                        put(
                            buf,
                            cx,
                            mid,
                            glyph,
                            style(app, base.fg(fg).add_modifier(Modifier::BOLD)),
                        );
                        if !app.ascii && p.role == Role::King && cw >= 5 {
                            let (l, r) = if impasse { ("(", ")") } else { ("", "") };
                            put(buf, cx - 1, mid, l, base.fg(fg));
                            put(buf, cx + 1, mid, r, base.fg(fg));
                        }
                    }
                    None => {
                        if mk.dest || (mk.path && !mk.taken) {
                            put(
                                buf,
                                cx,
                                mid,
                                if app.ascii { "*" } else { "•" },
                                style(app, base.fg(Color::Indexed(22))),
                            );
                        } else if app.ascii && !app.show_numbers {
                            put(buf, cx, mid, ".", base);
                        }
                    }
                }
                if app.show_numbers {
                    let n = format!("{}", sq.number());
                    let numstyle = style(app, base.fg(Color::Indexed(236)));
                    if ch >= 2 || cw >= 5 {
                        put(buf, x, y, &n, numstyle);
                    } else if piece.is_none() && !mk.dest {
                        put(buf, x + cw.saturating_sub(n.len() as u16), y, &n, numstyle);
                    }
                }
                if app.ascii && cw >= 3 {
                    let corners = if mk.cursor {
                        Some(("[", "]"))
                    } else if mk.selected {
                        Some(("(", ")"))
                    } else if mk.taken {
                        Some(("x", "x"))
                    } else if mk.hint {
                        Some(("?", "?"))
                    } else if mk.must {
                        Some(("!", "!"))
                    } else if mk.dest && piece.is_some() {
                        Some((">", "<"))
                    } else {
                        None
                    };
                    if let Some((l, r)) = corners {
                        put(buf, cx - 1, mid, l, base);
                        put(buf, cx + 1, mid, r, base);
                    }
                }
            }
        }
    }
}

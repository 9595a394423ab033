//! The look shared by every panel: the board colours, colour only outside ASCII mode, panel
//! borders, clipped text.

use crate::state::App;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Style};
use ratatui::widgets::{Block, Borders};

pub(super) const LIGHT: Color = Color::Indexed(223);
pub(super) const DARK: Color = Color::Indexed(137);
pub(super) const BLACK_PIECE: Color = Color::Indexed(16);
pub(super) const WHITE_PIECE: Color = Color::Indexed(231);
pub(super) const CURSOR: Color = Color::Indexed(75);
pub(super) const SELECTED: Color = Color::Indexed(70);
pub(super) const DEST: Color = Color::Indexed(108);
pub(super) const LAST: Color = Color::Indexed(179);
pub(super) const HINT: Color = Color::Indexed(170);
pub(super) const MUST: Color = Color::Indexed(167);
pub(super) const PATH: Color = Color::Indexed(214);
pub(super) const TAKEN: Color = Color::Indexed(160);

/// Colour styles only outside ASCII mode.
pub(super) fn style(app: &App, s: Style) -> Style {
    if app.ascii {
        Style::default()
    } else {
        s
    }
}

pub(super) fn block<'a>(app: &App, title: &'a str, focused: bool) -> Block<'a> {
    let b = Block::default().borders(Borders::ALL).title(title);
    let b = if app.ascii {
        b.border_set(ratatui::symbols::border::Set {
            top_left: "+",
            top_right: "+",
            bottom_left: "+",
            bottom_right: "+",
            vertical_left: "|",
            vertical_right: "|",
            horizontal_top: "-",
            horizontal_bottom: "-",
        })
    } else {
        b
    };
    if focused && !app.ascii {
        b.border_style(Style::default().fg(Color::Yellow))
    } else {
        b
    }
}

pub(super) fn put(buf: &mut Buffer, x: u16, y: u16, s: &str, st: Style) {
    let area = buf.area;
    if y >= area.y + area.height || x >= area.x + area.width {
        return;
    }
    buf.set_stringn(x, y, s, (area.x + area.width - x) as usize, st);
}

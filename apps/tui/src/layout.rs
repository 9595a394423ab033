//! Screen geometry shared by drawing ([`crate::ui`]) and mouse hit-testing ([`hit`]), so a click
//! always lands on what was drawn there.

use crate::dialog::DIALOG_ROWS;
use crate::popup::Popup;
use crate::state::App;
use crown_core::{Color, Square};
use ratatui::layout::Rect;

/// Smallest usable terminal (columns, rows); below it a message is shown instead of the game.
pub const MIN_SIZE: (u16, u16) = (54, 14);

/// Columns of the side panel at least.
const SIDE_MIN: u16 = 26;

/// Whether the terminal is too small for the game.
pub fn too_small(size: (u16, u16)) -> bool {
    size.0 < MIN_SIZE.0 || size.1 < MIN_SIZE.1
}

/// Where everything is on the screen.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// The whole screen.
    pub area: Rect,
    /// The board with its frame and labels.
    pub board: Rect,
    /// Top-left corner of the 8×8 squares.
    pub squares: (u16, u16),
    /// Size of one square (columns, rows).
    pub cell: (u16, u16),
    /// Game information (players, turn, clocks, outcome).
    pub info: Rect,
    /// Engine panel (zero height in a two-player game).
    pub engine: Rect,
    /// Move list with its frame.
    pub moves: Rect,
    /// Status line.
    pub status: Rect,
    /// Button bar.
    pub buttons: Rect,
}

/// Compute the geometry for the app's terminal size.
pub fn geometry(app: &App) -> Geometry {
    let (w, h) = app.size;
    let area = Rect::new(0, 0, w, h);
    let main_h = h.saturating_sub(2);
    let mut cell = (3, 1);
    for c in [(7u16, 3u16), (5, 2), (3, 1)] {
        if 8 * c.0 + 4 + SIDE_MIN <= w && 8 * c.1 + 3 <= main_h {
            cell = c;
            break;
        }
    }
    let board = Rect::new(0, 0, 8 * cell.0 + 4, (8 * cell.1 + 3).min(main_h));
    let side_x = board.width;
    let side_w = w.saturating_sub(side_x);
    let info_h = 8.min(main_h);
    let engine_h = if app.engine_side.is_some() || app.thought.is_some() {
        6.min(main_h - info_h)
    } else {
        0
    };
    let info = Rect::new(side_x, 0, side_w, info_h);
    let engine = Rect::new(side_x, info_h, side_w, engine_h);
    let moves = Rect::new(
        side_x,
        info_h + engine_h,
        side_w,
        main_h.saturating_sub(info_h + engine_h),
    );
    Geometry {
        area,
        board,
        squares: (board.x + 3, board.y + 1),
        cell,
        info,
        engine,
        moves,
        status: Rect::new(0, main_h, w, 1.min(h)),
        buttons: Rect::new(0, main_h + 1, w, 1.min(h.saturating_sub(main_h + 1))),
    }
}

/// The square drawn at board column `col` and row `row` (0–7 from the top-left), or `None` on a
/// light square.
pub fn square_at_cell(flipped: bool, col: u16, row: u16) -> Option<Square> {
    let (file, rank) = if flipped {
        (7 - col as u8, row as u8 + 1)
    } else {
        (col as u8, 8 - row as u8)
    };
    Square::from_file_rank(file, rank)
}

/// Board column and row (0–7 from the top-left) where (file 0–7, rank 1–8) is drawn.
pub fn cell_of(flipped: bool, file: u8, rank: u8) -> (u16, u16) {
    if flipped {
        (u16::from(7 - file), u16::from(rank - 1))
    } else {
        (u16::from(file), u16::from(8 - rank))
    }
}

/// The buttons of the bottom bar for a terminal `width` columns wide: label, key, x position,
/// width. Each label is padded by a space on both sides when all of them fit that way; otherwise
/// (down to [`MIN_SIZE`]) the labels are packed without padding so every action stays reachable.
pub fn buttons(width: u16) -> Vec<(&'static str, char, u16, u16)> {
    let items = [
        ("New", 'n'),
        ("Undo", 'u'),
        ("Hint", 't'),
        ("Draw", 'd'),
        ("Resign", 'r'),
        ("Save", 's'),
        ("Load", 'o'),
        ("Flip", 'f'),
        ("Help", '?'),
        ("Quit", 'q'),
    ];
    let place = |pad: u16| {
        let mut x = 0;
        items
            .iter()
            .map(|&(label, key)| {
                let w = label.len() as u16 + 2 * pad;
                let out = (label, key, x, w);
                x += w + 1;
                out
            })
            .collect::<Vec<_>>()
    };
    let padded = place(1);
    if padded.last().is_some_and(|&(_, _, x, w)| x + w <= width) {
        padded
    } else {
        place(0)
    }
}

/// One line of the move list: the move number and the plies (indices) of the first player and of
/// the second player.
pub type MoveLine = (usize, Option<usize>, Option<usize>);

/// The move list as numbered lines, from the first player's point of view.
pub fn move_lines(app: &App) -> Vec<MoveLine> {
    let first: Color = app.game.variant().first_player();
    let mut lines: Vec<MoveLine> = Vec::new();
    for (i, (before, _)) in app.game.history().enumerate() {
        if before.side_to_move() == first {
            lines.push((lines.len() + 1, Some(i), None));
        } else {
            match lines.last_mut() {
                Some(l) if l.2.is_none() && l.1.is_some() => l.2 = Some(i),
                _ => lines.push((lines.len() + 1, None, Some(i))),
            }
        }
    }
    lines
}

/// Columns where the two plies of a move-list line start, relative to the list's inner area.
pub const PLY_COLUMNS: (u16, u16) = (5, 18);

/// The first move-list line shown, so the current ply stays visible in `rows` rows.
pub fn move_scroll(app: &App, lines: &[MoveLine], rows: usize) -> usize {
    if rows == 0 || lines.len() <= rows {
        return 0;
    }
    let cur = app.view_ply.unwrap_or(app.game.ply_count());
    let line = lines
        .iter()
        .position(|l| l.1 == cur.checked_sub(1) || l.2 == cur.checked_sub(1))
        .unwrap_or(lines.len() - 1);
    let max_first = lines.len() - rows;
    line.saturating_sub(rows - 1).min(max_first)
}

/// A rectangle of `w`×`h` centred in `area` (shrunk to fit).
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// The new-game dialog's rectangle.
pub fn dialog_rect(area: Rect) -> Rect {
    centered(area, 54, DIALOG_ROWS as u16 + 5)
}

/// The row of dialog entry `i` inside the dialog's frame.
pub fn dialog_row_y(rect: Rect, i: usize) -> u16 {
    rect.y + 1 + i as u16 + u16::from(i == DIALOG_ROWS - 1)
}

/// The rectangle of a popup.
/// The choice popup goes over the side panel so the board (with the highlighted path) stays visible.
pub fn popup_rect(area: Rect, popup: &Popup, board: Rect) -> Rect {
    match popup {
        Popup::Choice { options, .. } if area.width > board.width + 20 => {
            let w = (area.width - board.width).min(50);
            // At least as tall as the game panel it covers, so no stray frame shows below it.
            let h = (options.len() as u16 + 4).max(8).min(area.height);
            Rect::new(board.width, 0, w, h)
        }
        Popup::Help => centered(area, 64, 24),
        Popup::Choice { options, .. } => centered(area, 50, options.len() as u16 + 4),
        Popup::Confirm(_) => centered(area, 50, 6),
        Popup::Input { .. } => centered(area, 64, 7),
        Popup::GameOver => centered(area, 54, 7),
    }
}

/// The row of the Yes/No (OK/Cancel, New game/Close) buttons in a popup.
pub fn popup_buttons_y(rect: Rect) -> u16 {
    rect.y + rect.height.saturating_sub(2)
}

/// What is under a mouse position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Hit {
    /// A dark square of the board.
    Square(Square),
    /// A ply in the move list (index from 0).
    Ply(usize),
    /// A button of the bottom bar (its key).
    Button(char),
    /// A row of the new-game dialog.
    DialogRow(usize),
    /// An entry of the choice popup.
    Choice(usize),
    /// The Yes / OK / New game button of a popup.
    Yes,
    /// The No / Cancel / Close button of a popup.
    No,
    /// Inside a popup, on nothing in particular.
    Inside,
    /// Outside the open popup or dialog (or on nothing).
    Outside,
}

fn contains(r: Rect, x: u16, y: u16) -> bool {
    x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height
}

/// What the mouse at column `x`, row `y` points at.
pub fn hit(app: &App, x: u16, y: u16) -> Hit {
    if too_small(app.size) {
        return Hit::Outside;
    }
    let g = geometry(app);
    if app.dialog.is_some() {
        let r = dialog_rect(g.area);
        if !contains(r, x, y) {
            return Hit::Outside;
        }
        for i in 0..DIALOG_ROWS {
            if y == dialog_row_y(r, i) {
                return Hit::DialogRow(i);
            }
        }
        return Hit::Inside;
    }
    if let Some(p) = &app.popup {
        let r = popup_rect(g.area, p, g.board);
        if contains(r, x, y) {
            if let Popup::Choice { options, .. } = p {
                let first = r.y + 2;
                if y >= first && ((y - first) as usize) < options.len() {
                    return Hit::Choice((y - first) as usize);
                }
                return Hit::Inside;
            }
            if y == popup_buttons_y(r) {
                return if x < r.x + r.width / 2 {
                    Hit::Yes
                } else {
                    Hit::No
                };
            }
            return Hit::Inside;
        }
        if !matches!(p, Popup::Choice { .. }) {
            return Hit::Outside;
        }
    }
    let (sx, sy) = g.squares;
    let (cw, ch) = g.cell;
    if x >= sx && y >= sy && x < sx + 8 * cw && y < sy + 8 * ch {
        let col = (x - sx) / cw;
        let row = (y - sy) / ch;
        return match square_at_cell(app.flipped, col, row) {
            Some(sq) => Hit::Square(sq),
            None => Hit::Outside,
        };
    }
    if app.popup.is_some() {
        return Hit::Outside;
    }
    if contains(g.buttons, x, y) {
        for (_, key, bx, bw) in buttons(g.buttons.width) {
            if x >= bx && x < bx + bw {
                return Hit::Button(key);
            }
        }
        return Hit::Outside;
    }
    let inner = Rect::new(
        g.moves.x + 1,
        g.moves.y + 1,
        g.moves.width.saturating_sub(2),
        g.moves.height.saturating_sub(2),
    );
    if contains(inner, x, y) {
        let lines = move_lines(app);
        let first = move_scroll(app, &lines, inner.height as usize);
        if let Some(line) = lines.get(first + (y - inner.y) as usize) {
            let dx = x - inner.x;
            let ply = if dx >= PLY_COLUMNS.1 {
                line.2
            } else if dx >= PLY_COLUMNS.0 {
                line.1
            } else {
                None
            };
            if let Some(p) = ply {
                return Hit::Ply(p);
            }
        }
    }
    Hit::Outside
}

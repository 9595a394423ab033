//! Drawing: [`view`] renders the whole [`App`]; [`BoardWidget`] draws the board.

use crate::app::{App, Confirm, Dialog, Focus, InputKind, Popup, DIALOG_ROWS};
use crate::engine::Purpose;
use crate::layout::{self, Geometry};
use crown_core::{Color as Side, Move, Role, Square};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};
use ratatui::Frame;

const LIGHT: Color = Color::Indexed(223);
const DARK: Color = Color::Indexed(137);
const BLACK_PIECE: Color = Color::Indexed(16);
const WHITE_PIECE: Color = Color::Indexed(231);
const CURSOR: Color = Color::Indexed(75);
const SELECTED: Color = Color::Indexed(70);
const DEST: Color = Color::Indexed(108);
const LAST: Color = Color::Indexed(179);
const HINT: Color = Color::Indexed(170);
const MUST: Color = Color::Indexed(167);
const PATH: Color = Color::Indexed(214);
const TAKEN: Color = Color::Indexed(160);

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
    render_info(app, &g, buf);
    render_engine(app, &g, buf);
    render_moves(app, &g, buf);
    Paragraph::new(Line::from(Span::styled(
        app.status.clone(),
        style(app, Style::default().add_modifier(Modifier::BOLD)),
    )))
    .render(g.status, buf);
    render_buttons(app, &g, buf);
    if let Some(d) = &app.dialog {
        render_dialog(app, d, g.area, buf);
    } else if let Some(p) = &app.popup {
        render_popup(app, p, &g, buf);
    }
}

/// Colour styles only outside ASCII mode.
fn style(app: &App, s: Style) -> Style {
    if app.ascii {
        Style::default()
    } else {
        s
    }
}

fn block<'a>(app: &App, title: &'a str, focused: bool) -> Block<'a> {
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

fn put(buf: &mut Buffer, x: u16, y: u16, s: &str, st: Style) {
    let area = buf.area;
    if y >= area.y + area.height || x >= area.x + area.width {
        return;
    }
    buf.set_stringn(x, y, s, (area.x + area.width - x) as usize, st);
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

fn fmt_clock(ms: u64) -> String {
    let s = ms.div_ceil(1000);
    format!("{}:{:02}", s / 60, s % 60)
}

fn player_name(app: &App, side: Side) -> String {
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

fn render_info(app: &App, g: &Geometry, buf: &mut Buffer) {
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

fn render_engine(app: &App, g: &Geometry, buf: &mut Buffer) {
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

fn human_count(n: u64) -> String {
    if n >= 10_000_000 {
        format!("{}M", n / 1_000_000)
    } else if n >= 10_000 {
        format!("{}k", n / 1000)
    } else {
        n.to_string()
    }
}

fn render_moves(app: &App, g: &Geometry, buf: &mut Buffer) {
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

fn render_buttons(app: &App, g: &Geometry, buf: &mut Buffer) {
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

fn render_dialog(app: &App, d: &Dialog, area: Rect, buf: &mut Buffer) {
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

fn render_popup(app: &App, p: &Popup, g: &Geometry, buf: &mut Buffer) {
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
            Paragraph::new(HELP.join("\n")).render(inner, buf);
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

fn describe(text: String, mv: &Move) -> String {
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

/// The lines of the help popup.
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
    "d                  offer a draw",
    "r                  resign",
    "c                  claim a count (pool, APCA rules 27-28)",
    "s / o              save as PDN / load PDN or FEN",
    "f                  flip the board",
    "#                  show square numbers",
    "a                  ASCII mode (no colour, no Unicode)",
    "n                  new game",
    "? / F1             this help",
    "q / Ctrl-C         quit",
    "Any key closes this help.",
];

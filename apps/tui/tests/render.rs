//! Rendering tests: the screen a player reads, drawn with ratatui's `TestBackend` and kept as insta
//! snapshots (text only; colours are checked on single cells where they carry meaning).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use crown_core::Square;
use crown_tui::app::{App, GameChoice, Msg, Popup, Settings, SideChoice};
use crown_tui::engine::{EngineEvent, Score, Thought};
use crown_tui::{layout, ui};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn app(game: GameChoice, vs_engine: bool, size: (u16, u16)) -> App {
    let mut app = App::new(vs_engine, 3);
    app.update(Msg::Resize(size.0, size.1));
    app.start_game(Settings {
        game,
        vs_engine,
        level: 4,
        side: SideChoice::White,
        clock_minutes: 0,
        increment_s: 0,
    });
    app.take_effects();
    app
}

fn screen(app: &App) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(app.size.0, app.size.1)).unwrap();
    t.draw(|f| ui::view(app, f)).unwrap();
    t
}

fn key(app: &mut App, c: char) {
    app.update(Msg::Key(KeyEvent::new(
        KeyCode::Char(c),
        KeyModifiers::NONE,
    )));
}

fn sq(n: u8) -> Square {
    Square::new(n).unwrap()
}

#[test]
fn start_american() {
    let a = app(GameChoice::American, false, (80, 24));
    insta::assert_snapshot!(screen(&a).backend());
}

#[test]
fn start_pool_against_the_engine() {
    // The human plays White against the engine: the engine (Black) moves first.
    let a = app(GameChoice::Pool, true, (80, 24));
    insta::assert_snapshot!(screen(&a).backend());
}

#[test]
fn start_impasse_seed() {
    let a = app(GameChoice::ImpasseSeed, false, (80, 24));
    insta::assert_snapshot!(screen(&a).backend());
}

#[test]
fn start_impasse_steere_large() {
    let a = app(GameChoice::ImpasseSteere, false, (100, 30));
    insta::assert_snapshot!(screen(&a).backend());
}

#[test]
fn new_game_dialog() {
    let mut a = App::new(true, 1);
    a.update(Msg::Resize(80, 24));
    insta::assert_snapshot!(screen(&a).backend());
}

#[test]
fn selection_with_numbers_in_ascii() {
    let mut a = app(GameChoice::American, false, (80, 24));
    a.ascii = true;
    a.show_numbers = true;
    a.activate(sq(10));
    a.cursor = (sq(15).file(), sq(15).rank());
    let t = screen(&a);
    insta::assert_snapshot!(t.backend());
}

#[test]
fn selection_colours_mark_the_piece_and_its_destinations() {
    let mut a = app(GameChoice::American, false, (80, 24));
    a.activate(sq(10));
    a.cursor = (0, 1);
    let t = screen(&a);
    let g = layout::geometry(&a);
    let bg = |n: u8| {
        let s = sq(n);
        let (col, row) = layout::cell_of(a.flipped, s.file(), s.rank());
        let x = g.squares.0 + col * g.cell.0 + g.cell.0 / 2;
        let y = g.squares.1 + row * g.cell.1 + g.cell.1 / 2;
        t.backend().buffer()[(x, y)].bg
    };
    let selected = bg(10);
    let dest = bg(14);
    assert_eq!(bg(15), dest, "both destinations of 10 look alike");
    let plain = bg(18);
    assert_ne!(selected, plain);
    assert_ne!(dest, plain);
    assert_ne!(selected, dest);
    assert_eq!(bg(9), plain, "9 is not selected");
}

#[test]
fn multi_jump_choice() {
    let mut a = app(GameChoice::American, false, (90, 26));
    a.load_text("B:W14,15,18,21,22,23,30:B6,7,8,10,12,13", "FEN");
    a.ascii = true;
    a.activate(sq(10));
    a.activate(sq(26));
    assert!(matches!(a.popup, Some(Popup::Choice { .. })));
    insta::assert_snapshot!(screen(&a).backend());
}

#[test]
fn impasse_crown_choice() {
    let mut a = app(GameChoice::ImpasseSeed, false, (90, 26));
    a.load_text("W:W5,20,24:BK14", "FEN");
    a.activate(sq(5));
    a.activate(sq(1));
    insta::assert_snapshot!(screen(&a).backend());
}

#[test]
fn game_over() {
    let mut a = app(GameChoice::American, false, (80, 24));
    a.load_text("B:W14:B10", "FEN");
    a.activate(sq(10));
    a.activate(sq(17));
    insta::assert_snapshot!(screen(&a).backend());
}

#[test]
fn help_popup() {
    let mut a = app(GameChoice::American, false, (80, 26));
    key(&mut a, '?');
    insta::assert_snapshot!(screen(&a).backend());
}

/// In puzzles mode the help lists the puzzle keys (t, g, z, Z) instead of the game's.
#[test]
fn help_popup_in_puzzles() {
    let mut a = app(GameChoice::American, false, (80, 26));
    key(&mut a, 'z');
    key(&mut a, '?');
    insta::assert_snapshot!(screen(&a).backend());
}

#[test]
fn engine_panel_and_move_list() {
    let mut a = app(GameChoice::American, true, (80, 24));
    // Human is White, so the engine (Black) is searching the start.
    let id = 1;
    let pos = *a.game.position();
    let pv = vec![pos.parse_move("11-15").unwrap()];
    a.update(Msg::Engine(EngineEvent::Info {
        id,
        thought: Thought {
            depth: 9,
            score: Score::Value(12),
            nodes: 123_456,
            nps: 1_000_000,
            time_ms: 120,
            pv: pv.clone(),
        },
    }));
    a.update(Msg::Engine(EngineEvent::Done {
        id,
        best: Some(pv[0]),
        thought: Thought {
            depth: 10,
            score: Score::Value(15),
            nodes: 234_567,
            nps: 1_000_000,
            time_ms: 230,
            pv: pv.clone(),
        },
    }));
    assert_eq!(a.game.ply_count(), 1, "the engine's move was played");
    for c in "22-18".chars() {
        key(&mut a, c);
    }
    a.update(Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
    assert_eq!(a.game.ply_count(), 2);
    // The engine's second search (id 2) reports a depth.
    let pos = *a.game.position();
    let x = pos.parse_move("15x22").unwrap();
    let y = pos.after(&x).parse_move("25x18").unwrap();
    a.update(Msg::Engine(EngineEvent::Info {
        id: 2,
        thought: Thought {
            depth: 6,
            score: Score::Value(-5),
            nodes: 45_678,
            nps: 900_000,
            time_ms: 50,
            pv: vec![x, y],
        },
    }));
    insta::assert_snapshot!(screen(&a).backend());
}

#[test]
fn a_book_move_is_shown_as_a_book_move() {
    let mut a = app(GameChoice::American, true, (80, 24));
    let pos = *a.game.position();
    let mv = pos.parse_move("11-15").unwrap();
    // A move from the opening book comes back without a search: depth 0 and no nodes.
    a.update(Msg::Engine(EngineEvent::Done {
        id: 1,
        best: Some(mv),
        thought: Thought {
            depth: 0,
            score: Score::Value(3),
            nodes: 0,
            nps: 0,
            time_ms: 0,
            pv: vec![mv],
        },
    }));
    assert_eq!(a.game.ply_count(), 1, "the engine's move was played");
    let text = screen(&a).backend().to_string();
    assert!(text.contains("from the opening book"), "{text}");
    assert!(!text.contains("depth 0"), "{text}");
}

#[test]
fn tiny_terminal_shows_a_message() {
    let mut a = app(GameChoice::American, false, (80, 24));
    a.update(Msg::Resize(40, 10));
    insta::assert_snapshot!(screen(&a).backend());
}

/// The background database build takes the right end of the status line, beside the game's own
/// message: its progress, then "databases ready".
#[test]
fn the_database_build_shows_in_the_status_line() {
    let mut a = app(GameChoice::American, true, (100, 30));
    let status_row = |a: &App| -> String {
        let t = screen(a);
        let buf = t.backend().buffer().clone();
        let g = layout::geometry(a);
        (0..buf.area.width)
            .map(|x| buf[(x, g.status.y)].symbol().to_string())
            .collect()
    };
    a.egdb_status = "building databases (american ≤5): 37%".into();
    let row = status_row(&a);
    assert!(row.contains("New game"), "{row}");
    assert!(
        row.trim_end()
            .ends_with("building databases (american ≤5): 37%"),
        "{row}"
    );
    a.egdb_status = "databases ready (american ≤5)".into();
    let row = status_row(&a);
    assert!(
        row.trim_end().ends_with("databases ready (american ≤5)"),
        "{row}"
    );
}

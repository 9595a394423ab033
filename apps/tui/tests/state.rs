//! State tests: key presses, mouse clicks and engine reports go in as messages, and the game and
//! the UI state are checked against the rules.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use crown_core::{Color, DrawReason, Game, Move, Outcome, Square, Variant, WinReason};
use crown_tui::app::{
    App, Confirm, Effect, Focus, GameChoice, InputKind, Msg, Popup, Settings, SideChoice,
};
use crown_tui::engine::{EngineEvent, Purpose, Score, Thought};
use crown_tui::layout::{self, Hit};

fn key(app: &mut App, code: KeyCode) {
    app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn keys(app: &mut App, text: &str) {
    for c in text.chars() {
        key(app, KeyCode::Char(c));
    }
}

fn click_at(app: &mut App, column: u16, row: u16) {
    app.update(Msg::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column,
        row,
        modifiers: KeyModifiers::NONE,
    }));
}

/// Click the middle of the square numbered `n`, wherever the layout draws it.
fn click_square(app: &mut App, n: u8) {
    let sq = Square::new(n).unwrap();
    let g = layout::geometry(app);
    let (col, row) = layout::cell_of(app.flipped, sq.file(), sq.rank());
    let x = g.squares.0 + col * g.cell.0 + g.cell.0 / 2;
    let y = g.squares.1 + row * g.cell.1 + g.cell.1 / 2;
    assert_eq!(
        layout::hit(app, x, y),
        Hit::Square(sq),
        "layout and hit-test agree"
    );
    click_at(app, x, y);
}

fn settings(game: GameChoice, vs_engine: bool) -> Settings {
    Settings {
        game,
        vs_engine,
        level: 3,
        side: SideChoice::Black,
        clock_minutes: 0,
        increment_s: 0,
    }
}

fn two_players(game: GameChoice) -> App {
    let mut app = App::new(false, 7);
    app.update(Msg::Resize(80, 24));
    app.start_game(settings(game, false));
    app.take_effects();
    app
}

fn sq(n: u8) -> Square {
    Square::new(n).unwrap()
}

/// The search job the app asked for last.
fn last_search(app: &mut App) -> crown_tui::engine::Job {
    app.take_effects()
        .into_iter()
        .rev()
        .find_map(|e| match e {
            Effect::Search(j) => Some(j),
            _ => None,
        })
        .expect("a search was requested")
}

fn done(id: u64, best: Option<Move>, score: Score) -> Msg {
    Msg::Engine(EngineEvent::Done {
        id,
        best,
        thought: Thought {
            depth: 5,
            score,
            nodes: 1000,
            nps: 10_000,
            time_ms: 100,
            pv: best.into_iter().collect(),
        },
    })
}

#[test]
fn dialog_starts_each_game_with_the_keyboard() {
    // Enter starts; → on the first row cycles American → pool → Impasse seed → Impasse Steere.
    let expected = [
        (
            Variant::American,
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        ),
        (
            Variant::Pool,
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        ),
        (
            Variant::Impasse,
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        ),
        // Mark Steere's figure (crown-core's ImpasseSetup::Steere).
        (
            Variant::Impasse,
            "W:W26,28,29,31,K1,K3,K6,K8:B2,4,5,7,K25,K27,K30,K32",
        ),
    ];
    for (i, (variant, fen)) in expected.iter().enumerate() {
        let mut app = App::new(false, 1);
        app.update(Msg::Resize(80, 24));
        assert!(app.dialog.is_some(), "the dialog opens first");
        for _ in 0..i {
            key(&mut app, KeyCode::Right);
        }
        key(&mut app, KeyCode::Enter);
        assert!(app.dialog.is_none());
        assert_eq!(app.game.variant(), *variant);
        let want = crown_core::Position::from_fen(*variant, fen).unwrap();
        assert_eq!(*app.game.position(), want);
        assert_eq!(
            app.engine_side, None,
            "no engine in this build: two players"
        );
    }
}

#[test]
fn esc_does_not_close_the_first_dialog_but_q_quits() {
    let mut app = App::new(false, 1);
    key(&mut app, KeyCode::Esc);
    assert!(app.dialog.is_some());
    key(&mut app, KeyCode::Char('q'));
    assert!(app.quit);
}

#[test]
fn selecting_a_piece_highlights_its_destinations_and_moving_plays() {
    let mut app = two_players(GameChoice::American);
    // The cursor starts on a movable piece; put it on 9 (b6) and select.
    app.cursor = (sq(9).file(), sq(9).rank());
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.selected, Some(sq(9)));
    let mut dests: Vec<u8> = app
        .selected_moves()
        .iter()
        .map(|m| m.to().number())
        .collect();
    dests.sort();
    assert_eq!(dests, vec![13, 14], "a man on 9 steps to 13 or 14");
    // 14 is c5: one rank down, one file right.
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Char('l'));
    assert_eq!(app.cursor_square(), Some(sq(14)));
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.game.ply_count(), 1);
    assert_eq!(app.game.moves()[0].short_text(), "9-14");
    assert_eq!(app.game.position().side_to_move(), Color::White);
    assert_eq!(app.selected, None);
}

#[test]
fn enter_on_a_piece_that_cannot_move_explains_why() {
    let mut app = two_players(GameChoice::American);
    app.activate(sq(1));
    assert_eq!(app.selected, None);
    assert!(app.status.contains("no legal move"), "{}", app.status);
    // A White piece when Black is to move.
    app.activate(sq(22));
    assert!(app.status.contains("Black's pieces"), "{}", app.status);
}

#[test]
fn a_multi_jump_with_two_paths_asks_which_one() {
    // From the crown-core docs: 10x26 can take 14 and 22, or 15 and 23.
    let mut app = two_players(GameChoice::American);
    app.load_text("B:W14,15,18,21,22,23,30:B6,7,8,10,12,13", "FEN");
    app.take_effects();
    app.activate(sq(10));
    app.activate(sq(26));
    let Some(Popup::Choice { options, index: 0 }) = app.popup.clone() else {
        panic!("expected a choice, got {:?}", app.popup);
    };
    let mut texts: Vec<String> = options.iter().map(|m| m.long_text()).collect();
    texts.sort();
    assert_eq!(texts, ["10x17x26", "10x19x26"]);
    // Down then Enter plays the second option.
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.game.moves()[0], options[1]);
    assert_eq!(app.game.position().piece_count(Color::White), 5);
}

#[test]
fn a_multi_jump_choice_can_be_made_by_clicking_the_next_landing_square() {
    let mut app = two_players(GameChoice::American);
    app.load_text("B:W14,15,18,21,22,23,30:B6,7,8,10,12,13", "FEN");
    click_square(&mut app, 10);
    click_square(&mut app, 26);
    assert!(matches!(app.popup, Some(Popup::Choice { .. })));
    // 19 is the landing square of the path over 15 and 23.
    click_square(&mut app, 19);
    assert_eq!(app.popup, None);
    let played = app.game.moves()[0];
    let taken: Vec<u8> = played.captures().iter().map(|s| s.number()).collect();
    assert_eq!(taken, vec![15, 23]);
}

#[test]
fn impasse_asks_which_single_crowns() {
    let mut app = two_players(GameChoice::ImpasseSeed);
    app.load_text("W:W5,20,24:BK14", "FEN");
    assert_eq!(app.game.variant(), Variant::Impasse);
    app.activate(sq(5));
    app.activate(sq(1));
    let Some(Popup::Choice { options, .. }) = app.popup.clone() else {
        panic!("expected the crown choice, got {:?}", app.popup);
    };
    let mut crowns: Vec<u8> = options
        .iter()
        .map(|m| m.crown().unwrap().0.number())
        .collect();
    crowns.sort();
    assert_eq!(
        crowns,
        vec![20, 24],
        "either other single may crown the one on 1"
    );
    // Pick by number key: the option whose crowning single is 24.
    let i = options
        .iter()
        .position(|m| m.crown().unwrap().0 == sq(24))
        .unwrap();
    keys(&mut app, &(i + 1).to_string());
    assert_eq!(app.game.ply_count(), 1);
    let pos = app.game.position();
    assert_eq!(
        pos.piece_at(sq(1)).map(|p| p.role),
        Some(crown_core::Role::King)
    );
    assert_eq!(pos.piece_at(sq(24)), None);
    assert!(pos.piece_at(sq(20)).is_some());
}

#[test]
fn typing_a_move_plays_it_and_a_bad_one_is_explained() {
    let mut app = two_players(GameChoice::American);
    keys(&mut app, "11-15");
    assert!(matches!(
        app.popup,
        Some(Popup::Input {
            kind: InputKind::Move,
            ..
        })
    ));
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.game.ply_count(), 1);
    // 23 (e3) and 14 (c5) are not on one diagonal step.
    keys(&mut app, "23-14");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.game.ply_count(), 1);
    assert!(app.status.contains("23-14"), "{}", app.status);
}

#[test]
fn the_move_list_walks_back_and_returns() {
    let mut app = two_players(GameChoice::American);
    for m in ["11-15", "23-19", "8-11"] {
        keys(&mut app, m);
        key(&mut app, KeyCode::Enter);
    }
    assert_eq!(app.game.ply_count(), 3);
    key(&mut app, KeyCode::Char(','));
    assert_eq!(app.view_ply, Some(2));
    let after_two = {
        let mut g = Game::new(Variant::American);
        g.play_text("11-15").unwrap();
        g.play_text("23-19").unwrap();
        *g.position()
    };
    assert_eq!(app.shown_position(), after_two);
    // Tab gives the arrows to the move list.
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Focus::Moves);
    key(&mut app, KeyCode::Left);
    key(&mut app, KeyCode::Left);
    key(&mut app, KeyCode::Left);
    assert_eq!(app.view_ply, Some(0));
    assert_eq!(app.shown_position(), *app.game.start());
    // Moving on the board while browsing returns to the live position first.
    app.activate(sq(24));
    assert_eq!(app.view_ply, None);
    key(&mut app, KeyCode::Home);
    assert_eq!(app.view_ply, Some(0));
    key(&mut app, KeyCode::End);
    assert_eq!(app.view_ply, None);
}

#[test]
fn clicking_a_ply_in_the_move_list_shows_that_position() {
    let mut app = two_players(GameChoice::American);
    for m in ["11-15", "23-19", "8-11", "22-17"] {
        keys(&mut app, m);
        key(&mut app, KeyCode::Enter);
    }
    let g = layout::geometry(&app);
    // Line 1 holds "11-15 23-19"; click 23-19 (ply index 1).
    let (x, y) = (g.moves.x + 1 + layout::PLY_COLUMNS.1 + 1, g.moves.y + 1);
    assert_eq!(layout::hit(&app, x, y), Hit::Ply(1));
    click_at(&mut app, x, y);
    assert_eq!(app.view_ply, Some(2), "the position after 23-19");
}

#[test]
fn undo_in_a_two_player_game_takes_back_one_ply() {
    let mut app = two_players(GameChoice::Pool);
    keys(&mut app, "11-15");
    key(&mut app, KeyCode::Enter);
    keys(&mut app, "u");
    assert_eq!(app.game.ply_count(), 0);
}

#[test]
fn quitting_a_game_in_progress_asks_first() {
    let mut app = two_players(GameChoice::American);
    keys(&mut app, "q");
    assert!(app.quit, "nothing to lose before the first move");
    let mut app = two_players(GameChoice::American);
    keys(&mut app, "11-15");
    key(&mut app, KeyCode::Enter);
    keys(&mut app, "q");
    assert_eq!(app.popup, Some(Popup::Confirm(Confirm::Quit)));
    keys(&mut app, "n");
    assert!(!app.quit);
    keys(&mut app, "qy");
    assert!(app.quit);
}

#[test]
fn resigning_ends_the_game_and_undo_revives_it() {
    let mut app = two_players(GameChoice::American);
    keys(&mut app, "r");
    assert_eq!(
        app.popup,
        Some(Popup::Confirm(Confirm::Resign(Color::Black)))
    );
    keys(&mut app, "y");
    assert_eq!(
        app.game.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Resignation
        })
    );
    assert_eq!(app.popup, Some(Popup::GameOver));
    key(&mut app, KeyCode::Esc);
    keys(&mut app, "u");
    assert_eq!(app.game.outcome(), None);
}

#[test]
fn a_draw_between_two_players_needs_the_other_to_accept() {
    let mut app = two_players(GameChoice::American);
    keys(&mut app, "d");
    assert_eq!(app.popup, Some(Popup::Confirm(Confirm::Draw(Color::Black))));
    keys(&mut app, "n");
    assert_eq!(app.game.outcome(), None);
    keys(&mut app, "dy");
    assert_eq!(
        app.game.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::Agreement
        })
    );
}

#[test]
fn capturing_the_last_piece_shows_the_game_over_popup() {
    let mut app = two_players(GameChoice::American);
    app.load_text("B:W14:B10", "FEN");
    app.activate(sq(10));
    app.activate(sq(17));
    assert_eq!(
        app.game.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::NoPiecesLeft
        })
    );
    assert_eq!(app.popup, Some(Popup::GameOver));
    keys(&mut app, "n");
    assert!(
        app.dialog.is_some(),
        "n on the game-over popup opens the new-game dialog"
    );
}

#[test]
fn a_man_that_cannot_capture_is_refused_when_a_capture_is_compulsory() {
    let mut app = two_players(GameChoice::American);
    // Black must take 14 with 10 (American rule 6); 6 could otherwise step to 9.
    app.load_text("B:W14,30:B6,10", "FEN");
    app.activate(sq(6));
    assert_eq!(app.selected, None);
    assert!(app.status.contains("compulsory"), "{}", app.status);
}

#[test]
fn the_flag_falls() {
    let mut app = App::new(false, 3);
    app.update(Msg::Resize(80, 24));
    let mut s = settings(GameChoice::American, false);
    s.clock_minutes = 1;
    s.increment_s = 2;
    app.start_game(s);
    keys(&mut app, "11-15");
    key(&mut app, KeyCode::Enter);
    let c = app.clocks.unwrap();
    assert_eq!(
        c.remaining_ms[Color::Black.index()],
        62_000,
        "one minute plus the 2 s increment"
    );
    app.update(Msg::Tick(59_999));
    assert_eq!(app.game.outcome(), None);
    app.update(Msg::Tick(1));
    assert_eq!(
        app.game.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Time
        })
    );
}

#[test]
fn a_tiny_terminal_ignores_the_game_keys() {
    let mut app = two_players(GameChoice::American);
    app.update(Msg::Resize(40, 10));
    keys(&mut app, "11-15");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.game.ply_count(), 0);
    assert_eq!(layout::hit(&app, 5, 5), Hit::Outside);
    app.update(Msg::Resize(80, 24));
    keys(&mut app, "11-15");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.game.ply_count(), 1);
}

// ---- against the engine (the engine's answers are fed in as messages) ------------------------

fn vs_engine(game: GameChoice, side: SideChoice) -> App {
    let mut app = App::new(true, 11);
    app.update(Msg::Resize(100, 30));
    let mut s = settings(game, true);
    s.side = side;
    app.start_game(s);
    app
}

#[test]
fn the_engine_moves_after_the_human_and_undo_takes_back_both() {
    let mut app = vs_engine(GameChoice::American, SideChoice::Black);
    assert_eq!(app.engine_side, Some(Color::White));
    assert!(app
        .take_effects()
        .iter()
        .all(|e| !matches!(e, Effect::Search(_))));
    keys(&mut app, "11-15");
    key(&mut app, KeyCode::Enter);
    let job = last_search(&mut app);
    assert_eq!(job.purpose, Purpose::Move);
    assert_eq!(job.game.ply_count(), 1);
    // While the engine thinks the board does not take moves.
    app.activate(sq(9));
    assert_eq!(app.selected, None);
    assert!(app.status.contains("thinking"));
    let reply = job.game.position().parse_move("23-19").unwrap();
    // A stale answer is ignored.
    app.update(done(job.id + 100, Some(reply), Score::Value(0)));
    assert_eq!(app.game.ply_count(), 1);
    app.update(done(job.id, Some(reply), Score::Value(0)));
    assert_eq!(app.game.ply_count(), 2);
    keys(&mut app, "u");
    assert_eq!(app.game.ply_count(), 0, "back to the human's last move");
    assert_eq!(app.game.position().side_to_move(), Color::Black);
}

#[test]
fn the_engine_moves_first_when_the_human_takes_the_second_side() {
    let mut app = vs_engine(GameChoice::ImpasseSeed, SideChoice::Black);
    // Impasse: White moves first, so the engine (White) starts; the human's Black is drawn at the
    // bottom (the board is flipped from the standard diagram).
    assert_eq!(app.engine_side, Some(Color::White));
    assert!(app.flipped);
    let job = last_search(&mut app);
    let mv = job.game.legal_moves()[0];
    app.update(done(job.id, Some(mv), Score::Value(0)));
    assert_eq!(app.game.ply_count(), 1);
    assert!(app.human_to_move());
}

#[test]
fn undo_while_the_engine_thinks_stops_it() {
    let mut app = vs_engine(GameChoice::American, SideChoice::Black);
    keys(&mut app, "11-15");
    key(&mut app, KeyCode::Enter);
    let job = last_search(&mut app);
    keys(&mut app, "u");
    assert!(app
        .take_effects()
        .iter()
        .any(|e| matches!(e, Effect::StopSearch)));
    assert_eq!(app.game.ply_count(), 0);
    let reply = job.game.position().parse_move("23-19").unwrap();
    app.update(done(job.id, Some(reply), Score::Value(0)));
    assert_eq!(
        app.game.ply_count(),
        0,
        "the stopped search's move is not played"
    );
}

#[test]
fn hint_highlights_the_engine_suggestion() {
    let mut app = vs_engine(GameChoice::American, SideChoice::Black);
    keys(&mut app, "t");
    let job = last_search(&mut app);
    assert_eq!(job.purpose, Purpose::Hint);
    let mv = job.game.position().parse_move("11-15").unwrap();
    app.update(done(job.id, Some(mv), Score::Value(10)));
    assert_eq!(app.hint, Some(mv));
    assert!(app.status.contains("11-15"), "{}", app.status);
    assert_eq!(app.cursor_square(), Some(sq(11)));
    assert_eq!(app.game.ply_count(), 0, "a hint is not played");
}

#[test]
fn the_engine_accepts_a_draw_only_when_its_evaluation_says_so() {
    let mut app = vs_engine(GameChoice::American, SideChoice::Black);
    keys(&mut app, "d");
    let job = last_search(&mut app);
    assert_eq!(job.purpose, Purpose::DrawOffer);
    // The search sees the human to move: +0.50 for the human is -0.50 for the engine: accept.
    app.update(done(job.id, None, Score::Value(50)));
    assert_eq!(
        app.game.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::Agreement
        })
    );

    let mut app = vs_engine(GameChoice::American, SideChoice::Black);
    keys(&mut app, "d");
    let job = last_search(&mut app);
    app.update(done(job.id, None, Score::Value(-80)));
    assert_eq!(app.game.outcome(), None);
    assert!(app.status.contains("declines"));
}

#[test]
fn engine_info_fills_the_panel() {
    let mut app = vs_engine(GameChoice::Pool, SideChoice::Black);
    keys(&mut app, "11-15");
    key(&mut app, KeyCode::Enter);
    let job = last_search(&mut app);
    let pv = vec![job.game.position().parse_move("23-19").unwrap()];
    app.update(Msg::Engine(EngineEvent::Info {
        id: job.id,
        thought: Thought {
            depth: 7,
            score: Score::Value(-12),
            nodes: 5,
            nps: 5,
            time_ms: 1,
            pv,
        },
    }));
    assert_eq!(app.thought.as_ref().map(|t| t.depth), Some(7));
}

#[test]
fn a_random_side_is_one_of_the_two() {
    let mut seen = std::collections::HashSet::new();
    for seed in 1..40 {
        let mut app = App::new(true, seed);
        let mut s = settings(GameChoice::American, true);
        s.side = SideChoice::Random;
        app.start_game(s);
        seen.insert(app.engine_side);
    }
    assert_eq!(seen.len(), 2, "both sides come up: {seen:?}");
}

// ---- mouse only ---------------------------------------------------------------------------

#[test]
fn the_dialog_and_a_move_work_with_the_mouse_only() {
    let mut app = App::new(true, 5);
    app.update(Msg::Resize(100, 30));
    let area = ratatui::layout::Rect::new(0, 0, 100, 30);
    let r = layout::dialog_rect(area);
    // Click the game row twice: American → pool → Impasse (seed).
    click_at(&mut app, r.x + 20, layout::dialog_row_y(r, 0));
    click_at(&mut app, r.x + 20, layout::dialog_row_y(r, 0));
    // Opponent: engine → human.
    click_at(&mut app, r.x + 20, layout::dialog_row_y(r, 1));
    click_at(&mut app, r.x + 20, layout::dialog_row_y(r, 6));
    assert!(app.dialog.is_none());
    assert_eq!(app.game.variant(), Variant::Impasse);
    assert_eq!(app.engine_side, None);
    // White moves first in Impasse: 22 slides to 18.
    click_square(&mut app, 22);
    assert_eq!(app.selected, Some(sq(22)));
    click_square(&mut app, 18);
    assert_eq!(app.game.moves()[0].short_text(), "22-18");
    // The button bar: Undo.
    let (_, _, x, _) = layout::buttons(app.size.0)
        .into_iter()
        .find(|b| b.1 == 'u')
        .unwrap();
    let g = layout::geometry(&app);
    click_at(&mut app, x + 1, g.buttons.y);
    assert_eq!(app.game.ply_count(), 0);
}

#[test]
fn a_whole_game_can_be_played_with_clicks() {
    // Two players, American checkers, each side always playing its first legal move by clicking
    // its start and end squares (and the first entry when a choice pops up), until the game ends.
    let mut app = App::new(false, 5);
    app.update(Msg::Resize(80, 24));
    app.start_game(settings(GameChoice::American, false));
    let mut plies = 0;
    while app.game.outcome().is_none() && plies < 400 {
        let mv = app.game.legal_moves()[0];
        click_square(&mut app, mv.from().number());
        if mv.from() != mv.to() {
            click_square(&mut app, mv.to().number());
        }
        if let Some(Popup::Choice { options, .. }) = app.popup.clone() {
            let g = layout::geometry(&app);
            let r = layout::popup_rect(g.area, app.popup.as_ref().unwrap(), g.board);
            let i = options.iter().position(|m| *m == mv).unwrap();
            click_at(&mut app, r.x + 3, r.y + 2 + i as u16);
        }
        plies += 1;
        assert_eq!(app.game.ply_count(), plies, "ply {plies}: {}", app.status);
    }
    assert!(
        app.game.outcome().is_some(),
        "the game ended after {plies} plies"
    );
    assert_eq!(app.popup, Some(Popup::GameOver));
}

#[test]
fn scrolling_walks_through_the_moves() {
    let mut app = two_players(GameChoice::American);
    for m in ["11-15", "23-19"] {
        keys(&mut app, m);
        key(&mut app, KeyCode::Enter);
    }
    app.update(Msg::Mouse(MouseEvent {
        kind: MouseEventKind::ScrollUp,
        column: 60,
        row: 10,
        modifiers: KeyModifiers::NONE,
    }));
    assert_eq!(app.view_ply, Some(1));
}

#[test]
fn save_and_load_go_through_effects() {
    let mut app = two_players(GameChoice::American);
    keys(&mut app, "11-15");
    key(&mut app, KeyCode::Enter);
    keys(&mut app, "s");
    key(&mut app, KeyCode::Enter);
    let saved = app
        .take_effects()
        .into_iter()
        .find_map(|e| match e {
            Effect::Save { path, text } => Some((path, text)),
            _ => None,
        })
        .expect("save requested");
    assert_eq!(saved.0, "crown-american.pdn");
    assert!(saved.1.contains("1. 11-15"), "{}", saved.1);
    // Load it back into a fresh app.
    let mut other = two_players(GameChoice::Pool);
    other.update(Msg::Loaded {
        path: saved.0.clone(),
        result: Ok(saved.1),
    });
    assert_eq!(other.game.variant(), Variant::American);
    assert_eq!(other.game.moves(), app.game.moves());
    // A FEN typed into the load box needs no file.
    keys(&mut other, "o");
    for c in "W:W18:B14".chars() {
        key(&mut other, KeyCode::Char(c));
    }
    key(&mut other, KeyCode::Enter);
    assert_eq!(other.game.position().to_fen(), "W:W18:B14");
    // A broken file is reported, the game kept.
    other.update(Msg::Loaded {
        path: "x.pdn".into(),
        result: Ok("1. 11-17 *".into()),
    });
    assert!(
        other.status.contains("Could not load x.pdn"),
        "{}",
        other.status
    );
    assert_eq!(other.game.position().to_fen(), "W:W18:B14");
}

#[test]
fn a_crown_choice_beyond_nine_singles_is_reached_with_the_arrows() {
    // 16-2 can be crowned by any of White's eleven other singles.
    let mut app = two_players(GameChoice::ImpasseSeed);
    app.load_text("W:W13,14,15,16,17,18,19,20,21,22,23,25:B9,10", "FEN");
    app.activate(sq(16));
    app.activate(sq(2));
    let Some(Popup::Choice { options, .. }) = app.popup.clone() else {
        panic!("expected the crown choice, got {:?}", app.popup);
    };
    assert_eq!(options.len(), 11);
    for _ in 0..10 {
        key(&mut app, KeyCode::Down);
    }
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.game.moves(), vec![options[10]]);
}

#[test]
fn an_impasse_game_with_crowns_and_removals_survives_save_and_load() {
    // Play the first legal move until the game ends (Impasse always ends), save, load back.
    let mut app = two_players(GameChoice::ImpasseSteere);
    while app.game.outcome().is_none() {
        let mv = app.game.legal_moves()[0];
        app.game.play(&mv).unwrap();
    }
    let kinds: std::collections::HashSet<_> = app.game.moves().iter().map(|m| m.kind()).collect();
    assert!(kinds.len() >= 3, "a varied game: {kinds:?}");
    keys(&mut app, "s");
    key(&mut app, KeyCode::Enter);
    let text = app
        .take_effects()
        .into_iter()
        .find_map(|e| match e {
            Effect::Save { text, .. } => Some(text),
            _ => None,
        })
        .expect("save requested");
    let mut other = two_players(GameChoice::American);
    other.update(Msg::Loaded {
        path: "g.pdn".into(),
        result: Ok(text.clone()),
    });
    assert_eq!(other.game.variant(), Variant::Impasse, "{}", other.status);
    assert_eq!(other.game.start(), app.game.start());
    assert_eq!(other.game.moves(), app.game.moves(), "{text}");
    assert_eq!(other.game.outcome(), app.game.outcome());
}

#[test]
fn a_lone_king_claims_the_thirteen_move_count_in_pool_only() {
    // APCA rule 28: three kings against one; the lone king's side claims.
    let mut app = two_players(GameChoice::Pool);
    app.load_text("B:WK1,K2,K3:BK32", "FEN");
    keys(&mut app, "c");
    let count = app.game.count().expect("the count runs");
    assert_eq!(count.rule, crown_core::CountRule::Thirteen);
    assert_eq!(count.claimant, Color::Black);
    let mut app = two_players(GameChoice::American);
    app.load_text("B:WK1,K2,K3:BK32", "FEN");
    keys(&mut app, "c");
    assert_eq!(app.game.count(), None);
    assert!(app.status.contains("only to pool"), "{}", app.status);
}

// ---- reviewer's findings -----------------------------------------------------------------------

/// All search jobs queued since the last look (the other effects are dropped).
fn searches(app: &mut App) -> Vec<crown_tui::engine::Job> {
    app.take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Search(j) => Some(j),
            _ => None,
        })
        .collect()
}

#[test]
fn a_move_during_a_hint_search_cancels_it_and_the_engine_replies() {
    for offer in ["t", "d"] {
        let mut app = vs_engine(GameChoice::American, SideChoice::Black);
        app.take_effects();
        keys(&mut app, offer);
        let side_job = last_search(&mut app);
        assert_ne!(side_job.purpose, Purpose::Move);
        keys(&mut app, "11-15");
        key(&mut app, KeyCode::Enter);
        assert_eq!(app.game.ply_count(), 1, "the typed move is played");
        let effects = app.take_effects();
        assert!(
            effects.iter().any(|e| matches!(e, Effect::StopSearch)),
            "{offer}: the side search is stopped"
        );
        let job = effects
            .into_iter()
            .find_map(|e| match e {
                Effect::Search(j) => Some(j),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{offer}: the engine's reply is asked for"));
        assert_eq!(job.purpose, Purpose::Move);
        assert_eq!(job.game.ply_count(), 1);
        // The stopped hint / draw search still reports; its verdict is for the old position.
        let stale = side_job.game.position().parse_move("11-15").unwrap();
        app.update(done(side_job.id, Some(stale), Score::Value(90)));
        assert_eq!(app.hint, None, "{offer}: no stale hint");
        assert_eq!(app.game.outcome(), None, "{offer}: no stale draw");
        assert_eq!(app.thinking.map(|t| t.1), Some(Purpose::Move));
        let reply = job.game.position().parse_move("23-19").unwrap();
        app.update(done(job.id, Some(reply), Score::Value(0)));
        assert_eq!(app.game.ply_count(), 2, "{offer}: the engine replied");
        assert!(app.human_to_move());
    }
}

#[test]
fn the_engine_is_not_left_idle_after_undo_load_or_the_dialog() {
    let mut app = vs_engine(GameChoice::American, SideChoice::White);
    // The engine (Black) starts.
    let job = last_search(&mut app);
    assert_eq!(job.purpose, Purpose::Move);
    // A new game opened and closed with Esc while the engine moves: the engine's move lands, and
    // after the human's reply the engine is asked again.
    keys(&mut app, "n");
    let mv = job.game.position().parse_move("11-15").unwrap();
    app.update(done(job.id, Some(mv), Score::Value(0)));
    key(&mut app, KeyCode::Esc);
    assert!(app.human_to_move());
    keys(&mut app, "23-19");
    key(&mut app, KeyCode::Enter);
    assert_eq!(last_search(&mut app).game.ply_count(), 2);
    // Loading a FEN with the engine to move starts it.
    app.load_text("B:W18,24:B11", "FEN");
    let job = last_search(&mut app);
    assert_eq!(job.purpose, Purpose::Move);
    assert_eq!(job.game.position().side_to_move(), Color::Black);
    // Undo back to the start position with the engine to move starts it again.
    let mv = job.game.legal_moves()[0];
    app.update(done(job.id, Some(mv), Score::Value(0)));
    app.take_effects();
    keys(&mut app, "u");
    assert_eq!(app.game.ply_count(), 0);
    let jobs = searches(&mut app);
    assert_eq!(jobs.len(), 1, "the engine moves first again");
    assert_eq!(jobs[0].purpose, Purpose::Move);
}

#[test]
fn undo_and_browsing_say_what_happened() {
    let mut app = two_players(GameChoice::American);
    keys(&mut app, "u");
    assert_eq!(app.status, "Nothing to undo.");
    keys(&mut app, "11-15");
    key(&mut app, KeyCode::Enter);
    keys(&mut app, "u");
    assert_eq!(app.status, "Took back 1 ply.");
    assert_eq!(app.game.ply_count(), 0);

    // Browse back, then End returns to the live position and says so.
    keys(&mut app, "11-15");
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Left);
    assert!(app.status.starts_with("Viewing after ply 0 of 1"));
    key(&mut app, KeyCode::End);
    assert_eq!(app.view_ply, None);
    assert!(!app.status.contains("Viewing"), "{}", app.status);
}

#[test]
fn taking_back_an_agreed_draw_reopens_the_game_with_the_clocks_waiting() {
    let mut app = App::new(false, 7);
    app.update(Msg::Resize(80, 24));
    let mut s = settings(GameChoice::American, false);
    s.clock_minutes = 1;
    app.start_game(s);
    keys(&mut app, "11-15");
    key(&mut app, KeyCode::Enter);
    keys(&mut app, "dy");
    assert!(app.game.outcome().is_some());
    key(&mut app, KeyCode::Esc);
    let before = app.clocks.unwrap().remaining_ms;
    keys(&mut app, "u");
    assert_eq!(app.game.outcome(), None);
    assert_eq!(app.game.ply_count(), 1, "only the agreement is taken back");
    assert!(app.status.contains("draw agreement"), "{}", app.status);
    app.update(Msg::Tick(5_000));
    assert_eq!(
        app.clocks.unwrap().remaining_ms,
        before,
        "the clocks wait for the next move"
    );
    keys(&mut app, "23-19");
    key(&mut app, KeyCode::Enter);
    app.update(Msg::Tick(1_000));
    assert_eq!(
        app.clocks.unwrap().remaining_ms[Color::Black.index()],
        59_000
    );
}

fn shared() -> std::path::PathBuf {
    std::env::var_os("CROWN_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"))
}

#[test]
fn loading_a_file_of_many_games_says_which_and_names_the_players() {
    let path = shared().join("data/pdn/tinsley.pdn");
    let text = std::fs::read_to_string(&path).expect("shared tinsley.pdn");
    let mut app = two_players(GameChoice::American);
    app.update(Msg::Loaded {
        path: "tinsley.pdn".into(),
        result: Ok(text),
    });
    // The file holds 724 games (one [Event] tag each); the first is Tinsley–Rex, Ohio 1946, drawn
    // after 28 moves of each side ending 24x15x6.
    assert!(
        app.status
            .starts_with("Loaded game 1 of 724 from tinsley.pdn"),
        "{}",
        app.status
    );
    assert_eq!(app.game.ply_count(), 56);
    assert_eq!(
        app.names[Color::Black.index()].as_deref(),
        Some("MF Tinsley")
    );
    assert_eq!(app.names[Color::White.index()].as_deref(), Some("M Rex"));
    let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(100, 30)).unwrap();
    app.update(Msg::Resize(100, 30));
    t.draw(|f| crown_tui::ui::view(&app, f)).unwrap();
    let screen: String = t
        .backend()
        .buffer()
        .content()
        .iter()
        .map(|c| c.symbol())
        .collect();
    assert!(screen.contains("MF Tinsley"));
    assert!(screen.contains("M Rex"));
    // A new game forgets the names.
    app.start_game(settings(GameChoice::American, false));
    assert_eq!(app.names, [None, None]);
}

#[test]
fn loading_a_fen_resets_the_clocks() {
    let mut app = App::new(false, 7);
    app.update(Msg::Resize(80, 24));
    let mut s = settings(GameChoice::American, false);
    s.clock_minutes = 3;
    app.start_game(s);
    keys(&mut app, "11-15");
    key(&mut app, KeyCode::Enter);
    app.update(Msg::Tick(20_000));
    keys(&mut app, "23-19");
    key(&mut app, KeyCode::Enter);
    app.update(Msg::Tick(7_000));
    assert_ne!(app.clocks.unwrap().remaining_ms, [180_000; 2]);
    keys(&mut app, "o");
    for c in "B:W18,24:B11".chars() {
        key(&mut app, KeyCode::Char(c));
    }
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.game.position().to_fen(), "B:W18,24:B11");
    assert_eq!(app.clocks.unwrap().remaining_ms, [180_000; 2]);
}

#[test]
fn a_typed_ambiguous_move_opens_the_choice_list() {
    // American: 10x26 from B:W14,15,18,21,22,23,30:B6,7,8,10,12,13 goes by 17 or by 19.
    let mut app = two_players(GameChoice::American);
    app.load_text("B:W14,15,18,21,22,23,30:B6,7,8,10,12,13", "FEN");
    keys(&mut app, "10x26");
    key(&mut app, KeyCode::Enter);
    let Some(Popup::Choice { options, .. }) = app.popup.clone() else {
        panic!(
            "expected the path choice, got {:?} ({})",
            app.popup, app.status
        );
    };
    let mut middles: Vec<u8> = options
        .iter()
        .map(|m| {
            assert_eq!((m.from(), m.to()), (sq(10), sq(26)));
            m.path().next().unwrap().number()
        })
        .collect();
    middles.sort();
    assert_eq!(middles, vec![17, 19]);
    assert_eq!(app.game.ply_count(), 0, "nothing played before the choice");
    let i = options
        .iter()
        .position(|m| m.path().next() == Some(sq(19)))
        .unwrap();
    keys(&mut app, &(i + 1).to_string());
    assert_eq!(app.game.ply_count(), 1);
    let pos = app.game.position();
    // By 19: the men on 15 and 23 are taken, 14 and 22 stay.
    assert_eq!(pos.piece_at(sq(15)), None);
    assert_eq!(pos.piece_at(sq(23)), None);
    assert!(pos.piece_at(sq(14)).is_some());
    assert!(pos.piece_at(sq(22)).is_some());

    // Impasse: the crown 5-1 without =N may use the single on 20 or on 24.
    let mut app = two_players(GameChoice::ImpasseSeed);
    app.load_text("W:W5,20,24:BK14", "FEN");
    keys(&mut app, "5-1");
    key(&mut app, KeyCode::Enter);
    let Some(Popup::Choice { options, .. }) = app.popup.clone() else {
        panic!(
            "expected the crown choice, got {:?} ({})",
            app.popup, app.status
        );
    };
    let mut crowns: Vec<u8> = options
        .iter()
        .map(|m| m.crown().unwrap().0.number())
        .collect();
    crowns.sort();
    assert_eq!(crowns, vec![20, 24]);
}

#[test]
fn every_button_is_shown_and_clickable_at_the_minimum_size() {
    let mut app = two_players(GameChoice::American);
    let (w, h) = layout::MIN_SIZE;
    app.update(Msg::Resize(w, h));
    let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).unwrap();
    t.draw(|f| crown_tui::ui::view(&app, f)).unwrap();
    let y = layout::geometry(&app).buttons.y;
    let row: String = (0..w)
        .map(|x| t.backend().buffer()[(x, y)].symbol().to_string())
        .collect();
    for (label, key) in [
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
    ] {
        let x = row
            .find(label)
            .unwrap_or_else(|| panic!("{label} is missing from the bar {row:?}"));
        assert_eq!(
            layout::hit(&app, x as u16 + 1, y),
            Hit::Button(key),
            "{label}"
        );
    }
}

/// Archive FENs load in the Load box like everywhere else (issue 14, docs/notation.md "One reader
/// for every front end"): `?` as the side to move is read as Black (the first player), a man on its
/// king row as a king, and the status line says what was repaired.
#[test]
fn lenient_fens_load_with_a_warning() {
    let mut app = two_players(GameChoice::American);
    key(&mut app, KeyCode::Char('o'));
    keys(&mut app, "?:W21-32:B1-12");
    key(&mut app, KeyCode::Enter);
    assert_eq!(
        app.game.position().to_fen(),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    assert!(app.status.contains("'?'"), "{}", app.status);
    app.take_effects();
    key(&mut app, KeyCode::Char('o'));
    keys(&mut app, "B:W1:B14");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.game.position().to_fen(), "B:WK1:B14");
    assert!(app.status.contains("king"), "{}", app.status);
}

/// Puzzles mode: `z` opens the first committed puzzle of the game near a new player's rating
/// (1500) with the solver to move; `Z` filters by theme, so every puzzle shown then has it.
#[test]
fn puzzles_open_and_filter_by_theme() {
    let set =
        crown_puzzle::read_jsonl(crown_puzzle::embedded_set(Variant::American).as_bytes()).unwrap();
    let first = set
        .iter()
        .position(|p| p.difficulty == 1500)
        .expect("the American set has puzzles of 1500");
    let mut app = two_players(GameChoice::American);
    key(&mut app, KeyCode::Char('z'));
    let m = app.puzzles.as_ref().expect("puzzles mode");
    assert_eq!(app.game.position().to_fen(), m.session.puzzle().fen);
    assert_eq!(m.session.puzzle().id, set[first].id);
    assert!(
        app.status.starts_with(&format!("Puzzle {}/", first + 1)),
        "{}",
        app.status
    );
    key(&mut app, KeyCode::Char('Z'));
    assert_eq!(app.puzzle_theme, Some(crown_puzzle::Theme::Shot));
    for _ in 0..3 {
        let m = app.puzzles.as_ref().unwrap();
        assert!(m
            .session
            .puzzle()
            .themes
            .contains(&crown_puzzle::Theme::Shot));
        key(&mut app, KeyCode::Char('z'));
    }
}

/// Issue 25: the new-game dialog opens at the lowest level that plays its endings from the
/// endgame databases (below it the databases only convert a database win).
#[test]
fn new_game_dialog_defaults_to_the_database_level() {
    let app = App::new(true, 1);
    let level = app
        .dialog
        .as_ref()
        .expect("the dialog opens first")
        .settings
        .level;
    assert_eq!(level, crown_ai::DEFAULT_LEVEL);
    assert_eq!(level, crown_ai::TABLES_FROM_LEVEL);
    assert_eq!(app.settings.level, 4);
}

/// Issue 25: in a puzzle `d` (draw offer) and `r` (resign) are refused with a status message, like
/// `u`; before, they ended the game and left the puzzle stuck ("It is not your move.").
#[test]
fn puzzle_refuses_draw_offer_and_resignation() {
    let mut app = two_players(GameChoice::American);
    key(&mut app, KeyCode::Char('z'));
    let fen = app.game.position().to_fen();
    for k in ['d', 'r'] {
        key(&mut app, KeyCode::Char(k));
        assert!(app.popup.is_none(), "{k}: {:?}", app.popup);
        key(&mut app, KeyCode::Char('y'));
        assert!(app.status.contains("in a puzzle"), "{k}: {}", app.status);
        assert!(app.game.outcome().is_none(), "{k}");
        assert!(app.in_puzzle(), "{k}");
        assert_eq!(app.game.position().to_fen(), fen, "{k}");
    }
    let help = crown_tui::ui::PUZZLE_HELP.join("\n");
    assert!(!help.contains("resign") && !help.contains("draw"), "{help}");
}

/// Plays the solution of the current puzzle (the solver's moves typed as text) until it ends.
fn solve_puzzle(app: &mut App) {
    for _ in 0..40 {
        if !app.in_puzzle() {
            return;
        }
        let m = app.puzzles.as_ref().unwrap();
        let ply = app.game.history().count();
        let mv = m.session.puzzle().solution[ply].clone();
        keys(app, &mv);
        key(app, KeyCode::Enter);
    }
    panic!("the puzzle did not end: {}", app.status);
}

/// Issue 25 (rating farming): a puzzle is rated once; after a restart (the ratings file read back)
/// the trainer opens the first puzzle not yet rated and goes on with the stored streak; solving a
/// puzzle already rated leaves the ratings as they were and says so.
#[test]
fn puzzles_are_rated_once_and_a_restart_goes_on() {
    let id_of = |app: &App| app.puzzles.as_ref().unwrap().session.puzzle().id.clone();
    let mut app = two_players(GameChoice::American);
    key(&mut app, KeyCode::Char('z'));
    let first = id_of(&app);
    solve_puzzle(&mut app);
    assert!(app.status.starts_with("Solved! Streak 1"), "{}", app.status);
    key(&mut app, KeyCode::Char('z'));
    let second = id_of(&app);
    assert_ne!(second, first);
    assert!(!app.status.contains("already rated"), "{}", app.status);
    solve_puzzle(&mut app);
    assert!(app.status.starts_with("Solved! Streak 2"), "{}", app.status);
    let rating = app.puzzle_ratings.player.rating;
    assert!(
        rating > 1500.0,
        "two clean solves raise the rating: {rating}"
    );
    assert_eq!(app.puzzle_ratings.streak, 2);

    // A restart: the stored file read back.
    let text = serde_json::to_string(&app.puzzle_ratings).unwrap();
    let mut again = two_players(GameChoice::American);
    again.puzzle_ratings = serde_json::from_str(&text).unwrap();
    key(&mut again, KeyCode::Char('z'));
    assert!(
        ![&first, &second].contains(&&id_of(&again)),
        "{}",
        again.status
    );
    assert!(!again.status.contains("already rated"), "{}", again.status);
    assert_eq!(again.puzzles.as_ref().unwrap().streak, 2);

    // Every puzzle rated: the first one opens again, and solving it rates nothing.
    let set =
        crown_puzzle::read_jsonl(crown_puzzle::embedded_set(Variant::American).as_bytes()).unwrap();
    let mut all = two_players(GameChoice::American);
    all.puzzle_ratings = serde_json::from_str(&text).unwrap();
    for p in &set {
        if !all.puzzle_ratings.is_rated(&p.id) {
            all.puzzle_ratings.rate(&p.id, p.difficulty, false);
        }
    }
    let before = all.puzzle_ratings.clone();
    key(&mut all, KeyCode::Char('z'));
    assert!(all.status.starts_with("Puzzle 1/"), "{}", all.status);
    assert!(all.status.contains("(already rated)"), "{}", all.status);
    solve_puzzle(&mut all);
    assert!(all.status.contains("already rated"), "{}", all.status);
    assert_eq!(all.puzzle_ratings, before, "nothing rated again");
}

/// Issue 25: a wrong move rates the puzzle as failed at once and ends the stored streak, so that
/// leaving and coming back cannot turn it into a clean solve.
#[test]
fn a_wrong_move_rates_the_puzzle_at_once() {
    let mut app = two_players(GameChoice::American);
    app.puzzle_ratings.streak = 3;
    key(&mut app, KeyCode::Char('z'));
    assert_eq!(app.puzzles.as_ref().unwrap().streak, 3);
    let m = app.puzzles.as_ref().unwrap();
    let id = m.session.puzzle().id.clone();
    let right = m.session.puzzle().solution[0].clone();
    let wrong = app
        .game
        .position()
        .legal_moves_sorted()
        .iter()
        .map(|mv| app.game.position().move_text(mv))
        .find(|t| *t != right);
    let wrong = wrong.expect("the first American puzzle has more than one legal move");
    keys(&mut app, &wrong);
    key(&mut app, KeyCode::Enter);
    assert!(app.status.contains("is not the move"), "{}", app.status);
    assert!(app.puzzle_ratings.is_rated(&id));
    assert_eq!(app.puzzle_ratings.streak, 0);
    let player = app.puzzle_ratings.player;
    solve_puzzle(&mut app);
    assert_eq!(
        app.puzzle_ratings.player, player,
        "the solve after help is not rated again"
    );
}

/// Issue 25: a `puzzles.json` written before the current streak was kept still reads (streak 0),
/// and a new one keeps it.
#[test]
fn ratings_file_without_a_streak_still_reads() {
    let mut r = crown_tui::app::PuzzleRatings::default();
    r.rate("a", 1500, true);
    r.streak = 1;
    r.best_streak = 1;
    let mut old = serde_json::to_value(&r).unwrap();
    assert_eq!(old["streak"], 1);
    old.as_object_mut().unwrap().remove("streak");
    let back: crown_tui::app::PuzzleRatings = serde_json::from_value(old).unwrap();
    assert_eq!(back.streak, 0);
    assert_eq!(back.best_streak, 1);
    assert!(back.is_rated("a") && !back.is_rated("b"));
}

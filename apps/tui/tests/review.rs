//! "Review game" (key `v`): the app asks the runtime for a review, shows the marks in the move list
//! and the graph, and `]` / `[` jump between the key moments. The review itself is
//! `crown_ai::review` (run here in the test, as the runtime's thread would).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use crown_ai::review::{review_game, ReviewOptions};
use crown_ai::{Engine, EngineOptions, Limits};
use crown_core::{Game, Position, Variant};
use crown_tui::app::{App, Effect, GameChoice, Msg, Settings, SideChoice};
use crown_tui::review::ReviewEvent;
use crown_tui::ui;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::sync::atomic::AtomicBool;

fn key(app: &mut App, c: char) {
    app.update(Msg::Key(KeyEvent::new(
        KeyCode::Char(c),
        KeyModifiers::NONE,
    )));
}

/// A two-player American game from `B:W16,20:BK3`: Black's king walks into the shot 3-7?? 16-11!
/// 7x16 20x11 and White wins (see crates/ai/tests/review.rs for the proof by brute force).
fn shot_app() -> App {
    let mut app = App::new(true, 3);
    app.update(Msg::Resize(80, 24));
    app.start_game(Settings {
        game: GameChoice::American,
        vs_engine: false,
        level: 4,
        side: SideChoice::White,
        clock_minutes: 0,
        increment_s: 0,
    });
    app.take_effects();
    let mut game =
        Game::from_position(Position::from_fen(Variant::American, "B:W16,20:BK3").unwrap());
    for m in ["3-7", "16-11", "7x16", "20x11"] {
        game.play_text(m).unwrap();
    }
    app.game = game;
    app
}

#[test]
fn review_marks_the_shot_and_jumps_to_it() {
    let mut app = shot_app();
    key(&mut app, 'v');
    let effects = app.take_effects();
    let Some(Effect::Review { id, start, moves }) = effects
        .into_iter()
        .find(|e| matches!(e, Effect::Review { .. }))
    else {
        panic!("no review asked for");
    };
    assert_eq!(moves.len(), 4);
    assert!(
        app.status.starts_with("Reviewing 4 moves"),
        "{}",
        app.status
    );

    let mut engine = Engine::new(EngineOptions::default());
    let options = ReviewOptions {
        limits: Limits::depth(8),
        check_only_moves: true,
    };
    let review = review_game(
        &mut engine,
        &start,
        &moves,
        &options,
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .unwrap();
    app.update(Msg::Review(ReviewEvent::Progress { id, done: 2 }));
    assert_eq!(app.review.as_ref().unwrap().done, 2);
    app.update(Msg::Review(ReviewEvent::Done {
        id,
        review: Some(Box::new(review)),
    }));
    assert!(
        app.status
            .starts_with("Review done: Black 0?! 0? 1??, White 0?! 0? 0??"),
        "{}",
        app.status
    );

    let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
    t.draw(|f| ui::view(&app, f)).unwrap();
    insta::assert_snapshot!(t.backend());

    // The first key moment is the blunder 3-7 (also where the game turned): shown after it.
    key(&mut app, ']');
    assert_eq!(app.view_ply, Some(1));
    assert!(
        app.status
            .starts_with("1. 3-7?? (balanced -> White winning); better 3-8"),
        "{}",
        app.status
    );
    key(&mut app, ']');
    assert_eq!(app.status, "No more key moments that way.");
    key(&mut app, '[');
    assert_eq!(app.status, "No more key moments that way.");
    // From the live position, [ goes to the last key moment.
    app.browse_to(None);
    key(&mut app, '[');
    assert_eq!(app.view_ply, Some(1));
}

#[test]
fn a_stale_or_stopped_review_is_not_shown() {
    let mut app = shot_app();
    key(&mut app, 'v');
    let id = match app
        .take_effects()
        .into_iter()
        .find(|e| matches!(e, Effect::Review { .. }))
    {
        Some(Effect::Review { id, .. }) => id,
        _ => panic!("no review"),
    };
    // Pressing v again stops it.
    key(&mut app, 'v');
    assert!(app
        .take_effects()
        .iter()
        .any(|e| matches!(e, Effect::StopReview)));
    assert!(app.review.is_none());
    // A late report of the stopped review is ignored.
    app.update(Msg::Review(ReviewEvent::Progress { id, done: 3 }));
    assert!(app.review.is_none());
    // Without a review, ] says how to get one.
    key(&mut app, ']');
    assert_eq!(app.status, "Press v to review the game first.");
}

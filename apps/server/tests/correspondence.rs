//! Correspondence games on SQLite (docs/api.md, "Correspondence games"): a challenge with `days`
//! per move makes a game with a move deadline instead of clocks; each move resets the deadline;
//! the game survives a restart and ends on time when the side to move misses it, and a game in
//! which nobody moved is aborted at its first deadline. Days pass through the server's test
//! clock ([`crown_server::games::live::advance_clock`]), never waited for: this file holds one
//! test so that moving the clock disturbs no other test of its process.

mod common;
use axum::http::StatusCode;
use common::accounts::sign_up;
use common::challenges::{
    assert_black_won_on_time, game, get, one_day_game, play_first_legal, wait_over,
};
use common::server;
use crown_server::games::live::{advance_clock, now_ms};
use crown_server::store::{SqliteStore, Store, DAY_MS};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

#[tokio::test]
async fn a_one_day_correspondence_game_survives_a_restart_and_ends_by_its_deadline() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open_in_memory().unwrap());
    // Rated from each side's first move, so that three plies change the ratings.
    let config = |c: &mut crown_server::Config| c.rated_min_plies = 2;
    let app = server().store(store.clone()).with(config).start().await;
    let alice = sign_up(&app, "alice", "correct horse").await;
    let bob = sign_up(&app, "bob", "battery staple").await;
    let (id, black, white) = one_day_game(&app, &alice, &bob).await;
    let (unmoved, _, _) = one_day_game(&app, &alice, &bob).await;

    let g = game(&app, &id).await;
    assert_eq!(
        (&g["speed"], &g["days"], &g["clock"], &g["rated"]),
        (
            &json!("correspondence"),
            &json!(1),
            &Value::Null,
            &json!(true)
        ),
        "{g}"
    );
    // Before black's first move the deadline is the first-move (abort) deadline: one day.
    let first = g["deadline_ms"].as_u64().expect("a deadline");
    assert_eq!(g["first_move_deadline_ms"].as_u64(), Some(first));
    let now = now_ms();
    assert!(
        first > now + DAY_MS - 60_000 && first <= now + DAY_MS,
        "{g}"
    );

    // Both first moves, then half a day passes before black's second move.
    let (s, v) = play_first_legal(&app, &id, &black).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = play_first_legal(&app, &id, &white).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let before = game(&app, &id).await["deadline_ms"].as_u64().unwrap();
    advance_clock(DAY_MS / 2);
    let (s, v) = play_first_legal(&app, &id, &black).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let g = game(&app, &id).await;
    let deadline = g["deadline_ms"].as_u64().unwrap();
    assert!(
        deadline >= before + DAY_MS / 2,
        "the move reset the deadline to a day from now: {before} then {deadline}"
    );
    assert_eq!(g["side_to_move"], "white");

    // A restart keeps the game and its deadline.
    app.shutdown();
    app.final_heartbeat().await;
    let app = server().store(store.clone()).with(config).start().await;
    let g = game(&app, &id).await;
    assert_eq!(g["status"], "ongoing", "{g}");
    let after = g["deadline_ms"].as_u64().unwrap();
    assert!(
        after >= deadline && after < deadline + 60_000,
        "the deadline survived the restart: {deadline} then {after}"
    );
    assert_eq!(game(&app, &unmoved).await["status"], "ongoing");

    // Nearly a day later white has not moved: the game goes on.
    advance_clock((after - 60_000).saturating_sub(now_ms()));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(game(&app, &id).await["status"], "ongoing");

    // Past the deadline: white loses on time, nobody watching; the unmoved game is aborted.
    advance_clock(120_000);
    let g = wait_over(&app, &id).await;
    assert_black_won_on_time(&g);
    assert_eq!(
        g["accounts"]["black"]["rating_diff"]
            .as_i64()
            .map(|d| d > 0),
        Some(true),
        "{g}"
    );
    let u = wait_over(&app, &unmoved).await;
    assert_eq!(u["status"], "aborted", "{u}");
    assert_eq!(
        u["outcome"]["reason"],
        "aborted: black did not make a first move in time"
    );

    let pdn = common::pdn(&app, &id).await;
    for tag in ["[TimeControl \"-\"]", "[Correspondence \"1 day per move\"]"] {
        assert!(pdn.contains(tag), "{tag} in {pdn}");
    }

    // The rating is alice's correspondence rating.
    let (s, r) = get(&app, &alice, "/api/users/alice").await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(
        (
            &r["ratings"][0]["variant"],
            &r["ratings"][0]["speed"],
            &r["ratings"][0]["games"]
        ),
        (&json!("american"), &json!("correspondence"), &json!(1)),
        "{r}"
    );
    assert_eq!(r["ratings"].as_array().unwrap().len(), 1, "{r}");
    app.shutdown();
}

//! Puzzles on the account through the router (docs/api.md, "Puzzles"), on SQLite: an attempt
//! rated once by the trainer's rule (numbers from Glickman's formulas), the streaks, the
//! dashboard (history, themes, weakest), the merge of a local record (replayed, never trusted,
//! idempotent, bounded), bad input naming its field, the per-account limit, the player page,
//! racing requests, and a database made before the puzzle table.

mod common;
use axum::http::StatusCode;
use common::accounts::{post, sign_up};
use common::puzzles::{
    a_new_account_rates_a_puzzle, all_puzzles, at_difficulty, attempt, attempt_body, dashboard,
    merge, race,
};
use common::ratings::{get, new_players_game};
use common::server;
use crown_puzzle::PuzzleRatings;
use crown_server::store::{Durability, SqliteStore};
use serde_json::{json, Value};
use std::sync::Arc;

fn near(v: &Value, want: f64) -> bool {
    v.as_f64().is_some_and(|x| (x - want).abs() < 0.05)
}

#[tokio::test]
async fn an_attempt_is_rated_once_by_the_trainers_rule() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let d = dashboard(&app, &alice).await;
    assert_eq!(
        (d["rating"].as_f64(), d["deviation"].as_f64()),
        (Some(1500.0), Some(350.0))
    );
    assert_eq!(
        (d["streak"].as_u64(), d["attempts"].as_u64()),
        (Some(0), Some(0)),
        "{d}"
    );
    let ids = at_difficulty(1500, 3);
    // A clean solve of a 1500 puzzle by a new player: a win between two 1500/350/0.06 ratings.
    let (win, rd) = new_players_game(1.0);
    let (s, v) = attempt(&app, &alice, &ids[0], true).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["rated"], true, "{v}");
    assert!(
        near(&v["rating"], win) && near(&v["deviation"], rd),
        "{v} vs {win} {rd}"
    );
    assert_eq!(
        (v["streak"].as_u64(), v["best_streak"].as_u64()),
        (Some(1), Some(1))
    );
    // The same puzzle again, failed this time: rated before, nothing changes.
    let (s, again) = attempt(&app, &alice, &ids[0], false).await;
    assert_eq!(s, StatusCode::OK, "{again}");
    assert_eq!(again["rated"], false, "{again}");
    assert_eq!(again["rating"], v["rating"]);
    assert_eq!(again["streak"], 1);
    // A second clean solve, then a failure: the streak grows, then ends; the best stays.
    let (_, v2) = attempt(&app, &alice, &ids[1], true).await;
    assert_eq!(
        (v2["streak"].as_u64(), v2["best_streak"].as_u64()),
        (Some(2), Some(2))
    );
    let (_, v3) = attempt(&app, &alice, &ids[2], false).await;
    assert_eq!(v3["rated"], true);
    assert_eq!(
        (v3["streak"].as_u64(), v3["best_streak"].as_u64()),
        (Some(0), Some(2))
    );
    assert!(v3["rating"].as_f64() < v2["rating"].as_f64(), "{v2} {v3}");
    // The dashboard: the history newest first, the counts by theme, the weakest themes.
    let d = dashboard(&app, &alice).await;
    assert_eq!(d["rating"], v3["rating"], "{d}");
    assert_eq!(
        (
            d["attempts"].as_u64(),
            d["solved"].as_u64(),
            d["failed"].as_u64()
        ),
        (Some(3), Some(2), Some(1))
    );
    let h: Vec<&str> = d["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["puzzle"].as_str().unwrap())
        .collect();
    assert_eq!(h, [ids[2].as_str(), ids[1].as_str(), ids[0].as_str()]);
    assert_eq!(d["history"][0]["solved"], false);
    assert_eq!(d["history"][0]["time_ms"], 5000);
    assert_eq!(d["history"][2]["difficulty"], 1500);
    let puzzles = all_puzzles();
    let themes_of = |id: &str| -> Vec<&'static str> {
        puzzles
            .iter()
            .find(|p| p.id == id)
            .unwrap()
            .themes
            .iter()
            .map(|t| t.id())
            .collect()
    };
    for c in d["themes"].as_array().unwrap() {
        let t = c["theme"].as_str().unwrap();
        let solved = [&ids[0], &ids[1]]
            .iter()
            .filter(|id| themes_of(id).contains(&t))
            .count();
        let failed = usize::from(themes_of(&ids[2]).contains(&t));
        assert_eq!(
            (c["solved"].as_u64(), c["failed"].as_u64()),
            (Some(solved as u64), Some(failed as u64)),
            "{t}: {d}"
        );
    }
    // The weakest: the themes with a failure tried at least 3 times (the failed puzzle's).
    let weakest: Vec<&str> = d["weakest"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    let enough: Vec<&str> = d["themes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["failed"].as_u64() > Some(0))
        .filter(|c| c["solved"].as_u64().unwrap() + c["failed"].as_u64().unwrap() >= 3)
        .map(|c| c["theme"].as_str().unwrap())
        .collect();
    let mut listed = weakest.clone();
    listed.sort_unstable();
    let mut want = enough.clone();
    want.sort_unstable();
    want.truncate(3);
    assert_eq!(listed.len(), want.len(), "{weakest:?} vs {enough:?}: {d}");
    assert!(
        weakest
            .iter()
            .all(|t| enough.contains(t) && themes_of(&ids[2]).contains(t)),
        "{weakest:?}"
    );
    assert_eq!(d["weakest_min_attempts"], 3, "{d}");
    // The trainer's format, for the web page's trainer.
    assert_eq!(d["ratings"]["puzzles"].as_object().unwrap().len(), 3, "{d}");
    // Another account starts afresh.
    let bob = sign_up(&app, "bob", "password-b").await;
    assert_eq!(dashboard(&app, &bob).await["attempts"], 0);
}

#[tokio::test]
async fn bad_input_is_refused_naming_the_field() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let id = &at_difficulty(1500, 1)[0];
    let cases = [
        (
            json!({"puzzle": "no-such-puzzle", "solved": true}),
            "unknown_puzzle",
            "puzzle",
        ),
        (
            json!({"puzzle": id, "solved": true, "time_ms": 86_400_001u64}),
            "bad_time",
            "time_ms",
        ),
        (json!({"puzzle": id}), "bad_attempt", "solved"),
        (json!({"solved": true}), "bad_attempt", "puzzle"),
        (
            json!({"puzzle": 7, "solved": true}),
            "bad_attempt",
            "puzzle",
        ),
        (
            json!({"puzzle": id, "solved": "yes"}),
            "bad_attempt",
            "solved",
        ),
        (
            json!({"puzzle": id, "solved": true, "time_ms": -1}),
            "bad_time",
            "time_ms",
        ),
        (
            json!({"puzzle": id, "solved": true, "time_ms": 1.5}),
            "bad_time",
            "time_ms",
        ),
        (
            json!({"puzzle": id, "solved": true, "rating": 3000}),
            "bad_attempt",
            "'rating'",
        ),
    ];
    for (body, code, field) in cases {
        let (s, v) = attempt_body(&app, Some(&alice), body.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert_eq!(v["error"]["code"], code, "{body}: {v}");
        let msg = v["error"]["message"].as_str().unwrap();
        assert!(msg.contains(field), "{body}: {msg}");
    }
    // Nothing was rated.
    assert_eq!(dashboard(&app, &alice).await["attempts"], 0);
    // Not logged in, an unknown session.
    let body = json!({"puzzle": id, "solved": true});
    let (s, v) = attempt_body(&app, None, body.clone()).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("not_logged_in"))
    );
    let (s, _) = attempt_body(&app, Some("00ff"), body.clone()).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, _) = get(&app, "/api/puzzles/me", None).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    // Another site's page.
    let mut c = post("/api/puzzles/attempts", body.clone());
    c.session = Some(&alice);
    c.headers.push(("origin", "https://evil.example".into()));
    let (s, _, v) = c.send(&app).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("bad_origin"))
    );
    let mut c = post("/api/puzzles/merge", json!({"ratings": {"puzzles": {}}}));
    c.session = Some(&alice);
    c.headers.push(("origin", "null".into()));
    assert_eq!(c.send(&app).await.0, StatusCode::FORBIDDEN);
    // Merges that are not a local record.
    for (body, field) in [
        (json!({"puzzles": {}}), "ratings: missing"),
        (
            json!({"ratings": {"puzzles": [1, 2]}}),
            "ratings.puzzles: not an object",
        ),
        (
            json!({"ratings": {"puzzles": {id: {"deviation": 50}}}}),
            "ratings.puzzles[",
        ),
    ] {
        let (s, v) = merge(&app, &alice, body.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert_eq!(v["error"]["code"], "bad_merge", "{v}");
        assert!(
            v["error"]["message"].as_str().unwrap().starts_with(field),
            "{v}"
        );
    }
    assert_eq!(dashboard(&app, &alice).await["attempts"], 0);
}

/// A local record of the web page: `attempts` rated by crown-puzzle's rule, and a claimed
/// player rating and streak far above it.
fn local_record(attempts: &[(&str, bool)]) -> (Value, PuzzleRatings) {
    let puzzles = all_puzzles();
    let mut r = PuzzleRatings::default();
    for (id, won) in attempts {
        let p = puzzles.iter().find(|p| p.id == *id).unwrap();
        r.record(id, p.difficulty, *won);
    }
    let mut body = json!({"ratings": r, "streak": 40, "solved": ["x"]});
    body["ratings"]["player"]["rating"] = json!(2900.0);
    body["ratings"]["streak"] = json!(40);
    (body, r)
}

#[tokio::test]
async fn a_merge_replays_the_local_attempts_once() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let ids = at_difficulty(1500, 3);
    let mut hard: Vec<String> = all_puzzles()
        .into_iter()
        .filter(|p| p.difficulty >= 1900)
        .map(|p| p.id)
        .take(2)
        .collect();
    hard.sort();
    let mut attempts = vec![(ids[0].as_str(), true), (ids[1].as_str(), false)];
    attempts.extend(hard.iter().map(|h| (h.as_str(), true)));
    let (mut body, _) = local_record(&attempts);
    body["ratings"]["puzzles"]["gone-from-the-sets"] = json!({"rating": 1400.0});
    // What replaying the record's attempts through the rule gives, in the order they were played.
    let (_, replay) = local_record(&attempts);
    let (s, v) = merge(&app, &alice, body.clone()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (
            v["rated"].as_u64(),
            v["already"].as_u64(),
            v["unknown"].as_u64()
        ),
        (Some(4), Some(0), Some(1)),
        "{v}"
    );
    assert!(
        (v["rating"].as_f64().unwrap() - replay.player.rating).abs() < 1e-6,
        "{v} vs {replay:?}"
    );
    assert!(
        v["rating"].as_f64().unwrap() < 2000.0,
        "the claimed rating is not taken: {v}"
    );
    assert_eq!(v["streak"].as_u64(), Some(u64::from(replay.streak)), "{v}");
    // Sent again (a second tab, a retry): nothing changes.
    let (s, again) = merge(&app, &alice, body).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        (again["rated"].as_u64(), again["already"].as_u64()),
        (Some(0), Some(4)),
        "{again}"
    );
    assert_eq!(again["rating"], v["rating"]);
    let d = dashboard(&app, &alice).await;
    assert_eq!(d["attempts"], 4);
    assert!(d["history"]
        .as_array()
        .unwrap()
        .iter()
        .all(|a| a["merged"] == true && a["time_ms"].is_null()));
    // A puzzle rated on the account is not rated again by a merge; a new one is.
    let (_, v) = attempt(&app, &alice, &ids[2], true).await;
    let (local, _) = local_record(&[(ids[2].as_str(), false), (ids[0].as_str(), false)]);
    let (_, m) = merge(&app, &alice, local).await;
    assert_eq!(
        (m["rated"].as_u64(), m["already"].as_u64()),
        (Some(0), Some(2)),
        "{m}"
    );
    assert_eq!(m["rating"], v["rating"]);
    // Too long a record in one request.
    let many: serde_json::Map<String, Value> = all_puzzles()
        .into_iter()
        .take(65)
        .map(|p| (p.id, json!({"rating": 1000.0})))
        .collect();
    let (s, e) = merge(&app, &alice, json!({"ratings": {"puzzles": many}})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("at most 64"),
        "{e}"
    );
}

#[tokio::test]
async fn a_merge_replays_the_attempts_in_the_order_they_were_played() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let mut ids = at_difficulty(1500, 3);
    ids.sort();
    let (a, b, c) = (ids[0].as_str(), ids[1].as_str(), ids[2].as_str());
    // Played b (failed), then c and a (solved): the browser shows a streak of 2. In id order
    // (a solved, b failed, c solved) the streak would be 1 and the rating another.
    let (body, browser) = local_record(&[(b, false), (c, true), (a, true)]);
    assert_eq!(body["ratings"]["played"], json!([b, c, a]), "{body}");
    assert_eq!((browser.streak, browser.best_streak), (2, 2));
    let (s, v) = merge(&app, &alice, body).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["rated"].as_u64(), Some(3), "{v}");
    assert_eq!(
        (v["streak"].as_u64(), v["best_streak"].as_u64()),
        (Some(2), Some(2)),
        "the browser's streak: {v}"
    );
    assert!(
        (v["rating"].as_f64().unwrap() - browser.player.rating).abs() < 1e-9,
        "the browser's rating: {v} vs {browser:?}"
    );
    let d = dashboard(&app, &alice).await;
    let history: Vec<&str> = d["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["puzzle"].as_str().unwrap())
        .collect();
    assert_eq!(history, [a, c, b], "newest first: {d}");
    // `played` must be a list of ids.
    let (s, e) = merge(
        &app,
        &alice,
        json!({"ratings": {"puzzles": {}, "played": "b"}}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("ratings.played"),
        "{e}"
    );
}

#[tokio::test]
async fn the_player_page_shows_the_puzzle_rating() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let (s, u) = get(&app, "/api/users/alice", None).await;
    assert_eq!(s, StatusCode::OK, "{u}");
    assert_eq!(u["puzzles"], Value::Null, "no attempt yet: {u}");
    assert_eq!(u["user"]["name"], "alice", "the page is still there: {u}");
    let id = &at_difficulty(1500, 1)[0];
    attempt(&app, &alice, id, true).await;
    let (win, rd) = new_players_game(1.0);
    let (_, u) = get(&app, "/api/users/ALICE", None).await;
    let p = &u["puzzles"];
    assert_eq!(p["rating"], win.round() as i64, "{u}");
    assert_eq!(p["deviation"], rd.round() as i64, "{u}");
    assert_eq!(
        (
            p["attempts"].as_u64(),
            p["solved"].as_u64(),
            p["best_streak"].as_u64()
        ),
        (Some(1), Some(1), Some(1))
    );
    assert_eq!(p["provisional"], true);
    // Only the summary: no history, no per-puzzle ratings.
    assert!(
        p.get("history").is_none() && p.get("ratings").is_none(),
        "{p}"
    );
}

#[tokio::test]
async fn a_flood_of_attempts_from_one_account_is_limited() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let id = &at_difficulty(1500, 1)[0];
    for i in 0..crown_server::puzzles::WRITES_BURST {
        let (s, v) = attempt(&app, &alice, id, true).await;
        assert_eq!(s, StatusCode::OK, "attempt {i}: {v}");
    }
    let (s, v) = attempt(&app, &alice, id, true).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert_eq!(v["error"]["code"], "puzzle_rate_limited", "{v}");
    // Another account is not held back.
    let bob = sign_up(&app, "bob", "password-b").await;
    assert_eq!(attempt(&app, &bob, id, true).await.0, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_attempts_are_each_rated_once() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let ids = at_difficulty(1500, 3);
    // Each puzzle sent four times at once: every one rated exactly once.
    assert_eq!(race(std::slice::from_ref(&app), &alice, &ids).await, 3);
    let d = dashboard(&app, &alice).await;
    assert_eq!(
        (d["attempts"].as_u64(), d["streak"].as_u64()),
        (Some(3), Some(3)),
        "{d}"
    );
}

#[tokio::test]
async fn a_database_made_before_the_puzzle_table_gets_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crown.db");
    {
        // A store of the schema before puzzles: the table is not there.
        drop(SqliteStore::open(&path, Durability::Full).unwrap());
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute_batch("DROP TABLE puzzle_records;").unwrap();
    }
    let store = Arc::new(SqliteStore::open(&path, Durability::Full).unwrap());
    let app = server().store(store).start().await;
    a_new_account_rates_a_puzzle(&app).await;
}

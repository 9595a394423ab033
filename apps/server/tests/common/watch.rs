//! The Watch page's scenario (tests/watch.rs on SQLite, tests/pg_watch.rs on PostgreSQL with two
//! instances): games are made through `a`, the list is read through `b`.

use super::accounts::sign_up;
use super::ratings::{act, game, get, new_players_game, Game};
use axum::http::StatusCode;
use crown_server::App;
use serde_json::{json, Value};

/// The ids of `GET /api/tv`'s `games`, in order.
fn ids(tv: &Value) -> Vec<String> {
    tv["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect()
}

/// Wait (bounded) until `GET /api/tv` through `app` satisfies `done` (the answer is read
/// again at most every `watch::TV_CACHE_MS`, so a change shows up to that late); the answer.
async fn tv_when(app: &App, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let (s, tv) = get(app, "/api/tv", None).await;
        assert_eq!(s, StatusCode::OK, "{tv}");
        if done(&tv) {
            return tv;
        }
        assert!(std::time::Instant::now() < deadline, "never {what}: {tv}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Alice beats bob in a rated game (the game of the day: both were 1500 before it); then
/// alice (about 1662) plays carol (1500) and bob (about 1338) plays dave (1500), both rated,
/// two guests play a public casual game and two others a private one. `GET /api/tv` through `b`
/// lists alice–carol (mean 1581), bob–dave (mean 1419), then the public casual game, and not
/// the private one; the game of the day is alice's win.
pub async fn the_watch_list_ranks_the_ongoing_games(a: &App, b: &App) {
    let (s, tv) = get(b, "/api/tv", None).await;
    assert_eq!(s, StatusCode::OK, "{tv}");
    assert_eq!(tv, json!({"games": [], "game_of_the_day": null}));

    let alice = sign_up(a, "alice", "password-a").await;
    let bob = sign_up(a, "bob", "password-b").await;
    let carol = sign_up(a, "carol", "password-c").await;
    let dave = sign_up(a, "dave", "password-d").await;
    let won = game(a, Some(&alice), Some(&bob), json!({"rated": true})).await;
    let (s, v) = act(a, &won.id, "resign", &won.white).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // A draw of the same ratings is not decisive: never the game of the day.
    let drawn = game(a, Some(&carol), Some(&dave), json!({"rated": true})).await;
    assert_eq!(
        act(a, &drawn.id, "draw/offer", &drawn.black).await.0,
        StatusCode::OK
    );
    assert_eq!(
        act(a, &drawn.id, "draw/accept", &drawn.white).await.0,
        StatusCode::OK
    );

    let low = game(a, Some(&bob), Some(&dave), json!({"rated": true})).await;
    let high = game(a, Some(&carol), Some(&alice), json!({"rated": true})).await;
    let casual: Game = game(a, None, None, json!({"public": true})).await;
    let private: Game = game(a, None, None, json!({})).await;

    let listed = [high.id.clone(), low.id.clone(), casual.id.clone()];
    let tv = tv_when(b, "the three listed games", |tv| ids(tv) == listed).await;
    assert!(!ids(&tv).contains(&private.id));
    // Alice's rating after one win and bob's after one loss, from Glickman's formulas.
    let (win, _) = new_players_game(1.0);
    let (loss, _) = new_players_game(0.0);
    let (win, loss) = (win.round() as i64, loss.round() as i64);
    let top = &tv["games"][0];
    assert_eq!(
        top["black"],
        json!({"name": "carol", "account": true, "bot": false, "rating": 1500})
    );
    assert_eq!(
        top["white"],
        json!({"name": "alice", "account": true, "bot": false, "rating": win})
    );
    assert_eq!(top["rating"], ((1500 + win) as f64 / 2.0).round() as i64);
    assert_eq!(
        tv["games"][1]["rating"],
        ((1500 + loss) as f64 / 2.0).round() as i64
    );
    assert_eq!(
        (&top["status"], &top["rated"], &top["speed"], &top["plies"]),
        (&json!("ongoing"), &json!(true), &json!("blitz"), &json!(10))
    );
    let c = &tv["games"][2];
    assert_eq!((&c["rated"], &c["rating"]), (&json!(false), &Value::Null));
    assert_eq!(
        c["black"],
        json!({"name": null, "account": false, "bot": false, "rating": null})
    );

    let day = &tv["game_of_the_day"];
    assert_eq!(day["id"], won.id, "{tv}");
    assert_eq!(
        (&day["status"], &day["result"], &day["rating"]),
        (&json!("finished"), &json!("1-0"), &json!(1500))
    );
    assert_eq!(day["black"]["name"], "alice");

    // A finished game leaves the list.
    assert_eq!(
        act(a, &high.id, "resign", &high.black).await.0,
        StatusCode::OK
    );
    let left = [low.id.clone(), casual.id.clone()];
    tv_when(b, "the finished game gone", |tv| ids(tv) == left).await;
}

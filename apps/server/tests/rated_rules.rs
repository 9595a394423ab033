//! When a rated game changes no rating (issue 41, the second attack review; docs/api.md,
//! "Ratings"): a game between two accounts of one sign-up network, a pair's games beyond
//! `--rated-games-per-pair-per-day`, and a game that ends before `--rated-min-plies` are played
//! (or archived) unrated, with `unrated_reason` in the game's view, on SQLite (tests/pg_ratings.rs
//! runs the first two on PostgreSQL).

mod common;
use axum::http::StatusCode;
use common::ratings::{
    act, blitz_rating, get, join, joined_at_once, played_game, rated_game, sign_up_from,
};
use common::server;
use crown_server::App;
use serde_json::Value;

/// A server with `f` applied and no sign-up or log-in limit.
async fn app(f: impl FnOnce(&mut crown_server::Config) + Send + 'static) -> App {
    server()
        .with(|c| {
            c.signup_per_hour_per_ip = 0;
            c.login_per_min_per_ip = 0;
            f(c);
        })
        .start()
        .await
}

/// The game's view.
async fn view(app: &App, id: &str) -> Value {
    let (s, v) = get(app, &format!("/api/games/{id}"), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

/// `name`'s archived games as its own `session` sees them (an unrated private game is listed
/// to its players only): `(game id, rated, rating_diff)`.
async fn archive(app: &App, name: &str, session: &str) -> Vec<(String, bool, Value)> {
    archive_rows(app, name, session)
        .await
        .into_iter()
        .map(|g| {
            (
                g["id"].as_str().unwrap().to_string(),
                g["rated"].as_bool().unwrap(),
                g["rating_diff"].clone(),
            )
        })
        .collect()
}

/// `name`'s archived games, as JSON rows, as its own `session` sees them.
async fn archive_rows(app: &App, name: &str, session: &str) -> Vec<Value> {
    let (s, v) = get(app, &format!("/api/users/{name}/games"), Some(session)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v["games"].as_array().unwrap().clone()
}

const HOME: [u8; 4] = [203, 0, 113, 7];
const NEIGHBOUR: [u8; 4] = [203, 0, 113, 200];
const ELSEWHERE: [u8; 4] = [198, 51, 100, 9];

#[tokio::test]
async fn a_game_between_two_accounts_of_one_network_is_played_unrated() {
    let app = app(|_| {}).await;
    let ann = sign_up_from(&app, "ann", HOME).await;
    let bob = sign_up_from(&app, "bob", NEIGHBOUR).await;
    let g = played_game(&app, &ann, &bob, 12).await;
    // Decided when the second seat was taken: both players see it while they play.
    let v = view(&app, &g.id).await;
    assert_eq!(v["rated"], false, "{v}");
    assert_eq!(v["unrated_reason"], "same_network", "{v}");
    assert_eq!(v["accounts"]["black"]["rating"], Value::Null, "{v}");
    let (s, r) = act(&app, &g.id, "resign", &g.white).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(blitz_rating(&app, "ann").await, None);
    assert_eq!(blitz_rating(&app, "bob").await, None);
    assert_eq!(
        archive(&app, "ann", &ann).await,
        [(g.id.clone(), false, Value::Null)]
    );
    let v = view(&app, &g.id).await;
    assert_eq!(
        (v["rated"].clone(), v["unrated_reason"].clone()),
        (false.into(), "same_network".into())
    );
}

#[tokio::test]
async fn a_game_between_two_networks_is_rated() {
    let app = app(|_| {}).await;
    let ann = sign_up_from(&app, "ann", HOME).await;
    let cat = sign_up_from(&app, "cat", ELSEWHERE).await;
    let g = played_game(&app, &ann, &cat, 12).await;
    let v = view(&app, &g.id).await;
    assert_eq!(v["rated"], true, "{v}");
    assert_eq!(v["unrated_reason"], Value::Null, "{v}");
    let (s, r) = act(&app, &g.id, "resign", &g.white).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    // Two new players, black wins: 1662 and 1338 (Glickman's example; tests/ratings.rs).
    assert_eq!(
        blitz_rating(&app, "ann").await.map(|r| (r.0, r.2)),
        Some((1662, 1))
    );
    assert_eq!(
        blitz_rating(&app, "cat").await.map(|r| (r.0, r.2)),
        Some((1338, 1))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn joins_of_one_pair_at_once_begin_no_more_rated_games_than_its_cap() {
    // Issue 41 (the third attack review, E): 30 joins at once gave 17 rated games under a cap
    // of 10, the count read before the join was written.
    let app = app(|c| c.rated_games_per_pair_per_day = 4).await;
    let ann = sign_up_from(&app, "ann", HOME).await;
    let cat = sign_up_from(&app, "cat", ELSEWHERE).await;
    let games = joined_at_once(&[&app], &ann, &cat, 16).await;
    for (answered, read) in &games {
        assert_eq!(answered, read, "the join answered what the game holds");
    }
    let rated = games.iter().filter(|g| g.1 .0 == true).count();
    assert_eq!(rated, 4, "{games:?}");
    for g in games.iter().filter(|g| g.1 .0 == false) {
        assert_eq!(g.1 .1, "pair_limit", "{games:?}");
    }
    // As the joins one after another (below): the next one is unrated too.
    let (id, _) = rated_game(&app, &ann).await;
    let j = join(&app, &id, &cat).await;
    assert_eq!(
        (&j["game"]["rated"], &j["game"]["unrated_reason"]),
        (&false.into(), &"pair_limit".into())
    );
}

#[tokio::test]
async fn a_pair_beyond_its_rated_games_of_the_day_plays_unrated() {
    let app = app(|c| c.rated_games_per_pair_per_day = 3).await;
    let ann = sign_up_from(&app, "ann", HOME).await;
    let cat = sign_up_from(&app, "cat", ELSEWHERE).await;
    let dan = sign_up_from(&app, "dan", [192, 0, 2, 1]).await;
    // Two finished rated games and one being played: the pair's three of the day.
    for _ in 0..2 {
        let g = played_game(&app, &ann, &cat, 10).await;
        assert_eq!(act(&app, &g.id, "resign", &g.black).await.0, StatusCode::OK);
    }
    let playing = played_game(&app, &cat, &ann, 10).await;
    assert_eq!(view(&app, &playing.id).await["rated"], true);
    // The fourth, in either colour, is played unrated.
    for (b, w) in [(&ann, &cat), (&cat, &ann)] {
        let g = played_game(&app, b, w, 10).await;
        let v = view(&app, &g.id).await;
        assert_eq!(v["rated"], false, "{v}");
        assert_eq!(v["unrated_reason"], "pair_limit", "{v}");
        assert_eq!(act(&app, &g.id, "resign", &g.black).await.0, StatusCode::OK);
    }
    assert_eq!(blitz_rating(&app, "ann").await.map(|r| r.2), Some(2));
    // Another pair is not limited by it.
    let g = played_game(&app, &ann, &dan, 10).await;
    assert_eq!(view(&app, &g.id).await["rated"], true);
    // An aborted or casual game does not count: the game being played still does.
    assert_eq!(
        act(&app, &playing.id, "resign", &playing.white).await.0,
        StatusCode::OK
    );
    assert_eq!(blitz_rating(&app, "cat").await.map(|r| r.2), Some(3));
}

#[tokio::test]
async fn the_default_pair_cap_is_ten_and_the_default_minimum_ten_plies() {
    let c = crown_server::Config::default();
    assert_eq!(c.rated_games_per_pair_per_day, 10);
    assert_eq!(c.rated_min_plies, 10);
    assert_eq!(c.signup_net_v6_prefix, 48);
}

#[tokio::test]
async fn a_rated_game_shorter_than_the_minimum_changes_no_rating() {
    let app = app(|_| {}).await;
    let ann = sign_up_from(&app, "ann", HOME).await;
    let cat = sign_up_from(&app, "cat", ELSEWHERE).await;
    // Resigned at 9 plies: too short.
    let g = played_game(&app, &ann, &cat, 9).await;
    let v = view(&app, &g.id).await;
    // While it goes on it is rated: it may still reach ten plies.
    assert_eq!(
        (v["rated"].clone(), v["unrated_reason"].clone()),
        (true.into(), Value::Null)
    );
    assert_eq!(act(&app, &g.id, "resign", &g.white).await.0, StatusCode::OK);
    let v = view(&app, &g.id).await;
    assert_eq!(v["rated"], false, "{v}");
    assert_eq!(v["unrated_reason"], "too_short", "{v}");
    let d = played_game(&app, &ann, &cat, 4).await;
    assert_eq!(
        act(&app, &d.id, "draw/offer", &d.black).await.0,
        StatusCode::OK
    );
    assert_eq!(
        act(&app, &d.id, "draw/accept", &d.white).await.0,
        StatusCode::OK
    );
    assert_eq!(view(&app, &d.id).await["unrated_reason"], "too_short");
    assert_eq!(blitz_rating(&app, "ann").await, None);
    // The archive says why, as the view does.
    let rows = archive_rows(&app, "cat", &cat).await;
    assert!(
        rows.iter().all(|g| g["unrated_reason"] == "too_short"),
        "{rows:?}"
    );
    let archived = archive(&app, "cat", &cat).await;
    assert_eq!(archived.len(), 2);
    assert!(
        archived
            .iter()
            .all(|(_, rated, diff)| !rated && diff.is_null()),
        "{archived:?}"
    );
    // Ten plies: rated.
    let g = played_game(&app, &ann, &cat, 10).await;
    assert_eq!(act(&app, &g.id, "resign", &g.white).await.0, StatusCode::OK);
    assert_eq!(view(&app, &g.id).await["rated"], true);
    assert_eq!(
        blitz_rating(&app, "ann").await.map(|r| (r.0, r.2)),
        Some((1662, 1))
    );
}

#[tokio::test]
async fn the_minimum_of_plies_is_a_setting() {
    let app = app(|c| c.rated_min_plies = 4).await;
    let ann = sign_up_from(&app, "ann", HOME).await;
    let cat = sign_up_from(&app, "cat", ELSEWHERE).await;
    let g = played_game(&app, &ann, &cat, 3).await;
    assert_eq!(act(&app, &g.id, "resign", &g.white).await.0, StatusCode::OK);
    assert_eq!(view(&app, &g.id).await["unrated_reason"], "too_short");
    let g = played_game(&app, &ann, &cat, 4).await;
    assert_eq!(act(&app, &g.id, "resign", &g.white).await.0, StatusCode::OK);
    assert_eq!(view(&app, &g.id).await["rated"], true);
    assert_eq!(blitz_rating(&app, "ann").await.map(|r| r.2), Some(1));
}

/// `too_short` is the reason of a game that ended with a result (docs/api.md, "When a rated game
/// is played unrated"): a rated game aborted before both sides moved has no result, so it has
/// no `unrated_reason`; it changes no rating, so it is not `rated` either.
#[tokio::test]
async fn an_aborted_rated_game_has_no_unrated_reason() {
    let app = app(|_| {}).await;
    let ann = sign_up_from(&app, "ann", HOME).await;
    let cat = sign_up_from(&app, "cat", ELSEWHERE).await;
    // Black has moved, White not: White may abort.
    let g = played_game(&app, &ann, &cat, 1).await;
    assert_eq!(act(&app, &g.id, "abort", &g.white).await.0, StatusCode::OK);
    let v = view(&app, &g.id).await;
    assert_eq!(
        (v["status"].as_str(), v["outcome"]["result"].as_str()),
        (Some("aborted"), Some("*")),
        "{v}"
    );
    assert_eq!(
        (v["rated"].clone(), v["unrated_reason"].clone()),
        (false.into(), Value::Null),
        "{v}"
    );
    assert_eq!(blitz_rating(&app, "ann").await, None);
}

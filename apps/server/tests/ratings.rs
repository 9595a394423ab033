//! Ratings through the router (docs/api.md, "Ratings" and "Players"), on SQLite: a rated game's
//! end updates both players' Glicko-2 ratings exactly once (in the finishing save's
//! transaction), the game view, the lobby and the PDN show them, and the leaderboard, the user
//! page and the archive read them back. Expected ratings are computed here from Glickman's
//! formulas, not read from the server.

mod common;
use axum::http::StatusCode;
use common::accounts::{post, sign_up};
use common::ratings::{
    act, blitz, blitz_rating, call, game, get, get_text, new_players_game, unstarted_game,
};
use common::server;
use crown_server::App;
use serde_json::{json, Value};

/// Rank every rating on the leaderboard, provisional ones and those of a single game included
/// (the defaults show established ratings only): for `server().with(any_rating_ranks)`.
fn any_rating_ranks(c: &mut crown_server::Config) {
    c.leaderboard_min_games = 0;
    c.leaderboard_min_opponents = 0;
    c.leaderboard_max_deviation = 1000.0;
}

#[tokio::test]
async fn a_rated_resignation_rates_both_players_once() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let bob = sign_up(&app, "bob", "password-b").await;
    let g = game(&app, Some(&alice), Some(&bob), json!({"rated": true})).await;
    // While it is played: the pre-game ratings of two new players, provisional, no change yet.
    let (_, v) = get(&app, &format!("/api/games/{}", g.id), None).await;
    for c in ["black", "white"] {
        assert_eq!(v["accounts"][c]["rating"], 1500, "{v}");
        assert_eq!(v["accounts"][c]["provisional"], true, "{v}");
        assert_eq!(v["accounts"][c]["rating_diff"], Value::Null, "{v}");
    }
    let (s, v) = act(&app, &g.id, "resign", &g.white).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // Black (alice) won: from the formulas, about 1662.3 / RD 290.3, and bob 1337.7 / 290.3.
    let (win, rd) = new_players_game(1.0);
    let (loss, rd_l) = new_players_game(0.0);
    assert!(
        (win - 1662.3).abs() < 0.05 && (rd - 290.3).abs() < 0.05,
        "{win} {rd}"
    );
    let (_, v) = get(&app, &format!("/api/games/{}", g.id), None).await;
    let a = &v["accounts"];
    assert_eq!(a["black"]["rating"], 1500, "{v}");
    assert_eq!(a["black"]["rating_diff"], win.round() as i64 - 1500, "{v}");
    assert_eq!(a["white"]["rating_diff"], loss.round() as i64 - 1500, "{v}");
    assert_eq!(
        blitz_rating(&app, "alice").await,
        Some((win.round() as i64, rd.round() as i64, 1))
    );
    assert_eq!(
        blitz_rating(&app, "BOB").await,
        Some((loss.round() as i64, rd_l.round() as i64, 1))
    );
    // The PDN carries the pre-game ratings and the changes.
    let (s, pdn, _) = get_text(&app, &format!("/api/games/{}/pdn", g.id), None).await;
    assert_eq!(s, StatusCode::OK);
    let diff = win.round() as i64 - 1500;
    for tag in [
        "[WhiteElo \"1500\"]".to_string(),
        "[BlackElo \"1500\"]".to_string(),
        format!("[BlackRatingDiff \"+{diff}\"]"),
        format!("[WhiteRatingDiff \"-{diff}\"]"),
    ] {
        assert!(pdn.contains(&tag), "{tag} in {pdn}");
    }
    // Saving the finished game again (a rematch offer) or resigning again rates nothing more.
    let (s, v) = act(&app, &g.id, "rematch", &g.black).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let (s, _) = act(&app, &g.id, "resign", &g.black).await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert_eq!(blitz_rating(&app, "alice").await.unwrap().2, 1);
    // The user page: counts and the history.
    let (_, u) = get(&app, "/api/users/Alice", None).await;
    assert_eq!(u["user"]["name"], "alice", "{u}");
    assert_eq!(
        u["counts"],
        json!({"games": 1, "wins": 1, "draws": 0, "losses": 0})
    );
    assert_eq!(u["rated_counts"], u["counts"]);
    assert_eq!(u["history"][0]["game_id"], g.id.as_str(), "{u}");
    assert_eq!(u["history"][0]["rating"], win.round() as i64, "{u}");
    assert_eq!(u["history"][0]["rating_diff"], diff, "{u}");
    assert_eq!(u["history"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_rated_games_rematch_stays_rated_and_linked_to_both_accounts() {
    // Issue 41, defect 4: the rematch of a rated game was casual, its seats linked to nobody,
    // and it reached neither player's archive.
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let bob = sign_up(&app, "bob", "password-b").await;
    let g = game(&app, Some(&alice), Some(&bob), json!({"rated": true})).await;
    assert_eq!(act(&app, &g.id, "resign", &g.white).await.0, StatusCode::OK);
    // Alice (black) asks, bob accepts: neither sends a session cookie, the seat tokens suffice.
    let (s, mine) = act(&app, &g.id, "rematch", &g.black).await;
    assert_eq!(s, StatusCode::CREATED, "{mine}");
    assert_eq!(mine["color"], "white", "{mine}");
    let (s, theirs) = act(&app, &g.id, "rematch", &g.white).await;
    assert_eq!(s, StatusCode::OK, "{theirs}");
    let id = mine["id"].as_str().unwrap().to_string();
    assert_eq!(theirs["id"], id.as_str());
    let (_, v) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(v["rated"], true, "{v}");
    assert_eq!(v["accounts"]["white"]["name"], "alice", "{v}");
    assert_eq!(v["accounts"]["black"]["name"], "bob", "{v}");
    // The pre-game ratings are those after the first game.
    let (win, _) = new_players_game(1.0);
    let (loss, _) = new_players_game(0.0);
    assert_eq!(v["accounts"]["white"]["rating"], win.round() as i64, "{v}");
    assert_eq!(v["accounts"]["black"]["rating"], loss.round() as i64, "{v}");
    // Played and ended, it is rated and in both archives.
    let r = common::ratings::Game {
        id: id.clone(),
        black: theirs["token"].as_str().unwrap().to_string(),
        white: mine["token"].as_str().unwrap().to_string(),
    };
    common::ratings::play_plies(&app, &r, common::ratings::GAME_PLIES).await;
    assert_eq!(act(&app, &r.id, "resign", &r.white).await.0, StatusCode::OK);
    assert_eq!(blitz_rating(&app, "alice").await.unwrap().2, 2);
    assert_eq!(blitz_rating(&app, "bob").await.unwrap().2, 2);
    for name in ["alice", "bob"] {
        let (s, v) = get(&app, &format!("/api/users/{name}/games"), None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let ids: Vec<&str> = v["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap())
            .collect();
        assert!(
            ids.contains(&g.id.as_str()) && ids.contains(&id.as_str()),
            "{name}: {v}"
        );
    }
}

#[tokio::test]
async fn two_resignations_at_once_rate_the_game_once() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let bob = sign_up(&app, "bob", "password-b").await;
    let g = game(&app, Some(&alice), Some(&bob), json!({"rated": true})).await;
    let (a, b) = tokio::join!(
        act(&app, &g.id, "resign", &g.black),
        act(&app, &g.id, "resign", &g.white)
    );
    let ok = [a.0, b.0].iter().filter(|s| **s == StatusCode::OK).count();
    assert_eq!(ok, 1, "{a:?} {b:?}");
    assert_eq!(blitz_rating(&app, "alice").await.unwrap().2, 1);
    assert_eq!(blitz_rating(&app, "bob").await.unwrap().2, 1);
    let (win, _) = new_players_game(1.0);
    let winner = if a.0 == StatusCode::OK {
        "bob"
    } else {
        "alice"
    };
    assert_eq!(
        blitz_rating(&app, winner).await.unwrap().0,
        win.round() as i64
    );
}

#[tokio::test]
async fn an_agreed_draw_keeps_1500_and_narrows_the_deviation() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let bob = sign_up(&app, "bob", "password-b").await;
    let g = game(&app, Some(&alice), Some(&bob), json!({"rated": true})).await;
    assert_eq!(
        act(&app, &g.id, "draw/offer", &g.black).await.0,
        StatusCode::OK
    );
    let (s, v) = act(&app, &g.id, "draw/accept", &g.white).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (r, rd) = new_players_game(0.5);
    assert!((r - 1500.0).abs() < 1e-9);
    for name in ["alice", "bob"] {
        assert_eq!(
            blitz_rating(&app, name).await,
            Some((1500, rd.round() as i64, 1))
        );
    }
    let (_, v) = get(&app, &format!("/api/games/{}", g.id), None).await;
    assert_eq!(v["accounts"]["black"]["rating_diff"], 0, "{v}");
    let (_, u) = get(&app, "/api/users/bob", None).await;
    assert_eq!(
        u["rated_counts"],
        json!({"games": 1, "wins": 0, "draws": 1, "losses": 0})
    );
}

#[tokio::test]
async fn casual_and_aborted_games_change_no_rating() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let bob = sign_up(&app, "bob", "password-b").await;
    // A casual game between the two accounts: counted, never rated, no rating in the view.
    let g = game(&app, Some(&alice), Some(&bob), json!({})).await;
    let (_, v) = get(&app, &format!("/api/games/{}", g.id), None).await;
    assert_eq!(v["accounts"]["black"]["rating"], Value::Null, "{v}");
    assert_eq!(act(&app, &g.id, "resign", &g.white).await.0, StatusCode::OK);
    // A rated game aborted before the first moves.
    let r = unstarted_game(&app, Some(&alice), Some(&bob), json!({"rated": true})).await;
    let (s, v) = act(&app, &r.id, "abort", &r.black).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, v) = get(&app, &format!("/api/games/{}", r.id), None).await;
    assert_eq!(v["status"], "aborted", "{v}");
    assert_eq!(v["accounts"]["black"]["rating_diff"], Value::Null, "{v}");
    let (_, u) = get(&app, "/api/users/alice", None).await;
    assert_eq!(u["ratings"], json!([]), "{u}");
    assert_eq!(u["history"], json!([]), "{u}");
    assert_eq!(
        u["counts"],
        json!({"games": 1, "wins": 1, "draws": 0, "losses": 0})
    );
    assert_eq!(u["rated_counts"]["games"], 0);
    let (_, l) = get(&app, "/api/leaderboard?variant=american&speed=blitz", None).await;
    assert_eq!(l["players"], json!([]), "{l}");
}

#[tokio::test]
async fn a_rated_game_ended_before_both_sides_moved_is_not_rated() {
    // Resigning or agreeing a draw at once would let two accounts trade rating points without
    // playing: a rated game is rated only once each side has made its first move.
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let bob = sign_up(&app, "bob", "password-b").await;
    let r = unstarted_game(&app, Some(&alice), Some(&bob), json!({"rated": true})).await;
    let (s, v) = act(&app, &r.id, "resign", &r.white).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["outcome"]["result"], "1-0", "{v}");
    assert_eq!(v["accounts"]["black"]["rating_diff"], Value::Null, "{v}");
    let d = unstarted_game(&app, Some(&alice), Some(&bob), json!({"rated": true})).await;
    // Black moves, White has not: still not rated.
    let uri = format!("/api/games/{}/moves", d.id);
    let mut c = call(axum::http::Method::POST, &uri, None, Some(&d.black));
    c.body = Some(json!({"move": "11-15"}));
    assert_eq!(c.send(&app).await.0, StatusCode::OK);
    act(&app, &d.id, "draw/offer", &d.black).await;
    let (s, v) = act(&app, &d.id, "draw/accept", &d.white).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["outcome"]["result"], "1/2-1/2", "{v}");
    assert_eq!(v["accounts"]["white"]["rating_diff"], Value::Null, "{v}");
    for name in ["alice", "bob"] {
        let (_, u) = get(&app, &format!("/api/users/{name}"), None).await;
        assert_eq!(u["ratings"], json!([]), "{u}");
        assert_eq!(u["history"], json!([]), "{u}");
        // Both games are in the record, as unrated games.
        assert_eq!(u["counts"]["games"], 2, "{u}");
        assert_eq!(u["rated_counts"]["games"], 0, "{u}");
    }
}

#[tokio::test]
async fn the_leaderboard_shows_established_ratings_only() {
    // Two rated games (of any length) against two different accounts (no recorded network:
    // each its own), at most RD 350 (every rated player).
    let app = server()
        .with(|c| {
            c.leaderboard_min_games = 2;
            c.leaderboard_min_opponents = 2;
            c.leaderboard_min_plies = 0;
            c.leaderboard_max_deviation = 350.0;
        })
        .start()
        .await;
    let [alice, bob, carol, dave, erin] = [
        sign_up(&app, "alice", "password-a").await,
        sign_up(&app, "bob", "password-b").await,
        sign_up(&app, "carol", "password-c").await,
        sign_up(&app, "dave", "password-d").await,
        sign_up(&app, "erin", "password-e").await,
    ];
    // alice beats bob and carol; dave beats erin twice (two games, one opponent).
    for (winner, loser) in [
        (&alice, &bob),
        (&alice, &carol),
        (&dave, &erin),
        (&dave, &erin),
    ] {
        let g = game(&app, Some(winner), Some(loser), json!({"rated": true})).await;
        assert_eq!(act(&app, &g.id, "resign", &g.white).await.0, StatusCode::OK);
    }
    let (_, l) = get(&app, "/api/leaderboard?variant=american&speed=blitz", None).await;
    let names: Vec<&str> = l["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["alice"], "{l}");
    // By default a provisional rating (RD above 110) is not ranked, whatever its games.
    let app = server()
        .with(|c| {
            c.leaderboard_min_games = 0;
            c.leaderboard_min_opponents = 0;
        })
        .start()
        .await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let bob = sign_up(&app, "bob", "password-b").await;
    let g = game(&app, Some(&alice), Some(&bob), json!({"rated": true})).await;
    assert_eq!(act(&app, &g.id, "resign", &g.white).await.0, StatusCode::OK);
    assert!(blitz_rating(&app, "alice").await.unwrap().1 > 110);
    let (_, l) = get(&app, "/api/leaderboard?variant=american&speed=blitz", None).await;
    assert_eq!(l["players"], json!([]), "{l}");
}

#[tokio::test]
async fn the_leaderboard_ranks_by_rating_and_the_lobby_shows_it() {
    let app = server().with(any_rating_ranks).start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let bob = sign_up(&app, "bob", "password-b").await;
    let carol = sign_up(&app, "carol", "password-c").await;
    // alice beats bob; carol and bob draw: alice > carol (1500) > bob.
    let g = game(&app, Some(&alice), Some(&bob), json!({"rated": true})).await;
    act(&app, &g.id, "resign", &g.white).await;
    let g = game(&app, Some(&carol), Some(&bob), json!({"rated": true})).await;
    act(&app, &g.id, "draw/offer", &g.black).await;
    act(&app, &g.id, "draw/accept", &g.white).await;
    let (s, l) = get(&app, "/api/leaderboard?variant=american&speed=blitz", None).await;
    assert_eq!(s, StatusCode::OK, "{l}");
    let names: Vec<&str> = l["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["alice", "carol", "bob"], "{l}");
    assert_eq!(l["players"][0]["rank"], 1);
    assert_eq!(l["players"][2]["games"], 2);
    assert_eq!(l["players"][0]["provisional"], true);
    assert_eq!(
        (l["variant"].as_str(), l["speed"].as_str()),
        (Some("american"), Some("blitz"))
    );
    let (_, l) = get(
        &app,
        "/api/leaderboard?variant=american&speed=blitz&limit=1",
        None,
    )
    .await;
    assert_eq!(l["players"].as_array().unwrap().len(), 1);
    let (_, l) = get(&app, "/api/leaderboard?variant=pool&speed=blitz", None).await;
    assert_eq!(l["players"], json!([]));
    // The lobby shows a seek's creator's rating for its variant and speed.
    let (win, _) = new_players_game(1.0);
    let mut c = post(
        "/api/games",
        json!({"variant": "american", "rated": true, "time_control": blitz(), "public": true}),
    );
    c.session = Some(&alice);
    assert_eq!(c.send(&app).await.0, StatusCode::CREATED);
    let (_, lobby) = get(&app, "/api/lobby", None).await;
    assert_eq!(lobby["seeks"][0]["rating"], win.round() as i64, "{lobby}");
    assert_eq!(lobby["seeks"][0]["provisional"], true, "{lobby}");
    // A new player's seek in another speed: 1500.
    let mut c = post(
        "/api/games",
        json!({"variant": "pool", "time_control": {"initial_ms": 600_000, "increment_ms": 0},
               "public": true}),
    );
    c.session = Some(&carol);
    assert_eq!(c.send(&app).await.0, StatusCode::CREATED);
    let (_, lobby) = get(&app, "/api/lobby", None).await;
    assert_eq!(lobby["seeks"][0]["rating"], 1500, "{lobby}");
}

#[tokio::test]
async fn bad_query_parameters_get_their_codes() {
    let app = server().start().await;
    sign_up(&app, "alice", "password-a").await;
    let cases = [
        ("/api/leaderboard?variant=chess&speed=blitz", "bad_variant"),
        ("/api/leaderboard?speed=blitz", "bad_variant"),
        ("/api/leaderboard?variant=pool&speed=slow", "bad_speed"),
        (
            "/api/leaderboard?variant=pool&speed=blitz&limit=0",
            "bad_limit",
        ),
        (
            "/api/leaderboard?variant=pool&speed=blitz&limit=101",
            "bad_limit",
        ),
        (
            "/api/leaderboard?variant=pool&speed=blitz&limit=x",
            "bad_limit",
        ),
        ("/api/users/alice/games?variant=chess", "bad_variant"),
        ("/api/users/alice/games?speed=slow", "bad_speed"),
        ("/api/users/alice/games?rated=yes", "bad_rated"),
        ("/api/users/alice/games?result=won", "bad_result"),
        ("/api/users/alice/games?limit=101", "bad_limit"),
        ("/api/users/alice/games?before_ms=soon", "bad_before_ms"),
        ("/api/users/alice/games.pdn?limit=501", "bad_limit"),
    ];
    for (uri, code) in cases {
        let (s, v) = get(&app, uri, None).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{uri}: {v}");
        assert_eq!(v["error"]["code"], code, "{uri}: {v}");
    }
    for uri in ["/api/users/nobody", "/api/users/nobody/games"] {
        let (s, v) = get(&app, uri, None).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{uri}: {v}");
        assert_eq!(v["error"]["code"], "not_found", "{uri}: {v}");
    }
}

/// The ids of `name`'s archive pages with `query` (and `limit=1`), followed to the end.
async fn all_pages(app: &App, name: &str, query: &str, session: Option<&str>) -> Vec<String> {
    let mut ids = Vec::new();
    let mut before = String::new();
    for _ in 0..20 {
        let uri = format!("/api/users/{name}/games?limit=1{query}{before}");
        let (s, v) = get(app, &uri, session).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        for g in v["games"].as_array().unwrap() {
            ids.push(g["id"].as_str().unwrap().to_string());
        }
        match v["next_before_ms"].as_u64() {
            Some(b) => before = format!("&before_ms={b}"),
            None => return ids,
        }
    }
    panic!("the pages did not end: {ids:?}");
}

#[tokio::test]
async fn the_archive_filters_pages_and_keeps_private_games_private() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let bob = sign_up(&app, "bob", "password-b").await;
    // Rated, alice wins.
    let rated = game(&app, Some(&alice), Some(&bob), json!({"rated": true})).await;
    act(&app, &rated.id, "resign", &rated.white).await;
    // Casual and private (link-only), drawn.
    let private = game(&app, Some(&alice), Some(&bob), json!({})).await;
    act(&app, &private.id, "draw/offer", &private.black).await;
    act(&app, &private.id, "draw/accept", &private.white).await;
    // Casual and public against a guest named Gus, untimed, alice (white) loses.
    let public = game(
        &app,
        None,
        Some(&alice),
        json!({"public": true, "time_control": null, "name": "Gus"}),
    )
    .await;
    act(&app, &public.id, "resign", &public.white).await;
    // Aborted: not listed.
    let aborted = unstarted_game(&app, Some(&alice), Some(&bob), json!({"rated": true})).await;
    act(&app, &aborted.id, "abort", &aborted.black).await;

    let (s, v) = get(&app, "/api/users/alice/games", None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let ids: Vec<&str> = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 2, "{v}");
    assert!(
        ids.contains(&rated.id.as_str()) && ids.contains(&public.id.as_str()),
        "{v}"
    );
    assert_eq!(v["next_before_ms"], Value::Null);
    let first = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == public.id.as_str())
        .unwrap();
    assert_eq!(first["opponent"], json!({"name": "Gus", "account": false}));
    assert_eq!(first["color"], "white");
    assert_eq!(first["outcome"], "loss");
    assert_eq!(first["result"], "1-0");
    assert_eq!(first["speed"], Value::Null);
    assert_eq!(first["rated"], false);
    assert_eq!(first["rating_diff"], Value::Null);
    assert!(
        first["reason"].as_str().unwrap().contains("resign"),
        "{first}"
    );
    // Bob's cookie is not alice's: her private game stays hidden.
    let (_, v) = get(&app, "/api/users/alice/games", Some(&bob)).await;
    assert_eq!(v["games"].as_array().unwrap().len(), 2, "{v}");
    // Her own cookie shows it.
    let (_, v) = get(&app, "/api/users/alice/games?result=draw", Some(&alice)).await;
    assert_eq!(v["games"][0]["id"], private.id.as_str(), "{v}");
    assert_eq!(
        v["games"][0]["opponent"],
        json!({"name": "bob", "account": true})
    );
    assert_eq!(v["games"].as_array().unwrap().len(), 1);
    let (_, v) = get(&app, "/api/users/alice/games?rated=true", None).await;
    let g = &v["games"][0];
    assert_eq!(
        (g["id"].as_str(), g["speed"].as_str()),
        (Some(rated.id.as_str()), Some("blitz"))
    );
    assert_eq!(g["outcome"], "win");
    assert!(g["rating_diff"].as_i64().unwrap() > 0, "{v}");
    assert_eq!(v["games"].as_array().unwrap().len(), 1);
    let (_, v) = get(
        &app,
        "/api/users/alice/games?rated=false&variant=pool",
        Some(&alice),
    )
    .await;
    assert_eq!(v["games"], json!([]));
    // Pages of one game each, followed to the end, list each game once.
    let mut paged = all_pages(&app, "alice", "", Some(&alice)).await;
    paged.sort();
    let mut want = vec![rated.id.clone(), private.id.clone(), public.id.clone()];
    want.sort();
    assert_eq!(paged, want);
    // The PDN download: the same games, each as the single-game export writes it.
    let (s, pdn, cd) = get_text(&app, "/api/users/ALICE/games.pdn", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(cd, "attachment; filename=\"crown-alice-games.pdn\"");
    assert!(pdn.contains(&format!("game {}\"]", rated.id)), "{pdn}");
    assert!(pdn.contains(&format!("game {}\"]", public.id)), "{pdn}");
    assert!(!pdn.contains(&format!("game {}\"]", private.id)), "{pdn}");
    let (_, one, _) = get_text(&app, &format!("/api/games/{}/pdn", rated.id), None).await;
    assert!(pdn.contains(one.trim_end()), "{pdn}\n---\n{one}");
    let (_, pdn, _) = get_text(&app, "/api/users/alice/games.pdn?result=draw", Some(&alice)).await;
    assert!(pdn.contains(&format!("game {}\"]", private.id)), "{pdn}");
}

#[tokio::test]
async fn ratings_survive_a_restart_and_are_not_applied_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crown.db");
    let open = || {
        std::sync::Arc::new(
            crown_server::store::SqliteStore::open(&path, crown_server::store::Durability::Full)
                .unwrap(),
        )
    };
    let app = server().store(open()).start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let bob = sign_up(&app, "bob", "password-b").await;
    let g = game(&app, Some(&alice), Some(&bob), json!({"rated": true})).await;
    act(&app, &g.id, "resign", &g.black).await;
    app.shutdown();
    drop(app);
    let app = server().store(open()).start().await;
    let (win, _) = new_players_game(1.0);
    assert_eq!(
        blitz_rating(&app, "bob").await.unwrap().0,
        win.round() as i64
    );
    assert_eq!(blitz_rating(&app, "bob").await.unwrap().2, 1);
    let (_, v) = get(&app, &format!("/api/games/{}", g.id), None).await;
    assert_eq!(
        v["accounts"]["white"]["rating_diff"],
        win.round() as i64 - 1500,
        "{v}"
    );
    // A change to the finished game after the restart rates nothing again.
    assert_eq!(
        act(&app, &g.id, "rematch", &g.white).await.0,
        StatusCode::CREATED
    );
    assert_eq!(blitz_rating(&app, "bob").await.unwrap().2, 1);
}

#[tokio::test]
async fn a_failed_rating_write_leaves_the_game_unfinished() {
    // The end of a rated game and its ratings are one transaction: when the ratings cannot be
    // written, the end is not either (as after a kill -9 before the commit), and the next
    // attempt rates the game once.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crown.db");
    let store = std::sync::Arc::new(
        crown_server::store::SqliteStore::open(&path, crown_server::store::Durability::Full)
            .unwrap(),
    );
    let app = server().store(store).start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let bob = sign_up(&app, "bob", "password-b").await;
    let g = game(&app, Some(&alice), Some(&bob), json!({"rated": true})).await;
    let other = rusqlite::Connection::open(&path).unwrap();
    other
        .execute_batch(
            "CREATE TRIGGER refuse BEFORE INSERT ON player_games
             BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;",
        )
        .unwrap();
    let (s, v) = act(&app, &g.id, "resign", &g.white).await;
    assert_eq!(s, StatusCode::INTERNAL_SERVER_ERROR, "{v}");
    let status: String = other
        .query_row("SELECT status FROM games WHERE id = ?1", [&g.id], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(status, "ongoing");
    let n: i64 = other
        .query_row("SELECT COUNT(*) FROM ratings", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 0);
    other.execute_batch("DROP TRIGGER refuse").unwrap();
    let (s, v) = act(&app, &g.id, "resign", &g.white).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(blitz_rating(&app, "alice").await.unwrap().2, 1);
    assert_eq!(blitz_rating(&app, "bob").await.unwrap().2, 1);
}

#[tokio::test]
async fn every_limit_parameter_refuses_a_bad_value_with_bad_limit() {
    // One code for a bad `limit` everywhere (docs/api.md, "Limits"): a negative, non-numeric,
    // zero or too large value.
    let app = server().start().await;
    sign_up(&app, "alice", "password-a").await;
    for endpoint in [
        "/api/games?",
        "/api/leaderboard?variant=pool&speed=blitz&",
        "/api/users/alice/games?",
        "/api/users/alice/games.pdn?",
    ] {
        for limit in ["-1", "abc", "0", "100000"] {
            let uri = format!("{endpoint}limit={limit}");
            let (s, v) = get(&app, &uri, None).await;
            assert_eq!(s, StatusCode::BAD_REQUEST, "{uri}: {v}");
            assert_eq!(v["error"]["code"], "bad_limit", "{uri}: {v}");
        }
    }
}

#[tokio::test]
async fn a_long_unknown_name_is_not_echoed_whole() {
    let app = server().start().await;
    let long = "n".repeat(5000);
    for uri in [
        format!("/api/users/{long}"),
        format!("/api/users/{long}/games"),
        format!("/api/games/{long}"),
        format!("/api/leaderboard?variant={long}&speed=blitz"),
    ] {
        let (s, v) = get(&app, &uri, None).await;
        assert!(s.is_client_error(), "{s}");
        let message = v["error"]["message"].as_str().unwrap();
        // The message still names the value (its start and its length), in a few dozen
        // characters.
        assert!(message.len() < 200, "{} characters", message.len());
        assert!(message.contains("'nnnnnnnnnn"), "{message}");
        assert!(message.contains("5000 characters"), "{message}");
    }
    let (s, v) = get(&app, "/api/users/nobody", None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(v["error"]["message"], "no user named 'nobody'");
}

#[tokio::test]
async fn an_export_of_no_games_is_no_games_not_an_empty_file() {
    // An empty file is not PDN (`crown pdn check`: "no PDN game in the file").
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let bob = sign_up(&app, "bob", "password-b").await;
    for uri in [
        "/api/users/alice/games.pdn",
        "/api/users/alice/games.pdn?variant=pool",
    ] {
        let (s, v) = get(&app, uri, None).await;
        assert_eq!(
            (s, &v["error"]["code"]),
            (StatusCode::NOT_FOUND, &json!("no_games")),
            "{uri}: {v}"
        );
    }
    let g = game(&app, Some(&alice), Some(&bob), json!({"rated": true})).await;
    act(&app, &g.id, "resign", &g.white).await;
    let (s, pdn, _) = get_text(&app, "/api/users/alice/games.pdn", None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(pdn.contains(&format!("game {}\"]", g.id)), "{pdn}");
    let (s, v) = get(&app, "/api/users/alice/games.pdn?variant=pool", None).await;
    assert_eq!(
        (s, &v["error"]["code"]),
        (StatusCode::NOT_FOUND, &json!("no_games")),
        "{v}"
    );
    // An unknown player is still not_found.
    let (s, v) = get(&app, "/api/users/nobody/games.pdn", None).await;
    assert_eq!(
        (s, &v["error"]["code"]),
        (StatusCode::NOT_FOUND, &json!("not_found")),
        "{v}"
    );
}

#[tokio::test]
async fn a_rated_game_ended_before_both_sides_moved_is_unrated_in_every_view() {
    // The archive records it unrated (RATED_MIN_PLIES); the game's view and the game list agree.
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let bob = sign_up(&app, "bob", "password-b").await;
    let public = unstarted_game(
        &app,
        Some(&alice),
        Some(&bob),
        json!({"rated": true, "public": true}),
    )
    .await;
    let private = unstarted_game(&app, Some(&alice), Some(&bob), json!({"rated": true})).await;
    let played = game(&app, Some(&alice), Some(&bob), json!({"rated": true})).await;
    // While they go on, all three are rated.
    let (_, list) = get(&app, "/api/games", None).await;
    let rated_in_list = |list: &Value, id: &str| {
        list["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .map(|g| g["rated"].clone())
    };
    for g in [&public, &private, &played] {
        assert_eq!(rated_in_list(&list, &g.id), Some(json!(true)), "{list}");
    }
    assert_eq!(
        act(&app, &public.id, "abort", &public.black).await.0,
        StatusCode::OK
    );
    assert_eq!(
        act(&app, &private.id, "resign", &private.white).await.0,
        StatusCode::OK
    );
    assert_eq!(
        act(&app, &played.id, "resign", &played.white).await.0,
        StatusCode::OK
    );
    let (_, list) = get(&app, "/api/games", None).await;
    assert_eq!(
        rated_in_list(&list, &public.id),
        Some(json!(false)),
        "{list}"
    );
    // Unrated and not public: listed to nobody, as the archive lists it only to its players.
    assert_eq!(rated_in_list(&list, &private.id), None, "{list}");
    assert_eq!(
        rated_in_list(&list, &played.id),
        Some(json!(true)),
        "{list}"
    );
    for (g, rated) in [(&public, false), (&private, false), (&played, true)] {
        let (_, v) = get(&app, &format!("/api/games/{}", g.id), None).await;
        assert_eq!(v["rated"], rated, "{v}");
    }
    let (_, archive) = get(&app, "/api/users/alice/games", Some(&alice)).await;
    for (g, rated) in [(&private, false), (&played, true)] {
        let row = archive["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == g.id.as_str())
            .unwrap_or_else(|| panic!("{} not in {archive}", g.id));
        assert_eq!(row["rated"], rated, "{row}");
    }
}

/// The SQLite query plan of `sql` (every parameter NULL), one line per step.
fn sqlite_plan(path: &std::path::Path, sql: &str) -> String {
    let c = rusqlite::Connection::open(path).unwrap();
    let mut stmt = c.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
    let unbound = std::iter::repeat_n(rusqlite::types::Null, stmt.parameter_count());
    stmt.query_map(rusqlite::params_from_iter(unbound), |r| {
        r.get::<_, String>(3)
    })
    .unwrap()
    .collect::<Result<Vec<_>, _>>()
    .unwrap()
    .join("\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_farmed_archive_of_ten_thousand_games_is_read_by_index_and_by_bounded_pages() {
    // Issue 41 (M3): the page of an account with a farmed archive read every game of it, the
    // filtered archive scanned the whole archive for a page, the leaderboard every game of
    // every candidate.
    use crown_server::store::ratings::{
        archive_sql, counts_sql, history_sql, leaderboard_sql, scan_edge_sql, GameFilter,
    };
    use crown_server::store::{Durability, SqliteStore};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crown.db");
    let store = std::sync::Arc::new(SqliteStore::open(&path, Durability::Normal).unwrap());
    let app = server().store(store.clone()).start().await;
    sign_up(&app, "farmed", "password-f").await;
    sign_up(&app, "feeder", "password-g").await;
    let id = |name: &'static str| {
        let app = app.clone();
        async move {
            let (_, v) = get(&app, &format!("/api/users/{name}"), None).await;
            v["user"]["id"].as_str().unwrap().to_string()
        }
    };
    let (f, g) = (id("farmed").await, id("feeder").await);
    common::ratings::farmed_archive(store, (&f, "farmed"), (&g, "feeder")).await;
    common::ratings::check_bounded_reads(&app, "farmed").await;
    // Each read searches an index (`SEARCH ... (user_id=? ...`); none scans a table of games.
    let every_filter = GameFilter {
        variant: Some("american".into()),
        speed: Some("blitz".into()),
        rated: Some(true),
        outcome: Some("loss".into()),
        before_ms: Some(1),
        since_ms: Some(0),
        include_private: false,
        limit: 1,
    };
    let (archive, _) = archive_sql("game_id", "u", &every_filter, |n| format!("?{n}"));
    let plans = [
        // The window of the page bounds the range of `ended_ms` whichever index it takes.
        (archive, "AND ended_ms>? AND ended_ms<?)"),
        (
            scan_edge_sql("?1", "?2", "?3"),
            "SEARCH player_games USING COVERING INDEX player_games_user (user_id=? AND ended_ms<?)",
        ),
        (
            history_sql("game_id, ended_ms", "?1", "?2"),
            "SEARCH player_games USING COVERING INDEX player_games_rated (user_id=? AND rated=?)",
        ),
        (
            counts_sql("?1"),
            "SEARCH player_counts USING PRIMARY KEY (user_id=?)",
        ),
        (
            leaderboard_sql(["?1", "?2", "?3", "?4", "?5", "?6", "?7", "?8"]),
            "SEARCH ratings USING INDEX ratings_board (variant=? AND speed=?)",
        ),
    ];
    for (sql, index) in plans {
        let plan = sqlite_plan(&path, &sql);
        assert!(plan.contains(index), "{plan}");
        assert!(plan.contains("SEARCH"), "{plan}");
        assert!(!plan.contains("SCAN player_games"), "{plan}");
        assert!(!plan.contains("SCAN games"), "{plan}");
        assert!(!plan.contains("SCAN ratings"), "{plan}");
    }
    let board = sqlite_plan(
        &path,
        &leaderboard_sql(["?1", "?2", "?3", "?4", "?5", "?6", "?7", "?8"]),
    );
    assert!(
        board.contains("player_games_board (user_id=? AND variant=? AND speed=? AND rated=?"),
        "{board}"
    );
}

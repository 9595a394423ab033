//! Tournaments through the router on SQLite (docs/api.md, "Tournaments"): a Swiss played to the
//! end through the API with standings equal to values computed by hand from the scoring rules,
//! the errors of bad requests, and a running tournament that goes on pairing after a restart.

mod common;
use axum::http::{Method, StatusCode};
use common::accounts::{post, sign_up, Call};
use common::server;
use crown_server::App;
use serde_json::{json, Value};
use std::collections::HashMap;

/// A blitz clock: 3 min + 2 s.
fn blitz() -> Value {
    json!({"initial_ms": 180_000, "increment_ms": 2_000})
}

/// `method uri` with `session` and an optional JSON body.
async fn call(
    app: &App,
    method: Method,
    uri: &str,
    session: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut c: Call<'_> = post(uri, Value::Null);
    c.method = method;
    c.session = session;
    c.body = body;
    let (s, _, v) = c.send(app).await;
    (s, v)
}

/// `GET uri`.
async fn get(app: &App, uri: &str) -> (StatusCode, Value) {
    call(app, Method::GET, uri, None, None).await
}

/// The text answer of `GET uri` (asserting `200`).
async fn text(app: &App, uri: &str) -> String {
    use tower::ServiceExt;
    let req = axum::http::Request::get(uri)
        .header("host", "crown.test")
        .body(axum::body::Body::empty())
        .unwrap();
    let resp = app.router().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 22)
        .await
        .unwrap();
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// `POST uri` with a seat token and no body.
async fn seat_post(app: &App, uri: &str, token: &str) -> (StatusCode, Value) {
    let mut c: Call<'_> = post(uri, Value::Null);
    c.body = None;
    c.headers.push(("authorization", format!("Bearer {token}")));
    let (s, _, v) = c.send(app).await;
    (s, v)
}

/// Create a Swiss of `rounds` rounds by `creator`; its id.
async fn create_swiss(app: &App, creator: &str, rounds: u32) -> String {
    let body = json!({"name": "Club Swiss", "variant": "american", "format": "swiss",
                      "rounds": rounds, "time_control": blitz(), "rated": true});
    let (s, v) = call(
        app,
        Method::POST,
        "/api/tournaments",
        Some(creator),
        Some(body),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    v["id"].as_str().unwrap().to_string()
}

/// Wait (bounded) until `GET /api/tournaments/{id}` satisfies `done`; the tournament.
async fn wait_for(app: &App, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let (s, v) = get(app, &format!("/api/tournaments/{id}")).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        if done(&v) {
            return v;
        }
        assert!(std::time::Instant::now() < deadline, "never {what}: {v}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// How a game between two players ends, by their names (the order of strength): `Some(winner)`
/// or `None` for a draw. A beats everyone; B and C draw both games; B beats D; C wins game 1 of
/// its match with D and draws game 2.
fn outcome(a: &str, b: &str, game: u64) -> Option<String> {
    let mut pair = [a, b];
    pair.sort_unstable();
    match pair {
        ["alice", x] | [x, "alice"] if x != "alice" => Some("alice".into()),
        ["bob", "carol"] => None,
        ["bob", "dave"] => Some("bob".into()),
        ["carol", "dave"] if game == 1 => Some("carol".into()),
        ["carol", "dave"] => None,
        p => panic!("unexpected pair {p:?}"),
    }
}

/// Play every game of the last round of tournament `t` (as returned by the API) by taking the
/// players' seats with their sessions: the loser resigns, or one offers a draw and the other
/// accepts.
async fn play_round(app: &App, id: &str, t: &Value, sessions: &HashMap<String, String>) {
    let round = t["pairings"].as_array().unwrap().last().unwrap();
    for p in round["pairings"].as_array().unwrap() {
        if p.get("bye").is_some() {
            continue;
        }
        let (first, second) = (
            p["first_name"].as_str().unwrap(),
            p["second_name"].as_str().unwrap(),
        );
        for g in p["games"].as_array().unwrap() {
            let gid = g["id"].as_str().unwrap();
            let game_no = g["game"].as_u64().unwrap();
            let mut tokens = HashMap::new();
            for who in [first, second] {
                let uri = format!("/api/tournaments/{id}/games/{gid}/seat");
                let (s, v) = call(app, Method::POST, &uri, Some(&sessions[who]), None).await;
                assert_eq!(s, StatusCode::OK, "{v}");
                tokens.insert(who, v["token"].as_str().unwrap().to_string());
            }
            // The player moving first in game 1 is `first`, in game 2 `second`: black moves first
            // in American checkers (APCA rule 7).
            let (s, v) = get(app, &format!("/api/games/{gid}")).await;
            assert_eq!(s, StatusCode::OK, "{v}");
            let mover = if game_no == 1 { first } else { second };
            assert_eq!(v["accounts"]["black"]["name"], mover, "{v}");
            assert_eq!(v["rated"], true, "{v}");
            match outcome(first, second, game_no) {
                Some(w) => {
                    let loser = if w == first { second } else { first };
                    let (s, v) =
                        seat_post(app, &format!("/api/games/{gid}/resign"), &tokens[loser]).await;
                    assert_eq!(s, StatusCode::OK, "{v}");
                }
                None => {
                    let (s, v) =
                        seat_post(app, &format!("/api/games/{gid}/draw/offer"), &tokens[first])
                            .await;
                    assert_eq!(s, StatusCode::OK, "{v}");
                    let (s, v) = seat_post(
                        app,
                        &format!("/api/games/{gid}/draw/accept"),
                        &tokens[second],
                    )
                    .await;
                    assert_eq!(s, StatusCode::OK, "{v}");
                }
            }
        }
    }
}

/// Sign up the four players; their sessions by name.
async fn players(app: &App) -> HashMap<String, String> {
    let mut sessions = HashMap::new();
    for name in ["alice", "bob", "carol", "dave"] {
        sessions.insert(
            name.to_string(),
            sign_up(app, name, &format!("{name}-password")).await,
        );
    }
    sessions
}

/// Everyone joins `id`, alice first.
async fn join_all(app: &App, id: &str, sessions: &HashMap<String, String>) {
    for name in ["alice", "bob", "carol", "dave"] {
        let uri = format!("/api/tournaments/{id}/join");
        let (s, v) = call(app, Method::POST, &uri, Some(&sessions[name]), None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
}

/// The standings as `(name, match points, game points, Buchholz, Sonneborn–Berger)`, rank order.
fn standings(t: &Value) -> Vec<(String, u64, u64, u64, u64)> {
    t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["name"].as_str().unwrap().to_string(),
                l["match_points"].as_u64().unwrap(),
                l["game_points"].as_u64().unwrap(),
                l["buchholz"].as_u64().unwrap(),
                l["sonneborn_berger"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The final standings of [`outcome`], computed by hand from crown_tournament's scoring (a game
/// 2/1/0, a match 2/1/0; Buchholz the opponents' final match points; Sonneborn–Berger the match
/// points earned times the opponent's). Three rounds of four players meet everyone once:
/// alice 3 matches won 4-0: MP 6, GP 12, BH 3+3+0 = 6, SB 2*3+2*3+2*0 = 12;
/// bob lost to alice, tied carol 2-2, beat dave 4-0: MP 3, GP 6, BH 6+3+0 = 9, SB 1*3 = 3;
/// carol lost to alice, tied bob 2-2, beat dave 3-1: MP 3, GP 5, BH 6+3+0 = 9, SB 1*3 = 3;
/// dave lost all: MP 0, GP 1, BH 6+3+3 = 12, SB 0.
fn expected() -> Vec<(String, u64, u64, u64, u64)> {
    vec![
        ("alice".into(), 6, 12, 6, 12),
        ("bob".into(), 3, 6, 9, 3),
        ("carol".into(), 3, 5, 9, 3),
        ("dave".into(), 0, 1, 12, 0),
    ]
}

/// The number of rounds paired.
fn rounds_paired(t: &Value) -> usize {
    t["pairings"].as_array().map_or(0, Vec::len)
}

/// Whether every game of the last round has a result.
fn round_done(t: &Value) -> bool {
    t["pairings"]
        .as_array()
        .and_then(|r| r.last())
        .is_some_and(|r| {
            r["pairings"].as_array().unwrap().iter().all(|p| {
                p.get("bye").is_some()
                    || p["games"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .all(|g| !g["result"].is_null())
            })
        })
}

#[tokio::test]
async fn a_four_player_swiss_of_three_rounds_plays_to_the_end_with_hand_computed_standings() {
    let app = server().start().await;
    let sessions = players(&app).await;
    let id = create_swiss(&app, &sessions["alice"], 3).await;
    join_all(&app, &id, &sessions).await;
    let (s, v) = get(&app, "/api/tournaments").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["upcoming"][0]["id"], id.as_str(), "{v}");
    assert_eq!(v["upcoming"][0]["players"], 4, "{v}");
    let uri = format!("/api/tournaments/{id}/start");
    let (s, t) = call(&app, Method::POST, &uri, Some(&sessions["alice"]), None).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    assert_eq!(t["phase"], "running", "{t}");
    assert_eq!(rounds_paired(&t), 1, "{t}");
    let mut t = t;
    for round in 1..=3 {
        play_round(&app, &id, &t, &sessions).await;
        t = wait_for(&app, &id, "the next round", |t| {
            rounds_paired(t) > round || t["phase"] == "finished"
        })
        .await;
    }
    let t = wait_for(&app, &id, "finished", |t| t["phase"] == "finished").await;
    assert!(round_done(&t), "{t}");
    assert_eq!(rounds_paired(&t), 3, "{t}");
    assert_eq!(standings(&t), expected(), "{t}");
    // Nobody met anyone twice: three rounds of four players are the six pairs once each.
    let mut met = std::collections::HashSet::new();
    for r in t["pairings"].as_array().unwrap() {
        for p in r["pairings"].as_array().unwrap() {
            let mut pair = [p["first"].as_u64().unwrap(), p["second"].as_u64().unwrap()];
            pair.sort_unstable();
            assert!(met.insert(pair), "{pair:?} met twice: {t}");
        }
    }
    assert_eq!(met.len(), 6);
    let (s, v) = get(&app, "/api/tournaments").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["finished"][0]["id"], id.as_str(), "{v}");
    // One PDN: twelve games with Round tags 1.1 to 3.2.
    let pdn = text(&app, &format!("/api/tournaments/{id}/pdn")).await;
    assert_eq!(pdn.matches("[Event \"Club Swiss\"]").count(), 12, "{pdn}");
    for tag in ["1.1", "1.2", "2.1", "2.2", "3.1", "3.2"] {
        assert!(pdn.contains(&format!("[Round \"{tag}\"]")), "{tag}: {pdn}");
    }
}

/// `POST /api/tournaments` with `body` by `session`: status and error code.
async fn create_error(app: &App, session: Option<&str>, body: Value) -> (StatusCode, String) {
    let (s, v) = call(app, Method::POST, "/api/tournaments", session, Some(body)).await;
    (s, v["error"]["code"].as_str().unwrap_or("").to_string())
}

#[tokio::test]
async fn bad_tournament_requests_get_clear_errors() {
    let app = server().start().await;
    let sessions = players(&app).await;
    let alice = Some(sessions["alice"].as_str());
    let swiss = |rounds: Value| {
        json!({"name": "Club", "variant": "american", "format": "swiss", "rounds": rounds,
               "time_control": blitz()})
    };
    assert_eq!(
        create_error(&app, None, swiss(json!(3))).await,
        (StatusCode::UNAUTHORIZED, "not_logged_in".into())
    );
    let mut unknown = swiss(json!(3));
    unknown["format"] = json!("knockout");
    assert_eq!(
        create_error(&app, alice, unknown).await,
        (StatusCode::BAD_REQUEST, "bad_format".into())
    );
    let mut arena = swiss(Value::Null);
    arena["format"] = json!("arena");
    arena["duration_ms"] = json!(600_000);
    assert_eq!(
        create_error(&app, alice, arena).await,
        (StatusCode::NOT_IMPLEMENTED, "arena_unavailable".into())
    );
    for rounds in [json!(0), json!(16), Value::Null] {
        assert_eq!(
            create_error(&app, alice, swiss(rounds.clone())).await,
            (StatusCode::BAD_REQUEST, "bad_rounds".into()),
            "rounds {rounds}"
        );
    }
    let mut untimed = swiss(json!(2));
    untimed.as_object_mut().unwrap().remove("time_control");
    assert_eq!(
        create_error(&app, alice, untimed).await,
        (StatusCode::BAD_REQUEST, "bad_time_control".into())
    );
    let mut impasse_ballots = swiss(json!(2));
    impasse_ballots["variant"] = json!("impasse");
    impasse_ballots["openings"] = json!("acf");
    assert_eq!(
        create_error(&app, alice, impasse_ballots).await,
        (StatusCode::BAD_REQUEST, "bad_openings".into())
    );
    let mut unnamed = swiss(json!(2));
    unnamed["name"] = json!("  ");
    assert_eq!(
        create_error(&app, alice, unnamed).await,
        (StatusCode::BAD_REQUEST, "bad_settings".into())
    );

    // A password: refused when wrong or missing, accepted when right.
    let mut locked = swiss(json!(1));
    locked["password"] = json!("open sesame");
    let (s, v) = call(&app, Method::POST, "/api/tournaments", alice, Some(locked)).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let join = format!("/api/tournaments/{id}/join");
    let bob = Some(sessions["bob"].as_str());
    for body in [None, Some(json!({"password": "open barley"}))] {
        let (s, v) = call(&app, Method::POST, &join, bob, body).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
        assert_eq!(v["error"]["code"], "wrong_password", "{v}");
    }
    let (s, v) = call(
        &app,
        Method::POST,
        &join,
        bob,
        Some(json!({"password": "open sesame"})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = call(
        &app,
        Method::POST,
        &join,
        bob,
        Some(json!({"password": "open sesame"})),
    )
    .await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("already_joined"))
    );

    // Starting: only the creator, and not alone.
    let start = format!("/api/tournaments/{id}/start");
    let (s, v) = call(&app, Method::POST, &start, bob, None).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("not_creator"))
    );
    let (s, v) = call(&app, Method::POST, &start, alice, None).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("too_few_players")),
        "{v}"
    );
    let (s, v) = call(
        &app,
        Method::POST,
        &join,
        alice,
        Some(json!({"password": "open sesame"})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = call(&app, Method::POST, &start, alice, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // Joining after the start is refused; so is taking a seat in another player's game.
    let carol = Some(sessions["carol"].as_str());
    let (s, v) = call(
        &app,
        Method::POST,
        &join,
        carol,
        Some(json!({"password": "open sesame"})),
    )
    .await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("already_started"))
    );
    let gid = v_game(&app, &id).await;
    let seat = format!("/api/tournaments/{id}/games/{gid}/seat");
    let (s, v) = call(&app, Method::POST, &seat, carol, None).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("not_your_game"))
    );
    let (s, v) = get(&app, "/api/tournaments/ffffffff").await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found"))
    );
}

/// The id of game 1 of board 1 of the last round of tournament `id`.
async fn v_game(app: &App, id: &str) -> String {
    let (_, t) = get(app, &format!("/api/tournaments/{id}")).await;
    let round = t["pairings"].as_array().unwrap().last().unwrap().clone();
    round["pairings"][0]["games"][0]["id"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn a_running_tournament_survives_a_restart_and_goes_on_pairing() {
    use crown_server::store::{Durability, SqliteStore};
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crown.db");
    let open = || Arc::new(SqliteStore::open(&path, Durability::Normal).unwrap());
    let app1 = server().store(open()).start().await;
    let sessions = players(&app1).await;
    let id = create_swiss(&app1, &sessions["alice"], 3).await;
    join_all(&app1, &id, &sessions).await;
    let uri = format!("/api/tournaments/{id}/start");
    let (s, t) = call(&app1, Method::POST, &uri, Some(&sessions["alice"]), None).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    play_round(&app1, &id, &t, &sessions).await;
    let t = wait_for(&app1, &id, "round 2", |t| rounds_paired(t) == 2).await;
    app1.shutdown();
    drop(app1);

    let app2 = server().store(open()).start().await;
    let (s, again) = get(&app2, &format!("/api/tournaments/{id}")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        again["pairings"], t["pairings"],
        "the restart changed the pairings"
    );
    let mut t = again;
    for round in 2..=3 {
        play_round(&app2, &id, &t, &sessions).await;
        t = wait_for(&app2, &id, "the next round", |t| {
            rounds_paired(t) > round || t["phase"] == "finished"
        })
        .await;
    }
    let t = wait_for(&app2, &id, "finished", |t| t["phase"] == "finished").await;
    assert_eq!(standings(&t), expected(), "{t}");
}

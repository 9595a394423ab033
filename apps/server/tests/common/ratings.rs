//! Helpers for the rating tests (tests/ratings.rs, tests/pg_ratings.rs): games between
//! accounts through the router, seat actions, and Glickman's formulas for two new players.

use super::accounts::{post, Call};
use axum::http::StatusCode;
use crown_server::App;
use serde_json::{json, Value};
use std::f64::consts::PI;

/// The Glicko-2 scale factor (Glickman, "Example of the Glicko-2 system", step 2).
pub const SCALE: f64 = 173.7178;

/// One game between two new players (1500, RD 350, σ 0.06) by Glickman's steps 3 to 8: with
/// μ = μ_j, E = 1/2; v = 1/(g² E (1-E)); the volatility stays 0.06 to within 1e-5 for one
/// game, so φ* = √(φ² + σ²), φ' = 1/√(1/φ*² + 1/v), μ' = φ'² g (s - E). Returns the new
/// rating and deviation on the Glicko scale for score `s`.
pub fn new_players_game(s: f64) -> (f64, f64) {
    let phi = 350.0 / SCALE;
    let g = 1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt();
    let e = 0.5;
    let v = 1.0 / (g * g * e * (1.0 - e));
    let phi_star = (phi * phi + 0.06f64 * 0.06).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = phi_new * phi_new * g * (s - e);
    (1500.0 + SCALE * mu_new, SCALE * phi_new)
}

/// A blitz time control: 3 min + 2 s.
pub fn blitz() -> Value {
    json!({"initial_ms": 180_000, "increment_ms": 2_000})
}

/// `method uri` with the session cookie `session` and the seat token `token`.
pub fn call<'a>(
    method: axum::http::Method,
    uri: &'a str,
    session: Option<&'a str>,
    token: Option<&str>,
) -> Call<'a> {
    let mut c = post(uri, Value::Null);
    c.body = None;
    c.method = method;
    c.session = session;
    if let Some(t) = token {
        c.headers.push(("authorization", format!("Bearer {t}")));
    }
    c
}

/// `GET uri` with the session cookie `session`: the status and the JSON answer.
pub async fn get(app: &App, uri: &str, session: Option<&str>) -> (StatusCode, Value) {
    let (s, _, v) = call(axum::http::Method::GET, uri, session, None)
        .send(app)
        .await;
    (s, v)
}

/// `GET uri` as text, with its headers.
pub async fn get_text(app: &App, uri: &str, session: Option<&str>) -> (StatusCode, String, String) {
    let mut req = axum::http::Request::get(uri).header("host", "crown.test");
    if let Some(s) = session {
        req = req.header("cookie", format!("crown_session={s}"));
    }
    let req = req.body(axum::body::Body::empty()).unwrap();
    let resp = tower::ServiceExt::oneshot(app.router(), req).await.unwrap();
    let status = resp.status();
    let cd = resp
        .headers()
        .get("content-disposition")
        .map(|h| h.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 22)
        .await
        .unwrap();
    (status, String::from_utf8(bytes.to_vec()).unwrap(), cd)
}

/// A game between two seats: its id and both seat tokens.
pub struct Game {
    /// The game id.
    pub id: String,
    /// Black's seat token.
    pub black: String,
    /// White's seat token.
    pub white: String,
}

/// The plies [`game`] plays: the default `--rated-min-plies`, so that a rated game ending then
/// is rated.
pub const GAME_PLIES: usize = 10;

/// `black` creates an American game (`extra` merged into the body), `white` joins it, and the
/// sides play [`GAME_PLIES`] plies (11-15, 23-19, then the first legal move each time), so that
/// a rated game ending now is rated.
pub async fn game(app: &App, black: Option<&str>, white: Option<&str>, extra: Value) -> Game {
    let g = unstarted_game(app, black, white, extra).await;
    let mut view = Value::Null;
    for ply in 0..GAME_PLIES {
        let (mv, token) = match ply {
            0 => (json!("11-15"), &g.black),
            1 => (json!("23-19"), &g.white),
            _ if view["side_to_move"] == "black" => {
                (view["legal_moves"][0]["text"].clone(), &g.black)
            }
            _ => (view["legal_moves"][0]["text"].clone(), &g.white),
        };
        let uri = format!("/api/games/{}/moves", g.id);
        let mut c = call(axum::http::Method::POST, &uri, None, Some(token));
        c.body = Some(json!({ "move": mv, "ply": ply }));
        let (s, _, v) = c.send(app).await;
        assert_eq!(s, StatusCode::OK, "{mv}: {v}");
        view = v;
    }
    g
}

/// Play `plies` more plies of game `g` (the first legal move each time).
pub async fn play_plies(app: &App, g: &Game, plies: usize) {
    let (s, mut view) = get(app, &format!("/api/games/{}", g.id), None).await;
    assert_eq!(s, StatusCode::OK, "{view}");
    for _ in 0..plies {
        let token = if view["side_to_move"] == "black" {
            &g.black
        } else {
            &g.white
        };
        let uri = format!("/api/games/{}/moves", g.id);
        let mut c = call(axum::http::Method::POST, &uri, None, Some(token));
        c.body = Some(json!({"move": view["legal_moves"][0]["text"], "ply": view["ply"]}));
        let (s, _, v) = c.send(app).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        view = v;
    }
}

/// `black` creates a game (`extra` merged into the body) and `white` joins it; nobody moves.
pub async fn unstarted_game(
    app: &App,
    black: Option<&str>,
    white: Option<&str>,
    extra: Value,
) -> Game {
    let mut body = json!({"variant": "american", "time_control": blitz(), "color": "black"});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let mut c = post("/api/games", body);
    c.session = black;
    let (s, _, v) = c.send(app).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let uri = format!("/api/games/{id}/join");
    let (s, _, j) = call(axum::http::Method::POST, &uri, white, None)
        .send(app)
        .await;
    assert_eq!(s, StatusCode::OK, "{j}");
    Game {
        id,
        black: v["token"].as_str().unwrap().to_string(),
        white: j["token"].as_str().unwrap().to_string(),
    }
}

/// `POST /api/games/{id}/{action}` with `token`.
pub async fn act(app: &App, id: &str, action: &str, token: &str) -> (StatusCode, Value) {
    let uri = format!("/api/games/{id}/{action}");
    let (s, _, v) = call(axum::http::Method::POST, &uri, None, Some(token))
        .send(app)
        .await;
    (s, v)
}

/// The rating of `name` in american blitz on the user page, as `(rating, deviation, games)`.
pub async fn blitz_rating(app: &App, name: &str) -> Option<(i64, i64, u64)> {
    let (s, v) = get(app, &format!("/api/users/{name}"), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v["ratings"].as_array().unwrap().iter().find_map(|r| {
        (r["variant"] == "american" && r["speed"] == "blitz").then(|| {
            (
                r["rating"].as_i64().unwrap(),
                r["deviation"].as_i64().unwrap(),
                r["games"].as_u64().unwrap(),
            )
        })
    })
}

/// Sign up `name` from the client address `ip` and return the session token (asserting `201`).
pub async fn sign_up_from(app: &App, name: &str, ip: impl Into<std::net::IpAddr>) -> String {
    let mut c = post(
        "/api/signup",
        json!({"username": name, "password": "farm password"}),
    );
    c.from = Some(ip.into());
    let (s, h, v) = c.send(app).await;
    assert_eq!(s, StatusCode::CREATED, "{name}: {v}");
    super::accounts::token_of(&h)
}

/// The session `black` creates a rated blitz game, taking black's seat: the game's id and
/// black's seat token.
pub async fn rated_game(app: &App, black: &str) -> (String, String) {
    let mut c = post(
        "/api/games",
        json!({"variant": "american", "rated": true, "time_control": blitz(), "color": "black"}),
    );
    c.session = Some(black);
    let (s, _, v) = c.send(app).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    (
        v["id"].as_str().unwrap().to_string(),
        v["token"].as_str().unwrap().to_string(),
    )
}

/// The session `white` joins game `id`: the join's answer (asserted `200`).
pub async fn join(app: &App, id: &str, white: &str) -> Value {
    let uri = format!("/api/games/{id}/join");
    let (s, _, j) = call(axum::http::Method::POST, &uri, Some(white), None)
        .send(app)
        .await;
    assert_eq!(s, StatusCode::OK, "{j}");
    j
}

/// `black` creates a rated blitz game, `white` joins, and the sides play `plies` plies (the
/// first legal move each time); returns the game.
pub async fn played_game(app: &App, black: &str, white: &str, plies: usize) -> Game {
    let (id, black) = rated_game(app, black).await;
    let j = join(app, &id, white).await;
    let g = Game {
        id,
        black,
        white: j["token"].as_str().unwrap().to_string(),
    };
    play_plies(app, &g, plies).await;
    g
}

/// `black` creates `n` rated blitz games, then `white` joins all of them at once, the i-th join
/// sent to `apps[i % apps.len()]` (instances of one store): each game's `(rated,
/// unrated_reason)` as its join answered, then as the game reads afterwards.
pub async fn joined_at_once(
    apps: &[&App],
    black: &str,
    white: &str,
    n: usize,
) -> Vec<((Value, Value), (Value, Value))> {
    let mut ids = Vec::new();
    for _ in 0..n {
        ids.push(rated_game(apps[0], black).await.0);
    }
    let joins = ids
        .iter()
        .enumerate()
        .map(|(i, id)| join(apps[i % apps.len()], id, white));
    let joined = futures_util::future::join_all(joins).await;
    let mut out = Vec::new();
    for (id, j) in ids.iter().zip(joined) {
        let (s, v) = get(apps[0], &format!("/api/games/{id}"), None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let fields = |g: &Value| (g["rated"].clone(), g["unrated_reason"].clone());
        out.push((fields(&j["game"]), fields(&v)));
    }
    out
}

/// The rating farm of the attack review (issue 41): the account `{prefix}t` signs up from
/// `target_ip` and five accounts `{prefix}0`..`{prefix}4` from `farmer_ips`; each farmer plays
/// 8 rated 3+2 games of `plies` plies against the target, alternately resigning and agreeing a
/// draw (the draws bring the target's deviation under 110). Returns the target's name.
pub async fn farm<A: Into<std::net::IpAddr>>(
    app: &App,
    prefix: &str,
    target_ip: [u8; 4],
    farmer_ips: [A; 5],
    plies: usize,
) -> String {
    let target_name = format!("{prefix}t");
    let target = sign_up_from(app, &target_name, target_ip).await;
    let mut played = 0;
    for (i, ip) in farmer_ips.into_iter().enumerate() {
        let farmer = sign_up_from(app, &format!("{prefix}{i}"), ip).await;
        for _ in 0..8 {
            let g = played_game(app, &farmer, &target, plies).await;
            if played % 2 == 1 {
                assert_eq!(
                    act(app, &g.id, "draw/offer", &g.black).await.0,
                    StatusCode::OK
                );
                let (s, v) = act(app, &g.id, "draw/accept", &g.white).await;
                assert_eq!(s, StatusCode::OK, "{v}");
            } else {
                let (s, v) = act(app, &g.id, "resign", &g.black).await;
                assert_eq!(s, StatusCode::OK, "{v}");
            }
            played += 1;
        }
    }
    target_name
}

/// The names on the American blitz leaderboard, best first.
pub async fn leaderboard_names(app: &App) -> Vec<String> {
    let (s, l) = get(app, "/api/leaderboard?variant=american&speed=blitz", None).await;
    assert_eq!(s, StatusCode::OK, "{l}");
    l["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect()
}

/// The games of [`farmed_archive`]: this many.
pub const FARMED: u64 = 10_000;

/// When the first game of [`farmed_archive`] ended (ms since the epoch); game `i` ended `i` ms
/// later.
pub const FARMED_FROM_MS: u64 = 1_000_000;

/// The farmed archive of the attack review (issue 41), written straight through `store` (as a
/// server would save them, on 8 threads): [`FARMED`] rated blitz games won by `black` (the
/// account id and name) against `white`, each of two plies, game `i` ended at
/// [`FARMED_FROM_MS`]` + i`.
pub async fn farmed_archive(
    store: std::sync::Arc<dyn crown_server::store::Store>,
    black: (&str, &str),
    white: (&str, &str),
) {
    use crown_server::store::{fixture::GameRecordBuilder, SeatAccount};
    let account = |(id, name): (&str, &str)| SeatAccount {
        user_id: id.to_string(),
        name: name.to_string(),
        bot: false,
    };
    let (b, w) = (account(black), account(white));
    let threads = 8;
    let mut tasks = Vec::new();
    for t in 0..threads {
        let (store, b, w) = (store.clone(), b.clone(), w.clone());
        tasks.push(tokio::task::spawn_blocking(move || {
            for i in (t..FARMED).step_by(threads as usize) {
                let ended = FARMED_FROM_MS + i;
                let mut rec = GameRecordBuilder::new(&format!("{i:016x}"))
                    .time_control(180_000, 2_000)
                    .moves(&["11-15", "23-19"], ended)
                    .created_ms(ended)
                    .build();
                rec.meta.rated = true;
                rec.meta.accounts.black = Some(b.clone());
                rec.meta.accounts.white = Some(w.clone());
                store.create(&rec).unwrap();
                rec.status = "finished".into();
                rec.result = Some("1-0".into());
                rec.updated_ms = ended;
                store.save(&mut rec, 2).unwrap();
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
}

/// The public reads of the player `name`, who owns a [`farmed_archive`] as Black, stay
/// bounded: the page counts every game (kept as counts, not by reading the archive) and shows
/// the newest [`crown_server::store::ratings::HISTORY_MAX`] rated games; a filtered archive
/// page reads at most [`crown_server::store::ratings::ARCHIVE_SCAN`] games and says where the
/// next page starts, so that the 10,000 games take 10 pages however few match; the leaderboard
/// answers (and lists nobody: one opponent).
pub async fn check_bounded_reads(app: &App, name: &str) {
    use crown_server::store::ratings::{ARCHIVE_SCAN, HISTORY_MAX};
    let (s, page) = get(app, &format!("/api/users/{name}"), None).await;
    assert_eq!(s, StatusCode::OK, "{page}");
    assert_eq!(page["counts"]["games"], FARMED);
    assert_eq!(page["counts"]["wins"], FARMED);
    assert_eq!(page["rated_counts"]["games"], FARMED);
    let history = page["history"].as_array().unwrap();
    assert_eq!(history.len(), HISTORY_MAX);
    let newest = FARMED_FROM_MS + FARMED - 1;
    assert_eq!(history[HISTORY_MAX - 1]["ended_ms"], newest);
    assert_eq!(history[0]["ended_ms"], newest + 1 - HISTORY_MAX as u64);
    // Nothing matches `result=loss`: each page reads ARCHIVE_SCAN games and goes on from the
    // oldest one's millisecond.
    let mut before = String::new();
    let mut pages = 0;
    loop {
        let uri = format!("/api/users/{name}/games?result=loss{before}");
        let (s, v) = get(app, &uri, None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["games"], json!([]));
        pages += 1;
        match v["next_before_ms"].as_u64() {
            Some(next) => {
                let read = pages * ARCHIVE_SCAN as u64;
                assert_eq!(next, newest + 1 - read);
                before = format!("&before_ms={next}");
            }
            None => break,
        }
        assert!(pages <= 10, "{v}");
    }
    assert_eq!(pages, FARMED / ARCHIVE_SCAN as u64);
    let (s, v) = get(app, &format!("/api/users/{name}/games?limit=100"), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["games"].as_array().unwrap().len(), 100);
    assert_eq!(v["games"][0]["ended_ms"], newest);
    assert_eq!(v["next_before_ms"], newest - 99);
    let (s, v) = get(app, "/api/leaderboard?variant=american&speed=blitz", None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["players"], json!([]));
}

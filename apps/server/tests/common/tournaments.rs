//! Helpers of the tournament tests (tests/tournaments.rs on SQLite, tests/pg_tournaments.rs on
//! PostgreSQL): requests with a session, a Swiss created and joined, its rounds played through
//! the API by a fixed order of strength, and the standings that order gives, computed by hand.

use super::accounts::{post, sign_up, Call};
use super::{server, Server};
use axum::http::{Method, StatusCode};
use crown_server::App;
use serde_json::{json, Value};
use std::collections::HashMap;

/// A blitz clock: 3 min + 2 s.
pub fn blitz() -> Value {
    json!({"initial_ms": 180_000, "increment_ms": 2_000})
}

/// `method uri` with `session` and an optional JSON body.
pub async fn call(
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
pub async fn get(app: &App, uri: &str) -> (StatusCode, Value) {
    call(app, Method::GET, uri, None, None).await
}

/// The text answer of `GET uri` (asserting `200`).
pub async fn text(app: &App, uri: &str) -> String {
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
pub async fn seat_post(app: &App, uri: &str, token: &str) -> (StatusCode, Value) {
    let mut c: Call<'_> = post(uri, Value::Null);
    c.body = None;
    c.headers.push(("authorization", format!("Bearer {token}")));
    let (s, _, v) = c.send(app).await;
    (s, v)
}

/// Create a rated Swiss of `rounds` rounds by `creator`, started by its creator; its id.
pub async fn create_swiss(app: &App, creator: &str, rounds: u32) -> String {
    create_swiss_at(app, creator, rounds, None).await
}

/// Create a rated Swiss of `rounds` rounds by `creator` that the server starts by itself at
/// `starts_ms` (`None`: its creator starts it); its id.
pub async fn create_swiss_at(
    app: &App,
    creator: &str,
    rounds: u32,
    starts_ms: Option<u64>,
) -> String {
    let mut body = json!({"name": "Club Swiss", "variant": "american", "format": "swiss",
                          "rounds": rounds, "time_control": blitz(), "rated": true});
    if let Some(at) = starts_ms {
        body["starts_ms"] = json!(at);
    }
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
pub async fn wait_for(app: &App, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
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
pub fn outcome(a: &str, b: &str, game: u64) -> Option<String> {
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
pub async fn play_round(app: &App, id: &str, t: &Value, sessions: &HashMap<String, String>) {
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
pub async fn players(app: &App) -> HashMap<String, String> {
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
pub async fn join_all(app: &App, id: &str, sessions: &HashMap<String, String>) {
    join(app, id, sessions, &["alice", "bob", "carol", "dave"]).await;
}

/// The players `who` join `id`, in that order.
pub async fn join(app: &App, id: &str, sessions: &HashMap<String, String>, who: &[&str]) {
    for name in who {
        let uri = format!("/api/tournaments/{id}/join");
        let (s, v) = call(app, Method::POST, &uri, Some(&sessions[*name]), None).await;
        assert_eq!(s, StatusCode::OK, "{name}: {v}");
    }
}

/// The standings as `(name, match points, game points, Buchholz, Sonneborn–Berger)`, rank order.
pub fn standings(t: &Value) -> Vec<(String, u64, u64, u64, u64)> {
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
pub fn expected() -> Vec<(String, u64, u64, u64, u64)> {
    vec![
        ("alice".into(), 6, 12, 6, 12),
        ("bob".into(), 3, 6, 9, 3),
        ("carol".into(), 3, 5, 9, 3),
        ("dave".into(), 0, 1, 12, 0),
    ]
}

/// The number of rounds paired.
pub fn rounds_paired(t: &Value) -> usize {
    t["pairings"].as_array().map_or(0, Vec::len)
}

/// Whether every game of the last round has a result.
pub fn round_done(t: &Value) -> bool {
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

/// The store queries of the sweeper and the per-account cap on `store` (SQLite or PostgreSQL):
/// 60 running tournaments (created by `c1`), one `created` whose start time is reached, one not
/// yet, one only its creator starts and one finished (created by `c2`); at time 5,000 the due
/// ones are the 60 running and the one reached (no cap of 50), the open ones all but the
/// finished (60 of `c1`'s, 3 of `c2`'s), and the upcoming list is by start time with the one
/// without a start time last.
pub fn check_due_and_open_tournaments(store: &dyn crown_server::store::Store) {
    use crown_server::store::TournamentRecord;
    let t = store.tournaments().expect("a store with tournaments");
    let rec = |id: String, phase: &str, starts_ms: u64, created_ms: u64| TournamentRecord {
        id,
        phase: phase.to_string(),
        starts_ms,
        created_ms,
        updated_ms: created_ms,
        state: "{}".to_string(),
        version: 1,
        creator: if phase == "running" { "c1" } else { "c2" }.to_string(),
    };
    let mut due = std::collections::BTreeSet::new();
    for i in 0..60u64 {
        let id = format!("{i:08x}");
        t.create_tournament(&rec(id.clone(), "running", 0, 100 + i))
            .unwrap();
        due.insert(id);
    }
    // Created before the 60 running ones: the oldest, as the victim of a flood.
    t.create_tournament(&rec("aaaa0001".into(), "created", 1_000, 1))
        .unwrap();
    due.insert("aaaa0001".to_string());
    t.create_tournament(&rec("aaaa0002".into(), "created", 9_000, 2))
        .unwrap();
    t.create_tournament(&rec("aaaa0003".into(), "created", 0, 3))
        .unwrap();
    t.create_tournament(&rec("aaaa0004".into(), "finished", 500, 4))
        .unwrap();
    let got: std::collections::BTreeSet<String> = t
        .due_tournaments(5_000)
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(got, due);
    let open = t.open_tournaments().unwrap();
    assert_eq!(open.len(), 63);
    assert!(open.iter().all(|r| r.id != "aaaa0004"));
    let by = |c: &str| t.open_tournaments_by(c).unwrap();
    assert_eq!((by("c1"), by("c2"), by("c3")), (60, 3, 0));
    let upcoming: Vec<String> = t
        .list_tournaments("created", 50)
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(upcoming, ["aaaa0001", "aaaa0002", "aaaa0003"]);
}

/// Create an unrated arena of `minutes` by `creator` (a 30-minute clock, so that no game of the
/// tests runs out of time), started by its creator; its id.
pub async fn create_arena(app: &App, creator: &str, minutes: u32) -> String {
    let body = json!({"name": "Arena", "variant": "american", "format": "arena",
                      "minutes": minutes, "openings": "start",
                      "time_control": {"initial_ms": 1_800_000, "increment_ms": 0}});
    let (s, v) = call(
        app,
        Method::POST,
        "/api/tournaments",
        Some(creator),
        Some(body),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["tournament"]["format"], "arena", "{v}");
    assert_eq!(v["tournament"]["minutes"], minutes, "{v}");
    v["id"].as_str().unwrap().to_string()
}

/// The games of arena `t` as `(first name, second name, result)`, in pairing order.
pub fn arena_games(t: &Value) -> Vec<(String, String, Option<String>)> {
    t["games"]
        .as_array()
        .map(|games| {
            games
                .iter()
                .map(|g| {
                    (
                        g["first_name"].as_str().unwrap().to_string(),
                        g["second_name"].as_str().unwrap().to_string(),
                        g["result"].as_str().map(str::to_string),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A test server for arenas: a rated game needs 2 plies (`--rated-min-plies 2`, the least), so
/// that an arena game of the tests counts once each side has moved ([`end_arena_game`]).
pub fn arena_server() -> Server {
    server().with(|c| c.rated_min_plies = 2)
}

/// End game `number` (from 1) of arena `id` through the API with the players' sessions once
/// each side has moved (2 plies: not a short game on an [`arena_server`]): `winner` wins (the
/// other resigns), or `None`: a draw agreed. Answers the status of the first call that fails or
/// the last one (a game that already ended, e.g. aborted, answers `409`).
pub async fn end_arena_game(
    app: &App,
    id: &str,
    number: usize,
    winner: Option<&str>,
    sessions: &HashMap<String, String>,
) -> StatusCode {
    end_arena_game_after(app, id, number, winner, sessions, 2).await
}

/// [`end_arena_game`] after `plies` plies (0 or 2: `11-15`, `23-19` from the start position).
pub async fn end_arena_game_after(
    app: &App,
    id: &str,
    number: usize,
    winner: Option<&str>,
    sessions: &HashMap<String, String>,
    plies: usize,
) -> StatusCode {
    let (_, t) = get(app, &format!("/api/tournaments/{id}")).await;
    let g = t["games"]
        .as_array()
        .and_then(|gs| gs.iter().find(|g| g["number"] == number))
        .unwrap_or_else(|| panic!("no game {number} in {t}"));
    let gid = g["id"].as_str().unwrap().to_string();
    let (first, second) = (
        g["first_name"].as_str().unwrap().to_string(),
        g["second_name"].as_str().unwrap().to_string(),
    );
    let mut tokens = HashMap::new();
    for who in [&first, &second] {
        let uri = format!("/api/tournaments/{id}/games/{gid}/seat");
        let (s, v) = call(app, Method::POST, &uri, Some(&sessions[who.as_str()]), None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        tokens.insert(who.clone(), v["token"].as_str().unwrap().to_string());
    }
    let (s, v) = get(app, &format!("/api/games/{gid}")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // The first player moves first: Black in American checkers.
    assert_eq!(v["accounts"]["black"]["name"], first.as_str(), "{v}");
    for (who, mv) in [(&first, "11-15"), (&second, "23-19")]
        .into_iter()
        .take(plies)
    {
        let uri = format!("/api/games/{gid}/moves");
        let mut c: Call<'_> = post(&uri, json!({"move": mv}));
        c.headers
            .push(("authorization", format!("Bearer {}", tokens[who.as_str()])));
        let (s, _, _) = c.send(app).await;
        if s != StatusCode::OK {
            return s;
        }
    }
    match winner {
        Some(w) => {
            let loser = if w == first { &second } else { &first };
            let uri = format!("/api/games/{gid}/resign");
            seat_post(app, &uri, &tokens[loser]).await.0
        }
        None => {
            let uri = format!("/api/games/{gid}/draw/offer");
            let (s, v) = seat_post(app, &uri, &tokens[&first]).await;
            assert_eq!(s, StatusCode::OK, "{v}");
            let uri = format!("/api/games/{gid}/draw/accept");
            seat_post(app, &uri, &tokens[&second]).await.0
        }
    }
}

/// Every app of `apps` advances arena `id` four times, all at once; none fails.
pub async fn race_advance(apps: &[App], id: &str) {
    let racers = (0..4 * apps.len()).map(|i| {
        let app = apps[i % apps.len()].clone();
        let id = id.to_string();
        tokio::spawn(async move { app.tournaments().advance(&id).await.map(|_| ()) })
    });
    for r in futures_util::future::join_all(racers).await {
        r.unwrap()
            .unwrap_or_else(|e| panic!("advancing failed: {e}"));
    }
}

/// One line of an arena's standings: name, score, points per game, on fire, performance.
pub type ArenaLine = (String, u64, Vec<u64>, bool, Option<u64>);

/// The arena standings, rank order.
pub fn arena_standings(t: &Value) -> Vec<ArenaLine> {
    t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["name"].as_str().unwrap().to_string(),
                l["score"].as_u64().unwrap(),
                l["points"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p.as_u64().unwrap())
                    .collect(),
                l["fire"].as_bool().unwrap(),
                l["performance"].as_u64(),
            )
        })
        .collect()
}

/// Play the arena `id` of `minutes` (created by alice, everyone joined, just started) to its end
/// through `apps` in turn (one app, or several instances on one database), every app advancing
/// it at once after each game (a pairing made twice would show as a game too many), checking the
/// pairing as each game ends against the rules worked by hand (free players by score then seed —
/// all rated 1500, so joining order —, never the last opponent again; the one who moved first
/// less often moves first):
///
/// 1. alice–bob (alice first), carol–dave (carol first).
/// 2. alice beats bob: alice is free but only bob is, her last opponent: nobody paired.
/// 3. carol and dave draw: alice (2) meets carol (1) (alice first: equal balance, and both
///    moved first last time); dave (1) meets bob (0) (dave first: equal balance, and he moved
///    second last time).
/// 4. alice beats carol: alice waits (carol was her last); bob beats dave: alice (4) meets bob
///    (2) (bob first: alice has moved first twice more), carol (1) meets dave (1) (carol first).
/// 5. alice, on fire after two wins, beats bob: 4 points.
/// 6. the arena's time is up (the test clock): it finishes with game 6 running; carol then wins
///    it (or it ends by abort): it does not count and nobody is paired again.
///
/// Scores: alice W W W = 2+2+4 = 8 (on fire), bob L W L = 0+2+0 = 2, carol D L = 1+0 = 1, dave
/// D L = 1+0 = 1; performances (opponents 1500, ±500): alice 2000, bob (1000+2000+1000)/3 =
/// 1333, carol and dave (1500+1000)/2 = 1250, so carol stays above dave by seed.
pub async fn play_arena(apps: &[App], id: &str, minutes: u64, sessions: &HashMap<String, String>) {
    let app = |step: usize| &apps[step % apps.len()];
    let uri = format!("/api/tournaments/{id}");
    let (_, t) = get(app(0), &uri).await;
    let g = |a: &str, b: &str, r: Option<&str>| (a.to_string(), b.to_string(), r.map(String::from));
    assert_eq!(
        arena_games(&t),
        vec![g("alice", "bob", None), g("carol", "dave", None)],
        "{t}"
    );
    let steps: [(usize, Option<&str>, &str); 4] = [
        (1, Some("alice"), "1-0"),
        (2, None, "1/2-1/2"),
        (3, Some("alice"), "1-0"),
        (4, Some("bob"), "0-1"),
    ];
    let paired_after = [2usize, 4, 4, 6];
    for (step, (number, winner, result)) in steps.into_iter().enumerate() {
        let here = app(step);
        assert_eq!(
            end_arena_game(here, id, number, winner, sessions).await,
            StatusCode::OK
        );
        race_advance(apps, id).await;
        let t = wait_for(app(step + 1), id, "the result", |t| {
            t["games"][number - 1]["result"] == result
                && t["games"].as_array().unwrap().len() == paired_after[step]
        })
        .await;
        assert_eq!(
            t["games"].as_array().unwrap().len(),
            paired_after[step],
            "{t}"
        );
    }
    let (_, t) = get(app(0), &uri).await;
    let (_, seen) = get(app(1), &uri).await;
    assert_eq!(t["games"], seen["games"], "the instances disagree");
    assert_eq!(
        arena_games(&t),
        vec![
            g("alice", "bob", Some("1-0")),
            g("carol", "dave", Some("1/2-1/2")),
            g("alice", "carol", Some("1-0")),
            g("dave", "bob", Some("0-1")),
            g("bob", "alice", None),
            g("carol", "dave", None),
        ],
        "{t}"
    );
    assert_eq!(
        end_arena_game(app(0), id, 5, Some("alice"), sessions).await,
        StatusCode::OK
    );
    race_advance(apps, id).await;
    wait_for(app(1), id, "game 5's result", |t| {
        t["games"][4]["result"] == "0-1"
    })
    .await;
    // The time is up with game 6 running.
    crown_server::live::advance_clock(minutes * 60_000 + 1_000);
    race_advance(apps, id).await;
    let t = wait_for(app(1), id, "the end", |t| t["phase"] == "finished").await;
    assert_eq!(t["games"].as_array().unwrap().len(), 6, "{t}");
    let ended = end_arena_game(app(0), id, 6, Some("carol"), sessions).await;
    assert!(
        ended == StatusCode::OK || ended == StatusCode::CONFLICT,
        "{ended}"
    );
    race_advance(apps, id).await;
    let (_, t) = get(app(1), &uri).await;
    assert_eq!(
        t["games"].as_array().unwrap().len(),
        6,
        "paired after the end: {t}"
    );
    assert!(
        t["games"][5]["result"].is_null(),
        "counted after the end: {t}"
    );
    assert_eq!(
        arena_standings(&t),
        vec![
            ("alice".into(), 8, vec![2, 2, 4], true, Some(2000)),
            ("bob".into(), 2, vec![0, 2, 0], false, Some(1333)),
            ("carol".into(), 1, vec![1, 0], false, Some(1250)),
            ("dave".into(), 1, vec![1, 0], false, Some(1250)),
        ],
        "{t}"
    );
    let pdn = text(app(0), &format!("/api/tournaments/{id}/pdn")).await;
    assert_eq!(pdn.matches("[Event \"Arena\"]").count(), 6, "{pdn}");
    assert_eq!(pdn.matches("[Round \"5\"]").count(), 1, "{pdn}");
}

/// A Swiss of 3 rounds of `variant` with the opening rule `openings`, created by alice, joined by
/// everyone and started by alice; its id and the tournament as the start answers it.
pub async fn started_swiss_with_openings(
    app: &App,
    sessions: &HashMap<String, String>,
    variant: &str,
    openings: &str,
) -> (String, Value) {
    let body = json!({"name": "Ballot Swiss", "variant": variant, "format": "swiss", "rounds": 3,
                      "time_control": blitz(), "openings": openings});
    let (s, v) = call(
        app,
        Method::POST,
        "/api/tournaments",
        Some(&sessions["alice"]),
        Some(body),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["tournament"]["openings"], openings, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    join_all(app, &id, sessions).await;
    let uri = format!("/api/tournaments/{id}/start");
    let (s, t) = call(app, Method::POST, &uri, Some(&sessions["alice"]), None).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    (id, t)
}

/// Round 1 of tournament `t` (read on `app`) starts from an 11-man ballot: its label
/// `11-man ballot N` names line N of the embedded list, its FEN is that line's position, and the
/// first game of each match starts from it. The ballot's number.
pub async fn assert_eleven_man_round(app: &App, t: &Value) -> usize {
    let round = &t["pairings"][0];
    let label = round["opening"]["label"].as_str().unwrap();
    let n: usize = label
        .strip_prefix("11-man ballot ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the round's opening is {label:?}: {t}"));
    let list = crown_arena::openings::eleven_man_ballots().unwrap();
    assert!((1..=list.len()).contains(&n), "{label}");
    assert_eq!(round["opening"]["fen"], list[n - 1].as_str(), "{t}");
    for p in round["pairings"].as_array().unwrap() {
        let game = p["games"][0]["id"].as_str().unwrap();
        let (s, g) = get(app, &format!("/api/games/{game}")).await;
        assert_eq!(s, StatusCode::OK, "{g}");
        assert_eq!(g["start_fen"], list[n - 1].as_str(), "{g}");
        assert_eq!(
            g["side_to_move"], "black",
            "an 11-man ballot is Black's move: {g}"
        );
    }
    n
}

/// An arena of alice, bob and carol on `apps` (taken in turn): alice beats bob by his
/// resignation at ply 0 — a short game (`--rated-min-plies` 2 on an [`arena_server`]): it scores
/// nothing, bob is not paired for `SHORT_GAME_WAIT_MS` while alice, the winner, meets carol at
/// once; once alice and carol have played (2 plies, a draw), nobody is paired (each was the
/// other's last opponent, bob waits) until the wait is over, and then bob meets carol.
pub async fn play_short_arena_game(apps: &[App], sessions: &HashMap<String, String>) {
    let app = |step: usize| &apps[step % apps.len()];
    let id = create_arena(app(0), &sessions["alice"], 30).await;
    join(app(1), &id, sessions, &["alice", "bob", "carol"]).await;
    let uri = format!("/api/tournaments/{id}/start");
    let (s, t) = call(app(0), Method::POST, &uri, Some(&sessions["alice"]), None).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    let g = |a: &str, b: &str, r: Option<&str>| (a.to_string(), b.to_string(), r.map(String::from));
    assert_eq!(arena_games(&t), vec![g("alice", "bob", None)], "{t}");
    let ended = end_arena_game_after(app(1), &id, 1, Some("alice"), sessions, 0).await;
    assert_eq!(ended, StatusCode::OK);
    race_advance(apps, &id).await;
    let t = wait_for(app(0), &id, "game 1's result", |t| {
        t["games"][0]["result"] == "1-0"
    })
    .await;
    assert_eq!(t["games"][0]["short"], true, "{t}");
    assert_eq!(
        arena_games(&t),
        vec![g("alice", "bob", Some("1-0")), g("carol", "alice", None)],
        "the winner is paired at once, the loser not: {t}"
    );
    assert_eq!(t["games_total"], 2, "{t}");
    // Nobody scored: the short game counts for no one.
    let lines = arena_standings(&t);
    assert!(
        lines.iter().all(|l| l.1 == 0 && l.2.is_empty()),
        "a short game counted: {t}"
    );
    assert_eq!(
        end_arena_game(app(0), &id, 2, None, sessions).await,
        StatusCode::OK
    );
    race_advance(apps, &id).await;
    let t = wait_for(app(1), &id, "game 2's result", |t| {
        t["games"][1]["result"] == "1/2-1/2"
    })
    .await;
    assert_eq!(t["games"][1]["short"], false, "{t}");
    race_advance(apps, &id).await;
    let (_, t) = get(app(0), &format!("/api/tournaments/{id}")).await;
    assert_eq!(t["games_total"], 2, "bob paired within his wait: {t}");
    crown_server::live::advance_clock(crown_server::tournaments::arena::SHORT_GAME_WAIT_MS + 1_000);
    race_advance(apps, &id).await;
    let t = wait_for(app(1), &id, "bob paired after his wait", |t| {
        t["games_total"] == 3
    })
    .await;
    let games = arena_games(&t);
    assert!(
        games[2] == g("bob", "carol", None) || games[2] == g("carol", "bob", None),
        "{t}"
    );
}

/// A round robin on `app` (whose `tournament_max_players` is 2, so 4 entries at most, withdrawn
/// ones included): full at 2 players; before the start a withdrawn entry's place is taken by a
/// new player once the entries reach 4 (issue 41: it blocked every new player for good), an
/// account coming back takes its own entry again, and joining and withdrawing stop at the
/// account's fifth withdrawal (`too_many_withdrawals`) without adding entries.
pub async fn withdrawn_places_are_reused_and_churn_is_bounded(app: &App) {
    let mut sessions = players(app).await;
    sessions.insert("erin".into(), sign_up(app, "erin", "erin-password").await);
    let body = json!({"name": "Small RR", "variant": "american", "format": "round_robin",
                      "time_control": blitz()});
    let (s, v) = call(
        app,
        Method::POST,
        "/api/tournaments",
        Some(&sessions["alice"]),
        Some(body),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let act = |what: &'static str, who: &'static str| {
        let (uri, session) = (
            format!("/api/tournaments/{id}/{what}"),
            sessions[who].clone(),
        );
        async move { call(app, Method::POST, &uri, Some(&session), None).await }
    };
    let entries = || async {
        let (s, t) = get(app, &format!("/api/tournaments/{id}")).await;
        assert_eq!(s, StatusCode::OK, "{t}");
        (
            t["players_list"].as_array().unwrap().len(),
            t["players"].as_u64().unwrap(),
        )
    };
    join(app, &id, &sessions, &["alice", "bob"]).await;
    let (s, v) = act("join", "carol").await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("tournament_full")),
        "{v}"
    );
    // Two withdraw and two others join: 4 entries, 2 of them withdrawn.
    assert_eq!(act("withdraw", "alice").await.0, StatusCode::OK);
    join(app, &id, &sessions, &["carol"]).await;
    assert_eq!(act("withdraw", "bob").await.0, StatusCode::OK);
    join(app, &id, &sessions, &["dave"]).await;
    assert_eq!(entries().await, (4, 2));
    // One more withdraws: the next player takes a withdrawn entry's place.
    assert_eq!(act("withdraw", "carol").await.0, StatusCode::OK);
    join(app, &id, &sessions, &["erin"]).await;
    assert_eq!(entries().await, (4, 2));
    // Joining and withdrawing again and again reuses the account's entry and stops at its fifth
    // withdrawal.
    let mut joins = 0;
    loop {
        assert_eq!(act("withdraw", "dave").await.0, StatusCode::OK);
        let (s, v) = act("join", "dave").await;
        if s != StatusCode::OK {
            assert_eq!(
                (s, v["error"]["code"].as_str()),
                (StatusCode::CONFLICT, Some("too_many_withdrawals")),
                "{v}"
            );
            break;
        }
        joins += 1;
        assert!(joins < 10, "joining and withdrawing never stopped: {v}");
    }
    assert_eq!(
        joins, 4,
        "four comebacks, refused after the fifth withdrawal"
    );
    assert_eq!(entries().await, (4, 1));
}

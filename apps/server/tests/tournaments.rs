//! Tournaments through the router on SQLite (docs/api.md, "Tournaments"): a Swiss played to the
//! end through the API with standings equal to values computed by hand from the scoring rules,
//! the errors of bad requests, and a running tournament that goes on pairing after a restart.

mod common;
use axum::http::{Method, StatusCode};
use common::server;
use common::tournaments::*;
use crown_server::live::now_ms;
use crown_server::App;
use serde_json::{json, Value};

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
    // Every game was played today (UTC; yesterday when the test crossed midnight): its Date.
    let today = crown_notation::pdn_date_of_unix_ms(now_ms());
    let yesterday = crown_notation::pdn_date_of_unix_ms(now_ms() - 86_400_000);
    let dated = |d: &str| pdn.matches(&format!("[Date \"{d}\"]")).count();
    assert_eq!(dated(&today) + dated(&yesterday), 12, "{pdn}");
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
    // An arena needs its length in minutes (1..=180), and has no rounds; minutes are an
    // arena's only.
    let arena = |minutes: Value| {
        json!({"name": "Arena", "variant": "american", "format": "arena", "minutes": minutes,
               "time_control": blitz()})
    };
    for minutes in [json!(0), json!(181), Value::Null] {
        assert_eq!(
            create_error(&app, alice, arena(minutes.clone())).await,
            (StatusCode::BAD_REQUEST, "bad_duration".into()),
            "minutes {minutes}"
        );
    }
    let mut with_rounds = arena(json!(30));
    with_rounds["rounds"] = json!(3);
    assert_eq!(
        create_error(&app, alice, with_rounds).await,
        (StatusCode::BAD_REQUEST, "bad_rounds".into())
    );
    let mut swiss_minutes = swiss(json!(3));
    swiss_minutes["minutes"] = json!(30);
    assert_eq!(
        create_error(&app, alice, swiss_minutes).await,
        (StatusCode::BAD_REQUEST, "bad_duration".into())
    );
    let mut old_key = arena(json!(30));
    old_key["duration_ms"] = json!(600_000);
    assert_eq!(
        create_error(&app, alice, old_key).await,
        (StatusCode::BAD_REQUEST, "bad_json".into())
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
    let mut impasse_eleven = swiss(json!(2));
    impasse_eleven["variant"] = json!("impasse");
    impasse_eleven["openings"] = json!("eleven");
    assert_eq!(
        create_error(&app, alice, impasse_eleven).await,
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
async fn an_eleven_man_ballot_swiss_starts_each_round_from_a_ballot_of_the_list_in_american_and_pool(
) {
    let app = server().start().await;
    let sessions = players(&app).await;
    for variant in ["american", "pool"] {
        let (id, t) = started_swiss_with_openings(&app, &sessions, variant, "eleven").await;
        let n = assert_eleven_man_round(&app, &t).await;
        // the tournament's PDN names the ballot beside its position
        let pdn = text(&app, &format!("/api/tournaments/{id}/pdn")).await;
        assert!(
            pdn.contains(&format!("[Opening \"11-man ballot {n}\"]")),
            "{pdn}"
        );
    }
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

/// The ids of games 1 and 2 of the match on `board` of round 1 of tournament `t`, and its players
/// (first, second).
fn match_of(t: &Value, board: usize) -> (String, String, String, String) {
    let p = &t["pairings"][0]["pairings"][board];
    let s = |v: &Value| v.as_str().unwrap().to_string();
    (
        s(&p["games"][0]["id"]),
        s(&p["games"][1]["id"]),
        s(&p["first_name"]),
        s(&p["second_name"]),
    )
}

#[tokio::test]
async fn game_2_of_a_match_is_created_once_game_1_has_a_result_so_its_first_move_window_starts_then(
) {
    let app = server().start().await;
    let sessions = players(&app).await;
    let id = create_swiss(&app, &sessions["alice"], 3).await;
    join_all(&app, &id, &sessions).await;
    let uri = format!("/api/tournaments/{id}/start");
    let (s, t) = call(&app, Method::POST, &uri, Some(&sessions["alice"]), None).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    let (g1, g2, first, second) = match_of(&t, 0);
    let (other_g1, other_g2, ..) = match_of(&t, 1);
    // Round 1 is paired: game 1 of each match exists, game 2 not yet (nor can its seat be taken).
    for g in [&g1, &other_g1] {
        let (s, v) = get(&app, &format!("/api/games/{g}")).await;
        assert_eq!(s, StatusCode::OK, "{g}: {v}");
        assert_eq!(v["status"], "ongoing", "{v}");
    }
    for g in [&g2, &other_g2] {
        let (s, v) = get(&app, &format!("/api/games/{g}")).await;
        assert_eq!(
            s,
            StatusCode::NOT_FOUND,
            "{g} exists before game 1 ended: {v}"
        );
    }
    let seat2 = format!("/api/tournaments/{id}/games/{g2}/seat");
    let (s, v) = call(&app, Method::POST, &seat2, Some(&sessions[&second]), None).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found")),
        "{v}"
    );
    // Game 1 of board 1 ends (its first player resigns): game 2 is created, with a first-move
    // window that starts after that end; board 2's game 2 still waits for its game 1.
    let seat1 = format!("/api/tournaments/{id}/games/{g1}/seat");
    let (s, v) = call(&app, Method::POST, &seat1, Some(&sessions[&first]), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let token = v["token"].as_str().unwrap().to_string();
    let resigned_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let (s, v) = seat_post(&app, &format!("/api/games/{g1}/resign"), &token).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let game2 = loop {
        let (s, v) = get(&app, &format!("/api/games/{g2}")).await;
        if s == StatusCode::OK {
            break v;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "game 2 never created: {v}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    assert_eq!(game2["status"], "ongoing", "{game2}");
    // Game 2: the second player moves first (Black in American checkers, APCA rules 7 and 32).
    assert_eq!(
        game2["accounts"]["black"]["name"],
        second.as_str(),
        "{game2}"
    );
    let window = game2["first_move_deadline_ms"].as_u64().unwrap();
    assert!(window > resigned_ms, "{window} <= {resigned_ms}: {game2}");
    let (s, v) = call(&app, Method::POST, &seat2, Some(&sessions[&second]), None).await;
    assert_eq!(
        (s, v["color"].as_str()),
        (StatusCode::OK, Some("black")),
        "{v}"
    );
    let (s, v) = get(&app, &format!("/api/games/{other_g2}")).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
}

/// `POST /api/tournaments` with `body` by `session`: status and answer.
async fn create(app: &App, session: &str, body: Value) -> (StatusCode, Value) {
    call(
        app,
        Method::POST,
        "/api/tournaments",
        Some(session),
        Some(body),
    )
    .await
}

#[tokio::test]
async fn a_scheduled_round_robin_behind_sixty_newer_tournaments_is_listed_first_and_started() {
    // The caps off: one account floods (the caps are tested below).
    let app = server()
        .with(|c| {
            c.tournaments_per_account = 0;
            c.tournaments_per_hour_per_ip = 0;
        })
        .start()
        .await;
    let sessions = players(&app).await;
    let starts = now_ms() + 3_000;
    let body = json!({"name": "Victim RR", "variant": "american", "format": "round_robin",
                      "time_control": blitz(), "starts_ms": starts});
    let (s, v) = create(&app, &sessions["alice"], body).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let victim = v["id"].as_str().unwrap().to_string();
    for name in ["alice", "bob"] {
        let uri = format!("/api/tournaments/{victim}/join");
        let (s, v) = call(&app, Method::POST, &uri, Some(&sessions[name]), None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    // Every flood tournament is created in a later millisecond than the victim.
    let created = now_ms();
    while now_ms() <= created {
        tokio::task::yield_now().await;
    }
    for i in 0..60u64 {
        // Half start later than the victim, half only when their creator starts them.
        let mut body = json!({"name": format!("Flood {i}"), "variant": "american",
                              "format": "swiss", "rounds": 3, "time_control": blitz()});
        if i % 2 == 0 {
            body["starts_ms"] = json!(starts + 86_400_000 + i);
        }
        let (s, v) = create(&app, &sessions["carol"], body).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
    }
    let (s, v) = get(&app, "/api/tournaments").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let upcoming = v["upcoming"].as_array().unwrap();
    assert_eq!(upcoming.len(), 50, "{v}");
    assert_eq!(upcoming[0]["id"], victim.as_str(), "{v}");
    // The 30 scheduled flood ones follow by start time, then those without one.
    assert_eq!(upcoming[1]["name"], "Flood 0", "{v}");
    assert_eq!(upcoming[30]["name"], "Flood 58", "{v}");
    assert_eq!(upcoming[31]["name"], "Flood 59", "{v}");
    // The background sweep (every 2 s) starts it once its start time is reached, then pairs
    // round 1 in a second save: wait for both, not just the phase.
    let t = wait_for(&app, &victim, "started and paired by the sweeper", |t| {
        t["phase"] != "created" && (rounds_paired(t) >= 1 || t["phase"] == "finished")
    })
    .await;
    assert_eq!(t["phase"], "running", "{t}");
    assert_eq!(rounds_paired(&t), 1, "{t}");
}

#[tokio::test]
async fn an_account_has_at_most_three_open_tournaments_and_an_address_creates_five_an_hour() {
    let app = server()
        .with(|c| c.tournaments_per_hour_per_ip = 5)
        .start()
        .await;
    let sessions = players(&app).await;
    let body = |name: &str| {
        json!({"name": name, "variant": "american", "format": "swiss", "rounds": 3,
               "time_control": blitz()})
    };
    for i in 0..3 {
        let (s, v) = create(&app, &sessions["alice"], body(&format!("A{i}"))).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
    }
    let (s, v) = create(&app, &sessions["alice"], body("A3")).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert_eq!(v["error"]["code"], "too_many_tournaments", "{v}");
    // Another account may still create, until the address has created five this hour.
    let (s, v) = create(&app, &sessions["bob"], body("B0")).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let (s, v) = create(&app, &sessions["carol"], body("C0")).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert_eq!(v["error"]["code"], "tournament_rate_limited", "{v}");
    let (s, v) = get(&app, "/api/tournaments").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["upcoming"].as_array().unwrap().len(), 4, "{v}");
}

#[tokio::test]
async fn ten_wrong_join_passwords_lock_that_account_out_of_that_tournament() {
    let app = server().start().await;
    let sessions = players(&app).await;
    let body = json!({"name": "Private", "variant": "american", "format": "swiss", "rounds": 3,
                      "time_control": blitz(), "password": "open sesame"});
    let (s, v) = create(&app, &sessions["alice"], body).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let uri = format!("/api/tournaments/{}/join", v["id"].as_str().unwrap());
    let join = |who: &'static str, password: &'static str| {
        let (app, uri, session) = (app.clone(), uri.clone(), sessions[who].clone());
        async move {
            let body = json!({ "password": password });
            call(&app, Method::POST, &uri, Some(&session), Some(body)).await
        }
    };
    for i in 0..10 {
        let (s, v) = join("bob", "guess").await;
        assert_eq!(s, StatusCode::FORBIDDEN, "try {i}: {v}");
        assert_eq!(v["error"]["code"], "wrong_password", "{v}");
    }
    // The 11th try is refused before the password is looked at: even the right one.
    let (s, v) = join("bob", "open sesame").await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert_eq!(v["error"]["code"], "too_many_passwords", "{v}");
    // Counted per account: another account joins with the password.
    let (s, v) = join("carol", "open sesame").await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

#[test]
fn the_sweeper_reads_every_due_and_running_tournament_with_no_cap_on_sqlite() {
    use crown_server::store::{Durability, SqliteStore};
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("crown.db"), Durability::Normal).unwrap();
    check_due_and_open_tournaments(&store);
}

/// Two players meet once without a repeat, so a Swiss of the default 5 rounds started by its
/// creator with two players plays 1 round (its view says 1) and is then finished.
#[tokio::test]
async fn a_two_player_swiss_of_five_rounds_starts_now_and_plays_the_one_round_it_can() {
    let app = server().start().await;
    let sessions = players(&app).await;
    let id = create_swiss(&app, &sessions["alice"], 5).await;
    join(&app, &id, &sessions, &["alice", "bob"]).await;
    let (_, t) = get(&app, &format!("/api/tournaments/{id}")).await;
    assert_eq!(t["rounds"], 5, "before the start, the setting: {t}");
    let uri = format!("/api/tournaments/{id}/start");
    let (s, t) = call(&app, Method::POST, &uri, Some(&sessions["alice"]), None).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    assert_eq!(
        (t["phase"].as_str(), t["rounds"].as_u64()),
        (Some("running"), Some(1)),
        "{t}"
    );
    assert_eq!(rounds_paired(&t), 1, "{t}");
    play_round(&app, &id, &t, &sessions).await;
    let t = wait_for(&app, &id, "finished", |t| t["phase"] == "finished").await;
    assert_eq!(rounds_paired(&t), 1, "{t}");
    assert_eq!(t["cancelled"], Value::Null, "{t}");
    // alice wins both games: a match win (2 match points) and 2 + 2 game points.
    assert_eq!(standings(&t)[0], ("alice".into(), 2, 4, 0, 0), "{t}");
}

/// A scheduled Swiss of 5 rounds with two players starts at its start time with 1 round, rather
/// than waiting for ever.
#[tokio::test]
async fn a_scheduled_two_player_swiss_starts_at_its_time_with_the_rounds_it_allows() {
    let app = server().start().await;
    let sessions = players(&app).await;
    // Five seconds leave the two joins ample time on a busy machine.
    let id = create_swiss_at(&app, &sessions["alice"], 5, Some(now_ms() + 5_000)).await;
    join(&app, &id, &sessions, &["alice", "bob"]).await;
    // Started, then round 1 paired in a second save: wait for both, not just the phase.
    let t = wait_for(&app, &id, "started and paired", |t| {
        t["phase"] != "created" && (rounds_paired(t) >= 1 || t["phase"] == "finished")
    })
    .await;
    assert_eq!(
        (t["phase"].as_str(), t["rounds"].as_u64()),
        (Some("running"), Some(1)),
        "{t}"
    );
    assert_eq!(rounds_paired(&t), 1, "{t}");
}

/// A scheduled tournament that reaches its start time with fewer than 2 players is cancelled —
/// finished, no rounds, the reason in its view and in the list — not left waiting for ever.
#[tokio::test]
async fn a_scheduled_tournament_without_players_is_cancelled_at_its_start_time() {
    let app = server().start().await;
    let sessions = players(&app).await;
    let id = create_swiss_at(&app, &sessions["alice"], 5, Some(now_ms() + 200)).await;
    let t = wait_for(&app, &id, "cancelled", |t| t["phase"] != "created").await;
    assert_eq!(t["phase"], "finished", "{t}");
    assert_eq!(rounds_paired(&t), 0, "{t}");
    assert_eq!(
        t["cancelled"],
        "not started at its start time: cannot start with 0 player(s): at least 2 are needed",
        "{t}"
    );
    let (s, v) = get(&app, "/api/tournaments").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["finished"][0]["id"], id.as_str(), "{v}");
    assert_eq!(v["finished"][0]["cancelled"], t["cancelled"], "{v}");
    let join = format!("/api/tournaments/{id}/join");
    let (s, v) = call(&app, Method::POST, &join, Some(&sessions["bob"]), None).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("tournament_finished")),
        "{v}"
    );
}

#[tokio::test]
async fn a_tournament_takes_at_most_its_player_cap_and_withdrawn_places_are_reused() {
    let app = server()
        .with(|c| c.tournament_max_players = 2)
        .start()
        .await;
    common::tournaments::withdrawn_places_are_reused_and_churn_is_bounded(&app).await;
}

/// `POST /api/tournaments` with `body` by `session` from client address `from`.
async fn create_from(app: &App, session: &str, from: &str, body: Value) -> (StatusCode, Value) {
    let mut c = common::accounts::post("/api/tournaments", body);
    c.session = Some(session);
    c.from = Some(from.parse().unwrap());
    let (s, _, v) = c.send(app).await;
    (s, v)
}

#[tokio::test]
async fn one_network_has_at_most_three_upcoming_tournaments_so_it_cannot_hide_anothers() {
    // The per-account and per-address caps off: only the per-network cap is tested.
    let app = server()
        .with(|c| {
            c.tournaments_per_account = 0;
            c.tournaments_per_hour_per_ip = 0;
        })
        .start()
        .await;
    let sessions = players(&app).await;
    let starts = now_ms() + 86_400_000;
    let body = |name: &str, at: u64| {
        json!({"name": name, "variant": "american", "format": "swiss", "rounds": 3,
               "time_control": blitz(), "starts_ms": at})
    };
    // A club schedules its tournament for tomorrow from its own network.
    let (s, v) = create_from(
        &app,
        &sessions["alice"],
        "2001:db8:1::7",
        body("Club Swiss", starts),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let club = v["id"].as_str().unwrap().to_string();
    // Other /64s of one /48 (the default --signup-net-v6-prefix), and addresses of one IPv4
    // /24, each create three that start sooner; the fourth of each network is refused.
    for (net, addrs) in [
        (
            "v6",
            [
                "2001:db8:0:1::1",
                "2001:db8:0:2::1",
                "2001:db8:0:3::1",
                "2001:db8:0:4::1",
            ],
        ),
        (
            "v4",
            ["203.0.113.1", "203.0.113.2", "203.0.113.3", "203.0.113.200"],
        ),
    ] {
        for (i, from) in addrs.iter().enumerate() {
            let name = format!("Flood {net} {i}");
            let (s, v) = create_from(&app, &sessions["carol"], from, body(&name, starts - 1)).await;
            if i < 3 {
                assert_eq!(s, StatusCode::CREATED, "{v}");
            } else {
                assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
                assert_eq!(v["error"]["code"], "too_many_upcoming_tournaments", "{v}");
            }
        }
    }
    let (s, v) = get(&app, "/api/tournaments").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let upcoming: Vec<&str> = v["upcoming"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(upcoming.len(), 7, "{v}");
    assert!(upcoming.contains(&club.as_str()), "{v}");
}

#[tokio::test]
async fn one_network_makes_at_most_four_entries_in_a_tournament_withdrawn_ones_included() {
    let app = server()
        .with(|c| c.signup_per_hour_per_ip = 0)
        .start()
        .await;
    let sessions = players(&app).await;
    let id = create_swiss(&app, &sessions["alice"], 3).await;
    let mut sybils = Vec::new();
    for i in 0..5 {
        sybils.push(common::accounts::sign_up(&app, &format!("sybil{i}"), "sybil-password").await);
    }
    let from = |what: &str, session: &str, ip: [u8; 4]| {
        let (app, session) = (app.clone(), session.to_string());
        let uri = format!("/api/tournaments/{id}/{what}");
        async move {
            let mut c = common::accounts::post(&uri, Value::Null);
            c.session = Some(&session);
            c.body = None;
            c.from = Some(std::net::IpAddr::from(ip));
            let (s, _, v) = c.send(&app).await;
            (s, v)
        }
    };
    for (i, s) in sybils[..4].iter().enumerate() {
        let (status, v) = from("join", s, [203, 0, 113, 1 + i as u8]).await;
        assert_eq!(status, StatusCode::OK, "{i}: {v}");
    }
    let (status, v) = from("join", &sybils[4], [203, 0, 113, 9]).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("network_full")),
        "{v}"
    );
    // A withdrawal frees no entry of the network: another account of it stays out, and the
    // one that withdrew comes back only to its own entry.
    let (status, v) = from("withdraw", &sybils[0], [203, 0, 113, 1]).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = from("join", &sybils[4], [203, 0, 113, 9]).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("network_full")),
        "{v}"
    );
    let (status, v) = from("join", &sybils[0], [203, 0, 113, 1]).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["players_list"].as_array().unwrap().len(), 4, "{v}");
    // Another network still joins.
    let (status, v) = from("join", &sessions["bob"], [198, 51, 100, 7]).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(
        !v.to_string().contains("203.0.113"),
        "no network in the view: {v}"
    );
}

/// A running arena: a player who pauses (withdraws) is not paired and keeps their place, comes
/// back by joining again; a newcomer joins while it runs and is paired at once with the one
/// free; joining twice is `already_joined`, pausing twice `not_joined`. With only two players
/// active they meet again (as lichess's arena does).
#[tokio::test]
async fn an_arena_player_may_pause_and_come_back_and_newcomers_join_while_it_runs() {
    let app = arena_server().start().await;
    let sessions = players(&app).await;
    let id = create_arena(&app, &sessions["alice"], 60).await;
    join(&app, &id, &sessions, &["alice", "bob", "carol"]).await;
    let uri = |what: &str| format!("/api/tournaments/{id}/{what}");
    let (s, t) = call(
        &app,
        Method::POST,
        &uri("start"),
        Some(&sessions["alice"]),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{t}");
    // Three players: alice meets bob, carol waits.
    assert_eq!(arena_games(&t).len(), 1, "{t}");
    let (s, t) = call(
        &app,
        Method::POST,
        &uri("withdraw"),
        Some(&sessions["carol"]),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{t}");
    let paused = |t: &Value, who: &str| {
        t["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["name"] == who)
            .unwrap()["paused"]
            .clone()
    };
    assert_eq!(paused(&t, "carol"), true, "{t}");
    let (s, v) = call(
        &app,
        Method::POST,
        &uri("withdraw"),
        Some(&sessions["carol"]),
        None,
    )
    .await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("not_joined"))
    );
    // alice beats bob: carol is paused, so the two active players meet again.
    assert_eq!(
        end_arena_game(&app, &id, 1, Some("alice"), &sessions).await,
        StatusCode::OK
    );
    let t = wait_for(&app, &id, "game 2", |t| arena_games(t).len() == 2).await;
    assert_eq!(
        arena_games(&t)[1],
        ("bob".to_string(), "alice".to_string(), None),
        "{t}"
    );
    // carol comes back: nobody is free to meet her yet.
    let (s, t) = call(
        &app,
        Method::POST,
        &uri("join"),
        Some(&sessions["carol"]),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{t}");
    assert_eq!(paused(&t, "carol"), false, "{t}");
    assert_eq!(arena_games(&t).len(), 2, "{t}");
    let (s, v) = call(
        &app,
        Method::POST,
        &uri("join"),
        Some(&sessions["carol"]),
        None,
    )
    .await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("already_joined"))
    );
    // dave joins while it runs: paired at once with carol, the one free (carol first: she
    // joined before him, and both have the same rating).
    let (s, t) = call(
        &app,
        Method::POST,
        &uri("join"),
        Some(&sessions["dave"]),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{t}");
    assert_eq!(
        arena_games(&t)[2..],
        [("carol".to_string(), "dave".to_string(), None)],
        "{t}"
    );
    let scores: Vec<(String, u64)> = arena_standings(&t)
        .into_iter()
        .map(|l| (l.0, l.1))
        .collect();
    assert_eq!(
        scores,
        [("alice", 2), ("bob", 0), ("carol", 0), ("dave", 0)].map(|(n, p)| (n.to_string(), p)),
        "{t}"
    );
}

/// A running arena survives a restart: the new server, advancing it again and again, pairs
/// nobody twice, and goes on pairing as games end.
#[tokio::test]
async fn a_running_arena_survives_a_restart_and_pairs_nobody_twice() {
    use crown_server::store::{Durability, SqliteStore};
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crown.db");
    let open = || Arc::new(SqliteStore::open(&path, Durability::Normal).unwrap());
    let app1 = arena_server().store(open()).start().await;
    let sessions = players(&app1).await;
    let id = create_arena(&app1, &sessions["alice"], 60).await;
    join_all(&app1, &id, &sessions).await;
    let uri = format!("/api/tournaments/{id}/start");
    let (s, t) = call(&app1, Method::POST, &uri, Some(&sessions["alice"]), None).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    assert_eq!(
        end_arena_game(&app1, &id, 1, Some("alice"), &sessions).await,
        StatusCode::OK
    );
    assert_eq!(
        end_arena_game(&app1, &id, 2, None, &sessions).await,
        StatusCode::OK
    );
    let t = wait_for(&app1, &id, "games 3 and 4", |t| arena_games(t).len() == 4).await;
    app1.shutdown();
    drop(app1);

    let app2 = arena_server().store(open()).start().await;
    race_advance(std::slice::from_ref(&app2), &id).await;
    let (s, again) = get(&app2, &format!("/api/tournaments/{id}")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        again["games"], t["games"],
        "the restart changed the pairings"
    );
    // Game 3 (alice–carol) ends: alice waits (carol was her last opponent); game 4 (dave–bob)
    // ends: two new games, no more.
    assert_eq!(
        end_arena_game(&app2, &id, 3, Some("alice"), &sessions).await,
        StatusCode::OK
    );
    assert_eq!(
        end_arena_game(&app2, &id, 4, Some("bob"), &sessions).await,
        StatusCode::OK
    );
    let t = wait_for(&app2, &id, "games 5 and 6", |t| arena_games(t).len() == 6).await;
    race_advance(std::slice::from_ref(&app2), &id).await;
    let (_, again) = get(&app2, &format!("/api/tournaments/{id}")).await;
    assert_eq!(again["games"], t["games"], "{again}");
}

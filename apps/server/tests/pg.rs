//! `PgStore` against a real PostgreSQL: the harness runs Debian's `initdb` and `pg_ctl`
//! (`/usr/lib/postgresql/*/bin`) in a temporary directory on a free port, as the `postgres` user
//! when run as root (initdb refuses root). Skipped, saying so, when PostgreSQL is not installed.

mod common;
use axum::http::{Method, StatusCode};
use common::pg::Pg;
use common::{send, server};
use crown_server::store::fixture::GameRecordBuilder;
use crown_server::store::pg::PgStore;
use crown_server::store::{GameRecord, LeaseStore, MoveRecord, Store, StoreError};
use serde_json::json;
use std::sync::atomic::Ordering;
use std::sync::Arc;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_survive_a_restart_on_postgresql() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let url = pg.url();
    let store: Arc<dyn Store> = Arc::new(
        tokio::task::spawn_blocking(move || PgStore::connect(&url))
            .await
            .unwrap()
            .unwrap(),
    );
    let app = server().store(store.clone()).start().await;
    let (s, created) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let black = created["token"].as_str().unwrap().to_string();
    // A private open game stays out of the list.
    let (_, list) = send(&app, Method::GET, "/api/games?status=open", None, None).await;
    assert_eq!(list["games"], json!([]));
    let (s, joined) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let white = joined["token"].as_str().unwrap().to_string();
    let uri = format!("/api/games/{id}/moves");
    for (t, m, ply) in [(&black, "11-15", 0), (&white, "23-19", 1)] {
        let (s, v) = send(
            &app,
            Method::POST,
            &uri,
            Some(t),
            Some(json!({"move": m, "ply": ply})),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    app.shutdown();
    // A second server on the same database resumes the game and finishes a move.
    let app2 = server().store(store.clone()).start().await;
    let (s, v) = send(
        &app2,
        Method::POST,
        &uri,
        Some(&black),
        Some(json!({"move": "8-11", "ply": 2})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["moves"], json!(["11-15", "23-19", "8-11"]));
    // Private (link-only), so still out of the list once ongoing; its link shows the 3 plies.
    let (_, list) = send(&app2, Method::GET, "/api/games?status=ongoing", None, None).await;
    assert_eq!(list["games"], json!([]), "{list}");
    let (s, v) = send(&app2, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["moves"], json!(["11-15", "23-19", "8-11"]), "{v}");
    // A save from a stale copy is a conflict and writes nothing.
    let s2 = store.clone();
    let id2 = id.clone();
    tokio::task::spawn_blocking(move || {
        let mut rec = s2.load(&id2).unwrap().unwrap();
        rec.version -= 1;
        rec.status = "finished".into();
        assert!(matches!(s2.save(&mut rec, 0), Err(StoreError::Conflict(_))));
        assert_eq!(s2.load(&id2).unwrap().unwrap().status, "ongoing");
        assert!(s2.last_heartbeat().unwrap().is_some());
    })
    .await
    .unwrap();
    app2.shutdown();
}

/// A two-seat game record at version 0 with no moves.
fn record(id: &str) -> GameRecord {
    GameRecordBuilder::new(id).build()
}

/// `GET /api/games`' rule in the PostgreSQL store: only public and rated games are listed, in
/// every status (docs/api.md); a private casual game only by its id.
#[test]
fn the_list_holds_only_public_and_rated_games_on_postgresql() {
    let Some(pg) = Pg::start_or_skip() else {
        return;
    };
    let store = PgStore::connect(&pg.url()).unwrap();
    let game = |id: &str, status: &str, public: bool, rated: bool, updated_ms: u64| {
        let mut rec = record(id);
        rec.status = status.into();
        rec.meta.public = public;
        rec.meta.rated = rated;
        rec.updated_ms = updated_ms;
        if id == "public_fin" || id == "rated_fin" {
            for text in ["11-15", "23-19"] {
                rec.moves.push(MoveRecord {
                    text: text.into(),
                    at_ms: 2,
                });
            }
        }
        rec
    };
    for rec in [
        game("private_fin", "finished", false, false, 10),
        game("public_fin", "finished", true, false, 11),
        game("rated_fin", "finished", false, true, 12),
        // Ended before both sides moved: unrated, so (not public) not listed.
        game("rated_early", "finished", false, true, 12),
        game("private_on", "ongoing", false, false, 13),
        game("private_open", "open", false, false, 14),
        game("public_ab", "aborted", true, false, 15),
        game("private_ab", "aborted", false, false, 16),
    ] {
        store.create(&rec).unwrap();
    }
    let ids = |status: Option<&str>| -> Vec<String> {
        let list = store.list(status, 50).unwrap();
        list.into_iter().map(|g| g.id).collect()
    };
    // Newest change first.
    assert_eq!(ids(Some("finished")), ["rated_fin", "public_fin"]);
    assert_eq!(ids(Some("ongoing")), Vec::<String>::new());
    assert_eq!(ids(Some("open")), Vec::<String>::new());
    assert_eq!(ids(Some("aborted")), ["public_ab"]);
    assert_eq!(ids(None), ["public_ab", "rated_fin", "public_fin"]);
    let public = store.list(Some("finished"), 50).unwrap();
    assert_eq!(public[1].plies, 2, "{public:?}");
    assert_eq!(
        (public[0].rated, public[1].rated),
        (true, false),
        "{public:?}"
    );
    // The private ones are still there, by their id.
    assert_eq!(
        store.load("private_fin").unwrap().unwrap().status,
        "finished"
    );
}

#[test]
fn a_batch_commits_each_game_whose_version_matches_and_announces_its_state() {
    let Some(pg) = Pg::start_or_skip() else {
        return;
    };
    let store = PgStore::connect(&pg.url()).unwrap();
    let mut changes = store.changes().unwrap();
    for id in ["good", "stale", "big"] {
        store.create(&record(id)).unwrap();
    }
    let mut good = store.load("good").unwrap().unwrap();
    let before = good.clone();
    let mut stale = store.load("stale").unwrap().unwrap();
    for rec in [&mut good, &mut stale] {
        rec.moves.push(MoveRecord {
            text: "11-15".into(),
            at_ms: 7,
        });
        rec.updated_ms = 7;
    }
    // Another writer moved "stale" on since it was read.
    stale.version += 1;
    let commits = store.stats().commits.load(Ordering::SeqCst);
    let out = store.save_batch(&mut [(&mut good, 0), (&mut stale, 0)]);
    assert_eq!(store.stats().commits.load(Ordering::SeqCst), commits + 1);
    assert!(out[0].is_ok(), "{:?}", out[0]);
    assert!(
        matches!(&out[1], Err(StoreError::Conflict(id)) if id == "stale"),
        "{:?}",
        out[1]
    );
    assert_eq!(good.version, 1);
    assert_eq!(stale.version, 1, "a conflicting save keeps its version");
    let stored = store.load("good").unwrap().unwrap();
    assert_eq!(stored, good);
    let untouched = store.load("stale").unwrap().unwrap();
    assert_eq!((untouched.version, untouched.moves.len()), (0, 0));

    // A change too big for a notification (8000 bytes) is announced without its state.
    let mut big = store.load("big").unwrap().unwrap();
    big.meta.names.black = Some("x".repeat(9000));
    store.save(&mut big, 0).unwrap();

    // The listener hears "good" with what the save wrote (nothing of "stale"), then "big".
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let mut next = || {
        rt.block_on(async {
            tokio::time::timeout(std::time::Duration::from_secs(10), changes.recv()).await
        })
        .expect("a notification within 10 s")
        .expect("the listener is running")
    };
    let change = next();
    assert_eq!((change.id.as_str(), change.version), ("good", 1));
    let state = change.state.expect("the state fits in the notification");
    assert_eq!(state.apply_to(&before, change.version), Some(stored));
    let change = next();
    assert_eq!((change.id.as_str(), change.version), ("big", 1));
    assert!(change.state.is_none());
}

/// A store handed out by `connect` already listens: a change committed the moment it returns (by
/// another connection) is announced, with no wait for a listener thread to start.
#[test]
fn a_store_listens_before_connect_returns() {
    let Some(pg) = Pg::start_or_skip() else {
        return;
    };
    let writer = PgStore::connect(&pg.url()).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    for round in 0..5 {
        let store = PgStore::connect(&pg.url()).unwrap();
        assert_eq!(
            store.listening(),
            Some(1),
            "round {round}: listening when connect returns"
        );
        let mut changes = store.changes().unwrap();
        let id = format!("at-once-{round}");
        writer.create(&record(&id)).unwrap();
        let mut rec = writer.load(&id).unwrap().unwrap();
        rec.updated_ms = 9;
        writer.save(&mut rec, 0).unwrap();
        let change = rt
            .block_on(async {
                tokio::time::timeout(std::time::Duration::from_secs(60), changes.recv()).await
            })
            .expect("a notification within 60 s")
            .expect("the listener is running");
        assert_eq!((change.id.as_str(), change.version), (id.as_str(), 1));
    }
}

/// Issue 23, PostgreSQL restart at scale: the only instance dies holding the leases of more games
/// than one lease batch (1,000) with Black's clock running in each, its last heartbeat at its
/// death; a new instance starts after the outage, takes every game over exactly once (each game's
/// version goes up by one: one clock credit, never two, as when a round ran so long that its own
/// leases lapsed and were taken over again), holds every lease, and credits each clock from the
/// last heartbeat to the instant the new instance answers (issue 41: nobody could play then), so
/// Black is charged the time before the death and nothing of the outage (at most a fifth of a
/// lease, a few milliseconds in fact, of the instance's own start).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_instance_after_an_outage_takes_over_every_game_once_crediting_only_the_outage() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    const GAMES: usize = 2500;
    const LEASE: u64 = 1500;
    let url = pg.url();
    let store: Arc<dyn Store> = {
        let url = url.clone();
        Arc::new(
            tokio::task::spawn_blocking(move || PgStore::connect(&url))
                .await
                .unwrap()
                .unwrap(),
        )
    };
    // The dead instance's games: two moves played, Black to move with 60 s left, its turn started
    // one second before the death; the dead instance's leases end LEASE after it, its last
    // heartbeat is at its death.
    let death = crown_server::live::now_ms();
    let expiry = death + LEASE;
    let ids: Vec<String> = (0..GAMES).map(|i| format!("dead{i:05}")).collect();
    {
        let (store, ids) = (store.clone(), ids.clone());
        tokio::task::spawn_blocking(move || {
            for id in &ids {
                let mut rec = record(id);
                rec.meta.time_control = Some(crown_server::store::TimeControl {
                    initial_ms: 60_000,
                    increment_ms: 0,
                });
                rec.meta.clock_ms = [60_000, 60_000];
                rec.meta.turn_started_ms = death - 1000;
                rec.moves = ["11-15", "23-19"]
                    .iter()
                    .map(|t| MoveRecord {
                        text: (*t).into(),
                        at_ms: death - 1000,
                    })
                    .collect();
                store.create(&rec).unwrap();
                assert!(store
                    .leases()
                    .unwrap()
                    .claim_lease(id, "dead-instance", expiry)
                    .unwrap());
            }
        })
        .await
        .unwrap();
    }
    let before: std::collections::HashMap<String, (u64, u64)> = {
        let (store, ids) = (store.clone(), ids.clone());
        tokio::task::spawn_blocking(move || store.load_many(&ids).unwrap())
            .await
            .unwrap()
            .into_iter()
            .map(|r| (r.id.clone(), (r.version, r.meta.turn_started_ms)))
            .collect()
    };
    assert_eq!(before.len(), GAMES);
    {
        let store = store.clone();
        tokio::task::spawn_blocking(move || store.heartbeat(death).unwrap())
            .await
            .unwrap();
    }
    // The new instance starts once the dead one's leases have expired and the heartbeat is old
    // enough to show that every instance is down.
    let outage_seen = death + crown_server::cluster::OUTAGE_AFTER_MS;
    while crown_server::live::now_ms() <= expiry.max(outage_seen) + 100 {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let started = crown_server::live::now_ms();
    let app = server()
        .with(|c| c.lease_ms = LEASE)
        .store(store.clone())
        .start()
        .await;
    // From here on the instance answers: a player who could not move before is charged until now.
    let answered = crown_server::live::now_ms();
    let leases = |url: String| {
        tokio::task::spawn_blocking(move || {
            let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            let rows = c
                .query(
                    "SELECT owner, count(*), min(expires_ms) FROM leases GROUP BY owner",
                    &[],
                )
                .unwrap();
            rows.iter()
                .map(|r| {
                    (
                        r.get::<_, String>(0),
                        r.get::<_, i64>(1),
                        r.get::<_, i64>(2),
                    )
                })
                .collect::<Vec<_>>()
        })
    };
    // Wait (at most 120 s) until one live instance holds every lease.
    let end = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let owner = loop {
        let l = leases(url.clone()).await.unwrap();
        if let [(owner, n, _)] = &l[..] {
            if owner != "dead-instance" && *n == GAMES as i64 {
                break owner.clone();
            }
        }
        assert!(std::time::Instant::now() < end, "leases after 120 s: {l:?}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    // Then until every credit is saved (the instance answers first and saves them meanwhile)...
    loop {
        let url = url.clone();
        let unsaved = tokio::task::spawn_blocking(move || {
            let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            c.query_one("SELECT count(*) FROM games WHERE version = 0", &[])
                .unwrap()
                .get::<_, i64>(0)
        })
        .await
        .unwrap();
        if unsaved == 0 {
            break;
        }
        assert!(
            std::time::Instant::now() < end,
            "{unsaved} credits not saved after 120 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // ...and every lease was renewed after the whole takeover (two lease times on): a lease
    // that had lapsed meanwhile would have been taken over a second time by now.
    let done = crown_server::live::now_ms();
    loop {
        let l = leases(url.clone()).await.unwrap();
        assert_eq!(l.len(), 1, "{l:?}");
        assert_eq!(l[0].0, owner);
        if l[0].2 as u64 > done + 2 * LEASE {
            break;
        }
        assert!(std::time::Instant::now() < end, "leases not renewed: {l:?}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let after = {
        let (store, ids) = (store.clone(), ids.clone());
        tokio::task::spawn_blocking(move || store.load_many(&ids).unwrap())
            .await
            .unwrap()
    };
    assert_eq!(after.len(), GAMES);
    for rec in after {
        let (version, turn_started) = before[&rec.id];
        assert_eq!(
            rec.version,
            version + 1,
            "{}: one takeover, one credit",
            rec.id
        );
        let credit = rec.meta.turn_started_ms - turn_started;
        // Credited from the last heartbeat (the death) to the instant the new instance answers,
        // which came after its start and before `start` returned.
        assert!(
            credit >= started - death,
            "{}: credited {credit} ms, the outage until the start was {} ms",
            rec.id,
            started - death
        );
        assert!(
            credit <= answered - death,
            "{}: credited {credit} ms, more than the outage ({} ms)",
            rec.id,
            answered - death
        );
        // Exact: Black's clock ran from its turn's start to the death (the documented limit),
        // then again from the credited instant; whatever of that came before the instance
        // answered counts too (Black could not move then). Beyond the limit: at most a few
        // milliseconds of the instance's start.
        let limit = death - turn_started;
        let resumed = turn_started + limit + credit;
        let charged = resumed.max(answered) - rec.meta.turn_started_ms;
        assert!(
            charged <= limit + LEASE / 5,
            "{}: charged {charged} ms for the outage, the limit is {limit} ms",
            rec.id
        );
        assert_eq!(rec.meta.clock_ms, [60_000, 60_000]);
    }
    app.shutdown();
}

/// Issue 23, the takeover by a running instance: an instance that answers all along takes over
/// the games of one that dies holding more leases than one lease batch (1,000), over several
/// lease rounds; it holds every lease, and no clock is credited (issue 41: Black could move on
/// the running instance throughout, so the takeover changes no game: each is still at version
/// 0 with its turn's start unchanged, and Black is charged exactly the real time).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_instance_takes_over_a_dead_ones_games_over_several_rounds_crediting_nothing() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    const GAMES: usize = 1500;
    const LEASE: u64 = 1500;
    let url = pg.url();
    let store: Arc<dyn Store> = {
        let url = url.clone();
        Arc::new(
            tokio::task::spawn_blocking(move || PgStore::connect(&url))
                .await
                .unwrap()
                .unwrap(),
        )
    };
    let app = server()
        .with(|c| c.lease_ms = LEASE)
        .store(store.clone())
        .start()
        .await;
    // The dead instance's games, Black to move; their leases run a day until the death below.
    let turn_started = crown_server::live::now_ms();
    let ids: Vec<String> = (0..GAMES).map(|i| format!("gone{i:05}")).collect();
    {
        let (store, ids) = (store.clone(), ids.clone());
        tokio::task::spawn_blocking(move || {
            for id in &ids {
                let mut rec = record(id);
                rec.meta.time_control = Some(crown_server::store::TimeControl {
                    initial_ms: 600_000,
                    increment_ms: 0,
                });
                rec.meta.clock_ms = [600_000, 600_000];
                rec.meta.turn_started_ms = turn_started;
                // Younger than a lease: not adopted by the running instance before its lease.
                rec.created_ms = crown_server::live::now_ms();
                rec.moves = ["11-15", "23-19"]
                    .iter()
                    .map(|t| MoveRecord {
                        text: (*t).into(),
                        at_ms: turn_started,
                    })
                    .collect();
                store.create(&rec).unwrap();
                let until = crown_server::live::now_ms() + 86_400_000;
                assert!(store
                    .leases()
                    .unwrap()
                    .claim_lease(id, "dead-instance", until)
                    .unwrap());
            }
        })
        .await
        .unwrap();
    }
    // It dies now, its last renewal just before: its leases end one lease time on.
    let expiry = {
        let url = url.clone();
        tokio::task::spawn_blocking(move || {
            let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            let expiry = (crown_server::live::now_ms() + LEASE) as i64;
            c.execute(
                "UPDATE leases SET expires_ms = $1 WHERE owner = 'dead-instance'",
                &[&expiry],
            )
            .unwrap();
            expiry as u64
        })
        .await
        .unwrap()
    };
    let query = |sql: &'static str| {
        let url = url.clone();
        tokio::task::spawn_blocking(move || {
            let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            c.query_one(sql, &[]).unwrap().get::<_, i64>(0)
        })
    };
    // Wait (at most 120 s) until every game was taken over...
    let end = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let left = query("SELECT count(*) FROM leases WHERE owner = 'dead-instance'")
            .await
            .unwrap();
        if left == 0 {
            break;
        }
        assert!(
            std::time::Instant::now() < end,
            "{left} games not taken over"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // ...and two lease times more, in which a lapsed lease would be taken over again.
    let done = crown_server::live::now_ms();
    loop {
        let renewed = query("SELECT min(expires_ms) FROM leases WHERE owner <> 'dead-instance'")
            .await
            .unwrap();
        if renewed as u64 > done + 2 * LEASE {
            break;
        }
        assert!(std::time::Instant::now() < end, "leases not renewed");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(
        query("SELECT count(*) FROM leases WHERE owner = 'dead-instance'")
            .await
            .unwrap(),
        0
    );
    let checked = crown_server::live::now_ms();
    let after = {
        let (store, ids) = (store.clone(), ids.clone());
        tokio::task::spawn_blocking(move || store.load_many(&ids).unwrap())
            .await
            .unwrap()
    };
    assert_eq!(after.len(), GAMES);
    assert!(checked > expiry);
    for rec in after {
        assert_eq!(rec.version, 0, "{}: a takeover changes no game", rec.id);
        assert_eq!(
            rec.meta.turn_started_ms, turn_started,
            "{}: Black's clock was credited",
            rec.id
        );
        assert_eq!(rec.meta.clock_ms, [600_000, 600_000]);
    }
    app.shutdown();
}

#[test]
fn only_empty_games_and_short_unrated_games_are_purged_on_postgresql() {
    let Some(pg) = Pg::start_or_skip() else {
        return;
    };
    let store = PgStore::connect(&pg.url()).unwrap();
    common::check_purge_unstarted(&store);
}

#[test]
fn the_lists_read_the_listed_index_and_the_purge_the_short_one_on_postgresql() {
    // Issue 41 (fourth review, 2): with 100,000 unlisted games finished today `GET /api/tv`
    // took 7-8 s (`games_updated` walked, every row's JSON filtered); the lists read the partial
    // index of the listed rows, in their order, and the purge the index of short games over.
    let Some(pg) = Pg::start_or_skip() else {
        return;
    };
    let _store = PgStore::connect(&pg.url()).unwrap();
    let psql = |sql: &str| {
        let out = pg
            .client("psql")
            .args(["-At", "-d", &pg.url(), "-c"])
            .arg(sql)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // 5,000 long unlisted games finished (as a flood of casual games leaves them).
    psql(
        "INSERT INTO games (id, variant, start_fen, status, result, meta, plies, created_ms,
                            updated_ms, version, listed)
         SELECT 'f' || i, 'american', '', 'finished', '1-0', '{}', 40, i, i, 1, 0
         FROM generate_series(1, 5000) i;
         ANALYZE games;",
    );
    let listed = psql(
        "EXPLAIN SELECT id FROM games WHERE listed = 1 AND status = 'finished'
         AND updated_ms >= 0 ORDER BY updated_ms DESC, id LIMIT 200",
    );
    assert!(listed.contains("Scan using games_listed"), "{listed}");
    assert!(!listed.contains("Sort"), "{listed}");
    let purge = psql(
        "EXPLAIN SELECT id FROM games WHERE status IN ('finished', 'aborted')
         AND plies < GREATEST(2::BIGINT, 10::BIGINT) AND updated_ms < 100000
         AND ((plies < 2 AND result IS NULL) OR (plies < 10 AND listed = 0)) LIMIT 100",
    );
    assert!(purge.contains("games_ended_short"), "{purge}");
}

#[test]
fn an_accounts_unfinished_games_are_found_by_the_seat_indexes_on_postgresql() {
    // Issue 41 (third review, A): the event stream's and `/api/me/turns`'s queries read every
    // unfinished game's JSON (a sequential scan); the seats' account ids are now indexed.
    let Some(pg) = Pg::start_or_skip() else {
        return;
    };
    let store = PgStore::connect(&pg.url()).unwrap();
    let seat = |c: &str| format!("(meta::jsonb -> 'accounts' -> '{c}' ->> 'user_id')");
    let (black, white) = (seat("black"), seat("white"));
    for status in [
        "status || '' IN ('open', 'ongoing')",
        "status || '' = 'ongoing'",
    ] {
        let out = pg
            .client("psql")
            .args(["-At", "-d", &pg.url(), "-c"])
            .arg(format!(
                "SET enable_seqscan = off; EXPLAIN SELECT id FROM games WHERE {status}
                 AND ({black} = 'u1' OR {white} = 'u1')"
            ))
            .output()
            .unwrap();
        let plan = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        for index in ["games_seat_black", "games_seat_white"] {
            assert!(plan.contains(index), "{plan}");
        }
    }
    // And the store's queries answer: u1's unfinished games, the ongoing ones for the turns.
    let account = |u: &str| {
        Some(crown_server::store::SeatAccount {
            user_id: u.into(),
            name: u.into(),
            bot: false,
        })
    };
    for (id, status, b, w) in [
        ("00000000000000c1", "open", "u1", "u2"),
        ("00000000000000c2", "ongoing", "u3", "u1"),
        ("00000000000000c3", "ongoing", "u2", "u3"),
        ("00000000000000c4", "finished", "u1", "u3"),
    ] {
        let mut rec = GameRecordBuilder::new(id).build();
        rec.status = status.into();
        rec.meta.accounts.black = account(b);
        rec.meta.accounts.white = account(w);
        store.create(&rec).unwrap();
    }
    use crown_server::store::TokenStore;
    assert_eq!(
        store.games_of("u1", 10).unwrap(),
        ["00000000000000c1", "00000000000000c2"]
    );
    assert_eq!(store.ongoing_of("u1", 10).unwrap(), ["00000000000000c2"]);
}

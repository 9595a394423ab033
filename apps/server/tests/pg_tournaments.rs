//! Tournaments on PostgreSQL with two instances on one database (store/pg/tournaments.rs,
//! docs/scaling.md "Tournaments"): a 4-player Swiss of 3 rounds played through both instances,
//! each round's end advanced by both instances many times at once, paired exactly once: the same
//! three rounds seen from both, every pair met once, and the hand-computed standings. Starts its
//! own PostgreSQL (tests/common/pg.rs); skipped, saying so, when PostgreSQL is not installed.

mod common;
use axum::http::{Method, StatusCode};
use common::pg::Pg;
use common::server;
use common::tournaments::*;
use crown_server::store::pg::PgStore;
use crown_server::store::Store;
use std::sync::Arc;

/// A new [`PgStore`] on `url` (connected on a blocking thread).
async fn store(url: &str) -> Arc<dyn Store> {
    let url = url.to_string();
    Arc::new(
        tokio::task::spawn_blocking(move || PgStore::connect(&url))
            .await
            .unwrap()
            .unwrap(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_racing_never_pair_a_round_twice() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let a = server().store(store(&pg.url()).await).start().await;
    let b = server().store(store(&pg.url()).await).start().await;
    let sessions = players(&a).await;
    let id = create_swiss(&a, &sessions["alice"], 3).await;
    // Joined and started through the other instance.
    join_all(&b, &id, &sessions).await;
    let uri = format!("/api/tournaments/{id}/start");
    let (s, t) = call(&b, Method::POST, &uri, Some(&sessions["alice"]), None).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    let mut t = t;
    for round in 1..=3usize {
        let (here, there) = if round % 2 == 1 { (&a, &b) } else { (&b, &a) };
        play_round(here, &id, &t, &sessions).await;
        // Every game of the round has ended: both instances advance the tournament, four
        // times each, all at once.
        let racers = (0..8).map(|i| {
            let app = if i % 2 == 0 { a.clone() } else { b.clone() };
            let id = id.clone();
            tokio::spawn(async move { app.tournaments().advance(&id).await.map(|_| ()) })
        });
        for r in futures_util::future::join_all(racers).await {
            r.unwrap()
                .unwrap_or_else(|e| panic!("advancing failed: {e}"));
        }
        t = wait_for(there, &id, "the next round", |t| {
            rounds_paired(t) > round || t["phase"] == "finished"
        })
        .await;
        let (_, seen) = get(here, &format!("/api/tournaments/{id}")).await;
        assert_eq!(seen["pairings"], t["pairings"], "the instances disagree");
        assert_eq!(rounds_paired(&t), (round + 1).min(3), "{t}");
    }
    let t = wait_for(&a, &id, "finished", |t| t["phase"] == "finished").await;
    assert_eq!(rounds_paired(&t), 3, "{t}");
    assert_eq!(standings(&t), expected(), "{t}");
    let mut met = std::collections::HashSet::new();
    for r in t["pairings"].as_array().unwrap() {
        assert_eq!(r["pairings"].as_array().unwrap().len(), 2, "{t}");
        for p in r["pairings"].as_array().unwrap() {
            let mut pair = [p["first"].as_u64().unwrap(), p["second"].as_u64().unwrap()];
            pair.sort_unstable();
            assert!(met.insert(pair), "{pair:?} met twice: {t}");
        }
    }
    let pdn = text(&b, &format!("/api/tournaments/{id}/pdn")).await;
    assert_eq!(pdn.matches("[Event \"Club Swiss\"]").count(), 12, "{pdn}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_eleven_man_ballot_swiss_made_on_one_instance_is_read_alike_on_the_other() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let a = server().store(store(&pg.url()).await).start().await;
    let b = server().store(store(&pg.url()).await).start().await;
    let sessions = players(&a).await;
    let (id, t) = started_swiss_with_openings(&a, &sessions, "american", "eleven").await;
    let (s, seen) = get(&b, &format!("/api/tournaments/{id}")).await;
    assert_eq!(s, StatusCode::OK, "{seen}");
    assert_eq!(seen["openings"], "eleven");
    assert_eq!(seen["pairings"], t["pairings"], "the instances disagree");
    let n = assert_eleven_man_round(&b, &seen).await;
    let pdn = text(&b, &format!("/api/tournaments/{id}/pdn")).await;
    assert!(
        pdn.contains(&format!("[Opening \"11-man ballot {n}\"]")),
        "{pdn}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sweeper_reads_every_due_and_running_tournament_with_no_cap_on_postgres() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let s = store(&pg.url()).await;
    tokio::task::spawn_blocking(move || check_due_and_open_tournaments(s.as_ref()))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_made_before_the_cap_columns_gets_them_filled_from_the_json() {
    use crown_server::store::fixture::GameRecordBuilder;
    use crown_server::store::SeatAccount;
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let url = pg.url();
    let first = store(&url).await;
    // Games an older version wrote: rated ones being played between u1 and u2 (either
    // colour), a finished one, an unrated one, and one between u1 and u3.
    let game = |id: &str, status: &str, b: &str, w: &str| {
        let mut rec = GameRecordBuilder::new(id)
            .time_control(180_000, 2_000)
            .build();
        rec.status = status.into();
        rec.meta.rated = true;
        let account = |u: &str| {
            Some(SeatAccount {
                user_id: u.into(),
                name: u.into(),
                bot: false,
            })
        };
        rec.meta.accounts.black = account(b);
        rec.meta.accounts.white = account(w);
        rec
    };
    let mut unrated = game("g5", "ongoing", "u1", "u2");
    unrated.meta.unrated = Some("pair_limit".into());
    let games = [
        game("g1", "ongoing", "u2", "u1"),
        game("g2", "open", "u1", "u2"),
        game("g3", "finished", "u1", "u2"),
        game("g4", "ongoing", "u1", "u3"),
        unrated,
    ];
    tokio::task::spawn_blocking({
        let url = url.clone();
        move || {
            for g in &games {
                first.create(g).unwrap();
            }
            drop(first);
            let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            c.batch_execute(
                "DROP INDEX games_rated_pair; DROP INDEX tournaments_creator;
                 ALTER TABLE games DROP COLUMN rated_pair;
                 ALTER TABLE tournaments DROP COLUMN creator;",
            )
            .unwrap();
            for (id, phase, creator) in [
                ("t1", "created", "u1"),
                ("t2", "running", "u1"),
                ("t3", "finished", "u1"),
                ("t4", "created", "u2"),
            ] {
                let state = format!(r#"{{"creator":{{"user_id":"{creator}","name":"x"}}}}"#);
                c.execute(
                    "INSERT INTO tournaments (id, phase, starts_ms, created_ms, updated_ms, state,
                     version) VALUES ($1, $2, 0, 1, 1, $3, 1)",
                    &[&id, &phase, &state],
                )
                .unwrap();
            }
        }
    })
    .await
    .unwrap();
    for _ in 0..2 {
        // Twice: the second start finds the columns filled and changes nothing.
        let s = store(&url).await;
        tokio::task::spawn_blocking(move || {
            let t = s.tournaments().unwrap();
            let by = |c: &str| t.open_tournaments_by(c).unwrap();
            assert_eq!((by("u1"), by("u2"), by("u3")), (2, 1, 0));
            let r = s.ratings().unwrap();
            let recent = |a: &str, b: &str| r.pair_history(a, b, 0).unwrap().recent_rated;
            assert_eq!((recent("u1", "u2"), recent("u2", "u1")), (2, 2));
            assert_eq!((recent("u3", "u1"), recent("u2", "u3")), (1, 0));
        })
        .await
        .unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_takes_at_most_its_player_cap_and_withdrawn_places_are_reused() {
    // As tests/tournaments.rs checks it on SQLite.
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let app = server()
        .with(|c| c.tournament_max_players = 2)
        .store(store(&pg.url()).await)
        .start()
        .await;
    withdrawn_places_are_reused_and_churn_is_bounded(&app).await;
    app.shutdown();
}

//! Ratings on PostgreSQL (store/pg/ratings.rs) with two instances on one database: a rated game
//! ended on both instances at once is rated once, two games of one player ending at once on two
//! instances both count (no lost update), and every instance reads the ratings, the leaderboard
//! and the archive. Starts its own PostgreSQL (tests/common/pg.rs); skipped, saying so, when
//! PostgreSQL is not installed.

mod common;
use axum::http::StatusCode;
use common::accounts::sign_up;
use common::pg::{store, Pg};
use common::ratings::{
    act, blitz_rating, farm, game, get, get_text, joined_at_once, leaderboard_names,
    new_players_game, played_game, sign_up_from,
};
use common::server;
use serde_json::json;

/// Rank every rating on the leaderboard, provisional ones and those of a single game included
/// (the defaults show established ratings only): for `server().with(any_rating_ranks)`.
fn any_rating_ranks(c: &mut crown_server::Config) {
    c.leaderboard_min_games = 0;
    c.leaderboard_min_opponents = 0;
    c.leaderboard_max_deviation = 1000.0;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rated_games_are_rated_once_across_two_instances() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let a = server().store(store(&pg.url()).await).start().await;
    // The leaderboard below ranks every rating (not only the established ones).
    let b = server()
        .with(any_rating_ranks)
        .store(store(&pg.url()).await)
        .start()
        .await;
    let alice = sign_up(&a, "alice", "password-a").await;
    let bob = sign_up(&a, "bob", "password-b").await;
    let carol = sign_up(&b, "carol", "password-c").await;

    // Both players resign at once, one through each instance: one resignation wins.
    let g = game(&a, Some(&alice), Some(&bob), json!({"rated": true})).await;
    let (x, y) = tokio::join!(
        act(&a, &g.id, "resign", &g.white),
        act(&b, &g.id, "resign", &g.black)
    );
    let ok = [x.0, y.0].iter().filter(|s| **s == StatusCode::OK).count();
    assert_eq!(ok, 1, "{x:?} {y:?}");
    let (win, rd) = new_players_game(1.0);
    let winner = if x.0 == StatusCode::OK {
        "alice"
    } else {
        "bob"
    };
    for app in [&a, &b] {
        assert_eq!(
            blitz_rating(app, winner).await,
            Some((win.round() as i64, rd.round() as i64, 1))
        );
    }
    let (_, v) = get(&b, &format!("/api/games/{}", g.id), None).await;
    assert!(v["accounts"]["black"]["rating_diff"].is_i64(), "{v}");
    let (_, pdn, _) = get_text(&b, &format!("/api/games/{}/pdn", g.id), None).await;
    assert!(pdn.contains("[WhiteElo \"1500\"]"), "{pdn}");

    // Two games of alice end at once on two instances: both are rated, from each other's result.
    let g1 = game(&a, Some(&alice), Some(&bob), json!({"rated": true})).await;
    let g2 = game(&b, Some(&alice), Some(&carol), json!({"rated": true})).await;
    let before = blitz_rating(&a, "alice").await.unwrap();
    let (x, y) = tokio::join!(
        act(&a, &g1.id, "resign", &g1.white),
        act(&b, &g2.id, "resign", &g2.white)
    );
    assert_eq!((x.0, y.0), (StatusCode::OK, StatusCode::OK), "{x:?} {y:?}");
    let after = blitz_rating(&b, "alice").await.unwrap();
    assert_eq!(after.2, before.2 + 2, "{before:?} {after:?}");
    // The second and third games started one from the rating the first left, the other from
    // the rating that one left (in either order: they ended at once), so no update was lost.
    // A game's pre-game rating is its rating minus its change.
    let (_, u) = get(&b, "/api/users/alice", None).await;
    let h = u["history"].as_array().unwrap();
    assert_eq!(h.len(), 3, "{u}");
    let r = |i: usize| h[i]["rating"].as_i64().unwrap();
    let pre = |i: usize| r(i) - h[i]["rating_diff"].as_i64().unwrap();
    let chained = (pre(1) == r(0) && pre(2) == r(1) && r(2) == after.0)
        || (pre(2) == r(0) && pre(1) == r(2) && r(1) == after.0);
    assert!(chained, "{u}");
    assert!(after.0 > before.0, "{before:?} {after:?}");
    let (s, l) = get(&b, "/api/leaderboard?variant=american&speed=blitz", None).await;
    assert_eq!(s, StatusCode::OK, "{l}");
    assert_eq!(l["players"][0]["name"], "alice", "{l}");
    assert_eq!(l["players"].as_array().unwrap().len(), 3, "{l}");
    let (_, v) = get(&a, "/api/users/alice/games?rated=true", None).await;
    assert_eq!(v["games"].as_array().unwrap().len(), 3, "{v}");
    assert_eq!(u["rated_counts"]["games"], 3, "{u}");
    a.shutdown();
    b.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_farm_from_one_address_is_not_listed_and_five_networks_are() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    // The default leaderboard rule; sign-ups unlimited, to make the accounts at once.
    let app = server()
        .with(|c| {
            c.signup_per_hour_per_ip = 0;
            c.login_per_min_per_ip = 0;
        })
        .store(store(&pg.url()).await)
        .start()
        .await;
    let one = [203, 0, 113, 7];
    let farmed = farm(&app, "one", one, [one; 5], 10).await;
    let fair = farm(
        &app,
        "five",
        one,
        [1, 2, 3, 4, 5].map(|c| [198, 51, c, 9]),
        10,
    )
    .await;
    // The farm's games were between accounts of one sign-up network: none was rated.
    assert_eq!(blitz_rating(&app, &farmed).await, None);
    let (_, deviation, games) = blitz_rating(&app, &fair).await.unwrap();
    assert!(games == 40 && deviation <= 110, "{deviation} {games}");
    assert_eq!(leaderboard_names(&app).await, [fair]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_network_and_a_pair_beyond_its_games_of_the_day_play_unrated() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let app = server()
        .with(|c| c.rated_games_per_pair_per_day = 2)
        .store(store(&pg.url()).await)
        .start()
        .await;
    let ann = sign_up_from(&app, "ann", [203, 0, 113, 7]).await;
    let bob = sign_up_from(&app, "bob", [203, 0, 113, 8]).await;
    let cat = sign_up_from(&app, "cat", [198, 51, 100, 9]).await;
    let view = |id: String| {
        let app = &app;
        async move { get(app, &format!("/api/games/{id}"), None).await.1 }
    };
    // One /24: unrated from the join on.
    let g = played_game(&app, &ann, &bob, 10).await;
    let v = view(g.id.clone()).await;
    assert_eq!(
        (v["rated"].clone(), v["unrated_reason"].clone()),
        (json!(false), json!("same_network"))
    );
    assert_eq!(act(&app, &g.id, "resign", &g.white).await.0, StatusCode::OK);
    assert_eq!(blitz_rating(&app, "ann").await, None);
    // Two networks: one finished and one being played use up the pair's two of the day.
    let g = played_game(&app, &ann, &cat, 10).await;
    assert_eq!(act(&app, &g.id, "resign", &g.white).await.0, StatusCode::OK);
    let playing = played_game(&app, &cat, &ann, 10).await;
    assert_eq!(view(playing.id.clone()).await["rated"], true);
    let g = played_game(&app, &ann, &cat, 10).await;
    let v = view(g.id.clone()).await;
    assert_eq!(
        (v["rated"].clone(), v["unrated_reason"].clone()),
        (json!(false), json!("pair_limit"))
    );
    assert_eq!(act(&app, &g.id, "resign", &g.white).await.0, StatusCode::OK);
    assert_eq!(
        act(&app, &playing.id, "resign", &playing.white).await.0,
        StatusCode::OK
    );
    assert_eq!(blitz_rating(&app, "ann").await.map(|r| r.2), Some(2));
    // Ended before ten plies: too short.
    let short = played_game(&app, &bob, &cat, 4).await;
    assert_eq!(
        act(&app, &short.id, "resign", &short.white).await.0,
        StatusCode::OK
    );
    assert_eq!(view(short.id.clone()).await["unrated_reason"], "too_short");
    app.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn joins_of_one_pair_at_once_on_two_instances_begin_no_more_rated_games_than_its_cap() {
    // Issue 41 (the third attack review, E), as tests/rated_rules.rs checks it on SQLite: the
    // joins go to two instances of one database, so each instance's count must see the other's.
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let cap = |c: &mut crown_server::Config| c.rated_games_per_pair_per_day = 4;
    let a = server()
        .with(cap)
        .store(store(&pg.url()).await)
        .start()
        .await;
    let b = server()
        .with(cap)
        .store(store(&pg.url()).await)
        .start()
        .await;
    let ann = sign_up_from(&a, "ann", [203, 0, 113, 7]).await;
    let cat = sign_up_from(&a, "cat", [198, 51, 100, 9]).await;
    let games = joined_at_once(&[&a, &b], &ann, &cat, 16).await;
    for (answered, read) in &games {
        assert_eq!(answered, read, "the join answered what the game holds");
    }
    let rated = games.iter().filter(|g| g.1 .0 == true).count();
    assert_eq!(rated, 4, "{games:?}");
    for g in games.iter().filter(|g| g.1 .0 == false) {
        assert_eq!(g.1 .1, "pair_limit", "{games:?}");
    }
    a.shutdown();
    b.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_farmed_archive_of_ten_thousand_games_is_read_by_index_and_by_bounded_pages() {
    // Issue 41 (M3), as tests/ratings.rs checks it on SQLite.
    use crown_server::store::ratings::{
        archive_sql, counts_sql, history_sql, leaderboard_sql, scan_edge_sql, GameFilter, SqlArg,
    };
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let s = store(&pg.url()).await;
    let app = server().store(s.clone()).start().await;
    sign_up(&app, "farmed", "password-f").await;
    sign_up(&app, "feeder", "password-g").await;
    let mut ids = Vec::new();
    for name in ["farmed", "feeder"] {
        let (_, v) = get(&app, &format!("/api/users/{name}"), None).await;
        ids.push(v["user"]["id"].as_str().unwrap().to_string());
    }
    common::ratings::farmed_archive(s, (&ids[0], "farmed"), (&ids[1], "feeder")).await;
    common::ratings::check_bounded_reads(&app, "farmed").await;
    // Each read searches an index (with the statistics of the farmed archive); none scans a
    // table of games.
    let (url, user) = (pg.url(), ids[0].clone());
    tokio::task::spawn_blocking(move || {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        c.batch_execute("ANALYZE").unwrap();
        let mut plan = |sql: &str, args: &[&(dyn postgres::types::ToSql + Sync)]| -> String {
            c.query(&format!("EXPLAIN {sql}"), args)
                .unwrap()
                .iter()
                .map(|r| r.get::<_, String>(0))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let every_filter = GameFilter {
            variant: Some("american".into()),
            speed: Some("blitz".into()),
            rated: Some(true),
            outcome: Some("loss".into()),
            before_ms: Some(2_000_000),
            since_ms: Some(1_000_000),
            include_private: false,
            limit: 51,
        };
        let (sql, args) = archive_sql("game_id", &user, &every_filter, |n| format!("${n}"));
        let args: Vec<Box<dyn postgres::types::ToSql + Sync>> = args
            .into_iter()
            .map(|a| -> Box<dyn postgres::types::ToSql + Sync> {
                match a {
                    SqlArg::Text(t) => Box::new(t),
                    SqlArg::Int(i) => Box::new(i),
                }
            })
            .collect();
        let refs: Vec<_> = args.iter().map(|a| a.as_ref()).collect();
        let (none, offset, limit) = (None::<i64>, 999i64, 500i64);
        let (games, opponents, deviation, plies, window) = (10i64, 5i64, 110.0f64, 10i64, 100i64);
        let plans = [
            (plan(&sql, &refs), "player_games_user"),
            (
                plan(
                    &scan_edge_sql("$1", "$2::BIGINT", "$3"),
                    &[&user, &none, &offset],
                ),
                "player_games_user",
            ),
            (
                plan(
                    &history_sql("game_id, ended_ms", "$1", "$2"),
                    &[&user, &limit],
                ),
                "player_games_rated",
            ),
            (
                plan(
                    &leaderboard_sql(["$1", "$2", "$3", "$4", "$5", "$6", "$7", "$8::BIGINT"]),
                    &[
                        &"american",
                        &"blitz",
                        &50i64,
                        &games,
                        &opponents,
                        &deviation,
                        &plies,
                        &window,
                    ],
                ),
                // Each candidate's newest games by an index (`player_games_board`, or, where
                // all of them are of this variant and speed, `player_games_user`), at most
                // `{window}` of them.
                "Index Cond: (user_id = r.user_id",
            ),
        ];
        // `player_counts` holds two rows here, which a scan reads fastest: with scans off, the
        // count is read by its primary key.
        let counts = {
            c.batch_execute("SET enable_seqscan = off").unwrap();
            let p = c
                .query(&format!("EXPLAIN {}", counts_sql("$1")), &[&user])
                .unwrap()
                .iter()
                .map(|r| r.get::<_, String>(0))
                .collect::<Vec<_>>()
                .join("\n");
            c.batch_execute("RESET enable_seqscan").unwrap();
            p
        };
        assert!(counts.contains("player_counts_pkey"), "{counts}");
        let all: Vec<String> = plans.iter().map(|(p, _)| p.clone()).collect();
        for (plan, index) in plans {
            assert!(plan.contains(index), "{plan}\n\nevery plan:\n{all:#?}");
            assert!(!plan.contains("Seq Scan on player_games"), "{plan}");
            assert!(!plan.contains("Seq Scan on games"), "{plan}");
        }
    })
    .await
    .unwrap();
}

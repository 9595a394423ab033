//! Tests of the SQLite store.

use super::*;
use crate::store::fixture::GameRecordBuilder;
use crate::store::{ChatRecord, ChatStore, GameRecord, MoveRecord, Seat, Side, Store};

/// The game these tests store: an engine game (White, level 3) with a 1 min + 1 s clock.
fn record() -> GameRecord {
    GameRecordBuilder::new("g1")
        .start_fen("B:W21-32:B1-12")
        .white(Seat::Engine { level: 3 })
        .time_control(60_000, 1_000)
        .build()
}

#[test]
fn save_replaces_moves_from_keep_and_bumps_version() {
    let store = SqliteStore::open_in_memory().unwrap();
    let mut rec = record();
    store.create(&rec).unwrap();
    rec.moves.push(MoveRecord {
        text: "11-15".into(),
        at_ms: 2,
    });
    rec.moves.push(MoveRecord {
        text: "23-19".into(),
        at_ms: 3,
    });
    store.save(&mut rec, 0).unwrap();
    assert_eq!(rec.version, 1);
    // Take back one move.
    rec.moves.pop();
    store.save(&mut rec, 1).unwrap();
    let back = store.load("g1").unwrap().unwrap();
    assert_eq!(back, rec);
    assert_eq!(back.moves.len(), 1);
}

#[test]
fn stale_version_is_a_conflict_and_writes_nothing() {
    let store = SqliteStore::open_in_memory().unwrap();
    let mut rec = record();
    store.create(&rec).unwrap();
    let mut stale = rec.clone();
    store.save(&mut rec, 0).unwrap();
    stale.status = "finished".into();
    assert!(matches!(
        store.save(&mut stale, 0),
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(store.load("g1").unwrap().unwrap().status, "ongoing");
}

#[test]
fn list_filters_by_status_and_heartbeat_round_trips() {
    let store = SqliteStore::open_in_memory().unwrap();
    let mut rec = record();
    rec.meta.public = true; // only public and rated games are listed
    store.create(&rec).unwrap();
    rec.id = "g2".into();
    rec.status = "finished".into();
    store.create(&rec).unwrap();
    assert_eq!(store.list(None, 10).unwrap().len(), 2);
    let fin = store.list(Some("finished"), 10).unwrap();
    assert_eq!(fin.len(), 1);
    assert_eq!(fin[0].id, "g2");
    // A private casual game is left out in every status; a rated one is public by nature, unless
    // it ended before both sides moved (then it is unrated, as in the archive).
    rec.meta.public = false;
    rec.id = "private".into();
    store.create(&rec).unwrap();
    rec.id = "rated_early".into();
    rec.meta.rated = true;
    store.create(&rec).unwrap();
    rec.id = "rated".into();
    for text in ["11-15", "23-19"] {
        rec.moves.push(MoveRecord {
            text: text.into(),
            at_ms: 2,
        });
    }
    store.create(&rec).unwrap();
    let fin = store.list(Some("finished"), 10).unwrap();
    let mut ids: Vec<_> = fin.iter().map(|g| (g.id.as_str(), g.rated)).collect();
    ids.sort_unstable();
    assert_eq!(ids, [("g2", false), ("rated", true)]);
    assert_eq!(store.list(None, 10).unwrap().len(), 3);
    assert_eq!(store.unfinished().unwrap(), vec!["g1".to_string()]);
    assert_eq!(store.last_heartbeat().unwrap(), None);
    store.heartbeat(42).unwrap();
    store.heartbeat(43).unwrap();
    assert_eq!(store.last_heartbeat().unwrap(), Some(43));
}

/// A second connection that holds the database's write lock until dropped (rolled back).
fn lock_writes(path: &Path) -> Connection {
    let c = Connection::open(path).unwrap();
    c.execute_batch("BEGIN IMMEDIATE").unwrap();
    c
}

fn wait_until(what: &str, f: impl Fn() -> bool) {
    for _ in 0..2000 {
        if f() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("timed out waiting until {what}");
}

#[test]
fn reads_do_not_wait_behind_a_write() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    let store = Arc::new(SqliteStore::open(&path, Durability::Full).unwrap());
    let mut rec = record();
    rec.meta.public = true; // listed
    store.create(&rec).unwrap();
    let lock = lock_writes(&path);
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (s2, d2) = (store.clone(), done.clone());
    let writer = std::thread::spawn(move || {
        rec.status = "finished".into();
        let r = s2.save(&mut rec, 0);
        d2.store(true, Ordering::SeqCst);
        r
    });
    wait_until("the save is with the writer", || {
        store.stats().in_batch.load(Ordering::SeqCst) == 1
    });
    // The write waits for the lock; a read answers meanwhile, from the last commit.
    let listed = store.list(None, 10).unwrap();
    assert!(
        !done.load(Ordering::SeqCst),
        "the read waited for the write"
    );
    assert_eq!(listed[0].status, "ongoing");
    drop(lock);
    writer.join().unwrap().unwrap();
    assert_eq!(store.load("g1").unwrap().unwrap().status, "finished");
}

#[test]
fn writes_waiting_together_share_one_commit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    let store = Arc::new(SqliteStore::open(&path, Durability::Full).unwrap());
    let n = 20;
    for i in 0..n {
        let mut rec = record();
        rec.id = format!("g{i}");
        store.create(&rec).unwrap();
    }
    let commits_before = store.stats().commits.load(Ordering::SeqCst);
    // Hold the lock so that the first write blocks the writer and the rest queue up.
    let lock = lock_writes(&path);
    let mut threads = Vec::new();
    for i in 0..n {
        let s2 = store.clone();
        threads.push(std::thread::spawn(move || {
            let mut rec = s2.load(&format!("g{i}")).unwrap().unwrap();
            rec.moves.push(MoveRecord {
                text: "11-15".into(),
                at_ms: 7,
            });
            // One stale write among them fails alone.
            if i == 3 {
                rec.version += 5;
            }
            s2.save(&mut rec, 0)
        }));
    }
    let st = store.stats();
    wait_until("all writes are queued or with the writer", || {
        st.queued.load(Ordering::SeqCst) + st.in_batch.load(Ordering::SeqCst) == n as u64
    });
    drop(lock);
    for (i, t) in threads.into_iter().enumerate() {
        let r = t.join().unwrap();
        if i == 3 {
            assert!(matches!(r, Err(StoreError::Conflict(_))), "{r:?}");
        } else {
            r.unwrap();
        }
    }
    // Those the writer had taken when it met the lock, then all the others: at most two
    // transactions for twenty writes.
    let commits = store.stats().commits.load(Ordering::SeqCst) - commits_before;
    assert!((1..=2).contains(&commits), "{commits} commits");
    // Everything acknowledged is on disk, as a fresh connection sees it.
    let other = SqliteStore::open(&path, Durability::Full).unwrap();
    for i in 0..n {
        let rec = other.load(&format!("g{i}")).unwrap().unwrap();
        assert_eq!(rec.moves.len(), usize::from(i != 3), "game {i}");
    }
}

#[test]
fn unfinished_games_load_in_one_snapshot_with_their_moves() {
    let store = SqliteStore::open_in_memory().unwrap();
    let mut a = record();
    a.moves = vec![
        MoveRecord {
            text: "11-15".into(),
            at_ms: 2,
        },
        MoveRecord {
            text: "23-19".into(),
            at_ms: 3,
        },
    ];
    store.create(&a).unwrap();
    let mut b = record();
    b.id = "g2".into();
    b.status = "finished".into();
    store.create(&b).unwrap();
    // An aborted game is over too: never resumed.
    let mut c = record();
    c.id = "g3".into();
    c.status = "aborted".into();
    store.create(&c).unwrap();
    assert_eq!(store.load_unfinished().unwrap(), vec![a.clone()]);
    assert_eq!(store.unfinished().unwrap(), vec!["g1".to_string()]);
    let mut recs = vec![a];
    recs[0].meta.turn_started_ms = 99;
    store.save_rows(&mut recs).unwrap();
    assert_eq!(store.load("g1").unwrap().unwrap(), recs[0]);
}

#[test]
fn chat_is_numbered_per_game_and_read_back_in_order() {
    let store = SqliteStore::open_in_memory().unwrap();
    let msg = |color, text: &str| ChatRecord {
        n: 0,
        color,
        name: None,
        text: text.into(),
        at_ms: 7,
    };
    // Through the store's chat part, as the server reaches it (`None`: a store without chat).
    let add_chat = |id: &str, m: &ChatRecord| store.chat().map(|c| c.add_chat(id, m)).transpose();
    for i in 0..5 {
        let n = add_chat("g1", &msg(Side::Black, &format!("m{i}"))).unwrap();
        assert_eq!(n, Some(i + 1));
    }
    assert_eq!(add_chat("g2", &msg(Side::White, "other")).unwrap(), Some(1));
    let texts = |v: Vec<ChatRecord>| v.into_iter().map(|m| m.text).collect::<Vec<_>>();
    assert_eq!(
        texts(store.load_chat("g1", 0, 100).unwrap()),
        ["m0", "m1", "m2", "m3", "m4"]
    );
    // The last `limit` above `after`, oldest first.
    assert_eq!(texts(store.load_chat("g1", 0, 2).unwrap()), ["m3", "m4"]);
    assert_eq!(texts(store.load_chat("g1", 3, 100).unwrap()), ["m3", "m4"]);
    let other = store.load_chat("g2", 0, 100).unwrap();
    assert_eq!(other[0].color, Side::White);
    assert!(store.load_chat("nope", 0, 100).unwrap().is_empty());
}

#[test]
fn a_tournament_save_from_a_stale_version_is_a_conflict_and_writes_nothing() {
    use crate::store::{TournamentRecord, TournamentStore};
    let store = SqliteStore::open_in_memory().unwrap();
    let rec = TournamentRecord {
        id: "0123abcd".into(),
        phase: "created".into(),
        starts_ms: 0,
        created_ms: 5,
        updated_ms: 5,
        state: "{\"n\":0}".into(),
        version: 1,
        creator: "c1".into(),
    };
    store.create_tournament(&rec).unwrap();
    // Two writers read version 1; the first save wins and moves the version to 2.
    let (mut first, mut second) = (rec.clone(), rec.clone());
    first.state = "{\"n\":1}".into();
    store.save_tournament(&mut first).unwrap();
    assert_eq!(first.version, 2);
    second.state = "{\"n\":2}".into();
    second.phase = "running".into();
    assert!(matches!(
        store.save_tournament(&mut second),
        Err(StoreError::Conflict(id)) if id == "0123abcd"
    ));
    assert_eq!(
        second.version, 1,
        "a refused save keeps the caller's version"
    );
    let stored = store.load_tournament("0123abcd").unwrap().unwrap();
    assert_eq!((stored.state.as_str(), stored.version), ("{\"n\":1}", 2));
    assert_eq!(store.list_tournaments("created", 10).unwrap(), vec![stored]);
    assert!(store.list_tournaments("running", 10).unwrap().is_empty());
    let mut missing = rec.clone();
    missing.id = "ffffffff".into();
    assert!(matches!(
        store.save_tournament(&mut missing),
        Err(StoreError::NotFound(_))
    ));
}

#[test]
fn a_store_made_before_signup_networks_gets_the_column_with_null() {
    use crate::store::{AccountStore, UserRecord};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    {
        // The `users` table as the versions before the sign-up network made it, with an account.
        let c = Connection::open(&path).unwrap();
        c.execute_batch(
            "CREATE TABLE users (id TEXT PRIMARY KEY, name TEXT NOT NULL,
                 name_key TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL,
                 created_ms INTEGER NOT NULL);
             INSERT INTO users VALUES ('u1', 'Old', 'old', '$argon2id$x', 5);",
        )
        .unwrap();
    }
    for _ in 0..2 {
        // Twice: the second opening finds the column and adds nothing.
        let store = SqliteStore::open(&path, Durability::Normal).unwrap();
        let old = store.user_by_name("old").unwrap().unwrap();
        assert_eq!((old.id.as_str(), old.signup_net), ("u1", None));
        let new = UserRecord {
            id: format!("u{}", old.created_ms),
            name: "New".into(),
            name_key: "new".into(),
            password_hash: "$argon2id$y".into(),
            created_ms: 6,
            signup_net: Some("ab".repeat(32)),
        };
        store.create_user(&new).unwrap();
        assert_eq!(store.user_by_name("new").unwrap(), Some(new));
    }
}

#[test]
fn a_store_made_before_shared_games_gets_the_imports_table_and_keeps_its_games() {
    use crate::store::{ImportRecord, ImportStore};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    {
        // A store as the versions before shared games left it: every table but `imports`.
        let store = SqliteStore::open(&path, Durability::Normal).unwrap();
        store.create(&record()).unwrap();
        drop(store);
        let c = Connection::open(&path).unwrap();
        c.execute_batch("DROP TABLE imports").unwrap();
    }
    let rec = |id: &str, created_ms| ImportRecord {
        id: id.into(),
        owner: Some("u1".into()),
        archived: false,
        variant: "american".into(),
        meta: "{}".into(),
        pdn: "[Event \"é\"]\r\n1. 11-15 *\r\n".into(),
        created_ms,
    };
    for (n, id) in ["000000000a", "000000000b"].into_iter().enumerate() {
        // Twice: the second opening finds the table and changes nothing.
        let store = SqliteStore::open(&path, Durability::Normal).unwrap();
        assert_eq!(store.load("g1").unwrap().unwrap().id, "g1");
        store.create_import(&rec(id, 10 + n as u64)).unwrap();
        assert_eq!(store.load_import(id).unwrap(), Some(rec(id, 10 + n as u64)));
        assert!(store.set_import_archived(id, "u1", true).unwrap());
        assert!(
            !store.set_import_archived(id, "u2", true).unwrap(),
            "not u2's"
        );
        assert!(!store.set_import_archived("0000000000", "u1", true).unwrap());
    }
    let store = SqliteStore::open(&path, Durability::Normal).unwrap();
    let listed = store.archived_imports("u1", None, 10).unwrap();
    let ids: Vec<_> = listed.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["000000000b", "000000000a"], "newest first");
    assert!(listed.iter().all(|r| r.pdn.is_empty() && r.archived));
    assert_eq!(store.archived_imports("u1", Some(11), 10).unwrap().len(), 1);
}

#[test]
fn a_store_made_before_challenges_gets_their_table_and_answers_each_once() {
    use crate::store::{ChallengeRecord, ChallengeStore, StoreError};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    {
        // A store as the versions before challenges left it: every table but `challenges`.
        let store = SqliteStore::open(&path, Durability::Normal).unwrap();
        store.create(&record()).unwrap();
        drop(store);
        let c = Connection::open(&path).unwrap();
        c.execute_batch("DROP TABLE challenges").unwrap();
    }
    let store = SqliteStore::open(&path, Durability::Normal).unwrap();
    assert_eq!(store.load("g1").unwrap().unwrap().id, "g1");
    let rec = |id: &str, dest: &str, created_ms: u64| ChallengeRecord {
        id: id.into(),
        challenger: "u1".into(),
        dest: dest.into(),
        status: "pending".into(),
        created_ms,
        updated_ms: created_ms,
        expires_ms: created_ms + 60,
        deadline_ms: created_ms + 600,
        state: "{}".into(),
        version: 0,
    };
    store
        .create_challenge(&rec("000000000a", "u2", 100))
        .unwrap();
    store
        .create_challenge(&rec("000000000b", "u3", 110))
        .unwrap();
    assert_eq!(
        store.load_challenge("000000000a").unwrap(),
        Some(rec("000000000a", "u2", 100))
    );
    let ids = |v: Vec<ChallengeRecord>| v.into_iter().map(|r| r.id).collect::<Vec<_>>();
    // Pending and not expired at 150, newest first; u2 sees the one it received.
    assert_eq!(
        ids(store.challenges_of("u1", 150, u64::MAX, 10).unwrap()),
        ["000000000b", "000000000a"]
    );
    assert_eq!(
        ids(store.challenges_of("u2", 150, u64::MAX, 10).unwrap()),
        ["000000000a"]
    );
    assert!(
        store
            .challenges_of("u2", 160, u64::MAX, 10)
            .unwrap()
            .is_empty(),
        "expired at 160"
    );
    // The challenger is still there at 150: both live until 210 (never past their deadline).
    assert_eq!(store.touch_challenges("u1", 150, 60, 15).unwrap(), 2);
    assert_eq!(
        store.touch_challenges("u1", 150, 60, 15).unwrap(),
        0,
        "nothing to extend"
    );
    assert_eq!(
        store
            .load_challenge("000000000a")
            .unwrap()
            .unwrap()
            .expires_ms,
        210
    );
    assert_eq!(
        store.touch_challenges("u3", 150, 60, 15).unwrap(),
        0,
        "not u3's challenges"
    );
    // Two answers from the same version: the first is written, the second is a conflict.
    let mut first = store.load_challenge("000000000a").unwrap().unwrap();
    let mut second = first.clone();
    first.status = "accepted".into();
    first.updated_ms = 170;
    store.save_challenge(&mut first).unwrap();
    assert_eq!(first.version, 1);
    second.status = "declined".into();
    assert!(matches!(
        store.save_challenge(&mut second),
        Err(StoreError::Conflict(_))
    ));
    let stored = store.load_challenge("000000000a").unwrap().unwrap();
    assert_eq!((stored.status.as_str(), stored.version), ("accepted", 1));
    // Answered at 170: listed for a read since 170, not since 171.
    assert_eq!(
        ids(store.challenges_of("u2", 500, 170, 10).unwrap()),
        ["000000000a"]
    );
    assert!(store.challenges_of("u2", 500, 171, 10).unwrap().is_empty());
    let mut gone = rec("000000000c", "u2", 0);
    assert!(matches!(
        store.save_challenge(&mut gone),
        Err(StoreError::NotFound(_))
    ));
}

/// A rated blitz game `id` between the accounts `black` and `white`, in `status`.
fn rated_game(id: &str, status: &str, black: &str, white: &str) -> GameRecord {
    use crate::store::SeatAccount;
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
    rec.meta.accounts.black = account(black);
    rec.meta.accounts.white = account(white);
    rec
}

#[test]
fn a_store_made_before_the_cap_columns_gets_them_filled_from_the_json() {
    use crate::store::{RatingStore, TournamentStore};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    {
        // `games` and `tournaments` as the versions before `rated_pair` and `creator` made
        // them, with rows those versions wrote.
        let store = SqliteStore::open(&path, Durability::Normal).unwrap();
        let games = [
            rated_game("g1", "ongoing", "u2", "u1"),
            rated_game("g2", "open", "u1", "u2"),
            rated_game("g3", "finished", "u1", "u2"),
            rated_game("g4", "ongoing", "u1", "u3"),
        ];
        let mut unrated = rated_game("g5", "ongoing", "u1", "u2");
        unrated.meta.unrated = Some("pair_limit".into());
        let mut casual = rated_game("g6", "ongoing", "u1", "u2");
        casual.meta.rated = false;
        for g in games.iter().chain([&unrated, &casual]) {
            store.create(g).unwrap();
        }
        drop(store);
        let c = Connection::open(&path).unwrap();
        c.execute_batch(
            "DROP INDEX games_rated_pair; DROP INDEX tournaments_creator;
             ALTER TABLE games DROP COLUMN rated_pair;
             ALTER TABLE tournaments DROP COLUMN creator;",
        )
        .unwrap();
        let insert = |id: &str, phase: &str, creator: &str| {
            c.execute(
                "INSERT INTO tournaments (id, phase, starts_ms, created_ms, updated_ms, state,
                 version) VALUES (?1, ?2, 0, 1, 1, ?3, 1)",
                rusqlite::params![
                    id,
                    phase,
                    format!("{{\"creator\":{{\"user_id\":\"{creator}\",\"name\":\"x\"}}}}")
                ],
            )
            .unwrap();
        };
        insert("t1", "created", "u1");
        insert("t2", "running", "u1");
        insert("t3", "finished", "u1");
        insert("t4", "created", "u2");
    }
    for _ in 0..2 {
        // Twice: the second opening finds the columns filled and changes nothing.
        let store = SqliteStore::open(&path, Durability::Normal).unwrap();
        assert_eq!(store.open_tournaments_by("u1").unwrap(), 2);
        assert_eq!(store.open_tournaments_by("u2").unwrap(), 1);
        assert_eq!(store.open_tournaments_by("u3").unwrap(), 0);
        // g1 and g2, in either colour; not the finished, unrated or casual ones.
        for (a, b) in [("u1", "u2"), ("u2", "u1")] {
            assert_eq!(store.pair_history(a, b, 0).unwrap().recent_rated, 2);
        }
        assert_eq!(store.pair_history("u3", "u1", 0).unwrap().recent_rated, 1);
        assert_eq!(store.pair_history("u2", "u3", 0).unwrap().recent_rated, 0);
    }
}

#[test]
fn a_game_counts_toward_its_pair_only_while_it_is_rated_and_unfinished() {
    use crate::store::RatingStore;
    let store = SqliteStore::open_in_memory().unwrap();
    let mut g = rated_game("g1", "open", "u1", "u2");
    store.create(&g).unwrap();
    let recent = |a, b| store.pair_history(a, b, 0).unwrap().recent_rated;
    assert_eq!((recent("u1", "u2"), recent("u2", "u1")), (1, 1));
    g.status = "ongoing".into();
    store.save(&mut g, 0).unwrap();
    assert_eq!(recent("u2", "u1"), 1);
    g.meta.unrated = Some("pair_limit".into());
    store.save(&mut g, 0).unwrap();
    assert_eq!(recent("u1", "u2"), 0);
    g.meta.unrated = None;
    store.save(&mut g, 0).unwrap();
    assert_eq!(recent("u1", "u2"), 1);
    // Finished before its minimum of plies: no rating change, and no longer being played.
    g.status = "finished".into();
    g.result = Some("1-0".into());
    store.save(&mut g, 0).unwrap();
    assert_eq!(recent("u1", "u2"), 0);
}

#[test]
fn the_caps_count_by_index_not_by_reading_every_row() {
    // Issue 41: the per-account tournament cap parsed every open tournament's JSON, the rated
    // pair cap every unfinished game's; both now search an index.
    let store = SqliteStore::open_in_memory().unwrap();
    let plan = |sql: String| query_plan(&store, sql);
    let tournaments = plan(crate::store::tournaments::open_by_query("?1"));
    assert!(
        tournaments.contains("USING COVERING INDEX tournaments_creator (creator=? AND phase=?)"),
        "{tournaments}"
    );
    let pairs = plan(crate::store::ratings::pair_history_sql([
        "?1", "?2", "?3", "?4",
    ]));
    assert!(
        pairs.contains(
            "SEARCH games USING COVERING INDEX games_rated_pair (rated_pair=? AND status=?)"
        ),
        "{pairs}"
    );
    assert!(!pairs.contains("SCAN games"), "{pairs}");
}

#[test]
fn an_accounts_unfinished_games_are_found_by_the_seat_indexes() {
    // Issue 41 (third review, A): the event stream's games_of and `/api/me/turns`'s ongoing_of
    // read every unfinished game's JSON; they now search the seats' indexes.
    use crate::store::schema::{ongoing_of_query, SQLITE_META_JSON};
    use crate::store::tokens::games_of_query;
    let store = SqliteStore::open_in_memory().unwrap();
    let [_, _, black, white] = SQLITE_META_JSON;
    for sql in [games_of_query(black, white), ongoing_of_query(black, white)] {
        let plan = query_plan(&store, sql.replace("$1", "?1").replace("$2", "?2"));
        for index in ["games_seat_black", "games_seat_white"] {
            assert!(
                plan.contains(&format!("INDEX {index} (<expr>=?)")),
                "{plan}"
            );
        }
        assert!(!plan.contains("SCAN games"), "{plan}");
    }
    // And they answer as before: u1's unfinished games, the ongoing ones for the turns.
    let mut a = rated_game("g1", "open", "u1", "u2");
    store.create(&a).unwrap();
    let b = rated_game("g2", "ongoing", "u3", "u1");
    store.create(&b).unwrap();
    store
        .create(&rated_game("g3", "ongoing", "u2", "u3"))
        .unwrap();
    use crate::store::TokenStore;
    assert_eq!(store.games_of("u1", 10).unwrap(), ["g1", "g2"]);
    assert_eq!(store.ongoing_of("u1", 10).unwrap(), ["g2"]);
    a.status = "finished".into();
    store.save(&mut a, 0).unwrap();
    assert_eq!(store.games_of("u1", 10).unwrap(), ["g2"]);
}

#[test]
fn a_store_made_before_player_counts_gets_them_counted_once() {
    use crate::store::RatingStore;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let finish = |store: &SqliteStore, id: &str, result: &str| {
        let mut g = rated_game(id, "ongoing", "u1", "u2");
        store.create(&g).unwrap();
        g.status = "finished".into();
        g.result = Some(result.into());
        store.save(&mut g, 0).unwrap();
    };
    {
        // Three games recorded by a version without `player_counts`: u1 won two, lost one
        // (casual: finished before their plies, so unrated).
        let store = SqliteStore::open(&path, Durability::Normal).unwrap();
        for (id, result) in [("g1", "1-0"), ("g2", "1-0"), ("g3", "0-1")] {
            finish(&store, id, result);
        }
        drop(store);
        let c = Connection::open(&path).unwrap();
        c.execute_batch(
            "DROP TABLE player_counts; DELETE FROM server_meta WHERE key = 'player_counts';",
        )
        .unwrap();
    }
    let counts = |store: &SqliteStore, user: &str| {
        let mut c = store.outcome_counts(user).unwrap();
        c.sort();
        c
    };
    let store = SqliteStore::open(&path, Durability::Normal).unwrap();
    let won_lost = |w, l| {
        vec![
            (false, "loss".to_string(), l),
            (false, "win".to_string(), w),
        ]
    };
    assert_eq!(counts(&store, "u1"), won_lost(2, 1));
    assert_eq!(counts(&store, "u2"), won_lost(1, 2));
    // A game recorded now counts once more, and a second opening counts nothing again.
    finish(&store, "g4", "1-0");
    drop(store);
    let store = SqliteStore::open(&path, Durability::Normal).unwrap();
    assert_eq!(counts(&store, "u1"), won_lost(3, 1));
    assert_eq!(counts(&store, "u2"), won_lost(1, 3));
}

/// The plan of `sql` (its parameters unbound) in `store`, one line per step.
fn query_plan(store: &SqliteStore, sql: String) -> String {
    store
        .read(move |c| {
            let mut stmt = c.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))?;
            let unbound = std::iter::repeat_n(rusqlite::types::Null, stmt.parameter_count());
            let rows = stmt
                .query_map(rusqlite::params_from_iter(unbound), |r| {
                    r.get::<_, String>(3)
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows.join("\n"))
        })
        .unwrap()
}

#[test]
fn the_lists_read_only_listed_rows_and_the_purge_only_short_ones() {
    // Issue 41 (fourth review, 2): `GET /api/tv`'s lists filtered the listed games out of the
    // `(status, updated_ms)` index, reading every unlisted game finished today; they search the
    // partial index of the listed games, in their order (no sort), and stop at their limit.
    use crate::store::schema::{listed_query, unstarted_query, Dialect};
    let store = SqliteStore::open_in_memory().unwrap();
    let plan = query_plan(
        &store,
        listed_query(Dialect::Sqlite, true, ["?1", "?3", "?2"]),
    );
    assert!(
        plan.contains("SEARCH games USING INDEX games_listed (status=? AND updated_ms<?)")
            || plan.contains("SEARCH games USING INDEX games_listed (status=? AND updated_ms>?)"),
        "{plan}"
    );
    assert!(!plan.contains("TEMP B-TREE"), "{plan}");
    // (Third review, C's remainder) The purge reads the games over by their length.
    let plan = query_plan(&store, unstarted_query(Dialect::Sqlite, "?1", "?2", "?3"));
    assert!(
        plan.contains("SEARCH games USING INDEX games_ended_short (plies<?)"),
        "{plan}"
    );
    assert!(!plan.contains("SCAN games"), "{plan}");
}

#[test]
fn a_store_made_before_the_listed_column_gets_it_filled_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let mut public = GameRecordBuilder::new("g1").build();
    public.status = "ongoing".into();
    public.meta.public = true;
    let rated = rated_game("g2", "ongoing", "u1", "u2");
    let casual = rated_game("g3", "ongoing", "u1", "u2");
    let mut casual = casual;
    casual.meta.rated = false;
    let mut unrated = rated_game("g4", "ongoing", "u1", "u2");
    unrated.meta.unrated = Some("same_network".into());
    {
        let store = SqliteStore::open(&path, Durability::Normal).unwrap();
        for g in [&public, &rated, &casual, &unrated] {
            store.create(g).unwrap();
        }
        drop(store);
        // As a version before `listed` left them.
        let c = Connection::open(&path).unwrap();
        c.execute_batch(
            "UPDATE games SET listed = NULL; DELETE FROM server_meta WHERE key = 'games_listed';",
        )
        .unwrap();
        let n: i64 = c
            .query_row("SELECT COUNT(*) FROM games WHERE listed IS NULL", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(n, 4);
    }
    let store = SqliteStore::open(&path, Durability::Normal).unwrap();
    let ids = |store: &SqliteStore| -> Vec<String> {
        let mut ids: Vec<String> = store
            .listed(Some("ongoing"), 0, 10)
            .unwrap()
            .into_iter()
            .map(|(s, _)| s.id)
            .collect();
        ids.sort();
        ids
    };
    assert_eq!(ids(&store), ["g1", "g2"]);
    // Filled once: a row a later version left NULL stays so (the marker is written).
    drop(store);
    let c = Connection::open(&path).unwrap();
    c.execute("UPDATE games SET listed = NULL WHERE id = 'g1'", [])
        .unwrap();
    drop(c);
    let store = SqliteStore::open(&path, Durability::Normal).unwrap();
    assert_eq!(ids(&store), ["g2"]);
}

//! `PgStore` against a real PostgreSQL: the harness runs Debian's `initdb` and `pg_ctl`
//! (`/usr/lib/postgresql/*/bin`) in a temporary directory on a free port, as the `postgres` user
//! when run as root (initdb refuses root). Skipped, saying so, when PostgreSQL is not installed.

mod common;
use axum::http::{Method, StatusCode};
use common::send;
use crown_server::pg::PgStore;
use crown_server::store::{Store, StoreError};
use crown_server::{App, Config};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

struct Pg {
    bin: PathBuf,
    data: PathBuf,
    port: u16,
    as_postgres: bool,
    _dir: tempfile::TempDir,
}

fn cmd(as_postgres: bool, program: &Path) -> Command {
    if as_postgres {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

impl Pg {
    fn start() -> Option<Pg> {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
            .find(|b| b.join("initdb").is_file())?;
        let as_postgres = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.starts_with(b"0\n"));
        let dir = tempfile::tempdir().unwrap();
        if as_postgres {
            assert!(Command::new("chown")
                .args(["postgres:"])
                .arg(dir.path())
                .status()
                .unwrap()
                .success());
        }
        let data = dir.path().join("data");
        let ok = cmd(as_postgres, &bin.join("initdb"))
            .arg("-D")
            .arg(&data)
            .args(["-U", "crown", "--auth=trust", "-E", "UTF8", "--no-sync"])
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap()
            .success();
        assert!(ok, "initdb failed");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let ok = cmd(as_postgres, &bin.join("pg_ctl"))
            .arg("-D")
            .arg(&data)
            .arg("-o")
            .arg(format!(
                "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
                dir.path().display()
            ))
            .arg("-l")
            .arg(dir.path().join("log"))
            .args(["-w", "start"])
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap()
            .success();
        assert!(ok, "pg_ctl start failed");
        Some(Pg {
            bin,
            data,
            port,
            as_postgres,
            _dir: dir,
        })
    }

    fn url(&self) -> String {
        format!("postgres://crown@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for Pg {
    fn drop(&mut self) {
        let _ = cmd(self.as_postgres, &self.bin.join("pg_ctl"))
            .arg("-D")
            .arg(&self.data)
            .args(["-m", "immediate", "stop"])
            .stdout(std::process::Stdio::null())
            .status();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_survive_a_restart_on_postgresql() {
    let Some(pg) = tokio::task::spawn_blocking(Pg::start).await.unwrap() else {
        eprintln!("SKIPPED: PostgreSQL is not installed (apt-get install postgresql)");
        return;
    };
    let url = pg.url();
    let store: Arc<dyn Store> = Arc::new(
        tokio::task::spawn_blocking(move || PgStore::connect(&url))
            .await
            .unwrap()
            .unwrap(),
    );
    let config = Config {
        rate_per_sec: 0,
        ..Config::default()
    };
    let app = App::start(store.clone(), config.clone(), None)
        .await
        .unwrap();
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
    let app2 = App::start(store.clone(), config, None).await.unwrap();
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
    let (_, list) = send(&app2, Method::GET, "/api/games?status=ongoing", None, None).await;
    assert_eq!(list["games"][0]["plies"], 3, "{list}");
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

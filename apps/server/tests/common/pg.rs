//! A throw-away PostgreSQL server for tests: Debian's `initdb` and `pg_ctl`
//! (`/usr/lib/postgresql/*/bin`) in a temporary directory on a free port, as the `postgres` user
//! when run as root (initdb refuses root). [`Pg::start`] is `None` when PostgreSQL is not
//! installed; the server is stopped when the value is dropped.

use crown_server::store::pg::PgStore;
use crown_server::store::Store;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

/// A new [`PgStore`] on `url` (connected on a blocking thread).
pub async fn store(url: &str) -> Arc<dyn Store> {
    let url = url.to_string();
    Arc::new(
        tokio::task::spawn_blocking(move || PgStore::connect(&url))
            .await
            .unwrap()
            .unwrap(),
    )
}

/// A running PostgreSQL server.
pub struct Pg {
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
    /// Initialise and start a server with `fsync=off` (tests: a crash of the machine is not
    /// part of them); `None` if PostgreSQL is not installed.
    pub fn start() -> Option<Pg> {
        Pg::start_with(false)
    }

    /// [`Pg::start`], saying on stderr that the test is skipped when PostgreSQL is not installed
    /// (the caller then returns).
    pub fn start_or_skip() -> Option<Pg> {
        let pg = Pg::start();
        if pg.is_none() {
            eprintln!("SKIPPED: PostgreSQL is not installed (apt-get install postgresql)");
        }
        pg
    }

    /// [`Pg::start_or_skip`] for an async test: run on a blocking thread (initdb and pg_ctl take
    /// seconds).
    pub async fn start_or_skip_async() -> Option<Pg> {
        tokio::task::spawn_blocking(Pg::start_or_skip)
            .await
            .expect("the PostgreSQL start-up thread panicked")
    }

    /// Initialise and start a server, with `fsync` on or off; `None` if PostgreSQL is not
    /// installed.
    pub fn start_with(fsync: bool) -> Option<Pg> {
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
                "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync={} -c max_connections=200",
                dir.path().display(),
                if fsync { "on" } else { "off" }
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

    /// The URL of its `postgres` database as user `crown`.
    pub fn url(&self) -> String {
        self.url_of("postgres")
    }

    /// The URL of its database `db` as user `crown` (the superuser).
    pub fn url_of(&self, db: &str) -> String {
        format!("postgres://crown@127.0.0.1:{}/{db}", self.port)
    }

    /// The port it listens on (127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A PostgreSQL client program of this installation (`pg_dump`, `pg_restore`, `createdb`),
    /// run as the current user: the clients connect over TCP as `crown`, so root may run them.
    pub fn client(&self, program: &str) -> Command {
        Command::new(self.bin.join(program))
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

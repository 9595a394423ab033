//! `crown-server`: online play for Crown. With no arguments it listens on 127.0.0.1:8080, stores
//! games in `./crown.db` and prints the URL to open.

use clap::Parser;
use crown_server::store::{Durability, SqliteStore};
use crown_server::{App, Config};
use std::path::PathBuf;
use std::sync::Arc;

/// Crown game server: play and watch American checkers, pool checkers and Impasse online.
#[derive(Parser, Debug)]
#[command(name = "crown-server", version, about)]
struct Args {
    /// Address to listen on.
    #[arg(long, env = "CROWN_BIND", default_value = "127.0.0.1")]
    bind: String,
    /// Port to listen on (0 picks a free port; the URL printed says which).
    #[arg(long, env = "CROWN_PORT", default_value_t = 8080)]
    port: u16,
    /// SQLite database file (created if missing).
    #[arg(long, env = "CROWN_DB", default_value = "crown.db")]
    db: PathBuf,
    /// A PostgreSQL URL (`postgres://user@host:port/db`) to store games in instead of the SQLite
    /// file; several instances may share it (see docs/scaling.md).
    #[arg(long, env = "CROWN_DATABASE")]
    database: Option<String>,
    /// PostgreSQL connections per instance (besides one for change notifications).
    #[arg(long, env = "CROWN_PG_POOL", default_value_t = crown_server::store::pg::DEFAULT_POOL)]
    pg_pool: usize,
    /// With PostgreSQL: how long a per-game lease (clock and engine ownership) lasts, in ms;
    /// renewed every third of it. A dead instance's games move to another within about 4/3 of it.
    #[arg(long, env = "CROWN_LEASE_MS", default_value_t = 10_000)]
    lease_ms: u64,
    /// Directory of the web UI's static files [default: apps/wasm/www if it exists].
    #[arg(long, env = "CROWN_STATIC_DIR")]
    static_dir: Option<PathBuf>,
    /// Threads per engine search.
    #[arg(long, env = "CROWN_ENGINE_THREADS", default_value_t = 1)]
    engine_threads: usize,
    /// Engine transposition table size per search, in MiB.
    #[arg(long, env = "CROWN_HASH_MIB", default_value_t = 16)]
    hash_mib: usize,
    /// Log filter (tracing-subscriber EnvFilter syntax), e.g. `info`, `crown_server=debug`.
    #[arg(long, env = "CROWN_LOG", default_value = "info")]
    log: String,
    /// Log lines as text, or as one JSON object a line (for a log collector).
    #[arg(long, env = "CROWN_LOG_FORMAT", value_enum, default_value = "text")]
    log_format: LogFormat,
    /// A reverse proxy (CIDR, e.g. `127.0.0.1/32` or `10.0.0.0/8`; repeatable) whose
    /// `X-Forwarded-For` / `Forwarded` header names the client. The per-address limits then count
    /// the client, not the proxy, and the per-address connection cap spares the proxy. Headers
    /// from any other address are ignored.
    #[arg(long = "trusted-proxy", env = "CROWN_TRUSTED_PROXIES", value_delimiter = ',', value_parser = parse_cidr)]
    trusted_proxies: Vec<ipnet::IpNet>,
    /// A token that opens `GET /metrics` to any address that sends it as
    /// `Authorization: Bearer <token>` (loopback and the trusted proxies' networks need none).
    #[arg(long, env = "CROWN_METRICS_TOKEN", hide_env_values = true)]
    metrics_token: Option<String>,
    /// Most unfinished games held at once.
    #[arg(long, env = "CROWN_MAX_OPEN_GAMES", default_value_t = 10_000)]
    max_open_games: usize,
    /// Requests per second per client address (0 = unlimited).
    #[arg(long, env = "CROWN_RATE_LIMIT", default_value_t = 50)]
    rate_limit: u32,
    /// Burst allowed above the per-client rate.
    #[arg(long, env = "CROWN_RATE_BURST", default_value_t = 200)]
    rate_burst: u32,
    /// Bytes of the web app's files sent per second per client address, on average (0 =
    /// unlimited); beyond the burst, `429` with `Retry-After`.
    #[arg(long, env = "CROWN_STATIC_BYTES_PER_SEC", default_value_t = crown_server::config::DEFAULT_STATIC_BYTES_PER_SEC)]
    static_bytes_per_sec: u32,
    /// Bytes of the web app's files one client address may fetch at once.
    #[arg(long, env = "CROWN_STATIC_BURST_BYTES", default_value_t = crown_server::config::DEFAULT_STATIC_BURST_BYTES)]
    static_burst_bytes: u32,
    /// Largest request body, in bytes.
    #[arg(long, env = "CROWN_MAX_BODY", default_value_t = 16 * 1024)]
    max_body: usize,
    /// An open game nobody joins within this many seconds of its creation expires (0 = never).
    #[arg(long, env = "CROWN_OPEN_GAME_EXPIRY_SECS", default_value_t = 600)]
    open_game_expiry_secs: u64,
    /// Most games nobody has joined yet, per client address.
    #[arg(long, env = "CROWN_MAX_UNJOINED_PER_IP", default_value_t = 20)]
    max_unjoined_per_ip: usize,
    /// Most unfinished games in which one client address holds a seat (created or joined).
    #[arg(long, env = "CROWN_MAX_GAMES_PER_IP", default_value_t = crown_server::config::DEFAULT_MAX_GAMES_PER_IP)]
    max_games_per_ip: usize,
    /// Most unfinished games created from one client network (an IPv4 /24, an IPv6
    /// --signup-net-v6-prefix network), engine games and unjoined ones included.
    #[arg(long, env = "CROWN_MAX_GAMES_PER_NET", default_value_t = crown_server::config::DEFAULT_MAX_GAMES_PER_NET)]
    max_games_per_net: usize,
    /// Most public seeks (listed in the lobby) of one client network (an IPv4 /24, an IPv6
    /// --signup-net-v6-prefix network).
    #[arg(long, env = "CROWN_MAX_SEEKS_PER_NET", default_value_t = crown_server::config::DEFAULT_MAX_SEEKS_PER_NET)]
    max_seeks_per_net: usize,
    /// An untimed game whose player to move makes no move for this many seconds ends as
    /// abandoned (0 = never).
    #[arg(long, env = "CROWN_ABANDON_AFTER_SECS", default_value_t = crown_server::config::DEFAULT_ABANDON_AFTER_SECS)]
    abandon_after_secs: u64,
    /// In a timed game between two people, a side that does not make its first move within this
    /// many seconds aborts the game (no result; 0 = never). No clock runs before a side's first
    /// move.
    #[arg(long, env = "CROWN_ABORT_AFTER_SECS", default_value_t = crown_server::config::DEFAULT_ABORT_AFTER_SECS)]
    abort_after_secs: u64,
    /// A game that ended before both sides moved, with no result (cancelled, expired, aborted at
    /// ply 0 or 1), is deleted from the store this many seconds after its end (0 = kept for good).
    #[arg(long, env = "CROWN_PURGE_UNSTARTED_AFTER_SECS", default_value_t = crown_server::config::DEFAULT_PURGE_UNSTARTED_AFTER_SECS)]
    purge_unstarted_after_secs: u64,
    /// Most unfinished engine games, per client address.
    #[arg(long, env = "CROWN_MAX_ENGINE_GAMES_PER_IP", default_value_t = 4)]
    max_engine_games_per_ip: usize,
    /// Engine searches at once [default: cores - 1, at least 1].
    #[arg(long, env = "CROWN_ENGINE_WORKERS")]
    engine_workers: Option<usize>,
    /// Most HTTP connections open at once per client address.
    #[arg(long, env = "CROWN_MAX_CONNS_PER_IP", default_value_t = 64)]
    max_conns_per_ip: usize,
    /// A connection must send a whole request head within this many ms (also the keep-alive
    /// idle limit).
    #[arg(long, env = "CROWN_HEADER_TIMEOUT_MS", default_value_t = 10_000)]
    header_timeout_ms: u64,
    /// Most WebSockets open at once per client address.
    #[arg(long, env = "CROWN_MAX_WS_PER_IP", default_value_t = 32)]
    max_ws_per_ip: usize,
    /// Most spectators' WebSockets open at once per game (the players' sockets, with their seat
    /// tokens, are not counted; at most 4 per seat).
    #[arg(long, env = "CROWN_MAX_WS_PER_GAME", default_value_t = 500)]
    max_ws_per_game: usize,
    /// Most spectators' WebSockets open at once per game from one network (an IPv4 /24, an IPv6
    /// --signup-net-v6-prefix network; seats' sockets not counted; 0 = no cap).
    #[arg(long, env = "CROWN_MAX_SPECTATORS_PER_NETWORK", default_value_t = crown_server::config::DEFAULT_MAX_SPECTATORS_PER_NETWORK)]
    max_spectators_per_network: usize,
    /// Log-in and sign-up attempts per client address per minute (0 = no limit).
    #[arg(long, env = "CROWN_LOGIN_PER_MIN_PER_IP", default_value_t = crown_server::config::DEFAULT_LOGIN_PER_MIN_PER_IP)]
    login_per_min_per_ip: u32,
    /// Log-in attempts and password changes per username per minute from one network (an IPv4
    /// /24, an IPv6 --signup-net-v6-prefix network; 0 = no limit).
    #[arg(long, env = "CROWN_LOGIN_PER_MIN_PER_USER", default_value_t = crown_server::config::DEFAULT_LOGIN_PER_MIN_PER_USER)]
    login_per_min_per_user: u32,
    /// Log-in attempts and password changes per username per minute from all networks together
    /// (0 = no limit).
    #[arg(long, env = "CROWN_LOGIN_PER_MIN_PER_USER_TOTAL", default_value_t = crown_server::config::DEFAULT_LOGIN_PER_MIN_PER_USER_TOTAL)]
    login_per_min_per_user_total: u32,
    /// Accounts created per client address per hour, an IPv6 client counted by its
    /// --signup-net-v6-prefix network (0 = no limit).
    #[arg(long, env = "CROWN_SIGNUP_PER_HOUR_PER_IP", default_value_t = crown_server::config::DEFAULT_SIGNUP_PER_HOUR_PER_IP)]
    signup_per_hour_per_ip: u32,
    /// Games shared as PDN (`POST /api/imports`) per client address per hour, an IPv6 client
    /// counted by its --signup-net-v6-prefix network (0 = no limit).
    #[arg(long, env = "CROWN_IMPORTS_PER_HOUR_PER_IP", default_value_t = crown_server::config::DEFAULT_IMPORTS_PER_HOUR_PER_IP)]
    imports_per_hour_per_ip: u32,
    /// Tournaments not yet finished that one account may have created (0 = no cap).
    #[arg(long, env = "CROWN_TOURNAMENTS_PER_ACCOUNT", default_value_t = crown_server::config::DEFAULT_TOURNAMENTS_PER_ACCOUNT)]
    tournaments_per_account: u32,
    /// Tournaments created per client address per hour (0 = no limit).
    #[arg(long, env = "CROWN_TOURNAMENTS_PER_HOUR_PER_IP", default_value_t = crown_server::config::DEFAULT_TOURNAMENTS_PER_HOUR_PER_IP)]
    tournaments_per_hour_per_ip: u32,
    /// Most players of one tournament, any format (a Swiss: also at most 64); at least 2.
    #[arg(long, env = "CROWN_TOURNAMENT_MAX_PLAYERS", default_value_t = crown_server::config::DEFAULT_TOURNAMENT_MAX_PLAYERS as u64, value_parser = clap::value_parser!(u64).range(2..))]
    tournament_max_players: u64,
    /// Tournaments not yet started created from one network (an IPv4 /24, an IPv6
    /// --signup-net-v6-prefix network) (0 = no cap).
    #[arg(long, env = "CROWN_UPCOMING_TOURNAMENTS_PER_NETWORK", default_value_t = crown_server::config::DEFAULT_UPCOMING_TOURNAMENTS_PER_NETWORK)]
    upcoming_tournaments_per_network: u32,
    /// Challenges made (`POST /api/challenge/{username}`) per client address per hour, an IPv6
    /// client counted by its --signup-net-v6-prefix network (0 = no limit).
    #[arg(long, env = "CROWN_CHALLENGES_PER_HOUR_PER_IP", default_value_t = crown_server::config::DEFAULT_CHALLENGES_PER_HOUR_PER_IP)]
    challenges_per_hour_per_ip: u32,
    /// IPv6 prefix length (32..=64) of a sign-up network: the per-address sign-up limit counts
    /// under it, as do the imports limit and the password queue's fairness; the leaderboard
    /// counts opponents by it, and two accounts of one never rate each other (an IPv4 client's
    /// is its /24).
    #[arg(long, env = "CROWN_SIGNUP_NET_V6_PREFIX", default_value_t = crown_server::config::DEFAULT_SIGNUP_NET_V6_PREFIX, value_parser = clap::value_parser!(u8).range(32..=64))]
    signup_net_v6_prefix: u8,
    /// Rated games one pair of accounts may begin in 24 hours; further ones are played unrated
    /// (0 = no cap).
    #[arg(long, env = "CROWN_RATED_GAMES_PER_PAIR_PER_DAY", default_value_t = crown_server::config::DEFAULT_RATED_GAMES_PER_PAIR_PER_DAY)]
    rated_games_per_pair_per_day: u32,
    /// Plies a rated game must reach to change the ratings (at least 2); a shorter one, however
    /// it ends, is recorded unrated.
    #[arg(long, env = "CROWN_RATED_MIN_PLIES", default_value_t = crown_server::config::DEFAULT_RATED_MIN_PLIES, value_parser = clap::value_parser!(u32).range(2..=1000))]
    rated_min_plies: u32,
    /// Password hashes computed at once, server-wide (19 MiB each) [default: half the cores, 1
    /// or 2].
    #[arg(long, env = "CROWN_PASSWORD_WORKERS")]
    password_workers: Option<usize>,
    /// Password hashes that may wait for a worker; more get 503 password_busy. The queue is fair
    /// between networks (an IPv4 /24, an IPv6 --signup-net-v6-prefix network): a newcomer takes
    /// the newest place of a network holding at least two places more than its own.
    #[arg(long, env = "CROWN_PASSWORD_QUEUE", default_value_t = crown_server::config::DEFAULT_PASSWORD_QUEUE)]
    password_queue: usize,
    /// Rated games a rating needs to be on the leaderboard.
    #[arg(long, env = "CROWN_LEADERBOARD_MIN_GAMES", default_value_t = crown_server::config::DEFAULT_LEADERBOARD_MIN_GAMES)]
    leaderboard_min_games: u64,
    /// Different opponents' sign-up networks (IPv4 /24, IPv6 --signup-net-v6-prefix; not the player's own) a player
    /// needs to be on the leaderboard.
    #[arg(long, env = "CROWN_LEADERBOARD_MIN_OPPONENTS", default_value_t = crown_server::config::DEFAULT_LEADERBOARD_MIN_OPPONENTS)]
    leaderboard_min_opponents: u64,
    /// Plies a rated game must have reached to count toward --leaderboard-min-games.
    #[arg(long, env = "CROWN_LEADERBOARD_MIN_PLIES", default_value_t = crown_server::config::DEFAULT_LEADERBOARD_MIN_PLIES)]
    leaderboard_min_plies: u64,
    /// Largest rating deviation ranked on the leaderboard (default 110: provisional ratings are
    /// not ranked; 350 ranks every rating).
    #[arg(long, env = "CROWN_LEADERBOARD_MAX_DEVIATION", default_value_t = crown_rating::glicko::PROVISIONAL_DEVIATION)]
    leaderboard_max_deviation: f64,
    /// How each commit reaches the disk: `full` survives power loss, `normal` survives a crash.
    #[arg(long, env = "CROWN_SYNC", value_enum, default_value = "full")]
    sync: Durability,
    /// Endgame database directory [default: the per-user data directory, e.g.
    /// ~/.local/share/crown/egdb, where `crown egdb build` writes]. Missing or broken files are a
    /// warning; the engine then plays without them.
    #[arg(long, env = "CROWN_EGDB_DIR")]
    egdb_dir: Option<PathBuf>,
    /// Play without endgame databases.
    #[arg(long, conflicts_with = "egdb_dir")]
    no_egdb: bool,
    /// Do not build the recommended endgame databases (≤5 pieces) of the games played in the
    /// background when the default directory lacks them (also: CROWN_EGDB_BUILD=0; never with
    /// --egdb-dir or --no-egdb). `/health` reports the build under `egdb.build`.
    #[arg(long)]
    no_egdb_build: bool,
    /// Search every engine move instead of playing the opening from the embedded book.
    #[arg(long)]
    no_book: bool,
    /// Run as the engine worker process the server starts (searches asked on stdin, moves
    /// answered on stdout; see crown_server::engine::serve_worker). Not for people.
    #[arg(long, hide = true)]
    engine_worker: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

/// The maintenance commands (without one, the server runs).
#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Copy a SQLite store, which a running server may be using, to a file: a consistent copy
    /// of every game committed before the backup began (SQLite's online backup API).
    Backup {
        /// The store (the server's --db).
        #[arg(long)]
        db: PathBuf,
        /// The backup file to write.
        #[arg(long)]
        out: PathBuf,
        /// Overwrite --out if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Make a SQLite store from a backup. Stop the server that uses --db first.
    Restore {
        /// The backup file (from `crown-server backup`).
        #[arg(long)]
        from: PathBuf,
        /// The store to write (the server's --db).
        #[arg(long)]
        db: PathBuf,
        /// Overwrite --db if it exists (its write-ahead log is discarded).
        #[arg(long)]
        force: bool,
    },
}

/// The format of log lines (`--log-format`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum LogFormat {
    /// Human-readable lines (colored on a terminal).
    Text,
    /// One JSON object a line: `timestamp`, `level`, `target`, `message` and the event's fields.
    Json,
}

/// A `--trusted-proxy` value: a CIDR block, or one address (`/32`, `/128`).
fn parse_cidr(s: &str) -> Result<ipnet::IpNet, String> {
    let s = s.trim();
    s.parse::<ipnet::IpNet>()
        .or_else(|_| s.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map(|n| n.trunc())
        .map_err(|_| format!("'{s}' is not a CIDR block (e.g. 10.0.0.0/8) or an IP address"))
}

fn main() {
    let args = Args::parse();
    if let Err(e) = run(args) {
        eprintln!("crown-server: {e}");
        std::process::exit(1);
    }
}

fn run(args: Args) -> Result<(), String> {
    match &args.command {
        Some(Command::Backup { db, out, force }) => {
            let c = crown_server::backup::backup(db, out, *force)
                .map_err(|e| format!("backup of {} failed: {e}", db.display()))?;
            println!(
                "backed up {} to {}: {} games, {} moves",
                db.display(),
                out.display(),
                c.games,
                c.moves
            );
            return Ok(());
        }
        Some(Command::Restore { from, db, force }) => {
            let c = crown_server::backup::restore(from, db, *force)
                .map_err(|e| format!("restore from {} failed: {e}", from.display()))?;
            println!(
                "restored {} from {}: {} games, {} moves",
                db.display(),
                from.display(),
                c.games,
                c.moves
            );
            return Ok(());
        }
        None => {}
    }
    let logs = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_new(&args.log)
                .map_err(|e| format!("bad --log filter '{}': {e}", args.log))?,
        )
        .with_writer(std::io::stderr);
    match args.log_format {
        LogFormat::Text => logs
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .init(),
        LogFormat::Json => logs.json().with_ansi(false).init(),
    }
    if args.engine_worker {
        return run_engine_worker(&args);
    }
    let worker_args = worker_args(&args);
    let static_dir = match args.static_dir {
        Some(d) => {
            if !d.is_dir() {
                return Err(format!("--static-dir {}: not a directory", d.display()));
            }
            Some(d)
        }
        None => Some(PathBuf::from("apps/wasm/www")).filter(|d| d.is_dir()),
    };
    let config = Config {
        static_dir,
        max_body_bytes: args.max_body,
        rate_per_sec: args.rate_limit,
        rate_burst: args.rate_burst,
        static_bytes_per_sec: args.static_bytes_per_sec,
        static_burst_bytes: args.static_burst_bytes,
        max_open_games: args.max_open_games,
        open_game_ttl_ms: args.open_game_expiry_secs.saturating_mul(1000),
        max_unjoined_per_ip: args.max_unjoined_per_ip,
        max_engine_games_per_ip: args.max_engine_games_per_ip,
        max_games_per_ip: args.max_games_per_ip,
        max_games_per_net: args.max_games_per_net,
        max_seeks_per_net: args.max_seeks_per_net,
        abandon_after_ms: args.abandon_after_secs.saturating_mul(1000),
        abort_after_ms: args.abort_after_secs.saturating_mul(1000),
        purge_unstarted_after_ms: args.purge_unstarted_after_secs.saturating_mul(1000),
        max_conns_per_ip: args.max_conns_per_ip,
        header_read_timeout_ms: args.header_timeout_ms,
        max_ws_per_ip: args.max_ws_per_ip,
        max_ws_per_game: args.max_ws_per_game,
        max_spectators_per_network: args.max_spectators_per_network,
        login_per_min_per_ip: args.login_per_min_per_ip,
        login_per_min_per_user: args.login_per_min_per_user,
        login_per_min_per_user_total: args.login_per_min_per_user_total,
        signup_per_hour_per_ip: args.signup_per_hour_per_ip,
        imports_per_hour_per_ip: args.imports_per_hour_per_ip,
        tournaments_per_account: args.tournaments_per_account,
        tournaments_per_hour_per_ip: args.tournaments_per_hour_per_ip,
        tournament_max_players: usize::try_from(args.tournament_max_players).unwrap_or(usize::MAX),
        upcoming_tournaments_per_network: args.upcoming_tournaments_per_network,
        challenges_per_hour_per_ip: args.challenges_per_hour_per_ip,
        signup_net_v6_prefix: args.signup_net_v6_prefix,
        rated_games_per_pair_per_day: args.rated_games_per_pair_per_day,
        rated_min_plies: args.rated_min_plies,
        password_queue: args.password_queue,
        leaderboard_min_games: args.leaderboard_min_games,
        leaderboard_min_opponents: args.leaderboard_min_opponents,
        leaderboard_min_plies: args.leaderboard_min_plies,
        leaderboard_max_deviation: args.leaderboard_max_deviation,
        lease_ms: args.lease_ms.max(300),
        trusted_proxies: args.trusted_proxies.clone(),
        metrics_token: args.metrics_token.clone().filter(|t| !t.is_empty()),
        ..Config::default()
    };
    let config = Config {
        engine_workers: args.engine_workers.unwrap_or(config.engine_workers).max(1),
        password_workers: args
            .password_workers
            .unwrap_or(config.password_workers)
            .max(1),
        // The browser's engine loads the ≤4-piece files of the engine's own directory.
        egdb_dir: if args.no_egdb {
            None
        } else {
            args.egdb_dir
                .clone()
                .or_else(crown_egdb::Tablebase::default_dir)
        },
        ..config
    };
    let store: Arc<dyn crown_server::store::Store> = match &args.database {
        Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
            Arc::new(
                crown_server::store::pg::PgStore::connect_with(url, args.pg_pool)
                    .map_err(|e| format!("cannot open database --database: {e}"))?,
            )
        }
        Some(other) => {
            return Err(format!(
                "--database must be a postgres:// URL, not '{other}' (use --db for SQLite)"
            ))
        }
        None => Arc::new(
            SqliteStore::open(&args.db, args.sync)
                .map_err(|e| format!("cannot open database {}: {e}", args.db.display()))?,
        ),
    };
    let tables = if args.no_egdb {
        None
    } else {
        crown_ai::tables::load(args.egdb_dir.as_deref()).unwrap_or_else(|e| {
            tracing::warn!("{e}; the engine plays without endgame databases");
            None
        })
    };
    match &tables {
        Some(t) => tracing::info!(egdb = %t.describe(), "endgame databases loaded"),
        None => tracing::info!("no endgame databases"),
    }
    // The background build (crown_ai::tables::auto): only for the default directory, i.e. not
    // with --egdb-dir on the command line (`egdb_dir` also holds $CROWN_EGDB_DIR: clap's env).
    let env_dir = std::env::var_os("CROWN_EGDB_DIR").map(PathBuf::from);
    let request = crown_ai::tables::auto::Request {
        dir_given: args.egdb_dir.is_some() && args.egdb_dir != env_dir,
        no_egdb: args.no_egdb,
        no_build: args.no_egdb_build,
    };
    let pieces = crown_ai::tables::auto::env_pieces(
        std::env::var_os(crown_ai::tables::auto::BUILD_ENV).as_deref(),
    )
    .unwrap_or(crown_ai::tables::auto::RECOMMENDED_PIECES);
    let observer = move |s: &crown_ai::tables::auto::Status| {
        tracing::info!(state = s.id(), "endgame database build: {}", s.line(pieces));
    };
    let auto = match crown_ai::tables::auto::AutoBuild::for_front_end(
        request,
        tables.clone(),
        Some(Box::new(observer)),
    ) {
        Ok(a) => {
            tracing::info!(dir = %a.dir().display(), pieces = a.pieces(), "endgame database background build on");
            Some(a)
        }
        Err(crown_ai::tables::auto::Off::NoThread(e)) => {
            tracing::warn!("{e}");
            None
        }
        Err(off) => {
            tracing::info!(reason = ?off, "endgame database background build off");
            None
        }
    };
    // The engine searches in a worker process of its own (this binary, --engine-worker), so that
    // its CPU is charged to another scheduling group than request handling (docs/api.md).
    let engine: Option<Arc<dyn crown_server::engine::MovePicker>> = match std::env::current_exe() {
        Ok(exe) => Some(Arc::new(
            crown_server::engine::WorkerPicker::new(exe, worker_args)
                .with_tables(tables)
                .with_auto_build(auto),
        )),
        Err(e) => {
            tracing::warn!(error = %e, "cannot find this program to start the engine worker; the engine searches in the server process");
            Some(Arc::new(
                crown_server::engine::CrownEngine::new(args.engine_threads, args.hash_mib)
                    .with_tables(tables)
                    .with_book(!args.no_book)
                    .with_auto_build(auto),
            ))
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(async move {
        let app = App::start(store, config.clone(), engine).await?;
        let listener = tokio::net::TcpListener::bind((args.bind.as_str(), args.port))
            .await
            .map_err(|e| format!("cannot listen on {}:{}: {e}", args.bind, args.port))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        match &config.static_dir {
            Some(d) => tracing::info!(dir = %d.display(), "serving the web UI"),
            None => tracing::info!("no web UI directory: serving the built-in index page"),
        }
        // With PostgreSQL the SQLite file is unused; the URL is not logged (it may hold a password).
        let db = match &args.database {
            Some(_) => "PostgreSQL (--database)".to_string(),
            None => args.db.display().to_string(),
        };
        tracing::info!(%db, %addr, "listening");
        println!("Crown server listening on http://{addr}/");
        use std::io::Write;
        let _ = std::io::stdout().flush();
        crown_server::serve(app, listener, shutdown_signal())
            .await
            .map_err(|e| format!("server error: {e}"))
    })?;
    tracing::info!("stopped");
    Ok(())
}

/// The arguments of the engine worker: this server's engine options.
fn worker_args(args: &Args) -> Vec<std::ffi::OsString> {
    let mut v: Vec<std::ffi::OsString> = vec![
        "--engine-worker".into(),
        "--engine-threads".into(),
        args.engine_threads.to_string().into(),
        "--hash-mib".into(),
        args.hash_mib.to_string().into(),
        "--log".into(),
        args.log.clone().into(),
    ];
    if args.log_format == LogFormat::Json {
        v.push("--log-format".into());
        v.push("json".into());
    }
    if args.no_book {
        v.push("--no-book".into());
    }
    if args.no_egdb {
        v.push("--no-egdb".into());
    } else if let Some(d) = &args.egdb_dir {
        v.push("--egdb-dir".into());
        v.push(d.clone().into());
    }
    v
}

/// `--engine-worker`: serve searches on stdin/stdout at the lowest priority until stdin ends.
fn run_engine_worker(args: &Args) -> Result<(), String> {
    crown_server::engine::lower_worker_priority();
    let load = {
        let (no_egdb, dir) = (args.no_egdb, args.egdb_dir.clone());
        move || {
            if no_egdb {
                return None;
            }
            crown_ai::tables::load(dir.as_deref()).unwrap_or_else(|e| {
                tracing::warn!("engine worker: {e}; searching without endgame databases");
                None
            })
        }
    };
    let live = Arc::new(crown_ai::tables::auto::LiveTables::new(load()));
    let engine = crown_server::engine::CrownEngine::new(args.engine_threads, args.hash_mib)
        .with_tables(Some(live.clone()))
        .with_book(!args.no_book);
    crown_server::engine::serve_worker(
        Arc::new(engine),
        std::io::stdin().lock(),
        std::io::stdout(),
        move || live.set(load()),
    );
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}

//! The server's settings ([`Config`]) and their defaults.

use std::path::PathBuf;

/// Server settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Directory of the web UI's static files; `None` (or a missing directory) serves the built-in
    /// index page instead.
    pub static_dir: Option<PathBuf>,
    /// Largest request body accepted, in bytes.
    pub max_body_bytes: usize,
    /// Requests per second allowed per client IP address (token bucket); 0 disables the limit.
    pub rate_per_sec: u32,
    /// Burst size of the per-client token bucket.
    pub rate_burst: u32,
    /// Bytes of the web app's own files (`--static-dir`) sent per second per client address, on
    /// average (token bucket, each response costing its body's bytes plus
    /// [`STATIC_REQUEST_BYTES`]); 0 disables the limit. A separate budget from
    /// [`Config::rate_per_sec`]'s: a page load asks for dozens of files.
    pub static_bytes_per_sec: u32,
    /// Burst of [`Config::static_bytes_per_sec`], in bytes: what one address may fetch at once
    /// (many first loads of the whole app, uncompressed).
    pub static_burst_bytes: u32,
    /// Most games not finished at once; creating more is refused with 503.
    pub max_open_games: usize,
    /// Time limit for one HTTP request, in ms.
    pub request_timeout_ms: u64,
    /// Interval of WebSocket pings, in ms.
    pub ws_ping_ms: u64,
    /// An open game nobody joins within this time of its creation expires (ends as cancelled),
    /// in ms; 0 never expires.
    pub open_game_ttl_ms: u64,
    /// A connection must send a whole request head within this time of being opened or of its
    /// previous response (keep-alive), in ms; otherwise it is closed.
    pub header_read_timeout_ms: u64,
    /// Largest request head (request line and headers), in bytes; larger ones are refused.
    pub max_header_bytes: usize,
    /// Most HTTP connections open at once from one client address; more are closed at once.
    pub max_conns_per_ip: usize,
    /// Most games nobody has joined yet (status `open`) created from one client address; more are
    /// refused with `429 too_many_unjoined`.
    pub max_unjoined_per_ip: usize,
    /// Most unfinished games in which one client address holds a seat (created or joined; a
    /// game where it holds both seats counts once); more are refused with
    /// `429 too_many_active_games`. Counted per instance, from the requests this instance
    /// served since it started.
    pub max_games_per_ip: usize,
    /// Most unfinished games created from one client network (an IPv4 /24, an IPv6
    /// [`Config::signup_net_v6_prefix`] network, [`crate::accounts::network::network_block`]),
    /// joined or not, engine games included, beside the per-address limits: one network's many
    /// addresses cannot take [`Config::max_open_games`] from everyone else; more are refused with
    /// `429 too_many_network_games`. Counted per instance, from the requests this instance
    /// served since it started.
    pub max_games_per_net: usize,
    /// Most public seeks (unjoined games created with `"public": true`, listed in the lobby) of
    /// one client network (as [`Config::max_games_per_net`]); more are refused with
    /// `429 too_many_seeks`. Counted per instance, from the requests this instance served since
    /// it started.
    pub max_seeks_per_net: usize,
    /// An untimed game whose side to move (a person) makes no move within this time of the
    /// start of its turn ends as abandoned (no result, event `abandoned`), in ms; 0 never.
    /// Timed games end by their flag instead.
    pub abandon_after_ms: u64,
    /// In a timed game between two people, no clock runs before a side's first move; a side
    /// that does not make its first move within this time of the start of its turn aborts the
    /// game (no result, status `aborted`), in ms; 0 never. Applies to games created after it is
    /// set (each game keeps the limit it was created with).
    pub abort_after_ms: u64,
    /// A game that ended before both sides moved, with no result (cancelled, expired, aborted or
    /// abandoned at ply 0 or 1; not a tournament game, none in an account's archive) is deleted
    /// from the store,
    /// with its chat, this long after its end, in ms ([`crate::store::Store::purge_unstarted`]);
    /// 0 keeps them for good.
    pub purge_unstarted_after_ms: u64,
    /// Engine searches running at once (a bounded pool; more wait, with the engine's clock
    /// stopped). Searches run at a lower OS priority than request handling (Linux: in an engine
    /// worker process in a session of its own, its autogroup and itself at nice 19; in-process,
    /// when the server cannot start its own binary as a worker: threads at nice +10).
    pub engine_workers: usize,
    /// Most unfinished engine games created from one client address; more are refused with
    /// `429 too_many_engine_games`.
    pub max_engine_games_per_ip: usize,
    /// Most WebSockets open at once from one client address.
    pub max_ws_per_ip: usize,
    /// Most spectators' WebSockets open at once on one game (a socket with a valid seat token of
    /// the game is not counted: see `routes::ws::MAX_WS_PER_SEAT`).
    pub max_ws_per_game: usize,
    /// Most spectators' WebSockets open at once on one game from one network (an IPv4 /24, an
    /// IPv6 [`Config::signup_net_v6_prefix`] network), so that filling a game's
    /// [`Config::max_ws_per_game`] takes many networks; sockets with a seat token are not
    /// counted; 0 disables the cap.
    pub max_spectators_per_network: usize,
    /// Messages per second a client may send on one WebSocket (token bucket; a socket that
    /// exceeds it is closed with code 1008).
    pub ws_msgs_per_sec: u32,
    /// Burst of messages allowed above `ws_msgs_per_sec`.
    pub ws_msg_burst: u32,
    /// With a shared store (PostgreSQL): how long a per-game lease lasts, in ms. The owning
    /// instance renews its leases every third of this; when it dies, another instance takes its
    /// games over within `lease_ms` plus one renewal interval (docs/scaling.md).
    pub lease_ms: u64,
    /// The endgame database directory whose files the browser's engine loads
    /// (`/egdb/index.json`, `routes::egdb_files`); `None`: an empty index.
    pub egdb_dir: Option<PathBuf>,
    /// The browser gets the complete sets up to this many pieces ([`DEFAULT_EGDB_SERVE_PIECES`]).
    pub egdb_serve_pieces: u32,
    /// Log-in and sign-up attempts allowed per client address per minute (also the burst);
    /// more get `429 login_rate_limited`; 0 disables the limit.
    pub login_per_min_per_ip: u32,
    /// Log-in attempts (and password changes) allowed per username per minute from one network
    /// (an IPv4 /24, an IPv6 [`Config::signup_net_v6_prefix`] network; also the burst), so that
    /// a stranger's failures throttle the stranger's network only; 0 disables the limit.
    pub login_per_min_per_user: u32,
    /// Log-in attempts (and password changes) allowed per username per minute from all networks
    /// together (also the burst): the ceiling on guessing from many networks, high enough that
    /// one or a few networks cannot reach it; 0 disables it.
    pub login_per_min_per_user_total: u32,
    /// How long a log-in session lasts, in ms (the cookie's `Max-Age` and the stored expiry).
    pub session_ttl_ms: u64,
    /// Accounts created per client address (an IPv6 client: per sign-up network,
    /// [`Config::signup_net_v6_prefix`]) per hour (also the burst); more get
    /// `429 signup_rate_limited`; 0 disables the limit. Sign-ups count against
    /// [`Config::login_per_min_per_ip`] too.
    pub signup_per_hour_per_ip: u32,
    /// Games shared (`POST /api/imports`) per client address per hour (also the burst), an IPv6
    /// client counted by its [`Config::signup_net_v6_prefix`] network; more get
    /// `429 import_rate_limited`; 0 disables the limit.
    pub imports_per_hour_per_ip: u32,
    /// Tournaments not yet finished (`created` or `running`) that one account may have created;
    /// one more gets `429 too_many_tournaments`; 0 disables the cap.
    pub tournaments_per_account: u32,
    /// Tournaments created (`POST /api/tournaments`) per client address per hour (also the
    /// burst); more get `429 tournament_rate_limited`; 0 disables the limit.
    pub tournaments_per_hour_per_ip: u32,
    /// Most players (not withdrawn) of one tournament, whatever its format (a Swiss also at
    /// most `crown_tournament::MAX_SWISS_PLAYERS`); one more gets `409 tournament_full`. Entries
    /// withdrawn before the start still count toward twice this, so that joining and
    /// withdrawing cannot grow a tournament without bound. At least 2.
    pub tournament_max_players: usize,
    /// Tournaments not yet started (`created`: the upcoming list) created from one network (an
    /// IPv4 /24, an IPv6 [`Config::signup_net_v6_prefix`] network); one more gets
    /// `429 too_many_upcoming_tournaments`; 0 disables the cap.
    pub upcoming_tournaments_per_network: u32,
    /// Challenges made (`POST /api/challenge/{username}`) per client address per hour (also the
    /// burst), an IPv6 client counted by its [`Config::signup_net_v6_prefix`] network; more get
    /// `429 challenge_rate_limited`; 0 disables the limit.
    pub challenges_per_hour_per_ip: u32,
    /// A challenge nobody answers expires this long after it was made, in ms.
    pub challenge_ttl_ms: u64,
    /// A pending challenge also expires once its challenger has not read its challenges
    /// (`GET /api/challenge`, `GET /api/challenge/{id}`: the web app does every few seconds)
    /// for this long, in ms: the challenger is gone.
    pub challenge_away_ms: u64,
    /// The IPv6 prefix length (32..=64) of a client's sign-up network
    /// ([`crate::accounts::network`]; an IPv4 client's is its /24): the per-address sign-up
    /// limit ([`Config::signup_per_hour_per_ip`]) counts under it too, and accounts of one such
    /// network are one network toward the leaderboard and never rate each other.
    pub signup_net_v6_prefix: u8,
    /// Rated games one pair of accounts may begin in 24 hours (counted: those finished with
    /// a rating change, and those being played); a pair's further games that day are played
    /// unrated (`unrated_reason: "pair_limit"`). 0: no cap.
    pub rated_games_per_pair_per_day: u32,
    /// Plies a rated game must reach to change the ratings (at least 2, each side's first
    /// move): one that ends before, however it ends, is recorded unrated
    /// (`unrated_reason: "too_short"`).
    pub rated_min_plies: u32,
    /// Password hashes (Argon2id, 19 MiB each) computed at once, server-wide: the memory and CPU
    /// that log-ins, sign-ups and password changes can take (at least 1; by default half the
    /// cores, 1 or 2).
    pub password_workers: usize,
    /// Password hashes that may wait for a worker beyond [`Config::password_workers`]; more are
    /// refused at once with `503 password_busy` (and `Retry-After`).
    pub password_queue: usize,
    /// Rated games a rating needs to be on the leaderboard.
    pub leaderboard_min_games: u64,
    /// Different sign-up networks of the opponents a player must have played rated games of the
    /// variant and speed against to be on the leaderboard, not counting the player's own network
    /// (against rating farms of accounts made for the purpose; [`crate::accounts::network`]).
    pub leaderboard_min_opponents: u64,
    /// Plies a rated game must have reached to count toward [`Config::leaderboard_min_games`]
    /// (with a [`Config::rated_min_plies`] below it, a shorter one still changes the ratings; it
    /// is only not counted for the leaderboard).
    pub leaderboard_min_plies: u64,
    /// Largest rating deviation shown on the leaderboard: by default
    /// [`crown_rating::glicko::PROVISIONAL_DEVIATION`], so provisional ratings are not ranked.
    pub leaderboard_max_deviation: f64,
    /// The reverse proxies whose `X-Forwarded-For` (or, without it, `Forwarded`) header names
    /// the client ([`crate::proxy`]); a request from any other address is the client itself,
    /// whatever its headers say. Empty (the default): no header is trusted.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// A bearer token that opens `GET /metrics` to any address; without it (or without the right
    /// one) only loopback and the networks of `trusted_proxies` may scrape.
    pub metrics_token: Option<String>,
}

/// Default of [`Config::challenges_per_hour_per_ip`].
pub const DEFAULT_CHALLENGES_PER_HOUR_PER_IP: u32 = 60;

/// Default of [`Config::challenge_ttl_ms`]: 10 minutes.
pub const DEFAULT_CHALLENGE_TTL_MS: u64 = 10 * 60 * 1000;

/// Default of [`Config::challenge_away_ms`]: 1 minute.
pub const DEFAULT_CHALLENGE_AWAY_MS: u64 = 60 * 1000;

/// Default of [`Config::max_games_per_ip`].
pub const DEFAULT_MAX_GAMES_PER_IP: usize = 32;

/// Default of [`Config::max_games_per_net`]: two addresses' worth of
/// [`DEFAULT_MAX_GAMES_PER_IP`], well below the default `max_open_games` (10 000).
pub const DEFAULT_MAX_GAMES_PER_NET: usize = 64;

/// Default of [`Config::max_seeks_per_net`].
pub const DEFAULT_MAX_SEEKS_PER_NET: usize = 3;

/// Default of [`Config::abandon_after_ms`], in seconds: one day without a move.
pub const DEFAULT_ABANDON_AFTER_SECS: u64 = 24 * 3600;

/// Default of [`Config::abort_after_ms`], in seconds (lichess and lidraughts give about as long
/// for the first move).
pub const DEFAULT_ABORT_AFTER_SECS: u64 = 30;

/// Default of [`Config::purge_unstarted_after_ms`], in seconds: an hour, long enough for a
/// link to a cancelled game to still show what happened.
pub const DEFAULT_PURGE_UNSTARTED_AFTER_SECS: u64 = 3600;

/// Default of [`Config::login_per_min_per_ip`].
pub const DEFAULT_LOGIN_PER_MIN_PER_IP: u32 = 30;

/// Default of [`Config::login_per_min_per_user`].
pub const DEFAULT_LOGIN_PER_MIN_PER_USER: u32 = 10;

/// Default of [`Config::login_per_min_per_user_total`]: ten networks' worth of
/// [`DEFAULT_LOGIN_PER_MIN_PER_USER`].
pub const DEFAULT_LOGIN_PER_MIN_PER_USER_TOTAL: u32 = 100;

/// Default of [`Config::max_spectators_per_network`].
pub const DEFAULT_MAX_SPECTATORS_PER_NETWORK: usize = 4;

/// Default of [`Config::signup_per_hour_per_ip`].
pub const DEFAULT_SIGNUP_PER_HOUR_PER_IP: u32 = 5;

/// Default of [`Config::imports_per_hour_per_ip`].
pub const DEFAULT_IMPORTS_PER_HOUR_PER_IP: u32 = 30;

/// Default of [`Config::tournaments_per_account`].
pub const DEFAULT_TOURNAMENTS_PER_ACCOUNT: u32 = 3;

/// Default of [`Config::tournaments_per_hour_per_ip`].
pub const DEFAULT_TOURNAMENTS_PER_HOUR_PER_IP: u32 = 10;
/// Default of [`Config::tournament_max_players`]: as many as a Swiss pairs
/// (`crown_tournament::MAX_SWISS_PLAYERS`).
pub const DEFAULT_TOURNAMENT_MAX_PLAYERS: usize = 64;

/// Default of [`Config::upcoming_tournaments_per_network`].
pub const DEFAULT_UPCOMING_TOURNAMENTS_PER_NETWORK: u32 = 3;

/// Default of [`Config::signup_net_v6_prefix`]: a /48, the most a provider gives one
/// subscriber (many give a /56), so that one line's many /64s are one network.
pub const DEFAULT_SIGNUP_NET_V6_PREFIX: u8 = 48;

/// What each response of the web app's files costs of [`Config::static_bytes_per_sec`] besides
/// its body: 1 KiB (its headers, and a bound on requests answered with no body, `304`s).
pub const STATIC_REQUEST_BYTES: u64 = 1024;

/// Default of [`Config::static_bytes_per_sec`]: 2 MiB a second.
pub const DEFAULT_STATIC_BYTES_PER_SEC: u32 = 2 << 20;

/// Default of [`Config::static_burst_bytes`]: 128 MiB, twenty first loads of the whole web app
/// uncompressed (about 6 MiB, the engine's `.wasm` 4 MiB of it).
pub const DEFAULT_STATIC_BURST_BYTES: u32 = 128 << 20;

/// Default of [`Config::rated_games_per_pair_per_day`].
pub const DEFAULT_RATED_GAMES_PER_PAIR_PER_DAY: u32 = 10;

/// Default of [`Config::rated_min_plies`]: five moves of each side, as
/// [`DEFAULT_LEADERBOARD_MIN_PLIES`].
pub const DEFAULT_RATED_MIN_PLIES: u32 = 10;

/// Most of the default [`Config::password_workers`]: two hashes at once (38 MiB).
pub const DEFAULT_PASSWORD_WORKERS_MAX: usize = 2;

/// Default of [`Config::password_queue`].
pub const DEFAULT_PASSWORD_QUEUE: usize = 16;

/// Default of [`Config::leaderboard_min_games`].
pub const DEFAULT_LEADERBOARD_MIN_GAMES: u64 = 10;

/// Default of [`Config::leaderboard_min_plies`]: five moves of each side.
pub const DEFAULT_LEADERBOARD_MIN_PLIES: u64 = 10;

/// Default of [`Config::leaderboard_min_opponents`]: five networks other than the player's, so
/// that a farm of accounts made from a few addresses cannot list one of them.
pub const DEFAULT_LEADERBOARD_MIN_OPPONENTS: u64 = 5;

/// The largest sets served to the browser: ≤4 pieces (American ≤4 is 5.3 MB of files, about
/// 3 MB gzip-compressed; ≤5 would be about 150 MB, too much for a page).
pub const DEFAULT_EGDB_SERVE_PIECES: u32 = 4;

impl Default for Config {
    fn default() -> Self {
        Config {
            static_dir: None,
            max_body_bytes: 16 * 1024,
            rate_per_sec: 50,
            rate_burst: 200,
            static_bytes_per_sec: DEFAULT_STATIC_BYTES_PER_SEC,
            static_burst_bytes: DEFAULT_STATIC_BURST_BYTES,
            max_open_games: 10_000,
            request_timeout_ms: 10_000,
            ws_ping_ms: 20_000,
            open_game_ttl_ms: 10 * 60 * 1000,
            header_read_timeout_ms: 10_000,
            max_header_bytes: 64 * 1024,
            max_conns_per_ip: 64,
            max_unjoined_per_ip: 20,
            max_games_per_ip: DEFAULT_MAX_GAMES_PER_IP,
            max_games_per_net: DEFAULT_MAX_GAMES_PER_NET,
            max_seeks_per_net: DEFAULT_MAX_SEEKS_PER_NET,
            abandon_after_ms: DEFAULT_ABANDON_AFTER_SECS * 1000,
            abort_after_ms: DEFAULT_ABORT_AFTER_SECS * 1000,
            purge_unstarted_after_ms: DEFAULT_PURGE_UNSTARTED_AFTER_SECS * 1000,
            engine_workers: std::thread::available_parallelism()
                .map_or(1, |n| n.get().saturating_sub(1).max(1)),
            max_engine_games_per_ip: 4,
            max_ws_per_ip: 32,
            max_ws_per_game: 500,
            max_spectators_per_network: DEFAULT_MAX_SPECTATORS_PER_NETWORK,
            ws_msgs_per_sec: 5,
            ws_msg_burst: 20,
            lease_ms: 10_000,
            egdb_dir: None,
            egdb_serve_pieces: DEFAULT_EGDB_SERVE_PIECES,
            login_per_min_per_ip: DEFAULT_LOGIN_PER_MIN_PER_IP,
            login_per_min_per_user: DEFAULT_LOGIN_PER_MIN_PER_USER,
            login_per_min_per_user_total: DEFAULT_LOGIN_PER_MIN_PER_USER_TOTAL,
            session_ttl_ms: 30 * 24 * 3600 * 1000,
            signup_per_hour_per_ip: DEFAULT_SIGNUP_PER_HOUR_PER_IP,
            imports_per_hour_per_ip: DEFAULT_IMPORTS_PER_HOUR_PER_IP,
            tournaments_per_account: DEFAULT_TOURNAMENTS_PER_ACCOUNT,
            tournaments_per_hour_per_ip: DEFAULT_TOURNAMENTS_PER_HOUR_PER_IP,
            tournament_max_players: DEFAULT_TOURNAMENT_MAX_PLAYERS,
            upcoming_tournaments_per_network: DEFAULT_UPCOMING_TOURNAMENTS_PER_NETWORK,
            challenges_per_hour_per_ip: DEFAULT_CHALLENGES_PER_HOUR_PER_IP,
            challenge_ttl_ms: DEFAULT_CHALLENGE_TTL_MS,
            challenge_away_ms: DEFAULT_CHALLENGE_AWAY_MS,
            signup_net_v6_prefix: DEFAULT_SIGNUP_NET_V6_PREFIX,
            rated_games_per_pair_per_day: DEFAULT_RATED_GAMES_PER_PAIR_PER_DAY,
            rated_min_plies: DEFAULT_RATED_MIN_PLIES,
            // Half the cores, 1 or 2: hashing never takes every core from the games.
            password_workers: std::thread::available_parallelism()
                .map_or(1, |n| (n.get() / 2).clamp(1, DEFAULT_PASSWORD_WORKERS_MAX)),
            password_queue: DEFAULT_PASSWORD_QUEUE,
            leaderboard_min_games: DEFAULT_LEADERBOARD_MIN_GAMES,
            leaderboard_min_opponents: DEFAULT_LEADERBOARD_MIN_OPPONENTS,
            leaderboard_min_plies: DEFAULT_LEADERBOARD_MIN_PLIES,
            leaderboard_max_deviation: crown_rating::glicko::PROVISIONAL_DEVIATION,
            trusted_proxies: Vec::new(),
            metrics_token: None,
        }
    }
}

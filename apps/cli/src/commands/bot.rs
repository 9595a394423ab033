//! `crown bot`: connect a Hub engine (docs/protocol.md) to a Crown server as a bot account, through
//! the server's bot API (docs/api.md, "API tokens and bot accounts"). The engine is driven by
//! crown-arena's [`ExternalEngine`] (the driver of `crown match --engine-b-bin`), one engine
//! process per game being played.
//!
//! The bot reads its event stream; it accepts the challenges in the variants the engine offers
//! (its `param name=variant … values="…"` line) while it plays fewer than `--max-games` games, and
//! declines the others with a reason; for each `gameStart` it reads the game's stream in a thread
//! of its own and, on its turn, sends the position and the clock to the engine (`pos`, `level`,
//! `go think`) and posts the engine's move. A dropped stream is opened again after a back-off
//! (1 s, doubling to 60 s); the event stream then tells the unfinished games again, so a bot
//! restarted or reconnected resumes them.

use crate::CliError;
use clap::Args;
use crown_ai::{Clock, Limits};
use crown_arena::external::{EgdbWanted, ExternalEngine, ExternalOptions};
use crown_arena::Player;
use crown_core::{Color, Game, Position, Variant};
use serde_json::Value;
use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Arguments of `crown bot`.
#[derive(Args, Debug)]
pub struct BotArgs {
    /// The server, e.g. `https://crown.example` or `http://127.0.0.1:8080`.
    #[arg(long)]
    pub server: String,
    /// A file holding the bot account's API token (scope `bot:play`; made with
    /// `POST /api/account/tokens`, the account made a bot with `POST /api/bot/account/upgrade`).
    #[arg(long)]
    pub token_file: PathBuf,
    /// The Hub engine: a program and its arguments, separated by spaces (no quoting). Default:
    /// this program's `crown engine`.
    #[arg(long)]
    pub engine: Option<String>,
    /// Hash table of each engine, in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Time for a move of an untimed game, in ms.
    #[arg(long, default_value_t = 1000)]
    pub move_time: u64,
    /// Most games played at once; further challenges are declined (`later`).
    #[arg(long, default_value_t = 4)]
    pub max_games: usize,
    /// Accept correspondence challenges (days per move). Without it they are declined
    /// (`too_slow`): the opponent of a correspondence game may leave its first move for all its
    /// days, and each such game holds one of the `--max-games` places that long.
    #[arg(long)]
    pub correspondence: bool,
    /// Seconds without a line on the event stream (the server sends a keep-alive line every
    /// 5 s of silence) after which the connection is taken for dead and opened again.
    #[arg(long, default_value_t = 30)]
    pub idle_timeout: u64,
}

/// The longest wait between two tries to open a dropped stream.
const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// Why a request failed: worth retrying (the network, the server's 5xx) or not (a refusal).
enum Failure {
    /// Try again after a back-off.
    Retry(String),
    /// Give up: the server refused (401, 403, 404 …).
    Fatal(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Retry(m) | Failure::Fatal(m) => f.write_str(m),
        }
    }
}

/// The server's API as the bot's account. Not `Debug`: it holds the token.
#[derive(Clone)]
struct Api {
    agent: ureq::Agent,
    base: String,
    auth: String,
}

impl Api {
    /// The API of the server at `base` with `token`.
    fn new(base: &str, token: &str) -> Api {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(Duration::from_secs(10)))
            .build()
            .into();
        Api {
            agent,
            base: base.trim_end_matches('/').to_string(),
            auth: format!("Bearer {token}"),
        }
    }

    /// The status of `resp` as a [`Failure`] when it is not a success, with the server's error.
    fn check(
        what: &str,
        resp: ureq::http::Response<ureq::Body>,
    ) -> Result<ureq::http::Response<ureq::Body>, Failure> {
        let status = resp.status().as_u16();
        if status < 300 {
            return Ok(resp);
        }
        let body = resp.into_body().read_to_string().unwrap_or_default();
        let msg = serde_json::from_str::<Value>(&body)
            .ok()
            .and_then(|v| {
                let e = &v["error"];
                Some(format!(
                    "{} ({})",
                    e["message"].as_str()?,
                    e["code"].as_str()?
                ))
            })
            .unwrap_or(body);
        let text = format!("{what}: {status} {msg}");
        Err(if status >= 500 || status == 429 || status == 408 {
            Failure::Retry(text)
        } else {
            Failure::Fatal(text)
        })
    }

    /// `GET path` as an NDJSON stream.
    fn stream(&self, path: &str) -> Result<impl BufRead + Send + 'static, Failure> {
        let resp = self
            .agent
            .get(format!("{}{path}", self.base))
            .header("Authorization", &self.auth)
            .call()
            .map_err(|e| Failure::Retry(format!("GET {path}: {e}")))?;
        let resp = Api::check(&format!("GET {path}"), resp)?;
        Ok(BufReader::new(resp.into_body().into_reader()))
    }

    /// `POST path` with the JSON `body` (or none).
    fn post(&self, path: &str, body: Option<&Value>) -> Result<(), Failure> {
        let req = self
            .agent
            .post(format!("{}{path}", self.base))
            .header("Authorization", &self.auth);
        let resp = match body {
            Some(b) => req
                .header("Content-Type", "application/json")
                .send(b.to_string()),
            None => req.send_empty(),
        }
        .map_err(|e| Failure::Retry(format!("POST {path}: {e}")))?;
        Api::check(&format!("POST {path}"), resp).map(|_| ())
    }
}

/// The engine's program and arguments from `--engine` (default: this program's `engine`).
fn engine_command(engine: Option<&str>) -> Result<(PathBuf, Vec<String>), CliError> {
    match engine {
        Some(cmd) => {
            let mut words = cmd.split_whitespace();
            let program = words
                .next()
                .ok_or_else(|| CliError("--engine is empty".into()))?;
            Ok((PathBuf::from(program), words.map(str::to_string).collect()))
        }
        None => Ok((
            std::env::current_exe().map_err(|e| {
                CliError(format!("cannot find this program to run its engine: {e}"))
            })?,
            vec!["engine".to_string()],
        )),
    }
}

/// What every game's engine is started with.
#[derive(Clone)]
struct EngineSpec {
    program: PathBuf,
    args: Vec<String>,
    hash: usize,
}

impl EngineSpec {
    /// Start the engine for `variant`.
    fn start(&self, variant: Variant) -> Result<ExternalEngine, String> {
        let options = ExternalOptions {
            variant,
            hash_mib: self.hash,
            threads: 1,
            level: None,
            book: false,
            egdb: EgdbWanted {
                value: "default".into(),
                description: String::new(),
            },
        };
        ExternalEngine::start_command(&self.program, &self.args, "engine", &options)
            .map_err(|e| e.to_string())
    }
}

/// The server's variant ids an engine offering `offered` (Hub names) plays.
fn playable(offered: &[String]) -> Vec<String> {
    ["american", "pool", "impasse"]
        .into_iter()
        .filter(|v| {
            offered.iter().any(|o| o == v)
                || (*v == "american" && offered.iter().any(|o| o == "english"))
        })
        .map(str::to_string)
        .collect()
}

/// Run `crown bot`: until killed, or until the server refuses the token.
pub fn run(args: &BotArgs) -> Result<ExitCode, CliError> {
    let token = std::fs::read_to_string(&args.token_file)
        .map_err(|e| CliError(format!("{}: {e}", args.token_file.display())))?;
    let token = token.trim();
    if token.is_empty() {
        return Err(CliError(format!(
            "{}: the file is empty (it should hold the bot's API token)",
            args.token_file.display()
        )));
    }
    if args.max_games == 0 {
        return Err(CliError("--max-games must be at least 1".into()));
    }
    let (program, eargs) = engine_command(args.engine.as_deref())?;
    let spec = EngineSpec {
        program,
        args: eargs,
        hash: args.hash,
    };
    let probe = spec.start(Variant::American).map_err(CliError)?;
    let variants = playable(probe.variants());
    drop(probe);
    if variants.is_empty() {
        return Err(CliError(
            "the engine offers none of the variants american, pool, impasse".into(),
        ));
    }
    eprintln!("crown bot: the engine plays {}", variants.join(", "));
    let bot = Bot {
        api: Api::new(&args.server, token),
        spec,
        variants,
        move_time: args.move_time,
        max_games: args.max_games,
        correspondence: args.correspondence,
        playing: Arc::new(Mutex::new(HashSet::new())),
    };
    if args.idle_timeout == 0 {
        return Err(CliError("--idle-timeout must be at least 1 s".into()));
    }
    let idle = Duration::from_secs(args.idle_timeout);
    let mut backoff = Duration::from_secs(1);
    loop {
        match bot.api.stream("/api/stream/event") {
            Ok(lines) => {
                eprintln!("crown bot: connected to {}", bot.api.base);
                backoff = Duration::from_secs(1);
                let lines = lines_until_idle(lines);
                loop {
                    let line = match lines.recv_timeout(idle) {
                        Ok(line) => line,
                        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                            eprintln!(
                                "crown bot: nothing on the event stream for {} s (not even a keep-alive)",
                                idle.as_secs()
                            );
                            break;
                        }
                        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                            eprintln!("crown bot: the event stream closed");
                            break;
                        }
                    };
                    if line.trim().is_empty() {
                        continue;
                    }
                    match serde_json::from_str::<Value>(&line) {
                        Ok(ev) => bot.on_event(&ev),
                        Err(e) => eprintln!("crown bot: unreadable event ({e}): {line}"),
                    }
                }
            }
            Err(Failure::Fatal(m)) => return Err(CliError(m)),
            Err(Failure::Retry(m)) => eprintln!("crown bot: {m}"),
        }
        eprintln!("crown bot: reconnecting in {} s", backoff.as_secs());
        std::thread::sleep(backoff);
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}

/// The lines of `stream`, read on a thread of their own and handed over as they come, so that
/// the reader can give up on a silent connection ([`std::sync::mpsc::Receiver::recv_timeout`]).
/// The channel closes when the stream ends or fails; a reader given up on stops at its next
/// line or when the dead connection fails, and sends nothing more (nobody receives).
fn lines_until_idle(stream: impl BufRead + Send + 'static) -> std::sync::mpsc::Receiver<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stream.lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// The bot: its API, its engine and the games it plays.
struct Bot {
    api: Api,
    spec: EngineSpec,
    variants: Vec<String>,
    move_time: u64,
    max_games: usize,
    /// Whether correspondence challenges are accepted (`--correspondence`).
    correspondence: bool,
    playing: Arc<Mutex<HashSet<String>>>,
}

impl Bot {
    /// Answer one line of the event stream.
    fn on_event(&self, ev: &Value) {
        match ev["type"].as_str() {
            Some("challenge") => self.on_challenge(&ev["challenge"]),
            Some("gameStart") => {
                let g = &ev["game"];
                let (Some(id), Some(color)) = (g["id"].as_str(), g["color"].as_str()) else {
                    return;
                };
                let color = if color == "white" {
                    Color::White
                } else {
                    Color::Black
                };
                if self.playing().insert(id.to_string()) {
                    eprintln!("crown bot: game {id} started, playing {}", color.name());
                    let game = GameRun {
                        api: self.api.clone(),
                        spec: self.spec.clone(),
                        id: id.to_string(),
                        color,
                        move_time: self.move_time,
                    };
                    let playing = self.playing.clone();
                    std::thread::spawn(move || {
                        game.play();
                        playing
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .remove(&game.id);
                    });
                }
            }
            Some("gameFinish") => {
                let g = &ev["game"];
                eprintln!(
                    "crown bot: game {} finished, winner {}",
                    g["id"].as_str().unwrap_or("?"),
                    g["winner"].as_str().unwrap_or("none")
                );
            }
            _ => {}
        }
    }

    fn playing(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.playing.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Accept challenge `c` made to the bot if it can play it, else decline it.
    fn on_challenge(&self, c: &Value) {
        let Some(id) = c["id"].as_str() else { return };
        if c["direction"] != "in" || c["status"] != "pending" {
            return;
        }
        let variant = c["variant"].as_str().unwrap_or("");
        let who = c["challenger"]["name"].as_str().unwrap_or("?");
        let decline = |reason: &str, why: &str| {
            eprintln!("crown bot: declining challenge {id} from {who}: {why}");
            let body = serde_json::json!({ "reason": reason });
            if let Err(e) = self
                .api
                .post(&format!("/api/challenge/{id}/decline"), Some(&body))
            {
                eprintln!("crown bot: {e}");
            }
        };
        if !self.variants.iter().any(|v| v == variant) {
            return decline("generic", &format!("the engine does not play {variant}"));
        }
        if !self.correspondence && c["days"].is_number() {
            return decline(
                "too_slow",
                "correspondence games are not accepted (--correspondence)",
            );
        }
        if self.playing().len() >= self.max_games {
            return decline("later", "playing --max-games games already");
        }
        eprintln!("crown bot: accepting challenge {id} from {who} ({variant})");
        if let Err(e) = self.api.post(&format!("/api/challenge/{id}/accept"), None) {
            eprintln!("crown bot: {e}");
        }
    }
}

/// One game the bot plays.
struct GameRun {
    api: Api,
    spec: EngineSpec,
    id: String,
    color: Color,
    move_time: u64,
}

/// What the game's `gameFull` line tells once.
struct Setup {
    variant: Variant,
    start: Position,
}

/// `text` with every byte but letters, digits, `-` and `x` percent-encoded (a move in a path).
fn path_segment(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'-' {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

impl GameRun {
    /// Play the game to its end: read its stream (again after a drop), move on the bot's turn.
    fn play(&self) {
        let mut engine: Option<ExternalEngine> = None;
        let mut backoff = Duration::from_secs(1);
        let mut answered: Option<u64> = None;
        loop {
            match self
                .api
                .stream(&format!("/api/bot/game/stream/{}", self.id))
            {
                Ok(lines) => {
                    backoff = Duration::from_secs(1);
                    let mut setup: Option<Setup> = None;
                    for line in lines.lines() {
                        let Ok(line) = line else { break };
                        let Ok(v) = serde_json::from_str::<Value>(&line) else {
                            continue;
                        };
                        let state = match v["type"].as_str() {
                            Some("gameFull") => {
                                match self.setup(&v) {
                                    Ok(s) => setup = Some(s),
                                    Err(e) => {
                                        eprintln!("crown bot: game {}: {e}", self.id);
                                        return;
                                    }
                                }
                                &v["state"]
                            }
                            Some("gameState") => &v,
                            _ => continue,
                        };
                        if state["status"] != "started" {
                            eprintln!(
                                "crown bot: game {} ended: {}",
                                self.id,
                                state["reason"].as_str().unwrap_or("over")
                            );
                            return;
                        }
                        let ply = state["ply"].as_u64().unwrap_or(0);
                        if state["side_to_move"] != self.color.name() || answered == Some(ply) {
                            continue;
                        }
                        let Some(s) = &setup else { continue };
                        match self.answer(s, state, &mut engine) {
                            Ok(()) => answered = Some(ply),
                            Err(Failure::Fatal(e)) => eprintln!("crown bot: game {}: {e}", self.id),
                            Err(Failure::Retry(e)) => {
                                eprintln!("crown bot: game {}: {e}", self.id);
                                break;
                            }
                        }
                    }
                }
                Err(Failure::Fatal(m)) => {
                    eprintln!("crown bot: game {}: {m}", self.id);
                    return;
                }
                Err(Failure::Retry(m)) => eprintln!("crown bot: game {}: {m}", self.id),
            }
            std::thread::sleep(backoff);
            backoff = (backoff * 2).min(MAX_BACKOFF);
        }
    }

    /// The variant and start position of a `gameFull` line.
    fn setup(&self, full: &Value) -> Result<Setup, String> {
        let key = full["variant"]["key"].as_str().unwrap_or("");
        let variant: Variant = key.parse().map_err(|e| format!("variant {key}: {e}"))?;
        let fen = full["initial_fen"].as_str().unwrap_or("");
        let start =
            Position::from_fen(variant, fen).map_err(|e| format!("start position {fen}: {e}"))?;
        Ok(Setup { variant, start })
    }

    /// Ask the engine for a move in `state` and post it.
    fn answer(
        &self,
        s: &Setup,
        state: &Value,
        engine: &mut Option<ExternalEngine>,
    ) -> Result<(), Failure> {
        let mut game = Game::from_position(s.start);
        for m in state["moves"].as_str().unwrap_or("").split_whitespace() {
            game.play_text(m)
                .map_err(|e| Failure::Fatal(format!("move {m} of the server: {e}")))?;
        }
        let (time, inc) = match self.color {
            Color::Black => (&state["btime"], &state["binc"]),
            Color::White => (&state["wtime"], &state["winc"]),
        };
        let limits = match time.as_u64() {
            Some(remaining_ms) => Limits {
                clock: Some(Clock {
                    remaining_ms,
                    increment_ms: inc.as_u64().unwrap_or(0),
                }),
                ..Limits::default()
            },
            None => Limits::movetime(self.move_time),
        };
        if engine.is_none() {
            *engine = Some(self.spec.start(s.variant).map_err(Failure::Fatal)?);
        }
        let e = engine
            .as_mut()
            .ok_or_else(|| Failure::Fatal("no engine".into()))?;
        let reply = match e.go(&game, &limits) {
            Ok(r) => r,
            Err(err) => {
                // Start a fresh engine for the next try.
                *engine = None;
                return Err(Failure::Retry(format!("engine: {err}")));
            }
        };
        let Some(mv) = reply.best_move else {
            return Err(Failure::Fatal("the engine has no move".into()));
        };
        let text = game.position().move_text(&mv);
        self.api.post(
            &format!("/api/bot/game/{}/move/{}", self.id, path_segment(&text)),
            None,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_travel_in_a_path_segment_with_only_the_arrow_encoded() {
        assert_eq!(path_segment("11-15"), "11-15");
        assert_eq!(path_segment("11x18x25"), "11x18x25");
        assert_eq!(path_segment("6>10"), "6%3E10");
    }

    #[test]
    fn the_engines_variants_are_the_servers_ids() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            playable(&v(&["american", "english", "pool", "impasse"])),
            v(&["american", "pool", "impasse"])
        );
        assert_eq!(playable(&v(&["english"])), v(&["american"]));
        assert!(playable(&v(&["frisian"])).is_empty());
    }
}

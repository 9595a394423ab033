//! One table of FEN and move texts, read by every front end: `crown apply` (its library function),
//! the `crown engine` protocol session, the TUI's typed-move reader, the server's HTTP handlers
//! (in process) and the wasm bindings' Rust functions. Each must reach the same position, or refuse
//! with the same reason (issue 14).
//!
//! Expected positions are worked out by hand from the rules and the square numbering of
//! docs/notation.md (f6 = 11, e5 = 15, c3 = 22, d4 = 18; Black moves towards 32).

use axum::body::Body;
use axum::http::{header, Method, Request};
use crown_core::{Game, Variant};
use crown_notation::{read_fen, FenPolicy};
use serde_json::{json, Value};
use std::io::Write;
use std::sync::{Arc, Mutex};
use tower::ServiceExt;

/// What every front end must answer.
#[derive(Debug)]
enum Expect {
    /// The FEN after the moves.
    Fen(&'static str),
    /// An error whose message contains this text.
    Error(&'static str),
}

struct Case {
    variant: Variant,
    fen: Option<&'static str>,
    moves: &'static str,
    expect: Expect,
}

const HUB: &str = "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13";

fn cases() -> Vec<Case> {
    use Expect::*;
    use Variant::*;
    let c = |variant, fen, moves, expect| Case {
        variant,
        fen,
        moves,
        expect,
    };
    vec![
        c(
            American,
            None,
            "11-15 23-19",
            Fen("B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"),
        ),
        // Algebraic squares (docs/notation.md): f6-e5 is 11-15, c3-d4 is 22-18.
        c(
            American,
            None,
            "f6-e5 c3-d4",
            Fen("B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"),
        ),
        // Archive FENs: `?` as side to move (the first player, Black, is taken) ...
        c(
            American,
            Some("?:W21-32:B1-12"),
            "11-15",
            Fen("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"),
        ),
        // ... and a White man on its king row (square 1), which can only be a king.
        c(American, Some("B:W1:B14"), "14-18", Fen("W:WK1:B18")),
        // Hub capture: start, end, then the captured squares in any order (10 takes 22 and 14).
        c(
            American,
            Some(HUB),
            "10x26x22x14",
            Fen("W:W15,18,21,23,30:B6,7,8,12,13,26"),
        ),
        c(
            Impasse,
            None,
            "22-18",
            Fen("B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"),
        ),
        c(
            American,
            None,
            "12-15",
            Error("illegal move '12-15'; 7 legal moves: 9-13 9-14 10-14 10-15 11-15 11-16 12-16"),
        ),
        // American rule 6: a jump must be completed (6x15x22 is one move).
        c(
            American,
            Some("B:W10,18:B6"),
            "6x15",
            Error("the capture must continue: 6x15 can go on to 22"),
        ),
        c(
            American,
            None,
            "33-29",
            Error("square '33' at column 1 is not one of 1-32"),
        ),
        c(
            American,
            None,
            "a2-b3",
            Error("a2 at column 1 is a light square"),
        ),
        c(
            American,
            Some("BB:W21-32:B1-12"),
            "",
            Error("the side to move is given twice"),
        ),
        c(
            American,
            Some("B:W21-32:B1-13"),
            "",
            Error("too many men: Black has 13 pieces"),
        ),
        c(American, Some("B:WKK21:B1"), "", Error("a doubled 'K'")),
        // A finished position has one wording everywhere: Black to move has no piece left.
        c(
            American,
            Some("B:W18:B"),
            "1-5",
            Error("the game is over (White wins: the opponent has no pieces left)"),
        ),
        // A stray character after a square is named with its column.
        c(
            American,
            None,
            "11-15x",
            Error("unexpected 'x' after square 15 at column 6"),
        ),
        c(
            American,
            None,
            "11-15!",
            Error("unexpected '!' after square 15 at column 6"),
        ),
        // A right-to-left override (Unicode Cf) is written out, not sent to the screen.
        c(American, None, "11-15\u{202e}", Error("\\u{202e}")),
        // A zero-width space (Cf; U+2028 would split the text as white space).
        c(American, None, "1\u{200b}1-15", Error("\\u{200b}")),
        // "11-15" as UTF-16LE without a byte-order mark, each 0 byte read as a NUL character.
        c(
            American,
            None,
            "1\u{0}1\u{0}-\u{0}1\u{0}5\u{0}",
            Error("the text is UTF-16 (no byte-order mark"),
        ),
    ]
}

/// What a front end answered: the FEN reached, or its error message.
type Answer = Result<String, String>;

fn check(front_end: &str, case: &Case, got: Answer) {
    match (&case.expect, got) {
        (Expect::Fen(f), Ok(g)) => assert_eq!(&g, f, "{front_end}: {case:?}", case = case.moves),
        (Expect::Error(e), Err(m)) => {
            assert!(
                m.contains(e),
                "{front_end}: {} {:?}: {m}",
                case.moves,
                case.fen
            );
            assert!(m.chars().count() <= 200 + 40, "{front_end}: {m}");
            // The server once said "bad FEN: bad FEN: …".
            assert!(m.matches("bad FEN").count() <= 1, "{front_end}: {m}");
            // Control and format characters are written as `\u{..}`.
            assert!(
                !m.chars().any(crown_notation::needs_escape),
                "{front_end}: {m:?}"
            );
        }
        (want, got) => panic!(
            "{front_end}: {} {:?}: wanted {want:?}, got {got:?}",
            case.moves, case.fen
        ),
    }
}

fn cli(case: &Case) -> Answer {
    let args = crown_cli::commands::rules::ApplyArgs {
        pos: crown_cli::common::PositionArgs {
            variant: case.variant.id().into(),
            setup: None,
            fen: case.fen.map(String::from),
        },
        moves: vec![case.moves.to_string()],
        json: false,
    };
    crown_cli::commands::rules::applied(&args)
        .map(|g| g.position().to_fen())
        .map_err(|e| e.0)
}

/// A `Write` the engine session and the test share.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The engine protocol has no command that prints the position: an accepted `pos` answers
/// nothing, a refused one answers one `error` line.
fn engine(case: &Case) -> Answer {
    let mut input = format!("set-param name=variant value={}\npos", case.variant.id());
    if let Some(f) = case.fen {
        input.push_str(&format!(" pos=\"{f}\""));
    }
    input.push_str(&format!(" moves=\"{}\"\nquit\n", case.moves));
    let sink = Sink::default();
    let out: crown_cli::commands::engine::SharedOut = Arc::new(Mutex::new(Box::new(sink.clone())));
    crown_cli::commands::engine::session(input.as_bytes(), out, None).unwrap();
    let text = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
    match text.lines().find(|l| l.starts_with("error")) {
        Some(e) => Err(e.to_string()),
        None => {
            // Same moves through the reader the session uses, to name the position reached.
            Ok(through_reader(case, |g, t| {
                crown_cli::commands::engine::find_move(g.position(), t)
            })?)
        }
    }
}

fn start(case: &Case) -> Result<Game, String> {
    match case.fen {
        Some(f) => read_fen(case.variant, f, FenPolicy::Lenient)
            .map(|r| Game::from_position(r.position))
            .map_err(|e| e.to_string()),
        None => Ok(Game::new(case.variant)),
    }
}

fn through_reader(
    case: &Case,
    read: impl Fn(&Game, &str) -> Result<crown_core::Move, String>,
) -> Answer {
    let mut game = start(case)?;
    for t in case.moves.split_whitespace() {
        let m = read(&game, t)?;
        game.play(&m).map_err(|e| e.to_string())?;
    }
    Ok(game.position().to_fen())
}

fn tui(case: &Case) -> Answer {
    through_reader(case, |g, t| {
        crown_tui::app::typed_move(g, t).map_err(|e| e.to_string())
    })
}

fn wasm(case: &Case) -> Answer {
    let mut game = match case.fen {
        Some(f) => Game::from_position(
            crown_wasm::read_position(case.variant, f).map_err(|e| e.to_string())?,
        ),
        None => Game::new(case.variant),
    };
    for t in case.moves.split_whitespace() {
        let m = crown_wasm::read_move(&game, t).map_err(|e| e.to_string())?;
        game.play(&m).map_err(|e| e.to_string())?;
    }
    Ok(game.position().to_fen())
}

async fn send(
    app: &crown_server::App,
    uri: &str,
    token: Option<&str>,
    body: Value,
) -> (u16, Value) {
    let mut req = Request::builder().method(Method::POST).uri(uri);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    // `Null` is no body at all: endpoints without a body refuse one (docs/api.md).
    let body = if body.is_null() {
        Body::empty()
    } else {
        req = req.header(header::CONTENT_TYPE, "application/json");
        Body::from(body.to_string())
    };
    let resp = app.router().oneshot(req.body(body).unwrap()).await.unwrap();
    let status = resp.status().as_u16();
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
        .await
        .unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

fn api_error(v: &Value) -> String {
    v["error"]["message"]
        .as_str()
        .unwrap_or("<no message>")
        .to_string()
}

async fn server(app: &crown_server::App, case: &Case) -> Answer {
    let mut req = json!({"variant": case.variant.id(), "opponent": "human"});
    if let Some(f) = case.fen {
        req["fen"] = f.into();
    }
    let (s, created) = send(app, "/api/games", None, req).await;
    if s != 201 {
        return Err(api_error(&created));
    }
    let id = created["id"].as_str().unwrap().to_string();
    let (s, joined) = send(app, &format!("/api/games/{id}/join"), None, Value::Null).await;
    assert_eq!(s, 200, "{joined}");
    let token_of = |color: &str| {
        if created["color"] == color {
            created["token"].as_str().unwrap().to_string()
        } else {
            joined["token"].as_str().unwrap().to_string()
        }
    };
    let mut fen = created["game"]["fen"].as_str().unwrap().to_string();
    for t in case.moves.split_whitespace() {
        let mover = if fen.starts_with('B') {
            "black"
        } else {
            "white"
        };
        let (s, v) = send(
            app,
            &format!("/api/games/{id}/moves"),
            Some(&token_of(mover)),
            json!({"move": t}),
        )
        .await;
        if s != 200 {
            return Err(api_error(&v));
        }
        fen = v["fen"].as_str().unwrap().to_string();
    }
    Ok(fen)
}

#[test]
fn every_front_end_reads_the_same_text_the_same_way() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let app = rt.block_on(async {
        let store = Arc::new(crown_server::store::SqliteStore::open_in_memory().unwrap());
        let config = crown_server::Config {
            rate_per_sec: 0,
            ..crown_server::Config::default()
        };
        crown_server::App::start(store, config, None).await.unwrap()
    });
    for case in cases() {
        check("crown apply", &case, cli(&case));
        check("crown engine", &case, engine(&case));
        check("crown-tui", &case, tui(&case));
        check("crown-wasm", &case, wasm(&case));
        check("crown-server", &case, rt.block_on(server(&app, &case)));
    }
}

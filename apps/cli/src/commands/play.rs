//! `crown play`: a text game in the terminal against the engine.

use crate::common::line_text;
use crate::common::{pdn_date_today, EgdbArgs, EgdbBuildArgs};
use crate::CliError;
use clap::Args;
use crown_ai::level::{MAX_LEVEL, MIN_LEVEL};
use crown_ai::{Engine, EngineOptions, Opponent, SearchResult};
use crown_core::{Color, Game, ImpasseSetup, Position, Variant};
use crown_notation::{
    decode_line, game_to_pdn, legal_moves_text, read_fen, read_game_move, FenPolicy,
};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// Arguments of `crown play`.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// Game: american, pool or impasse.
    #[arg(long, default_value = "american")]
    pub variant: String,
    /// Impasse start setup: seed (default) or steere.
    #[arg(long)]
    pub setup: Option<String>,
    /// Start from this position (PDN FEN, read leniently as everywhere a person gives one); the
    /// saved PDN carries it as [SetUp "1"] [FEN "…"]. You play the side to move unless --as says.
    #[arg(long, conflicts_with = "setup")]
    pub fen: Option<String>,
    /// Your side: black or white (default: the side to move at the start, Black in checkers, White
    /// in Impasse).
    #[arg(long = "as")]
    pub side: Option<String>,
    /// Engine level 1–10 (default 4, `crown_ai::DEFAULT_LEVEL`: the lowest level that plays its
    /// endings from the endgame databases).
    #[arg(long)]
    pub level: Option<u8>,
    /// Engine time per move in ms (strongest play, instead of a level).
    #[arg(long, conflicts_with = "level")]
    pub movetime: Option<u64>,
    /// File to save the game to as PDN at the end (default crown-game-<time>.pdn in the current
    /// directory, written only when a move was played; "-" to not save).
    #[arg(long)]
    pub save: Option<String>,
    /// Endgame databases (`--egdb DIR`, `--no-egdb`).
    #[command(flatten)]
    pub egdb: EgdbArgs,
    /// `--no-egdb-build`.
    #[command(flatten)]
    pub egdb_build: EgdbBuildArgs,
    /// Search every move instead of playing the opening from the embedded book.
    #[arg(long)]
    pub no_book: bool,
}

/// The board drawn with square numbers on empty squares and the side to move.
fn board_text(pos: &Position) -> String {
    pos.to_string()
}

fn side_name(variant: Variant, c: Color) -> &'static str {
    let _ = variant;
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

fn help_text() -> &'static str {
    "Type a move (e.g. 11-15, 11x18, 22-18, 6>10, x14; in checkers also algebraic f6-e5), or:\n  \
     moves  list the legal moves\n  \
     undo   take back your last move (and the engine's reply)\n  \
     hint   ask the engine for a move\n  \
     pdn    print the game so far\n  \
     board  draw the board again\n  \
     quit   end the game (it is saved)"
}

/// Write a line to the session's output; a closed output is not an error (the game is still saved).
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {{
        let _ = writeln!($out, $($arg)*);
    }};
}

/// The game as it stands, for the Ctrl-C handler: the game, the human's side, the engine strength.
type Snapshot = Arc<Mutex<Option<(Game, Color, String)>>>;

/// Run `crown play` on stdin and stdout. Ctrl-C, SIGTERM and SIGHUP save the game too (then exit
/// with 130).
pub fn run(args: &PlayArgs) -> Result<ExitCode, CliError> {
    let snapshot: Snapshot = Arc::new(Mutex::new(None));
    let on_ctrl_c = {
        let snapshot = Arc::clone(&snapshot);
        let args = args.clone();
        move || {
            let now = snapshot.lock().unwrap_or_else(|p| p.into_inner()).take();
            let mut stdout = std::io::stdout();
            let _ = writeln!(stdout);
            if let Some((game, human, strength)) = now {
                if let Err(CliError(e)) = save(&game, &args, human, &strength, &mut stdout) {
                    eprintln!("error: {e}");
                }
            }
            std::process::exit(130);
        }
    };
    // Without a handler (another one is set) Ctrl-C ends the game unsaved, as before.
    let _ = ctrlc::set_handler(on_ctrl_c);
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    let mut watch = |game: &Game, human: Color, strength: &str| {
        *snapshot.lock().unwrap_or_else(|p| p.into_inner()) =
            Some((game.clone(), human, strength.to_string()));
    };
    session_watched(args, stdin.lock(), &mut stdout, &mut watch)
}

/// A game of `crown play` read from `input` (bytes: a line that is not UTF-8 gets one error line
/// and the game goes on) and written to `out`. The game is saved (`--save`) on every way out: `quit`,
/// the end of input, the end of the game, and an error while reading or playing.
///
/// # Errors
/// Bad arguments (before the game starts), a failure to read `input` or to save the game.
pub fn session(
    args: &PlayArgs,
    input: impl BufRead,
    out: &mut impl Write,
) -> Result<ExitCode, CliError> {
    session_watched(args, input, out, &mut |_, _, _| {})
}

/// [`session`], calling `watch` with the game (and the human's side and the engine's strength)
/// after every change, so that an interrupt handler can save it.
///
/// # Errors
/// As [`session`].
pub fn session_watched(
    args: &PlayArgs,
    input: impl BufRead,
    out: &mut impl Write,
    watch: &mut dyn FnMut(&Game, Color, &str),
) -> Result<ExitCode, CliError> {
    let variant: Variant = args.variant.parse()?;
    let mut game = match (&args.setup, &args.fen) {
        (Some(_), Some(_)) => {
            return Err(CliError("give either --fen or --setup, not both".into()));
        }
        (None, Some(fen)) => {
            let r = read_fen(variant, fen, FenPolicy::Lenient)?;
            for w in &r.warnings {
                say!(out, "warning: {w}");
            }
            Game::from_position(r.position)
        }
        (Some(s), None) => {
            let setup: ImpasseSetup = s.parse()?;
            if variant != Variant::Impasse {
                return Err(CliError(format!(
                    "--setup {s} applies only to --variant impasse"
                )));
            }
            Game::impasse(setup)
        }
        (None, None) => Game::new(variant),
    };
    let human = match args.side.as_deref() {
        None => game.position().side_to_move(),
        Some(s) if s.eq_ignore_ascii_case("black") => Color::Black,
        Some(s) if s.eq_ignore_ascii_case("white") => Color::White,
        Some(s) => return Err(CliError(format!("--as {s}: expected black or white"))),
    };
    let level = args.level.unwrap_or(crown_ai::DEFAULT_LEVEL);
    let level = crown_ai::level::check(level.into()).map_err(|_| {
        CliError(format!(
            "--level {level}: expected {MIN_LEVEL} to {MAX_LEVEL}"
        ))
    })?;
    let strength = match args.movetime {
        Some(ms) => format!("{ms} ms per move"),
        None => format!("level {level}"),
    };
    if let Some(path) = args.save.as_deref().filter(|p| *p != "-") {
        check_save_path(std::path::Path::new(path))?;
    }
    let tables = args
        .egdb
        .load_building(&args.egdb_build, Some(game.variant()));
    let played = play_loop(
        &mut game,
        human,
        &strength,
        &Opponent::new(level)
            .with_movetime(args.movetime)
            .with_book(!args.no_book)
            .with_tables(tables),
        input,
        out,
        watch,
    );
    let saved = save(&game, args, human, &strength, out);
    played?;
    saved?;
    Ok(ExitCode::SUCCESS)
}

/// The moves of a game until it ends, `quit` or the end of `input`.
fn play_loop(
    game: &mut Game,
    human: Color,
    strength: &str,
    opponent: &Opponent,
    mut input: impl BufRead,
    out: &mut impl Write,
    watch: &mut dyn FnMut(&Game, Color, &str),
) -> Result<(), CliError> {
    let variant = game.variant();
    let limits = opponent.limits(None);
    let mut engine = opponent.engine(64, 1);
    let mut hint_engine = Engine::new(EngineOptions {
        hash_mib: 16,
        threads: 1,
        level: None,
    });
    // One loaded set for both engines (levels below crown_ai::TABLES_FROM_LEVEL use it only to
    // convert a database win).
    hint_engine.set_tables(opponent.tables.clone());
    let stop = AtomicBool::new(false);
    say!(
        out,
        "Crown — {}. You play {} against the engine ({strength}).",
        variant.name(),
        side_name(variant, human)
    );
    say!(out, "Type 'help' for commands.\n");
    say!(out, "{}", board_text(game.position()));
    let mut bytes = Vec::new();
    loop {
        if let Some(o) = game.outcome() {
            say!(out, "Game over: {o}.");
            break;
        }
        let pos = *game.position();
        if pos.side_to_move() != human {
            let _ = write!(out, "Engine thinks... ");
            let _ = out.flush();
            let r: SearchResult = engine.search(game, &limits, &stop, &mut |_| {});
            let Some(mv) = r.best_move else { break };
            let text = pos.move_text(&mv);
            game.play(&mv)?;
            watch(game, human, strength);
            if r.depth == 0 && r.nodes == 0 {
                say!(
                    out,
                    "engine plays {text}  (book, score {} for the engine)",
                    r.score
                );
            } else {
                say!(
                    out,
                    "engine plays {text}  (score {} for the engine, depth {})",
                    r.score,
                    r.depth
                );
            }
            say!(out, "{}", board_text(game.position()));
            continue;
        }
        let moves = game.legal_moves();
        if pos.must_capture() {
            say!(out, "You must capture.");
        }
        let _ = write!(out, "your move> ");
        let _ = out.flush();
        bytes.clear();
        let n = input
            .read_until(b'\n', &mut bytes)
            .map_err(|e| CliError(format!("reading stdin: {e}")))?;
        if n == 0 {
            say!(out, "");
            break;
        }
        let cmd = match decode_line(&bytes) {
            Ok(l) => l.trim(),
            Err(e) => {
                say!(out, "{e}");
                continue;
            }
        };
        match cmd {
            "" => continue,
            "help" | "?" => say!(out, "{}", help_text()),
            "quit" | "exit" | "q" => break,
            "board" => say!(out, "{}", board_text(&pos)),
            "moves" => {
                let texts: Vec<String> = moves.iter().map(|m| pos.move_text(m)).collect();
                say!(out, "{}", legal_moves_text(&texts));
            }
            "pdn" => {
                let _ = write!(out, "{}", game_pdn(game, human, strength));
            }
            "undo" => {
                // Take back to the previous position where it is the human's turn; when there is
                // none (the engine moved first and the human has not moved yet), change nothing.
                let mut back = game.clone();
                let mut undone = 0;
                while back.undo().is_some() {
                    undone += 1;
                    if back.position().side_to_move() == human {
                        break;
                    }
                }
                if undone == 0 || back.position().side_to_move() != human {
                    say!(out, "nothing to undo");
                } else {
                    *game = back;
                    watch(game, human, strength);
                    engine.new_game();
                    say!(out, "{}", board_text(game.position()));
                }
            }
            "hint" => {
                let r = hint_engine.search(game, &Opponent::hint_limits(), &stop, &mut |_| {});
                if let Some(m) = r.best_move {
                    say!(
                        out,
                        "hint: {}  (score {}, line {})",
                        pos.move_text(&m),
                        r.score,
                        line_text(&pos, &r.pv).join(" ")
                    );
                }
            }
            text => match play_move_text(game, text) {
                Ok(()) => {
                    watch(game, human, strength);
                    say!(out, "{}", board_text(game.position()));
                }
                Err(e) => say!(out, "{e}"),
            },
        }
    }
    Ok(())
}

/// Play the move `text`, read by the one move reader of crown-notation (Crown's notation, algebraic
/// squares such as `f6-e5`, docs/notation.md).
fn play_move_text(game: &mut Game, text: &str) -> Result<(), String> {
    let m = read_game_move(game, text).map_err(|e| e.to_string())?;
    game.play(&m)
        .map_err(|e| crown_notation::one_line(&e.to_string()))
}

/// The PDN of the game with the tags `crown play` writes: Event, Date (today), and Black/White
/// naming "You" and the engine with its strength. The `pdn` command and the saved file use it.
fn game_pdn(game: &Game, human: Color, strength: &str) -> String {
    let engine_name = format!("Crown engine ({strength})");
    let (black, white) = if human == Color::Black {
        ("You", engine_name.as_str())
    } else {
        (engine_name.as_str(), "You")
    };
    let date = pdn_date_today();
    game_to_pdn(
        game,
        &[
            ("Event", "Crown play"),
            ("Date", &date),
            ("Black", black),
            ("White", white),
        ],
    )
}

/// Refuse, before the game begins, a `--save` path the game could not be written to at its end:
/// a directory, a file in a directory that does not exist, or a place that is not writable (checked
/// by opening the file for appending, or creating it and removing it again).
///
/// # Errors
/// One line naming the path and the problem.
fn check_save_path(path: &std::path::Path) -> Result<(), CliError> {
    let shown = crown_notation::printable(&path.display().to_string());
    let refuse = |why: String| Err(CliError(format!("--save {shown}: {why}")));
    if path.is_dir() {
        return refuse("is a directory; give a file name".into());
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    if !dir.is_dir() {
        return refuse(format!(
            "the directory {} does not exist",
            crown_notation::printable(&dir.display().to_string())
        ));
    }
    let existed = path.exists();
    match std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
    {
        Ok(_) => {
            if !existed {
                let _ = std::fs::remove_file(path);
            }
            Ok(())
        }
        Err(e) => refuse(format!("cannot be written: {e}")),
    }
}

/// Save the game as PDN to `--save` (or `crown-game-<time>.pdn`) and say so on `out`. Nothing with
/// `--save -`; a game with no move is saved only to a file named by `--save` (and `out` says so).
fn save(
    game: &Game,
    args: &PlayArgs,
    human: Color,
    strength: &str,
    out: &mut impl Write,
) -> Result<(), CliError> {
    if args.save.as_deref() == Some("-") {
        return Ok(());
    }
    // With no move played, only a file asked for by name is written (an empty game with its tags
    // is a valid PDN game); the default file name would leave a file behind every time.
    if game.ply_count() == 0 && args.save.is_none() {
        say!(
            out,
            "No move was played: the game is not saved (give --save FILE to save it anyway)."
        );
        return Ok(());
    }
    let pdn = game_pdn(game, human, strength);
    let path = match &args.save {
        Some(p) => p.clone(),
        None => {
            let secs = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0);
            format!("crown-game-{secs}.pdn")
        }
    };
    std::fs::write(&path, pdn).map_err(|e| CliError(format!("saving the game to {path}: {e}")))?;
    say!(out, "Game saved to {path}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algebraic_moves_are_played() {
        // The PDN reader's board: rank 8 holds squares 1-4, file a is the left edge, so f6 is
        // square 11 and e5 square 15 (the opening 11-15).
        let mut game = Game::new(Variant::American);
        play_move_text(&mut game, "f6-e5").unwrap();
        assert_eq!(game.moves()[0].from().number(), 11);
        assert_eq!(game.moves()[0].to().number(), 15);
        // The PDN reader reads the same squares.
        let read = crown_notation::pdn_to_game("1. f6-e5 c3-d4 *").unwrap();
        play_move_text(&mut game, "c3-d4").unwrap();
        assert_eq!(game.moves(), read.moves());
        // Played through the algebraic form and the numeric one alike; a light square is refused.
        assert!(play_move_text(&mut game, "f6-e5").is_err());
        assert!(play_move_text(&mut game, "a1-b2").is_err());
    }
}

//! `crown play`: a text game in the terminal against the engine.

use crate::analyze_cmd::line_text;
use crate::common::{pdn_date_today, EgdbArgs};
use crate::CliError;
use clap::Args;
use crown_ai::{Engine, EngineOptions, Limits, SearchResult};
use crown_core::{Color, Game, ImpasseSetup, Position, Square, Variant};
use crown_notation::game_to_pdn;
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

/// Arguments of `crown play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Game: american, pool or impasse.
    #[arg(long, default_value = "american")]
    variant: String,
    /// Impasse start setup: seed (default) or steere.
    #[arg(long)]
    setup: Option<String>,
    /// Your side: black or white (default: the side that moves first, Black in checkers, White in
    /// Impasse).
    #[arg(long = "as")]
    side: Option<String>,
    /// Engine level 1–10 (default 6).
    #[arg(long)]
    level: Option<u8>,
    /// Engine time per move in ms (strongest play, instead of a level).
    #[arg(long, conflicts_with = "level")]
    movetime: Option<u64>,
    /// File to save the game to as PDN at the end (default crown-game-<time>.pdn in the current
    /// directory; "-" to not save).
    #[arg(long)]
    save: Option<String>,
    #[command(flatten)]
    egdb: EgdbArgs,
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

/// Run `crown play`.
pub fn run(args: &PlayArgs) -> Result<ExitCode, CliError> {
    let variant: Variant = args.variant.parse()?;
    let mut game = match &args.setup {
        Some(s) => {
            let setup: ImpasseSetup = s.parse()?;
            if variant != Variant::Impasse {
                return Err(CliError(format!(
                    "--setup {s} applies only to --variant impasse"
                )));
            }
            Game::impasse(setup)
        }
        None => Game::new(variant),
    };
    let human = match args.side.as_deref() {
        None => variant.first_player(),
        Some(s) if s.eq_ignore_ascii_case("black") => Color::Black,
        Some(s) if s.eq_ignore_ascii_case("white") => Color::White,
        Some(s) => return Err(CliError(format!("--as {s}: expected black or white"))),
    };
    let level = args.level.unwrap_or(6);
    if !(1..=10).contains(&level) {
        return Err(CliError(format!("--level {level}: expected 1 to 10")));
    }
    let (limits, options) = match args.movetime {
        Some(ms) => (
            Limits::movetime(ms),
            EngineOptions {
                hash_mib: 64,
                threads: 1,
                level: None,
            },
        ),
        None => (
            Limits::level(level),
            EngineOptions {
                hash_mib: 64,
                threads: 1,
                level: Some(level),
            },
        ),
    };
    let mut engine = Engine::new(options);
    let mut hint_engine = Engine::new(EngineOptions {
        hash_mib: 16,
        threads: 1,
        level: None,
    });
    // One loaded set for both engines (the engine's own levels 1–6 leave it unused).
    let tables = args.egdb.load();
    engine.set_tables(tables.clone());
    hint_engine.set_tables(tables);
    let stop = AtomicBool::new(false);
    let strength = match args.movetime {
        Some(ms) => format!("{ms} ms per move"),
        None => format!("level {level}"),
    };
    println!(
        "Crown — {}. You play {} against the engine ({strength}).",
        variant.name(),
        side_name(variant, human)
    );
    println!("Type 'help' for commands.\n");
    println!("{}", board_text(game.position()));
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        if let Some(o) = game.outcome() {
            println!("Game over: {o}.");
            break;
        }
        let pos = *game.position();
        if pos.side_to_move() != human {
            print!("Engine thinks... ");
            let _ = std::io::stdout().flush();
            let r: SearchResult = engine.search(&game, &limits, &stop, &mut |_| {});
            let Some(mv) = r.best_move else { break };
            let text = pos.move_text(&mv);
            game.play(&mv)?;
            println!(
                "engine plays {text}  (score {} for the engine, depth {})",
                r.score, r.depth
            );
            println!("{}", board_text(game.position()));
            continue;
        }
        let moves = game.legal_moves();
        if pos.must_capture() {
            println!("You must capture.");
        }
        print!("your move> ");
        let _ = std::io::stdout().flush();
        let Some(line) = lines.next() else {
            println!();
            break;
        };
        let line = line.map_err(|e| CliError(format!("reading stdin: {e}")))?;
        let cmd = line.trim();
        match cmd {
            "" => continue,
            "help" | "?" => println!("{}", help_text()),
            "quit" | "exit" | "q" => break,
            "board" => println!("{}", board_text(&pos)),
            "moves" => {
                let texts: Vec<String> = moves.iter().map(|m| pos.move_text(m)).collect();
                println!("{} legal moves: {}", texts.len(), texts.join(" "));
            }
            "pdn" => print!("{}", game_pdn(&game, human, &strength)),
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
                    println!("nothing to undo");
                } else {
                    game = back;
                    engine.new_game();
                    println!("{}", board_text(game.position()));
                }
            }
            "hint" => {
                let r = hint_engine.search(&game, &Limits::movetime(1000), &stop, &mut |_| {});
                if let Some(m) = r.best_move {
                    println!(
                        "hint: {}  (score {}, line {})",
                        pos.move_text(&m),
                        r.score,
                        line_text(&pos, &r.pv).join(" ")
                    );
                }
            }
            text => match play_move_text(&mut game, text) {
                Ok(()) => println!("{}", board_text(game.position())),
                Err(e) => println!("{e}"),
            },
        }
    }
    save(&game, args, human, &strength)?;
    Ok(ExitCode::SUCCESS)
}

/// The squares of an algebraic checkers move (`f6-e5`, `d2xf4xh6`, `f6e5`), as the PDN reader
/// reads them: file letter a–h, rank digit 1–8 (rank 8 holds squares 1–4), separators `-`, `x`, `:`
/// optional. `None` when `text` is not in that form or names a light square.
fn algebraic_squares(text: &str) -> Option<Vec<Square>> {
    let letters: Vec<u8> = text
        .bytes()
        .filter(|c| !matches!(c, b'-' | b'x' | b'X' | b':'))
        .collect();
    if letters.len() < 4 || letters.len() % 2 != 0 {
        return None;
    }
    letters
        .chunks(2)
        .map(|p| {
            let (file, rank) = (p[0].wrapping_sub(b'a'), p[1].wrapping_sub(b'0'));
            Square::from_file_rank(file, rank)
        })
        .collect()
}

/// Play the move `text`: Crown's notation, or (checkers) algebraic squares such as `f6-e5`, which
/// the PDN reader also accepts, converted to square numbers.
fn play_move_text(game: &mut Game, text: &str) -> Result<(), String> {
    let checkers = game.position().variant() != Variant::Impasse;
    let algebraic = checkers
        .then(|| algebraic_squares(text))
        .flatten()
        .filter(|_| text.starts_with(|c: char| ('a'..='h').contains(&c)));
    let Some(squares) = algebraic else {
        return game.play_text(text).map(|_| ()).map_err(|e| e.to_string());
    };
    let numbers: Vec<String> = squares.iter().map(|s| s.number().to_string()).collect();
    // A capture or a simple move: whichever is legal (the first separator decides the error).
    let (first, second) = if text.contains(['x', 'X', ':']) {
        ("x", "-")
    } else {
        ("-", "x")
    };
    let try_with = |sep: &str| numbers.join(sep);
    let primary = try_with(first);
    let mut g = game.clone();
    match g.play_text(&primary) {
        Ok(_) => {
            *game = g;
            Ok(())
        }
        Err(e) => match game.play_text(&try_with(second)) {
            Ok(_) => Ok(()),
            Err(_) => Err(format!("{text} ({primary}): {e}")),
        },
    }
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

fn save(game: &Game, args: &PlayArgs, human: Color, strength: &str) -> Result<(), CliError> {
    if game.ply_count() == 0 || args.save.as_deref() == Some("-") {
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
    println!("Game saved to {path}");
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

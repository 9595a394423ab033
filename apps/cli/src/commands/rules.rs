//! `crown moves` and `crown apply`.

use crate::common::PositionArgs;
use crate::CliError;
use clap::Args;
use crown_core::{Game, Move, Position, Variant};
use std::process::ExitCode;

/// Arguments of `crown moves`.
#[derive(Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Print a JSON array of move objects.
    #[arg(long)]
    json: bool,
}

/// Arguments of `crown apply`.
#[derive(Args, Debug)]
pub struct ApplyArgs {
    /// `--variant`, `--setup`, `--fen`.
    #[command(flatten)]
    pub pos: PositionArgs,
    /// Moves in Crown's move notation (docs/notation.md), e.g. 11-15 23-19 (or "11-15 23-19" as one
    /// argument; algebraic squares f6-e5 too).
    pub moves: Vec<String>,
    /// Print a JSON object {"fen","outcome","moves","input"}: `moves` in canonical (numeric PDN)
    /// notation, `input` the move texts as given.
    #[arg(long)]
    pub json: bool,
}

/// The JSON object for one move, as documented in README.md.
pub fn move_json(pos: &Position, m: &Move) -> serde_json::Value {
    let mut o = serde_json::json!({
        "notation": pos.move_text(m),
        "kind": m.kind().id(),
        "from": m.from().number(),
        "to": m.to().number(),
    });
    if pos.variant() == Variant::Impasse {
        o["bear_off"] = m.bears_off().into();
        o["crown"] = match m.crown() {
            Some((f, t)) => serde_json::json!({"from": f.number(), "to": t.number()}),
            None => serde_json::Value::Null,
        };
    } else {
        // Landing squares: the end square alone for a simple move.
        let mut path: Vec<u8> = m.path().map(|s| s.number()).collect();
        if path.is_empty() {
            path.push(m.to().number());
        }
        o["path"] = path.into();
        o["captures"] = m
            .captures()
            .iter()
            .map(|s| s.number())
            .collect::<Vec<_>>()
            .into();
        o["promotes"] = m.is_promotion().into();
    }
    o
}

/// Run `crown moves`.
pub fn moves(args: &MovesArgs) -> Result<ExitCode, CliError> {
    let pos = args.pos.position()?;
    let list = pos.legal_moves_sorted();
    if args.json {
        let arr: Vec<_> = list.iter().map(|m| move_json(&pos, m)).collect();
        println!("{}", serde_json::Value::from(arr));
    } else {
        println!("{pos}");
        let texts: Vec<String> = list.iter().map(|m| pos.move_text(m)).collect();
        println!("{}", crown_notation::legal_moves_text(&texts));
    }
    Ok(ExitCode::SUCCESS)
}

/// The game `crown apply` reaches: the position of `args.pos` (the FEN read the lenient way) with
/// every move of `args.moves` played (an argument may hold several moves separated by spaces).
///
/// # Errors
/// The one-line error of the FEN or of the first bad move (`move N: …`).
pub fn applied(args: &ApplyArgs) -> Result<Game, CliError> {
    let pos = args.pos.position()?;
    let mut game = Game::from_position(pos);
    crown_notation::play_moves(&mut game, &args.moves)?;
    Ok(game)
}

/// Run `crown apply`.
pub fn apply(args: &ApplyArgs) -> Result<ExitCode, CliError> {
    let game = applied(args)?;
    let outcome = match game.outcome() {
        Some(o) => o.to_string(),
        None => "ongoing".to_string(),
    };
    if args.json {
        // The moves as played, in the notation the rest of the JSON uses (`notation` of
        // `crown moves --json`), whatever form they were typed in; the input words beside them.
        let moves: Vec<String> = game.history().map(|(pos, m)| pos.move_text(m)).collect();
        let input: Vec<&str> = args
            .moves
            .iter()
            .flat_map(|t| t.split_whitespace())
            .collect();
        println!(
            "{}",
            serde_json::json!({
                "fen": game.position().to_fen(),
                "outcome": outcome,
                "moves": moves,
                "input": input,
            })
        );
    } else {
        println!("fen: {}", game.position().to_fen());
        println!("outcome: {outcome}");
    }
    Ok(ExitCode::SUCCESS)
}

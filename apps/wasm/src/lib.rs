//! # crown-wasm
//!
//! WebAssembly bindings (wasm-bindgen) of Crown for the browser front end in `apps/wasm/www`.
//! Build with `cargo xtask wasm`, which writes the JS glue and the `.wasm` file to `apps/wasm/www/pkg`.
//!
//! From JavaScript (ES module, `--target web`):
//! ```js
//! import init, { Game } from "./pkg/crown_wasm.js";
//! await init();
//! const game = new Game("american");
//! game.legalMoves();          // [{index, text, from, to, kind, path, captures, ...}, ...]
//! game.play("11-15");        // returns the move played
//! game.fen();                // "W:W21,...:B1,..."
//! try { Game.fromFen("american", "X:W1") } catch (e) { e.name; e.message }
//! ```
//! Engine and PDN:
//! ```js
//! const engine = new Engine(32);   // 32 MiB hash; run searches in a Web Worker
//! const r = engine.search(game, { level: 5 }, (info) => console.log(info.depth, info.score.text));
//! game.play(r.bestMove.longText);
//! const pdn = game.toPdn([["Event", "Casual"], ["Black", "Ann"]]);
//! const copy = Game.fromPdn(pdn);
//! ```
//! Opening explorer (`explorer.rs`): `const x = new Explorer(); x.add(pdnText); x.probe("american", fen)`
//! (moves of the archive with games and results), `bookMoves("american", fen)` (the embedded book).
//! Puzzles (`puzzles.rs`): `PuzzleSet.fromJsonl(text)`, `set.session(i)`, `session.playIndex(i)`,
//! `hint()`, `giveUp()`; the trainer (`puzzle_trainer.rs`, crown-puzzle's rules and Glicko-2
//! ratings): `new PuzzleTrainer(saved)`, `open(set, id, theme)`, `playIndex(i)`, `next(theme)`.
//! Engine levels (`level.rs`): `minLevel()`, `maxLevel()`, `defaultLevel()` ([`crown_ai::level`]).
//!
//! Errors are thrown as JS `Error` objects whose `name` says which kind (`PositionError`, `MoveError`,
//! `GameError`, `UnknownName`, `ArgumentError`, `PdnError`, `PuzzleError`) and whose `message` is the core's readable text.
//!
//! Squares are the standard numbers 1–32 (square 1 = b8, 32 = g1; Black starts on 1–12).

pub mod engine;
pub mod explorer;
pub mod level;
pub mod pdn;
pub mod puzzle_trainer;
pub mod puzzles;
pub mod review;
pub mod tables;
pub mod view;

pub use engine::WasmEngine;

use crown_core::{Color, Game, ImpasseSetup, Position, Variant};
use serde::Serialize;
use view::{
    color_id, history_views, legal_move_views, move_view, outcome_view, parse_color, piece_views,
};
use wasm_bindgen::prelude::*;

/// A JS `Error` with `name` set to `kind` and the given message.
pub(crate) fn error(kind: &str, message: impl std::fmt::Display) -> JsValue {
    let e = js_sys::Error::new(&message.to_string());
    e.set_name(kind);
    e.into()
}

/// Convert a serde value to a plain JS value (objects, arrays, `null` for `None`).
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| error("SerializationError", e))
}

fn parse_variant(name: &str) -> Result<Variant, JsValue> {
    name.parse::<Variant>().map_err(|e| error("UnknownName", e))
}

fn parse_setup(name: Option<String>) -> Result<ImpasseSetup, JsValue> {
    match name {
        None => Ok(ImpasseSetup::Seed),
        Some(s) if s.is_empty() => Ok(ImpasseSetup::Seed),
        Some(s) => s
            .parse::<ImpasseSetup>()
            .map_err(|e| error("UnknownName", e)),
    }
}

/// The APCA rule number of a count: 28 for the 13 count, 27 for the 38 count.
fn rule_number(rule: crown_core::CountRule) -> u8 {
    match rule {
        crown_core::CountRule::Thirteen => 28,
        crown_core::CountRule::ThirtyEight => 27,
    }
}

fn color_arg(s: &str) -> Result<Color, JsValue> {
    parse_color(s).map_err(|e| error("ArgumentError", e))
}

/// The start position of a game as PDN FEN.
///
/// `variant` is `american`, `pool` or `impasse`; `setup` (Impasse only) is `seed` (default) or
/// `steere`.
///
/// # Errors
/// `UnknownName` for an unknown variant or setup.
#[wasm_bindgen(js_name = startFen)]
pub fn start_fen(variant: &str, setup: Option<String>) -> Result<String, JsValue> {
    let v = parse_variant(variant)?;
    Ok(if v == Variant::Impasse {
        parse_setup(setup)?.fen().to_string()
    } else {
        v.start_fen().to_string()
    })
}

/// The pieces of a position given as FEN, checked against the rules of `variant`: an array of
/// `{square, color, role}`.
///
/// # Errors
/// `UnknownName` for an unknown variant, `PositionError` for a FEN that is malformed or not a legal
/// position of the variant (the message names what is wrong and where).
#[wasm_bindgen(js_name = piecesOfFen)]
pub fn pieces_of_fen(variant: &str, fen: &str) -> Result<JsValue, JsValue> {
    let v = parse_variant(variant)?;
    let pos = read_position(v, fen).map_err(|e| error("PositionError", e))?;
    to_js(&piece_views(&pos))
}

/// Checks a FEN strictly, as the position editor does before it offers the position: the PDN 3.0
/// FEN grammar and every position rule of `variant` (a man on its own king row, `?` as side to
/// move, too many pieces are errors here, not repairs as in [`read_position`]).
///
/// # Errors
/// `UnknownName` for an unknown variant, `PositionError` naming what is wrong and where.
#[wasm_bindgen(js_name = checkFen)]
pub fn check_fen(variant: &str, fen: &str) -> Result<(), JsValue> {
    let v = parse_variant(variant)?;
    crown_notation::read_fen(v, fen, crown_notation::FenPolicy::Strict)
        .map(|_| ())
        .map_err(|e| error("PositionError", e))
}

/// The position of a FEN as every binding reads it: the one FEN reader of crown-notation, the
/// lenient way a person writes a FEN (`?` as side to move, a man on its king row read as a king).
/// The Rust side of `piecesOfFen` and `Game.fromFen`, callable off wasm (tests).
///
/// # Errors
/// The reader's [`crown_notation::InputError`] (one printable line naming the problem).
pub fn read_position(variant: Variant, fen: &str) -> Result<Position, crown_notation::InputError> {
    crown_notation::read_fen(variant, fen, crown_notation::FenPolicy::Lenient).map(|r| r.position)
}

/// The move `text` of `game` as [`WasmGame::play`] reads it: the one move reader of crown-notation
/// (Crown notation, algebraic squares `f6-e5`, …). Callable off wasm (tests).
///
/// # Errors
/// The reader's [`crown_notation::InputError`]; a finished game is named as such.
pub fn read_move(game: &Game, text: &str) -> Result<crown_core::Move, crown_notation::InputError> {
    crown_notation::read_game_move(game, text)
}

/// A game in progress or finished: position, history, outcome.
#[wasm_bindgen(js_name = Game)]
pub struct WasmGame {
    game: Game,
}

impl WasmGame {
    /// The underlying core game (for other Rust code in this crate and tests).
    pub fn core(&self) -> &Game {
        &self.game
    }

    /// Wrap a core game.
    pub fn from_core(game: Game) -> WasmGame {
        WasmGame { game }
    }
}

#[wasm_bindgen(js_class = Game)]
impl WasmGame {
    /// A new game from the start position of `variant` (`american`, `pool`, `impasse`); for Impasse
    /// `setup` is `seed` (default) or `steere`.
    ///
    /// # Errors
    /// `UnknownName` for an unknown variant or setup.
    #[wasm_bindgen(constructor)]
    pub fn new(variant: &str, setup: Option<String>) -> Result<WasmGame, JsValue> {
        let v = parse_variant(variant)?;
        let game = if v == Variant::Impasse {
            Game::impasse(parse_setup(setup)?)
        } else {
            Game::new(v)
        };
        Ok(WasmGame { game })
    }

    /// A new game starting from a PDN FEN position.
    ///
    /// # Errors
    /// `UnknownName` for an unknown variant; `PositionError` for a bad FEN or a position that breaks
    /// the variant's rules.
    #[wasm_bindgen(js_name = fromFen)]
    pub fn from_fen(variant: &str, fen: &str) -> Result<WasmGame, JsValue> {
        let v = parse_variant(variant)?;
        let pos = read_position(v, fen).map_err(|e| error("PositionError", e))?;
        Ok(WasmGame {
            game: Game::from_position(pos),
        })
    }

    /// The first game of a PDN text, replayed (its start position, moves and result).
    ///
    /// # Errors
    /// `PdnError` naming the game, line and move: bad syntax, an unsupported `GameType`, a bad `FEN`
    /// tag, an illegal or ambiguous move, or a text with no game.
    #[wasm_bindgen(js_name = fromPdn)]
    pub fn from_pdn(text: &str) -> Result<WasmGame, JsValue> {
        let game = crown_notation::pdn_to_game(text).map_err(|e| error("PdnError", e))?;
        Ok(WasmGame { game })
    }

    /// The game as one PDN game: `tags` is an array of `[name, value]` pairs (`Event`, `Black`,
    /// `White`, `Date`, ...); the `GameType`, `FEN` and `Result` tags come from the game.
    ///
    /// # Errors
    /// `ArgumentError` when `tags` is not an array of two-string arrays.
    #[wasm_bindgen(js_name = toPdn)]
    pub fn to_pdn(&self, tags: JsValue) -> Result<String, JsValue> {
        let tags: Vec<(String, String)> = if tags.is_undefined() || tags.is_null() {
            Vec::new()
        } else {
            serde_wasm_bindgen::from_value(tags).map_err(|e| {
                error(
                    "ArgumentError",
                    format!("PDN tags must be [name, value] pairs: {e}"),
                )
            })?
        };
        let refs: Vec<(&str, &str)> = tags.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        Ok(crown_notation::game_to_pdn(&self.game, &refs))
    }

    /// A copy of this game (the engine worker and the analysis board keep their own).
    #[wasm_bindgen(js_name = clone)]
    pub fn clone_game(&self) -> WasmGame {
        WasmGame {
            game: self.game.clone(),
        }
    }

    /// The variant id: `american`, `pool` or `impasse`.
    pub fn variant(&self) -> String {
        self.game.variant().id().to_string()
    }

    /// The current position as PDN FEN.
    pub fn fen(&self) -> String {
        self.game.position().to_fen()
    }

    /// The start position of the game as PDN FEN.
    #[wasm_bindgen(js_name = startFen)]
    pub fn start_fen(&self) -> String {
        self.game.start().to_fen()
    }

    /// The side to move: `black` or `white`.
    #[wasm_bindgen(js_name = sideToMove)]
    pub fn side_to_move(&self) -> String {
        color_id(self.game.position().side_to_move()).to_string()
    }

    /// The side that moves first in this variant (`black` in checkers, `white` in Impasse).
    #[wasm_bindgen(js_name = firstPlayer)]
    pub fn first_player(&self) -> String {
        color_id(self.game.variant().first_player()).to_string()
    }

    /// The pieces on the board: an array of `{square, color, role}` (`role` is `man` or `king`;
    /// in Impasse a single or a double).
    pub fn pieces(&self) -> Result<JsValue, JsValue> {
        to_js(&piece_views(self.game.position()))
    }

    /// The legal moves (empty once the game is over): an array of `{index, text, longText, from, to,
    /// kind, path, captures, promotion, bearOff, crown: {single, onto} | null, impasse}`.
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self) -> Result<JsValue, JsValue> {
        if self.game.outcome().is_some() {
            return to_js::<[view::MoveView]>(&[]);
        }
        to_js(&legal_move_views(self.game.position()))
    }

    /// Whether the side to move must capture (checkers).
    #[wasm_bindgen(js_name = mustCapture)]
    pub fn must_capture(&self) -> bool {
        self.game.outcome().is_none() && self.game.position().must_capture()
    }

    /// The squares of the pieces that can capture (the ones a board marks), ascending.
    pub fn capturers(&self) -> Vec<u8> {
        if self.game.outcome().is_some() {
            return Vec::new();
        }
        self.game
            .position()
            .capturers()
            .iter()
            .map(|s| s.number())
            .collect()
    }

    /// Play a move given in Crown's notation (`11-15`, `11x18x25`, `22-18`, `6>10`, `x14`, `=N` for
    /// a crown, algebraic squares `f6-e5`), read by [`read_move`]; returns the move played (as in
    /// [`WasmGame::legal_moves`]).
    ///
    /// # Errors
    /// `MoveError` for bad syntax, an illegal move (the message lists the legal ones) or an ambiguous
    /// one; `GameError` when the game is over. The game is unchanged.
    pub fn play(&mut self, text: &str) -> Result<JsValue, JsValue> {
        if let Some(o) = self.game.outcome() {
            return Err(error(
                "GameError",
                format!("the game is over ({o}); no move can be played"),
            ));
        }
        let before = *self.game.position();
        let mv = read_move(&self.game, text).map_err(|e| error("MoveError", e))?;
        self.game.play(&mv).map_err(game_error)?;
        let index = before
            .legal_moves()
            .iter()
            .position(|m| *m == mv)
            .unwrap_or(0);
        to_js(&move_view(&before, &mv, index))
    }

    /// Play the legal move with this index in [`WasmGame::legal_moves`]; returns it.
    ///
    /// # Errors
    /// `ArgumentError` for an index out of range; `GameError` when the game is over.
    #[wasm_bindgen(js_name = playIndex)]
    pub fn play_index(&mut self, index: usize) -> Result<JsValue, JsValue> {
        if let Some(o) = self.game.outcome() {
            return Err(error(
                "GameError",
                format!("the game is over ({o}); no move can be played"),
            ));
        }
        let before = *self.game.position();
        let list = before.legal_moves();
        let Some(mv) = list.get(index).copied() else {
            return Err(error(
                "ArgumentError",
                format!(
                    "move index {index} is out of range: there are {} legal moves",
                    list.len()
                ),
            ));
        };
        self.game.play(&mv).map_err(game_error)?;
        to_js(&move_view(&before, &mv, index))
    }

    /// Take back the last move; returns its text, or `undefined` at the start. When the game ended
    /// by a declared result (resignation, agreed draw, time), only that result is taken back and
    /// `undefined` is returned.
    pub fn undo(&mut self) -> Option<String> {
        let before = self.game.history().last().map(|(p, _)| *p);
        let mv = self.game.undo()?;
        Some(match before {
            Some(p) => p.move_text(&mv),
            None => mv.short_text(),
        })
    }

    /// Number of plies played.
    #[wasm_bindgen(js_name = plyCount)]
    pub fn ply_count(&self) -> usize {
        self.game.ply_count()
    }

    /// The moves played: an array of `{ply, color, text, mv, fenAfter}`.
    pub fn history(&self) -> Result<JsValue, JsValue> {
        to_js(&history_views(&self.game))
    }

    /// The outcome, or `null` while the game goes on: `{result, winner, reason, text}` where
    /// `result` is the PDN result (`1-0` means the first player won), `winner` is `black`/`white`/
    /// `null`, `reason` a machine id (`no_legal_move`, `all_checkers_removed`, `repetition`, ...)
    /// and `text` the readable reason.
    pub fn outcome(&self) -> Result<JsValue, JsValue> {
        match self.game.outcome() {
            None => Ok(JsValue::NULL),
            Some(o) => to_js(&outcome_view(&o, self.game.variant())),
        }
    }

    /// `color` (`black`/`white`) resigns; ignored once the game is over.
    ///
    /// # Errors
    /// `ArgumentError` for an unknown colour.
    pub fn resign(&mut self, color: &str) -> Result<(), JsValue> {
        self.game.resign(color_arg(color)?);
        Ok(())
    }

    /// Both sides agreed to a draw; ignored once the game is over.
    #[wasm_bindgen(js_name = agreeDraw)]
    pub fn agree_draw(&mut self) {
        self.game.agree_draw();
    }

    /// `color` ran out of time; ignored once the game is over.
    ///
    /// # Errors
    /// `ArgumentError` for an unknown colour.
    #[wasm_bindgen(js_name = loseOnTime)]
    pub fn lose_on_time(&mut self, color: &str) -> Result<(), JsValue> {
        self.game.lose_on_time(color_arg(color)?);
        Ok(())
    }

    /// The APCA count `color` may claim now (pool checkers): `28` (rule 28, the 13 count), `27`
    /// (rule 27, the 38 count) or `undefined` when none applies, a count runs or the game is over
    /// ([`Game::claimable_count`]).
    ///
    /// # Errors
    /// `ArgumentError` for an unknown colour.
    #[wasm_bindgen(js_name = claimableCount)]
    pub fn claimable_count(&self, color: &str) -> Result<Option<u8>, JsValue> {
        Ok(self
            .game
            .claimable_count(color_arg(color)?)
            .map(rule_number))
    }

    /// `color` claims the APCA count of `rule` (`27` or `28`); the claimant's next moves are
    /// counted and its `limit`-th (38 or 13) draws the game.
    ///
    /// # Errors
    /// `ArgumentError` for an unknown colour or a rule other than 27 and 28; `GameError` with the
    /// core's reason when the rule does not apply (not pool, wrong material or side, a count already
    /// running, the game over). The game is unchanged then.
    #[wasm_bindgen(js_name = claimCount)]
    pub fn claim_count(&mut self, color: &str, rule: u8) -> Result<(), JsValue> {
        let rule = match rule {
            27 => crown_core::CountRule::ThirtyEight,
            28 => crown_core::CountRule::Thirteen,
            n => {
                return Err(error(
                    "ArgumentError",
                    format!("no APCA count rule {n}: rule 27 (38 moves) or 28 (13 moves)"),
                ))
            }
        };
        self.game
            .claim_count(color_arg(color)?, rule)
            .map_err(|e| error("GameError", e))
    }

    /// The running APCA count, or `null`: `{rule, limit, claimant, moves}` where `rule` is 27 or 28,
    /// `limit` the claimant's moves that draw (38 or 13), `claimant` `black`/`white` and `moves`
    /// the moves it has completed since the claim.
    pub fn count(&self) -> Result<JsValue, JsValue> {
        #[derive(Serialize)]
        struct CountView {
            rule: u8,
            limit: u32,
            claimant: &'static str,
            moves: u32,
        }
        match self.game.count() {
            None => Ok(JsValue::NULL),
            Some(c) => to_js(&CountView {
                rule: rule_number(c.rule),
                limit: c.rule.limit(),
                claimant: color_id(c.claimant),
                moves: c.moves,
            }),
        }
    }

    /// Plies since the last capture or man move (the 40-move rule counts 80 of them).
    #[wasm_bindgen(js_name = quietPlies)]
    pub fn quiet_plies(&self) -> u32 {
        self.game.quiet_plies()
    }

    /// Turn the repetition and 40-move draw rules on or off (analysis boards turn them off).
    #[wasm_bindgen(js_name = setDrawRules)]
    pub fn set_draw_rules(&mut self, repetition: bool, forty_moves: bool) {
        self.game.set_draw_rules(crown_core::DrawRules {
            repetition,
            forty_moves,
        });
    }

    /// A text diagram of the current position (for debugging and logs).
    pub fn diagram(&self) -> String {
        self.game.position().diagram()
    }
}

fn game_error(e: crown_core::GameError) -> JsValue {
    match e {
        crown_core::GameError::Move(m) => error("MoveError", m),
        other => error("GameError", other),
    }
}

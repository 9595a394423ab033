//! The opening explorer of the analysis board: the moves of a PDN archive in a position
//! ([`crown_notation::Explorer`]) and the moves of the embedded opening book
//! ([`crown_ai::book::Book`]), as plain JS objects.
//!
//! The page builds the archive's index in a worker (`www/js/analysis/explorer-worker.js`), chunk by
//! chunk with `add`, and asks it with `probe`; `bookMoves` runs on the page (the book is in every
//! build).

use crate::{error, parse_variant, read_position, to_js};
use crown_ai::book::Book;
use crown_ai::Score;
use crown_core::Position;
use crown_notation::{ArchiveStats, Explorer, ExplorerBuilder, Tally};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Whole percentages of a tally (they add up to 100 when there are games).
#[derive(Serialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Percent {
    white: u32,
    draws: u32,
    black: u32,
    unknown: u32,
}

/// Games and results of a position or of a move.
#[derive(Serialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct TallyView {
    games: u32,
    white: u32,
    draws: u32,
    black: u32,
    unknown: u32,
    percent: Percent,
}

impl From<Tally> for TallyView {
    fn from(t: Tally) -> TallyView {
        let [white, draws, black, unknown] = t.percentages();
        TallyView {
            games: t.games,
            white: t.white,
            draws: t.draws,
            black: t.black,
            unknown: t.unknown(),
            percent: Percent {
                white,
                draws,
                black,
                unknown,
            },
        }
    }
}

/// A move of the archive in a position.
#[derive(Serialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct MoveView {
    /// The move as the move list writes it (`11-15`; the full path only when needed).
    text: String,
    /// The move with every landing square (`11x18x25`), as `Game.play` reads it.
    long_text: String,
    #[serde(flatten)]
    tally: TallyView,
}

/// What the archive says about a position.
#[derive(Serialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct PositionView {
    #[serde(flatten)]
    tally: TallyView,
    moves: Vec<MoveView>,
}

/// A book move of a position.
#[derive(Serialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct BookMoveView {
    text: String,
    long_text: String,
    /// Centi-men from the side to move's point of view.
    score_cp: i16,
    /// `+0.12`: the score in men, side to move's view.
    score_text: String,
    /// Relative preference among the position's book moves (≥ 1).
    weight: u16,
}

/// Counts of the games that went into an index.
#[derive(Serialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct StatsView {
    games: u32,
    indexed: u32,
    stopped_early: u32,
    skipped: u32,
    positions: usize,
}

fn stats_view(s: ArchiveStats, positions: usize) -> StatsView {
    StatsView {
        games: s.games,
        indexed: s.indexed,
        stopped_early: s.stopped_early,
        skipped: s.skipped,
        positions,
    }
}

fn position_view(explorer: &Explorer, pos: &Position) -> PositionView {
    let found = explorer.probe(pos);
    PositionView {
        tally: found.tally.into(),
        moves: found
            .moves
            .iter()
            .map(|m| MoveView {
                text: pos.move_text(&m.mv),
                long_text: m.mv.long_text(),
                tally: m.tally.into(),
            })
            .collect(),
    }
}

fn book_view(pos: &Position) -> Vec<BookMoveView> {
    Book::embedded(pos.variant())
        .map(|b| b.probe(pos))
        .unwrap_or_default()
        .iter()
        .map(|m| BookMoveView {
            text: pos.move_text(&m.mv),
            long_text: m.mv.long_text(),
            score_cp: m.score_cp,
            score_text: Score::Value(i32::from(m.score_cp)).to_string(),
            weight: m.weight,
        })
        .collect()
}

/// The position of `fen` in game `variant`, or the binding's error.
fn position_of(variant: &str, fen: &str) -> Result<Position, JsValue> {
    let v = parse_variant(variant)?;
    read_position(v, fen).map_err(|e| error("PositionError", e))
}

/// The book moves of a position from the embedded opening book of its game, best first:
/// `[{text, longText, scoreCp, scoreText, weight}]` (scores in centi-men from the side to move's
/// point of view; empty when the position is not in the book).
///
/// # Errors
/// `UnknownName` for an unknown variant, `PositionError` for a bad FEN.
#[wasm_bindgen(js_name = bookMoves)]
pub fn book_moves(variant: &str, fen: &str) -> Result<JsValue, JsValue> {
    to_js(&book_view(&position_of(variant, fen)?))
}

/// The opening explorer of a PDN archive: position → moves played there, with the number of games
/// and their results (see `crown_notation::Explorer`). Add the archive with `add` (in pieces if
/// wanted), then `probe` positions.
#[wasm_bindgen(js_name = Explorer)]
#[derive(Default)]
pub struct WasmExplorer {
    builder: ExplorerBuilder,
    /// The index of what was added, built at the first probe after an `add`.
    index: Option<Explorer>,
}

#[wasm_bindgen(js_class = Explorer)]
impl WasmExplorer {
    /// An empty explorer (no game).
    #[wasm_bindgen(constructor)]
    pub fn new() -> WasmExplorer {
        WasmExplorer::default()
    }

    /// Add every game of a PDN text (a whole file or a chunk of one at game boundaries). Returns the
    /// counts so far: `{games, indexed, stoppedEarly, skipped, positions}` (`positions` is 0 until
    /// the next `probe` builds the index). Unreadable games are counted in `skipped`, never thrown.
    ///
    /// # Errors
    /// `SerializationError` only.
    pub fn add(&mut self, text: &str) -> Result<JsValue, JsValue> {
        self.builder.add_pdn(text);
        self.index = None;
        self.stats()
    }

    /// The counts of the games added: `{games, indexed, stoppedEarly, skipped, positions}`.
    ///
    /// # Errors
    /// `SerializationError` only.
    pub fn stats(&self) -> Result<JsValue, JsValue> {
        let positions = self.index.as_ref().map_or(0, Explorer::positions);
        to_js(&stats_view(self.builder.stats(), positions))
    }

    /// What the archive says about the position `fen` of game `variant`: `{games, white, draws,
    /// black, unknown, percent: {white, draws, black, unknown}, moves: [{text, longText, games,
    /// white, draws, black, unknown, percent}]}`, moves most played first; `games` 0 and no moves
    /// when no game reached it. Percentages are whole and add up to 100.
    ///
    /// # Errors
    /// `UnknownName` for an unknown variant, `PositionError` for a bad FEN.
    pub fn probe(&mut self, variant: &str, fen: &str) -> Result<JsValue, JsValue> {
        let pos = position_of(variant, fen)?;
        let index = self.index.get_or_insert_with(|| self.builder.build());
        to_js(&position_view(index, &pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown_core::Variant;

    #[test]
    fn the_views_carry_counts_percentages_and_texts() {
        // Three games from the start: 11-15 twice (1-0: Black won; 1/2-1/2), 9-13 once (0-1: White).
        let e = Explorer::from_pdn("1. 11-15 23-19 1-0\n\n1. 11-15 22-17 1/2-1/2\n\n1. 9-13 0-1\n");
        let v = position_view(&e, &Position::new(Variant::American));
        assert_eq!(v.tally.games, 3);
        assert_eq!(v.moves.len(), 2);
        let m = &v.moves[0];
        assert_eq!((m.text.as_str(), m.long_text.as_str()), ("11-15", "11-15"));
        assert_eq!((m.tally.games, m.tally.black, m.tally.draws), (2, 1, 1));
        assert_eq!(
            m.tally.percent,
            Percent {
                white: 0,
                draws: 50,
                black: 50,
                unknown: 0
            }
        );
        assert_eq!(v.moves[1].tally.percent.white, 100);
    }

    #[test]
    fn the_book_knows_the_start_of_each_game() {
        // `crown book probe` lists moves for the three starts (the books are built from them).
        // `crown book probe --variant american --fen <start> --json` prints 11-15 first (score 0).
        assert_eq!(
            book_view(&Position::new(Variant::American))[0].text,
            "11-15"
        );
        for variant in [Variant::American, Variant::Pool] {
            let moves = book_view(&Position::new(variant));
            assert!(!moves.is_empty(), "{variant}");
            let legal: Vec<String> = Position::new(variant)
                .legal_moves_sorted()
                .iter()
                .map(|m| m.long_text())
                .collect();
            for m in &moves {
                assert!(legal.contains(&m.long_text), "{}", m.long_text);
                assert!(m.weight >= 1);
            }
        }
    }
}

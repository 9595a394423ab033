//! PDN databases for the analysis board: the tags of every game of a file (the game picker), one
//! game's movetext tree with its comments and variations, and writing a game back with its tree.
//!
//! The tree is plain JSON shared with `www/js/analysis/tree.js`: a line is an array of entries
//! `{text, comment, strength, nags, variations}` where `variations` are lines that replace this
//! entry's move (PDN `( … )` after a move, PDN 3.0 §8.2.5).

use crate::{error, to_js, WasmGame};
use crown_notation::{game_record, replay, replay_prefix, write_game, MoveNode, Node, PdnReader};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

/// One game of a PDN file as listed by the game picker.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct IndexEntry {
    /// 1-based index of the game in the file.
    index: usize,
    /// 1-based line where the game starts.
    line: usize,
    /// Tags in file order, `[name, value]`.
    tags: Vec<(String, String)>,
    /// The game terminator as written (`1-0`, `*`, ...), if any.
    result: Option<String>,
    /// Number of main-line moves (plies) as written.
    plies: usize,
    /// The reader's error for a game that cannot be read (the others are still listed).
    error: Option<String>,
}

/// One move of a line, with what the file said about it.
#[derive(Serialize, Deserialize, Default, Debug, PartialEq)]
#[serde(rename_all = "camelCase", default)]
struct Entry {
    /// The move text (`11-15`, `11x18x25`, `6>10`).
    text: String,
    /// The comments after the move, joined by a space (empty: none).
    comment: String,
    /// A strength mark written after the move (`!`, `?`, `!?`), if any.
    strength: Option<String>,
    /// Numeric annotation glyphs `$n` after the move.
    nags: Vec<u32>,
    /// Lines that replace this move.
    variations: Vec<Vec<Entry>>,
}

/// A game of a PDN file read for the analysis board.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TreeView {
    /// 1-based index of the game in the file.
    index: usize,
    /// Tags in file order, `[name, value]`.
    tags: Vec<(String, String)>,
    /// The comment before the first move (empty: none).
    comment: String,
    /// The movetext: main line, comments and variations; main-line moves as replayed (long text).
    line: Vec<Entry>,
    /// The replay error when the main line stops early (the moves before it are kept).
    error: Option<String>,
}

/// Convert movetext nodes to a line; returns the comment written before the first move.
fn line_of(nodes: &[Node]) -> (String, Vec<Entry>) {
    let mut pre = Vec::new();
    let mut line: Vec<Entry> = Vec::new();
    for node in nodes {
        match node {
            Node::Move(m) => line.push(Entry {
                text: m.text.clone(),
                strength: m.strength.clone(),
                ..Entry::default()
            }),
            Node::Comment(c) => match line.last_mut() {
                Some(e) if e.comment.is_empty() => e.comment = c.clone(),
                Some(e) => {
                    e.comment.push(' ');
                    e.comment.push_str(c);
                }
                None => pre.push(c.clone()),
            },
            Node::Nag(n) => {
                if let Some(e) = line.last_mut() {
                    e.nags.push(*n);
                }
            }
            Node::Variation(v) => {
                let (vpre, mut vline) = line_of(v);
                if let Some(first) = vline.first_mut() {
                    if !vpre.is_empty() {
                        first.comment = if first.comment.is_empty() {
                            vpre
                        } else {
                            format!("{vpre} {}", first.comment)
                        };
                    }
                }
                if let (Some(e), false) = (line.last_mut(), vline.is_empty()) {
                    e.variations.push(vline);
                }
            }
            Node::Setup { .. } => {}
        }
    }
    (pre.join(" "), line)
}

/// Convert a line back to movetext nodes.
fn nodes_of(pre: &str, line: &[Entry]) -> Vec<Node> {
    let mut out = Vec::new();
    if !pre.trim().is_empty() {
        out.push(Node::Comment(pre.trim().to_string()));
    }
    for e in line {
        let mut m = MoveNode::new(e.text.clone());
        m.strength = e.strength.clone().filter(|s| !s.is_empty());
        out.push(Node::Move(m));
        out.extend(e.nags.iter().map(|n| Node::Nag(*n)));
        if !e.comment.trim().is_empty() {
            out.push(Node::Comment(e.comment.trim().to_string()));
        }
        for v in &e.variations {
            out.push(Node::Variation(nodes_of("", v)));
        }
    }
    out
}

/// The game `index` (1-based) of `text`, or a `PdnError`.
fn nth_game(text: &str, index: usize) -> Result<crown_notation::PdnGame, JsValue> {
    PdnReader::new(text.as_bytes())
        .nth(index.wrapping_sub(1))
        .ok_or_else(|| error("PdnError", format!("the text has no game {index}")))?
        .map_err(|e| error("PdnError", e))
}

/// The tags of every game of a PDN text, without replaying the moves (fast for thousands of games).
///
/// Returns `[{index, line, tags: [[name, value], ...], result, plies, error}]`; a game the reader
/// cannot read is listed with its `error` (a one-line message naming the line) and no tags.
///
/// # Errors
/// `SerializationError` only.
#[wasm_bindgen(js_name = pdnIndex)]
pub fn pdn_index(text: &str) -> Result<JsValue, JsValue> {
    let entries: Vec<IndexEntry> = PdnReader::new(text.as_bytes())
        .enumerate()
        .map(|(i, g)| match g {
            Ok(g) => IndexEntry {
                index: g.index,
                line: g.line,
                plies: g.main_line().count(),
                result: g.result.clone(),
                tags: g.tags,
                error: None,
            },
            Err(e) => IndexEntry {
                index: i + 1,
                line: e.location.line,
                tags: Vec::new(),
                result: None,
                plies: 0,
                error: Some(e.to_string()),
            },
        })
        .collect();
    to_js(&entries)
}

/// Game `index` (1-based) of a PDN text as a tree for the analysis board:
/// `{index, tags, comment, line: [{text, comment, strength, nags, variations}], error}`.
///
/// Main-line move texts are replaced by the replayed moves' long text (`11x18x25`); variation moves
/// are as written (the page plays them and drops a variation at its first illegal move). When the
/// main line has an illegal move, the moves before it are kept and `error` names the move.
///
/// # Errors
/// `PdnError` when there is no such game or it cannot be read (syntax, `GameType`, `FEN`).
#[wasm_bindgen(js_name = pdnTree)]
pub fn pdn_tree(text: &str, index: usize) -> Result<JsValue, JsValue> {
    let game = nth_game(text, index)?;
    let (r, err) = replay_prefix(&game).map_err(|e| error("PdnError", e))?;
    let (comment, mut line) = line_of(&game.nodes);
    line.truncate(r.moves.len());
    for (e, mv) in line.iter_mut().zip(&r.moves) {
        e.text = mv.long_text();
    }
    to_js(&TreeView {
        index: game.index,
        tags: game.tags.clone(),
        comment,
        line,
        error: err.map(|e| e.to_string()),
    })
}

#[wasm_bindgen(js_class = Game)]
impl WasmGame {
    /// Game `index` (1-based) of a PDN text, replayed like [`WasmGame::from_pdn`]: its main line, and
    /// the file's result recorded when the board does not show it.
    ///
    /// # Errors
    /// `PdnError` naming the game, line and move when there is no such game, it cannot be read, or
    /// its main line has an illegal or ambiguous move.
    #[wasm_bindgen(js_name = fromPdnGame)]
    pub fn from_pdn_game(text: &str, index: usize) -> Result<WasmGame, JsValue> {
        let game = nth_game(text, index)?;
        let r = replay(&game).map_err(|e| error("PdnError", e))?;
        Ok(WasmGame {
            game: r.to_game(game.final_result()),
        })
    }

    /// Game `index` (1-based) of a PDN text as far as its main line can be played: like
    /// [`WasmGame::from_pdn_game`], but an illegal or ambiguous move stops the game there instead of
    /// rejecting it (the moves before it are kept; [`pdn_tree`]'s `error` names the move). The
    /// file's result is recorded only when the whole main line was played.
    ///
    /// # Errors
    /// `PdnError` naming the game and line when there is no such game or it cannot be read
    /// (syntax, `GameType`, `FEN`).
    #[wasm_bindgen(js_name = fromPdnGamePrefix)]
    pub fn from_pdn_game_prefix(text: &str, index: usize) -> Result<WasmGame, JsValue> {
        let game = nth_game(text, index)?;
        let (r, err) = replay_prefix(&game).map_err(|e| error("PdnError", e))?;
        let result = if err.is_none() {
            game.final_result()
        } else {
            None
        };
        Ok(WasmGame {
            game: r.to_game(result),
        })
    }

    /// This game as PDN with a movetext tree: `tags` as for `toPdn` (all kept; `GameType`, `SetUp`,
    /// `FEN` and the result come from the game), `comment` before the first move, and `line` the
    /// tree (`{text, comment, strength, nags, variations}` entries) whose main line is this game's.
    ///
    /// # Errors
    /// `ArgumentError` when `tags` or `line` do not have these shapes; `PdnError` when the written
    /// text does not read back (a variation move that is not PDN move text).
    #[wasm_bindgen(js_name = toPdnTree)]
    pub fn to_pdn_tree(
        &self,
        tags: JsValue,
        comment: &str,
        line: JsValue,
    ) -> Result<String, JsValue> {
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
        let line: Vec<Entry> = serde_wasm_bindgen::from_value(line).map_err(|e| {
            error(
                "ArgumentError",
                format!("the PDN tree has a bad entry: {e}"),
            )
        })?;
        let refs: Vec<(&str, &str)> = tags.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        let mut record = game_record(&self.game, &refs);
        // the main line's moves as the game writes them, the tree's comments and variations
        let main: Vec<Node> = record.nodes.drain(..).collect();
        let mut entries = line;
        entries.truncate(main.len());
        for (e, node) in entries.iter_mut().zip(&main) {
            if let Node::Move(m) = node {
                e.text = m.text.clone();
            }
        }
        record.nodes = nodes_of(comment, &entries);
        let text = write_game(&record);
        // a written record must read back (variation moves come from the page)
        let back = PdnReader::new(text.as_bytes())
            .next()
            .ok_or_else(|| error("PdnError", "the written game does not read back"))?
            .map_err(|e| error("PdnError", e))?;
        replay(&back).map_err(|e| error("PdnError", e))?;
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Comments, a variation with a nested variation, a NAG: read into a line and written back.
    #[test]
    fn comments_and_variations_survive_a_round_trip() {
        let text = "[Event \"t\"]\n\n{start} 1. 11-15 {Old Faithful} 23-19 $1 (22-18 {a cross} 15x22 (9-13)) 2. 8-11 *\n";
        let game = PdnReader::new(text.as_bytes()).next().unwrap().unwrap();
        let (pre, line) = line_of(&game.nodes);
        assert_eq!(pre, "start");
        assert_eq!(line.len(), 3);
        assert_eq!(line[0].comment, "Old Faithful");
        assert_eq!(line[1].nags, vec![1]);
        assert_eq!(line[1].variations.len(), 1);
        let v = &line[1].variations[0];
        assert_eq!(
            (v[0].text.as_str(), v[0].comment.as_str()),
            ("22-18", "a cross")
        );
        assert_eq!(v[1].text, "15x22");
        assert_eq!(v[1].variations[0][0].text, "9-13");
        let back = nodes_of(&pre, &line);
        assert_eq!(line_of(&back), (pre, line));
    }
}

//! The strict PDN 3.0 writer and the canonical form used by `crown pdn fmt`.

use crate::error::PdnError;
use crate::gametype::{game_type_tag, variant_from_game_type};
use crate::reader::{MoveNode, Node, PdnGame, RESULTS};
use crate::replay::{move_number, position_from_pdn_fen, replay, Replay};
use crown_core::{Color, Game, MoveList, Position, Variant};

/// The seven roster tags, in the order PDN (after PGN) writes them.
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Width at which movetext lines are wrapped (PDN, like PGN, keeps lines within 80 columns).
pub const LINE_WIDTH: usize = 80;

fn escape(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' | '\r' | '\t' => s.push(' '),
            c => s.push(c),
        }
    }
    s
}

/// Movetext words, laid out by greedy line filling: words joined by spaces, a new line when the next
/// word would pass [`LINE_WIDTH`]; a line never starts with `%` or `[` (such a word of a comment is
/// indented by one space).
struct Wrapper {
    words: Vec<String>,
    /// The next word is glued to the last one (after `(`).
    glue: bool,
}

impl Wrapper {
    fn word(&mut self, w: &str) {
        match self.words.last_mut() {
            Some(last) if self.glue => last.push_str(w),
            _ => self.words.push(w.to_string()),
        }
        self.glue = false;
    }

    /// Append to the last word (a closing `)`).
    fn suffix(&mut self, s: &str) {
        match self.words.last_mut() {
            Some(last) => last.push_str(s),
            None => self.words.push(s.to_string()),
        }
    }

    fn layout(&self) -> String {
        let mut out = String::new();
        let mut column = 0;
        for w in &self.words {
            let len = w.chars().count();
            if column > 0 && column + 1 + len > LINE_WIDTH {
                out.push('\n');
                column = 0;
                if w.starts_with(['%', '[']) {
                    // A word of a comment: at the start of a line other readers would take `%`
                    // for a line comment (PDN escape) and `[` for a tag. Indent it by one space.
                    out.push(' ');
                    column = 1;
                }
            } else if column > 0 {
                out.push(' ');
                column += 1;
            }
            out.push_str(w);
            column += len;
        }
        out
    }
}

/// Facts the writer needs to number moves.
#[derive(Clone, Copy)]
struct Numbering {
    variant: Variant,
    side: Color,
    /// Write only the move numbers the file gave, with the values it gave (a game written as read).
    as_read: bool,
}

fn write_nodes(nodes: &[Node], first_ply: usize, num: Numbering, w: &mut Wrapper) {
    let mut ply = first_ply;
    let mut need_number = true;
    let mut last_move_ply = first_ply;
    for node in nodes {
        match node {
            Node::Move(m) => {
                let (n, second) = move_number(num.variant, num.side, ply);
                let mut text = String::new();
                if num.as_read {
                    if let Some(n) = m.number {
                        text.push_str(&format!("{n}{} ", if second { "..." } else { "." }));
                    }
                } else if !second {
                    text.push_str(&format!("{n}. "));
                } else if need_number {
                    text.push_str(&format!("{n}... "));
                }
                // The number and its move stay on one line.
                text.push_str(&m.text);
                if let Some(s) = &m.strength {
                    text.push_str(s);
                }
                w.word(&text);
                last_move_ply = ply;
                ply += 1;
                need_number = false;
            }
            Node::Comment(c) => {
                // A brace inside would end or nest the comment (PDN comments cannot hold them).
                let c = c.replace('{', "(").replace('}', ")");
                let words: Vec<&str> = c.split_whitespace().collect();
                if words.is_empty() {
                    w.word("{}");
                } else {
                    let last = words.len() - 1;
                    for (i, word) in words.iter().enumerate() {
                        let mut t = String::new();
                        if i == 0 {
                            t.push('{');
                        }
                        t.push_str(word);
                        if i == last {
                            t.push('}');
                        }
                        w.word(&t);
                    }
                }
                need_number = true;
            }
            Node::Nag(n) => {
                w.word(&format!("${n}"));
                need_number = true;
            }
            Node::Variation(inner) => {
                if inner.is_empty() {
                    w.word("()");
                } else {
                    // `(` is glued to what follows, `)` to what precedes.
                    w.word("(");
                    w.glue = true;
                    write_nodes(inner, last_move_ply, num, w);
                    w.suffix(")");
                }
                need_number = true;
            }
            Node::Setup { fen, .. } => {
                w.word(&format!("/FEN \"{fen}\"/"));
                need_number = true;
            }
        }
    }
}

/// The tags in the order the writer puts them: the roster tags present (and always `Result`, from
/// `terminator` when missing), `GameType` (always; `21` when missing), `SetUp` (`1` when missing and
/// a `FEN` is given), `FEN`, then the others in their order.
fn ordered_tags(game: &PdnGame, terminator: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for name in ROSTER.iter().chain(&["GameType", "SetUp", "FEN"]) {
        if let Some(v) = game.tag(name) {
            out.push((name.to_string(), v.to_string()));
        } else if *name == "Result" {
            out.push((name.to_string(), terminator.to_string()));
        } else if *name == "GameType" {
            // Without the tag a game is American checkers (PDN 2.0 checkers convention): say so.
            out.push((
                name.to_string(),
                game_type_tag(Variant::American).to_string(),
            ));
        } else if *name == "SetUp" && game.tag("FEN").is_some_and(|f| !f.trim().is_empty()) {
            out.push((name.to_string(), "1".to_string()));
        }
    }
    for (name, value) in &game.tags {
        if !out.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
            out.push((name.clone(), value.clone()));
        }
    }
    out
}

/// Write one game as PDN text (ending with a blank line), as it is: tags in the standard order — the
/// seven roster tags that are present, then `GameType` (always: `21`, American checkers, when the game
/// has none), `SetUp` (`"1"` added when a `FEN` is given), `FEN`, then the others in their order
/// — moves numbered from the FEN's side to move, comments, NAGs and variations kept, lines wrapped at
/// 80 columns, and the game terminator (the result, or `*`). Move texts are written as stored; use
/// [`canonical`] first for the canonical form.
pub fn write_game(game: &PdnGame) -> String {
    let variant = variant_from_game_type(game.tag("GameType")).unwrap_or(Variant::American);
    let side = game
        .tag("FEN")
        .and_then(|f| match f.trim().chars().next() {
            Some('W' | 'w') => Some(Color::White),
            Some('B' | 'b') => Some(Color::Black),
            _ => None,
        })
        .unwrap_or(variant.first_player());
    let terminator = game
        .result
        .clone()
        .filter(|r| r != "*")
        .or_else(|| game.tag("Result").map(str::to_string))
        .filter(|r| RESULTS.contains(&r.as_str()) || r == "*")
        .unwrap_or_else(|| "*".to_string());
    let mut out = String::new();
    for (name, value) in ordered_tags(game, &terminator) {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
    }
    let mut w = Wrapper {
        words: Vec::new(),
        glue: false,
    };
    let num = Numbering {
        variant,
        side,
        as_read: false,
    };
    write_nodes(&game.nodes, 0, num, &mut w);
    w.word(&terminator);
    out.push_str(&w.layout());
    out.push_str("\n\n");
    out
}

/// Write one game as it was read, for a game that does not replay (so that nothing is changed or
/// lost): the tags it has in their order (no `Result`, `GameType` or `SetUp` added), the move
/// numbers the file gave with their values (none added, none renumbered), moves, comments, NAGs
/// and variations, lines wrapped at 80 columns, then its result (`*` when the file gave none).
pub fn write_game_as_read(game: &PdnGame) -> String {
    let variant = variant_from_game_type(game.tag("GameType")).unwrap_or(Variant::American);
    let side = game
        .tag("FEN")
        .and_then(|f| match f.trim().chars().next() {
            Some('W' | 'w') => Some(Color::White),
            Some('B' | 'b') => Some(Color::Black),
            _ => None,
        })
        .unwrap_or(variant.first_player());
    let terminator = game.result.clone().unwrap_or_else(|| "*".to_string());
    let mut out = String::new();
    for (name, value) in &game.tags {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    let mut w = Wrapper {
        words: Vec::new(),
        glue: false,
    };
    let num = Numbering {
        variant,
        side,
        as_read: true,
    };
    write_nodes(&game.nodes, 0, num, &mut w);
    w.word(&terminator);
    out.push_str(&w.layout());
    out.push_str("\n\n");
    out
}

/// Rewrite moves of `nodes` (starting in `pos`) in canonical notation where they replay; lines that
/// stop replaying keep their text from there on. `main` gives already-resolved main-line moves.
fn canonical_nodes(nodes: &mut [Node], start: Position, main: Option<&[crown_core::Move]>) {
    let mut pos = start;
    let mut before = start;
    let mut ok = true;
    let mut index = 0;
    let mut buf = MoveList::new();
    for node in nodes.iter_mut() {
        match node {
            Node::Move(m) => {
                if !ok {
                    continue;
                }
                let mv = match main {
                    Some(list) => list.get(index).copied(),
                    None => resolve_single(&pos, m, &mut buf),
                };
                index += 1;
                match mv {
                    Some(mv) => {
                        m.text = pos.move_text(&mv);
                        before = pos;
                        pos.play(&mv);
                    }
                    None => ok = false,
                }
            }
            Node::Variation(inner) => {
                if ok {
                    canonical_nodes(inner, before, None);
                }
            }
            Node::Setup { fen, .. } => match position_from_pdn_fen(pos.variant(), fen) {
                Ok((p, _)) => {
                    *fen = p.to_fen();
                    pos = p;
                    before = p;
                }
                Err(_) => ok = false,
            },
            Node::Comment(_) | Node::Nag(_) => {}
        }
    }
}

fn resolve_single(pos: &Position, m: &MoveNode, _buf: &mut MoveList) -> Option<crown_core::Move> {
    let g = PdnGame {
        index: 0,
        line: 0,
        tags: vec![
            ("GameType".into(), game_type_tag(pos.variant()).into()),
            ("FEN".into(), pos.to_fen()),
        ],
        nodes: vec![Node::Move(m.clone())],
        result: None,
        warnings: Vec::new(),
    };
    replay(&g).ok().and_then(|r| r.moves.first().copied())
}

/// The canonical form of a game, as `crown pdn fmt` writes it: the game is replayed; `GameType` is
/// always set; the `FEN` tag is rewritten canonically with `SetUp "1"` when the game starts from a set
/// position; the `Result` tag agrees with the terminator; every move that replays is written in
/// Crown's notation (captures from start to end, the full path only when ambiguous), in the main
/// line and in the variations.
///
/// # Errors
/// The [`PdnError`] of [`replay`] when the main line does not replay.
pub fn canonical(game: &PdnGame) -> Result<PdnGame, PdnError> {
    let r: Replay = replay(game)?;
    let mut out = game.clone();
    out.set_tag("GameType", game_type_tag(r.variant));
    if r.start != Position::new(r.variant) || game.tag("FEN").is_some() {
        let fen = r.start.to_fen();
        out.set_tag("SetUp", "1");
        out.set_tag("FEN", &fen);
    }
    // A leading setup command became the FEN tag.
    if let Some(first_move) = out.nodes.iter().position(|n| matches!(n, Node::Move(_))) {
        let mut i = 0;
        let mut removed = 0;
        out.nodes.retain(|n| {
            let keep = !(i < first_move && matches!(n, Node::Setup { .. }));
            i += 1;
            removed += usize::from(!keep);
            keep
        });
        if removed > 0 {
            let fen = r.start.to_fen();
            out.set_tag("SetUp", "1");
            out.set_tag("FEN", &fen);
        }
    }
    canonical_nodes(&mut out.nodes, r.start, Some(&r.moves));
    let result = out
        .result
        .clone()
        .filter(|x| x != "*")
        .or_else(|| out.tag("Result").map(str::to_string))
        .filter(|x| RESULTS.contains(&x.as_str()) || x == "*")
        .unwrap_or_else(|| "*".into());
    out.set_tag("Result", &result);
    out.tags = ordered_tags(&out, &result);
    out.result = Some(result);
    Ok(out)
}

/// Build the PDN record of a [`Game`]: the seven roster tags (from `tags`, else `?`, the date
/// `????.??.??`, and the result from [`Game::outcome`] as [`crown_core::Outcome::pdn_result`] or `*`),
/// `GameType`, `SetUp`/`FEN` when the game does not start from the variant's start position, then the
/// other `tags` in order; moves numbered, captures written short unless ambiguous.
pub fn game_record(game: &Game, tags: &[(&str, &str)]) -> PdnGame {
    let variant = game.variant();
    let mut pdn = PdnGame::new(1);
    let given = |name: &str| {
        tags.iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.to_string())
    };
    let result = given("Result").unwrap_or_else(|| {
        game.outcome()
            .map(|o| o.pdn_result(variant).to_string())
            .unwrap_or_else(|| "*".into())
    });
    for name in ROSTER {
        let v = match name {
            "Result" => result.clone(),
            "Date" => given(name).unwrap_or_else(|| crate::UNKNOWN_DATE.into()),
            _ => given(name).unwrap_or_else(|| "?".into()),
        };
        pdn.tags.push((name.to_string(), v));
    }
    pdn.tags
        .push(("GameType".into(), game_type_tag(variant).to_string()));
    if *game.start() != Position::new(variant) {
        pdn.tags.push(("SetUp".into(), "1".into()));
        pdn.tags.push(("FEN".into(), game.start().to_fen()));
    }
    for (n, v) in tags {
        let skip = ROSTER.iter().any(|r| r.eq_ignore_ascii_case(n))
            || ["GameType", "SetUp", "FEN"]
                .iter()
                .any(|r| r.eq_ignore_ascii_case(n));
        if !skip {
            pdn.tags.push((n.to_string(), v.to_string()));
        }
    }
    for (pos, mv) in game.history() {
        pdn.nodes.push(Node::Move(MoveNode::new(pos.move_text(mv))));
    }
    pdn.result = Some(result);
    pdn
}

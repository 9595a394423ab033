//! The liberal, streaming PDN reader: bytes → lines → tokens → [`PdnGame`]s.
//!
//! Grammar: the PDN 3.0 *reading* grammar (`shared/docs/pdn-standard/grammar.rst`), including
//! `1. ... 7-12`, plus repairs for real files: a move split after its separator (`1- 6`), a remark
//! glued to a move (`8-11Redoverstepped`, read as a move and a comment, with a warning). Memory use is bounded by the largest game, not the file.

use crate::error::{Location, PdnError, PdnErrorKind, PdnWarning};
use crate::input::quote;
use std::io::Read;

mod game;
mod lexer;

pub use game::{MoveNode, Node, PdnGame, MAX_VARIATION_DEPTH, RESULTS};
pub use lexer::is_move_text;
use lexer::{split_glued, LexError, Lexer, Tok, TokKind};

/// Reads PDN games one at a time from any [`Read`] (a file, a socket, a byte slice).
///
/// Each item is one game: `Ok(PdnGame)`, or `Err(PdnError)` when its text breaks the grammar; the
/// reader then skips to the end of that game (its result or `*`, or a `[` at the start of a line)
/// and goes on, so one bad game never stops the file. An I/O error ends the iteration after being
/// reported once.
///
/// ```
/// use crown_notation::PdnReader;
/// let text = "[Event \"A\"]\n1. 11-15 23-19 1-0\n[Event \"B\"]\n1. 9-14 22-17 *\n";
/// let games: Vec<_> = PdnReader::new(text.as_bytes()).collect();
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("B"));
/// ```
pub struct PdnReader<R> {
    lexer: Lexer<R>,
    pending: Option<Tok>,
    index: usize,
    io_reported: bool,
    /// A tag read while finishing the previous game (name, value, line, column).
    carry: Option<(String, String, usize, usize)>,
}

impl<R: Read> PdnReader<R> {
    /// A reader over `r` (buffered internally).
    pub fn new(r: R) -> PdnReader<R> {
        PdnReader {
            lexer: Lexer::new(r),
            pending: None,
            index: 0,
            io_reported: false,
            carry: None,
        }
    }

    fn next_tok(&mut self) -> Option<Result<Tok, LexError>> {
        if let Some(t) = self.pending.take() {
            return Some(Ok(t));
        }
        self.lexer.next()
    }

    /// Skip to the end of the current (bad) game.
    fn recover(&mut self) {
        while let Some(t) = self.next_tok() {
            let Ok(t) = t else { continue };
            match &t.kind {
                TokKind::Star => return,
                TokKind::Word(w) if RESULTS.contains(&w.as_str()) => return,
                TokKind::LBracket if t.col == 1 => {
                    self.pending = Some(t);
                    return;
                }
                _ => {}
            }
        }
    }

    fn read_game(&mut self) -> Option<Result<PdnGame, PdnError>> {
        let mut game = PdnGame::new(self.index + 1);
        let mut stack: Vec<Vec<Node>> = vec![Vec::new()];
        // Where each open variation's `(` is (line, column).
        let mut opened: Vec<(usize, usize)> = Vec::new();
        let mut has_body = false;
        let mut number: Option<u32> = None;
        let mut any = false;
        if let Some((name, value, line, _)) = self.carry.take() {
            game.line = line;
            game.tags.push((name, value));
            any = true;
        }
        let fail = |game: &PdnGame, line: usize, col: usize, reason: String| PdnError {
            location: Box::new(game.location(line, col)),
            kind: PdnErrorKind::Syntax(reason),
        };
        loop {
            let tok = match self.next_tok() {
                None => break,
                Some(Err(e)) => {
                    if !any {
                        game.line = e.line;
                    }
                    let err = fail(&game, e.line, e.col, e.reason);
                    self.index += 1;
                    self.recover();
                    return Some(Err(err));
                }
                Some(Ok(t)) => t,
            };
            if !any {
                game.line = tok.line;
                any = true;
            }
            for (l, c, written, read) in self.lexer.repairs.drain(..) {
                game.warnings.push(PdnWarning {
                    location: game.location(l, c),
                    message: format!("move {} read as {read}", quote(&written)),
                });
            }
            let (line, col) = (tok.line, tok.col);
            let error = |this: &mut Self, game: &PdnGame, reason: String| {
                let err = fail(game, line, col, reason);
                this.index += 1;
                this.recover();
                Some(Err(err))
            };
            match tok.kind {
                TokKind::LBracket => {
                    if has_body {
                        // PDN: games are separated by a result or `*`. Report this game and let
                        // the tag start the next one.
                        self.pending = Some(tok);
                        self.index += 1;
                        return Some(Err(fail(
                            &game,
                            line,
                            col,
                            "the next game's tags begin before this game's result or '*'".into(),
                        )));
                    }
                    // Tag: IDENT STRING ']'.
                    let name = match self.next_tok() {
                        Some(Ok(Tok {
                            kind: TokKind::Word(w),
                            ..
                        })) if w.chars().all(|c| c.is_alphanumeric() || c == '_') => w,
                        _ => return error(self, &game, "expected a tag name after '['".into()),
                    };
                    let value = match self.next_tok() {
                        Some(Ok(Tok {
                            kind: TokKind::Str(s),
                            ..
                        })) => s,
                        _ => {
                            return error(
                                self,
                                &game,
                                format!("expected a quoted value for tag {}", quote(&name)),
                            )
                        }
                    };
                    match self.next_tok() {
                        Some(Ok(Tok {
                            kind: TokKind::RBracket,
                            ..
                        })) => {}
                        _ => {
                            return error(
                                self,
                                &game,
                                format!("expected ']' to close tag {}", quote(&name)),
                            )
                        }
                    }
                    if game.tag(&name).is_some() {
                        // The same tag twice: the previous game had no terminator. This tag
                        // starts the next game.
                        self.carry = Some((name, value, line, col));
                        self.index += 1;
                        return Some(Err(fail(
                            &game,
                            line,
                            col,
                            format!(
                                "tag {} given twice: the game before it has no result or '*'",
                                quote(self.carry.as_ref().map(|c| c.0.as_str()).unwrap_or(""))
                            ),
                        )));
                    }
                    game.tags.push((name, value));
                }
                TokKind::Word(w) => {
                    if RESULTS.contains(&w.as_str()) {
                        if let Some(n) = number {
                            return error(
                                self,
                                &game,
                                format!(
                                    "move number {n}. is followed by the result '{w}', not a move"
                                ),
                            );
                        }
                        if stack.len() > 1 {
                            return error(self, &game, format!("result '{w}' inside a variation"));
                        }
                        game.result = Some(w);
                        break;
                    }
                    if !is_move_text(&w) {
                        if let Some((mv, rest)) = split_glued(&w) {
                            // `8-11Redoversteppedthetimecontrol.`: a move with a remark glued on.
                            has_body = true;
                            game.warnings.push(PdnWarning {
                                location: Location {
                                    move_text: Some(mv.to_string()),
                                    ..game.location(line, col)
                                },
                                message: format!(
                                    "{} read as the move {} followed by the comment {}",
                                    quote(&w),
                                    quote(mv),
                                    quote(rest)
                                ),
                            });
                            if let Some(level) = stack.last_mut() {
                                level.push(Node::Move(MoveNode {
                                    text: mv.to_string(),
                                    strength: None,
                                    number: number.take(),
                                    line,
                                    column: col,
                                }));
                                level.push(Node::Comment(rest.to_string()));
                            }
                            continue;
                        }
                        return error(
                            self,
                            &game,
                            format!("{} is not a move, a move number or a result", quote(&w)),
                        );
                    }
                    has_body = true;
                    if let Some(level) = stack.last_mut() {
                        level.push(Node::Move(MoveNode {
                            text: w,
                            strength: None,
                            number: number.take(),
                            line,
                            column: col,
                        }));
                    }
                }
                TokKind::Number(n) => {
                    has_body = true;
                    number = Some(n);
                }
                TokKind::Strength(s) => {
                    let last = stack.last_mut().and_then(|l| l.last_mut());
                    match last {
                        Some(Node::Move(m)) if m.strength.is_none() => m.strength = Some(s),
                        _ => {
                            return error(
                                self,
                                &game,
                                format!("move strength {} does not follow a move", quote(&s)),
                            )
                        }
                    }
                }
                TokKind::Comment(c) => {
                    if let Some(level) = stack.last_mut() {
                        level.push(Node::Comment(c));
                    }
                }
                TokKind::Nag(n) => {
                    has_body = true;
                    if let Some(level) = stack.last_mut() {
                        level.push(Node::Nag(n));
                    }
                }
                TokKind::Setup(s) => {
                    has_body = true;
                    let fen = match parse_setup_command(&s) {
                        Some(f) => f,
                        None => {
                            return error(
                                self,
                                &game,
                                format!(
                                    "setup command {} must be /FEN \"...\"/",
                                    quote(&format!("/{s}/"))
                                ),
                            )
                        }
                    };
                    if let Some(level) = stack.last_mut() {
                        level.push(Node::Setup {
                            fen,
                            line,
                            column: col,
                        });
                    }
                }
                TokKind::LParen => {
                    has_body = true;
                    if stack.len() > MAX_VARIATION_DEPTH {
                        return error(
                            self,
                            &game,
                            format!(
                                "variations nested more than {MAX_VARIATION_DEPTH} levels deep"
                            ),
                        );
                    }
                    stack.push(Vec::new());
                    opened.push((line, col));
                }
                TokKind::RParen => {
                    if stack.len() < 2 {
                        return error(self, &game, "')' without an opening '('".into());
                    }
                    let inner = stack.pop().unwrap_or_default();
                    opened.pop();
                    if let Some(level) = stack.last_mut() {
                        level.push(Node::Variation(inner));
                    }
                }
                TokKind::Star => {
                    if stack.len() > 1 {
                        return error(self, &game, "'*' inside a variation".into());
                    }
                    game.result = Some("*".into());
                    break;
                }
                TokKind::Ellipsis => {}
                TokKind::RBracket => return error(self, &game, "']' outside a tag".into()),
                TokKind::Str(_) => return error(self, &game, "a string outside a tag".into()),
            }
        }
        if !any {
            if let (Some(e), false) = (self.lexer.lines.error.clone(), self.io_reported) {
                self.io_reported = true;
                self.index += 1;
                return Some(Err(PdnError {
                    location: Box::new(game.location(self.lexer.line_no(), 1)),
                    kind: PdnErrorKind::Io(e),
                }));
            }
            return None;
        }
        self.index += 1;
        if let Some(&(line, col)) = opened.last() {
            return Some(Err(fail(
                &game,
                line,
                col,
                "this variation '(' is not closed before the end of the game".into(),
            )));
        }
        game.nodes = stack.pop().unwrap_or_default();
        Some(Ok(game))
    }
}

impl<R: Read> Iterator for PdnReader<R> {
    type Item = Result<PdnGame, PdnError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.read_game()
    }
}

/// The FEN of a setup command body `FEN "B:W18:B14"` (the text between the slashes).
fn parse_setup_command(s: &str) -> Option<String> {
    let s = s.trim();
    let rest = s.get(..3).filter(|p| p.eq_ignore_ascii_case("FEN"))?;
    let rest = s[rest.len()..].trim();
    let inner = rest.strip_prefix('"')?.strip_suffix('"')?;
    Some(inner.trim().to_string())
}

/// Read every game of a text (see [`PdnReader`]).
pub fn read_games(text: &str) -> Vec<Result<PdnGame, PdnError>> {
    PdnReader::new(text.as_bytes()).collect()
}

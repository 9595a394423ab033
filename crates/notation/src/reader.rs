//! The liberal, streaming PDN reader: bytes → lines → tokens → [`PdnGame`]s.
//!
//! Grammar: the PDN 3.0 *reading* grammar (`shared/docs/pdn-standard/grammar.rst`), including
//! `1. ... 7-12`, plus repairs for real files: a move split after its separator (`1- 6`), a remark
//! glued to a move (`8-11Redoverstepped`, read as a move and a comment, with a warning). Memory use is bounded by the largest game, not the file.

use crate::error::{Location, PdnError, PdnErrorKind, PdnWarning};
use crate::input::quote;
use std::io::{BufRead, BufReader, Read};

/// One PDN game as written in the file: its tags and its movetext tree, not yet replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// 1-based index of the game in its file.
    pub index: usize,
    /// 1-based line where the game starts (0 for games built in memory).
    pub line: usize,
    /// Tags in file order, as `(name, value)` with escapes resolved.
    pub tags: Vec<(String, String)>,
    /// The movetext: moves, comments, NAGs, variations and setup commands, in order.
    pub nodes: Vec<Node>,
    /// The game terminator as written (`1-0`, `0-1`, `1/2-1/2`, `2-0`, `0-2`, `1-1`, `0-0` or `*`), if any.
    pub result: Option<String>,
    /// Repairs the reader made (a move glued to a word, read as the move and a comment).
    pub warnings: Vec<PdnWarning>,
}

/// One element of movetext.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// A move.
    Move(MoveNode),
    /// A comment `{…}` or a `%` line comment (the text after `%` to the end of the line); runs of
    /// white space (including line breaks) are read as one space and the ends are trimmed.
    Comment(String),
    /// A numeric annotation glyph `$n`.
    Nag(u32),
    /// A variation `( … )`: an alternative to the move just before it.
    Variation(Vec<Node>),
    /// A setup command `/FEN "…"/`; the FEN text without quotes.
    Setup {
        /// The FEN.
        fen: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
}

/// A move as written, with its position in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNode {
    /// The move text without move number and strength mark (`11x18x25`, `c3-d4`, `6>10=3`).
    pub text: String,
    /// A move strength mark written right after the move: `!`, `?`, `!?`, `(?)`, ….
    pub strength: Option<String>,
    /// The move number written before it, if any.
    pub number: Option<u32>,
    /// 1-based line (0 when built in memory).
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

impl MoveNode {
    /// A move built in memory (no file position).
    pub fn new(text: impl Into<String>) -> MoveNode {
        MoveNode {
            text: text.into(),
            strength: None,
            number: None,
            line: 0,
            column: 0,
        }
    }
}

impl PdnGame {
    /// An empty game (no tags, no moves) with the given index.
    pub fn new(index: usize) -> PdnGame {
        PdnGame {
            index,
            line: 0,
            tags: Vec::new(),
            nodes: Vec::new(),
            result: None,
            warnings: Vec::new(),
        }
    }

    /// The value of tag `name`, compared without regard to case (so `SetUp` finds `Setup`).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Set tag `name` (replacing a tag of the same name, compared without regard to case).
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self
            .tags
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The `Event` tag, if not empty.
    pub fn event(&self) -> Option<&str> {
        self.tag("Event").filter(|e| !e.is_empty())
    }

    /// The main-line moves in order (variations left out).
    pub fn main_line(&self) -> impl Iterator<Item = &MoveNode> {
        self.nodes.iter().filter_map(|n| match n {
            Node::Move(m) => Some(m),
            _ => None,
        })
    }

    /// A [`Location`] in this game at `line:column`.
    pub fn location(&self, line: usize, column: usize) -> Location {
        Location {
            game: self.index,
            event: self.event().map(str::to_string),
            line,
            column,
            move_number: None,
            move_text: None,
        }
    }
}

/// The deepest nesting of variations the reader accepts: a `(` opening level 65 is a syntax error.
/// Replay and the writer walk variations recursively; this bound keeps them far from the stack's
/// limit on any input (PDN sets no limit; real annotated games nest a few levels).
pub const MAX_VARIATION_DEPTH: usize = 64;

/// The results the reader knows (PDN reading grammar `Result`).
pub const RESULTS: [&str; 7] = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0"];

// ---------------------------------------------------------------------------------------------
// Lines: bytes to characters (UTF-8, else Latin-1), BOM, CRLF.
// ---------------------------------------------------------------------------------------------

struct Lines<R> {
    inner: BufReader<R>,
    buf: Vec<u8>,
    number: usize,
    error: Option<String>,
}

impl<R: Read> Lines<R> {
    fn new(r: R) -> Lines<R> {
        Lines {
            inner: BufReader::with_capacity(64 * 1024, r),
            buf: Vec::with_capacity(256),
            number: 0,
            error: None,
        }
    }

    /// Read the next line into `out` (without its line ending). Returns false at the end.
    fn next_into(&mut self, out: &mut Vec<char>) -> bool {
        out.clear();
        self.buf.clear();
        match self.inner.read_until(b'\n', &mut self.buf) {
            Ok(0) => return false,
            Ok(_) => {}
            Err(e) => {
                self.error = Some(e.to_string());
                return false;
            }
        }
        self.number += 1;
        let mut bytes = &self.buf[..];
        while let Some((&last, rest)) = bytes.split_last() {
            if last == b'\n' || last == b'\r' {
                bytes = rest;
            } else {
                break;
            }
        }
        if self.number == 1 {
            bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        }
        match std::str::from_utf8(bytes) {
            Ok(s) => out.extend(s.chars()),
            // Latin-1: every byte is the code point of the same value.
            Err(_) => out.extend(bytes.iter().map(|&b| b as char)),
        }
        true
    }
}

// ---------------------------------------------------------------------------------------------
// Tokens.
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
enum TokKind {
    LBracket,
    RBracket,
    LParen,
    RParen,
    Str(String),
    Word(String),
    Number(u32),
    Strength(String),
    Comment(String),
    Nag(u32),
    Setup(String),
    Star,
    Ellipsis,
}

#[derive(Clone, Debug)]
struct Tok {
    kind: TokKind,
    line: usize,
    col: usize,
}

struct LexError {
    reason: String,
    line: usize,
    col: usize,
}

struct Lexer<R> {
    lines: Lines<R>,
    line: Vec<char>,
    pos: usize,
    eof: bool,
    /// Moves split after their separator and joined (line, column, as written, as read), for the
    /// game's warnings.
    repairs: Vec<(usize, usize, String, String)>,
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '-' | ':' | '/' | '.' | '>' | '+' | '=' | '_')
}

impl<R: Read> Lexer<R> {
    fn new(r: R) -> Lexer<R> {
        Lexer {
            lines: Lines::new(r),
            line: Vec::new(),
            pos: 0,
            eof: false,
            repairs: Vec::new(),
        }
    }

    fn line_no(&self) -> usize {
        self.lines.number
    }

    /// Read text up to the closing `close`, across lines (a line break reads as a space). `Err(None)`
    /// when the input ends first; `Err(Some((line, column)))` at a `forbidden` character.
    fn read_delimited(
        &mut self,
        close: char,
        forbidden: Option<char>,
    ) -> Result<String, Option<(usize, usize)>> {
        let mut s = String::new();
        loop {
            if self.pos >= self.line.len() {
                s.push(' ');
                if !self.advance_line() {
                    return Err(None);
                }
                continue;
            }
            let ch = self.line[self.pos];
            self.pos += 1;
            if ch == close {
                return Ok(s);
            }
            if Some(ch) == forbidden {
                return Err(Some((self.line_no(), self.pos)));
            }
            s.push(ch);
        }
    }

    /// Move to the next line; false at the end of input.
    fn advance_line(&mut self) -> bool {
        if self.eof {
            return false;
        }
        self.pos = 0;
        if !self.lines.next_into(&mut self.line) {
            self.eof = true;
            self.line.clear();
            return false;
        }
        true
    }

    fn next(&mut self) -> Option<Result<Tok, LexError>> {
        loop {
            // Skip white space, moving to new lines as needed.
            while self.pos < self.line.len() && self.line[self.pos].is_whitespace() {
                self.pos += 1;
            }
            if self.pos >= self.line.len() {
                if !self.advance_line() {
                    return None;
                }
                continue;
            }
            let c = self.line[self.pos];
            if c == '%' {
                // Line comment: kept as a comment (the writer writes it as `{…}`); an empty one
                // holds nothing to keep.
                let text: String = self.line[self.pos + 1..].iter().collect();
                let line = self.line_no();
                let col = self.pos + 1;
                self.pos = self.line.len();
                let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                if text.is_empty() {
                    continue;
                }
                return Some(Ok(Tok {
                    kind: TokKind::Comment(text),
                    line,
                    col,
                }));
            }
            let line = self.line_no();
            let col = self.pos + 1;
            let tok = |kind| Some(Ok(Tok { kind, line, col }));
            let err = |reason: String| Some(Err(LexError { reason, line, col }));
            match c {
                '[' => {
                    self.pos += 1;
                    return tok(TokKind::LBracket);
                }
                ']' => {
                    self.pos += 1;
                    return tok(TokKind::RBracket);
                }
                '(' => {
                    // A bracketed strength mark `(?)`, `(!?)`?
                    let mut j = self.pos + 1;
                    while j < self.line.len() && matches!(self.line[j], '!' | '?') {
                        j += 1;
                    }
                    if j > self.pos + 1 && j < self.line.len() && self.line[j] == ')' {
                        let s: String = self.line[self.pos..=j].iter().collect();
                        self.pos = j + 1;
                        return tok(TokKind::Strength(s));
                    }
                    self.pos += 1;
                    return tok(TokKind::LParen);
                }
                ')' => {
                    self.pos += 1;
                    return tok(TokKind::RParen);
                }
                '*' => {
                    self.pos += 1;
                    return tok(TokKind::Star);
                }
                '!' | '?' => {
                    let start = self.pos;
                    while self.pos < self.line.len() && matches!(self.line[self.pos], '!' | '?') {
                        self.pos += 1;
                    }
                    return tok(TokKind::Strength(
                        self.line[start..self.pos].iter().collect(),
                    ));
                }
                '$' => {
                    self.pos += 1;
                    let start = self.pos;
                    while self.pos < self.line.len() && self.line[self.pos].is_ascii_digit() {
                        self.pos += 1;
                    }
                    let digits: String = self.line[start..self.pos].iter().collect();
                    return match digits.parse::<u32>() {
                        Ok(n) => tok(TokKind::Nag(n)),
                        Err(_) => err("'$' must be followed by a number (a NAG like $1)".into()),
                    };
                }
                '"' => {
                    self.pos += 1;
                    let mut s = String::new();
                    loop {
                        if self.pos >= self.line.len() {
                            return err("string not closed on its line".into());
                        }
                        let ch = self.line[self.pos];
                        self.pos += 1;
                        match ch {
                            '"' => break,
                            '\\' if self.pos < self.line.len()
                                && matches!(self.line[self.pos], '"' | '\\') =>
                            {
                                s.push(self.line[self.pos]);
                                self.pos += 1;
                            }
                            _ => s.push(ch),
                        }
                    }
                    return tok(TokKind::Str(s));
                }
                '{' => {
                    self.pos += 1;
                    // PDN comments do not nest: a '{' inside one is an error.
                    return match self.read_delimited('}', Some('{')) {
                        Ok(s) => tok(TokKind::Comment(
                            s.split_whitespace().collect::<Vec<_>>().join(" "),
                        )),
                        Err(None) => {
                            err("comment '{' not closed before the end of the file".into())
                        }
                        Err(Some((line, col))) => Some(Err(LexError {
                            reason: "'{' inside a comment: comments cannot be nested".into(),
                            line,
                            col,
                        })),
                    };
                }
                '}' => {
                    self.pos += 1;
                    return err(
                        "'}' without an opening '{' (comments cannot be nested)".to_string()
                    );
                }
                '/' => {
                    self.pos += 1;
                    return match self.read_delimited('/', None) {
                        Ok(s) => tok(TokKind::Setup(s.trim().to_string())),
                        Err(_) => err("setup '/' not closed before the end of the file".into()),
                    };
                }
                '.' | '…' => {
                    let start = self.pos;
                    while self.pos < self.line.len() && matches!(self.line[self.pos], '.' | '…') {
                        self.pos += 1;
                    }
                    let dots: String = self.line[start..self.pos].iter().collect();
                    if dots == "..." || dots == "…" {
                        return tok(TokKind::Ellipsis);
                    }
                    return err(format!(
                        "stray {} (only '...' may stand for a move)",
                        quote(&dots)
                    ));
                }
                '-' => {
                    // `- -` for an unknown move is seen in practice but is not PDN (reading
                    // grammar, grammar.rst): a game with one cannot be replayed.
                    self.pos += 1;
                    return err("'-' is not a move (unknown moves cannot be replayed)".into());
                }
                c if c.is_alphanumeric() => {
                    let start = self.pos;
                    if c.is_ascii_digit() {
                        let mut j = self.pos;
                        while j < self.line.len() && self.line[j].is_ascii_digit() {
                            j += 1;
                        }
                        if j < self.line.len() && self.line[j] == '.' {
                            let digits: String = self.line[start..j].iter().collect();
                            while j < self.line.len() && matches!(self.line[j], '.' | '…') {
                                j += 1;
                            }
                            self.pos = j;
                            return match digits.parse::<u32>() {
                                Ok(n) => tok(TokKind::Number(n)),
                                Err(_) => {
                                    err(format!("move number {} is too large", quote(&digits)))
                                }
                            };
                        }
                    }
                    while self.pos < self.line.len() && is_word_char(self.line[self.pos]) {
                        self.pos += 1;
                    }
                    let mut word: String = self.line[start..self.pos].iter().collect();
                    // `1- 6`: a move split by a space after its separator (old aligned files), or
                    // by a line break (`23-` at the end of a line, `19` on the next).
                    if word.ends_with(['-', 'x'])
                        && word[..word.len() - 1].bytes().all(|b| b.is_ascii_digit())
                    {
                        let mut j = self.pos;
                        while j < self.line.len() && self.line[j] == ' ' {
                            j += 1;
                        }
                        let mut written = "space";
                        if j == self.line.len() && self.advance_line() {
                            written = "line break";
                            j = 0;
                            while j < self.line.len() && self.line[j].is_whitespace() {
                                j += 1;
                            }
                            self.pos = j;
                        }
                        let k0 = j;
                        while j < self.line.len() && self.line[j].is_ascii_digit() {
                            j += 1;
                        }
                        if j > k0 && (j == self.line.len() || !is_word_char(self.line[j])) {
                            let first = word.clone();
                            word.extend(&self.line[k0..j]);
                            let second: String = self.line[k0..j].iter().collect();
                            self.pos = j;
                            self.repairs.push((
                                line,
                                start + 1,
                                format!("{first} {second}"),
                                format!("{} (split by a {written})", quote(&word)),
                            ));
                        }
                    }
                    return tok(TokKind::Word(word));
                }
                other => {
                    self.pos += 1;
                    return err(format!("unexpected character '{other}'"));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Games.
// ---------------------------------------------------------------------------------------------

/// Whether `text` has the shape of a move in one of the notations Crown reads: numeric
/// (`11-15`, `11x18x25`, `11:18`, `01-05`), alphanumeric (`c3-d4`, `c3d4`, `e3xc5`) or Impasse
/// (`22-18`, `6>10`, `x14`, with `+` and `=N`).
pub fn is_move_text(text: &str) -> bool {
    let t = text.as_bytes();
    if t.is_empty() {
        return false;
    }
    // Impasse suffixes: `+`, `=N`.
    let mut body = text;
    if let Some((b, c)) = body.split_once('=') {
        if c.is_empty() || !c.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
        body = b;
    }
    let body = body.strip_suffix('+').unwrap_or(body);
    let digits = |s: &str| !s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit());
    if let Some(r) = body.strip_prefix(['x', 'X']) {
        if digits(r) {
            return true;
        }
    }
    if let Some((a, b)) = body.split_once('>') {
        return digits(a) && digits(b);
    }
    if body.len() != text.len() && !body.contains('-') {
        // `+` / `=` only follow Impasse moves.
        return false;
    }
    let parts: Vec<&str> = body.split(['-', 'x', 'X', ':']).collect();
    if parts.len() >= 2 && parts.iter().all(|p| digits(p)) {
        return true;
    }
    let alpha =
        |s: &[u8]| s.len() == 2 && (b'a'..=b'h').contains(&s[0]) && (b'1'..=b'8').contains(&s[1]);
    if parts.len() >= 2 && parts.iter().all(|p| alpha(p.as_bytes())) {
        return true;
    }
    // Alphanumeric squares without separators: `a3b4`.
    let b = body.as_bytes();
    parts.len() == 1 && b.len() >= 4 && b.len() % 2 == 0 && b.chunks(2).all(alpha)
}

/// A numeric move with text glued to it (`8-11Red`): the move and the rest.
fn split_glued(word: &str) -> Option<(&str, &str)> {
    let end = word
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '-' | 'x' | 'X' | ':')))
        .unwrap_or(word.len());
    let rest = &word[end..];
    let first = rest.chars().next()?;
    if !first.is_alphabetic() {
        return None;
    }
    let mv = word[..end].trim_end_matches(['-', 'x', 'X', ':']);
    (is_move_text(mv) && mv.len() == end).then_some((mv, rest))
}

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

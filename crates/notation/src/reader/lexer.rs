//! The PDN lexer: bytes to lines (UTF-8, else Latin-1) to tokens, with the repairs real files need.

use crate::input::quote;
use std::io::{BufRead, BufReader, Read};

// ---------------------------------------------------------------------------------------------
// Lines: bytes to characters (UTF-8, else Latin-1), BOM, CRLF.
// ---------------------------------------------------------------------------------------------

pub(super) struct Lines<R> {
    pub(super) inner: BufReader<R>,
    pub(super) buf: Vec<u8>,
    pub(super) number: usize,
    pub(super) error: Option<String>,
}

impl<R: Read> Lines<R> {
    pub(super) fn new(r: R) -> Lines<R> {
        Lines {
            inner: BufReader::with_capacity(64 * 1024, r),
            buf: Vec::with_capacity(256),
            number: 0,
            error: None,
        }
    }

    /// Read the next line into `out` (without its line ending). Returns false at the end.
    pub(super) fn next_into(&mut self, out: &mut Vec<char>) -> bool {
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
pub(super) enum TokKind {
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
pub(super) struct Tok {
    pub(super) kind: TokKind,
    pub(super) line: usize,
    pub(super) col: usize,
}

pub(super) struct LexError {
    pub(super) reason: String,
    pub(super) line: usize,
    pub(super) col: usize,
}

pub(super) struct Lexer<R> {
    pub(super) lines: Lines<R>,
    pub(super) line: Vec<char>,
    pub(super) pos: usize,
    pub(super) eof: bool,
    /// Moves split after their separator and joined (line, column, as written, as read), for the
    /// game's warnings.
    pub(super) repairs: Vec<(usize, usize, String, String)>,
}

pub(super) fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '-' | ':' | '/' | '.' | '>' | '+' | '=' | '_')
}

impl<R: Read> Lexer<R> {
    pub(super) fn new(r: R) -> Lexer<R> {
        Lexer {
            lines: Lines::new(r),
            line: Vec::new(),
            pos: 0,
            eof: false,
            repairs: Vec::new(),
        }
    }

    pub(super) fn line_no(&self) -> usize {
        self.lines.number
    }

    /// Read text up to the closing `close`, across lines (a line break reads as a space). `Err(None)`
    /// when the input ends first; `Err(Some((line, column)))` at a `forbidden` character.
    pub(super) fn read_delimited(
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
    pub(super) fn advance_line(&mut self) -> bool {
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

    pub(super) fn next(&mut self) -> Option<Result<Tok, LexError>> {
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
pub(super) fn split_glued(word: &str) -> Option<(&str, &str)> {
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

//! One way to read what a person or a program types: a line of bytes, a move, a list of moves, a
//! FEN. Every front end (the `crown` commands, the engine protocol, the TUI, the server, the wasm
//! bindings) reads through these functions, so the same text gives the same answer everywhere.
//!
//! Errors are one [`InputError`] whose message is one printable line of at most
//! [`MAX_ERROR_CHARS`] characters: it quotes at most [`MAX_QUOTE_CHARS`] characters of the offending
//! text with its position, writes control characters as `\u{1b}`, and names the real problem (a
//! capture that must continue, a finished position, a side to move given twice, …).

use crown_core::{
    Color, FenError, Game, Move, MoveError, Position, PositionError, Setup, Square, Variant,
};
use std::fmt;

/// Most characters of the offending text quoted in an error message.
pub const MAX_QUOTE_CHARS: usize = 60;
/// Most characters of an [`InputError`] message (one line, printable).
pub const MAX_ERROR_CHARS: usize = 200;

/// Whether `c` is written as `\u{..}` in a message: Unicode general categories Cc (controls: ESC,
/// CR, …), Cf (format characters: U+202E right-to-left override, U+200B zero-width space, the
/// U+2066–U+2069 isolates, a byte-order mark U+FEFF, …), Zl (U+2028) and Zp (U+2029). Such a
/// character would act on the terminal or reorder the text around it, or is invisible.
pub fn needs_escape(c: char) -> bool {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    matches!(
        c.general_category(),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
    )
}

/// `text` with every character of [`needs_escape`] written as `\u{..}` (ESC as `\u{1b}`, CR as
/// `\u{d}`, a right-to-left override as `\u{202e}`), so that a message shows it instead of acting on
/// the terminal.
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if needs_escape(c) {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` quoted for a message: control characters escaped (see [`printable`]), at most
/// [`MAX_QUOTE_CHARS`] characters, the rest replaced by `…` and the full length in characters.
pub fn quote(text: &str) -> String {
    quote_n(text, MAX_QUOTE_CHARS)
}

/// [`quote`] with at most `max` characters (a part of a text already quoted, such as a square).
pub(crate) fn quote_n(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        format!("'{}'", printable(text))
    } else {
        let head: String = text.chars().take(max - 1).collect();
        format!("'{}…' ({n} characters)", printable(&head))
    }
}

/// Most characters quoted of a part (a square, a range) inside a text already quoted.
const PART_CHARS: usize = 12;

/// `message` made one printable line of at most [`MAX_ERROR_CHARS`] characters: control
/// characters (line breaks too) escaped, and the tail cut with `…` when longer.
pub fn one_line(message: &str) -> String {
    let p = printable(message);
    if p.chars().count() <= MAX_ERROR_CHARS {
        p
    } else {
        let mut s: String = p.chars().take(MAX_ERROR_CHARS - 1).collect();
        s.push('…');
        s
    }
}

/// What kind of input was refused (the message says why, in words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputErrorKind {
    /// A line or file that is not UTF-8 text (or is UTF-16 where UTF-8 is expected).
    Encoding,
    /// A move that is not in the move notation of docs/notation.md, or names no square of the board.
    MoveSyntax,
    /// A move that is not legal in the position (also: a capture stopped too early, a finished game).
    IllegalMove,
    /// A move text that fits several legal moves.
    AmbiguousMove,
    /// A FEN that cannot be read (PDN 3.0 FEN grammar).
    FenSyntax,
    /// A FEN that reads but is no position of the game (too many men, a man on its king row, …).
    BadPosition,
}

/// Why a line, a move or a FEN was refused. Display gives one printable line of at most
/// [`MAX_ERROR_CHARS`] characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// What kind of input was refused.
    pub kind: InputErrorKind,
    message: String,
}

impl InputError {
    pub(crate) fn new(kind: InputErrorKind, message: impl AsRef<str>) -> InputError {
        InputError {
            kind,
            message: one_line(message.as_ref()),
        }
    }

    /// The message (as Display writes it).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InputError {}

/// One line of bytes as text: the line end (`\n`, `\r\n`) and a UTF-8 byte-order mark removed.
///
/// # Errors
/// [`InputErrorKind::Encoding`] when the bytes are not UTF-8 (the message gives the first bad byte
/// and its 1-based byte column) or start with a UTF-16 byte-order mark.
pub fn decode_line(bytes: &[u8]) -> Result<&str, InputError> {
    let mut b = bytes;
    while let Some(rest) = b.strip_suffix(b"\n").or_else(|| b.strip_suffix(b"\r")) {
        b = rest;
    }
    if b.starts_with(&[0xff, 0xfe]) || b.starts_with(&[0xfe, 0xff]) {
        return Err(InputError::new(
            InputErrorKind::Encoding,
            "the text is UTF-16 (it starts with a UTF-16 byte-order mark); send UTF-8",
        ));
    }
    if utf16_without_bom(b).is_some() {
        return Err(utf16_error());
    }
    let b = b.strip_prefix(&[0xef, 0xbb, 0xbf]).unwrap_or(b);
    std::str::from_utf8(b).map_err(|e| {
        let at = e.valid_up_to();
        InputError::new(
            InputErrorKind::Encoding,
            format!(
                "the line is not UTF-8 text: byte 0x{:02X} at column {} (send UTF-8)",
                b[at],
                at + 1
            ),
        )
    })
}

/// Whether `bytes` look like UTF-16 text without a byte-order mark: at least 2 bytes, and at least
/// half of the even (big-endian) or of the odd (little-endian) positions hold 0 while the other
/// positions hold almost none. ASCII text written as UTF-16 has a 0 in every other byte; UTF-8 text
/// has no 0 byte at all unless it holds NUL characters. Returns `Some(true)` for little-endian.
pub fn utf16_without_bom(bytes: &[u8]) -> Option<bool> {
    if bytes.len() < 2 {
        return None;
    }
    let (mut even, mut odd) = (0usize, 0usize);
    for (i, &b) in bytes.iter().enumerate() {
        if b == 0 {
            if i % 2 == 0 {
                even += 1;
            } else {
                odd += 1;
            }
        }
    }
    let (n_even, n_odd) = (bytes.len().div_ceil(2), bytes.len() / 2);
    if odd * 2 >= n_odd && odd > 0 && even * 4 <= odd {
        Some(true)
    } else if even * 2 >= n_even && even > 0 && odd * 4 <= even {
        Some(false)
    } else {
        None
    }
}

/// The error for text that is UTF-16 without a byte-order mark.
fn utf16_error() -> InputError {
    InputError::new(
        InputErrorKind::Encoding,
        "the text is UTF-16 (no byte-order mark: every other byte is 0); send UTF-8",
    )
}

/// [`utf16_error`] when `text` (already UTF-8, e.g. from JSON or a command-line argument) holds
/// UTF-16 with its 0 bytes as NUL characters.
pub(crate) fn check_not_utf16(text: &str) -> Result<(), InputError> {
    if text.contains('\0') && utf16_without_bom(text.as_bytes()).is_some() {
        Err(utf16_error())
    } else {
        Ok(())
    }
}

/// Most bytes at the start of a file looked at by [`decode_utf16_file`] to tell UTF-16 without a
/// byte-order mark.
pub const UTF16_SNIFF_BYTES: usize = 1024;

/// The text of a whole file: UTF-8 (a UTF-8 byte-order mark skipped), or UTF-16 when the file starts
/// with a UTF-16 byte-order mark (little- or big-endian), which tells its encoding, or when its
/// first [`UTF16_SNIFF_BYTES`] bytes look like UTF-16 without one ([`utf16_without_bom`]: every
/// other byte 0). Bytes that are not UTF-8 in a file that is not UTF-16 are kept for the caller's
/// own fallback (the PDN reader reads such lines as Latin-1), so this returns `None` for them.
///
/// # Errors
/// [`InputErrorKind::Encoding`] for a UTF-16 file with an odd number of bytes or an unpaired
/// surrogate (the 1-based code unit is named).
pub fn decode_utf16_file(bytes: &[u8]) -> Result<Option<String>, InputError> {
    let (little, body, how) = match bytes {
        [0xff, 0xfe, rest @ ..] => (true, rest, "byte-order mark"),
        [0xfe, 0xff, rest @ ..] => (false, rest, "byte-order mark"),
        _ => match utf16_without_bom(&bytes[..bytes.len().min(UTF16_SNIFF_BYTES)]) {
            Some(little) => (little, bytes, "no byte-order mark"),
            None => return Ok(None),
        },
    };
    if body.len() % 2 != 0 {
        return Err(InputError::new(
            InputErrorKind::Encoding,
            format!("the file is UTF-16 ({how}) but has an odd number of bytes"),
        ));
    }
    let units = body.chunks_exact(2).map(|p| {
        if little {
            u16::from_le_bytes([p[0], p[1]])
        } else {
            u16::from_be_bytes([p[0], p[1]])
        }
    });
    let mut out = String::with_capacity(body.len() / 2);
    for (i, c) in char::decode_utf16(units).enumerate() {
        match c {
            Ok(c) => out.push(c),
            Err(e) => {
                return Err(InputError::new(
                    InputErrorKind::Encoding,
                    format!(
                        "the file is UTF-16 but code unit {} (0x{:04X}) is an unpaired surrogate",
                        i + 1,
                        e.unpaired_surrogate()
                    ),
                ))
            }
        }
    }
    Ok(Some(out))
}

/// How strictly a FEN is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FenPolicy {
    /// As a person or an archive writes it: `?` as the side to move (the game's first player is
    /// taken) and a man on its own king row (read as a king) are accepted, each with a warning.
    /// Everywhere a person gives a FEN.
    #[default]
    Lenient,
    /// Exactly the PDN 3.0 FEN grammar and the rules of the game: no repairs.
    Strict,
}

/// A position read from a FEN, with the warnings about what was repaired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadFen {
    /// The position.
    pub position: Position,
    /// What was repaired (one printable line each, empty for a clean FEN).
    pub warnings: Vec<String>,
}

/// The name of a problem in FEN text that [`Setup::from_fen`] reports only as an unexpected
/// character: a side to move given twice (`BB:W…`, `B W:…`) or a doubled `K` (`KK15`).
fn fen_named_problem(text: &str) -> Option<String> {
    let chars: Vec<(usize, char)> = text
        .chars()
        .enumerate()
        .filter(|(_, c)| !c.is_whitespace())
        .map(|(i, c)| (i + 1, c))
        .collect();
    if let [(_, a), (col, b), ..] = chars.as_slice() {
        if matches!(a.to_ascii_uppercase(), 'B' | 'W' | '?')
            && matches!(b.to_ascii_uppercase(), 'B' | 'W' | '?')
        {
            return Some(format!(
                "the side to move is given twice ('{a}{b}', column {col}): write one letter, B or W, before the first ':'"
            ));
        }
    }
    for w in chars.windows(2) {
        if matches!(w[0].1, 'K' | 'k') && matches!(w[1].1, 'K' | 'k') {
            return Some(format!(
                "a doubled 'K' at column {}: write a king as K and its square, e.g. K15",
                w[1].0
            ));
        }
    }
    None
}

fn fen_error_text(e: &FenError) -> String {
    match e {
        FenError::BadSideToMove { found } => {
            format!(
                "the side to move must be 'B' or 'W', found {}",
                quote(found)
            )
        }
        FenError::SquareOutOfRange { square, column } => format!(
            "square {} at column {column} is not one of the squares 1-32",
            quote_n(square, PART_CHARS)
        ),
        FenError::BadRange { range, column } => {
            format!(
                "range {} at column {column} ends below its start",
                quote(range)
            )
        }
        FenError::UnexpectedChar {
            ch,
            column,
            expected,
        } => format!(
            "unexpected {} at column {column}: expected {expected}",
            quote(&ch.to_string())
        ),
        other => other.to_string(),
    }
}

pub(crate) fn position_error_text(variant: Variant, e: &PositionError) -> String {
    match e {
        PositionError::Fen(f) => fen_error_text(f),
        PositionError::TooManyPieces { color, count } if variant.is_draughts() => format!(
            "too many men: {color} has {count} pieces (men and kings); a side has at most 12"
        ),
        PositionError::TooManyPieces { color, count } => format!(
            "too many checkers: {color} has {count} (a double counts two); a side has at most 12"
        ),
        other => other.to_string(),
    }
}

/// Read `text` as a PDN FEN of `variant` under `policy` (PDN 3.0 FEN grammar, docs/notation.md).
///
/// # Errors
/// [`InputErrorKind::Encoding`] for UTF-16 text without a byte-order mark (NUL characters in every
/// other byte); [`InputErrorKind::FenSyntax`] when the text does not follow the grammar (naming a side to move
/// given twice, a doubled `K`, the column of the first bad character); [`InputErrorKind::BadPosition`]
/// when it is no position of the game (too many men, a man on its king row under
/// [`FenPolicy::Strict`], an empty board, …). The FEN is quoted at most [`MAX_QUOTE_CHARS`] long.
pub fn read_fen(variant: Variant, text: &str, policy: FenPolicy) -> Result<ReadFen, InputError> {
    check_not_utf16(text)?;
    let t = text.trim();
    let fail = |kind, why: String| InputError::new(kind, format!("bad FEN {}: {why}", quote(t)));
    if t.is_empty() {
        return Err(fail(InputErrorKind::FenSyntax, "the FEN is empty".into()));
    }
    let mut warnings = Vec::new();
    let owned;
    let mut body = t;
    if policy == FenPolicy::Lenient {
        if let Some(rest) = t.strip_prefix('?') {
            if fen_named_problem(t).is_none() {
                owned = format!("{}{rest}", variant.first_player().letter());
                body = &owned;
                warnings.push(one_line(&format!(
                    "FEN {} leaves the side to move unknown ('?'); {} to move assumed",
                    quote(t),
                    variant.first_player()
                )));
            }
        }
    }
    if !body.bytes().any(|b| b.is_ascii_digit()) {
        // `W::.`, `B::` (the PDN 3.0 null-move setup): no piece on the board.
        return Err(match fen_named_problem(t) {
            Some(why) => fail(InputErrorKind::FenSyntax, why),
            None => fail(
                InputErrorKind::BadPosition,
                "it has no pieces; a game needs at least one piece on the board".into(),
            ),
        });
    }
    let setup = match Setup::from_fen(body) {
        Ok(s) => s,
        Err(e) => {
            let why = fen_named_problem(t).unwrap_or_else(|| fen_error_text(&e));
            return Err(fail(InputErrorKind::FenSyntax, why));
        }
    };
    if setup.occupied().is_empty() {
        return Err(fail(
            InputErrorKind::BadPosition,
            "it has no pieces; a game needs at least one piece on the board".into(),
        ));
    }
    match Position::from_setup(variant, &setup) {
        Ok(position) => Ok(ReadFen { position, warnings }),
        Err(PositionError::ManOnKingRow { .. })
            if policy == FenPolicy::Lenient && variant.is_draughts() =>
        {
            // Problem files write a king on its crowning row as a man (`W:W18,K15,1:…`): such a
            // piece can only be a king, so read it as one and say so.
            let (setup, crowned) = crown_men_on_king_row(setup);
            let position = Position::from_setup(variant, &setup).map_err(|e| {
                fail(
                    InputErrorKind::BadPosition,
                    position_error_text(variant, &e),
                )
            })?;
            warnings.push(one_line(&format!(
                "FEN {}: {} on its king row read as a king",
                quote(t),
                crowned.join(", ")
            )));
            Ok(ReadFen { position, warnings })
        }
        Err(e) => Err(fail(
            InputErrorKind::BadPosition,
            position_error_text(variant, &e),
        )),
    }
}

/// Men on their own king row made kings, with the list of them (`Black man on 29`).
fn crown_men_on_king_row(mut setup: Setup) -> (Setup, Vec<String>) {
    let mut crowned = Vec::new();
    for color in [Color::Black, Color::White] {
        let row = if color == Color::Black { 7 } else { 0 };
        let c = color.index();
        for sq in setup.men[c].iter() {
            if sq.row() == row {
                setup.men[c].remove(sq);
                setup.kings[c].insert(sq);
                crowned.push(format!("{color} man on {sq}"));
            }
        }
    }
    (setup, crowned)
}

/// Move text with algebraic squares (`f6-e5`, `f6e5`, `d2xf4xh6`) written as square numbers
/// (`11-15`); numeric text is returned unchanged. Also checks every square number against 1–32 so
/// that a long digit string is named, quoted short, with its column, and names a character that
/// cannot follow a square (`11-15x`, `11-15!`: "unexpected 'x' after square 15 at column 6").
fn normalize_move(variant: Variant, text: &str) -> Result<String, InputError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if ('a'..='h').contains(&c)
            && chars.get(i + 1).is_some_and(|d| ('1'..='8').contains(d))
            && !chars.get(i + 2).is_some_and(|d| d.is_ascii_digit())
        {
            let rank = chars[i + 1] as u8 - b'0';
            match Square::from_file_rank(c as u8 - b'a', rank) {
                Some(sq) => {
                    if out.ends_with(|p: char| p.is_ascii_digit()) {
                        out.push('-');
                    }
                    out.push_str(&sq.number().to_string());
                    after_square(variant, text, &chars, i + 2, &chars[i..i + 2])?;
                }
                None => {
                    return Err(InputError::new(
                        InputErrorKind::MoveSyntax,
                        format!(
                            "cannot read move {}: {c}{} at column {} is a light square, not one of the 32 playing squares",
                            quote(text),
                            chars[i + 1],
                            i + 1
                        ),
                    ))
                }
            }
            i += 2;
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let digits: String = chars[start..i].iter().collect();
            let n = digits.trim_start_matches('0');
            if n.is_empty() || n.len() > 2 || n.parse::<u8>().ok().and_then(Square::new).is_none() {
                return Err(InputError::new(
                    InputErrorKind::MoveSyntax,
                    format!(
                        "cannot read move {}: square {} at column {} is not one of 1-32",
                        quote(text),
                        quote_n(&digits, PART_CHARS),
                        start + 1
                    ),
                ));
            }
            after_square(variant, text, &chars, i, &chars[start..i])?;
            out.push_str(&digits);
            continue;
        }
        out.push(c);
        i += 1;
    }
    Ok(out)
}

/// Check the character at `at`, just after the square `square` of the move `text`: the end of the
/// move, a separator followed by another square (`-`, `x`, `X`, `:`; Impasse also `>`), or, in
/// Impasse, the suffixes `+` and `=N`. Anything else is named with its column; a PDN move strength
/// mark (`!`, `?`) is said to belong to PDN files, not to a typed move (docs/notation.md).
fn after_square(
    variant: Variant,
    text: &str,
    chars: &[char],
    at: usize,
    square: &[char],
) -> Result<(), InputError> {
    let Some(&c) = chars.get(at) else {
        return Ok(());
    };
    let next_is_square = chars
        .get(at + 1)
        .is_some_and(|d| d.is_ascii_digit() || ('a'..='h').contains(d));
    let ok = match c {
        '-' | 'x' | 'X' | ':' => next_is_square,
        '>' => !variant.is_draughts() && next_is_square,
        '+' | '=' => !variant.is_draughts(),
        _ => false,
    };
    if ok {
        return Ok(());
    }
    let square: String = square.iter().collect();
    let what = if c.is_whitespace() {
        format!("a space ({})", quote(&c.to_string()))
    } else {
        quote(&c.to_string())
    };
    let hint = match c {
        '-' | 'x' | 'X' | ':' | '>' => "; a square must follow it",
        '!' | '?' => "; move marks such as ! and ? belong in PDN files, not in a typed move",
        _ => "",
    };
    Err(InputError::new(
        InputErrorKind::MoveSyntax,
        format!(
            "cannot read move {}: unexpected {what} after square {} at column {}{hint}",
            quote(text),
            quote_n(&square, PART_CHARS).trim_matches('\''),
            at + 1
        ),
    ))
}

fn list_moves(pos: &Position) -> String {
    let texts: Vec<String> = pos
        .legal_moves_sorted()
        .iter()
        .map(|m| pos.move_text(m))
        .collect();
    legal_moves_text(&texts)
}

/// `1 legal move: 11-15` or `7 legal moves: 9-13 9-14 …` (the count names the list right).
pub fn legal_moves_text(texts: &[String]) -> String {
    match texts.len() {
        0 => "no legal moves".into(),
        1 => format!("1 legal move: {}", texts[0]),
        n => format!("{n} legal moves: {}", texts.join(" ")),
    }
}

/// The one wording of a move refused because the game is over, for a position alone
/// ([`read_move`]) and for a game ([`read_game_move`]): `illegal move '1-5': the game is over
/// (White wins: the opponent has no pieces left)`, the outcome as [`crown_core::Outcome`] writes it.
fn game_over_text(text: &str, outcome: &crown_core::Outcome) -> String {
    format!("illegal move {}: the game is over ({outcome})", quote(text))
}

/// Hub-protocol capture (`from x to x captured…`, the captured squares in any order), for a text
/// of numbers only.
fn hub_capture(pos: &Position, text: &str) -> Option<Move> {
    if !text.contains('x') {
        return None;
    }
    let nums: Vec<u8> = text
        .split('x')
        .map(|s| s.parse::<u8>().ok())
        .collect::<Option<_>>()?;
    if nums.len() < 3 {
        return None;
    }
    let (from, to) = (nums[0], nums[1]);
    let mut caps = nums[2..].to_vec();
    caps.sort_unstable();
    pos.legal_moves().iter().copied().find(|m| {
        let mut mc: Vec<u8> = m.captures().iter().map(|s| s.number()).collect();
        mc.sort_unstable();
        m.from().number() == from && m.to().number() == to && mc == caps
    })
}

/// Read one move of `pos`: Crown's notation (docs/notation.md: `11-15`, `11x18`, `11x18x25`,
/// `11:18`, Impasse `22-18`, `6>10`, `x14`, `+`, `=N`), algebraic squares in checkers and Impasse
/// (`f6-e5`, `f6e5`), leading zeros, and the Hub protocol's capture form (`10x26x14x22`: start, end,
/// then the captured squares in any order).
///
/// # Errors
/// [`InputErrorKind::Encoding`] for UTF-16 text without a byte-order mark;
/// [`InputErrorKind::MoveSyntax`] (text not in the notation, a square outside 1–32 or a light
/// square, with its column, or a character that cannot follow a square); [`InputErrorKind::IllegalMove`] naming the problem: the position has
/// no legal moves ("the game is over (White wins: the opponent has no pieces left)"), a capture that stops early ("the capture must
/// continue: 15x24 can go on to 31"), a compulsory capture, or the legal moves ("1 legal move: …");
/// [`InputErrorKind::AmbiguousMove`] with the candidates in full.
pub fn read_move(pos: &Position, text: &str) -> Result<Move, InputError> {
    check_not_utf16(text)?;
    let t = text.trim();
    if t.is_empty() {
        return Err(InputError::new(
            InputErrorKind::MoveSyntax,
            "empty move: type a move such as 11-15",
        ));
    }
    let norm = normalize_move(pos.variant(), t)?;
    if pos.legal_moves().is_empty() {
        // The position alone: its outcome is a win by material or by no legal move.
        if let Some(o) = Game::from_position(*pos).outcome() {
            return Err(InputError::new(
                InputErrorKind::IllegalMove,
                game_over_text(t, &o),
            ));
        }
    }
    let err = match pos.parse_move(&norm) {
        Ok(m) => return Ok(m),
        Err(e) => e,
    };
    if pos.variant().is_draughts() {
        if let Some(m) = hub_capture(pos, &norm) {
            return Ok(m);
        }
    }
    Err(match err {
        MoveError::Syntax { reason, .. } => InputError::new(
            InputErrorKind::MoveSyntax,
            format!("cannot read move {}: {reason}", quote(t)),
        ),
        MoveError::Ambiguous { candidates, .. } => InputError::new(
            InputErrorKind::AmbiguousMove,
            format!(
                "ambiguous move {}: it fits {}; give every landing square",
                quote(t),
                candidates.join(", ")
            ),
        ),
        MoveError::Illegal { .. } => {
            InputError::new(InputErrorKind::IllegalMove, illegal_reason(pos, t, &norm))
        }
    })
}

/// Why `norm` (numeric move text) is not legal in `pos`, in the player's terms.
fn illegal_reason(pos: &Position, t: &str, norm: &str) -> String {
    let sqs: Vec<u8> = norm
        .split(['-', 'x', 'X', ':'])
        .filter_map(|s| s.parse::<u8>().ok())
        .collect();
    if pos.variant().is_draughts() && sqs.len() >= 2 {
        let (from, last) = (sqs[0], sqs[sqs.len() - 1]);
        // A capture stopped on one of its landing squares: it must go on.
        for m in pos.legal_moves_sorted() {
            if m.from().number() != from || !m.is_capture() {
                continue;
            }
            let path: Vec<u8> = m.path().map(|s| s.number()).collect();
            if let Some(k) = path.iter().position(|&s| s == last) {
                if k + 1 < path.len() {
                    return format!(
                        "illegal move {}: the capture must continue: {from}x{last} can go on to {}",
                        quote(t),
                        path[path.len() - 1]
                    );
                }
            }
        }
        if pos.must_capture() {
            return format!(
                "illegal move {}: a capture is compulsory; {}",
                quote(t),
                list_moves(pos)
            );
        }
    }
    format!("illegal move {}; {}", quote(t), list_moves(pos))
}

/// Read one move of `game` (see [`read_move`]); a game already over by a rule of the game (a draw by
/// repetition, a win) is named first.
///
/// # Errors
/// As [`read_move`], and [`InputErrorKind::IllegalMove`] "the game is over (…)" for a finished game.
pub fn read_game_move(game: &Game, text: &str) -> Result<Move, InputError> {
    if let Some(o) = game.outcome() {
        return Err(InputError::new(
            InputErrorKind::IllegalMove,
            game_over_text(text.trim(), &o),
        ));
    }
    read_move(game.position(), text)
}

/// Play every move of `texts` (each may hold several moves separated by spaces, as in
/// `crown apply "11-15 23-19"`) on `game`, in order. On an error the game holds the moves before it.
///
/// # Errors
/// The first bad move's [`InputError`], its message led by `move N` (1-based over all moves).
pub fn play_moves<S: AsRef<str>>(game: &mut Game, texts: &[S]) -> Result<usize, InputError> {
    let mut n = 0;
    for text in texts {
        for word in text.as_ref().split_whitespace() {
            n += 1;
            let m = read_game_move(game, word)
                .map_err(|e| InputError::new(e.kind, format!("move {n}: {}", e.message)))?;
            game.play(&m).map_err(|e| {
                InputError::new(InputErrorKind::IllegalMove, format!("move {n}: {e}"))
            })?;
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_is_bounded_and_escaped() {
        assert_eq!(quote("a\u{1b}b"), "'a\\u{1b}b'");
        let long = "9".repeat(100_000);
        let q = quote(&long);
        assert!(q.chars().count() < 90, "{q}");
        assert!(q.contains("100000 characters"));
    }
}

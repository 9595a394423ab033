//! The Hub protocol's position strings and move text (Scan 3.1's Hub protocol version 2, as the
//! Hub clients that play English checkers write them; docs/protocol.md, "Hub position strings").
//!
//! A Hub position string is the side to move (`W` or `B`) followed by one letter per square in
//! square order: `e` empty, `w`/`b` a man, `W`/`B` a king. Hub numbers the board from the side of
//! the player who moves *second*, and calls the player who moves first White: for international
//! draughts that is the usual numbering. Hub clients for English checkers (pydraughts, and through
//! it lidraughts-bot) keep that frame: the side to move first (Black in checkers) is written `W`/`w`
//! and the string's square `k` is checkers square `33 − k`, i.e. the board turned half a turn.
//! So the start of American checkers is `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww`. Crown writes and reads
//! American and pool checkers in that frame; Impasse, whose first player (White) already starts on
//! squares 21–32, is written as it is, with `W`/`B` for a double (Crown's `K`).
//!
//! Moves are not turned: Hub clients send and expect moves in the game's own square numbers.
//! A capture is written `from x to x captured x captured…` (the captured squares in ascending
//! order; a reader should compare them as a set), a plain move `from-to`; Impasse moves, which Hub
//! does not define, are Crown's notation (docs/notation.md).

use crate::input::{check_not_utf16, quote, InputError, InputErrorKind};
use crown_core::{Color, Move, Position, Role, Setup, Square, SquareSet, Variant};

/// Characters in a Hub position string of the 32-square board: the side to move and 32 squares.
pub const HUB_POSITION_CHARS: usize = 33;

/// Whether the Hub frame turns the board for `variant`: the first player is written `W` and starts
/// on the string's squares 21–32.
fn turned(variant: Variant) -> bool {
    variant.first_player() == Color::Black
}

/// The Crown square of the string's square `k` (1–32) in `variant`'s Hub frame (an involution).
fn crown_square(variant: Variant, k: u8) -> Option<Square> {
    Square::new(if turned(variant) { 33 - k } else { k })
}

/// The Hub colour of a Crown colour in `variant` (an involution): the first player is White.
fn hub_color(variant: Variant, c: Color) -> Color {
    if turned(variant) {
        c.opposite()
    } else {
        c
    }
}

/// Whether `text` is to be read as a Hub position string (33 characters: `W` or `B`, then only
/// `e`, `w`, `b`, `W`, `B`) rather than a FEN: every text without the `:` that separates a PDN FEN's
/// fields (PDN 3.0 FEN grammar) and not empty. So a Hub string of the wrong length or with a bad
/// letter is refused by [`read_hub_position`], naming what is wrong, instead of read as a FEN.
pub fn is_hub_position(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty() && !t.contains(':')
}

/// The Hub position string of `pos` (see the module documentation for the frame), e.g.
/// `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww` for the start of American checkers.
///
/// ```
/// use crown_core::{Position, Variant};
/// use crown_notation::hub_position;
///
/// let start = Position::new(Variant::American);
/// assert_eq!(hub_position(&start), "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
/// ```
pub fn hub_position(pos: &Position) -> String {
    let v = pos.variant();
    let mut s = String::with_capacity(HUB_POSITION_CHARS);
    s.push(hub_color(v, pos.side_to_move()).letter());
    for k in 1..=32u8 {
        let Some(sq) = crown_square(v, k) else {
            continue;
        };
        s.push(match pos.piece_at(sq) {
            None => 'e',
            Some(p) => {
                let c = match hub_color(v, p.color) {
                    Color::White => 'w',
                    Color::Black => 'b',
                };
                if p.role == Role::King {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            }
        });
    }
    s
}

/// Read a Hub position string of `variant` (see the module documentation for the frame).
///
/// # Errors
/// [`InputErrorKind::Encoding`] for UTF-16 text; [`InputErrorKind::FenSyntax`] when the text is not
/// 33 characters of the grammar (naming the first bad character and its column);
/// [`InputErrorKind::BadPosition`] when it is no position of the game (too many men, a man on its
/// king row, an empty board, …). The text is quoted at most 60 characters long.
pub fn read_hub_position(variant: Variant, text: &str) -> Result<Position, InputError> {
    check_not_utf16(text)?;
    let t = text.trim();
    let fail =
        |kind, why: String| InputError::new(kind, format!("bad Hub position {}: {why}", quote(t)));
    let chars: Vec<char> = t.chars().collect();
    let side = match chars.first() {
        Some('W') => Color::White,
        Some('B') => Color::Black,
        Some(c) => {
            return Err(fail(
                InputErrorKind::FenSyntax,
                format!(
                    "the side to move must be 'W' or 'B', found {}",
                    quote(&c.to_string())
                ),
            ))
        }
        None => return Err(fail(InputErrorKind::FenSyntax, "it is empty".into())),
    };
    let mut setup = Setup {
        men: [SquareSet::EMPTY; 2],
        kings: [SquareSet::EMPTY; 2],
        side_to_move: hub_color(variant, side),
    };
    for (i, &c) in chars.iter().enumerate().skip(1) {
        let k = i as u8;
        let piece = match c {
            'e' => None,
            'w' => Some((Color::White, Role::Man)),
            'b' => Some((Color::Black, Role::Man)),
            'W' => Some((Color::White, Role::King)),
            'B' => Some((Color::Black, Role::King)),
            other => {
                return Err(fail(
                    InputErrorKind::FenSyntax,
                    format!(
                        "unexpected {} at column {}: a square is one of e w b W B",
                        quote(&other.to_string()),
                        i + 1
                    ),
                ))
            }
        };
        let Some((color, role)) = piece else {
            continue;
        };
        let Some(sq) = (k <= 32).then(|| crown_square(variant, k)).flatten() else {
            break;
        };
        let c = hub_color(variant, color).index();
        match role {
            Role::Man => setup.men[c].insert(sq),
            Role::King => setup.kings[c].insert(sq),
        }
    }
    if chars.len() != HUB_POSITION_CHARS {
        return Err(fail(
            InputErrorKind::FenSyntax,
            format!(
                "expected {HUB_POSITION_CHARS} characters (the side to move, then one letter per square 1–32), found {}",
                chars.len()
            ),
        ));
    }
    if setup.occupied().is_empty() {
        return Err(fail(
            InputErrorKind::BadPosition,
            "it has no pieces; a game needs at least one piece on the board".into(),
        ));
    }
    Position::from_setup(variant, &setup).map_err(|e| {
        fail(
            InputErrorKind::BadPosition,
            crate::input::position_error_text(variant, &e),
        )
    })
}

/// The Hub text of `mv` in `pos`: `11-15` for a plain move, `from x to x captured…` for a capture
/// (`10x26x14x22`: start, end, then the captured squares in ascending order), Crown's notation
/// for Impasse (`22-18`, `6>10`, `x14`, …), which Hub does not define.
///
/// ```
/// use crown_core::{Position, Variant};
/// use crown_notation::{hub_move, read_move};
///
/// let pos = Position::from_fen(Variant::American, "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13").unwrap();
/// let m = read_move(&pos, "10x17x26").unwrap();
/// assert_eq!(hub_move(&pos, &m), "10x26x14x22");
/// ```
pub fn hub_move(pos: &Position, mv: &Move) -> String {
    if !pos.variant().is_draughts() {
        return pos.move_text(mv);
    }
    if mv.is_capture() {
        let mut s = format!("{}x{}", mv.from().number(), mv.to().number());
        for c in mv.captures().iter() {
            s.push_str(&format!("x{}", c.number()));
        }
        s
    } else {
        format!("{}-{}", mv.from().number(), mv.to().number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read_move;

    /// The strings pydraughts 0.6.7 sends for English checkers (`Board('english', fen=…)
    /// ._game.initial_hub_fen`, recorded from the library): the start, a capture position with
    /// Black to move and a king position with White to move.
    const PYDRAUGHTS: [(&str, &str); 3] = [
        ("B:W21-32:B1-12", "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"),
        (
            "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13",
            "Weebeeeeeebbbeebeebbwwewewwweeeee",
        ),
        ("W:WK1,20:B5,K30", "BeeWeeeeeeeeebeeeeeeeeeeeeeeweeeB"),
    ];

    #[test]
    fn american_positions_as_pydraughts_writes_them() {
        for (fen, hub) in PYDRAUGHTS {
            let pos = Position::from_fen(Variant::American, fen).unwrap();
            assert_eq!(hub_position(&pos), hub, "{fen}");
            assert_eq!(read_hub_position(Variant::American, hub).unwrap(), pos);
            assert!(is_hub_position(hub));
        }
    }

    #[test]
    fn impasse_is_written_unturned_with_doubles_as_kings() {
        let pos = Position::from_fen(Variant::Impasse, "W:WK1,K3,26:B2,K25").unwrap();
        let s = hub_position(&pos);
        assert_eq!(&s[..4], "WWbW");
        assert_eq!(s.chars().nth(25), Some('B'));
        assert_eq!(s.chars().nth(26), Some('w'));
        assert_eq!(read_hub_position(Variant::Impasse, &s).unwrap(), pos);
    }

    #[test]
    fn bad_strings_name_the_problem() {
        let e = read_hub_position(Variant::American, "Wbbbx").unwrap_err();
        assert_eq!(e.kind, InputErrorKind::FenSyntax);
        assert!(e.message().contains("unexpected 'x' at column 5"), "{e}");
        let e = read_hub_position(Variant::American, "Wbbb").unwrap_err();
        assert!(e.message().contains("expected 33 characters"), "{e}");
        let e = read_hub_position(Variant::American, "Xbbb").unwrap_err();
        assert!(e.message().contains("must be 'W' or 'B'"), "{e}");
        let empty = format!("W{}", "e".repeat(32));
        let e = read_hub_position(Variant::American, &empty).unwrap_err();
        assert_eq!(e.kind, InputErrorKind::BadPosition);
        // Hub 'w' on the string's square 1 is a Black man on square 32, its king row.
        let on_row = format!("Ww{}", "e".repeat(31));
        let e = read_hub_position(Variant::American, &on_row).unwrap_err();
        assert_eq!(e.kind, InputErrorKind::BadPosition);
        assert!(!is_hub_position("B:W21-32:B1-12"));
        // Not a FEN (no field separator), so read as a Hub string and refused as one.
        assert!(is_hub_position("Wbbb"));
        let e = read_hub_position(Variant::American, "Wbbb")
            .unwrap_err()
            .to_string();
        assert!(e.contains("33 characters"), "{e}");
    }

    #[test]
    fn hub_move_text_is_start_end_then_captures() {
        let pos = Position::from_fen(Variant::American, "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13")
            .unwrap();
        let texts: Vec<String> = pos
            .legal_moves_sorted()
            .iter()
            .map(|m| hub_move(&pos, m))
            .collect();
        // pydraughts lists these two for the same position (`legal_moves()[i].hub_move`).
        assert_eq!(texts, ["10x26x14x22", "10x26x15x23"]);
        for (m, t) in pos.legal_moves_sorted().iter().zip(&texts) {
            assert_eq!(&read_move(&pos, t).unwrap(), m);
        }
        let start = Position::new(Variant::American);
        let m = read_move(&start, "11-15").unwrap();
        assert_eq!(hub_move(&start, &m), "11-15");
        let single = Position::from_fen(Variant::American, "B:W15:B11").unwrap();
        let m = single.legal_moves_sorted()[0];
        assert_eq!(hub_move(&single, &m), "11x18x15");
    }
}

//! The `GameType` tag (PDN 3.0, `shared/docs/pdn-standard/gametype.rst`) and Crown's variants.

use crown_core::Variant;

/// The `GameType` number Crown uses for Impasse. Impasse has no official PDN game type; no game in
/// the PDN 3.0 table (types 0–50) uses 99 (51 and above are "future expansion"). See
/// docs/notation.md.
pub const IMPASSE_GAME_TYPE: u32 = 99;

/// The `GameType` value Crown writes for `variant`, always the short numeric form: `21` (English
/// draughts = American checkers), `23` (American pool checkers, which the standard expands to
/// `23,B,8,8,N1,0`) and `99` (Impasse, Crown's own type; its long form `99,W,8,8,N2,0` — White moves
/// first; square 1 is at the top left seen from White, numbering runs horizontally; the bottom-left
/// corner is a playing square — is still read).
pub const fn game_type_tag(variant: Variant) -> &'static str {
    match variant {
        Variant::American => "21",
        Variant::Pool => "23",
        Variant::Impasse => "99",
    }
}

/// The variant a `GameType` tag value names. A game without the tag is American checkers (the PDN 2.0
/// checkers convention used by checkers programs and archives such as tinsley.pdn).
///
/// Accepted: `21` and `21,B,8,8,N1,0` (also without the invert flag) for American checkers; `23`
/// and `23,B,8,8,N1,0` for American pool checkers; `99` and `99,W,8,8,N2,0` for Impasse.
///
/// # Errors
/// A message naming the game type when Crown does not play it (international draughts `20`, the
/// algebraic pool variants `23,W,8,8,A0,0`, …) or when the value cannot be read.
pub fn variant_from_game_type(tag: Option<&str>) -> Result<Variant, String> {
    let Some(raw) = tag else {
        return Ok(Variant::American);
    };
    let value: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
    let mut fields = value.split(',');
    let number_text = fields.next().unwrap_or("");
    let Ok(number) = number_text.parse::<u32>() else {
        return Err(format!(
            "GameType \"{raw}\" does not start with a game type number"
        ));
    };
    let rest: Vec<&str> = fields.collect();
    let matches = |expect: [&str; 5]| {
        rest.is_empty()
            || (rest.len() >= 4
                && rest.len() <= 5
                && rest
                    .iter()
                    .zip(expect.iter())
                    .all(|(a, b)| a.eq_ignore_ascii_case(b)))
    };
    let name = match number {
        21 if matches(["B", "8", "8", "N1", "0"]) => return Ok(Variant::American),
        23 if matches(["B", "8", "8", "N1", "0"]) => return Ok(Variant::Pool),
        IMPASSE_GAME_TYPE if matches(["W", "8", "8", "N2", "0"]) => return Ok(Variant::Impasse),
        21 | 23 | IMPASSE_GAME_TYPE => "a board or notation Crown does not use",
        0 => "chess",
        1 => "Chinese chess",
        20 => "international draughts",
        22 => "Italian draughts",
        24 => "Spanish draughts",
        25 => "Russian draughts",
        26 => "Brazilian draughts",
        27 => "Canadian draughts",
        28 => "Portuguese draughts",
        29 => "Czech draughts",
        30 => "Turkish draughts",
        31 => "Thai draughts",
        40 => "Frisian draughts",
        41 => "Spantsiretti draughts",
        50 => "Othello",
        _ => "an unknown game",
    };
    Err(format!(
        "GameType \"{raw}\" is {name}; Crown replays 21 (American checkers), 23 (American pool checkers) and {IMPASSE_GAME_TYPE} (Impasse)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_in_the_short_numeric_form() {
        // The three types Crown writes, short form only (docs/notation.md, Game types).
        assert_eq!(game_type_tag(Variant::American), "21");
        assert_eq!(game_type_tag(Variant::Pool), "23");
        assert_eq!(game_type_tag(Variant::Impasse), "99");
    }

    #[test]
    fn short_and_long_forms() {
        // gametype.rst: 21 = English draughts "21,B,8,8,N1,0"; 23 = American pool "23,B,8,8,N1,0".
        assert_eq!(variant_from_game_type(None), Ok(Variant::American));
        assert_eq!(variant_from_game_type(Some("21")), Ok(Variant::American));
        assert_eq!(
            variant_from_game_type(Some("21,B,8,8,N1,0")),
            Ok(Variant::American)
        );
        assert_eq!(variant_from_game_type(Some("23")), Ok(Variant::Pool));
        assert_eq!(
            variant_from_game_type(Some("23,B,8,8,N1,0")),
            Ok(Variant::Pool)
        );
        assert_eq!(
            variant_from_game_type(Some(game_type_tag(Variant::Impasse))),
            Ok(Variant::Impasse)
        );
        assert_eq!(
            variant_from_game_type(Some("99,W,8,8,N2,0")),
            Ok(Variant::Impasse)
        );
        // Unified pool checkers uses algebraic notation and White first: not Crown's pool.
        assert!(variant_from_game_type(Some("23,W,8,8,A0,0")).is_err());
        let e = variant_from_game_type(Some("20")).unwrap_err();
        assert!(e.contains("international draughts"), "{e}");
        assert!(variant_from_game_type(Some("x")).is_err());
    }
}

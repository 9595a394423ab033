//! Casual engine levels, the one policy of every front end (`crown play`, `crown match` specs, the
//! terminal game, the web pages through crown-wasm, the Python package, the server): the range
//! offered, the default, and reading and checking a level given by a person.
//!
//! What a level does to the search is [`crate::Limits::level`] (depth and time caps) and
//! [`crate::EngineOptions::level`] (the low levels' randomness, the endgame databases from
//! [`crate::TABLES_FROM_LEVEL`]).

use std::fmt;
use std::ops::RangeInclusive;

/// The weakest casual level.
pub const MIN_LEVEL: u8 = 1;

/// The strongest casual level.
pub const MAX_LEVEL: u8 = 10;

/// Every casual level, [`MIN_LEVEL`] to [`MAX_LEVEL`].
pub const LEVELS: RangeInclusive<u8> = MIN_LEVEL..=MAX_LEVEL;

/// The default opponent level of every front end: the lowest casual level that plays its endings
/// from the endgame databases, so equal to [`crate::TABLES_FROM_LEVEL`].
pub const DEFAULT_LEVEL: u8 = crate::TABLES_FROM_LEVEL;

const _: () = assert!(MIN_LEVEL <= DEFAULT_LEVEL && DEFAULT_LEVEL <= MAX_LEVEL);

/// Why a level was refused by [`check`] or [`parse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelError {
    /// The text is not a whole number.
    NotANumber {
        /// The text given (trimmed).
        text: String,
    },
    /// A number outside [`LEVELS`].
    OutOfRange {
        /// The number given.
        level: u64,
    },
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LevelError::NotANumber { text } => write!(
                f,
                "'{text}' is not a level: expected a number {MIN_LEVEL} to {MAX_LEVEL}"
            ),
            LevelError::OutOfRange { level } => {
                write!(f, "level {level} is not {MIN_LEVEL} to {MAX_LEVEL}")
            }
        }
    }
}

impl std::error::Error for LevelError {}

/// `level` as a casual level.
///
/// # Errors
/// [`LevelError::OutOfRange`] when it is outside [`LEVELS`].
pub fn check(level: u64) -> Result<u8, LevelError> {
    u8::try_from(level)
        .ok()
        .filter(|l| LEVELS.contains(l))
        .ok_or(LevelError::OutOfRange { level })
}

/// The casual level that `text` (a decimal number, surrounding spaces allowed) names.
///
/// # Errors
/// [`LevelError::NotANumber`] for text that is not a whole number (or too large for `u64`),
/// [`LevelError::OutOfRange`] for a number outside [`LEVELS`].
pub fn parse(text: &str) -> Result<u8, LevelError> {
    let t = text.trim();
    let n: u64 = t.parse().map_err(|_| LevelError::NotANumber {
        text: t.to_string(),
    })?;
    check(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_range_is_one_to_ten_and_the_default_plays_from_the_databases() {
        assert_eq!(LEVELS.collect::<Vec<u8>>(), (1..=10).collect::<Vec<u8>>());
        assert_eq!(DEFAULT_LEVEL, 4);
        assert_eq!(DEFAULT_LEVEL, crate::TABLES_FROM_LEVEL);
        assert_eq!(crate::DEFAULT_LEVEL, DEFAULT_LEVEL);
    }

    #[test]
    fn check_accepts_the_range_only() {
        assert_eq!(check(1), Ok(1));
        assert_eq!(check(10), Ok(10));
        assert_eq!(check(0), Err(LevelError::OutOfRange { level: 0 }));
        assert_eq!(check(11), Err(LevelError::OutOfRange { level: 11 }));
        // 256 must not wrap to 0 on the way to u8.
        assert_eq!(check(256), Err(LevelError::OutOfRange { level: 256 }));
        assert_eq!(
            check(11).unwrap_err().to_string(),
            "level 11 is not 1 to 10"
        );
    }

    #[test]
    fn parse_reads_decimal_text() {
        assert_eq!(parse(" 7 "), Ok(7));
        assert_eq!(parse("0"), Err(LevelError::OutOfRange { level: 0 }));
        assert_eq!(
            parse("six"),
            Err(LevelError::NotANumber { text: "six".into() })
        );
        assert_eq!(
            parse("-1").unwrap_err().to_string(),
            "'-1' is not a level: expected a number 1 to 10"
        );
        assert!(matches!(
            parse("99999999999999999999"),
            Err(LevelError::NotANumber { .. })
        ));
    }
}

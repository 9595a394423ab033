//! The three games Crown plays, and their start positions.

use crate::square::Color;
use std::fmt;
use std::str::FromStr;

/// A game played on the 32 dark squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// American checkers / English draughts (`american-checkers.txt`): short kings, men jump forward
    /// only, free choice of capture, a man crowned mid-capture ends the move (rule 7).
    American,
    /// American pool checkers (APCA rules): flying kings (rules 15–18), men capture backward (rule 14),
    /// a man passing the king row mid-capture continues as a man (rules 23–24).
    Pool,
    /// Mark Steere's Impasse: no captures; singles slide forward, doubles slide backward, transpose,
    /// bear off, crown; the first player to remove all of their checkers wins.
    Impasse,
}

impl Variant {
    /// All variants.
    pub const ALL: [Variant; 3] = [Variant::American, Variant::Pool, Variant::Impasse];

    /// Lower-case identifier used by the CLI and the APIs: `american`, `pool`, `impasse`.
    pub const fn id(self) -> &'static str {
        match self {
            Variant::American => "american",
            Variant::Pool => "pool",
            Variant::Impasse => "impasse",
        }
    }

    /// Human-readable name.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::American => "American checkers",
            Variant::Pool => "American pool checkers",
            Variant::Impasse => "Impasse",
        }
    }

    /// The side that makes the first move of a game: Black in both checkers games (American rule 3,
    /// APCA rule 7), White in Impasse (see docs/rules.md).
    pub const fn first_player(self) -> Color {
        match self {
            Variant::American | Variant::Pool => Color::Black,
            Variant::Impasse => Color::White,
        }
    }

    /// Whether the game has captures (the two checkers games).
    pub const fn is_draughts(self) -> bool {
        !matches!(self, Variant::Impasse)
    }

    /// The start position in PDN FEN. For Impasse this is the [`ImpasseSetup::Seed`] setup; use
    /// [`ImpasseSetup::fen`] for the other.
    pub const fn start_fen(self) -> &'static str {
        match self {
            Variant::American | Variant::Pool => "B:W21-32:B1-12",
            Variant::Impasse => ImpasseSetup::Seed.fen(),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// Error for an unknown variant or setup name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// What kind of name was expected (`variant`, `setup`).
    pub what: &'static str,
    /// The text that was given.
    pub given: String,
    /// The accepted names.
    pub expected: &'static str,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} '{}' (expected {})",
            self.what, self.given, self.expected
        )
    }
}

impl std::error::Error for UnknownName {}

impl FromStr for Variant {
    type Err = UnknownName;

    /// Parses `american` (also `english`, `checkers`), `pool` (also `apca`) or `impasse`, any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "american" | "english" | "checkers" | "american-checkers" => Ok(Variant::American),
            "pool" | "apca" | "american-pool" | "pool-checkers" => Ok(Variant::Pool),
            "impasse" => Ok(Variant::Impasse),
            _ => Err(UnknownName {
                what: "variant",
                given: s.to_string(),
                expected: "american, pool or impasse",
            }),
        }
    }
}

/// The two start setups of Impasse.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum ImpasseSetup {
    /// The rule sheet in `shared/rules/impasse.txt`: 12 singles each on the checkers squares.
    #[default]
    Seed,
    /// Mark Steere's published figure: singles and doubles interleaved.
    Steere,
}

impl ImpasseSetup {
    /// Identifier: `seed` or `steere`.
    pub const fn id(self) -> &'static str {
        match self {
            ImpasseSetup::Seed => "seed",
            ImpasseSetup::Steere => "steere",
        }
    }

    /// The setup as PDN FEN (White to move, Impasse rule: White moves first).
    pub const fn fen(self) -> &'static str {
        match self {
            ImpasseSetup::Seed => "W:W21-32:B1-12",
            ImpasseSetup::Steere => "W:W26,28,29,31,K1,K3,K6,K8:B2,4,5,7,K25,K27,K30,K32",
        }
    }
}

impl FromStr for ImpasseSetup {
    type Err = UnknownName;

    /// Parses `seed` or `steere`, any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "seed" => Ok(ImpasseSetup::Seed),
            "steere" => Ok(ImpasseSetup::Steere),
            _ => Err(UnknownName {
                what: "setup",
                given: s.to_string(),
                expected: "seed or steere",
            }),
        }
    }
}

impl fmt::Display for ImpasseSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

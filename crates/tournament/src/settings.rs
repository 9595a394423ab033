//! What the director chooses when creating a tournament: name, game, format, opening rule, seed
//! and scoring.

use crate::error::TournamentError;
use crate::matches::Scoring;
use crate::openings::OpeningRule;
use crown_core::Variant;
use serde::{Deserialize, Serialize};

/// The pairing system of a round-based tournament (the arena is `arena.rs`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Format {
    /// A Swiss of this many rounds (`swiss.rs`).
    Swiss {
        /// The number of rounds, at least 1.
        rounds: u32,
    },
    /// Every player meets every other once (`round_robin.rs`).
    RoundRobin,
}

/// The settings of a round-based tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The tournament's name: the PDN `Event` tag.
    pub name: String,
    /// The game played, stored as its id (`american`, `pool`, `impasse`).
    #[serde(with = "variant_id")]
    pub variant: Variant,
    /// Swiss or round robin.
    pub format: Format,
    /// The director's opening rule (`openings.rs`).
    pub openings: OpeningRule,
    /// The seed of every random choice (openings, first colours): equal seeds, equal tournament.
    pub seed: u64,
    /// The points of matches and byes.
    pub scoring: Scoring,
}

/// The longest tournament name accepted, in characters.
pub const MAX_TOURNAMENT_NAME_CHARS: usize = 80;

impl Settings {
    /// Checks the settings: a name of 1 to [`MAX_TOURNAMENT_NAME_CHARS`] characters with no
    /// control character or bidirectional override, at least one
    /// Swiss round, an opening rule that fits the game (`OpeningRule::check`), a match win worth
    /// more than a tie and a tie more than a loss.
    ///
    /// # Errors
    /// [`TournamentError::Settings`] naming the first setting that is wrong.
    pub fn check(&self) -> Result<(), TournamentError> {
        let bad = |m: String| Err(TournamentError::Settings(m));
        let chars = self.name.trim().chars().count();
        if chars == 0 || chars > MAX_TOURNAMENT_NAME_CHARS {
            return bad(format!(
                "the name must have 1 to {MAX_TOURNAMENT_NAME_CHARS} characters, not {chars}"
            ));
        }
        // The name goes into every game's PDN `Event` tag and onto pages: no control characters
        // (NUL, escape sequences, line breaks) and no bidirectional overrides or isolates (which
        // would reorder the text shown after them).
        if self.name.chars().any(|c| {
            c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
        }) {
            return bad(
                "the name must not contain control characters or bidirectional overrides".into(),
            );
        }
        if self.format == (Format::Swiss { rounds: 0 }) {
            return bad("a Swiss needs at least 1 round".into());
        }
        let s = &self.scoring;
        if !(s.match_win > s.match_tie && s.match_tie >= s.match_loss) {
            return bad(format!(
                "match points must rank a win above a tie, and a tie not below a loss \
                 (win {}, tie {}, loss {})",
                s.match_win, s.match_tie, s.match_loss
            ));
        }
        self.openings.check(self.variant)
    }
}

/// Serde of a [`Variant`] as its id (`crown_core` has no serde).
pub(crate) mod variant_id {
    use crown_core::Variant;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Variant, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v.id())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        let id = String::deserialize(d)?;
        id.parse().map_err(serde::de::Error::custom)
    }
}

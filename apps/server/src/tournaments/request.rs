//! A new tournament (docs/api.md, `POST /api/tournaments`): the request's values checked in the
//! API's order, each refusal an [`Error`] with a stable code, and the settings built from them.

use crate::error::Error;
use crate::games::new_game::{MAX_INCREMENT_MS, MAX_INITIAL_MS};
use crate::store::TimeControl;
use crown_core::Variant;
use crown_tournament::{Format, OpeningRule, Scoring, Settings};
use serde::Deserialize;

/// The most Swiss rounds a tournament may have.
pub const MAX_ROUNDS: u32 = 15;

/// How far ahead a start time may be, in ms (30 days).
pub const MAX_START_AHEAD_MS: u64 = 30 * 24 * 3600 * 1000;

/// The lengths an arena may have, in minutes (lichess offers 20 minutes to 12 hours; a club's
/// quick arena may be shorter).
pub const ARENA_MINUTES: std::ops::RangeInclusive<u32> = 1..=180;

/// The longest tournament password, in characters.
pub const MAX_PASSWORD_CHARS: usize = 64;

/// The body of `POST /api/tournaments` as read (unknown keys are refused).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// The tournament's name (1..=80 characters): the PDN `Event` tag.
    pub name: String,
    /// `american`, `pool` or `impasse`.
    pub variant: String,
    /// `swiss`, `round_robin` or `arena`.
    pub format: String,
    /// Swiss only: the number of rounds, 1..=[`MAX_ROUNDS`].
    #[serde(default)]
    pub rounds: Option<u32>,
    /// Arena only (required): its length in minutes, [`ARENA_MINUTES`].
    #[serde(default)]
    pub minutes: Option<u32>,
    /// The clock of every game (required).
    #[serde(default)]
    pub time_control: Option<TimeControl>,
    /// When it starts by itself, ms since the Unix epoch (absent: its creator starts it).
    #[serde(default)]
    pub starts_ms: Option<u64>,
    /// Whether its games are rated.
    #[serde(default)]
    pub rated: bool,
    /// The opening rule: `start`, `acf` (ACF three-move ballots), `eleven` (11-man ballots),
    /// `impasse_seed`, `impasse_steere` (default: `acf` for American and pool, `impasse_seed` for
    /// Impasse).
    #[serde(default)]
    pub openings: Option<String>,
    /// A password players must give to join (1..=[`MAX_PASSWORD_CHARS`] characters).
    #[serde(default)]
    pub password: Option<String>,
}

/// A request that passed [`CreateRequest::check`].
#[derive(Clone, Debug)]
pub struct Checked {
    /// The tournament's settings (the seed still 0: drawn by the caller); an arena uses their
    /// name, game, openings and seed (its `format` is a placeholder).
    pub settings: Settings,
    /// An arena's length in minutes; `None` for a Swiss or round robin.
    pub arena_minutes: Option<u32>,
    /// The clock.
    pub time_control: TimeControl,
    /// Rated games.
    pub rated: bool,
    /// The start time, 0 for none.
    pub starts_ms: u64,
    /// The opening rule's API name.
    pub openings: String,
    /// The password, if any.
    pub password: Option<String>,
}

fn invalid(code: &'static str, message: impl Into<String>) -> Error {
    Error::invalid(code, message)
}

impl CreateRequest {
    /// Check the request at `now` (ms since the epoch) in this order: variant, format, rounds,
    /// time control, openings, start time, password, then the settings as a whole (the name).
    ///
    /// # Errors
    /// `bad_variant`, `bad_format` (unknown), `bad_rounds` (a Swiss without rounds or outside
    /// 1..=15, rounds given to a round robin or an arena), `bad_duration` (an arena without
    /// `minutes` or outside [`ARENA_MINUTES`], `minutes` given to another format), `bad_time_control`
    /// (absent or out of the game limits), `bad_openings`, `bad_start` (in the past or more than
    /// 30 days ahead), `bad_password`, `bad_settings` (the name).
    pub fn check(self, now: u64) -> Result<Checked, Error> {
        let variant: Variant = self
            .variant
            .parse()
            .map_err(|e| invalid("bad_variant", format!("{e}")))?;
        let mut arena_minutes = None;
        let format = match self.format.as_str() {
            "swiss" => match self.rounds {
                Some(r @ 1..=MAX_ROUNDS) => Format::Swiss { rounds: r },
                Some(r) => {
                    return Err(invalid(
                        "bad_rounds",
                        format!("a Swiss has 1..={MAX_ROUNDS} rounds, not {r}"),
                    ))
                }
                None => return Err(invalid("bad_rounds", "a Swiss needs 'rounds' (1..=15)")),
            },
            "round_robin" => {
                if self.rounds.is_some() {
                    return Err(invalid(
                        "bad_rounds",
                        "a round robin has as many rounds as its players need: give no 'rounds'",
                    ));
                }
                Format::RoundRobin
            }
            "arena" => {
                if self.rounds.is_some() {
                    return Err(invalid(
                        "bad_rounds",
                        "an arena has no rounds: give its length in 'minutes'",
                    ));
                }
                let (lo, hi) = (ARENA_MINUTES.start(), ARENA_MINUTES.end());
                match self.minutes {
                    Some(m) if ARENA_MINUTES.contains(&m) => arena_minutes = Some(m),
                    Some(m) => {
                        return Err(invalid(
                            "bad_duration",
                            format!("an arena lasts {lo}..={hi} minutes, not {m}"),
                        ))
                    }
                    None => {
                        return Err(invalid(
                            "bad_duration",
                            format!("an arena needs 'minutes' ({lo}..={hi})"),
                        ))
                    }
                }
                // A placeholder: an arena is not played in rounds.
                Format::RoundRobin
            }
            other => {
                return Err(invalid(
                    "bad_format",
                    format!("format must be 'swiss', 'round_robin' or 'arena', not '{other}'"),
                ))
            }
        };
        if arena_minutes.is_none() && self.minutes.is_some() {
            return Err(invalid(
                "bad_duration",
                "'minutes' is an arena's: a Swiss or round robin is played in rounds",
            ));
        }
        let time_control = self
            .time_control
            .filter(|tc| {
                tc.initial_ms > 0
                    && tc.initial_ms <= MAX_INITIAL_MS
                    && tc.increment_ms <= MAX_INCREMENT_MS
            })
            .ok_or_else(|| {
                invalid(
                    "bad_time_control",
                    format!(
                        "a tournament needs a time_control with initial_ms 1..={MAX_INITIAL_MS} \
                         and increment_ms at most {MAX_INCREMENT_MS}"
                    ),
                )
            })?;
        let default = if variant == Variant::Impasse {
            "impasse_seed"
        } else {
            "acf"
        };
        let openings = self.openings.unwrap_or_else(|| default.to_string());
        let rule = match openings.as_str() {
            "start" => OpeningRule::StartPosition,
            "acf" => OpeningRule::AcfThreeMove,
            "eleven" => OpeningRule::ElevenManBallots,
            "impasse_seed" => OpeningRule::ImpasseSeed,
            "impasse_steere" => OpeningRule::ImpasseSteere,
            other => {
                return Err(invalid(
                    "bad_openings",
                    format!(
                        "openings must be 'start', 'acf', 'eleven', 'impasse_seed' or \
                         'impasse_steere', not '{other}'"
                    ),
                ))
            }
        };
        rule.check(variant)
            .map_err(|e| invalid("bad_openings", e.to_string()))?;
        let starts_ms = match self.starts_ms {
            None => 0,
            Some(t) if t < now => {
                return Err(invalid("bad_start", "starts_ms is in the past"));
            }
            Some(t) if t - now > MAX_START_AHEAD_MS => {
                return Err(invalid(
                    "bad_start",
                    "starts_ms may be at most 30 days ahead",
                ));
            }
            Some(t) => t,
        };
        if let Some(p) = &self.password {
            let chars = p.chars().count();
            if chars == 0 || chars > MAX_PASSWORD_CHARS {
                return Err(invalid(
                    "bad_password",
                    format!("a password has 1..={MAX_PASSWORD_CHARS} characters, not {chars}"),
                ));
            }
        }
        let settings = Settings {
            name: self.name.trim().to_string(),
            variant,
            format,
            openings: rule,
            seed: 0,
            scoring: Scoring::default(),
        };
        settings
            .check()
            .map_err(|e| invalid("bad_settings", e.to_string()))?;
        Ok(Checked {
            settings,
            arena_minutes,
            time_control,
            rated: self.rated,
            starts_ms,
            openings,
            password: self.password,
        })
    }
}

//! Puzzles on the account (docs/api.md, "Puzzles"): a logged-in player's puzzle rating, streaks
//! and rated attempts, kept by the server, and the local record of a browser merged into them.
//!
//! - **The rule is crown-puzzle's** ([`PuzzleRatings::record`], the one the trainer of the TUI and
//!   the web page rates through): each puzzle is rated once per account (Glicko-2, the player
//!   against the puzzle starting at its difficulty), a clean solve adds one to the streak, a
//!   failure ends it. An attempt at a puzzle rated before changes nothing.
//! - **The puzzles are the embedded sets** ([`crown_puzzle::embedded_set`] of the three games): an
//!   attempt names one of them by id; its difficulty and themes come from the set, never from
//!   the request.
//! - **A merge** replays the attempts of a browser's local record (`{"ratings": {"puzzles":
//!   {id: {"rating", …}}, "played": [id, …]}}`, the trainer's format) through the same rule, in
//!   the order they were played (`played`; puzzles it does not list first, in id order): the
//!   result of each is read back from the puzzle's rating there
//!   ([`PuzzleRatings::attempts`]); the record's own player rating and streak are never
//!   trusted. Puzzles the account rated already are not rated again, so a merge sent twice
//!   changes nothing the second time, and at most [`MERGE_MAX`] puzzles go in one request.
//! - **Storage**: one versioned JSON row per account ([`crate::store::PuzzleStore`]); a change
//!   is a compare-and-swap, retried on a fresh read when another request won the race.
//! - **Limits**: at most [`WRITES_PER_MIN`] attempts and merges a minute per account (a burst of
//!   [`WRITES_BURST`]), `429 puzzle_rate_limited` beyond; the API's per-address limit and
//!   Origin check apply as to every route.

use crate::blocking;
use crate::error::{Detail, Error};
use crate::games::live::now_ms;
use crate::limit::RateLimiter;
use crate::store::{PuzzleRecord, Store, StoreError};
use crown_core::Variant;
use crown_puzzle::{PuzzleRatings, Theme};
use crown_rating::glicko::{Glicko2, DEFAULT_DEVIATION, DEFAULT_VOLATILITY};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// Most puzzles of a local record in one `POST /api/puzzles/merge` (a longer record is sent in
/// parts; the merge of each part is idempotent).
pub const MERGE_MAX: usize = 64;
/// The longest time an attempt may say it took, in ms (a day).
pub const TIME_MAX_MS: u64 = 86_400_000;
/// Most attempts of the history `GET /api/puzzles/me` shows, the newest.
pub const HISTORY_SHOWN: usize = 100;
/// Most themes named weakest.
pub const WEAKEST_MAX: usize = 3;
/// Fewest rated attempts of a theme before it can be named weakest (fewer say too little).
pub const WEAKEST_MIN_ATTEMPTS: u32 = 3;
/// Attempts and merges allowed per account per minute.
pub const WRITES_PER_MIN: u32 = 60;
/// The burst of attempts and merges an account may send at once.
pub const WRITES_BURST: u32 = 30;
/// Tries of a change that lost the compare-and-swap to another request before `storage`.
const CAS_TRIES: usize = 8;

/// What the server knows of one puzzle of the embedded sets.
#[derive(Clone, Debug)]
pub struct Known {
    /// The game.
    pub variant: Variant,
    /// The starting rating.
    pub difficulty: u32,
    /// The theme tags.
    pub themes: Vec<Theme>,
}

/// Every puzzle of the embedded sets, by id (read once).
pub fn known() -> &'static HashMap<String, Known> {
    static KNOWN: OnceLock<HashMap<String, Known>> = OnceLock::new();
    KNOWN.get_or_init(|| {
        let mut out = HashMap::new();
        for v in Variant::ALL {
            // The committed sets are read by crown-puzzle's tests: a set that failed to read
            // would only leave its puzzles unknown here.
            let set = crown_puzzle::read_jsonl(crown_puzzle::embedded_set(v).as_bytes())
                .unwrap_or_default();
            for p in set {
                out.insert(
                    p.id,
                    Known {
                        variant: p.variant,
                        difficulty: p.difficulty,
                        themes: p.themes,
                    },
                );
            }
        }
        out
    })
}

/// One rated attempt of an account.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    /// The puzzle's id.
    pub puzzle: String,
    /// Solved clean (a win); `false`: a wrong move, a hint or giving up (a loss).
    pub solved: bool,
    /// How long it took, ms, as the browser said (`None`: not said, or merged).
    pub time_ms: Option<u64>,
    /// When the server rated it, ms since the Unix epoch.
    pub at_ms: u64,
    /// The player's rating after it.
    pub rating: f64,
    /// Rated by a merge of a local record.
    #[serde(default)]
    pub merged: bool,
}

/// An account's stored puzzle record (the JSON of its `puzzle_records` row).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stored {
    /// The ratings in the trainer's format: the player's, each rated puzzle's, the streaks.
    pub ratings: PuzzleRatings,
    /// The rated attempts, oldest first (one per puzzle rated).
    #[serde(default)]
    pub history: Vec<Attempt>,
}

/// One attempt to rate: the puzzle, solved clean or not, the time it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewAttempt {
    /// The puzzle's id (one of [`known`]).
    pub puzzle: String,
    /// Solved clean.
    pub solved: bool,
    /// How long it took, ms.
    pub time_ms: Option<u64>,
}

/// The account's rating and streaks after a change.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingView {
    /// The player's puzzle rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Deviation above the provisional bound.
    pub provisional: bool,
    /// The current streak of clean solves.
    pub streak: u32,
    /// The best streak.
    pub best_streak: u32,
}

impl RatingView {
    fn of(r: &PuzzleRatings) -> RatingView {
        RatingView {
            rating: r.player.rating,
            deviation: r.player.deviation,
            volatility: r.player.volatility,
            provisional: r.player.provisional(),
            streak: r.streak,
            best_streak: r.best_streak,
        }
    }
}

/// The answer to an attempt: whether it was rated now, and the rating after.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttemptResult {
    /// Rated now (`false`: the puzzle was rated before, nothing changed).
    pub rated: bool,
    /// The rating and streaks.
    #[serde(flatten)]
    pub rating: RatingView,
}

/// The answer to a merge: how many of the record's puzzles were rated now, how many the account
/// had rated before, how many are not in the embedded sets (left out).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MergeResult {
    /// Rated now.
    pub rated: usize,
    /// Rated before (not again).
    pub already: usize,
    /// Not in the embedded sets.
    pub unknown: usize,
    /// The rating and streaks.
    #[serde(flatten)]
    pub rating: RatingView,
}

/// One attempt of the history shown.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HistoryView {
    /// The puzzle's id.
    pub puzzle: String,
    /// Its game.
    pub variant: &'static str,
    /// Its themes.
    pub themes: Vec<&'static str>,
    /// Its difficulty.
    pub difficulty: u32,
    /// Solved clean.
    pub solved: bool,
    /// How long it took, ms (`null`: not said).
    pub time_ms: Option<u64>,
    /// When it was rated, ms since the Unix epoch.
    pub at_ms: u64,
    /// The player's rating after it.
    pub rating: f64,
    /// Rated by a merge.
    pub merged: bool,
}

/// The rated attempts of one theme.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ThemeCount {
    /// The theme tag.
    pub theme: &'static str,
    /// Solved clean.
    pub solved: u32,
    /// Failed.
    pub failed: u32,
}

/// `GET /api/puzzles/me`: the account's whole puzzle record.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Dashboard {
    /// The rating and streaks.
    #[serde(flatten)]
    pub rating: RatingView,
    /// Puzzles rated.
    pub attempts: usize,
    /// Of them solved clean.
    pub solved: usize,
    /// Of them failed.
    pub failed: usize,
    /// The newest [`HISTORY_SHOWN`] rated attempts, the newest first.
    pub history: Vec<HistoryView>,
    /// Solved and failed per theme, every theme in the order of the tags.
    pub themes: Vec<ThemeCount>,
    /// The themes with a failure among those rated at least [`WEAKEST_MIN_ATTEMPTS`] times,
    /// lowest share solved first (then most failures, then the order of the tags), at most
    /// [`WEAKEST_MAX`].
    pub weakest: Vec<&'static str>,
    /// [`WEAKEST_MIN_ATTEMPTS`], for the page to state the rule.
    pub weakest_min_attempts: u32,
    /// The ratings in the trainer's format (the web page opens its trainer with them).
    pub ratings: PuzzleRatings,
}

/// What a player's page shows of the puzzles.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The puzzle rating, rounded.
    pub rating: i64,
    /// Its deviation, rounded.
    pub deviation: i64,
    /// Deviation above the provisional bound.
    pub provisional: bool,
    /// Puzzles rated.
    pub attempts: usize,
    /// Of them solved clean.
    pub solved: usize,
    /// The best streak.
    pub best_streak: u32,
}

/// `bad_<field>`-style refusal: `400` with `code`, naming `field`.
fn bad(code: &'static str, field: &str, why: impl std::fmt::Display) -> Error {
    Error::invalid(code, format!("{field}: {why}"))
}

/// The known puzzle `id`.
///
/// # Errors
/// `400 unknown_puzzle` naming the field `puzzle`.
pub fn puzzle_named(id: &str) -> Result<&'static Known, Error> {
    known().get(id).ok_or_else(|| {
        bad(
            "unknown_puzzle",
            "puzzle",
            format!("no puzzle {} in the puzzle sets", crate::error::echo(id)),
        )
    })
}

/// Check an attempt's `time_ms`.
///
/// # Errors
/// `400 bad_time` naming the field.
pub fn check_time(time_ms: Option<u64>) -> Result<(), Error> {
    match time_ms {
        Some(t) if t > TIME_MAX_MS => Err(bad(
            "bad_time",
            "time_ms",
            format!("{t} is more than a day ({TIME_MAX_MS} ms)"),
        )),
        _ => Ok(()),
    }
}

/// The attempt of a `POST /api/puzzles/attempts` body `{"puzzle", "solved", "time_ms"?}`.
///
/// # Errors
/// `400 bad_attempt` naming the field: a field missing or of the wrong type, an unknown field;
/// `400 unknown_puzzle`, `bad_time` as [`puzzle_named`] and [`check_time`].
pub fn attempt_of(body: &serde_json::Value) -> Result<NewAttempt, Error> {
    const FIELDS: [&str; 3] = ["puzzle", "solved", "time_ms"];
    let obj = body
        .as_object()
        .ok_or_else(|| bad("bad_attempt", "body", "not a JSON object"))?;
    if let Some(k) = obj.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(bad(
            "bad_attempt",
            &crate::error::echo(k),
            "unknown field (puzzle, solved, time_ms)",
        ));
    }
    let puzzle = obj
        .get("puzzle")
        .and_then(serde_json::Value::as_str)
        .ok_or_else(|| bad("bad_attempt", "puzzle", "missing or not a string"))?;
    let solved = obj
        .get("solved")
        .and_then(serde_json::Value::as_bool)
        .ok_or_else(|| bad("bad_attempt", "solved", "missing or not true or false"))?;
    let time_ms = match obj.get("time_ms") {
        None | Some(serde_json::Value::Null) => None,
        Some(t) => Some(
            t.as_u64()
                .ok_or_else(|| bad("bad_time", "time_ms", "not a whole number of ms at least 0"))?,
        ),
    };
    puzzle_named(puzzle)?;
    check_time(time_ms)?;
    Ok(NewAttempt {
        puzzle: puzzle.to_string(),
        solved,
        time_ms,
    })
}

/// The attempts of a browser's local record `body` (`{"ratings": {"puzzles": {id: {"rating",
/// …}}, "played": [id, …]}}`; other fields are ignored), in the order they were played
/// ([`PuzzleRatings::attempts`]: the puzzles `played` does not list first, in id order, then
/// `played`'s order), and how many of its puzzles the sets do not have.
///
/// # Errors
/// `400 bad_merge` naming the field: `ratings` or `ratings.puzzles` missing or not an object,
/// more than [`MERGE_MAX`] puzzles, an entry without a finite `rating`, `ratings.played` not an
/// array of at most [`MERGE_MAX`] strings.
pub fn local_attempts(body: &serde_json::Value) -> Result<(Vec<NewAttempt>, usize), Error> {
    let puzzles = body
        .get("ratings")
        .ok_or_else(|| bad("bad_merge", "ratings", "missing"))?
        .as_object()
        .ok_or_else(|| bad("bad_merge", "ratings", "not an object"))?
        .get("puzzles")
        .ok_or_else(|| bad("bad_merge", "ratings.puzzles", "missing"))?
        .as_object()
        .ok_or_else(|| bad("bad_merge", "ratings.puzzles", "not an object"))?;
    if puzzles.len() > MERGE_MAX {
        return Err(bad(
            "bad_merge",
            "ratings.puzzles",
            format!(
                "{} puzzles, at most {MERGE_MAX} in one request (send the record in parts)",
                puzzles.len()
            ),
        ));
    }
    let mut local = PuzzleRatings::default();
    for (id, entry) in puzzles {
        let rating = entry
            .get("rating")
            .and_then(serde_json::Value::as_f64)
            .filter(|r| r.is_finite())
            .ok_or_else(|| {
                bad(
                    "bad_merge",
                    &format!("ratings.puzzles[{}].rating", crate::error::echo(id)),
                    "missing or not a number",
                )
            })?;
        local.puzzles.insert(
            id.clone(),
            Glicko2::new(rating, DEFAULT_DEVIATION, DEFAULT_VOLATILITY),
        );
    }
    if let Some(played) = body["ratings"].get("played") {
        let played = played
            .as_array()
            .ok_or_else(|| bad("bad_merge", "ratings.played", "not an array"))?;
        if played.len() > MERGE_MAX {
            return Err(bad(
                "bad_merge",
                "ratings.played",
                format!("{} ids, at most {MERGE_MAX} in one request", played.len()),
            ));
        }
        for (i, id) in played.iter().enumerate() {
            let id = id
                .as_str()
                .ok_or_else(|| bad("bad_merge", &format!("ratings.played[{i}]"), "not a string"))?;
            local.played.push(id.to_string());
        }
    }
    let attempts: Vec<NewAttempt> = local
        .attempts(|id| known().get(id).map(|k| k.difficulty))
        .into_iter()
        .map(|(puzzle, solved)| NewAttempt {
            puzzle,
            solved,
            time_ms: None,
        })
        .collect();
    let unknown = puzzles.len() - attempts.len();
    Ok((attempts, unknown))
}

/// `attempts` recorded on `stored` by the rule, rated at `now`: how many were rated now.
pub fn apply(stored: &mut Stored, attempts: &[NewAttempt], merged: bool, now: u64) -> usize {
    let mut rated = 0;
    for a in attempts {
        let Some(k) = known().get(&a.puzzle) else {
            continue;
        };
        if stored.ratings.record(&a.puzzle, k.difficulty, a.solved) {
            rated += 1;
            stored.history.push(Attempt {
                puzzle: a.puzzle.clone(),
                solved: a.solved,
                time_ms: a.time_ms,
                at_ms: now,
                rating: stored.ratings.player.rating,
                merged,
            });
        }
    }
    rated
}

/// The dashboard of `stored`.
pub fn dashboard(stored: &Stored) -> Dashboard {
    let mut themes: Vec<ThemeCount> = Theme::ALL
        .iter()
        .map(|t| ThemeCount {
            theme: t.id(),
            ..ThemeCount::default()
        })
        .collect();
    let mut solved = 0;
    for a in &stored.history {
        solved += usize::from(a.solved);
        let Some(k) = known().get(&a.puzzle) else {
            continue;
        };
        for t in &k.themes {
            if let Some(c) = themes.iter_mut().find(|c| c.theme == t.id()) {
                if a.solved {
                    c.solved += 1;
                } else {
                    c.failed += 1;
                }
            }
        }
    }
    let mut weak: Vec<(usize, &ThemeCount)> = themes
        .iter()
        .enumerate()
        .filter(|(_, c)| c.failed > 0 && c.solved + c.failed >= WEAKEST_MIN_ATTEMPTS)
        .collect();
    // Lowest share solved first: a/b < c/d as a·d < c·b (no float ties).
    weak.sort_by(|(i, a), (j, b)| {
        let (sa, ta) = (u64::from(a.solved), u64::from(a.solved + a.failed));
        let (sb, tb) = (u64::from(b.solved), u64::from(b.solved + b.failed));
        (sa * tb)
            .cmp(&(sb * ta))
            .then(b.failed.cmp(&a.failed))
            .then(i.cmp(j))
    });
    let history = stored
        .history
        .iter()
        .rev()
        .take(HISTORY_SHOWN)
        .map(|a| {
            let k = known().get(&a.puzzle);
            HistoryView {
                puzzle: a.puzzle.clone(),
                variant: k.map_or("", |k| k.variant.id()),
                themes: k.map_or(Vec::new(), |k| k.themes.iter().map(|t| t.id()).collect()),
                difficulty: k.map_or(0, |k| k.difficulty),
                solved: a.solved,
                time_ms: a.time_ms,
                at_ms: a.at_ms,
                rating: a.rating,
                merged: a.merged,
            }
        })
        .collect();
    Dashboard {
        rating: RatingView::of(&stored.ratings),
        attempts: stored.history.len(),
        solved,
        failed: stored.history.len() - solved,
        history,
        weakest: weak
            .into_iter()
            .take(WEAKEST_MAX)
            .map(|(_, c)| c.theme)
            .collect(),
        weakest_min_attempts: WEAKEST_MIN_ATTEMPTS,
        themes,
        ratings: stored.ratings.clone(),
    }
}

/// The puzzles feature: the store's puzzle records and the per-account limit of writes.
pub struct Puzzles {
    store: Arc<dyn Store>,
    writes: RateLimiter<String>,
}

/// `puzzle_rate_limited` (429): wait `secs` seconds.
fn limited(secs: u64) -> Error {
    Error::limited(
        "puzzle_rate_limited",
        format!("too many puzzle attempts from this account; retry in {secs} s"),
    )
    .with(Detail::RetryAfterMs(secs * 1000))
}

/// The stored record of a row (`None`: a new one).
fn read_row(user_id: &str, row: Option<PuzzleRecord>) -> Result<(Stored, u64), StoreError> {
    match row {
        None => Ok((Stored::default(), 0)),
        Some(r) => {
            let s = serde_json::from_str(&r.state).map_err(|e| StoreError::Corrupt {
                id: format!("puzzles of account {user_id}"),
                reason: e.to_string(),
            })?;
            Ok((s, r.version))
        }
    }
}

impl Puzzles {
    /// The puzzles feature over `store`.
    pub fn new(store: Arc<dyn Store>) -> Puzzles {
        Puzzles {
            store,
            writes: RateLimiter::keyed(f64::from(WRITES_PER_MIN) / 60.0, WRITES_BURST),
        }
    }

    /// The stored record of account `user_id` (a new one when it has none).
    ///
    /// # Errors
    /// `accounts_unavailable`, `storage`.
    pub async fn load(&self, user_id: &str) -> Result<Stored, Error> {
        let store = self.store.clone();
        let id = user_id.to_string();
        blocking::store_part(move || {
            store
                .puzzles()
                .map(|p| p.load_puzzles(&id).and_then(|row| read_row(&id, row)))
        })
        .await
        .map(|(s, _)| s)
    }

    /// Record `attempts` for account `user_id` by the rule (see the module documentation),
    /// storing the record when any was rated: the record after and how many were rated now.
    async fn change(
        &self,
        user_id: &str,
        attempts: Vec<NewAttempt>,
        merged: bool,
    ) -> Result<(Stored, usize), Error> {
        self.writes.check(user_id.to_string()).map_err(limited)?;
        let store = self.store.clone();
        let id = user_id.to_string();
        blocking::store_part(move || {
            let p = store.puzzles()?;
            Some((|| {
                for _ in 0..CAS_TRIES {
                    let (mut stored, version) = read_row(&id, p.load_puzzles(&id)?)?;
                    let now = now_ms();
                    let rated = apply(&mut stored, &attempts, merged, now);
                    if rated == 0 {
                        return Ok((stored, 0));
                    }
                    let mut rec = PuzzleRecord {
                        user_id: id.clone(),
                        state: serde_json::to_string(&stored)
                            .map_err(|e| StoreError::Commit(e.to_string()))?,
                        updated_ms: now,
                        version,
                    };
                    match p.save_puzzles(&mut rec) {
                        Ok(()) => return Ok((stored, rated)),
                        Err(StoreError::Conflict(_)) => continue,
                        Err(e) => return Err(e),
                    }
                }
                Err(StoreError::Conflict(id.clone()))
            })())
        })
        .await
    }

    /// Rate the attempt of the request `body` ([`attempt_of`]) for account `user_id`.
    ///
    /// # Errors
    /// `400 bad_attempt`, `unknown_puzzle`, `bad_time`; `429 puzzle_rate_limited`;
    /// `accounts_unavailable`, `storage`.
    pub async fn attempt(
        &self,
        user_id: &str,
        body: &serde_json::Value,
    ) -> Result<AttemptResult, Error> {
        let a = attempt_of(body)?;
        let (stored, rated) = self.change(user_id, vec![a], false).await?;
        Ok(AttemptResult {
            rated: rated > 0,
            rating: RatingView::of(&stored.ratings),
        })
    }

    /// Merge a browser's local record `body` into account `user_id`'s (see the module
    /// documentation).
    ///
    /// # Errors
    /// `400 bad_merge`; `429 puzzle_rate_limited`; `accounts_unavailable`, `storage`.
    pub async fn merge(
        &self,
        user_id: &str,
        body: &serde_json::Value,
    ) -> Result<MergeResult, Error> {
        let (attempts, unknown) = local_attempts(body)?;
        let n = attempts.len();
        let (stored, rated) = self.change(user_id, attempts, true).await?;
        Ok(MergeResult {
            rated,
            already: n - rated,
            unknown,
            rating: RatingView::of(&stored.ratings),
        })
    }

    /// The dashboard of account `user_id`.
    ///
    /// # Errors
    /// `accounts_unavailable`, `storage`.
    pub async fn dashboard(&self, user_id: &str) -> Result<Dashboard, Error> {
        Ok(dashboard(&self.load(user_id).await?))
    }

    /// What the page of account `user_id` shows of its puzzles; `None` before its first rated
    /// attempt, or when the store keeps no puzzles.
    ///
    /// # Errors
    /// `storage`.
    pub async fn summary(&self, user_id: &str) -> Result<Option<Summary>, Error> {
        let stored = match self.load(user_id).await {
            Ok(s) => s,
            Err(e) if e.code == "accounts_unavailable" => return Ok(None),
            Err(e) => return Err(e),
        };
        if stored.history.is_empty() {
            return Ok(None);
        }
        let p = stored.ratings.player;
        Ok(Some(Summary {
            rating: p.rating.round() as i64,
            deviation: p.deviation.round() as i64,
            provisional: p.provisional(),
            attempts: stored.history.len(),
            solved: stored.history.iter().filter(|a| a.solved).count(),
            best_streak: stored.ratings.best_streak,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The first known puzzle (by id) whose themes are exactly `themes`.
    fn with_themes(themes: &[Theme]) -> String {
        let mut ids: Vec<&String> = known()
            .iter()
            .filter(|(_, k)| k.themes == themes)
            .map(|(id, _)| id)
            .collect();
        ids.sort();
        ids[0].clone()
    }

    #[test]
    fn the_sets_are_known_by_id() {
        let n: usize = Variant::ALL
            .into_iter()
            .map(|v| {
                crown_puzzle::embedded_set(v)
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                    .count()
            })
            .sum();
        assert_eq!(known().len(), n);
        assert!(puzzle_named("no-such-puzzle").is_err());
    }

    /// The first `n` known puzzles (by id) whose themes are exactly `themes`.
    fn n_with_themes(themes: &[Theme], n: usize) -> Vec<String> {
        let mut ids: Vec<String> = known()
            .iter()
            .filter(|(_, k)| k.themes == themes)
            .map(|(id, _)| id.clone())
            .collect();
        ids.sort();
        ids.truncate(n);
        assert_eq!(ids.len(), n, "{themes:?}");
        ids
    }

    #[test]
    fn the_weakest_themes_are_the_lowest_share_solved_of_those_tried_enough() {
        let mut s = Stored::default();
        let a = |p: &String, solved| NewAttempt {
            puzzle: p.clone(),
            solved,
            time_ms: Some(1000),
        };
        let mut tried = Vec::new();
        // Draw saves: none of three solved; endings: one of three; multi-jumps: two of four;
        // breakthroughs: none of two (too few to say); shots: not tried.
        for (theme, results) in [
            (Theme::DrawSave, &[false, false, false][..]),
            (Theme::Ending, &[true, false, false]),
            (Theme::MultiJump, &[true, false, true, false]),
            (Theme::Breakthrough, &[false, false]),
        ] {
            let ids = n_with_themes(&[theme], results.len());
            tried.extend(ids.iter().zip(results).map(|(id, r)| a(id, *r)));
        }
        assert_eq!(apply(&mut s, &tried, false, 5), 12);
        // Rated once.
        assert_eq!(apply(&mut s, &tried[..1], false, 6), 0);
        let d = dashboard(&s);
        assert_eq!((d.attempts, d.solved, d.failed), (12, 3, 9));
        assert_eq!(d.history[0].puzzle, tried[11].puzzle, "the newest first");
        let count = |t: Theme| {
            let c = d.themes.iter().find(|c| c.theme == t.id()).unwrap();
            (c.solved, c.failed)
        };
        assert_eq!(count(Theme::DrawSave), (0, 3));
        assert_eq!(count(Theme::Ending), (1, 2));
        assert_eq!(count(Theme::Breakthrough), (0, 2));
        assert_eq!(count(Theme::Shot), (0, 0));
        assert_eq!(d.weakest, ["draw-save", "ending", "multi-jump"]);
        assert_eq!(d.weakest_min_attempts, 3);
    }

    #[test]
    fn a_local_record_is_read_field_by_field() {
        let shot = with_themes(&[Theme::Ending]);
        let d = f64::from(known()[&shot].difficulty);
        let body = json!({"ratings": {"puzzles": {
            shot.clone(): {"rating": d - 50.0, "deviation": 290.0, "volatility": 0.06},
            "gone-puzzle": {"rating": 1500.0}
        }, "player": {"rating": 3000.0}}, "streak": 99});
        let (attempts, unknown) = local_attempts(&body).unwrap();
        assert_eq!(
            attempts,
            [NewAttempt {
                puzzle: shot.clone(),
                solved: true,
                time_ms: None
            }]
        );
        assert_eq!(unknown, 1);
        for (body, field) in [
            (json!({}), "ratings: missing"),
            (json!({"ratings": 3}), "ratings: not an object"),
            (json!({"ratings": {}}), "ratings.puzzles: missing"),
            (
                json!({"ratings": {"puzzles": []}}),
                "ratings.puzzles: not an object",
            ),
            (
                json!({"ratings": {"puzzles": {"x": {"rating": "high"}}}}),
                "ratings.puzzles['x'].rating",
            ),
        ] {
            let e = local_attempts(&body).unwrap_err();
            assert_eq!(e.code, "bad_merge");
            assert!(e.message.starts_with(field), "{} for {body}", e.message);
        }
        let many: serde_json::Map<String, serde_json::Value> = (0..=MERGE_MAX)
            .map(|i| (format!("p{i}"), json!({"rating": 1500.0})))
            .collect();
        let e = local_attempts(&json!({"ratings": {"puzzles": many}})).unwrap_err();
        assert!(e.message.contains("at most 64"), "{}", e.message);
    }
}

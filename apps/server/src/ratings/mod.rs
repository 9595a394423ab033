//! Ratings of rated games (docs/api.md, "Ratings"): the speed class of a time control, the
//! pre-game ratings a rated game shows, the lobby's ratings, the PDN rating tags, the
//! leaderboard, a user's page and a user's archive of finished games.
//!
//! The update itself (Glicko-2, [`crown_rating::glicko::rate_game`]: one game is one rating
//! period for both players, τ 0.5, a new player 1500/350/0.06) is made by the store in the
//! transaction of the save that finishes a rated game (store/ratings.rs), exactly once per game.

use crate::blocking;
use crate::error::{Error, ErrorKind};
use crate::games::live::Live;
use crate::store::ratings::ARCHIVE_SCAN;
use crate::store::{
    Established, GameFilter, GameMeta, GameRatings, PlayerGame, RatingRecord, RatingStore,
    SeatAccount, SeatRating, Store, StoreError, UserRecord,
};
use std::sync::Arc;

pub use crate::store::Speed;
use crown_rating::glicko::Glicko2;
use serde::Serialize;

/// The variant ids that have ratings.
pub const VARIANTS: [&str; 3] = ["american", "pool", "impasse"];
/// The speed ids.
pub const SPEEDS: [&str; 5] = ["bullet", "blitz", "rapid", "classical", "correspondence"];
/// Most players in a leaderboard (`limit`), and the default.
pub const LEADERBOARD_MAX: usize = 100;
/// The default `limit` of a leaderboard.
pub const LEADERBOARD_DEFAULT: usize = 50;
/// Most games in one page of a user's archive (`limit`).
pub const ARCHIVE_MAX: usize = 100;
/// The default `limit` of a page of a user's archive.
pub const ARCHIVE_DEFAULT: usize = 50;
/// Most games in one PDN download of a user's archive (`limit`), and its default.
pub const ARCHIVE_PDN_MAX: usize = 500;

/// The speed named `s`, if it is one.
pub fn speed_named(s: &str) -> Option<Speed> {
    [
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ]
    .into_iter()
    .find(|x| x.name() == s)
}

/// The PDN tags of a rated game's ratings: `WhiteElo`, `BlackElo` (pre-game, rounded) and, once
/// rated, `WhiteRatingDiff`, `BlackRatingDiff` (signed: `+162`, `-162`, `+0`). None for a casual
/// game.
pub fn pdn_tags(meta: &GameMeta) -> Vec<(&'static str, String)> {
    let Some(r) = meta.ratings.as_ref().filter(|_| meta.rated) else {
        return Vec::new();
    };
    let mut tags = vec![
        ("WhiteElo", r.white.shown().to_string()),
        ("BlackElo", r.black.shown().to_string()),
    ];
    if let (Some(w), Some(b)) = (r.white.diff(), r.black.diff()) {
        tags.push(("WhiteRatingDiff", format!("{w:+}")));
        tags.push(("BlackRatingDiff", format!("{b:+}")));
    }
    tags
}

/// `400 code`: `what` must be one of `allowed`.
fn one_of(code: &'static str, what: &str, value: &str, allowed: &[&str]) -> Error {
    Error::invalid(
        code,
        format!(
            "{what} must be one of {}, not {}",
            allowed.join(", "),
            crate::error::echo(value)
        ),
    )
}

/// Check a `variant` parameter.
///
/// # Errors
/// `400 bad_variant`.
pub fn check_variant(v: &str) -> Result<(), Error> {
    if VARIANTS.contains(&v) {
        Ok(())
    } else {
        Err(one_of("bad_variant", "variant", v, &VARIANTS))
    }
}

/// Check a `speed` parameter.
///
/// # Errors
/// `400 bad_speed`.
pub fn check_speed(s: &str) -> Result<(), Error> {
    if SPEEDS.contains(&s) {
        Ok(())
    } else {
        Err(one_of("bad_speed", "speed", s, &SPEEDS))
    }
}

/// A `limit` parameter: `default` when absent, else an integer in `1..=max`.
///
/// # Errors
/// `400 bad_limit`.
pub fn check_limit(limit: Option<&str>, default: usize, max: usize) -> Result<usize, Error> {
    let Some(l) = limit else { return Ok(default) };
    match l.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(Error::invalid(
            "bad_limit",
            format!(
                "limit must be an integer 1..={max}, not {}",
                crate::error::echo(l)
            ),
        )),
    }
}

/// The `before_ms` of a page query (an archive's next page): `None` when absent.
///
/// # Errors
/// `bad_before_ms` (400) when it is not a whole number of ms since the epoch.
pub fn check_before_ms(before_ms: Option<&str>) -> Result<Option<u64>, Error> {
    before_ms
        .map(|b| {
            b.parse::<u64>().map_err(|_| {
                Error::invalid(
                    "bad_before_ms",
                    format!(
                        "before_ms must be a time in ms since the epoch, not {}",
                        crate::error::echo(b)
                    ),
                )
            })
        })
        .transpose()
}

/// One player of a leaderboard.
#[derive(Debug, Serialize)]
pub struct Ranked {
    /// 1 for the best.
    pub rank: usize,
    /// The account's name.
    pub name: String,
    /// `BOT` for a bot account; absent for a person.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<&'static str>,
    /// The rating, rounded.
    pub rating: i64,
    /// The rating deviation, rounded.
    pub deviation: i64,
    /// Rated games of this variant and speed.
    pub games: u64,
    /// Whether the rating is provisional (deviation above 110).
    pub provisional: bool,
}

/// One rating of a user's page.
#[derive(Debug, Serialize)]
pub struct RatingView {
    /// Variant id.
    pub variant: String,
    /// Speed id.
    pub speed: String,
    /// Rounded rating.
    pub rating: i64,
    /// Rounded deviation.
    pub deviation: i64,
    /// Volatility (σ).
    pub volatility: f64,
    /// Rated games.
    pub games: u64,
    /// Deviation above 110.
    pub provisional: bool,
}

/// Games by outcome.
#[derive(Debug, Default, Serialize)]
pub struct Counts {
    /// All of them.
    pub games: u64,
    /// Won.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost.
    pub losses: u64,
}

impl Counts {
    fn add(&mut self, outcome: &str, n: u64) {
        self.games += n;
        match outcome {
            "win" => self.wins += n,
            "loss" => self.losses += n,
            _ => self.draws += n,
        }
    }
}

/// One rated game of a user's rating history.
#[derive(Debug, Serialize)]
pub struct HistoryPoint {
    /// Variant id.
    pub variant: String,
    /// Speed id.
    pub speed: Option<String>,
    /// The game.
    pub game_id: String,
    /// When it ended, ms since the epoch.
    pub ended_ms: u64,
    /// The rating after it, rounded.
    pub rating: i64,
    /// Its change (rounded after minus rounded before).
    pub rating_diff: Option<i64>,
}

/// A user's page: the account, its ratings, its counts of finished games (all, rated) and its
/// rating history (its newest [`crate::store::ratings::HISTORY_MAX`] rated games, oldest first).
#[derive(Debug, Serialize)]
pub struct UserPage {
    /// `{"id", "name", "created_ms"}`.
    pub user: serde_json::Value,
    /// Every rating the account has.
    pub ratings: Vec<RatingView>,
    /// Finished games with a result.
    pub counts: Counts,
    /// The rated ones.
    pub rated_counts: Counts,
    /// The newest rated games ([`crate::store::ratings::HISTORY_MAX`] at most), oldest first.
    pub history: Vec<HistoryPoint>,
}

fn rating_view(r: RatingRecord) -> RatingView {
    RatingView {
        provisional: r.rating.provisional(),
        rating: r.rating.rating.round() as i64,
        deviation: r.rating.deviation.round() as i64,
        volatility: r.rating.volatility,
        games: r.games,
        variant: r.variant,
        speed: r.speed,
    }
}

/// The opponent in an archived game.
#[derive(Debug, Serialize)]
pub struct Opponent {
    /// The account's name, else the name the seat gave, else the engine's (`Crown engine
    /// (level N)`); `null` for a guest who gave none.
    pub name: Option<String>,
    /// Whether the seat was linked to an account.
    pub account: bool,
    /// `BOT` when that account played as a bot (it was a bot when its seat was taken); absent
    /// for a person.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<&'static str>,
}

/// One game of a user's archive.
#[derive(Debug, Serialize)]
pub struct ArchivedGame {
    /// Game id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// Rated or casual.
    pub rated: bool,
    /// Why a game created rated was played unrated (`same_network`, `pair_limit`, `too_short`,
    /// as the game's view says); `null` for a rated game and a casual one.
    pub unrated_reason: Option<String>,
    /// Speed id, `null` for an untimed game.
    pub speed: Option<String>,
    /// The user's colour.
    pub color: &'static str,
    /// The other seat.
    pub opponent: Opponent,
    /// PDN result (`1-0`, `0-1`, `1/2-1/2`).
    pub result: String,
    /// `win`, `draw` or `loss` for the user.
    pub outcome: String,
    /// Why the game ended (as the game's `outcome.reason`).
    pub reason: String,
    /// When it ended, ms since the epoch.
    pub ended_ms: u64,
    /// Plies played.
    pub plies: usize,
    /// The user's rating change (rated games), else `null`.
    pub rating_diff: Option<i64>,
}

/// The filters of a user's archive as given in the query (each checked by [`Ratings::archive`]).
#[derive(Debug, Default, serde::Deserialize)]
pub struct ArchiveQuery {
    /// `american`, `pool` or `impasse`.
    pub variant: Option<String>,
    /// `bullet`, `blitz`, `rapid` or `classical`.
    pub speed: Option<String>,
    /// `true` or `false`.
    pub rated: Option<String>,
    /// `win`, `draw` or `loss` (for the user).
    pub result: Option<String>,
    /// Page size.
    pub limit: Option<String>,
    /// Only games ended before this instant (ms since the epoch).
    pub before_ms: Option<String>,
}

/// One page of a user's archive: the games and the replayed games, and the `before_ms` of the
/// next page (`None`: no more).
pub struct Archive {
    /// The account's rows and the games, newest first.
    pub games: Vec<(PlayerGame, Live)>,
    /// Where the next page starts, if there is one.
    pub next_before_ms: Option<u64>,
}

/// The JSON of one archived game.
pub fn archived(p: &PlayerGame, live: &Live) -> ArchivedGame {
    let color: crown_core::Color = p.color.into();
    let meta = &live.rec.meta;
    let other = color.opposite();
    let account = meta.accounts.get(other);
    let name = account.map(|a| a.name.clone()).or_else(|| {
        match if other == crown_core::Color::Black {
            &meta.black
        } else {
            &meta.white
        } {
            crate::store::Seat::Engine { level } => Some(format!("Crown engine (level {level})")),
            crate::store::Seat::Human { .. } => meta.names.get(other).map(str::to_string),
        }
    });
    let outcome = live.outcome_view();
    ArchivedGame {
        id: p.game_id.clone(),
        variant: p.variant.clone(),
        rated: p.rated,
        unrated_reason: live.unrated_reason().map(str::to_string),
        speed: p.speed.clone(),
        color: color.name(),
        opponent: Opponent {
            name,
            account: account.is_some(),
            title: account.is_some_and(|a| a.bot).then_some("BOT"),
        },
        result: live.rec.result.clone().unwrap_or_else(|| "*".into()),
        outcome: p.outcome.clone(),
        reason: outcome.map(|o| o.reason).unwrap_or_default(),
        ended_ms: p.ended_ms,
        plies: live.rec.moves.len(),
        rating_diff: p.rating_diff(),
    }
}

/// The ratings feature: the store's ratings and players' finished games, read for the lobby, a
/// rated game's seats, the leaderboard, a user's page and a user's archive.
pub struct Ratings {
    store: Arc<dyn Store>,
    established: Established,
    per_pair_per_day: u32,
}

/// What a rated game about to begin between two accounts gets ([`Ratings::pregame`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pregame {
    /// It is rated: the players' ratings before it.
    Rated(GameRatings),
    /// It is played unrated, for this reason (`GameMeta::unrated`): `same_network` or
    /// `pair_limit`.
    Unrated(&'static str),
}

impl Ratings {
    /// The ratings of `store`; the leaderboard shows the ratings `established` enough
    /// ([`crate::config::Config::leaderboard_min_games`], `leaderboard_min_opponents`,
    /// `leaderboard_max_deviation`), and one pair of accounts begins at most `per_pair_per_day`
    /// rated games a day (0: no cap; [`crate::config::Config::rated_games_per_pair_per_day`]).
    pub fn new(store: Arc<dyn Store>, established: Established, per_pair_per_day: u32) -> Ratings {
        Ratings {
            store,
            established,
            per_pair_per_day,
        }
    }

    /// Run `f` on the store's ratings on a blocking thread.
    ///
    /// # Errors
    /// `accounts_unavailable` (503), `storage`.
    async fn with_ratings<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn RatingStore) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, Error> {
        let store = self.store.clone();
        blocking::store_part(move || store.ratings().map(f)).await
    }

    /// The current ratings of `keys` (`(user_id, variant, speed)`), in order: a player without a
    /// rated game of that variant and speed has a new player's (1500, RD 350, σ 0.06).
    ///
    /// # Errors
    /// `accounts_unavailable`, `storage`.
    pub async fn current(
        &self,
        keys: Vec<(String, String, String)>,
    ) -> Result<Vec<Glicko2>, Error> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let found = self.with_ratings(move |s| s.ratings_of(&keys)).await?;
        Ok(found
            .into_iter()
            .map(|r| r.map(|r| r.rating).unwrap_or_default())
            .collect())
    }

    /// Whether a rated game between the accounts `b` and `w` is rated, decided when its second
    /// seat is taken: not between two accounts of one sign-up network (`same_network`), nor
    /// beyond the pair's rated games of the last 24 hours (`pair_limit`); `None` when it is
    /// rated.
    ///
    /// # Errors
    /// `accounts_unavailable`, `storage`.
    async fn unrated_reason(&self, b: &str, w: &str) -> Result<Option<&'static str>, Error> {
        let (b, w) = (b.to_string(), w.to_string());
        let since =
            crate::games::live::now_ms().saturating_sub(crate::store::ratings::PAIR_WINDOW_MS);
        let pair = self
            .with_ratings(move |s| s.pair_history(&b, &w, since))
            .await?;
        let cap = u64::from(self.per_pair_per_day);
        Ok(if pair.same_network {
            Some("same_network")
        } else if cap > 0 && pair.recent_rated >= cap {
            Some("pair_limit")
        } else {
            None
        })
    }

    /// The pre-game ratings a rated game shows while it is played, taken when its second seat is
    /// taken: `users` are the seats' accounts (`(black, white)`), read for the game's variant and
    /// `speed` ([`Speed::of_game`]); or the reason it is played unrated ([`Pregame::Unrated`]: the accounts
    /// signed up from one network, or the pair's rated games of the day are used up). `None`
    /// unless the game is timed (a clock or days per move) and both accounts are known.
    ///
    /// # Errors
    /// `accounts_unavailable`, `storage`.
    pub async fn pregame(
        &self,
        variant: &str,
        speed: Option<Speed>,
        users: (Option<&SeatAccount>, Option<&SeatAccount>),
    ) -> Result<Option<Pregame>, Error> {
        let (Some(speed), (Some(b), Some(w))) = (speed, users) else {
            return Ok(None);
        };
        if let Some(reason) = self.unrated_reason(&b.user_id, &w.user_id).await? {
            return Ok(Some(Pregame::Unrated(reason)));
        }
        let speed = speed.name().to_string();
        let key = |a: &SeatAccount| (a.user_id.clone(), variant.to_string(), speed.clone());
        let r = self.current(vec![key(b), key(w)]).await?;
        let seat = |before| SeatRating {
            before,
            after: None,
        };
        Ok(Some(Pregame::Rated(GameRatings {
            black: seat(r[0]),
            white: seat(r[1]),
        })))
    }

    /// The leaderboard of `variant` and `speed`: every account whose rating of them is
    /// established (enough rated games against enough different accounts, not provisional), best
    /// first, at most `limit`.
    ///
    /// # Errors
    /// `bad_variant`, `bad_speed` (400), `accounts_unavailable`, `storage`.
    pub async fn leaderboard(
        &self,
        variant: String,
        speed: String,
        limit: usize,
    ) -> Result<Vec<Ranked>, Error> {
        check_variant(&variant)?;
        check_speed(&speed)?;
        let established = self.established;
        let rows = self
            .with_ratings(move |s| s.leaderboard(&variant, &speed, &established, limit))
            .await?;
        // The bots among them, marked BOT (docs/api.md, "Bot accounts").
        let (store, ids) = (
            self.store.clone(),
            rows.iter()
                .map(|(_, r)| r.user_id.clone())
                .collect::<Vec<_>>(),
        );
        let bots = blocking::store(move || {
            store
                .tokens()
                .map_or(Ok(Vec::new()), |t| t.bots_among(&ids))
        })
        .await?;
        Ok(rows
            .into_iter()
            .enumerate()
            .map(|(i, (name, r))| Ranked {
                rank: i + 1,
                title: bots.contains(&r.user_id).then_some("BOT"),
                name,
                rating: r.rating.rating.round() as i64,
                deviation: r.rating.deviation.round() as i64,
                games: r.games,
                provisional: r.rating.provisional(),
            })
            .collect())
    }

    /// The account named `name` (any case).
    ///
    /// # Errors
    /// `404 not_found`, `accounts_unavailable`, `storage`.
    pub async fn user_named(&self, name: &str) -> Result<UserRecord, Error> {
        let key = crate::accounts::name_key(name);
        let store = self.store.clone();
        let user =
            blocking::store_part(move || store.accounts().map(|a| a.user_by_name(&key))).await?;
        user.ok_or_else(|| {
            Error::new(
                ErrorKind::NotFound,
                "not_found",
                format!("no user named {}", crate::error::echo(name)),
            )
        })
    }

    /// The page of the user named `name`.
    ///
    /// # Errors
    /// `404 not_found`, `accounts_unavailable`, `storage`.
    pub async fn user_page(&self, name: &str) -> Result<UserPage, Error> {
        let u = self.user_named(name).await?;
        let id = u.id.clone();
        let (ratings, counts, history) = self
            .with_ratings(move |s| {
                Ok((
                    s.user_ratings(&id)?,
                    s.outcome_counts(&id)?,
                    s.rating_history(&id, crate::store::ratings::HISTORY_MAX)?,
                ))
            })
            .await?;
        let mut all = Counts::default();
        let mut rated = Counts::default();
        for (r, outcome, n) in counts {
            all.add(&outcome, n);
            if r {
                rated.add(&outcome, n);
            }
        }
        Ok(UserPage {
            user: serde_json::json!({"id": u.id, "name": u.name, "created_ms": u.created_ms}),
            ratings: ratings.into_iter().map(rating_view).collect(),
            counts: all,
            rated_counts: rated,
            history: history
                .into_iter()
                .map(|p| HistoryPoint {
                    rating: p.after.map_or(0, |a| a.rating.round() as i64),
                    rating_diff: p.rating_diff(),
                    variant: p.variant,
                    speed: p.speed,
                    game_id: p.game_id,
                    ended_ms: p.ended_ms,
                })
                .collect(),
        })
    }

    /// The finished games of the user named `name` matching `q`, newest first, at most the query's
    /// `limit` (`default` when absent, at most `max`), among the newest [`ARCHIVE_SCAN`] games of
    /// the user before the query's `before_ms` (and the rest of the oldest one's millisecond):
    /// a page may hold fewer than `limit` games, or none, and still have a next page. A private casual game is listed only when
    /// `viewer` is that account. Games ending in the same millisecond are never split between two
    /// pages: a page ends before them, or, when more than `limit` games ended in that millisecond,
    /// the page is all of them (longer than `limit`).
    ///
    /// # Errors
    /// `bad_variant`, `bad_speed`, `bad_rated`, `bad_result`, `bad_limit`, `bad_before_ms` (400),
    /// `not_found` (404), `accounts_unavailable`, `storage`.
    pub async fn archive(
        &self,
        name: &str,
        q: &ArchiveQuery,
        viewer: Option<&SeatAccount>,
        (default, max): (usize, usize),
    ) -> Result<Archive, Error> {
        if let Some(v) = &q.variant {
            check_variant(v)?;
        }
        if let Some(s) = &q.speed {
            check_speed(s)?;
        }
        let rated = match q.rated.as_deref() {
            None => None,
            Some("true") => Some(true),
            Some("false") => Some(false),
            Some(r) => return Err(one_of("bad_rated", "rated", r, &["true", "false"])),
        };
        if let Some(r) = &q.result {
            if !["win", "draw", "loss"].contains(&r.as_str()) {
                return Err(one_of("bad_result", "result", r, &["win", "draw", "loss"]));
            }
        }
        let limit = check_limit(q.limit.as_deref(), default, max)?;
        let before_ms = check_before_ms(q.before_ms.as_deref())?;
        let u = self.user_named(name).await?;
        // The window this page reads: the newest `ARCHIVE_SCAN` games before `before_ms`, and
        // every game of the oldest one's millisecond (`since_ms`).
        let (id, scan) = (u.id.clone(), ARCHIVE_SCAN - 1);
        let since_ms = self
            .with_ratings(move |s| s.scan_edge(&id, before_ms, scan))
            .await?;
        let filter = GameFilter {
            variant: q.variant.clone(),
            speed: q.speed.clone(),
            rated,
            outcome: q.result.clone(),
            before_ms,
            since_ms,
            include_private: viewer.is_some_and(|v| v.user_id == u.id),
            limit: limit + 1,
        };
        let filter_all = filter.clone();
        let id = u.id.clone();
        let mut rows = self
            .with_ratings(move |s| s.player_games(&id, &filter))
            .await?;
        // Without more matching games in the window, the next page starts where it ends.
        let mut next_before_ms = since_ms;
        if rows.len() > limit {
            let edge = rows[limit].ended_ms;
            rows.truncate(limit);
            // Never split one millisecond's games between two pages.
            let keep = rows.iter().take_while(|r| r.ended_ms > edge).count();
            if keep > 0 {
                rows.truncate(keep);
            } else {
                // More than `limit` games ended in this millisecond: the page is all of them
                // (at most `ARCHIVE_SCAN`).
                let (id, mut all) = (u.id.clone(), filter_all.clone());
                all.before_ms = Some(edge.saturating_add(1));
                all.since_ms = Some(edge);
                all.limit = ARCHIVE_SCAN;
                rows = self
                    .with_ratings(move |s| s.player_games(&id, &all))
                    .await?;
            }
            next_before_ms = Some(
                edge.saturating_add(1)
                    .min(rows.last().map_or(edge, |r| r.ended_ms)),
            );
        }
        let ids: Vec<String> = rows.iter().map(|r| r.game_id.clone()).collect();
        let store = self.store.clone();
        let recs = blocking::store(move || store.load_many(&ids)).await?;
        let mut by_id: std::collections::HashMap<String, Live> = recs
            .into_iter()
            .filter_map(|r| Live::from_record(r).ok())
            .map(|l| (l.rec.id.clone(), l))
            .collect();
        let games = rows
            .into_iter()
            .filter_map(|r| {
                let live = by_id.remove(&r.game_id)?;
                Some((r, live))
            })
            .collect();
        Ok(Archive {
            games,
            next_before_ms,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Speed;
    use crate::store::TimeControl;

    fn tc(initial_s: u64, increment_s: u64) -> TimeControl {
        TimeControl {
            initial_ms: initial_s * 1000,
            increment_ms: increment_s * 1000,
        }
    }

    #[test]
    fn the_speed_boundaries_follow_the_estimated_duration() {
        // Each boundary from both sides: 179 s is bullet, 180 s blitz, and so on.
        assert_eq!(Speed::of(tc(60, 2)), Speed::Bullet); // 60 + 80 = 140
        assert_eq!(Speed::of(tc(179, 0)), Speed::Bullet);
        assert_eq!(Speed::of(tc(180, 0)), Speed::Blitz);
        assert_eq!(Speed::of(tc(100, 2)), Speed::Blitz); // 100 + 80 = 180
        assert_eq!(Speed::of(tc(479, 0)), Speed::Blitz);
        assert_eq!(Speed::of(tc(400, 2)), Speed::Rapid); // 400 + 80 = 480
        assert_eq!(Speed::of(tc(1499, 0)), Speed::Rapid);
        assert_eq!(Speed::of(tc(900, 15)), Speed::Classical); // 900 + 600 = 1500
        assert_eq!(Speed::Classical.name(), "classical");
        assert_eq!(super::speed_named("rapid"), Some(Speed::Rapid));
        assert_eq!(super::speed_named("Rapid"), None);
        // Days per move make a correspondence game, whatever else it has.
        assert_eq!(Speed::of_game(None, Some(3)), Some(Speed::Correspondence));
        assert_eq!(Speed::of_game(Some(tc(180, 0)), None), Some(Speed::Blitz));
        assert_eq!(Speed::of_game(None, None), None);
        assert_eq!(
            super::speed_named("correspondence"),
            Some(Speed::Correspondence)
        );
    }

    #[test]
    fn pdn_tags_carry_pre_game_ratings_and_signed_diffs() {
        use crate::store::{GameRatings, SeatRating};
        use crown_rating::glicko::Glicko2;
        let mut meta: crate::store::GameMeta = serde_json::from_str(
            r#"{"black":{"kind":"human","token_sha256":null},
                "white":{"kind":"human","token_sha256":null},"time_control":null,
                "clock_ms":[0,0],"turn_started_ms":0,"declared":null,"draw_offer":null,
                "takeback_request":null}"#,
        )
        .unwrap();
        assert!(super::pdn_tags(&meta).is_empty());
        let g = |r| Glicko2::new(r, 300.0, 0.06);
        meta.rated = true;
        meta.ratings = Some(GameRatings {
            black: SeatRating {
                before: g(1500.4),
                after: None,
            },
            white: SeatRating {
                before: g(1499.6),
                after: None,
            },
        });
        let tags = super::pdn_tags(&meta);
        assert_eq!(
            tags,
            [("WhiteElo", "1500".into()), ("BlackElo", "1500".into())]
        );
        let r = meta.ratings.as_mut().unwrap();
        r.black.after = Some(g(1337.7)); // 1338 - 1500
        r.white.after = Some(g(1500.2)); // 1500 - 1500
        let tags = super::pdn_tags(&meta);
        assert_eq!(tags[2], ("WhiteRatingDiff", "+0".to_string()));
        assert_eq!(tags[3], ("BlackRatingDiff", "-162".to_string()));
    }
}

//! The Watch page's games (docs/api.md, `GET /api/tv`; lichess's TV as the model): the ongoing
//! listed games (public or rated, as `GET /api/games` lists them), highest rated first, and the
//! game of the day, the highest-rated decisive rated game finished today (UTC).
//!
//! Cheap by construction: each list is one read of at most [`CANDIDATES`] rows on the store's
//! index of the listed games (`games_listed`: the unlisted ones are not read,
//! [`crate::store::Store::listed`]), the most recently changed first; the ranking is done on
//! those rows in memory. So with more ongoing games than [`CANDIDATES`], the list ranks the most
//! recently active of them (a game whose last move is older is less worth watching anyway). And
//! the answer is read once per [`TV_CACHE_MS`] for the whole server ([`TvCache`]), however many
//! viewers poll it.

use crate::error::Error;
use crate::games::Games;
use crate::store::{GameMeta, GameSummary, Seat};
use crown_core::Color;
use serde::Serialize;

/// The rows each list reads from the store at most (the ongoing games, today's finished ones).
pub const CANDIDATES: usize = 200;

/// The ongoing games listed at most.
pub const MAX_GAMES: usize = 30;

/// How long one answer of `GET /api/tv` is served to every request before the store is read
/// again, in ms.
pub const TV_CACHE_MS: u64 = 3_000;

/// One day in ms: the game of the day is one finished since the start of the current UTC day.
const DAY_MS: u64 = 86_400_000;

/// One player of a watched game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WatchPlayer {
    /// The seat's account name, else the name the seat gave, else `Crown engine (level N)`,
    /// else `null`.
    pub name: Option<String>,
    /// Whether the seat is linked to an account.
    pub account: bool,
    /// Whether that account played as a bot (`BOT`).
    pub bot: bool,
    /// The player's rounded pre-game rating in a rated game, else `null`.
    pub rating: Option<i64>,
}

/// One game of the Watch page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WatchedGame {
    /// Game id (follow it with `GET /api/games/{id}/ws`).
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// `bullet`, `blitz`, `rapid`, `classical`, `correspondence`; `null` when untimed.
    pub speed: Option<&'static str>,
    /// Whether the game is rated.
    pub rated: bool,
    /// `ongoing` or `finished`.
    pub status: String,
    /// The PDN result once finished, else `null`.
    pub result: Option<String>,
    /// Plies played.
    pub plies: u64,
    /// The mean of the players' rounded pre-game ratings (rounded), the key of the order;
    /// `null` in a casual game.
    pub rating: Option<i64>,
    /// Black's player.
    pub black: WatchPlayer,
    /// White's player.
    pub white: WatchPlayer,
    /// Last change, ms since the Unix epoch.
    pub updated_ms: u64,
}

/// The answer of `GET /api/tv`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Tv {
    /// The ongoing listed games, highest rated first, then the casual ones, the most recently
    /// changed first; at most [`MAX_GAMES`].
    pub games: Vec<WatchedGame>,
    /// The highest-rated decisive (`1-0`, `0-1`) rated game finished since the start of the
    /// current UTC day, `null` if none.
    pub game_of_the_day: Option<WatchedGame>,
}

/// The player of `color`'s seat in `meta`.
fn player(meta: &GameMeta, color: Color) -> WatchPlayer {
    let account = meta.accounts.get(color);
    let seat = if color == Color::Black {
        &meta.black
    } else {
        &meta.white
    };
    let name = account.map(|a| a.name.clone()).or_else(|| match seat {
        Seat::Engine { level } => Some(format!("Crown engine (level {level})")),
        Seat::Human { .. } => meta.names.get(color).map(str::to_string),
    });
    WatchPlayer {
        name,
        account: account.is_some(),
        bot: account.is_some_and(|a| a.bot),
        rating: meta
            .ratings
            .filter(|_| meta.rated && meta.unrated.is_none())
            .map(|r| r.get(color).shown()),
    }
}

/// The Watch page's view of a listed game.
fn watched(s: GameSummary, meta: &GameMeta) -> WatchedGame {
    let black = player(meta, Color::Black);
    let white = player(meta, Color::White);
    let rating = match (black.rating, white.rating) {
        (Some(b), Some(w)) => Some(((b + w) as f64 / 2.0).round() as i64),
        _ => None,
    };
    WatchedGame {
        id: s.id,
        variant: s.variant,
        speed: meta.speed().map(|sp| sp.name()),
        rated: s.rated,
        status: s.status,
        result: s.result,
        plies: s.plies,
        rating,
        black,
        white,
        updated_ms: s.updated_ms,
    }
}

/// Rank `ongoing` (the most recently changed first) for the Watch page: rated games by
/// [`WatchedGame::rating`], highest first, then the casual ones; within each, the order given
/// (the sort is stable). At most [`MAX_GAMES`].
pub fn rank(mut ongoing: Vec<WatchedGame>) -> Vec<WatchedGame> {
    ongoing.sort_by_key(|g| std::cmp::Reverse(g.rating.map_or(i64::MIN, |r| r)));
    ongoing.truncate(MAX_GAMES);
    ongoing
}

/// The game of the day among `finished` (today's finished listed games, the most recently
/// changed first): the rated decisive game with the highest [`WatchedGame::rating`], the most
/// recent of equals.
pub fn game_of_the_day(finished: Vec<WatchedGame>) -> Option<WatchedGame> {
    let mut best: Option<WatchedGame> = None;
    for g in finished {
        let decisive = matches!(g.result.as_deref(), Some("1-0") | Some("0-1"));
        let Some(r) = g.rating.filter(|_| g.rated && decisive) else {
            continue;
        };
        if best.as_ref().and_then(|b| b.rating).is_none_or(|b| r > b) {
            best = Some(g);
        }
    }
    best
}

/// The Watch page at `now_ms` (ms since the Unix epoch): [`Tv`], from two bounded reads of the
/// store.
///
/// # Errors
/// `storage` if the store cannot be read.
pub async fn tv(games: &Games, now_ms: u64) -> Result<Tv, Error> {
    let store = games.store.clone();
    let day_start = now_ms - now_ms % DAY_MS;
    let (ongoing, finished) = crate::blocking::store(move || {
        let ongoing = store.listed(Some("ongoing"), 0, CANDIDATES)?;
        let finished = store.listed(Some("finished"), day_start, CANDIDATES)?;
        Ok((ongoing, finished))
    })
    .await?;
    let view = |rows: Vec<(GameSummary, GameMeta)>| -> Vec<WatchedGame> {
        rows.into_iter().map(|(s, m)| watched(s, &m)).collect()
    };
    Ok(Tv {
        games: rank(view(ongoing)),
        game_of_the_day: game_of_the_day(view(finished)),
    })
}

/// The server-wide answer of `GET /api/tv`: read at most once per [`TV_CACHE_MS`], and
/// concurrent requests for a stale answer wait for one read (single flight) instead of each
/// reading the store.
#[derive(Default)]
pub struct TvCache(tokio::sync::Mutex<Option<(u64, Tv)>>);

impl TvCache {
    /// The answer at `now_ms`: the one read less than [`TV_CACHE_MS`] before, else the one
    /// `read` gives (kept for the next requests; an error is not kept).
    ///
    /// # Errors
    /// `read`'s.
    pub async fn get<F>(&self, now_ms: u64, read: F) -> Result<Tv, Error>
    where
        F: std::future::Future<Output = Result<Tv, Error>>,
    {
        let mut slot = self.0.lock().await;
        if let Some((at, tv)) = slot.as_ref() {
            if now_ms.saturating_sub(*at) < TV_CACHE_MS {
                return Ok(tv.clone());
            }
        }
        let tv = read.await?;
        *slot = Some((now_ms, tv.clone()));
        Ok(tv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn concurrent_requests_share_one_read_until_the_answer_is_stale() {
        let cache = TvCache::default();
        let reads = std::sync::atomic::AtomicUsize::new(0);
        let read = |n: usize| {
            let reads = &reads;
            async move {
                reads.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                // Let the other requests reach the cache while this read is in flight.
                for _ in 0..10 {
                    tokio::task::yield_now().await;
                }
                Ok(Tv {
                    games: Vec::new(),
                    game_of_the_day: (n > 0).then(|| game(&n.to_string(), Some(1500), Some("1-0"))),
                })
            }
        };
        let day = |tv: Tv| tv.game_of_the_day.map(|g| g.id);
        let (a, b, c, d) = tokio::join!(
            cache.get(1_000, read(1)),
            cache.get(1_000, read(2)),
            cache.get(1_001, read(3)),
            cache.get(1_002, read(4)),
        );
        assert_eq!(reads.load(std::sync::atomic::Ordering::SeqCst), 1);
        for tv in [a, b, c, d] {
            assert_eq!(day(tv.unwrap()).as_deref(), Some("1"));
        }
        // Still fresh 1 ms before TV_CACHE_MS; read again at TV_CACHE_MS.
        let fresh = cache.get(1_000 + TV_CACHE_MS - 1, read(5)).await.unwrap();
        assert_eq!(day(fresh).as_deref(), Some("1"));
        let again = cache.get(1_000 + TV_CACHE_MS, read(6)).await.unwrap();
        assert_eq!(day(again).as_deref(), Some("6"));
        assert_eq!(reads.load(std::sync::atomic::Ordering::SeqCst), 2);
        // A failed read is not kept: the next request reads.
        let failed = cache
            .get(10_000, async { Err(Error::storage("down")) })
            .await;
        assert!(failed.is_err());
        let after = cache.get(10_000, read(7)).await.unwrap();
        assert_eq!(day(after).as_deref(), Some("7"));
    }

    fn game(id: &str, rating: Option<i64>, result: Option<&str>) -> WatchedGame {
        let p = WatchPlayer {
            name: None,
            account: rating.is_some(),
            bot: false,
            rating,
        };
        WatchedGame {
            id: id.into(),
            variant: "american".into(),
            speed: Some("blitz"),
            rated: rating.is_some(),
            status: if result.is_some() {
                "finished"
            } else {
                "ongoing"
            }
            .into(),
            result: result.map(str::to_string),
            plies: 10,
            rating,
            black: p.clone(),
            white: p,
            updated_ms: 0,
        }
    }

    fn ids(games: &[WatchedGame]) -> Vec<&str> {
        games.iter().map(|g| g.id.as_str()).collect()
    }

    #[test]
    fn rated_games_come_highest_first_and_casual_ones_after_in_their_order() {
        let ranked = rank(vec![
            game("casual-new", None, None),
            game("r1500", Some(1500), None),
            game("casual-old", None, None),
            game("r1800", Some(1800), None),
            game("r1500-older", Some(1500), None),
        ]);
        assert_eq!(
            ids(&ranked),
            ["r1800", "r1500", "r1500-older", "casual-new", "casual-old"]
        );
    }

    #[test]
    fn the_list_is_capped() {
        let many = (0..MAX_GAMES + 5)
            .map(|i| game(&i.to_string(), Some(i as i64), None))
            .collect();
        let ranked = rank(many);
        assert_eq!(ranked.len(), MAX_GAMES);
        assert_eq!(ranked[0].id, (MAX_GAMES + 4).to_string());
    }

    #[test]
    fn the_game_of_the_day_is_the_highest_rated_decisive_rated_game() {
        let best = game_of_the_day(vec![
            game("draw-2000", Some(2000), Some("1/2-1/2")),
            game("casual-win", None, Some("1-0")),
            game("win-1600", Some(1600), Some("0-1")),
            game("win-1700", Some(1700), Some("1-0")),
            game("win-1700-older", Some(1700), Some("0-1")),
        ]);
        assert_eq!(best.map(|g| g.id), Some("win-1700".to_string()));
        assert_eq!(
            game_of_the_day(vec![game("draw", Some(2000), Some("1/2-1/2"))]),
            None
        );
    }

    #[test]
    fn a_game_rating_is_the_mean_of_the_players_ratings() {
        let mut meta: GameMeta = serde_json::from_value(serde_json::json!({
            "black": {"kind": "human", "token_sha256": null},
            "white": {"kind": "engine", "level": 3},
            "time_control": null, "clock_ms": [0, 0], "turn_started_ms": 0,
            "declared": null, "draw_offer": null, "takeback_request": null
        }))
        .unwrap();
        let s = GameSummary {
            id: "g".into(),
            variant: "american".into(),
            status: "ongoing".into(),
            result: None,
            rated: false,
            plies: 0,
            created_ms: 0,
            updated_ms: 0,
        };
        let w = watched(s.clone(), &meta);
        assert_eq!(w.white.name.as_deref(), Some("Crown engine (level 3)"));
        assert_eq!((w.black.name.clone(), w.rating), (None, None));
        let g = |r: f64| crown_rating::glicko::Glicko2 {
            rating: r,
            ..Default::default()
        };
        meta.rated = true;
        meta.ratings = Some(crate::store::GameRatings {
            black: crate::store::SeatRating {
                before: g(1500.4),
                after: None,
            },
            white: crate::store::SeatRating {
                before: g(1601.0),
                after: None,
            },
        });
        let w = watched(s, &meta);
        // 1500 and 1601: (1500 + 1601) / 2 = 1550.5, rounded away from zero.
        assert_eq!(
            (w.black.rating, w.white.rating, w.rating),
            (Some(1500), Some(1601), Some(1551))
        );
    }
}

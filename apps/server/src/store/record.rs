//! The records kept by every [`super::Store`]: a game (row and moves), its seats, clocks and
//! offers, the list summary, and chat messages.

use serde::{Deserialize, Serialize};

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Seat {
    /// A person identified by a secret token; `token_sha256` is `None` while the seat is open.
    Human {
        /// SHA-256 (hex) of the seat's secret token, `None` until someone joins. Only the hash is
        /// stored, so a copy of the database does not reveal the tokens.
        token_sha256: Option<String>,
    },
    /// The server's engine at a casual level 1..=10.
    Engine {
        /// Playing level 1..=10.
        level: u8,
    },
}

/// A time control: `initial_ms` on each clock, `increment_ms` added after each move (Fischer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Starting time on each clock, in ms.
    pub initial_ms: u64,
    /// Time added to a player's clock after each of their moves, in ms.
    pub increment_ms: u64,
}

/// The speed class of a time control; a user has one rating per variant and speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Speed {
    /// Estimated duration under 180 s.
    Bullet,
    /// Estimated duration 180 s to under 480 s.
    Blitz,
    /// Estimated duration 480 s to under 1500 s.
    Rapid,
    /// Estimated duration 1500 s or more.
    Classical,
    /// A correspondence game: days per move instead of a clock ([`GameMeta::days`]).
    Correspondence,
}

/// The days per move a correspondence game may give ([`GameMeta::days`]).
pub const CORRESPONDENCE_DAYS: [u32; 6] = [1, 2, 3, 5, 7, 14];

/// One day in ms: a correspondence game's move deadline is its days times this.
pub const DAY_MS: u64 = 86_400_000;

impl Speed {
    /// The speed of `tc`: estimated duration = initial seconds + 40 x increment seconds
    /// (lichess's rule), bullet < 180 s, blitz < 480 s, rapid < 1500 s, classical otherwise.
    pub fn of(tc: TimeControl) -> Speed {
        // In ms, so that fractions of a second are not rounded away.
        let ms = tc
            .initial_ms
            .saturating_add(tc.increment_ms.saturating_mul(40));
        match ms {
            m if m < 180_000 => Speed::Bullet,
            m if m < 480_000 => Speed::Blitz,
            m if m < 1_500_000 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }

    /// The speed's id in the API: `bullet`, `blitz`, `rapid`, `classical` or `correspondence`.
    pub fn name(self) -> &'static str {
        match self {
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }

    /// The speed of a game with clock `tc` or `days` per move (a correspondence game:
    /// [`Speed::Correspondence`]); `None` for an untimed game.
    pub fn of_game(tc: Option<TimeControl>, days: Option<u32>) -> Option<Speed> {
        if days.is_some() {
            Some(Speed::Correspondence)
        } else {
            tc.map(Speed::of)
        }
    }
}

/// A result set by the players or the clock rather than by the board (the board's results are
/// recomputed by replaying the moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Declared {
    /// `color` (`black`/`white`) resigned.
    Resigned {
        /// Who resigned.
        color: Side,
    },
    /// `color` ran out of time.
    Timeout {
        /// Whose flag fell.
        color: Side,
    },
    /// Both players agreed to a draw.
    AgreedDraw,
    /// The game ended before anyone joined it: withdrawn by its creator (`expired: false`) or
    /// expired because nobody joined in time (`expired: true`). No result; status `finished`.
    Cancelled {
        /// Whether the server expired it (rather than the creator cancelling it).
        expired: bool,
    },
    /// The server ended an untimed game whose side to move, `color`, made no move within
    /// `Config::abandon_after_ms` (docs/api.md, limits). No result (`*`); status `finished`.
    Abandoned {
        /// The side that was to move.
        color: Side,
    },
    /// The game ended before both sides had made their first move (docs/api.md, "Aborted
    /// games"): `color` aborted it (`requested: true`) or, in a timed game between two people,
    /// did not make its first move within `Config::abort_after_ms` (`requested: false`). No
    /// result (`*`); status `aborted`.
    Aborted {
        /// Who aborted, or who did not move in time.
        color: Side,
        /// Whether `color` asked for it (`POST /api/games/{id}/abort`).
        requested: bool,
    },
}

/// The statuses of a game that is over: `finished` (a result, or cancelled/abandoned with none)
/// and `aborted` (ended before both sides moved, no result).
pub const OVER_STATUSES: [&str; 2] = ["finished", "aborted"];

/// Whether a game with `status` is over (`finished` or `aborted`): no seat acts on it any more.
pub fn is_over(status: &str) -> bool {
    OVER_STATUSES.contains(&status)
}

/// A colour as stored: `"black"` or `"white"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// Black.
    Black,
    /// White.
    White,
}

impl From<crown_core::Color> for Side {
    fn from(c: crown_core::Color) -> Self {
        match c {
            crown_core::Color::Black => Side::Black,
            crown_core::Color::White => Side::White,
        }
    }
}

impl From<Side> for crown_core::Color {
    fn from(c: Side) -> Self {
        match c {
            Side::Black => crown_core::Color::Black,
            Side::White => crown_core::Color::White,
        }
    }
}

/// One stored move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The move in Crown notation as written by `Position::move_text` (full path when ambiguous),
    /// which `Position::parse_move` reads back.
    pub text: String,
    /// When it was played, ms since the Unix epoch.
    pub at_ms: u64,
}

/// Everything about a game except its moves, stored as JSON in the game's row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameMeta {
    /// Black's seat.
    pub black: Seat,
    /// White's seat.
    pub white: Seat,
    /// The time control, `None` for untimed and correspondence games.
    pub time_control: Option<TimeControl>,
    /// A correspondence game's days per move (one of [`CORRESPONDENCE_DAYS`]; docs/api.md,
    /// "Correspondence games"): no clock runs, the side to move must move within this many days
    /// of the start of its turn (`turn_started_ms`) or loses on time. Absent (and in games
    /// stored before this field existed): not a correspondence game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<u32>,
    /// Remaining time in ms: `[black, white]`. For the side to move this is the time left when
    /// its turn started at `turn_started_ms`.
    pub clock_ms: [u64; 2],
    /// When the current turn started (ms since the Unix epoch); 0 while no turn runs (open seat
    /// or game over). A side's clock runs from here only once that side has made its first move
    /// (before it, this times the first move for `abort_after_ms`).
    pub turn_started_ms: u64,
    /// Result declared by resignation, agreement or time.
    pub declared: Option<Declared>,
    /// The colour with a standing draw offer.
    pub draw_offer: Option<Side>,
    /// The colour that asked to take back its last move.
    pub takeback_request: Option<Side>,
    /// A public seek (listed while open) rather than a private, link-only game. Absent in games
    /// stored before this field existed: private.
    #[serde(default)]
    pub public: bool,
    /// The players' names as they gave them (at most 40 characters each; absent: unnamed).
    #[serde(default, skip_serializing_if = "PlayerNames::is_empty")]
    pub names: PlayerNames,
    /// The rematch offered after this game ended, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<Rematch>,
    /// This game is a rematch whose open seat belongs to the finished game's opponent: only
    /// `POST /api/games/{finished}/rematch` with that opponent's token takes it, never a plain
    /// join (`409 seat_reserved`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reserved: bool,
    /// In a timed game between two people, a side that has not made its first move within this
    /// time of the start of its turn aborts the game (`Config::abort_after_ms`, set when the
    /// game is created), in ms; 0 (and games stored before this field existed): never.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub abort_after_ms: u64,
    /// A rated game (`"rated": true` at creation): both seats linked to two different accounts,
    /// timed, from the standard start, between two people. Absent in games stored before this
    /// field existed: casual.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// Why a game created rated is played unrated, decided when its second seat was taken
    /// (docs/api.md, "Ratings"): `"same_network"` (both accounts signed up from one network)
    /// or `"pair_limit"` (the pair's rated games of the last 24 hours reached
    /// `Config::rated_games_per_pair_per_day`). Absent: no such reason (and in casual games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unrated: Option<String>,
    /// The plies a rated game must reach to change the ratings (`Config::rated_min_plies`, set
    /// when the game is created); 0 (and games stored before this field existed): each side's
    /// first move ([`crate::store::ratings::RATED_MIN_PLIES`]), which is also the least.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub rated_min_plies: u32,
    /// The accounts the seats are linked to: a seat taken by a request with a valid session
    /// cookie. Absent (and in games stored before this field existed): guests.
    #[serde(default, skip_serializing_if = "SeatAccounts::is_empty")]
    pub accounts: SeatAccounts,
    /// A rated game's ratings (docs/api.md, "Ratings"): each player's rating of the game's
    /// variant and speed when the game started, replaced by the one the update used and joined
    /// by the new one when the game ends (in the transaction of the finishing save). Absent in
    /// casual games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<GameRatings>,
    /// The APCA count claims of a pool game (rules 27 and 28; docs/api.md, "APCA counts"), in
    /// the order made: replaying the moves makes each again at its ply, so the running count
    /// survives a restart. Absent (and in games stored before this field existed): none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counts: Vec<CountClaim>,
}

/// One APCA count claim of a pool game ([`GameMeta::counts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountClaim {
    /// Plies played when it was claimed: the count starts from the position after them.
    pub ply: usize,
    /// The side that claimed it, whose moves are counted.
    pub color: Side,
    /// The APCA rule: 27 (the 38-move count) or 28 (the 13-move count).
    pub rule: u8,
}

/// The ratings of a rated game's two players ([`GameMeta::ratings`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRatings {
    /// Black's.
    pub black: SeatRating,
    /// White's.
    pub white: SeatRating,
}

impl GameMeta {
    /// The game's speed class ([`Speed::of_game`]): `None` for an untimed game.
    pub fn speed(&self) -> Option<Speed> {
        Speed::of_game(self.time_control, self.days)
    }
}

impl Eq for GameRatings {}

impl GameRatings {
    /// The rating of `color`'s player.
    pub fn get(&self, color: crown_core::Color) -> &SeatRating {
        match color {
            crown_core::Color::Black => &self.black,
            crown_core::Color::White => &self.white,
        }
    }
}

/// One player's rating in a rated game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatRating {
    /// The pre-game rating (Glicko-2 scale).
    pub before: crown_rating::glicko::Glicko2,
    /// The rating after the game, once it ended with a result and was rated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<crown_rating::glicko::Glicko2>,
}

impl SeatRating {
    /// The pre-game rating rounded to an integer (as shown and written in PDN).
    pub fn shown(&self) -> i64 {
        self.before.rating.round() as i64
    }

    /// The change shown once rated: the rounded new rating minus the rounded old one (so that
    /// `shown() + diff` is the new rating shown), `None` before.
    pub fn diff(&self) -> Option<i64> {
        self.after
            .map(|a| a.rating.round() as i64 - self.before.rating.round() as i64)
    }
}

/// The account a seat is linked to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatAccount {
    /// The account's id ([`crate::store::UserRecord::id`]).
    pub user_id: String,
    /// The account's name when the seat was taken.
    pub name: String,
    /// Whether the account was a bot when the seat was taken (shown as `BOT`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
}

/// The accounts linked to a game's seats.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatAccounts {
    /// Black's account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black: Option<SeatAccount>,
    /// White's account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white: Option<SeatAccount>,
}

impl SeatAccounts {
    /// Whether neither seat is linked.
    pub fn is_empty(&self) -> bool {
        self.black.is_none() && self.white.is_none()
    }

    /// The account of `color`'s seat.
    pub fn get(&self, color: crown_core::Color) -> Option<&SeatAccount> {
        match color {
            crown_core::Color::Black => self.black.as_ref(),
            crown_core::Color::White => self.white.as_ref(),
        }
    }

    /// Link `color`'s seat to `account`.
    pub fn set(&mut self, color: crown_core::Color, account: Option<SeatAccount>) {
        match color {
            crown_core::Color::Black => self.black = account,
            crown_core::Color::White => self.white = account,
        }
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Whether `n` is 0 (a `u32` field left out of the JSON).
fn is_zero_u32(n: &u32) -> bool {
    *n == 0
}

/// The names players gave for their seats (display only; never used to identify anyone).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerNames {
    /// Black's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black: Option<String>,
    /// White's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white: Option<String>,
}

impl PlayerNames {
    /// Whether neither seat has a name.
    pub fn is_empty(&self) -> bool {
        self.black.is_none() && self.white.is_none()
    }

    /// The name of `color`'s seat.
    pub fn get(&self, color: crown_core::Color) -> Option<&str> {
        match color {
            crown_core::Color::Black => self.black.as_deref(),
            crown_core::Color::White => self.white.as_deref(),
        }
    }

    /// Set the name of `color`'s seat.
    pub fn set(&mut self, color: crown_core::Color, name: Option<String>) {
        match color {
            crown_core::Color::Black => self.black = name,
            crown_core::Color::White => self.white = name,
        }
    }
}

/// A rematch of a finished game: the new game's id and who asked for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rematch {
    /// Id of the new game (colours swapped).
    pub id: String,
    /// The colour (in the finished game) that asked for the rematch.
    pub by: Side,
}

/// A whole stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Public id (also the link to join or watch).
    pub id: String,
    /// Variant id (`american`, `pool`, `impasse`).
    pub variant: String,
    /// Start position in PDN FEN.
    pub start_fen: String,
    /// `open` (a seat waits for a player), `ongoing`, `finished` or `aborted` (ended before both
    /// sides moved).
    pub status: String,
    /// PDN result (`1-0`, `0-1`, `1/2-1/2`) once finished.
    pub result: Option<String>,
    /// Seats, clocks, offers.
    pub meta: GameMeta,
    /// The moves played.
    pub moves: Vec<MoveRecord>,
    /// Creation time, ms since the Unix epoch.
    pub created_ms: u64,
    /// Last change, ms since the Unix epoch.
    pub updated_ms: u64,
    /// Optimistic-concurrency version, incremented by each save.
    pub version: u64,
}

/// A row of the game list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameSummary {
    /// Game id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// `open`, `ongoing`, `finished` or `aborted`.
    pub status: String,
    /// PDN result once finished.
    pub result: Option<String>,
    /// Whether the game is rated: created rated, not made unrated when it began, and not ended
    /// before its minimum of plies (`crate::store::ratings::unrated_reason`; as the game's view
    /// and the player archive say).
    pub rated: bool,
    /// Plies played.
    pub plies: u64,
    /// Creation time, ms since the Unix epoch.
    pub created_ms: u64,
    /// Last change, ms since the Unix epoch.
    pub updated_ms: u64,
}

/// One stored chat message of a game (docs/api.md, chat).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRecord {
    /// Number of the message in its game (1, 2, ...), given by [`super::ChatStore::add_chat`].
    pub n: u64,
    /// The writer's seat.
    pub color: Side,
    /// The writer's name when the seat had one.
    pub name: Option<String>,
    /// The text, plain (1..=200 characters, no control characters).
    pub text: String,
    /// When it was sent, ms since the Unix epoch.
    pub at_ms: u64,
}

impl Side {
    /// `"black"` or `"white"`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Black => "black",
            Side::White => "white",
        }
    }

    /// The colour named `s` (`"black"`/`"white"`), `None` otherwise.
    pub fn parse(s: &str) -> Option<Side> {
        match s {
            "black" => Some(Side::Black),
            "white" => Some(Side::White),
            _ => None,
        }
    }
}

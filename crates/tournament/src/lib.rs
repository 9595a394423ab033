//! # crown-tournament
//!
//! Tournaments for Crown as pure logic — no I/O, no server: the server stores the state (every
//! type here is serde) and calls the transitions.
//!
//! - **Swiss** and **round robin** in which each pairing is a **match of two games** with colours
//!   swapped from the same opening (APCA rule 32: an even number of games, each player moving first
//!   equally often): [`Match`], [`GameResult`] (forfeits included), match points and byes
//!   ([`Scoring`]); Berger tables ([`round_robin_round`]); Swiss pairing by score groups with no
//!   repeat pairing, colour balance across matches, floaters and byes ([`pair_swiss`]).
//! - **Openings per round** by the director's rule — ACF three-move ballots, 11-man ballots, the
//!   start position, Impasse's seed or Steere setup — drawn reproducibly from the tournament's seed
//!   ([`draw_opening`]).
//! - **Standings** with match points, game points, Buchholz, Sonneborn–Berger and direct encounter
//!   ([`standings()`]) and a **crosstable** ([`crosstable()`]).
//! - **Arena**: lichess's scoring (2 a win, 1 a draw, double while on fire after two wins in a row)
//!   and pairing as soon as a player is free without an immediate rematch ([`Arena`]).
//! - **One PDN** of a tournament's games with `Round` tags `1.1`, `1.2`, … ([`tournament_pdn`]).
//! - The **lifecycle** ([`Tournament`]): created → players join or withdraw → started → rounds
//!   paired in order, results recorded once each → finished; every refused transition is a typed
//!   [`TournamentError`], which makes "no pairing made twice" checkable on several server instances.
//!
//! ```
//! use crown_core::Variant;
//! use crown_tournament::{Format, GameResult, OpeningRule, Scoring, Seat, Settings, Tournament};
//!
//! let mut t = Tournament::new(Settings {
//!     name: "Club Swiss".into(),
//!     variant: Variant::American,
//!     format: Format::Swiss { rounds: 1 },
//!     openings: OpeningRule::AcfThreeMove,
//!     seed: 7,
//!     scoring: Scoring::default(),
//! })?;
//! t.join("Ann", 1800)?;
//! t.join("Bob", 1700)?;
//! t.start()?;
//! t.pair_round(1)?;
//! t.record(1, 1, 1, GameResult::Win(Seat::First))?;
//! t.record(1, 1, 2, GameResult::Draw)?;
//! // Game 1 won and game 2 drawn: 3 game points to 1, a match win worth 2 match points.
//! assert_eq!(t.standings()[0].match_points, 2);
//! assert_eq!(t.standings()[0].game_points, 3);
//! t.finish()?;
//! # Ok::<(), crown_tournament::TournamentError>(())
//! ```

pub mod arena;
pub mod crosstable;
pub mod error;
pub mod matches;
pub mod openings;
pub mod pdn;
pub mod player;
pub mod record;
pub mod result;
mod roster;
pub mod round_robin;
pub mod settings;
pub mod standings;
pub mod swiss;
pub mod tournament;

pub use arena::{arena_points, on_fire, Arena, ArenaGame, ArenaOutcome, ArenaStanding};
pub use crosstable::{crosstable, CrossRow, Crosstable};
pub use error::TournamentError;
pub use matches::{Match, MatchOutcome, Pairing, Round, Scoring};
pub use openings::{draw_opening, Opening, OpeningRule};
pub use pdn::{arena_pdn, tournament_pdn, GameSlot};
pub use player::{seed_order, Player, PlayerId};
pub use record::{records, PlayerRecord};
pub use result::{GameResult, Seat};
pub use round_robin::{round_robin_round, round_robin_rounds};
pub use settings::{Format, Settings};
pub use standings::{standings, Standing};
pub use swiss::{pair_swiss, MAX_SWISS_PLAYERS};
pub use tournament::{Phase, Tournament};

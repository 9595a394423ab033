//! A builder of [`GameRecord`]s for tests and benchmarks: one place that spells out every field
//! of a stored game, so a new field is added here once instead of in each test file.
//!
//! ```
//! use crown_server::store::fixture::GameRecordBuilder;
//! use crown_server::store::Seat;
//!
//! let rec = GameRecordBuilder::new("g1")
//!     .white(Seat::Engine { level: 3 })
//!     .time_control(60_000, 1_000)
//!     .moves(&["11-15", "23-19"], 2)
//!     .build();
//! assert_eq!(rec.meta.clock_ms, [60_000, 60_000]);
//! assert_eq!(rec.moves.len(), 2);
//! ```

use super::{GameMeta, GameRecord, MoveRecord, PlayerNames, Seat, TimeControl};

/// The standard start of American checkers in PDN FEN, every square listed (the default start
/// position of [`GameRecordBuilder`]).
pub const AMERICAN_START_FEN: &str =
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

/// Builds a [`GameRecord`] as a test or benchmark needs it, starting from a plain game:
/// American checkers from the start, `ongoing`, both seats taken by humans (token hashes `"a"`
/// for Black and `"b"` for White), no time control and both clocks at 0 ms, the turn started at
/// 5 ms, created and last changed at 1 ms (ms since the Unix epoch), no moves, version 0, private,
/// casual, no offers, no names, no accounts.
#[derive(Clone, Debug)]
pub struct GameRecordBuilder {
    rec: GameRecord,
}

impl GameRecordBuilder {
    /// The plain game described on [`GameRecordBuilder`], with the id `id`.
    #[must_use]
    pub fn new(id: &str) -> Self {
        GameRecordBuilder {
            rec: GameRecord {
                id: id.into(),
                variant: "american".into(),
                start_fen: AMERICAN_START_FEN.into(),
                status: "ongoing".into(),
                result: None,
                meta: GameMeta {
                    black: Seat::Human {
                        token_sha256: Some("a".into()),
                    },
                    white: Seat::Human {
                        token_sha256: Some("b".into()),
                    },
                    time_control: None,
                    days: None,
                    clock_ms: [0, 0],
                    turn_started_ms: 5,
                    declared: None,
                    draw_offer: None,
                    takeback_request: None,
                    public: false,
                    names: PlayerNames::default(),
                    rematch: None,
                    reserved: false,
                    abort_after_ms: 0,
                    rated: false,
                    unrated: None,
                    rated_min_plies: 0,
                    accounts: Default::default(),
                    ratings: None,
                    counts: Vec::new(),
                },
                moves: vec![],
                created_ms: 1,
                updated_ms: 1,
                version: 0,
            },
        }
    }

    /// Start from `fen` (PDN FEN; not checked) instead of [`AMERICAN_START_FEN`].
    #[must_use]
    pub fn start_fen(mut self, fen: &str) -> Self {
        self.rec.start_fen = fen.into();
        self
    }

    /// Put `seat` in White's seat instead of a human with the token hash `"b"`.
    #[must_use]
    pub fn white(mut self, seat: Seat) -> Self {
        self.rec.meta.white = seat;
        self
    }

    /// Play under `initial_ms` + `increment_ms` (Fischer, in ms), both clocks at `initial_ms`.
    #[must_use]
    pub fn time_control(mut self, initial_ms: u64, increment_ms: u64) -> Self {
        self.rec.meta.time_control = Some(TimeControl {
            initial_ms,
            increment_ms,
        });
        self.rec.meta.clock_ms = [initial_ms, initial_ms];
        self
    }

    /// The side to move's turn started at `ms` (ms since the Unix epoch).
    #[must_use]
    pub fn turn_started_ms(mut self, ms: u64) -> Self {
        self.rec.meta.turn_started_ms = ms;
        self
    }

    /// The moves played, as move texts (not checked against the rules), each made at `at_ms`
    /// (ms since the Unix epoch).
    #[must_use]
    pub fn moves(mut self, texts: &[&str], at_ms: u64) -> Self {
        self.rec.moves = texts
            .iter()
            .map(|t| MoveRecord {
                text: (*t).into(),
                at_ms,
            })
            .collect();
        self
    }

    /// Created and last changed at `ms` (ms since the Unix epoch).
    #[must_use]
    pub fn created_ms(mut self, ms: u64) -> Self {
        self.rec.created_ms = ms;
        self.rec.updated_ms = ms;
        self
    }

    /// The record.
    #[must_use]
    pub fn build(self) -> GameRecord {
        self.rec
    }
}

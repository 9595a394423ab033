//! A new game (docs/api.md, `POST /api/games`): the request's values checked in the API's order,
//! each refusal a [`NewGameError`], and the [`Live`] game built from them.
//!
//! The check has two steps because the creator's account is read from the store between them:
//! [`GameRequest::check`] (variant, start, opponent, colour, time control) gives a [`NewGame`];
//! [`NewGame::seat`] with the creator's account checks what a rated game needs and the name, and
//! gives a [`SeatedGame`] ready to be created.

use crate::error::{Error, ErrorKind};
use crate::games::live::Live;
use crate::store::{Seat, SeatAccount, TimeControl};
use crown_core::{Color, ImpasseSetup, Position, Variant};

/// Longest time control accepted, in ms (one day).
pub const MAX_INITIAL_MS: u64 = 24 * 3600 * 1000;

/// Largest increment accepted, in ms (one hour).
pub const MAX_INCREMENT_MS: u64 = 3_600_000;

/// What a request for a new game asks for, as read from it.
#[derive(Clone, Debug, Default)]
pub struct GameRequest {
    /// `american`, `pool` or `impasse`.
    pub variant: String,
    /// Start position in PDN FEN (default: the variant's start).
    pub fen: Option<String>,
    /// Impasse only: `seed` (default) or `steere`.
    pub setup: Option<String>,
    /// `human` (default) or `engine`.
    pub opponent: Option<String>,
    /// Engine level, [`crown_ai::level::LEVELS`] (default [`crown_ai::level::DEFAULT_LEVEL`], 4).
    pub level: Option<u8>,
    /// The creator's colour: `black`, `white` or `random` (default: the side that moves first).
    pub color: Option<String>,
    /// Time control; untimed when absent.
    pub time_control: Option<TimeControl>,
    /// A public seek (listed while its seat is open) rather than a private game.
    pub public: bool,
    /// The creator's name, shown on boards and written in PDN.
    pub name: Option<String>,
    /// A rated game rather than a casual one.
    pub rated: bool,
    /// A correspondence game (days per move, only by a challenge: [`crate::challenges`]): timed
    /// without a `time_control`, so it may be rated.
    pub correspondence: bool,
}

/// Why a new game is refused; [`NewGameError::code`] is the API's code, and the message (its
/// `Display`) the API's message.
#[derive(Debug, thiserror::Error)]
pub enum NewGameError {
    /// `bad_variant`: the variant is not one (the message is the variant reader's).
    #[error("{0}")]
    BadVariant(String),
    /// `bad_setup`: both `fen` and `setup` were given.
    #[error("give either 'fen' or 'setup', not both")]
    FenAndSetup,
    /// `bad_setup`: a `setup` for a variant other than Impasse.
    #[error("'setup' applies to Impasse only")]
    SetupNotImpasse,
    /// `bad_setup`: the setup is not one (the message is the setup reader's).
    #[error("{0}")]
    BadSetup(String),
    /// `bad_fen`: the FEN is unreadable (the message is crown-notation's FEN reader's).
    #[error("{0}")]
    BadFen(String),
    /// `game_already_over`: the side to move has no legal move (the outcome, as text).
    #[error("the game is over ({0}): the side to move has no legal move")]
    AlreadyOver(String),
    /// `bad_level`: a level for a human opponent.
    #[error("'level' applies to engine opponents only")]
    LevelForHuman,
    /// `bad_level`: a level outside [`crown_ai::level::LEVELS`] (1..=10).
    #[error("engine level must be 1..=10, not {0}")]
    BadLevel(u8),
    /// `engine_unavailable`: the server was built without the engine.
    #[error("this server was built without the engine")]
    EngineUnavailable,
    /// `bad_opponent`: neither `human` nor `engine`.
    #[error("opponent must be 'human' or 'engine', not '{0}'")]
    BadOpponent(String),
    /// `bad_color`: neither `black`, `white` nor `random`.
    #[error("color must be 'black', 'white' or 'random', not '{0}'")]
    BadColor(String),
    /// `bad_time_control`: an initial time of 0 or over [`MAX_INITIAL_MS`], or an increment over
    /// [`MAX_INCREMENT_MS`].
    #[error(
        "initial_ms must be 1..={} and increment_ms at most {}",
        MAX_INITIAL_MS,
        MAX_INCREMENT_MS
    )]
    BadTimeControl,
    /// `login_required`: a rated game without a logged-in creator.
    #[error("{}", crate::accounts::login_required().message)]
    LoginRequired,
    /// `rated_needs_human`: a rated game against the engine.
    #[error("a game against the engine cannot be rated")]
    RatedNeedsHuman,
    /// `rated_needs_clock`: a rated game without a time control.
    #[error("a rated game needs a time_control")]
    RatedNeedsClock,
    /// `rated_needs_standard_start`: a rated game with a `fen` or a `setup`.
    #[error("a rated game starts from the variant's standard position (no 'fen' or 'setup')")]
    RatedNeedsStandardStart,
    /// The creator's name is refused (`bad_name`, see [`crate::lobby::check_name`]).
    #[error("{}", .0.message)]
    BadName(Error),
    /// `storage`: no randomness to draw a random colour (the reason).
    #[error("{}", Error::storage(.0).message)]
    NoRandomness(String),
}

impl NewGameError {
    /// The API's stable code of this refusal.
    pub fn code(&self) -> &'static str {
        match self {
            NewGameError::BadVariant(_) => "bad_variant",
            NewGameError::FenAndSetup
            | NewGameError::SetupNotImpasse
            | NewGameError::BadSetup(_) => "bad_setup",
            NewGameError::BadFen(_) => "bad_fen",
            NewGameError::AlreadyOver(_) => "game_already_over",
            NewGameError::LevelForHuman | NewGameError::BadLevel(_) => "bad_level",
            NewGameError::EngineUnavailable => "engine_unavailable",
            NewGameError::BadOpponent(_) => "bad_opponent",
            NewGameError::BadColor(_) => "bad_color",
            NewGameError::BadTimeControl => "bad_time_control",
            NewGameError::LoginRequired => "login_required",
            NewGameError::RatedNeedsHuman => "rated_needs_human",
            NewGameError::RatedNeedsClock => "rated_needs_clock",
            NewGameError::RatedNeedsStandardStart => "rated_needs_standard_start",
            NewGameError::BadName(e) => e.code,
            NewGameError::NoRandomness(_) => "storage",
        }
    }

    /// The kind of refusal it is.
    pub fn kind(&self) -> ErrorKind {
        match self {
            NewGameError::EngineUnavailable => ErrorKind::Unsupported,
            NewGameError::LoginRequired => ErrorKind::Unauthenticated,
            NewGameError::BadName(e) => e.kind,
            NewGameError::NoRandomness(_) => ErrorKind::Internal,
            _ => ErrorKind::Invalid,
        }
    }
}

impl From<NewGameError> for Error {
    fn from(e: NewGameError) -> Error {
        match e {
            NewGameError::BadName(e) => e,
            e => Error::new(e.kind(), e.code(), e.to_string()),
        }
    }
}

/// A new game whose request passed [`GameRequest::check`]; the creator's account is still to be
/// checked ([`NewGame::seat`]).
#[derive(Debug)]
pub struct NewGame {
    /// The start position.
    pub start: Position,
    /// What was repaired in the request's FEN (printable lines, at most 200 characters each).
    pub warnings: Vec<String>,
    /// The creator's colour.
    pub color: Color,
    /// The other seat: an open human seat or the engine at a level.
    pub other: Seat,
    /// The time control; `None`: untimed.
    pub time_control: Option<TimeControl>,
    /// A public seek.
    pub public: bool,
    /// A rated game.
    pub rated: bool,
    /// A correspondence game ([`GameRequest::correspondence`]).
    pub correspondence: bool,
    /// The creator's name, as requested (checked by [`NewGame::seat`]).
    pub name: Option<String>,
    /// Whether the request gave a `fen` or a `setup` (a rated game may not).
    custom_start: bool,
}

/// A new game ready to be created: [`NewGame`] with the creator's account and checked name.
#[derive(Debug)]
pub struct SeatedGame {
    /// The game as checked.
    pub game: NewGame,
    /// The creator's account; `None` for a guest.
    pub account: Option<SeatAccount>,
}

impl GameRequest {
    /// Check the request in the API's order: variant, start (`fen` or `setup`, not a finished
    /// position), opponent and level (`engine_available`: the server has the engine), colour
    /// (`random` draws one), time control.
    ///
    /// # Errors
    /// The first [`NewGameError`] the request meets.
    pub fn check(self, engine_available: bool) -> Result<NewGame, NewGameError> {
        let variant: Variant = self
            .variant
            .parse()
            .map_err(|e| NewGameError::BadVariant(format!("{e}")))?;
        let mut warnings = Vec::new();
        let start = match (&self.fen, &self.setup) {
            (Some(_), Some(_)) => return Err(NewGameError::FenAndSetup),
            // The one FEN reader of crown-notation, the lenient way a person writes a FEN; its
            // message already says "bad FEN '…'" (once), quoting at most 60 characters.
            (Some(fen), None) => {
                let read =
                    crown_notation::read_fen(variant, fen, crown_notation::FenPolicy::Lenient)
                        .map_err(|e| NewGameError::BadFen(e.to_string()))?;
                warnings = read.warnings;
                read.position
            }
            (None, Some(setup)) => {
                if variant != Variant::Impasse {
                    return Err(NewGameError::SetupNotImpasse);
                }
                let s: ImpasseSetup = setup
                    .parse()
                    .map_err(|e| NewGameError::BadSetup(format!("{e}")))?;
                Position::impasse(s)
            }
            (None, None) => Position::new(variant),
        };
        if let Some(o) = crown_core::Game::from_position(start).outcome() {
            // The wording of crown-notation's move reader for a finished game (issue 14).
            return Err(NewGameError::AlreadyOver(o.to_string()));
        }
        let other = match self.opponent.as_deref().unwrap_or("human") {
            "human" => {
                if self.level.is_some() {
                    return Err(NewGameError::LevelForHuman);
                }
                Seat::Human { token_sha256: None }
            }
            "engine" => {
                let level = self.level.unwrap_or(crown_ai::level::DEFAULT_LEVEL);
                if !crown_ai::level::LEVELS.contains(&level) {
                    return Err(NewGameError::BadLevel(level));
                }
                if !engine_available {
                    return Err(NewGameError::EngineUnavailable);
                }
                Seat::Engine { level }
            }
            other => return Err(NewGameError::BadOpponent(other.to_string())),
        };
        let color = match self.color.as_deref() {
            None => variant.first_player(),
            Some("black") => Color::Black,
            Some("white") => Color::White,
            Some("random") => {
                let mut b = [0u8; 1];
                getrandom::fill(&mut b).map_err(|e| NewGameError::NoRandomness(e.to_string()))?;
                if b[0] & 1 == 0 {
                    Color::Black
                } else {
                    Color::White
                }
            }
            Some(other) => return Err(NewGameError::BadColor(other.to_string())),
        };
        if let Some(tc) = self.time_control {
            if tc.initial_ms == 0
                || tc.initial_ms > MAX_INITIAL_MS
                || tc.increment_ms > MAX_INCREMENT_MS
            {
                return Err(NewGameError::BadTimeControl);
            }
        }
        Ok(NewGame {
            start,
            warnings,
            color,
            other,
            time_control: self.time_control,
            public: self.public,
            rated: self.rated,
            correspondence: self.correspondence,
            name: self.name,
            custom_start: self.fen.is_some() || self.setup.is_some(),
        })
    }
}

impl NewGame {
    /// Seat the creator, whose account is `account` (`None`: a guest): a rated game needs an
    /// account, a human opponent, a time control (or days per move) and the standard start; then the name is checked
    /// ([`crate::lobby::check_name`]).
    ///
    /// # Errors
    /// `login_required`, `rated_needs_human`, `rated_needs_clock`, `rated_needs_standard_start`,
    /// in that order, for a rated game; then the name's error.
    pub fn seat(mut self, account: Option<SeatAccount>) -> Result<SeatedGame, NewGameError> {
        if self.rated {
            if account.is_none() {
                return Err(NewGameError::LoginRequired);
            }
            if matches!(self.other, Seat::Engine { .. }) {
                return Err(NewGameError::RatedNeedsHuman);
            }
            if self.time_control.is_none() && !self.correspondence {
                return Err(NewGameError::RatedNeedsClock);
            }
            if self.custom_start {
                return Err(NewGameError::RatedNeedsStandardStart);
            }
        }
        if let Some(name) = self.name.take() {
            let name = crate::lobby::check_name(&name).map_err(NewGameError::BadName)?;
            self.name = Some(name);
        }
        Ok(SeatedGame {
            game: self,
            account,
        })
    }
}

impl SeatedGame {
    /// The game `id` in memory, the creator seated with `token` at `now` (ms since the epoch);
    /// an unstarted game aborts after `config`'s `abort_after_ms`, and a rated one changes the
    /// ratings from its `rated_min_plies` (see [`crate::config::Config`]).
    pub fn into_live(
        self,
        id: String,
        token: String,
        now: u64,
        config: &crate::config::Config,
    ) -> Live {
        let g = self.game;
        let mut live = Live::create(id, g.start, g.color, token, g.other, g.time_control, now);
        live.rec.meta.public = g.public;
        live.rec.meta.abort_after_ms = config.abort_after_ms;
        live.rec.meta.rated = g.rated;
        live.rec.meta.rated_min_plies = config.rated_min_plies;
        live.rec.meta.accounts.set(g.color, self.account);
        if let Some(name) = g.name {
            live.rec.meta.names.set(g.color, Some(name));
        }
        live
    }
}

//! A game in memory: the stored record plus the replayed [`crown_core::Game`], the rules of seats,
//! clocks, offers and takebacks, and the JSON view sent to clients.
//!
//! Every operation here works on a copy: the server applies it, saves the copy, and only then
//! replaces the live game, so a refused or unsaved operation changes nothing.

//!
//! The rules are split by concept: the clocks (`clock.rs`), games ending without a result on the
//! board (`ending.rs`), moves and joining (`play.rs`), resignation, draws and takebacks
//! (`offers.rs`), the APCA counts (`counts.rs`), and the JSON view (`view.rs`).

use crate::store::{ChangeState, Declared, GameMeta, GameRecord, Seat, TimeControl};
use crate::token::{same_secret, token_hash};
use crown_core::{Color, Game, Position, Variant};

mod clock;
mod counts;
mod ending;
mod offers;
mod play;
#[cfg(test)]
mod tests;
mod view;

pub use counts::rule_number;
pub use view::{
    AccountView, ClockView, CountView, GameView, LegalMove, OutcomeView, RematchView, SeatView,
};

/// How far [`advance_clock`] moved this process's clock forward, in ms (0 unless a test did).
static CLOCK_OFFSET_MS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Milliseconds since the Unix epoch: the server's clock, which every deadline, clock and expiry
/// is read from (plus what [`advance_clock`] added).
pub fn now_ms() -> u64 {
    let real = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0);
    real.saturating_add(CLOCK_OFFSET_MS.load(std::sync::atomic::Ordering::SeqCst))
}

/// The test clock: move [`now_ms`] forward by `ms` for the rest of this process, so that a test
/// sees days pass (a correspondence game's move deadline, an expiry) without waiting for them.
/// The server itself never calls it. It moves the clock of every server in the process: a test
/// that calls it runs alone in its process (its own test file, or nextest's process per test),
/// so that no other test's time jumps.
pub fn advance_clock(ms: u64) {
    CLOCK_OFFSET_MS.fetch_add(ms, std::sync::atomic::Ordering::SeqCst);
}

/// A live game.
#[derive(Clone, Debug)]
pub struct Live {
    /// The stored record (kept in step with `game`).
    pub rec: GameRecord,
    /// The game replayed by crown-core.
    pub game: Game,
}

fn seat(meta: &GameMeta, c: Color) -> &Seat {
    match c {
        Color::Black => &meta.black,
        Color::White => &meta.white,
    }
}

fn seat_mut(meta: &mut GameMeta, c: Color) -> &mut Seat {
    match c {
        Color::Black => &mut meta.black,
        Color::White => &mut meta.white,
    }
}

/// Apply a result declared by resignation, time or agreement to the replayed game.
fn declare(game: &mut Game, declared: Option<Declared>) {
    match declared {
        Some(Declared::Resigned { color }) => game.resign(color.into()),
        Some(Declared::Timeout { color }) => game.lose_on_time(color.into()),
        Some(Declared::AgreedDraw) => game.agree_draw(),
        Some(
            Declared::Cancelled { .. } | Declared::Abandoned { .. } | Declared::Aborted { .. },
        )
        | None => {}
    }
}

impl Live {
    /// Rebuild a live game from its record by replaying the stored moves and declared result.
    ///
    /// # Errors
    /// A message naming the bad variant, FEN or move (with its ply) if the record does not replay.
    pub fn from_record(rec: GameRecord) -> Result<Live, String> {
        let variant: Variant = rec
            .variant
            .parse()
            .map_err(|e| format!("game {}: {e}", rec.id))?;
        let start = Position::from_fen(variant, &rec.start_fen)
            .map_err(|e| format!("game {}: start FEN: {e}", rec.id))?;
        let mut game = Game::from_position(start);
        for (ply, m) in rec.moves.iter().enumerate() {
            counts::replay_claims(&mut game, &rec, ply)?;
            game.play_text(&m.text)
                .map_err(|e| format!("game {}: ply {} '{}': {e}", rec.id, ply + 1, m.text))?;
        }
        counts::replay_claims(&mut game, &rec, rec.moves.len())?;
        declare(&mut game, rec.meta.declared);
        Ok(Live { rec, game })
    }

    /// This game (at version `version - 1`) with a change another instance committed applied,
    /// at `version`, without reading the store: when the change only appends moves (and at most
    /// declares a result), they are played on a copy of the game; otherwise the record is
    /// replayed ([`Live::from_record`]).
    ///
    /// # Errors
    /// A message naming the game and the move if the change does not apply to this game.
    pub fn apply_change(&self, state: &ChangeState, version: u64) -> Result<Live, String> {
        let rec = state.apply_to(&self.rec, version).ok_or_else(|| {
            format!(
                "game {}: the change keeps more plies than held",
                self.rec.id
            )
        })?;
        let appends = state.keep_plies == self.rec.moves.len();
        let old = self.rec.meta.declared;
        // A new count claim is made at its ply by a replay.
        let same_counts = self.rec.meta.counts == rec.meta.counts;
        if !appends || !same_counts || !(old.is_none() || old == rec.meta.declared) {
            return Live::from_record(rec);
        }
        let mut game = self.game.clone();
        for (i, m) in state.moves.iter().enumerate() {
            game.play_text(&m.text).map_err(|e| {
                let ply = state.keep_plies + i + 1;
                format!("game {}: ply {ply} '{}': {e}", rec.id, m.text)
            })?;
        }
        if old.is_none() {
            declare(&mut game, rec.meta.declared);
        }
        Ok(Live { rec, game })
    }

    /// A new game record; `creator` holds `creator_token` (only its hash is kept), the other seat
    /// is `other`.
    #[allow(clippy::too_many_arguments)]
    pub fn create(
        id: String,
        start: Position,
        creator: Color,
        creator_token: String,
        other: Seat,
        time_control: Option<TimeControl>,
        now: u64,
    ) -> Live {
        let mut meta = GameMeta {
            black: Seat::Human { token_sha256: None },
            white: Seat::Human { token_sha256: None },
            time_control,
            days: None,
            clock_ms: [time_control.map_or(0, |t| t.initial_ms); 2],
            turn_started_ms: 0,
            declared: None,
            draw_offer: None,
            takeback_request: None,
            public: false,
            names: crate::store::PlayerNames::default(),
            rematch: None,
            reserved: false,
            abort_after_ms: 0,
            rated: false,
            unrated: None,
            rated_min_plies: 0,
            accounts: Default::default(),
            ratings: None,
            counts: Vec::new(),
        };
        *seat_mut(&mut meta, creator) = Seat::Human {
            token_sha256: Some(token_hash(&creator_token)),
        };
        *seat_mut(&mut meta, creator.opposite()) = other;
        let rec = GameRecord {
            id,
            variant: start.variant().id().to_string(),
            start_fen: start.to_fen(),
            status: String::new(),
            result: None,
            meta,
            moves: Vec::new(),
            created_ms: now,
            updated_ms: now,
            version: 0,
        };
        let mut live = Live {
            rec,
            game: Game::from_position(start),
        };
        live.refresh(now);
        live
    }

    /// Whether every seat is taken (human with a token, or engine).
    pub fn seated(&self) -> bool {
        Color::ALL
            .iter()
            .all(|&c| !matches!(seat(&self.rec.meta, c), Seat::Human { token_sha256: None }))
    }

    /// The seat whose secret is `token` (compared by hash, in constant time), if any.
    pub fn seat_of(&self, token: &str) -> Option<Color> {
        let hash = token_hash(token);
        Color::ALL.into_iter().find(|&c| {
            matches!(seat(&self.rec.meta, c), Seat::Human { token_sha256: Some(t) } if same_secret(t, &hash))
        })
    }

    /// The colour whose seat is the engine, if it is that colour's turn.
    pub fn engine_to_move(&self) -> Option<u8> {
        if self.game.outcome().is_some() || self.abandoned() || self.aborted() || !self.seated() {
            return None;
        }
        match seat(&self.rec.meta, self.game.position().side_to_move()) {
            Seat::Engine { level } => Some(*level),
            Seat::Human { .. } => None,
        }
    }

    /// The colour of the engine seat, if there is one.
    pub fn engine_color(&self) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|&c| matches!(seat(&self.rec.meta, c), Seat::Engine { .. }))
    }
}

//! A game in memory: the stored record plus the replayed [`crown_core::Game`], the rules of seats,
//! clocks, offers and takebacks, and the JSON view sent to clients.
//!
//! Every operation here works on a copy: the server applies it, saves the copy, and only then
//! replaces the live game, so a refused or unsaved operation changes nothing.

use crate::error::{Detail, Error};
use crate::store::{ChangeState, Declared, GameMeta, GameRecord, MoveRecord, Seat, TimeControl};
use crate::token::{same_secret, token_hash};

mod view;

use crown_core::{Color, Game, GameError, MoveError, Position, Variant};
pub use view::{ClockView, GameView, LegalMove, OutcomeView, RematchView, SeatView};

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
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
            game.play_text(&m.text)
                .map_err(|e| format!("game {}: ply {} '{}': {e}", rec.id, ply + 1, m.text))?;
        }
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
        if !appends || !(old.is_none() || old == rec.meta.declared) {
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
            accounts: Default::default(),
            ratings: None,
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

    /// Whether the game was cancelled or expired before anyone joined it.
    pub fn cancelled(&self) -> bool {
        matches!(self.rec.meta.declared, Some(Declared::Cancelled { .. }))
    }

    /// Whether the server ended this game as abandoned (no move in time, untimed games only).
    pub fn abandoned(&self) -> bool {
        matches!(self.rec.meta.declared, Some(Declared::Abandoned { .. }))
    }

    /// Whether the game was aborted before both sides moved ([`Declared::Aborted`]).
    pub fn aborted(&self) -> bool {
        matches!(self.rec.meta.declared, Some(Declared::Aborted { .. }))
    }

    /// The error for acting on an aborted game.
    fn aborted_error(&self) -> Error {
        Error::conflict(
            "game_over",
            "the game is over (aborted before both sides moved)",
        )
    }

    /// Whether the side to move has not made its first move yet: fewer than two plies are played
    /// (plies alternate, so each side's first move is ply 1 or 2).
    pub fn before_first_moves(&self) -> bool {
        self.rec.moves.len() < 2
    }

    /// Whether the first-move rule applies to this game (docs/api.md, "Aborted games"): a timed
    /// game between two people, both seats taken, created with a non-zero `abort_after_ms`. Then
    /// no clock runs before a side's first move, and a side that does not make it within
    /// `abort_after_ms` of the start of its turn aborts the game. Other games (against the
    /// engine, untimed, or with the limit 0) keep their clocks running from the start.
    pub fn first_move_rule(&self) -> bool {
        let m = &self.rec.meta;
        m.abort_after_ms != 0
            && m.time_control.is_some()
            && Color::ALL.iter().all(|&c| {
                matches!(
                    seat(m, c),
                    Seat::Human {
                        token_sha256: Some(_)
                    }
                )
            })
    }

    /// Whether the side to move's clock runs: a timed game whose turn runs (seated, not over),
    /// except before the side's first move where the first-move rule applies
    /// ([`Live::first_move_rule`]).
    pub fn clock_running(&self) -> bool {
        self.rec.meta.time_control.is_some()
            && self.rec.meta.turn_started_ms != 0
            && !(self.before_first_moves() && self.first_move_rule())
    }

    /// When the side to move must have made its first move or the game is aborted (ms since the
    /// epoch): the first-move rule applies ([`Live::first_move_rule`]), the turn runs, the game
    /// is not over and the side to move has not made its first move; `None` otherwise.
    pub fn abort_deadline(&self) -> Option<u64> {
        let m = &self.rec.meta;
        (self.first_move_rule()
            && m.turn_started_ms != 0
            && m.declared.is_none()
            && self.before_first_moves()
            && self.game.outcome().is_none())
        .then(|| m.turn_started_ms.saturating_add(m.abort_after_ms))
    }

    /// If the side to move did not make its first move by [`Live::abort_deadline`], end the game
    /// as aborted (no result, status `aborted`); returns whether it did.
    pub fn abort_if_unstarted(&mut self, now: u64) -> bool {
        match self.abort_deadline() {
            Some(deadline) if now >= deadline => {
                let stm = self.game.position().side_to_move();
                self.rec.meta.declared = Some(Declared::Aborted {
                    color: stm.into(),
                    requested: false,
                });
                self.refresh(now);
                true
            }
            _ => false,
        }
    }

    /// `color` aborts the game before both sides have made their first move: it ends with no
    /// result (status `aborted`).
    ///
    /// # Errors
    /// `game_over`, `seat_open` (cancel an open game instead), `not_abortable` (both sides have
    /// moved: resign instead).
    pub fn abort(&mut self, color: Color, now: u64) -> Result<(), Error> {
        self.require_playing()?;
        if !self.before_first_moves() {
            return Err(Error::conflict(
                "not_abortable",
                "both sides have moved: the game can no longer be aborted (resign instead)",
            ));
        }
        self.rec.meta.declared = Some(Declared::Aborted {
            color: color.into(),
            requested: true,
        });
        self.refresh(now);
        Ok(())
    }

    /// The error for acting on an abandoned game.
    fn abandoned_error(&self) -> Error {
        Error::conflict(
            "game_over",
            "the game is over (abandoned: no move was made in time)",
        )
    }

    /// Whether [`Live::abandon_if_idle`] would end this game at `now`.
    pub fn idle(&self, after_ms: u64, now: u64) -> bool {
        let started = self.rec.meta.turn_started_ms;
        !(after_ms == 0
            || self.rec.meta.time_control.is_some()
            || self.rec.meta.declared.is_some()
            || started == 0
            || now < started.saturating_add(after_ms)
            || self.game.outcome().is_some()
            || !self.seated()
            || self.engine_to_move().is_some())
    }

    /// If this is an untimed game, seated, not over, with a human to move who has not moved
    /// within `after_ms` of the start of the turn, end it as abandoned (no result); returns
    /// whether it did. `after_ms == 0` never abandons. A timed game ends by its flag instead; an
    /// engine to move always moves.
    pub fn abandon_if_idle(&mut self, after_ms: u64, now: u64) -> bool {
        if !self.idle(after_ms, now) {
            return false;
        }
        let stm = self.game.position().side_to_move();
        self.rec.meta.declared = Some(Declared::Abandoned { color: stm.into() });
        self.refresh(now);
        true
    }

    /// The error for acting on a cancelled game.
    fn cancelled_error(&self) -> Error {
        Error::conflict(
            "cancelled",
            "the game was cancelled before anyone joined it",
        )
    }

    /// The creator (`color`, the only seated human) withdraws a game nobody has joined yet: it
    /// ends as `finished` with no result and no longer counts as open.
    ///
    /// # Errors
    /// `cancelled` (already), `game_over`, `not_open` (both seats are taken: resign instead).
    pub fn cancel(&mut self, _color: Color, now: u64) -> Result<(), Error> {
        if self.cancelled() {
            return Err(self.cancelled_error());
        }
        if let Some(o) = self.game.outcome() {
            return Err(Error::game_over(&o));
        }
        if self.abandoned() {
            return Err(self.abandoned_error());
        }
        if self.aborted() {
            return Err(self.aborted_error());
        }
        if self.seated() {
            return Err(Error::conflict(
                "not_open",
                "the game has started (both seats are taken): resign instead",
            ));
        }
        self.rec.meta.declared = Some(Declared::Cancelled { expired: false });
        self.refresh(now);
        Ok(())
    }

    /// If nobody has joined this open game within `ttl_ms` of its creation, end it as expired;
    /// returns whether it did. `ttl_ms == 0` never expires.
    pub fn expire_if_unjoined(&mut self, ttl_ms: u64, now: u64) -> bool {
        if ttl_ms == 0
            || self.cancelled()
            || self.seated()
            || self.game.outcome().is_some()
            || now < self.rec.created_ms.saturating_add(ttl_ms)
        {
            return false;
        }
        self.rec.meta.declared = Some(Declared::Cancelled { expired: true });
        self.refresh(now);
        true
    }

    /// Recompute status, result and the clock's running state after a change at `now`.
    fn refresh(&mut self, now: u64) {
        let outcome = self.game.outcome();
        let abandoned = self.abandoned() || self.aborted();
        self.rec.status = if self.aborted() {
            "aborted"
        } else if outcome.is_some() || self.cancelled() || abandoned {
            "finished"
        } else if self.seated() {
            "ongoing"
        } else {
            "open"
        }
        .to_string();
        self.rec.result = outcome.map(|o| o.pdn_result(self.game.variant()).to_string());
        if outcome.is_some() || abandoned {
            if self.rec.meta.turn_started_ms != 0 {
                // Stop the clock: charge the side to move for its time so far.
                let stm = self.game.position().side_to_move();
                self.rec.meta.clock_ms[stm.index()] = self.remaining(stm, now);
            }
            self.rec.meta.turn_started_ms = 0;
            self.rec.meta.draw_offer = None;
            self.rec.meta.takeback_request = None;
        } else if self.seated() && self.rec.meta.turn_started_ms == 0 {
            self.rec.meta.turn_started_ms = now;
        }
        self.rec.updated_ms = now;
    }

    /// Time left for `color` at `now`, in ms (0 for untimed games).
    pub fn remaining(&self, color: Color, now: u64) -> u64 {
        let left = self.rec.meta.clock_ms[color.index()];
        if self.clock_running() && self.game.position().side_to_move() == color {
            left.saturating_sub(now.saturating_sub(self.rec.meta.turn_started_ms))
        } else {
            left
        }
    }

    /// When the side to move runs out of time (ms since the epoch), if a clock is running.
    pub fn flag_deadline(&self) -> Option<u64> {
        if !self.clock_running() || self.game.outcome().is_some() {
            return None;
        }
        let stm = self.game.position().side_to_move();
        Some(self.rec.meta.turn_started_ms + self.rec.meta.clock_ms[stm.index()])
    }

    /// If the side to move has run out of time at `now`, end the game on time; returns whether it did.
    pub fn check_flag(&mut self, now: u64) -> bool {
        match self.flag_deadline() {
            Some(deadline) if now >= deadline => {
                let stm = self.game.position().side_to_move();
                self.rec.meta.clock_ms[stm.index()] = 0;
                self.rec.meta.turn_started_ms = 0;
                self.game.lose_on_time(stm);
                self.rec.meta.declared = Some(Declared::Timeout { color: stm.into() });
                self.refresh(now);
                true
            }
            _ => false,
        }
    }

    fn require_playing(&self) -> Result<(), Error> {
        if self.cancelled() {
            return Err(self.cancelled_error());
        }
        if self.abandoned() {
            return Err(self.abandoned_error());
        }
        if self.aborted() {
            return Err(self.aborted_error());
        }
        if let Some(o) = self.game.outcome() {
            return Err(Error::game_over(&o));
        }
        if !self.seated() {
            return Err(Error::conflict(
                "seat_open",
                "the game has not started: a seat is still open",
            ));
        }
        Ok(())
    }

    /// `color` plays the move written `text`. `expected_ply`, when given, must equal the number of
    /// plies already played (guards against a retried or stale request).
    ///
    /// # Errors
    /// `game_over`, `seat_open`, `stale_ply`, `not_your_turn`, `time_out` (the flag fell: the game
    /// is now lost on time; the caller must still save), `illegal_move`, `ambiguous_move`,
    /// `bad_move_syntax`.
    pub fn play(
        &mut self,
        color: Color,
        text: &str,
        expected_ply: Option<usize>,
        now: u64,
    ) -> Result<(), Error> {
        self.require_playing()?;
        if let Some(p) = expected_ply {
            if p != self.rec.moves.len() {
                return Err(Error::conflict(
                    "stale_ply",
                    format!(
                        "the move was meant for ply {p} but {} plies have been played",
                        self.rec.moves.len()
                    ),
                ));
            }
        }
        let stm = self.game.position().side_to_move();
        if stm != color {
            return Err(Error::conflict(
                "not_your_turn",
                format!("it is {}'s turn, not {}'s", stm.name(), color.name()),
            ));
        }
        let mv = read_move_text(self.game.position(), text)?;
        if self.check_flag(now) {
            return Err(Error::conflict(
                "time_out",
                format!("{} ran out of time before moving", color.name()),
            ));
        }
        let written = self.game.position().move_text(&mv);
        // A side's first move is not timed: its clock keeps its time, without increment.
        let timed_move = self.clock_running();
        self.game.play(&mv).map_err(|e| match e {
            GameError::Move(m) => move_error(m),
            GameError::GameOver(o) => Error::game_over(&o),
            GameError::Claim(c) => Error::conflict("claim", c),
        })?;
        if let Some(tc) = self.rec.meta.time_control.filter(|_| timed_move) {
            let i = color.index();
            let left = self.rec.meta.clock_ms[i]
                .saturating_sub(now.saturating_sub(self.rec.meta.turn_started_ms));
            self.rec.meta.clock_ms[i] = left + tc.increment_ms;
        }
        self.rec.meta.turn_started_ms = now;
        self.rec.moves.push(MoveRecord {
            text: written,
            at_ms: now,
        });
        self.rec.meta.takeback_request = None;
        if self.rec.meta.draw_offer == Some(color.opposite().into()) {
            self.rec.meta.draw_offer = None;
        }
        self.refresh(now);
        Ok(())
    }

    /// Whether the move `text` by `color` for ply `ply` (0-based: plies played before it) is
    /// already in the game at that ply: a retried request whose first try was committed.
    pub fn already_played(&self, color: Color, text: &str, ply: usize) -> bool {
        let n = self.rec.moves.len();
        if ply >= n {
            return false;
        }
        let mut g = self.game.clone();
        for _ in ply..n {
            if g.undo().is_none() {
                return false;
            }
        }
        let pos = g.position();
        pos.side_to_move() == color
            && pos
                .parse_move(text)
                .is_ok_and(|mv| pos.move_text(&mv) == self.rec.moves[ply].text)
    }

    /// The open seat is taken by a new player with `token` (only its hash is kept); returns its
    /// colour.
    ///
    /// # Errors
    /// `seat_taken` when no human seat is open, `cancelled` when the game was withdrawn or expired.
    pub fn join(&mut self, token: String, now: u64) -> Result<Color, Error> {
        if self.cancelled() {
            return Err(self.cancelled_error());
        }
        let open = Color::ALL
            .into_iter()
            .find(|&c| matches!(seat(&self.rec.meta, c), Seat::Human { token_sha256: None }))
            .ok_or_else(|| Error::conflict("seat_taken", "both seats are already taken"))?;
        *seat_mut(&mut self.rec.meta, open) = Seat::Human {
            token_sha256: Some(token_hash(&token)),
        };
        self.refresh(now);
        Ok(open)
    }

    /// `color` resigns.
    ///
    /// # Errors
    /// `game_over`, `seat_open`.
    pub fn resign(&mut self, color: Color, now: u64) -> Result<(), Error> {
        self.require_playing()?;
        self.game.resign(color);
        self.rec.meta.declared = Some(Declared::Resigned {
            color: color.into(),
        });
        self.refresh(now);
        Ok(())
    }

    /// `color` offers a draw, or accepts the opponent's standing offer (then the game is drawn).
    ///
    /// # Errors
    /// `game_over`, `seat_open`, `already_offered`.
    pub fn offer_draw(&mut self, color: Color, now: u64) -> Result<bool, Error> {
        self.require_playing()?;
        match self.rec.meta.draw_offer {
            Some(c) if Color::from(c) == color => Err(Error::conflict(
                "already_offered",
                format!("{} has already offered a draw", color.name()),
            )),
            Some(_) => {
                self.accept_draw(color, now)?;
                Ok(true)
            }
            None => {
                self.rec.meta.draw_offer = Some(color.into());
                self.refresh(now);
                Ok(false)
            }
        }
    }

    /// `color` accepts the opponent's draw offer.
    ///
    /// # Errors
    /// `game_over`, `seat_open`, `no_offer`.
    pub fn accept_draw(&mut self, color: Color, now: u64) -> Result<(), Error> {
        self.require_playing()?;
        if self.rec.meta.draw_offer != Some(color.opposite().into()) {
            return Err(Error::conflict(
                "no_offer",
                format!("{} has not offered a draw", color.opposite().name()),
            ));
        }
        self.game.agree_draw();
        self.rec.meta.declared = Some(Declared::AgreedDraw);
        self.refresh(now);
        Ok(())
    }

    /// `color` declines the opponent's draw offer or withdraws its own.
    ///
    /// # Errors
    /// `game_over`, `seat_open`, `no_offer`.
    pub fn decline_draw(&mut self, _color: Color, now: u64) -> Result<(), Error> {
        self.require_playing()?;
        if self.rec.meta.draw_offer.is_none() {
            return Err(Error::conflict("no_offer", "no draw offer is standing"));
        }
        self.rec.meta.draw_offer = None;
        self.refresh(now);
        Ok(())
    }

    /// How many plies a takeback asked by `color` removes: its own last move and any reply.
    fn takeback_plies(&self, color: Color) -> usize {
        let n = self.rec.moves.len();
        let stm = self.game.position().side_to_move();
        // Plies alternate, so `color` made the last ply iff it is not to move.
        let want = if stm == color { 2 } else { 1 };
        if want <= n {
            want
        } else {
            0
        }
    }

    /// `color` asks to take back its last move (and the opponent's reply, if made).
    ///
    /// # Errors
    /// `game_over`, `seat_open`, `nothing_to_take_back`, `already_requested`.
    pub fn request_takeback(&mut self, color: Color, now: u64) -> Result<(), Error> {
        self.require_playing()?;
        if self.takeback_plies(color) == 0 {
            return Err(Error::conflict(
                "nothing_to_take_back",
                format!("{} has no move to take back", color.name()),
            ));
        }
        if self.rec.meta.takeback_request.is_some() {
            return Err(Error::conflict(
                "already_requested",
                "a takeback request is already standing",
            ));
        }
        self.rec.meta.takeback_request = Some(color.into());
        self.refresh(now);
        Ok(())
    }

    /// `color` accepts the opponent's takeback request; returns the number of plies removed.
    /// The position goes back but no time is given back: each side keeps the time it has at
    /// `now`, and the side to move after the takeback continues from its remaining time.
    ///
    /// # Errors
    /// `game_over`, `seat_open`, `no_request`.
    pub fn accept_takeback(&mut self, color: Color, now: u64) -> Result<usize, Error> {
        self.require_playing()?;
        let asker = color.opposite();
        if self.rec.meta.takeback_request != Some(asker.into()) {
            return Err(Error::conflict(
                "no_request",
                format!("{} has not asked for a takeback", asker.name()),
            ));
        }
        let n = self.takeback_plies(asker);
        // A takeback gives no time back: stop the running clock, charging the side to move for
        // its time so far; after the undo each side continues from the time it has now.
        if self.rec.meta.time_control.is_some() && self.rec.meta.turn_started_ms != 0 {
            let stm = self.game.position().side_to_move();
            self.rec.meta.clock_ms[stm.index()] = self.remaining(stm, now);
        }
        for _ in 0..n {
            self.game.undo();
            self.rec.moves.pop();
        }
        self.rec.meta.takeback_request = None;
        self.rec.meta.draw_offer = None;
        if self.rec.meta.turn_started_ms != 0 {
            self.rec.meta.turn_started_ms = now;
        }
        self.refresh(now);
        Ok(n)
    }

    /// `color` declines the opponent's takeback request or withdraws its own.
    ///
    /// # Errors
    /// `game_over`, `seat_open`, `no_request`.
    pub fn decline_takeback(&mut self, _color: Color, now: u64) -> Result<(), Error> {
        self.require_playing()?;
        if self.rec.meta.takeback_request.is_none() {
            return Err(Error::conflict(
                "no_request",
                "no takeback request is standing",
            ));
        }
        self.rec.meta.takeback_request = None;
        self.refresh(now);
        Ok(())
    }

    /// The engine is to move and its search waited for a worker since `queued_at`: stop its clock
    /// for that wait by moving the start of its turn forward (never past `now`).
    ///
    /// # Errors
    /// `not_engine_turn` when it is not the engine's turn or no clock runs (nothing to credit).
    pub fn credit_engine_wait(&mut self, queued_at: u64, now: u64) -> Result<(), Error> {
        let started = self.rec.meta.turn_started_ms;
        if self.engine_to_move().is_none() || self.flag_deadline().is_none() {
            return Err(Error::conflict(
                "not_engine_turn",
                "no engine clock is running",
            ));
        }
        let waited = now.saturating_sub(queued_at.max(started));
        self.rec.meta.turn_started_ms = (started + waited).min(now);
        Ok(())
    }

    /// Shift a running clock after server downtime: the side to move is charged only for the time
    /// up to `heartbeat_ms` (the last moment the server was known alive), and its turn resumes at
    /// `now`. The wait for a first move ([`Live::abort_deadline`]) is shifted the same way.
    /// Returns whether anything changed.
    pub fn resume_after_downtime(&mut self, heartbeat_ms: u64, now: u64) -> bool {
        if self.flag_deadline().is_none() && self.abort_deadline().is_none() {
            return false;
        }
        let started = self.rec.meta.turn_started_ms;
        let charged = heartbeat_ms.saturating_sub(started);
        let resumed = now.saturating_sub(charged).max(started);
        if resumed == started {
            return false;
        }
        self.rec.meta.turn_started_ms = resumed;
        true
    }
}

/// The move `text` read by the one move reader of crown-notation ([`crown_notation::read_move`]:
/// Crown notation, algebraic squares `f6-e5`, …), its error mapped to the API's codes with the
/// legal moves or the candidates as detail.
fn read_move_text(pos: &crown_core::Position, text: &str) -> Result<crown_core::Move, Error> {
    use crown_notation::InputErrorKind;
    crown_notation::read_move(pos, text).map_err(|e| {
        let msg = e.to_string();
        match e.kind {
            InputErrorKind::IllegalMove => {
                let legal: Vec<String> = pos
                    .legal_moves_sorted()
                    .iter()
                    .map(|m| pos.move_text(m))
                    .collect();
                Error::rejected("illegal_move", msg).with(Detail::Legal(legal))
            }
            InputErrorKind::AmbiguousMove => {
                let e = Error::rejected("ambiguous_move", msg);
                match pos.parse_move(text) {
                    Err(MoveError::Ambiguous { candidates, .. }) => {
                        e.with(Detail::Candidates(candidates))
                    }
                    _ => e,
                }
            }
            _ => Error::rejected("bad_move_syntax", msg),
        }
    })
}

fn move_error(e: MoveError) -> Error {
    let msg = e.to_string();
    match e {
        MoveError::Syntax { .. } => Error::rejected("bad_move_syntax", msg),
        MoveError::Illegal { legal, .. } => {
            Error::rejected("illegal_move", msg).with(Detail::Legal(legal))
        }
        MoveError::Ambiguous { candidates, .. } => {
            Error::rejected("ambiguous_move", msg).with(Detail::Candidates(candidates))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first-move limit of the test games (the server's default, 30 s).
    const ABORT_MS: u64 = crate::config::DEFAULT_ABORT_AFTER_SECS * 1000;

    const SHA256_TB: &str = "7aa5ae9ecf82f6fc5208ecd0940fd71d50cd4ac596fccac2ede05af806a87b6e";

    fn human_game(tc: Option<TimeControl>) -> Live {
        let start = Position::new(Variant::American);
        let mut live = Live::create(
            "g".into(),
            start,
            Color::Black,
            "tb".into(),
            Seat::Human { token_sha256: None },
            tc,
            1_000,
        );
        live.rec.meta.abort_after_ms = ABORT_MS;
        live.join("tw".into(), 1_000).unwrap();
        live
    }

    #[test]
    fn only_an_untimed_game_idle_past_the_limit_is_abandoned() {
        // Joined at 1,000: Black's turn started then.
        let mut g = human_game(None);
        assert!(!g.abandon_if_idle(500, 1_499));
        assert!(!g.abandon_if_idle(0, u64::MAX), "0 never abandons");
        assert!(g.abandon_if_idle(500, 1_500));
        assert_eq!(g.rec.status, "finished");
        assert_eq!(g.rec.result, None);
        let v = g.view(1_500, None);
        assert_eq!(v.outcome.as_ref().unwrap().result, "*");
        assert!(v.legal_moves.is_empty());
        assert_eq!(
            g.play(Color::Black, "11-15", None, 1_600).unwrap_err().code,
            "game_over"
        );
        assert_eq!(g.resign(Color::Black, 1_600).unwrap_err().code, "game_over");
        // Read back from the record: still abandoned.
        let back = Live::from_record(g.rec.clone()).unwrap();
        assert!(back.abandoned());
        // A timed game ends by its flag, never as abandoned.
        let tc = TimeControl {
            initial_ms: 60_000,
            increment_ms: 0,
        };
        let mut timed = human_game(Some(tc));
        assert!(!timed.abandon_if_idle(500, 10_000_000));
    }

    #[test]
    fn only_the_token_hash_is_stored() {
        let g = human_game(None);
        let stored = serde_json::to_string(&g.rec.meta).unwrap();
        assert!(
            !stored.contains("\"tb\"") && !stored.contains("\"tw\""),
            "{stored}"
        );
        // SHA-256("tb") per FIPS 180-4, computed independently with `printf tb | sha256sum`.
        assert!(stored.contains(SHA256_TB), "{stored}");
        assert_eq!(g.seat_of("tb"), Some(Color::Black));
        assert_eq!(g.seat_of("tw"), Some(Color::White));
        assert_eq!(g.seat_of("t"), None);
        assert_eq!(g.seat_of(SHA256_TB), None);
    }

    #[test]
    fn clock_charges_mover_and_adds_increment() {
        let mut g = human_game(Some(TimeControl {
            initial_ms: 10_000,
            increment_ms: 500,
        }));
        // Joined at 1 000. Each side's first move is not timed: no charge, no increment.
        g.play(Color::Black, "11-15", Some(0), 4_000).unwrap();
        g.play(Color::White, "23-19", Some(1), 6_000).unwrap();
        assert_eq!(g.remaining(Color::Black, 6_000), 10_000);
        assert_eq!(g.remaining(Color::White, 6_000), 10_000);
        // Black's clock runs from White's first move; Black thinks 3 s: 10 000 - 3 000 + 500.
        assert_eq!(g.remaining(Color::Black, 7_000), 9_000);
        g.play(Color::Black, "8-11", Some(2), 9_000).unwrap();
        assert_eq!(g.remaining(Color::Black, 9_000), 7_500);
        assert_eq!(g.remaining(Color::White, 10_000), 9_000);
        // White lets the flag fall: 10 000 ms after its turn started at 9 000.
        assert!(!g.check_flag(18_999));
        assert!(g.check_flag(19_000));
        assert_eq!(g.game.outcome().unwrap().winner(), Some(Color::Black));
        assert_eq!(g.rec.status, "finished");
    }

    #[test]
    fn downtime_is_not_charged_after_the_heartbeat() {
        let mut g = human_game(Some(TimeControl {
            initial_ms: 10_000,
            increment_ms: 0,
        }));
        // Before the first moves the wait for a first move is shifted: turn started at 1 000,
        // last heartbeat 3 000, restart at 60 000: 2 s of the 30 s are gone.
        assert!(g.resume_after_downtime(3_000, 60_000));
        assert_eq!(g.abort_deadline(), Some(60_000 - 2_000 + ABORT_MS));
        assert_eq!(g.remaining(Color::Black, 60_000), 10_000);
        // Both first moves; Black's turn started at 62 000, last heartbeat 64 000, restart at
        // 120 000: 2 s charged.
        g.play(Color::Black, "11-15", None, 61_000).unwrap();
        g.play(Color::White, "23-19", None, 62_000).unwrap();
        assert!(g.resume_after_downtime(64_000, 120_000));
        assert_eq!(g.remaining(Color::Black, 120_000), 8_000);
    }

    /// What another instance sees: the change `after` made to `before` (moves kept up to
    /// `keep`), applied to its copy of `before`, must be the game `after` itself.
    fn assert_change_applies(before: &Live, after: &Live, keep: usize) {
        let state = crate::store::ChangeState::of(&after.rec, keep);
        let got = before.apply_change(&state, before.rec.version + 1).unwrap();
        let mut want = after.rec.clone();
        want.version = before.rec.version + 1;
        assert_eq!(got.rec, want);
        assert_eq!(got.game.position(), after.game.position());
        assert_eq!(got.game.outcome(), after.game.outcome());
        assert_eq!(got.game.ply_count(), after.rec.moves.len());
    }

    #[test]
    fn a_notified_change_rebuilds_the_same_game() {
        let g0 = human_game(None);
        // Moves appended.
        let mut g1 = g0.clone();
        g1.play(Color::Black, "11-15", None, 2_000).unwrap();
        g1.play(Color::White, "23-19", None, 3_000).unwrap();
        assert_change_applies(&g0, &g1, 0);
        // A resignation: no move, a declared result.
        let mut g2 = g1.clone();
        g2.resign(Color::White, 4_000).unwrap();
        assert_change_applies(&g1, &g2, 2);
        assert_eq!(g2.game.outcome().unwrap().winner(), Some(Color::Black));
        // A takeback of both moves (kept plies below those held), then another opening.
        let mut g3 = g1.clone();
        g3.request_takeback(Color::Black, 4_000).unwrap();
        g3.accept_takeback(Color::White, 5_000).unwrap();
        g3.play(Color::Black, "9-13", None, 6_000).unwrap();
        assert_change_applies(&g1, &g3, 0);
        // A change that keeps more plies than the copy holds is refused (reload instead).
        let state = crate::store::ChangeState::of(&g1.rec, 2);
        assert!(g0.apply_change(&state, 1).is_err());
    }

    #[test]
    fn takeback_removes_own_move_and_reply() {
        let mut g = human_game(None);
        g.play(Color::Black, "11-15", None, 2_000).unwrap();
        g.play(Color::White, "23-19", None, 3_000).unwrap();
        g.request_takeback(Color::Black, 4_000).unwrap();
        assert_eq!(g.accept_takeback(Color::White, 5_000).unwrap(), 2);
        assert_eq!(g.rec.moves.len(), 0);
        assert_eq!(*g.game.position(), Position::new(Variant::American));
    }

    #[test]
    fn takeback_keeps_time_spent() {
        let mut g = human_game(Some(TimeControl {
            initial_ms: 60_000,
            increment_ms: 0,
        }));
        // Turn started at 1 000 (join). Black 11-15 at 2 000 and White 23-19 at 5 000 are first
        // moves (not timed); Black 8-11 at 6 000 (1 s); White waits 5 s and asks at 11 000,
        // granted at 12 000.
        g.play(Color::Black, "11-15", None, 2_000).unwrap();
        g.play(Color::White, "23-19", None, 5_000).unwrap();
        g.play(Color::Black, "8-11", None, 6_000).unwrap();
        g.request_takeback(Color::White, 11_000).unwrap();
        assert_eq!(g.accept_takeback(Color::Black, 12_000).unwrap(), 2);
        // White: 60 000 - 6 000 (6 s thinking until the takeback); Black: 59 000.
        assert_eq!(g.remaining(Color::White, 12_000), 54_000);
        assert_eq!(g.remaining(Color::Black, 12_000), 59_000);
        // White's first move is taken back: its clock waits for it again, and so does the
        // first-move limit, from the takeback.
        assert_eq!(g.remaining(Color::White, 13_000), 54_000);
        assert_eq!(g.abort_deadline(), Some(12_000 + ABORT_MS));
        g.play(Color::White, "22-18", None, 14_000).unwrap();
        // Black's clock runs again from White's move.
        assert_eq!(g.remaining(Color::Black, 15_000), 58_000);
    }

    /// 0.25+0: the time control of the browser test of issue 26.
    const QUARTER: TimeControl = TimeControl {
        initial_ms: 15_000,
        increment_ms: 0,
    };

    #[test]
    fn no_clock_runs_before_the_first_moves_and_an_unstarted_game_aborts() {
        let mut g = human_game(Some(QUARTER));
        // Joined at 1 000: Black has 30 s for its first move; its clock does not run.
        assert_eq!(g.abort_deadline(), Some(1_000 + ABORT_MS));
        assert_eq!(g.flag_deadline(), None);
        assert!(!g.check_flag(1_000 + 15_000));
        assert_eq!(g.remaining(Color::Black, 1_000 + 20_000), 15_000);
        let v = g.view(2_000, None);
        assert_eq!(v.clock.as_ref().unwrap().running, None);
        assert_eq!(v.first_move_deadline_ms, Some(1_000 + ABORT_MS));
        assert!(!g.abort_if_unstarted(1_000 + ABORT_MS - 1));
        assert!(g.abort_if_unstarted(1_000 + ABORT_MS));
        assert_eq!(g.rec.status, "aborted");
        assert_eq!(g.rec.result, None);
        assert!(crate::store::is_over(&g.rec.status));
        let v = g.view(1_000 + ABORT_MS, None);
        let o = v.outcome.as_ref().unwrap();
        assert_eq!(o.result, "*");
        assert_eq!(o.winner, None);
        assert_eq!(o.reason, "aborted: black did not make a first move in time");
        assert!(v.legal_moves.is_empty());
        assert_eq!(v.first_move_deadline_ms, None);
        // Over: no move, resignation, abort or draw offer is accepted.
        let later = 1_000 + ABORT_MS + 1;
        assert_eq!(
            g.play(Color::Black, "11-15", None, later).unwrap_err().code,
            "game_over"
        );
        assert_eq!(g.resign(Color::White, later).unwrap_err().code, "game_over");
        assert_eq!(g.abort(Color::White, later).unwrap_err().code, "game_over");
        assert_eq!(
            g.offer_draw(Color::White, later).unwrap_err().code,
            "game_over"
        );
        assert!(!g.check_flag(u64::MAX));
        // Read back from the record: still aborted.
        let back = Live::from_record(g.rec.clone()).unwrap();
        assert!(back.aborted());
        assert_eq!(back.rec.status, "aborted");
    }

    #[test]
    fn the_second_player_has_its_own_first_move_limit() {
        let mut g = human_game(Some(QUARTER));
        // Black moves at 20 000; White's 30 s start then, and no clock runs yet.
        g.play(Color::Black, "11-15", None, 20_000).unwrap();
        assert_eq!(g.abort_deadline(), Some(20_000 + ABORT_MS));
        assert_eq!(g.flag_deadline(), None);
        assert_eq!(g.remaining(Color::Black, 40_000), 15_000);
        assert_eq!(g.remaining(Color::White, 40_000), 15_000);
        assert!(!g.abort_if_unstarted(20_000 + ABORT_MS - 1));
        assert!(g.abort_if_unstarted(20_000 + ABORT_MS));
        let v = g.view(20_000 + ABORT_MS, None);
        assert_eq!(
            v.outcome.unwrap().reason,
            "aborted: white did not make a first move in time"
        );
        // Once both have moved, the clocks run and no abort deadline remains.
        let mut g = human_game(Some(QUARTER));
        g.play(Color::Black, "11-15", None, 2_000).unwrap();
        g.play(Color::White, "23-19", None, 3_000).unwrap();
        assert_eq!(g.abort_deadline(), None);
        assert_eq!(g.flag_deadline(), Some(3_000 + 15_000));
        assert!(!g.abort_if_unstarted(u64::MAX));
        assert!(g.check_flag(3_000 + 15_000));
        assert_eq!(g.game.outcome().unwrap().winner(), Some(Color::White));
    }

    #[test]
    fn a_side_aborts_only_before_both_first_moves() {
        let mut g = human_game(Some(QUARTER));
        g.play(Color::Black, "11-15", None, 2_000).unwrap();
        g.abort(Color::White, 3_000).unwrap();
        assert_eq!(g.rec.status, "aborted");
        assert_eq!(g.rec.result, None);
        assert_eq!(
            g.view(3_000, None).outcome.unwrap().reason,
            "aborted by white"
        );
        // An untimed game can be aborted too.
        let mut g = human_game(None);
        g.abort(Color::Black, 2_000).unwrap();
        assert_eq!(g.rec.status, "aborted");
        // After both first moves: resign instead.
        let mut g = human_game(Some(QUARTER));
        g.play(Color::Black, "11-15", None, 2_000).unwrap();
        g.play(Color::White, "23-19", None, 3_000).unwrap();
        assert_eq!(
            g.abort(Color::Black, 4_000).unwrap_err().code,
            "not_abortable"
        );
        assert_eq!(g.rec.status, "ongoing");
        // An open game is cancelled, not aborted.
        let mut open = Live::create(
            "o".into(),
            Position::new(Variant::American),
            Color::Black,
            "tb".into(),
            Seat::Human { token_sha256: None },
            Some(QUARTER),
            1_000,
        );
        assert_eq!(
            open.abort(Color::Black, 2_000).unwrap_err().code,
            "seat_open"
        );
    }

    #[test]
    fn without_the_first_move_rule_the_clock_runs_from_the_start() {
        // A limit of 0 (or a game stored before the rule): the clock runs from the join.
        let mut g = human_game(Some(QUARTER));
        g.rec.meta.abort_after_ms = 0;
        assert_eq!(g.abort_deadline(), None);
        assert_eq!(g.remaining(Color::Black, 4_000), 12_000);
        assert!(g.check_flag(1_000 + 15_000));
        // Against the engine: the engine always moves, so the clock runs from the start and a
        // person who never moves loses on time as before.
        let mut e = Live::create(
            "e".into(),
            Position::new(Variant::American),
            Color::Black,
            "tb".into(),
            Seat::Engine { level: 1 },
            Some(QUARTER),
            1_000,
        );
        e.rec.meta.abort_after_ms = ABORT_MS;
        assert!(e.seated());
        assert!(!e.first_move_rule());
        assert_eq!(e.abort_deadline(), None);
        assert_eq!(e.flag_deadline(), Some(1_000 + 15_000));
    }
}

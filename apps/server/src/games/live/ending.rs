//! How a game ends without a result on the board: cancelled or expired before anyone joined,
//! abandoned (untimed, idle too long), aborted before both sides moved.

use super::Live;
use crate::error::Error;
use crate::store::Declared;
use crown_core::Color;

impl Live {
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
    pub(super) fn aborted_error(&self) -> Error {
        Error::conflict(
            "game_over",
            "the game is over (aborted before both sides moved)",
        )
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
    pub(super) fn abandoned_error(&self) -> Error {
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
            || self.rec.meta.days.is_some()
            || self.rec.meta.declared.is_some()
            || started == 0
            || now < started.saturating_add(after_ms)
            || self.game.outcome().is_some()
            || !self.seated()
            || self.engine_to_move().is_some())
    }

    /// If this is an untimed game, seated, not over, with a human to move who has not moved
    /// within `after_ms` of the start of the turn, end it as abandoned (no result); returns
    /// whether it did. `after_ms == 0` never abandons. A timed game ends by its flag instead (a
    /// correspondence game by its move deadline); an
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
    pub(super) fn cancelled_error(&self) -> Error {
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
}

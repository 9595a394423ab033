//! The clocks: the first-move rule, the side to move's clock, flags, time spent waiting for
//! the engine, and downtime.

use super::{seat, Live};
use crate::error::Error;
use crate::store::{Declared, Seat, DAY_MS};
use crown_core::Color;

impl Live {
    /// Whether the side to move has not made its first move yet: fewer than two plies are played
    /// (plies alternate, so each side's first move is ply 1 or 2).
    pub fn before_first_moves(&self) -> bool {
        self.rec.moves.len() < 2
    }

    /// Whether the first-move rule applies to this game (docs/api.md, "Aborted games"): a timed
    /// game (a clock, or days per move: a correspondence game, whose `abort_after_ms` is its
    /// days) between two people, both seats taken, created with a non-zero `abort_after_ms`. Then
    /// no clock runs before a side's first move, and a side that does not make it within
    /// `abort_after_ms` of the start of its turn aborts the game. Other games (against the
    /// engine, untimed, or with the limit 0) keep their clocks running from the start.
    pub fn first_move_rule(&self) -> bool {
        let m = &self.rec.meta;
        m.abort_after_ms != 0
            && (m.time_control.is_some() || m.days.is_some())
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

    /// Recompute status, result and the clock's running state after a change at `now`.
    pub(super) fn refresh(&mut self, now: u64) {
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

    /// When the side to move runs out of time (ms since the epoch), if a clock is running; in a
    /// correspondence game, its move deadline ([`Live::move_deadline`]).
    pub fn flag_deadline(&self) -> Option<u64> {
        if self.rec.meta.days.is_some() {
            return self.move_deadline();
        }
        if !self.clock_running() || self.game.outcome().is_some() {
            return None;
        }
        let stm = self.game.position().side_to_move();
        Some(self.rec.meta.turn_started_ms + self.rec.meta.clock_ms[stm.index()])
    }

    /// A correspondence game's move deadline (ms since the epoch): the start of the side to
    /// move's turn (its opponent's last move) plus the game's days. `None` for other games, while
    /// no turn runs (open seat, game over) and before the side to move's first move where the
    /// first-move rule applies ([`Live::abort_deadline`] then times it, the same days).
    pub fn move_deadline(&self) -> Option<u64> {
        let m = &self.rec.meta;
        let days = m.days?;
        if m.turn_started_ms == 0
            || m.declared.is_some()
            || self.game.outcome().is_some()
            || (self.before_first_moves() && self.first_move_rule())
        {
            return None;
        }
        Some(
            m.turn_started_ms
                .saturating_add(u64::from(days).saturating_mul(DAY_MS)),
        )
    }

    /// If the side to move has run out of time (or, in a correspondence game, missed its move
    /// deadline) at `now`, end the game on time; returns whether it did.
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

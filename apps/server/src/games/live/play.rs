//! Moves and seats: a move played (and its repeat recognised), a seat joined.

use super::{seat, seat_mut, Live};
use crate::error::{Detail, Error};
use crate::store::{MoveRecord, Seat};
use crate::token::token_hash;
use crown_core::{Color, GameError, MoveError};

impl Live {
    pub(super) fn require_playing(&self) -> Result<(), Error> {
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

//! Resignation and the offers between players: draws and takebacks.

use super::Live;
use crate::error::Error;
use crate::store::Declared;
use crown_core::Color;

impl Live {
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
    pub(super) fn takeback_plies(&self, color: Color) -> usize {
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
        self.drop_claims_after(self.rec.moves.len());
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
}

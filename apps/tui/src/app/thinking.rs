//! The engine's turn: starting and stopping searches, acting on their answers, the clocks.

use crate::engine::{EngineEvent, Job, Purpose, Request};
use crate::msg::Effect;
use crate::popup::Popup;
use crate::state::App;
use crown_ai::opponent::{self, Opponent};

impl App {
    pub(crate) fn search(&mut self, purpose: Purpose) {
        let id = self.next_id;
        self.next_id += 1;
        self.thinking = Some((id, purpose));
        self.searched = (self.game.position().zobrist(), self.game.ply_count());
        self.thought = None;
        let stm = self.game.position().side_to_move();
        let request = Request {
            level: if purpose == Purpose::Move {
                self.settings.level
            } else {
                10
            },
            clock: if purpose == Purpose::Move {
                self.clocks
                    .map(|c| (c.remaining_ms[stm.index()], c.increment_ms))
            } else {
                None
            },
            movetime_ms: match purpose {
                Purpose::Move => None,
                Purpose::Hint => Some(opponent::HINT_MOVETIME_MS),
                Purpose::DrawOffer => Some(opponent::DRAW_JUDGEMENT_MOVETIME_MS),
            },
        };
        self.effects.push(Effect::Search(Job {
            id,
            purpose,
            game: self.game.clone(),
            request,
        }));
    }

    pub(crate) fn stop_thinking(&mut self) {
        if self.thinking.take().is_some() {
            self.effects.push(Effect::StopSearch);
        }
    }

    pub(crate) fn on_engine(&mut self, e: EngineEvent) {
        match e {
            EngineEvent::Info { id, thought } => {
                if self.thinking.map(|t| t.0) == Some(id) {
                    self.thought = Some(thought);
                }
            }
            EngineEvent::Done { id, best, thought } => {
                let Some((cur, purpose)) = self.thinking else {
                    return;
                };
                if cur != id {
                    return;
                }
                self.thinking = None;
                if self.searched != (self.game.position().zobrist(), self.game.ply_count()) {
                    // Judged on another position: the verdict does not apply to this one.
                    self.after_change();
                    return;
                }
                self.thought = Some(thought.clone());
                match purpose {
                    Purpose::Move => match best {
                        Some(mv) if self.game.position().is_legal(&mv) => self.play(mv),
                        _ => self.status = "The engine found no move.".into(),
                    },
                    Purpose::Hint => {
                        self.hint = best;
                        self.status = match best {
                            Some(m) => format!(
                                "Hint: {} ({}).",
                                self.game.position().move_text(&m),
                                thought.score
                            ),
                            None => "No hint: there is no legal move.".into(),
                        };
                        if let Some(m) = best {
                            self.cursor = (m.from().file(), m.from().rank());
                        }
                    }
                    Purpose::DrawOffer => {
                        // The search saw the human to move; turn the score to the engine's view.
                        let engine_view = thought.score.negate();
                        if Opponent::accepts_draw(engine_view, self.game.ply_count()) {
                            self.game.agree_draw();
                            self.status = format!("The engine accepts the draw ({engine_view}).");
                            self.after_change();
                        } else {
                            self.status = format!("The engine declines the draw ({engine_view}).");
                        }
                    }
                }
                // Whatever the search was for, the engine must not sit idle on its turn.
                if self.game.outcome().is_none() {
                    self.after_change();
                }
            }
        }
    }

    /// After any change of the game: report the end, or let the engine move.
    pub(crate) fn after_change(&mut self) {
        if let Some(o) = self.game.outcome() {
            self.stop_thinking();
            self.selected = None;
            if self.dialog.is_none() {
                self.popup = Some(Popup::GameOver);
            }
            self.status = format!("{o}.");
            return;
        }
        if self.dialog.is_none() && self.engine_side == Some(self.game.position().side_to_move()) {
            match self.thinking {
                Some((_, Purpose::Move)) => {}
                Some(_) => {
                    // A hint or draw search cannot hold up the engine's move.
                    self.stop_thinking();
                    self.search(Purpose::Move);
                }
                None => self.search(Purpose::Move),
            }
        } else if self.human_to_move() {
            self.home_cursor_if_idle();
        }
    }

    pub(crate) fn home_cursor_if_idle(&mut self) {
        let legal = self.game.legal_moves();
        let on_own = self
            .cursor_square()
            .is_some_and(|s| legal.iter().any(|m| m.from() == s));
        if !on_own {
            self.home_cursor();
        }
    }

    pub(crate) fn on_tick(&mut self, ms: u64) {
        if self.dialog.is_some()
            || self.clock_paused
            || self.game.outcome().is_some()
            || self.game.ply_count() == 0
        {
            return;
        }
        let stm = self.game.position().side_to_move();
        let Some(c) = &mut self.clocks else { return };
        let r = &mut c.remaining_ms[stm.index()];
        *r = r.saturating_sub(ms);
        if *r == 0 {
            self.stop_thinking();
            self.game.lose_on_time(stm);
            self.after_change();
        }
    }
}

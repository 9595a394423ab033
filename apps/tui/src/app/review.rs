//! The game review from the app: start or stop it, follow its reports, jump between its key
//! moments.

use crate::msg::Effect;
use crate::review::{ReviewEvent, ReviewState};
use crate::state::App;
use crown_notation as pdn;

impl App {
    /// "Review game": start a review of the moves so far, or stop the one running.
    pub fn review_game(&mut self) {
        if self.review.as_ref().is_some_and(|r| r.result.is_none()) {
            self.effects.push(Effect::StopReview);
            self.review = None;
            self.status = "Review stopped.".into();
            return;
        }
        if !self.engine_available {
            self.status = "This build has no engine to review with.".into();
            return;
        }
        let moves = self.game.moves();
        if moves.is_empty() {
            self.status = "No moves to review yet.".into();
            return;
        }
        let id = self.next_id;
        self.next_id += 1;
        self.effects.push(Effect::Review {
            id,
            start: *self.game.start(),
            moves: moves.clone(),
        });
        self.status = format!("Reviewing {} moves…", moves.len());
        self.review = Some(ReviewState {
            id,
            start: *self.game.start(),
            moves,
            done: 0,
            result: None,
        });
    }

    /// The review, when it belongs to this game (its moves and the game's agree on the plies both
    /// have).
    pub fn current_review(&self) -> Option<&ReviewState> {
        let r = self
            .review
            .as_ref()
            .filter(|r| r.start == *self.game.start())?;
        let moves = self.game.moves();
        let n = moves.len().min(r.moves.len());
        (moves[..n] == r.moves[..n]).then_some(r)
    }

    pub(crate) fn on_review(&mut self, e: ReviewEvent) {
        let Some(r) = self.review.as_mut() else {
            return;
        };
        match e {
            ReviewEvent::Progress { id, done } if id == r.id => r.done = done,
            ReviewEvent::Done { id, review } if id == r.id => match review {
                Some(review) => {
                    let first = review.first;
                    let count = |side| {
                        let s = review.summary(side);
                        format!(
                            "{side} {}?! {}? {}??",
                            s.inaccuracies, s.mistakes, s.blunders
                        )
                    };
                    self.status = format!(
                        "Review done: {}, {}. [ and ] jump between key moments.",
                        count(first),
                        count(first.opposite())
                    );
                    r.done = r.moves.len();
                    r.result = Some(*review);
                }
                None => self.review = None,
            },
            _ => {}
        }
    }

    /// Show the position after the next (or previous) key moment of the review: a turning point
    /// or a `?`/`??` move. From the live position, `]` goes to the first and `[` to the last.
    pub(crate) fn jump_moment(&mut self, forward: bool) {
        let Some(r) = self.current_review() else {
            self.status = "Press v to review the game first.".into();
            return;
        };
        let moments = r.key_moments();
        let n = self.game.ply_count();
        // The move shown now is the one before the position shown; from the live position `]`
        // starts at the beginning of the game.
        let cur = match self.view_ply {
            Some(v) => v as i64 - 1,
            None if forward => -1,
            None => n as i64,
        };
        let target = if forward {
            moments.iter().copied().find(|&p| p as i64 > cur)
        } else {
            moments.iter().rev().copied().find(|&p| (p as i64) < cur)
        };
        let Some(ply) = target.filter(|p| *p < n) else {
            self.status = "No more key moments that way.".into();
            return;
        };
        let text = self.describe_moment(ply);
        self.browse_to(Some(ply + 1));
        self.status = text;
    }

    /// `12... 23-19?? (balanced → Black winning; better 22-17 +0.35)` for the move at `ply`.
    pub(crate) fn describe_moment(&self, ply: usize) -> String {
        let Some(r) = self.current_review().and_then(|r| r.result.as_ref()) else {
            return String::new();
        };
        let Some((pos, mv)) = self.game.history().nth(ply) else {
            return String::new();
        };
        let (num, second) =
            pdn::move_number(self.game.variant(), self.game.start().side_to_move(), ply);
        let mut t = format!(
            "{num}{} {}",
            if second { "..." } else { "." },
            pos.move_text(mv)
        );
        let m = r.at(ply);
        if let Some(mark) = m.and_then(|m| m.mark) {
            t.push_str(mark.symbol());
        }
        if let Some(tp) = r.turning_points.iter().find(|t| t.ply == ply) {
            let band = |b| match b {
                crown_ai::review::Band::FirstWins => format!("{} winning", r.first),
                crown_ai::review::Band::SecondWins => format!("{} winning", r.first.opposite()),
                crown_ai::review::Band::Balanced => "balanced".to_string(),
            };
            t.push_str(&format!(" ({} -> {})", band(tp.before), band(tp.after)));
        }
        if let Some(m) = m.filter(|m| !m.is_best()) {
            t.push_str(&format!(
                "; better {} {}",
                pos.move_text(&m.best),
                m.best_score
            ));
        }
        t
    }
}

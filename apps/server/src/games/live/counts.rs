//! The APCA counts of an online pool game (rules 27 and 28; docs/rules.md, "Draws and counts";
//! docs/api.md, "APCA counts"): a seat claims the count the rules give it, the count's moves run
//! in the replayed [`crown_core::Game`], and the claim is kept in the record's meta so that
//! replaying the moves (a restart, another instance) makes it again at its ply.

use super::Live;
use crate::error::Error;
use crate::store::{CountClaim, GameRecord};
use crown_core::{Color, CountRule, Game, Variant};

/// The APCA rule number of `rule`: 27 (the 38-move count) or 28 (the 13-move count).
pub fn rule_number(rule: CountRule) -> u8 {
    match rule {
        CountRule::Thirteen => 28,
        CountRule::ThirtyEight => 27,
    }
}

/// The count rule of APCA rule number `n` (27 or 28), `None` for any other number.
fn rule_of(n: u8) -> Option<CountRule> {
    match n {
        28 => Some(CountRule::Thirteen),
        27 => Some(CountRule::ThirtyEight),
        _ => None,
    }
}

/// Make the claims of `rec` made at ply `ply` (plies played so far) on `game`.
///
/// # Errors
/// A message naming the game and the claim when a stored claim does not apply there (a record
/// the rules refuse: edited or corrupt).
pub(super) fn replay_claims(game: &mut Game, rec: &GameRecord, ply: usize) -> Result<(), String> {
    for c in rec.meta.counts.iter().filter(|c| c.ply == ply) {
        let rule = rule_of(c.rule).ok_or_else(|| {
            format!(
                "game {}: count claim at ply {ply}: no APCA rule {}",
                rec.id, c.rule
            )
        })?;
        game.claim_count(c.color.into(), rule)
            .map_err(|e| format!("game {}: count claim at ply {ply}: {e}", rec.id))?;
    }
    Ok(())
}

impl Live {
    /// `color` claims the APCA count the rules give it now: rule 28 (the 13-move count: its lone
    /// king against three kings) when it applies, else rule 27 (the 38-move count: `color` is
    /// weaker by points, a king 2, a man 1). From the claim on, the game is drawn when `color`
    /// completes the count's moves before the other side wins; the count stops when the material
    /// no longer fits the rule. Returns the rule's number (27 or 28).
    ///
    /// # Errors
    /// `game_over`, `seat_open` (and the other refusals of a game not being played),
    /// `not_pool` (the counts are pool rules), `already_counting` (a count is running),
    /// `not_entitled` (neither rule gives `color` a count in this position).
    pub fn claim_count(&mut self, color: Color, now: u64) -> Result<u8, Error> {
        self.require_playing()?;
        if self.game.variant() != Variant::Pool {
            return Err(Error::conflict(
                "not_pool",
                format!(
                    "the APCA counts (rules 27 and 28) are pool checkers rules; this game is {}",
                    self.rec.variant
                ),
            ));
        }
        if let Some(c) = self.game.count() {
            return Err(Error::conflict(
                "already_counting",
                format!(
                    "the rule {} count claimed by {} is running ({} of {} moves)",
                    rule_number(c.rule),
                    c.claimant.name(),
                    c.moves,
                    c.rule.limit()
                ),
            ));
        }
        let Some(rule) = self.game.claimable_count(color) else {
            let pos = self.game.position();
            let points = |c: Color| pos.men(c).len() + 2 * pos.kings(c).len();
            return Err(Error::conflict(
                "not_entitled",
                format!(
                    "{} may not claim a count here: rule 28 needs its lone king against three \
                     kings, rule 27 needs it weaker by points (a king 2, a man 1), and it has {} \
                     points against {}",
                    color.name(),
                    points(color),
                    points(color.opposite())
                ),
            ));
        };
        self.game
            .claim_count(color, rule)
            .map_err(|e| Error::conflict("not_entitled", e.to_string()))?;
        let n = rule_number(rule);
        self.rec.meta.counts.push(CountClaim {
            ply: self.rec.moves.len(),
            color: color.into(),
            rule: n,
        });
        self.refresh(now);
        Ok(n)
    }

    /// Forget the count claims made after the first `plies` plies (a takeback removed the
    /// moves they were made after; the replayed game's count went back with them).
    pub(super) fn drop_claims_after(&mut self, plies: usize) {
        self.rec.meta.counts.retain(|c| c.ply <= plies);
    }
}

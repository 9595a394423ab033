//! A pairing of a Swiss or a round robin is a **match of two games** with colours swapped from the
//! same opening (APCA rule 32: an even number of games, each player moving first equally often),
//! or a bye; a round is the list of its pairings and its opening.
//!
//! **Match points** (the first standings criterion): the player with more game points in the match
//! wins it and scores [`Scoring::match_win`] (2 by default), equal game points tie the match and
//! score [`Scoring::match_tie`] (1) each, a lost match scores [`Scoring::match_loss`] (0) — the
//! 2/1/0 of a game scaled to matches, so that a match score reads like a game score. A match in
//! which neither player scored a game point because both games were double forfeits is lost by
//! both (no player earns a tie by being absent).
//!
//! **Byes**: a player left without an opponent scores [`Scoring::bye_match_points`] (2: a match
//! win, as FIDE's pairing-allocated bye scores a win) and [`Scoring::bye_game_points`] (2: one game
//! won's worth, less than the 4 of a match won 2–0, so that game points still favour games won
//! at the board). The Swiss gives at most one bye per player when it can (see `swiss.rs`).

use crate::openings::Opening;
use crate::player::PlayerId;
use crate::result::{GameResult, Seat};
use serde::{Deserialize, Serialize};

/// The points of matches and byes (see the module documentation for the defaults and why).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scoring {
    /// Match points of a won match (default 2).
    pub match_win: u32,
    /// Match points of each player of a tied match (default 1).
    pub match_tie: u32,
    /// Match points of a lost match (default 0).
    pub match_loss: u32,
    /// Match points of a bye (default 2, a match win).
    pub bye_match_points: u32,
    /// Game points of a bye (default 2, one game won).
    pub bye_game_points: u32,
}

impl Default for Scoring {
    fn default() -> Scoring {
        Scoring {
            match_win: 2,
            match_tie: 1,
            match_loss: 0,
            bye_match_points: 2,
            bye_game_points: 2,
        }
    }
}

/// How a complete match ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MatchOutcome {
    /// The player in this seat scored more game points.
    Won(Seat),
    /// Equal game points (at least one scored).
    Tied,
    /// Both games were double forfeits: both players lose the match.
    BothLost,
}

/// One match of two games on one board of a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    /// The board number within the round, from 1.
    pub board: u32,
    /// The player who moves first in game 1 (seat [`Seat::First`]).
    pub first: PlayerId,
    /// The player who moves first in game 2 (seat [`Seat::Second`]).
    pub second: PlayerId,
    /// The results of games 1 and 2 (index 0 and 1), `None` until recorded.
    pub games: [Option<GameResult>; 2],
}

impl Match {
    /// A match without results on `board`, `first` moving first in game 1.
    pub const fn new(board: u32, first: PlayerId, second: PlayerId) -> Match {
        Match {
            board,
            first,
            second,
            games: [None, None],
        }
    }

    /// The player in `seat`.
    pub const fn player(&self, seat: Seat) -> PlayerId {
        match seat {
            Seat::First => self.first,
            Seat::Second => self.second,
        }
    }

    /// The seat of `player`, or `None` when they do not play in this match.
    pub fn seat_of(&self, player: PlayerId) -> Option<Seat> {
        if player == self.first {
            Some(Seat::First)
        } else if player == self.second {
            Some(Seat::Second)
        } else {
            None
        }
    }

    /// The opponent of `player` in this match, if they play in it.
    pub fn opponent_of(&self, player: PlayerId) -> Option<PlayerId> {
        self.seat_of(player).map(|s| self.player(s.other()))
    }

    /// Whether both games have a result.
    pub fn is_complete(&self) -> bool {
        self.games.iter().all(Option::is_some)
    }

    /// The number of games without a result (0, 1 or 2).
    pub fn missing(&self) -> usize {
        self.games.iter().filter(|g| g.is_none()).count()
    }

    /// The game points of the player in `seat` over the games recorded so far (see `result.rs`).
    pub fn game_points(&self, seat: Seat) -> u32 {
        self.games.iter().flatten().map(|g| g.points(seat)).sum()
    }

    /// The outcome once both games have a result, else `None`.
    pub fn outcome(&self) -> Option<MatchOutcome> {
        if !self.is_complete() {
            return None;
        }
        let (a, b) = (
            self.game_points(Seat::First),
            self.game_points(Seat::Second),
        );
        Some(match a.cmp(&b) {
            std::cmp::Ordering::Greater => MatchOutcome::Won(Seat::First),
            std::cmp::Ordering::Less => MatchOutcome::Won(Seat::Second),
            std::cmp::Ordering::Equal if a == 0 => MatchOutcome::BothLost,
            std::cmp::Ordering::Equal => MatchOutcome::Tied,
        })
    }

    /// The match points of the player in `seat` under `scoring`, once the match is complete.
    pub fn match_points(&self, seat: Seat, scoring: &Scoring) -> Option<u32> {
        Some(match self.outcome()? {
            MatchOutcome::Won(w) if w == seat => scoring.match_win,
            MatchOutcome::Won(_) | MatchOutcome::BothLost => scoring.match_loss,
            MatchOutcome::Tied => scoring.match_tie,
        })
    }
}

/// One entry of a round: a match, or a bye for a player without an opponent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pairing {
    /// Two players play a match.
    Match(Match),
    /// The player has no opponent this round and scores the bye's points.
    Bye(PlayerId),
}

impl Pairing {
    /// The players of this pairing (one for a bye).
    pub fn players(&self) -> Vec<PlayerId> {
        match self {
            Pairing::Match(m) => vec![m.first, m.second],
            Pairing::Bye(p) => vec![*p],
        }
    }
}

/// One round: its number, the opening both games of every match start from, and its pairings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The round number, from 1.
    pub number: u32,
    /// The opening of every game of the round (the director's draw, see `openings.rs`).
    pub opening: Opening,
    /// The matches (boards 1, 2, … in order) and at most one bye.
    pub pairings: Vec<Pairing>,
}

impl Round {
    /// The matches of the round, in board order.
    pub fn matches(&self) -> impl Iterator<Item = &Match> {
        self.pairings.iter().filter_map(|p| match p {
            Pairing::Match(m) => Some(m),
            Pairing::Bye(_) => None,
        })
    }

    /// The games of the round without a result.
    pub fn missing(&self) -> usize {
        self.matches().map(Match::missing).sum()
    }

    /// Whether every game of the round has a result (a round of byes only is complete).
    pub fn is_complete(&self) -> bool {
        self.missing() == 0
    }
}

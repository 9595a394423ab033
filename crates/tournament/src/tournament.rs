//! The lifecycle of a Swiss or round robin as a state machine:
//!
//! ```text
//! Created --join/withdraw--> Created --start--> Running --pair_round(1)--> … record results …
//!         --pair_round(2)--> … --finish--> Finished
//! ```
//!
//! Every transition is checked and a refused one returns a typed [`TournamentError`] with the state
//! unchanged: joining after the start, pairing a round out of order or before the previous one is
//! complete, pairing a round twice, recording a result twice (an error, never a double count),
//! recording into a round, board or game that does not exist. The whole state is serde, so a server
//! stores it after each transition; since a transition names its round and game, two instances
//! that race apply the same transition to the same stored state, and a conditional write of the
//! new state (compare and swap on the old one) lets exactly one win: no pairing is made twice and
//! no round is skipped.

use crate::error::TournamentError;
use crate::matches::{Pairing, Round};
use crate::openings::draw_opening;
use crate::player::{seed_order, Player, PlayerId};
use crate::record::records;
use crate::result::{GameResult, Seat};
use crate::round_robin::{round_robin_round, round_robin_rounds};
use crate::settings::{Format, Settings};
use crate::standings::{standings, Standing};
use crate::swiss::{pair_swiss, MAX_SWISS_PLAYERS};
use serde::{Deserialize, Serialize};

/// Where a tournament is in its lifecycle.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Players join and withdraw.
    Created,
    /// Rounds are paired and played.
    Running,
    /// Over: standings are final.
    Finished,
}

/// A Swiss or round robin: settings, players, rounds and phase (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    settings: Settings,
    players: Vec<Player>,
    phase: Phase,
    /// The players of the tournament in seed order, fixed at the start (empty before).
    seeding: Vec<PlayerId>,
    rounds: Vec<Round>,
    /// The rounds a Swiss plays, fixed at the start: its setting, or fewer when the players at
    /// the start allow fewer (`None` before the start, for a round robin, and in states stored
    /// before this field existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    swiss_rounds: Option<u32>,
    /// Why the tournament was cancelled before it started ([`Tournament::cancel`]), if it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cancelled: Option<String>,
}

impl Tournament {
    /// A tournament with no players yet, in phase [`Phase::Created`].
    ///
    /// # Errors
    /// [`TournamentError::Settings`]: see [`Settings::check`].
    pub fn new(settings: Settings) -> Result<Tournament, TournamentError> {
        settings.check()?;
        Ok(Tournament {
            settings,
            players: Vec::new(),
            phase: Phase::Created,
            seeding: Vec::new(),
            rounds: Vec::new(),
            swiss_rounds: None,
            cancelled: None,
        })
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Every player who joined, withdrawn ones included, in joining order (index = id).
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// The player with this id.
    ///
    /// # Errors
    /// [`TournamentError::NoSuchPlayer`].
    pub fn player(&self, id: PlayerId) -> Result<&Player, TournamentError> {
        self.players
            .get(id.0 as usize)
            .ok_or(TournamentError::NoSuchPlayer(id))
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The rounds paired so far, round 1 first.
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// The seeding fixed at the start (empty before it): Berger numbers of a round robin, initial
    /// ranking of a Swiss.
    pub fn seeding(&self) -> &[PlayerId] {
        &self.seeding
    }

    /// Why the tournament was cancelled before it started ([`Tournament::cancel`]), if it was.
    pub fn cancelled(&self) -> Option<&str> {
        self.cancelled.as_deref()
    }

    /// The number of rounds the tournament has: for a Swiss the rounds fixed at the start (the
    /// setting, or fewer when its players allow fewer: see [`Tournament::start`]) and the setting
    /// before it; for a round robin `round_robin::round_robin_rounds` of the players at the
    /// start (of those joined so far before it).
    pub fn total_rounds(&self) -> u32 {
        match self.settings.format {
            Format::Swiss { rounds } => self.swiss_rounds.unwrap_or(rounds),
            Format::RoundRobin => round_robin_rounds(if self.phase == Phase::Created {
                self.active().count()
            } else {
                self.seeding.len()
            }),
        }
    }

    /// A player joins under `name` (trimmed) with `rating` for the seeding (0 when unknown).
    ///
    /// # Errors
    /// [`TournamentError::AlreadyStarted`] / [`TournamentError::Finished`] after the start;
    /// [`TournamentError::BadName`]: empty, longer than [`MAX_NAME_CHARS`](crate::player::MAX_NAME_CHARS), or the name of a player
    /// already in (any case).
    pub fn join(&mut self, name: &str, rating: u32) -> Result<PlayerId, TournamentError> {
        self.require_created("join")?;
        crate::roster::enrol(&mut self.players, name, rating, |p| !p.withdrawn)
    }

    /// Before the start, a player joins under `name` with `rating` in the place of the withdrawn
    /// entry `id` (which keeps its id): the same account coming back, or a new player taking a
    /// place nobody uses, so that withdrawals do not add entries.
    ///
    /// # Errors
    /// As [`Tournament::join`], and [`TournamentError::NoSuchPlayer`] when `id` is not a
    /// withdrawn entry.
    pub fn reenter(
        &mut self,
        id: PlayerId,
        name: &str,
        rating: u32,
    ) -> Result<(), TournamentError> {
        self.require_created("join")?;
        crate::roster::reenter(&mut self.players, id, name, rating, |p| !p.withdrawn)
    }

    /// The player withdraws: before the start they are simply out; once running, a Swiss no
    /// longer pairs them and a round robin's later rounds record their games as lost by forfeit
    /// (results of rounds already paired are recorded as usual).
    ///
    /// # Errors
    /// [`TournamentError::NoSuchPlayer`], [`TournamentError::AlreadyWithdrawn`],
    /// [`TournamentError::Finished`].
    pub fn withdraw(&mut self, id: PlayerId) -> Result<(), TournamentError> {
        if self.phase == Phase::Finished {
            return Err(TournamentError::Finished {
                operation: "withdraw",
            });
        }
        crate::roster::withdraw(&mut self.players, id)
    }

    /// Starts the tournament: the seeding is fixed (`player::seed_order` of the players not
    /// withdrawn) and rounds can be paired. A Swiss of more rounds than a round robin of the
    /// field has (every round would need a new opponent for everyone) plays that many rounds
    /// instead, e.g. 1 round for 2 players: [`Tournament::total_rounds`] says so.
    ///
    /// # Errors
    /// [`TournamentError::AlreadyStarted`] / [`TournamentError::Finished`];
    /// [`TournamentError::TooFewPlayers`] with fewer than 2 players;
    /// [`TournamentError::Settings`]: a Swiss of more than [`MAX_SWISS_PLAYERS`] players.
    pub fn start(&mut self) -> Result<(), TournamentError> {
        self.require_created("start")?;
        let active: Vec<Player> = self.active().cloned().collect();
        if active.len() < 2 {
            return Err(TournamentError::TooFewPlayers(active.len()));
        }
        let mut swiss_rounds = None;
        if let Format::Swiss { rounds } = self.settings.format {
            if active.len() > MAX_SWISS_PLAYERS {
                return Err(TournamentError::Settings(format!(
                    "{} players: a Swiss pairs at most {MAX_SWISS_PLAYERS}",
                    active.len()
                )));
            }
            swiss_rounds = Some(rounds.min(round_robin_rounds(active.len())));
        }
        self.swiss_rounds = swiss_rounds;
        self.seeding = seed_order(&active);
        self.phase = Phase::Running;
        Ok(())
    }

    /// Pairs round `number`, which must be the next one (`rounds().len() + 1`), once the previous
    /// round is complete: draws its opening (`openings::draw_opening`) and makes its pairings
    /// (Swiss or Berger table). Returns the new round.
    ///
    /// # Errors
    /// [`TournamentError::NotStarted`] / [`TournamentError::Finished`];
    /// [`TournamentError::RoundAlreadyPaired`] for a round already paired;
    /// [`TournamentError::RoundOutOfOrder`] for a later round;
    /// [`TournamentError::RoundIncomplete`] while the previous round has games without a result;
    /// [`TournamentError::NoMoreRounds`] beyond the last round;
    /// [`TournamentError::NoPairing`] when the Swiss cannot pair it without a repeat.
    pub fn pair_round(&mut self, number: u32) -> Result<&Round, TournamentError> {
        self.require_running("pair a round")?;
        let next = self.rounds.len() as u32 + 1;
        if number < next {
            return Err(TournamentError::RoundAlreadyPaired(number));
        }
        if number > next {
            return Err(TournamentError::RoundOutOfOrder {
                asked: number,
                next,
            });
        }
        if let Some(last) = self.rounds.last() {
            if !last.is_complete() {
                return Err(TournamentError::RoundIncomplete {
                    round: last.number,
                    missing: last.missing(),
                });
            }
        }
        if number > self.total_rounds() {
            return Err(TournamentError::NoMoreRounds(self.total_rounds()));
        }
        let s = &self.settings;
        let opening = draw_opening(&s.openings, s.variant, s.seed, number)?;
        let withdrawn = |p: &PlayerId| self.players.get(p.0 as usize).is_some_and(|p| p.withdrawn);
        let pairings = match s.format {
            Format::Swiss { .. } => {
                let active: Vec<PlayerId> = self
                    .seeding
                    .iter()
                    .copied()
                    .filter(|p| !withdrawn(p))
                    .collect();
                let recs = records(&active, &self.rounds, &s.scoring);
                pair_swiss(&active, &recs, s.seed, number)?
            }
            Format::RoundRobin => round_robin_round(&self.seeding, number)
                .into_iter()
                .filter(|p| !matches!(p, Pairing::Bye(b) if withdrawn(b)))
                .map(|mut p| {
                    if let Pairing::Match(m) = &mut p {
                        let absent = (withdrawn(&m.first), withdrawn(&m.second));
                        let forfeit = match absent {
                            (true, true) => Some(GameResult::DoubleForfeit),
                            (true, false) => Some(GameResult::Forfeit {
                                absent: Seat::First,
                            }),
                            (false, true) => Some(GameResult::Forfeit {
                                absent: Seat::Second,
                            }),
                            (false, false) => None,
                        };
                        if forfeit.is_some() {
                            m.games = [forfeit, forfeit];
                        }
                    }
                    p
                })
                .collect(),
        };
        self.rounds.push(Round {
            number,
            opening,
            pairings,
        });
        Ok(&self.rounds[self.rounds.len() - 1])
    }

    /// Cancels a tournament that has not started (e.g. its start time came with too few
    /// players): it is [`Phase::Finished`] with no rounds, and [`Tournament::cancelled`] gives
    /// `reason` (trimmed).
    ///
    /// # Errors
    /// [`TournamentError::AlreadyStarted`] / [`TournamentError::Finished`].
    pub fn cancel(&mut self, reason: &str) -> Result<(), TournamentError> {
        self.require_created("cancel")?;
        self.cancelled = Some(reason.trim().to_string());
        self.phase = Phase::Finished;
        Ok(())
    }

    /// Records the result of game `game` (1 or 2) of the match on `board` of round `round`, seen
    /// from the match's seats ([`Seat::First`] moves first in game 1).
    ///
    /// # Errors
    /// [`TournamentError::NotStarted`] / [`TournamentError::Finished`];
    /// [`TournamentError::NoSuchRound`], [`TournamentError::NoSuchBoard`],
    /// [`TournamentError::NoSuchGame`]; [`TournamentError::AlreadyRecorded`] when the game has a
    /// result (the same one or another: a result is never counted twice nor silently replaced).
    pub fn record(
        &mut self,
        round: u32,
        board: u32,
        game: u8,
        result: GameResult,
    ) -> Result<(), TournamentError> {
        self.require_running("record a result")?;
        let slot = Seat::moving_first_in(game).ok_or(TournamentError::NoSuchGame(game))? as usize;
        let r = self
            .rounds
            .iter_mut()
            .find(|r| r.number == round)
            .ok_or(TournamentError::NoSuchRound(round))?;
        let m = r
            .pairings
            .iter_mut()
            .find_map(|p| match p {
                Pairing::Match(m) if m.board == board => Some(m),
                _ => None,
            })
            .ok_or(TournamentError::NoSuchBoard { round, board })?;
        if m.games[slot].is_some() {
            return Err(TournamentError::AlreadyRecorded { round, board, game });
        }
        m.games[slot] = Some(result);
        Ok(())
    }

    /// Ends the tournament once the last round paired is complete — after the last scheduled
    /// round, or earlier when the director decides (e.g. a Swiss that can no longer be paired).
    ///
    /// # Errors
    /// [`TournamentError::NotStarted`] / [`TournamentError::Finished`];
    /// [`TournamentError::RoundIncomplete`] while a round has games without a result.
    pub fn finish(&mut self) -> Result<(), TournamentError> {
        self.require_running("finish")?;
        if let Some(last) = self.rounds.last() {
            if !last.is_complete() {
                return Err(TournamentError::RoundIncomplete {
                    round: last.number,
                    missing: last.missing(),
                });
            }
        }
        self.phase = Phase::Finished;
        Ok(())
    }

    /// The standings after the complete matches so far (`standings.rs`), every player of the
    /// seeding (before the start: the players joined, in seed order).
    pub fn standings(&self) -> Vec<Standing> {
        let seeded = if self.seeding.is_empty() {
            let active: Vec<Player> = self.active().cloned().collect();
            seed_order(&active)
        } else {
            self.seeding.clone()
        };
        standings(&seeded, &self.rounds, &self.settings.scoring)
    }

    /// The crosstable of [`Tournament::standings`].
    pub fn crosstable(&self) -> crate::crosstable::Crosstable {
        crate::crosstable::crosstable(&self.standings(), &self.rounds)
    }

    /// The players who have not withdrawn.
    fn active(&self) -> impl Iterator<Item = &Player> {
        self.players.iter().filter(|p| !p.withdrawn)
    }

    fn require_created(&self, operation: &'static str) -> Result<(), TournamentError> {
        match self.phase {
            Phase::Created => Ok(()),
            Phase::Running => Err(TournamentError::AlreadyStarted { operation }),
            Phase::Finished => Err(TournamentError::Finished { operation }),
        }
    }

    fn require_running(&self, operation: &'static str) -> Result<(), TournamentError> {
        match self.phase {
            Phase::Running => Ok(()),
            Phase::Created => Err(TournamentError::NotStarted { operation }),
            Phase::Finished => Err(TournamentError::Finished { operation }),
        }
    }
}

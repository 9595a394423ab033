//! The arena: a tournament of a fixed duration in which a player is paired again as soon as they
//! are free, scored as lichess scores its arenas.
//!
//! **Scoring** (lichess's arena help, "How are scores calculated?", lichess.org/tournament/help
//! ?system=arena, as quoted in club reports such as chandlersfordchess.org.uk/results-of-online-
//! tournament-23rd-june; and lila's `modules/tournament/…/arena/ScoringSystem.scala`): "A win has
//! a base score of 2 points, a draw 1 point, and a loss is worth no points. If you win two games
//! consecutively you will start a double point streak … The following games will continue to be
//! worth double points until you fail to win a game" — so after two wins in a row a player is
//! **on fire**: a win scores 4, a draw 2, a loss 0, and the first non-win ends the streak (two
//! wins then a draw: 2 + 2 + 2 = 6). A game lost or won by forfeit counts as a loss or a win.
//! Lichess's berserk bonus (+1 for a win after giving up half the clock) and its rule against
//! draw streaks are clock and move-count matters left to the server; they are not modelled here.
//!
//! **Pairing** (lila's arena pairing, "no immediate rematch", ornicar/lila issue 6394): the free
//! players (joined, not withdrawn, not in a game) are ranked by score, then seed, and the best
//! ranked free player meets the next ranked free player who was not their last opponent, and
//! waits when only that opponent is free — unless the arena has only two active players, who then
//! meet again (as lila does, lichess-org/lila issue 11682). Who moves first goes to the player who has moved first
//! less often (then the one who did not move first last time, then the higher ranked).
//!
//! **Bounds** (against an arena farmed by accounts that resign at once): a game that ended too
//! short to be a game ([`Arena::record_short`]; the server's rule: fewer plies than its rated
//! minimum) is kept in the list but scores nothing and is no step of a streak; and
//! [`Arena::pair_free_with`] pairs no player who has played `max_games` games (they stay in the
//! standings) nor a player the server holds back for a while.

use crate::error::TournamentError;
use crate::openings::{draw_opening, Opening, OpeningRule};
use crate::player::{seed_order, Player, PlayerId};
use crate::result::{GameResult, Seat, DRAW_POINTS, WIN_POINTS};
use crate::settings::variant_id;
use crate::tournament::Phase;
use crown_core::Variant;
use serde::{Deserialize, Serialize};

/// One game's result for one player of an arena.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ArenaOutcome {
    /// Won (a forfeit by the opponent included).
    Win,
    /// Drawn.
    Draw,
    /// Lost (a forfeit included).
    Loss,
}

/// The arena points of each game of a player's `history` (in the order played; see the module
/// documentation): 2 a win, 1 a draw, 0 a loss, doubled while on fire.
pub fn arena_points(history: &[ArenaOutcome]) -> Vec<u32> {
    history
        .iter()
        .enumerate()
        .map(|(i, outcome)| {
            let base = match outcome {
                ArenaOutcome::Win => WIN_POINTS,
                ArenaOutcome::Draw => DRAW_POINTS,
                ArenaOutcome::Loss => 0,
            };
            if on_fire(&history[..i]) {
                2 * base
            } else {
                base
            }
        })
        .collect()
}

/// Whether a player with `history` is on fire: their last two games were wins.
pub fn on_fire(history: &[ArenaOutcome]) -> bool {
    history.len() >= 2 && history[history.len() - 2..] == [ArenaOutcome::Win; 2]
}

/// One game of an arena.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaGame {
    /// The player who moves first (seat [`Seat::First`]).
    pub first: PlayerId,
    /// The other player (seat [`Seat::Second`]).
    pub second: PlayerId,
    /// Where the game starts.
    pub opening: Opening,
    /// The result, `None` while the game is in progress.
    pub result: Option<GameResult>,
    /// Whether it ended too short to count ([`Arena::record_short`]): no points, no streak.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub short: bool,
}

/// What one pass over an arena's games knows of one player (so that pairing and standings read
/// the games once, not once per player).
#[derive(Clone, Debug, Default)]
struct Tally {
    /// The outcomes of the counted finished games, in pairing order.
    history: Vec<ArenaOutcome>,
    /// The games paired, in progress and short ones included.
    paired: u32,
    /// Whether a game of theirs is in progress.
    busy: bool,
    /// Games moving first minus games moving second.
    first_balance: i64,
    /// Whether they moved first in their latest game.
    last_first: Option<bool>,
    /// The opponent of their latest game.
    last_opponent: Option<PlayerId>,
    /// The sum of the performance terms of the counted games (opponent's rating ± 500).
    performance_sum: i64,
}

/// One line of an arena's standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaStanding {
    /// The place, from 1.
    pub rank: u32,
    /// The player.
    pub player: PlayerId,
    /// Arena points (see the module documentation).
    pub score: u32,
    /// Games finished.
    pub games: u32,
    /// Whether the player is on fire now.
    pub on_fire: bool,
    /// The points of each finished game, in the order played (lichess's little numbers).
    pub points: Vec<u32>,
    /// The performance (the tie-break, as lichess's): the mean of the opponents' ratings (at
    /// joining) plus 500 a win and minus 500 a loss, rounded down; `None` before a first game.
    pub performance: Option<u32>,
}

/// An arena: its players and games, from creation to finish (phases as [`Phase`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arena {
    /// The name: the PDN `Event` tag.
    pub name: String,
    /// The game played.
    #[serde(with = "variant_id")]
    pub variant: Variant,
    /// The opening rule: game `k` (from 1) starts from the opening drawn for "round" `k`.
    pub openings: OpeningRule,
    /// The seed of the openings.
    pub seed: u64,
    players: Vec<Player>,
    phase: Phase,
    games: Vec<ArenaGame>,
}

impl Arena {
    /// An arena with no players, in phase [`Phase::Created`].
    ///
    /// # Errors
    /// [`TournamentError::Settings`]: an empty name or an opening rule of another game.
    pub fn new(
        name: &str,
        variant: Variant,
        openings: OpeningRule,
        seed: u64,
    ) -> Result<Arena, TournamentError> {
        if name.trim().is_empty() {
            return Err(TournamentError::Settings("the name is empty".into()));
        }
        openings.check(variant)?;
        Ok(Arena {
            name: name.trim().to_string(),
            variant,
            openings,
            seed,
            players: Vec::new(),
            phase: Phase::Created,
            games: Vec::new(),
        })
    }

    /// The players, in joining order (index = id).
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// The games, in the order they were paired (index = game id).
    pub fn games(&self) -> &[ArenaGame] {
        &self.games
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// A player joins (before the start or while running, as in lichess's arenas).
    ///
    /// # Errors
    /// [`TournamentError::Finished`]; [`TournamentError::BadName`] as for
    /// `Tournament::join`.
    pub fn join(&mut self, name: &str, rating: u32) -> Result<PlayerId, TournamentError> {
        if self.phase == Phase::Finished {
            return Err(TournamentError::Finished { operation: "join" });
        }
        crate::roster::enrol(&mut self.players, name, rating, |_| true)
    }

    /// The player leaves (lichess's pause): not paired again until [`Arena::rejoin`] (a game in
    /// progress still gets its result; their points stay).
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

    /// Before the start, a player joins under `name` with `rating` in the place of the withdrawn
    /// entry `id` (which keeps its id; it has no points yet), so that withdrawals before the
    /// start do not add entries.
    ///
    /// # Errors
    /// [`TournamentError::AlreadyStarted`] / [`TournamentError::Finished`] after the start, and
    /// those of [`Arena::join`], [`TournamentError::NoSuchPlayer`] when `id` is not a withdrawn
    /// entry.
    pub fn reenter(
        &mut self,
        id: PlayerId,
        name: &str,
        rating: u32,
    ) -> Result<(), TournamentError> {
        match self.phase {
            Phase::Created => {}
            Phase::Running => return Err(TournamentError::AlreadyStarted { operation: "join" }),
            Phase::Finished => return Err(TournamentError::Finished { operation: "join" }),
        }
        crate::roster::reenter(&mut self.players, id, name, rating, |_| true)
    }

    /// A player who left comes back while the arena has not finished: paired again, with the
    /// points and streak they had.
    ///
    /// # Errors
    /// [`TournamentError::NoSuchPlayer`] (also for a player who has not left),
    /// [`TournamentError::Finished`].
    pub fn rejoin(&mut self, id: PlayerId) -> Result<(), TournamentError> {
        if self.phase == Phase::Finished {
            return Err(TournamentError::Finished {
                operation: "rejoin",
            });
        }
        match self.players.get_mut(id.0 as usize) {
            Some(p) if p.withdrawn => {
                p.withdrawn = false;
                Ok(())
            }
            _ => Err(TournamentError::NoSuchPlayer(id)),
        }
    }

    /// Starts the arena (the server calls it at the start time).
    ///
    /// # Errors
    /// [`TournamentError::AlreadyStarted`] / [`TournamentError::Finished`].
    pub fn start(&mut self) -> Result<(), TournamentError> {
        match self.phase {
            Phase::Created => {
                self.phase = Phase::Running;
                Ok(())
            }
            Phase::Running => Err(TournamentError::AlreadyStarted { operation: "start" }),
            Phase::Finished => Err(TournamentError::Finished { operation: "start" }),
        }
    }

    /// Pairs the free players (see the module documentation) and returns the ids of the new games:
    /// [`Arena::pair_free_with`] with no bound on the games and nobody held back.
    ///
    /// # Errors
    /// As [`Arena::pair_free_with`].
    pub fn pair_free(&mut self) -> Result<Vec<usize>, TournamentError> {
        self.pair_free_with(u32::MAX, &[])
    }

    /// Pairs the free players (see the module documentation) and returns the ids of the new games.
    /// A player who has been paired `max_games` times, or who is in `held`, is not free (their
    /// games and points stay). Nothing is paired while fewer than two players are free.
    ///
    /// # Errors
    /// [`TournamentError::NotStarted`] / [`TournamentError::Finished`]; an opening that cannot be
    /// drawn ([`TournamentError::Settings`]).
    pub fn pair_free_with(
        &mut self,
        max_games: u32,
        held: &[PlayerId],
    ) -> Result<Vec<usize>, TournamentError> {
        match self.phase {
            Phase::Running => {}
            Phase::Created => {
                return Err(TournamentError::NotStarted {
                    operation: "pair players",
                })
            }
            Phase::Finished => {
                return Err(TournamentError::Finished {
                    operation: "pair players",
                })
            }
        }
        let tallies = self.tallies();
        let tally = |p: PlayerId| &tallies[p.0 as usize];
        // Ranked by score, then seed (the performance tie-break is the standings' only).
        let mut ranked: Vec<(u32, PlayerId)> = seed_order(&self.players)
            .into_iter()
            .map(|p| (arena_points(&tally(p).history).iter().sum(), p))
            .collect();
        ranked.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
        let mut free: Vec<PlayerId> = ranked
            .into_iter()
            .map(|(_, p)| p)
            .filter(|p| {
                !tally(*p).busy
                    && tally(*p).paired < max_games
                    && !held.contains(p)
                    && !self.players[p.0 as usize].withdrawn
            })
            .collect();
        let two_only = self.players.iter().filter(|p| !p.withdrawn).count() == 2;
        let mut new = Vec::new();
        while free.len() >= 2 {
            let a = free.remove(0);
            let last = tally(a).last_opponent;
            let pick = free
                .iter()
                .position(|b| Some(*b) != last && tally(*b).last_opponent != Some(a))
                .or(if two_only { Some(0) } else { None });
            // Nobody but the last opponent is free: wait for another.
            let Some(pick) = pick else { continue };
            let b = free.remove(pick);
            let (first, second) = if moves_first(tally(a), tally(b)) {
                (a, b)
            } else {
                (b, a)
            };
            let opening = draw_opening(
                &self.openings,
                self.variant,
                self.seed,
                self.games.len() as u32 + 1,
            )?;
            self.games.push(ArenaGame {
                first,
                second,
                opening,
                result: None,
                short: false,
            });
            new.push(self.games.len() - 1);
        }
        Ok(new)
    }

    /// How many games `player` has been paired in (in progress and short ones included).
    pub fn games_of(&self, player: PlayerId) -> u32 {
        self.games
            .iter()
            .filter(|g| g.first == player || g.second == player)
            .count() as u32
    }

    /// Records the result of game `game` as [`Arena::record`] does, but as a game that ended too
    /// short to count: it scores nothing for either player and neither makes nor breaks a
    /// streak.
    ///
    /// # Errors
    /// As [`Arena::record`].
    pub fn record_short(&mut self, game: usize, result: GameResult) -> Result<(), TournamentError> {
        self.record(game, result)?;
        self.games[game].short = true;
        Ok(())
    }

    /// One pass over the games: what each player (by index) has played.
    fn tallies(&self) -> Vec<Tally> {
        let mut t = vec![Tally::default(); self.players.len()];
        for g in &self.games {
            for (me, seat, opp) in [
                (g.first, Seat::First, g.second),
                (g.second, Seat::Second, g.first),
            ] {
                let Some(x) = t.get_mut(me.0 as usize) else {
                    continue;
                };
                x.paired += 1;
                x.first_balance += if seat == Seat::First { 1 } else { -1 };
                x.last_first = Some(seat == Seat::First);
                x.last_opponent = Some(opp);
                let Some(r) = g.result else {
                    x.busy = true;
                    continue;
                };
                if g.short {
                    continue;
                }
                let outcome = outcome_of(r, seat);
                x.history.push(outcome);
                let rating = self
                    .players
                    .get(opp.0 as usize)
                    .map_or(0, |p| i64::from(p.rating));
                x.performance_sum += rating
                    + match outcome {
                        ArenaOutcome::Win => 500,
                        ArenaOutcome::Draw => 0,
                        ArenaOutcome::Loss => -500,
                    };
            }
        }
        t
    }

    /// Records the result of game `game` (an id from [`Arena::pair_free`]). Allowed after
    /// [`Arena::finish`] for a game that was in progress: it was paired in time and counts.
    ///
    /// # Errors
    /// [`TournamentError::NotStarted`]; [`TournamentError::NoSuchArenaGame`] for an unknown
    /// game or one that already has a result (never counted twice).
    pub fn record(&mut self, game: usize, result: GameResult) -> Result<(), TournamentError> {
        if self.phase == Phase::Created {
            return Err(TournamentError::NotStarted {
                operation: "record a result",
            });
        }
        match self.games.get_mut(game) {
            Some(g) if g.result.is_none() => {
                g.result = Some(result);
                Ok(())
            }
            _ => Err(TournamentError::NoSuchArenaGame(game)),
        }
    }

    /// Ends the arena (the server calls it when the duration is over): nobody is paired again.
    ///
    /// # Errors
    /// [`TournamentError::NotStarted`] / [`TournamentError::Finished`].
    pub fn finish(&mut self) -> Result<(), TournamentError> {
        match self.phase {
            Phase::Running => {
                self.phase = Phase::Finished;
                Ok(())
            }
            Phase::Created => Err(TournamentError::NotStarted {
                operation: "finish",
            }),
            Phase::Finished => Err(TournamentError::Finished {
                operation: "finish",
            }),
        }
    }

    /// The outcomes of `player`'s finished games that count (not [`ArenaGame::short`]), in
    /// pairing order.
    pub fn history(&self, player: PlayerId) -> Vec<ArenaOutcome> {
        self.tallies()
            .get(player.0 as usize)
            .map(|t| t.history.clone())
            .unwrap_or_default()
    }

    /// The standings: arena points, then performance (as lichess breaks ties), then seed
    /// (players who left keep their points). Games that ended short count for nothing.
    pub fn standings(&self) -> Vec<ArenaStanding> {
        let tallies = self.tallies();
        let mut lines: Vec<ArenaStanding> = seed_order(&self.players)
            .into_iter()
            .map(|p| {
                let t = &tallies[p.0 as usize];
                let points = arena_points(&t.history);
                let n = t.history.len() as i64;
                ArenaStanding {
                    rank: 0,
                    player: p,
                    score: points.iter().sum(),
                    games: t.history.len() as u32,
                    on_fire: on_fire(&t.history),
                    points,
                    performance: (n > 0).then(|| t.performance_sum.div_euclid(n).max(0) as u32),
                }
            })
            .collect();
        // Stable: equal score and performance keep the seed order.
        lines.sort_by_key(|l| (std::cmp::Reverse(l.score), std::cmp::Reverse(l.performance)));
        for (i, l) in lines.iter_mut().enumerate() {
            l.rank = i as u32 + 1;
        }
        lines
    }
}

/// The outcome of result `r` for the player of `seat`.
fn outcome_of(r: GameResult, seat: Seat) -> ArenaOutcome {
    match (r.points(seat), r.points(seat.other())) {
        (WIN_POINTS, _) => ArenaOutcome::Win,
        (DRAW_POINTS, DRAW_POINTS) => ArenaOutcome::Draw,
        _ => ArenaOutcome::Loss,
    }
}

/// Whether `a` (ranked above `b`) moves first against `b`: the one who moved first less often,
/// then the one who did not move first last time, then `a`.
fn moves_first(a: &Tally, b: &Tally) -> bool {
    match a.first_balance.cmp(&b.first_balance) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => a.last_first != Some(true) || b.last_first == Some(true),
    }
}

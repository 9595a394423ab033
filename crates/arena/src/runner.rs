//! Running many games: [`Pool`] spreads numbered jobs over worker threads and hands their results
//! to the calling thread in the order they end; [`Match`] plays game pairs (each opening with
//! colours swapped) on a pool. A stop flag (set by Ctrl-C, say) starts no new game; the callbacks
//! decide after each result whether to go on.

use crate::game::{self, GameRecord, SeatConfig, Seats};
use crate::openings::Openings;
use crate::ArenaError;
use crown_core::{Game, Variant};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// What the caller tells the runner after a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Continue,
    /// Start no new job (the jobs in progress finish and are reported).
    Halt,
    /// Start nothing new, not even the next game of a job in progress.
    Abort,
}

/// A worker thread's link to the runner.
pub struct Worker<'a, T> {
    tx: mpsc::Sender<T>,
    abort: &'a AtomicBool,
    stop: &'a AtomicBool,
}

impl<T> Worker<'_, T> {
    /// Whether the worker must start nothing new: the caller aborted, or the stop flag is set.
    pub fn stopped(&self) -> bool {
        self.abort.load(Ordering::Relaxed) || self.stop.load(Ordering::Relaxed)
    }

    /// Hand a result to the calling thread; `false` when it no longer listens.
    pub fn report(&self, result: T) -> bool {
        self.tx.send(result).is_ok()
    }
}

/// Jobs `0..jobs` on `threads` worker threads (at most one per job).
#[derive(Clone, Copy, Debug)]
pub struct Pool<'a> {
    /// Number of jobs.
    pub jobs: usize,
    /// Worker threads (at least 1 is used when there are jobs).
    pub threads: usize,
    /// Set from outside (e.g. by a Ctrl-C handler): no new job or game starts.
    pub stop: &'a AtomicBool,
}

impl Pool<'_> {
    /// Run the jobs. Each worker makes its state with `init` (`None` ends the worker, which may
    /// first report why through its [`Worker`]), then takes the next job number while no [`Flow::Halt`], abort or stop came, and runs
    /// `work(state, job, worker)`, which reports results through the worker and returns whether the
    /// worker may go on. `on_result` runs on the calling thread for each result as it arrives;
    /// the call returns when every worker has ended.
    pub fn run<S, T: Send>(
        &self,
        init: impl Fn(&Worker<T>) -> Option<S> + Sync,
        work: impl Fn(&mut S, usize, &Worker<T>) -> bool + Sync,
        mut on_result: impl FnMut(T) -> Flow,
    ) {
        let next = AtomicUsize::new(0);
        let halt = AtomicBool::new(false);
        let abort = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<T>();
        std::thread::scope(|scope| {
            for _ in 0..self.threads.max(1).min(self.jobs) {
                let worker = Worker {
                    tx: tx.clone(),
                    abort: &abort,
                    stop: self.stop,
                };
                let (init, work, next, halt, jobs) = (&init, &work, &next, &halt, self.jobs);
                scope.spawn(move || {
                    let Some(mut state) = init(&worker) else {
                        return;
                    };
                    loop {
                        if halt.load(Ordering::Relaxed) || worker.stopped() {
                            return;
                        }
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= jobs || !work(&mut state, i, &worker) {
                            return;
                        }
                    }
                });
            }
            drop(tx);
            for result in rx {
                match on_result(result) {
                    Flow::Continue => {}
                    Flow::Halt => halt.store(true, Ordering::Relaxed),
                    Flow::Abort => abort.store(true, Ordering::Relaxed),
                }
            }
        });
    }
}

/// A finished game of a match.
#[derive(Clone, Debug)]
pub struct PairGame {
    /// The game pair (from 0): the opening's number.
    pub pair: usize,
    /// Whether this is the pair's second game (seat 0, engine A, plays the other colour).
    pub second: bool,
    /// The game.
    pub record: GameRecord,
}

impl PairGame {
    /// The round in PDN terms, `PAIR.GAME` from 1: e.g. `2.1`.
    pub fn round(&self) -> String {
        round(self.pair, self.second)
    }
}

fn round(pair: usize, second: bool) -> String {
    format!("{}.{}", pair + 1, 1 + usize::from(second))
}

/// What a match reports as it goes.
#[derive(Debug)]
pub enum MatchEvent<'a> {
    /// A game ended (reported before its pair, if that completes).
    Game(&'a PairGame),
    /// Both games of a pair ended: the first (A plays the opening's side to move), the second.
    Pair(&'a [PairGame; 2]),
    /// A game failed (an [`ArenaError::Game`]) or a worker's players could not be made: no new
    /// game starts.
    Failed(ArenaError),
}

/// How a match ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchSummary {
    /// Games finished (each reported as [`MatchEvent::Game`]).
    pub finished: usize,
    /// The rounds of finished games whose pair did not finish, in order.
    pub unpaired: Vec<String>,
}

/// A match: engine A (seat 0) against engine B (seat 1), game pairs from `openings`, each opening
/// played twice with the colours swapped.
#[derive(Clone, Debug)]
pub struct Match<'a> {
    /// The game.
    pub variant: Variant,
    /// Where pair `i` starts ([`Openings::get`]).
    pub openings: &'a Openings,
    /// Number of game pairs.
    pub pairs: usize,
    /// Pairs played at once, each worker with its own players.
    pub concurrency: usize,
    /// Draw adjudicated at this many plies (from the opening).
    pub max_plies: usize,
    /// Engine A's and engine B's settings.
    pub seats: [SeatConfig; 2],
    /// Set from outside (e.g. by a Ctrl-C handler): no new game starts.
    pub stop: &'a AtomicBool,
}

impl Match<'_> {
    /// Play the match. Each worker makes its players with `players`; `on_event` runs on the
    /// calling thread for every [`MatchEvent`] and may halt (no new pair) or abort (no new game).
    /// A failed game aborts the match.
    pub fn run<P: Seats>(
        &self,
        players: impl Fn() -> Result<P, ArenaError> + Sync,
        mut on_event: impl FnMut(MatchEvent<'_>) -> Flow,
    ) -> MatchSummary {
        let pool = Pool {
            jobs: self.pairs,
            threads: self.concurrency,
            stop: self.stop,
        };
        // Finished games whose pair is not complete yet: [A first, B first].
        let mut pending: BTreeMap<usize, [Option<PairGame>; 2]> = BTreeMap::new();
        let mut finished = 0usize;
        let work = |players: &mut P, i: usize, worker: &Worker<Result<PairGame, ArenaError>>| {
            let opening = self.openings.get(self.variant, i);
            for second in [false, true] {
                if worker.stopped() {
                    return false;
                }
                let first = opening.side_to_move();
                let a_color = if second { first.opposite() } else { first };
                let seats = [&self.seats[0], &self.seats[1]];
                let start = Game::from_position(opening);
                let result = game::play(
                    players,
                    seats,
                    start,
                    a_color,
                    self.max_plies,
                    &mut |_, _| {},
                )
                .map(|record| PairGame {
                    pair: i,
                    second,
                    record,
                })
                .map_err(|e| ArenaError::Game {
                    round: round(i, second),
                    opening: opening.to_fen(),
                    source: Box::new(e),
                });
                let failed = result.is_err();
                if !worker.report(result) || failed {
                    return false;
                }
            }
            true
        };
        let init = |worker: &Worker<Result<PairGame, ArenaError>>| match players() {
            Ok(p) => Some(p),
            Err(e) => {
                worker.report(Err(e));
                None
            }
        };
        pool.run(init, work, |result| {
            let game = match result {
                Ok(g) => g,
                Err(e) => {
                    on_event(MatchEvent::Failed(e));
                    return Flow::Abort;
                }
            };
            let mut flow = on_event(MatchEvent::Game(&game));
            finished += 1;
            let i = game.pair;
            let slot = pending.entry(i).or_default();
            let k = usize::from(game.second);
            slot[k] = Some(game);
            if slot.iter().all(Option::is_some) {
                if let Some([Some(first), Some(second)]) = pending.remove(&i) {
                    let pair = [first, second];
                    flow = strongest(flow, on_event(MatchEvent::Pair(&pair)));
                }
            }
            flow
        });
        let unpaired = pending
            .iter()
            .flat_map(|(&i, slot)| {
                slot.iter()
                    .enumerate()
                    .filter(|(_, g)| g.is_some())
                    .map(move |(k, _)| round(i, k == 1))
            })
            .collect();
        MatchSummary { finished, unpaired }
    }
}

/// The stronger of two flows (abort over halt over continue).
fn strongest(a: Flow, b: Flow) -> Flow {
    match (a, b) {
        (Flow::Abort, _) | (_, Flow::Abort) => Flow::Abort,
        (Flow::Halt, _) | (_, Flow::Halt) => Flow::Halt,
        _ => Flow::Continue,
    }
}

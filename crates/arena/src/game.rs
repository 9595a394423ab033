//! The one game loop: two seats (or one player in self-play) move in turn under their limits and
//! clocks until the game ends, a player loses on time, the ply cap adjudicates a draw, or an
//! adjudicator (e.g. the endgame databases of self-play data) gives the result.

use crate::{ArenaError, Player, Reply};
use crown_ai::{Clock, Limits};
use crown_core::{Color, Game};
use std::time::Instant;

/// The players of the two seats of a game, seat 0 and seat 1.
pub trait Seats {
    /// A new game begins: tell every player ([`Player::new_game`]), seat 0 first.
    ///
    /// # Errors
    /// A player's [`Player::new_game`] error.
    fn new_game(&mut self) -> Result<(), ArenaError>;

    /// The player of `seat` (0 or 1).
    fn seat(&mut self, seat: usize) -> &mut dyn Player;
}

impl<A: Player, B: Player> Seats for (A, B) {
    fn new_game(&mut self) -> Result<(), ArenaError> {
        self.0.new_game()?;
        self.1.new_game()
    }

    fn seat(&mut self, seat: usize) -> &mut dyn Player {
        if seat == 0 {
            &mut self.0
        } else {
            &mut self.1
        }
    }
}

/// Self-play: one player (one hash table) moves for both seats.
#[derive(Debug)]
pub struct SelfPlay<P>(pub P);

impl<P: Player> Seats for SelfPlay<P> {
    fn new_game(&mut self) -> Result<(), ArenaError> {
        self.0.new_game()
    }

    fn seat(&mut self, _seat: usize) -> &mut dyn Player {
        &mut self.0
    }
}

/// How one seat plays: its name in messages, its search limits and its game clock.
#[derive(Clone, Debug, Default)]
pub struct SeatConfig {
    /// The seat's name in errors and time-loss notes, e.g. `A`.
    pub name: String,
    /// The limits of every move (the clock's time left is added to them when it has a clock).
    pub limits: Limits,
    /// The game clock (start time and increment, ms): the seat loses on time when a move takes
    /// longer than the time it has left; `None` is no clock.
    pub clock: Option<Clock>,
}

/// A loss on time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLoss {
    /// The seat that lost (0 or 1).
    pub seat: usize,
    /// The time its last move took, in ms.
    pub used_ms: u64,
    /// The time it had left for that move, in ms.
    pub left_ms: u64,
    /// The game's ply count when it moved.
    pub ply: usize,
}

/// A result given before the game's end by the adjudicator of [`play_adjudicated`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adjudication {
    /// This colour wins.
    Win(Color),
    /// A draw.
    Draw,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The game, its history from the start given to [`play`].
    pub game: Game,
    /// The colour seat 0 played.
    pub seat0_color: Color,
    /// Seat 0's points in half points: 2 for a win, 1 for a draw (or the ply cap), 0 for a loss.
    pub half_points: u8,
    /// The adjudicator's result, when it ended the game ([`play_adjudicated`]); the game itself
    /// then has no outcome.
    pub adjudication: Option<Adjudication>,
    /// The loss on time that ended the game, if one did.
    pub time_loss: Option<TimeLoss>,
    /// The longest time one move took, in ms, for seat 0 and seat 1.
    pub longest_ms: [u64; 2],
}

impl GameRecord {
    /// Whether `seat` lost this game on time.
    pub fn lost_on_time(&self, seat: usize) -> bool {
        self.time_loss.is_some_and(|t| t.seat == seat)
    }

    /// The winner: by the game's outcome, or by the adjudication; `None` for a draw (the ply cap
    /// included).
    pub fn winner(&self) -> Option<Color> {
        match self.adjudication {
            Some(Adjudication::Win(c)) => Some(c),
            Some(Adjudication::Draw) => None,
            None => self.game.outcome().and_then(|o| o.winner()),
        }
    }
}

/// Play `start` to its end: seat 0 plays `seat0_color`, each seat under its [`SeatConfig`], until
/// the game has an outcome, a seat loses on time, a player has no move to give at the end of the
/// game, or the game reaches `max_plies` plies (counted from the start of its history: a draw).
/// `observe` sees each reply with a move, before the move is played. Every player is told
/// [`Seats::new_game`] first.
///
/// # Errors
/// A player's error, or [`ArenaError::Player`] when a player gives no move where the side to move
/// has legal moves (`engine NAME answered no move (done move=none) at ply …`) or an illegal move.
pub fn play<S: Seats + ?Sized>(
    seats: &mut S,
    configs: [&SeatConfig; 2],
    start: Game,
    seat0_color: Color,
    max_plies: usize,
    observe: &mut dyn FnMut(&Game, &Reply),
) -> Result<GameRecord, ArenaError> {
    play_adjudicated(
        seats,
        configs,
        start,
        seat0_color,
        max_plies,
        &mut |_| None,
        observe,
    )
}

/// [`play`] with an adjudicator: before each move (while the game has no outcome and is below
/// `max_plies`), `adjudicate` sees the game and may end it with a result
/// ([`GameRecord::adjudication`]); the game's last position is then the one it judged.
///
/// # Errors
/// As [`play`].
pub fn play_adjudicated<S: Seats + ?Sized>(
    seats: &mut S,
    configs: [&SeatConfig; 2],
    start: Game,
    seat0_color: Color,
    max_plies: usize,
    adjudicate: &mut dyn FnMut(&Game) -> Option<Adjudication>,
    observe: &mut dyn FnMut(&Game, &Reply),
) -> Result<GameRecord, ArenaError> {
    seats.new_game()?;
    let mut game = start;
    // Remaining clock time of seat 0 and seat 1, in ms.
    let mut left = configs.map(|c| c.clock.map(|c| c.remaining_ms));
    let mut time_loss = None;
    let mut longest_ms = [0u64; 2];
    let mut adjudication = None;
    while game.outcome().is_none() && game.ply_count() < max_plies {
        if let Some(a) = adjudicate(&game) {
            adjudication = Some(a);
            break;
        }
        let mover = game.position().side_to_move();
        let seat = usize::from(mover != seat0_color);
        let config = configs[seat];
        let mut limits = config.limits.clone();
        if let (Some(c), Some(ms)) = (config.clock, left[seat]) {
            limits.clock = Some(Clock {
                remaining_ms: ms,
                increment_ms: c.increment_ms,
            });
        }
        let t0 = Instant::now();
        let reply = seats.seat(seat).go(&game, &limits)?;
        let used = t0.elapsed().as_millis() as u64;
        longest_ms[seat] = longest_ms[seat].max(used);
        if let (Some(c), Some(ms)) = (config.clock, left[seat]) {
            if used > ms {
                time_loss = Some(TimeLoss {
                    seat,
                    used_ms: used,
                    left_ms: ms,
                    ply: game.ply_count(),
                });
                game.lose_on_time(mover);
                break;
            }
            left[seat] = Some(ms - used + c.increment_ms);
        }
        let Some(mv) = reply.best_move else {
            if game.legal_moves().is_empty() {
                break;
            }
            return Err(ArenaError::Player(format!(
                "engine {} answered no move (done move=none) at ply {} in \"{}\", where it has legal moves",
                config.name,
                game.ply_count(),
                game.position().to_fen()
            )));
        };
        observe(&game, &reply);
        game.play(&mv).map_err(|e| {
            ArenaError::Player(format!(
                "engine {} played an illegal move at ply {}: {e}",
                config.name,
                game.ply_count()
            ))
        })?;
    }
    let mut record = GameRecord {
        game,
        seat0_color,
        half_points: 1,
        adjudication,
        time_loss,
        longest_ms,
    };
    record.half_points = match record.winner() {
        Some(w) if w == seat0_color => 2,
        Some(_) => 0,
        None => 1,
    };
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown_ai::{Engine, EngineOptions};
    use crown_core::Variant;

    fn engine() -> Engine {
        Engine::new(EngineOptions {
            hash_mib: 1,
            threads: 1,
            level: None,
        })
    }

    /// The ply cap adjudicates a draw; the observer sees every move; self-play is one player.
    #[test]
    fn the_ply_cap_is_a_draw_and_every_move_is_observed() {
        let seat = SeatConfig {
            name: "A".into(),
            limits: Limits::depth(1),
            clock: None,
        };
        let mut seen = 0;
        let start = Game::new(Variant::American);
        let r = play(
            &mut SelfPlay(engine()),
            [&seat, &seat],
            start,
            Color::Black,
            6,
            &mut |_, reply| {
                assert!(reply.score.is_some());
                seen += 1;
            },
        )
        .unwrap();
        assert_eq!((r.game.ply_count(), seen, r.half_points), (6, 6, 1));
        assert!(!r.lost_on_time(0) && !r.lost_on_time(1));
    }

    /// The adjudicator ends the game at the first position it judges, with its result.
    #[test]
    fn an_adjudication_ends_the_game_with_its_result() {
        let seat = SeatConfig {
            name: "A".into(),
            limits: Limits::depth(1),
            clock: None,
        };
        let mut seen = 0;
        let r = play_adjudicated(
            &mut SelfPlay(engine()),
            [&seat, &seat],
            Game::new(Variant::American),
            Color::White,
            100,
            &mut |g| (g.ply_count() == 4).then_some(Adjudication::Win(Color::White)),
            &mut |_, _| seen += 1,
        )
        .unwrap();
        assert_eq!((r.game.ply_count(), seen), (4, 4));
        assert!(r.game.outcome().is_none());
        assert_eq!(r.winner(), Some(Color::White));
        assert_eq!(r.half_points, 2);
    }

    /// A player that gives no move where it has legal moves is an error naming it.
    #[test]
    fn no_move_with_legal_moves_is_an_error() {
        struct Mute;
        impl Player for Mute {
            fn new_game(&mut self) -> Result<(), ArenaError> {
                Ok(())
            }
            fn go(&mut self, _: &Game, _: &Limits) -> Result<Reply, ArenaError> {
                Ok(Reply {
                    best_move: None,
                    score: None,
                })
            }
        }
        let (a, b) = (
            SeatConfig {
                name: "A".into(),
                limits: Limits::depth(1),
                clock: None,
            },
            SeatConfig {
                name: "B".into(),
                ..SeatConfig::default()
            },
        );
        let e = play(
            &mut (engine(), Mute),
            [&a, &b],
            Game::new(Variant::American),
            Color::Black,
            10,
            &mut |_, _| {},
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("engine B answered no move (done move=none) at ply 1 in \"W:"),
            "{e}"
        );
    }
}

//! The one game loop: two seats (or one player in self-play) move in turn under their limits and
//! clocks until the game ends, a player loses on time, or the ply cap adjudicates a draw.

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

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The game, its history from the start given to [`play`].
    pub game: Game,
    /// The colour seat 0 played.
    pub seat0_color: Color,
    /// Seat 0's points in half points: 2 for a win, 1 for a draw (or the ply cap), 0 for a loss.
    pub half_points: u8,
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
    seats.new_game()?;
    let mut game = start;
    // Remaining clock time of seat 0 and seat 1, in ms.
    let mut left = configs.map(|c| c.clock.map(|c| c.remaining_ms));
    let mut time_loss = None;
    let mut longest_ms = [0u64; 2];
    while game.outcome().is_none() && game.ply_count() < max_plies {
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
    let half_points = match game.outcome().and_then(|o| o.winner()) {
        Some(w) if w == seat0_color => 2,
        Some(_) => 0,
        None => 1,
    };
    Ok(GameRecord {
        game,
        seat0_color,
        half_points,
        time_loss,
        longest_ms,
    })
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

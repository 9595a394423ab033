//! [`Game`]: a position with its history, and the rules that need history: threefold repetition, the
//! 40-move rule, and the APCA counts (rules 27 and 28).

use crate::moves::{Move, MoveList};
use crate::position::{MoveError, Position};
use crate::square::{Color, Role};
use crate::variant::{ImpasseSetup, Variant};
use std::fmt;

/// Why a game was won.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser has no pieces left (American rule 9, APCA rule 26).
    NoPiecesLeft,
    /// The loser has pieces but no legal move (American rule 4, APCA rule 26).
    NoLegalMove,
    /// Impasse: the winner removed all of its checkers.
    AllCheckersRemoved,
    /// The loser resigned.
    Resignation,
    /// The loser ran out of time.
    Time,
}

/// Why a game was drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The same position with the same side to move occurred for the third time (Crown default rule).
    Repetition,
    /// 40 moves of each side without a capture or a man move (Crown default rule).
    FortyMoveRule,
    /// APCA rule 28: the lone king completed 13 moves against three kings.
    ThirteenCount,
    /// APCA rule 27: the weaker side completed 38 moves after claiming the count.
    ThirtyEightCount,
    /// Both players agreed.
    Agreement,
}

/// The end of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// Why.
        reason: WinReason,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: DrawReason,
    },
}

impl Outcome {
    /// The winner, if any.
    pub const fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            Outcome::Draw { .. } => None,
        }
    }

    /// The PDN result from the first player's point of view (PDN 2.0 checkers convention, also used
    /// by Crown for Impasse): `1-0` when the side that moves first won, `0-1` when the other side won,
    /// `1/2-1/2` for a draw.
    pub fn pdn_result(&self, variant: Variant) -> &'static str {
        match self.winner() {
            None => "1/2-1/2",
            Some(c) if c == variant.first_player() => "1-0",
            Some(_) => "0-1",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => {
                let why = match reason {
                    WinReason::NoPiecesLeft => "the opponent has no pieces left",
                    WinReason::NoLegalMove => "the opponent has no legal move",
                    WinReason::AllCheckersRemoved => "all of its checkers are removed",
                    WinReason::Resignation => "the opponent resigned",
                    WinReason::Time => "the opponent ran out of time",
                };
                write!(f, "{winner} wins: {why}")
            }
            Outcome::Draw { reason } => {
                let why = match reason {
                    DrawReason::Repetition => "threefold repetition",
                    DrawReason::FortyMoveRule => "40 moves each without a capture or a man move",
                    DrawReason::ThirteenCount => {
                        "the lone king completed the 13-move count (APCA rule 28)"
                    }
                    DrawReason::ThirtyEightCount => {
                        "the weaker side completed the 38-move count (APCA rule 27)"
                    }
                    DrawReason::Agreement => "agreed",
                };
                write!(f, "draw: {why}")
            }
        }
    }
}

/// Which history-dependent draw rules apply (the rule sheets are silent on them; both are on by
/// default and can be switched off for analysis).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DrawRules {
    /// Threefold repetition of the position with the same side to move.
    pub repetition: bool,
    /// 40 moves of each side (80 plies) without a capture or a man move.
    pub forty_moves: bool,
}

impl Default for DrawRules {
    fn default() -> Self {
        DrawRules {
            repetition: true,
            forty_moves: true,
        }
    }
}

/// Plies without a capture or man move after which the 40-move rule draws (40 moves of each side).
pub const FORTY_MOVE_PLIES: u32 = 80;

/// The APCA counts a pool player may claim.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CountRule {
    /// APCA rule 28: with exactly four pieces, all kings, three against one, the lone king's side
    /// draws when it completes 13 moves.
    Thirteen,
    /// APCA rule 27: the weaker side (a king 2 points, a man 1) claims; the stronger side must win
    /// before the weaker side completes 38 moves.
    ThirtyEight,
}

impl CountRule {
    /// Moves of the claiming side that end the count in a draw.
    pub const fn limit(self) -> u32 {
        match self {
            CountRule::Thirteen => 13,
            CountRule::ThirtyEight => 38,
        }
    }
}

/// A running APCA count.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Count {
    /// Which rule.
    pub rule: CountRule,
    /// The side that claimed it and whose moves are counted.
    pub claimant: Color,
    /// Moves the claimant has completed since the claim.
    pub moves: u32,
}

/// Why a move or claim was refused by [`Game`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game is already over.
    GameOver(Outcome),
    /// The move is not legal.
    Move(MoveError),
    /// The APCA count claim does not apply (not pool, wrong material, wrong side).
    Claim(String),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::GameOver(o) => write!(f, "the game is over ({o})"),
            GameError::Move(e) => e.fmt(f),
            GameError::Claim(why) => write!(f, "count claim refused: {why}"),
        }
    }
}

impl std::error::Error for GameError {}

impl From<MoveError> for GameError {
    fn from(e: MoveError) -> Self {
        GameError::Move(e)
    }
}

#[derive(Copy, Clone, Debug)]
struct Ply {
    before: Position,
    mv: Move,
    quiet: u32,
    count: Option<Count>,
}

/// A game: start position, moves played, and the rules that depend on history.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    plies: Vec<Ply>,
    quiet: u32,
    count: Option<Count>,
    rules: DrawRules,
    /// Resignation, agreement or time, set by the players rather than the board.
    declared: Option<Outcome>,
}

impl Game {
    /// A new game of `variant` from its start position (Impasse: the seed setup).
    pub fn new(variant: Variant) -> Game {
        Game::from_position(Position::new(variant))
    }

    /// A new Impasse game from the chosen setup.
    pub fn impasse(setup: ImpasseSetup) -> Game {
        Game::from_position(Position::impasse(setup))
    }

    /// A game starting from any legal position.
    pub fn from_position(start: Position) -> Game {
        Game {
            start,
            position: start,
            plies: Vec::new(),
            quiet: 0,
            count: None,
            rules: DrawRules::default(),
            declared: None,
        }
    }

    /// Choose which draw rules apply.
    pub fn set_draw_rules(&mut self, rules: DrawRules) {
        self.rules = rules;
    }

    /// The draw rules in force.
    pub fn draw_rules(&self) -> DrawRules {
        self.rules
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.position.variant()
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played so far.
    pub fn moves(&self) -> Vec<Move> {
        self.plies.iter().map(|p| p.mv).collect()
    }

    /// The position before each move and the move, in order (for writing move lists).
    pub fn history(&self) -> impl Iterator<Item = (&Position, &Move)> {
        self.plies.iter().map(|p| (&p.before, &p.mv))
    }

    /// Number of plies (half-moves) played.
    pub fn ply_count(&self) -> usize {
        self.plies.len()
    }

    /// Plies since the last capture or man move (the 40-move rule counter).
    pub fn quiet_plies(&self) -> u32 {
        self.quiet
    }

    /// The running APCA count, if one was claimed.
    pub fn count(&self) -> Option<Count> {
        self.count
    }

    /// The legal moves now; empty once the game is over (including draws).
    pub fn legal_moves(&self) -> MoveList {
        if self.outcome().is_some() {
            MoveList::new()
        } else {
            self.position.legal_moves()
        }
    }

    /// The outcome, or `None` while the game goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.declared {
            return Some(o);
        }
        let pos = &self.position;
        if let Some(winner) = pos.winner() {
            let reason = if pos.variant() == Variant::Impasse {
                WinReason::AllCheckersRemoved
            } else if pos.piece_count(winner.opposite()) == 0 {
                WinReason::NoPiecesLeft
            } else {
                WinReason::NoLegalMove
            };
            return Some(Outcome::Win { winner, reason });
        }
        if !pos.variant().is_draughts() {
            return None;
        }
        if let Some(c) = self.count {
            if c.moves >= c.rule.limit() {
                let reason = match c.rule {
                    CountRule::Thirteen => DrawReason::ThirteenCount,
                    CountRule::ThirtyEight => DrawReason::ThirtyEightCount,
                };
                return Some(Outcome::Draw { reason });
            }
        }
        if self.rules.forty_moves && self.quiet >= FORTY_MOVE_PLIES {
            return Some(Outcome::Draw {
                reason: DrawReason::FortyMoveRule,
            });
        }
        if self.rules.repetition && self.repetitions() >= 2 {
            return Some(Outcome::Draw {
                reason: DrawReason::Repetition,
            });
        }
        None
    }

    /// How many times the current position occurred before (same pieces, same side to move).
    pub fn repetitions(&self) -> usize {
        let n = self.plies.len();
        let window = (self.quiet as usize).min(n);
        self.plies[n - window..]
            .iter()
            .filter(|p| p.before == self.position)
            .count()
    }

    /// Play a legal move.
    ///
    /// # Errors
    /// [`GameError::GameOver`] after the end, [`GameError::Move`] for a move that is not legal here;
    /// the game is unchanged.
    pub fn play(&mut self, mv: &Move) -> Result<(), GameError> {
        if let Some(o) = self.outcome() {
            return Err(GameError::GameOver(o));
        }
        let legal = self.position.legal_moves();
        let Some(found) = legal.iter().find(|m| *m == mv) else {
            return Err(GameError::Move(MoveError::Illegal {
                text: mv.short_text(),
                legal: self
                    .position
                    .legal_moves_sorted()
                    .iter()
                    .map(|m| self.position.move_text(m))
                    .collect(),
            }));
        };
        self.push(*found);
        Ok(())
    }

    /// Play a move given in notation (see [`Position::parse_move`]); returns the move played.
    ///
    /// # Errors
    /// As [`Game::play`], plus syntax and ambiguity errors from [`Position::parse_move`].
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        if let Some(o) = self.outcome() {
            return Err(GameError::GameOver(o));
        }
        let mv = self.position.parse_move(text)?;
        self.push(mv);
        Ok(mv)
    }

    fn push(&mut self, mv: Move) {
        let before = self.position;
        let mover = before.side_to_move();
        let man_moved = before.piece_at(mv.from()).map(|p| p.role) == Some(Role::Man);
        self.plies.push(Ply {
            before,
            mv,
            quiet: self.quiet,
            count: self.count,
        });
        self.position.play(&mv);
        self.quiet = if mv.is_capture() || man_moved {
            0
        } else {
            self.quiet + 1
        };
        if let Some(mut c) = self.count {
            if c.claimant == mover {
                c.moves += 1;
            }
            self.count = if count_applies(&self.position, c.rule, c.claimant) {
                Some(c)
            } else {
                None
            };
        }
    }

    /// Take back the last move; returns it, or `None` at the start. Also clears a declared result.
    pub fn undo(&mut self) -> Option<Move> {
        if self.declared.take().is_some() {
            return None;
        }
        let ply = self.plies.pop()?;
        self.position = ply.before;
        self.quiet = ply.quiet;
        self.count = ply.count;
        Some(ply.mv)
    }

    /// `color` resigns: the other side wins (ignored once the game is over).
    pub fn resign(&mut self, color: Color) {
        if self.outcome().is_none() {
            self.declared = Some(Outcome::Win {
                winner: color.opposite(),
                reason: WinReason::Resignation,
            });
        }
    }

    /// `color` ran out of time: the other side wins (ignored once the game is over).
    pub fn lose_on_time(&mut self, color: Color) {
        if self.outcome().is_none() {
            self.declared = Some(Outcome::Win {
                winner: color.opposite(),
                reason: WinReason::Time,
            });
        }
    }

    /// Both players agreed to a draw (ignored once the game is over).
    pub fn agree_draw(&mut self) {
        if self.outcome().is_none() {
            self.declared = Some(Outcome::Draw {
                reason: DrawReason::Agreement,
            });
        }
    }

    /// The APCA count `claimant` may claim now, if any: rule 28 (the 13 count) when it applies, else
    /// rule 27 (the 38 count) when `claimant` is weaker by points (a king 2, a man 1). `None` when
    /// neither applies, outside pool checkers, while a count is running, or once the game is over.
    /// Three kings against a lone king also satisfy rule 27; rule 28 is the one the rules give for
    /// that ending, so it is preferred. Front ends offer this claim to the player.
    pub fn claimable_count(&self, claimant: Color) -> Option<CountRule> {
        if self.variant() != Variant::Pool || self.count.is_some() || self.outcome().is_some() {
            return None;
        }
        [CountRule::Thirteen, CountRule::ThirtyEight]
            .into_iter()
            .find(|&rule| count_applies(&self.position, rule, claimant))
    }

    /// `claimant` starts an APCA count (pool only).
    ///
    /// # Errors
    /// [`GameError::Claim`] when the rule does not apply: not pool, rule 28 without exactly three
    /// kings against a lone king of `claimant`, rule 27 when `claimant` is not weaker by points, a
    /// count already running, or the game over.
    pub fn claim_count(&mut self, claimant: Color, rule: CountRule) -> Result<(), GameError> {
        if let Some(o) = self.outcome() {
            return Err(GameError::GameOver(o));
        }
        if self.variant() != Variant::Pool {
            return Err(GameError::Claim(
                "the APCA counts apply only to pool checkers".into(),
            ));
        }
        if self.count.is_some() {
            return Err(GameError::Claim("a count is already running".into()));
        }
        if !count_applies(&self.position, rule, claimant) {
            return Err(GameError::Claim(match rule {
                CountRule::Thirteen => format!(
                    "rule 28 needs exactly three kings against a lone {} king",
                    claimant.name()
                ),
                CountRule::ThirtyEight => {
                    format!(
                        "rule 27 needs {} to be weaker (a king 2 points, a man 1)",
                        claimant.name()
                    )
                }
            }));
        }
        self.count = Some(Count {
            rule,
            claimant,
            moves: 0,
        });
        Ok(())
    }
}

/// Points for APCA rule 27: a king 2, a man 1.
fn points(pos: &Position, color: Color) -> u32 {
    pos.men(color).len() as u32 + 2 * pos.kings(color).len() as u32
}

fn count_applies(pos: &Position, rule: CountRule, claimant: Color) -> bool {
    let other = claimant.opposite();
    match rule {
        CountRule::Thirteen => {
            pos.men(claimant).is_empty()
                && pos.men(other).is_empty()
                && pos.kings(claimant).len() == 1
                && pos.kings(other).len() == 3
        }
        CountRule::ThirtyEight => points(pos, claimant) < points(pos, other),
    }
}

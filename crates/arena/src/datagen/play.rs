//! The one self-play loop of the training data: a game of one engine against itself whose quiet
//! positions ([`quiet`]) are labelled with the game's result, the search score clipped to
//! ±[`SCORE_CLIP`] and (with endgame databases) their exact value. [`super::DataGen`] plays every
//! game of `crown tune gen --out-dir` with it, and `crown tune gen --out` (text data) too, from its
//! own openings.

use crate::game::{self, Adjudication, SeatConfig, SelfPlay};
use crate::ArenaError;
use crown_ai::eval::EvalKind;
use crown_ai::tables::pieces_on_board;
use crown_ai::{EndgameTables, Engine, EngineOptions, Limits, Score, Wdl};
use crown_core::{Game, Position};
use crown_train::dataset::Record;
use std::sync::Arc;

/// Largest search score stored, in centi-men: wins and losses are stored as ±this.
pub const SCORE_CLIP: i32 = 2000;

/// Transposition table of each self-play engine, in MiB.
const HASH_MIB: usize = 4;

/// Whether `pos` is quiet: neither the side to move nor (were it to move) the other side has a
/// capture. Impasse has no captures, so all its positions are quiet.
pub fn quiet(pos: &Position) -> bool {
    !pos.must_capture() && !pos.can_capture(pos.side_to_move().opposite())
}

/// A search score for the data: centi-men clipped to ±[`SCORE_CLIP`], wins and losses at the clip.
fn clip(score: Option<Score>) -> i16 {
    let v = match score {
        Some(Score::Value(v)) => v.clamp(-SCORE_CLIP, SCORE_CLIP),
        Some(Score::Win(_) | Score::DatabaseWin(_)) => SCORE_CLIP,
        Some(Score::Loss(_) | Score::DatabaseLoss(_)) => -SCORE_CLIP,
        None => 0,
    };
    v as i16
}

/// How each self-play game is played and labelled (the part of [`super::DataSettings`] that is
/// not about openings or chunks).
#[derive(Clone, Copy)]
pub struct PlayRules<'a> {
    /// The search limits of every move.
    pub limits: &'a Limits,
    /// The evaluation (`None`: the game's default, [`EvalKind::default_for`]).
    pub eval: Option<EvalKind>,
    /// Draw adjudicated at this many plies from the game's first position (the start or ballot).
    pub max_plies: u32,
    /// Endgame databases: the engine searches with them and the positions they hold get their
    /// exact value.
    pub tables: Option<&'a Arc<dyn EndgameTables>>,
    /// End a game at its first position the databases hold, with their result.
    pub adjudicate: bool,
}

/// One self-play game's labelled positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// Its quiet positions, labelled, in the order played.
    pub records: Vec<Record>,
    /// Its length in plies from the game's first position.
    pub plies: usize,
}

impl PlayRules<'_> {
    /// The exact value of `pos` in the databases, when they hold it.
    pub fn probe(&self, pos: &Position) -> Option<Wdl> {
        let t = self.tables?;
        if pieces_on_board(pos) > t.max_pieces(pos.variant()) {
            return None;
        }
        t.probe(pos).map(|p| p.wdl)
    }

    /// Play `game` on to its end with a fresh engine on both sides; `before` plies were played
    /// before `game`'s history begins (they count toward [`PlayRules::max_plies`] and the records'
    /// plies). Every record is numbered `number`.
    ///
    /// # Errors
    /// The engine gave no move or an illegal one ([`ArenaError::Game`], naming game `number`).
    pub fn play(&self, game: Game, before: usize, number: u32) -> Result<Played, ArenaError> {
        let mut engine = Engine::new(EngineOptions {
            hash_mib: HASH_MIB,
            threads: 1,
            level: None,
        });
        engine.set_eval(self.eval);
        engine.set_tables(self.tables.cloned());
        let seat = SeatConfig {
            name: "(self-play)".into(),
            limits: self.limits.clone(),
            clock: None,
        };
        // (position, score, ply) of each quiet position, labelled once the result is known.
        let mut rows: Vec<(Position, i16, usize)> = Vec::new();
        let color = game.position().side_to_move();
        let mut adjudicate = |g: &Game| {
            if !self.adjudicate {
                return None;
            }
            let side = g.position().side_to_move();
            self.probe(g.position()).map(|w| match w {
                Wdl::Win => Adjudication::Win(side),
                Wdl::Loss => Adjudication::Win(side.opposite()),
                Wdl::Draw => Adjudication::Draw,
            })
        };
        let record = game::play_adjudicated(
            &mut SelfPlay(engine),
            [&seat, &seat],
            game,
            color,
            (self.max_plies as usize).saturating_sub(before),
            &mut adjudicate,
            &mut |g, reply| {
                let pos = *g.position();
                if quiet(&pos) {
                    rows.push((pos, clip(reply.score), before + g.ply_count()));
                }
            },
        )
        .map_err(|e| ArenaError::Game {
            round: format!("{number}"),
            opening: "(self-play data)".into(),
            source: Box::new(e),
        })?;
        // The judged position ends the game unsearched: its score is the databases' value.
        if let Some(a) = record.adjudication {
            let pos = *record.game.position();
            if quiet(&pos) {
                let score = match a {
                    Adjudication::Draw => 0,
                    Adjudication::Win(c) if c == pos.side_to_move() => SCORE_CLIP as i16,
                    Adjudication::Win(_) => -SCORE_CLIP as i16,
                };
                rows.push((pos, score, before + record.game.ply_count()));
            }
        }
        let winner = record.winner();
        let records = rows
            .into_iter()
            .map(|(position, score, ply)| Record {
                position,
                result: match winner {
                    Some(w) if w == position.side_to_move() => Wdl::Win,
                    Some(_) => Wdl::Loss,
                    None => Wdl::Draw,
                },
                score,
                game: number,
                ply: u16::try_from(ply).ok().filter(|&p| p < u16::MAX),
                exact: self.probe(&position),
            })
            .collect();
        Ok(Played {
            records,
            plies: before + record.game.ply_count(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown_core::{Color, Variant};

    /// A position where the side to move has no capture but the other side has one is not quiet
    /// (American rule: a man captures forward only; pool: backward too).
    #[test]
    fn a_capture_of_either_side_makes_a_position_loud() {
        // Black to move: its man on 14 cannot jump White's 18 (23 is taken); White's man on 18
        // could jump it to 9.
        let only_white = Position::from_fen(Variant::American, "B:W18,23:B14").unwrap();
        assert!(!only_white.must_capture());
        assert!(only_white.can_capture(Color::White));
        assert!(!quiet(&only_white));
        // White to move there must capture: not quiet either.
        let white_moves = Position::from_fen(Variant::American, "W:W18,23:B14").unwrap();
        assert!(white_moves.must_capture() && !quiet(&white_moves));
        // Far apart: quiet.
        let calm = Position::from_fen(Variant::American, "B:W29:B1").unwrap();
        assert!(quiet(&calm));
        // White to move has no capture in either game (17 and 21 block its men); Black's man on
        // 14 could jump White's 10 backwards to 7, which only pool's men may do.
        let fen = "W:W10,17,21:B14";
        let pool = Position::from_fen(Variant::Pool, fen).unwrap();
        let american = Position::from_fen(Variant::American, fen).unwrap();
        assert!(!pool.must_capture() && pool.can_capture(Color::Black) && !quiet(&pool));
        assert!(quiet(&american), "American men do not capture backwards");
        // Impasse has no captures.
        assert!(quiet(&Position::new(Variant::Impasse)));
    }
}

//! Static evaluation in centi-men (100 = one man) from the side to move's view.
//!
//! - [`board`]: the one view of a position every evaluation reads (four 32-bit sets and the side to
//!   move) with the board's geometry; the search builds it once per node.
//! - [`classic`]: the hand-set evaluation of each game ([`EvalKind::Classic`]).
//! - [`trained`]: the pattern evaluation whose weights `crown tune` learns ([`EvalKind::Trained`],
//!   the default of pool and Impasse, and of American positions of fewer than
//!   [`network::MIN_PIECES`] pieces); [`layout`]: where its features lie in the weight table;
//!   [`weights`]: its weights files and their format.
//! - [`network`]: the NNUE-style network evaluation with an incremental accumulator
//!   ([`EvalKind::Network`], American's default with its embedded network).
//!
//! Whether a side has a capture (the quiescence's threat test) is core's
//! [`crown_core::Position::can_capture`].

pub(crate) mod board;
pub mod classic;
pub mod layout;
pub mod network;
pub mod trained;
pub mod weights;

use board::Board;
pub use classic::{AM_KING, POOL_KING};
use crown_core::{Position, Variant};
use weights::Weights;

/// Which evaluation the engine uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EvalKind {
    /// The hand-set evaluation ([`classic`]).
    Classic,
    /// The trained pattern evaluation ([`trained`]) with the embedded weights of the game
    /// (the classic one when the game has no loadable weights).
    Trained,
    /// The network evaluation ([`network`]) with the network given to the engine
    /// (`Engine::set_network`) for its game, else the one embedded for the game
    /// ([`network::embedded`]); a game with neither is evaluated as with [`EvalKind::Trained`].
    Network,
}

impl EvalKind {
    /// The evaluation used by default for `variant`, whichever won by SPRT (docs/engine.md lists
    /// the results): American the embedded network, pool and Impasse the trained pattern
    /// evaluation.
    pub fn default_for(variant: Variant) -> EvalKind {
        match variant {
            Variant::American => EvalKind::Network,
            Variant::Pool | Variant::Impasse => EvalKind::Trained,
        }
    }

    /// The weights this kind uses for `variant` (`None`: the classic evaluation).
    pub(crate) fn weights(self, variant: Variant) -> Option<&'static Weights> {
        match self {
            EvalKind::Classic => None,
            EvalKind::Trained | EvalKind::Network => trained::embedded(variant),
        }
    }
}

impl std::str::FromStr for EvalKind {
    type Err = String;

    /// `classic`, `trained` or `network`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "classic" => Ok(EvalKind::Classic),
            "trained" => Ok(EvalKind::Trained),
            "network" => Ok(EvalKind::Network),
            _ => Err(format!(
                "unknown evaluation '{s}' (classic, trained, network)"
            )),
        }
    }
}

/// Evaluate `pos` from the side to move's point of view, in centi-men, with the game's default
/// evaluation ([`EvalKind::default_for`]).
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, EvalKind::default_for(pos.variant()))
}

/// Evaluate `pos` from the side to move's point of view, in centi-men, with evaluation `kind`
/// ([`EvalKind::Network`]: the game's embedded network, computed from scratch, for a position of
/// at least [`network::MIN_PIECES`] pieces, else the trained evaluation, as in the search; another
/// network: [`network::Network::evaluate`]).
pub fn evaluate_with(pos: &Position, kind: EvalKind) -> i32 {
    match (kind, network::embedded(pos.variant())) {
        (EvalKind::Network, Some(net))
            if pos.piece_count(crown_core::Color::Black)
                + pos.piece_count(crown_core::Color::White)
                >= network::MIN_PIECES =>
        {
            net.evaluate(pos)
        }
        _ => Board::of(pos).evaluate_with(pos.variant(), kind.weights(pos.variant())),
    }
}

impl Board {
    /// Evaluate for the side to move with the classic evaluation.
    pub fn evaluate(&self, variant: Variant) -> i32 {
        match variant {
            Variant::American => classic::american(self),
            Variant::Pool => classic::pool(self),
            Variant::Impasse => classic::impasse(self),
        }
    }

    /// Evaluate for the side to move with trained `weights`, or the classic evaluation for `None`;
    /// kept within ±20000 so it never reads as a win.
    #[inline]
    pub fn evaluate_with(&self, variant: Variant, weights: Option<&Weights>) -> i32 {
        match weights {
            Some(w) => w.evaluate(self, variant).clamp(-20_000, 20_000),
            None => self.evaluate(variant),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_king_is_worth_more_than_a_man() {
        // Same placement, one side has a king instead of a man.
        let man = Position::from_fen(Variant::American, "B:W18:B14").unwrap();
        let king = Position::from_fen(Variant::American, "B:W18:BK14").unwrap();
        assert!(evaluate_with(&king, EvalKind::Classic) > evaluate_with(&man, EvalKind::Classic));
        // Quiet positions (no capture pending), for both evaluations.
        for (m, k) in [
            ("B:W30:B3", "B:W30:BK3"),
            ("W:W26,27:B6,7", "W:WK26,27:B6,7"),
        ] {
            for kind in [EvalKind::Classic, EvalKind::Trained] {
                let man = Position::from_fen(Variant::American, m).unwrap();
                let king = Position::from_fen(Variant::American, k).unwrap();
                assert!(
                    evaluate_with(&king, kind) > evaluate_with(&man, kind),
                    "{kind:?}: {k} vs {m}"
                );
            }
        }
    }
}

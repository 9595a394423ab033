//! The durability bench's final check (issue 23), a pure function so that a test can show it
//! reports losses: included by `benches/durability.rs` and `tests/durability_verify.rs`.

use std::collections::BTreeMap;

/// One acknowledged move: the text the client sent and the reply's `moves[ply]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ack {
    /// The move text sent (a `legal_moves` entry's `text`, so canonical).
    pub sent: String,
    /// The acknowledging reply's `moves[ply]` (`None` if the reply had none).
    pub echoed: Option<String>,
}

/// One game's acknowledged moves: ply -> move.
pub type Acked = BTreeMap<usize, Ack>;

/// What is wrong with one acknowledged move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// The stored game's move at `ply` is not the text sent (`found` is `None` if the stored game
    /// has no move there, or the game is not stored at all).
    Lost {
        /// Game id.
        game: String,
        /// Ply of the acknowledged move.
        ply: usize,
        /// The text sent (and acknowledged).
        expected: String,
        /// The stored move at `ply`, if any.
        found: Option<String>,
    },
    /// The acknowledging reply echoed another move at `ply` than the text sent.
    Mismatched {
        /// Game id.
        game: String,
        /// Ply of the acknowledged move.
        ply: usize,
        /// The text sent.
        sent: String,
        /// The reply's `moves[ply]`, if any.
        echoed: Option<String>,
    },
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Finding::Lost {
                game,
                ply,
                expected,
                found,
            } => write!(
                f,
                "LOST: game {game} ply {ply}: acknowledged {expected}, stored {found:?}"
            ),
            Finding::Mismatched {
                game,
                ply,
                sent,
                echoed,
            } => write!(
                f,
                "MISMATCHED: game {game} ply {ply}: sent {sent}, acknowledged reply echoed {echoed:?}"
            ),
        }
    }
}

/// Check every game's acknowledged moves against the stored games (`stored`: game id -> its
/// stored moves, a game missing if it could not be read): each acknowledged move's sent text must
/// be the echoed text ([`Finding::Mismatched`] otherwise) and the stored move at its ply
/// ([`Finding::Lost`] otherwise). Findings come in the order of `games`, then ply.
pub fn verify(games: &[(String, Acked)], stored: &BTreeMap<String, Vec<String>>) -> Vec<Finding> {
    let mut findings = Vec::new();
    for (id, acked) in games {
        let moves = stored.get(id);
        for (&ply, ack) in acked {
            if ack.echoed.as_deref() != Some(ack.sent.as_str()) {
                findings.push(Finding::Mismatched {
                    game: id.clone(),
                    ply,
                    sent: ack.sent.clone(),
                    echoed: ack.echoed.clone(),
                });
            }
            let found = moves.and_then(|m| m.get(ply));
            if found != Some(&ack.sent) {
                findings.push(Finding::Lost {
                    game: id.clone(),
                    ply,
                    expected: ack.sent.clone(),
                    found: found.cloned(),
                });
            }
        }
    }
    findings
}

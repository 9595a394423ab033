//! The opening of each round, by the director's rule: for American checkers a ballot of the ACF
//! three-move deck or of the 11-man ballots, for pool checkers the start position or a ballot, for
//! Impasse the seed or Steere setup. Both games of every match of a round start from the round's
//! opening with colours swapped (APCA rule 32).
//!
//! Ballots are drawn without replacement: the deck is shuffled once by the tournament's seed
//! (`crown_core::rng`) and round `r` takes the `r`-th ballot of that order (the deck starts over
//! when more rounds than ballots are played), so a tournament is reproducible from its seed and no
//! ballot repeats while the deck lasts.

use crate::error::TournamentError;
use crown_arena::openings::{eleven_man_ballots, ACF_THREE_MOVE_PDN};
use crown_core::rng::Rng;
use crown_core::{Game, ImpasseSetup, Position, Variant};
use crown_notation::{game_type_tag, read_games, replay};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The director's rule for the openings of a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OpeningRule {
    /// Every round from the game's start position (for Impasse, the seed setup).
    StartPosition,
    /// A ballot of the ACF three-move deck per round (American checkers; for pool checkers the
    /// ballots that pool's rules can play), from `crown_arena::openings::ACF_THREE_MOVE_PDN`.
    AcfThreeMove,
    /// A ballot of the 11-man ballots per round (American and pool checkers: every ballot is a
    /// position of both), from the list embedded in crown-arena
    /// (`crown_arena::openings::eleven_man_ballots`, read once); labelled `11-man ballot N`, its
    /// number in the list. Stored as this name only, not as the 2,400 positions.
    ElevenManBallots,
    /// A ballot per round from a list given by the director (the
    /// server reads them once with `crown_arena::openings::read_opening_file`; this crate reads no
    /// file): see [`OpeningRule::ballots`].
    Ballots {
        /// The deck's name in the round's label (e.g. `11-man ballots`).
        name: String,
        /// The ballots as PDN FENs, in the deck's order.
        fens: Vec<String>,
    },
    /// Impasse from the rule sheet's setup (`ImpasseSetup::Seed`).
    ImpasseSeed,
    /// Impasse from Mark Steere's published setup (`ImpasseSetup::Steere`).
    ImpasseSteere,
}

impl OpeningRule {
    /// A ballot rule named `name` from `positions` (e.g. the 11-man ballots read by
    /// `crown_arena::openings::read_opening_file`).
    pub fn ballots(name: &str, positions: &[Position]) -> OpeningRule {
        OpeningRule::Ballots {
            name: name.to_string(),
            fens: positions.iter().map(Position::to_fen).collect(),
        }
    }

    /// Checks that the rule fits `variant`: the ACF deck and ballots are checkers openings (every
    /// ballot FEN must be a legal position of `variant`), the setups are Impasse's.
    ///
    /// # Errors
    /// [`TournamentError::Settings`] naming the rule and, for a bad ballot, its place and FEN.
    pub fn check(&self, variant: Variant) -> Result<(), TournamentError> {
        let bad = |what: String| Err(TournamentError::Settings(what));
        match self {
            OpeningRule::StartPosition => Ok(()),
            OpeningRule::AcfThreeMove
            | OpeningRule::ElevenManBallots
            | OpeningRule::Ballots { .. }
                if variant == Variant::Impasse =>
            {
                bad("Impasse has no ballots: use the seed or Steere setup".into())
            }
            OpeningRule::ImpasseSeed | OpeningRule::ImpasseSteere
                if variant != Variant::Impasse =>
            {
                bad(format!(
                    "an Impasse setup is no opening of {}",
                    variant.name()
                ))
            }
            OpeningRule::Ballots { name, fens } => {
                if fens.is_empty() {
                    return bad(format!("the ballot list {name:?} is empty"));
                }
                for (i, fen) in fens.iter().enumerate() {
                    if let Err(e) = Position::from_fen(variant, fen) {
                        return bad(format!("ballot {} of {name:?}, FEN {fen:?}: {e}", i + 1));
                    }
                }
                Ok(())
            }
            OpeningRule::ElevenManBallots => eleven_man().map(|_| ()),
            OpeningRule::AcfThreeMove | OpeningRule::ImpasseSeed | OpeningRule::ImpasseSteere => {
                Ok(())
            }
        }
    }
}

/// The opening of one round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opening {
    /// What it is, for people: `start position`, `ACF three-move ballot 5 (Dreaded Edinburgh)`,
    /// `11-man ballots 17 of 2400`, `Steere setup`.
    pub label: String,
    /// The position both games of every match start from, as PDN FEN.
    pub fen: String,
}

/// The opening of round `round` (from 1) of a tournament of `variant` under `rule`, drawn from
/// `seed` as the module documentation says. Equal arguments give the equal opening.
///
/// # Errors
/// [`TournamentError::Settings`]: the rule does not fit the variant (see [`OpeningRule::check`]),
/// or the ACF deck has no ballot that the variant can play.
pub fn draw_opening(
    rule: &OpeningRule,
    variant: Variant,
    seed: u64,
    round: u32,
) -> Result<Opening, TournamentError> {
    rule.check(variant)?;
    let fixed = |label: &str, fen: &str| Opening {
        label: label.to_string(),
        fen: fen.to_string(),
    };
    // Each ballot with its label.
    let deck: Vec<(String, String)> = match rule {
        OpeningRule::StartPosition => return Ok(fixed("start position", variant.start_fen())),
        OpeningRule::ImpasseSeed => return Ok(fixed("seed setup", ImpasseSetup::Seed.fen())),
        OpeningRule::ImpasseSteere => return Ok(fixed("Steere setup", ImpasseSetup::Steere.fen())),
        OpeningRule::AcfThreeMove => acf_deck(variant)?,
        OpeningRule::ElevenManBallots => eleven_man()?
            .iter()
            .enumerate()
            .map(|(i, f)| (format!("11-man ballot {}", i + 1), f.clone()))
            .collect(),
        OpeningRule::Ballots { name, fens } => {
            let n = fens.len();
            let label = |i: usize| format!("{name} {} of {n}", i + 1);
            fens.iter()
                .enumerate()
                .map(|(i, f)| (label(i), f.clone()))
                .collect()
        }
    };
    let mut order: Vec<usize> = (0..deck.len()).collect();
    Rng::new(seed).shuffle(&mut order);
    let pick = order[(round.saturating_sub(1) as usize) % order.len()];
    let (label, fen) = deck[pick].clone();
    Ok(Opening { label, fen })
}

/// The embedded 11-man ballots as FENs, read once.
///
/// # Errors
/// [`TournamentError::Settings`]: the embedded list does not read (its test in crown-arena says
/// it does).
fn eleven_man() -> Result<&'static [String], TournamentError> {
    static LIST: OnceLock<Result<Vec<String>, String>> = OnceLock::new();
    LIST.get_or_init(|| eleven_man_ballots().map_err(|e| e.to_string()))
        .as_deref()
        .map_err(|e| TournamentError::Settings(e.clone()))
}

/// The ACF three-move ballots that `variant`'s rules can play, in the deck's order, each with its
/// label: the deck's `Event` tag (`ACF three-move ballot 5`, the ACF number) and its `Opening`
/// name when it has one (`ACF three-move ballot 5 (Dreaded Edinburgh)`). A ballot is replayed by
/// `variant`'s rules (pool men capture backwards, so a few American ballots are no pool
/// opening) and left out when a move is illegal or the game is already over.
fn acf_deck(variant: Variant) -> Result<Vec<(String, String)>, TournamentError> {
    let mut deck = Vec::new();
    for game in read_games(ACF_THREE_MOVE_PDN) {
        let Ok(mut game) = game else { continue };
        game.set_tag("GameType", game_type_tag(variant));
        let Ok(r) = replay(&game) else { continue };
        let end = r.end();
        if Game::from_position(end).outcome().is_some() {
            continue;
        }
        let event = game.tag("Event").unwrap_or("ACF three-move ballot");
        let label = match game.tag("Opening") {
            Some(name) => format!("{event} ({name})"),
            None => event.to_string(),
        };
        deck.push((label, end.to_fen()));
    }
    if deck.is_empty() {
        return Err(TournamentError::Settings(format!(
            "no ACF three-move ballot is playable in {}",
            variant.name()
        )));
    }
    Ok(deck)
}

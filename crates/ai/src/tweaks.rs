//! Switches of single search heuristics ([`SearchTweaks`], `crown match` spec keys), their
//! margins, and the settings with each game's defaults filled in that the search reads.

use crate::search;
use std::fmt;

/// Switches of single search heuristics, so that each can be measured by SPRT within one build
/// (`crown match` spec keys, see [`SearchTweaks::KEYS`] and [`SearchTweaks::set`]). `None` in a
/// field means the game's default; the defaults are the settings kept by SPRT (docs/engine.md,
/// "Results").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchTweaks {
    /// History malus: each quiet move searched before a quiet cutoff move at a node loses the
    /// cutoff's bonus (depth²) in the history table. Default: on in American and pool checkers,
    /// off in Impasse (SPRT results in docs/engine.md).
    pub history_malus: Option<bool>,
    /// Reverse futility pruning: at a non-PV node 1 to `rfpd` (3) plies from the horizon, with no
    /// capture for either side and at least [`crate::eval::network::MIN_PIECES`] pieces on the
    /// board, the static evaluation minus the margin (`rfpm`) per ply of depth at or above beta
    /// ends the node with that value. Default: on in American checkers (SPRT at 20 ms with the
    /// network evaluation, docs/engine.md), off in pool and Impasse.
    pub reverse_futility: Option<bool>,
    /// The reverse futility margin (`rfpm=CENTI`, 10 to 400 centi-men per ply of remaining
    /// depth). Default: [`RFP_MARGIN_AMERICAN`] in American checkers, [`RFP_MARGIN`] in the
    /// others.
    pub rfp_margin: Option<u16>,
    /// The most plies from the horizon where reverse futility pruning applies (`rfpd=PLIES`,
    /// 1 to 8). Default: 3.
    pub rfp_depth: Option<u8>,
    /// Futility pruning: at a non-PV node 1 or 2 plies from the horizon, with no capture for either
    /// side, quiet moves after the first are skipped when the static evaluation plus
    /// [`FUTILITY_MARGIN`] per ply of depth is at or below alpha. Default: off.
    pub futility: Option<bool>,
    /// Late-move reductions (`lmr=`): 0 = fixed steps (one ply for quiet moves after the third at
    /// depth ≥ 3, two after the eighth at depth ≥ 6); 1 = those steps adjusted by the move's
    /// history score (one ply more when it is negative, one less when it is above half the
    /// maximum); 2 = `round(ln depth · ln (k + 1) / 2.25)` plies for the `k`-th move (0-based, from
    /// the fourth), one less at PV nodes, adjusted by history as 1. A reduced search keeps at least
    /// one ply. Default: 1 in American checkers (SPRT at 20 ms, with `trunc=100`: +28 Elo) and
    /// pool (alone: +26 Elo), 0 in Impasse.
    pub lmr: Option<u8>,
    /// Material truncation (`trunc=MARGIN`, centi-men; 0 = off), after Cake: at a node where the
    /// material count (man 100, king [`TRUNC_KING_AMERICAN`] or [`TRUNC_KING_POOL`]) of the side
    /// to move is more than MARGIN below alpha or above beta, the remaining depth drops (by
    /// [`SearchTweaks::truncation_depth`]); the depth dropped on the way is given back at the
    /// first node whose material is inside the margin again (so an exchange in progress costs no
    /// depth). Not with 8 pieces or fewer, not in Impasse. Default: 100 in American checkers (SPRT
    /// at 20 ms, with `lmr=1`: +28 Elo), 0 in pool (`trunc=100,lmr=1` −22 where `lmr=1` alone
    /// gains +26: rejected).
    pub truncation: Option<u16>,
    /// How much depth the material truncation takes (`truncd=QUARTERS`, 1 to 8 quarter plies;
    /// Cake takes one and a half plies). Default: 4 (one ply).
    pub truncation_depth: Option<u8>,
    /// The threat extension of the quiescence (`threat=0|1`): at the horizon with no capture for
    /// the side to move but one for the opponent, every move is searched one more ply. Default: on.
    pub threat_extension: Option<bool>,
    /// Threat extension margin (`tmargin=MARGIN`, centi-men; 0 = always): extend only when the
    /// static evaluation is within MARGIN of the window, else stand pat (Cake's `QLEVEL`).
    /// Default: 0.
    pub threat_margin: Option<u16>,
    /// Single-reply extension (`ext=0|1|2`): a node with one legal move costs no depth (1), half a
    /// ply (2) or a full ply (0: no extension). Default: 1.
    pub single_reply: Option<u8>,
    /// Internal iterative reduction (`iir=0|1`): a node of depth ≥ 4 with no move from the
    /// transposition table is searched one ply shallower. Default: off.
    pub iir: Option<bool>,
    /// Aspiration window half-width (`asp=CENTI`, 5 to 500) from depth 5. Default: 30.
    pub aspiration: Option<u16>,
    /// ProbCut (`probcut=0|1`, after Buro): at a non-PV node of depth ≥ 5 a null-window search
    /// [`PROBCUT_REDUCTION`] plies shallower around beta + [`PROBCUT_MARGIN`] that fails high ends
    /// the node; not with fewer than [`crate::eval::network::MIN_PIECES`] pieces. Default: on in
    /// American checkers (SPRT at 20 ms with the network evaluation and reverse futility pruning,
    /// docs/engine.md), off in pool and Impasse.
    pub probcut: Option<bool>,
    /// Multi-cut (`mc=0|1`, after Björnsson and Marsland): at a non-PV node of depth ≥ 6 the first
    /// six moves are searched [`MULTICUT_REDUCTION`] plies shallower with a null window at beta;
    /// when three of them fail high the node returns beta. Default: off.
    pub multicut: Option<bool>,
    /// Late-move pruning (`lmp=0|1`): at a non-PV node at most 3 plies from the horizon with no
    /// capture or threat, quiet moves after the first `3 + d²` (`d` = plies left) are skipped.
    /// Default: off.
    pub lmp: Option<bool>,
    /// Enhanced transposition cutoffs (`etc=0|1`): at a non-PV node of depth ≥ 3, before the
    /// moves are searched, a child whose stored result (deep enough, not a lower bound) already
    /// scores at or above beta for this node ends it. Default: off.
    pub etc: Option<bool>,
    /// Impasse crown quiescence (`cq=0|1|2`): at the horizon, when the side to move can crown (1)
    /// or crown or bear off (2), it may stand pat on the static evaluation or make one of those
    /// moves, and so on until neither side has one (at most [`CROWN_QUIESCENCE_PLIES`] plies), so
    /// that a leaf does not hide a crown the opponent makes next. Not in checkers. Default: 0.
    pub crown_quiescence: Option<u8>,
}

/// How many plies the Impasse crown quiescence ([`SearchTweaks::crown_quiescence`]) may go
/// beyond the horizon.
pub const CROWN_QUIESCENCE_PLIES: i32 = 8;

/// A spec key of [`SearchTweaks::set`] that does not exist or a value out of its range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TweakError {
    /// No switch has this key (the keys are [`SearchTweaks::KEYS`]).
    UnknownKey(String),
    /// The value is outside the switch's range `lo..=hi`.
    OutOfRange {
        /// The key.
        key: &'static str,
        /// The value given.
        value: u64,
        /// The least value allowed.
        lo: u64,
        /// The greatest value allowed.
        hi: u64,
    },
}

impl fmt::Display for TweakError {
    /// `unknown search switch 'KEY'`, `KEY VALUE is not LO to HI`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TweakError::UnknownKey(k) => write!(f, "unknown search switch '{k}'"),
            TweakError::OutOfRange { key, value, lo, hi } => {
                write!(f, "{key} {value} is not {lo} to {hi}")
            }
        }
    }
}

impl std::error::Error for TweakError {}

impl SearchTweaks {
    /// The spec key of each switch with its range (`crown match --engine-a KEY=VALUE`), in the
    /// order `crown match --help` lists them.
    pub const KEYS: &'static [(&'static str, u64, u64)] = &[
        ("malus", 0, 1),
        ("rfp", 0, 1),
        ("rfpm", 10, 400),
        ("rfpd", 1, 8),
        ("futility", 0, 1),
        ("lmr", 0, 2),
        ("trunc", 0, 1000),
        ("truncd", 1, 8),
        ("threat", 0, 1),
        ("tmargin", 0, 1000),
        ("ext", 0, 2),
        ("iir", 0, 1),
        ("asp", 5, 500),
        ("probcut", 0, 1),
        ("mc", 0, 1),
        ("lmp", 0, 1),
        ("etc", 0, 1),
        ("cq", 0, 2),
    ];

    /// Set the switch named by spec key `key` (one of [`SearchTweaks::KEYS`]) to `value`
    /// (0 = off, 1 = on for the on/off switches).
    ///
    /// # Errors
    /// [`TweakError::UnknownKey`] when no switch has that key, [`TweakError::OutOfRange`] when
    /// `value` is outside the key's range.
    pub fn set(&mut self, key: &str, value: u64) -> Result<(), TweakError> {
        let Some(&(name, lo, hi)) = Self::KEYS.iter().find(|(k, _, _)| *k == key) else {
            return Err(TweakError::UnknownKey(key.to_string()));
        };
        if !(lo..=hi).contains(&value) {
            return Err(TweakError::OutOfRange {
                key: name,
                value,
                lo,
                hi,
            });
        }
        let on = value == 1;
        // In range, so each value fits its field.
        let small = value as u16;
        match name {
            "malus" => self.history_malus = Some(on),
            "rfp" => self.reverse_futility = Some(on),
            "rfpm" => self.rfp_margin = Some(small),
            "rfpd" => self.rfp_depth = Some(value as u8),
            "futility" => self.futility = Some(on),
            "lmr" => self.lmr = Some(value as u8),
            "trunc" => self.truncation = Some(small),
            "truncd" => self.truncation_depth = Some(value as u8),
            "threat" => self.threat_extension = Some(on),
            "tmargin" => self.threat_margin = Some(small),
            "ext" => self.single_reply = Some(value as u8),
            "iir" => self.iir = Some(on),
            "asp" => self.aspiration = Some(small),
            "probcut" => self.probcut = Some(on),
            "mc" => self.multicut = Some(on),
            "lmp" => self.lmp = Some(on),
            "cq" => self.crown_quiescence = Some(value as u8),
            _ => self.etc = Some(on),
        }
        Ok(())
    }

    /// The setting of each switch in `variant`: the field when set, else the game's default.
    pub(crate) fn resolve(&self, variant: crown_core::Variant) -> Tweaks {
        Tweaks {
            history_malus: self.history_malus.unwrap_or(variant.is_draughts()),
            reverse_futility: self
                .reverse_futility
                .unwrap_or(variant == crown_core::Variant::American),
            rfp_margin: self.rfp_margin.map_or(
                match variant {
                    crown_core::Variant::American => RFP_MARGIN_AMERICAN,
                    _ => RFP_MARGIN,
                },
                i32::from,
            ),
            rfp_depth: i32::from(self.rfp_depth.unwrap_or(3)) * search::PLY,
            futility: self.futility.unwrap_or(false),
            lmr: self.lmr.unwrap_or(u8::from(variant.is_draughts())),
            truncation: match variant {
                crown_core::Variant::American => i32::from(self.truncation.unwrap_or(100)),
                crown_core::Variant::Pool => i32::from(self.truncation.unwrap_or(0)),
                crown_core::Variant::Impasse => 0,
            },
            threat_extension: self.threat_extension.unwrap_or(true),
            threat_margin: i32::from(self.threat_margin.unwrap_or(0)),
            truncation_depth: i32::from(self.truncation_depth.unwrap_or(4)),
            single_reply: match self.single_reply.unwrap_or(1) {
                0 => 0,
                2 => search::PLY / 2,
                _ => search::PLY,
            },
            iir: self.iir.unwrap_or(false),
            aspiration: i32::from(self.aspiration.unwrap_or(30)),
            probcut: self
                .probcut
                .unwrap_or(variant == crown_core::Variant::American),
            multicut: self.multicut.unwrap_or(false),
            lmp: self.lmp.unwrap_or(false),
            etc: self.etc.unwrap_or(false),
            crown_quiescence: match variant {
                crown_core::Variant::Impasse => self.crown_quiescence.unwrap_or(0),
                _ => 0,
            },
        }
    }
}

/// Reverse futility margin in centi-men per ply of remaining depth
/// ([`SearchTweaks::reverse_futility`]) in pool and Impasse.
pub const RFP_MARGIN: i32 = 80;
/// Reverse futility margin in centi-men per ply of remaining depth in American checkers, where the
/// network evaluation scores most positions (docs/engine.md, "Results (issue 39)").
pub const RFP_MARGIN_AMERICAN: i32 = 50;
/// Futility margin in centi-men per ply of remaining depth ([`SearchTweaks::futility`]).
pub const FUTILITY_MARGIN: i32 = 100;
/// A king's worth in centi-men for the material count of [`SearchTweaks::truncation`] in American
/// checkers (Cake counts 130).
pub const TRUNC_KING_AMERICAN: i32 = 130;
/// A king's worth in centi-men for the material count of [`SearchTweaks::truncation`] in pool
/// checkers (flying kings).
pub const TRUNC_KING_POOL: i32 = 300;
/// How many plies shallower the ProbCut search is ([`SearchTweaks::probcut`]).
pub const PROBCUT_REDUCTION: i32 = 4;
/// How far above beta the ProbCut search looks, in centi-men ([`SearchTweaks::probcut`]).
pub const PROBCUT_MARGIN: i32 = 100;
/// How many plies shallower the multi-cut searches are ([`SearchTweaks::multicut`]).
pub const MULTICUT_REDUCTION: i32 = 3;

/// The switches of [`SearchTweaks`] with every default filled in for one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tweaks {
    pub(crate) history_malus: bool,
    pub(crate) reverse_futility: bool,
    /// Centi-men per ply of remaining depth.
    pub(crate) rfp_margin: i32,
    /// In quarter plies: the most remaining depth where reverse futility pruning applies.
    pub(crate) rfp_depth: i32,
    pub(crate) futility: bool,
    pub(crate) lmr: u8,
    /// Margin in centi-men; 0 = off.
    pub(crate) truncation: i32,
    pub(crate) threat_extension: bool,
    /// Margin in centi-men; 0 = always extend.
    pub(crate) threat_margin: i32,
    /// In quarter plies ([`search::PLY`] = one ply).
    pub(crate) truncation_depth: i32,
    /// The single-reply extension in quarter plies.
    pub(crate) single_reply: i32,
    pub(crate) iir: bool,
    /// Half-width in centi-men.
    pub(crate) aspiration: i32,
    pub(crate) probcut: bool,
    pub(crate) multicut: bool,
    pub(crate) lmp: bool,
    pub(crate) etc: bool,
    /// 0 = off, 1 = crowns, 2 = crowns and bear-offs (Impasse only).
    pub(crate) crown_quiescence: u8,
}

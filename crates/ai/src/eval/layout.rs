//! The layout of the trained evaluation's features ([`super::trained`]): where each kind of
//! feature starts in the weight table, how many there are, the units of the weights and of the
//! material scale, and which optional parts a set of weights uses ([`FeatureSet`]). Shared by the
//! evaluation and its weights files ([`super::weights`]), so neither needs the other's internals.

/// Weights are stored in 1/`SCALE` centi-men.
pub const SCALE: i32 = 16;
/// Number of four-square pattern regions.
pub const REGIONS: usize = 21;
/// States of a pattern region (5⁴).
pub const REGION_STATES: usize = 625;
/// First pattern feature.
pub const PATTERN_BASE: usize = 128;
/// First miscellaneous feature.
pub const MISC_BASE: usize = PATTERN_BASE + REGIONS * REGION_STATES;
/// Number of miscellaneous features.
pub const MISC: usize = 24;
/// Number of features of format version 1 ([`FeatureSet::BASE`]): piece-square tables, four-square
/// patterns and the miscellaneous terms.
pub const BASE_FEATURES: usize = MISC_BASE + MISC;
/// Number of 4 × 4 blocks.
pub const BLOCKS: usize = 15;
/// States of a block (3⁸).
pub const BLOCK_STATES: usize = 6561;
/// First block feature.
pub const BLOCK_BASE: usize = BASE_FEATURES;
/// Total number of features (each with an opening and an endgame weight).
pub const FEATURES: usize = BLOCK_BASE + BLOCKS * BLOCK_STATES;
/// Entries of the material scale table: 13⁴ (each of the four piece counts 0–12).
pub const SCALE_ENTRIES: usize = 13 * 13 * 13 * 13;
/// The material scale that leaves a score unchanged (scales are in 1/256).
pub const SCALE_ONE: i32 = 256;
/// Largest material scale (4: a score at most quadrupled).
pub const SCALE_MAX: i32 = 4 * SCALE_ONE;

/// Which optional parts of the trained evaluation a set of weights uses (the base features are
/// always on). Written `base`, `blocks`, `scale` or `blocks,scale`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FeatureSet {
    /// The 4 × 4 block patterns ([`BLOCK_BASE`]).
    pub blocks: bool,
    /// The material scale ([`scale_index`](super::trained::scale_index)).
    pub scale: bool,
}

impl FeatureSet {
    /// The features of format version 1 only.
    pub const BASE: FeatureSet = FeatureSet {
        blocks: false,
        scale: false,
    };
    /// Every part.
    pub const ALL: FeatureSet = FeatureSet {
        blocks: true,
        scale: true,
    };

    /// Number of features of this set: [`FEATURES`] with the blocks, else [`BASE_FEATURES`].
    pub fn features(self) -> usize {
        if self.blocks {
            FEATURES
        } else {
            BASE_FEATURES
        }
    }
}

impl std::fmt::Display for FeatureSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.blocks, self.scale) {
            (false, false) => write!(f, "base"),
            (true, false) => write!(f, "blocks"),
            (false, true) => write!(f, "scale"),
            (true, true) => write!(f, "blocks,scale"),
        }
    }
}

impl std::str::FromStr for FeatureSet {
    type Err = String;

    /// `base`, or a comma-separated list of `blocks` and `scale`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut set = FeatureSet::BASE;
        if s == "base" {
            return Ok(set);
        }
        for part in s.split(',') {
            match part.trim() {
                "blocks" => set.blocks = true,
                "scale" => set.scale = true,
                other => {
                    return Err(format!(
                    "unknown feature part {other:?} in {s:?} (base, or a list of blocks and scale)"
                ))
                }
            }
        }
        Ok(set)
    }
}

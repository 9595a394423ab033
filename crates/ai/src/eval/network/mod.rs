//! The network evaluation ([`crate::eval::EvalKind::Network`]): a small NNUE-style network in
//! integer arithmetic, its first layer kept as an accumulator that the search updates by the pieces
//! a move changes. The networks the engine carries are [`embedded`].
//!
//! Architecture (sizes from the file, [`format`]):
//! - Inputs: 128 sparse features per perspective, piece type (man, king; Impasse: single, double)
//!   × square (32) × own or other's, seen from each side: White's view is the board turned 180°
//!   (square `n` is `33 − n`) with the colours swapped, so one network serves both sides.
//! - First layer: `l1` `i16` neurons per perspective, kept as an [`Accumulator`]; clipped ReLU to
//!   0..`qa` (the float 0..1), the side to move's half first, then the other's (`2 × l1` bytes).
//! - Second layer: `l2` neurons, `i8` weights, `i32` sums, shifted right by `log2 qb` (floor) and
//!   clipped to 0..`qa`.
//! - Output: one `i16`-weighted sum, `i64`; the score in centi-men is
//!   `floor(sum · cm / (qa · qo))` (`cm`: centi-men per unit of the float network).
//! - The second layer and the output are chosen by piece count: [`bucket_of`].
//!
//! The hot loops are in [`simd`]: scalar, AVX2 where the processor has it, and wasm simd128 where
//! the module is compiled with it; all give the same integers.

mod accumulator;
#[cfg(any(test, feature = "kernel-check"))]
pub mod check;
pub mod format;
pub mod simd;
#[cfg(test)]
mod tests;

pub(crate) use accumulator::AccStack;
pub use accumulator::Accumulator;
pub use format::NetworkError;
use simd::Kernel;

use crate::board::Board;
use crown_core::{Position, Variant};
use std::sync::OnceLock;

/// The American network the engine carries (`crates/ai/data/network/american-l1-128.nnue`:
/// 128 → 2 × 128 → 32 → 1, 4 buckets; trained by `tools/train/nnue.py` as
/// `tools/train/README.md` says).
const AMERICAN: &[u8] = include_bytes!("../../../data/network/american-l1-128.nnue");

/// The network embedded in the engine for `variant`, read once (`None`: the game has none yet,
/// pool and Impasse today). The default evaluation of a game with one
/// ([`crate::eval::EvalKind::default_for`]).
pub fn embedded(variant: Variant) -> Option<&'static Network> {
    static AMERICAN_NET: OnceLock<Option<Network>> = OnceLock::new();
    match variant {
        // A file that does not read is a build error caught by the tests
        // (`the_embedded_american_network_reads`), never a panic here.
        Variant::American => AMERICAN_NET
            .get_or_init(|| Network::from_bytes(AMERICAN).ok())
            .as_ref(),
        Variant::Pool | Variant::Impasse => None,
    }
}

/// Inputs per perspective: 4 piece kinds (own men, own kings, other's men, other's kings) × 32
/// squares.
pub const INPUTS: usize = 128;
/// The widest first layer a file may have.
pub const MAX_L1: usize = 1024;
/// The widest second layer a file may have.
pub const MAX_L2: usize = 128;
/// The most output buckets a file may have.
pub const MAX_BUCKETS: usize = 8;

/// The input feature of a piece of colour `colour` (0 Black, 1 White), role `role` (0 man, 1
/// king) on square index `sq` (0–31) seen from `persp` (0 Black, 1 White): own pieces first, and
/// White's view turned 180°.
#[inline]
pub(crate) fn feature(persp: usize, colour: usize, role: usize, sq: usize) -> usize {
    let kind = 2 * usize::from(colour != persp) + role;
    let sq = if persp == 0 { sq } else { 31 - sq };
    kind * 32 + sq
}

/// The fewest pieces a position has for the search to evaluate it with the network; one with fewer
/// is evaluated by the trained evaluation (the table evaluation the search would use without a
/// network). The embedded network's training games ended where the ≤ 4-piece databases took over,
/// so its 1–6 piece bucket learned from few positions: with it alone the engine did not win three
/// kings against two in the double corners at depth 10 (`endgame_tables.rs`), which the trained
/// evaluation wins.
pub const MIN_PIECES: u32 = 7;

/// The output bucket of a position with `pieces` pieces on the board, of `buckets`:
/// `min((pieces − 1) · buckets / 24, buckets − 1)` (4 buckets: 1–6, 7–12, 13–18, 19–24 pieces).
pub fn bucket_of(pieces: u32, buckets: usize) -> usize {
    ((pieces.max(1) as usize - 1) * buckets / 24).min(buckets - 1)
}

/// One bucket's dense layers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Dense {
    /// Second-layer biases, `l2`, in units of `qa · qb`.
    pub(crate) l2_bias: Vec<i32>,
    /// Second-layer weights, `l2` rows of `2 · l1`, in units of `qb`.
    pub(crate) l2_weights: Vec<i8>,
    /// Output bias in units of `qa · qo`.
    pub(crate) out_bias: i32,
    /// Output weights, `l2`, in units of `qo`.
    pub(crate) out_weights: Vec<i16>,
}

/// A network of one game, read from a file ([`Network::from_bytes`]) or made from its parts
/// ([`Network::from_parts`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// The game it was trained for.
    pub variant: Variant,
    l1: usize,
    l2: usize,
    qa: i16,
    qb_log2: u32,
    qo: i32,
    out_cm: i32,
    l1_bias: Vec<i16>,
    /// [`INPUTS`] rows of `l1`.
    l1_weights: Vec<i16>,
    dense: Vec<Dense>,
    kernel: Kernel,
}

/// A network's sizes, scales and weights, for [`Network::from_parts`] (the fields of the file,
/// [`format`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkParts {
    /// The game.
    pub variant: Variant,
    /// First-layer width (a multiple of 16, 16 to [`MAX_L1`]).
    pub l1: usize,
    /// Second-layer width (a multiple of 8, 8 to [`MAX_L2`]).
    pub l2: usize,
    /// Activation scale (1 to 127).
    pub qa: i16,
    /// Second-layer weight scale, log2 (0 to 14).
    pub qb_log2: u32,
    /// Output weight scale (1 to 65,535).
    pub qo: i32,
    /// Centi-men per unit of the float output (1 to 65,535).
    pub out_cm: i32,
    /// First-layer biases (`l1`).
    pub l1_bias: Vec<i16>,
    /// First-layer weights ([`INPUTS`] rows of `l1`).
    pub l1_weights: Vec<i16>,
    /// Per bucket (1 to [`MAX_BUCKETS`]): second-layer biases (`l2`), weights (`l2` rows of
    /// `2 · l1`), output bias, output weights (`l2`).
    pub buckets: Vec<BucketParts>,
}

/// One bucket's parts in [`NetworkParts`]: second-layer biases (`l2`, units of `qa · qb`), weights
/// (`l2` rows of `2 · l1`, units of `qb`), output bias (units of `qa · qo`), output weights (`l2`,
/// units of `qo`).
pub type BucketParts = (Vec<i32>, Vec<i8>, i32, Vec<i16>);

impl Network {
    /// The network of `parts`, checked by writing and reading it as a file.
    ///
    /// # Errors
    /// The [`NetworkError`] the file would give: a size or scale out of range, or a vector whose
    /// length does not fit the sizes ([`NetworkError::PayloadLength`] or
    /// [`NetworkError::Field`]).
    pub fn from_parts(p: NetworkParts) -> Result<Network, NetworkError> {
        let lens_ok = p.l1_bias.len() == p.l1
            && p.l1_weights.len() == INPUTS * p.l1
            && p.buckets.iter().all(|(b, w, _, o)| {
                b.len() == p.l2 && w.len() == 2 * p.l1 * p.l2 && o.len() == p.l2
            });
        if !lens_ok {
            return Err(NetworkError::Field {
                field: "parts",
                value: 0,
                allowed: "vectors of the lengths the sizes call for",
            });
        }
        let in_u16 = |v: i64| (0..=i64::from(u16::MAX)).contains(&v);
        let scales_ok = in_u16(p.l1 as i64)
            && in_u16(p.l2 as i64)
            && in_u16(p.qa.into())
            && in_u16(p.qb_log2.into())
            && in_u16(p.qo.into())
            && in_u16(p.out_cm.into())
            && p.buckets.len() <= usize::from(u8::MAX);
        if !scales_ok {
            return Err(NetworkError::Field {
                field: "parts",
                value: 0,
                allowed: "sizes and scales that fit the file's fields",
            });
        }
        let net = Network {
            variant: p.variant,
            l1: p.l1,
            l2: p.l2,
            qa: p.qa,
            qb_log2: p.qb_log2,
            qo: p.qo,
            out_cm: p.out_cm,
            l1_bias: p.l1_bias,
            l1_weights: p.l1_weights,
            dense: p
                .buckets
                .into_iter()
                .map(|(l2_bias, l2_weights, out_bias, out_weights)| Dense {
                    l2_bias,
                    l2_weights,
                    out_bias,
                    out_weights,
                })
                .collect(),
            kernel: Kernel::best(),
        };
        Network::from_bytes(&net.to_bytes())
    }

    /// The same network computed by `kernel` (e.g. [`Kernel::Scalar`] to compare with SIMD).
    pub fn with_kernel(mut self, kernel: Kernel) -> Network {
        self.kernel = kernel;
        self
    }

    /// The kernel computing the hot loops ([`Kernel::best`] unless [`Network::with_kernel`]).
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// First-layer width.
    pub fn l1(&self) -> usize {
        self.l1
    }

    /// Second-layer width.
    pub fn l2(&self) -> usize {
        self.l2
    }

    /// Number of output buckets.
    pub fn buckets(&self) -> usize {
        self.dense.len()
    }

    /// Evaluate `pos` for the side to move, in centi-men, from scratch (a fresh accumulator).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let b = Board::of(pos);
        let acc = Accumulator::new(self, pos);
        self.evaluate_accumulator(&acc, b.side, b.occupied().count_ones())
    }

    /// The score in centi-men for side `side` (0 Black, 1 White) to move, from the position's
    /// accumulator and its piece count (which picks the bucket, [`bucket_of`]).
    pub(crate) fn evaluate_accumulator(&self, acc: &Accumulator, side: usize, pieces: u32) -> i32 {
        let mut input = [0u8; 2 * MAX_L1];
        self.evaluate_in(acc, side, pieces, &mut input)
    }

    /// [`Network::evaluate_accumulator`] with `input` (at least `2 · l1` bytes) as the clipped
    /// activations' scratch space, so the search need not clear a fresh buffer per evaluation.
    pub(crate) fn evaluate_in(
        &self,
        acc: &Accumulator,
        side: usize,
        pieces: u32,
        input: &mut [u8],
    ) -> i32 {
        let n = self.l1;
        let qa = self.qa;
        for (half, persp) in [side, 1 - side].into_iter().enumerate() {
            self.kernel
                .crelu(acc.half(persp), qa, &mut input[half * n..(half + 1) * n]);
        }
        let input = &input[..2 * n];
        let d = &self.dense[bucket_of(pieces, self.dense.len())];
        let mut sums = [0i32; MAX_L2];
        let sums = &mut sums[..self.l2];
        self.kernel.dense(input, &d.l2_weights, sums);
        let mut out = i64::from(d.out_bias);
        for ((&bias, &wo), &sum) in d.l2_bias.iter().zip(&d.out_weights).zip(sums.iter()) {
            let s = bias.wrapping_add(sum);
            let h = (s >> self.qb_log2).clamp(0, i32::from(qa));
            out += i64::from(h) * i64::from(wo);
        }
        let den = i64::from(qa) * i64::from(self.qo);
        let cm = (out * i64::from(self.out_cm)).div_euclid(den);
        cm.clamp(-20_000, 20_000) as i32
    }

    /// Evaluate `pos` with a given accumulator (which must be `pos`'s), in centi-men for the side
    /// to move.
    pub fn evaluate_with_accumulator(&self, acc: &Accumulator, pos: &Position) -> i32 {
        let b = Board::of(pos);
        self.evaluate_accumulator(acc, b.side, b.occupied().count_ones())
    }
}

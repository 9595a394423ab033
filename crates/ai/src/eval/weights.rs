//! The trained evaluation's weights files: the [`Weights`] of one game, their file format and the
//! files embedded in the engine (`crates/ai/weights/*.bin`, with `include_bytes!`, so also in the
//! wasm build).
//!
//! Format version 2 (written by this build; little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0–7 | magic `CRWNEVAL` |
//! | 8–9 | format version `u16` (2) |
//! | 10 | variant `u8`: 0 American, 1 pool, 2 Impasse |
//! | 11 | parts `u8`: bit 0 the 4 × 4 blocks, bit 1 the material scale ([`FeatureSet`]); other bits 0 |
//! | 12–15 | feature count `u32`: [`FEATURES`] with the blocks, else [`BASE_FEATURES`] |
//! | 16–19 | weight scale `u32`: 16 ([`SCALE`]: weights in 1/16 centi-men) |
//! | 20–23 | material-scale entries `u32`: [`SCALE_ENTRIES`] with the scale, else 0 |
//! | 24– | the values, run-length coded (below) |
//! | last 8 | FNV-1a 64 of every byte before it |
//!
//! The values are the opening and endgame weight (`i16`) of each feature in turn, then each
//! material scale minus [`SCALE_ONE`] (`i16`; the scale itself must be 0 to [`SCALE_MAX`]). They
//! are stored as runs: the number of zeros, then the number of literal values (both LEB128
//! varints), then those values (`i16` each), until every value is given; a run with neither is an
//! error. Untouched entries of the large tables stay zero, so they cost almost nothing.
//!
//! Format version 1 (the first weights; still read): the same first 20 bytes with version 1 and a
//! zero parts byte, exactly [`BASE_FEATURES`] features stored plainly (`i16` pairs), then the
//! checksum. It reads as [`FeatureSet::BASE`] weights. Other versions are refused.

use super::layout::{
    FeatureSet, BASE_FEATURES, FEATURES, SCALE, SCALE_ENTRIES, SCALE_MAX, SCALE_ONE,
};
use crown_core::Variant;
use std::sync::OnceLock;

/// Trained weights of one game: an opening and an endgame weight per feature, in 1/[`SCALE`]
/// centi-men, and the material scale table when [`FeatureSet::scale`] is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The game these weights were trained for.
    pub variant: Variant,
    /// `[opening, endgame]` per feature; length [`FEATURES`] (the block weights are zero and unused
    /// without [`FeatureSet::blocks`]).
    pub w: Vec<[i16; 2]>,
    /// The optional parts the evaluation uses.
    pub set: FeatureSet,
    /// The material scale per [`crate::trained::scale_index`] entry in 1/[`SCALE_ONE`] (0 to
    /// [`SCALE_MAX`]); length [`SCALE_ENTRIES`] with [`FeatureSet::scale`], else empty.
    pub scale: Vec<i16>,
}

/// Why a weights file was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WeightsError {
    /// Shorter than its header or its declared contents, or longer than them.
    Truncated,
    /// Does not start with [`MAGIC`].
    BadMagic,
    /// A format version this build does not read (it reads 1 and 2).
    Version(u16),
    /// The variant byte is not 0 (American), 1 (pool) or 2 (Impasse).
    Variant(u8),
    /// The parts byte has bits other than 0 (blocks) and 1 (scale), or is not 0 in version 1.
    Parts(u8),
    /// A feature count other than the one the parts call for.
    Features {
        /// The count in the file.
        found: u32,
        /// The count its parts call for.
        expected: usize,
    },
    /// A weight scale other than [`SCALE`].
    WeightScale(u32),
    /// A material-scale entry count other than the one the parts call for.
    ScaleEntries(u32),
    /// The run-length coded values are malformed at this byte offset of the file.
    Encoding {
        /// Byte offset in the file.
        offset: usize,
        /// What is wrong there.
        what: &'static str,
    },
    /// A material scale outside 0 to [`SCALE_MAX`].
    MaterialScale {
        /// The entry ([`crate::trained::scale_index`]).
        entry: usize,
        /// Its value in 1/[`SCALE_ONE`].
        value: i32,
    },
    /// The trailing FNV-1a 64 checksum does not match the contents.
    Checksum,
}

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WeightsError::Truncated => write!(f, "weights file is truncated (or has extra bytes)"),
            WeightsError::BadMagic => write!(f, "not a Crown weights file (bad magic)"),
            WeightsError::Version(v) => {
                write!(f, "weights format version {v} is not 1 or {VERSION}")
            }
            WeightsError::Variant(v) => write!(f, "weights variant byte {v} is not 0, 1 or 2"),
            WeightsError::Parts(p) => write!(
                f,
                "weights parts byte {p:#04x} is not a set of 0x01 (blocks) and 0x02 (scale)"
            ),
            WeightsError::Features { found, expected } => write!(
                f,
                "weights file has {found} features, its parts call for {expected}"
            ),
            WeightsError::WeightScale(s) => {
                write!(f, "weights scale {s} is not {SCALE} (1/16 centi-men)")
            }
            WeightsError::ScaleEntries(n) => write!(
                f,
                "weights file has {n} material-scale entries, its parts call for {} or 0",
                SCALE_ENTRIES
            ),
            WeightsError::Encoding { offset, what } => {
                write!(f, "weights values at byte {offset}: {what}")
            }
            WeightsError::MaterialScale { entry, value } => write!(
                f,
                "material scale {entry} is {value}/256, outside 0 to {SCALE_MAX}/256"
            ),
            WeightsError::Checksum => write!(f, "weights file checksum does not match"),
        }
    }
}

impl std::error::Error for WeightsError {}

/// First 8 bytes of a weights file.
pub const MAGIC: &[u8; 8] = b"CRWNEVAL";
/// Format version written by this build (it also reads version 1).
pub const VERSION: u16 = 2;

/// FNV-1a, 64 bits.
pub fn fnv1a(data: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in data {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn variant_byte(v: Variant) -> u8 {
    match v {
        Variant::American => 0,
        Variant::Pool => 1,
        Variant::Impasse => 2,
    }
}

fn parts_byte(set: FeatureSet) -> u8 {
    u8::from(set.blocks) | u8::from(set.scale) << 1
}

fn push_varint(out: &mut Vec<u8>, mut n: usize) {
    loop {
        let b = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// Reads the LEB128 varint at `*at` (at most 5 bytes, below 2³²), advancing `*at`.
fn read_varint(data: &[u8], at: &mut usize) -> Result<usize, WeightsError> {
    let start = *at;
    let mut n = 0usize;
    for shift in [0, 7, 14, 21, 28] {
        let Some(&b) = data.get(*at) else {
            return Err(WeightsError::Encoding {
                offset: start,
                what: "a run count runs past the end",
            });
        };
        *at += 1;
        n |= usize::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            if n > u32::MAX as usize {
                break;
            }
            return Ok(n);
        }
    }
    Err(WeightsError::Encoding {
        offset: start,
        what: "a run count is longer than 32 bits",
    })
}

/// Run-length code `values` (see the module documentation).
fn encode_runs(values: &[i16], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < values.len() {
        let zeros = values[i..].iter().take_while(|&&v| v == 0).count();
        i += zeros;
        // Literals up to the next pair of zeros (a lone zero is cheaper inside the run).
        let mut j = i;
        while j < values.len() && !(values[j] == 0 && values.get(j + 1).is_none_or(|&v| v == 0)) {
            j += 1;
        }
        push_varint(out, zeros);
        push_varint(out, j - i);
        for v in &values[i..j] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        i = j;
    }
}

/// Decode `n` run-length coded values from `data[start..end]`, which they must fill exactly.
fn decode_runs(data: &[u8], start: usize, end: usize, n: usize) -> Result<Vec<i16>, WeightsError> {
    let body = &data[..end];
    let mut at = start;
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let run_at = at;
        let zeros = read_varint(body, &mut at)?;
        let literals = read_varint(body, &mut at)?;
        if zeros == 0 && literals == 0 {
            return Err(WeightsError::Encoding {
                offset: run_at,
                what: "an empty run",
            });
        }
        if zeros + literals > n - out.len() {
            return Err(WeightsError::Encoding {
                offset: run_at,
                what: "a run goes past the last value",
            });
        }
        if body.len() - at < 2 * literals {
            return Err(WeightsError::Encoding {
                offset: at,
                what: "literal values run past the end",
            });
        }
        out.resize(out.len() + zeros, 0);
        out.extend(
            body[at..at + 2 * literals]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]])),
        );
        at += 2 * literals;
    }
    if at != end {
        return Err(WeightsError::Encoding {
            offset: at,
            what: "bytes after the last value",
        });
    }
    Ok(out)
}

fn u32_at(data: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]])
}

impl Weights {
    /// All-zero weights for `variant` with the base features only (every position scores 0).
    pub fn zero(variant: Variant) -> Weights {
        Weights::zero_with(variant, FeatureSet::BASE)
    }

    /// All-zero weights for `variant` with the parts of `set` (material scales at 1).
    pub fn zero_with(variant: Variant, set: FeatureSet) -> Weights {
        Weights {
            variant,
            w: vec![[0; 2]; FEATURES],
            set,
            scale: if set.scale {
                vec![SCALE_ONE as i16; SCALE_ENTRIES]
            } else {
                Vec::new()
            },
        }
    }

    /// The same evaluation in other units: every score multiplied by `factor` (above 0, at most
    /// 16), through the material scale table (each entry times `factor`, rounded, at most
    /// [`SCALE_MAX`]), so no feature weight loses precision. Used to re-express weights fitted with
    /// the logistic scale `k_from` of `sigmoid(k × eval)` in the units of `k_to`: `factor = k_from
    /// / k_to` (`crown tune rescale`); the inverse factor undoes it (up to rounding).
    ///
    /// # Errors
    /// A message when the weights have no material scale table ([`FeatureSet::scale`] off), when
    /// `factor` is not in (0, 16], when an entry would exceed [`SCALE_MAX`] (a score at most four
    /// times the unscaled one), or when an entry that is not 0 would round to 0 (that material
    /// would always evaluate as a dead draw).
    pub fn rescaled(&self, factor: f64) -> Result<Weights, String> {
        if !self.set.scale {
            return Err(format!(
                "these weights have no material scale table (parts {}); rescaling needs `scale`",
                self.set
            ));
        }
        if !(factor > 0.0 && factor <= 16.0) {
            return Err(format!(
                "the factor k-from / k-to = {factor} must be above 0 and at most 16"
            ));
        }
        let mut scale = Vec::with_capacity(self.scale.len());
        for (entry, &k) in self.scale.iter().enumerate() {
            let v = (f64::from(k) * factor).round();
            if v > f64::from(SCALE_MAX) {
                return Err(format!(
                    "material scale {entry} would be {v}/256, above {SCALE_MAX}/256"
                ));
            }
            if k != 0 && v == 0.0 {
                return Err(format!(
                    "material scale {entry} ({k}/256) would round to 0: the factor {factor} is too small"
                ));
            }
            scale.push(v as i16);
        }
        Ok(Weights {
            scale,
            ..self.clone()
        })
    }

    /// The file (format version 2, in the module documentation). Weights beyond the feature count
    /// of [`Weights::set`] are not written (they must be zero); missing ones are written as zero.
    pub fn to_bytes(&self) -> Vec<u8> {
        let n = self.set.features();
        let mut values: Vec<i16> = Vec::with_capacity(2 * n + self.scale.len());
        for f in 0..n {
            values.extend_from_slice(&self.w.get(f).copied().unwrap_or([0, 0]));
        }
        let entries = if self.set.scale { SCALE_ENTRIES } else { 0 };
        for e in 0..entries {
            let k = self.scale.get(e).map_or(SCALE_ONE, |&k| i32::from(k));
            values.push((k.clamp(0, SCALE_MAX) - SCALE_ONE) as i16);
        }
        let mut out = Vec::with_capacity(32 + values.len() / 2);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(variant_byte(self.variant));
        out.push(parts_byte(self.set));
        out.extend_from_slice(&(n as u32).to_le_bytes());
        out.extend_from_slice(&(SCALE as u32).to_le_bytes());
        out.extend_from_slice(&(entries as u32).to_le_bytes());
        encode_runs(&values, &mut out);
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Read a weights file of format version 2 (written by [`Weights::to_bytes`]) or version 1.
    ///
    /// # Errors
    /// [`WeightsError`] for a short (or long) file, a wrong magic, version, variant, parts byte,
    /// feature count, weight scale or material-scale count, malformed runs, a material scale out of
    /// range, or a checksum that does not match. Never panics.
    pub fn from_bytes(data: &[u8]) -> Result<Weights, WeightsError> {
        if data.len() < 28 {
            return Err(WeightsError::Truncated);
        }
        if &data[..8] != MAGIC {
            return Err(WeightsError::BadMagic);
        }
        let version = u16::from_le_bytes([data[8], data[9]]);
        if version != 1 && version != VERSION {
            return Err(WeightsError::Version(version));
        }
        let variant = match data[10] {
            0 => Variant::American,
            1 => Variant::Pool,
            2 => Variant::Impasse,
            v => return Err(WeightsError::Variant(v)),
        };
        let parts = data[11];
        if parts & !3 != 0 || (version == 1 && parts != 0) {
            return Err(WeightsError::Parts(parts));
        }
        let set = FeatureSet {
            blocks: parts & 1 != 0,
            scale: parts & 2 != 0,
        };
        let n = u32_at(data, 12);
        if n as usize != set.features() {
            return Err(WeightsError::Features {
                found: n,
                expected: set.features(),
            });
        }
        let end = data.len() - 8;
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&data[end..]);
        let checked = || {
            if u64::from_le_bytes(sum) == fnv1a(&data[..end]) {
                Ok(())
            } else {
                Err(WeightsError::Checksum)
            }
        };
        let mut w = vec![[0i16; 2]; FEATURES];
        if version == 1 {
            if end != 20 + 4 * BASE_FEATURES {
                return Err(WeightsError::Truncated);
            }
            checked()?;
            for (pair, c) in w.iter_mut().zip(data[20..end].chunks_exact(4)) {
                *pair = [
                    i16::from_le_bytes([c[0], c[1]]),
                    i16::from_le_bytes([c[2], c[3]]),
                ];
            }
            return Ok(Weights {
                variant,
                w,
                set,
                scale: Vec::new(),
            });
        }
        if data.len() < 32 {
            return Err(WeightsError::Truncated);
        }
        checked()?;
        let weight_scale = u32_at(data, 16);
        if weight_scale != SCALE as u32 {
            return Err(WeightsError::WeightScale(weight_scale));
        }
        let entries = u32_at(data, 20);
        let want = if set.scale { SCALE_ENTRIES } else { 0 };
        if entries as usize != want {
            return Err(WeightsError::ScaleEntries(entries));
        }
        let nf = set.features();
        let values = decode_runs(data, 24, end, 2 * nf + want)?;
        for (pair, c) in w.iter_mut().zip(values[..2 * nf].chunks_exact(2)) {
            *pair = [c[0], c[1]];
        }
        let mut scale = Vec::with_capacity(want);
        for (entry, &v) in values[2 * nf..].iter().enumerate() {
            let value = i32::from(v) + SCALE_ONE;
            if !(0..=SCALE_MAX).contains(&value) {
                return Err(WeightsError::MaterialScale { entry, value });
            }
            scale.push(value as i16);
        }
        Ok(Weights {
            variant,
            w,
            set,
            scale,
        })
    }
}

/// The embedded weights files, one per game (`crates/ai/weights/*.bin`).
pub static EMBEDDED: [(Variant, &[u8]); 3] = [
    (
        Variant::American,
        include_bytes!("../../weights/american.bin"),
    ),
    (Variant::Pool, include_bytes!("../../weights/pool.bin")),
    (
        Variant::Impasse,
        include_bytes!("../../weights/impasse.bin"),
    ),
];

/// Weights for a search without endgame databases: American weights trained on the same games as
/// `american.bin` but with every position of at most 6 pieces labelled by its database value
/// (`crown tune fit --egdb --k 0.00757`). They evaluate endings much better (against
/// `american.bin` without databases: +39.9 Elo at 20 ms per move, +81.6 at 5,000 nodes, both H1)
/// but the first such weights were no better once the search probes the 6-piece databases itself
/// (−12.9, 95 % −28.1 to +2.3, H0), so the search uses them only when its databases hold fewer
/// than [`TABLES_COVER`] pieces of the game (docs/engine.md, "Endgame-database labels"). Impasse's
/// database-label weights won with and without databases, so they replaced `impasse.bin`; pool's
/// did not help (−9.5, H0).
pub static EMBEDDED_WITHOUT_TABLES: [(Variant, &[u8]); 1] = [(
    Variant::American,
    include_bytes!("../../weights/american-no-tables.bin"),
)];

/// Databases holding at least this many pieces make the search use [`embedded`] instead of
/// [`embedded_without_tables`].
pub const TABLES_COVER: u32 = 6;

/// The weights of `variant` for a search whose databases hold fewer than [`TABLES_COVER`] pieces
/// (or none): its [`EMBEDDED_WITHOUT_TABLES`] file where the game has one (and it loads), else
/// [`embedded`].
pub fn embedded_without_tables(variant: Variant) -> Option<&'static Weights> {
    static CELLS: [OnceLock<Option<Weights>>; 1] = [OnceLock::new()];
    let Some(i) = EMBEDDED_WITHOUT_TABLES
        .iter()
        .position(|(v, _)| *v == variant)
    else {
        return embedded(variant);
    };
    CELLS[i]
        .get_or_init(|| parse_embedded(variant, EMBEDDED_WITHOUT_TABLES[i].1))
        .as_ref()
        .or_else(|| embedded(variant))
}

/// An embedded weights file of `variant`, or `None` when it does not load or is for another game.
fn parse_embedded(variant: Variant, bytes: &[u8]) -> Option<Weights> {
    Weights::from_bytes(bytes)
        .ok()
        .filter(|w| w.variant == variant)
}

/// The embedded weights of `variant`, parsed once; `None` when the embedded file does not load
/// (the engine then uses the classic evaluation).
pub fn embedded(variant: Variant) -> Option<&'static Weights> {
    static CELLS: [OnceLock<Option<Weights>>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let i = variant_byte(variant) as usize;
    CELLS[i]
        .get_or_init(|| parse_embedded(variant, EMBEDDED[i].1))
        .as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A valid version-2 header for `set` with `payload` as the values, checksummed.
    fn file(set: FeatureSet, payload: &[u8]) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(0);
        out.push(parts_byte(set));
        out.extend_from_slice(&(set.features() as u32).to_le_bytes());
        out.extend_from_slice(&16u32.to_le_bytes());
        let entries = if set.scale { SCALE_ENTRIES } else { 0 };
        out.extend_from_slice(&(entries as u32).to_le_bytes());
        out.extend_from_slice(payload);
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    #[test]
    fn rescaling_multiplies_every_score_and_needs_the_scale_table() {
        let w = embedded(Variant::Pool).expect("embedded pool weights");
        assert!(w.set.scale);
        let half = w.rescaled(0.5).unwrap();
        let mut pos = crown_core::Position::new(Variant::Pool);
        for m in ["9-13", "21-17", "5-9", "24-19", "10-15", "19x10"] {
            pos = pos.after(&pos.parse_move(m).unwrap());
        }
        let (full, halved) = (w.evaluate_position(&pos), half.evaluate_position(&pos));
        assert!(full.abs() > 100, "a man up: {full}");
        assert!(
            (2 * halved - full).abs() <= 2 + full.abs() / 128,
            "{full} {halved}"
        );
        // The file round-trips.
        assert_eq!(Weights::from_bytes(&half.to_bytes()).unwrap(), half);
        assert!(w.rescaled(0.0).is_err());
        assert!(w.rescaled(f64::NAN).is_err());
        assert!(Weights::zero(Variant::Pool).rescaled(0.5).is_err());
        // An entry that would pass 4 is refused, not clamped.
        let mut top = Weights::zero_with(Variant::Pool, FeatureSet::ALL);
        assert!(top.rescaled(4.0).is_ok(), "1 × 4 is the largest scale");
        top.scale[7] = SCALE_MAX as i16;
        assert!(top.rescaled(1.5).unwrap_err().contains("material scale 7"));
        // The inverse factor undoes a rescale; a factor that rounds an entry to 0 is refused.
        let back = half.rescaled(2.0).unwrap().evaluate_position(&pos);
        assert!((back - full).abs() <= 2 + full.abs() / 128, "{full} {back}");
        assert!(w.rescaled(17.0).is_err());
        assert!(w.rescaled(1e-6).unwrap_err().contains("would round to 0"));
    }

    fn varint(n: usize) -> Vec<u8> {
        let mut v = Vec::new();
        push_varint(&mut v, n);
        v
    }

    #[test]
    fn varints_are_leb128() {
        assert_eq!(varint(0), [0]);
        assert_eq!(varint(127), [0x7f]);
        assert_eq!(varint(128), [0x80, 0x01]);
        assert_eq!(varint(26_554), [0xba, 0xcf, 0x01]);
    }

    /// Every value zero is one run; the empty run, runs past the last value, literals past the
    /// end and extra bytes are refused with the offset of the fault.
    #[test]
    fn malformed_runs_are_refused() {
        let n = 2 * BASE_FEATURES;
        let all_zero = [varint(n), varint(0)].concat();
        let w = Weights::from_bytes(&file(FeatureSet::BASE, &all_zero)).unwrap();
        assert_eq!(w, Weights::zero(Variant::American));
        let cases: [(Vec<u8>, usize, &str); 4] = [
            ([0, 0].to_vec(), 24, "an empty run"),
            (
                [varint(n + 1), varint(0)].concat(),
                24,
                "a run goes past the last value",
            ),
            (
                [varint(n - 1), varint(1), vec![7]].concat(),
                24 + 4,
                "literal values run past the end",
            ),
            (
                [all_zero.clone(), vec![0]].concat(),
                24 + all_zero.len(),
                "bytes after the last value",
            ),
        ];
        for (payload, offset, what) in cases {
            assert_eq!(
                Weights::from_bytes(&file(FeatureSet::BASE, &payload)),
                Err(WeightsError::Encoding { offset, what }),
                "{what}"
            );
        }
        // A material scale of −1/256 (stored as −257) is out of range.
        let set = FeatureSet {
            blocks: false,
            scale: true,
        };
        let bad = [
            varint(n),
            varint(1),
            (-257i16).to_le_bytes().to_vec(),
            varint(SCALE_ENTRIES - 1),
            varint(0),
        ]
        .concat();
        assert_eq!(
            Weights::from_bytes(&file(set, &bad)),
            Err(WeightsError::MaterialScale {
                entry: 0,
                value: -1
            })
        );
    }
}

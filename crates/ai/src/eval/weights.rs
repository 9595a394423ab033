//! The trained evaluation's weights files: the [`Weights`] of one game, their file format
//! (magic, version, variant, counts, `i16` weights, FNV-1a 64 checksum) and the files embedded in the
//! engine (`crates/ai/weights/*.bin`, with `include_bytes!`, so also in the wasm build).

use super::trained::{FEATURES, SCALE};
use crown_core::Variant;
use std::sync::OnceLock;

/// Trained weights of one game: an opening and an endgame weight per feature, in 1/[`SCALE`]
/// centi-men.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The game these weights were trained for.
    pub variant: Variant,
    /// `[opening, endgame]` per feature; length [`FEATURES`].
    pub w: Vec<[i16; 2]>,
}

/// Why a weights file was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WeightsError {
    /// Shorter than its header or its declared contents.
    Truncated,
    /// Does not start with [`MAGIC`].
    BadMagic,
    /// A format version this build does not read.
    Version(u16),
    /// The variant byte is not 0 (American), 1 (pool) or 2 (Impasse).
    Variant(u8),
    /// A feature count other than [`FEATURES`].
    Features(u32),
    /// The trailing FNV-1a 64 checksum does not match the contents.
    Checksum,
}

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WeightsError::Truncated => write!(f, "weights file is truncated"),
            WeightsError::BadMagic => write!(f, "not a Crown weights file (bad magic)"),
            WeightsError::Version(v) => write!(f, "weights format version {v} is not {VERSION}"),
            WeightsError::Variant(v) => write!(f, "weights variant byte {v} is not 0, 1 or 2"),
            WeightsError::Features(n) => {
                write!(
                    f,
                    "weights file has {n} features, this build has {FEATURES}"
                )
            }
            WeightsError::Checksum => write!(f, "weights file checksum does not match"),
        }
    }
}

impl std::error::Error for WeightsError {}

/// First 8 bytes of a weights file.
pub const MAGIC: &[u8; 8] = b"CRWNEVAL";
/// Format version written and read by this build.
pub const VERSION: u16 = 1;

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

impl Weights {
    /// All-zero weights for `variant`.
    pub fn zero(variant: Variant) -> Weights {
        Weights {
            variant,
            w: vec![[0; 2]; FEATURES],
        }
    }

    /// The file format (little-endian): magic `CRWNEVAL`, version `u16`, variant `u8` (0 American,
    /// 1 pool, 2 Impasse), a zero byte, feature count `u32`, scale `u32`, then per feature the
    /// opening and endgame weights as `i16`, then the FNV-1a 64 checksum of everything before it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(20 + 4 * self.w.len() + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(variant_byte(self.variant));
        out.push(0);
        out.extend_from_slice(&(self.w.len() as u32).to_le_bytes());
        out.extend_from_slice(&(SCALE as u32).to_le_bytes());
        for pair in &self.w {
            out.extend_from_slice(&pair[0].to_le_bytes());
            out.extend_from_slice(&pair[1].to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Read a weights file written by [`Weights::to_bytes`].
    ///
    /// # Errors
    /// [`WeightsError`] for a short file, a wrong magic, version, variant or feature count, or a
    /// checksum that does not match.
    pub fn from_bytes(data: &[u8]) -> Result<Weights, WeightsError> {
        if data.len() < 28 {
            return Err(WeightsError::Truncated);
        }
        if &data[..8] != MAGIC {
            return Err(WeightsError::BadMagic);
        }
        let version = u16::from_le_bytes([data[8], data[9]]);
        if version != VERSION {
            return Err(WeightsError::Version(version));
        }
        let variant = match data[10] {
            0 => Variant::American,
            1 => Variant::Pool,
            2 => Variant::Impasse,
            v => return Err(WeightsError::Variant(v)),
        };
        let n = u32::from_le_bytes([data[12], data[13], data[14], data[15]]);
        if n as usize != FEATURES {
            return Err(WeightsError::Features(n));
        }
        let end = 20 + 4 * FEATURES;
        if data.len() != end + 8 {
            return Err(WeightsError::Truncated);
        }
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&data[end..end + 8]);
        if u64::from_le_bytes(sum) != fnv1a(&data[..end]) {
            return Err(WeightsError::Checksum);
        }
        let w = data[20..end]
            .chunks_exact(4)
            .map(|c| {
                [
                    i16::from_le_bytes([c[0], c[1]]),
                    i16::from_le_bytes([c[2], c[3]]),
                ]
            })
            .collect();
        Ok(Weights { variant, w })
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

//! The trained evaluation: pattern tables and piece-square tables whose weights are learnt from
//! self-play by `crown tune` (see docs/engine.md, "Trained evaluation").
//!
//! The board is first **oriented** for the side to move: when White is to move it is rotated by
//! 180° (square `n` becomes square `33 − n`) and the colours swapped, so "us" always moves toward
//! row 7 (squares 29–32). The checkers rules are symmetric under that map, so the colour-flipped
//! position gets exactly the same score by construction.
//!
//! Every feature has two weights, an opening one and an endgame one; the score is their blend by
//! the number of occupied squares `p` (capped at 24): `(open × p + end × (24 − p)) / 24`.
//! Weights are stored as `i16` in 1/16 centi-men ([`SCALE`]).
//!
//! Features (indices into the weight table, [`FEATURES`] in all):
//! - `0..128` piece-square tables: our man, our king, their man, their king on each oriented square
//!   (Impasse: single = man, double = king);
//! - `128..128 + 21 × 625` patterns: 21 regions of four squares (two adjacent squares of a row and
//!   the two below them: rows r and r + 1, squares k and k + 1 of each), each square empty / our man /
//!   our king / their man / their king, a base-5 index;
//! - [`MISC`] terms that patterns cannot see (listed at [`Misc`]).

use crate::board::{Board, NEIGH, NO};
use crown_core::Variant;
use std::sync::OnceLock;

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
/// Total number of features (each with an opening and an endgame weight).
pub const FEATURES: usize = MISC_BASE + MISC;
/// Pieces at which the opening weights apply fully.
const PHASE_MAX: i32 = 24;

/// Miscellaneous features, offsets from [`MISC_BASE`]; "us / them" pairs are consecutive.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Misc {
    /// Checkers: (our pieces − their pieces) × (24 − pieces): trading down when ahead.
    TradeDown = 0,
    /// Our runaway men (no enemy piece in the cone ahead), then theirs.
    Runaway = 1,
    /// Rows advanced summed over our runaway men, then theirs.
    RunawayRows = 3,
    /// Free forward steps of our men, then theirs.
    ManMobility = 5,
    /// Free steps of our kings, then theirs.
    KingMobility = 7,
    /// Our kings with no free neighbour, then theirs.
    TrappedKings = 9,
    /// Men-only endings with equal numbers and at most 8 pieces: +1 when the pieces on the side to
    /// move's system squares are odd in number, else −1 ("the move").
    Opposition = 11,
    /// Pool: our men that can be jumped from behind, then theirs.
    Exposed = 12,
    /// Pool: our kings on the long diagonal, then theirs.
    LongDiagonal = 14,
    /// Impasse: our doubles with a free diagonal back to their nearest row, then theirs.
    BearOffReady = 16,
    /// Impasse: our singles with a free diagonal to the far row (and another single), then theirs.
    CrownReady = 18,
    /// Our men whose forward squares are both occupied or off the board, then theirs.
    Blocked = 20,
    /// A constant 1 (the value of having the move).
    Tempo = 22,
}

/// The board seen from the side to move: index 0 = us (moving toward row 7), 1 = them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Oriented {
    /// Men (Impasse: singles) of us and them, bit `n − 1` = oriented square `n`.
    pub men: [u32; 2],
    /// Kings (Impasse: doubles) of us and them.
    pub kings: [u32; 2],
}

impl Oriented {
    /// Orient `b` for its side to move.
    pub(crate) fn of(b: &Board) -> Oriented {
        if b.side == 0 {
            Oriented {
                men: b.men,
                kings: b.kings,
            }
        } else {
            Oriented {
                men: [b.men[1].reverse_bits(), b.men[0].reverse_bits()],
                kings: [b.kings[1].reverse_bits(), b.kings[0].reverse_bits()],
            }
        }
    }

    fn occupied(&self) -> u32 {
        self.men[0] | self.men[1] | self.kings[0] | self.kings[1]
    }
}

fn bits(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            i
        })
    })
}

const LONG_DIAGONAL: u32 =
    (1 << 3) | (1 << 7) | (1 << 10) | (1 << 14) | (1 << 17) | (1 << 21) | (1 << 24) | (1 << 28);

/// Squares strictly ahead of square `i` for a side moving down (`down`) or up, within a cone
/// widening by one file per row plus one of slack (a piece there may reach the man's path).
const fn cone(i: usize, down: bool) -> u32 {
    let r = (i / 4) as i32;
    let f = file(i);
    let mut mask = 0u32;
    let mut j = 0;
    while j < 32 {
        let rj = (j / 4) as i32;
        let dr = if down { rj - r } else { r - rj };
        let fj = file(j);
        let df = if fj > f { fj - f } else { f - fj };
        if dr > 0 && df <= dr + 1 {
            mask |= 1 << j;
        }
        j += 1;
    }
    mask
}

const fn file(i: usize) -> i32 {
    let c = (i % 4) as i32;
    if (i / 4) % 2 == 0 {
        2 * c + 1
    } else {
        2 * c
    }
}

static CONES: [[u32; 32]; 2] = {
    let mut t = [[0u32; 32]; 2];
    let mut i = 0;
    while i < 32 {
        t[0][i] = cone(i, true);
        t[1][i] = cone(i, false);
        i += 1;
    }
    t
};

/// The first square of each region (the others are +1, +4, +5).
const fn region_start(r: usize) -> usize {
    (r / 3) * 4 + r % 3
}

fn clear_to_edge(mut i: usize, d: usize, empty: u32) -> bool {
    loop {
        let n = NEIGH[i][d];
        if n == NO {
            return true;
        }
        if empty & (1 << n) == 0 {
            return false;
        }
        i = n as usize;
    }
}

/// Call `f(feature, value)` for every active feature of `o` in `variant` (features with value 0
/// may be skipped). The same function drives the evaluation and the training, so they agree.
#[inline]
pub fn features(o: &Oriented, variant: Variant, f: &mut impl FnMut(usize, i32)) {
    let occ = o.occupied();
    let empty = !occ;
    let mut state = [0u8; 32];
    for (k, set) in [o.men[0], o.kings[0], o.men[1], o.kings[1]]
        .into_iter()
        .enumerate()
    {
        for i in bits(set) {
            state[i] = k as u8 + 1;
            f(k * 32 + i, 1);
        }
    }
    for r in 0..REGIONS {
        let s = region_start(r);
        let idx = state[s] as usize
            + 5 * state[s + 1] as usize
            + 25 * state[s + 4] as usize
            + 125 * state[s + 5] as usize;
        f(PATTERN_BASE + r * REGION_STATES + idx, 1);
    }
    let m = |x: Misc| MISC_BASE + x as usize;
    f(m(Misc::Tempo), 1);
    let pieces = occ.count_ones() as i32;
    let draughts = variant != Variant::Impasse;
    let count = |c: usize| (o.men[c] | o.kings[c]).count_ones() as i32;
    if draughts {
        f(
            m(Misc::TradeDown),
            (count(0) - count(1)) * (24 - pieces).max(0),
        );
    }
    for (c, cones) in CONES.iter().enumerate() {
        let enemy = o.men[1 - c] | o.kings[1 - c];
        let fwd: [usize; 2] = if c == 0 { [0, 1] } else { [2, 3] };
        let back: [usize; 2] = if c == 0 { [2, 3] } else { [0, 1] };
        let (mut run, mut run_rows, mut mob, mut blocked) = (0, 0, 0, 0);
        let (mut crown_ready, mut bear_ready) = (0, 0);
        let singles = o.men[c].count_ones();
        for i in bits(o.men[c]) {
            let row = (i / 4) as i32;
            let advanced = if c == 0 { row } else { 7 - row };
            let mut free = 0;
            for d in fwd {
                let n = NEIGH[i][d];
                if n != NO && empty & (1 << n) != 0 {
                    free += 1;
                }
            }
            mob += free;
            if free == 0 {
                blocked += 1;
            }
            if draughts {
                if cones[i] & enemy == 0 {
                    run += 1;
                    run_rows += advanced;
                }
            } else if singles > 1 && advanced < 7 && fwd.iter().any(|&d| clear_to_edge(i, d, empty))
            {
                crown_ready += 1;
            }
        }
        let (mut kmob, mut trapped, mut diag) = (0, 0, 0);
        for i in bits(o.kings[c]) {
            let mut free = 0;
            for &n in &NEIGH[i] {
                if n != NO && empty & (1 << n) != 0 {
                    free += 1;
                }
            }
            kmob += free;
            if free == 0 {
                trapped += 1;
            }
            if !draughts {
                let row = (i / 4) as i32;
                let to_near = if c == 0 { row } else { 7 - row };
                if to_near > 0 && back.iter().any(|&d| clear_to_edge(i, d, empty)) {
                    bear_ready += 1;
                }
            }
        }
        if variant == Variant::Pool {
            diag = (o.kings[c] & LONG_DIAGONAL).count_ones() as i32;
            f(m(Misc::Exposed) + c, exposed(o, c));
        }
        f(m(Misc::Runaway) + c, run);
        f(m(Misc::RunawayRows) + c, run_rows);
        f(m(Misc::ManMobility) + c, mob);
        f(m(Misc::KingMobility) + c, kmob);
        f(m(Misc::TrappedKings) + c, trapped);
        f(m(Misc::LongDiagonal) + c, diag);
        f(m(Misc::BearOffReady) + c, bear_ready);
        f(m(Misc::CrownReady) + c, crown_ready);
        f(m(Misc::Blocked) + c, blocked);
    }
    if draughts
        && o.kings[0] == 0
        && o.kings[1] == 0
        && pieces <= 8
        && o.men[0].count_ones() == o.men[1].count_ones()
    {
        // Oriented, the side to move is Black: its system is rows 1, 3, 5, 7 (0-based).
        const SYSTEM: u32 = 0xf0f0_f0f0;
        let odd = (occ & SYSTEM).count_ones() % 2 == 1;
        f(m(Misc::Opposition), if odd { 1 } else { -1 });
    }
}

/// Pool: men of `c` with an enemy piece (or, when the enemy has a king, an empty square) behind
/// them and an empty square ahead on the same diagonal.
fn exposed(o: &Oriented, c: usize) -> i32 {
    let e = 1 - c;
    let empty = !o.occupied();
    let enemy = o.men[e] | o.kings[e];
    let enemy_kings = o.kings[e] != 0;
    let pairs: [(usize, usize); 2] = if c == 0 {
        [(2, 1), (3, 0)]
    } else {
        [(0, 3), (1, 2)]
    };
    let mut s = 0;
    for i in bits(o.men[c]) {
        for (behind, ahead) in pairs {
            let (nb, na) = (NEIGH[i][behind], NEIGH[i][ahead]);
            if nb == NO || na == NO || empty & (1 << na) == 0 {
                continue;
            }
            let bb = 1u32 << nb;
            if enemy & bb != 0 || (enemy_kings && empty & bb != 0) {
                s += 1;
                break;
            }
        }
    }
    s
}

/// The blend factor of the opening weights: occupied squares, at most 24.
pub fn phase(o: &Oriented) -> i32 {
    (o.occupied().count_ones() as i32).min(PHASE_MAX)
}

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

    /// Evaluate `pos` for its side to move with these weights, in centi-men (the game's rules come
    /// from `pos`, whatever game the weights were trained for).
    pub fn evaluate_position(&self, pos: &crown_core::Position) -> i32 {
        self.evaluate(&Board::of(pos), pos.variant())
    }

    /// Evaluate `b` for its side to move, in centi-men.
    #[inline]
    pub(crate) fn evaluate(&self, b: &Board, variant: Variant) -> i32 {
        let o = Oriented::of(b);
        let (mut open, mut end) = (0i32, 0i32);
        let w = &self.w[..];
        features(&o, variant, &mut |i, v| {
            let pair = w[i];
            open += i32::from(pair[0]) * v;
            end += i32::from(pair[1]) * v;
        });
        let p = phase(&o);
        (open * p + end * (PHASE_MAX - p)) / (PHASE_MAX * SCALE)
    }
}

/// The embedded weights files, one per game (`crates/ai/weights/*.bin`).
pub static EMBEDDED: [(Variant, &[u8]); 3] = [
    (Variant::American, include_bytes!("../weights/american.bin")),
    (Variant::Pool, include_bytes!("../weights/pool.bin")),
    (Variant::Impasse, include_bytes!("../weights/impasse.bin")),
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
    include_bytes!("../weights/american-no-tables.bin"),
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

//! The network weights file: reading ([`Network::from_bytes`]) and writing ([`Network::to_bytes`]).
//!
//! Format version 1 (little-endian; `tools/train/nnue.py` writes it):
//!
//! | bytes | field |
//! |---|---|
//! | 0–7 | magic `CRWNNNUE` |
//! | 8–9 | format version `u16` (1) |
//! | 10 | variant `u8`: 0 American, 1 pool, 2 Impasse |
//! | 11 | output buckets `u8` (1 to [`MAX_BUCKETS`]), chosen by piece count ([`bucket_of`]) |
//! | 12–13 | inputs `u16`: [`INPUTS`] (piece type × square × own/other) |
//! | 14–15 | first-layer width `u16` (a multiple of 16, 16 to [`MAX_L1`]) |
//! | 16–17 | second-layer width `u16` (a multiple of 8, 8 to [`MAX_L2`]) |
//! | 18–19 | activation scale `qa` `u16` (1 to 127): the clipped ReLU's 1.0 |
//! | 20–21 | `log2 qb` `u16` (0 to 14): the second layer's weight scale is `qb = 2^log2 qb` |
//! | 22–23 | output weight scale `qo` `u16` (1 or more) |
//! | 24–25 | centi-men per output unit `u16` (1 or more; 100: the float network's 1.0 is a man) |
//! | 26–27 | zero |
//! | 28–31 | payload length in bytes `u32` (the sizes above fix it) |
//! | 32– | payload (below) |
//! | last 4 | CRC-32 (IEEE, as zlib's `crc32`) of every byte before it |
//!
//! The payload: the first layer's biases (`i16` × width), its weights (`i16`, one row of width
//! values per input), then per bucket: the second layer's biases (`i32` × its width, in units of
//! `qa · qb`), its weights (`i8`, one row of `2 × first width` values per neuron: the side to move's
//! half first), the output bias (`i32`, in units of `qa · qo`) and the output weights (`i16` × second
//! width, in units of `qo`).

#[cfg(doc)]
use super::bucket_of;
use super::{Dense, Network, INPUTS, MAX_BUCKETS, MAX_L1, MAX_L2};
use crown_core::Variant;

/// The first 8 bytes of a network file.
pub const MAGIC: &[u8; 8] = b"CRWNNNUE";
/// The format version this build reads and writes.
pub const VERSION: u16 = 1;
/// Bytes before the payload.
const HEADER: usize = 32;

/// Why a network file was rejected; the message names the field and the values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    /// Shorter than its header plus payload plus checksum.
    Truncated {
        /// Bytes the file needs (as far as its header tells).
        needed: usize,
        /// Bytes it has.
        found: usize,
    },
    /// Longer than its header plus payload plus checksum.
    TrailingBytes(usize),
    /// Does not start with [`MAGIC`].
    BadMagic,
    /// A format version other than [`VERSION`].
    Version(u16),
    /// The variant byte is not 0, 1 or 2.
    Variant(u8),
    /// A size or scale field outside its range.
    Field {
        /// The field's name.
        field: &'static str,
        /// Its value in the file.
        value: u64,
        /// The values allowed.
        allowed: &'static str,
    },
    /// The payload length differs from the one the sizes call for.
    PayloadLength {
        /// The length in the file.
        found: u64,
        /// The length the sizes call for.
        expected: u64,
    },
    /// The CRC-32 does not match the contents.
    Checksum {
        /// The checksum stored in the file.
        stored: u32,
        /// The checksum of the contents.
        computed: u32,
    },
}

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetworkError::Truncated { needed, found } => write!(
                f,
                "network file is truncated: {found} bytes, its header calls for {needed}"
            ),
            NetworkError::TrailingBytes(n) => {
                write!(f, "network file has {n} bytes after its checksum")
            }
            NetworkError::BadMagic => write!(f, "not a Crown network file (bad magic)"),
            NetworkError::Version(v) => {
                write!(f, "network format version {v} is not {VERSION}")
            }
            NetworkError::Variant(v) => write!(f, "network variant byte {v} is not 0, 1 or 2"),
            NetworkError::Field {
                field,
                value,
                allowed,
            } => write!(f, "network {field} is {value}, not {allowed}"),
            NetworkError::PayloadLength { found, expected } => write!(
                f,
                "network payload length is {found} bytes, its sizes call for {expected}"
            ),
            NetworkError::Checksum { stored, computed } => write!(
                f,
                "network file checksum mismatch (stored {stored:#010x}, contents {computed:#010x}): the file is damaged"
            ),
        }
    }
}

impl std::error::Error for NetworkError {}

/// The payload length in bytes for these sizes.
fn payload_len(l1: usize, l2: usize, buckets: usize) -> u64 {
    let first = 2 * l1 + 2 * INPUTS * l1;
    let per_bucket = 4 * l2 + 2 * l1 * l2 + 4 + 2 * l2;
    (first + buckets * per_bucket) as u64
}

/// A little-endian reader over the payload; the lengths are checked before it runs.
struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0u8; N];
        a.copy_from_slice(&self.b[self.at..self.at + N]);
        self.at += N;
        a
    }
    fn i16s(&mut self, n: usize) -> Vec<i16> {
        (0..n).map(|_| i16::from_le_bytes(self.take())).collect()
    }
    fn i32s(&mut self, n: usize) -> Vec<i32> {
        (0..n).map(|_| i32::from_le_bytes(self.take())).collect()
    }
    fn i8s(&mut self, n: usize) -> Vec<i8> {
        (0..n).map(|_| i8::from_le_bytes(self.take())).collect()
    }
}

fn field(
    name: &'static str,
    value: u64,
    ok: bool,
    allowed: &'static str,
) -> Result<(), NetworkError> {
    if ok {
        Ok(())
    } else {
        Err(NetworkError::Field {
            field: name,
            value,
            allowed,
        })
    }
}

impl Network {
    /// Read a network file (the format in this module's documentation).
    ///
    /// # Errors
    /// [`NetworkError`] naming what is wrong: too short, bad magic, another version or variant, a
    /// size or scale out of range, a payload length that does not fit the sizes, a checksum
    /// mismatch, or bytes after the checksum. Never panics, whatever the bytes.
    pub fn from_bytes(b: &[u8]) -> Result<Network, NetworkError> {
        if b.len() < 8 || &b[..8] != MAGIC {
            return Err(if b.len() < 8 && MAGIC.starts_with(b) {
                NetworkError::Truncated {
                    needed: HEADER + 4,
                    found: b.len(),
                }
            } else {
                NetworkError::BadMagic
            });
        }
        if b.len() < HEADER + 4 {
            return Err(NetworkError::Truncated {
                needed: HEADER + 4,
                found: b.len(),
            });
        }
        let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
        let version = u16_at(8);
        if version != VERSION {
            return Err(NetworkError::Version(version));
        }
        let variant = match b[10] {
            0 => Variant::American,
            1 => Variant::Pool,
            2 => Variant::Impasse,
            v => return Err(NetworkError::Variant(v)),
        };
        let buckets = usize::from(b[11]);
        field(
            "bucket count",
            buckets as u64,
            (1..=MAX_BUCKETS).contains(&buckets),
            "1 to 8",
        )?;
        let inputs = usize::from(u16_at(12));
        field("input count", inputs as u64, inputs == INPUTS, "128")?;
        let l1 = usize::from(u16_at(14));
        field(
            "first-layer width",
            l1 as u64,
            (16..=MAX_L1).contains(&l1) && l1 % 16 == 0,
            "a multiple of 16 from 16 to 1024",
        )?;
        let l2 = usize::from(u16_at(16));
        field(
            "second-layer width",
            l2 as u64,
            (8..=MAX_L2).contains(&l2) && l2 % 8 == 0,
            "a multiple of 8 from 8 to 128",
        )?;
        let qa = u16_at(18);
        field(
            "activation scale",
            qa.into(),
            (1..=127).contains(&qa),
            "1 to 127",
        )?;
        let qb_log2 = u16_at(20);
        field("log2 qb", qb_log2.into(), qb_log2 <= 14, "0 to 14")?;
        let qo = u16_at(22);
        field("output scale", qo.into(), qo >= 1, "1 or more")?;
        let out_cm = u16_at(24);
        field(
            "centi-men per unit",
            out_cm.into(),
            out_cm >= 1,
            "1 or more",
        )?;
        field(
            "reserved bytes 26-27",
            u16_at(26).into(),
            u16_at(26) == 0,
            "0",
        )?;
        let found = u64::from(u32::from_le_bytes([b[28], b[29], b[30], b[31]]));
        let expected = payload_len(l1, l2, buckets);
        if found != expected {
            return Err(NetworkError::PayloadLength { found, expected });
        }
        let total = HEADER + expected as usize + 4;
        if b.len() < total {
            return Err(NetworkError::Truncated {
                needed: total,
                found: b.len(),
            });
        }
        if b.len() > total {
            return Err(NetworkError::TrailingBytes(b.len() - total));
        }
        let stored = u32::from_le_bytes([b[total - 4], b[total - 3], b[total - 2], b[total - 1]]);
        let computed = crc32fast::hash(&b[..total - 4]);
        if stored != computed {
            return Err(NetworkError::Checksum { stored, computed });
        }
        let mut r = Reader { b, at: HEADER };
        let l1_bias = r.i16s(l1);
        let l1_weights = r.i16s(INPUTS * l1);
        let dense = (0..buckets)
            .map(|_| Dense {
                l2_bias: r.i32s(l2),
                l2_weights: r.i8s(2 * l1 * l2),
                out_bias: i32::from_le_bytes(r.take()),
                out_weights: r.i16s(l2),
            })
            .collect();
        Ok(Network {
            variant,
            l1,
            l2,
            qa: qa as i16,
            qb_log2: qb_log2 as u32,
            qo: i32::from(qo),
            out_cm: i32::from(out_cm),
            l1_bias,
            l1_weights,
            dense,
            kernel: super::simd::Kernel::best(),
        })
    }

    /// The network as a file ([`Network::from_bytes`] reads it back as the same network).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(
            HEADER + payload_len(self.l1, self.l2, self.dense.len()) as usize + 4,
        );
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.push(match self.variant {
            Variant::American => 0,
            Variant::Pool => 1,
            Variant::Impasse => 2,
        });
        b.push(self.dense.len() as u8);
        for v in [
            INPUTS as u16,
            self.l1 as u16,
            self.l2 as u16,
            self.qa as u16,
            self.qb_log2 as u16,
            self.qo as u16,
            self.out_cm as u16,
            0,
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        let len = payload_len(self.l1, self.l2, self.dense.len()) as u32;
        b.extend_from_slice(&len.to_le_bytes());
        for v in self.l1_bias.iter().chain(&self.l1_weights) {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for d in &self.dense {
            for v in &d.l2_bias {
                b.extend_from_slice(&v.to_le_bytes());
            }
            b.extend(d.l2_weights.iter().map(|&v| v as u8));
            b.extend_from_slice(&d.out_bias.to_le_bytes());
            for v in &d.out_weights {
                b.extend_from_slice(&v.to_le_bytes());
            }
        }
        let crc = crc32fast::hash(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        b
    }
}

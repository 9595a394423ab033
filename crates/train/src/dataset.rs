//! Training data in a compact binary form: labelled positions from self-play (`crown tune gen
//! --out-dir`), read by `crown tune fit` (docs/engine.md, "Training data at scale").
//!
//! A file holds the positions of one variant, each with the game's result and the search score
//! for the side to move, its game and ply, and an exact value when an endgame database gave one
//! ([`Record`]). It is written by [`Writer`] and read back one record at a time by [`Reader`], which
//! never holds more than one block (at most [`BLOCK_RECORDS`] records) decoded.
//!
//! # Format (version 1, little-endian)
//!
//! **Header**: the magic [`MAGIC`] (`CRWNDATA`), the format version `u16` ([`VERSION`]), the
//! variant `u8` (0 American, 1 pool, 2 Impasse), a zero byte, the generator seed `u64`, the chunk
//! number `u32`, the length `u32` of the settings text (at most [`MAX_SETTINGS`] bytes), the
//! settings as UTF-8 (`key=value` words: how the data was made), then the CRC-32 (IEEE) of every
//! header byte before it.
//!
//! **Blocks**, each: the record count `u32` (1 to [`BLOCK_RECORDS`]), the length `u32` of the
//! compressed payload, the CRC-32 of the decompressed payload, then the payload: raw deflate
//! (RFC 1951) of the block's rows of [`ROW`] bytes each, stored byte-transposed (byte 0 of every
//! row, then byte 1 of every row, …). A row holds, each field relative to the previous row of the
//! same block (the first row relative to zero), so that the successive positions of a game give
//! runs of zero bytes:
//!
//! | bytes | field |
//! |---|---|
//! | 0–15 | Black's men, White's men, Black's kings, White's kings (Impasse: singles and doubles) as `u32` square sets (bit n − 1 = square n), each XOR the previous row's |
//! | 16–17 | the search score `i16`, centi-men for the side to move |
//! | 18–19 | the ply `u16` (`0xFFFF`: unknown) minus the previous row's, wrapping |
//! | 20–23 | the game number `u32` minus the previous row's, wrapping |
//! | 24 | bits 0: side to move (1 White); 1–2: the result for the side to move (0 loss, 1 draw, 2 win); 3–4: the exact value (0 none, 1 loss, 2 draw, 3 win); 5–7: zero |
//!
//! **End**: a zero `u32` (a block of no records), the number of records `u64`, the number of
//! games `u32`, and the CRC-32 of those 16 bytes; nothing may follow.
//!
//! A file that is truncated anywhere lacks the end and is an error; a damaged byte fails a CRC or
//! the deflate stream; a row that is not a legal position of the variant is an error naming it.
//! Every error is a [`DatasetError`] naming the file and the record, never a panic.

use crown_ai::tables::Wdl;
use crown_core::{Color, Position, Setup, SquareSet, Variant};
use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;

mod reader;
pub use reader::Reader;

/// The first 8 bytes of a data file.
pub const MAGIC: &[u8; 8] = b"CRWNDATA";
/// The format version this code writes and reads.
pub const VERSION: u16 = 1;
/// Most records in one block (the reader's unit of decoding: about 1.6 MB at most).
pub const BLOCK_RECORDS: usize = 65_536;
/// Bytes of one row (one record) before compression.
pub const ROW: usize = 25;
/// Longest settings text in the header, in bytes.
pub const MAX_SETTINGS: usize = 65_535;
/// The conventional file name extension of data files (`american-1-c00000.ctd`).
pub const EXTENSION: &str = "ctd";
/// The largest compressed payload a block may declare (deflate's worst case is a few bytes per
/// 64 KiB above the input; this leaves room for any encoder).
const MAX_PAYLOAD: usize = 2 * BLOCK_RECORDS * ROW;
/// The `u16` stored for an unknown ply.
const NO_PLY: u16 = u16::MAX;
/// Bytes of the header before the settings text.
const FIXED_HEADER: usize = 28;

/// One labelled position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position (its variant is the file's).
    pub position: Position,
    /// The game's result for the side to move.
    pub result: Wdl,
    /// The search score of the self-play engine for the side to move, in centi-men (wins and
    /// losses clipped to ±2000 by the generator).
    pub score: i16,
    /// The game's number: unique within a run (seed) of `crown tune gen`, and with the header's
    /// seed and chunk the key of the validation split ([`game_key`]).
    pub game: u32,
    /// Plies from the game's first position (the start, an opening ballot) to this one; `None`
    /// when unknown (data converted from text files, which do not record it). At most 65,534.
    pub ply: Option<u16>,
    /// The position's perfect-play value for the side to move from an endgame database, when one
    /// labelled it.
    pub exact: Option<Wdl>,
}

/// What a data file says about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The game of every position.
    pub variant: Variant,
    /// The seed of the run that made the data (0 when unknown).
    pub seed: u64,
    /// The chunk number within the run (0 for a single file).
    pub chunk: u32,
    /// How the data was made, `key=value` words (at most [`MAX_SETTINGS`] bytes of UTF-8).
    pub settings: String,
}

/// Totals of a file, from its end.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Records in the file.
    pub records: u64,
    /// Games the records come from (games that gave no record included).
    pub games: u32,
}

/// Why a data file cannot be read (or a record cannot be written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatasetError {
    /// The file, as named to the reader.
    pub file: String,
    /// The record at which the problem is, numbered from 0 in the file (for a damaged block, its
    /// first record); `None` for the header.
    pub record: Option<u64>,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.record {
            Some(r) => write!(f, "{}: record {r}: {}", self.file, self.what),
            None => write!(f, "{}: header: {}", self.file, self.what),
        }
    }
}

impl std::error::Error for DatasetError {}

fn variant_code(v: Variant) -> u8 {
    match v {
        Variant::American => 0,
        Variant::Pool => 1,
        Variant::Impasse => 2,
    }
}

fn wdl_code(w: Wdl) -> u8 {
    match w {
        Wdl::Loss => 0,
        Wdl::Draw => 1,
        Wdl::Win => 2,
    }
}

fn code_wdl(c: u8) -> Option<Wdl> {
    match c {
        0 => Some(Wdl::Loss),
        1 => Some(Wdl::Draw),
        2 => Some(Wdl::Win),
        _ => None,
    }
}

/// The validation-split key of game `game` of chunk `chunk` of the run seeded `seed`: a hash, so
/// that games of different files (different seeds or chunks) get different keys.
pub fn game_key(seed: u64, chunk: u32, game: u32) -> u32 {
    let g = (u64::from(chunk) << 32) | u64::from(game);
    (crown_core::rng::mix(seed ^ crown_core::rng::mix(g ^ 0x6461_7461)) >> 32) as u32
}

/// The header's bytes, its CRC included.
fn header_bytes(h: &Header) -> io::Result<Vec<u8>> {
    if h.settings.len() > MAX_SETTINGS {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "the settings text has {} bytes, more than {MAX_SETTINGS}",
                h.settings.len()
            ),
        ));
    }
    let mut out = Vec::with_capacity(FIXED_HEADER + h.settings.len() + 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(variant_code(h.variant));
    out.push(0);
    out.extend_from_slice(&h.seed.to_le_bytes());
    out.extend_from_slice(&h.chunk.to_le_bytes());
    out.extend_from_slice(&(h.settings.len() as u32).to_le_bytes());
    out.extend_from_slice(h.settings.as_bytes());
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    Ok(out)
}

/// Writes records to a data file: the header at once, a block whenever [`BLOCK_RECORDS`] records
/// are waiting, the last block and the end at [`Writer::finish`]. The output depends only on the
/// header, the records and their order.
pub struct Writer<W: Write> {
    out: W,
    variant: Variant,
    rows: Vec<[u8; ROW]>,
    prev: [u8; ROW],
    records: u64,
    level: u32,
}

impl<W: Write> Writer<W> {
    /// Start a file on `out` with `header`, compressing at deflate level 9.
    ///
    /// # Errors
    /// The header's settings are longer than [`MAX_SETTINGS`] bytes, or `out` fails.
    pub fn new(out: W, header: &Header) -> io::Result<Writer<W>> {
        Writer::with_level(out, header, 9)
    }

    /// Start a file on `out` with `header`, compressing at deflate `level` (0 none to 9 smallest;
    /// higher values are 9). Any level reads back the same; only the size and speed differ.
    ///
    /// # Errors
    /// As [`Writer::new`].
    pub fn with_level(mut out: W, header: &Header, level: u32) -> io::Result<Writer<W>> {
        out.write_all(&header_bytes(header)?)?;
        Ok(Writer {
            out,
            variant: header.variant,
            rows: Vec::new(),
            prev: [0; ROW],
            records: 0,
            level: level.min(9),
        })
    }

    /// Records pushed so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Add `record`.
    ///
    /// # Errors
    /// The record's position is of another variant than the header's, its ply is 65,535 or more
    /// (`InvalidInput`), or writing a full block fails.
    pub fn push(&mut self, record: &Record) -> io::Result<()> {
        if record.position.variant() != self.variant {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "a {} position in a data file of {}",
                    record.position.variant(),
                    self.variant
                ),
            ));
        }
        if record.ply == Some(NO_PLY) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "ply 65535 cannot be stored (at most 65534)",
            ));
        }
        let row = self.row(record);
        self.rows.push(row);
        self.records += 1;
        if self.rows.len() == BLOCK_RECORDS {
            self.flush_block()?;
        }
        Ok(())
    }

    /// The row of `r`, relative to the previous row of the block.
    fn row(&mut self, r: &Record) -> [u8; ROW] {
        let pos = &r.position;
        let mut raw = [0u8; ROW];
        let sets = [
            pos.men(Color::Black),
            pos.men(Color::White),
            pos.kings(Color::Black),
            pos.kings(Color::White),
        ];
        for (i, s) in sets.iter().enumerate() {
            raw[4 * i..4 * i + 4].copy_from_slice(&s.0.to_le_bytes());
        }
        raw[16..18].copy_from_slice(&r.score.to_le_bytes());
        raw[18..20].copy_from_slice(&r.ply.unwrap_or(NO_PLY).to_le_bytes());
        raw[20..24].copy_from_slice(&r.game.to_le_bytes());
        let exact = r.exact.map_or(0, |w| wdl_code(w) + 1);
        raw[24] =
            u8::from(pos.side_to_move() == Color::White) | wdl_code(r.result) << 1 | exact << 3;
        let out = delta(&raw, &self.prev);
        self.prev = raw;
        out
    }

    fn flush_block(&mut self) -> io::Result<()> {
        let n = self.rows.len();
        if n == 0 {
            return Ok(());
        }
        let mut plain = Vec::with_capacity(n * ROW);
        for j in 0..ROW {
            plain.extend(self.rows.iter().map(|r| r[j]));
        }
        let mut enc = flate2::write::DeflateEncoder::new(
            Vec::with_capacity(n * 4),
            flate2::Compression::new(self.level),
        );
        enc.write_all(&plain)?;
        let packed = enc.finish()?;
        self.out.write_all(&(n as u32).to_le_bytes())?;
        self.out.write_all(&(packed.len() as u32).to_le_bytes())?;
        self.out.write_all(&crc32fast::hash(&plain).to_le_bytes())?;
        self.out.write_all(&packed)?;
        self.rows.clear();
        self.prev = [0; ROW];
        Ok(())
    }

    /// Write the last block and the end, with `games` as the number of games the records come
    /// from, and return the output (flushed).
    ///
    /// # Errors
    /// Writing fails.
    pub fn finish(mut self, games: u32) -> io::Result<W> {
        self.flush_block()?;
        let mut end = Vec::with_capacity(20);
        end.extend_from_slice(&0u32.to_le_bytes());
        end.extend_from_slice(&self.records.to_le_bytes());
        end.extend_from_slice(&games.to_le_bytes());
        let crc = crc32fast::hash(&end);
        end.extend_from_slice(&crc.to_le_bytes());
        self.out.write_all(&end)?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// `raw` relative to `prev`: XOR for the square sets and the flags, wrapping difference for the
/// ply and the game, the score as it is.
fn delta(raw: &[u8; ROW], prev: &[u8; ROW]) -> [u8; ROW] {
    let mut out = *raw;
    for i in 0..16 {
        out[i] ^= prev[i];
    }
    let ply = u16_at(raw, 18).wrapping_sub(u16_at(prev, 18));
    out[18..20].copy_from_slice(&ply.to_le_bytes());
    let game = u32_at(raw, 20).wrapping_sub(u32_at(prev, 20));
    out[20..24].copy_from_slice(&game.to_le_bytes());
    out
}

/// The inverse of [`delta`].
fn undelta(stored: &[u8; ROW], prev: &[u8; ROW]) -> [u8; ROW] {
    let mut out = *stored;
    for i in 0..16 {
        out[i] ^= prev[i];
    }
    let ply = u16_at(stored, 18).wrapping_add(u16_at(prev, 18));
    out[18..20].copy_from_slice(&ply.to_le_bytes());
    let game = u32_at(stored, 20).wrapping_add(u32_at(prev, 20));
    out[20..24].copy_from_slice(&game.to_le_bytes());
    out
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Encode `records` (all of `header.variant`) from `games` games as the bytes of a data file.
///
/// # Errors
/// As [`Writer::push`] (a record of another variant, an unstorable ply).
pub fn to_bytes(header: &Header, records: &[Record], games: u32) -> io::Result<Vec<u8>> {
    let mut w = Writer::new(Vec::new(), header)?;
    for r in records {
        w.push(r)?;
    }
    w.finish(games)
}

/// Whether `bytes` (the start of a file) begin with [`MAGIC`]: a data file rather than text.
pub fn is_data_file(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown_core::rng::Rng;
    use crown_core::Game;

    /// Records along seeded random games of `variant`, every field varied: results and exact
    /// values of all kinds, scores over the whole `i16` range, known and unknown plies.
    fn records(variant: Variant, games: u32) -> Vec<Record> {
        let mut out = Vec::new();
        let mut rng = Rng::new(5);
        for g in 0..games {
            let mut game = Game::from_position(Position::new(variant));
            let result = [Wdl::Loss, Wdl::Draw, Wdl::Win][rng.index(3)];
            while game.outcome().is_none() && game.ply_count() < 120 {
                let exact = [None, Some(Wdl::Loss), Some(Wdl::Draw), Some(Wdl::Win)][rng.index(4)];
                out.push(Record {
                    position: *game.position(),
                    result,
                    score: rng.next_u64() as i16,
                    game: g * 7 + 3,
                    ply: (g % 3 != 0).then_some(game.ply_count() as u16),
                    exact,
                });
                let moves = game.legal_moves();
                let mv = moves[rng.index(moves.len())];
                game.play(&mv).unwrap();
            }
        }
        out
    }

    fn header(variant: Variant) -> Header {
        Header {
            variant,
            seed: 0x0123_4567_89ab_cdef,
            chunk: 42,
            settings: "nodes=2000 eval=trained".into(),
        }
    }

    #[test]
    fn every_field_round_trips_in_all_three_games() {
        for variant in Variant::ALL {
            let recs = records(variant, 12);
            assert!(recs.len() > 200, "{variant}: {} records", recs.len());
            // Kings (doubles) appear, so the king sets are exercised.
            assert!(recs
                .iter()
                .any(|r| !r.position.kings(Color::White).is_empty()
                    || !r.position.kings(Color::Black).is_empty()));
            let bytes = to_bytes(&header(variant), &recs, 12).unwrap();
            let mut reader = Reader::new(&bytes[..], "mem").unwrap();
            assert_eq!(reader.header(), &header(variant));
            let back: Vec<Record> = reader.by_ref().map(Result::unwrap).collect();
            assert_eq!(back, recs, "{variant}");
            assert_eq!(
                reader.totals(),
                Some(Totals {
                    records: recs.len() as u64,
                    games: 12
                })
            );
        }
    }

    #[test]
    fn blocks_split_at_the_block_size_and_read_back() {
        let one = records(Variant::American, 1);
        let mut recs = Vec::new();
        while recs.len() < BLOCK_RECORDS + 10 {
            recs.extend_from_slice(&one);
        }
        let bytes = to_bytes(&header(Variant::American), &recs, 1).unwrap();
        let back: Vec<Record> = Reader::new(&bytes[..], "mem")
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(back.len(), recs.len());
        assert!(back == recs);
    }

    #[test]
    fn a_file_of_no_record_reads_as_empty() {
        let bytes = to_bytes(&header(Variant::Pool), &[], 0).unwrap();
        let reader = Reader::new(&bytes[..], "mem").unwrap();
        assert_eq!(reader.check().unwrap(), Totals::default());
    }

    #[test]
    fn a_record_of_another_game_is_refused() {
        let r = records(Variant::Pool, 1)[0];
        let e = to_bytes(&header(Variant::American), &[r], 1).unwrap_err();
        assert!(e.to_string().contains("pool"), "{e}");
    }

    /// The first error of reading `bytes` whole.
    fn first_error(bytes: &[u8]) -> DatasetError {
        match Reader::new(bytes, "x.ctd") {
            Err(e) => e,
            Ok(r) => r.check().unwrap_err(),
        }
    }

    #[test]
    fn truncated_and_damaged_files_name_the_file_and_the_record() {
        let recs = records(Variant::American, 4);
        let bytes = to_bytes(&header(Variant::American), &recs, 4).unwrap();
        let header_len = FIXED_HEADER + header(Variant::American).settings.len() + 4;
        // Every truncation is an error, never a panic nor a silent short read.
        for cut in 0..bytes.len() {
            let e = first_error(&bytes[..cut]);
            assert_eq!(e.file, "x.ctd");
            if cut < header_len {
                assert_eq!(e.record, None, "cut {cut}: {e}");
            } else {
                assert_eq!(
                    e.record,
                    Some(if cut < bytes.len() - 20 {
                        0
                    } else {
                        recs.len() as u64
                    }),
                    "cut {cut}: {e}"
                );
                assert!(
                    e.what.contains("truncated") || e.what.contains("ends"),
                    "cut {cut}: {e}"
                );
            }
        }
        assert_eq!(
            first_error(&bytes[..bytes.len() - 1]).to_string(),
            format!(
                "x.ctd: record {}: the file ends inside the end (15 of 16 bytes)",
                recs.len()
            )
        );
        // Every single damaged byte is an error (a CRC, the deflate stream or a field check), or
        // reads as the very same records (a deflate byte whose change decodes to the same bytes:
        // padding bits, a back-reference to equal bytes elsewhere).
        for at in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[at] ^= 0x10;
            match Reader::new(&bad[..], "x.ctd") {
                Err(e) => assert_eq!(e.file, "x.ctd", "byte {at}"),
                Ok(mut r) => {
                    let read: Result<Vec<Record>, DatasetError> = r.by_ref().collect();
                    match read {
                        Err(e) => assert_eq!(e.file, "x.ctd", "byte {at}"),
                        Ok(read) => {
                            assert_eq!(read, recs, "byte {at} damaged, read without an error");
                        }
                    }
                }
            }
        }
        let mut bad = bytes.clone();
        bad[header_len + 20] ^= 0xff;
        let e = first_error(&bad);
        assert_eq!(e.record, Some(0));
        // Bytes after the end.
        let mut long = bytes.clone();
        long.push(0);
        assert!(first_error(&long).what.contains("after the end"));
        // Another file: text data.
        let e = first_error(b"# crown tune gen variant=american\n0 1 10 B:W21-32:B1-12\n");
        assert_eq!(
            e.to_string(),
            "x.ctd: header: not a Crown data file (it does not start with CRWNDATA)"
        );
    }

    #[test]
    fn an_illegal_position_is_refused_naming_its_record() {
        // A hand-made row: a White man on its crowning row (square 2), re-encoded with valid CRCs.
        let recs = records(Variant::American, 1);
        let mut w = Writer::new(Vec::new(), &header(Variant::American)).unwrap();
        for r in &recs[..5] {
            w.push(r).unwrap();
        }
        // Fake a record by writing its row directly.
        let mut row = [0u8; ROW];
        row[4..8].copy_from_slice(&(1u32 << 1).to_le_bytes());
        let prev = w.prev;
        w.rows.push(delta(&row, &prev));
        w.prev = row;
        w.records += 1;
        let bytes = w.finish(1).unwrap();
        let e = first_error(&bytes);
        assert_eq!(e.record, Some(5));
        assert!(
            e.what
                .starts_with("not a legal American checkers position (B:W2:B)"),
            "{e}"
        );
    }
}

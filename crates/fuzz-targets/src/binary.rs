//! The binary files users hand Crown: opening books (`crown_ai::book`), trained weights
//! (`crown_ai::trained`), endgame database class files (crown-egdb) and training data
//! (`crown_train::dataset`).
//!
//! Books have no checksum, so the fuzzer reaches every field. Weights and database files carry
//! checksums that random bytes almost never match, so those targets also read a *repaired* copy of
//! the input whose checksums are recomputed: the fuzzer then reaches the fields behind them.

use crown_ai::book::{self, Book};
use crown_ai::trained::{fnv1a, Weights};
use crown_core::rng::Rng;
use crown_core::{Position, Variant};
use crown_egdb::Tablebase;
use crown_train::dataset;
use std::path::PathBuf;

/// Positions to try a book or weights on: the start and the positions along a few seeded random
/// playouts of `variant` (at most `plies` plies each).
fn sample_positions(variant: Variant, plies: usize) -> Vec<Position> {
    let mut out = vec![Position::new(variant)];
    let mut rng = Rng::new(22);
    for _ in 0..3 {
        let mut pos = Position::new(variant);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.after(&moves[rng.index(moves.len())]);
            out.push(pos);
        }
    }
    out
}

/// The opening-book loader: `Book::from_bytes` never panics; a book it accepts writes back to
/// bytes that read as the same book, and probing it (start position and early positions, each
/// level's choice) returns only legal moves.
pub fn book(data: &[u8]) {
    let Ok(b) = Book::from_bytes(data) else {
        return;
    };
    let again = Book::from_bytes(&b.to_bytes()).expect("to_bytes output must read back");
    assert_eq!(again, b);
    for (key, moves) in b.entries() {
        assert_eq!(b.entry(key), moves);
    }
    for pos in sample_positions(b.variant(), 8) {
        let moves = b.probe(&pos);
        for m in &moves {
            assert!(pos.is_legal(&m.mv), "book move {:?} is not legal", m.mv);
        }
        for (i, level) in [None, Some(1), Some(5), Some(10)].into_iter().enumerate() {
            if let Some(c) = book::choose(&moves, level, i as u64 * 0x9e37_79b9) {
                assert!(moves.contains(&c));
            }
        }
    }
}

/// `data` with its last 8 bytes replaced by the FNV-1a checksum of the bytes before them (the
/// weights file's trailer).
fn repair_weights(data: &[u8]) -> Option<Vec<u8>> {
    let body = data.len().checked_sub(8)?;
    let mut out = data[..body].to_vec();
    out.extend_from_slice(&fnv1a(&data[..body]).to_le_bytes());
    Some(out)
}

/// The weights loader: `Weights::from_bytes` never panics, on the input and on the input with its
/// checksum repaired; weights it accepts write back to the same bytes, and evaluating positions
/// with them (any weights, extreme ones included) never panics.
pub fn weights(data: &[u8]) {
    for bytes in std::iter::once(data.to_vec()).chain(repair_weights(data)) {
        let Ok(w) = Weights::from_bytes(&bytes) else {
            continue;
        };
        let again = Weights::from_bytes(&w.to_bytes()).expect("to_bytes output must read back");
        assert_eq!(
            again, w,
            "weights write back to bytes that read as the same weights"
        );
        for pos in sample_positions(w.variant, 30) {
            let _ = w.evaluate_position(&pos);
        }
    }
}

/// Header layout of a class file (crates/egdb/src/file.rs): 72 bytes, the CRC-32 of the block
/// index at 64 and of the first 68 bytes at 68, the number of blocks at 32.
const EGDB_HEADER: usize = 72;

/// `data` with every checksum of a class file recomputed over what is there: each block's, the
/// block index's and the header's.
fn repair_egdb(data: &[u8]) -> Option<Vec<u8>> {
    if data.len() < EGDB_HEADER {
        return None;
    }
    let mut out = data.to_vec();
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
    let nblocks = u32_at(&out, 32) as usize;
    let index_end = nblocks
        .checked_mul(16)
        .and_then(|n| n.checked_add(EGDB_HEADER))
        .filter(|&end| end <= out.len());
    if let Some(index_end) = index_end {
        let mut at = index_end;
        for i in 0..nblocks {
            let rec = EGDB_HEADER + 16 * i;
            let len = u32_at(&out, rec + 8) as usize;
            let Some(end) = at.checked_add(len).filter(|&e| e <= out.len()) else {
                break;
            };
            let crc = crc32fast::hash(&out[at..end]);
            out[rec + 12..rec + 16].copy_from_slice(&crc.to_le_bytes());
            at = end;
        }
        let crc = crc32fast::hash(&out[EGDB_HEADER..index_end]);
        out[64..68].copy_from_slice(&crc.to_le_bytes());
    }
    let crc = crc32fast::hash(&out[..68]);
    out[68..72].copy_from_slice(&crc.to_le_bytes());
    Some(out)
}

/// The file name the header of `data` claims (the reader checks that it matches), or a fixed one
/// when the header does not name a class.
fn egdb_file_name(data: &[u8]) -> String {
    let variant = match data.get(12) {
        Some(0) => Some(Variant::American),
        Some(1) => Some(Variant::Pool),
        Some(2) => Some(Variant::Impasse),
        _ => None,
    };
    match (variant, data.get(13..17)) {
        (Some(v), Some(m)) => {
            let material = crown_egdb::Material {
                mover_men: m[0],
                mover_kings: m[1],
                other_men: m[2],
                other_kings: m[3],
            };
            format!("{}-{}.egdb", v.id(), material.name())
        }
        _ => "american-m0k1-m0k1.egdb".to_string(),
    }
}

/// A directory of this process and thread for the database target's one file, emptied.
fn scratch_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "crown-fuzz-egdb-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the scratch directory");
    dir
}

/// Small positions to probe a database with (a few pieces each, all three games).
const PROBES: [(Variant, &str); 6] = [
    (Variant::American, "B:W18:B14"),
    (Variant::American, "W:W18,K27:B14"),
    (Variant::American, "B:WK32:BK1"),
    (Variant::Pool, "B:W18:B14"),
    (Variant::Pool, "W:WK18:BK5,9"),
    (Variant::Impasse, "W:W18:B14"),
];

/// The endgame-database file reader: a class file of any bytes (and the same bytes with their
/// checksums repaired) opens without a panic — left out as damaged or read — and reading every
/// block, describing the database and probing positions give values or errors, never a panic.
pub fn egdb(data: &[u8]) {
    let dir = scratch_dir();
    for bytes in std::iter::once(data.to_vec()).chain(repair_egdb(data)) {
        let path = dir.join(egdb_file_name(&bytes));
        if std::fs::write(&path, &bytes).is_err() {
            continue;
        }
        let Ok(tb) = Tablebase::open(&dir) else {
            continue;
        };
        let _ = tb.check_files();
        let _ = tb.describe();
        let _ = tb.classes();
        for variant in Variant::ALL {
            let _ = tb.coverage(variant);
            let _ = tb.max_pieces(variant);
        }
        for (variant, fen) in PROBES {
            if let Ok(pos) = Position::from_fen(variant, fen) {
                let _ = tb.probe(&pos);
                let _ = tb.best_move(&pos);
            }
        }
        let _ = std::fs::remove_file(&path);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `data` with the CRCs of a training-data file (`crown_train::dataset`, format in its module
/// documentation) recomputed over what is there: the header's, each block's whose payload
/// inflates, and the end's. Stops at the first block that cannot be walked.
fn repair_dataset(data: &[u8]) -> Option<Vec<u8>> {
    use std::io::Read;
    let u32_at = |b: &[u8], at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
    };
    let mut out = data.to_vec();
    let len = u32_at(&out, 24)? as usize;
    let crc_at = 28usize.checked_add(len)?;
    let crc = crc32fast::hash(out.get(..crc_at)?);
    out.get_mut(crc_at..crc_at + 4)?
        .copy_from_slice(&crc.to_le_bytes());
    let mut at = crc_at + 4;
    loop {
        let count = u32_at(&out, at)?;
        if count == 0 {
            let end = at + 16;
            let crc = crc32fast::hash(out.get(at..end)?);
            out.get_mut(end..end + 4)?
                .copy_from_slice(&crc.to_le_bytes());
            return Some(out);
        }
        let plen = u32_at(&out, at + 4)? as usize;
        let start = at + 12;
        let payload = out.get(start..start.checked_add(plen)?)?;
        let mut plain = Vec::new();
        let limit = (count as u64).saturating_mul(dataset::ROW as u64) + 1;
        if flate2::read::DeflateDecoder::new(payload)
            .take(limit)
            .read_to_end(&mut plain)
            .is_ok()
        {
            let crc = crc32fast::hash(&plain);
            out.get_mut(at + 8..at + 12)?
                .copy_from_slice(&crc.to_le_bytes());
        }
        at = start + plen;
    }
}

/// The training-data reader: `dataset::Reader` never panics on any bytes (nor on the bytes with
/// their CRCs repaired), its errors name the file, and the records of a file it reads whole
/// write back to a file that reads as the same header and records.
pub fn dataset(data: &[u8]) {
    for bytes in std::iter::once(data.to_vec()).chain(repair_dataset(data)) {
        let Ok(mut reader) = dataset::Reader::new(&bytes[..], "fuzz.ctd") else {
            continue;
        };
        let header = reader.header().clone();
        let mut records = Vec::new();
        let mut failed = false;
        for r in reader.by_ref() {
            match r {
                Ok(r) => records.push(r),
                Err(e) => {
                    assert_eq!(e.file, "fuzz.ctd");
                    failed = true;
                }
            }
        }
        let Some(totals) = reader.totals().filter(|_| !failed) else {
            continue;
        };
        assert_eq!(totals.records, records.len() as u64);
        let again = dataset::to_bytes(&header, &records, totals.games)
            .expect("records read back must write");
        let mut back = dataset::Reader::new(&again[..], "again").expect("written header reads");
        assert_eq!(back.header(), &header);
        let reread: Vec<_> = back
            .by_ref()
            .map(|r| r.expect("written records read"))
            .collect();
        assert_eq!(reread, records);
        assert_eq!(back.totals(), Some(totals));
    }
}

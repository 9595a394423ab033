//! Opening books: positions the engine has analysed in advance, with their good moves and scores,
//! so that the engine plays the opening at once and varied (see `docs/engine.md`, "Opening book").
//!
//! A book is read from bytes with [`Book::from_bytes`] (no I/O here, so it also works in wasm) and
//! written with [`Book::to_bytes`]; [`Book::probe`] lists the book moves of a position and
//! [`Book::choose`] picks one for a level. Each game has a book built by `crown book build` and
//! embedded in the engine ([`Book::embedded`]).
//!
//! # Format (version 1, little-endian)
//! ```text
//! header   20 bytes  magic "CROWNBK\0" (8), version u16 = 1, variant u8 (0 American, 1 pool,
//!                    2 Impasse), reserved u8 = 0, positions P u32, moves M u32
//! index    P × 12    Zobrist key u64 (Position::zobrist: pieces and side to move), first u32 (index
//!                    of the position's first move record); keys strictly increasing, firsts
//!                    increasing; a position's moves run to the next position's first (or M)
//! moves    M × 5     move u8 (index in Position::legal_moves_sorted, reading order), score i16
//!                    (centi-men, side to move's view, from the build's search), weight u16
//!                    (relative preference among the position's moves, ≥ 1)
//! ```
//! A position is found by binary search over the index. The moves of a position are stored best
//! first.

use crate::Engine;
use crown_core::{Move, Position, Variant};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// The first 8 bytes of a book file.
pub const MAGIC: [u8; 8] = *b"CROWNBK\0";
/// The format version this code reads and writes.
pub const VERSION: u16 = 1;
const HEADER: usize = 20;
const INDEX_RECORD: usize = 12;
const MOVE_RECORD: usize = 5;

/// Why bytes are not a book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The file does not start with [`MAGIC`].
    BadMagic,
    /// The format version is not [`VERSION`].
    Version(u16),
    /// The variant byte (offset 10) is not 0, 1 or 2.
    Variant(u8),
    /// The file is shorter than its header says: `expected` bytes, `found` bytes.
    Truncated {
        /// Bytes the header announces.
        expected: usize,
        /// Bytes present.
        found: usize,
    },
    /// Bytes after the last move record: `expected` bytes, `found` bytes.
    TrailingBytes {
        /// Bytes the header announces.
        expected: usize,
        /// Bytes present.
        found: usize,
    },
    /// Index record `index` has a key not above the previous one (keys must be strictly
    /// increasing for the binary search).
    KeyOrder {
        /// The offending index record (0-based).
        index: usize,
    },
    /// Index record `index` points to no moves, or to moves out of range or out of order.
    BadEntry {
        /// The offending index record (0-based).
        index: usize,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::BadMagic => write!(f, "not a Crown opening book (bad magic bytes)"),
            BookError::Version(v) => {
                write!(f, "opening book version {v} is not supported (this build reads {VERSION})")
            }
            BookError::Variant(v) => write!(f, "opening book variant byte {v} is not 0, 1 or 2"),
            BookError::Truncated { expected, found } => write!(
                f,
                "opening book truncated: header announces {expected} bytes, file has {found}"
            ),
            BookError::TrailingBytes { expected, found } => write!(
                f,
                "opening book has trailing bytes: header announces {expected} bytes, file has {found}"
            ),
            BookError::KeyOrder { index } => write!(
                f,
                "opening book position {index}: key not above the previous one (index not sorted)"
            ),
            BookError::BadEntry { index } => write!(
                f,
                "opening book position {index}: its move range is empty or out of bounds"
            ),
        }
    }
}

impl std::error::Error for BookError {}

/// A book move of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move (legal in the probed position).
    pub mv: Move,
    /// Its score in centi-men from the side to move's point of view, from the build's search.
    pub score_cp: i16,
    /// Relative preference among the position's moves (≥ 1; higher is chosen more often at the
    /// casual levels).
    pub weight: u16,
}

/// One position of a book as stored: the move as its index in [`Position::legal_moves_sorted`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookEntryMove {
    /// Index of the move in [`Position::legal_moves_sorted`] of the position.
    pub index: u8,
    /// Score in centi-men, side to move's view.
    pub score_cp: i16,
    /// Relative preference (≥ 1).
    pub weight: u16,
}

/// An opening book of one game: sorted positions (by Zobrist key), each with its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    variant: Variant,
    keys: Vec<u64>,
    /// `firsts[i]..firsts[i + 1]` are the moves of position `i` (one extra element at the end).
    firsts: Vec<u32>,
    moves: Vec<BookEntryMove>,
}

fn variant_byte(v: Variant) -> u8 {
    match v {
        Variant::American => 0,
        Variant::Pool => 1,
        Variant::Impasse => 2,
    }
}

impl Book {
    /// Read a book from the bytes of a book file (format in the module documentation).
    ///
    /// # Errors
    /// [`BookError`]: bad magic, unsupported version or variant, truncated or trailing bytes,
    /// unsorted keys, an empty or out-of-range move range. Never panics, whatever the bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(BookError::BadMagic);
        }
        if bytes.len() < HEADER {
            return Err(BookError::Truncated {
                expected: HEADER,
                found: bytes.len(),
            });
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let version = u16_at(8);
        if version != VERSION {
            return Err(BookError::Version(version));
        }
        let variant = match bytes[10] {
            0 => Variant::American,
            1 => Variant::Pool,
            2 => Variant::Impasse,
            v => return Err(BookError::Variant(v)),
        };
        let positions = u32_at(12) as usize;
        let moves = u32_at(16) as usize;
        // In u64 so that a hostile header cannot overflow the size on 32-bit targets (wasm).
        let expected = HEADER as u64
            + positions as u64 * INDEX_RECORD as u64
            + moves as u64 * MOVE_RECORD as u64;
        if (bytes.len() as u64) < expected {
            return Err(BookError::Truncated {
                expected: usize::try_from(expected).unwrap_or(usize::MAX),
                found: bytes.len(),
            });
        }
        let expected = expected as usize;
        if bytes.len() > expected {
            return Err(BookError::TrailingBytes {
                expected,
                found: bytes.len(),
            });
        }
        let mut keys = Vec::with_capacity(positions);
        let mut firsts = Vec::with_capacity(positions + 1);
        for i in 0..positions {
            let at = HEADER + i * INDEX_RECORD;
            let key = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or([0; 8]));
            let first = u32_at(at + 8);
            if keys.last().is_some_and(|&k| k >= key) {
                return Err(BookError::KeyOrder { index: i });
            }
            // Each position has at least one move: firsts strictly increase from 0.
            let ok = match firsts.last() {
                None => first == 0,
                Some(&prev) => first > prev,
            };
            if !ok || first as usize >= moves {
                return Err(BookError::BadEntry { index: i });
            }
            keys.push(key);
            firsts.push(first);
        }
        if positions == 0 && moves != 0 {
            return Err(BookError::BadEntry { index: 0 });
        }
        firsts.push(moves as u32);
        let base = HEADER + positions * INDEX_RECORD;
        let moves = (0..moves)
            .map(|j| {
                let at = base + j * MOVE_RECORD;
                BookEntryMove {
                    index: bytes[at],
                    score_cp: u16_at(at + 1) as i16,
                    weight: u16_at(at + 3),
                }
            })
            .collect();
        Ok(Book {
            variant,
            keys,
            firsts,
            moves,
        })
    }

    /// A book from entries: each position's key (its [`Position::zobrist`]) and its moves, best
    /// first. Entries are sorted here; a key given twice keeps its last entry; positions without
    /// moves are left out.
    pub fn from_entries(
        variant: Variant,
        entries: impl IntoIterator<Item = (u64, Vec<BookEntryMove>)>,
    ) -> Book {
        let mut map = std::collections::BTreeMap::new();
        for (k, m) in entries {
            if !m.is_empty() {
                map.insert(k, m);
            }
        }
        let mut book = Book {
            variant,
            keys: Vec::with_capacity(map.len()),
            firsts: Vec::with_capacity(map.len() + 1),
            moves: Vec::new(),
        };
        for (k, m) in map {
            book.keys.push(k);
            book.firsts.push(book.moves.len() as u32);
            book.moves.extend(m);
        }
        book.firsts.push(book.moves.len() as u32);
        book
    }

    /// The bytes of the book file (format in the module documentation); [`Book::from_bytes`]
    /// reads them back to an equal book.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(
            HEADER + self.keys.len() * INDEX_RECORD + self.moves.len() * MOVE_RECORD,
        );
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(variant_byte(self.variant));
        out.push(0);
        out.extend_from_slice(&(self.keys.len() as u32).to_le_bytes());
        out.extend_from_slice(&(self.moves.len() as u32).to_le_bytes());
        for (k, f) in self.keys.iter().zip(&self.firsts) {
            out.extend_from_slice(&k.to_le_bytes());
            out.extend_from_slice(&f.to_le_bytes());
        }
        for m in &self.moves {
            out.push(m.index);
            out.extend_from_slice(&m.score_cp.to_le_bytes());
            out.extend_from_slice(&m.weight.to_le_bytes());
        }
        out
    }

    /// The game of the book.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Number of positions in the book.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Number of move records in the book.
    pub fn move_count(&self) -> usize {
        self.moves.len()
    }

    /// Every position of the book: its key and its stored moves (sorted by key).
    pub fn entries(&self) -> impl Iterator<Item = (u64, &[BookEntryMove])> + '_ {
        self.keys.iter().enumerate().map(|(i, &k)| {
            (
                k,
                &self.moves[self.firsts[i] as usize..self.firsts[i + 1] as usize],
            )
        })
    }

    /// The stored moves of the position with Zobrist key `key` (empty when not in the book).
    pub fn entry(&self, key: u64) -> &[BookEntryMove] {
        match self.keys.binary_search(&key) {
            Ok(i) => &self.moves[self.firsts[i] as usize..self.firsts[i + 1] as usize],
            Err(_) => &[],
        }
    }

    /// The book moves of `pos`, best first: empty when the position is not in the book or is of
    /// another game. Stored move indices that are not legal in `pos` (a Zobrist collision) are
    /// left out, so every returned move is legal.
    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        if pos.variant() != self.variant {
            return Vec::new();
        }
        let stored = self.entry(pos.zobrist());
        if stored.is_empty() {
            return Vec::new();
        }
        let legal = pos.legal_moves_sorted();
        stored
            .iter()
            .filter_map(|m| {
                legal.get(m.index as usize).map(|&mv| BookMove {
                    mv,
                    score_cp: m.score_cp,
                    weight: m.weight.max(1),
                })
            })
            .collect()
    }

    /// The embedded book of `variant` (built by `crown book build`, committed under
    /// `crates/ai/books/`), read once. `None` if the embedded bytes were not a book (a build
    /// error, caught by the tests).
    pub fn embedded(variant: Variant) -> Option<Arc<Book>> {
        static BOOKS: [OnceLock<Option<Arc<Book>>>; 3] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        let (cell, bytes): (_, &[u8]) = match variant {
            Variant::American => (&BOOKS[0], include_bytes!("../books/american.bin")),
            Variant::Pool => (&BOOKS[1], include_bytes!("../books/pool.bin")),
            Variant::Impasse => (&BOOKS[2], include_bytes!("../books/impasse.bin")),
        };
        cell.get_or_init(|| Book::from_bytes(bytes).ok().map(Arc::new))
            .clone()
    }
}

/// The margin in centi-men below the best book move within which a move may be chosen, per casual
/// level (see [`choose`]): levels 1–2: 25, 3–4: 15, 5–6: 8, levels 7–10 and full strength: 2.
pub fn level_margin(level: Option<u8>) -> i32 {
    match level.map(|l| l.clamp(1, 10)) {
        Some(1 | 2) => 25,
        Some(3 | 4) => 15,
        Some(5 | 6) => 8,
        _ => 2,
    }
}

/// Choose among book moves for a level, with `random` a uniformly random 64-bit number: the moves
/// scored within [`level_margin`] of the best are the candidates; at the casual levels 1–6 one is
/// drawn with probability proportional to its weight, at levels 7–10 and full strength uniformly
/// (so equal moves alternate from game to game, reproducibly for a given seed). `None` when
/// `moves` is empty.
pub fn choose(moves: &[BookMove], level: Option<u8>, random: u64) -> Option<BookMove> {
    let best = moves.iter().map(|m| i32::from(m.score_cp)).max()?;
    let margin = level_margin(level);
    let candidates: Vec<&BookMove> = moves
        .iter()
        .filter(|m| i32::from(m.score_cp) >= best - margin)
        .collect();
    let casual = matches!(level.map(|l| l.clamp(1, 10)), Some(l) if l <= 6);
    if casual {
        let total: u64 = candidates.iter().map(|m| u64::from(m.weight.max(1))).sum();
        let mut r = random % total.max(1);
        for m in &candidates {
            let w = u64::from(m.weight.max(1));
            if r < w {
                return Some(**m);
            }
            r -= w;
        }
        candidates.last().map(|m| **m)
    } else {
        candidates
            .get((random % candidates.len() as u64) as usize)
            .map(|m| **m)
    }
}

impl Engine {
    /// Play from the embedded opening book of each game (`true`) or search every move (`false`,
    /// the default of a new engine). With the book on, [`Engine::search`] answers a position of the
    /// book at once with a book move chosen by [`choose`] for the engine's level (depth 0, no
    /// nodes); infinite searches (analysis) always search.
    pub fn set_book(&mut self, on: bool) {
        self.book = on;
    }

    /// Whether the opening book is on (see [`Engine::set_book`]).
    pub fn book(&self) -> bool {
        self.book
    }

    /// The book move the engine would play in `pos` now (drawing a random number when several
    /// fit), or `None` when the book is off or has no move there.
    pub(crate) fn book_move(&mut self, pos: &Position) -> Option<BookMove> {
        if !self.book {
            return None;
        }
        let moves = Book::embedded(pos.variant())?.probe(pos);
        if moves.is_empty() {
            return None;
        }
        let r = self.next_random();
        choose(&moves, self.options.level, r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EngineOptions, Limits};
    use crown_core::{Game, ImpasseSetup};
    use proptest::prelude::*;
    use std::sync::atomic::AtomicBool;

    fn m(index: u8, score_cp: i16, weight: u16) -> BookEntryMove {
        BookEntryMove {
            index,
            score_cp,
            weight,
        }
    }

    fn sample() -> Book {
        let start = Position::new(Variant::American);
        let after = start.after(&start.parse_move("11-15").unwrap());
        Book::from_entries(
            Variant::American,
            vec![
                (start.zobrist(), vec![m(4, 10, 1000), m(0, 2, 400)]),
                (after.zobrist(), vec![m(3, -8, 1000)]),
            ],
        )
    }

    #[test]
    fn a_book_round_trips_through_its_bytes() {
        let book = sample();
        let bytes = book.to_bytes();
        // 20-byte header, 2 index records of 12 bytes, 3 move records of 5 bytes.
        assert_eq!(bytes.len(), 20 + 2 * 12 + 3 * 5);
        assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
        assert_eq!(book.len(), 2);
        assert_eq!(book.move_count(), 3);
    }

    #[test]
    fn probe_maps_indices_to_moves_in_reading_order() {
        let book = sample();
        let start = Position::new(Variant::American);
        // The start's moves in reading order: 9-13, 9-14, 10-14, 10-15, 11-15, 11-16, 12-16.
        let moves = book.probe(&start);
        let text: Vec<String> = moves.iter().map(|b| start.move_text(&b.mv)).collect();
        assert_eq!(text, ["11-15", "9-13"]);
        assert_eq!(moves[0].score_cp, 10);
        assert_eq!(moves[1].weight, 400);
        // Another game's position with the same pieces is not in an American book.
        assert!(book.probe(&Position::new(Variant::Pool)).is_empty());
        // A position outside the book.
        assert!(book
            .probe(&start.after(&start.parse_move("9-13").unwrap()))
            .is_empty());
    }

    #[test]
    fn probe_leaves_out_indices_that_are_not_legal_moves() {
        let start = Position::new(Variant::American);
        let book = Book::from_entries(
            Variant::American,
            vec![(start.zobrist(), vec![m(6, 0, 1), m(7, 0, 1), m(200, 0, 1)])],
        );
        // 7 legal moves: index 6 (12-16) is the last; 7 and 200 are out of range.
        let moves = book.probe(&start);
        assert_eq!(moves.len(), 1);
        assert_eq!(start.move_text(&moves[0].mv), "12-16");
    }

    #[test]
    fn corrupt_books_give_typed_errors() {
        let good = sample().to_bytes();
        assert_eq!(Book::from_bytes(b"PDN"), Err(BookError::BadMagic));
        assert_eq!(Book::from_bytes(&[]), Err(BookError::BadMagic));
        let mut v = good.clone();
        v[8] = 2;
        assert_eq!(Book::from_bytes(&v), Err(BookError::Version(2)));
        let mut v = good.clone();
        v[10] = 3;
        assert_eq!(Book::from_bytes(&v), Err(BookError::Variant(3)));
        assert_eq!(
            Book::from_bytes(&good[..good.len() - 1]),
            Err(BookError::Truncated {
                expected: good.len(),
                found: good.len() - 1
            })
        );
        assert!(matches!(
            Book::from_bytes(&good[..12]),
            Err(BookError::Truncated { .. })
        ));
        let mut v = good.clone();
        v.push(0);
        assert!(matches!(
            Book::from_bytes(&v),
            Err(BookError::TrailingBytes { .. })
        ));
        // Swap the two keys: the index is no longer sorted.
        let mut v = good.clone();
        let (a, b) = (20..28, 32..40);
        let ka: Vec<u8> = v[a.clone()].to_vec();
        let kb: Vec<u8> = v[b.clone()].to_vec();
        v[a].copy_from_slice(&kb);
        v[b].copy_from_slice(&ka);
        assert_eq!(Book::from_bytes(&v), Err(BookError::KeyOrder { index: 1 }));
        // The second position's first move points past the moves.
        let mut v = good.clone();
        v[40..44].copy_from_slice(&9u32.to_le_bytes());
        assert_eq!(Book::from_bytes(&v), Err(BookError::BadEntry { index: 1 }));
        // A hostile header announcing 4 billion positions is truncated, not an allocation.
        let mut v = good;
        v[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            Book::from_bytes(&v),
            Err(BookError::Truncated { .. })
        ));
    }

    proptest! {
        #[test]
        fn any_bytes_give_a_book_or_an_error(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = Book::from_bytes(&bytes);
        }

        #[test]
        fn damaged_good_books_give_a_book_or_an_error(at in 0usize..59, byte in any::<u8>(), cut in 0usize..60) {
            let mut v = sample().to_bytes();
            v[at] = byte;
            v.truncate(cut.max(at));
            if let Ok(book) = Book::from_bytes(&v) {
                // Whatever was read, probing it is safe and gives legal moves.
                let start = Position::new(Variant::American);
                for b in book.probe(&start) {
                    prop_assert!(start.is_legal(&b.mv));
                }
            }
        }
    }

    fn bm(score_cp: i16, weight: u16) -> BookMove {
        let start = Position::new(Variant::American);
        BookMove {
            mv: start.legal_moves_sorted()[0],
            score_cp,
            weight,
        }
    }

    #[test]
    fn choice_margins_per_level() {
        assert_eq!(choose(&[], None, 0), None);
        let moves = [bm(20, 1000), bm(10, 500), bm(0, 250), bm(-20, 62)];
        let picked = |level: Option<u8>| -> Vec<i16> {
            let mut s: Vec<i16> = (0..200u64)
                .map(|r| {
                    choose(&moves, level, r.wrapping_mul(0x9e37_79b9))
                        .unwrap()
                        .score_cp
                })
                .collect();
            s.sort_unstable();
            s.dedup();
            s
        };
        // Full strength and levels 7–10: only moves within 2 of the best.
        assert_eq!(picked(None), [20]);
        assert_eq!(picked(Some(9)), [20]);
        // Level 5 (margin 8): still only the best; level 3 (margin 15): the two best; level 1
        // (margin 25): the three best, never the one 40 below.
        assert_eq!(picked(Some(5)), [20]);
        assert_eq!(picked(Some(3)), [10, 20]);
        assert_eq!(picked(Some(1)), [0, 10, 20]);
        // Weighted: the first candidate owns random numbers 0..1000 of 1750 at level 1.
        assert_eq!(choose(&moves, Some(1), 999).unwrap().score_cp, 20);
        assert_eq!(choose(&moves, Some(1), 1000).unwrap().score_cp, 10);
        assert_eq!(choose(&moves, Some(1), 1500).unwrap().score_cp, 0);
    }

    /// Walk an embedded book from its roots along every book move: each stored move is legal, and
    /// every position of the book is reached (nothing unreachable or mis-keyed).
    fn walk(variant: Variant, roots: &[Position]) -> usize {
        let book = Book::embedded(variant).expect("the embedded book reads");
        assert_eq!(book.variant(), variant);
        let mut seen = std::collections::HashSet::new();
        let mut stack: Vec<Position> = roots.to_vec();
        while let Some(pos) = stack.pop() {
            let stored = book.entry(pos.zobrist());
            if stored.is_empty() || !seen.insert(pos.zobrist()) {
                continue;
            }
            let moves = book.probe(&pos);
            assert_eq!(
                moves.len(),
                stored.len(),
                "an illegal book move in {}",
                pos.to_fen()
            );
            for b in moves {
                assert!(pos.is_legal(&b.mv));
                assert!(b.weight >= 1);
                stack.push(pos.after(&b.mv));
            }
        }
        assert_eq!(
            seen.len(),
            book.len(),
            "{variant} book positions not reachable from the roots"
        );
        seen.len()
    }

    #[test]
    fn every_pool_book_move_is_legal_and_reachable() {
        assert!(walk(Variant::Pool, &[Position::new(Variant::Pool)]) > 0);
    }

    #[test]
    fn every_impasse_book_move_is_legal_and_reachable() {
        let roots = [
            Position::impasse(ImpasseSetup::Seed),
            Position::impasse(ImpasseSetup::Steere),
        ];
        assert!(walk(Variant::Impasse, &roots) > 0);
    }

    #[test]
    fn the_engine_plays_a_book_move_at_the_start_only_with_the_book_on() {
        for variant in [Variant::American, Variant::Pool, Variant::Impasse] {
            let game = Game::new(variant);
            let book_moves: Vec<Move> = Book::embedded(variant)
                .unwrap()
                .probe(game.position())
                .iter()
                .map(|b| b.mv)
                .collect();
            assert!(
                !book_moves.is_empty(),
                "{variant}: no book move at the start"
            );
            let stop = AtomicBool::new(false);
            let mut engine = Engine::new(EngineOptions {
                hash_mib: 1,
                ..EngineOptions::default()
            });
            assert!(!engine.book(), "the book is off in a new engine");
            let r = engine.search(&game, &Limits::depth(3), &stop, &mut |_| {});
            assert_eq!(r.depth, 3, "{variant}: searched without the book");
            engine.set_book(true);
            let r = engine.search(&game, &Limits::depth(3), &stop, &mut |_| {});
            assert_eq!(r.depth, 0, "{variant}: answered from the book");
            assert_eq!(r.nodes, 0);
            assert!(book_moves.contains(&r.best_move.unwrap()));
            // Analysis (an infinite search) always searches: stopped at once, it still has depth 1.
            let infinite = Limits {
                infinite: true,
                ..Limits::default()
            };
            let stopped = AtomicBool::new(true);
            let r = engine.search(&game, &infinite, &stopped, &mut |_| {});
            assert!(r.depth >= 1, "{variant}: analysis searched");
        }
    }
}

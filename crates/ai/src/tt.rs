//! The transposition table, shared by all search threads without locks.
//!
//! Each entry is two `AtomicU64`: the packed data and the key XOR-ed with the data (the "lockless
//! hashing" trick): a torn write by another thread makes the check `key ^ data == position key` fail,
//! so a corrupted entry is simply a miss. Entries are grouped in buckets of two:
//!
//! - slot 0 is **depth-preferred**: it is replaced when the new result is at least as deep, or when the
//!   stored entry is from an older search (age differs), or when it holds the same position;
//! - slot 1 is **always-replace**: anything not stored in slot 0 goes there.
//!
//! The best move is stored as its index in the position's legal move list (core's move generator
//! is deterministic), and checked against the list length on probe.

use std::sync::atomic::{AtomicU64, Ordering};

/// The bound a stored score represents.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score is at most the stored one (fail low).
    Upper = 1,
    /// The true score is at least the stored one (fail high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

/// One probed entry.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Entry {
    pub score: i32,
    /// Remaining depth in the search's units (quarter plies, `search::PLY`), −1 to 1022.
    pub depth: i32,
    pub bound: Bound,
    /// Index of the best move in the legal move list, if any.
    pub move_index: Option<usize>,
}

const NO_MOVE: u64 = 0x3ff;

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// A fixed-size table of `2^k`-free size (any number of buckets).
pub(crate) struct Table {
    slots: Vec<Slot>,
    buckets: usize,
    age: u8,
}

/// Bytes per bucket (two slots of two u64).
const BUCKET_BYTES: usize = 32;

impl Table {
    /// A table of about `mib` MiB (at least one bucket). `mib` is first capped at
    /// [`crate::MAX_HASH_MIB`]; when the memory cannot be allocated, the size is halved until it can
    /// (down to one bucket), so this never aborts the process. [`Table::mib`] gives the size obtained.
    pub fn new(mib: usize) -> Table {
        Table::new_with(mib, |n| {
            let mut v: Vec<Slot> = Vec::new();
            v.try_reserve_exact(n).ok()?;
            Some(v)
        })
    }

    /// [`Table::new`] with the allocation of an empty vector with capacity for `n` slots given by
    /// `reserve` (`None` when that much memory is unavailable), so the fallback can be tested.
    fn new_with(mib: usize, reserve: impl Fn(usize) -> Option<Vec<Slot>>) -> Table {
        let mib = mib.clamp(1, crate::MAX_HASH_MIB);
        let mut buckets = (mib * 1024 * 1024 / BUCKET_BYTES).max(1);
        loop {
            if let Some(mut slots) = reserve(buckets * 2) {
                slots.extend((0..buckets * 2).map(|_| Slot {
                    check: AtomicU64::new(0),
                    data: AtomicU64::new(0),
                }));
                return Table {
                    slots,
                    buckets,
                    age: 0,
                };
            }
            if buckets == 1 {
                // Not even 64 bytes: an empty table would make every probe index out of bounds, so
                // fall back to an ordinary allocation (which aborts only when the process is already
                // out of memory).
                let slots = (0..2)
                    .map(|_| Slot {
                        check: AtomicU64::new(0),
                        data: AtomicU64::new(0),
                    })
                    .collect();
                return Table {
                    slots,
                    buckets,
                    age: 0,
                };
            }
            buckets /= 2;
        }
    }

    /// The size of the table in MiB (rounded down; 0 for a table under 1 MiB).
    pub fn mib(&self) -> usize {
        self.buckets * BUCKET_BYTES / (1024 * 1024)
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.age = 0;
    }

    /// Start a new search: entries of earlier searches become preferred victims.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * 2
    }

    /// Look `key` up.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for s in &self.slots[b..b + 2] {
            let data = s.data.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Store a result for `key`.
    pub fn store(&self, key: u64, score: i32, depth: i32, bound: Bound, move_index: Option<usize>) {
        let b = self.bucket(key);
        let data = pack(score, depth, bound, move_index, self.age);
        let first = &self.slots[b];
        let old = first.data.load(Ordering::Relaxed);
        let old_key = first.check.load(Ordering::Relaxed) ^ old;
        let old_depth = ((old >> 16) & 0x3ff) as i32 - 1;
        let old_age = ((old >> 38) & 0xff) as u8;
        let slot = if old == 0 || old_key == key || old_age != self.age || depth.max(0) >= old_depth
        {
            first
        } else {
            &self.slots[b + 1]
        };
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }
}

fn pack(score: i32, depth: i32, bound: Bound, move_index: Option<usize>, age: u8) -> u64 {
    let s = (score.clamp(-32767, 32767) as i16) as u16 as u64;
    let d = (depth.clamp(-1, 1022) + 1) as u64;
    let m = move_index.map_or(NO_MOVE, |i| (i as u64).min(NO_MOVE - 1));
    s | (d << 16) | ((bound as u64) << 26) | (m << 28) | ((age as u64) << 38)
}

fn unpack(data: u64) -> Entry {
    let score = (data & 0xffff) as u16 as i16 as i32;
    let depth = ((data >> 16) & 0x3ff) as i32 - 1;
    let bound = match (data >> 26) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    let m = (data >> 28) & 0x3ff;
    Entry {
        score,
        depth,
        bound,
        move_index: if m == NO_MOVE { None } else { Some(m as usize) },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_then_probe_round_trips() {
        let t = Table::new(1);
        t.store(0x1234_5678_9abc_def0, -250, 7, Bound::Lower, Some(3));
        let e = t.probe(0x1234_5678_9abc_def0).unwrap();
        assert_eq!(e.score, -250);
        assert_eq!(e.depth, 7);
        assert_eq!(e.bound, Bound::Lower);
        assert_eq!(e.move_index, Some(3));
        assert!(t.probe(0x1234_5678_9abc_def1).is_none());
        // The deepest iteration (120 plies of 4 quarter plies) keeps its depth and the fields
        // after it.
        t.store(99, 31_000, 480, Bound::Upper, Some(1022));
        let e = t.probe(99).unwrap();
        assert_eq!(
            (e.score, e.depth, e.bound, e.move_index),
            (31_000, 480, Bound::Upper, Some(1022))
        );
    }

    #[test]
    fn allocation_failure_halves_the_size() {
        // Pretend only 4 MiB can be had: asking for 64 MiB must give 4 MiB, not abort.
        let limit = 4 * 1024 * 1024 / std::mem::size_of::<Slot>();
        let t = Table::new_with(64, |n| (n <= limit).then(|| Vec::with_capacity(n)));
        assert_eq!(t.mib(), 4);
        t.store(42, 7, 3, Bound::Exact, None);
        assert_eq!(t.probe(42).unwrap().score, 7);
        // Nothing at all available: still a usable (tiny) table.
        let t = Table::new_with(64, |_| None);
        t.store(42, 7, 3, Bound::Exact, None);
        assert_eq!(t.probe(42).unwrap().score, 7);
    }

    #[test]
    fn size_is_capped() {
        let t = Table::new_with(usize::MAX, |n| {
            assert!(n * std::mem::size_of::<Slot>() <= crate::MAX_HASH_MIB * 1024 * 1024);
            None
        });
        assert_eq!(t.mib(), 0);
    }
}

//! The builder (retrograde value iteration per class) and the verifier.
//!
//! A class is solved by rounds over its unresolved positions. In round `r` a position becomes a
//! **win in `r`** when one of its moves leads to a position lost in `r - 1`, and a **loss in `r`**
//! when every move leads to a position won in at most `r - 1` plies (round 0: no legal move, loss in
//! 0). Successors after a capture, a promotion (Impasse: a crown, a bear-off, a removal) lie in
//! classes solved before and are looked up in memory. Positions never resolved are draws (only
//! cycles can keep a position unresolved). Each round runs in parallel with rayon; values found in
//! round `r` have depth `r`, and only depths `≤ r - 1` are used, so positions can be updated in
//! place.

use crate::file::{self, Store};
use crate::index::{self, ClassIndex, Material};
use crate::{terminal, EgdbError, Probe, Wdl};
use crown_core::{MoveList, Position, Variant};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The game.
    pub variant: Variant,
    /// Build every class with at most this many pieces (American and pool: pieces on the board;
    /// Impasse: checkers, a double counting two).
    pub pieces: u32,
    /// The database directory (created when missing).
    pub dir: PathBuf,
    /// Worker threads; `None` = one per core.
    pub threads: Option<usize>,
}

/// Progress callbacks of [`build`] and [`verify`] (for a progress bar); every method has a no-op
/// default and `()` implements it.
pub trait Progress: Sync {
    /// The work ahead: `positions` positions in the classes to build or verify.
    fn begin(&self, _positions: u64) {}
    /// A class starts (`kept`: it was already on disk and passed its checksums, nothing to do).
    fn class(&self, _name: &str, _kept: bool) {}
    /// `positions` more positions are done.
    fn advance(&self, _positions: u64) {}
}

impl Progress for () {}

/// What [`build`] did.
#[derive(Clone, Debug, Default)]
pub struct BuildReport {
    /// Classes solved and written, by file name.
    pub built: Vec<String>,
    /// Classes already on disk, checked and kept.
    pub kept: Vec<String>,
    /// Damaged files that were rebuilt, with the reason.
    pub replaced: Vec<String>,
    /// Positions solved (Black-to-move indices of the built classes).
    pub positions: u64,
    /// Bytes written.
    pub bytes: u64,
    /// Wall time, seconds.
    pub seconds: f64,
}

/// Solved classes held in memory for look-ups.
struct Tables {
    variant: Variant,
    /// The database directory (for error messages).
    dir: PathBuf,
    map: HashMap<Material, (ClassIndex, Arc<Vec<u16>>)>,
    max_distance: u32,
}

/// A value code: 0 unknown/draw, 1 invalid index, `d + 2` depth to win `d`.
const DRAW: u16 = 0;
const INVALID: u16 = 1;

fn code_of(p: Probe) -> u16 {
    match p.distance {
        Some(d) => (d + 2) as u16,
        None => DRAW,
    }
}

impl Tables {
    fn insert(&mut self, m: Material, values: Arc<Vec<u16>>) {
        let maxd = values
            .iter()
            .filter(|&&v| v > INVALID)
            .map(|&v| u32::from(v - 2))
            .max()
            .unwrap_or(0);
        self.max_distance = self.max_distance.max(maxd);
        self.map
            .insert(m, (ClassIndex::new(self.variant, m), values));
    }

    /// Code of a successor position, from a solved class or from the game being over; `current`
    /// gives the class being solved and its values in progress.
    #[inline]
    fn code(
        &self,
        pos: &Position,
        current: &[(&Material, &ClassIndex, &[AtomicU16])],
    ) -> Result<u16, Material> {
        if let Some(p) = terminal(pos) {
            return Ok(code_of(p));
        }
        let m = Material::of(pos);
        let (men, kings) = index::canonical(pos);
        for (cm, ci, vals) in current {
            if **cm == m {
                return Ok(vals[ci.index_of(men, kings) as usize].load(Ordering::Relaxed));
            }
        }
        match self.map.get(&m) {
            Some((ci, vals)) => Ok(vals[ci.index_of(men, kings) as usize]),
            None => Err(m),
        }
    }
}

fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, EgdbError> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        b = b.num_threads(t.max(1));
    }
    b.build()
        .map_err(|e| EgdbError::Invalid(format!("cannot start worker threads: {e}")))
}

/// Every class of `variant` with 1..=`pieces` pieces, in build order.
fn classes_up_to(variant: Variant, pieces: u32) -> Vec<Material> {
    (1..=pieces)
        .flat_map(|n| Material::with_pieces(variant, n))
        .collect()
}

/// Build every class of `opts.variant` with at most `opts.pieces` pieces into `opts.dir`.
///
/// Classes already present are checked (header, block index, every block's checksum) and kept;
/// damaged or wrong-version files and leftover temporary files are replaced. Each class is written
/// atomically, so a build killed at any time resumes where it stopped. The directory's
/// [`crate::BuildLock`] is held throughout: a second build of the same directory, in this process
/// or another, waits for the first and then keeps what it built.
///
/// # Errors
/// [`EgdbError::Io`] naming the file (e.g. a full disk), [`EgdbError::Invalid`] for fewer than 2
/// or more than 12 pieces.
pub fn build(opts: &BuildOptions, progress: &dyn Progress) -> Result<BuildReport, EgdbError> {
    let start = Instant::now();
    if opts.pieces < 2 {
        return Err(EgdbError::Invalid(format!(
            "--pieces {} builds nothing: the smallest class has 2 pieces",
            opts.pieces
        )));
    }
    if opts.pieces > 12 {
        return Err(EgdbError::Invalid(format!(
            "--pieces {} is too many; at most 12",
            opts.pieces
        )));
    }
    // One builder at a time in a directory (another process may be building into it: wait).
    let _lock = crate::BuildLock::acquire(&opts.dir)?;
    // Temporary files left by a killed build are incomplete: remove them.
    if let Ok(rd) = std::fs::read_dir(&opts.dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.to_str().is_some_and(|s| s.ends_with(".egdb.tmp")) {
                std::fs::remove_file(&p).map_err(|source| EgdbError::Io { path: p, source })?;
            }
        }
    }
    let (store, bad) = Store::scan(&opts.dir)?;
    let mut report = BuildReport::default();
    for (_, e) in &bad {
        report.replaced.push(e.to_string());
    }
    let variant = opts.variant;
    let all = classes_up_to(variant, opts.pieces);
    let todo_positions: u64 = all
        .iter()
        .filter(|m| !store.has(variant, m))
        .map(|m| ClassIndex::new(variant, *m).size())
        .sum();
    progress.begin(todo_positions);
    let pool = pool(opts.threads)?;
    let mut tables = Tables {
        variant,
        dir: opts.dir.clone(),
        map: HashMap::new(),
        max_distance: 0,
    };
    let mut done: Vec<Material> = Vec::new();
    for m in all {
        if done.contains(&m) {
            continue;
        }
        let mirror = m.mirror();
        let group: Vec<Material> = if mirror == m {
            vec![m]
        } else {
            vec![m, mirror]
        };
        let mut to_solve = Vec::new();
        for &g in &group {
            let name = file::file_name(variant, &g);
            match store.read_class(variant, &g) {
                Some(Ok(values)) => {
                    progress.class(&name, true);
                    report.kept.push(name);
                    tables.insert(g, Arc::new(values));
                }
                Some(Err(e)) => {
                    report.replaced.push(e.to_string());
                    progress.begin(ClassIndex::new(variant, g).size());
                    to_solve.push(g);
                }
                None => to_solve.push(g),
            }
        }
        done.extend(&group);
        if to_solve.is_empty() {
            continue;
        }
        // A kept member is solved again with its mirror (the pair is solved as one), but only the
        // missing members are written.
        for g in group.iter().filter(|g| !to_solve.contains(g)) {
            progress.begin(ClassIndex::new(variant, *g).size());
        }
        progress.class(&file::file_name(variant, &group[0]), false);
        let solved = pool.install(|| solve(&tables, &group, progress))?;
        for (g, values) in group.iter().zip(solved) {
            if to_solve.contains(g) {
                let (_, bytes) = file::write_class(&opts.dir, variant, g, &values)?;
                report.positions += values.len() as u64;
                report.bytes += bytes;
                report.built.push(file::file_name(variant, g));
                tables.insert(*g, Arc::new(values));
            }
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

/// Build every class of `variant` with at most `pieces` pieces in memory, on the calling thread's
/// rayon pool (one thread where none can be spawned, as in WebAssembly), without files or clocks:
/// the same values as [`build`] writes, held as a [`crate::Tablebase`] that answers at once. For
/// small sets (the web UI builds ≤ 3 pieces at first use); memory is 2 bytes per position plus the
/// solver's ~20 bytes per position of the largest pair.
///
/// # Errors
/// [`EgdbError::Invalid`] for fewer than 2 or more than 6 pieces (larger sets belong on disk).
pub fn build_in_memory(variant: Variant, pieces: u32) -> Result<crate::Tablebase, EgdbError> {
    if !(2..=6).contains(&pieces) {
        return Err(EgdbError::Invalid(format!(
            "in-memory builds take 2 to 6 pieces, not {pieces}"
        )));
    }
    let mut tables = Tables {
        variant,
        dir: PathBuf::from("(memory)"),
        map: HashMap::new(),
        max_distance: 0,
    };
    let mut order: Vec<Material> = Vec::new();
    for m in classes_up_to(variant, pieces) {
        if tables.map.contains_key(&m) {
            continue;
        }
        let mirror = m.mirror();
        let group: Vec<Material> = if mirror == m {
            vec![m]
        } else {
            vec![m, mirror]
        };
        let solved = solve(&tables, &group, &())?;
        for (g, values) in group.iter().zip(solved) {
            tables.insert(*g, Arc::new(values));
            order.push(*g);
        }
    }
    let classes = order
        .into_iter()
        .map(|m| {
            let values = tables.map[&m].1.clone();
            (m, values)
        })
        .collect();
    Ok(crate::Tablebase::from_store(Store::memory(
        variant, classes,
    )))
}

fn missing(tables: &Tables, needed_by: &Material, m: Material) -> EgdbError {
    EgdbError::MissingClass {
        variant: tables.variant.id(),
        class: m.name(),
        dir: tables.dir.clone(),
        needed_by: needed_by.name(),
    }
}

/// Solve a class together with its mirror (the same material with the sides swapped: a quiet move
/// of one leads into the other), given every class their captures and promotions lead into.
///
/// Retrograde by rounds. One forward pass per position records what its moves lead into outside the
/// group (the shortest lost successor, the longest won one, whether one is drawn) and counts its
/// moves inside the group; a second pass lists, for each position, the positions of the group that
/// move into it (predecessors). Round `r` (odd: wins, even: losses) then only walks the predecessors
/// of the positions resolved in round `r - 1`.
fn solve(
    tables: &Tables,
    group: &[Material],
    progress: &dyn Progress,
) -> Result<Vec<Vec<u16>>, EgdbError> {
    let cis: Vec<ClassIndex> = group
        .iter()
        .map(|m| ClassIndex::new(tables.variant, *m))
        .collect();
    let mut offsets = vec![0u64];
    for ci in &cis {
        offsets.push(offsets[offsets.len() - 1] + ci.size());
    }
    let total = offsets[cis.len()] as usize;
    if total >= u32::MAX as usize {
        return Err(EgdbError::Invalid(format!(
            "class {} has {total} positions, more than this builder indexes",
            group[0].name()
        )));
    }
    let locate = |gid: usize| -> (usize, u64) {
        let g = offsets.partition_point(|&o| o <= gid as u64) - 1;
        (g, gid as u64 - offsets[g])
    };
    let vals: Vec<AtomicU16> = (0..total).map(|_| AtomicU16::new(DRAW)).collect();
    // Moves into the group not yet known to be won for the opponent; u16::MAX = never a loss
    // (a move leads to a draw outside the group).
    let remaining: Vec<AtomicU16> = (0..total).map(|_| AtomicU16::new(0)).collect();
    let in_degree: Vec<AtomicU32> = (0..total + 1).map(|_| AtomicU32::new(0)).collect();
    // Per position: round at which an outside move makes it a win (shortest lost successor + 1),
    // and round at which its outside won successors are all counted (longest + 1); 0 = none.
    let ext_win: Vec<AtomicU16> = (0..total).map(|_| AtomicU16::new(0)).collect();
    let ext_loss: Vec<AtomicU16> = (0..total).map(|_| AtomicU16::new(0)).collect();
    let failed: std::sync::Mutex<Option<Material>> = std::sync::Mutex::new(None);
    let group_of = |m: &Material| group.iter().position(|g| g == m);

    // Pass 1: outside successors, inside move counts, in-degrees.
    (0..total)
        .into_par_iter()
        .for_each_init(MoveList::new, |moves, gid| {
            let (g, i) = locate(gid);
            let Some(pos) = cis[g].position_at(i) else {
                vals[gid].store(INVALID, Ordering::Relaxed);
                return;
            };
            pos.legal_moves_into(moves);
            let (mut inside, mut win, mut longest, mut draw) = (0u32, 0u32, 0u32, false);
            for mv in moves.iter() {
                let succ = pos.after(mv);
                if terminal(&succ).is_none() {
                    let m = Material::of(&succ);
                    if let Some(h) = group_of(&m) {
                        let (men, kings) = index::canonical(&succ);
                        let child = offsets[h] as usize + cis[h].index_of(men, kings) as usize;
                        in_degree[child].fetch_add(1, Ordering::Relaxed);
                        inside += 1;
                        continue;
                    }
                }
                match tables.code(&succ, &[]) {
                    Ok(DRAW) | Ok(INVALID) => draw = true,
                    Ok(c) => {
                        let d = u32::from(c - 2);
                        if d % 2 == 0 {
                            win = if win == 0 { d + 1 } else { win.min(d + 1) };
                        } else {
                            longest = longest.max(d + 1);
                        }
                    }
                    Err(missing) => {
                        *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(missing);
                        return;
                    }
                }
            }
            ext_win[gid].store(win as u16, Ordering::Relaxed);
            if draw || win > 0 {
                // Never a loss: an outside move draws or wins.
                remaining[gid].store(u16::MAX, Ordering::Relaxed);
            } else {
                // The outside won successors count as one move, resolved at round `longest`.
                let outside = u32::from(longest > 0);
                ext_loss[gid].store(longest as u16, Ordering::Relaxed);
                remaining[gid].store((inside + outside) as u16, Ordering::Relaxed);
            }
        });
    if let Some(miss) = failed.lock().unwrap_or_else(|e| e.into_inner()).take() {
        return Err(missing(tables, &group[0], miss));
    }
    // Predecessor lists (CSR): start of each child's list.
    let mut start = Vec::with_capacity(total + 1);
    let mut acc = 0u64;
    for d in &in_degree {
        start.push(acc);
        acc += u64::from(d.load(Ordering::Relaxed));
    }
    let cursor: Vec<AtomicU64> = start.iter().map(|&s| AtomicU64::new(s)).collect();
    drop(in_degree);
    let preds: Vec<AtomicU32> = (0..acc).map(|_| AtomicU32::new(0)).collect();
    // Pass 2: fill the predecessor lists.
    (0..total)
        .into_par_iter()
        .for_each_init(MoveList::new, |moves, gid| {
            if vals[gid].load(Ordering::Relaxed) == INVALID {
                return;
            }
            let (g, i) = locate(gid);
            let Some(pos) = cis[g].position_at(i) else {
                return;
            };
            pos.legal_moves_into(moves);
            for mv in moves.iter() {
                let succ = pos.after(mv);
                if terminal(&succ).is_some() {
                    continue;
                }
                if let Some(h) = group_of(&Material::of(&succ)) {
                    let (men, kings) = index::canonical(&succ);
                    let child = offsets[h] as usize + cis[h].index_of(men, kings) as usize;
                    let at = cursor[child].fetch_add(1, Ordering::Relaxed);
                    preds[at as usize].store(gid as u32, Ordering::Relaxed);
                }
            }
        });
    drop(cursor);
    let invalid = vals
        .par_iter()
        .filter(|v| v.load(Ordering::Relaxed) == INVALID)
        .count();
    progress.advance(invalid as u64);

    // Round 0: no move at all (or only moves to won outside positions, resolved later).
    let mut frontier: Vec<u32> = (0..total)
        .into_par_iter()
        .filter(|&gid| {
            vals[gid].load(Ordering::Relaxed) == DRAW
                && remaining[gid].load(Ordering::Relaxed) == 0
                && ext_win[gid].load(Ordering::Relaxed) == 0
        })
        .map(|gid| gid as u32)
        .collect();
    for &gid in &frontier {
        vals[gid as usize].store(2, Ordering::Relaxed);
    }
    progress.advance(frontier.len() as u64);
    let last_outside = tables.max_distance + 1;
    let mut round: u32 = 0;
    while !frontier.is_empty() || round <= last_outside {
        round += 1;
        let code = (round + 2) as u16;
        let wins = round % 2 == 1;
        let next: Vec<u32> = if wins {
            // Predecessors of positions lost in round - 1, and outside wins due now.
            let mut n: Vec<u32> = frontier
                .par_iter()
                .flat_map_iter(|&c| {
                    let c = c as usize;
                    (start[c]..start[c + 1]).map(|k| preds[k as usize].load(Ordering::Relaxed))
                })
                .filter(|&p| {
                    vals[p as usize]
                        .compare_exchange(DRAW, code, Ordering::Relaxed, Ordering::Relaxed)
                        .is_ok()
                })
                .collect();
            let outside: Vec<u32> = (0..total)
                .into_par_iter()
                .filter(|&gid| {
                    ext_win[gid].load(Ordering::Relaxed) == round as u16
                        && vals[gid]
                            .compare_exchange(DRAW, code, Ordering::Relaxed, Ordering::Relaxed)
                            .is_ok()
                })
                .map(|gid| gid as u32)
                .collect();
            n.extend(outside);
            n
        } else {
            // Predecessors of positions won in round - 1 lose one escape; at zero they are lost.
            let count_down = |p: usize| -> bool {
                let r = &remaining[p];
                let before = r
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |x| {
                        if x == u16::MAX || x == 0 {
                            None
                        } else {
                            Some(x - 1)
                        }
                    })
                    .unwrap_or(0);
                before == 1
                    && vals[p]
                        .compare_exchange(DRAW, code, Ordering::Relaxed, Ordering::Relaxed)
                        .is_ok()
            };
            let mut n: Vec<u32> = frontier
                .par_iter()
                .flat_map_iter(|&c| {
                    let c = c as usize;
                    (start[c]..start[c + 1]).map(|k| preds[k as usize].load(Ordering::Relaxed))
                })
                .filter(|&p| {
                    vals[p as usize].load(Ordering::Relaxed) == DRAW && count_down(p as usize)
                })
                .collect();
            let outside: Vec<u32> = (0..total)
                .into_par_iter()
                .filter(|&gid| {
                    ext_loss[gid].load(Ordering::Relaxed) == round as u16
                        && vals[gid].load(Ordering::Relaxed) == DRAW
                        && count_down(gid)
                })
                .map(|gid| gid as u32)
                .collect();
            n.extend(outside);
            n
        };
        progress.advance(next.len() as u64);
        frontier = next;
    }
    let draws = vals
        .par_iter()
        .filter(|v| v.load(Ordering::Relaxed) == DRAW)
        .count();
    progress.advance(draws as u64);
    let mut out = Vec::with_capacity(cis.len());
    let mut all: Vec<u16> = vals.into_iter().map(AtomicU16::into_inner).collect();
    for g in (0..cis.len()).rev() {
        out.push(all.split_off(offsets[g] as usize));
    }
    out.reverse();
    Ok(out)
}

fn describe(code: u16) -> String {
    match crate::Probe::from_code(code) {
        None => "an invalid index".to_string(),
        Some(Probe { wdl: Wdl::Draw, .. }) => "draw".to_string(),
        Some(Probe { wdl, distance }) => {
            format!("{} in {}", wdl.id(), distance.unwrap_or(0))
        }
    }
}

/// Re-check every stored value of `variant` in `dir`: a position's value must equal the best over
/// its legal moves (no move: loss in 0; a win one ply longer than the shortest lost successor; a
/// loss one ply longer than the longest won successor; else a draw when a successor is drawn), and
/// invalid indices must be exactly the illegal positions. Returns the number of positions checked.
///
/// # Errors
/// [`EgdbError::Mismatch`] with the FEN of the first wrong position; [`EgdbError::MissingClass`]
/// when a class needed for the check is absent; file errors as [`crate::Tablebase::open`].
pub fn verify(
    dir: &std::path::Path,
    variant: Variant,
    threads: Option<usize>,
    progress: &dyn Progress,
) -> Result<u64, EgdbError> {
    let store = Store::open(dir)?;
    let present: Vec<Material> = store
        .infos()
        .into_iter()
        .filter(|c| c.variant == variant)
        .map(|c| c.material)
        .collect();
    let pool = pool(threads)?;
    let mut tables = Tables {
        variant,
        dir: dir.to_path_buf(),
        map: HashMap::new(),
        max_distance: 0,
    };
    let mut total = 0;
    for &m in &present {
        if let Some(r) = store.read_class(variant, &m) {
            let v = r?;
            total += v.len() as u64;
            tables.insert(m, Arc::new(v));
        }
    }
    progress.begin(total);
    let mut order = present.clone();
    order.sort_by_key(|m| {
        (
            m.pieces(variant),
            std::cmp::Reverse(m.mover_kings + m.other_kings),
            *m,
        )
    });
    for m in order {
        progress.class(&file::file_name(variant, &m), false);
        let (ci, vals) = &tables.map[&m];
        let bad = pool.install(|| {
            (0..ci.size())
                .into_par_iter()
                .map_init(MoveList::new, |moves, i| {
                    let stored = vals[i as usize];
                    let Some(pos) = ci.position_at(i) else {
                        return if stored == INVALID {
                            Ok(None)
                        } else {
                            Ok(Some((i, stored, INVALID)))
                        };
                    };
                    pos.legal_moves_into(moves);
                    let mut best: Option<Probe> = None;
                    for mv in moves.iter() {
                        let code = tables.code(&pos.after(mv), &[])?;
                        let p = Probe::from_code(code)
                            .unwrap_or(Probe {
                                wdl: Wdl::Draw,
                                distance: None,
                            })
                            .parent();
                        if best.as_ref().is_none_or(|b| p.better_than(b)) {
                            best = Some(p);
                        }
                    }
                    let expected = code_of(best.unwrap_or(Probe {
                        wdl: Wdl::Loss,
                        distance: Some(0),
                    }));
                    Ok(if expected == stored {
                        None
                    } else {
                        Some((i, stored, expected))
                    })
                })
                .find_first(|r: &Result<Option<(u64, u16, u16)>, Material>| !matches!(r, Ok(None)))
        });
        progress.advance(ci.size());
        match bad {
            None => {}
            Some(Err(miss)) => {
                return Err(EgdbError::MissingClass {
                    variant: variant.id(),
                    class: miss.name(),
                    dir: dir.to_path_buf(),
                    needed_by: m.name(),
                })
            }
            Some(Ok(Some((i, stored, expected)))) => {
                let fen = match ci.position_at(i) {
                    Some(p) => p.to_fen(),
                    None => {
                        let (men, kings) = ci.board_at(i);
                        crown_core::Setup {
                            men: [crown_core::SquareSet(men[0]), crown_core::SquareSet(men[1])],
                            kings: [
                                crown_core::SquareSet(kings[0]),
                                crown_core::SquareSet(kings[1]),
                            ],
                            side_to_move: crown_core::Color::Black,
                        }
                        .to_fen()
                    }
                };
                return Err(EgdbError::Mismatch {
                    variant: variant.id(),
                    fen,
                    stored: describe(stored),
                    expected: describe(expected),
                });
            }
            Some(Ok(None)) => {}
        }
    }
    Ok(total)
}

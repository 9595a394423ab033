//! The on-disk format (version [`VERSION`]) and the block-cached reader.
//!
//! One file per material class, `<variant>-<class>.egdb` (e.g. `american-m0k2-m1k1.egdb`), all
//! numbers little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `CRWNEGDB` |
//! | 4 | format version |
//! | 1 + 4 + 3 | variant (0 American, 1 pool, 2 Impasse), material (mover men, mover kings, other men, other kings), padding |
//! | 8 | positions (index size) |
//! | 4, 4 | values per block (4 096 when written; 256–65 536 read), number of blocks |
//! | 8, 8, 8 | wins, losses, draws |
//! | 4 | largest depth to win (plies) |
//! | 4 | CRC-32 of the block index |
//! | 4 | CRC-32 of the 68 bytes above |
//! | 16 × blocks | block index: offset (8), compressed length (4), CRC-32 of the compressed bytes (4) |
//! | … | blocks: lz4 (`lz4_flex` block format, size-prepended) of the values as u16 little-endian |
//!
//! A value is 0 for a draw, 1 for an index that is not a legal position (Impasse only), and `d + 2`
//! for depth to win `d` plies (odd `d`: the side to move wins, even: it loses).

use crate::index::{ClassIndex, Material};
use crate::EgdbError;
use crown_core::Variant;
use std::collections::{HashMap, VecDeque};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Format version written and read by this program.
pub const VERSION: u32 = 1;
const MAGIC: &[u8; 8] = b"CRWNEGDB";
const HEADER_LEN: usize = 72;
/// Values per block written (8 KiB uncompressed: a cold probe decompresses one block). Readers take
/// the block size from the header (any power of two from 256 to 65 536).
pub const BLOCK_VALUES: usize = 4 * 1024;
/// Values kept decompressed by a [`Store`] (64 MiB).
const CACHE_VALUES: usize = 32 * 1024 * 1024;

fn variant_code(v: Variant) -> u8 {
    match v {
        Variant::American => 0,
        Variant::Pool => 1,
        Variant::Impasse => 2,
    }
}

fn variant_of(code: u8) -> Option<Variant> {
    match code {
        0 => Some(Variant::American),
        1 => Some(Variant::Pool),
        2 => Some(Variant::Impasse),
        _ => None,
    }
}

/// The file name of a class.
pub fn file_name(variant: Variant, m: &Material) -> String {
    format!("{}-{}.egdb", variant.id(), m.name())
}

/// What the header of one class file says (for `crown egdb info`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassInfo {
    /// The game.
    pub variant: Variant,
    /// The material, side to move first.
    pub material: Material,
    /// The file.
    pub path: PathBuf,
    /// Positions stored (Black to move; the White-to-move positions are their mirror images).
    pub positions: u64,
    /// Positions won for the side to move.
    pub wins: u64,
    /// Positions lost for the side to move.
    pub losses: u64,
    /// Drawn positions.
    pub draws: u64,
    /// The largest depth to win in the class, plies.
    pub max_distance: u32,
    /// Size of the file, bytes.
    pub bytes: u64,
}

struct ClassFile {
    info: ClassInfo,
    /// Values per block.
    block_values: usize,
    blocks: Vec<(u64, u32, u32)>,
    /// The open file; `None` for a class held in memory.
    file: Option<Mutex<File>>,
    /// The whole file's bytes, for a class read from bytes ([`Store::from_file_bytes`]).
    bytes: Option<Arc<Vec<u8>>>,
    /// All values of a class held in memory ([`Store::memory`]); `None` for a file.
    values: Option<Arc<Vec<u16>>>,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> EgdbError + '_ {
    move |source| EgdbError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn corrupt(path: &Path, reason: impl Into<String>) -> EgdbError {
    EgdbError::Corrupt {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

impl ClassFile {
    /// Open a class file: read and check its header and block index.
    fn open(path: &Path) -> Result<ClassFile, EgdbError> {
        let mut file = File::open(path).map_err(io(path))?;
        let bytes = file.metadata().map_err(io(path))?.len();
        let mut class = ClassFile::parse(path, &mut file, bytes)?;
        class.file = Some(Mutex::new(file));
        Ok(class)
    }

    /// A class from the whole bytes of its file, named `path` (its file name must be the class's).
    fn from_bytes(path: &Path, data: Vec<u8>) -> Result<ClassFile, EgdbError> {
        let len = data.len() as u64;
        let mut class = ClassFile::parse(path, &mut std::io::Cursor::new(&data[..]), len)?;
        class.bytes = Some(Arc::new(data));
        Ok(class)
    }

    /// Read and check the header and block index of a class file of `bytes` bytes from `file`
    /// (at its start); no source is attached.
    fn parse(path: &Path, file: &mut impl Read, bytes: u64) -> Result<ClassFile, EgdbError> {
        let mut h = [0u8; HEADER_LEN];
        if bytes < HEADER_LEN as u64 {
            return Err(corrupt(
                path,
                format!("{bytes} bytes, shorter than the {HEADER_LEN}-byte header (truncated?)"),
            ));
        }
        file.read_exact(&mut h).map_err(io(path))?;
        if &h[0..8] != MAGIC {
            return Err(corrupt(path, "not a Crown endgame database (bad magic)"));
        }
        let version = u32_at(&h, 8);
        if version != VERSION {
            return Err(EgdbError::Version {
                path: path.to_path_buf(),
                found: version,
                expected: VERSION,
            });
        }
        if crc32fast::hash(&h[..68]) != u32_at(&h, 68) {
            return Err(corrupt(path, "header checksum mismatch"));
        }
        let variant = variant_of(h[12]).ok_or_else(|| corrupt(path, "unknown variant code"))?;
        let material = Material {
            mover_men: h[13],
            mover_kings: h[14],
            other_men: h[15],
            other_kings: h[16],
        };
        let positions = u64_at(&h, 20);
        let block_values = u32_at(&h, 28) as usize;
        let nblocks = u32_at(&h, 32) as usize;
        if !block_values.is_power_of_two()
            || !(256..=65_536).contains(&block_values)
            || nblocks != (positions as usize).div_ceil(block_values)
            || material.pieces(variant) > 32
            // Only a class that exists (ClassIndex::new assumes one: men that fit their rows).
            || !Material::with_pieces(variant, material.pieces(variant)).contains(&material)
            || ClassIndex::new(variant, material).size() != positions
        {
            return Err(corrupt(path, "header does not match its class"));
        }
        let expected_name = file_name(variant, &material);
        if path.file_name().and_then(|n| n.to_str()) != Some(expected_name.as_str()) {
            return Err(corrupt(path, format!("header says class {expected_name}")));
        }
        // Check the index fits in the file before allocating it: a header of a huge class must not
        // make the reader allocate gigabytes.
        let index_end = HEADER_LEN as u64 + 16 * nblocks as u64;
        if index_end > bytes {
            return Err(corrupt(
                path,
                format!("{bytes} bytes, shorter than the {nblocks}-block index (truncated?)"),
            ));
        }
        let mut idx = vec![0u8; 16 * nblocks];
        file.read_exact(&mut idx)
            .map_err(|_| corrupt(path, "truncated block index"))?;
        if crc32fast::hash(&idx) != u32_at(&h, 64) {
            return Err(corrupt(path, "block index checksum mismatch"));
        }
        let mut blocks = Vec::with_capacity(nblocks);
        let mut expect = (HEADER_LEN + 16 * nblocks) as u64;
        for i in 0..nblocks {
            let off = u64_at(&idx, 16 * i);
            let len = u32_at(&idx, 16 * i + 8);
            let crc = u32_at(&idx, 16 * i + 12);
            if off != expect {
                return Err(corrupt(path, format!("block {i} at a wrong offset")));
            }
            expect += u64::from(len);
            blocks.push((off, len, crc));
        }
        if expect != bytes {
            return Err(corrupt(
                path,
                format!("{bytes} bytes, the block index says {expect} (truncated?)"),
            ));
        }
        Ok(ClassFile {
            block_values,
            info: ClassInfo {
                variant,
                material,
                path: path.to_path_buf(),
                positions,
                wins: u64_at(&h, 36),
                losses: u64_at(&h, 44),
                draws: u64_at(&h, 52),
                max_distance: u32_at(&h, 60),
                bytes,
            },
            blocks,
            file: None,
            bytes: None,
            values: None,
        })
    }

    /// A class held in memory (no file: `path` is empty and `bytes` 0).
    fn memory(variant: Variant, material: Material, values: Arc<Vec<u16>>) -> ClassFile {
        let (mut wins, mut losses, mut draws, mut maxd) = (0u64, 0u64, 0u64, 0u32);
        for &v in values.iter() {
            match v {
                0 => draws += 1,
                1 => {}
                c => {
                    let d = u32::from(c - 2);
                    maxd = maxd.max(d);
                    if d % 2 == 1 {
                        wins += 1
                    } else {
                        losses += 1
                    }
                }
            }
        }
        ClassFile {
            info: ClassInfo {
                variant,
                material,
                path: PathBuf::new(),
                positions: values.len() as u64,
                wins,
                losses,
                draws,
                max_distance: maxd,
                bytes: 0,
            },
            block_values: values.len().max(1),
            blocks: Vec::new(),
            file: None,
            bytes: None,
            values: Some(values),
        }
    }

    /// Read, check and decompress block `b`.
    fn read_block(&self, b: usize) -> Result<Vec<u16>, EgdbError> {
        let path = &self.info.path;
        let (off, len, crc) = self.blocks[b];
        let mut buf = vec![0u8; len as usize];
        if let Some(f) = &self.file {
            let mut f = f.lock().unwrap_or_else(|e| e.into_inner());
            f.seek(SeekFrom::Start(off)).map_err(io(path))?;
            f.read_exact(&mut buf).map_err(io(path))?;
        } else if let Some(data) = &self.bytes {
            let at = usize::try_from(off).unwrap_or(usize::MAX);
            let block = data
                .get(at..at.saturating_add(len as usize))
                .ok_or_else(|| corrupt(path, format!("block {b} lies outside the file")))?;
            buf.copy_from_slice(block);
        }
        if crc32fast::hash(&buf) != crc {
            return Err(corrupt(path, format!("block {b} checksum mismatch")));
        }
        let bv = self.block_values;
        let want = (self.info.positions as usize - b * bv).min(bv);
        // The size prefix says how much to allocate: check it before decompressing.
        let prefix = buf
            .get(..4)
            .map(|p| u32::from_le_bytes([p[0], p[1], p[2], p[3]]));
        if prefix.map(|n| n as usize) != Some(2 * want) {
            return Err(corrupt(path, format!("block {b} has the wrong length")));
        }
        let raw = lz4_flex::decompress_size_prepended(&buf)
            .map_err(|e| corrupt(path, format!("block {b}: {e}")))?;
        if raw.len() != 2 * want {
            return Err(corrupt(path, format!("block {b} has the wrong length")));
        }
        Ok(raw
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect())
    }

    /// Read the whole class.
    pub(crate) fn read_all(&self) -> Result<Vec<u16>, EgdbError> {
        if let Some(v) = &self.values {
            return Ok(v.to_vec());
        }
        let mut out = Vec::with_capacity(self.info.positions as usize);
        for b in 0..self.blocks.len() {
            out.extend(self.read_block(b)?);
        }
        Ok(out)
    }
}

/// Write the values of a class atomically: to `<name>.tmp`, synced, then renamed over `<name>`.
/// Returns the file's path and size in bytes.
///
/// # Errors
/// [`EgdbError::Io`] naming the file (the temporary file is removed), e.g. on a full disk.
pub(crate) fn write_class(
    dir: &Path,
    variant: Variant,
    material: &Material,
    values: &[u16],
) -> Result<(PathBuf, u64), EgdbError> {
    use rayon::prelude::*;
    let path = dir.join(file_name(variant, material));
    let tmp = dir.join(format!("{}.tmp", file_name(variant, material)));
    let blocks: Vec<Vec<u8>> = values
        .par_chunks(BLOCK_VALUES)
        .map(|c| {
            let raw: Vec<u8> = c.iter().flat_map(|v| v.to_le_bytes()).collect();
            lz4_flex::compress_prepend_size(&raw)
        })
        .collect();
    let (mut wins, mut losses, mut draws, mut maxd) = (0u64, 0u64, 0u64, 0u32);
    for &v in values {
        match v {
            0 => draws += 1,
            1 => {}
            c => {
                let d = u32::from(c - 2);
                maxd = maxd.max(d);
                if d % 2 == 1 {
                    wins += 1
                } else {
                    losses += 1
                }
            }
        }
    }
    let mut idx = Vec::with_capacity(16 * blocks.len());
    let mut off = (HEADER_LEN + 16 * blocks.len()) as u64;
    for b in &blocks {
        idx.extend(off.to_le_bytes());
        idx.extend((b.len() as u32).to_le_bytes());
        idx.extend(crc32fast::hash(b).to_le_bytes());
        off += b.len() as u64;
    }
    let mut h = Vec::with_capacity(HEADER_LEN);
    h.extend(MAGIC);
    h.extend(VERSION.to_le_bytes());
    h.extend([
        variant_code(variant),
        material.mover_men,
        material.mover_kings,
        material.other_men,
        material.other_kings,
        0,
        0,
        0,
    ]);
    h.extend((values.len() as u64).to_le_bytes());
    h.extend((BLOCK_VALUES as u32).to_le_bytes());
    h.extend((blocks.len() as u32).to_le_bytes());
    h.extend(wins.to_le_bytes());
    h.extend(losses.to_le_bytes());
    h.extend(draws.to_le_bytes());
    h.extend(maxd.to_le_bytes());
    h.extend(crc32fast::hash(&idx).to_le_bytes());
    let hc = crc32fast::hash(&h);
    h.extend(hc.to_le_bytes());
    debug_assert_eq!(h.len(), HEADER_LEN);
    let write = || -> std::io::Result<()> {
        let mut f = std::io::BufWriter::new(File::create(&tmp)?);
        f.write_all(&h)?;
        f.write_all(&idx)?;
        for b in &blocks {
            f.write_all(b)?;
        }
        // No fsync: a file cut short by a crash fails its checksums and is rebuilt on resume.
        f.flush()?;
        Ok(())
    };
    if let Err(e) = write() {
        let _ = std::fs::remove_file(&tmp);
        return Err(EgdbError::Io {
            path: tmp,
            source: e,
        });
    }
    std::fs::rename(&tmp, &path).map_err(io(&path))?;
    Ok((path, off))
}

/// The class files of one directory, with a bounded cache of decompressed blocks.
pub(crate) struct Store {
    dir: PathBuf,
    classes: Vec<ClassFile>,
    /// Files that could not be opened, with what is wrong (one line each, naming the file).
    damaged: Vec<(PathBuf, String)>,
    by_key: HashMap<(Variant, Material), usize>,
    indexes: Vec<ClassIndex>,
    cache: Mutex<Cache>,
}

#[derive(Default)]
struct Cache {
    map: HashMap<(usize, usize), Arc<Vec<u16>>>,
    order: VecDeque<(usize, usize)>,
    /// Values held.
    values: usize,
}

impl Store {
    /// Open every `*.egdb` file in `dir`; the first bad file is an error.
    pub(crate) fn open(dir: &Path) -> Result<Store, EgdbError> {
        let (store, bad) = Store::scan(dir)?;
        match bad.into_iter().next() {
            Some((_, e)) => Err(e),
            None => Ok(store),
        }
    }

    /// Open every good `*.egdb` file in `dir`; the bad ones are left out and listed in
    /// [`Store::damaged`].
    pub(crate) fn open_lenient(dir: &Path) -> Result<Store, EgdbError> {
        let (mut store, bad) = Store::scan(dir)?;
        store.damaged = bad.into_iter().map(|(p, e)| (p, e.to_string())).collect();
        Ok(store)
    }

    /// Classes held in memory (from [`crate::build_in_memory`]), all of `variant`.
    pub(crate) fn memory(variant: Variant, classes: Vec<(Material, Arc<Vec<u16>>)>) -> Store {
        let classes: Vec<ClassFile> = classes
            .into_iter()
            .map(|(m, v)| ClassFile::memory(variant, m, v))
            .collect();
        Store::from_classes(PathBuf::new(), classes)
    }

    /// Classes from the whole bytes of their files, each with its file name (e.g.
    /// `american-m0k2-m1k1.egdb`); a file that cannot be used is left out and listed in
    /// [`Store::damaged`] under its name.
    pub(crate) fn from_file_bytes(files: Vec<(String, Vec<u8>)>) -> Store {
        let mut classes = Vec::new();
        let mut damaged = Vec::new();
        for (name, data) in files {
            // Only a plain file name: the name is checked against the header's class.
            let path = PathBuf::from(Path::new(&name).file_name().unwrap_or_default());
            match ClassFile::from_bytes(&path, data) {
                Ok(c)
                    if !classes
                        .iter()
                        .any(|k: &ClassFile| k.info.path == c.info.path) =>
                {
                    classes.push(c)
                }
                Ok(_) => damaged.push((path, format!("{name}: given twice"))),
                Err(e) => damaged.push((path, e.to_string())),
            }
        }
        let mut store = Store::from_classes(PathBuf::new(), classes);
        store.damaged = damaged;
        store
    }

    /// The files left out by [`Store::open_lenient`], each with its one-line error.
    pub(crate) fn damaged(&self) -> &[(PathBuf, String)] {
        &self.damaged
    }

    /// The largest number of pieces of any loaded class of `variant` (0 when none).
    pub(crate) fn max_loaded_pieces(&self, variant: Variant) -> u32 {
        self.classes
            .iter()
            .filter(|c| c.info.variant == variant)
            .map(|c| c.info.material.pieces(variant))
            .max()
            .unwrap_or(0)
    }

    /// Open every good `*.egdb` file in `dir` and list the bad ones with their errors.
    pub(crate) fn scan(dir: &Path) -> Result<(Store, Vec<(PathBuf, EgdbError)>), EgdbError> {
        let mut classes = Vec::new();
        let mut bad = Vec::new();
        let mut paths = Vec::new();
        match std::fs::read_dir(dir) {
            Ok(rd) => {
                for e in rd {
                    let p = e.map_err(io(dir))?.path();
                    if p.extension().and_then(|x| x.to_str()) == Some("egdb") {
                        paths.push(p);
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io(dir)(e)),
        }
        paths.sort();
        for p in paths {
            match ClassFile::open(&p) {
                Ok(c) => classes.push(c),
                Err(e) => bad.push((p, e)),
            }
        }
        Ok((Store::from_classes(dir.to_path_buf(), classes), bad))
    }

    fn from_classes(dir: PathBuf, classes: Vec<ClassFile>) -> Store {
        let by_key = classes
            .iter()
            .enumerate()
            .map(|(i, c)| ((c.info.variant, c.info.material), i))
            .collect();
        let indexes = classes
            .iter()
            .map(|c| ClassIndex::new(c.info.variant, c.info.material))
            .collect();
        Store {
            dir,
            classes,
            damaged: Vec::new(),
            by_key,
            indexes,
            cache: Mutex::new(Cache::default()),
        }
    }

    pub(crate) fn has(&self, variant: Variant, m: &Material) -> bool {
        self.by_key.contains_key(&(variant, *m))
    }

    pub(crate) fn path_of(&self, variant: Variant, m: &Material) -> PathBuf {
        self.dir.join(file_name(variant, m))
    }

    pub(crate) fn max_pieces(&self, variant: Variant) -> u32 {
        // One piece alone is a finished game (no class); count from two.
        let mut n = 0;
        for pieces in 1..=24 {
            let classes = Material::with_pieces(variant, pieces);
            if !classes.iter().all(|m| self.has(variant, m)) {
                break;
            }
            if !classes.is_empty() {
                n = pieces;
            }
        }
        n
    }

    pub(crate) fn infos(&self) -> Vec<ClassInfo> {
        let mut v: Vec<ClassInfo> = self.classes.iter().map(|c| c.info.clone()).collect();
        v.sort_by_key(|c| {
            (
                variant_code(c.variant),
                c.material.pieces(c.variant),
                c.material,
            )
        });
        v
    }

    /// The whole class, read and checked (for building and verifying).
    pub(crate) fn read_class(
        &self,
        variant: Variant,
        m: &Material,
    ) -> Option<Result<Vec<u16>, EgdbError>> {
        self.by_key
            .get(&(variant, *m))
            .map(|&i| self.classes[i].read_all())
    }

    pub(crate) fn check_all(&self) -> Result<(), EgdbError> {
        for c in &self.classes {
            c.read_all()?;
        }
        Ok(())
    }

    /// The stored value of the board (Black to move) of class `m`, or `None` when the class is not
    /// present.
    pub(crate) fn value(
        &self,
        variant: Variant,
        m: &Material,
        men: [u32; 2],
        kings: [u32; 2],
    ) -> Result<Option<u16>, EgdbError> {
        let Some(&ci) = self.by_key.get(&(variant, *m)) else {
            return Ok(None);
        };
        let i = self.indexes[ci].index_of(men, kings) as usize;
        if let Some(v) = &self.classes[ci].values {
            return Ok(Some(v[i]));
        }
        let bv = self.classes[ci].block_values;
        let (b, o) = (i / bv, i % bv);
        let cached = {
            let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            cache.map.get(&(ci, b)).cloned()
        };
        let block = match cached {
            Some(bl) => bl,
            None => {
                let bl = Arc::new(self.classes[ci].read_block(b)?);
                let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
                if cache.map.insert((ci, b), bl.clone()).is_none() {
                    cache.order.push_back((ci, b));
                    cache.values += bl.len();
                }
                while cache.values > CACHE_VALUES {
                    let Some(k) = cache.order.pop_front() else {
                        break;
                    };
                    if let Some(old) = cache.map.remove(&k) {
                        cache.values -= old.len();
                    }
                }
                bl
            }
        };
        Ok(Some(block[o]))
    }
}

//! The reader of the training-data files ([`Reader`]): the header, then one block at a time,
//! each checked before its records are handed out (format in [`super`]).

use super::*;

/// Reads a data file one record at a time (an iterator of `Result<Record, DatasetError>`): the
/// header when made, then one block at a time, checked (CRC, deflate, every row a legal
/// position) before its records are handed out. After an error the iterator ends.
pub struct Reader<R: Read> {
    input: R,
    name: String,
    header: Header,
    /// The current block's decoded payload (byte-transposed rows) and its record count.
    block: Vec<u8>,
    block_len: usize,
    /// The next row of the block to hand out.
    next: usize,
    prev: [u8; ROW],
    /// Records handed out or decoded before this block.
    block_start: u64,
    totals: Option<Totals>,
    failed: bool,
}

impl Reader<io::BufReader<std::fs::File>> {
    /// Open the data file at `path` (named by its path in errors) and read its header.
    ///
    /// # Errors
    /// The file cannot be opened, or its header is not a data file's ([`Reader::new`]).
    pub fn open(path: &Path) -> Result<Self, DatasetError> {
        let name = path.display().to_string();
        let file = std::fs::File::open(path).map_err(|e| DatasetError {
            file: name.clone(),
            record: None,
            what: format!("cannot open: {e}"),
        })?;
        Reader::new(io::BufReader::new(file), name)
    }
}

impl<R: Read> Reader<R> {
    /// Read the header of the data file on `input`, named `name` in errors.
    ///
    /// # Errors
    /// The input ends inside the header, does not start with [`MAGIC`], has another format
    /// version, an unknown variant, settings that are too long or not UTF-8, or a header CRC that
    /// does not match.
    pub fn new(mut input: R, name: impl Into<String>) -> Result<Reader<R>, DatasetError> {
        let name = name.into();
        let err = |what: String| DatasetError {
            file: name.clone(),
            record: None,
            what,
        };
        let mut fixed = [0u8; FIXED_HEADER];
        read_full(&mut input, &mut fixed).map_err(|e| err(e.describe("the header")))?;
        if &fixed[..8] != MAGIC {
            return Err(err(
                "not a Crown data file (it does not start with CRWNDATA)".into(),
            ));
        }
        let version = u16_at(&fixed, 8);
        if version != VERSION {
            return Err(err(format!(
                "format version {version}; this build reads version {VERSION}"
            )));
        }
        let variant = match fixed[10] {
            0 => Variant::American,
            1 => Variant::Pool,
            2 => Variant::Impasse,
            v => return Err(err(format!("unknown variant code {v}"))),
        };
        if fixed[11] != 0 {
            return Err(err(format!("reserved byte 11 is {}, not 0", fixed[11])));
        }
        let seed = u64::from_le_bytes(fixed[12..20].try_into().unwrap_or([0; 8]));
        let chunk = u32_at(&fixed, 20);
        let len = u32_at(&fixed, 24) as usize;
        if len > MAX_SETTINGS {
            return Err(err(format!(
                "settings of {len} bytes, more than {MAX_SETTINGS}"
            )));
        }
        let mut settings = vec![0u8; len + 4];
        read_full(&mut input, &mut settings).map_err(|e| err(e.describe("the header")))?;
        let stored = u32_at(&settings, len);
        settings.truncate(len);
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&fixed);
        hasher.update(&settings);
        if hasher.finalize() != stored {
            return Err(err("checksum mismatch (the header is damaged)".into()));
        }
        let settings =
            String::from_utf8(settings).map_err(|_| err("the settings are not UTF-8".into()))?;
        Ok(Reader {
            input,
            name,
            header: Header {
                variant,
                seed,
                chunk,
                settings,
            },
            block: Vec::new(),
            block_len: 0,
            next: 0,
            prev: [0; ROW],
            block_start: 0,
            totals: None,
            failed: false,
        })
    }

    /// The file's header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file's totals, once the iterator has reached its end (`None` before, or after an
    /// error).
    pub fn totals(&self) -> Option<Totals> {
        self.totals
    }

    /// Read every remaining record (checking the whole file) and return the totals.
    ///
    /// # Errors
    /// The first error of the file.
    pub fn check(mut self) -> Result<Totals, DatasetError> {
        for r in self.by_ref() {
            r?;
        }
        self.totals.ok_or_else(|| DatasetError {
            file: self.name.clone(),
            record: None,
            what: "ended without totals".into(),
        })
    }

    fn error(&mut self, record: u64, what: String) -> DatasetError {
        self.failed = true;
        DatasetError {
            file: self.name.clone(),
            record: Some(record),
            what,
        }
    }

    /// Read the next block, or the end. `Ok(false)` at the end.
    fn next_block(&mut self) -> Result<bool, DatasetError> {
        let at = self.block_start;
        let mut head = [0u8; 4];
        if let Err(e) = read_full(&mut self.input, &mut head) {
            return Err(self.error(
                at,
                format!(
                    "{} (the file is truncated: it has no end)",
                    e.describe("the next block's header")
                ),
            ));
        }
        let count = u32_at(&head, 0) as usize;
        if count == 0 {
            let mut end = [0u8; 16];
            if let Err(e) = read_full(&mut self.input, &mut end) {
                return Err(self.error(at, e.describe("the end")));
            }
            let mut hasher = crc32fast::Hasher::new();
            hasher.update(&head);
            hasher.update(&end[..12]);
            if hasher.finalize() != u32_at(&end, 12) {
                return Err(self.error(at, "checksum mismatch in the end (damaged)".into()));
            }
            let records = u64::from_le_bytes(end[..8].try_into().unwrap_or([0; 8]));
            if records != at {
                return Err(self.error(
                    at,
                    format!("the end counts {records} records, but the file has {at}"),
                ));
            }
            let mut more = [0u8; 1];
            match self.input.read(&mut more) {
                Ok(0) => {}
                Ok(_) => return Err(self.error(at, "bytes after the end".into())),
                Err(e) => return Err(self.error(at, format!("read error after the end: {e}"))),
            }
            self.totals = Some(Totals {
                records,
                games: u32_at(&end, 8),
            });
            return Ok(false);
        }
        if count > BLOCK_RECORDS {
            return Err(self.error(
                at,
                format!("a block of {count} records, more than {BLOCK_RECORDS} (damaged)"),
            ));
        }
        let mut rest = [0u8; 8];
        if let Err(e) = read_full(&mut self.input, &mut rest) {
            return Err(self.error(at, e.describe("a block header")));
        }
        let len = u32_at(&rest, 0) as usize;
        let crc = u32_at(&rest, 4);
        if len > MAX_PAYLOAD {
            return Err(self.error(
                at,
                format!("a block of {len} compressed bytes, more than {MAX_PAYLOAD} (damaged)"),
            ));
        }
        let mut packed = vec![0u8; len];
        if let Err(e) = read_full(&mut self.input, &mut packed) {
            return Err(self.error(
                at,
                format!("{} (the file is truncated)", e.describe("a block")),
            ));
        }
        let want = count * ROW;
        self.block.clear();
        self.block.reserve(want);
        let decoded = flate2::read::DeflateDecoder::new(&packed[..])
            .take(want as u64 + 1)
            .read_to_end(&mut self.block);
        if let Err(e) = decoded {
            return Err(self.error(at, format!("damaged compressed block: {e}")));
        }
        if self.block.len() != want {
            return Err(self.error(
                at,
                format!(
                    "the block decodes to {} bytes, not {want} for {count} records (damaged)",
                    self.block.len()
                ),
            ));
        }
        if crc32fast::hash(&self.block) != crc {
            return Err(self.error(at, "checksum mismatch in a block (damaged)".into()));
        }
        self.block_len = count;
        self.next = 0;
        self.prev = [0; ROW];
        Ok(true)
    }

    /// Decode row `i` of the current block.
    fn record(&mut self, i: usize) -> Result<Record, DatasetError> {
        let n = self.block_len;
        let mut stored = [0u8; ROW];
        for (j, b) in stored.iter_mut().enumerate() {
            *b = self.block[j * n + i];
        }
        let raw = undelta(&stored, &self.prev);
        self.prev = raw;
        let at = self.block_start + i as u64;
        let flags = raw[24];
        let result = code_wdl((flags >> 1) & 3);
        let exact = match (flags >> 3) & 3 {
            0 => Some(None),
            c => code_wdl(c - 1).map(Some),
        };
        let (Some(result), Some(exact)) = (result, exact) else {
            return Err(self.error(at, format!("bad flags {flags:#04x}")));
        };
        if flags >> 5 != 0 {
            return Err(self.error(at, format!("bad flags {flags:#04x}")));
        }
        let set = |k: usize| SquareSet(u32_at(&raw, 4 * k));
        let setup = Setup {
            men: [set(0), set(1)],
            kings: [set(2), set(3)],
            side_to_move: if flags & 1 == 1 {
                Color::White
            } else {
                Color::Black
            },
        };
        let position = match Position::from_setup(self.header.variant, &setup) {
            Ok(p) => p,
            Err(e) => {
                let what = format!(
                    "not a legal {} position ({}): {e}",
                    self.header.variant.name(),
                    setup.to_fen()
                );
                return Err(self.error(at, what));
            }
        };
        let ply = u16_at(&raw, 18);
        Ok(Record {
            position,
            result,
            score: i16::from_le_bytes([raw[16], raw[17]]),
            game: u32_at(&raw, 20),
            ply: (ply != NO_PLY).then_some(ply),
            exact,
        })
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Record, DatasetError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.totals.is_some() {
            return None;
        }
        if self.next == self.block_len {
            self.block_start += self.block_len as u64;
            self.block_len = 0;
            self.next = 0;
            match self.next_block() {
                Ok(true) => {}
                Ok(false) => return None,
                Err(e) => return Some(Err(e)),
            }
        }
        let i = self.next;
        self.next += 1;
        Some(self.record(i))
    }
}

/// How a read of a fixed number of bytes failed.
enum Short {
    /// The input ended after `got` of the bytes.
    Eof { got: usize, want: usize },
    /// The input failed.
    Io(io::Error),
}

impl Short {
    fn describe(&self, what: &str) -> String {
        match self {
            Short::Eof { got: 0, .. } => format!("the file ends before {what}"),
            Short::Eof { got, want } => {
                format!("the file ends inside {what} ({got} of {want} bytes)")
            }
            Short::Io(e) => format!("read error in {what}: {e}"),
        }
    }
}

/// Fill `buf` from `input`, telling an early end from an I/O error.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> Result<(), Short> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => {
                return Err(Short::Eof {
                    got,
                    want: buf.len(),
                })
            }
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Short::Io(e)),
        }
    }
    Ok(())
}

//! What several commands share: the position and endgame-database arguments, the output file,
//! thread caps, PDN dates and the text of a line of moves.

use crate::CliError;
use clap::Args;
use crown_ai::EndgameTables;
use crown_core::{ImpasseSetup, Move, Position, Variant};
use crown_notation::{read_fen, FenPolicy};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `--variant`, `--setup`, `--fen`.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// Game: american, pool or impasse.
    #[arg(long, default_value = "american")]
    pub variant: String,
    /// Impasse start setup: seed (default) or steere.
    #[arg(long)]
    pub setup: Option<String>,
    /// Start from this PDN FEN instead of the start position, e.g. "B:W18,24:B12,K22".
    #[arg(long)]
    pub fen: Option<String>,
}

impl PositionArgs {
    /// The chosen variant.
    pub fn variant(&self) -> Result<Variant, CliError> {
        Ok(self.variant.parse::<Variant>()?)
    }

    /// The position: `--fen` if given (read the lenient way, [`FenPolicy::Lenient`]: its warnings go
    /// to stderr as `warning: …` lines), else the start of the variant (and setup).
    pub fn position(&self) -> Result<Position, CliError> {
        let variant = self.variant()?;
        let setup = match &self.setup {
            Some(s) => {
                let setup: ImpasseSetup = s.parse()?;
                if variant != Variant::Impasse {
                    return Err(CliError(format!(
                        "--setup {s} applies only to --variant impasse"
                    )));
                }
                Some(setup)
            }
            None => None,
        };
        match (&self.fen, setup) {
            (Some(_), Some(_)) => Err(CliError("give either --fen or --setup, not both".into())),
            (Some(fen), None) => {
                let r = read_fen(variant, fen, FenPolicy::Lenient)?;
                for w in &r.warnings {
                    eprintln!("warning: {w}");
                }
                Ok(r.position)
            }
            (None, Some(s)) => Ok(Position::impasse(s)),
            (None, None) => Ok(Position::new(variant)),
        }
    }
}

/// `--egdb DIR`, `--no-egdb`: the endgame databases the engine uses (docs/engine.md).
#[derive(Args, Debug, Clone, Default)]
pub struct EgdbArgs {
    /// Endgame database directory [default: $CROWN_EGDB_DIR, else the per-user data directory,
    /// e.g. ~/.local/share/crown/egdb; `crown egdb build` writes there].
    #[arg(long, value_name = "DIR")]
    pub egdb: Option<PathBuf>,
    /// Search without endgame databases.
    #[arg(long, conflicts_with = "egdb")]
    pub no_egdb: bool,
}

impl EgdbArgs {
    /// The databases to use: none with `--no-egdb`, else those in `--egdb DIR` or the default
    /// directory. A missing or broken directory (`--egdb DIR` or `$CROWN_EGDB_DIR`) prints one
    /// `warning:` line on stderr and gives none (the engine plays on without databases); a damaged
    /// file prints one `warning:` line naming it and leaves out only its class; a per-user default
    /// directory that does not exist yet is silently none.
    pub fn load(&self) -> Option<Arc<dyn EndgameTables>> {
        if self.no_egdb {
            return None;
        }
        match crown_ai::tables::load(self.egdb.as_deref()) {
            Ok(t) => {
                for w in t.iter().flat_map(|t| t.warnings()) {
                    eprintln!("warning: {w}");
                }
                t
            }
            Err(e) => {
                eprintln!("warning: {e}; searching without endgame databases");
                None
            }
        }
    }
}

/// `--no-egdb-build`: the commands that play or analyse (`play`, `analyze`, `engine`) build the
/// recommended endgame databases in the background when the default directory lacks them
/// ([`crown_ai::tables::auto`]).
#[derive(Args, Debug, Clone, Default)]
pub struct EgdbBuildArgs {
    /// Do not build the recommended endgame databases (≤5 pieces) in the background when the
    /// default directory lacks them (also: CROWN_EGDB_BUILD=0; never with --egdb or --no-egdb).
    #[arg(long)]
    pub no_egdb_build: bool,
}

/// The process's background build, started by the first [`EgdbArgs::load_building`] (`None`:
/// turned off or not possible).
static AUTO_BUILD: std::sync::OnceLock<Option<crown_ai::tables::auto::AutoBuild>> =
    std::sync::OnceLock::new();

/// Ask the process's background build (if any) for the databases of `variant` without printing
/// anything: when a build starts, the piece count of the set it builds. For `crown engine`, whose
/// stdout and stderr belong to its protocol (Hub clients such as pydraughts read stderr with
/// stdout), and which says so in an `info` line of its own.
pub fn egdb_build_start(variant: Variant) -> Option<u32> {
    let auto = AUTO_BUILD.get()?.as_ref()?;
    auto.ensure(variant).map(|_| auto.pieces())
}

/// Ask the process's background build (if any) for the databases of `variant`, printing its one
/// announcement line on stderr when a build starts.
pub fn egdb_build_ensure(variant: Variant) {
    if let Some(Some(auto)) = AUTO_BUILD.get() {
        if let Some(line) = auto.ensure(variant) {
            eprintln!("{line}");
        }
    }
}

impl EgdbArgs {
    /// [`EgdbArgs::load`], and unless turned off ([`crown_ai::tables::auto::decide`]) the
    /// background build of the recommended set of `variant` (its one line on stderr; `None`:
    /// the game is not known yet, [`egdb_build_ensure`] asks later): the tables are then
    /// reloaded when the build is done.
    pub fn load_building(
        &self,
        build: &EgdbBuildArgs,
        variant: Option<Variant>,
    ) -> Option<Arc<dyn EndgameTables>> {
        use crown_ai::tables::auto::{AutoBuild, Request};
        let tables = self.load();
        let request = Request {
            dir_given: self.egdb.is_some(),
            no_egdb: self.no_egdb,
            no_build: build.no_egdb_build,
        };
        let auto = AUTO_BUILD.get_or_init(|| {
            match AutoBuild::for_front_end(request, tables.clone(), None) {
                Ok(a) => Some(a),
                Err(crown_ai::tables::auto::Off::NoThread(e)) => {
                    eprintln!("warning: {e}");
                    None
                }
                Err(_) => None,
            }
        });
        match auto {
            Some(a) => {
                if let Some(v) = variant {
                    egdb_build_ensure(v);
                }
                Some(a.tables())
            }
            None => tables,
        }
    }
}

/// What `tables` hold, for an `info egdb …` line: their description, or `none` when there are none
/// or they hold nothing yet (a background build that has not finished a file).
pub fn egdb_description(tables: Option<&Arc<dyn EndgameTables>>) -> String {
    egdb_loaded(tables).unwrap_or_else(|| "none".to_string())
}

/// The description of `tables` when they hold a position of any game, else `None` (JSON `null`).
pub fn egdb_loaded(tables: Option<&Arc<dyn EndgameTables>>) -> Option<String> {
    tables
        .filter(|t| Variant::ALL.iter().any(|&v| t.max_pieces(v) > 0))
        .map(|t| t.describe())
}

/// An output file of a long job (`--out`), written safely: [`OutFile::create`] checks at the start
/// that the file can be written (before any work) by creating a temporary file beside it, the job
/// writes into that, and [`OutFile::persist`] renames it over `--out` at the end, so an existing
/// file is never half-written. The temporary file is named `.NAME.partial.XXXXXX` in the same
/// directory; it is removed when the job fails, and on Ctrl-C as [`OutFile::on_interrupt`] says.
#[derive(Debug)]
pub struct OutFile {
    tmp: std::io::BufWriter<tempfile::NamedTempFile>,
    path: PathBuf,
    option: &'static str,
}

impl OutFile {
    /// Check that `path` (given as `option`, e.g. `--out`) can be written and open its temporary
    /// file.
    ///
    /// # Errors
    /// One line naming the option and the path: it is a directory, its directory does not exist,
    /// or the temporary file cannot be created there.
    pub fn create(path: &Path, option: &'static str) -> Result<Self, CliError> {
        let shown = crown_notation::printable(&path.display().to_string());
        let refuse = |why: String| Err(CliError(format!("{option} {shown}: {why}")));
        if path.is_dir() {
            return refuse("is a directory; give a file name".into());
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if !dir.is_dir() {
            let dir_shown = crown_notation::printable(&dir.display().to_string());
            return refuse(if dir.exists() {
                format!("{dir_shown} is not a directory")
            } else {
                format!("the directory {dir_shown} does not exist")
            });
        }
        let name = path
            .file_name()
            .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
        let mut builder = tempfile::Builder::new();
        let prefix = format!(".{name}.partial.");
        builder.prefix(&prefix);
        // An ordinary file once persisted (0666 less the umask), not the private 0600 of a
        // temporary file.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        match builder.tempfile_in(dir) {
            Ok(tmp) => Ok(OutFile {
                tmp: std::io::BufWriter::new(tmp),
                path: path.to_path_buf(),
                option,
            }),
            Err(e) => refuse(format!("cannot write in {}: {e}", dir.display())),
        }
    }

    /// On Ctrl-C (SIGINT, SIGTERM, SIGHUP): with `keep`, say on stderr where the work done so far
    /// is (the temporary file) and leave it; else remove the temporary file. Then exit with 130.
    /// Does nothing when another handler is already set.
    pub fn on_interrupt(&self, keep: bool) {
        let tmp = self.tmp.get_ref().path().to_path_buf();
        let _ = ctrlc::set_handler(move || {
            if keep {
                eprintln!(
                    "\ninterrupted: the work done so far is in {}",
                    crown_notation::printable(&tmp.display().to_string())
                );
            } else {
                let _ = std::fs::remove_file(&tmp);
                eprintln!("\ninterrupted");
            }
            std::process::exit(130);
        });
    }

    /// Write `bytes` to the temporary file.
    ///
    /// # Errors
    /// One line naming the file and the I/O error.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), CliError> {
        self.tmp.write_all(bytes).map_err(|e| self.io_error(&e))
    }

    /// Push what was written so far to the temporary file on disk (so that it survives a kill).
    ///
    /// # Errors
    /// One line naming the file and the I/O error.
    pub fn flush(&mut self) -> Result<(), CliError> {
        self.tmp.flush().map_err(|e| self.io_error(&e))
    }

    fn io_error(&self, e: &std::io::Error) -> CliError {
        CliError(format!(
            "writing {} {}: {e}",
            self.option,
            crown_notation::printable(&self.path.display().to_string())
        ))
    }

    /// Flush the temporary file and rename it to the output path (replacing a file there).
    ///
    /// # Errors
    /// One line naming the file and the I/O error; the temporary file is then removed.
    pub fn persist(mut self) -> Result<(), CliError> {
        self.flush()?;
        let (option, path) = (self.option, self.path.clone());
        let shown = crown_notation::printable(&path.display().to_string());
        let tmp = self
            .tmp
            .into_inner()
            .map_err(|e| CliError(format!("writing {option} {shown}: {}", e.error())))?;
        tmp.persist(&path)
            .map_err(|e| CliError(format!("writing {option} {shown}: {}", e.error)))?;
        Ok(())
    }
}

/// Writing to an [`OutFile`] writes to its temporary file (errors name no file: prefer
/// [`OutFile::write_all`] where the message matters).
impl Write for OutFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.tmp.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.tmp.flush()
    }
}

/// Most worker threads of the long jobs (`crown tune gen`, `crown book build`).
pub const MAX_JOB_THREADS: usize = 64;

/// Refuse a `--threads` value outside 1 to [`MAX_JOB_THREADS`].
///
/// # Errors
/// `--threads N: expected 1 to 64`.
pub fn check_threads(threads: usize) -> Result<(), CliError> {
    if (1..=MAX_JOB_THREADS).contains(&threads) {
        Ok(())
    } else {
        Err(CliError(format!(
            "--threads {threads}: expected 1 to {MAX_JOB_THREADS}"
        )))
    }
}

/// Whether `a` and `b` name the same existing file (compared as canonical paths, so that
/// `./x.txt`, `x.txt` and a symbolic link to it are one file). A path that does not exist is no
/// other file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Today's date (UTC) as PDN writes it in the `Date` tag: `YYYY.MM.DD`
/// ([`crown_notation::pdn_date`]; [`crown_notation::UNKNOWN_DATE`] if the system clock is before
/// 1970).
pub fn pdn_date_today() -> String {
    match std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => crown_notation::pdn_date((d.as_secs() / 86_400) as i64),
        Err(_) => crown_notation::UNKNOWN_DATE.into(),
    }
}

/// Most search threads the engine protocol and `crown analyze` accept (also `crown annotate` and `crown match` specs).
pub const MAX_THREADS: usize = 64;

/// Write a line of moves in the notation `crown moves` prints, each relative to its position.
pub fn line_text(start: &Position, line: &[Move]) -> Vec<String> {
    let mut pos = *start;
    let mut out = Vec::with_capacity(line.len());
    for mv in line {
        if !pos.is_legal(mv) {
            break;
        }
        out.push(pos.move_text(mv));
        pos.play(mv);
    }
    out
}

/// The shared data directory: `$CROWN_SHARED`, else `../shared` or `shared` from the current
/// directory or one of its parents (the first that holds `data/pdn`).
pub fn shared_dir() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("CROWN_SHARED") {
        return Some(PathBuf::from(p));
    }
    let mut dir = std::env::current_dir().ok()?;
    loop {
        for cand in [dir.join("../shared"), dir.join("shared")] {
            if cand.join("data/pdn").is_dir() {
                return Some(cand);
            }
        }
        if !dir.pop() {
            return None;
        }
    }
}

/// The network of `--network FILE` for evaluation `eval`: read and checked when given, only with
/// `eval` `network` (`None` without a file: the engine's embedded network).
///
/// # Errors
/// `--network` with another evaluation, an unreadable file, or a malformed one (the message names
/// the file and what is wrong).
pub fn read_network(
    path: Option<&Path>,
    eval: Option<crown_ai::eval::EvalKind>,
) -> Result<Option<Arc<crown_ai::eval::network::Network>>, CliError> {
    let network = eval == Some(crown_ai::eval::EvalKind::Network);
    match path {
        // `--eval network` alone: the network embedded for the game (American's default).
        None => Ok(None),
        Some(p) if !network => Err(CliError(format!(
            "--network {} is only used with --eval network",
            p.display()
        ))),
        Some(p) => {
            let bytes = std::fs::read(p)
                .map_err(|e| CliError(format!("reading network {}: {e}", p.display())))?;
            crown_ai::eval::network::Network::from_bytes(&bytes)
                .map(|n| Some(Arc::new(n)))
                .map_err(|e| CliError(format!("{}: {e}", p.display())))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A background build's live tables that hold nothing yet read as no databases: `none` in
    /// `info egdb`, JSON `null` (they used to say "no endgame databases" and give that string).
    #[test]
    fn live_tables_that_hold_nothing_yet_are_none() {
        let empty: Arc<dyn EndgameTables> = Arc::new(crown_ai::tables::auto::LiveTables::new(None));
        assert_eq!(egdb_loaded(Some(&empty)), None);
        assert_eq!(egdb_description(Some(&empty)), "none");
        assert_eq!(egdb_description(None), "none");
        let tb: Arc<dyn EndgameTables> =
            Arc::new(crown_egdb::build_in_memory(Variant::Impasse, 2).unwrap());
        let live: Arc<dyn EndgameTables> =
            Arc::new(crown_ai::tables::auto::LiveTables::new(Some(tb)));
        let shown = egdb_loaded(Some(&live)).expect("holds impasse ≤2");
        assert!(shown.contains("impasse"), "{shown}");
    }

    /// `--network FILE` is read only with `--eval network`, which needs it; a bad file is refused
    /// with its name and reason.
    #[test]
    fn network_flag_goes_with_eval_network() {
        use crown_ai::eval::EvalKind;
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("a.nnue");
        std::fs::write(
            &good,
            include_bytes!("../../../crates/ai/tests/data/network/american-small.nnue"),
        )
        .unwrap();
        let net = read_network(Some(&good), Some(EvalKind::Network)).unwrap();
        assert_eq!(net.map(|n| n.variant), Some(Variant::American));
        assert!(read_network(None, None).unwrap().is_none());
        assert!(read_network(None, Some(EvalKind::Trained))
            .unwrap()
            .is_none());
        // Without a file, `--eval network` searches with the embedded network.
        assert!(read_network(None, Some(EvalKind::Network))
            .unwrap()
            .is_none());
        let e = read_network(Some(&good), Some(EvalKind::Classic))
            .unwrap_err()
            .0;
        assert!(e.contains("only used with --eval network"), "{e}");
        let bad = dir.path().join("b.nnue");
        std::fs::write(&bad, b"CRWNNNUE").unwrap();
        let e = read_network(Some(&bad), Some(EvalKind::Network))
            .unwrap_err()
            .0;
        assert!(e.contains("b.nnue") && e.contains("truncated"), "{e}");
    }
}

//! # crown-egdb
//!
//! Endgame databases for American checkers, American pool checkers and Impasse: the value of every
//! position with at most N pieces under perfect play — win, loss or draw for the side to move, and
//! for wins and losses the **depth to win** in plies: the number of plies to the end of the game
//! under perfect play, the winner choosing the shortest way and the loser the longest. The 40-move
//! rule and repetition are ignored in the values (docs/egdb.md); the search handles the count.
//!
//! Built by retrograde value iteration ([`build`]), stored one file per material class with a
//! versioned header, checksums and lz4-compressed blocks, and probed through a bounded block cache
//! ([`Tablebase`]).

mod build;
mod file;
pub mod index;
mod lock;

use crown_core::{Move, Position, Variant};
use std::path::{Path, PathBuf};

pub use build::{build, build_in_memory, verify, BuildOptions, BuildReport, Progress};
pub use file::ClassInfo;
pub use index::{ClassIndex, Material};
pub use lock::{BuildLock, LOCK_FILE};

/// The game-theoretic value of a position from the side to move's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The side to move loses with perfect play.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins with perfect play.
    Win,
}

impl Wdl {
    /// `win`, `loss` or `draw` (the JSON word of `crown egdb probe`).
    pub const fn id(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        }
    }
}

/// A database answer: the value and, for wins and losses, the depth to win.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Probe {
    /// Win, loss or draw for the side to move.
    pub wdl: Wdl,
    /// Depth to win in plies: the number of plies to the end of the game under perfect play, the
    /// winner choosing the shortest way and the loser the longest (odd for a win, even for a loss;
    /// 0 = the side to move has no legal move). `None` for draws.
    pub distance: Option<u32>,
}

impl Probe {
    /// Decode a stored value: 0 = draw, `d + 2` = depth to win `d` (odd `d`: win, even: loss).
    pub(crate) fn from_code(code: u16) -> Option<Probe> {
        match code {
            0 => Some(Probe {
                wdl: Wdl::Draw,
                distance: None,
            }),
            1 => None,
            c => {
                let d = u32::from(c - 2);
                Some(Probe {
                    wdl: if d % 2 == 1 { Wdl::Win } else { Wdl::Loss },
                    distance: Some(d),
                })
            }
        }
    }

    /// Whether `self` is better than `other` for the side to move: a win beats a draw beats a loss;
    /// a shorter win and a longer loss are better.
    pub fn better_than(&self, other: &Probe) -> bool {
        let key = |p: &Probe| -> i64 {
            let d = i64::from(p.distance.unwrap_or(0));
            match p.wdl {
                Wdl::Win => 1_000_000 - d,
                Wdl::Draw => 0,
                Wdl::Loss => -1_000_000 + d,
            }
        };
        key(self) > key(other)
    }

    /// The value one ply earlier, for the side that moved into this position.
    pub fn parent(&self) -> Probe {
        match self.wdl {
            Wdl::Draw => *self,
            Wdl::Win => Probe {
                wdl: Wdl::Loss,
                distance: self.distance.map(|d| d + 1),
            },
            Wdl::Loss => Probe {
                wdl: Wdl::Win,
                distance: self.distance.map(|d| d + 1),
            },
        }
    }
}

/// Errors of opening, probing, building and verifying databases. Each names the file or the
/// position concerned.
#[derive(Debug, thiserror::Error)]
pub enum EgdbError {
    /// The position is outside the databases that are loaded.
    #[error("position {fen} ({variant}, class {class}) is not covered by the loaded databases")]
    NotCovered {
        /// The game.
        variant: &'static str,
        /// The position as PDN FEN.
        fen: String,
        /// Its material class (side to move first).
        class: String,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating-system error.
        #[source]
        source: std::io::Error,
    },
    /// A database file is damaged (bad magic, checksum, size or compressed block).
    #[error("{path}: corrupt database file: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A database file was written by another format version.
    #[error("{path}: database format version {found}, this program reads version {expected}")]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
        /// The version this program reads and writes.
        expected: u32,
    },
    /// The file of the position's class was left out when the databases were opened because it is
    /// damaged (see [`Tablebase::damaged`]); `crown egdb build` rebuilds it.
    #[error("class {class} is not usable: {reason}; rebuild it with `crown egdb build`")]
    Damaged {
        /// The class, side to move first.
        class: String,
        /// The file's error, naming the file.
        reason: String,
    },
    /// A class needed to build or verify another one is not present.
    #[error("{variant} class {class} is missing from {dir} (needed by {needed_by})")]
    MissingClass {
        /// The game.
        variant: &'static str,
        /// The missing class.
        class: String,
        /// The database directory.
        dir: PathBuf,
        /// The class that needs it.
        needed_by: String,
    },
    /// A stored value does not equal the best over the position's successors.
    #[error("{variant} {fen}: stored {stored}, but its moves give {expected}")]
    Mismatch {
        /// The game.
        variant: &'static str,
        /// The position as PDN FEN.
        fen: String,
        /// The stored value, e.g. `win in 5`.
        stored: String,
        /// The value from the successors.
        expected: String,
    },
    /// A bad argument (e.g. too many pieces).
    #[error("{0}")]
    Invalid(String),
}

/// Value of a position whose game is over by material, or `None` when both sides have pieces.
fn terminal(pos: &Position) -> Option<Probe> {
    let us = pos.side_to_move();
    let them = us.opposite();
    if pos.variant() == Variant::Impasse {
        // The side that removed its last checker has won (Impasse rules, Object of the game).
        if pos.checkers(them) == 0 {
            return Some(Probe {
                wdl: Wdl::Loss,
                distance: Some(0),
            });
        }
        return None;
    }
    if pos.piece_count(us) == 0 {
        return Some(Probe {
            wdl: Wdl::Loss,
            distance: Some(0),
        });
    }
    if pos.piece_count(them) == 0 {
        // Cannot arise in play (the side that takes the last piece hands over the move) but a FEN can
        // set it up: the side to move has already won.
        return Some(Probe {
            wdl: Wdl::Win,
            distance: Some(0),
        });
    }
    None
}

/// A set of endgame databases on disk, opened for probing. `Send + Sync`: probes from many threads
/// share one bounded block cache.
pub struct Tablebase {
    store: file::Store,
}

impl Tablebase {
    /// Open every database file in `dir` (a missing directory gives an empty set). Only headers and
    /// block indexes are read here; blocks are read, checked and decompressed on first use.
    ///
    /// A file that cannot be used (corrupt or truncated header or block index, another format
    /// version, not a database) is left out and listed by [`Tablebase::damaged`]: only its class is
    /// missing, every other class answers as usual, and a probe of its class is
    /// [`EgdbError::Damaged`] naming the file. `crown egdb build` rebuilds exactly those files.
    ///
    /// # Errors
    /// [`EgdbError::Io`] when the directory exists but cannot be listed.
    pub fn open(dir: &Path) -> Result<Tablebase, EgdbError> {
        Ok(Tablebase {
            store: file::Store::open_lenient(dir)?,
        })
    }

    /// The files [`Tablebase::open`] left out, each with a one-line error naming the file and what
    /// is wrong (e.g. `…/american-m1k1-m0k1.egdb: corrupt database file: header checksum
    /// mismatch`), sorted by path.
    pub fn damaged(&self) -> &[(PathBuf, String)] {
        self.store.damaged()
    }

    /// Databases from the whole bytes of their files, each with its file name as
    /// `crown egdb build` wrote it (e.g. `american-m0k2-m1k1.egdb`): no file system (the browser
    /// loads the files the server serves). Each file is checked as [`Tablebase::open`] checks it
    /// (header, block index; blocks at first use); one that cannot be used — damaged, another
    /// version, a name that is not its class — is left out and listed by [`Tablebase::damaged`].
    ///
    /// ```
    /// use crown_core::{Position, Variant};
    /// use crown_egdb::{build, BuildOptions, Tablebase, Wdl};
    ///
    /// let dir = tempfile::tempdir().unwrap();
    /// let opts = BuildOptions { variant: Variant::American, pieces: 2, dir: dir.path().into(), threads: Some(1) };
    /// build(&opts, &()).unwrap();
    /// let files = std::fs::read_dir(dir.path()).unwrap()
    ///     .map(|e| e.unwrap().path())
    ///     .filter(|p| p.extension().is_some_and(|x| x == "egdb"))
    ///     .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
    ///     .collect();
    /// let tb = Tablebase::from_file_bytes(files);
    /// assert_eq!(tb.max_pieces(Variant::American), 2);
    /// let pos = Position::from_fen(Variant::American, "B:WK32:BK1").unwrap();
    /// assert_eq!(tb.probe(&pos).unwrap().wdl, Wdl::Draw);
    /// assert!(Tablebase::from_file_bytes(vec![("x.egdb".into(), vec![1, 2, 3])]).damaged().len() == 1);
    /// ```
    pub fn from_file_bytes(files: Vec<(String, Vec<u8>)>) -> Tablebase {
        Tablebase {
            store: file::Store::from_file_bytes(files),
        }
    }

    pub(crate) fn from_store(store: file::Store) -> Tablebase {
        Tablebase { store }
    }

    /// The default database directory: `$CROWN_EGDB_DIR` when set, else `crown/egdb` in the
    /// per-user data directory (e.g. `~/.local/share/crown/egdb` on Linux), or `None` when neither
    /// is known.
    pub fn default_dir() -> Option<PathBuf> {
        if let Some(d) = std::env::var_os("CROWN_EGDB_DIR") {
            if !d.is_empty() {
                return Some(PathBuf::from(d));
            }
        }
        dirs::data_dir().map(|d| d.join("crown").join("egdb"))
    }

    /// The largest N such that every class of `variant` with at most N pieces is loaded (pieces:
    /// pieces on the board in American and pool, checkers in Impasse); 0 when none.
    pub fn max_pieces(&self, variant: Variant) -> u32 {
        self.store.max_pieces(variant)
    }

    /// The largest number of pieces of any loaded class of `variant` (pieces as in
    /// [`Tablebase::max_pieces`]), 0 when none; at least [`Tablebase::max_pieces`]. Classes with more
    /// pieces than `max_pieces` form an incomplete set: [`Tablebase::covers`] says which positions
    /// they answer for.
    pub fn max_loaded_pieces(&self, variant: Variant) -> u32 {
        self.store.max_loaded_pieces(variant)
    }

    /// What is loaded for `variant`, for people: `None` when nothing is, else e.g. `american:
    /// complete up to 3 pieces; 4 pieces: 24 of 25 classes, missing m1k1-m1k1` (at most eight
    /// missing classes are named per piece count, then how many more).
    pub fn coverage(&self, variant: Variant) -> Option<String> {
        let top = self.max_loaded_pieces(variant);
        if top == 0 {
            return None;
        }
        let complete = self.max_pieces(variant);
        let mut text = if complete >= 2 {
            format!("{}: complete up to {complete} pieces", variant.id())
        } else {
            format!("{}: no complete piece count", variant.id())
        };
        for n in (complete + 1).max(2)..=top {
            let all = Material::with_pieces(variant, n);
            let missing: Vec<String> = all
                .iter()
                .filter(|m| !self.store.has(variant, m))
                .map(Material::name)
                .collect();
            let shown = missing.len().min(8);
            let more = if missing.len() > shown {
                format!(" and {} more", missing.len() - shown)
            } else {
                String::new()
            };
            if missing.is_empty() {
                // Complete, above an incomplete count (which is why `complete` stops below it).
                text.push_str(&format!("; {n} pieces: all {} classes", all.len()));
            } else {
                text.push_str(&format!(
                    "; {n} pieces: {} of {} classes, missing {}{more}",
                    all.len() - missing.len(),
                    all.len(),
                    missing[..shown].join(", ")
                ));
            }
        }
        Some(text)
    }

    /// Whether [`Tablebase::probe`] answers for `pos`.
    pub fn covers(&self, pos: &Position) -> bool {
        terminal(pos).is_some() || self.store.has(pos.variant(), &Material::of(pos))
    }

    /// The value of `pos` (any position of a loaded class, including positions with a capture
    /// pending and positions with no legal move).
    ///
    /// # Errors
    /// [`EgdbError::NotCovered`] when its class is not loaded; [`EgdbError::Io`] or
    /// [`EgdbError::Corrupt`] when the block holding it cannot be read.
    pub fn probe(&self, pos: &Position) -> Result<Probe, EgdbError> {
        if let Some(p) = terminal(pos) {
            return Ok(p);
        }
        let variant = pos.variant();
        let material = Material::of(pos);
        let (men, kings) = index::canonical(pos);
        match self.store.value(variant, &material, men, kings)? {
            Some(code) => Probe::from_code(code).ok_or_else(|| EgdbError::Corrupt {
                path: self.store.path_of(variant, &material),
                reason: format!("position {} is stored as invalid", pos.to_fen()),
            }),
            None => {
                let path = self.store.path_of(variant, &material);
                match self.store.damaged().iter().find(|(p, _)| *p == path) {
                    Some((_, why)) => Err(EgdbError::Damaged {
                        class: material.name(),
                        reason: why.clone(),
                    }),
                    None => Err(not_covered(pos)),
                }
            }
        }
    }

    /// The best move of `pos` with the value it keeps: a winning move with the shortest depth to win,
    /// else a drawing move, else the losing move with the longest depth to win. `None` when the side
    /// to move has no legal move.
    ///
    /// # Errors
    /// As [`Tablebase::probe`], for `pos` or any successor.
    pub fn best_move(&self, pos: &Position) -> Result<Option<(Move, Probe)>, EgdbError> {
        if !self.covers(pos) {
            return Err(not_covered(pos));
        }
        let mut best: Option<(Move, Probe)> = None;
        for mv in pos.legal_moves_sorted() {
            let value = self.probe(&pos.after(&mv))?.parent();
            if best.as_ref().is_none_or(|(_, b)| value.better_than(b)) {
                best = Some((mv, value));
            }
        }
        Ok(best)
    }

    /// One line naming what is loaded, e.g. `american ≤4 pieces, pool ≤4 pieces, impasse ≤3
    /// pieces`, or `no endgame databases`. Piece counts above the complete ones add how many of
    /// their classes are there (`american ≤3 pieces (4 pieces: 24 of 25 classes)`, `american ≤4
    /// pieces (5 pieces: 55 of 56 classes; 6 pieces: all 70 classes)`); damaged files left out are
    /// named at the end (`; 1 damaged file left out: american-m1k1-m0k1.egdb`).
    pub fn describe(&self) -> String {
        let parts: Vec<String> = [Variant::American, Variant::Pool, Variant::Impasse]
            .into_iter()
            .filter_map(|v| {
                let n = self.max_pieces(v);
                let top = self.max_loaded_pieces(v);
                if top == 0 {
                    return None;
                }
                let mut t = if n > 0 {
                    format!("{} ≤{n} pieces", v.id())
                } else {
                    v.id().to_string()
                };
                let partial: Vec<String> = ((n + 1).max(2)..=top)
                    .map(|k| {
                        let all = Material::with_pieces(v, k);
                        let have = all.iter().filter(|m| self.store.has(v, m)).count();
                        if have == all.len() {
                            format!("{k} pieces: all {have} classes")
                        } else {
                            format!("{k} pieces: {have} of {} classes", all.len())
                        }
                    })
                    .collect();
                if !partial.is_empty() {
                    t.push_str(&format!(" ({})", partial.join("; ")));
                }
                Some(t)
            })
            .collect();
        let mut text = if parts.is_empty() {
            "no endgame databases".to_string()
        } else {
            parts.join(", ")
        };
        let damaged = self.damaged();
        if !damaged.is_empty() {
            let names: Vec<String> = damaged
                .iter()
                .map(|(p, _)| {
                    p.file_name()
                        .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
                })
                .collect();
            text.push_str(&format!(
                "; {} damaged file{} left out: {}",
                damaged.len(),
                if damaged.len() == 1 { "" } else { "s" },
                names.join(", ")
            ));
        }
        text
    }

    /// Every loaded class with its header facts (for `crown egdb info`), sorted by game and class.
    pub fn classes(&self) -> Vec<ClassInfo> {
        self.store.infos()
    }

    /// Re-read every loaded file whole and check its checksums (not the values; see [`verify`]).
    ///
    /// # Errors
    /// The first [`EgdbError::Io`] or [`EgdbError::Corrupt`] met.
    pub fn check_files(&self) -> Result<(), EgdbError> {
        self.store.check_all()
    }
}

fn not_covered(pos: &Position) -> EgdbError {
    EgdbError::NotCovered {
        variant: pos.variant().id(),
        fen: pos.to_fen(),
        class: Material::of(pos).name(),
    }
}

/// The README example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

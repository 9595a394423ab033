//! Self-play training data at scale: games of one engine against itself at a fixed node budget,
//! from varied openings, whose quiet positions are labelled with the game's result, the search
//! score and (with endgame databases) their exact value, written in chunks of a fixed number of
//! games as [`crown_train::dataset`] files (`crown tune gen --out-dir` is a thin layer over
//! [`DataGen::run`]).
//!
//! The openings are every distinct position a few plies after each start (11-man ballots,
//! three-move ballots, the start position), shuffled by the seed: game `n` (numbered from 0 over
//! the whole run) plays opening `n` modulo their number, so no two games of a run start alike
//! until the list is used up (the engine being deterministic, they would be the same game). Each
//! game has an engine of its own, so chunk `c` (games `c × G` to `c × G + G − 1`) is the same file
//! whatever the number of threads and whichever chunks were made before. A chunk is written to a
//! temporary file beside its name and renamed when complete, so a killed run loses only the
//! chunks in progress, and a run over a range skips the chunks that are already there.

use crate::runner::{Flow, Pool, Worker};
use crate::ArenaError;
use crown_ai::eval::EvalKind;
use crown_ai::{EndgameTables, Limits};
use crown_core::rng::Rng;
use crown_core::Color;
use crown_core::{Game, Position, Variant};
use crown_train::dataset::{self, Header, Record};
use std::collections::BTreeMap;
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

mod play;
pub use play::{quiet, PlayRules, Played, SCORE_CLIP};

/// Where a game of the data starts, before its random plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StartKind {
    /// An 11-man ballot (American and pool checkers).
    Ballot,
    /// A ballot of the ACF three-move deck (American checkers, and the ballots pool's rules can
    /// play).
    ThreeMove,
    /// The game's start position.
    Start,
}

impl StartKind {
    /// The name in the settings text: `ballots11`, `acf3`, `start`.
    pub fn id(self) -> &'static str {
        match self {
            StartKind::Ballot => "ballots11",
            StartKind::ThreeMove => "acf3",
            StartKind::Start => "start",
        }
    }

    /// The plies played after this start by default: 2 after an 11-man ballot, 3 after a
    /// three-move ballot, 8 from the start of checkers, 6 from the start of Impasse. The openings
    /// are then 42,200 + 8,129 + 85,340 = 135,669 distinct positions in American checkers,
    /// 42,200 + 8,502 + 100,410 = 151,112 in pool, 239,555 in Impasse (tests
    /// `the_opening_lists_have_the_documented_sizes` and the CLI's).
    pub fn default_random_plies(self, variant: Variant) -> u32 {
        match (self, variant) {
            (StartKind::Ballot, _) => 2,
            (StartKind::ThreeMove, _) => 3,
            (StartKind::Start, Variant::Impasse) => 6,
            (StartKind::Start, _) => 8,
        }
    }
}

/// How the games of a run are made (everything that decides a chunk's bytes, with the seed).
#[derive(Clone)]
pub struct DataSettings {
    /// The game.
    pub variant: Variant,
    /// The run's seed: it orders the openings.
    pub seed: u64,
    /// Games per chunk (at least 1).
    pub chunk_games: u32,
    /// The search limits of every move (a node budget; no clock).
    pub limits: Limits,
    /// The evaluation (`None`: the game's default, [`EvalKind::default_for`]).
    pub eval: Option<EvalKind>,
    /// Draw adjudicated at this many plies from the game's first position (the start or ballot).
    pub max_plies: u32,
    /// Plies after every start (`None`: [`StartKind::default_random_plies`]).
    pub random_plies: Option<u32>,
    /// The 11-man ballots to start from (empty: none).
    pub ballots: Vec<Position>,
    /// The three-move ballots to start from (empty: none).
    pub three_move: Vec<Position>,
    /// Endgame databases: the engine searches with them, the positions they hold get their exact
    /// value, and with [`DataSettings::adjudicate`] a game ends at the first position they hold.
    pub tables: Option<Arc<dyn EndgameTables>>,
    /// End a game at its first position the databases hold, with their result.
    pub adjudicate: bool,
}

/// Most positions [`DataGen::new`] visits to list the openings of one start kind (the defaults
/// visit at most about 1.5 million).
pub const MAX_OPENING_LEAVES: u64 = 10_000_000;

/// One opening of the list: where it came from, how many plies after it, the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start it came from.
    pub kind: StartKind,
    /// The plies from that start.
    pub plies: u32,
    /// The position.
    pub position: Position,
}

/// A run's settings with its list of openings ([`DataGen::new`]).
#[derive(Clone)]
pub struct DataGen {
    settings: DataSettings,
    openings: Vec<Opening>,
}

/// One game of data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameData {
    /// The game's number in the run.
    pub number: u32,
    /// Where it started.
    pub start: StartKind,
    /// Its quiet positions, labelled, in the order played.
    pub records: Vec<Record>,
    /// Plies from the game's first position (the opening's plies included).
    pub plies: usize,
}

/// What [`DataGen::run`] reports as it goes.
#[derive(Debug)]
pub enum DataEvent<'a> {
    /// A chunk was already complete in the directory: not made again.
    Skipped {
        /// The chunk.
        chunk: u32,
        /// Its file.
        path: &'a Path,
        /// Its games and records.
        totals: dataset::Totals,
    },
    /// A game ended.
    Game(&'a GameData),
    /// A chunk is complete and written.
    Written {
        /// The chunk.
        chunk: u32,
        /// Its file.
        path: &'a Path,
        /// Its games and records.
        totals: dataset::Totals,
        /// Its size in bytes.
        bytes: u64,
    },
}

/// How a run ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DataSummary {
    /// Chunks written by this run.
    pub written: Vec<u32>,
    /// Chunks found complete and skipped.
    pub skipped: Vec<u32>,
    /// Games played (those of unfinished chunks included).
    pub games: u64,
    /// Records of the chunks written.
    pub records: u64,
}

/// The distinct positions `plies` plies after `start` (lines where the game ends sooner give
/// none) into `out`, counting the positions visited in `visited`; `false` once that passes
/// [`MAX_OPENING_LEAVES`].
fn openings_after(
    start: &Position,
    plies: u32,
    out: &mut Vec<Position>,
    visited: &mut u64,
    limit: u64,
) -> bool {
    *visited += 1;
    if *visited > limit {
        return false;
    }
    let moves = start.legal_moves();
    if moves.is_empty() || start.winner().is_some() {
        return true;
    }
    if plies == 0 {
        out.push(*start);
        return true;
    }
    moves
        .iter()
        .all(|m| openings_after(&start.after(m), plies - 1, out, visited, limit))
}

/// A sort key of a position of one variant (its pieces and side to move).
fn key(p: &Position) -> (u32, u32, u32, u32, bool) {
    (
        p.men(Color::Black).0,
        p.men(Color::White).0,
        p.kings(Color::Black).0,
        p.kings(Color::White).0,
        p.side_to_move() == Color::White,
    )
}

/// The start kinds of `s`: those with positions to start from, and the start position.
fn starts(s: &DataSettings) -> Vec<StartKind> {
    let mut out = Vec::new();
    if !s.ballots.is_empty() {
        out.push(StartKind::Ballot);
    }
    if !s.three_move.is_empty() {
        out.push(StartKind::ThreeMove);
    }
    out.push(StartKind::Start);
    out
}

/// The plies after a start of `kind` under `s`.
fn random_for(s: &DataSettings, kind: StartKind) -> u32 {
    s.random_plies
        .unwrap_or_else(|| kind.default_random_plies(s.variant))
}

impl DataGen {
    /// The run of `settings`: lists every distinct position [`StartKind::default_random_plies`]
    /// (or `random_plies`) plies after each start, each kind sorted and without repeats (a
    /// position reached from two kinds is kept in both), then shuffled together by the seed.
    ///
    /// # Errors
    /// [`ArenaError::Openings`] when a start kind would take more than [`MAX_OPENING_LEAVES`]
    /// positions to list (too many plies), or when the list is empty.
    pub fn new(settings: DataSettings) -> Result<DataGen, ArenaError> {
        DataGen::with_limit(settings, MAX_OPENING_LEAVES)
    }

    /// [`DataGen::new`] visiting at most `limit` positions per start kind.
    fn with_limit(settings: DataSettings, limit: u64) -> Result<DataGen, ArenaError> {
        let mut openings = Vec::new();
        for kind in starts(&settings) {
            let plies = random_for(&settings, kind);
            let starts: Vec<Position> = match kind {
                StartKind::Ballot => settings.ballots.clone(),
                StartKind::ThreeMove => settings.three_move.clone(),
                StartKind::Start => vec![Position::new(settings.variant)],
            };
            let (mut list, mut visited) = (Vec::new(), 0u64);
            for p in &starts {
                if !openings_after(p, plies, &mut list, &mut visited, limit) {
                    return Err(ArenaError::Openings(format!(
                        "{} plies after the {} ({} of them) are more than {limit} positions to list; give fewer --random-plies",
                        plies,
                        kind.id(),
                        starts.len()
                    )));
                }
            }
            // By Zobrist key (fixed constants, so the order is the same everywhere), the pieces
            // breaking ties.
            list.sort_unstable_by(|a, b| {
                a.zobrist()
                    .cmp(&b.zobrist())
                    .then_with(|| key(a).cmp(&key(b)))
            });
            list.dedup();
            openings.extend(list.into_iter().map(|position| Opening {
                kind,
                plies,
                position,
            }));
        }
        if openings.is_empty() {
            return Err(ArenaError::Openings(
                "no opening: every line ends before its plies".into(),
            ));
        }
        Rng::new(settings.seed).shuffle(&mut openings);
        Ok(DataGen { settings, openings })
    }

    /// The settings.
    pub fn settings(&self) -> &DataSettings {
        &self.settings
    }

    /// The openings in the order the games use them.
    pub fn openings(&self) -> &[Opening] {
        &self.openings
    }

    /// The settings text of every chunk's header: all that decides the games besides the seed and
    /// the chunk (a chunk found in the directory with other settings is refused).
    pub fn settings_text(&self) -> String {
        let st = &self.settings;
        let mut count = BTreeMap::new();
        for o in &self.openings {
            *count.entry((o.kind.id(), o.plies)).or_insert(0usize) += 1;
        }
        let starts: Vec<String> = starts(st)
            .iter()
            .map(|&k| {
                let plies = random_for(st, k);
                format!(
                    "{}+{plies}:{}",
                    k.id(),
                    count.get(&(k.id(), plies)).unwrap_or(&0)
                )
            })
            .collect();
        let eval = st.eval.unwrap_or_else(|| EvalKind::default_for(st.variant));
        let eval = match eval {
            EvalKind::Classic => "classic",
            EvalKind::Trained => "trained",
            EvalKind::Network => "network",
        };
        let egdb = match &st.tables {
            Some(t) => format!(
                "egdb={} adjudicate={}",
                t.max_pieces(st.variant),
                u8::from(st.adjudicate)
            ),
            None => "egdb=0".into(),
        };
        format!(
            "crown-tune-gen format=1 variant={} chunk-games={} nodes={} depth={} eval={eval} max-plies={} openings={} {egdb} quiet=both score-clip={SCORE_CLIP}",
            st.variant.id(),
            st.chunk_games,
            st.limits.nodes.unwrap_or(0),
            st.limits.depth.unwrap_or(0),
            st.max_plies,
            starts.join(","),
        )
    }

    /// The file name of chunk `chunk`: `<variant>-<seed>-cNNNNN.ctd`.
    pub fn chunk_name(&self, chunk: u32) -> String {
        format!(
            "{}-{}-c{chunk:05}.{}",
            self.settings.variant.id(),
            self.settings.seed,
            dataset::EXTENSION
        )
    }

    /// The header of chunk `chunk`.
    pub fn header(&self, chunk: u32) -> Header {
        Header {
            variant: self.settings.variant,
            seed: self.settings.seed,
            chunk,
            settings: self.settings_text(),
        }
    }

    /// The opening of game `n`: entry `n` modulo the list's length.
    pub fn opening(&self, n: u64) -> Opening {
        self.openings[(n % self.openings.len() as u64) as usize]
    }

    /// How each game of the run is played and labelled.
    pub fn rules(&self) -> PlayRules<'_> {
        let st = &self.settings;
        PlayRules {
            limits: &st.limits,
            eval: st.eval,
            max_plies: st.max_plies,
            tables: st.tables.as_ref(),
            adjudicate: st.adjudicate,
        }
    }

    /// Play game `n` of the run: its opening, then [`PlayRules::play`].
    ///
    /// # Errors
    /// The engine gave no move or an illegal one ([`ArenaError::Player`]), or `n` is past the
    /// last game number a `u32` holds.
    pub fn play_game(&self, n: u64) -> Result<GameData, ArenaError> {
        let number = u32::try_from(n)
            .map_err(|_| ArenaError::Data(format!("game number {n} is above {}", u32::MAX)))?;
        let opening = self.opening(n);
        let game = Game::from_position(opening.position);
        let played = self.rules().play(game, opening.plies as usize, number)?;
        Ok(GameData {
            number,
            start: opening.kind,
            records: played.records,
            plies: played.plies,
        })
    }

    /// The records of chunk `chunk`, played on this thread (the reference the parallel
    /// [`DataGen::run`] matches).
    ///
    /// # Errors
    /// As [`DataGen::play_game`].
    pub fn chunk_records(&self, chunk: u32) -> Result<Vec<Record>, ArenaError> {
        let g = u64::from(self.settings.chunk_games);
        let first = u64::from(chunk) * g;
        let mut out = Vec::new();
        for n in first..first + g {
            out.extend(self.play_game(n)?.records);
        }
        Ok(out)
    }

    /// Check the file of chunk `chunk` found at `path`: its header must be this run's and the
    /// whole file must read. Returns its totals.
    fn check_existing(&self, chunk: u32, path: &Path) -> Result<dataset::Totals, ArenaError> {
        let reader = dataset::Reader::open(path).map_err(|e| ArenaError::Data(e.to_string()))?;
        let want = self.header(chunk);
        let got = reader.header();
        if got != &want {
            return Err(ArenaError::Data(format!(
                "{} was made with other settings (seed {}, chunk {}: {}) than this run's (seed {}, chunk {}: {}); give another --out-dir or remove it",
                path.display(),
                got.seed,
                got.chunk,
                got.settings,
                want.seed,
                want.chunk,
                want.settings
            )));
        }
        let totals = reader
            .check()
            .map_err(|e| ArenaError::Data(format!("{e}; remove the file to make it again")))?;
        if totals.games != self.settings.chunk_games {
            return Err(ArenaError::Data(format!(
                "{}: {} games, not the {} of a chunk",
                path.display(),
                totals.games,
                self.settings.chunk_games
            )));
        }
        Ok(totals)
    }

    /// Make chunks `chunks` in `dir` on `threads` threads: chunks already there are checked (all
    /// of them before the first event) and skipped, the others played game by game (games of the chunks in order, so that the chunks
    /// end roughly in order) and each written when all its games are over. `on_event` sees each
    /// [`DataEvent`] on the calling thread; [`Flow::Halt`] or `stop` start no new game (the
    /// chunks not finished are then not written).
    ///
    /// # Errors
    /// [`ArenaError::Data`]: `dir` is not a directory, a chunk there has other settings or cannot
    /// be read, a chunk cannot be written, or the range has game numbers past `u32`; or a game's
    /// error. Chunks written before the error stay.
    pub fn run(
        &self,
        dir: &Path,
        chunks: Range<u32>,
        threads: usize,
        stop: &AtomicBool,
        mut on_event: impl FnMut(DataEvent<'_>) -> Flow,
    ) -> Result<DataSummary, ArenaError> {
        if !dir.is_dir() {
            return Err(ArenaError::Data(format!(
                "--out-dir {}: not a directory",
                dir.display()
            )));
        }
        let g = u64::from(self.settings.chunk_games.max(1));
        if u64::from(chunks.end) * g > u64::from(u32::MAX) + 1 {
            return Err(ArenaError::Data(format!(
                "chunks up to {} of {g} games number games past {}",
                chunks.end,
                u32::MAX
            )));
        }
        let mut summary = DataSummary::default();
        let mut todo = Vec::new();
        // Every chunk already there is checked before any event.
        let mut found = Vec::new();
        for c in chunks {
            let path = dir.join(self.chunk_name(c));
            if path.exists() {
                found.push((c, self.check_existing(c, &path)?, path));
            } else {
                todo.push(c);
            }
        }
        for (c, totals, path) in found {
            summary.skipped.push(c);
            if on_event(DataEvent::Skipped {
                chunk: c,
                path: &path,
                totals,
            }) != Flow::Continue
            {
                return Ok(summary);
            }
        }
        if todo.is_empty() {
            return Ok(summary);
        }
        let pool = Pool {
            jobs: todo.len() * g as usize,
            threads,
            stop,
        };
        // Games of each unfinished chunk as they end (indexed by game within the chunk).
        let mut pending: BTreeMap<u32, Vec<Option<GameData>>> = BTreeMap::new();
        let mut failure: Option<ArenaError> = None;
        let work = |_: &mut (), job: usize, worker: &Worker<Result<GameData, ArenaError>>| {
            let chunk = todo[job / g as usize];
            let n = u64::from(chunk) * g + (job as u64 % g);
            let result = self.play_game(n);
            let failed = result.is_err();
            worker.report(result) && !failed
        };
        pool.run(
            |_| Some(()),
            work,
            |result| {
                let data = match result {
                    Ok(d) => d,
                    Err(e) => {
                        failure.get_or_insert(e);
                        return Flow::Abort;
                    }
                };
                summary.games += 1;
                let mut flow = on_event(DataEvent::Game(&data));
                let chunk = (u64::from(data.number) / g) as u32;
                let slot = pending
                    .entry(chunk)
                    .or_insert_with(|| vec![None; g as usize]);
                let i = (u64::from(data.number) % g) as usize;
                slot[i] = Some(data);
                if slot.iter().all(Option::is_some) {
                    let games: Vec<GameData> = pending
                        .remove(&chunk)
                        .unwrap_or_default()
                        .into_iter()
                        .flatten()
                        .collect();
                    let path = dir.join(self.chunk_name(chunk));
                    match self.write_chunk(chunk, &path, &games) {
                        Ok((totals, bytes)) => {
                            summary.written.push(chunk);
                            summary.records += totals.records;
                            let f = on_event(DataEvent::Written {
                                chunk,
                                path: &path,
                                totals,
                                bytes,
                            });
                            if f != Flow::Continue {
                                flow = f;
                            }
                        }
                        Err(e) => {
                            failure.get_or_insert(e);
                            return Flow::Abort;
                        }
                    }
                }
                flow
            },
        );
        match failure {
            Some(e) => Err(e),
            None => Ok(summary),
        }
    }

    /// Write chunk `chunk` (its `games`, in order) to `path` through a temporary file beside it,
    /// synced to disk before the rename. Returns its totals and size.
    fn write_chunk(
        &self,
        chunk: u32,
        path: &Path,
        games: &[GameData],
    ) -> Result<(dataset::Totals, u64), ArenaError> {
        let fail = |what: String| ArenaError::Data(format!("writing {}: {what}", path.display()));
        let dir = path
            .parent()
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        let name = path
            .file_name()
            .map_or_else(|| "chunk".into(), |n| n.to_string_lossy().into_owned());
        let mut builder = tempfile::Builder::new();
        let prefix = format!(".{name}.partial.");
        builder.prefix(&prefix);
        // An ordinary file once renamed (0666 less the umask), not a temporary file's 0600.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let tmp = builder.tempfile_in(&dir).map_err(|e| fail(e.to_string()))?;
        let mut w = dataset::Writer::new(std::io::BufWriter::new(tmp), &self.header(chunk))
            .map_err(|e| fail(e.to_string()))?;
        for r in games.iter().flat_map(|g| &g.records) {
            w.push(r).map_err(|e| fail(e.to_string()))?;
        }
        let records = w.records();
        let games_n = games.len() as u32;
        let mut out = w.finish(games_n).map_err(|e| fail(e.to_string()))?;
        out.flush().map_err(|e| fail(e.to_string()))?;
        let tmp = out.into_inner().map_err(|e| fail(e.error().to_string()))?;
        tmp.as_file().sync_all().map_err(|e| fail(e.to_string()))?;
        let bytes = tmp
            .as_file()
            .metadata()
            .map(|m| m.len())
            .map_err(|e| fail(e.to_string()))?;
        tmp.persist(path).map_err(|e| fail(e.error.to_string()))?;
        Ok((
            dataset::Totals {
                records,
                games: games_n,
            },
            bytes,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::{read_openings, ACF_THREE_MOVE_PDN};

    fn settings(variant: Variant) -> DataSettings {
        DataSettings {
            variant,
            seed: 3,
            chunk_games: 2,
            limits: Limits {
                nodes: Some(200),
                ..Limits::default()
            },
            eval: None,
            max_plies: 80,
            random_plies: None,
            ballots: Vec::new(),
            three_move: if variant == Variant::Impasse {
                Vec::new()
            } else {
                read_openings(ACF_THREE_MOVE_PDN, "acf3", variant).unwrap()
            },
            tables: None,
            adjudicate: false,
        }
    }

    /// The openings are the distinct positions after each start's plies, every one of them, in
    /// an order set by the seed; the counts are those of docs/engine.md (the 11-man ballots,
    /// shared data, are counted by the CLI's tests).
    #[test]
    fn the_opening_lists_have_the_documented_sizes() {
        for (variant, acf3, start) in [
            (Variant::American, 8_129, 85_340),
            (Variant::Pool, 8_502, 100_410),
            (Variant::Impasse, 0, 239_555),
        ] {
            let g = DataGen::new(settings(variant)).unwrap();
            let count = |k: StartKind| g.openings().iter().filter(|o| o.kind == k).count();
            assert_eq!(
                (count(StartKind::ThreeMove), count(StartKind::Start)),
                (acf3, start),
                "{variant}"
            );
            let mut fens: Vec<_> = g
                .openings()
                .iter()
                .map(|o| (o.kind, key(&o.position)))
                .collect();
            let n = fens.len();
            fens.sort();
            fens.dedup();
            assert_eq!(fens.len(), n, "{variant}: an opening twice");
            for o in g.openings().iter().take(50) {
                assert!(Game::from_position(o.position).outcome().is_none());
            }
            // Game n and game n + len share their opening.
            let len = g.openings().len() as u64;
            assert_eq!(g.opening(7), g.opening(7 + len));
        }
        // Another seed, the same openings in another order.
        let few = |seed| {
            DataGen::new(DataSettings {
                seed,
                random_plies: Some(2),
                ..settings(Variant::Pool)
            })
            .unwrap()
        };
        let (a, b) = (few(3), few(4));
        assert_ne!(a.openings()[..20], b.openings()[..20]);
        let sorted = |g: &DataGen| {
            let mut k: Vec<_> = g
                .openings()
                .iter()
                .map(|o| (o.kind, key(&o.position)))
                .collect();
            k.sort();
            k
        };
        assert_eq!(sorted(&a), sorted(&b));
        // Too many plies to list is an error, not hours of work.
        let e = DataGen::with_limit(
            DataSettings {
                random_plies: Some(30),
                ..settings(Variant::American)
            },
            100_000,
        )
        .err()
        .unwrap();
        assert!(e.to_string().contains("give fewer --random-plies"), "{e}");
    }

    /// A run on two threads writes the chunks that playing them one game after the other gives.
    #[test]
    fn parallel_chunks_are_the_sequential_records() {
        let g = DataGen::new(settings(Variant::Pool)).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let stop = AtomicBool::new(false);
        let mut events = 0;
        let s = g
            .run(dir.path(), 0..3, 2, &stop, |_| {
                events += 1;
                Flow::Continue
            })
            .unwrap();
        let mut written = s.written.clone();
        written.sort_unstable();
        assert_eq!(written, [0, 1, 2]);
        assert_eq!(events, 3 * 2 + 3);
        for c in 0..3 {
            let path = dir.path().join(g.chunk_name(c));
            let r = dataset::Reader::open(&path).unwrap();
            assert_eq!(r.header(), &g.header(c));
            let read: Vec<Record> = r.map(Result::unwrap).collect();
            assert_eq!(read, g.chunk_records(c).unwrap(), "chunk {c}");
        }
        // Again: every chunk is there, nothing is played.
        let s = g
            .run(dir.path(), 0..3, 2, &stop, |_| Flow::Continue)
            .unwrap();
        assert_eq!((s.skipped.len(), s.games), (3, 0));
    }
}

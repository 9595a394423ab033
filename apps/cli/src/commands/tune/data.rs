//! Training data at scale: `crown tune gen --out-dir` (binary chunks made by
//! [`crown_arena::datagen`]), `crown tune pack` (text data to binary) and the reading of text and
//! binary data for `crown tune fit`.

use super::text::read_data;
use super::GenArgs;
use crate::common::{check_threads, shared_dir};
use crate::CliError;
use clap::Args;
use crown_ai::eval::EvalKind;
use crown_ai::{Limits, Wdl};
use crown_arena::datagen::{DataEvent, DataGen, DataSettings};
use crown_arena::openings::{playable_openings, read_opening_file, ACF_THREE_MOVE_PDN};
use crown_arena::runner::Flow;
use crown_core::Variant;
use crown_train::dataset::{self, Header, Reader, Record};
use crown_train::train::Sample;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Read};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Arguments of `crown tune pack`.
#[derive(Args, Debug)]
pub struct PackArgs {
    /// Game: american, pool or impasse (a file whose header names another game is refused).
    #[arg(long, default_value = "american")]
    variant: String,
    /// Text data files written by `crown tune gen --out`.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Output file: one binary data file holding every input's positions, games numbered on
    /// from file to file (checked before any work, replaced only when done).
    #[arg(long, required_unless_present = "out_dir", conflicts_with = "out_dir")]
    out: Option<PathBuf>,
    /// Output directory: one binary file `NAME.ctd` per input `NAME.txt`, keeping its game
    /// numbers and the seed of its header.
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
}

/// The chunk range of `--chunks`: `A..B` (A to B − 1), `A..=B` or `A`.
fn parse_chunks(text: &str) -> Result<Range<u32>, CliError> {
    let bad = || {
        CliError(format!(
            "--chunks {}: expected A..B, A..=B or A (chunk numbers, A..B not empty)",
            crown_notation::printable(text)
        ))
    };
    let num = |s: &str| s.trim().parse::<u32>().map_err(|_| bad());
    let range = if let Some((a, b)) = text.split_once("..=") {
        num(a)?..num(b)?.checked_add(1).ok_or_else(bad)?
    } else if let Some((a, b)) = text.split_once("..") {
        num(a)?..num(b)?
    } else {
        let a = num(text)?;
        a..a.checked_add(1).ok_or_else(bad)?
    };
    if range.is_empty() {
        return Err(bad());
    }
    Ok(range)
}

/// The run's settings from the arguments (openings read, databases loaded).
fn data_gen(args: &GenArgs) -> Result<DataGen, CliError> {
    let variant: Variant = args.variant.parse()?;
    let eval = match &args.eval {
        Some(e) => Some(e.parse::<EvalKind>().map_err(CliError)?),
        None => None,
    };
    let (ballots, three_move) = if variant.is_draughts() {
        let dir = shared_dir().ok_or_else(|| {
            CliError("cannot find the shared data for the 11-man ballots (set CROWN_SHARED)".into())
        })?;
        let ballots = read_opening_file(&dir.join("data/pdn/ballots-11-man-english.pdn"), variant)?;
        // Pool's rules (men capture backwards) can refuse a ballot's move: those are left out.
        let (deck, _refused) = playable_openings(ACF_THREE_MOVE_PDN, "acf3", variant)?;
        (ballots, deck)
    } else {
        (Vec::new(), Vec::new())
    };
    let tables = match &args.egdb {
        Some(dir) => {
            let t = crown_ai::tables::load(Some(dir))
                .map_err(CliError)?
                .ok_or_else(|| CliError(format!("no endgame databases in {}", dir.display())))?;
            for w in t.warnings() {
                eprintln!("warning: {w}");
            }
            if t.max_pieces(variant) == 0 {
                return Err(CliError(format!(
                    "--egdb {}: the databases hold nothing for {variant}",
                    dir.display()
                )));
            }
            Some(t)
        }
        None => None,
    };
    let limits = Limits {
        depth: args.depth,
        nodes: Some(args.nodes.unwrap_or(2000)).filter(|&n| n > 0),
        ..Limits::default()
    };
    if limits.depth.is_none() && limits.nodes.is_none() {
        return Err(CliError(
            "--nodes 0 without --depth: every move would search without end; give a node budget"
                .into(),
        ));
    }
    Ok(DataGen::new(DataSettings {
        variant,
        seed: args.seed,
        chunk_games: args.chunk_games,
        limits,
        eval,
        max_plies: args.max_plies,
        random_plies: args.random_plies,
        ballots,
        three_move,
        adjudicate: tables.is_some() && !args.play_endings,
        tables,
    })?)
}

/// A duration in whole seconds as `1h02m`, `3m05s` or `12s`.
fn human(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, (s % 3600) / 60),
    }
}

/// `crown tune gen --out-dir`.
pub(super) fn gen_chunks(args: &GenArgs) -> Result<ExitCode, CliError> {
    check_threads(args.threads)?;
    let dir = args.out_dir.as_deref().unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return Err(CliError(format!(
            "--out-dir {}: {}",
            dir.display(),
            if dir.exists() {
                "is not a directory"
            } else {
                "does not exist"
            }
        )));
    }
    let chunks = match (&args.chunks, args.games) {
        (Some(text), _) => parse_chunks(text)?,
        (None, Some(games)) => 0..games.div_ceil(args.chunk_games),
        (None, None) => {
            return Err(CliError(
                "with --out-dir give --chunks A..B or --games N".into(),
            ))
        }
    };
    let gen = data_gen(args)?;
    let n_chunks = chunks.len();
    // Said at the first event, once the chunks already there have been checked (a refused one
    // is then the only line).
    let intro = format!(
        "{} chunks {}..{} of {} games into {}: {}",
        n_chunks,
        chunks.start,
        chunks.end,
        gen.settings().chunk_games,
        dir.display(),
        gen.settings_text()
    );
    let mut said = false;
    // Ctrl-C (or SIGTERM): the chunks written are complete; the games in progress are lost.
    let _ = ctrlc::set_handler({
        let dir = dir.display().to_string();
        move || {
            eprintln!("\ninterrupted: the chunks written so far are in {dir}; run the same command again to go on");
            std::process::exit(130);
        }
    });
    let terminal = std::io::stderr().is_terminal();
    let bar = ProgressBar::new(0);
    if terminal {
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {human_pos}/{human_len} games, {msg}, ETA {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
    } else {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let never = AtomicBool::new(false);
    let t0 = Instant::now();
    let (mut positions, mut games_played, mut done_chunks) = (0u64, 0u64, 0usize);
    let mut to_play = 0u64;
    let mut started = false;
    let summary = gen.run(dir, chunks, args.threads, &never, |event| {
        if !said {
            said = true;
            bar.suspend(|| eprintln!("{intro}"));
        }
        match event {
            DataEvent::Skipped { .. } => done_chunks += 1,
            DataEvent::Game(g) => {
                if !started {
                    started = true;
                    to_play = (n_chunks - done_chunks) as u64 * u64::from(gen.settings().chunk_games);
                    bar.set_length(to_play);
                }
                games_played += 1;
                positions += g.records.len() as u64;
                let rate = positions as f64 / t0.elapsed().as_secs_f64().max(1e-9);
                bar.set_message(format!("{positions} positions, {rate:.0} positions/s"));
                bar.inc(1);
            }
            DataEvent::Written {
                chunk,
                path,
                totals,
                bytes,
            } => {
                done_chunks += 1;
                if !terminal {
                    let secs = t0.elapsed().as_secs_f64();
                    let eta = secs / games_played.max(1) as f64
                        * to_play.saturating_sub(games_played) as f64;
                    eprintln!(
                        "chunk {chunk} written: {}, {} games, {} positions, {bytes} bytes ({:.2} bytes/position); {done_chunks}/{n_chunks} chunks, {:.0} positions/s, ETA {}",
                        path.display(),
                        totals.games,
                        totals.records,
                        bytes as f64 / totals.records.max(1) as f64,
                        positions as f64 / secs.max(1e-9),
                        human(eta)
                    );
                }
            }
        }
        Flow::Continue
    });
    bar.finish_and_clear();
    let summary = summary?;
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "{} chunks written, {} already there: {} games, {} positions in {:.1} s ({:.0} positions/s on {} threads)",
        summary.written.len(),
        summary.skipped.len(),
        summary.games,
        summary.records,
        secs,
        summary.records as f64 / secs.max(1e-9),
        args.threads
    );
    Ok(ExitCode::SUCCESS)
}

/// The value of a result as a training target: win 1, draw 0.5, loss 0.
fn value(w: Wdl) -> f32 {
    match w {
        Wdl::Win => 1.0,
        Wdl::Draw => 0.5,
        Wdl::Loss => 0.0,
    }
}

/// The result a text data line gives (1, 0.5, 0) as a [`Wdl`].
fn wdl_of(result: f32) -> Wdl {
    if result >= 0.75 {
        Wdl::Win
    } else if result >= 0.25 {
        Wdl::Draw
    } else {
        Wdl::Loss
    }
}

/// Whether `path` is a binary data file (it starts with the magic).
fn is_binary(path: &Path) -> Result<bool, CliError> {
    let mut head = [0u8; 8];
    let mut f = std::fs::File::open(path)
        .map_err(|e| CliError(format!("reading {}: {e}", path.display())))?;
    let mut got = 0;
    while got < head.len() {
        match f.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) => return Err(CliError(format!("reading {}: {e}", path.display()))),
        }
    }
    Ok(dataset::is_data_file(&head[..got]))
}

/// The files `data` names: files as given, and the `*.ctd` files of each directory (sorted).
fn expand(data: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut out = Vec::new();
    for p in data {
        if p.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| CliError(format!("listing {}: {e}", p.display())))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| {
                    f.is_file()
                        && f.extension().is_some_and(|x| x == dataset::EXTENSION)
                        && !f
                            .file_name()
                            .is_some_and(|n| n.to_string_lossy().starts_with('.'))
                })
                .collect();
            files.sort();
            if files.is_empty() {
                return Err(CliError(format!(
                    "{}: a directory without data files (*.{})",
                    p.display(),
                    dataset::EXTENSION
                )));
            }
            out.extend(files);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// Read the binary data file `path` of `variant` into `out`; returns its (positions, games).
fn read_binary(
    path: &Path,
    variant: Variant,
    out: &mut Vec<Sample>,
) -> Result<(u64, u32), CliError> {
    let mut reader = Reader::open(path)?;
    let h = reader.header().clone();
    if h.variant != variant {
        return Err(CliError(format!(
            "{}: the data is for {}, not {variant} (--variant {})",
            path.display(),
            h.variant,
            variant.id()
        )));
    }
    for r in reader.by_ref() {
        let r = r?;
        out.push(Sample {
            position: r.position,
            result: value(r.exact.unwrap_or(r.result)),
            score: i32::from(r.score),
            game: dataset::game_key(h.seed, h.chunk, r.game),
            exact: r.exact.is_some(),
        });
    }
    let t = reader.totals().unwrap_or_default();
    Ok((t.records, t.games))
}

/// Read every data input of `fit` (text files, binary files, directories of binary files) of
/// `variant` into `out`, printing the positions and games read from each. Text files' game
/// numbers are offset per file; binary files' games are keyed by their seed and chunk.
pub(super) fn read_inputs(
    data: &[PathBuf],
    variant: Variant,
    out: &mut Vec<Sample>,
) -> Result<(), CliError> {
    let mut offset = 0u32;
    for path in expand(data)? {
        let before = out.len();
        if is_binary(&path)? {
            let (positions, games) = read_binary(&path, variant, out)?;
            println!(
                "{}: {positions} positions from {games} games (binary)",
                path.display()
            );
        } else {
            let max = read_data(&path, variant, offset, out)?;
            let mut games: Vec<u32> = out[before..].iter().map(|s| s.game).collect();
            games.sort_unstable();
            games.dedup();
            println!(
                "{}: {} positions from {} games (text)",
                path.display(),
                out.len() - before,
                games.len()
            );
            offset += max + 1;
        }
    }
    Ok(())
}

/// The seed a text data file's header names (`seed=N`), or 0.
fn text_seed(path: &Path) -> u64 {
    text_header(path)
        .split_whitespace()
        .find_map(|w| w.strip_prefix("seed="))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// The header line of a text data file (without `# `), if it has one.
fn text_header(path: &Path) -> String {
    let Ok(f) = std::fs::File::open(path) else {
        return String::new();
    };
    let mut first = String::new();
    let _ = std::io::BufRead::read_line(&mut std::io::BufReader::new(f), &mut first);
    match first.strip_prefix("# crown tune gen") {
        Some(rest) => rest.trim().to_string(),
        None => String::new(),
    }
}

/// The records of a text file read as samples (no ply: text data does not record it).
fn records_of(samples: &[Sample], game_offset: u32) -> Vec<Record> {
    samples
        .iter()
        .map(|s| Record {
            position: s.position,
            result: wdl_of(s.result),
            score: s.score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            game: s.game - game_offset,
            ply: None,
            exact: None,
        })
        .collect()
}

/// Write `records` of `games` games as the binary file `out` with `header`, through a temporary
/// file renamed when complete. Returns the size in bytes.
fn write_file(
    out: &Path,
    header: &Header,
    records: &[Record],
    games: u32,
) -> Result<u64, CliError> {
    let mut file = crate::common::OutFile::create(out, "--out")?;
    let bytes = dataset::to_bytes(header, records, games)
        .map_err(|e| CliError(format!("writing {}: {e}", out.display())))?;
    file.write_all(&bytes)?;
    file.persist()?;
    Ok(bytes.len() as u64)
}

/// `crown tune pack`.
pub(super) fn pack(args: &PackArgs) -> Result<ExitCode, CliError> {
    let variant: Variant = args.variant.parse()?;
    if let Some(dir) = &args.out_dir {
        if !dir.is_dir() {
            return Err(CliError(format!(
                "--out-dir {}: not a directory",
                dir.display()
            )));
        }
    }
    // With --out, one file for all the inputs, written as they are read.
    let mut merged = match &args.out {
        Some(out) => {
            let header = Header {
                variant,
                seed: 0,
                chunk: 0,
                settings: format!(
                    "packed-from-text files={} first: {}",
                    args.data.len(),
                    args.data
                        .first()
                        .map(|p| text_header(p))
                        .unwrap_or_default()
                ),
            };
            let file = crate::common::OutFile::create(out, "--out")?;
            let w = dataset::Writer::new(file, &header)
                .map_err(|e| CliError(format!("writing {}: {e}", out.display())))?;
            Some((out, w))
        }
        None => None,
    };
    let t0 = Instant::now();
    let (mut text_bytes, mut bin_bytes, mut total) = (0u64, 0u64, 0u64);
    let mut game_base = 0u32;
    for path in &args.data {
        let mut samples = Vec::new();
        let max = read_data(path, variant, 0, &mut samples)?;
        let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        text_bytes += size;
        total += samples.len() as u64;
        let games = if samples.is_empty() { 0 } else { max + 1 };
        match (&args.out_dir, &mut merged) {
            (Some(dir), _) => {
                let stem = path
                    .file_stem()
                    .map_or_else(|| "data".into(), |s| s.to_string_lossy().into_owned());
                let out = dir.join(format!("{stem}.{}", dataset::EXTENSION));
                let header = Header {
                    variant,
                    seed: text_seed(path),
                    chunk: 0,
                    settings: format!("packed-from-text {}", text_header(path)),
                };
                let bytes = write_file(&out, &header, &records_of(&samples, 0), games)?;
                bin_bytes += bytes;
                println!(
                    "{} -> {}: {} positions from {games} games, {size} -> {bytes} bytes ({:.2} -> {:.2} bytes/position)",
                    path.display(),
                    out.display(),
                    samples.len(),
                    size as f64 / samples.len().max(1) as f64,
                    bytes as f64 / samples.len().max(1) as f64,
                );
            }
            (None, Some((out, w))) => {
                for mut r in records_of(&samples, 0) {
                    r.game += game_base;
                    w.push(&r)
                        .map_err(|e| CliError(format!("writing {}: {e}", out.display())))?;
                }
                game_base = game_base.checked_add(games).ok_or_else(|| {
                    CliError(format!(
                        "{}: more than {} games in all",
                        path.display(),
                        u32::MAX
                    ))
                })?;
                println!(
                    "{}: {} positions from {games} games",
                    path.display(),
                    samples.len()
                );
            }
            (None, None) => {}
        }
    }
    if let Some((out, w)) = merged {
        let file = w
            .finish(game_base)
            .map_err(|e| CliError(format!("writing {}: {e}", out.display())))?;
        file.persist()?;
        bin_bytes = std::fs::metadata(out).map(|m| m.len()).unwrap_or(0);
    }
    println!(
        "{} files, {total} positions: text {text_bytes} bytes ({:.2} bytes/position), binary {bin_bytes} bytes ({:.2} bytes/position), {:.1}× smaller, in {:.1} s",
        args.data.len(),
        text_bytes as f64 / total.max(1) as f64,
        bin_bytes as f64 / total.max(1) as f64,
        text_bytes as f64 / bin_bytes.max(1) as f64,
        t0.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown_core::Position;

    #[test]
    fn chunk_ranges_read_as_rust_ranges() {
        assert_eq!(parse_chunks("0..3").unwrap(), 0..3);
        assert_eq!(parse_chunks("2..=4").unwrap(), 2..5);
        assert_eq!(parse_chunks("7").unwrap(), 7..8);
        for bad in [
            "3..3",
            "4..2",
            "a..b",
            "",
            "1..x",
            "4294967295..=4294967295",
        ] {
            let e = parse_chunks(bad).unwrap_err().0;
            assert!(e.starts_with("--chunks "), "{e}");
        }
    }

    #[test]
    fn text_results_map_to_their_wdl() {
        assert_eq!(wdl_of(1.0), Wdl::Win);
        assert_eq!(wdl_of(0.5), Wdl::Draw);
        assert_eq!(wdl_of(0.0), Wdl::Loss);
        assert_eq!(value(Wdl::Draw), 0.5);
    }

    #[test]
    fn positions_of_text_keep_their_fields() {
        let pos = Position::from_fen(Variant::American, "W:W18,K27:B14").unwrap();
        let s = Sample {
            position: pos,
            result: 0.0,
            score: 40_000,
            game: 9,
            exact: false,
        };
        let r = records_of(&[s], 2)[0];
        assert_eq!(
            (r.position, r.result, r.score, r.game, r.ply, r.exact),
            (pos, Wdl::Loss, i16::MAX, 7, None, None)
        );
    }
}

//! `crown tune`: self-play training data (`gen`: a text file, or binary chunks at scale with
//! `--out-dir`, see [`data`]), conversion of text data to the binary form (`pack`) and training
//! of the pattern evaluation (`fit`). All are deterministic for a given seed (and `gen` for any
//! `--threads`).

mod data;
mod text;

use crate::common::{check_threads, same_file, OutFile};
use crate::CliError;
use clap::{Args, Subcommand};
use crown_core::Variant;
use crown_train::train::{train, Sample, TrainConfig};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `crown tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    #[command(subcommand)]
    command: TuneCommand,
}

#[derive(Subcommand, Debug)]
enum TuneCommand {
    /// Play self-play games and write their quiet positions, labelled: one per line in a text
    /// file (`--out`), or binary chunks of games in a directory (`--out-dir`, resumable).
    Gen(GenArgs),
    /// Convert text data files of `gen --out` to the binary form of `gen --out-dir`.
    Pack(data::PackArgs),
    /// Train evaluation weights from `gen` files and write the weights file.
    Fit(FitArgs),
    /// The loss of weights files on `gen` files (e.g. a chunk held out of training).
    Loss(LossArgs),
    /// Re-express weights fitted with one logistic scale k in the units of another: every score
    /// times k-from / k-to (the same predictions, other centi-men).
    Rescale(RescaleArgs),
}

/// Arguments of `crown tune rescale`.
#[derive(Args, Debug)]
pub struct RescaleArgs {
    /// Game: american, pool or impasse (the weights must be for it).
    #[arg(long, default_value = "american")]
    variant: String,
    /// Weights file written by `crown tune fit` with the material scale part (`scale`).
    #[arg(long)]
    weights: PathBuf,
    /// The k the weights were fitted with (`sigmoid(k × eval)`, eval in centi-men), 1e-6 to 1.
    #[arg(long)]
    k_from: f64,
    /// The k of the units wanted, 1e-6 to 1 (e.g. 0.00757, American's, so that equal scores mean
    /// equal expected results in both games).
    #[arg(long)]
    k_to: f64,
    /// Output weights file; checked before any work, not the input.
    #[arg(long)]
    out: PathBuf,
}

/// Arguments of `crown tune loss`.
#[derive(Args, Debug)]
pub struct LossArgs {
    /// Game: american, pool or impasse.
    #[arg(long, default_value = "american")]
    variant: String,
    /// Data files written by `crown tune gen`.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Weights files to measure (`classic` for the classic evaluation).
    #[arg(long, required = true, num_args = 1..)]
    weights: Vec<String>,
    /// The scale k of sigmoid(k × eval), eval in centi-men, 1e-6 to 1 (that of the weights, e.g.
    /// 0.00757 for American).
    #[arg(long)]
    k: f64,
    /// Weight of the game result in the target, 0 to 1, as in `fit`.
    #[arg(long, default_value_t = 0.7)]
    lambda: f64,
    /// Endgame database directory: positions it holds get their exact result as the target.
    #[arg(long)]
    egdb: Option<PathBuf>,
    /// Threads, 1 to 64.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// Arguments of `crown tune gen`.
#[derive(Args, Debug)]
pub struct GenArgs {
    /// Game: american, pool or impasse.
    #[arg(long, default_value = "american")]
    variant: String,
    /// Number of games, at least 1 [default: 1000 with --out]. With --out-dir: the chunks
    /// 0..⌈N / chunk-games⌉ (whole chunks).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..), conflicts_with = "chunks")]
    games: Option<u32>,
    /// Seed: with --out game n uses a generator seeded from (seed, n); with --out-dir it orders
    /// the openings (game n plays the n-th).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Search depth cap per move in plies, 1 to 60 [default: 4 with --out, none with --out-dir].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: Option<u32>,
    /// Node cap per move, 0 = none [default: 0 with --out, 2000 with --out-dir].
    #[arg(long)]
    nodes: Option<u64>,
    /// Random plies after the opening. With --out the default is American 2 after an 11-man
    /// ballot, pool 6 and Impasse 4 from the start. With --out-dir the openings are every distinct
    /// position that many plies after each start (11-man ballot 2, three-move ballot 3, start 8,
    /// Impasse start 6), and this replaces all of them.
    #[arg(long)]
    random_plies: Option<u32>,
    /// Evaluation of the self-play engine: classic or trained [default: classic with --out, the
    /// game's default (trained) with --out-dir].
    #[arg(long)]
    eval: Option<String>,
    /// Draw adjudicated after this many plies (at least 1).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..))]
    max_plies: u32,
    /// Worker threads, 1 to 64 (the output does not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Output file: a header `# crown tune gen variant=… depth=… seed=… games=…`, then lines
    /// `game result score FEN` (result for the side to move: 1, 0.5, 0; score in centi-men for the
    /// side to move). Checked before any work; written when the run ends (until then the games
    /// played so far are in `.NAME.partial.XXXXXX` beside it).
    #[arg(long, required_unless_present = "out_dir", conflicts_with = "out_dir")]
    out: Option<PathBuf>,
    /// Output directory of binary chunks `<variant>-<seed>-cNNNNN.ctd` of --chunk-games games
    /// each (format in docs/engine.md): chunks already there are checked and skipped, each new
    /// one is written when complete, so a run stopped or killed goes on where it was when run
    /// again with the same settings.
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
    /// Games per chunk with --out-dir (at least 1).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..), requires = "out_dir")]
    chunk_games: u32,
    /// The chunks to make with --out-dir: `A..B` (A to B − 1), `A..=B` or `A`.
    #[arg(long, requires = "out_dir")]
    chunks: Option<String>,
    /// Endgame database directory (with --out-dir): the engine searches with them, every position
    /// they hold is labelled with its exact value, and a game ends at its first such position
    /// with the databases' result (unless --play-endings).
    #[arg(long, value_name = "DIR", requires = "out_dir")]
    egdb: Option<PathBuf>,
    /// With --egdb: play the games on inside the databases instead of ending them there.
    #[arg(long, requires = "egdb")]
    play_endings: bool,
}

/// Arguments of `crown tune fit`.
#[derive(Args, Debug)]
pub struct FitArgs {
    /// Game: american, pool or impasse.
    #[arg(long, default_value = "american")]
    variant: String,
    /// Data written by `crown tune gen`: text files (game numbers are offset per file; lines
    /// starting with `#` are comments), binary chunks, or directories of binary chunks (their
    /// `*.ctd` files), mixed; data of another variant is refused.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Seed of the validation split and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Passes over the data (at least 1).
    #[arg(long, default_value_t = 15)]
    epochs: u32,
    /// Adam's initial step in centi-men (above 0).
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// L2 regularisation toward the material-only start (0 or more).
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
    /// Weight of the game result in the target, 0 to 1 (the rest: the search score).
    #[arg(long, default_value_t = 0.7)]
    lambda: f64,
    /// The scale k of sigmoid(k × eval) (eval in centi-men), 1e-6 to 1; default: fitted
    /// to the classic evaluation. Give the k of earlier weights to keep their units (a man near
    /// 100) when the labels change, e.g. 0.00757 for American with --egdb.
    #[arg(long)]
    k: Option<f64>,
    /// Endgame database directory: positions it holds are labelled with their exact
    /// perfect-play result (win 1, draw 0.5, loss 0 for the side to move), which is then their
    /// whole target (neither the game result nor the search score). Default: no relabelling.
    #[arg(long)]
    egdb: Option<PathBuf>,
    /// Parts of the evaluation to train besides the base features: `blocks` (4 × 4 block
    /// patterns), `scale` (material scales), both as `blocks,scale`, or `base` for neither (the
    /// weights of format version 1).
    #[arg(long, default_value = "blocks,scale")]
    features: crown_ai::trained::FeatureSet,
    /// Training threads, 1 to 64 (the weights do not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Output weights file (e.g. crates/ai/weights/american.bin); checked before any work, not one
    /// of the data files.
    #[arg(long)]
    out: PathBuf,
}

/// Run `crown tune`.
pub fn run(args: &TuneArgs) -> Result<ExitCode, CliError> {
    match &args.command {
        TuneCommand::Gen(a) if a.out_dir.is_some() => data::gen_chunks(a),
        TuneCommand::Gen(a) => text::gen(a),
        TuneCommand::Pack(a) => data::pack(a),
        TuneCommand::Fit(a) => fit(a),
        TuneCommand::Loss(a) => loss(a),
        TuneCommand::Rescale(a) => rescale(a),
    }
}

/// Label every sample the endgame databases hold with its perfect-play result (marked exact).
/// Returns how many were labelled and how many of those had a different game result.
fn label_exact(samples: &mut [Sample], tables: &dyn crown_ai::EndgameTables) -> (usize, usize) {
    let (mut labelled, mut changed) = (0, 0);
    for s in samples.iter_mut() {
        let v = s.position.variant();
        if crown_ai::tables::pieces_on_board(&s.position) > tables.max_pieces(v) {
            continue;
        }
        let Some(probe) = tables.probe(&s.position) else {
            continue;
        };
        let result = match probe.wdl {
            crown_ai::tables::Wdl::Win => 1.0,
            crown_ai::tables::Wdl::Draw => 0.5,
            crown_ai::tables::Wdl::Loss => 0.0,
        };
        labelled += 1;
        changed += usize::from(result != s.result);
        s.result = result;
        s.exact = true;
    }
    (labelled, changed)
}

/// Refuse `fit` settings outside their ranges (before any work): `--lr` finite and above 0,
/// `--lambda` from 0 to 1, `--l2` finite and 0 or more, `--epochs` at least 1, `--k` from 1e-6 to 1.
fn check_fit_settings(args: &FitArgs) -> Result<(), CliError> {
    if !(args.lr.is_finite() && args.lr > 0.0) {
        return Err(CliError(format!(
            "--lr {}: expected a number above 0",
            args.lr
        )));
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(CliError(format!(
            "--lambda {}: expected a number from 0 to 1",
            args.lambda
        )));
    }
    if !(args.l2.is_finite() && args.l2 >= 0.0) {
        return Err(CliError(format!(
            "--l2 {}: expected a number of 0 or more",
            args.l2
        )));
    }
    if args.epochs == 0 {
        return Err(CliError("--epochs 0: expected at least 1".into()));
    }
    if let Some(k) = args.k {
        // Below 1e-6 every score up to ±20,000 centi-men is an even game (sigmoid within 1 %).
        if !(1e-6..=1.0).contains(&k) {
            return Err(CliError(format!(
                "--k {k:e}: expected a number from 1e-6 to 1 (the committed weights use about 0.002 to 0.008)"
            )));
        }
    }
    Ok(())
}

/// Read the `--data` files of `variant` (game numbers offset per file), optionally labelled by the
/// databases in `egdb` (printing how many positions they labelled).
fn read_samples(
    data: &[PathBuf],
    variant: Variant,
    egdb: Option<&Path>,
) -> Result<Vec<Sample>, CliError> {
    let mut samples = Vec::new();
    data::read_inputs(data, variant, &mut samples)?;
    if samples.is_empty() {
        return Err(CliError("no positions in the data files".into()));
    }
    if let Some(dir) = egdb {
        let tables = crown_ai::tables::load(Some(dir))
            .map_err(CliError)?
            .ok_or_else(|| CliError(format!("no endgame databases in {}", dir.display())))?;
        let (labelled, changed) = label_exact(&mut samples, tables.as_ref());
        println!(
            "endgame databases ({}): {labelled} positions labelled exactly, {changed} of them against their game's result",
            tables.describe()
        );
        if labelled == 0 {
            let why = match tables.max_pieces(variant) {
                0 => format!("they hold nothing for {variant}"),
                n => format!("no position of the data has {n} pieces or fewer"),
            };
            eprintln!(
                "warning: the endgame databases in {} labelled no position: {why}",
                dir.display()
            );
        }
    }
    Ok(samples)
}

fn loss(args: &LossArgs) -> Result<ExitCode, CliError> {
    let variant: Variant = args.variant.parse()?;
    check_threads(args.threads)?;
    if !(1e-6..=1.0).contains(&args.k) {
        return Err(CliError(format!(
            "--k {:e}: expected a number from 1e-6 to 1",
            args.k
        )));
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(CliError(format!(
            "--lambda {}: expected a number from 0 to 1",
            args.lambda
        )));
    }
    let mut all = Vec::new();
    for name in &args.weights {
        let w = if name == "classic" {
            None
        } else {
            Some(read_weights(Path::new(name), variant)?)
        };
        all.push((name, w));
    }
    let samples = read_samples(&args.data, variant, args.egdb.as_deref())?;
    println!(
        "{} positions, k = {}, lambda = {}",
        samples.len(),
        args.k,
        args.lambda
    );
    for (name, w) in &all {
        let l = crown_train::train::loss(w.as_ref(), &samples, args.k, args.lambda, args.threads);
        println!("{name}: loss {l:.5}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The trained weights in file `path`, which must be for `variant`.
///
/// # Errors
/// The file cannot be read, is not a weights file, or holds another game's weights (each message
/// names the file).
fn read_weights(path: &Path, variant: Variant) -> Result<crown_ai::trained::Weights, CliError> {
    let name = path.display();
    let bytes = std::fs::read(path).map_err(|e| CliError(format!("reading {name}: {e}")))?;
    let w = crown_ai::trained::Weights::from_bytes(&bytes)
        .map_err(|e| CliError(format!("{name}: {e}")))?;
    if w.variant != variant {
        return Err(CliError(format!(
            "{name}: the weights are for {}, not {variant}",
            w.variant
        )));
    }
    Ok(w)
}

fn rescale(args: &RescaleArgs) -> Result<ExitCode, CliError> {
    let variant: Variant = args.variant.parse()?;
    for (name, k) in [("--k-from", args.k_from), ("--k-to", args.k_to)] {
        if !(1e-6..=1.0).contains(&k) {
            return Err(CliError(format!(
                "{name} {k:e}: expected a number from 1e-6 to 1"
            )));
        }
    }
    if same_file(&args.weights, &args.out) {
        return Err(CliError(format!(
            "--out {} is the input weights file; give another file name",
            args.out.display()
        )));
    }
    let w = read_weights(&args.weights, variant)?;
    let factor = args.k_from / args.k_to;
    let out_w = w
        .rescaled(factor)
        .map_err(|e| CliError(format!("{}: {e}", args.weights.display())))?;
    let mut out = OutFile::create(&args.out, "--out")?;
    out.write_all(&out_w.to_bytes())?;
    out.persist()?;
    println!(
        "scores times {factor:.5} (k {} -> {}): weights written to {}",
        args.k_from,
        args.k_to,
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn fit(args: &FitArgs) -> Result<ExitCode, CliError> {
    let variant: Variant = args.variant.parse()?;
    check_fit_settings(args)?;
    check_threads(args.threads)?;
    if let Some(data) = args.data.iter().find(|d| same_file(d, &args.out)) {
        return Err(CliError(format!(
            "--out {} is the data file {}; give another file name",
            args.out.display(),
            data.display()
        )));
    }
    let mut out = OutFile::create(&args.out, "--out")?;
    out.on_interrupt(false);
    let samples = read_samples(&args.data, variant, args.egdb.as_deref())?;
    let cfg = TrainConfig {
        epochs: args.epochs,
        lr: args.lr,
        l2: args.l2,
        lambda: args.lambda,
        seed: args.seed,
        k: args.k,
        features: args.features,
        threads: args.threads,
        ..TrainConfig::default()
    };
    // One game in ten is held out; with about ten games or fewer there may be none.
    let held_out = samples
        .iter()
        .any(|s| crown_train::train::is_validation(s.game, cfg.seed));
    let t0 = std::time::Instant::now();
    let mut last = t0;
    let (weights, report) = train(variant, &samples, &cfg, &mut |e, lt, lv| {
        let now = std::time::Instant::now();
        let times = format!(
            "{:.1} s, {:.0} s in all",
            (now - last).as_secs_f64(),
            (now - t0).as_secs_f64()
        );
        last = now;
        if held_out {
            eprintln!("epoch {e:>3}: train loss {lt:.5}, validation loss {lv:.5} ({times})");
        } else {
            eprintln!("epoch {e:>3}: train loss {lt:.5} ({times})");
        }
    });
    println!(
        "features {}: rows of {} positions built in {:.1} s ({} MiB), {:.1} s per epoch",
        cfg.features,
        samples.len(),
        report.rows_seconds,
        report.rows_bytes >> 20,
        report.epoch_seconds.iter().sum::<f64>() / report.epoch_seconds.len().max(1) as f64
    );
    out.write_all(&weights.to_bytes())?;
    out.persist()?;
    if held_out {
        println!(
            "{} positions ({} train, {} validation), k = {:.5}",
            samples.len(),
            report.train_positions,
            report.valid_positions,
            report.k
        );
        println!(
            "validation loss: classic {:.5}, material only {:.5}, trained {:.5}",
            report.classic_valid_loss, report.initial_valid_loss, report.final_valid_loss
        );
    } else {
        println!(
            "{} positions, all for training, k = {:.5}: no game was held out for validation (one game in ten is, chosen by its number and the seed; with fewer than about 10 games there may be none)",
            samples.len(),
            report.k
        );
    }
    println!("weights written to {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

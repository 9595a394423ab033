//! The text data of `crown tune gen --out`: self-play games from ballots (American) or the start
//! position after a few random plies, each game drawn from its own stream of the seed, played and
//! labelled by `crown_arena::datagen`'s one self-play loop (the quiet rule and score clip of
//! `--out-dir`), one line per quiet position; and the reader of those files (`read_data`).

use super::GenArgs;
use crate::common::{check_threads, shared_dir, OutFile};
use crate::CliError;
use crown_ai::eval::EvalKind;
use crown_ai::{Limits, Wdl};
use crown_arena::datagen::PlayRules;
use crown_arena::openings::{random_plies, read_opening_file};
use crown_arena::runner::{Flow, Pool};
use crown_arena::ArenaError;
use crown_core::rng::Rng;
use crown_core::{Game, Position, Variant};
use crown_train::train::Sample;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

/// One self-play game from `start` after `random` random plies (drawn from `rng`), played and
/// labelled by the data's one self-play loop ([`PlayRules::play`]: its quiet rule and score clip):
/// its lines for the data file, one per quiet position (`game result score FEN`, for the side to
/// move).
fn play_game(
    n: u32,
    start: Position,
    random: u32,
    rng: &mut Rng,
    rules: &PlayRules<'_>,
) -> Result<Vec<String>, CliError> {
    let mut game = Game::from_position(start);
    random_plies(&mut game, random, rng);
    // The random plies are in the game's history: they count toward --max-plies and the records'
    // plies from the ballot or start, as they always did here.
    let played = rules.play(game, 0, n).map_err(|e| {
        let why = match e {
            ArenaError::Game { source, .. } => *source,
            e => e,
        };
        CliError(format!("self-play game {n}: {why}"))
    })?;
    Ok(played
        .records
        .iter()
        .map(|r| {
            let result = match r.result {
                Wdl::Win => "1",
                Wdl::Loss => "0",
                Wdl::Draw => "0.5",
            };
            format!("{n} {result} {} {}", r.score, r.position.to_fen())
        })
        .collect())
}

/// `crown tune gen --out FILE`: text data.
pub(super) fn gen(args: &GenArgs) -> Result<ExitCode, CliError> {
    let variant: Variant = args.variant.parse()?;
    let eval_name = args.eval.as_deref().unwrap_or("classic");
    let eval: EvalKind = eval_name.parse().map_err(CliError)?;
    let depth = args.depth.unwrap_or(4);
    let nodes = args.nodes.unwrap_or(0);
    let out_path = args
        .out
        .as_deref()
        .ok_or_else(|| CliError("give --out FILE or --out-dir DIR".into()))?;
    check_threads(args.threads)?;
    let ballots = if variant == Variant::American {
        let dir = shared_dir()
            .ok_or_else(|| CliError("cannot find the shared data (set CROWN_SHARED)".into()))?;
        read_opening_file(&dir.join("data/pdn/ballots-11-man-english.pdn"), variant)?
    } else {
        Vec::new()
    };
    let random = args.random_plies.unwrap_or(match variant {
        Variant::American => 2,
        Variant::Pool => 6,
        Variant::Impasse => 4,
    });
    let mut limits = Limits::depth(depth);
    if nodes > 0 {
        limits.nodes = Some(nodes);
    }
    let rules = PlayRules {
        limits: &limits,
        eval: Some(eval),
        max_plies: args.max_plies,
        tables: None,
        adjudicate: false,
    };
    let games = args.games.unwrap_or(1000) as usize;
    let out = OutFile::create(out_path, "--out")?;
    // Ctrl-C keeps the games written so far (in the temporary file, named on stderr).
    out.on_interrupt(true);
    let header = format!(
        "# crown tune gen variant={} depth={} seed={} games={games} nodes={} random-plies={random} eval={} max-plies={}",
        variant.id(),
        limits.depth.unwrap_or(0),
        args.seed,
        nodes,
        eval_name,
        args.max_plies,
    );
    let mut writer = Ordered::new(out);
    writer.write_line(&header);
    let never = AtomicBool::new(false);
    let t0 = std::time::Instant::now();
    let mut done = 0usize;
    let pool = Pool {
        jobs: games,
        threads: args.threads,
        stop: &never,
    };
    let play = |_: &mut (), i: usize, worker: &crown_arena::runner::Worker<_>| {
        // Game i draws from its own stream of the seed: the data does not depend on --threads.
        let mut rng = Rng::stream(args.seed, i as u64);
        let start = if ballots.is_empty() {
            Position::new(variant)
        } else {
            ballots[rng.index(ballots.len())]
        };
        let lines = play_game(i as u32, start, random, &mut rng, &rules);
        worker.report((i, lines))
    };
    pool.run(
        |_| Some(()),
        play,
        |(i, lines)| {
            match lines {
                Ok(lines) => writer.finish(i, lines),
                Err(e) => {
                    writer.error.get_or_insert(e);
                }
            }
            done += 1;
            if done % (games / 10).max(1) == 0 {
                eprintln!("{done}/{games} games, {:.0} s", t0.elapsed().as_secs_f64());
            }
            if writer.error.is_some() {
                Flow::Abort
            } else {
                Flow::Continue
            }
        },
    );
    if let Some(e) = writer.error {
        return Err(e);
    }
    if writer.next != games {
        return Err(CliError(format!(
            "only {} of {games} games were played",
            writer.next
        )));
    }
    let count = writer.count;
    writer.out.persist()?;
    println!(
        "{games} games, {count} quiet positions written to {} in {:.1} s",
        out_path.display(),
        t0.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// The lines of finished games, written to the output file in game order as soon as every earlier
/// game is written too (so that the file does not depend on `--threads`, and an interrupted run
/// keeps the games written so far in the temporary file).
struct Ordered {
    out: OutFile,
    /// Finished games waiting for an earlier one.
    waiting: BTreeMap<usize, Vec<String>>,
    /// The next game to write.
    next: usize,
    /// Position lines written.
    count: usize,
    /// The first write error (nothing more is written after it).
    error: Option<CliError>,
}

impl Ordered {
    fn new(out: OutFile) -> Self {
        Ordered {
            out,
            waiting: BTreeMap::new(),
            next: 0,
            count: 0,
            error: None,
        }
    }

    fn write_line(&mut self, line: &str) {
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(format!("{line}\n").as_bytes()) {
                self.error = Some(e);
            }
        }
    }

    /// Game `game` is over with these `lines`: write it, and the waiting games after it, when it
    /// is the next one.
    fn finish(&mut self, game: usize, lines: Vec<String>) {
        self.waiting.insert(game, lines);
        let mut wrote = false;
        while let Some(lines) = self.waiting.remove(&self.next) {
            for line in &lines {
                self.write_line(line);
            }
            self.count += lines.len();
            self.next += 1;
            wrote = true;
        }
        if wrote && self.error.is_none() {
            if let Err(e) = self.out.flush() {
                self.error = Some(e);
            }
        }
    }
}

/// The variant named by a `crown tune gen` header line (`# crown tune gen variant=pool …`), if
/// `line` is one.
fn header_variant(line: &str) -> Option<&str> {
    let rest = line
        .strip_prefix('#')?
        .trim_start()
        .strip_prefix("crown tune gen")?;
    rest.split_whitespace()
        .find_map(|w| w.strip_prefix("variant="))
}

/// Read a `gen` data file of `variant`; game numbers are offset by `offset`. Lines starting with
/// `#` are comments; a `crown tune gen` header naming another variant is an error (a file without
/// one is read as `variant`).
pub(super) fn read_data(
    path: &Path,
    variant: Variant,
    offset: u32,
    out: &mut Vec<Sample>,
) -> Result<u32, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError(format!("reading {}: {e}", path.display())))?;
    let mut max_game = 0;
    for (i, line) in text.lines().enumerate() {
        let at = || format!("{} line {}", path.display(), i + 1);
        if line.trim().is_empty() {
            continue;
        }
        if line.starts_with('#') {
            if let Some(name) = header_variant(line) {
                match name.parse::<Variant>() {
                    Ok(v) if v == variant => {}
                    Ok(v) => {
                        return Err(CliError(format!(
                            "{}: the data is for {v}, not {variant} (--variant {})",
                            at(),
                            variant.id()
                        )))
                    }
                    Err(_) => {
                        return Err(CliError(format!(
                            "{}: unknown variant '{}' in the header",
                            at(),
                            crown_notation::printable(name)
                        )))
                    }
                }
            }
            continue;
        }
        let mut parts = line.splitn(4, ' ');
        let mut field = |name: &str| {
            parts
                .next()
                .ok_or_else(|| CliError(format!("{}: missing {name}", at())))
        };
        let game: u32 = field("game")?
            .parse()
            .map_err(|_| CliError(format!("{}: bad game number", at())))?;
        let result: f32 = match field("result")? {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            r => {
                return Err(CliError(format!(
                    "{}: result '{r}' is not 1, 0.5 or 0",
                    at()
                )))
            }
        };
        let score: i32 = field("score")?
            .parse()
            .map_err(|_| CliError(format!("{}: bad score", at())))?;
        let fen = field("FEN")?;
        let position = Position::from_fen(variant, fen)
            .map_err(|e| CliError(format!("{}: FEN \"{fen}\": {e}", at())))?;
        max_game = max_game.max(game);
        out.push(Sample {
            position,
            result,
            score,
            game: game + offset,
            exact: false,
        });
    }
    Ok(max_game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_written_in_game_order_as_soon_as_the_earlier_ones_are() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data.txt");
        let mut w = Ordered::new(OutFile::create(&path, "--out").unwrap());
        let lines = |g: usize| vec![format!("{g} a"), format!("{g} b")];
        // Game 1 ends first: it waits for game 0.
        w.finish(1, lines(1));
        assert_eq!((w.next, w.count), (0, 0));
        // Game 0 ends: both are written, in order.
        w.finish(0, lines(0));
        assert_eq!((w.next, w.count), (2, 4));
        w.finish(3, lines(3));
        w.finish(2, lines(2));
        assert_eq!((w.next, w.count), (4, 8));
        assert!(w.error.is_none());
        assert!(!path.exists(), "written before the end");
        w.out.persist().unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "0 a\n0 b\n1 a\n1 b\n2 a\n2 b\n3 a\n3 b\n"
        );
    }

    #[test]
    fn the_header_names_the_variant() {
        let line = "# crown tune gen variant=pool depth=2 seed=9 games=6";
        assert_eq!(header_variant(line), Some("pool"));
        assert_eq!(header_variant("# my notes variant=pool"), None);
        assert_eq!(header_variant("0 1 10 B:W21-32:B1-12"), None);
    }
}

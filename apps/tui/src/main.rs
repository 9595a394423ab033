//! `crown-tui`: play American checkers, pool checkers and Impasse in the terminal.
//!
//! Usage: `crown-tui [--ascii] [--egdb DIR | --no-egdb] [--no-egdb-build] [--no-book]`. The new-game dialog opens first; press `?` in the game for all keys.

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use crossterm::execute;
use crown_ai::tables::auto::{AutoBuild, Off, Request};
use crown_ai::Searcher;
use crown_tui::app::{App, Effect, Msg};
use crown_tui::engine::{EngineEvent, Worker};
use crown_tui::review::{ReviewEvent, ReviewRunner, REVIEW_MOVETIME_MS};
use crown_tui::ui;
use std::io;
use std::sync::mpsc;
use std::time::{Duration, Instant};

const USAGE: &str = "crown-tui: American checkers, pool checkers and Impasse in the terminal

Usage: crown-tui [--ascii] [--egdb DIR | --no-egdb] [--no-egdb-build] [--no-book]

  --ascii      plain ASCII board without colours (also chosen for TERM=dumb/linux/vt100 or NO_COLOR)
  --egdb DIR   endgame databases to use (default: $CROWN_EGDB_DIR, else the per-user data
               directory, e.g. ~/.local/share/crown/egdb, where `crown egdb build` writes)
  --no-egdb    play without endgame databases
  --no-egdb-build
               do not build the recommended databases (≤5 pieces) of the game being played in
               the background when the default directory lacks them (also: CROWN_EGDB_BUILD=0);
               the status line shows the build, the engine uses the databases once built
  --no-book    search every move instead of playing the opening from the embedded book
  --help       this text

In the game press ? for the keys. The mouse works too.";

/// The engine of this build, with the endgame databases in `egdb` (`None`: the default directory;
/// `Some(None)`: none), and the background build of the recommended databases unless turned off
/// (`no_build`, `CROWN_EGDB_BUILD=0`, an explicit `egdb`). A missing or broken directory is a
/// warning on stderr, not an error.
fn brain(
    egdb: Option<Option<std::path::PathBuf>>,
    book: bool,
    no_build: bool,
) -> (Option<Box<dyn Searcher>>, Option<AutoBuild>) {
    let request = Request {
        dir_given: matches!(egdb, Some(Some(_))),
        no_egdb: matches!(egdb, Some(None)),
        no_build,
    };
    let tables = match egdb {
        Some(None) => Ok(None),
        Some(Some(dir)) => crown_ai::tables::load(Some(&dir)),
        None => crown_ai::tables::load(None),
    }
    .unwrap_or_else(|e| {
        eprintln!("crown-tui: warning: {e}; playing without endgame databases");
        None
    });
    for w in tables.iter().flat_map(|t| t.warnings()) {
        eprintln!("crown-tui: warning: {w}");
    }
    let auto = match AutoBuild::for_front_end(request, tables.clone(), None) {
        Ok(a) => Some(a),
        Err(Off::NoThread(e)) => {
            eprintln!("crown-tui: warning: {e}");
            None
        }
        Err(_) => None,
    };
    let tables = match &auto {
        Some(a) => Some(a.tables()),
        None => tables,
    };
    (Some(crown_tui::crown_engine::searcher(tables, book)), auto)
}

fn main() {
    let mut ascii = false;
    let mut egdb: Option<Option<std::path::PathBuf>> = None;
    let mut book = true;
    let mut no_build = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--ascii" => ascii = true,
            "--no-egdb" => egdb = Some(None),
            "--no-book" => book = false,
            "--no-egdb-build" => no_build = true,
            "--egdb" => match args.next() {
                Some(dir) => egdb = Some(Some(dir.into())),
                None => {
                    eprintln!("crown-tui: --egdb needs a directory\n\n{USAGE}");
                    std::process::exit(2);
                }
            },
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            other => {
                eprintln!("crown-tui: unknown argument '{other}'\n\n{USAGE}");
                std::process::exit(2);
            }
        }
    }
    let term = std::env::var("TERM").unwrap_or_default();
    if matches!(term.as_str(), "dumb" | "linux" | "vt100") || std::env::var_os("NO_COLOR").is_some()
    {
        ascii = true;
    }
    let (brain, auto) = brain(egdb, book, no_build);
    if let Err(e) = run(ascii, brain, auto) {
        eprintln!("crown-tui: {e}");
        std::process::exit(1);
    }
}

fn run(ascii: bool, brain: Option<Box<dyn Searcher>>, auto: Option<AutoBuild>) -> io::Result<()> {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0x9e37_79b9);
    let (tx, rx) = mpsc::channel::<EngineEvent>();
    let worker = brain.and_then(|b| match Worker::spawn(b, tx, |e| e) {
        Ok(w) => Some(w),
        Err(e) => {
            eprintln!("crown-tui: warning: the engine cannot start ({e}); playing without it");
            None
        }
    });
    let mut app = App::new(worker.is_some(), seed);
    app.ascii = ascii;
    app.set_puzzle_store(crown_tui::app::puzzle_store_path());

    let mut terminal = ratatui::init();
    let _ = execute!(io::stdout(), EnableMouseCapture);
    let (review_tx, review_rx) = mpsc::channel::<ReviewEvent>();
    let mut rt = Runtime {
        worker: worker.as_ref(),
        review_tx,
        review: None,
        auto,
    };
    let result = event_loop(&mut terminal, &mut app, &mut rt, &rx, &review_rx);
    drop(rt);
    let _ = execute!(io::stdout(), DisableMouseCapture);
    ratatui::restore();
    drop(worker);
    result
}

/// What runs outside the app: the engine worker and the game review.
struct Runtime<'a> {
    worker: Option<&'a Worker>,
    review_tx: mpsc::Sender<ReviewEvent>,
    review: Option<ReviewRunner>,
    /// The background build of the recommended endgame databases, if on.
    auto: Option<AutoBuild>,
}

fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    app: &mut App,
    rt: &mut Runtime,
    rx: &mpsc::Receiver<EngineEvent>,
    review_rx: &mpsc::Receiver<ReviewEvent>,
) -> io::Result<()> {
    let mut last = Instant::now();
    let mut last_draw = Instant::now();
    let mut dirty = true;
    loop {
        let size = terminal.size()?;
        if (size.width, size.height) != app.size {
            app.update(Msg::Resize(size.width, size.height));
            dirty = true;
        }
        // Redraw only when something changed, or at most 10 times a second while a clock runs:
        // an idle game uses no CPU.
        let clock_running = app.clocks.is_some() && app.game.outcome().is_none();
        if dirty || (clock_running && last_draw.elapsed() >= Duration::from_millis(100)) {
            terminal.draw(|f| ui::view(app, f))?;
            last_draw = Instant::now();
            dirty = false;
        }
        if event::poll(Duration::from_millis(40))? {
            dirty = true;
            // Handle everything that is waiting before drawing again.
            loop {
                match event::read()? {
                    Event::Key(k) => app.update(Msg::Key(k)),
                    Event::Mouse(m) => app.update(Msg::Mouse(m)),
                    Event::Resize(w, h) => app.update(Msg::Resize(w, h)),
                    _ => {}
                }
                run_effects(app, rt);
                if app.quit || !event::poll(Duration::ZERO)? {
                    break;
                }
            }
        }
        while let Ok(e) = review_rx.try_recv() {
            app.update(Msg::Review(e));
            dirty = true;
        }
        while let Ok(e) = rx.try_recv() {
            app.update(Msg::Engine(e));
            run_effects(app, rt);
            dirty = true;
        }
        if let Some(auto) = &rt.auto {
            let line = auto.status().line(auto.pieces());
            if line != app.egdb_status {
                app.egdb_status = line;
                dirty = true;
            }
        }
        let ms = last.elapsed().as_millis() as u64;
        if ms > 0 {
            last += Duration::from_millis(ms);
            app.update(Msg::Tick(ms));
        }
        run_effects(app, rt);
        if app.quit {
            return Ok(());
        }
    }
}

fn run_effects(app: &mut App, rt: &mut Runtime) {
    let worker = rt.worker;
    loop {
        let effects = app.take_effects();
        if effects.is_empty() {
            return;
        }
        for e in effects {
            match e {
                Effect::Search(job) => {
                    if let Some(w) = worker {
                        w.submit(job);
                    }
                }
                Effect::StopSearch => {
                    if let Some(w) = worker {
                        w.stop();
                    }
                }
                Effect::NewGame => {
                    if let Some(w) = worker {
                        w.new_game();
                    }
                    // The databases of the game about to be played (built once, in the
                    // background; the status line shows the build).
                    if let Some(auto) = &rt.auto {
                        auto.ensure(app.game.variant());
                    }
                    rt.review = None;
                }
                Effect::Review { id, start, moves } => {
                    // Dropping the runner stops the review before.
                    rt.review = None;
                    let options = crown_ai::review::ReviewOptions {
                        limits: crown_ai::Limits::movetime(REVIEW_MOVETIME_MS),
                        check_only_moves: true,
                    };
                    rt.review = Some(ReviewRunner::start(
                        id,
                        start,
                        moves,
                        options,
                        rt.review_tx.clone(),
                    ));
                }
                Effect::StopReview => rt.review = None,
                Effect::Save { path, text } => {
                    let result = std::fs::write(&path, text).map_err(|e| e.to_string());
                    app.update(Msg::Saved { path, result });
                }
                Effect::Store { path, text } => {
                    if let Some(dir) = path.parent() {
                        let _ = std::fs::create_dir_all(dir);
                    }
                    let tmp = path.with_extension("json.tmp");
                    if std::fs::write(&tmp, text).is_ok() {
                        let _ = std::fs::rename(&tmp, &path);
                    }
                }
                Effect::Load { path } => {
                    let result = std::fs::read_to_string(&path).map_err(|e| e.to_string());
                    app.update(Msg::Loaded { path, result });
                }
            }
        }
    }
}

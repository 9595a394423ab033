//! The search driver: the opening book and endgame-database roots, iterative deepening over the
//! worker threads, the time checks and the forced-win look-ahead of the low levels.

use super::*;

pub(crate) fn run(
    engine: &mut Engine,
    game: &Game,
    limits: &Limits,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let start = Instant::now();
    let pos = *game.position();
    if let Some(outcome) = game.outcome() {
        let score = match outcome.winner() {
            Some(w) if w == pos.side_to_move() => Score::Win(0),
            Some(_) => Score::Loss(0),
            None => Score::Value(0),
        };
        return SearchResult {
            best_move: None,
            score,
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
            time_ms: 0,
        };
    }
    if !limits.infinite {
        if let Some(b) = engine.book_move(&pos) {
            return SearchResult {
                best_move: Some(b.mv),
                score: Score::Value(i32::from(b.score_cp)),
                pv: vec![b.mv],
                depth: 0,
                nodes: 0,
                time_ms: start.elapsed().as_millis() as u64,
            };
        }
    }
    let level = engine.options.level.map(|l| l.clamp(1, 10));
    if let Some(win) = level.and_then(|_| short_forced_win(engine, game, limits, stop)) {
        return SearchResult {
            time_ms: start.elapsed().as_millis() as u64,
            ..win
        };
    }
    let randomise = matches!(level, Some(l) if l <= 6);
    let (soft, hard) = time_bounds(limits);
    let rules = game.draw_rules();
    let variant = pos.variant();
    // Databases: everywhere from TABLES_FROM_LEVEL up; below it only to convert a won root.
    let tables = engine
        .tables
        .as_deref()
        .filter(|_| level.is_none_or(|l| l >= crate::TABLES_FROM_LEVEL));
    if let Some(t) = engine.tables.as_deref() {
        let use_root =
            tables.is_some() || tables::probe(t, &pos).is_some_and(|p| p.wdl == Wdl::Win);
        if let Some(r) = use_root
            .then(|| table_root(t, &pos, start, on_info))
            .flatten()
        {
            return r;
        }
    }
    // The evaluation: the one asked for; else the trained one when weights were given for this
    // game (`Engine::set_weights`); else the game's default (the embedded network where there is
    // one). A network given to the engine (`Engine::set_network`) replaces the embedded one.
    let explicit_weights = engine.weights.as_deref().filter(|w| w.variant == variant);
    let kind = match (engine.eval, explicit_weights) {
        (Some(kind), _) => kind,
        (None, Some(_)) => crate::eval::EvalKind::Trained,
        (None, None) => crate::eval::EvalKind::default_for(variant),
    };
    let sh = Shared {
        tt: &engine.tt,
        stop,
        abort: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        start,
        hard: hard.map(|h| start + h),
        node_limit: if limits.infinite { None } else { limits.nodes },
        variant,
        weights: match explicit_weights {
            Some(w) => Some(w),
            None => match kind {
                crate::eval::EvalKind::Trained | crate::eval::EvalKind::Network
                    if tables.map_or(0, |t| t.max_pieces(variant))
                        < crate::trained::TABLES_COVER =>
                {
                    crate::trained::embedded_without_tables(variant)
                }
                kind => kind.weights(variant),
            },
        },
        network: match kind {
            crate::eval::EvalKind::Network => engine
                .network
                .as_deref()
                .filter(|net| net.variant == variant)
                .or_else(|| crate::eval::network::embedded(variant)),
            _ => None,
        },
        repetition: rules.repetition && variant.is_draughts(),
        forty_moves: rules.forty_moves && variant.is_draughts(),
        exact_root: randomise,
        tables,
        table_pieces: tables.map_or(0, |t| t.max_pieces(variant)),
        tweaks: engine.tweaks.resolve(variant),
    };
    let max_depth = if limits.infinite {
        MAX_PLY as u32 - 8
    } else {
        limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8)
    };
    let keys: Vec<u64> = game.history().map(|(p, _)| p.zobrist()).collect();
    let quiet = game.quiet_plies();
    let threads = engine.options.threads.max(1);
    let stop_on_mate = limits.depth.is_none() && !limits.infinite;

    let mut main_search = || {
        let mut w = Worker::new(&sh, 0, keys.clone(), &pos);
        let mut report = |w: &Worker, c: &Completed| {
            let elapsed = start.elapsed();
            let nodes = sh.nodes.load(Ordering::Relaxed) + (w.nodes - w.flushed);
            let ms = elapsed.as_millis() as u64;
            on_info(&SearchInfo {
                depth: c.depth,
                seldepth: w.seldepth as u32,
                mean_depth_hundredths: w.mean_depth_hundredths(),
                score: score_of(c.score),
                nodes,
                nps: nodes_per_second(nodes, elapsed),
                time_ms: ms,
                pv: c.root[0].pv.clone(),
            });
        };
        let c = w.iterate(&pos, quiet, max_depth, soft, stop_on_mate, &mut report);
        w.flush();
        sh.abort.store(true, Ordering::Relaxed);
        c
    };
    // One thread: no scope at all (so the search also runs where threads do not exist, e.g. wasm).
    let completed = if threads <= 1 {
        main_search()
    } else {
        std::thread::scope(|scope| {
            for id in 1..threads {
                let sh = &sh;
                let keys = keys.clone();
                // A helper that cannot be spawned is simply missing: the main thread searches alone.
                let _ = std::thread::Builder::new()
                    .stack_size(16 * 1024 * 1024)
                    .spawn_scoped(scope, move || {
                        let mut w = Worker::new(sh, id, keys, &pos);
                        w.iterate(&pos, quiet, max_depth, None, false, &mut |_, _| {});
                    });
            }
            main_search()
        })
    };

    let nodes = sh.nodes.load(Ordering::Relaxed);
    let time_ms = start.elapsed().as_millis() as u64;
    let Some(done) = completed else {
        // Cannot happen (depth 1 always completes), but never return no move.
        let list = pos.legal_moves();
        return SearchResult {
            best_move: list.first().copied(),
            score: Score::Value(0),
            pv: list.first().copied().into_iter().collect(),
            depth: 0,
            nodes,
            time_ms,
        };
    };
    let mut chosen = 0;
    if randomise && done.score < MATE_BOUND {
        let l = level.unwrap_or(10) as usize;
        const MARGIN: [i32; 6] = [150, 100, 60, 35, 20, 8];
        let best = done.root.iter().map(|r| r.score).max().unwrap_or(0);
        let candidates: Vec<usize> = (0..done.root.len())
            .filter(|&i| done.root[i].score >= best - MARGIN[l - 1])
            .collect();
        if !candidates.is_empty() {
            chosen = candidates[(engine.next_random() % candidates.len() as u64) as usize];
        }
    }
    let rm = &done.root[chosen];
    let pv = if rm.pv.first() == Some(&rm.mv) {
        rm.pv.clone()
    } else {
        vec![rm.mv]
    };
    SearchResult {
        best_move: Some(rm.mv),
        score: score_of(if chosen == 0 { done.score } else { rm.score }),
        pv,
        depth: done.depth,
        nodes,
        time_ms,
    }
}

/// Plies a casual level looks ahead for a forced win whatever its depth cap.
const WIN_CHECK_DEPTH: u32 = 7;
/// Node budget of that look-ahead (no time limit, so that the answer does not depend on the
/// machine's speed or load; a 7-ply search usually needs far fewer nodes).
const WIN_CHECK_NODES: u64 = 100_000;

/// For a casual level whose depth cap is below [`WIN_CHECK_DEPTH`]: a plain search (no
/// randomness, no databases, its own 1 MiB table so the level's table is untouched) to that depth,
/// within [`WIN_CHECK_NODES`] nodes; its result when it proves a forced
/// win, so that the low levels never miss a short forced win (issue 11), else `None`.
fn short_forced_win(
    engine: &Engine,
    game: &Game,
    limits: &Limits,
    stop: &AtomicBool,
) -> Option<SearchResult> {
    if limits.infinite || limits.depth.is_none_or(|d| d >= WIN_CHECK_DEPTH) {
        return None;
    }
    let mut check = Engine::new(crate::EngineOptions {
        hash_mib: 1,
        threads: 1,
        level: None,
    });
    check.eval = engine.eval;
    check.weights = engine.weights.clone();
    check.network = engine.network.clone();
    check.tweaks = engine.tweaks;
    let check_limits = Limits {
        depth: Some(WIN_CHECK_DEPTH),
        nodes: Some(WIN_CHECK_NODES),
        ..Limits::default()
    };
    let r = run(&mut check, game, &check_limits, stop, &mut |_| {});
    matches!(r.score, Score::Win(_)).then_some(r)
}

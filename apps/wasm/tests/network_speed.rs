//! The browser engine's node rate with the network evaluation against the table evaluation, on
//! `crown bench`'s American positions at their depths (crates/ai/src/bench.rs), under Node. Not a
//! check (ignored by default); run it optimised:
//!
//!     CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
//!       cargo test --release -p crown-wasm --target wasm32-unknown-unknown --test network_speed \
//!       -- --include-ignored
//!
//! Each round searches the positions with the table evaluation, the network on the scalar kernel
//! and the network on the simd128 kernel (where the build has it), in turn, each with a fresh
//! engine per position (one thread, 16 MiB hash, as `crown bench`); it prints every round and the
//! minimum and median time and node rate of each.
#![cfg(target_arch = "wasm32")]

use crown_ai::bench::BENCH_POSITIONS;
use crown_ai::eval::network::simd::Kernel;
use crown_ai::eval::network::Network;
use crown_ai::eval::EvalKind;
use crown_ai::{Engine, EngineOptions, Limits};
use crown_core::{Game, Position, Variant};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};
use web_time::Instant;

const AMERICAN: &[u8] = include_bytes!("../../../crates/ai/data/network/american-l1-128.nnue");
const ROUNDS: usize = 7;

/// Nodes and seconds of one pass over the American bench positions.
fn pass(eval: EvalKind, network: Option<&Arc<Network>>) -> (u64, f64) {
    let (mut nodes, mut secs) = (0, 0.0);
    for &(variant, fen, depth) in BENCH_POSITIONS {
        if variant != Variant::American {
            continue;
        }
        let game = Game::from_position(Position::from_fen(variant, fen).expect("bench FEN"));
        let mut engine = Engine::new(EngineOptions {
            hash_mib: 16,
            threads: 1,
            level: None,
        });
        engine.set_eval(Some(eval));
        engine.set_network(network.cloned());
        let start = Instant::now();
        let r = engine.search(
            &game,
            &Limits::depth(depth),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        secs += start.elapsed().as_secs_f64();
        nodes += r.nodes;
    }
    (nodes, secs)
}

#[wasm_bindgen_test]
#[ignore = "a measurement: run with --release -- --include-ignored"]
fn network_node_rate_against_the_table_evaluation() {
    let net = Network::from_bytes(AMERICAN).expect("the committed network reads");
    let mut configs: Vec<(&str, EvalKind, Option<Arc<Network>>)> = vec![
        ("trained", EvalKind::Trained, None),
        (
            "network scalar",
            EvalKind::Network,
            Some(Arc::new(net.clone().with_kernel(Kernel::Scalar))),
        ),
    ];
    if let Some(k) = Kernel::simd128() {
        configs.push((
            "network simd128",
            EvalKind::Network,
            Some(Arc::new(net.with_kernel(k))),
        ));
    }
    let mut runs: Vec<Vec<(u64, f64)>> = vec![Vec::new(); configs.len()];
    for round in 0..ROUNDS {
        for (c, (name, eval, network)) in configs.iter().enumerate() {
            let (nodes, secs) = pass(*eval, network.as_ref());
            console_log!(
                "round {round} {name}: {nodes} nodes {:.1} ms {:.0} nodes/s",
                secs * 1e3,
                nodes as f64 / secs
            );
            runs[c].push((nodes, secs));
        }
    }
    for ((name, ..), r) in configs.iter().zip(&runs) {
        let mut times: Vec<f64> = r.iter().map(|&(_, s)| s).collect();
        times.sort_by(f64::total_cmp);
        let nodes = r[0].0;
        assert!(r.iter().all(|&(n, _)| n == nodes), "{name}: nodes differ");
        console_log!(
            "{name}: {nodes} nodes; time min {:.1} ms median {:.1} ms; rate max {:.0} median {:.0} nodes/s",
            times[0] * 1e3,
            times[ROUNDS / 2] * 1e3,
            nodes as f64 / times[0],
            nodes as f64 / times[ROUNDS / 2]
        );
    }
}

//! The network evaluation's wasm simd128 kernel (crates/ai/src/eval/network/simd.rs), run under
//! Node by `cargo xtask wasm-test`: the build has it, it computes exactly what the scalar kernel
//! does, and a search with the committed American network gives the same result with either.
#![cfg(target_arch = "wasm32")]

use crown_ai::eval::network::simd::Kernel;
use crown_ai::eval::network::{check, Network};
use crown_ai::eval::EvalKind;
use crown_ai::{Engine, EngineOptions, Limits};
use crown_core::{Game, Position, Variant};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use wasm_bindgen_test::wasm_bindgen_test;

/// The committed American network (the one `EvalKind::Network` is being made the default with).
const AMERICAN: &[u8] = include_bytes!("../../../crates/ai/data/network/american-l1-128.nnue");

/// `.cargo/config.toml` builds wasm32 with `simd128`, so the network runs the simd128 kernel; a
/// build without it (e.g. `RUSTFLAGS` set, which replaces the config's flags) fails here.
#[wasm_bindgen_test]
fn the_browser_build_evaluates_with_simd128() {
    assert!(Kernel::simd128().is_some(), "built without simd128");
    assert_eq!(Kernel::best(), Kernel::simd128().unwrap());
    let net = Network::from_bytes(AMERICAN).expect("the committed network reads");
    assert_eq!(net.kernel(), Kernel::simd128().unwrap());
}

/// The simd128 kernel gives the scalar kernel's accumulators and scores over thousands of
/// positions of random games of every game, and the same integers at each hot loop's edges.
#[wasm_bindgen_test]
fn simd128_equals_scalar() {
    let checked = check::assert_kernel_matches_scalar(Kernel::simd128().expect("simd128"));
    assert!(checked > 3_000, "only {checked} positions");
}

/// A fixed-depth search of the American start and a middle game with the committed network gives
/// the same nodes, score and move with the simd128 kernel as with the scalar one.
#[wasm_bindgen_test]
fn network_search_is_the_same_with_either_kernel() {
    let net = Network::from_bytes(AMERICAN).expect("the committed network reads");
    for fen in [
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "B:W18,19,25,29,30:B1,4,8,10,11",
    ] {
        let game = Game::from_position(Position::from_fen(Variant::American, fen).unwrap());
        let results: Vec<_> = [Kernel::Scalar, Kernel::simd128().expect("simd128")]
            .into_iter()
            .map(|kernel| {
                let mut engine = Engine::new(EngineOptions {
                    hash_mib: 4,
                    threads: 1,
                    level: None,
                });
                engine.set_eval(Some(EvalKind::Network));
                engine.set_network(Some(Arc::new(net.clone().with_kernel(kernel))));
                let r = engine.search(
                    &game,
                    &Limits::depth(7),
                    &AtomicBool::new(false),
                    &mut |_| {},
                );
                (r.nodes, r.score, r.best_move)
            })
            .collect();
        assert_eq!(results[0], results[1], "{fen}");
    }
}

//! The engine's integer network evaluation against the trained model it was exported from
//! (`tools/train/nnue.py --fixture`): on held-out positions the script wrote the float model's
//! score and its own integer computation of the exported file; the engine must give that integer
//! score exactly, and lie within [`TOLERANCE_CM`] of the float model (the post-training rounding).

use crown_ai::eval::network::{simd::Kernel, Network};
use crown_ai::{Engine, EngineOptions, Limits};
use crown_core::{Game, Position, Variant};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Most the integer score may differ from the float model's, in centi-men: the engine floors to
/// whole centi-men (under 1) and float32 sums may round a second-layer activation to the other
/// side of a step of 1/127 (the exporter measured at most 1.71 cm over 9,540 held-out positions).
const TOLERANCE_CM: f64 = 2.0;
/// Most the mean difference may be, in centi-men (measured 0.51).
const MEAN_TOLERANCE_CM: f64 = 1.0;

const NETWORK: &[u8] = include_bytes!("data/network/american-small.nnue");
const FIXTURE: &str = include_str!("data/network/american-small.tsv");

fn cases(fixture: &str) -> Vec<(Position, f64, i32)> {
    fixture
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 3, "fixture line {l}");
            let pos = Position::from_fen(Variant::American, f[0]).expect("fixture FEN");
            (pos, f[1].parse().unwrap(), f[2].parse().unwrap())
        })
        .collect()
}

/// The engine's integer score of every fixture position equals the exporter's, with both kernels,
/// and lies within the tolerances of the float model's.
fn check_fixture(network: &[u8], fixture: &str) {
    let net = Network::from_bytes(network).expect("the committed network reads");
    assert_eq!(net.variant, Variant::American);
    let cases = cases(fixture);
    assert!(cases.len() >= 100, "{} fixture positions", cases.len());
    let mut sum = 0.0;
    for kernel in [Some(Kernel::Scalar), Kernel::avx2()].into_iter().flatten() {
        let net = net.clone().with_kernel(kernel);
        for (pos, float, int) in &cases {
            let e = net.evaluate(pos);
            assert_eq!(
                e,
                *int,
                "{kernel:?} {}: the exporter's integer score",
                pos.to_fen()
            );
            let d = (f64::from(e) - float).abs();
            assert!(d <= TOLERANCE_CM, "{}: {e} vs float {float}", pos.to_fen());
            sum += d;
        }
    }
    let kernels = 1 + usize::from(Kernel::avx2().is_some());
    let mean = sum / (cases.len() * kernels) as f64;
    assert!(mean <= MEAN_TOLERANCE_CM, "mean |int - float| {mean:.2} cm");
}

#[test]
fn integer_evaluation_matches_the_exported_model() {
    check_fixture(NETWORK, FIXTURE);
}

/// The first network trained at scale (`crates/ai/data/network/american-l1-128.nnue`, 3.5 M
/// positions; docs/engine.md "Network evaluation") against its exporter's fixture.
#[test]
fn trained_network_matches_its_exported_model() {
    check_fixture(
        include_bytes!("../data/network/american-l1-128.nnue"),
        include_str!("data/network/american-l1-128.tsv"),
    );
}

/// American searches with the embedded network by default (`EvalKind::Network` without a network
/// given is the same search), `EvalKind::Trained` searches without any network (a network given
/// changes nothing), a network given with `EvalKind::Network` replaces the embedded one (another
/// node count, the same every run), and another game never uses the American network.
#[test]
fn american_searches_with_the_embedded_network_unless_told_otherwise() {
    let net = Arc::new(Network::from_bytes(NETWORK).unwrap());
    let run =
        |variant: Variant, eval: Option<crown_ai::eval::EvalKind>, net: Option<Arc<Network>>| {
            let mut e = Engine::new(EngineOptions {
                hash_mib: 4,
                threads: 1,
                level: None,
            });
            e.set_eval(eval);
            e.set_network(net);
            let stop = AtomicBool::new(false);
            let r = e.search(&Game::new(variant), &Limits::depth(7), &stop, &mut |_| {});
            (r.nodes, r.best_move)
        };
    use crown_ai::eval::EvalKind::{Network as N, Trained};
    assert_eq!(crown_ai::eval::EvalKind::default_for(Variant::American), N);
    assert!(crown_ai::eval::network::embedded(Variant::American).is_some());
    let default = run(Variant::American, None, None);
    assert_eq!(run(Variant::American, Some(N), None), default);
    let trained = run(Variant::American, Some(Trained), None);
    assert_ne!(
        trained.0, default.0,
        "the embedded network changes the search"
    );
    assert_eq!(
        run(Variant::American, Some(Trained), Some(net.clone())),
        trained
    );
    let with_net = run(Variant::American, Some(N), Some(net.clone()));
    assert_ne!(
        with_net.0, default.0,
        "a given network replaces the embedded one"
    );
    assert_ne!(with_net.0, trained.0);
    assert_eq!(run(Variant::American, Some(N), Some(net.clone())), with_net);
    // Another game: the American network is not used, and it has no network of its own.
    assert!(crown_ai::eval::network::embedded(Variant::Pool).is_none());
    assert_eq!(
        run(Variant::Pool, Some(N), Some(net)),
        run(Variant::Pool, None, None)
    );
}

/// Searches with the network through captures, multi-jumps and crownings: in a debug build (the
/// tests') every accumulator the search brings up to date is checked against one computed from
/// scratch, so any wrong incremental update fails here.
#[test]
fn network_search_keeps_exact_accumulators() {
    let net = Arc::new(Network::from_bytes(NETWORK).unwrap());
    for fen in [
        "B:W18,19,25,29,30:B1,4,8,10,11",
        "W:WK14,K22,25,30:BK1,6,9,10",
        "B:W19,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,8,7,6,5,12,10,15",
    ] {
        let mut e = Engine::new(EngineOptions {
            hash_mib: 4,
            threads: 1,
            level: None,
        });
        e.set_eval(Some(crown_ai::eval::EvalKind::Network));
        e.set_network(Some(net.clone()));
        let game = Game::from_position(Position::from_fen(Variant::American, fen).unwrap());
        let stop = AtomicBool::new(false);
        let r = e.search(&game, &Limits::depth(9), &stop, &mut |_| {});
        assert!(r.best_move.is_some(), "{fen}");
        assert!(r.nodes > 1_000, "{fen}: {} nodes", r.nodes);
    }
}

//! The cost of one network evaluation, in nanoseconds: from scratch, and incrementally (one move's
//! accumulator update plus the dense layers), over the positions of pseudo-random games, for each
//! kernel this processor runs, beside the trained table evaluation. Each figure is the fastest of
//! seven rounds (the machine's other load only ever slows a round down).
//!
//!     cargo run --release -p crown-ai --example network_cost -- NETWORK_FILE

use crown_ai::eval::network::{simd::Kernel, Accumulator, Network};
use crown_ai::eval::{evaluate_with, EvalKind};
use crown_core::{Game, Position};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: network_cost NETWORK_FILE");
    let bytes = std::fs::read(&path).expect("reading the network file");
    let base = Network::from_bytes(&bytes).expect("a network file");
    // Positions of 200 pseudo-random games, in order.
    let mut lines: Vec<Vec<Position>> = Vec::new();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..200 {
        let mut game = Game::new(base.variant);
        let mut line = vec![*game.position()];
        for _ in 0..120 {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            game.play(&moves[(seed % moves.len() as u64) as usize])
                .unwrap();
            line.push(*game.position());
        }
        lines.push(line);
    }
    let n: usize = lines.iter().map(|l| l.len() - 1).sum();
    println!(
        "{path}: l1 {} l2 {} buckets {}; {n} positions of 200 random games",
        base.l1(),
        base.l2(),
        base.buckets()
    );
    // The fastest of seven rounds of `f`, in ns per position, and its checksum.
    let time = |f: &dyn Fn() -> i64| {
        (0..7)
            .map(|_| {
                let t = Instant::now();
                let s = f();
                (t.elapsed().as_nanos() as f64 / n as f64, s)
            })
            .fold((f64::MAX, 0), |a, b| if b.0 < a.0 { b } else { a })
    };
    let (ns, s) = time(&|| {
        let mut s = 0i64;
        for line in &lines {
            for p in &line[1..] {
                s += i64::from(evaluate_with(black_box(p), EvalKind::Trained));
            }
        }
        s
    });
    println!("trained table evaluation: {ns:.0} ns/position ({s})");
    for kernel in [Some(Kernel::Scalar), Kernel::avx2()].into_iter().flatten() {
        let net = base.clone().with_kernel(kernel);
        let (scratch, s) = time(&|| {
            let mut s = 0i64;
            for line in &lines {
                for p in &line[1..] {
                    s += i64::from(net.evaluate(black_box(p)));
                }
            }
            s
        });
        let (inc, s2) = time(&|| {
            let mut s = 0i64;
            for line in &lines {
                let mut acc = Accumulator::new(&net, &line[0]);
                for w in line.windows(2) {
                    acc.update_positions(&net, &w[0], black_box(&w[1]));
                    s += i64::from(net.evaluate_with_accumulator(&acc, &w[1]));
                }
            }
            s
        });
        assert_eq!(s, s2, "incremental and from-scratch scores differ");
        println!("network, {kernel:?}: from scratch {scratch:.0} ns/position, incremental {inc:.0} ns/position");
    }
}

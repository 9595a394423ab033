//! The checks that a SIMD [`Kernel`] computes exactly what the scalar one does, shared by the
//! native tests (AVX2) and the wasm tests under Node (simd128, `apps/wasm/tests/network_kernel.rs`):
//! networks with pseudo-random weights evaluated along random games of every game. Built for the
//! tests and with the `kernel-check` feature only.

use super::simd::Kernel;
use super::{Accumulator, Network, NetworkParts, INPUTS};
use crown_core::{Game, Position, Variant};

/// A xorshift generator, so the tests are the same every run.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A number from `lo` to `hi`, both included.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }
}

/// A network with pseudo-random weights: first-layer rows of −60..60 around biases of −40..80 (so
/// that the clipped ReLU is partly on, partly clipped), full-range `i8` second-layer weights.
pub fn random_network(
    variant: Variant,
    l1: usize,
    l2: usize,
    buckets: usize,
    seed: u64,
) -> Network {
    let mut r = Rng(seed | 1);
    let l1_bias = (0..l1).map(|_| r.range(-40, 80) as i16).collect();
    let l1_weights = (0..INPUTS * l1).map(|_| r.range(-60, 60) as i16).collect();
    let buckets = (0..buckets)
        .map(|_| {
            (
                (0..l2).map(|_| r.range(-20_000, 20_000) as i32).collect(),
                (0..2 * l1 * l2).map(|_| r.range(-128, 127) as i8).collect(),
                r.range(-5_000, 5_000) as i32,
                (0..l2).map(|_| r.range(-300, 300) as i16).collect(),
            )
        })
        .collect();
    Network::from_parts(NetworkParts {
        variant,
        l1,
        l2,
        qa: 127,
        qb_log2: 6,
        qo: 64,
        out_cm: 100,
        l1_bias,
        l1_weights,
        buckets,
    })
    .expect("valid parts")
}

/// The positions of `games` random games of `variant` (at most 150 plies each), in order.
pub fn random_games(variant: Variant, games: usize, seed: u64) -> Vec<Vec<Position>> {
    let mut r = Rng(seed | 1);
    (0..games)
        .map(|_| {
            let mut game = Game::new(variant);
            let mut line = vec![*game.position()];
            for _ in 0..150 {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(r.next_u64() % moves.len() as u64) as usize];
                game.play(&mv).expect("a legal move");
                line.push(*game.position());
            }
            line
        })
        .collect()
}

/// Check that `kernel` gives the scalar kernel's accumulators and scores along every move of
/// random games of every game (over 3,000 positions, first-layer width 48 so that the row loops
/// have a tail), and the same integers at the edges of each hot loop: wrapping `i16` row sums,
/// the clipped ReLU at the ends of `i16` and of 0..`qa`, the dense layer in rows of four with a
/// remainder and with an input length off the vector width, and the dot product at its extremes.
/// Returns how many positions it compared; panics at the first difference, naming it.
pub fn assert_kernel_matches_scalar(kernel: Kernel) -> usize {
    let mut checked = 0;
    for variant in Variant::ALL {
        // A width that is not a multiple of 32 leaves the scalar tail of `add_row` some work.
        let base = random_network(variant, 48, 16, 4, 99);
        let scalar = base.clone().with_kernel(Kernel::Scalar);
        let simd_net = base.with_kernel(kernel);
        for line in random_games(variant, 30, 23) {
            let mut a = Accumulator::new(&scalar, &line[0]);
            let mut b = Accumulator::new(&simd_net, &line[0]);
            assert_eq!(a, b, "{kernel:?}: {variant:?} from scratch");
            for pair in line.windows(2) {
                a.update_positions(&scalar, &pair[0], &pair[1]);
                b.update_positions(&simd_net, &pair[0], &pair[1]);
                assert_eq!(a, b, "{kernel:?}: {variant:?} {}", pair[1].to_fen());
                assert_eq!(
                    scalar.evaluate_with_accumulator(&a, &pair[1]),
                    simd_net.evaluate_with_accumulator(&b, &pair[1]),
                    "{kernel:?}: {variant:?} {}",
                    pair[1].to_fen()
                );
                checked += 1;
            }
        }
    }
    // Wrapping on overflow is the same bits too.
    let mut a = [
        i16::MAX,
        i16::MIN,
        5,
        -5,
        0,
        1,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        9,
        10,
        11,
        30_000,
    ];
    let mut b = a;
    let row = [
        1,
        -1,
        7,
        -7,
        i16::MIN,
        i16::MAX,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        30_000,
    ];
    Kernel::Scalar.add_row(&mut a, &row, false);
    kernel.add_row(&mut b, &row, false);
    assert_eq!(a, b, "{kernel:?}: add_row");
    assert_eq!(a[0], i16::MIN, "wrapping add");
    Kernel::Scalar.add_row(&mut a, &row, true);
    kernel.add_row(&mut b, &row, true);
    assert_eq!(a, b, "{kernel:?}: add_row, subtracting");
    assert_eq!(a[0], i16::MAX, "wrapping subtraction");
    // The clipped ReLU at the edges of i16 and of 0..qa, over 32 lanes plus a tail.
    let acc: Vec<i16> = (0..40)
        .map(|i| {
            [i16::MIN, -1, 0, 1, 126, 127, 128, 255, 256, i16::MAX][i % 10]
                .saturating_add((i / 10) as i16)
        })
        .collect();
    for qa in [1, 64, 127] {
        let (mut x, mut y) = ([0u8; 40], [0u8; 40]);
        Kernel::Scalar.crelu(&acc, qa, &mut x);
        kernel.crelu(&acc, qa, &mut y);
        assert_eq!(x, y, "{kernel:?}: qa {qa}");
        assert!(x
            .iter()
            .zip(&acc)
            .all(|(&v, &a)| i16::from(v) == a.clamp(0, qa)));
    }
    // The dense layer: four rows at a time plus a remainder, and inputs that are not a multiple
    // of 32 (AVX2's per-row path) or of 16 (simd128's), against the scalar kernel.
    let mut r = Rng(77);
    for (n, rows) in [(64, 9), (256, 32), (48, 5), (32, 14), (40, 3)] {
        let input: Vec<u8> = (0..n).map(|_| r.range(0, 127) as u8).collect();
        let w: Vec<i8> = (0..n * rows).map(|_| r.range(-128, 127) as i8).collect();
        let (mut x, mut y) = (vec![0; rows], vec![0; rows]);
        Kernel::Scalar.dense(&input, &w, &mut x);
        kernel.dense(&input, &w, &mut y);
        assert_eq!(x, y, "{kernel:?}: {n} inputs, {rows} rows");
        assert_eq!(
            x[rows - 1],
            Kernel::Scalar.dot(&input, &w[(rows - 1) * n..])
        );
    }
    // The dot product at its extremes: 127 · −128 and 127 · 127 over 96 bytes plus a tail.
    let input = [127u8; 100];
    for (wv, expected) in [(-128i8, 100 * 127 * -128), (127, 100 * 127 * 127)] {
        let w = [wv; 100];
        assert_eq!(Kernel::Scalar.dot(&input, &w), expected);
        assert_eq!(kernel.dot(&input, &w), expected, "{kernel:?}: dot of {wv}");
    }
    checked
}

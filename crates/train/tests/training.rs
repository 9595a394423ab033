//! The training procedure on synthetic data with a known answer (moved from crown-ai's
//! `tests/trained_eval.rs` with the trainer).

use crown_ai::trained::Weights;
use crown_core::{Color, Position, Setup, SquareSet, Variant};
use crown_train::train::{train, Sample, TrainConfig};

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Pool positions with random material placed at random (men never on their own crowning row),
/// labelled with the expected score of a known evaluation: man 100, king 250 centi-men, k = 0.008.
/// Training must recover it: the trained evaluation predicts the labels of unseen positions, and a
/// king is worth 2.5 men to it.
#[test]
fn training_recovers_a_known_evaluation() {
    const KING: f64 = 250.0;
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    let truth = |men: [u32; 2], kings: [u32; 2], side: usize| {
        let v = |c: usize| {
            100.0 * f64::from(men[c].count_ones()) + KING * f64::from(kings[c].count_ones())
        };
        v(side) - v(1 - side)
    };
    let mut make = |count: usize| -> Vec<Sample> {
        let mut out = Vec::new();
        while out.len() < count {
            let (mut men, mut kings) = ([0u32; 2], [0u32; 2]);
            let mut occ = 0u32;
            for c in 0..2 {
                let n_men = next(7);
                let n_kings = next(3);
                for k in 0..n_men + n_kings {
                    // Black's men avoid row 7 (squares 29–32), White's row 0 (squares 1–4).
                    let sq = loop {
                        let s = next(32) as u32;
                        let crowning = if c == 0 { s >= 28 } else { s < 4 };
                        if occ & (1 << s) == 0 && (k >= n_men || !crowning) {
                            break s;
                        }
                    };
                    occ |= 1 << sq;
                    if k < n_men {
                        men[c] |= 1 << sq;
                    } else {
                        kings[c] |= 1 << sq;
                    }
                }
            }
            if (men[0] | kings[0]) == 0 || (men[1] | kings[1]) == 0 {
                continue;
            }
            let side = next(2) as usize;
            let setup = Setup {
                men: [SquareSet(men[0]), SquareSet(men[1])],
                kings: [SquareSet(kings[0]), SquareSet(kings[1])],
                side_to_move: Color::ALL[side],
            };
            let Ok(position) = Position::from_setup(Variant::Pool, &setup) else {
                continue;
            };
            if position.must_capture() {
                continue;
            }
            let result = sigmoid(0.008 * truth(men, kings, side)) as f32;
            out.push(Sample {
                position,
                result,
                score: 0,
                game: out.len() as u32,
                exact: false,
            });
        }
        out
    };
    let data = make(6000);
    let cfg = TrainConfig {
        epochs: 30,
        lambda: 1.0,
        l2: 0.0,
        ..TrainConfig::default()
    };
    let (weights, report) = train(Variant::Pool, &data, &cfg, &mut |_, _, _| {});
    assert!(report.final_valid_loss < report.classic_valid_loss);
    // Unseen positions: the trained evaluation's expected score matches the known one.
    let test = make(300);
    let bytes = weights.to_bytes();
    let w = Weights::from_bytes(&bytes).unwrap();
    let mut worst = 0.0f64;
    for s in &test {
        let e = w.evaluate_position(&s.position);
        let p = sigmoid(report.k * f64::from(e));
        worst = worst.max((p - f64::from(s.result)).abs());
    }
    assert!(worst < 0.1, "largest error in expected score {worst}");
    // A king for a man: the difference is (250 − 100) known centi-men, in the trained scale.
    let a = Position::from_fen(Variant::Pool, "B:W27,28:B5,14").unwrap();
    let b = Position::from_fen(Variant::Pool, "B:W27,28:B5,K14").unwrap();
    let c = Position::from_fen(Variant::Pool, "B:W27,28:B5").unwrap();
    let man = f64::from(w.evaluate_position(&a) - w.evaluate_position(&c));
    let king = f64::from(w.evaluate_position(&b) - w.evaluate_position(&c));
    let ratio = king / man;
    assert!(
        (ratio - KING / 100.0).abs() < 0.4,
        "king / man = {king} / {man} = {ratio:.2}, expected 2.5"
    );
    // A database label is the whole target: marked exact, with a search score saying the
    // opposite, the samples train at λ = 0 to exactly the weights their results give at λ = 1.
    let quick = TrainConfig { epochs: 2, ..cfg };
    let plain = &data[..1500];
    let exact: Vec<Sample> = plain
        .iter()
        .map(|s| Sample {
            score: -2000,
            exact: true,
            ..*s
        })
        .collect();
    let by_result = train(Variant::Pool, plain, &quick, &mut |_, _, _| {}).0;
    let zero_lambda = TrainConfig {
        lambda: 0.0,
        ..quick
    };
    let by_label = train(Variant::Pool, &exact, &zero_lambda, &mut |_, _, _| {}).0;
    assert!(
        by_result == by_label,
        "exact labels were mixed with the search score"
    );
}

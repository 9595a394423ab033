//! Training the trained evaluation ([`crate::trained`]) from labelled positions by logistic
//! regression, deterministically (`crown tune fit` drives it; docs/engine.md explains the method).
//!
//! 1. The scale `k` of the expected score `sigmoid(k × eval)` (eval in centi-men) is fitted first,
//!    on the classic evaluation against the game results (Texel's method).
//! 2. Each position's target is `λ × result + (1 − λ) × sigmoid(k × search score)`, or its
//!    exact result alone when an endgame database gave it ([`Sample::exact`]).
//! 3. The weights, started from material values, minimise the mean cross-entropy of
//!    `sigmoid(k × eval)` against the target plus `l2 × Σ (w − w₀)²`, by Adam over shuffled
//!    mini-batches with a linearly decaying learning rate. One game in ten (chosen by a hash of the
//!    game number and the seed) is held out for the validation loss.

use crate::board::Board;
use crate::trained::{features, phase, Oriented, Weights, FEATURES, SCALE};
use crown_core::{Position, Variant};

/// One labelled training position.
#[derive(Copy, Clone, Debug)]
pub struct Sample {
    /// The position (quiet: the side to move has no capture).
    pub position: Position,
    /// The game's result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub result: f32,
    /// The self-play search score of the position for the side to move, in centi-men (wins and
    /// losses clipped to ±2000).
    pub score: i32,
    /// Number of the game the position comes from (for the validation split).
    pub game: u32,
    /// Whether `result` is the position's perfect-play value from an endgame database (then it
    /// is the whole target; otherwise the game result, mixed with the search score by λ).
    pub exact: bool,
}

/// Training settings.
#[derive(Copy, Clone, Debug)]
pub struct TrainConfig {
    /// Passes over the training positions.
    pub epochs: u32,
    /// Adam's initial step in centi-men (decays linearly to a tenth).
    pub lr: f64,
    /// L2 regularisation toward the initial weights, per centi-man².
    pub l2: f64,
    /// Positions per mini-batch.
    pub batch: usize,
    /// Weight of the game result in the target (the rest is the search score).
    pub lambda: f64,
    /// Seed of the validation split and the shuffles.
    pub seed: u64,
    /// The scale `k` of `sigmoid(k × eval)`, eval in centi-men; `None` fits it (step 1). Fixing it
    /// keeps new weights in the units of earlier ones (a man near 100) when the labels change.
    pub k: Option<f64>,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            epochs: 15,
            lr: 1.0,
            l2: 0.0,
            batch: 1024,
            lambda: 0.7,
            seed: 1,
            k: None,
        }
    }
}

/// What training measured.
#[derive(Clone, Debug, Default)]
pub struct TrainReport {
    /// Fitted scale of `sigmoid(k × centi-men)`.
    pub k: f64,
    /// Training / validation positions.
    pub train_positions: usize,
    /// Validation positions.
    pub valid_positions: usize,
    /// Validation loss (mean cross-entropy against the targets) of the classic evaluation.
    pub classic_valid_loss: f64,
    /// Validation loss of the starting (material-only) weights.
    pub initial_valid_loss: f64,
    /// Training and validation loss after each epoch (of the quantised weights at the end).
    pub epochs: Vec<(f64, f64)>,
    /// Validation loss of the final quantised weights.
    pub final_valid_loss: f64,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean cross-entropy of predictions `sigmoid(k × e)` against targets `t`.
fn cross_entropy(pairs: impl Iterator<Item = (f64, f64)>, k: f64) -> f64 {
    let (mut s, mut n) = (0.0, 0usize);
    for (e, t) in pairs {
        let p = sigmoid(k * e).clamp(1e-9, 1.0 - 1e-9);
        s -= t * p.ln() + (1.0 - t) * (1.0 - p).ln();
        n += 1;
    }
    if n == 0 {
        0.0
    } else {
        s / n as f64
    }
}

/// The `k` minimising the cross-entropy of `sigmoid(k × eval)` against `target` over `pairs` of
/// (eval in centi-men, target), by golden-section search on `[1e-4, 0.05]`.
pub fn fit_k(pairs: &[(f64, f64)]) -> f64 {
    let loss = |k: f64| cross_entropy(pairs.iter().copied(), k);
    let (mut a, mut b) = (1e-4f64, 0.05f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if loss(c) < loss(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Starting weights: material only (checkers: man 100 and king `king` centi-men; Impasse: −100 per
/// own checker, a double being two), as in the classic evaluation.
pub fn initial_weights(variant: Variant) -> Vec<[f64; 2]> {
    let (man, king) = match variant {
        Variant::American => (100.0, f64::from(crate::eval::AM_KING)),
        Variant::Pool => (100.0, f64::from(crate::eval::POOL_KING)),
        Variant::Impasse => (-100.0, -200.0),
    };
    let mut w = vec![[0.0; 2]; FEATURES];
    for s in 0..32 {
        w[s] = [man; 2];
        w[32 + s] = [king; 2];
        w[64 + s] = [-man; 2];
        w[96 + s] = [-king; 2];
    }
    w
}

/// Positions turned into sparse feature rows.
struct Rows {
    off: Vec<u32>,
    idx: Vec<u32>,
    val: Vec<f32>,
    /// Opening blend factor in [0, 1].
    open: Vec<f32>,
    target: Vec<f32>,
}

impl Rows {
    fn new() -> Rows {
        Rows {
            off: vec![0],
            idx: Vec::new(),
            val: Vec::new(),
            open: Vec::new(),
            target: Vec::new(),
        }
    }

    fn push(&mut self, pos: &Position, target: f64) {
        let o = Oriented::of(&Board::of(pos));
        features(&o, pos.variant(), &mut |i, v| {
            if v != 0 {
                self.idx.push(i as u32);
                self.val.push(v as f32);
            }
        });
        self.off.push(self.idx.len() as u32);
        self.open.push(phase(&o) as f32 / 24.0);
        self.target.push(target as f32);
    }

    fn len(&self) -> usize {
        self.target.len()
    }

    fn eval(&self, r: usize, w: &[[f64; 2]]) -> f64 {
        let (a, b) = (self.off[r] as usize, self.off[r + 1] as usize);
        let (mut o, mut e) = (0.0, 0.0);
        for j in a..b {
            let x = f64::from(self.val[j]);
            let p = w[self.idx[j] as usize];
            o += p[0] * x;
            e += p[1] * x;
        }
        let f = f64::from(self.open[r]);
        o * f + e * (1.0 - f)
    }

    fn loss(&self, w: &[[f64; 2]], k: f64) -> f64 {
        cross_entropy(
            (0..self.len()).map(|r| (self.eval(r, w), f64::from(self.target[r]))),
            k,
        )
    }
}

/// Whether game `game` is held out for validation (one in ten, by a hash with `seed`).
pub fn is_validation(game: u32, seed: u64) -> bool {
    crown_core::rng::Rng::stream(seed, u64::from(game)).next_u64() % 10 == 0
}

/// Quantise float weights to the stored form (1/[`SCALE`] centi-men, saturating).
pub fn quantise(variant: Variant, w: &[[f64; 2]]) -> Weights {
    let q = |x: f64| (x * f64::from(SCALE)).round().clamp(-32767.0, 32767.0) as i16;
    Weights {
        variant,
        w: w.iter().map(|p| [q(p[0]), q(p[1])]).collect(),
    }
}

/// Train weights for `variant` on `samples` (all of that game). `classic` gives the classic
/// evaluation of each sample (for fitting `k`); `on_epoch` is called after each epoch with its
/// number and the training and validation losses.
pub fn train(
    variant: Variant,
    samples: &[Sample],
    cfg: &TrainConfig,
    on_epoch: &mut dyn FnMut(u32, f64, f64),
) -> (Weights, TrainReport) {
    let mut report = TrainReport::default();
    // 1. k from the classic evaluation against the results.
    let classic: Vec<(f64, f64)> = samples
        .iter()
        .map(|s| {
            (
                f64::from(crate::eval::evaluate_with(
                    &s.position,
                    crate::eval::EvalKind::Classic,
                )),
                f64::from(s.result),
            )
        })
        .collect();
    let k = cfg.k.unwrap_or_else(|| fit_k(&classic));
    report.k = k;
    // 2. Targets and rows.
    let (mut tr, mut va) = (Rows::new(), Rows::new());
    let mut classic_valid = Vec::new();
    for (s, c) in samples.iter().zip(&classic) {
        let t = if s.exact {
            f64::from(s.result)
        } else {
            cfg.lambda * f64::from(s.result)
                + (1.0 - cfg.lambda) * sigmoid(k * f64::from(s.score.clamp(-2000, 2000)))
        };
        if is_validation(s.game, cfg.seed) {
            va.push(&s.position, t);
            classic_valid.push((c.0, t));
        } else {
            tr.push(&s.position, t);
        }
    }
    report.train_positions = tr.len();
    report.valid_positions = va.len();
    report.classic_valid_loss = cross_entropy(classic_valid.into_iter(), k);
    // 3. Adam.
    let w0 = initial_weights(variant);
    let mut w = w0.clone();
    report.initial_valid_loss = va.loss(&w, k);
    let n = w.len();
    let (mut m, mut v) = (vec![[0.0f64; 2]; n], vec![[0.0f64; 2]; n]);
    let mut grad = vec![[0.0f64; 2]; n];
    let mut touched: Vec<u32> = Vec::new();
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut order: Vec<u32> = (0..tr.len() as u32).collect();
    let mut rng = crown_core::rng::Rng::new(cfg.seed);
    let batch = cfg.batch.max(1);
    let steps_total = (u64::from(cfg.epochs) * tr.len().div_ceil(batch) as u64).max(1);
    let mut step = 0u64;
    for epoch in 0..cfg.epochs {
        rng.shuffle(&mut order);
        for chunk in order.chunks(batch) {
            for &r in chunk {
                let r = r as usize;
                let e = tr.eval(r, &w);
                let g = (sigmoid(k * e) - f64::from(tr.target[r])) * k / chunk.len() as f64;
                let f = f64::from(tr.open[r]);
                for j in tr.off[r] as usize..tr.off[r + 1] as usize {
                    let i = tr.idx[j] as usize;
                    let x = f64::from(tr.val[j]) * g;
                    if grad[i] == [0.0, 0.0] {
                        touched.push(i as u32);
                    }
                    grad[i][0] += x * f;
                    grad[i][1] += x * (1.0 - f);
                }
            }
            step += 1;
            let lr = cfg.lr * (1.0 - 0.9 * step as f64 / steps_total as f64);
            let c1 = 1.0 - b1.powi(step.min(10_000) as i32);
            let c2 = 1.0 - b2.powi(step.min(100_000) as i32);
            // Only features seen in the batch move (sparse Adam); L2 pulls them toward w₀.
            for &i in &touched {
                let i = i as usize;
                for p in 0..2 {
                    let gi = grad[i][p] + 2.0 * cfg.l2 * (w[i][p] - w0[i][p]);
                    m[i][p] = b1 * m[i][p] + (1.0 - b1) * gi;
                    v[i][p] = b2 * v[i][p] + (1.0 - b2) * gi * gi;
                    w[i][p] -= lr * (m[i][p] / c1) / ((v[i][p] / c2).sqrt() + eps);
                }
                grad[i] = [0.0, 0.0];
            }
            touched.clear();
        }
        let (lt, lv) = (tr.loss(&w, k), va.loss(&w, k));
        report.epochs.push((lt, lv));
        on_epoch(epoch + 1, lt, lv);
    }
    let q = quantise(variant, &w);
    let back: Vec<[f64; 2]> =
        q.w.iter()
            .map(|p| {
                [
                    f64::from(p[0]) / f64::from(SCALE),
                    f64::from(p[1]) / f64::from(SCALE),
                ]
            })
            .collect();
    report.final_valid_loss = va.loss(&back, k);
    (q, report)
}

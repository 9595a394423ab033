//! Training the trained evaluation ([`crown_ai::trained`]) from labelled positions by logistic
//! regression, deterministically (`crown tune fit` drives it; docs/engine.md explains the method).
//!
//! 1. The scale `k` of the expected score `sigmoid(k × eval)` (eval in centi-men) is fitted first,
//!    on the classic evaluation against the game results (Texel's method).
//! 2. Each position's target is `λ × result + (1 − λ) × sigmoid(k × search score)`, or its
//!    exact result alone when an endgame database gave it ([`Sample::exact`]).
//! 3. The weights, started from material values (and material scales at 1), minimise the mean
//!    cross-entropy of `sigmoid(k × eval)` against the target plus `l2 × Σ (w − w₀)²`, by Adam over
//!    shuffled mini-batches with a linearly decaying learning rate. One game in ten (chosen by a
//!    hash of the game number and the seed) is held out for the validation loss.
//!
//! The sparse feature rows of every position are computed once, before the first epoch (about
//! 350 bytes per position with every part on: 5 M positions take about 2 GiB). With
//! [`TrainConfig::threads`] above 1 the rows are built, each mini-batch's evaluations computed and
//! the losses summed by that many threads; the gradient is accumulated in row order and the losses
//! summed in fixed blocks, so the result does not depend on the number of threads.

use crown_ai::trained::{
    features, phase, scale_index, FeatureSet, Oriented, Weights, FEATURES, SCALE, SCALE_ENTRIES,
    SCALE_MAX, SCALE_ONE,
};
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
    /// The optional parts of the evaluation to train ([`FeatureSet`]; the others stay off).
    pub features: FeatureSet,
    /// Worker threads (at least 1; the result does not depend on it).
    pub threads: usize,
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
            features: FeatureSet::ALL,
            threads: 1,
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
    /// Seconds spent building the feature rows (before the first epoch).
    pub rows_seconds: f64,
    /// Seconds of each epoch (the pass over the training rows and both losses).
    pub epoch_seconds: Vec<f64>,
    /// Bytes held by the feature rows of the training and validation positions.
    pub rows_bytes: usize,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean cross-entropy of predictions `sigmoid(k × e)` against targets `t`.
fn cross_entropy(pairs: impl Iterator<Item = (f64, f64)>, k: f64) -> f64 {
    let (mut s, mut n) = (0.0, 0usize);
    for (e, t) in pairs {
        s += cross_entropy_one(e, t, k);
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
        Variant::American => (100.0, f64::from(crown_ai::eval::AM_KING)),
        Variant::Pool => (100.0, f64::from(crown_ai::eval::POOL_KING)),
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

/// Positions per block of feature rows: rows are built, and losses summed, block by block.
const ROW_BLOCK: usize = 1 << 16;

/// A material scale of 1 in the trainer's units (the scale is trained in hundredths, so that
/// Adam's step, in centi-men for the weights, is a hundredth of it).
const SCALE_UNIT: f64 = 100.0;

/// The float parameters being trained: the weights in centi-men and the material scales in
/// hundredths.
#[derive(Clone)]
struct Params {
    w: Vec<[f64; 2]>,
    scale: Vec<f64>,
}

/// The sparse feature rows of up to [`ROW_BLOCK`] positions: features of value 1 (most of them)
/// as indices only, the others as index and value.
#[derive(Default)]
struct RowBlock {
    unit_off: Vec<u32>,
    unit: Vec<u32>,
    val_off: Vec<u32>,
    val_idx: Vec<u32>,
    val: Vec<i16>,
    /// Opening blend factor in [0, 1].
    open: Vec<f32>,
    target: Vec<f32>,
    /// Material scale entry.
    sig: Vec<u16>,
}

impl RowBlock {
    fn build(items: &[(&Position, f32)], set: FeatureSet) -> RowBlock {
        let mut b = RowBlock {
            unit_off: vec![0],
            val_off: vec![0],
            ..RowBlock::default()
        };
        for &(pos, target) in items {
            let o = Oriented::of_position(pos);
            features(&o, pos.variant(), set, &mut |i, v| {
                if v == 1 {
                    b.unit.push(i as u32);
                } else if v != 0 {
                    b.val_idx.push(i as u32);
                    b.val.push(v.clamp(-32767, 32767) as i16);
                }
            });
            b.unit_off.push(b.unit.len() as u32);
            b.val_off.push(b.val.len() as u32);
            b.open.push(phase(&o) as f32 / 24.0);
            b.target.push(target);
            b.sig.push(scale_index(&o) as u16);
        }
        b
    }

    fn bytes(&self) -> usize {
        4 * (self.unit_off.len() + self.unit.len() + self.val_off.len() + self.val_idx.len())
            + 2 * self.val.len()
            + 4 * (self.open.len() + self.target.len())
            + 2 * self.sig.len()
    }

    /// The linear score of row `r` (centi-men, before the material scale) and the scale factor.
    #[inline]
    fn eval(&self, r: usize, p: &Params, set: FeatureSet) -> (f64, f64) {
        let (mut o, mut e) = (0.0, 0.0);
        for &i in &self.unit[self.unit_off[r] as usize..self.unit_off[r + 1] as usize] {
            let q = p.w[i as usize];
            o += q[0];
            e += q[1];
        }
        for j in self.val_off[r] as usize..self.val_off[r + 1] as usize {
            let x = f64::from(self.val[j]);
            let q = p.w[self.val_idx[j] as usize];
            o += q[0] * x;
            e += q[1] * x;
        }
        let f = f64::from(self.open[r]);
        let lin = o * f + e * (1.0 - f);
        let sf = if set.scale {
            p.scale[self.sig[r] as usize] / SCALE_UNIT
        } else {
            1.0
        };
        (lin, sf)
    }
}

/// Feature rows of many positions, in blocks of [`ROW_BLOCK`].
struct Rows {
    blocks: Vec<RowBlock>,
    len: usize,
    set: FeatureSet,
}

impl Rows {
    fn build(items: &[(&Position, f32)], set: FeatureSet, threads: usize) -> Rows {
        let chunks: Vec<&[(&Position, f32)]> = items.chunks(ROW_BLOCK).collect();
        let blocks = par_map(chunks.len(), threads, |i| RowBlock::build(chunks[i], set));
        Rows {
            blocks,
            len: items.len(),
            set,
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn bytes(&self) -> usize {
        self.blocks.iter().map(RowBlock::bytes).sum()
    }

    #[inline]
    fn at(&self, r: usize) -> (&RowBlock, usize) {
        (&self.blocks[r / ROW_BLOCK], r % ROW_BLOCK)
    }

    /// Mean cross-entropy of the rows under `p`, summed block by block in order.
    fn loss(&self, p: &Params, k: f64, threads: usize) -> f64 {
        if self.len == 0 {
            return 0.0;
        }
        let sums = par_map(self.blocks.len(), threads, |i| {
            let b = &self.blocks[i];
            let mut s = 0.0;
            for r in 0..b.target.len() {
                let (lin, sf) = b.eval(r, p, self.set);
                s += cross_entropy_one(lin * sf, f64::from(b.target[r]), k);
            }
            s
        });
        sums.iter().sum::<f64>() / self.len as f64
    }
}

/// `f(0), …, f(n − 1)` in order, computed by up to `threads` threads (on the caller's thread
/// alone when `threads` is 1, as on wasm32, which has none).
fn par_map<T: Send>(n: usize, threads: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    if threads <= 1 || n <= 1 {
        return (0..n).map(f).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut out: Vec<(usize, T)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(n))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= n {
                            return mine;
                        }
                        mine.push((i, f(i)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|h| h.join().expect("a training thread panicked"))
            .collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, t)| t).collect()
}

fn cross_entropy_one(e: f64, t: f64, k: f64) -> f64 {
    let p = sigmoid(k * e).clamp(1e-9, 1.0 - 1e-9);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The training target of `s`: its exact result when a database gave it, else
/// `λ × result + (1 − λ) × sigmoid(k × search score)`.
pub fn target(s: &Sample, k: f64, lambda: f64) -> f64 {
    if s.exact {
        f64::from(s.result)
    } else {
        lambda * f64::from(s.result)
            + (1.0 - lambda) * sigmoid(k * f64::from(s.score.clamp(-2000, 2000)))
    }
}

/// Mean cross-entropy of `sigmoid(k × eval)` against the targets ([`target`]) of `samples`, with
/// the engine's own (integer) evaluation by `weights` (`None`: the classic evaluation), computed
/// by up to `threads` threads (the result does not depend on it).
pub fn loss(
    weights: Option<&Weights>,
    samples: &[Sample],
    k: f64,
    lambda: f64,
    threads: usize,
) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sums = par_map(samples.len().div_ceil(ROW_BLOCK), threads, |b| {
        samples[b * ROW_BLOCK..samples.len().min((b + 1) * ROW_BLOCK)]
            .iter()
            .map(|s| {
                let e = match weights {
                    Some(w) => w.evaluate_position(&s.position),
                    None => crown_ai::eval::evaluate_with(
                        &s.position,
                        crown_ai::eval::EvalKind::Classic,
                    ),
                };
                cross_entropy_one(f64::from(e), target(s, k, lambda), k)
            })
            .sum::<f64>()
    });
    sums.iter().sum::<f64>() / samples.len() as f64
}

/// Whether game `game` is held out for validation (one in ten, by a hash with `seed`).
pub fn is_validation(game: u32, seed: u64) -> bool {
    crown_core::rng::Rng::stream(seed, u64::from(game)).next_u64() % 10 == 0
}

/// Quantise float weights (centi-men) and material scales (1 = no scaling) to the stored form
/// (1/[`SCALE`] centi-men and 1/[`SCALE_ONE`], saturating) with the parts of `set`; `scale` is
/// ignored without [`FeatureSet::scale`].
pub fn quantise(variant: Variant, set: FeatureSet, w: &[[f64; 2]], scale: &[f64]) -> Weights {
    let q = |x: f64| (x * f64::from(SCALE)).round().clamp(-32767.0, 32767.0) as i16;
    let mut out = Weights::zero_with(variant, set);
    for (o, p) in out.w.iter_mut().zip(w) {
        *o = [q(p[0]), q(p[1])];
    }
    if !set.blocks {
        for o in &mut out.w[crown_ai::trained::BLOCK_BASE..] {
            *o = [0, 0];
        }
    }
    if set.scale {
        for (o, &k) in out.scale.iter_mut().zip(scale) {
            *o = (k * f64::from(SCALE_ONE))
                .round()
                .clamp(0.0, f64::from(SCALE_MAX)) as i16;
        }
    }
    out
}

/// Train weights for `variant` on `samples` (all of that game) with the parts
/// [`TrainConfig::features`]. `on_epoch` is called after each epoch with its number and the
/// training and validation losses.
pub fn train(
    variant: Variant,
    samples: &[Sample],
    cfg: &TrainConfig,
    on_epoch: &mut dyn FnMut(u32, f64, f64),
) -> (Weights, TrainReport) {
    let mut report = TrainReport::default();
    let threads = cfg.threads.max(1);
    let set = cfg.features;
    // 1. k from the classic evaluation against the results.
    let classic: Vec<f64> = par_map(samples.len().div_ceil(ROW_BLOCK), threads, |b| {
        samples[b * ROW_BLOCK..samples.len().min((b + 1) * ROW_BLOCK)]
            .iter()
            .map(|s| {
                f64::from(crown_ai::eval::evaluate_with(
                    &s.position,
                    crown_ai::eval::EvalKind::Classic,
                ))
            })
            .collect::<Vec<f64>>()
    })
    .concat();
    let k = cfg.k.unwrap_or_else(|| {
        let pairs: Vec<(f64, f64)> = classic
            .iter()
            .zip(samples)
            .map(|(&c, s)| (c, f64::from(s.result)))
            .collect();
        fit_k(&pairs)
    });
    report.k = k;
    // 2. Targets and rows.
    let t_rows = web_time::Instant::now();
    let (mut tr_items, mut va_items) = (Vec::new(), Vec::new());
    let mut classic_valid = Vec::new();
    for (s, &c) in samples.iter().zip(&classic) {
        let t = target(s, k, cfg.lambda);
        if is_validation(s.game, cfg.seed) {
            va_items.push((&s.position, t as f32));
            classic_valid.push((c, t));
        } else {
            tr_items.push((&s.position, t as f32));
        }
    }
    drop(classic);
    let tr = Rows::build(&tr_items, set, threads);
    let va = Rows::build(&va_items, set, threads);
    drop((tr_items, va_items));
    report.rows_seconds = t_rows.elapsed().as_secs_f64();
    report.rows_bytes = tr.bytes() + va.bytes();
    report.train_positions = tr.len();
    report.valid_positions = va.len();
    report.classic_valid_loss = cross_entropy(classic_valid.into_iter(), k);
    // 3. Adam.
    let p0 = Params {
        w: initial_weights(variant),
        scale: vec![SCALE_UNIT; SCALE_ENTRIES],
    };
    let mut p = p0.clone();
    report.initial_valid_loss = va.loss(&p, k, threads);
    let n = p.w.len();
    let (mut m, mut v) = (vec![[0.0f64; 2]; n], vec![[0.0f64; 2]; n]);
    let mut grad = vec![[0.0f64; 2]; n];
    let mut touched: Vec<u32> = Vec::new();
    let (mut ms, mut vs) = (vec![0.0f64; SCALE_ENTRIES], vec![0.0f64; SCALE_ENTRIES]);
    let mut grad_s = vec![0.0f64; SCALE_ENTRIES];
    let mut touched_s: Vec<u32> = Vec::new();
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut order: Vec<u32> = (0..tr.len() as u32).collect();
    let mut rng = crown_core::rng::Rng::new(cfg.seed);
    let batch = cfg.batch.max(1);
    let steps_total = (u64::from(cfg.epochs) * tr.len().div_ceil(batch) as u64).max(1);
    let mut step = 0u64;
    let mut evals: Vec<(f64, f64)> = Vec::with_capacity(batch);
    for epoch in 0..cfg.epochs {
        let t_epoch = web_time::Instant::now();
        rng.shuffle(&mut order);
        for chunk in order.chunks(batch) {
            // The batch's scores under the current parameters (in parallel), ...
            evals.clear();
            let per = chunk.len().div_ceil(threads);
            let parts = par_map(chunk.len().div_ceil(per), threads, |t| {
                chunk[t * per..chunk.len().min((t + 1) * per)]
                    .iter()
                    .map(|&r| {
                        let (b, i) = tr.at(r as usize);
                        b.eval(i, &p, set)
                    })
                    .collect::<Vec<_>>()
            });
            evals.extend(parts.into_iter().flatten());
            // ... then the gradient, row by row in batch order.
            for (&r, &(lin, sf)) in chunk.iter().zip(&evals) {
                let (b, i) = tr.at(r as usize);
                let g = (sigmoid(k * lin * sf) - f64::from(b.target[i])) * k / chunk.len() as f64;
                let f = f64::from(b.open[i]);
                let gw = g * sf;
                let mut add = |idx: u32, x: f64| {
                    let gi = &mut grad[idx as usize];
                    if *gi == [0.0, 0.0] {
                        touched.push(idx);
                    }
                    gi[0] += x * f;
                    gi[1] += x * (1.0 - f);
                };
                for &idx in &b.unit[b.unit_off[i] as usize..b.unit_off[i + 1] as usize] {
                    add(idx, gw);
                }
                for j in b.val_off[i] as usize..b.val_off[i + 1] as usize {
                    add(b.val_idx[j], gw * f64::from(b.val[j]));
                }
                if set.scale {
                    let s = b.sig[i] as usize;
                    if grad_s[s] == 0.0 {
                        touched_s.push(s as u32);
                    }
                    grad_s[s] += g * lin / SCALE_UNIT;
                }
            }
            step += 1;
            let lr = cfg.lr * (1.0 - 0.9 * step as f64 / steps_total as f64);
            let c1 = 1.0 - b1.powi(step.min(10_000) as i32);
            let c2 = 1.0 - b2.powi(step.min(100_000) as i32);
            let adam = |gi: f64, m: &mut f64, v: &mut f64| {
                *m = b1 * *m + (1.0 - b1) * gi;
                *v = b2 * *v + (1.0 - b2) * gi * gi;
                lr * (*m / c1) / ((*v / c2).sqrt() + eps)
            };
            // Only parameters seen in the batch move (sparse Adam); L2 pulls them toward the start.
            for &i in &touched {
                let i = i as usize;
                for q in 0..2 {
                    let gi = grad[i][q] + 2.0 * cfg.l2 * (p.w[i][q] - p0.w[i][q]);
                    p.w[i][q] -= adam(gi, &mut m[i][q], &mut v[i][q]);
                }
                grad[i] = [0.0, 0.0];
            }
            touched.clear();
            for &s in &touched_s {
                let s = s as usize;
                let gi = grad_s[s] + 2.0 * cfg.l2 * (p.scale[s] - p0.scale[s]);
                p.scale[s] -= adam(gi, &mut ms[s], &mut vs[s]);
                p.scale[s] = p.scale[s].clamp(
                    0.0,
                    SCALE_UNIT * f64::from(SCALE_MAX) / f64::from(SCALE_ONE),
                );
                grad_s[s] = 0.0;
            }
            touched_s.clear();
        }
        let (lt, lv) = (tr.loss(&p, k, threads), va.loss(&p, k, threads));
        report.epochs.push((lt, lv));
        report.epoch_seconds.push(t_epoch.elapsed().as_secs_f64());
        on_epoch(epoch + 1, lt, lv);
    }
    let scales: Vec<f64> = p.scale.iter().map(|s| s / SCALE_UNIT).collect();
    let q = quantise(variant, set, &p.w, &scales);
    let back = Params {
        w: q.w
            .iter()
            .map(|x| {
                [
                    f64::from(x[0]) / f64::from(SCALE),
                    f64::from(x[1]) / f64::from(SCALE),
                ]
            })
            .collect(),
        scale: if set.scale {
            q.scale
                .iter()
                .map(|&x| f64::from(x) * SCALE_UNIT / f64::from(SCALE_ONE))
                .collect()
        } else {
            vec![SCALE_UNIT; SCALE_ENTRIES]
        },
    };
    report.final_valid_loss = va.loss(&back, k, threads);
    (q, report)
}

//! The sequential probability ratio test on game pairs (pentanomial statistics), as fishtest runs it.
//!
//! Each opening is played twice with colours swapped; a pair scores 0, ½, 1, 1½ or 2 points for
//! engine A, and the five counts (LL, LD+DL, LW+DD+WL, DW+WD, WW) are the *pentanomial*. The test is
//! the generalised SPRT of fishtest (`server/fishtest/stats/LLRcalc.py`, function `LLR_logistic`,
//! by Michel Van den Bergh): the log-likelihood ratio of "A's expected score is L(elo1)" against
//! "L(elo0)", where `L(e) = 1 / (1 + 10^(-e/400))` is the logistic Elo curve, with each hypothesis'
//! pair distribution the maximum-likelihood one with that expectation (found by solving the secular
//! equation). The test stops when the LLR leaves `[ln(β/(1−α)), ln((1−β)/α)]`.

use crate::elo::{elo_of_score, logistic};

/// The pentanomial counts of a match, from engine A's point of view: index `i` counts the game pairs
/// in which A scored `i/2` points (0 = two losses, 4 = two wins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Record one game pair: A's points in its two games, each 0 (loss), 1 (draw) or 2 (win), in
    /// half points. Values above 2 are clamped to a win.
    pub fn add_pair(&mut self, first: u8, second: u8) {
        let i = usize::from(first.min(2) + second.min(2));
        self.0[i] += 1;
    }

    /// Number of game pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }
}

/// The pair distribution: values `i/4` (A's score per game in the pair) with their observed
/// frequencies; empty cells get the count 0.001 as fishtest's `regularize` does, so that the
/// maximum-likelihood problems stay well posed. Returns (pairs, [(value, probability)]).
fn pdf(counts: &Pentanomial) -> (f64, [(f64, f64); 5]) {
    let reg: Vec<f64> = counts
        .0
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let n: f64 = reg.iter().sum();
    let mut out = [(0.0, 0.0); 5];
    for (i, o) in out.iter_mut().enumerate() {
        *o = (i as f64 / 4.0, reg[i] / n);
    }
    (n, out)
}

/// Mean and variance of a distribution given as (value, probability) pairs.
fn stats(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mean: f64 = pdf.iter().map(|(v, p)| p * v).sum();
    let var: f64 = pdf.iter().map(|(v, p)| p * (v - mean).powi(2)).sum();
    (mean, var)
}

/// The maximum-likelihood distribution on the same values as `pdf` whose expectation is `s`
/// (fishtest's `MLE_expected`): `p_i / (1 + x (a_i − s))` where `x` solves the secular equation
/// `Σ p_i (a_i − s) / (1 + x (a_i − s)) = 0`. The left side decreases in `x` on the interval where all
/// denominators are positive, so bisection finds the root. Needs `min a < s < max a`.
fn mle_expected(pdf: &[(f64, f64); 5], s: f64) -> [f64; 5] {
    let f = |x: f64| -> f64 {
        pdf.iter()
            .map(|(a, p)| p * (a - s) / (1.0 + x * (a - s)))
            .sum()
    };
    let (lo_a, hi_a) = (pdf[0].0 - s, pdf[4].0 - s);
    // Denominators positive: -1/hi_a < x < -1/lo_a.
    let eps = 1e-9;
    let (mut lo, mut hi) = (-1.0 / hi_a + eps, -1.0 / lo_a - eps);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    let mut out = [0.0; 5];
    for (o, (a, p)) in out.iter_mut().zip(pdf.iter()) {
        *o = p / (1.0 + x * (a - s));
    }
    out
}

/// The generalised log-likelihood ratio of H1 (A is `elo1` logistic Elo stronger than B) against H0
/// (`elo0`), for the pair counts `counts` (fishtest `LLR_logistic` on a pentanomial). Positive values
/// favour H1. 0 when no pair was played.
pub fn llr_logistic(elo0: f64, elo1: f64, counts: &Pentanomial) -> f64 {
    if counts.pairs() == 0 {
        return 0.0;
    }
    let (n, pdf) = pdf(counts);
    let (s0, s1) = (logistic(elo0), logistic(elo1));
    let p0 = mle_expected(&pdf, s0);
    let p1 = mle_expected(&pdf, s1);
    let per_pair: f64 = pdf
        .iter()
        .zip(p0.iter().zip(p1.iter()))
        .map(|((_, p), (q0, q1))| p * (q1.ln() - q0.ln()))
        .sum();
    n * per_pair
}

/// The SPRT's stopping bounds on the LLR for error rates `alpha` (false positive) and `beta` (false
/// negative): (`ln(β/(1−α))`, `ln((1−β)/α)`); about ±2.94 for α = β = 0.05.
pub fn bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

pub use crate::elo::MIN_PAIRS_FOR_INTERVAL;

/// The Elo difference A − B estimated from game pairs ([`elo_estimate`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EloEstimate {
    /// No pair was played.
    NoPairs,
    /// A scored 0 or 100 %: the difference is unbounded.
    Unbounded,
    /// The estimate alone: fewer than [`MIN_PAIRS_FOR_INTERVAL`] pairs, or every pair scored the
    /// same (variance 0, so the interval would have zero width).
    Point(f64, NoInterval),
    /// The estimate with its 95 % confidence interval: (estimate, low, high).
    Interval(f64, f64, f64),
}

/// Why an [`EloEstimate::Point`] has no interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoInterval {
    /// Fewer than [`MIN_PAIRS_FOR_INTERVAL`] pairs.
    TooFewPairs,
    /// Every pair scored the same: the pair variance is 0.
    NoSpread,
}

/// The Elo difference A − B estimated from the pair counts, with its 95 % confidence interval
/// (normal approximation on the mean pair score, the pair variance from the pentanomial, mapped
/// through the logistic curve) when there are at least [`MIN_PAIRS_FOR_INTERVAL`] pairs and their
/// scores vary.
pub fn elo_estimate(counts: &Pentanomial) -> EloEstimate {
    let n = counts.pairs();
    if n == 0 {
        return EloEstimate::NoPairs;
    }
    let pdf: Vec<(f64, f64)> = counts
        .0
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / 4.0, c as f64 / n as f64))
        .collect();
    let (mean, var) = stats(&pdf);
    if mean <= 0.0 || mean >= 1.0 {
        return EloEstimate::Unbounded;
    }
    let e = elo_of_score(mean);
    if n < MIN_PAIRS_FOR_INTERVAL {
        return EloEstimate::Point(e, NoInterval::TooFewPairs);
    }
    if counts.0.iter().filter(|&&c| c > 0).count() < 2 {
        return EloEstimate::Point(e, NoInterval::NoSpread);
    }
    let se = (var / n as f64).sqrt();
    let clamp = |p: f64| p.clamp(1e-6, 1.0 - 1e-6);
    EloEstimate::Interval(
        e,
        elo_of_score(clamp(mean - 1.959_964 * se)),
        elo_of_score(clamp(mean + 1.959_964 * se)),
    )
}

/// What the test concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// LLR at or above the upper bound: H1 accepted (A is at least `elo1` stronger, within error).
    H1,
    /// LLR at or below the lower bound: H0 accepted (A is not `elo1` stronger).
    H0,
    /// Neither bound reached.
    Inconclusive,
}

/// The verdict for an LLR and its bounds.
pub fn verdict(llr: f64, (lower, upper): (f64, f64)) -> Verdict {
    if llr >= upper {
        Verdict::H1
    } else if llr <= lower {
        Verdict::H0
    } else {
        Verdict::Inconclusive
    }
}

/// A running SPRT: game pairs are added as they finish, and the test stops counting at the first
/// pair whose result takes the LLR out of the bounds. Pairs still in flight then (parallel games)
/// are reported but not counted, so the verdict and the counts are those at the crossing.
#[derive(Clone, Debug)]
pub struct Sequential {
    elo0: f64,
    elo1: f64,
    bounds: (f64, f64),
    penta: Pentanomial,
    stopped: Option<Verdict>,
    late: u64,
}

impl Sequential {
    /// A test of H0 "A is `elo0` stronger" against H1 "A is `elo1` stronger" with these LLR bounds
    /// (see [`bounds`]).
    pub fn new(elo0: f64, elo1: f64, bounds: (f64, f64)) -> Sequential {
        Sequential {
            elo0,
            elo1,
            bounds,
            penta: Pentanomial::default(),
            stopped: None,
            late: 0,
        }
    }

    /// Record one finished pair (A's half points in each game, as [`Pentanomial::add_pair`]).
    /// Returns `false`, counting nothing, when the test had already stopped.
    pub fn add_pair(&mut self, first: u8, second: u8) -> bool {
        if self.stopped.is_some() {
            self.late += 1;
            return false;
        }
        self.penta.add_pair(first, second);
        let v = verdict(self.llr(), self.bounds);
        if v != Verdict::Inconclusive {
            self.stopped = Some(v);
        }
        true
    }

    /// The log-likelihood ratio of the counted pairs ([`llr_logistic`]).
    pub fn llr(&self) -> f64 {
        llr_logistic(self.elo0, self.elo1, &self.penta)
    }

    /// The counted pairs.
    pub fn pentanomial(&self) -> &Pentanomial {
        &self.penta
    }

    /// The verdict: the bound crossed, or inconclusive while none was.
    pub fn verdict(&self) -> Verdict {
        self.stopped.unwrap_or(Verdict::Inconclusive)
    }

    /// Pairs that finished after the crossing and were not counted.
    pub fn late_pairs(&self) -> u64 {
        self.late
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference values: fishtest's `LLR_logistic(elo0, elo1, results)` from
    /// `server/fishtest/stats/LLRcalc.py` (official-stockfish/fishtest), run under Python with
    /// SciPy 1.17.1 (its `brentq` solves the secular equation) on these pentanomials.
    #[test]
    fn llr_matches_fishtest() {
        let cases: [([u64; 5], f64, f64, f64); 7] = [
            ([10, 50, 300, 60, 12], 0.0, 5.0, 0.488_908_552_590_868_35),
            ([1, 60, 500, 1200, 600], 0.0, 5.0, 33.679_336_408_570_95),
            ([30, 200, 800, 180, 25], 0.0, 5.0, -2.816_787_813_937_21),
            ([5, 40, 100, 45, 6], -3.0, 3.0, 0.366_963_006_436_539_6),
            ([0, 3, 10, 4, 0], 0.0, 10.0, 0.071_555_049_766_412_32),
            ([20, 100, 400, 150, 40], 0.0, 5.0, 3.332_962_705_795_116),
            (
                [100, 500, 1000, 450, 90],
                0.0,
                5.0,
                -3.620_222_619_801_164_7,
            ),
        ];
        for (counts, e0, e1, want) in cases {
            let got = llr_logistic(e0, e1, &Pentanomial(counts));
            assert!(
                (got - want).abs() < 1e-6,
                "{counts:?} <{e0},{e1}>: {got} != {want}"
            );
        }
    }

    #[test]
    fn bounds_are_wald() {
        // Wald's bounds for alpha = beta = 0.05: ln(0.05/0.95) = -2.944439, ln(19) = 2.944439.
        let (lo, hi) = bounds(0.05, 0.05);
        assert!((lo + 2.944_439).abs() < 1e-6 && (hi - 2.944_439).abs() < 1e-6);
        assert_eq!(verdict(3.0, (lo, hi)), Verdict::H1);
        assert_eq!(verdict(-3.0, (lo, hi)), Verdict::H0);
        assert_eq!(verdict(0.0, (lo, hi)), Verdict::Inconclusive);
    }

    #[test]
    fn elo_of_even_and_lopsided_scores() {
        // 75 % is -400 log10(1/3) = +190.85 Elo.
        let EloEstimate::Interval(e, lo, hi) = elo_estimate(&Pentanomial([0, 0, 5, 0, 5])) else {
            panic!("an interval expected");
        };
        assert!((e - 190.85).abs() < 0.01 && lo < e && e < hi);
        assert_eq!(
            elo_estimate(&Pentanomial([0, 0, 0, 0, 3])),
            EloEstimate::Unbounded
        );
        assert_eq!(elo_estimate(&Pentanomial::default()), EloEstimate::NoPairs);
    }

    /// An interval of zero width says nothing: identical pairs (no spread) or too few pairs give
    /// the estimate alone, with the reason.
    #[test]
    fn no_interval_without_spread_or_pairs() {
        // All pairs 1 point: score 50 %, 0 Elo, variance 0.
        assert_eq!(
            elo_estimate(&Pentanomial([0, 0, 10, 0, 0])),
            EloEstimate::Point(0.0, NoInterval::NoSpread)
        );
        // A pair of two wins and one of 1.5 points: 87.5 % is -400 log10(1/7) = +338.0 Elo, from
        // two pairs only.
        let EloEstimate::Point(e, why) = elo_estimate(&Pentanomial([0, 0, 0, 1, 1])) else {
            panic!("a point estimate expected");
        };
        assert!((e - 338.04).abs() < 0.01, "{e}");
        assert_eq!(why, NoInterval::TooFewPairs);
        // One pair scoring 1.5 (75 %, +190.8 Elo): no interval.
        assert!(matches!(
            elo_estimate(&Pentanomial([0, 0, 0, 1, 0])),
            EloEstimate::Point(_, NoInterval::TooFewPairs)
        ));
        // Five pairs that vary: an interval.
        assert!(matches!(
            elo_estimate(&Pentanomial([0, 1, 3, 1, 0])),
            EloEstimate::Interval(..)
        ));
    }

    #[test]
    fn pairs_land_in_their_cell() {
        let mut p = Pentanomial::default();
        p.add_pair(2, 0); // win + loss = 1 point
        p.add_pair(1, 1); // two draws = 1 point
        p.add_pair(2, 1); // win + draw = 1.5
        p.add_pair(0, 0);
        assert_eq!(p.0, [1, 0, 2, 1, 0]);
        assert_eq!(p.pairs(), 4);
    }

    #[test]
    fn pairs_after_the_crossing_are_not_counted() {
        // Pairs of two wins and of two draws take the LLR of <0,10> past +2.94; the pairs in flight
        // (here: losses) must not pull the verdict back to "inconclusive".
        let mut t = Sequential::new(0.0, 10.0, bounds(0.05, 0.05));
        let mut counted = 0;
        while t.verdict() == Verdict::Inconclusive {
            let (a, b) = if counted % 2 == 0 { (2, 2) } else { (1, 1) };
            assert!(t.add_pair(a, b));
            counted += 1;
            assert!(counted < 10_000, "the bound is never reached");
        }
        assert_eq!(t.verdict(), Verdict::H1);
        let at_crossing = *t.pentanomial();
        let llr = t.llr();
        assert!(llr >= bounds(0.05, 0.05).1);
        assert!(!t.add_pair(0, 0));
        assert!(!t.add_pair(0, 1));
        assert_eq!(t.late_pairs(), 2);
        assert_eq!(*t.pentanomial(), at_crossing);
        assert_eq!(t.verdict(), Verdict::H1);
        assert_eq!(t.llr(), llr);
        // Without the stop, the same two losses would have put the LLR back inside the bounds
        // (the flaw this fixes) or at least lowered it.
        let mut all = at_crossing;
        all.add_pair(0, 0);
        all.add_pair(0, 1);
        assert!(llr_logistic(0.0, 10.0, &all) < llr);
    }
}

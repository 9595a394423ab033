//! Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating, its
//! deviation (how uncertain it is) and a volatility, updated after a rating period of games. The
//! server rates its rated games with it ([`rate_game`]); the puzzle trainer rates both the player
//! and each puzzle with it (a solved puzzle is a win of the player over the puzzle).
//!
//! ```
//! use crown_rating::glicko::{Glicko2, Outcome};
//! let p = Glicko2::new(1500.0, 200.0, 0.06);
//! let games = [
//!     (Glicko2::new(1400.0, 30.0, 0.06), Outcome::Win),
//!     (Glicko2::new(1550.0, 100.0, 0.06), Outcome::Loss),
//!     (Glicko2::new(1700.0, 300.0, 0.06), Outcome::Loss),
//! ];
//! let q = p.update(&games, 0.5);
//! assert!((q.rating - 1464.06).abs() < 0.01);
//! ```

/// The Glicko-2 scale factor between the Glicko scale and the internal one (173.7178).
pub const SCALE: f64 = 173.7178;
/// The rating of a new player (and of a puzzle without an estimate).
pub const DEFAULT_RATING: f64 = 1500.0;
/// The rating deviation of a new player.
pub const DEFAULT_DEVIATION: f64 = 350.0;
/// The volatility of a new player.
pub const DEFAULT_VOLATILITY: f64 = 0.06;
/// The system constant τ used by the trainer (Glickman suggests 0.3 to 1.2).
pub const DEFAULT_TAU: f64 = 0.5;
/// A rating whose deviation is above this is provisional: too uncertain to rank (lichess's 110).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Convergence tolerance of the volatility iteration (Glickman's ε).
const EPSILON: f64 = 1e-6;

/// The result of one game from the rated player's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Scored 1.
    Win,
    /// Scored ½.
    Draw,
    /// Scored 0.
    Loss,
}

impl Outcome {
    /// The score: 1, 0.5 or 0.
    pub fn score(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }

    /// The same game from the opponent's view.
    #[must_use]
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}

/// One Glicko-2 rating on the Glicko scale (1500 = average).
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Glicko2 {
    /// The rating.
    pub rating: f64,
    /// The rating deviation (RD).
    pub deviation: f64,
    /// The volatility σ.
    pub volatility: f64,
}

impl Default for Glicko2 {
    /// A new player: 1500, RD 350, σ 0.06.
    fn default() -> Self {
        Glicko2::new(DEFAULT_RATING, DEFAULT_DEVIATION, DEFAULT_VOLATILITY)
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

impl Glicko2 {
    /// A rating of `rating`, deviation `deviation` and volatility `volatility`.
    pub fn new(rating: f64, deviation: f64, volatility: f64) -> Glicko2 {
        Glicko2 {
            rating,
            deviation,
            volatility,
        }
    }

    /// Whether this rating is provisional: its deviation is above [`PROVISIONAL_DEVIATION`].
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The expected score of `self` against `other` (Glicko-2's E with the opponent's deviation).
    pub fn expected(&self, other: &Glicko2) -> f64 {
        let mu = (self.rating - DEFAULT_RATING) / SCALE;
        let mu_j = (other.rating - DEFAULT_RATING) / SCALE;
        let phi_j = other.deviation / SCALE;
        1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
    }

    /// The rating after one rating period of `games` (each opponent's rating before the period and
    /// the outcome), with system constant `tau`. With no games only the deviation grows (step 6 of
    /// Glickman's procedure). Non-finite inputs give the rating back unchanged.
    #[must_use]
    pub fn update(&self, games: &[(Glicko2, Outcome)], tau: f64) -> Glicko2 {
        let mu = (self.rating - DEFAULT_RATING) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        if games.is_empty() {
            let phi_star = (phi * phi + sigma * sigma).sqrt();
            return Glicko2::new(self.rating, phi_star * SCALE, sigma);
        }
        // Steps 3 and 4: the estimated variance v and improvement Δ.
        let mut inv_v = 0.0;
        let mut sum = 0.0;
        for (o, out) in games {
            let mu_j = (o.rating - DEFAULT_RATING) / SCALE;
            let gj = g(o.deviation / SCALE);
            let e = 1.0 / (1.0 + (-gj * (mu - mu_j)).exp());
            inv_v += gj * gj * e * (1.0 - e);
            sum += gj * (out.score() - e);
        }
        let v = 1.0 / inv_v;
        let delta = v * sum;
        if !v.is_finite() || !delta.is_finite() || !tau.is_finite() {
            return *self;
        }
        // Step 5: the new volatility by the Illinois algorithm.
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 && k < 1000.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let mut fa = f(big_a);
        let mut fb = f(big_b);
        let mut steps = 0;
        while (big_b - big_a).abs() > EPSILON && steps < 1000 {
            let c = big_a + (big_a - big_b) * fa / (fb - fa);
            let fc = f(c);
            if fc * fb <= 0.0 {
                big_a = big_b;
                fa = fb;
            } else {
                fa /= 2.0;
            }
            big_b = c;
            fb = fc;
            steps += 1;
        }
        let sigma_new = (big_a / 2.0).exp();
        // Steps 6 and 7.
        let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        let out = Glicko2::new(mu_new * SCALE + DEFAULT_RATING, phi_new * SCALE, sigma_new);
        if out.rating.is_finite() && out.deviation.is_finite() && out.volatility.is_finite() {
            out
        } else {
            *self
        }
    }
}

/// One game between `a` and `b` as its own rating period for both (the policy of rated games on
/// the Crown server): both new ratings are computed from both pre-game ratings, `a_outcome` is
/// the result from `a`'s view, τ is [`DEFAULT_TAU`]. Returns `(a's new rating, b's new rating)`.
#[must_use]
pub fn rate_game(a: Glicko2, b: Glicko2, a_outcome: Outcome) -> (Glicko2, Glicko2) {
    (
        a.update(&[(b, a_outcome)], DEFAULT_TAU),
        b.update(&[(a, a_outcome.reversed())], DEFAULT_TAU),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's worked example ("Example of the Glicko-2 system", 2013): 1500/200/0.06 beats
    /// 1400/30, loses to 1550/100 and to 1700/300, τ = 0.5 → 1464.06 / 151.52 / 0.05999.
    #[test]
    fn glickmans_published_example() {
        let p = Glicko2::new(1500.0, 200.0, 0.06);
        let games = [
            (Glicko2::new(1400.0, 30.0, 0.06), Outcome::Win),
            (Glicko2::new(1550.0, 100.0, 0.06), Outcome::Loss),
            (Glicko2::new(1700.0, 300.0, 0.06), Outcome::Loss),
        ];
        let q = p.update(&games, 0.5);
        assert!((q.rating - 1464.06).abs() < 0.01, "{q:?}");
        assert!((q.deviation - 151.52).abs() < 0.01, "{q:?}");
        assert!((q.volatility - 0.05999).abs() < 0.00001, "{q:?}");
    }

    /// Two new players (1500/350/0.06), one game, τ = 0.5, by Glickman's steps written out here:
    /// g(φ) = 1/√(1+3φ²/π²), E = 1/(1+exp(-g·0)) = ½, v = 1/(g²·E·(1-E)), Δ = v·g·(1-E); the
    /// volatility barely moves from 0.06, so φ* ≈ √(φ²+σ²), φ' = 1/√(1/φ*²+1/v),
    /// μ' = φ'²·g·(s-E).
    #[test]
    fn a_game_between_new_players_matches_the_formulas() {
        let (w, l) = rate_game(Glicko2::default(), Glicko2::default(), Outcome::Win);
        let phi = 350.0 / SCALE;
        let g = 1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI.powi(2))).sqrt();
        let v = 1.0 / (g * g * 0.25);
        let phi_star = (phi * phi + 0.06f64 * 0.06).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let gain = phi_new * phi_new * g * 0.5 * SCALE;
        assert!((w.rating - (1500.0 + gain)).abs() < 0.05, "{w:?} vs {gain}");
        assert!((l.rating - (1500.0 - gain)).abs() < 0.05, "{l:?}");
        assert!((w.deviation - phi_new * SCALE).abs() < 0.05, "{w:?}");
        // The published round figures for this case: about 1662.3 and RD about 290.3.
        assert!((w.rating - 1662.3).abs() < 0.1 && (w.deviation - 290.3).abs() < 0.1);
        assert!(w.provisional() && !Glicko2::new(1500.0, 110.0, 0.06).provisional());
        let (d1, d2) = rate_game(Glicko2::default(), Glicko2::default(), Outcome::Draw);
        assert!((d1.rating - 1500.0).abs() < 1e-9 && (d2.rating - 1500.0).abs() < 1e-9);
        assert!(d1.deviation < 350.0);
    }

    #[test]
    fn no_games_only_widens_the_deviation() {
        let p = Glicko2::new(1500.0, 200.0, 0.06);
        let q = p.update(&[], 0.5);
        assert_eq!(q.rating, 1500.0);
        // sqrt(φ² + σ²) on the internal scale.
        let phi = 200.0 / SCALE;
        assert!((q.deviation - (phi * phi + 0.0036f64).sqrt() * SCALE).abs() < 1e-9);
    }

    #[test]
    fn equal_players_expect_half_and_a_win_raises() {
        let a = Glicko2::default();
        assert!((a.expected(&a) - 0.5).abs() < 1e-12);
        let up = a.update(&[(a, Outcome::Win)], DEFAULT_TAU);
        let down = a.update(&[(a, Outcome::Loss)], DEFAULT_TAU);
        assert!(up.rating > 1500.0 && down.rating < 1500.0);
        // Symmetric around 1500.
        assert!((up.rating - 1500.0 + (down.rating - 1500.0)).abs() < 1e-6);
        assert_eq!(Outcome::Win.reversed(), Outcome::Loss);
    }
}

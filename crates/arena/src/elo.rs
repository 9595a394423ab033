//! Elo differences: the logistic curve and the estimate from win/draw/loss counts (the pentanomial
//! estimate of game pairs, built on these, is `sprt::elo_estimate`).

/// The logistic Elo curve: expected score (0 to 1) of a player `elo` points stronger.
pub fn logistic(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Inverse of [`logistic`]: the Elo difference for an expected score `p` (0 < p < 1).
pub fn elo_of_score(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

/// Fewest game pairs for which the pentanomial estimate (`sprt::elo_estimate`) gives a 95 %
/// interval: below it the normal approximation of the mean pair score says little (and one pair
/// has no spread at all).
pub const MIN_PAIRS_FOR_INTERVAL: u64 = 5;

/// Fewest games for which [`wdl_elo`] gives an error bar: as many as the pentanomial estimate
/// needs pairs, twice over.
pub const MIN_GAMES_FOR_ERROR: u32 = 2 * MIN_PAIRS_FOR_INTERVAL as u32;

/// The Elo difference of A over B from A's wins, draws and losses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WdlElo {
    /// No game was played.
    NoGames,
    /// A won every game: the difference is unbounded.
    AllWins,
    /// B won every game: the difference is unbounded.
    AllLosses,
    /// The difference alone: fewer than [`MIN_GAMES_FOR_ERROR`] games.
    TooFewGames(f64),
    /// The difference alone: every game had the same result (an error bar of 0 would be false).
    NoSpread(f64),
    /// The difference and its 95 % error (±, in Elo) by the delta method on the score's variance.
    Interval(f64, f64),
}

/// The logistic Elo difference of a match result with its 95 % error (see [`WdlElo`]).
pub fn wdl_elo(wins: u32, draws: u32, losses: u32) -> WdlElo {
    let n = f64::from(wins) + f64::from(draws) + f64::from(losses);
    if n == 0.0 {
        return WdlElo::NoGames;
    }
    let p = (f64::from(wins) + 0.5 * f64::from(draws)) / n;
    if p >= 1.0 {
        return WdlElo::AllWins;
    }
    if p <= 0.0 {
        return WdlElo::AllLosses;
    }
    let var = (f64::from(wins) * (1.0 - p).powi(2)
        + f64::from(draws) * (0.5 - p).powi(2)
        + f64::from(losses) * p.powi(2))
        / n;
    let se = (var / n).sqrt();
    // Delta method: d(elo)/dp = 400 / (ln 10 · p (1 − p)).
    let err = 1.96 * se * 400.0 / (std::f64::consts::LN_10 * p * (1.0 - p));
    let d = elo_of_score(p);
    if n < f64::from(MIN_GAMES_FOR_ERROR) {
        WdlElo::TooFewGames(d)
    } else if var == 0.0 {
        WdlElo::NoSpread(d)
    } else {
        WdlElo::Interval(d, err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use elo_of_score as elo;

    #[test]
    fn elo_of_even_score_is_zero() {
        assert!(elo(0.5).abs() < 1e-9);
        // 75% is +190.8 Elo by the logistic formula: -400 log10(1/3).
        assert!((elo(0.75) - 190.85).abs() < 0.1);
    }

    #[test]
    fn wdl_cases() {
        assert_eq!(wdl_elo(0, 0, 0), WdlElo::NoGames);
        assert_eq!(wdl_elo(3, 0, 0), WdlElo::AllWins);
        assert_eq!(wdl_elo(0, 1, 0), WdlElo::TooFewGames(0.0));
        assert_eq!(wdl_elo(0, 12, 0), WdlElo::NoSpread(0.0));
        assert!(matches!(wdl_elo(15, 0, 5), WdlElo::Interval(e, _) if (e - 190.85).abs() < 0.1));
        assert!((logistic(elo(0.3)) - 0.3).abs() < 1e-12);
    }
}

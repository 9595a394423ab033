//! The result of `crown match`: the tally of counted pairs and the lines printed at the end.

use super::spec::Spec;
use crown_arena::elo::{wdl_elo, WdlElo, MIN_GAMES_FOR_ERROR};
use crown_arena::runner::PairGame;
use crown_arena::sprt::{self, EloEstimate, NoInterval, Pentanomial, Verdict};

/// The Elo line of a match result (A's wins, draws and losses): the logistic Elo difference with its
/// 95% error by the delta method, the difference alone when there are fewer than 10 games or every
/// game had the same result (an error bar of 0 would be false), or a sentence when one side won
/// every game (the difference is then unbounded).
pub(super) fn elo_line(wins: u32, draws: u32, losses: u32) -> String {
    // Rounded to a whole number; a difference that rounds to zero is "+0", never "-0".
    let round = |e: f64| {
        let d = e.round();
        if d == 0.0 {
            0.0
        } else {
            d
        }
    };
    match wdl_elo(wins, draws, losses) {
        WdlElo::NoGames => "Elo difference A - B: no games".into(),
        WdlElo::AllWins => "Elo difference A - B: unbounded (A won every game)".into(),
        WdlElo::AllLosses => "Elo difference A - B: unbounded (B won every game)".into(),
        WdlElo::TooFewGames(e) => format!(
            "Elo difference A - B: {:+.0} (no error bar: it needs at least {MIN_GAMES_FOR_ERROR} games)",
            round(e)
        ),
        WdlElo::NoSpread(e) => format!(
            "Elo difference A - B: {:+.0} (no error bar: every game had the same result)",
            round(e)
        ),
        WdlElo::Interval(e, err) => {
            format!("Elo difference A - B: {:+.0} +/- {err:.0} (95%)", round(e))
        }
    }
}

/// The Elo line from game pairs: the estimate with its 95 % interval, or the estimate alone with
/// the reason there is no interval (too few pairs, or every pair scored the same).
pub(super) fn pair_elo_line(penta: &Pentanomial) -> String {
    // Adding +0.0 turns a -0.0 into +0.0, so an even score prints "+0.0".
    match sprt::elo_estimate(penta) {
        EloEstimate::Interval(e, lo, hi) => {
            let (e, lo, hi) = (e + 0.0, lo + 0.0, hi + 0.0);
            format!(
                "Elo A - B from pairs: {e:+.1} (95% {lo:+.1} to {hi:+.1}, +/- {:.1})",
                (hi - lo) / 2.0
            )
        }
        EloEstimate::Point(e, why) => {
            let why = match why {
                NoInterval::TooFewPairs => format!(
                    "no interval: it needs at least {} game pairs",
                    sprt::MIN_PAIRS_FOR_INTERVAL
                ),
                NoInterval::NoSpread => {
                    "no interval: every pair scored the same, so the spread is unknown".to_string()
                }
            };
            format!("Elo A - B from pairs: {:+.1} ({why})", e + 0.0)
        }
        EloEstimate::Unbounded => {
            "Elo A - B from pairs: unbounded (one side won every game)".into()
        }
        EloEstimate::NoPairs => "Elo A - B from pairs: no game pairs".into(),
    }
}

/// The counted result of a match so far, from A's point of view.
#[derive(Default)]
pub(super) struct Tally {
    pub(super) wins: u32,
    pub(super) draws: u32,
    pub(super) losses: u32,
    pub(super) penta: Pentanomial,
    /// Losses on time: A, B.
    pub(super) time_losses: [u32; 2],
    /// Longest move in ms: A, B.
    pub(super) longest: [u64; 2],
}

impl Tally {
    /// Count one finished game pair.
    pub(super) fn add_pair(&mut self, pair: &[PairGame; 2]) {
        for g in pair.iter().map(|g| &g.record) {
            match g.half_points {
                2 => self.wins += 1,
                1 => self.draws += 1,
                _ => self.losses += 1,
            }
            for w in 0..2 {
                self.time_losses[w] += u32::from(g.lost_on_time(w));
                self.longest[w] = self.longest[w].max(g.longest_ms[w]);
            }
        }
        self.penta
            .add_pair(pair[0].record.half_points, pair[1].record.half_points);
    }
}

/// Print the result of a match (finished or stopped early): games and score, time losses, Elo,
/// pentanomial, the SPRT's state, and the finished games whose pair is not (not counted).
pub(super) fn print_result(
    (alpha, beta): (f64, f64),
    (a, b): (&Spec, &Spec),
    tally: &Tally,
    test: Option<(&sprt::Sequential, (f64, f64))>,
    llr_bounds: (f64, f64),
    unpaired: &[String],
) {
    let (wins, draws, losses) = (tally.wins, tally.draws, tally.losses);
    let n = wins + draws + losses;
    let points = f64::from(wins) + 0.5 * f64::from(draws);
    if n == 0 {
        println!("0 games: no game pair finished");
    } else {
        println!(
            "{n} games: A ({}) {wins} wins, {draws} draws, {losses} losses; score {points:.1}/{n} = {:.1}%",
            a.text,
            100.0 * points / f64::from(n)
        );
    }
    if a.clock.is_some() || b.clock.is_some() {
        println!(
            "losses on time: A {}, B {}; longest move: A {} ms, B {} ms",
            tally.time_losses[0], tally.time_losses[1], tally.longest[0], tally.longest[1]
        );
    }
    println!("{}", elo_line(wins, draws, losses));
    // The counts are those at the SPRT's crossing when it stopped (the same as `penta`).
    let penta = test.map_or(tally.penta, |(t, _)| *t.pentanomial());
    let c = penta.0;
    println!(
        "pentanomial (pairs scoring 0, 0.5, 1, 1.5, 2 for A): {} {} {} {} {}",
        c[0], c[1], c[2], c[3], c[4]
    );
    println!("{}", pair_elo_line(&penta));
    if let Some((t, (e0, e1))) = test {
        let llr = t.llr();
        let verdict = match t.verdict() {
            Verdict::H1 => "H1 accepted: A is stronger (PASS)",
            Verdict::H0 => "H0 accepted: A is not stronger by elo1 (FAIL)",
            Verdict::Inconclusive => "inconclusive: no bound reached",
        };
        println!(
            "SPRT elo0={e0} elo1={e1} alpha={} beta={}: LLR {llr:.2} (bounds {:.2}, {:.2}); {verdict}",
            alpha, beta, llr_bounds.0, llr_bounds.1
        );
        if t.late_pairs() > 0 {
            println!(
                "({} game pairs finished after the bound was crossed and are not counted)",
                t.late_pairs()
            );
        }
    }
    if !unpaired.is_empty() {
        println!(
            "(games {} finished without their pair: in the PDN, not counted)",
            unpaired.join(", ")
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_line_wording() {
        assert_eq!(
            elo_line(4, 0, 0),
            "Elo difference A - B: unbounded (A won every game)"
        );
        assert_eq!(
            elo_line(0, 0, 2),
            "Elo difference A - B: unbounded (B won every game)"
        );
        // An even score is no difference: "+0", not "-0".
        assert!(elo_line(5, 0, 5).starts_with("Elo difference A - B: +0 +/- "));
        // 15 wins, 5 losses: 75% is +191 Elo (-400 log10(1/3) = 190.8).
        assert!(elo_line(15, 0, 5).starts_with("Elo difference A - B: +191 +/- "));
    }

    /// No error bar of zero width: all draws, or too few games, give the difference alone.
    #[test]
    fn elo_line_without_an_error_bar() {
        assert_eq!(
            elo_line(0, 12, 0),
            "Elo difference A - B: +0 (no error bar: every game had the same result)"
        );
        assert_eq!(
            elo_line(3, 0, 1),
            "Elo difference A - B: +191 (no error bar: it needs at least 10 games)"
        );
        assert_eq!(
            elo_line(1, 0, 1),
            "Elo difference A - B: +0 (no error bar: it needs at least 10 games)"
        );
    }
}

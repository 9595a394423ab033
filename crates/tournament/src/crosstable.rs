//! The crosstable: one row per player in standings order, one column per opponent in the same
//! order, each cell the game points scored and conceded in their match(es).

use crate::matches::Round;
use crate::player::PlayerId;
use crate::result::Seat;
use crate::standings::Standing;
use std::fmt::Write;

/// One row of a crosstable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrossRow {
    /// The player's standing.
    pub standing: Standing,
    /// Per column (the rows' order): the (scored, conceded) game points of each match against
    /// that player, complete or not, in round order; empty when they have not met.
    pub cells: Vec<Vec<(u32, u32)>>,
    /// The byes this player received.
    pub byes: u32,
}

/// A crosstable (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crosstable {
    /// The rows, best first.
    pub rows: Vec<CrossRow>,
}

/// The crosstable of `standings` (as [`crate::standings::standings`] returns them) over `rounds`.
pub fn crosstable(standings: &[Standing], rounds: &[Round]) -> Crosstable {
    let order: Vec<PlayerId> = standings.iter().map(|s| s.player).collect();
    let column = |p: PlayerId| order.iter().position(|q| *q == p);
    let mut rows: Vec<CrossRow> = standings
        .iter()
        .map(|s| CrossRow {
            standing: s.clone(),
            cells: vec![Vec::new(); order.len()],
            byes: 0,
        })
        .collect();
    for round in rounds {
        for pairing in &round.pairings {
            match pairing {
                crate::matches::Pairing::Bye(p) => {
                    if let Some(i) = column(*p) {
                        rows[i].byes += 1;
                    }
                }
                crate::matches::Pairing::Match(m) => {
                    for seat in [Seat::First, Seat::Second] {
                        let (me, them) = (m.player(seat), m.player(seat.other()));
                        if let (Some(i), Some(j)) = (column(me), column(them)) {
                            let cell = (m.game_points(seat), m.game_points(seat.other()));
                            rows[i].cells[j].push(cell);
                        }
                    }
                }
            }
        }
    }
    Crosstable { rows }
}

impl Crosstable {
    /// The table as text for people: rank, name (from `name`), one column per opponent (`3-1`
    /// for game points scored–conceded, `/` between two matches, `X` on the diagonal, `.` not
    /// met), then byes, match points (MP), game points (GP), Buchholz (BH) and
    /// Sonneborn–Berger (SB).
    pub fn to_text(&self, name: impl Fn(PlayerId) -> String) -> String {
        let names: Vec<String> = self.rows.iter().map(|r| name(r.standing.player)).collect();
        let width = names
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(0)
            .max(4);
        let cells: Vec<Vec<String>> = self
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                r.cells
                    .iter()
                    .enumerate()
                    .map(|(j, c)| match (i == j, c.is_empty()) {
                        (true, _) => "X".to_string(),
                        (false, true) => ".".to_string(),
                        _ => c
                            .iter()
                            .map(|(a, b)| format!("{a}-{b}"))
                            .collect::<Vec<_>>()
                            .join("/"),
                    })
                    .collect()
            })
            .collect();
        let cw = cells
            .iter()
            .flatten()
            .map(String::len)
            .max()
            .unwrap_or(1)
            .max(self.rows.len().to_string().len());
        let mut out = format!("{:>3}  {:width$}", "#", "Name");
        for j in 1..=self.rows.len() {
            let _ = write!(out, " {j:>cw$}");
        }
        out.push_str("  Bye  MP  GP  BH  SB\n");
        for (i, r) in self.rows.iter().enumerate() {
            let s = &r.standing;
            let _ = write!(out, "{:>3}  {:width$}", s.rank, names[i]);
            for c in &cells[i] {
                let _ = write!(out, " {c:>cw$}");
            }
            let _ = writeln!(
                out,
                "  {:>3} {:>3} {:>3} {:>3} {:>3}",
                r.byes, s.match_points, s.game_points, s.buchholz, s.sonneborn_berger
            );
        }
        out
    }
}

//! Round robin by the Berger tables (the circle method, FIDE Handbook C.05 Annex 1): every player
//! meets every other once, each pairing a two-game match.
//!
//! Players are numbered 1..=n by seed. For odd n a dummy n+1 is added and the player paired with
//! it has the bye. With m = n−1 (n even), in round r the player n meets the player a with
//! 2a ≡ r+1 (mod m), and every other pair (a, b) has a+b ≡ r+1 (mod m). The player listed first in
//! the tables — who moves first in game 1 here — is, for player n, the other player in odd rounds
//! and n in even rounds; in the other pairs the player a for which (a−b) mod m is even. Each player
//! thus moves first in game 1 of ⌊(n−1)/2⌋ or ⌈(n−1)/2⌉ matches, mostly alternating round by round.

use crate::matches::{Match, Pairing};
use crate::player::PlayerId;

/// The number of rounds of a round robin of `players` players: n−1 for even n, n for odd n (each
/// player has one bye); 0 for fewer than 2 players.
pub fn round_robin_rounds(players: usize) -> u32 {
    match players {
        0 | 1 => 0,
        n if n % 2 == 0 => (n - 1) as u32,
        n => n as u32,
    }
}

/// The pairings of round `round` (from 1) of a round robin of `seeded` (in seed order: Berger
/// number 1 first): the matches in the tables' board order, numbered from board 1, then the bye
/// for odd n. Empty when `round` is 0 or beyond [`round_robin_rounds`].
pub fn round_robin_round(seeded: &[PlayerId], round: u32) -> Vec<Pairing> {
    let n0 = seeded.len();
    if round == 0 || round > round_robin_rounds(n0) {
        return Vec::new();
    }
    let n = n0 + n0 % 2;
    let m = n - 1;
    let r = round as usize;
    let target = (r + 1) % m;
    // Berger numbers 1..=n; n0+1 (when n0 is odd) is the dummy.
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let partner_of_n = (1..=m).find(|a| (2 * a) % m == target).unwrap_or(1);
    if r % 2 == 1 {
        pairs.push((partner_of_n, n));
    } else {
        pairs.push((n, partner_of_n));
    }
    let mut seen = vec![false; n + 1];
    seen[partner_of_n] = true;
    seen[n] = true;
    // The tables list the other pairs starting from the player after the one who meets n, going
    // round the circle.
    for k in 1..m {
        let a = (partner_of_n - 1 + k) % m + 1;
        if seen[a] {
            continue;
        }
        let b = (1..=m)
            .find(|&b| b != a && !seen[b] && (a + b) % m == target)
            .unwrap_or(a);
        seen[a] = true;
        seen[b] = true;
        if (a + m - b) % m % 2 == 0 {
            pairs.push((a, b));
        } else {
            pairs.push((b, a));
        }
    }
    let mut out = Vec::new();
    let mut bye = None;
    for (a, b) in pairs {
        if a > n0 {
            bye = Some(seeded[b - 1]);
        } else if b > n0 {
            bye = Some(seeded[a - 1]);
        } else {
            let board = out.len() as u32 + 1;
            out.push(Pairing::Match(Match::new(
                board,
                seeded[a - 1],
                seeded[b - 1],
            )));
        }
    }
    out.extend(bye.map(Pairing::Bye));
    out
}

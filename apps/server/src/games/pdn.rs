//! PDN export of a game, written by crown-notation.

use crate::error::Error;
use crate::games::live::Live;
use crate::store::Seat;

/// Whether this build can export PDN.
pub const AVAILABLE: bool = true;

/// `YYYY.MM.DD` (PDN date) of a time in ms since the Unix epoch (proleptic Gregorian, UTC).
pub fn pdn_date(ms: u64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let z = (ms / 86_400_000) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

fn player(seat: &Seat, name: Option<&str>) -> String {
    match seat {
        Seat::Human { .. } => name.unwrap_or("Player").to_string(),
        Seat::Engine { level } => format!("Crown engine (level {level})"),
    }
}

/// The game as one PDN record (roster tags: a linked seat's account name, else the seat's name;
/// a rated game's `BlackElo`/`WhiteElo` and, once rated, `BlackRatingDiff`/`WhiteRatingDiff`
/// ([`crate::ratings::pdn_tags`]); `GameType`, `FEN` for set-up starts, the moves and the
/// result; `*` while the game goes on).
///
/// # Errors
/// None today; the `Result` leaves room for games PDN cannot express.
pub fn export(live: &Live) -> Result<String, Error> {
    let date = pdn_date(live.rec.created_ms);
    // A seat linked to an account is written with the account's name (docs/api.md, "Ratings").
    let meta = &live.rec.meta;
    let name = |c: crown_core::Color| {
        meta.accounts
            .get(c)
            .map(|a| a.name.as_str())
            .or(meta.names.get(c))
    };
    let black = player(&meta.black, name(crown_core::Color::Black));
    let white = player(&meta.white, name(crown_core::Color::White));
    let site = format!("Crown server, game {}", live.rec.id);
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", "Crown online game".into()),
        ("Site", site),
        ("Date", date),
        ("Round", "-".into()),
        ("Black", black),
        ("White", white),
    ];
    tags.extend(crate::ratings::pdn_tags(meta));
    let tags: Vec<(&str, &str)> = tags.iter().map(|(k, v)| (*k, v.as_str())).collect();
    Ok(crown_notation::game_to_pdn(&live.game, &tags))
}

#[cfg(test)]
mod tests {
    use super::pdn_date;

    #[test]
    fn dates_match_the_calendar() {
        assert_eq!(pdn_date(0), "1970.01.01");
        // 2000-02-29 00:00 UTC = 951782400 s.
        assert_eq!(pdn_date(951_782_400_000), "2000.02.29");
        // 2026-11-29 12:00 UTC = 1795953600 s.
        assert_eq!(pdn_date(1_795_953_600_000), "2026.11.29");
    }
}

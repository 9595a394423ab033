//! PDN export of a game, written by crown-notation.

use crate::error::Error;
use crate::games::live::Live;
use crate::store::Seat;

/// Whether this build can export PDN.
pub const AVAILABLE: bool = true;

fn player(seat: &Seat, name: Option<&str>) -> String {
    match seat {
        Seat::Human { .. } => name.unwrap_or("Player").to_string(),
        Seat::Engine { level } => format!("Crown engine (level {level})"),
    }
}

/// A correspondence game's `Correspondence` tag: `1 day per move`, `3 days per move`.
pub fn days_text(days: u32) -> String {
    if days == 1 {
        "1 day per move".to_string()
    } else {
        format!("{days} days per move")
    }
}

/// The game as one PDN record (roster tags: a linked seat's account name, else the seat's name;
/// a rated game's `BlackElo`/`WhiteElo` and, once rated, `BlackRatingDiff`/`WhiteRatingDiff`
/// ([`crate::ratings::pdn_tags`]); a correspondence game's `TimeControl "-"` and
/// `Correspondence` ([`days_text`]); `GameType`, `FEN` for set-up starts, the moves and the
/// result; `*` while the game goes on).
///
/// # Errors
/// None today; the `Result` leaves room for games PDN cannot express.
pub fn export(live: &Live) -> Result<String, Error> {
    let date = crown_notation::pdn_date_of_unix_ms(live.rec.created_ms);
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
    if let Some(days) = meta.days {
        // PDN (like PGN) writes "-" for a game without a clock; the days per move get a tag of
        // their own (docs/notation.md).
        tags.push(("TimeControl", "-".into()));
        tags.push(("Correspondence", days_text(days)));
    }
    tags.extend(crate::ratings::pdn_tags(meta));
    let tags: Vec<(&str, &str)> = tags.iter().map(|(k, v)| (*k, v.as_str())).collect();
    Ok(crown_notation::game_to_pdn(&live.game, &tags))
}

//! # crown-notation
//!
//! PDN 3.0 game records for Crown (`shared/docs/pdn-standard/`, with the PDN 2.0 checkers draft for
//! older conventions): a liberal streaming reader ([`PdnReader`]), replay against the rules of
//! `crown-core` ([`replay`]), and a strict writer ([`write_game`], [`canonical`], [`game_to_pdn`]).
//! The full notation, including Crown's PDN game type for Impasse, is in docs/notation.md.
//!
//! Results are written from the first player's point of view, the PDN 2.0 convention of checkers
//! programs: `1-0` means the side that moved first won (Black in American and pool checkers, White in
//! Impasse), `0-1` the other side, `1/2-1/2` a draw, `*` unknown or unfinished.
//!
//! ```
//! use crown_core::{Game, Variant};
//! use crown_notation::{game_to_pdn, pdn_to_game};
//!
//! let mut game = Game::new(Variant::American);
//! for m in ["11-15", "23-19", "8-11", "22-17"] {
//!     game.play_text(m).unwrap();
//! }
//! let text = game_to_pdn(&game, &[("Event", "Example")]);
//! assert!(text.contains("1. 11-15 23-19 2. 8-11 22-17 *"));
//! let back = pdn_to_game(&text).unwrap();
//! assert_eq!(back.moves(), game.moves());
//! ```

mod date;
mod error;
mod explorer;
mod gametype;
mod hub;
mod input;
mod reader;
mod replay;
mod writer;

pub use crown_core::{FenError, MoveError, Setup};
pub use date::{pdn_date, pdn_date_of_unix_ms, UNKNOWN_DATE};
pub use error::{Location, PdnError, PdnErrorKind, PdnWarning, LEGAL_MOVES_SHOWN};
pub use explorer::{
    ArchiveStats, Explorer, ExplorerBuilder, ExplorerMove, ExplorerPosition, Tally,
};
pub use gametype::{game_type_tag, variant_from_game_type, IMPASSE_GAME_TYPE};
pub use hub::{hub_move, hub_position, is_hub_position, read_hub_position, HUB_POSITION_CHARS};
pub use input::{
    decode_line, decode_utf16_file, legal_moves_text, needs_escape, one_line, play_moves,
    printable, quote, read_fen, read_game_move, read_move, utf16_without_bom, FenPolicy,
    InputError, InputErrorKind, ReadFen, MAX_ERROR_CHARS, MAX_QUOTE_CHARS, UTF16_SNIFF_BYTES,
};
pub use reader::{
    is_move_text, read_games, MoveNode, Node, PdnGame, PdnReader, MAX_VARIATION_DEPTH, RESULTS,
};
pub use replay::{move_number, replay, replay_prefix, PdnResult, Replay};
pub use writer::{canonical, game_record, write_game, write_game_as_read, LINE_WIDTH, ROSTER};

use crown_core::Game;

/// One full PDN game for `game`: the seven roster tags (values from `tags`, else `?`; the `Result`
/// from the game's outcome unless given), `GameType`, `SetUp` and `FEN` when the game starts from a
/// set position, the other `tags`, then the numbered moves and the result. See [`game_record`].
pub fn game_to_pdn(game: &Game, tags: &[(&str, &str)]) -> String {
    write_game(&game_record(game, tags))
}

/// Read the first game of a PDN text and replay it into a [`Game`] (see [`Replay::to_game`]: a
/// decisive or drawn result the board does not show is recorded as a resignation or agreed draw).
///
/// # Errors
/// The game's [`PdnError`]: syntax, unsupported `GameType`, bad `FEN`, illegal or ambiguous move; a
/// syntax error when the text holds no game.
pub fn pdn_to_game(text: &str) -> Result<Game, PdnError> {
    let first = PdnReader::new(text.as_bytes()).next().unwrap_or_else(|| {
        Err(PdnError {
            location: Box::new(Location {
                game: 1,
                ..Location::default()
            }),
            kind: PdnErrorKind::Syntax("the text holds no PDN game".into()),
        })
    })?;
    let r = replay(&first)?;
    Ok(r.to_game(first.final_result()))
}

/// The README example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

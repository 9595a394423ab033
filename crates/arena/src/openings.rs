//! Where the games of a match start: the embedded ACF three-move deck, PDN files of openings,
//! random balanced openings and random playouts (like fastchess's `game/book`).

use crate::ArenaError;
use crown_ai::{Engine, EngineOptions, Limits};
use crown_core::rng::Rng;
use crown_core::{Game, ImpasseSetup, Position, Variant};
use crown_notation::{game_type_tag, read_games, replay, variant_from_game_type};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// The ACF three-move deck (156 ballots) as PDN, embedded: see the header of the file for its
/// source.
pub const ACF_THREE_MOVE_PDN: &str = include_str!("../data/acf-3-move-ballots.pdn");

/// The 156 positions of the ACF three-move deck for `variant` (American or pool checkers: the
/// ballots are replayed by that game's rules), in the deck's order. The name in errors is `acf3`.
///
/// # Errors
/// [`ArenaError::Openings`] for Impasse (the deck has no `GameType`, so it is checkers).
pub fn acf_three_move(variant: Variant) -> Result<Vec<Position>, ArenaError> {
    read_openings(ACF_THREE_MOVE_PDN, "acf3", variant)
}

/// The 11-man ballots (2,400 openings of American checkers, 11 men a side, Black to move) as
/// embedded: one ballot a line, two hexadecimal masks of White's and Black's men (bit `n - 1` for
/// square `n`) after a `%` header that says where they come from. Read by [`eleven_man_ballots`].
pub const ELEVEN_MAN_BALLOTS: &str = include_str!("../data/ballots-11-man.txt");

/// The number of the 11-man ballots in [`ELEVEN_MAN_BALLOTS`].
pub const ELEVEN_MAN_BALLOT_COUNT: usize = 2400;

/// The 11-man ballots as PDN FENs (`B:W…:B…`, Black to move), in the list's order: ballot `n` is
/// the `n - 1`-th. They are positions of checkers' board, the same FEN for American and pool
/// checkers (check one with `Position::from_fen`).
///
/// # Errors
/// [`ArenaError::Openings`] naming the line: a line that is not two masks of 11 men each on
/// distinct squares (the embedded list has none: a test reads it).
pub fn eleven_man_ballots() -> Result<Vec<String>, ArenaError> {
    let squares = |mask: u32| {
        (1..=32u32)
            .filter(|n| mask & (1 << (n - 1)) != 0)
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut out = Vec::with_capacity(ELEVEN_MAN_BALLOT_COUNT);
    for (i, line) in ELEVEN_MAN_BALLOTS.lines().enumerate() {
        if line.starts_with('%') || line.trim().is_empty() {
            continue;
        }
        let bad = || ArenaError::Openings(format!("11-man ballots, line {}: {line:?}", i + 1));
        let mut masks = line.split_whitespace().map(|h| u32::from_str_radix(h, 16));
        let (Some(Ok(white)), Some(Ok(black)), None) = (masks.next(), masks.next(), masks.next())
        else {
            return Err(bad());
        };
        if white & black != 0 || white.count_ones() != 11 || black.count_ones() != 11 {
            return Err(bad());
        }
        out.push(format!("B:W{}:B{}", squares(white), squares(black)));
    }
    Ok(out)
}

/// The openings of a PDN file: the file's text, read by [`read_openings`].
///
/// # Errors
/// [`ArenaError::Openings`]: the file cannot be read, or an error of [`read_openings`].
pub fn read_opening_file(path: &Path, variant: Variant) -> Result<Vec<Position>, ArenaError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ArenaError::Openings(format!("reading openings {}: {e}", path.display())))?;
    read_openings(&text, &path.display().to_string(), variant)
}

/// The openings of PDN `text` (named `name` in errors), for `variant`: each game's position after
/// its main line, from its `[FEN]` tag (or the variant's start) through its moves. Each game's
/// `GameType` must name `variant`; a game without the tag is checkers by the PDN 2.0 convention and
/// is accepted for American and pool checkers (same board and FEN), not for Impasse. Games with
/// neither a FEN tag nor a move (the start position) are skipped.
///
/// # Errors
/// [`ArenaError::Openings`], a one-line message naming the file and game: unreadable PDN, a
/// `GameType` of another game, a FEN that is not a legal position of `variant`, an illegal move, a
/// game whose position is already over (no legal move or no pieces left for the side to move), or
/// no opening at all.
pub fn read_openings(
    text: &str,
    name: &str,
    variant: Variant,
) -> Result<Vec<Position>, ArenaError> {
    let mut out = Vec::new();
    for game in read_games(text) {
        let game = game.map_err(|e| ArenaError::Openings(format!("openings {name}: {e}")))?;
        out.extend(read_opening(game, name, variant)?);
    }
    if out.is_empty() {
        return Err(ArenaError::Openings(format!(
            "openings {name}: no openings found"
        )));
    }
    Ok(out)
}

/// The openings of PDN `text` (named `name` in errors) that `variant`'s rules can play, as
/// [`read_openings`] reads them, and the error of each game they cannot (e.g. a three-move ballot
/// of American checkers whose move is illegal in pool checkers, where men capture backwards).
///
/// # Errors
/// [`ArenaError::Openings`]: unreadable PDN.
pub fn playable_openings(
    text: &str,
    name: &str,
    variant: Variant,
) -> Result<(Vec<Position>, Vec<ArenaError>), ArenaError> {
    let (mut out, mut refused) = (Vec::new(), Vec::new());
    for game in read_games(text) {
        let game = game.map_err(|e| ArenaError::Openings(format!("openings {name}: {e}")))?;
        match read_opening(game, name, variant) {
            Ok(p) => out.extend(p),
            Err(e) => refused.push(e),
        }
    }
    Ok((out, refused))
}

/// The opening of one PDN game (see [`read_openings`]): `None` for a game with neither a FEN tag
/// nor a move.
fn read_opening(
    mut game: crown_notation::PdnGame,
    name: &str,
    variant: Variant,
) -> Result<Option<Position>, ArenaError> {
    let err = ArenaError::Openings;
    let (index, line) = (game.index, game.line);
    let at = || format!("openings {name}: game {index} (line {line})");
    let game_type = game.tag("GameType");
    let ok = match variant_from_game_type(game_type) {
        Ok(v) if game_type.is_some() => v == variant,
        Ok(_) => variant != Variant::Impasse,
        Err(e) => return Err(err(format!("{}: {e}", at()))),
    };
    if !ok {
        let named = match game_type {
            Some(t) => format!("GameType \"{t}\""),
            None => "no GameType tag (checkers)".to_string(),
        };
        return Err(err(format!(
            "{}: {named} is not {} (--variant {})",
            at(),
            variant.name(),
            variant.id()
        )));
    }
    if let Some(fen) = game.tag("FEN") {
        Position::from_fen(variant, fen)
            .map_err(|e| err(format!("{}: FEN \"{fen}\": {e}", at())))?;
    }
    if game.tag("FEN").is_none() && game.main_line().next().is_none() {
        return Ok(None);
    }
    // A checkers game without GameType is replayed by the rules of `variant` (pool men capture
    // backwards).
    game.set_tag("GameType", game_type_tag(variant));
    let r = replay(&game).map_err(|e| err(format!("{}: {e}", at())))?;
    if let Some(o) = Game::from_position(r.end()).outcome() {
        return Err(err(format!(
            "{}: the game is already over ({o}), so it is no opening",
            at()
        )));
    }
    Ok(Some(r.end()))
}

/// Play up to `plies` uniformly random legal moves in `game` (fewer when it ends), drawing from
/// `rng`: the random playout of self-play and of [`random_opening`].
pub fn random_plies(game: &mut Game, plies: u32, rng: &mut Rng) {
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.index(moves.len())];
        let _ = game.play(&mv);
    }
}

/// Largest score, in centi-men, that [`random_opening`] accepts as balanced.
pub const BALANCED_CENTI: i32 = 30;

/// A random opening: random plies from the start (4 for Impasse, from `setup`; 6 for checkers),
/// kept when the game goes on and a depth-8 search scores it within [`BALANCED_CENTI`]; otherwise
/// drawn again from `rng`.
pub fn random_opening(variant: Variant, setup: ImpasseSetup, rng: &mut Rng) -> Position {
    let mut judge = Engine::new(EngineOptions {
        hash_mib: 4,
        threads: 1,
        level: None,
    });
    let stop = AtomicBool::new(false);
    let plies = if variant == Variant::Impasse { 4 } else { 6 };
    loop {
        let mut game = if variant == Variant::Impasse {
            Game::impasse(setup)
        } else {
            Game::new(variant)
        };
        random_plies(&mut game, plies, rng);
        if game.outcome().is_some() {
            continue;
        }
        judge.new_game();
        let r = judge.search(&game, &Limits::depth(8), &stop, &mut |_| {});
        if r.score.as_centi().abs() <= BALANCED_CENTI {
            return *game.position();
        }
    }
}

/// The openings of a match, one per game pair.
#[derive(Clone, Debug)]
pub enum Openings {
    /// A fixed list; pair `i` plays entry `i` modulo the length (see [`Openings::shuffled`]).
    List(Vec<Position>),
    /// Random balanced openings ([`random_opening`]); pair `i` draws from stream `i` of the seed,
    /// so results do not depend on the order in which parallel workers take pairs. Impasse games
    /// start from the setup.
    Random {
        /// The seed of every pair's stream.
        seed: u64,
        /// The Impasse start setup.
        setup: ImpasseSetup,
    },
}

impl Openings {
    /// A fixed list shuffled (Fisher–Yates) by `seed`.
    pub fn shuffled(mut list: Vec<Position>, seed: u64) -> Openings {
        Rng::new(seed).shuffle(&mut list);
        Openings::List(list)
    }

    /// The opening of game pair `pair` (from 0) of a match of `variant`. An empty list gives the
    /// variant's start position.
    pub fn get(&self, variant: Variant, pair: usize) -> Position {
        match self {
            Openings::List(v) if v.is_empty() => Position::new(variant),
            Openings::List(v) => v[pair % v.len()],
            Openings::Random { seed, setup } => {
                random_opening(variant, *setup, &mut Rng::stream(*seed, pair as u64))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown_core::Color;

    #[test]
    fn the_eleven_man_ballots_are_2400_distinct_openings_of_american_and_pool_checkers() {
        let fens = eleven_man_ballots().unwrap();
        assert_eq!(fens.len(), ELEVEN_MAN_BALLOT_COUNT);
        // ballot 1 and 2400 as the list's first and last [FEN] tags give them (squares sorted)
        assert_eq!(
            fens[0],
            "B:W19,21,22,23,25,26,27,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12"
        );
        assert_eq!(
            fens[2399],
            "B:W18,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,6,7,8,9,10,12,16"
        );
        let distinct: std::collections::HashSet<_> = fens.iter().collect();
        assert_eq!(distinct.len(), fens.len(), "no ballot twice");
        // Every ballot is a position of both games with a move to make: none is left out for pool.
        for variant in [Variant::American, Variant::Pool] {
            for (i, fen) in fens.iter().enumerate() {
                let pos = Position::from_fen(variant, fen)
                    .unwrap_or_else(|e| panic!("ballot {} {fen} in {variant:?}: {e}", i + 1));
                assert_eq!(pos.side_to_move(), Color::Black);
                assert_eq!(Game::from_position(pos).outcome(), None, "ballot {}", i + 1);
            }
        }
    }

    #[test]
    fn the_embedded_eleven_man_ballots_are_the_shared_list() {
        // The list the embedded one was made from, in the shared test data (`../shared` beside
        // the repository, or `$CROWN_SHARED`: CONTRIBUTING.md).
        let shared = std::env::var("CROWN_SHARED").map_or_else(
            |_| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
            std::path::PathBuf::from,
        );
        let path = shared.join("data/pdn/ballots-11-man-english.pdn");
        let from_pdn = read_opening_file(&path, Variant::American).unwrap();
        let embedded = eleven_man_ballots().unwrap();
        assert_eq!(from_pdn.len(), embedded.len());
        for (i, (a, b)) in from_pdn.iter().zip(&embedded).enumerate() {
            let b = Position::from_fen(Variant::American, b).unwrap();
            assert_eq!(a.to_fen(), b.to_fen(), "ballot {}", i + 1);
        }
    }

    #[test]
    fn acf_deck_has_the_156_ballots() {
        let deck = read_openings(ACF_THREE_MOVE_PDN, "acf3", Variant::American).unwrap();
        // 174 ACF ballots less the 18 barred ones (usacheckers.com: the 156-opening deck).
        assert_eq!(deck.len(), 156);
        // Every opening is three plies from the start: White to move, 12 men each unless the third
        // move was a capture.
        for pos in &deck {
            assert_eq!(pos.side_to_move(), Color::White);
        }
        // ACF #46, 9-14 23-18 14x23 ("Double Cross"): Black's man from 9 stands on 23, White's 23 is
        // gone.
        let double_cross = Position::from_fen(
            Variant::American,
            "W:W21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,23",
        )
        .unwrap();
        assert!(deck.contains(&double_cross));
        // Barred ACF #3, 9-13 21-17 10-14, is not in the deck.
        let barred = Position::from_fen(
            Variant::American,
            "W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,11,12,13,14",
        )
        .unwrap();
        assert!(!deck.contains(&barred));
        // Distinct ballots reach distinct positions.
        let mut fens: Vec<String> = deck.iter().map(Position::to_fen).collect();
        fens.sort();
        fens.dedup();
        assert_eq!(fens.len(), 156);
    }

    /// Every ballot of the deck is three legal plies under pool rules too (men capture backwards
    /// there, but no capture is open to a man behind it in the first three moves), so
    /// `crown tune gen` starts pool games from all 156; a ballot that a game's rules refuse would be
    /// reported, not fatal.
    #[test]
    fn the_three_move_deck_is_playable_in_pool() {
        let (deck, refused) = playable_openings(ACF_THREE_MOVE_PDN, "acf3", Variant::Pool).unwrap();
        assert_eq!((deck.len(), refused.len()), (156, 0));
        // The same boards as American's deck (men only, no capture differs in three plies).
        let fens = |d: &[Position]| d.iter().map(Position::to_fen).collect::<Vec<_>>();
        assert!(fens(&deck) == fens(&acf_three_move(Variant::American).unwrap()));
        // An illegal opening (9-15 is no move) is refused, naming its game; the others are kept.
        let pdn = "1. 9-14 *\n\n1. 9-15 *\n";
        let (ok, refused) = playable_openings(pdn, "y.pdn", Variant::Pool).unwrap();
        assert_eq!(ok.len(), 1);
        assert_eq!(refused.len(), 1);
        assert!(
            msg(refused[0].clone()).starts_with("openings y.pdn: game 2 "),
            "{:?}",
            refused
        );
    }

    /// The message of an [`ArenaError`], as the tests below read it.
    fn msg(e: ArenaError) -> String {
        e.to_string()
    }

    #[test]
    fn openings_need_the_right_game() {
        let e = msg(read_openings(ACF_THREE_MOVE_PDN, "acf3", Variant::Impasse).unwrap_err());
        assert!(e.contains("no GameType tag (checkers)"), "{}", e);
        let e = msg(read_openings("[FEN \"B:W99:B1\"] *", "x.pdn", Variant::American).unwrap_err());
        assert!(e.starts_with("openings x.pdn: game "), "{}", e);
        let e = msg(
            read_openings("1. 11-16 23-19 2. 16-20 *", "y.pdn", Variant::American).unwrap_err(),
        );
        assert!(e.starts_with("openings y.pdn: game "), "{}", e);
    }

    /// An opening whose position is already over is refused, naming the game.
    #[test]
    fn a_finished_opening_is_refused() {
        // Black to move has no piece left.
        let pdn = "[FEN \"B:W18:B\"]\n*\n";
        let e = msg(read_openings(pdn, "x.pdn", Variant::American).unwrap_err());
        assert!(e.starts_with("openings x.pdn: game 1 "), "{e}");
        assert!(e.contains("the game is already over"), "{e}");
        let pdn = "[FEN \"W:W18,22:B14,1\"]\n*\n\n[FEN \"B:W18:B\"]\n*\n";
        let e = msg(read_openings(pdn, "x.pdn", Variant::American).unwrap_err());
        assert!(e.starts_with("openings x.pdn: game 2 "), "{e}");
        assert!(e.contains("the game is already over"), "{e}");
    }

    /// Random openings are reproducible per pair and balanced games that go on.
    #[test]
    fn random_openings_depend_on_the_seed_and_pair_only() {
        let o = Openings::Random {
            seed: 7,
            setup: ImpasseSetup::Seed,
        };
        let a = o.get(Variant::Pool, 3);
        assert_eq!(a, o.get(Variant::Pool, 3));
        assert!(Game::from_position(a).outcome().is_none());
        let list = Openings::shuffled(acf_three_move(Variant::American).unwrap(), 1);
        assert_eq!(
            list.get(Variant::American, 0),
            list.get(Variant::American, 156)
        );
    }
}

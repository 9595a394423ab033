//! The opening explorer of a PDN archive: for every position the games of the archive reach, the
//! moves played there with how many games played each and how those games ended.
//!
//! Positions are matched by position, not by the moves that led there: two games that reach the
//! same pieces with the same side to move by different move orders (a transposition) count together.
//! A position is identified by its variant and [`Position::zobrist`] key (64 bits; two different
//! positions of one archive sharing a key is improbable, about 2⁻⁶⁴ per pair, and a stored move that
//! is not legal in the probed position is left out).
//!
//! What is counted, per game of the archive:
//! - its main line as replayed ([`crate::replay_prefix`]): variations are annotations, not games
//!   played, and are left out; a game whose main line stops at an illegal move counts up to there;
//!   a game that cannot be replayed at all (an unsupported `GameType`, a bad `FEN`) is skipped;
//! - its result as the file gives it ([`PdnGame::final_result`], read by [`PdnResult::parse`]):
//!   White wins, draw, Black wins, or unknown (`*`, no result);
//! - once per position and once per (position, move): a game that comes back to a position (a
//!   repetition) is one game there, even if it plays two different moves from it.
//!
//! ```
//! use crown_core::{Position, Variant};
//! use crown_notation::Explorer;
//!
//! let pdn = "1. 11-15 23-19 1-0\n\n1. 11-15 22-17 1/2-1/2\n\n1. 9-13 *\n";
//! let explorer = Explorer::from_pdn(pdn);
//! let start = Position::new(Variant::American);
//! let here = explorer.probe(&start);
//! assert_eq!(here.tally.games, 3);
//! assert_eq!(start.move_text(&here.moves[0].mv), "11-15");
//! assert_eq!(here.moves[0].tally.games, 2);
//! assert_eq!(here.moves[0].tally.black, 1); // "1-0": the first player, Black, won
//! ```

use crate::reader::{PdnGame, PdnReader};
use crate::replay::{replay_prefix, PdnResult, Replay};
use crown_core::{Color, Move, Position, Variant};

/// Games that reached a position (or played a move there) and how they ended, from the file's
/// results. `games` = `white` + `draws` + `black` + [`Tally::unknown`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Number of games.
    pub games: u32,
    /// Games White won.
    pub white: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games Black won.
    pub black: u32,
}

impl Tally {
    /// Games whose result is unknown (`*` or none).
    pub fn unknown(&self) -> u32 {
        self.games
            .saturating_sub(self.white)
            .saturating_sub(self.draws)
            .saturating_sub(self.black)
    }

    /// Whole percentages of the games `[White wins, draws, Black wins, unknown]`, rounded by the
    /// largest-remainder method so that they add up to exactly 100 (all zero when there is no
    /// game); ties in the remainders go to the earlier share.
    pub fn percentages(&self) -> [u32; 4] {
        let parts = [self.white, self.draws, self.black, self.unknown()];
        let total = u64::from(self.games);
        if total == 0 {
            return [0; 4];
        }
        let scaled = parts.map(|p| u64::from(p) * 100);
        // each part is at most the total, so its share is at most 100
        let mut out = scaled.map(|x| (x / total) as u32);
        let rest = scaled.map(|x| x % total);
        let missing = 100 - out.iter().sum::<u32>();
        let mut order = [0usize, 1, 2, 3];
        order.sort_by(|&a, &b| rest[b].cmp(&rest[a]).then(a.cmp(&b)));
        for &i in order.iter().take(missing as usize) {
            out[i] += 1;
        }
        out
    }

    fn add(&mut self, outcome: u8) {
        self.games += 1;
        match outcome {
            WHITE_WON => self.white += 1,
            DRAWN => self.draws += 1,
            BLACK_WON => self.black += 1,
            _ => {}
        }
    }
}

/// A move of the archive in a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ExplorerMove {
    /// The move (legal in the probed position).
    pub mv: Move,
    /// The games that played it there, and their results.
    pub tally: Tally,
}

/// What the archive says about a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExplorerPosition {
    /// The games that reached the position (including those that ended there), and their results.
    pub tally: Tally,
    /// The moves played from it, most played first (ties in reading order, as
    /// [`Position::legal_moves_sorted`]).
    pub moves: Vec<ExplorerMove>,
}

/// What went into an index.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ArchiveStats {
    /// Games read (including those skipped).
    pub games: u32,
    /// Games indexed (their main line, or its part before an illegal move).
    pub indexed: u32,
    /// Games indexed only up to an illegal or ambiguous move of their main line.
    pub stopped_early: u32,
    /// Games left out: unreadable text, an unsupported `GameType`, a bad `FEN`.
    pub skipped: u32,
    /// Positions indexed (counted once per game), over all games.
    pub plies: u64,
}

const WHITE_WON: u8 = 0;
const DRAWN: u8 = 1;
const BLACK_WON: u8 = 2;
const UNKNOWN: u8 = 3;
/// The move index of a game's last position (no move played there).
const NO_MOVE: u16 = u16::MAX;

/// One visit of a game to a position, as collected before [`ExplorerBuilder::build`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Visit {
    key: u64,
    /// Index of the move in [`Position::legal_moves_sorted`], or [`NO_MOVE`].
    mv: u16,
    /// The first visit of its game to this position (counts in the position's tally).
    first: bool,
    outcome: u8,
}

fn slot(v: Variant) -> usize {
    match v {
        Variant::American => 0,
        Variant::Pool => 1,
        Variant::Impasse => 2,
    }
}

/// Collects the games of an archive (in as many pieces as wanted, e.g. chunks of a big file read
/// with progress), then [`ExplorerBuilder::build`]s the [`Explorer`]. Holds 16 bytes per position of
/// every game until then.
#[derive(Clone, Debug, Default)]
pub struct ExplorerBuilder {
    visits: [Vec<Visit>; 3],
    stats: ArchiveStats,
}

impl ExplorerBuilder {
    /// An empty builder.
    pub fn new() -> ExplorerBuilder {
        ExplorerBuilder::default()
    }

    /// Add every game of a PDN text (see the module documentation for what is counted). Never
    /// fails: an unreadable game is counted in [`ArchiveStats::skipped`].
    pub fn add_pdn(&mut self, text: &str) {
        for game in PdnReader::new(text.as_bytes()) {
            match game {
                Ok(g) => self.add_game(&g),
                Err(_) => {
                    self.stats.games += 1;
                    self.stats.skipped += 1;
                }
            }
        }
    }

    /// Add one game read by the [`PdnReader`]: its main line as far as it replays, with the
    /// file's result.
    pub fn add_game(&mut self, game: &PdnGame) {
        self.stats.games += 1;
        match replay_prefix(game) {
            Ok((r, failure)) => {
                if failure.is_some() {
                    self.stats.stopped_early += 1;
                }
                self.index(&r, game.final_result().and_then(PdnResult::parse));
            }
            Err(_) => self.stats.skipped += 1,
        }
    }

    /// Add a replayed game with its result (`None`: unknown).
    pub fn add_replay(&mut self, game: &Replay, result: Option<PdnResult>) {
        self.stats.games += 1;
        self.index(game, result);
    }

    fn index(&mut self, game: &Replay, result: Option<PdnResult>) {
        self.stats.indexed += 1;
        let outcome = match result.map(|r| r.winner(game.variant)) {
            Some(Some(Color::White)) => WHITE_WON,
            Some(Some(Color::Black)) => BLACK_WON,
            Some(None) => DRAWN,
            None => UNKNOWN,
        };
        let mut mine: Vec<Visit> = Vec::with_capacity(game.moves.len() + 1);
        let mut pos = game.start;
        for mv in &game.moves {
            let index = pos
                .legal_moves_sorted()
                .iter()
                .position(|m| m == mv)
                .and_then(|i| u16::try_from(i).ok())
                .unwrap_or(NO_MOVE);
            mine.push(Visit {
                key: pos.zobrist(),
                mv: index,
                first: false,
                outcome,
            });
            pos.play(mv);
        }
        mine.push(Visit {
            key: pos.zobrist(),
            mv: NO_MOVE,
            first: false,
            outcome,
        });
        // once per (position, move), and the first visit of each position marked
        mine.sort_unstable();
        mine.dedup_by_key(|v| (v.key, v.mv));
        let mut last = None;
        for v in &mut mine {
            v.first = last != Some(v.key);
            last = Some(v.key);
        }
        self.stats.plies += mine.iter().filter(|v| v.first).count() as u64;
        self.visits[slot(game.variant)].extend(mine);
    }

    /// What went in so far.
    pub fn stats(&self) -> ArchiveStats {
        self.stats
    }

    /// The explorer of the games added so far (the builder is kept: more games may follow).
    pub fn build(&self) -> Explorer {
        let tables = [0, 1, 2].map(|i| Table::of(&self.visits[i]));
        Explorer {
            tables,
            stats: self.stats,
        }
    }
}

/// A move of a position as stored: its index in [`Position::legal_moves_sorted`] and its tally.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct MoveRecord {
    index: u16,
    tally: Tally,
}

/// The positions of one variant, sorted by key (like an opening book, `crown_ai::book`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Table {
    keys: Vec<u64>,
    totals: Vec<Tally>,
    /// `firsts[i]..firsts[i + 1]` are the moves of position `i` (one extra element at the end).
    firsts: Vec<u32>,
    moves: Vec<MoveRecord>,
}

impl Table {
    fn of(visits: &[Visit]) -> Table {
        let mut sorted = visits.to_vec();
        sorted.sort_unstable_by_key(|v| (v.key, v.mv));
        let mut t = Table::default();
        let mut i = 0;
        while i < sorted.len() {
            let key = sorted[i].key;
            t.keys.push(key);
            t.firsts.push(t.moves.len() as u32);
            let mut total = Tally::default();
            while i < sorted.len() && sorted[i].key == key {
                let mv = sorted[i].mv;
                let mut tally = Tally::default();
                while i < sorted.len() && sorted[i].key == key && sorted[i].mv == mv {
                    if sorted[i].first {
                        total.add(sorted[i].outcome);
                    }
                    tally.add(sorted[i].outcome);
                    i += 1;
                }
                if mv != NO_MOVE {
                    t.moves.push(MoveRecord { index: mv, tally });
                }
            }
            t.totals.push(total);
        }
        t.firsts.push(t.moves.len() as u32);
        t.keys.shrink_to_fit();
        t.totals.shrink_to_fit();
        t.firsts.shrink_to_fit();
        t.moves.shrink_to_fit();
        t
    }

    fn heap_bytes(&self) -> usize {
        self.keys.capacity() * std::mem::size_of::<u64>()
            + self.totals.capacity() * std::mem::size_of::<Tally>()
            + self.firsts.capacity() * std::mem::size_of::<u32>()
            + self.moves.capacity() * std::mem::size_of::<MoveRecord>()
    }
}

/// The index of an archive: position → moves played there with counts and results, for the three
/// games. Built by [`ExplorerBuilder`] or [`Explorer::from_pdn`]; read with [`Explorer::probe`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Explorer {
    tables: [Table; 3],
    stats: ArchiveStats,
}

impl Explorer {
    /// The explorer of every game of a PDN text (see [`ExplorerBuilder::add_pdn`]).
    pub fn from_pdn(text: &str) -> Explorer {
        let mut b = ExplorerBuilder::new();
        b.add_pdn(text);
        b.build()
    }

    /// What the archive says about `pos`: the games that reached it and the moves played there,
    /// most played first. Empty (no game) when no game of the archive reached it.
    pub fn probe(&self, pos: &Position) -> ExplorerPosition {
        let t = &self.tables[slot(pos.variant())];
        let Ok(i) = t.keys.binary_search(&pos.zobrist()) else {
            return ExplorerPosition::default();
        };
        let legal = pos.legal_moves_sorted();
        let mut moves: Vec<(u16, ExplorerMove)> = t.moves
            [t.firsts[i] as usize..t.firsts[i + 1] as usize]
            .iter()
            .filter_map(|r| {
                legal
                    .get(usize::from(r.index))
                    .map(|&mv| (r.index, ExplorerMove { mv, tally: r.tally }))
            })
            .collect();
        moves.sort_by(|a, b| b.1.tally.games.cmp(&a.1.tally.games).then(a.0.cmp(&b.0)));
        ExplorerPosition {
            tally: t.totals[i],
            moves: moves.into_iter().map(|(_, m)| m).collect(),
        }
    }

    /// What went into the index.
    pub fn stats(&self) -> ArchiveStats {
        self.stats
    }

    /// Number of distinct positions indexed (all games).
    pub fn positions(&self) -> usize {
        self.tables.iter().map(|t| t.keys.len()).sum()
    }

    /// Bytes the index holds on the heap (its sorted arrays; the struct itself is a few hundred
    /// bytes more).
    pub fn heap_bytes(&self) -> usize {
        self.tables.iter().map(Table::heap_bytes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_to_pdn;
    use crown_core::Game;

    /// Play `moves` (Crown move text) from `pos`.
    fn after(pos: Position, moves: &[&str]) -> Position {
        let mut p = pos;
        for m in moves {
            let mv = p.parse_move(m).unwrap();
            p.play(&mv);
        }
        p
    }

    fn am() -> Position {
        Position::new(Variant::American)
    }

    /// The moves of `pos` as `(text, games, white, draws, black)`.
    fn rows(e: &Explorer, pos: &Position) -> Vec<(String, u32, u32, u32, u32)> {
        e.probe(pos)
            .moves
            .iter()
            .map(|m| {
                let t = m.tally;
                (pos.move_text(&m.mv), t.games, t.white, t.draws, t.black)
            })
            .collect()
    }

    /// Five American games, a pool game and an unreadable game, counted by hand below.
    /// Games 1 and 2 transpose: 11-15 23-19 8-11 22-17 and 11-15 22-17 8-11 23-19 reach the same
    /// position (Black men moved 11→15 and 8→11, White 23→19 and 22→17).
    const ARCHIVE: &str = r#"
[Event "g1"]
1. 11-15 23-19 2. 8-11 22-17 3. 9-13 1-0

[Event "g2"]
1. 11-15 22-17 2. 8-11 23-19 3. 9-14 1/2-1/2

[Event "g3"]
1. 9-13 22-18 0-1

[Event "g4"]
[Result "0-1"]
1. 11-15 23-19 2. 8-11 22-17 3. 9-13 *

[Event "g5"]
1. 11-15 (1. 9-14) *

[Event "pool"]
[GameType "23"]
1. 12-16 1-0

[Event "unsupported"]
[GameType "20"]
1. 32-28 *
"#;

    #[test]
    fn hand_counted_archive() {
        let e = Explorer::from_pdn(ARCHIVE);
        let s = e.stats();
        assert_eq!(
            (s.games, s.indexed, s.skipped, s.stopped_early),
            (7, 6, 1, 0)
        );
        // The start: g1 (1-0: Black, the first player, won), g2 (draw), g4 (the terminator `*`,
        // so the Result tag 0-1: White won), g5 (unknown) played 11-15; g3 (0-1) played 9-13. g5's
        // variation 9-14 is not a game played and is not counted.
        let start = e.probe(&am());
        assert_eq!(
            start.tally,
            Tally {
                games: 5,
                white: 2,
                draws: 1,
                black: 1
            }
        );
        assert_eq!(
            rows(&e, &am()),
            vec![("11-15".into(), 4, 1, 1, 1), ("9-13".into(), 1, 1, 0, 0)]
        );
        assert_eq!(start.moves[0].tally.unknown(), 1);
        // After 11-15: g1, g4 played 23-19, g2 22-17; g5 ended there.
        let p = after(am(), &["11-15"]);
        assert_eq!(e.probe(&p).tally.games, 4);
        assert_eq!(
            rows(&e, &p),
            vec![("23-19".into(), 2, 1, 0, 1), ("22-17".into(), 1, 0, 1, 0)]
        );
        // The transposed position: g1, g2, g4 reach it by two move orders.
        let a = after(am(), &["11-15", "23-19", "8-11", "22-17"]);
        let b = after(am(), &["11-15", "22-17", "8-11", "23-19"]);
        assert_eq!(a, b);
        assert_eq!(e.probe(&a).tally.games, 3);
        assert_eq!(
            rows(&e, &a),
            vec![("9-13".into(), 2, 1, 0, 1), ("9-14".into(), 1, 0, 1, 0)]
        );
        // Positions on one line only: after 11-15 23-19 8-11 (g1, g4).
        assert_eq!(
            rows(&e, &after(am(), &["11-15", "23-19", "8-11"])),
            vec![("22-17".into(), 2, 1, 0, 1)]
        );
        // The end of g1 and g4: reached, no move played.
        let end = after(am(), &["11-15", "23-19", "8-11", "22-17", "9-13"]);
        assert_eq!(e.probe(&end).tally.games, 2);
        assert!(e.probe(&end).moves.is_empty());
        // A position no game reached.
        assert_eq!(
            e.probe(&after(am(), &["10-14"])),
            ExplorerPosition::default()
        );
        // Pool is a game of its own: the same start position, only the pool game.
        let pool = Position::new(Variant::Pool);
        assert_eq!(rows(&e, &pool), vec![("12-16".into(), 1, 0, 0, 1)]);
    }

    #[test]
    fn a_repetition_counts_once() {
        // The kings go 32-27 1-5 27-32 5-1 32-27 1-6: the start comes back once with the same move
        // (one game, one 32-27), the position after 32-27 twice with two moves (one game, 1-5 once
        // and 1-6 once).
        let e =
            Explorer::from_pdn("[FEN \"W:WK32:BK1\"]\n1. 32-27 1-5 2. 27-32 5-1 3. 32-27 1-6 *");
        let start = Position::from_fen(Variant::American, "W:WK32:BK1").unwrap();
        assert_eq!(e.probe(&start).tally.games, 1);
        assert_eq!(rows(&e, &start), vec![("32-27".into(), 1, 0, 0, 0)]);
        let p = after(start, &["32-27"]);
        assert_eq!(e.probe(&p).tally.games, 1);
        assert_eq!(
            rows(&e, &p),
            vec![("1-5".into(), 1, 0, 0, 0), ("1-6".into(), 1, 0, 0, 0)]
        );
    }

    #[test]
    fn impasse_first_player_is_white() {
        let mut g = Game::new(Variant::Impasse);
        let start = *g.position();
        let first = start.legal_moves_sorted()[0];
        g.play(&first).unwrap();
        let text = game_to_pdn(&g, &[("Result", "1-0")]);
        let e = Explorer::from_pdn(&text);
        let here = e.probe(&start);
        assert_eq!(here.moves.len(), 1);
        assert_eq!(here.moves[0].mv, first);
        // "1-0": the first player won, White in Impasse
        assert_eq!(here.moves[0].tally.white, 1);
        // and the American start knows nothing of it
        assert_eq!(e.probe(&am()).tally.games, 0);
    }

    #[test]
    fn a_game_stopping_early_counts_up_to_there() {
        // 11-17 is not a move (a man steps to an adjacent square: 11-15 or 11-16).
        let e = Explorer::from_pdn("1. 11-15 23-19 2. 11-17 22-17 1-0");
        assert_eq!(e.stats().stopped_early, 1);
        assert_eq!(rows(&e, &am()), vec![("11-15".into(), 1, 0, 0, 1)]);
        let p = after(am(), &["11-15", "23-19"]);
        assert_eq!(e.probe(&p).tally.games, 1);
        assert!(e.probe(&p).moves.is_empty());
    }

    #[test]
    fn chunks_add_up() {
        let mut b = ExplorerBuilder::new();
        for part in ARCHIVE.split("\n\n") {
            b.add_pdn(part);
        }
        assert_eq!(b.build(), Explorer::from_pdn(ARCHIVE));
    }

    #[test]
    fn percentages_add_up_to_100() {
        let t = |games, white, draws, black| Tally {
            games,
            white,
            draws,
            black,
        };
        assert_eq!(t(0, 0, 0, 0).percentages(), [0, 0, 0, 0]);
        assert_eq!(t(4, 1, 1, 1).percentages(), [25, 25, 25, 25]);
        // thirds: 33.3 each, the one point left goes to the first share
        assert_eq!(t(3, 1, 1, 1).percentages(), [34, 33, 33, 0]);
        // 2/7 = 28.57, 4/7 = 57.14, 1/7 = 14.29: floors 28 + 57 + 14 = 99, the largest remainder
        // (.57, White) gets the point
        assert_eq!(t(7, 2, 4, 1).percentages(), [29, 57, 14, 0]);
        assert_eq!(t(1, 0, 0, 0).percentages(), [0, 0, 0, 100]);
    }

    #[test]
    fn bad_text_never_panics() {
        for text in [
            "",
            "[",
            "1. 99-100 *",
            "{",
            "[FEN \"X\"] 1. 11-15 *",
            "1. 11-15 (((( *",
        ] {
            let e = Explorer::from_pdn(text);
            let _ = e.probe(&am());
        }
    }
}

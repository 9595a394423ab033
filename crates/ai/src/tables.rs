//! Endgame databases as the search sees them.
//!
//! The engine does not read database files itself (that is `crown-egdb`, which needs the file
//! system and so cannot run in the browser): it asks an [`EndgameTables`] for the perfect-play value
//! of a position. Front ends open the databases once and hand the same `Arc` to every engine with
//! [`crate::Engine::set_tables`]; with the `egdb` feature, `load` does that for the files of
//! `crown-egdb`, and with the `egdb-build` feature [`auto`] builds the recommended set in the
//! background when a front end's database directory lacks it.
//!
//! A database value is from the side to move's point of view: win, draw or loss under perfect
//! play, and for wins and losses the distance in plies to the end of the game (the side with no
//! legal move, or in Impasse the side whose checkers are all gone). The values ignore the 40-move
//! rule and repetition (the standard for checkers databases); the search applies them along its own
//! lines.

use crown_core::{Color, Position, Variant};

/// A perfect-play result from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The side to move loses.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins.
    Win,
}

/// One database answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TableProbe {
    /// Win, draw or loss for the side to move.
    pub wdl: Wdl,
    /// Plies to the end of the game under perfect play (the winner shortest, the loser longest);
    /// `None` for draws.
    pub distance: Option<u32>,
}

/// Endgame databases the search can probe. Implementations must be cheap enough to call at every
/// node with few pieces (a cached lookup), and safe to share between search threads.
pub trait EndgameTables: Send + Sync {
    /// The largest number of pieces on the board (kings, men, singles and doubles each count once)
    /// of any position of `variant` the tables may answer for; 0 when they hold nothing for it.
    /// The search only asks about positions with at most this many pieces.
    fn max_pieces(&self, variant: Variant) -> u32;

    /// The value of `pos`, or `None` when the tables do not hold it (a class not built, a position
    /// kind not stored, or a read error: the search then goes on as without tables).
    fn probe(&self, pos: &Position) -> Option<TableProbe>;

    /// One line for people saying what is loaded, e.g. `american ≤4 pieces, pool ≤4 pieces`.
    fn describe(&self) -> String;

    /// Problems met while loading that left part of the tables out (e.g. a damaged file: only its
    /// class is missing), one line each naming the file and what is wrong. Front ends print them
    /// once as warnings. None by default.
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }
}

/// Pieces on the board (both sides; a king or double counts once), the measure of
/// [`EndgameTables::max_pieces`].
pub fn pieces_on_board(pos: &Position) -> u32 {
    pos.piece_count(Color::White) + pos.piece_count(Color::Black)
}

/// The value of `pos` when the tables may cover it: `None` when the position has more pieces than
/// the tables hold for its variant, or when they do not answer.
pub fn probe(tables: &dyn EndgameTables, pos: &Position) -> Option<TableProbe> {
    if pieces_on_board(pos) > tables.max_pieces(pos.variant()) {
        return None;
    }
    tables.probe(pos)
}

#[cfg(feature = "egdb")]
mod files {
    use super::{EndgameTables, TableProbe, Wdl};
    use crown_core::{Position, Variant};
    use std::path::{Path, PathBuf};
    use std::sync::Arc;

    impl EndgameTables for crown_egdb::Tablebase {
        /// The largest class loaded, so that the classes of an incomplete piece count are probed
        /// too (`probe` answers only for the classes present).
        fn max_pieces(&self, variant: Variant) -> u32 {
            crown_egdb::Tablebase::max_loaded_pieces(self, variant)
        }

        fn probe(&self, pos: &Position) -> Option<TableProbe> {
            if !self.covers(pos) {
                return None;
            }
            let p = crown_egdb::Tablebase::probe(self, pos).ok()?;
            let wdl = match p.wdl {
                crown_egdb::Wdl::Win => Wdl::Win,
                crown_egdb::Wdl::Draw => Wdl::Draw,
                crown_egdb::Wdl::Loss => Wdl::Loss,
            };
            Some(TableProbe {
                wdl,
                distance: p.distance,
            })
        }

        fn describe(&self) -> String {
            crown_egdb::Tablebase::describe(self)
        }

        fn warnings(&self) -> Vec<String> {
            self.damaged()
                .iter()
                .map(|(_, why)| {
                    format!("{why}; that class is left out (rebuild it with `crown egdb build`)")
                })
                .collect()
        }
    }

    /// Open the databases of `crown-egdb` in `dir`, or in [`crown_egdb::Tablebase::default_dir`]
    /// (`$CROWN_EGDB_DIR` or the per-user data directory) when `dir` is `None`.
    ///
    /// A damaged file leaves out only its class: the others are loaded and
    /// [`EndgameTables::warnings`] names the file. Returns `Ok(None)` when no directory is given
    /// and there is no default one, when the per-user default directory does not exist (nothing
    /// built yet: not an error), or when the directory holds no database file at all.
    ///
    /// # Errors
    /// One line naming the directory and what is wrong when the directory was given (`dir`, or
    /// `$CROWN_EGDB_DIR`) and does not exist, is not a directory, cannot be listed, or holds
    /// database files of which none can be used (the first one named). Front ends print it as a
    /// warning and play on without databases.
    pub fn load(dir: Option<&Path>) -> Result<Option<Arc<dyn EndgameTables>>, String> {
        let env_dir = std::env::var_os("CROWN_EGDB_DIR").filter(|d| !d.is_empty());
        let (dir, origin) = match (dir, env_dir) {
            (Some(d), _) => (d.to_path_buf(), Some("endgame database directory")),
            (None, Some(d)) => (PathBuf::from(d), Some("CROWN_EGDB_DIR")),
            (None, None) => match crown_egdb::Tablebase::default_dir() {
                Some(d) => (d, None),
                None => return Ok(None),
            },
        };
        if !dir.is_dir() {
            return match origin {
                Some(what) if dir.exists() => {
                    Err(format!("{what} {} is not a directory", dir.display()))
                }
                Some(what) => Err(format!("{what} {} does not exist", dir.display())),
                None => Ok(None),
            };
        }
        let tb = crown_egdb::Tablebase::open(&dir).map_err(|e| {
            format!(
                "cannot open the endgame databases in {}: {e}",
                dir.display()
            )
        })?;
        let loaded = [Variant::American, Variant::Pool, Variant::Impasse]
            .iter()
            .any(|&v| tb.max_loaded_pieces(v) > 0);
        if loaded {
            return Ok(Some(Arc::new(tb)));
        }
        match tb.damaged().first() {
            Some((_, why)) => Err(format!(
                "cannot open the endgame databases in {}: {why}{}",
                dir.display(),
                match tb.damaged().len() {
                    1 => String::new(),
                    n => format!(" (and {} more damaged files)", n - 1),
                }
            )),
            None => Ok(None),
        }
    }
}

#[cfg(feature = "egdb")]
pub use files::load;

#[cfg(feature = "egdb-build")]
pub mod auto;

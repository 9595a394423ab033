//! Endgame databases in the browser: small ones, built in memory at first use.
//!
//! The browser has no database files, so the engine's tables are computed by crown-egdb's
//! in-memory builder ([`crown_egdb::build_in_memory`]) the first time a game of that variant is
//! searched, once per page (worker): every class with at most [`PIECES`] pieces (American and pool:
//! pieces on the board; Impasse: checkers). That costs a fraction of a second once (docs/egdb.md,
//! "Web UI") and no download; the engine then converts simple won king endings (two kings against
//! one) by the databases' shortest win, like the native front ends with their files.

use crown_ai::EndgameTables;
use crown_core::Variant;
use std::sync::{Arc, OnceLock};

/// The largest piece count built in the browser for each game (American, pool, Impasse).
pub const PIECES: [(Variant, u32); 3] = [
    (Variant::American, 3),
    (Variant::Pool, 3),
    (Variant::Impasse, 3),
];

/// The tables of `variant`, built on the first call (later calls share them); `None` if the
/// build fails (it does not for these sizes; the engine then plays without tables).
pub fn for_variant(variant: Variant) -> Option<Arc<dyn EndgameTables>> {
    static BUILT: [OnceLock<Option<Arc<dyn EndgameTables>>>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let (slot, pieces) = match variant {
        Variant::American => (0, PIECES[0].1),
        Variant::Pool => (1, PIECES[1].1),
        Variant::Impasse => (2, PIECES[2].1),
    };
    BUILT[slot]
        .get_or_init(|| {
            crown_egdb::build_in_memory(variant, pieces)
                .ok()
                .map(|t| Arc::new(t) as Arc<dyn EndgameTables>)
        })
        .clone()
}

//! Endgame databases in the browser: the server's files when the page can fetch them, else small
//! ones built in memory at first use.
//!
//! Served by `crown-server` (`/egdb/index.json`), the page's worker fetches the ≤4-piece files of
//! the game about to be searched and hands them over with [`add_table_file`] and [`use_tables`]
//! (`crown_egdb::Tablebase::from_file_bytes`: no file system); from then on that game's searches
//! probe them. Without a server (offline, a plain static host) the engine's tables are computed by
//! crown-egdb's in-memory builder ([`crown_egdb::build_in_memory`]) the first time a game of that variant is
//! searched, once per page (worker): every class with at most [`PIECES`] pieces (American and pool:
//! pieces on the board; Impasse: checkers). That costs a fraction of a second once (docs/egdb.md,
//! "Web UI") and no download; the engine then converts simple won king endings (two kings against
//! one) by the databases' shortest win, like the native front ends with their files.

use crown_ai::EndgameTables;
use crown_core::Variant;
use std::sync::{Arc, Mutex, OnceLock};
use wasm_bindgen::prelude::*;

/// Files handed over by [`add_table_file`], waiting for [`use_tables`].
static PENDING: Mutex<Vec<(String, Vec<u8>)>> = Mutex::new(Vec::new());

/// The tables loaded from files, per game (American, pool, Impasse).
static LOADED: [Mutex<Option<Arc<dyn EndgameTables>>>; 3] =
    [Mutex::new(None), Mutex::new(None), Mutex::new(None)];

fn slot(variant: Variant) -> usize {
    match variant {
        Variant::American => 0,
        Variant::Pool => 1,
        Variant::Impasse => 2,
    }
}

/// Keep one database file (its name as the server lists it, e.g. `american-m0k2-m1k1.egdb`, and
/// its bytes) for the next [`use_tables`].
#[wasm_bindgen(js_name = addTableFile)]
pub fn add_table_file(name: &str, bytes: &[u8]) {
    PENDING
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((name.to_string(), bytes.to_vec()));
}

/// Open the files given by [`add_table_file`] (then forgotten) as the tables of `variant`
/// (`american`, `pool` or `impasse`) and use them from the next search on, when they hold a
/// complete set larger than the one built in memory ([`PIECES`]). Returns the complete piece
/// count of the files (0 when they are unusable: the in-memory tables stay).
///
/// # Errors
/// `ArgumentError` for an unknown variant.
#[wasm_bindgen(js_name = useTables)]
pub fn use_tables(variant: &str) -> Result<u32, JsValue> {
    let v = crate::parse_variant(variant)?;
    let files = std::mem::take(&mut *PENDING.lock().unwrap_or_else(|e| e.into_inner()));
    Ok(install(v, files))
}

/// [`use_tables`] for a parsed variant.
pub fn install(variant: Variant, files: Vec<(String, Vec<u8>)>) -> u32 {
    let tb = crown_egdb::Tablebase::from_file_bytes(files);
    let n = tb.max_pieces(variant);
    let built = PIECES[slot(variant)].1;
    if n > built {
        *LOADED[slot(variant)]
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(tb));
    }
    n
}

/// The largest piece count built in the browser for each game (American, pool, Impasse).
pub const PIECES: [(Variant, u32); 3] = [
    (Variant::American, 3),
    (Variant::Pool, 3),
    (Variant::Impasse, 3),
];

/// The tables of `variant`: those loaded from files ([`use_tables`]) if any, else built on the
/// first call (later calls share them); `None` if the
/// build fails (it does not for these sizes; the engine then plays without tables).
pub fn for_variant(variant: Variant) -> Option<Arc<dyn EndgameTables>> {
    if let Some(t) = LOADED[slot(variant)]
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
    {
        return Some(t);
    }
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    /// The files of a set larger than the in-memory one replace it; unusable bytes change nothing.
    #[test]
    fn files_from_the_server_replace_the_in_memory_tables() {
        let dir = std::env::temp_dir().join(format!("crown-wasm-tables-{}", std::process::id()));
        let opts = crown_egdb::BuildOptions {
            variant: Variant::Impasse,
            pieces: 4,
            dir: dir.clone(),
            threads: Some(1),
        };
        crown_egdb::build(&opts, &()).unwrap();
        let files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "egdb"))
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read(&p).unwrap())
            })
            .collect();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(
            install(Variant::Pool, vec![("x.egdb".into(), vec![0; 9])]),
            0
        );
        assert!(LOADED[slot(Variant::Pool)].lock().unwrap().is_none());
        assert_eq!(install(Variant::Impasse, files), 4);
        let t = for_variant(Variant::Impasse).unwrap();
        assert_eq!(t.max_pieces(Variant::Impasse), 4);
    }
}

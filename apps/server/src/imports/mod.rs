//! Shared games (docs/api.md, "Shared games"; issue 43): a PDN of one game sent by anyone
//! (`POST /api/imports`) is read and checked with `crown_notation`, stored exactly as sent with a
//! short random id through the store's imports part ([`crate::store::ImportStore`]), and opened
//! at the permanent link `/a/<id>` by the web app's analysis board, variations and comments
//! included.
//!
//! - The text must be UTF-8, at most [`MAX_PDN_BYTES`] bytes, and hold exactly one game that
//!   the reader accepts (its tags, `GameType` and `FEN`); anything else is `400 bad_pdn` naming
//!   what is wrong and where (the game, line and column). A main line with an illegal or
//!   ambiguous move is kept up to that move, as the web app's paste does, and the answer's
//!   `warnings` name the move (with the reader's own warnings).
//! - Each client address may share [`crate::Config::imports_per_hour_per_ip`] games an hour
//!   (`429 import_rate_limited`), an IPv6 client counted by its sign-up network
//!   ([`crate::Config::signup_net_v6_prefix`], default /48).
//! - At most [`MAX_WARNINGS`] warnings are kept (then "… N more warnings"), and the stored
//!   metadata is at most [`MAX_META_BYTES`], so that what is stored stays within a small
//!   multiple of what was sent.
//! - A logged-in importer is recorded as the import's owner and may put it in its archive
//!   ([`Imports::set_archived`]); the archive lists it as imported
//!   (`GET /api/users/{name}/imports`). An import is never a game of the `games` table: it is
//!   never rated and never counted by the ratings, the player's counts or the leaderboard.

use crate::blocking;
use crate::config::Config;
use crate::error::{echo, Error, ErrorKind};
use crate::limit::RateLimiter;
use crate::store::{ImportRecord, SeatAccount, Store, StoreError};
use crown_notation::{replay_prefix, PdnReader};
use serde::{Deserialize, Serialize};
use std::net::IpAddr;
use std::sync::Arc;

/// The largest PDN accepted, in bytes (64 KiB: a long game with many variations and comments).
pub const MAX_PDN_BYTES: usize = 64 * 1024;

/// The most warnings kept and returned for one import: the first ones, then one line
/// "… N more warnings" (issue 41: thousands of illegal variations multiplied what was stored).
pub const MAX_WARNINGS: usize = 20;

/// The most bytes of an import's stored metadata ([`ImportMeta`] as JSON): a PDN whose tags
/// take more once read (JSON escapes a control character in 6 bytes) is `400 bad_pdn`.
pub const MAX_META_BYTES: usize = 2 * MAX_PDN_BYTES;

/// Random bytes of an import id (shown as twice as many hex digits).
pub const ID_BYTES: usize = 5;

/// Default page of an archive's imports.
pub const LIST_DEFAULT: usize = 50;

/// Largest page of an archive's imports.
pub const LIST_MAX: usize = 100;

/// What the server read of a shared PDN: kept as JSON beside the text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportMeta {
    /// The tags in file order, as `[name, value]`.
    pub tags: Vec<(String, String)>,
    /// Plies of the main line that replay (up to an illegal move, if any).
    pub plies: usize,
    /// The game terminator as written (`1-0`, `*`, ...), if any.
    pub result: Option<String>,
    /// What a person may want to check: the reader's repairs and the move the main line stops
    /// at, one printable line each.
    pub warnings: Vec<String>,
}

impl ImportMeta {
    /// The value of tag `name` (any case), if given and not `?`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty() && *v != "?")
    }
}

/// A PDN read and checked: its variant and [`ImportMeta`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadPdn {
    /// Variant id (`american`, `pool`, `impasse`).
    pub variant: String,
    /// What was read.
    pub meta: ImportMeta,
}

/// `400 bad_pdn` saying `why`.
fn bad_pdn(why: impl Into<String>) -> Error {
    Error::invalid("bad_pdn", why)
}

/// 1-based line of byte `offset` of `bytes`.
fn line_at(bytes: &[u8], offset: usize) -> usize {
    1 + bytes[..offset.min(bytes.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// Read and check the PDN `bytes` of one game (see the module documentation).
///
/// # Errors
/// `400 bad_pdn` naming what is wrong and where: not UTF-8 or a NUL byte (the byte offset and
/// line), no game in the text, a game of neither tags nor moves (its line), more than one game
/// (where the second starts), a game the reader cannot read (syntax, `GameType`, `FEN`: the line
/// and column); `413 payload_too_large` over
/// [`MAX_PDN_BYTES`].
pub fn read_pdn(bytes: &[u8]) -> Result<(String, ReadPdn), Error> {
    if bytes.len() > MAX_PDN_BYTES {
        return Err(Error::new(
            ErrorKind::TooLarge,
            "payload_too_large",
            format!(
                "the PDN is {} bytes; at most {MAX_PDN_BYTES} are accepted",
                bytes.len()
            ),
        ));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        bad_pdn(format!(
            "the PDN is not UTF-8: byte {at} (line {}) starts no UTF-8 character",
            line_at(bytes, at)
        ))
    })?;
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        return Err(bad_pdn(format!(
            "the PDN holds a NUL byte at byte {at} (line {})",
            line_at(bytes, at)
        )));
    }
    let mut games = PdnReader::new(bytes);
    let Some(first) = games.next() else {
        return Err(bad_pdn(format!(
            "the body holds no PDN game: none of its {} line(s) is a tag or a move",
            text.lines().count()
        )));
    };
    let game = first.map_err(|e| bad_pdn(e.line("", "")))?;
    if let Some(second) = games.next() {
        let line = match &second {
            Ok(g) => g.line,
            Err(e) => e.location.line,
        };
        return Err(bad_pdn(format!(
            "the PDN holds more than one game (game 2 starts at line {line}); share one game at a time"
        )));
    }
    if game.tags.is_empty() && game.main_line().next().is_none() {
        return Err(bad_pdn(format!(
            "the game at line {} has no tags and no moves: nothing to share",
            game.line
        )));
    }
    let (replayed, stop) = replay_prefix(&game).map_err(|e| bad_pdn(e.line("", "")))?;
    let warnings = cap_warnings(
        replayed.warnings.iter().map(|w| w.line("")).collect(),
        stop.as_ref()
            .map(|e| e.line("", " (the game is kept up to this move)")),
    );
    let read = ReadPdn {
        variant: replayed.variant.id().to_string(),
        meta: ImportMeta {
            tags: game.tags.clone(),
            plies: replayed.moves.len(),
            result: game.result.clone(),
            warnings,
        },
    };
    Ok((text.to_string(), read))
}

/// The reader's `warnings` then the `stop` (the move the main line stops at), at most
/// [`MAX_WARNINGS`] of them, and in place of the rest one line saying how many more there were.
/// The stop is always kept (in place of the last reader's warning kept), so that the answer
/// names where the game stops.
fn cap_warnings(mut warnings: Vec<String>, stop: Option<String>) -> Vec<String> {
    let total = warnings.len() + usize::from(stop.is_some());
    if total <= MAX_WARNINGS {
        warnings.extend(stop);
        return warnings;
    }
    warnings.truncate(MAX_WARNINGS - usize::from(stop.is_some()));
    warnings.extend(stop);
    let more = total - warnings.len();
    warnings.push(format!("… {more} more warnings"));
    warnings
}

/// The stored JSON of `meta`, at most [`MAX_META_BYTES`].
///
/// # Errors
/// `400 bad_pdn` naming the size when it is larger; `storage` if it cannot be written.
fn meta_json(meta: &ImportMeta) -> Result<String, Error> {
    let json = serde_json::to_string(meta).map_err(Error::storage)?;
    if json.len() > MAX_META_BYTES {
        return Err(bad_pdn(format!(
            "the game's {} tag(s) take {} bytes once read; at most {MAX_META_BYTES} are kept",
            meta.tags.len(),
            json.len()
        )));
    }
    Ok(json)
}

/// Whether `id` can be an import id ([`ID_BYTES`] bytes in lower-case hex): others are
/// `not_found` without a look in the store.
pub fn is_import_id(id: &str) -> bool {
    id.len() == 2 * ID_BYTES && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// `404 not_found` for import `id` (quoted as [`echo`] shows it: a long id is not sent back).
pub fn not_found(id: &str) -> Error {
    Error::new(
        ErrorKind::NotFound,
        "not_found",
        format!("no shared game with id {}", echo(id)),
    )
}

/// `imports_unavailable` (503): the store keeps no imports.
fn unavailable() -> Error {
    Error::new(
        ErrorKind::Full,
        "imports_unavailable",
        "this server's store keeps no shared games",
    )
}

/// `429 import_rate_limited`: wait `secs` seconds.
fn limited(secs: u64) -> Error {
    Error::limited(
        "import_rate_limited",
        format!("too many games shared from this address; retry in {secs} s"),
    )
    .with(crate::error::Detail::RetryAfterMs(
        secs.saturating_mul(1000),
    ))
}

/// The link of import `id` in the web app.
pub fn url_of(id: &str) -> String {
    format!("/a/{id}")
}

/// One import as read back: the record and its [`ImportMeta`].
#[derive(Clone, Debug)]
pub struct Import {
    /// The stored row (its `pdn` empty in a listing).
    pub rec: ImportRecord,
    /// What was read of the PDN.
    pub meta: ImportMeta,
}

impl Import {
    /// `rec` with its meta read.
    ///
    /// # Errors
    /// `storage` when the stored JSON is not an [`ImportMeta`].
    fn of(rec: ImportRecord) -> Result<Import, Error> {
        let meta = serde_json::from_str(&rec.meta).map_err(|e| {
            Error::storage(StoreError::Corrupt {
                id: rec.id.clone(),
                reason: e.to_string(),
            })
        })?;
        Ok(Import { rec, meta })
    }

    /// The summary of an archive listing: `{id, url, imported: true, rated: false, variant,
    /// event, black, white, date, result, plies, created_ms}`.
    pub fn summary(&self) -> serde_json::Value {
        let m = &self.meta;
        serde_json::json!({
            "id": self.rec.id,
            "url": url_of(&self.rec.id),
            "imported": true,
            "rated": false,
            "variant": self.rec.variant,
            "event": m.tag("Event"),
            "black": m.tag("Black"),
            "white": m.tag("White"),
            "date": m.tag("Date"),
            "result": m.result,
            "plies": m.plies,
            "created_ms": self.rec.created_ms,
        })
    }
}

/// The shared-games feature: the store and the per-network limit.
pub struct Imports {
    store: Arc<dyn Store>,
    by_ip: RateLimiter,
    v6_prefix: u8,
}

impl Imports {
    /// The imports of `store`, with the limit of `config`
    /// ([`Config::imports_per_hour_per_ip`], an IPv6 client counted by its
    /// [`Config::signup_net_v6_prefix`] network).
    pub fn new(config: &Config, store: Arc<dyn Store>) -> Imports {
        let n = config.imports_per_hour_per_ip;
        Imports {
            store,
            by_ip: RateLimiter::keyed(f64::from(n) / 3600.0, n),
            v6_prefix: config.signup_net_v6_prefix,
        }
    }

    /// Run `f` on the store's imports on a blocking thread.
    ///
    /// # Errors
    /// `imports_unavailable` (503) for a store without imports; `storage` when it fails.
    async fn with_store<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn crate::store::ImportStore) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, Error> {
        let store = self.store.clone();
        blocking::store(move || Ok(store.imports().map(f)))
            .await?
            .ok_or_else(unavailable)?
            .map_err(Error::storage)
    }

    /// Share the PDN `bytes` from client `ip`, imported by `owner` (a log-in session) or a
    /// guest: read and check it ([`read_pdn`]), store it with a new id, and return it.
    ///
    /// # Errors
    /// `import_rate_limited` (429), those of [`read_pdn`], `no_randomness`,
    /// `imports_unavailable` (503), `storage`.
    pub async fn import(
        &self,
        ip: Option<IpAddr>,
        owner: Option<SeatAccount>,
        bytes: Vec<u8>,
    ) -> Result<Import, Error> {
        // Counted per sign-up network (an IPv4 client by its /24, an IPv6 client by its /48, not
        // its /64: one line's /64s are one client's).
        let net = ip.map(|ip| crate::accounts::network::network_block(ip, self.v6_prefix));
        self.by_ip.check(net).map_err(limited)?;
        let (pdn, read) = tokio::task::spawn_blocking(move || read_pdn(&bytes))
            .await
            .map_err(Error::storage)??;
        let rec = ImportRecord {
            id: crate::token::random_hex(ID_BYTES)?,
            owner: owner.map(|o| o.user_id),
            archived: false,
            variant: read.variant,
            meta: meta_json(&read.meta)?,
            pdn,
            created_ms: crate::games::live::now_ms(),
        };
        let r2 = rec.clone();
        self.with_store(move |s| s.create_import(&r2)).await?;
        Ok(Import {
            rec,
            meta: read.meta,
        })
    }

    /// The import `id` with its PDN.
    ///
    /// # Errors
    /// `404 not_found`, `imports_unavailable` (503), `storage`.
    pub async fn get(&self, id: &str) -> Result<Import, Error> {
        if !is_import_id(id) {
            return Err(not_found(id));
        }
        let key = id.to_string();
        let rec = self.with_store(move |s| s.load_import(&key)).await?;
        Import::of(rec.ok_or_else(|| not_found(id))?)
    }

    /// Put import `id` in the archive of `me` (`archived`) or take it out of it.
    ///
    /// # Errors
    /// `401 not_logged_in` (no session), `404 not_found`, `403 not_importer` (`me` did not
    /// import it), `imports_unavailable` (503), `storage`.
    pub async fn set_archived(
        &self,
        id: &str,
        me: Option<&SeatAccount>,
        archived: bool,
    ) -> Result<(), Error> {
        let me = me.ok_or_else(crate::accounts::not_logged_in)?;
        let import = self.get(id).await?;
        if import.rec.owner.as_deref() != Some(me.user_id.as_str()) {
            return Err(Error::new(
                ErrorKind::NotSeated,
                "not_importer",
                "only the account that shared this game can put it in its archive",
            ));
        }
        let (key, owner) = (id.to_string(), me.user_id.clone());
        let changed = self
            .with_store(move |s| s.set_import_archived(&key, &owner, archived))
            .await?;
        if changed {
            Ok(())
        } else {
            Err(not_found(id))
        }
    }

    /// The imports in the archive of account `user_id`, newest first: at most `limit` created
    /// before `before_ms`, and the `before_ms` of the next page (`None`: no more). A page ends
    /// before the imports of the millisecond it would split, unless they are the whole page.
    ///
    /// # Errors
    /// `imports_unavailable` (503), `storage`.
    pub async fn archive(
        &self,
        user_id: &str,
        before_ms: Option<u64>,
        limit: usize,
    ) -> Result<(Vec<Import>, Option<u64>), Error> {
        let owner = user_id.to_string();
        let recs = self
            .with_store(move |s| s.archived_imports(&owner, before_ms, limit + 1))
            .await?;
        let mut page = recs
            .into_iter()
            .map(Import::of)
            .collect::<Result<Vec<_>, _>>()?;
        if page.len() <= limit {
            return Ok((page, None));
        }
        // Imports shared in the same millisecond are never split between two pages: the page
        // ends before them (unless they fill it: a page of 1 from a burst in one millisecond).
        let cut = page[limit].rec.created_ms;
        page.truncate(limit);
        if page.iter().any(|i| i.rec.created_ms != cut) {
            page.retain(|i| i.rec.created_ms != cut);
        }
        let next = page.last().map(|i| i.rec.created_ms);
        Ok((page, next))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn import_ids_are_ten_lower_case_hex_digits() {
        assert!(is_import_id("0123456789"));
        assert!(is_import_id("abcdefabcd"));
        for bad in [
            "",
            "012345678",
            "01234567890",
            "ABCDEFABCD",
            "g123456789",
            "../../etc",
        ] {
            assert!(!is_import_id(bad), "{bad}");
        }
    }

    #[test]
    fn a_text_without_a_game_says_so_and_how_many_lines() {
        let e = read_pdn(b"\n\n   \n").unwrap_err();
        assert_eq!(e.code, "bad_pdn");
        assert!(e.message.contains("no PDN game"), "{}", e.message);
    }

    #[test]
    fn text_that_is_not_a_game_is_bad_pdn_and_says_where() {
        for (text, want) in [
            (
                "hello world",
                "line 1:1: syntax error: 'hello' is not a move",
            ),
            (
                "\n{only a comment}",
                "the game at line 2 has no tags and no moves",
            ),
            ("[Event \"x\"", "line 1:1: syntax error: expected ']'"),
        ] {
            let e = read_pdn(text.as_bytes()).unwrap_err();
            assert_eq!(e.code, "bad_pdn", "{text:?}: {}", e.message);
            assert!(e.message.contains(want), "{text:?}: {}", e.message);
        }
    }

    #[test]
    fn bytes_that_are_not_utf8_are_named_by_offset_and_line() {
        let e = read_pdn(b"[Event \"x\"]\n1. 11-15 \xff *").unwrap_err();
        assert_eq!(e.code, "bad_pdn");
        assert!(e.message.contains("byte 21 (line 2)"), "{}", e.message);
    }
}

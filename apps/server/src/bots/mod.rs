//! Personal API tokens and bot accounts (docs/api.md, "API tokens" and "Bot accounts"; issue
//! 42), shaped like lichess's bot API.
//!
//! - A logged-in account creates up to [`MAX_TOKENS`] personal API tokens, each with a
//!   description and [`SCOPES`]. A token is [`TOKEN_PREFIX`] and 40 random hex digits, shown
//!   once; the store keeps only its SHA-256 (store/tokens.rs). `Authorization: Bearer TOKEN`
//!   then acts as the account, with the token's scopes only. Tokens are never logged: no type
//!   holding one implements `Debug` with it, and the request log names only the method and path.
//! - An account with no game (finished or unfinished) may become a bot ([`Bots::upgrade`]),
//!   for good. A bot is shown as `BOT` where a player is named; it plays people only through
//!   challenges: it cannot create or join the lobby's games nor join tournaments
//!   ([`bot_not_allowed`]).

pub mod streams;

use crate::blocking;
use crate::error::{echo, Error, ErrorKind};
use crate::games::live::now_ms;
use crate::store::{
    BotUpgrade, SeatAccount, Store, StoreError, TokenOwner, TokenRecord, TokenStore,
};
use crate::token::{random_hex, token_hash};
use std::sync::Arc;

/// The most API tokens one account may have (more: `409 too_many_tokens`).
pub const MAX_TOKENS: usize = 10;

/// The longest description of a token, in characters.
pub const DESCRIPTION_MAX: usize = 100;

/// How every API token starts (a seat token is 64 hex digits with no prefix).
pub const TOKEN_PREFIX: &str = "crown_";

/// The scope of the bot API (`/api/bot/...`, `/api/stream/event`) and of answering challenges.
pub const SCOPE_BOT: &str = "bot:play";

/// The scope of the challenge endpoints (`/api/challenge/...`).
pub const SCOPE_CHALLENGE: &str = "challenge:write";

/// The scopes a token may have, with what each allows.
pub const SCOPES: [(&str, &str); 2] = [
    (
        SCOPE_BOT,
        "play as a bot: the event stream, the bot game endpoints, and the challenges",
    ),
    (
        SCOPE_CHALLENGE,
        "make, list, accept, decline and cancel challenges",
    ),
];

/// Whether `bearer` is an API token (rather than a seat token).
pub fn is_api_token(bearer: &str) -> bool {
    bearer.starts_with(TOKEN_PREFIX)
}

/// `401 bad_api_token`: no live token is `bearer`.
pub fn bad_token() -> Error {
    Error::new(
        ErrorKind::Unauthenticated,
        "bad_api_token",
        "this API token is unknown or was revoked",
    )
}

/// `403 missing_scope`: the token lacks every one of `scopes`.
pub fn missing_scope(scopes: &[&str]) -> Error {
    Error::new(
        ErrorKind::NotSeated,
        "missing_scope",
        format!(
            "this API token lacks the scope this needs: {}",
            scopes.join(" or ")
        ),
    )
}

/// `403 not_a_bot`: the bot API is for bot accounts.
pub fn not_a_bot() -> Error {
    Error::new(
        ErrorKind::NotSeated,
        "not_a_bot",
        "this is for bot accounts only (POST /api/bot/account/upgrade)",
    )
}

/// `403 bot_not_allowed`: bots play people only through challenges.
pub fn bot_not_allowed(what: &str) -> Error {
    Error::new(
        ErrorKind::NotSeated,
        "bot_not_allowed",
        format!("a bot account cannot {what}: bots play people only through challenges"),
    )
}

/// The JSON of token `t` (never its secret nor its hash).
pub fn token_json(t: &TokenRecord) -> serde_json::Value {
    serde_json::json!({
        "id": t.id,
        "description": t.description,
        "scopes": t.scopes,
        "created_ms": t.created_ms,
    })
}

/// Check the description and scopes of a new token: the scopes known, none twice, at least one.
///
/// # Errors
/// `bad_description`, `bad_scopes` (400).
pub fn check_token_request(description: &str, scopes: &[String]) -> Result<(), Error> {
    let n = description.chars().count();
    if n == 0 || n > DESCRIPTION_MAX || description.chars().any(char::is_control) {
        return Err(Error::invalid(
            "bad_description",
            format!("a token's description has 1 to {DESCRIPTION_MAX} characters, none a control character"),
        ));
    }
    let known: Vec<&str> = SCOPES.iter().map(|(s, _)| *s).collect();
    if scopes.is_empty() {
        return Err(Error::invalid(
            "bad_scopes",
            format!("a token needs at least one scope of {}", known.join(", ")),
        ));
    }
    for (i, s) in scopes.iter().enumerate() {
        if !known.contains(&s.as_str()) {
            return Err(Error::invalid(
                "bad_scopes",
                format!(
                    "unknown scope {}: the scopes are {}",
                    echo(s),
                    known.join(", ")
                ),
            ));
        }
        if scopes[..i].contains(s) {
            return Err(Error::invalid(
                "bad_scopes",
                format!("the scope {s} is given twice"),
            ));
        }
    }
    Ok(())
}

/// The tokens and bots feature: the store's tokens and bot marks.
pub struct Bots {
    store: Arc<dyn Store>,
    /// The accounts' open streams on this instance.
    streams: Arc<streams::Streams>,
}

impl Bots {
    /// The tokens and bots of `store`.
    pub fn new(store: Arc<dyn Store>) -> Bots {
        Bots {
            store,
            streams: Arc::default(),
        }
    }

    /// The accounts' open event and game streams on this instance.
    pub fn streams(&self) -> &Arc<streams::Streams> {
        &self.streams
    }

    /// Run `f` on the store's tokens on a blocking thread.
    ///
    /// # Errors
    /// `accounts_unavailable` (503) for a store without them; `storage` when it fails.
    async fn with_store<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn TokenStore) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, Error> {
        let store = self.store.clone();
        blocking::store_part(move || store.tokens().map(f)).await
    }

    /// A new token of `me` with `description` and `scopes`: its record and its secret (shown
    /// once).
    ///
    /// # Errors
    /// `bad_description`, `bad_scopes` (400), `too_many_tokens` (409), `accounts_unavailable`,
    /// `storage`.
    pub async fn create_token(
        &self,
        me: &SeatAccount,
        description: &str,
        scopes: Vec<String>,
    ) -> Result<(TokenRecord, String), Error> {
        check_token_request(description, &scopes)?;
        let secret = format!("{TOKEN_PREFIX}{}", random_hex(20)?);
        let rec = TokenRecord {
            id: random_hex(6)?,
            token_hash: token_hash(&secret),
            user_id: me.user_id.clone(),
            description: description.to_string(),
            scopes,
            created_ms: now_ms(),
        };
        let r = rec.clone();
        if !self
            .with_store(move |s| s.create_token(&r, MAX_TOKENS))
            .await?
        {
            return Err(Error::conflict(
                "too_many_tokens",
                format!("an account has at most {MAX_TOKENS} API tokens; revoke one first"),
            ));
        }
        tracing::info!(user = %me.user_id, token = %rec.id, "API token created");
        Ok((rec, secret))
    }

    /// The tokens of `me`, oldest first.
    ///
    /// # Errors
    /// `accounts_unavailable`, `storage`.
    pub async fn tokens(&self, me: &SeatAccount) -> Result<Vec<TokenRecord>, Error> {
        let user = me.user_id.clone();
        self.with_store(move |s| s.tokens_of(&user)).await
    }

    /// Revoke token `id` of `me`.
    ///
    /// # Errors
    /// `not_found` (404), `accounts_unavailable`, `storage`.
    pub async fn revoke(&self, me: &SeatAccount, id: &str) -> Result<(), Error> {
        let (user, tid) = (me.user_id.clone(), id.to_string());
        if !self
            .with_store(move |s| s.delete_token(&user, &tid))
            .await?
        {
            return Err(Error::new(
                ErrorKind::NotFound,
                "not_found",
                format!("this account has no API token {}", echo(id)),
            ));
        }
        tracing::info!(user = %me.user_id, token = %id, "API token revoked");
        self.streams.credentials_changed(&me.user_id);
        Ok(())
    }

    /// The account of API token `secret` if the token has one of `scopes`.
    ///
    /// # Errors
    /// `bad_api_token` (401), `missing_scope` (403), `accounts_unavailable`, `storage`.
    pub async fn authenticate(&self, secret: &str, scopes: &[&str]) -> Result<SeatAccount, Error> {
        let h = token_hash(secret);
        let owner: Option<TokenOwner> = self.with_store(move |s| s.token(&h)).await?;
        let owner = owner.ok_or_else(bad_token)?;
        if !owner
            .token
            .scopes
            .iter()
            .any(|s| scopes.contains(&s.as_str()))
        {
            return Err(missing_scope(scopes));
        }
        Ok(SeatAccount {
            user_id: owner.token.user_id,
            name: owner.name,
            bot: owner.bot,
        })
    }

    /// Make `me` a bot account.
    ///
    /// # Errors
    /// `already_bot`, `has_games` (409), `accounts_unavailable`, `storage`.
    pub async fn upgrade(&self, me: &SeatAccount) -> Result<(), Error> {
        let (user, now) = (me.user_id.clone(), now_ms());
        match self.with_store(move |s| s.make_bot(&user, now)).await? {
            BotUpgrade::Upgraded => {
                tracing::info!(user = %me.user_id, "account upgraded to bot");
                Ok(())
            }
            BotUpgrade::AlreadyBot => Err(Error::conflict(
                "already_bot",
                "this account is a bot already",
            )),
            BotUpgrade::HasGames => Err(Error::conflict(
                "has_games",
                "an account that has played or is playing a game cannot become a bot; \
                 create a new account for the bot",
            )),
        }
    }

    /// The unfinished games of `me`, oldest first (at most 100).
    ///
    /// # Errors
    /// `accounts_unavailable`, `storage`.
    pub async fn games_of(&self, me: &SeatAccount) -> Result<Vec<String>, Error> {
        let user = me.user_id.clone();
        self.with_store(move |s| s.games_of(&user, 100)).await
    }

    /// Which of `user_ids` are bots.
    ///
    /// # Errors
    /// `storage`.
    pub async fn bots_among(&self, user_ids: Vec<String>) -> Result<Vec<String>, Error> {
        let store = self.store.clone();
        blocking::store(move || {
            store
                .tokens()
                .map_or(Ok(Vec::new()), |t| t.bots_among(&user_ids))
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_requests_need_a_description_and_known_scopes_once() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert!(check_token_request("my bot", &s(&["bot:play"])).is_ok());
        assert!(check_token_request("b", &s(&["bot:play", "challenge:write"])).is_ok());
        for (d, sc, code) in [
            ("", s(&["bot:play"]), "bad_description"),
            ("a\nb", s(&["bot:play"]), "bad_description"),
            ("ok", s(&[]), "bad_scopes"),
            ("ok", s(&["bot:read"]), "bad_scopes"),
            ("ok", s(&["bot:play", "bot:play"]), "bad_scopes"),
        ] {
            assert_eq!(
                check_token_request(d, &sc).unwrap_err().code,
                code,
                "{d:?} {sc:?}"
            );
        }
        let long = "x".repeat(DESCRIPTION_MAX + 1);
        assert!(check_token_request(&long, &s(&["bot:play"])).is_err());
    }

    #[test]
    fn api_tokens_are_told_from_seat_tokens_by_their_prefix() {
        assert!(is_api_token("crown_0123abcd"));
        assert!(!is_api_token(&"ab".repeat(32)));
    }
}

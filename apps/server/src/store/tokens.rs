//! Personal API tokens and bot accounts in the store ([`TokenStore`]): the `api_tokens` and
//! `bots` tables (store/schema.rs), kept by SQLite and PostgreSQL alike. A token row holds the
//! SHA-256 of the token, never the token; a bot row marks an account as a bot
//! (docs/api.md, "Bot accounts").

use super::StoreError;

/// A stored personal API token.
#[derive(Clone, PartialEq, Eq)]
pub struct TokenRecord {
    /// A short random id (hex) naming the token in lists and in `DELETE`.
    pub id: String,
    /// SHA-256 (hex) of the token.
    pub token_hash: String,
    /// The account the token acts for.
    pub user_id: String,
    /// What the owner wrote to remember it by.
    pub description: String,
    /// The scopes it grants (`bot:play`, `challenge:write`), in the order given.
    pub scopes: Vec<String>,
    /// When it was created, ms since the Unix epoch.
    pub created_ms: u64,
}

impl std::fmt::Debug for TokenRecord {
    /// Everything but the token's hash.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenRecord")
            .field("id", &self.id)
            .field("user_id", &self.user_id)
            .field("scopes", &self.scopes)
            .finish_non_exhaustive()
    }
}

/// The account a token acts for, as [`TokenStore::token`] reads it.
#[derive(Clone, Debug)]
pub struct TokenOwner {
    /// The token.
    pub token: TokenRecord,
    /// The account's name.
    pub name: String,
    /// Whether the account is a bot.
    pub bot: bool,
}

/// The answer of [`TokenStore::make_bot`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotUpgrade {
    /// The account is a bot now.
    Upgraded,
    /// It was one already.
    AlreadyBot,
    /// It has played or is playing a game: it stays a human account.
    HasGames,
}

/// Storage of API tokens and bot accounts. Each call is atomic and durable before it returns.
pub trait TokenStore: Send + Sync {
    /// Insert `rec` unless its account already has `max` tokens; returns whether it was inserted.
    ///
    /// # Errors
    /// Database errors.
    fn create_token(&self, rec: &TokenRecord, max: usize) -> Result<bool, StoreError>;

    /// The tokens of account `user_id`, oldest first.
    ///
    /// # Errors
    /// Database errors.
    fn tokens_of(&self, user_id: &str) -> Result<Vec<TokenRecord>, StoreError>;

    /// Delete token `id` of account `user_id`; returns whether there was one.
    ///
    /// # Errors
    /// Database errors.
    fn delete_token(&self, user_id: &str, id: &str) -> Result<bool, StoreError>;

    /// The token whose SHA-256 is `token_hash` and its account, if any.
    ///
    /// # Errors
    /// Database errors.
    fn token(&self, token_hash: &str) -> Result<Option<TokenOwner>, StoreError>;

    /// Make account `user_id` a bot at `now_ms`, unless it has a game (finished, in
    /// `player_games`, or unfinished with a seat linked to it).
    ///
    /// # Errors
    /// Database errors.
    fn make_bot(&self, user_id: &str, now_ms: u64) -> Result<BotUpgrade, StoreError>;

    /// Which of the accounts `user_ids` are bots.
    ///
    /// # Errors
    /// Database errors.
    fn bots_among(&self, user_ids: &[String]) -> Result<Vec<String>, StoreError>;

    /// The ids of the unfinished games (`open` or `ongoing`) with a seat linked to account
    /// `user_id`, oldest first, at most `limit`.
    ///
    /// # Errors
    /// Database errors.
    fn games_of(&self, user_id: &str, limit: usize) -> Result<Vec<String>, StoreError>;
}

/// The columns of `api_tokens` read into a [`TokenRecord`] (scopes space-separated), then the
/// account's name and whether it is a bot.
pub(super) const OWNER_QUERY: &str = "
    SELECT t.id, t.token_hash, t.user_id, t.description, t.scopes, t.created_ms, u.name,
           EXISTS (SELECT 1 FROM bots b WHERE b.user_id = t.user_id)
    FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1";

/// The columns of `api_tokens` read into a [`TokenRecord`], in its field order.
pub(super) const COLUMNS: &str = "id, token_hash, user_id, description, scopes, created_ms";

/// Whether account `$1` has a game: a finished one in `player_games`, or an unfinished one
/// with a seat linked to it (`black` and `white`: the dialect's expressions of the seats'
/// account ids).
pub(super) fn has_games_query(black: &str, white: &str) -> String {
    format!(
        "SELECT EXISTS (SELECT 1 FROM player_games WHERE user_id = $1)
             OR EXISTS (SELECT 1 FROM games WHERE status IN ('open', 'ongoing')
                        AND ({black} = $1 OR {white} = $1))"
    )
}

/// The unfinished games of account `$1`, at most `$2` ([`TokenStore::games_of`]), found by the
/// seats' indexes (`games_seat_black`, `games_seat_white`): the status is compared as an
/// expression (`status || ''`), which no index serves, so that neither planner searches
/// `games_status_updated` (every unfinished game) instead.
pub(super) fn games_of_query(black: &str, white: &str) -> String {
    format!(
        "SELECT id FROM games WHERE status || '' IN ('open', 'ongoing')
           AND ({black} = $1 OR {white} = $1)
         ORDER BY created_ms, id LIMIT $2"
    )
}

/// Scopes as stored: space-separated.
pub(super) fn join_scopes(scopes: &[String]) -> String {
    scopes.join(" ")
}

/// Scopes as read.
pub(super) fn split_scopes(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

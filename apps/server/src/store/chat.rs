//! The chat part of a store ([`ChatStore`]): the messages of each game, numbered per game, and,
//! for a store several instances share, the stream of messages stored by any of them.

use super::{Change, ChatRecord, StoreError};

/// The chat of games, kept by the store beside the games ([`super::Store::chat`]).
pub trait ChatStore: Send + Sync {
    /// Store chat message `msg` of game `game_id` and give it the next number of that game's
    /// chat (1, 2, ...; `msg.n` is ignored); returns the number. A store shared by several
    /// instances announces each message on [`ChatStore::chat_changes`].
    ///
    /// # Errors
    /// [`StoreError::Database`], [`StoreError::Postgres`] and the like; nothing is stored then.
    fn add_chat(&self, game_id: &str, msg: &ChatRecord) -> Result<u64, StoreError>;

    /// The chat of game `game_id`: the last `limit` messages numbered above `after`, oldest
    /// first.
    ///
    /// # Errors
    /// [`StoreError::Database`], [`StoreError::Postgres`] and the like.
    fn load_chat(
        &self,
        game_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<ChatRecord>, StoreError>;

    /// The stream of chat messages stored by any instance (game id and the message's number in
    /// [`Change::version`]), taken once by the server at start-up; `None` for a store without
    /// cross-instance notifications (the default). An empty id: notifications may have been lost.
    fn chat_changes(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Change>> {
        None
    }
}

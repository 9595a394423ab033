//! The reconnecting `LISTEN` loop shared by the game and chat notification channels: forward
//! each notification as a [`Change`]; on a lost connection, reconnect (every second) and, once
//! `LISTEN` is active again, send an empty-id [`Change`] (anything may have changed meanwhile: the
//! receiver reads everything anew, and nothing committed after that read can be missed). Ends when
//! the receiver is gone.

use crate::store::Change;
use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, NoTls};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// One notification channel to listen on.
pub(super) struct Channel<'a> {
    /// The database to reconnect to.
    pub url: &'a str,
    /// The channel's name.
    pub name: &'static str,
    /// What the channel carries, for the log (`"notification"`, `"chat notification"`).
    pub what: &'static str,
    /// Set to the listener's generation (1, 2, ...: one more after each reconnection) while it
    /// listens, 0 while it does not.
    pub listening: Option<&'a AtomicU64>,
    /// The change a notification's payload announces (`None`: ignored).
    pub parse: fn(&str) -> Option<Change>,
}

/// Run `LISTEN` for channel `name` on `client`: when this returns `Ok`, every notification
/// committed from then on is delivered to `client`.
///
/// # Errors
/// The database's error if the statement fails.
pub(super) fn listen(client: &mut Client, name: &str) -> Result<(), postgres::Error> {
    client.batch_execute(&format!("LISTEN {name}"))
}

/// Listen on `channel` with `client` (reconnecting as needed) and send every change to `tx`
/// until `tx` is closed. Runs on a thread of its own (it blocks).
///
/// `listening`: `client` already ran [`listen`] (the caller confirmed the subscription before
/// handing it out). Otherwise `LISTEN` is run here first, and with `catch_up` an empty-id
/// [`Change`] is sent once it is active, so that whatever the receiver read before is read again.
pub(super) fn run(
    mut client: Client,
    channel: &Channel<'_>,
    tx: &tokio::sync::mpsc::UnboundedSender<Change>,
    listening: bool,
    catch_up: bool,
) {
    let mut generation = 0;
    let set_listening = |g: u64| {
        if let Some(l) = channel.listening {
            l.store(g, Ordering::SeqCst);
        }
    };
    let (mut active, mut catch_up) = (listening, catch_up && !listening);
    loop {
        if active || listen(&mut client, channel.name).is_ok() {
            active = false;
            generation += 1;
            set_listening(generation);
            if catch_up {
                let _ = tx.send(Change {
                    id: String::new(),
                    version: 0,
                    state: None,
                });
            }
            loop {
                if tx.is_closed() {
                    drop(client);
                    return;
                }
                let mut n = client.notifications();
                let next = n.timeout_iter(Duration::from_secs(1)).next();
                match next {
                    Ok(Some(note)) => {
                        if let Some(change) = (channel.parse)(note.payload()) {
                            let _ = tx.send(change);
                        }
                    }
                    Ok(None) => {}
                    Err(_) => break,
                }
            }
        }
        set_listening(0);
        catch_up = true;
        tracing::warn!(
            "lost the PostgreSQL {} connection; reconnecting",
            channel.what
        );
        client = loop {
            if tx.is_closed() {
                return;
            }
            std::thread::sleep(Duration::from_secs(1));
            if let Ok(c) = Client::connect(channel.url, NoTls) {
                break c;
            }
        };
    }
}

/// A `'<version> <id>'` payload as a [`Change`] without state (the game or chat is read anew).
pub(super) fn parse_version_id(payload: &str) -> Option<Change> {
    let (v, id) = payload.split_once(' ')?;
    Some(Change {
        id: id.to_string(),
        version: v.parse().ok()?,
        state: None,
    })
}

//! A game's chat in memory: the last messages in number order and each seat's rate-limit
//! bucket (pure bookkeeping, no I/O).

use crate::store::ChatRecord;
use crown_core::Color;
use serde::Serialize;
use std::collections::VecDeque;

/// Messages kept per game.
pub const MAX_MESSAGES: usize = 200;
/// Messages a seat may send at once.
pub const BURST: u32 = 5;
/// Time in ms after which a seat may send one more message.
pub const REFILL_MS: u64 = 2000;

/// One chat message.
#[derive(Clone, Debug, Serialize)]
pub struct ChatMessage {
    /// Number of the message in this game (1, 2, ...).
    pub n: u64,
    /// The writer's colour (`black`/`white`).
    pub color: &'static str,
    /// The writer's name when the seat has one.
    pub name: Option<String>,
    /// The text, plain (show it as text, never as HTML).
    pub text: String,
    /// When it was sent, ms since the Unix epoch.
    pub at_ms: u64,
}

/// A game's chat: the last messages and each seat's rate-limit bucket.
#[derive(Debug, Default)]
pub struct ChatLog {
    pub(crate) messages: VecDeque<ChatMessage>,
    pub(crate) next: u64,
    /// Whether the stored messages have been read into `messages`.
    pub(crate) loaded: bool,
    /// Per seat (black, white): tokens left and when they were last counted.
    pub(crate) buckets: [(u32, u64); 2],
}

impl ChatLog {
    /// Take one send permit for `color` at `now`; `Err(ms)` is the wait before the next one.
    pub(crate) fn take(&mut self, color: Color, now: u64) -> Result<(), u64> {
        let b = &mut self.buckets[usize::from(color == Color::White)];
        if b.1 == 0 {
            *b = (BURST, now);
        }
        let refilled = (now.saturating_sub(b.1) / REFILL_MS) as u32;
        if refilled > 0 {
            b.0 = (b.0.saturating_add(refilled)).min(BURST);
            b.1 += u64::from(refilled) * REFILL_MS;
        }
        if b.0 == 0 {
            return Err(REFILL_MS - now.saturating_sub(b.1));
        }
        if b.0 == BURST {
            b.1 = now;
        }
        b.0 -= 1;
        Ok(())
    }

    pub(crate) fn push(
        &mut self,
        color: Color,
        name: Option<String>,
        text: String,
        now: u64,
    ) -> ChatMessage {
        self.next += 1;
        let m = ChatMessage {
            n: self.next,
            color: color.name(),
            name,
            text,
            at_ms: now,
        };
        self.messages.push_back(m.clone());
        while self.messages.len() > MAX_MESSAGES {
            self.messages.pop_front();
        }
        m
    }

    /// Add the stored messages not held yet, in number order; returns those added.
    pub(crate) fn merge(&mut self, stored: Vec<ChatRecord>) -> Vec<ChatMessage> {
        let mut added = Vec::new();
        for r in stored {
            let at = self.messages.partition_point(|m| m.n < r.n);
            if self.messages.get(at).is_some_and(|m| m.n == r.n)
                || (at == 0 && self.messages.len() >= MAX_MESSAGES)
            {
                continue;
            }
            let m = ChatMessage {
                n: r.n,
                color: r.color.name(),
                name: r.name,
                text: r.text,
                at_ms: r.at_ms,
            };
            self.messages.insert(at, m.clone());
            self.next = self.next.max(r.n);
            added.push(m);
        }
        while self.messages.len() > MAX_MESSAGES {
            self.messages.pop_front();
        }
        added
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Side;

    #[test]
    fn a_seat_gets_a_burst_then_one_message_per_refill() {
        let mut log = ChatLog::default();
        let t0 = 1_000_000;
        for _ in 0..BURST {
            assert!(log.take(Color::Black, t0).is_ok());
        }
        assert_eq!(log.take(Color::Black, t0), Err(REFILL_MS));
        // The other seat has its own bucket.
        assert!(log.take(Color::White, t0).is_ok());
        assert!(log.take(Color::Black, t0 + REFILL_MS).is_ok());
        assert!(log.take(Color::Black, t0 + REFILL_MS).is_err());
    }

    #[test]
    fn only_the_last_messages_are_kept() {
        let mut log = ChatLog::default();
        for i in 0..MAX_MESSAGES + 3 {
            log.push(Color::Black, None, format!("m{i}"), 1);
        }
        assert_eq!(log.messages.len(), MAX_MESSAGES);
        assert_eq!(log.messages.front().map(|m| m.n), Some(4));
    }

    fn stored(n: u64, text: &str) -> ChatRecord {
        ChatRecord {
            n,
            color: Side::White,
            name: None,
            text: text.into(),
            at_ms: n,
        }
    }

    #[test]
    fn stored_messages_merge_in_number_order_once() {
        let mut log = ChatLog::default();
        let added = log.merge(vec![stored(2, "b"), stored(4, "d")]);
        assert_eq!(added.len(), 2);
        // A message stored in between (another instance) and one seen already.
        let added = log.merge(vec![stored(3, "c"), stored(4, "d")]);
        assert_eq!(added.iter().map(|m| m.n).collect::<Vec<_>>(), [3]);
        let order: Vec<&str> = log.messages.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(order, ["b", "c", "d"]);
        assert_eq!(log.messages[0].color, "white");
    }
}

//! The JSON view of a game sent to clients ([`GameView`], by `GET /api/games/{id}` and over the
//! WebSocket): never a seat's token.

use super::{seat, Live};
use crate::store::{Declared, Seat};
use crown_core::Color;
use serde::Serialize;

impl Live {
    /// The JSON view of this game at `now`. `you` is the caller's seat, if known.
    pub fn view(&self, now: u64, you: Option<Color>) -> GameView {
        let pos = self.game.position();
        let outcome = self.game.outcome();
        // An abandoned or aborted game has no outcome on the board but no move is legal any more.
        let moves = if self.abandoned() || self.aborted() {
            crown_core::MoveList::new()
        } else {
            self.game.legal_moves()
        };
        let legal = moves
            .iter()
            .map(|m| LegalMove {
                text: pos.move_text(m),
                from: m.from().number(),
                to: m.to().number(),
                path: {
                    let p: Vec<u8> = m.path().map(|s| s.number()).collect();
                    if p.is_empty() {
                        vec![m.to().number()]
                    } else {
                        p
                    }
                },
                captures: m.captures().iter().map(|s| s.number()).collect(),
                kind: m.kind().id(),
            })
            .collect();
        let seat_view = |c: Color| match seat(&self.rec.meta, c) {
            Seat::Human { token_sha256 } => SeatView {
                kind: "human",
                joined: token_sha256.is_some(),
                level: None,
                name: self.rec.meta.names.get(c).map(str::to_string),
            },
            Seat::Engine { level } => SeatView {
                kind: "engine",
                joined: true,
                level: Some(*level),
                name: None,
            },
        };
        let clock = self.rec.meta.time_control.map(|tc| ClockView {
            black_ms: self.remaining(Color::Black, now),
            white_ms: self.remaining(Color::White, now),
            initial_ms: tc.initial_ms,
            increment_ms: tc.increment_ms,
            running: (self.clock_running() && outcome.is_none()).then(|| pos.side_to_move().name()),
            server_time_ms: now,
        });
        GameView {
            id: self.rec.id.clone(),
            variant: self.rec.variant.clone(),
            status: self.rec.status.clone(),
            start_fen: self.rec.start_fen.clone(),
            fen: pos.to_fen(),
            side_to_move: pos.side_to_move().name(),
            ply: self.rec.moves.len(),
            moves: self.rec.moves.iter().map(|m| m.text.clone()).collect(),
            legal_moves: legal,
            outcome: self.outcome_view(),
            black: seat_view(Color::Black),
            white: seat_view(Color::White),
            you: you.map(|c| c.name()),
            clock,
            draw_offer: self.rec.meta.draw_offer.map(|c| Color::from(c).name()),
            takeback_request: self
                .rec
                .meta
                .takeback_request
                .map(|c| Color::from(c).name()),
            first_move_deadline_ms: self.abort_deadline(),
            speed: self.rec.meta.speed().map(|s| s.name()),
            days: self.rec.meta.days,
            deadline_ms: self
                .rec
                .meta
                .days
                .and(self.move_deadline().or(self.abort_deadline())),
            rematch: self.rec.meta.rematch.as_ref().map(|r| RematchView {
                id: r.id.clone(),
                by: Color::from(r.by).name(),
            }),
            count: self.game.count().map(|c| CountView {
                rule: super::rule_number(c.rule),
                by: c.claimant.name(),
                moves: c.moves,
                limit: c.rule.limit(),
            }),
            count_claimable: CountClaimable {
                black: self.count_claimable(Color::Black),
                white: self.count_claimable(Color::White),
            },
            public: self.rec.meta.public,
            rated: self.rated(),
            unrated_reason: self.unrated_reason().map(str::to_string),
            accounts: AccountsView {
                black: account_view(&self.rec.meta, Color::Black),
                white: account_view(&self.rec.meta, Color::White),
            },
            created_ms: self.rec.created_ms,
            updated_ms: self.rec.updated_ms,
        }
    }

    /// The APCA rule (27 or 28) whose count `color` may claim now (`POST .../count`): a pool game
    /// being played, no count running, the rule's material ([`crown_core::Game::claimable_count`]).
    pub fn count_claimable(&self, color: Color) -> Option<u8> {
        if self.require_playing().is_err() {
            return None;
        }
        self.game.claimable_count(color).map(super::rule_number)
    }

    /// Whether the game is rated: created with `"rated": true`, not made unrated when its second
    /// seat was taken, and not ended (with a result or without) before its minimum of plies
    /// ([`crate::store::ratings::is_rated`]; such a game is archived unrated).
    pub fn rated(&self) -> bool {
        crate::store::ratings::is_rated(&self.rec.meta, &self.rec.status, self.rec.moves.len())
    }

    /// Why a game created rated is not rated ([`crate::store::ratings::unrated_reason`]):
    /// `same_network`, `pair_limit` or `too_short` (ended with a result); `None` otherwise.
    pub fn unrated_reason(&self) -> Option<&str> {
        crate::store::ratings::unrated_reason(
            &self.rec.meta,
            &self.rec.status,
            self.rec.result.as_deref(),
            self.rec.moves.len(),
        )
    }

    /// How the game ended, once over: the result, the winner and a readable reason (also for a
    /// cancelled, abandoned or aborted game, with result `*`); `None` while it goes on.
    pub fn outcome_view(&self) -> Option<OutcomeView> {
        let outcome = self.game.outcome();
        match self.rec.meta.declared {
            Some(Declared::Cancelled { expired }) => Some(OutcomeView {
                result: "*".to_string(),
                winner: None,
                reason: if expired {
                    "expired: nobody joined in time".to_string()
                } else {
                    "cancelled by its creator before anyone joined".to_string()
                },
            }),
            Some(Declared::Aborted { color, requested }) => Some(OutcomeView {
                result: "*".to_string(),
                winner: None,
                reason: if requested {
                    format!("aborted by {}", Color::from(color).name())
                } else {
                    format!(
                        "aborted: {} did not make a first move in time",
                        Color::from(color).name()
                    )
                },
            }),
            Some(Declared::Abandoned { color }) => Some(OutcomeView {
                result: "*".to_string(),
                winner: None,
                reason: format!(
                    "abandoned: {} made no move in time",
                    Color::from(color).name()
                ),
            }),
            _ => outcome.map(|o| OutcomeView {
                result: o.pdn_result(self.game.variant()).to_string(),
                winner: o.winner().map(|c| c.name()),
                reason: o.to_string(),
            }),
        }
    }
}

/// A legal move as sent to clients.
#[derive(Clone, Debug, Serialize)]
pub struct LegalMove {
    /// Notation to send back to play it.
    pub text: String,
    /// Square it starts on (1..=32; for an Impasse removal, the removed single's square).
    pub from: u8,
    /// Square it ends on.
    pub to: u8,
    /// Landing squares, including the final one.
    pub path: Vec<u8>,
    /// Captured squares.
    pub captures: Vec<u8>,
    /// `simple`, `jump`, `slide`, `double_slide`, `transpose` or `remove` (crown-core's ids).
    pub kind: &'static str,
}

/// Who sits in a seat (never the token).
#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    /// `human` or `engine`.
    pub kind: &'static str,
    /// Whether the seat is taken.
    pub joined: bool,
    /// Engine level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// The player's name, when they gave one (`POST /api/games` `name`, `POST .../name`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// Clocks as sent to clients.
#[derive(Clone, Debug, Serialize)]
pub struct ClockView {
    /// Black's time left, ms, at `server_time_ms`.
    pub black_ms: u64,
    /// White's time left, ms, at `server_time_ms`.
    pub white_ms: u64,
    /// Starting time, ms.
    pub initial_ms: u64,
    /// Increment per move, ms.
    pub increment_ms: u64,
    /// The colour whose clock is running, if any.
    pub running: Option<&'static str>,
    /// The server's time when the view was made, ms since the epoch.
    pub server_time_ms: u64,
}

/// The end of a game as sent to clients.
#[derive(Clone, Debug, Serialize)]
pub struct OutcomeView {
    /// PDN result from the first player's view: `1-0`, `0-1`, `1/2-1/2` (`*` for a cancelled,
    /// abandoned or aborted game).
    pub result: String,
    /// `black`/`white`, or `null` for a draw.
    pub winner: Option<&'static str>,
    /// Readable reason.
    pub reason: String,
}

/// A rematch offer as sent to clients.
#[derive(Clone, Debug, Serialize)]
pub struct RematchView {
    /// Id of the new game.
    pub id: String,
    /// `black`/`white`: who asked for it (colour in the finished game).
    pub by: &'static str,
}

/// A game as sent to clients (by `GET /api/games/{id}` and over the WebSocket).
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// Game id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// `open`, `ongoing`, `finished` or `aborted` (ended before both sides moved, no result).
    pub status: String,
    /// Start position, PDN FEN.
    pub start_fen: String,
    /// Current position, PDN FEN.
    pub fen: String,
    /// `black` or `white`.
    pub side_to_move: &'static str,
    /// Plies played.
    pub ply: usize,
    /// Moves played, in notation.
    pub moves: Vec<String>,
    /// Legal moves now (empty when over).
    pub legal_moves: Vec<LegalMove>,
    /// The result, once over.
    pub outcome: Option<OutcomeView>,
    /// Black's seat.
    pub black: SeatView,
    /// White's seat.
    pub white: SeatView,
    /// The caller's colour when it sent its token.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<&'static str>,
    /// Clocks, `null` for untimed games.
    pub clock: Option<ClockView>,
    /// Colour with a standing draw offer.
    pub draw_offer: Option<&'static str>,
    /// Colour asking for a takeback.
    pub takeback_request: Option<&'static str>,
    /// When the side to move must have made its first move, or the game is aborted (ms since
    /// the epoch, server time; compare with `clock.server_time_ms`); `null` when no such limit
    /// runs (untimed or engine games, after both first moves, game over).
    pub first_move_deadline_ms: Option<u64>,
    /// The speed class: `bullet`, `blitz`, `rapid`, `classical` (from the clock) or
    /// `correspondence` (days per move); `null` for an untimed game.
    pub speed: Option<&'static str>,
    /// A correspondence game's days per move (1, 2, 3, 5, 7 or 14); `null` for other games.
    pub days: Option<u32>,
    /// A correspondence game's move deadline (ms since the epoch, server time): the side to move
    /// loses on time if it has not moved by then (before its first move: the game is aborted,
    /// as `first_move_deadline_ms` says); `null` for other games and once the game is over.
    pub deadline_ms: Option<u64>,
    /// The rematch offered after the game ended (`POST .../rematch`), `null` if none.
    pub rematch: Option<RematchView>,
    /// The APCA count running in a pool game (rules 27 and 28, `POST .../count`); left out when
    /// none is (never claimed, or stopped because the material no longer fits its rule).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<CountView>,
    /// The APCA rule whose count each side may claim now; left out when neither may.
    #[serde(skip_serializing_if = "CountClaimable::is_empty")]
    pub count_claimable: CountClaimable,
    /// `true` for a public seek (created with `"public": true`, listed in the lobby while a seat is
    /// open), `false` for a private, link-only game or a game against the engine.
    pub public: bool,
    /// `true` for a rated game (created with `"rated": true`), unless [`GameView::unrated_reason`]
    /// gives a reason: such a game is unrated, as in the player archive.
    pub rated: bool,
    /// Why a game created rated is not (or will not be) rated: `"same_network"` (both accounts
    /// signed up from one network), `"pair_limit"` (the pair's rated games of the day) — both
    /// decided when the second seat is taken — or `"too_short"` (it ended before
    /// `--rated-min-plies`); `null` for a rated game and a casual one.
    pub unrated_reason: Option<String>,
    /// The accounts linked to the seats (`null`: a guest or an open seat).
    pub accounts: AccountsView,
    /// Creation time, ms since the epoch.
    pub created_ms: u64,
    /// Last change, ms since the epoch.
    pub updated_ms: u64,
}

/// The account of one seat in a [`GameView`].
#[derive(Clone, Debug, Serialize)]
pub struct AccountView {
    /// The account's name.
    pub name: String,
    /// `BOT` for a bot account; absent for a person.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<&'static str>,
    /// In a rated game, the player's rounded pre-game rating of the game's variant and speed;
    /// `null` in a casual game.
    pub rating: Option<i64>,
    /// In a rated game, whether that rating is provisional (deviation above 110); `null` in a
    /// casual game.
    pub provisional: Option<bool>,
    /// Once a rated game ended with a result, the rating's change (the rounded new rating minus
    /// the rounded pre-game one); `null` before, and in casual games.
    pub rating_diff: Option<i64>,
}

/// The accounts of a game's seats in a [`GameView`].
#[derive(Clone, Debug, Serialize)]
pub struct AccountsView {
    /// Black's account, `null` for a guest or an open seat.
    pub black: Option<AccountView>,
    /// White's account, `null` for a guest or an open seat.
    pub white: Option<AccountView>,
}

fn account_view(meta: &crate::store::GameMeta, c: Color) -> Option<AccountView> {
    let a = meta.accounts.get(c)?;
    let r = meta
        .ratings
        .as_ref()
        .filter(|_| meta.rated)
        .map(|r| r.get(c));
    Some(AccountView {
        name: a.name.clone(),
        title: a.bot.then_some("BOT"),
        rating: r.map(crate::store::SeatRating::shown),
        provisional: r.map(|r| r.before.provisional()),
        rating_diff: r.and_then(crate::store::SeatRating::diff),
    })
}

/// A running APCA count ([`GameView::count`]).
#[derive(Clone, Debug, Serialize)]
pub struct CountView {
    /// The APCA rule: 27 (the 38-move count) or 28 (the 13-move count).
    pub rule: u8,
    /// The side that claimed it, whose moves are counted: `black` or `white`.
    pub by: &'static str,
    /// Moves that side has completed since the claim.
    pub moves: u32,
    /// Moves that, completed, draw the game: 38 (rule 27) or 13 (rule 28).
    pub limit: u32,
}

/// The APCA rule (27 or 28) whose count each side may claim now ([`GameView::count_claimable`]).
#[derive(Clone, Debug, Serialize)]
pub struct CountClaimable {
    /// Black's, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black: Option<u8>,
    /// White's, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub white: Option<u8>,
}

impl CountClaimable {
    /// Whether neither side may claim a count.
    pub fn is_empty(&self) -> bool {
        self.black.is_none() && self.white.is_none()
    }
}

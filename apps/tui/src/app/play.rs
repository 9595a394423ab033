//! Playing: selecting and moving pieces, typed moves, saving and loading, takebacks, hints, draw
//! offers, counts, browsing the game.

use crate::engine::Purpose;
use crate::msg::Effect;
use crate::popup::{Confirm, InputKind, Popup};
use crate::state::App;
use crown_core::{
    Color, CountRule, DrawReason, Game, Move, MoveError, Outcome, Square, Variant, WinReason,
};
use crown_notation as pdn;

impl App {
    pub(crate) fn home_cursor(&mut self) {
        let moves = self.game.legal_moves();
        if let Some(m) = moves.first() {
            if self.human_to_move() {
                self.cursor = (m.from().file(), m.from().rank());
            }
        }
    }

    /// Act on a board square: select a piece, move the selected piece there, or ask which of several
    /// moves is meant.
    pub fn activate(&mut self, sq: Square) {
        self.cursor = (sq.file(), sq.rank());
        if self.view_ply.is_some() {
            self.browse_to(None);
            self.status = "Back to the game.".into();
            return;
        }
        if let Some(o) = self.game.outcome() {
            self.status = format!("The game is over ({o}). Press n for a new game.");
            return;
        }
        if !self.human_to_move() {
            self.status = "The engine is thinking…".into();
            return;
        }
        let legal = self.game.legal_moves();
        if let Some(from) = self.selected {
            let cands: Vec<Move> = legal
                .iter()
                .filter(|m| m.from() == from && m.to() == sq)
                .copied()
                .collect();
            match cands.len() {
                0 if sq == from => {
                    self.selected = None;
                    self.status.clear();
                    return;
                }
                0 => {}
                1 => {
                    self.play(cands[0]);
                    return;
                }
                _ => {
                    self.popup = Some(Popup::Choice {
                        options: cands,
                        index: 0,
                    });
                    self.status = "Several moves end there: choose one.".into();
                    return;
                }
            }
        }
        if legal.iter().any(|m| m.from() == sq) {
            self.selected = Some(sq);
            self.status = if self.game.position().must_capture() {
                format!("{sq} selected: you must capture.")
            } else {
                format!("{sq} selected.")
            };
        } else if let Some(from) = self.selected {
            self.status = format!("No legal move from {from} to {sq}.");
        } else {
            let pos = self.game.position();
            let mine = pos
                .piece_at(sq)
                .is_some_and(|p| p.color == pos.side_to_move());
            self.status = if mine && pos.must_capture() {
                let who: Vec<String> = pos.capturers().iter().map(|s| s.to_string()).collect();
                format!(
                    "The piece on {sq} cannot move: a capture is compulsory ({}).",
                    who.join(", ")
                )
            } else if mine {
                format!("The piece on {sq} has no legal move.")
            } else {
                format!("Select one of {}'s pieces.", pos.side_to_move())
            };
        }
    }

    pub(crate) fn play(&mut self, mv: Move) {
        if self.in_puzzle() {
            self.puzzle_move(mv);
            return;
        }
        // A hint or draw offer was about the position before this move: drop it.
        if self.thinking.is_some_and(|t| t.1 != Purpose::Move) {
            self.stop_thinking();
        }
        let before = *self.game.position();
        let mover = before.side_to_move();
        let text = before.move_text(&mv);
        match self.game.play(&mv) {
            Ok(()) => {
                self.clock_paused = false;
                if let Some(c) = &mut self.clocks {
                    c.remaining_ms[mover.index()] += c.increment_ms;
                }
                self.selected = None;
                self.hint = None;
                self.status = if Some(mover) == self.engine_side {
                    format!("The engine played {text}.")
                } else {
                    format!("{mover} played {text}.")
                };
                self.after_change();
            }
            Err(e) => self.status = format!("Cannot play {text}: {e}"),
        }
    }

    pub(crate) fn submit_input(&mut self, kind: InputKind, text: &str) {
        let text = text.trim();
        match kind {
            InputKind::Move => {
                if !self.human_to_move() {
                    self.status = "It is not your move.".into();
                    return;
                }
                match typed_move(&self.game, text) {
                    Ok(mv) => self.play(mv),
                    Err(e) if e.kind == pdn::InputErrorKind::AmbiguousMove => {
                        let candidates = match self.game.position().parse_move(text) {
                            Err(MoveError::Ambiguous { candidates, .. }) => candidates,
                            _ => Vec::new(),
                        };
                        // The same choice list a click opens: pick the path or the crowned single.
                        let options: Vec<Move> = self
                            .game
                            .legal_moves()
                            .iter()
                            .filter(|m| candidates.contains(&m.long_text()))
                            .copied()
                            .collect();
                        if options.len() > 1 {
                            self.selected = options.first().map(Move::from);
                            self.popup = Some(Popup::Choice { options, index: 0 });
                            self.status = format!("{text} fits several moves: choose one.");
                        } else if let [only] = options[..] {
                            self.play(only);
                        } else {
                            self.status = format!("{e}");
                        }
                    }
                    Err(e) => self.status = format!("{e}"),
                }
            }
            InputKind::Save => {
                if text.is_empty() {
                    return;
                }
                let (white, black) = match self.engine_side {
                    Some(Color::White) => ("Crown engine", "Player"),
                    Some(Color::Black) => ("Player", "Crown engine"),
                    None => ("Player 2", "Player 1"),
                };
                let pdn = pdn::game_to_pdn(
                    &self.game,
                    &[
                        ("Event", "crown-tui game"),
                        ("Black", black),
                        ("White", white),
                    ],
                );
                self.effects.push(Effect::Save {
                    path: text.to_string(),
                    text: pdn,
                });
            }
            InputKind::Load => {
                if text.is_empty() {
                    return;
                }
                if looks_like_fen(text) {
                    self.load_text(text, "FEN");
                } else {
                    self.effects.push(Effect::Load {
                        path: text.to_string(),
                    });
                }
            }
        }
    }

    /// Replace the game with one read from PDN or FEN text (`source` names it in messages).
    pub fn load_text(&mut self, text: &str, source: &str) {
        self.puzzles = None;
        let t = text.trim();
        let fen = looks_like_fen(t);
        let mut names = [None, None];
        let mut count = 1;
        // What a lenient FEN reading repaired (`?` to move, a man on its king row), shown in the
        // status line after the load message.
        let mut repaired: Vec<String> = Vec::new();
        let loaded = if fen {
            pdn::read_fen(self.game.variant(), t, pdn::FenPolicy::Lenient)
                .map(|r| {
                    repaired = r.warnings;
                    Game::from_position(r.position)
                })
                .map_err(|e| e.to_string())
        } else {
            let games = pdn::read_games(t);
            count = games.len();
            if let Some(Ok(first)) = games.first() {
                for color in [Color::Black, Color::White] {
                    names[color.index()] = first
                        .tag(if color == Color::Black {
                            "Black"
                        } else {
                            "White"
                        })
                        .map(str::trim)
                        .filter(|n| !n.is_empty() && *n != "?")
                        .map(str::to_string);
                }
            }
            pdn::pdn_to_game(t).map_err(|e| e.to_string())
        };
        match loaded {
            Ok(game) => {
                self.stop_thinking();
                self.game = game;
                self.clock_paused = false;
                self.names = names;
                self.started = true;
                self.selected = None;
                self.hint = None;
                self.view_ply = None;
                self.thought = None;
                if let Some(c) = &mut self.clocks {
                    let full = u64::from(self.settings.clock_minutes) * 60_000;
                    c.remaining_ms = [full; 2];
                }
                let plies = self.game.ply_count();
                let what = format!(
                    "{}, {plies} {}",
                    self.game.variant().name(),
                    if plies == 1 { "ply" } else { "plies" }
                );
                let loaded = if count > 1 {
                    format!("Loaded game 1 of {count} from {source}: {what}.")
                } else {
                    format!("Loaded {source}: {what}.")
                };
                let loaded = match repaired.first() {
                    Some(w) => format!("{loaded} Warning: {w}"),
                    None => loaded,
                };
                self.effects.push(Effect::NewGame);
                self.home_cursor();
                self.after_change();
                // The load message stays visible, with the result when the game is over.
                self.status = match self.game.outcome() {
                    Some(o) => format!("{loaded} {o}."),
                    None => loaded,
                };
            }
            Err(e) => self.status = format!("Could not load {source}: {e}"),
        }
    }

    /// Take back moves: against the engine, back to the human's previous turn; otherwise one ply.
    /// A resignation or draw agreement is taken back on its own (the game goes on, the clocks wait
    /// for the next move); a loss on time cannot be taken back.
    pub fn undo(&mut self) {
        let declared = match self.game.outcome() {
            Some(Outcome::Win {
                reason: WinReason::Time,
                ..
            }) => {
                self.popup = None;
                self.status =
                    "The game was lost on time and cannot be taken back. Press n for a new game."
                        .into();
                return;
            }
            Some(Outcome::Win {
                reason: WinReason::Resignation,
                ..
            }) => Some("resignation"),
            Some(Outcome::Draw {
                reason: DrawReason::Agreement,
            }) => Some("draw agreement"),
            _ => None,
        };
        if declared.is_none() && self.game.ply_count() == 0 {
            self.popup = None;
            self.status = "Nothing to undo.".into();
            return;
        }
        self.stop_thinking();
        self.popup = None;
        self.view_ply = None;
        self.selected = None;
        self.hint = None;
        let before = self.game.ply_count();
        if let Some(what) = declared {
            self.game.undo();
            self.clock_paused = true;
            self.status = format!("Took back the {what}; the game goes on.");
        } else {
            match self.engine_side {
                None => {
                    self.game.undo();
                }
                Some(engine) => {
                    let human = engine.opposite();
                    loop {
                        let undone = self.game.undo();
                        if self.game.position().side_to_move() == human || undone.is_none() {
                            break;
                        }
                        if self.game.ply_count() == 0 {
                            break;
                        }
                    }
                }
            }
            let n = before - self.game.ply_count();
            self.status = format!("Took back {n} {}.", if n == 1 { "ply" } else { "plies" });
        }
        self.after_change();
    }

    pub(crate) fn hint(&mut self) {
        if !self.engine_available {
            self.status = "No engine in this build: hints are not available.".into();
        } else if !self.human_to_move() || self.thinking.is_some() {
            self.status = "A hint is available on your move.".into();
        } else {
            self.search(Purpose::Hint);
            self.status = "Looking for a hint…".into();
        }
    }

    pub(crate) fn offer_draw(&mut self) {
        if self.game.outcome().is_some() {
            return;
        }
        match self.engine_side {
            None => {
                let c = self.game.position().side_to_move();
                self.popup = Some(Popup::Confirm(Confirm::Draw(c)));
            }
            Some(_) => {
                if !self.human_to_move() || self.thinking.is_some() {
                    self.status = "Offer a draw on your move.".into();
                } else {
                    self.search(Purpose::DrawOffer);
                    self.status = "Draw offered; the engine considers it…".into();
                }
            }
        }
    }

    pub(crate) fn claim_count(&mut self) {
        if self.game.variant() != Variant::Pool {
            self.status = "Counts (APCA rules 27 and 28) apply only to pool checkers.".into();
            return;
        }
        let who = self
            .engine_side
            .map(Color::opposite)
            .unwrap_or(self.game.position().side_to_move());
        // The count that applies (rule 28 before rule 27); if none does, rule 27's refusal says why.
        let rule = self
            .game
            .claimable_count(who)
            .unwrap_or(CountRule::ThirtyEight);
        let r = self.game.claim_count(who, rule);
        self.status = match r {
            Ok(()) => match self.game.count() {
                Some(c) => format!("{who} claims the {}-move count.", c.rule.limit()),
                None => "Count claimed.".into(),
            },
            Err(e) => e.to_string(),
        };
    }

    pub(crate) fn browse_by(&mut self, delta: i64) {
        let n = self.game.ply_count() as i64;
        let cur = self.view_ply.map(|v| v as i64).unwrap_or(n);
        let next = (cur + delta).clamp(0, n);
        self.browse_to(if next >= n { None } else { Some(next as usize) });
    }

    /// Show the position after `ply` plies (`None`: the live position).
    pub fn browse_to(&mut self, ply: Option<usize>) {
        let n = self.game.ply_count();
        let was_browsing = self.view_ply.is_some();
        self.view_ply = ply.filter(|p| *p < n);
        self.selected = None;
        match self.view_ply {
            Some(p) => {
                self.status =
                    format!("Viewing after ply {p} of {n}. End or Esc returns to the game.")
            }
            None if was_browsing => self.status = "Back to the game.".into(),
            None => {}
        }
    }
}

fn looks_like_fen(t: &str) -> bool {
    let t = t.trim().trim_matches('"');
    let mut c = t.chars();
    matches!(c.next(), Some('W' | 'B' | 'w' | 'b' | '?')) && c.next() == Some(':')
}

/// A move typed in the move box, read by the one move reader of crown-notation
/// ([`crown_notation::read_game_move`]: Crown notation, algebraic squares `f6-e5`, Hub captures).
///
/// # Errors
/// The reader's [`crown_notation::InputError`] (one printable line of at most 200 characters).
pub fn typed_move(game: &Game, text: &str) -> Result<Move, pdn::InputError> {
    pdn::read_game_move(game, text)
}

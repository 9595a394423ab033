//! Move text of a [`Position`]: writing a move for a reader ([`Position::move_text`]) and finding
//! the legal move a text names ([`Position::parse_move`], docs/notation.md).

use super::{MoveError, Position};
use crate::moves::{Move, MoveKind, MoveList};
use crate::square::Square;

impl Position {
    /// The move written for a reader: captures short (`11x25`) unless another legal move has the same
    /// start and end, then with the full path (`11x18x25`).
    pub fn move_text(&self, mv: &Move) -> String {
        if mv.kind == MoveKind::Jump
            && self
                .legal_moves()
                .iter()
                .any(|m| m.from == mv.from && m.to == mv.to && m != mv)
        {
            mv.long_text()
        } else {
            mv.short_text()
        }
    }

    /// Find the legal move that `text` names, in the notation of docs/notation.md.
    ///
    /// Checkers: `11-15`, `11x18`, `11x18x25`, `11:18`; a capture may give only start and end, or any
    /// of its landing squares in order. Impasse: `22-18` (slide), `6>10` (transpose), `x14` (removal),
    /// an optional `+` for a bear-off, `=N` for the single stacked by a crown (may be left out when
    /// only one crown is possible).
    ///
    /// # Errors
    /// [`MoveError::Syntax`], [`MoveError::Illegal`] (with the legal moves) or
    /// [`MoveError::Ambiguous`] (with the candidates written in full).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        let syntax = |reason: &str| MoveError::Syntax {
            text: t.to_string(),
            reason: reason.to_string(),
        };
        if t.is_empty() {
            return Err(syntax("empty move"));
        }
        let mut paths = MoveList::new();
        self.legal_move_paths_into(&mut paths);
        let legal = self.legal_moves();
        let legal_texts = || {
            self.legal_moves_sorted()
                .iter()
                .map(|m| self.move_text(m))
                .collect::<Vec<_>>()
        };
        let mut candidates: Vec<Move> = Vec::new();
        if self.variant.is_draughts() {
            let parts: Vec<&str> = t.split(['-', 'x', 'X', ':']).collect();
            let mut sqs = Vec::with_capacity(parts.len());
            for p in &parts {
                if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(syntax("expected square numbers separated by '-' or 'x'"));
                }
                let n: u32 = p.parse().unwrap_or(u32::MAX);
                match u8::try_from(n).ok().and_then(Square::new) {
                    Some(sq) => sqs.push(sq),
                    None => return Err(syntax(&format!("square {p} is not one of 1-32"))),
                }
            }
            if sqs.len() < 2 {
                return Err(syntax("a move needs a start and an end square"));
            }
            let (first, last) = (sqs[0], sqs[sqs.len() - 1]);
            for m in paths.iter() {
                if m.from != first || m.to != last {
                    continue;
                }
                // Intermediate squares must be landing squares of the path before the last, in order.
                let landings = m.path().count().saturating_sub(1);
                let mut path = m.path().take(landings);
                let fits = sqs[1..sqs.len() - 1].iter().all(|s| path.any(|p| p == *s));
                if fits && !candidates.contains(m) {
                    candidates.push(*m);
                }
            }
            // A text that spells one candidate's whole path names it, even when the other
            // candidates also fit (a capture that loops back through its start square: `19x12` is
            // both the single jump and `19x26x17x10x19x12`); `move_text` writes such a move so.
            if candidates.len() > 1 {
                let exact: Vec<Move> = candidates
                    .iter()
                    .filter(|m| m.path().eq(sqs[1..].iter().copied()))
                    .copied()
                    .collect();
                if exact.len() == 1 {
                    candidates = exact;
                }
            }
        } else {
            let (kind_ok, rest): (fn(MoveKind) -> bool, &str) =
                if let Some(r) = t.strip_prefix(['x', 'X']) {
                    (|k| k == MoveKind::Remove, r)
                } else {
                    (|k| k != MoveKind::Remove, t)
                };
            let (body, crown) = match rest.split_once('=') {
                Some((b, c)) => (b, Some(c)),
                None => (rest, None),
            };
            let (body, bear_mark) = match body.strip_suffix('+') {
                Some(b) => (b, true),
                None => (body, false),
            };
            let num = |s: &str| -> Result<Square, MoveError> {
                let n: u32 = if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                    s.parse().unwrap_or(u32::MAX)
                } else {
                    return Err(syntax(&format!("'{s}' is not a square number")));
                };
                u8::try_from(n)
                    .ok()
                    .and_then(Square::new)
                    .ok_or_else(|| syntax(&format!("square {s} is not one of 1-32")))
            };
            let (from, to, transpose) = if let Some((a, b)) = body.split_once('>') {
                (num(a)?, num(b)?, Some(true))
            } else if let Some((a, b)) = body.split_once('-') {
                (num(a)?, num(b)?, Some(false))
            } else {
                let s = num(body)?;
                (s, s, None)
            };
            let crown_sq = crown.map(num).transpose()?;
            for m in legal.iter() {
                if !kind_ok(m.kind) || m.from != from || m.to != to {
                    continue;
                }
                match transpose {
                    Some(true) if m.kind != MoveKind::Transpose => continue,
                    Some(false) if m.kind == MoveKind::Transpose || m.kind == MoveKind::Remove => {
                        continue
                    }
                    None if m.kind != MoveKind::Remove => continue,
                    _ => {}
                }
                if bear_mark && !m.bears_off() {
                    continue;
                }
                if let Some(c) = crown_sq {
                    if m.crown().map(|x| x.0) != Some(c) {
                        continue;
                    }
                }
                candidates.push(*m);
            }
        }
        match candidates.len() {
            1 => Ok(candidates[0]),
            0 => Err(MoveError::Illegal {
                text: t.to_string(),
                legal: legal_texts(),
            }),
            _ => Err(MoveError::Ambiguous {
                text: t.to_string(),
                candidates: candidates.iter().map(|m| m.long_text()).collect(),
            }),
        }
    }
}

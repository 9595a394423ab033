//! Replaying a [`PdnGame`] against the rules of `crown-core`: every move is matched against the legal
//! moves of its position; short captures that fit several moves are resolved by looking ahead.

use crate::error::{Location, PdnError, PdnErrorKind, PdnWarning};
use crate::gametype::variant_from_game_type;
use crate::reader::{MoveNode, Node, PdnGame};
use crown_core::{Color, DrawRules, Game, Move, MoveError, MoveList, Position, Square, Variant};

/// A replayed game: start position, every main-line move, and the warnings raised on the way.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The game type.
    pub variant: Variant,
    /// The start position (from the `FEN` tag or a leading setup command, else the variant's start).
    pub start: Position,
    /// The main-line moves in order.
    pub moves: Vec<Move>,
    /// Ambiguous captures resolved by look-ahead, FEN repairs, ….
    pub warnings: Vec<PdnWarning>,
}

impl Replay {
    /// The position after every main-line move.
    pub fn end(&self) -> Position {
        let mut p = self.start;
        for m in &self.moves {
            p.play(m);
        }
        p
    }

    /// The position after `ply` main-line moves (clamped to the game length).
    pub fn position_at(&self, ply: usize) -> Position {
        let mut p = self.start;
        for m in self.moves.iter().take(ply) {
            p.play(m);
        }
        p
    }

    /// The PDN move number of the move at `ply` (0-based): the first player's moves are `N.`, the
    /// second player's `N...`. Returns (number, is second player's move).
    pub fn move_number(&self, ply: usize) -> (u32, bool) {
        move_number(self.variant, self.start.side_to_move(), ply)
    }

    /// Build a [`Game`]: the moves are played with the history draw rules off (recorded games may
    /// continue past a repetition nobody claimed), then the default rules are restored. A decisive
    /// or drawn `result` (`1-0`, `0-1`, `1/2-1/2`, and `2-0`, `0-2`, `1-1`) that the board does not
    /// already show is recorded as a resignation of the losing side or an agreed draw; "1-0" means the
    /// side that moved first won (Black in checkers, White in Impasse).
    pub fn to_game(&self, result: Option<&str>) -> Game {
        let mut game = Game::from_position(self.start);
        game.set_draw_rules(DrawRules {
            repetition: false,
            forty_moves: false,
        });
        for m in &self.moves {
            // Every move came from the legal moves of its position.
            let _ = game.play(m);
        }
        game.set_draw_rules(DrawRules::default());
        if game.outcome().is_none() {
            let first = self.variant.first_player();
            match result.and_then(PdnResult::parse) {
                Some(PdnResult::FirstWins) => game.resign(first.opposite()),
                Some(PdnResult::SecondWins) => game.resign(first),
                Some(PdnResult::Draw) => game.agree_draw(),
                None => {}
            }
        }
        game
    }
}

/// A decided PDN result, read the PDN 2.0 way of checkers programs: the first number is the first
/// player's (Black in American and pool checkers, White in Impasse).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PdnResult {
    /// `1-0` or `2-0`: the side that moved first won.
    FirstWins,
    /// `1/2-1/2` or `1-1`: a draw.
    Draw,
    /// `0-1` or `0-2`: the second player won.
    SecondWins,
}

impl PdnResult {
    /// Read a result text (surrounding blanks ignored); `None` for `*`, `0-0` (both lost, a
    /// forfeit) and anything else.
    pub fn parse(text: &str) -> Option<PdnResult> {
        match text.trim() {
            "1-0" | "2-0" => Some(PdnResult::FirstWins),
            "0-1" | "0-2" => Some(PdnResult::SecondWins),
            "1/2-1/2" | "1-1" => Some(PdnResult::Draw),
            _ => None,
        }
    }

    /// The winner in a game of `variant` (`None`: a draw).
    pub fn winner(self, variant: Variant) -> Option<Color> {
        match self {
            PdnResult::FirstWins => Some(variant.first_player()),
            PdnResult::SecondWins => Some(variant.first_player().opposite()),
            PdnResult::Draw => None,
        }
    }
}

/// PDN move number of `ply` (0-based) in a game of `variant` whose first position has `side` to
/// move; the flag is true for a move of the second player (written `N...`).
pub fn move_number(variant: Variant, side: Color, ply: usize) -> (u32, bool) {
    let offset = usize::from(side != variant.first_player());
    let k = ply + offset;
    ((k / 2 + 1) as u32, k % 2 == 1)
}

/// Read a FEN for `variant` the lenient way ([`crate::read_fen`] with [`crate::FenPolicy::Lenient`]):
/// `?` as the side to move, a man on its king row read as a king, each with a warning text.
pub(crate) fn position_from_pdn_fen(
    variant: Variant,
    fen: &str,
) -> Result<(Position, Option<String>), String> {
    match crate::input::read_fen(variant, fen, crate::input::FenPolicy::Lenient) {
        Ok(r) => {
            let w = (!r.warnings.is_empty()).then(|| r.warnings.join("; "));
            Ok((r.position, w))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// The squares of a move text (a start, at most [`crown_core::MAX_PATH`] landings), without
/// allocating.
#[derive(Default)]
struct Squares {
    list: [Option<Square>; crown_core::MAX_PATH + 1],
    len: usize,
}

impl Squares {
    fn push(&mut self, sq: Square) -> Result<(), PdnErrorKind> {
        if self.len == self.list.len() {
            return Err(PdnErrorKind::Syntax(
                "a move lists more squares than any capture can have".into(),
            ));
        }
        self.list[self.len] = Some(sq);
        self.len += 1;
        Ok(())
    }

    fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.list[..self.len].iter().flatten().copied()
    }
}

/// Squares of a checkers move text: numeric with any separator and leading zeros, or alphanumeric
/// with or without separators.
fn parse_squares(text: &str) -> Result<Squares, PdnErrorKind> {
    let mut out = Squares::default();
    let b = text.as_bytes();
    if b.first().is_some_and(|c| (b'a'..=b'h').contains(c)) {
        let cleaned: Vec<u8> = b
            .iter()
            .copied()
            .filter(|c| !matches!(c, b'-' | b'x' | b'X' | b':'))
            .collect();
        for pair in cleaned.chunks(2) {
            let sq = (pair.len() == 2)
                .then(|| {
                    Square::from_file_rank(pair[0].wrapping_sub(b'a'), pair[1].wrapping_sub(b'0'))
                })
                .flatten();
            match sq {
                Some(s) => out.push(s)?,
                None => {
                    return Err(PdnErrorKind::UnknownSquare(format!(
                        "'{}' is not a dark square of the 8x8 board",
                        String::from_utf8_lossy(pair)
                    )))
                }
            }
        }
    } else {
        for part in text.split(['-', 'x', 'X', ':']) {
            let n: u32 = part.parse().map_err(|_| {
                PdnErrorKind::Syntax(format!("cannot read '{part}' in move '{text}' as a square"))
            })?;
            match u8::try_from(n).ok().and_then(Square::new) {
                Some(s) => out.push(s)?,
                None => {
                    return Err(PdnErrorKind::UnknownSquare(format!(
                        "{n} is not one of the squares 1-32 (a game of another type without a GameType tag?)"
                    )))
                }
            }
        }
    }
    if out.len < 2 {
        return Err(PdnErrorKind::Syntax(format!(
            "move '{text}' needs a start and an end square"
        )));
    }
    Ok(out)
}

/// The distinct legal moves that `text` may name in `pos`.
fn candidates(pos: &Position, text: &str, buf: &mut MoveList) -> Result<Vec<Move>, PdnErrorKind> {
    if pos.variant() == Variant::Impasse {
        return match pos.parse_move(text) {
            Ok(m) => Ok(vec![m]),
            Err(MoveError::Syntax { reason, .. }) => Err(PdnErrorKind::Syntax(format!(
                "cannot read move '{text}': {reason}"
            ))),
            Err(MoveError::Illegal { .. }) => Ok(Vec::new()),
            Err(MoveError::Ambiguous { candidates, .. }) => Err(PdnErrorKind::AmbiguousMove {
                fen: pos.to_fen(),
                candidates,
            }),
        };
    }
    let sqs = parse_squares(text)?;
    let first = sqs.squares().next();
    let last = sqs.squares().last();
    pos.legal_move_paths_into(buf);
    let mut out: Vec<Move> = Vec::new();
    for m in buf.iter() {
        if Some(m.from()) != first || Some(m.to()) != last {
            continue;
        }
        // The squares between start and end must be landing squares of the path, in order.
        let mut path = m.path();
        let fits = sqs
            .squares()
            .skip(1)
            .take(sqs.len - 2)
            .all(|s| path.any(|p| p == s));
        if fits && !out.contains(m) {
            out.push(*m);
        }
    }
    Ok(out)
}

/// How many of `rest` replay legally from `pos`, taking the best branch at each ambiguity.
fn replayable(pos: Position, rest: &[&MoveNode], budget: &mut u32, buf: &mut MoveList) -> usize {
    let mut pos = pos;
    for (i, node) in rest.iter().enumerate() {
        if *budget == 0 {
            return rest.len();
        }
        *budget -= 1;
        let Ok(c) = candidates(&pos, &node.text, buf) else {
            return i;
        };
        match c.len() {
            0 => return i,
            1 => pos.play(&c[0]),
            _ => {
                return i + c
                    .iter()
                    .map(|m| 1 + replayable(pos.after(m), &rest[i + 1..], budget, buf))
                    .max()
                    .unwrap_or(0);
            }
        }
    }
    rest.len()
}

/// Choose among several candidates for the move at `rest[0]` by looking ahead.
fn resolve(pos: &Position, cands: &[Move], rest: &[&MoveNode], buf: &mut MoveList) -> Vec<Move> {
    let mut budget = 20_000;
    let scores: Vec<usize> = cands
        .iter()
        .map(|m| replayable(pos.after(m), &rest[1..], &mut budget, buf))
        .collect();
    let best = scores.iter().copied().max().unwrap_or(0);
    cands
        .iter()
        .zip(&scores)
        .filter(|(_, s)| **s == best)
        .map(|(m, _)| *m)
        .collect()
}

/// Replay the main line of `game` as far as it goes: the moves up to the first bad one, and the error
/// there if any.
///
/// # Errors
/// A [`PdnError`] when replay cannot start: an unsupported `GameType`, a bad `FEN`, a bad or
/// misplaced setup command.
pub fn replay_prefix(game: &PdnGame) -> Result<(Replay, Option<PdnError>), PdnError> {
    let at = |line: usize, col: usize| -> Location { game.location(line, col) };
    let variant = variant_from_game_type(game.tag("GameType")).map_err(|e| PdnError {
        location: Box::new(at(game.line, 1)),
        kind: PdnErrorKind::UnsupportedGameType(e),
    })?;
    let mut warnings = game.warnings.clone();
    let mut start = Position::new(variant);
    if let Some(fen) = game.tag("FEN").filter(|f| !f.trim().is_empty()) {
        let (p, w) = position_from_pdn_fen(variant, fen).map_err(|e| PdnError {
            location: Box::new(at(game.line, 1)),
            kind: PdnErrorKind::BadFen(e),
        })?;
        start = p;
        if let Some(w) = w {
            warnings.push(PdnWarning {
                location: at(game.line, 1),
                message: w,
            });
        }
    }
    let mut main: Vec<&MoveNode> = Vec::new();
    for node in &game.nodes {
        match node {
            Node::Move(m) => main.push(m),
            Node::Setup { fen, line, column } => {
                if !main.is_empty() {
                    return Err(PdnError {
                        location: Box::new(at(*line, *column)),
                        kind: PdnErrorKind::Unsupported(
                            "a setup command after the first move of the main line".into(),
                        ),
                    });
                }
                let (p, w) = position_from_pdn_fen(variant, fen).map_err(|e| PdnError {
                    location: Box::new(at(*line, *column)),
                    kind: PdnErrorKind::BadFen(e),
                })?;
                start = p;
                if let Some(w) = w {
                    warnings.push(PdnWarning {
                        location: at(*line, *column),
                        message: w,
                    });
                }
            }
            _ => {}
        }
    }
    let mut pos = start;
    let mut moves = Vec::with_capacity(main.len());
    let mut buf = MoveList::new();
    let mut failure = None;
    for (i, node) in main.iter().enumerate() {
        let (number, _) = move_number(variant, start.side_to_move(), i);
        let loc = || Location {
            move_number: Some(number),
            move_text: Some(node.text.clone()),
            ..at(node.line, node.column)
        };
        match replay_move(&pos, &main[i..], &mut buf, &mut warnings, loc) {
            Ok(mv) => {
                pos.play(&mv);
                moves.push(mv);
            }
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }
    let mut side = Vec::new();
    check_variations(game, variant, start, &moves, &mut side);
    side.sort_by_key(|w| (w.location.line, w.location.column));
    warnings.extend(side);
    Ok((
        Replay {
            variant,
            start,
            moves,
            warnings,
        },
        failure,
    ))
}

/// Replay every variation of `game` whose branching point lies in the replayed main line (`main`,
/// starting at `start`): a move that does not replay in a variation is a warning (the main line is
/// still valid), and the rest of that variation (with the variations inside it from there) is not
/// followed. A variation is an alternative to the move just before it, so it starts from the
/// position before that move. Walks the tree with an explicit work list, not recursion.
fn check_variations(
    game: &PdnGame,
    variant: Variant,
    start: Position,
    main: &[Move],
    warnings: &mut Vec<PdnWarning>,
) {
    struct Work<'a> {
        nodes: &'a [Node],
        pos: Position,
        ply: usize,
        known: Option<&'a [Move]>,
    }
    let mut work = vec![Work {
        nodes: &game.nodes,
        pos: start,
        ply: 0,
        known: Some(main),
    }];
    let mut buf = MoveList::new();
    while let Some(w) = work.pop() {
        let moves: Vec<&MoveNode> = w
            .nodes
            .iter()
            .filter_map(|n| match n {
                Node::Move(m) => Some(m),
                _ => None,
            })
            .collect();
        let (mut pos, mut before) = (w.pos, w.pos);
        let (mut ply, mut before_ply) = (w.ply, w.ply);
        let mut index = 0;
        for node in w.nodes {
            match node {
                Node::Move(m) => {
                    let mv = match w.known {
                        Some(list) => match list.get(index) {
                            Some(mv) => *mv,
                            None => break,
                        },
                        None => {
                            let (number, _) = move_number(variant, start.side_to_move(), ply);
                            let loc = || Location {
                                move_number: Some(number),
                                move_text: Some(m.text.clone()),
                                ..game.location(m.line, m.column)
                            };
                            match replay_move(&pos, &moves[index..], &mut buf, warnings, loc) {
                                Ok(mv) => mv,
                                Err(e) => {
                                    warnings.push(PdnWarning {
                                        location: *e.location,
                                        message: format!(
                                            "in a variation (the rest of it is not checked): {}",
                                            e.kind
                                        ),
                                    });
                                    break;
                                }
                            }
                        }
                    };
                    index += 1;
                    before = pos;
                    before_ply = ply;
                    pos.play(&mv);
                    ply += 1;
                }
                Node::Variation(inner) => work.push(Work {
                    nodes: inner,
                    pos: before,
                    ply: before_ply,
                    known: None,
                }),
                Node::Setup { fen, line, column } if w.known.is_none() => {
                    match position_from_pdn_fen(variant, fen) {
                        Ok((p, _)) => {
                            pos = p;
                            before = p;
                        }
                        Err(e) => {
                            warnings.push(PdnWarning {
                                location: game.location(*line, *column),
                                message: format!(
                                    "in a variation (the rest of it is not checked): bad position: {e}"
                                ),
                            });
                            break;
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// Replay the main line of `game`.
///
/// # Errors
/// A [`PdnError`] for an unsupported `GameType`, a bad `FEN`, an unknown square, an illegal move (with
/// the position and legal moves), an ambiguous move that look-ahead could not settle, or a setup in
/// the middle of the main line.
pub fn replay(game: &PdnGame) -> Result<Replay, PdnError> {
    match replay_prefix(game)? {
        (r, None) => Ok(r),
        (_, Some(e)) => Err(e),
    }
}

/// Match `rest[0]` against the legal moves of `pos` (looking ahead through `rest` if ambiguous).
fn replay_move(
    pos: &Position,
    rest: &[&MoveNode],
    buf: &mut MoveList,
    warnings: &mut Vec<PdnWarning>,
    loc: impl Fn() -> Location,
) -> Result<Move, PdnError> {
    let node = rest[0];
    let cands = candidates(pos, &node.text, buf).map_err(|kind| PdnError {
        location: Box::new(loc()),
        kind,
    })?;
    let mv = match cands.len() {
        1 => cands[0],
        0 => {
            return Err(PdnError {
                location: Box::new(loc()),
                kind: PdnErrorKind::IllegalMove {
                    fen: pos.to_fen(),
                    legal: pos
                        .legal_moves_sorted()
                        .iter()
                        .map(|m| pos.move_text(m))
                        .collect(),
                },
            });
        }
        _ => {
            let kept = resolve(pos, &cands, rest, buf);
            if kept.len() != 1 {
                return Err(PdnError {
                    location: Box::new(loc()),
                    kind: PdnErrorKind::AmbiguousMove {
                        fen: pos.to_fen(),
                        candidates: kept.iter().map(|m| m.long_text()).collect(),
                    },
                });
            }
            warnings.push(PdnWarning {
                location: loc(),
                message: format!(
                    "'{}' fits {}; only {} lets the rest of the game replay",
                    node.text,
                    cands
                        .iter()
                        .map(|m| m.long_text())
                        .collect::<Vec<_>>()
                        .join(" and "),
                    kept[0].long_text()
                ),
            });
            kept[0]
        }
    };
    Ok(mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::read_games;

    fn one(text: &str) -> PdnGame {
        read_games(text).remove(0).unwrap()
    }

    #[test]
    fn ambiguous_capture_resolved_by_look_ahead() {
        // The example: Black 10x26 takes 14 and 22 (via 17) or 15 and 23 (via 19).
        // After 10x19x26 the White man on 30 must capture 30x23 (American rule 6: captures are
        // compulsory); after 10x17x26 the man on 14 was taken so 18-14 is possible and 30x23 is not
        // (23 is still occupied).
        let fen = "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13";
        let g = one(&format!("[FEN \"{fen}\"]\n1. 10x26 30x23 *"));
        let r = replay(&g).unwrap();
        assert_eq!(r.moves[0].long_text(), "10x19x26");
        assert_eq!(r.warnings.len(), 1);
        let g = one(&format!("[FEN \"{fen}\"]\n1. 10x26 18-14 *"));
        let r = replay(&g).unwrap();
        assert_eq!(r.moves[0].long_text(), "10x17x26");
        // Without a continuation both remain: an error listing both.
        let g = one(&format!("[FEN \"{fen}\"]\n1. 10x26 *"));
        let e = replay(&g).unwrap_err();
        match e.kind {
            PdnErrorKind::AmbiguousMove { candidates, .. } => {
                assert_eq!(candidates.len(), 2);
            }
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn illegal_moves_in_variations_are_warnings() {
        // 11-17 is not a move of the start position (a man steps to an adjacent square: 11-15 or
        // 11-16); the main line 11-15 23-19 is legal.
        let g = one("1. 11-15 (11-17) 23-19 (1... 22-18 2. 15x22 (2. 9-13 28x19) 25x18) *");
        let r = replay(&g).unwrap();
        assert_eq!(r.moves.len(), 2);
        let w: Vec<String> = r.warnings.iter().map(|w| w.to_string()).collect();
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(w[0].contains("line 1:11, move 1 '11-17'"), "{}", w[0]);
        assert!(w[0].contains("illegal move"), "{}", w[0]);
        // After 1. 11-15 22-18 Black must capture 15x22 (American rule 6): 2. 9-13 is illegal.
        assert!(w[1].contains("move 2 '9-13'"), "{}", w[1]);
        assert!(w[1].ends_with("legal: 15x22"), "{}", w[1]);
        // Legal variations give no warning.
        let g = one("1. 11-15 (1. 9-14 22-18) 23-19 (1... 22-18 2. 15x22 25x18) *");
        assert!(replay(&g).unwrap().warnings.is_empty());
    }

    #[test]
    fn numbering() {
        assert_eq!(move_number(Variant::American, Color::Black, 0), (1, false));
        assert_eq!(move_number(Variant::American, Color::Black, 1), (1, true));
        assert_eq!(move_number(Variant::American, Color::White, 0), (1, true));
        assert_eq!(move_number(Variant::American, Color::White, 1), (2, false));
        assert_eq!(move_number(Variant::Impasse, Color::White, 2), (2, false));
    }
}

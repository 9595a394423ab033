//! Plain-Rust views of core values, shaped for JavaScript (camelCase fields, square numbers 1–32).
//!
//! Everything here is ordinary Rust with serde, so it is tested on the host too; `lib.rs` turns these
//! values into JS objects with `serde-wasm-bindgen`.

use crown_core::{
    Color, DrawReason, Game, Move, MoveKind, Outcome, Piece, Position, Role, Square, Variant,
    WinReason,
};
use serde::{Deserialize, Serialize};

/// A crown made by an Impasse move: the single that is stacked and the square it is stacked onto.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrownView {
    /// Square number (1–32) of the single that is lifted and stacked.
    pub single: u8,
    /// Square number (1–32) of the single on the furthest row that becomes a double.
    pub onto: u8,
}

/// One legal move, with everything a board needs to show and choose it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveView {
    /// Index of the move in the position's legal move list (pass it to `Game.playIndex`).
    pub index: usize,
    /// The move in Crown's notation as a reader sees it (full path only when the short form is
    /// ambiguous), e.g. `11-15`, `11x25`, `22-18`, `6>10`, `x14`, `26-30+=30`.
    pub text: String,
    /// The move with every landing square written out (`11x18x25`); equal to `text` for non-captures.
    pub long_text: String,
    /// Start square (1–32).
    pub from: u8,
    /// End square (1–32); for an Impasse removal the same as `from`.
    pub to: u8,
    /// `simple`, `jump`, `slide`, `double_slide`, `transpose` or `remove`.
    pub kind: String,
    /// Landing squares of a jump in order, ending with `to`; `[to]` for every other move.
    pub path: Vec<u8>,
    /// Squares of the captured pieces, ascending (empty for a non-capture).
    pub captures: Vec<u8>,
    /// Checkers: a man is crowned king by this move.
    pub promotion: bool,
    /// Impasse: the moving double bears off its top checker.
    pub bear_off: bool,
    /// Impasse: the crown this move makes, if any.
    pub crown: Option<CrownView>,
    /// Impasse: this move is an impasse removal (`kind == "remove"`).
    pub impasse: bool,
}

/// A piece on a square.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceView {
    /// Square number 1–32.
    pub square: u8,
    /// `black` or `white`.
    pub color: String,
    /// `man` or `king` (Impasse: a single is `man`, a double is `king`).
    pub role: String,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OutcomeView {
    /// PDN result from the first player's view: `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// `black`, `white`, or `None` for a draw.
    pub winner: Option<String>,
    /// Machine-readable reason: `no_pieces_left`, `no_legal_move`, `all_checkers_removed`,
    /// `resignation`, `time`, `repetition`, `forty_move_rule`, `thirteen_count`,
    /// `thirty_eight_count`, `agreement`.
    pub reason: String,
    /// The reason for a reader, e.g. "Black wins: the opponent has no legal move".
    pub text: String,
}

/// One ply of a game's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlyView {
    /// 1 for the first move of the game.
    pub ply: usize,
    /// The side that made the move.
    pub color: String,
    /// The move as written in the position it was played from.
    pub text: String,
    /// The move's squares and captures (`index` is its index in that position's legal move list).
    pub mv: MoveView,
    /// PDN FEN of the position after the move.
    pub fen_after: String,
}

/// The id of a colour: `black` or `white`.
pub fn color_id(c: Color) -> &'static str {
    c.name()
}

/// Parse `black`/`white` (any case, or `b`/`w`).
///
/// # Errors
/// A message naming the bad text.
pub fn parse_color(s: &str) -> Result<Color, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "black" | "b" => Ok(Color::Black),
        "white" | "w" => Ok(Color::White),
        _ => Err(format!("unknown colour '{s}': expected black or white")),
    }
}

/// View of one legal move of `pos`; `index` is its place in `pos.legal_moves()`.
pub fn move_view(pos: &Position, mv: &Move, index: usize) -> MoveView {
    let path: Vec<u8> = if mv.kind() == MoveKind::Jump {
        mv.path().map(Square::number).collect()
    } else {
        vec![mv.to().number()]
    };
    MoveView {
        index,
        text: pos.move_text(mv),
        long_text: mv.long_text(),
        from: mv.from().number(),
        to: mv.to().number(),
        kind: mv.kind().id().to_string(),
        path,
        captures: mv.captures().iter().map(Square::number).collect(),
        promotion: mv.is_promotion(),
        bear_off: mv.bears_off(),
        crown: mv.crown().map(|(single, onto)| CrownView {
            single: single.number(),
            onto: onto.number(),
        }),
        impasse: mv.kind() == MoveKind::Remove,
    }
}

/// Views of every legal move of `pos`, in legal-move-list order.
pub fn legal_move_views(pos: &Position) -> Vec<MoveView> {
    pos.legal_moves()
        .iter()
        .enumerate()
        .map(|(i, m)| move_view(pos, m, i))
        .collect()
}

/// The pieces of `pos`, by ascending square.
pub fn piece_views(pos: &Position) -> Vec<PieceView> {
    Square::ALL
        .iter()
        .filter_map(|&sq| pos.piece_at(sq).map(|p| piece_view(sq, p)))
        .collect()
}

fn piece_view(sq: Square, p: Piece) -> PieceView {
    PieceView {
        square: sq.number(),
        color: color_id(p.color).to_string(),
        role: match p.role {
            Role::Man => "man",
            Role::King => "king",
        }
        .to_string(),
    }
}

/// Machine-readable id of an outcome's reason (see [`OutcomeView::reason`]).
pub fn reason_id(o: &Outcome) -> &'static str {
    match o {
        Outcome::Win { reason, .. } => match reason {
            WinReason::NoPiecesLeft => "no_pieces_left",
            WinReason::NoLegalMove => "no_legal_move",
            WinReason::AllCheckersRemoved => "all_checkers_removed",
            WinReason::Resignation => "resignation",
            WinReason::Time => "time",
        },
        Outcome::Draw { reason } => match reason {
            DrawReason::Repetition => "repetition",
            DrawReason::FortyMoveRule => "forty_move_rule",
            DrawReason::ThirteenCount => "thirteen_count",
            DrawReason::ThirtyEightCount => "thirty_eight_count",
            DrawReason::Agreement => "agreement",
        },
    }
}

/// View of an outcome in `variant`.
pub fn outcome_view(o: &Outcome, variant: Variant) -> OutcomeView {
    OutcomeView {
        result: o.pdn_result(variant).to_string(),
        winner: o.winner().map(|c| color_id(c).to_string()),
        reason: reason_id(o).to_string(),
        text: o.to_string(),
    }
}

/// The history of `game`, one entry per ply.
pub fn history_views(game: &Game) -> Vec<PlyView> {
    game.history()
        .enumerate()
        .map(|(i, (before, mv))| {
            let index = before
                .legal_moves()
                .iter()
                .position(|m| m == mv)
                .unwrap_or(0);
            PlyView {
                ply: i + 1,
                color: color_id(before.side_to_move()).to_string(),
                text: before.move_text(mv),
                mv: move_view(before, mv, index),
                fen_after: before.after(mv).to_fen(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown_core::ImpasseSetup;

    #[test]
    fn start_position_has_seven_moves_and_twenty_four_pieces() {
        // American checkers: 7 opening moves for Black (OEIS A133046, perft 1 = 7).
        let pos = Position::new(Variant::American);
        let moves = legal_move_views(&pos);
        assert_eq!(moves.len(), 7);
        assert!(moves
            .iter()
            .any(|m| m.text == "11-15" && m.path == vec![15]));
        let pieces = piece_views(&pos);
        assert_eq!(pieces.len(), 24);
        assert_eq!(pieces[0].square, 1);
        assert_eq!(pieces[0].color, "black");
        assert_eq!(pieces[23].square, 32);
        assert_eq!(pieces[23].color, "white");
    }

    #[test]
    fn two_way_capture_lists_both_paths() {
        // The crown-core doc example: 10x26 by 14 and 22, or by 15 and 23.
        let pos = Position::from_fen(Variant::American, "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13")
            .unwrap();
        let moves = legal_move_views(&pos);
        let a = moves.iter().find(|m| m.text == "10x17x26").unwrap();
        assert_eq!(a.path, vec![17, 26]);
        assert_eq!(a.captures, vec![14, 22]);
        let b = moves.iter().find(|m| m.text == "10x19x26").unwrap();
        assert_eq!(b.captures, vec![15, 23]);
        assert!(moves.iter().all(|m| m.kind == "jump"));
    }

    #[test]
    fn impasse_start_has_singles_only() {
        let pos = Position::impasse(ImpasseSetup::Seed);
        assert!(piece_views(&pos).iter().all(|p| p.role == "man"));
        let pos = Position::impasse(ImpasseSetup::Steere);
        assert_eq!(
            piece_views(&pos)
                .iter()
                .filter(|p| p.role == "king")
                .count(),
            8
        );
    }

    #[test]
    fn colours_parse() {
        assert_eq!(parse_color("White"), Ok(Color::White));
        assert_eq!(parse_color("b"), Ok(Color::Black));
        assert!(parse_color("red").unwrap_err().contains("'red'"));
    }
}

//! Writing a [`GameReview`] into a PDN game: NAGs, score comments and the engine's better line.

use crown_ai::review::{GameReview, Mark, MoveReview};
use crown_ai::Score;
use crown_core::{Color, Move, Position};
use crown_notation::{MoveNode, Node, PdnGame, Replay};

/// Longest engine line written as a variation, in plies.
pub const VARIATION_PLIES: usize = 10;

/// A score from `mover`'s view written from the first player's (`first`) view: `+0.35` (centi-men
/// as men, positive when the first player is better), `Black wins in 7` (plies), `Black wins` (the
/// game is over).
pub fn score_text(score: Score, mover: Color, first: Color) -> String {
    let s = if mover == first {
        score
    } else {
        score.negate()
    };
    match s {
        Score::Value(_) => s.to_string(),
        Score::Win(0) | Score::DatabaseWin(0) => format!("{first} wins"),
        Score::Loss(0) | Score::DatabaseLoss(0) => format!("{} wins", first.opposite()),
        Score::Win(n) | Score::DatabaseWin(n) => format!("{first} wins in {n}"),
        Score::Loss(n) | Score::DatabaseLoss(n) => format!("{} wins in {n}", first.opposite()),
    }
}

fn line_nodes(start: &Position, line: &[Move], first_comment: Option<String>) -> Vec<Node> {
    let mut pos = *start;
    let mut out = Vec::new();
    for mv in line.iter().take(VARIATION_PLIES) {
        if !pos.is_legal(mv) {
            break;
        }
        out.push(Node::Move(MoveNode::new(pos.move_text(mv))));
        if out.len() == 1 {
            if let Some(c) = &first_comment {
                out.push(Node::Comment(c.clone()));
            }
        }
        pos.play(mv);
    }
    out
}

/// The nodes added after the move of `m`: `{score / depth}`, its mark as a NAG, and for `?!`, `?`
/// and `??` the engine's line from the position before the move, its first move followed by its
/// score.
fn nodes_for(m: &MoveReview, before: &Position, first: Color) -> Vec<Node> {
    // The mark follows the score comment, so that a NAG before the comment is always the original
    // annotator's (a second annotation must not take a human's `$2` for Crown's own mark).
    let mut out = vec![Node::Comment(format!(
        "{} / {}",
        score_text(m.played_score, m.mover, first),
        m.depth
    ))];
    if let Some(mark) = m.mark {
        out.push(Node::Nag(mark.nag()));
    }
    if matches!(
        m.mark,
        Some(Mark::Inaccuracy | Mark::Mistake | Mark::Blunder)
    ) && !m.is_best()
    {
        // After the line's first move, like the played move's comment: one ply nearer the end.
        let after_best = match m.best_score {
            Score::Win(n) => Score::Win(n.saturating_sub(1)),
            Score::Loss(n) => Score::Loss(n.saturating_sub(1)),
            Score::DatabaseWin(n) => Score::DatabaseWin(n.saturating_sub(1)),
            Score::DatabaseLoss(n) => Score::DatabaseLoss(n.saturating_sub(1)),
            v @ Score::Value(_) => v,
        };
        let comment = format!("{} / {}", score_text(after_best, m.mover, first), m.depth);
        let line = line_nodes(before, &m.best_line, Some(comment));
        if !line.is_empty() {
            out.push(Node::Variation(line));
        }
    }
    out
}

/// True for a comment Crown's annotator writes: `+0.35 / 18`, `Black wins in 7 / 18`.
pub fn is_score_comment(text: &str) -> bool {
    let Some((score, depth)) = text.split_once(" / ") else {
        return false;
    };
    if depth.is_empty() || !depth.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let value = |t: &str| {
        t.split_once('.').is_some_and(|(a, b)| {
            !a.is_empty()
                && a.bytes().all(|c| c.is_ascii_digit())
                && b.len() == 2
                && b.bytes().all(|c| c.is_ascii_digit())
        })
    };
    if let Some(v) = score.strip_prefix(['+', '-']) {
        return value(v);
    }
    if score == "Black wins" || score == "White wins" {
        return true;
    }
    ["Black wins in ", "White wins in "].iter().any(|p| {
        score
            .strip_prefix(p)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// The main line of a game Crown annotated before, without that annotation: each score comment
/// ([`is_score_comment`]), the mark NAG (1, 2, 4 or 6) right after it, and the engine line after
/// those (a variation whose first move is followed by a score comment). Other nodes are kept,
/// including the NAGs before a score comment (the original annotator's).
pub fn strip_crown_annotation(nodes: &[Node]) -> Vec<Node> {
    let mut out: Vec<Node> = Vec::with_capacity(nodes.len());
    let mut after_score = false;
    for node in nodes {
        match node {
            Node::Comment(c) if is_score_comment(c) => {
                after_score = true;
                continue;
            }
            Node::Nag(1 | 2 | 4 | 6) if after_score => {
                // Crown's mark; the engine line may follow it.
                continue;
            }
            Node::Variation(inner)
                if after_score
                    && matches!(inner.get(1), Some(Node::Comment(c)) if is_score_comment(c)) =>
            {
                after_score = false;
                continue;
            }
            _ => {}
        }
        after_score = false;
        out.push(node.clone());
    }
    out
}

/// `game` (as [`crown_notation::canonical`] wrote it, its main line replayed in `replay`) with the
/// review written in: after each reviewed main-line move and the NAGs already there, a comment
/// `{+0.35 / 18}` (the score after the move from the first player's view, and the search depth in
/// plies), the mark's NAG (`$1 !`, `$6 ?!`, `$2 ?`, `$4 ??`), and after a `?!`, `?` or `??` move
/// the engine's better line as a variation. Every original tag, comment, NAG and variation is kept; the tags
/// `Annotator` (Crown and its version, after the annotators already named there, comma-separated)
/// and `AnnotatorSettings` (`settings`) are set. A game whose `Annotator` tag already names Crown has its previous annotation replaced
/// ([`strip_crown_annotation`]), not doubled.
pub fn annotate_pdn(
    game: &PdnGame,
    replay: &Replay,
    review: &GameReview,
    settings: &str,
) -> PdnGame {
    let mut out = game.clone();
    // Other annotators stay named before Crown: `A. Human, Crown 0.1.0`.
    let mut annotators: Vec<&str> = game
        .tag("Annotator")
        .map(|a| a.split(", ").filter(|p| !p.trim().is_empty()).collect())
        .unwrap_or_default();
    let again = annotators.iter().any(|a| a.starts_with("Crown"));
    annotators.retain(|a| !a.starts_with("Crown"));
    let crown = format!("Crown {}", env!("CARGO_PKG_VERSION"));
    annotators.push(&crown);
    let source = if again {
        strip_crown_annotation(&game.nodes)
    } else {
        game.nodes.clone()
    };
    out.set_tag("Annotator", &annotators.join(", "));
    out.set_tag("AnnotatorSettings", settings);
    let mut nodes = Vec::with_capacity(source.len() * 3);
    let mut pending: Option<Vec<Node>> = None;
    let mut ply = 0;
    let mut pos = replay.start;
    for node in &source {
        let is_nag = matches!(node, Node::Nag(_));
        if !is_nag {
            if let Some(p) = pending.take() {
                nodes.extend(p);
            }
        }
        nodes.push(node.clone());
        if let Node::Move(_) = node {
            if let (Some(m), Some(mv)) = (review.at(ply), replay.moves.get(ply)) {
                pending = Some(nodes_for(m, &pos, review.first));
                pos.play(mv);
            } else if let Some(mv) = replay.moves.get(ply) {
                pos.play(mv);
            }
            ply += 1;
        }
    }
    if let Some(p) = pending {
        nodes.extend(p);
    }
    out.nodes = nodes;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_comments() {
        for yes in [
            "+0.35 / 18",
            "-1.00 / 6",
            "Black wins in 7 / 12",
            "White wins in 1 / 3",
            "White wins / 3",
        ] {
            assert!(is_score_comment(yes), "{yes}");
        }
        for no in [
            "+0.35",
            "good move",
            "+0.3 / 18",
            "0.35 / 18",
            "Red wins in 7 / 2",
            "Black wins it / 2",
            "+1.00 / x",
        ] {
            assert!(!is_score_comment(no), "{no}");
        }
    }

    #[test]
    fn strip_keeps_original_nodes() {
        let mv = |t: &str| Node::Move(MoveNode::new(t));
        // A human's `$1 $2` on 11-15, then Crown's score, mark `$2` and engine line.
        let nodes = vec![
            mv("11-15"),
            Node::Nag(1),
            Node::Nag(2),
            Node::Comment("+0.10 / 6".into()),
            Node::Nag(2),
            Node::Variation(vec![
                mv("9-13"),
                Node::Comment("+0.30 / 6".into()),
                mv("22-18"),
            ]),
            Node::Comment("a human note".into()),
            Node::Variation(vec![mv("10-14"), mv("22-17")]),
            mv("23-19"),
            Node::Nag(6),
            Node::Comment("-0.05 / 6".into()),
        ];
        let kept = strip_crown_annotation(&nodes);
        assert_eq!(
            kept,
            vec![
                mv("11-15"),
                Node::Nag(1),
                Node::Nag(2),
                Node::Comment("a human note".into()),
                Node::Variation(vec![mv("10-14"), mv("22-17")]),
                mv("23-19"),
                Node::Nag(6),
            ]
        );
    }
}

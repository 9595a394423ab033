//! The durability bench's final check can report each kind of loss (issue 23): the bench's own
//! `verify` module, fed hand-made acknowledged moves and stored games.

#[path = "../benches/durability/verify.rs"]
mod verify;

use std::collections::BTreeMap;
use verify::{verify, Ack, Acked, Finding};

fn ack(sent: &str, echoed: &str) -> Ack {
    Ack {
        sent: sent.into(),
        echoed: Some(echoed.into()),
    }
}

/// Acknowledged moves at plies 0.., each echoed as sent.
fn acked(moves: &[&str]) -> Acked {
    moves
        .iter()
        .enumerate()
        .map(|(p, m)| (p, ack(m, m)))
        .collect()
}

fn stored(games: &[(&str, &[&str])]) -> BTreeMap<String, Vec<String>> {
    games
        .iter()
        .map(|(id, m)| (id.to_string(), m.iter().map(|s| s.to_string()).collect()))
        .collect()
}

#[test]
fn a_correct_game_has_no_findings() {
    let games = vec![("g1".to_string(), acked(&["11-15", "23-19", "8-11"]))];
    // The store may hold more moves than were acknowledged (a move committed, its reply lost).
    let s = stored(&[("g1", &["11-15", "23-19", "8-11", "22-17"])]);
    assert_eq!(verify(&games, &s), vec![]);
}

#[test]
fn a_stored_game_missing_a_move_is_a_loss() {
    let games = vec![("g1".to_string(), acked(&["11-15", "23-19", "8-11"]))];
    let s = stored(&[("g1", &["11-15", "23-19"])]);
    assert_eq!(
        verify(&games, &s),
        vec![Finding::Lost {
            game: "g1".into(),
            ply: 2,
            expected: "8-11".into(),
            found: None,
        }]
    );
}

#[test]
fn a_different_stored_move_is_a_loss() {
    let games = vec![("g1".to_string(), acked(&["11-15", "23-19", "8-11"]))];
    let s = stored(&[("g1", &["11-15", "22-18", "8-11"])]);
    assert_eq!(
        verify(&games, &s),
        vec![Finding::Lost {
            game: "g1".into(),
            ply: 1,
            expected: "23-19".into(),
            found: Some("22-18".into()),
        }]
    );
}

#[test]
fn a_game_missing_from_the_store_loses_every_acknowledged_move() {
    let games = vec![
        ("g1".to_string(), acked(&["11-15", "23-19"])),
        ("g2".to_string(), acked(&["9-13"])),
    ];
    let s = stored(&[("g2", &["9-13"])]);
    let lost: Vec<(String, usize)> = verify(&games, &s)
        .into_iter()
        .map(|f| match f {
            Finding::Lost {
                game, ply, found, ..
            } => {
                assert_eq!(found, None);
                (game, ply)
            }
            other => panic!("expected a loss, got {other:?}"),
        })
        .collect();
    assert_eq!(lost, vec![("g1".to_string(), 0), ("g1".to_string(), 1)]);
}

#[test]
fn an_echo_other_than_the_sent_move_is_a_mismatch() {
    let mut a = acked(&["11-15", "23-19"]);
    a.insert(1, ack("23-19", "22-18"));
    a.insert(
        2,
        Ack {
            sent: "8-11".into(),
            echoed: None,
        },
    );
    let games = vec![("g1".to_string(), a)];
    // Stored as sent: only the echoes are wrong.
    let s = stored(&[("g1", &["11-15", "23-19", "8-11"])]);
    assert_eq!(
        verify(&games, &s),
        vec![
            Finding::Mismatched {
                game: "g1".into(),
                ply: 1,
                sent: "23-19".into(),
                echoed: Some("22-18".into()),
            },
            Finding::Mismatched {
                game: "g1".into(),
                ply: 2,
                sent: "8-11".into(),
                echoed: None,
            },
        ]
    );
}

#[test]
fn findings_print_game_ply_expected_and_found() {
    let f = Finding::Lost {
        game: "g7".into(),
        ply: 4,
        expected: "11-15".into(),
        found: Some("10-14".into()),
    };
    assert_eq!(
        f.to_string(),
        "LOST: game g7 ply 4: acknowledged 11-15, stored Some(\"10-14\")"
    );
}

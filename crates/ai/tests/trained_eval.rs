//! The trained evaluation: its embedded weights files, the colour symmetry of the rules and
//! material sense (the training procedure is tested in crown-train, `tests/training.rs`).

use crown_ai::eval::{evaluate_with, EvalKind};
use crown_ai::trained::{
    fnv1a, FeatureSet, Weights, WeightsError, BASE_FEATURES, EMBEDDED, EMBEDDED_WITHOUT_TABLES,
    FEATURES, SCALE_ENTRIES,
};
use crown_core::{Color, Game, Position, Setup, SquareSet, Variant};

/// Each embedded weights file loads, is for its own game, and has every feature.
#[test]
fn embedded_weights_load_and_match_their_checksum() {
    for (variant, bytes) in EMBEDDED.into_iter().chain(EMBEDDED_WITHOUT_TABLES) {
        let w = Weights::from_bytes(bytes).unwrap_or_else(|e| panic!("{variant}: {e}"));
        assert_eq!(w.variant, variant);
        assert_eq!(w.w.len(), FEATURES);
        // Writing it back gives the same bytes (the format has one encoding).
        assert_eq!(w.to_bytes(), bytes);
    }
}

/// A weights file of format version 1, written here from its specification (docs/engine.md: magic,
/// version 1, variant, a zero byte, feature count, scale 16, the `i16` pairs, FNV-1a 64).
fn version_1_file(w: &Weights) -> Vec<u8> {
    let mut out = b"CRWNEVAL".to_vec();
    out.extend_from_slice(&1u16.to_le_bytes());
    out.push(match w.variant {
        Variant::American => 0,
        Variant::Pool => 1,
        Variant::Impasse => 2,
    });
    out.push(0);
    out.extend_from_slice(&(BASE_FEATURES as u32).to_le_bytes());
    out.extend_from_slice(&16u32.to_le_bytes());
    for pair in &w.w[..BASE_FEATURES] {
        out.extend_from_slice(&pair[0].to_le_bytes());
        out.extend_from_slice(&pair[1].to_le_bytes());
    }
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Files of format version 1 still load, as base-feature weights that evaluate every position
/// exactly as the same weights in version 2; an unknown version or parts byte is refused.
#[test]
fn version_1_files_load_and_other_versions_are_refused() {
    for (variant, bytes) in EMBEDDED {
        let w = Weights::from_bytes(bytes).unwrap();
        if w.set != FeatureSet::BASE {
            continue;
        }
        let old = Weights::from_bytes(&version_1_file(&w)).unwrap();
        assert_eq!(old, w, "{variant}");
        random_positions(variant, 5, |pos| {
            assert_eq!(old.evaluate_position(pos), w.evaluate_position(pos));
        });
    }
    let mut v3 = EMBEDDED[0].1.to_vec();
    v3[8] = 3;
    assert_eq!(Weights::from_bytes(&v3), Err(WeightsError::Version(3)));
    let mut parts = EMBEDDED[0].1.to_vec();
    parts[11] = 4;
    assert_eq!(Weights::from_bytes(&parts), Err(WeightsError::Parts(4)));
}

/// Weights with every part survive writing and reading; untouched entries cost little room, and
/// the material scale multiplies the score.
#[test]
fn weights_with_blocks_and_scales_round_trip() {
    let mut w = Weights::zero_with(Variant::American, FeatureSet::ALL);
    for (i, pair) in w.w.iter_mut().enumerate().step_by(97) {
        *pair = [(i % 2000) as i16 - 1000, -((i % 300) as i16)];
    }
    w.scale[1234] = 0;
    w.scale[SCALE_ENTRIES - 1] = 700;
    let bytes = w.to_bytes();
    assert_eq!(Weights::from_bytes(&bytes).as_ref(), Ok(&w));
    // About 1,150 nonzero pairs of FEATURES: far below the 4 bytes per pair of a dense file.
    assert!(bytes.len() < 4 * FEATURES / 20, "{} bytes", bytes.len());
    // One man against one man, side to move's men on 5, theirs on 28: with a scale of 0 for that
    // material (1 man each side: index ((1 × 13 + 0) × 13 + 1) × 13 + 0) it reads 0.
    let pos = Position::from_fen(Variant::American, "B:W28:B5").unwrap();
    let mut material = Weights::zero_with(Variant::American, FeatureSet::ALL);
    for s in 0..32 {
        material.w[s] = [1600; 2];
    }
    assert_eq!(material.evaluate_position(&pos), 100);
    let one_man_each = 2210; // ((1 × 13 + 0) × 13 + 1) × 13 + 0
    material.scale[one_man_each] = 0;
    assert_eq!(material.evaluate_position(&pos), 0);
    material.scale[one_man_each] = 128;
    assert_eq!(material.evaluate_position(&pos), 50);
}

/// A flipped byte anywhere in the weights is caught by the checksum; a short file is rejected.
#[test]
fn corrupted_weights_are_rejected() {
    let bytes = EMBEDDED[0].1;
    for at in [20, bytes.len() / 2, bytes.len() - 9] {
        let mut bad = bytes.to_vec();
        bad[at] ^= 0x10;
        assert_eq!(
            Weights::from_bytes(&bad),
            Err(WeightsError::Checksum),
            "byte {at}"
        );
    }
    // A cut file: its last 8 bytes are no longer the checksum of the rest.
    for len in [bytes.len() - 1, bytes.len() / 2, 40] {
        assert_eq!(
            Weights::from_bytes(&bytes[..len]),
            Err(WeightsError::Checksum),
            "{len} bytes"
        );
    }
    assert_eq!(
        Weights::from_bytes(&bytes[..27]),
        Err(WeightsError::Truncated)
    );
    let mut bad = bytes.to_vec();
    bad[0] = b'X';
    assert_eq!(Weights::from_bytes(&bad), Err(WeightsError::BadMagic));
}

/// The position with colours swapped and the board turned by 180° (square n ↔ 33 − n), the other
/// side to move: the same position under the rules' symmetry.
fn flipped(pos: &Position) -> Position {
    let setup = Setup {
        men: [
            SquareSet(pos.men(Color::White).0.reverse_bits()),
            SquareSet(pos.men(Color::Black).0.reverse_bits()),
        ],
        kings: [
            SquareSet(pos.kings(Color::White).0.reverse_bits()),
            SquareSet(pos.kings(Color::Black).0.reverse_bits()),
        ],
        side_to_move: pos.side_to_move().opposite(),
    };
    Position::from_setup(pos.variant(), &setup).expect("the flipped position is legal")
}

fn random_positions(variant: Variant, games: usize, mut f: impl FnMut(&Position)) {
    let mut seed = 0x1234_5678_9abc_def1u64;
    for _ in 0..games {
        let mut game = Game::new(variant);
        for _ in 0..120 {
            f(game.position());
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            game.play(&moves[(seed % moves.len() as u64) as usize])
                .unwrap();
        }
    }
}

/// The colour-flipped position scores the same for its side to move, in every game, with both
/// evaluations: the rules do not favour a colour.
#[test]
fn evaluation_is_colour_symmetric() {
    for v in Variant::ALL {
        let mut n = 0;
        random_positions(v, 20, |pos| {
            let f = flipped(pos);
            for kind in [EvalKind::Trained, EvalKind::Classic] {
                assert_eq!(
                    evaluate_with(pos, kind),
                    evaluate_with(&f, kind),
                    "{v} {kind:?}: {} vs {}",
                    pos.to_fen(),
                    f.to_fen()
                );
            }
            n += 1;
        });
        assert!(n > 500, "{v}: only {n} positions");
    }
}

/// In simple positions (men only; American also with kings) an extra man is better for its owner
/// (checkers) and an extra checker is
/// worse (Impasse, where the goal is to remove one's own checkers).
#[test]
fn trained_evaluation_values_material() {
    // (position, the same with one more man for the side to move)
    let checkers = [
        ("B:W27,28:B5,6", "B:W27,28:B5,6,7"),
        ("W:W21,22,23:B10,11", "W:W21,22,23,24:B10,11"),
        ("B:W30,31,32:B1,2,3", "B:W30,31,32:B1,2,3,4"),
        (
            "B:W20,21,22,23,24:B9,10,11,12",
            "B:W20,21,22,23,24:B5,9,10,11,12",
        ),
    ];
    // With kings on the board: American only (in pool, flying kings make many such endings draws).
    let american = [("W:WK14,26:BK19,7", "W:WK14,26,27:BK19,7")];
    for v in [Variant::American, Variant::Pool] {
        let extra: &[(&str, &str)] = if v == Variant::American {
            &american
        } else {
            &[]
        };
        for &(base, more) in checkers.iter().chain(extra) {
            let a = Position::from_fen(v, base).unwrap();
            let b = Position::from_fen(v, more).unwrap();
            let (ea, eb) = (
                evaluate_with(&a, EvalKind::Trained),
                evaluate_with(&b, EvalKind::Trained),
            );
            assert!(eb > ea + 50, "{v}: {more} scores {eb}, {base} scores {ea}");
        }
    }
    let impasse = [
        ("B:W27,28:B5,6", "B:W27,28:B5,6,7"),
        ("W:W21,22,23:B10,11", "W:W21,22,23,24:B10,11"),
    ];
    for (base, more) in impasse {
        let a = Position::from_fen(Variant::Impasse, base).unwrap();
        let b = Position::from_fen(Variant::Impasse, more).unwrap();
        let (ea, eb) = (
            evaluate_with(&a, EvalKind::Trained),
            evaluate_with(&b, EvalKind::Trained),
        );
        assert!(
            eb < ea - 50,
            "impasse: {more} scores {eb}, {base} scores {ea}"
        );
    }
}

/// Weights given with `Engine::set_weights` replace the evaluation in their own game only: all-zero
/// American weights score a man up as level (0) at depth 1, the embedded ones as a clear lead, and
/// pool weights leave an American search as it was.
#[test]
fn run_time_weights_replace_the_evaluation_of_their_game() {
    use crown_ai::{Engine, EngineOptions, Limits, Score};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let pos = Position::from_fen(Variant::American, "B:W21,22,23:B1,2,3,4").unwrap();
    let game = Game::from_position(pos);
    let stop = AtomicBool::new(false);
    let score = |weights: Option<Weights>| {
        let mut e = Engine::new(EngineOptions {
            hash_mib: 1,
            threads: 1,
            level: None,
        });
        e.set_weights(weights.map(Arc::new));
        e.search(&game, &Limits::depth(1), &stop, &mut |_| {}).score
    };
    let embedded = score(None);
    assert!(
        matches!(embedded, Score::Value(v) if v > 50),
        "embedded weights: {embedded}"
    );
    assert_eq!(
        score(Some(Weights::zero(Variant::American))),
        Score::Value(0)
    );
    assert_eq!(score(Some(Weights::zero(Variant::Pool))), embedded);
}

/// Databases that say they hold `max` pieces of every game but answer nothing: the search then
/// evaluates every position itself, and only the choice of weights differs.
struct Silent(u32);

impl crown_ai::EndgameTables for Silent {
    fn max_pieces(&self, _: Variant) -> u32 {
        self.0
    }
    fn probe(&self, _: &Position) -> Option<crown_ai::TableProbe> {
        None
    }
    fn describe(&self) -> String {
        "silent".into()
    }
}

/// The American search with the trained evaluation (`EvalKind::Trained`; the default is the
/// network, whose fewer-piece positions this evaluation scores) evaluates with the weights trained
/// on database labels when its databases hold fewer than 6 pieces (or none), and with
/// `american.bin` when they hold 6: each search equals, node for node, the one given those weights
/// explicitly. Pool and Impasse have one set of weights.
#[test]
fn trained_weights_follow_the_databases_in_use() {
    use crown_ai::trained::{embedded, embedded_without_tables, TABLES_COVER};
    use crown_ai::{Engine, EngineOptions, Limits};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    assert_eq!(TABLES_COVER, 6);
    for other in [Variant::Pool, Variant::Impasse] {
        assert_eq!(embedded(other), embedded_without_tables(other), "{other}");
    }
    let stop = AtomicBool::new(false);
    let (v, depth) = (Variant::American, 9);
    assert_ne!(embedded(v), embedded_without_tables(v), "{v}");
    let game = Game::new(v);
    let run = |tables: Option<u32>, weights: Option<&Weights>| {
        let mut e = Engine::new(EngineOptions {
            hash_mib: 4,
            threads: 1,
            level: None,
        });
        e.set_tables(tables.map(|n| Arc::new(Silent(n)) as Arc<dyn crown_ai::EndgameTables>));
        e.set_eval(Some(crown_ai::eval::EvalKind::Trained));
        e.set_weights(weights.cloned().map(Arc::new));
        let r = e.search(&game, &Limits::depth(depth), &stop, &mut |_| {});
        (r.nodes, r.score, r.best_move)
    };
    let without = embedded_without_tables(v);
    let with = embedded(v);
    assert_eq!(run(None, None), run(None, without), "{v}");
    assert_eq!(run(Some(4), None), run(Some(4), without), "{v}");
    assert_eq!(run(Some(6), None), run(Some(6), with), "{v}");
    assert_ne!(run(None, without).0, run(None, with).0, "{v}");
}

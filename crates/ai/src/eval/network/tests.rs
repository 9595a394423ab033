//! The network's accumulator, kernels and file format, checked against from-scratch and scalar
//! computations over positions of random games of every game.

use super::check::{random_games, random_network};
use super::*;

/// The update along each move of thousands of positions of random games of every game (quiet
/// moves, multi-jumps, crownings, Impasse's transpositions and bear-offs) gives exactly the
/// accumulator computed from scratch, and so the same score; and an update across many moves at
/// once (from a position ten plies back) too.
#[test]
fn incremental_accumulator_equals_from_scratch() {
    let mut checked = 0;
    let mut captures = 0;
    let mut crownings = 0;
    for variant in Variant::ALL {
        let net = random_network(variant, 64, 16, 4, 7);
        for line in random_games(variant, 40, 11 + variant as u64) {
            let mut acc = Accumulator::new(&net, &line[0]);
            for (i, pair) in line.windows(2).enumerate() {
                let (a, b) = (&pair[0], &pair[1]);
                captures += usize::from(
                    Board::of(b).occupied().count_ones() < Board::of(a).occupied().count_ones(),
                );
                crownings += usize::from(
                    Board::of(b).kings[Board::of(a).side] != Board::of(a).kings[Board::of(a).side],
                );
                acc.update_positions(&net, a, b);
                let scratch = Accumulator::new(&net, b);
                assert_eq!(acc, scratch, "{variant:?} ply {} {}", i + 1, b.to_fen());
                assert_eq!(net.evaluate_with_accumulator(&acc, b), net.evaluate(b));
                if i >= 10 {
                    let mut far = Accumulator::new(&net, &line[i - 10]);
                    far.update_positions(&net, &line[i - 10], b);
                    assert_eq!(
                        far,
                        scratch,
                        "{variant:?}: ten plies at once to {}",
                        b.to_fen()
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 5_000, "only {checked} positions");
    assert!(
        captures > 500 && crownings > 100,
        "{captures} captures, {crownings} crownings"
    );
}

/// The search's stack gives the from-scratch score at every ply of a line, whichever plies
/// evaluated before (here every third, and ply 0 never).
#[test]
fn accumulator_stack_follows_a_line() {
    for variant in Variant::ALL {
        let net = random_network(variant, 32, 8, 2, 3);
        for line in random_games(variant, 10, 5) {
            let mut stack = AccStack::new(&net, line.len());
            for (ply, pos) in line.iter().enumerate() {
                stack.enter(ply, &Board::of(pos));
                if ply % 3 == 1 || ply + 1 == line.len() {
                    assert_eq!(stack.evaluate(&net, ply), net.evaluate(pos), "ply {ply}");
                }
            }
            // Back up to ply 2 and down another way: the same position again.
            let pos = &line[line.len().min(3) - 1];
            let ply = line.len().min(3) - 1;
            stack.enter(ply, &Board::of(pos));
            assert_eq!(stack.evaluate(&net, ply), net.evaluate(pos));
        }
    }
}

/// The SIMD kernel of this processor (AVX2) gives the scalar kernel's accumulators and scores on
/// thousands of positions, and the same integers at the edges of every hot loop (skipped where the
/// processor has no AVX2; says so). The wasm simd128 kernel runs the same check under Node
/// (`apps/wasm/tests/network_kernel.rs`, `cargo xtask wasm-test`).
#[test]
fn simd_equals_scalar() {
    let Some(simd) = Kernel::simd() else {
        eprintln!("no AVX2 on this processor: only the scalar kernel runs here");
        return;
    };
    let checked = check::assert_kernel_matches_scalar(simd);
    assert!(checked > 3_000, "only {checked} positions");
}

/// The feature map: White's view turns the board 180° and swaps the colours, so a position and
/// its colour-reversed mirror image give the same score (a fact of the rules' symmetry, which the
/// network shares by construction).
#[test]
fn mirrored_position_scores_the_same() {
    let net = random_network(Variant::American, 32, 8, 4, 17);
    // Black men on 9, 10, king on 1, White man on 22, Black to move; mirror: square n → 33 − n.
    let a = Position::from_fen(Variant::American, "B:W22:B9,10,K1").unwrap();
    let b = Position::from_fen(Variant::American, "W:W24,23,K32:B11").unwrap();
    assert_eq!(net.evaluate(&a), net.evaluate(&b));
    assert_eq!(feature(0, 0, 0, 0), 0);
    assert_eq!(feature(1, 1, 1, 0), 32 + 31);
    assert_eq!(feature(0, 1, 1, 5), 3 * 32 + 5);
}

/// A refresh of more than 32 features (a board no game reaches: every square a man and a king of
/// both sides) applies them in batches of 32 and still sums every row, in both kernels.
#[test]
fn refresh_of_more_than_32_features_sums_every_row() {
    let net = random_network(Variant::American, 32, 8, 1, 41);
    let board = Board {
        men: [u32::MAX; 2],
        kings: [u32::MAX; 2],
        side: 0,
    };
    let mut expected = net.l1_bias.clone();
    for f in 0..INPUTS {
        for (e, w) in expected
            .iter_mut()
            .zip(&net.l1_weights[f * 32..(f + 1) * 32])
        {
            *e = e.wrapping_add(*w);
        }
    }
    for kernel in [Some(Kernel::Scalar), Kernel::simd()].into_iter().flatten() {
        let mut acc = Accumulator { data: vec![0; 64] };
        acc.refresh_with(&net, &board, kernel);
        assert_eq!(acc.half(0), &expected[..], "{kernel:?}");
        assert_eq!(acc.half(1), &expected[..], "{kernel:?}");
    }
}

#[test]
fn buckets_split_the_piece_counts() {
    assert_eq!(bucket_of(24, 4), 3);
    assert_eq!(bucket_of(19, 4), 3);
    assert_eq!(bucket_of(18, 4), 2);
    assert_eq!(bucket_of(7, 4), 1);
    assert_eq!(bucket_of(6, 4), 0);
    assert_eq!(bucket_of(1, 4), 0);
    assert_eq!(bucket_of(0, 4), 0);
    assert_eq!(bucket_of(24, 1), 0);
    assert_eq!(bucket_of(30, 8), 7);
}

fn valid_file() -> Vec<u8> {
    random_network(Variant::Pool, 32, 8, 2, 5).to_bytes()
}

/// Rewrite the CRC after changing a header field, so the field's own check is what fails.
fn reseal(mut b: Vec<u8>) -> Vec<u8> {
    let n = b.len() - 4;
    let crc = crc32fast::hash(&b[..n]);
    b[n..].copy_from_slice(&crc.to_le_bytes());
    b
}

#[test]
fn file_round_trips() {
    let net = random_network(Variant::Impasse, 32, 16, 3, 8);
    let back = Network::from_bytes(&net.to_bytes()).unwrap();
    assert_eq!(back, net);
    assert_eq!(back.variant, Variant::Impasse);
    assert_eq!((back.l1(), back.l2(), back.buckets()), (32, 16, 3));
}

#[test]
fn truncated_files_are_refused() {
    let b = valid_file();
    for len in [0, 4, 8, 20, 31, 40, b.len() / 2, b.len() - 1] {
        let e = Network::from_bytes(&b[..len]).unwrap_err();
        assert!(
            matches!(e, NetworkError::Truncated { found, .. } if found == len),
            "{len}: {e}"
        );
        assert!(e.to_string().contains("truncated"), "{e}");
    }
    let mut long = b.clone();
    long.push(0);
    assert_eq!(
        Network::from_bytes(&long),
        Err(NetworkError::TrailingBytes(1))
    );
}

#[test]
fn bad_magic_and_version_are_refused() {
    let mut b = valid_file();
    b[0] = b'X';
    assert_eq!(Network::from_bytes(&b), Err(NetworkError::BadMagic));
    assert!(Network::from_bytes(b"CRWNEVAL\x02\x00").is_err_and(|e| e == NetworkError::BadMagic));
    let mut b = valid_file();
    b[8] = 2;
    assert_eq!(
        Network::from_bytes(&reseal(b)),
        Err(NetworkError::Version(2))
    );
    let mut b = valid_file();
    b[10] = 3;
    assert_eq!(
        Network::from_bytes(&reseal(b)),
        Err(NetworkError::Variant(3))
    );
}

#[test]
fn damaged_payload_fails_the_checksum() {
    let mut b = valid_file();
    let mid = b.len() / 2;
    b[mid] ^= 0x10;
    let e = Network::from_bytes(&b).unwrap_err();
    assert!(matches!(e, NetworkError::Checksum { .. }), "{e}");
    assert!(e.to_string().contains("damaged"), "{e}");
}

#[test]
fn wrong_sizes_are_refused() {
    // (byte offset of a u16 field, value, field name in the message)
    for (at, v, name) in [
        (12, 129u16, "input count"),
        (14, 24, "first-layer width"),
        (14, 2048, "first-layer width"),
        (16, 12, "second-layer width"),
        (18, 200, "activation scale"),
        (20, 15, "log2 qb"),
        (22, 0, "output scale"),
        (24, 0, "centi-men per unit"),
    ] {
        let mut b = valid_file();
        b[at..at + 2].copy_from_slice(&v.to_le_bytes());
        let e = Network::from_bytes(&reseal(b)).unwrap_err();
        assert!(
            matches!(&e, NetworkError::Field { field, value, .. } if *field == name && *value == u64::from(v)),
            "{name}: {e}"
        );
        assert!(e.to_string().contains(name), "{e}");
    }
    let mut b = valid_file();
    b[11] = 0;
    assert!(matches!(
        Network::from_bytes(&reseal(b)),
        Err(NetworkError::Field {
            field: "bucket count",
            ..
        })
    ));
    // A width the payload does not have: the payload length no longer fits.
    let mut b = valid_file();
    b[14..16].copy_from_slice(&64u16.to_le_bytes());
    let e = Network::from_bytes(&reseal(b)).unwrap_err();
    assert!(matches!(e, NetworkError::PayloadLength { .. }), "{e}");
    // Parts of the wrong length.
    let net = random_network(Variant::American, 32, 8, 1, 1);
    let mut p = NetworkParts {
        variant: Variant::American,
        l1: 32,
        l2: 8,
        qa: 127,
        qb_log2: 6,
        qo: 64,
        out_cm: 100,
        l1_bias: net.l1_bias.clone(),
        l1_weights: net.l1_weights.clone(),
        buckets: vec![],
    };
    p.l1_bias.pop();
    assert!(Network::from_parts(p).is_err());
}

/// No byte string read as a network file panics: every prefix and every one-byte change of a
/// valid file is an error or a network (the checksum refuses the changes).
#[test]
fn malformed_files_never_panic() {
    let b = valid_file();
    for len in (0..b.len()).step_by(7) {
        assert!(Network::from_bytes(&b[..len]).is_err());
    }
    for at in (0..b.len()).step_by(13) {
        let mut c = b.clone();
        c[at] = c[at].wrapping_add(1);
        assert!(Network::from_bytes(&c).is_err(), "byte {at}");
    }
}

//! Fuzz the PDN FEN parser of crown-core: the body is `crown_fuzz_targets::fen` (its documentation says what is checked),
//! replayed over `fuzz/corpus/fen/` by that crate's tests.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| crown_fuzz_targets::fen(data));

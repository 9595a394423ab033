//! Fuzz the trained-weights loader (`crown_ai::trained::Weights::from_bytes`): the body is `crown_fuzz_targets::weights` (its documentation says what is checked),
//! replayed over `fuzz/corpus/weights/` by that crate's tests.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| crown_fuzz_targets::weights(data));

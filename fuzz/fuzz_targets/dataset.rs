//! Fuzz the training-data reader (`crown_train::dataset`): the body is `crown_fuzz_targets::dataset`
//! (its documentation says what is checked), replayed over `fuzz/corpus/dataset/` by that crate's
//! tests.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| crown_fuzz_targets::dataset(data));

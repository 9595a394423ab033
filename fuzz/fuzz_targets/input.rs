//! Fuzz crown-notation's reader of typed input: the body is `crown_fuzz_targets::input` (its documentation says what is checked),
//! replayed over `fuzz/corpus/input/` by that crate's tests.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| crown_fuzz_targets::input(data));

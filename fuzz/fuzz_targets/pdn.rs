//! Fuzz the PDN reader of crown-notation: the body is `crown_fuzz_targets::pdn` (its documentation says what is checked),
//! replayed over `fuzz/corpus/pdn/` by that crate's tests.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| crown_fuzz_targets::pdn(data));

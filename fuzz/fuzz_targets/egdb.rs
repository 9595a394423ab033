//! Fuzz the endgame-database class-file reader (crown-egdb): the body is `crown_fuzz_targets::egdb` (its documentation says what is checked),
//! replayed over `fuzz/corpus/egdb/` by that crate's tests.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| crown_fuzz_targets::egdb(data));

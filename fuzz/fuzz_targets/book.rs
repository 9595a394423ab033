//! Fuzz the opening-book loader (`crown_ai::book::Book::from_bytes`): the body is `crown_fuzz_targets::book` (its documentation says what is checked),
//! replayed over `fuzz/corpus/book/` by that crate's tests.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| crown_fuzz_targets::book(data));

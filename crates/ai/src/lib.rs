//! # crown-ai
//!
//! The Crown engine: search and evaluation for American checkers, pool checkers and Impasse.
//! (Filled by the engine issue.)

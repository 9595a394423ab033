//! The casual engine levels for the pages ([`crown_ai::level`]): the range the level inputs offer
//! and the level a new game starts at, so that no page writes these numbers itself.

use wasm_bindgen::prelude::*;

/// The weakest casual level ([`crown_ai::level::MIN_LEVEL`], 1).
#[wasm_bindgen(js_name = minLevel)]
pub fn min_level() -> u8 {
    crown_ai::level::MIN_LEVEL
}

/// The strongest casual level ([`crown_ai::level::MAX_LEVEL`], 10).
#[wasm_bindgen(js_name = maxLevel)]
pub fn max_level() -> u8 {
    crown_ai::level::MAX_LEVEL
}

/// The level a game against the engine starts at unless the player picks another
/// ([`crown_ai::DEFAULT_LEVEL`], 4: the lowest that plays its endings from the endgame databases).
#[wasm_bindgen(js_name = defaultLevel)]
pub fn default_level() -> u8 {
    crown_ai::DEFAULT_LEVEL
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pages_get_levels_one_to_ten_starting_at_four() {
        assert_eq!((min_level(), max_level(), default_level()), (1, 10, 4));
    }
}

//! The one pseudo-random generator of the workspace: SplitMix64.
//!
//! Every seeded choice in Crown (random openings, self-play noise, an engine level's move choice,
//! shuffles in training, benchmarks' random positions) draws from [`Rng`], so that one seed means
//! one sequence on every platform (wasm included) and in every release. It is not cryptographic.
//!
//! SplitMix64 is Steele, Lea and Flood, "Fast splittable pseudorandom number generators" (OOPSLA
//! 2014), with the constants of Vigna's reference implementation; [`mix`] is its output function.

/// A seeded SplitMix64 generator: 64 bits of state, any seed (0 included) is good.
///
/// ```
/// use crown_core::rng::Rng;
/// let mut a = Rng::new(7);
/// let mut b = Rng::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    state: u64,
}

/// The golden-ratio increment of SplitMix64 (2^64 / φ, odd).
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

impl Rng {
    /// A generator seeded with `seed`; equal seeds give equal sequences.
    pub const fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix(self.state)
    }

    /// A number in `0..n` (0 when `n` is 0), by Lemire's multiply-shift: unbiased enough for games
    /// and training (bias below 2^-32 for `n` < 2^32).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// An index in `0..len` (0 when `len` is 0).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// A number in `[0, 1)` with 53 random bits.
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.index(i + 1));
        }
    }

    /// A generator for stream `stream` of this seed: independent sequences per game, worker or
    /// chunk that do not depend on the order the streams are drawn in.
    pub fn stream(seed: u64, stream: u64) -> Rng {
        Rng::new(mix(seed ^ mix(stream.wrapping_add(GAMMA))))
    }
}

/// The SplitMix64 output function: a fixed 64-bit mixing of `x` (a bijection, so a good hash of
/// seeds and indices).
pub const fn mix(x: u64) -> u64 {
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_sequence() {
        // Vigna's splitmix64.c seeded with 1234567 prints these first outputs.
        let mut r = Rng::new(1_234_567);
        assert_eq!(r.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(r.next_u64(), 3_203_168_211_198_807_973);
        assert_eq!(r.next_u64(), 9_817_491_932_198_370_423);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = Rng::new(0);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let v = r.below(7);
            assert!(v < 7);
            seen[v as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(r.below(0), 0);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut v: Vec<u32> = (0..50).collect();
        Rng::new(3).shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }

    #[test]
    fn streams_differ() {
        assert_ne!(Rng::stream(1, 0).next_u64(), Rng::stream(1, 1).next_u64());
        assert_eq!(Rng::stream(1, 5), Rng::stream(1, 5));
    }

    #[test]
    fn unit_is_in_range() {
        let mut r = Rng::new(9);
        for _ in 0..1000 {
            let u = r.unit_f64();
            assert!((0.0..1.0).contains(&u));
        }
    }
}

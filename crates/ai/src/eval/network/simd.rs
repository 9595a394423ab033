//! The network's two hot loops, each in portable scalar code and, on x86-64 with AVX2, in
//! `std::arch` intrinsics: adding or subtracting a first-layer weight row to an accumulator
//! (wrapping `i16` arithmetic, so both paths give the same bits even on overflow), and the second
//! layer's dot products of the clipped activations (`u8`, at most 127) with `i8` weights summed in
//! `i32`. Both paths compute the same integers exactly: the AVX2 pairwise `u8 × i8` products
//! (`maddubs`) cannot saturate, as each pair sums to at most 2 · 127 · 128 = 32,512 < 32,767.
//!
//! [`Kernel`] picks the path; its AVX2 value can only be made where the processor has AVX2
//! ([`Kernel::avx2`] checks at run time), which is what makes the `unsafe` calls sound.

/// Which code computes the network's hot loops.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Portable scalar code (every target).
    Scalar,
    /// x86-64 AVX2; holds a private token, so it exists only where [`Kernel::avx2`] found AVX2.
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2Token),
}

/// Proof that the running processor has AVX2: made only by [`Kernel::avx2`] after
/// `is_x86_feature_detected!("avx2")` said yes.
#[cfg(target_arch = "x86_64")]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Avx2Token(());

impl Kernel {
    /// The fastest kernel this processor runs (AVX2 where detected, else scalar).
    pub fn best() -> Kernel {
        Kernel::avx2().unwrap_or(Kernel::Scalar)
    }

    /// The AVX2 kernel, or `None` where the processor (or the target) has no AVX2.
    pub fn avx2() -> Option<Kernel> {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                return Some(Kernel::Avx2(Avx2Token(())));
            }
        }
        None
    }

    /// `acc[i] += row[i]` (`sub`: `-=`), wrapping, for every `i`; the slices have one length.
    #[inline]
    pub(crate) fn add_row(self, acc: &mut [i16], row: &[i16], sub: bool) {
        debug_assert_eq!(acc.len(), row.len());
        match self {
            Kernel::Scalar => add_row_scalar(acc, row, sub),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: an `Avx2` kernel holds an `Avx2Token`, which only `Kernel::avx2` makes, after
            // `is_x86_feature_detected!("avx2")` returned true on this processor: the
            // `#[target_feature(enable = "avx2")]` function's requirement holds.
            #[allow(unsafe_code)]
            Kernel::Avx2(_) => unsafe { avx2::add_row(acc, row, sub) },
        }
    }

    /// The clipped ReLU: `out[i] = clamp(acc[i], 0, qa)` for `qa` in 1..=127; the slices have one
    /// length.
    #[inline]
    pub(crate) fn crelu(self, acc: &[i16], qa: i16, out: &mut [u8]) {
        debug_assert_eq!(acc.len(), out.len());
        match self {
            Kernel::Scalar => crelu_scalar(acc, qa, out),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `add_row`: the token proves the processor has AVX2.
            #[allow(unsafe_code)]
            Kernel::Avx2(_) => unsafe { avx2::crelu(acc, qa, out) },
        }
    }

    /// The dot product of `input` (clipped activations, each 0 to 127) and `weights` (the same
    /// length, a multiple of 32), in `i32`.
    #[inline]
    pub(crate) fn dot(self, input: &[u8], weights: &[i8]) -> i32 {
        debug_assert_eq!(input.len(), weights.len());
        match self {
            Kernel::Scalar => dot_scalar(input, weights),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `add_row`: the token proves the processor has AVX2.
            #[allow(unsafe_code)]
            Kernel::Avx2(_) => unsafe { avx2::dot(input, weights) },
        }
    }
}

fn crelu_scalar(acc: &[i16], qa: i16, out: &mut [u8]) {
    for (x, &a) in out.iter_mut().zip(acc) {
        *x = a.clamp(0, qa) as u8;
    }
}

fn add_row_scalar(acc: &mut [i16], row: &[i16], sub: bool) {
    if sub {
        for (a, &w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_sub(w);
        }
    } else {
        for (a, &w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_add(w);
        }
    }
}

fn dot_scalar(input: &[u8], weights: &[i8]) -> i32 {
    input
        .iter()
        .zip(weights)
        .map(|(&a, &w)| i32::from(a) * i32::from(w))
        .sum()
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2 {
    use std::arch::x86_64::*;

    /// AVX2 `acc[i] ±= row[i]`, 16 lanes at a time, then the scalar tail.
    ///
    /// # Safety
    /// The processor must have AVX2. Memory: every load and store covers `16` elements at `i`
    /// with `i + 16 <= n = min(acc.len(), row.len())`, inside both slices, unaligned (`loadu`,
    /// `storeu`), and `acc` is borrowed mutably, so nothing else reads or writes it meanwhile.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn add_row(acc: &mut [i16], row: &[i16], sub: bool) {
        let n = acc.len().min(row.len());
        let mut i = 0;
        while i + 16 <= n {
            // SAFETY: `i + 16 <= n` keeps the 32 bytes read and written inside both slices (see
            // the function's contract); unaligned access is what loadu/storeu allow.
            unsafe {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
                let w = _mm256_loadu_si256(row.as_ptr().add(i).cast());
                let r = if sub {
                    _mm256_sub_epi16(a, w)
                } else {
                    _mm256_add_epi16(a, w)
                };
                _mm256_storeu_si256(acc.as_mut_ptr().add(i).cast(), r);
            }
            i += 16;
        }
        super::add_row_scalar(&mut acc[i..n], &row[i..n], sub);
    }

    /// AVX2 clipped ReLU, 32 values at a time: `packus` saturates each `i16` to 0..255 (two
    /// registers into one, whose 64-bit quarters come out in the order 0, 2, 1, 3 and are put
    /// back by `permute4x64`), then `min` with `qa` (at most 127) clips, as the scalar `clamp`.
    ///
    /// # Safety
    /// The processor must have AVX2. Memory: the loads read 16 `i16` at `i` and at `i + 16`, the
    /// store writes 32 bytes at `i`, with `i + 32 <= n = min(acc.len(), out.len())`: inside both.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn crelu(acc: &[i16], qa: i16, out: &mut [u8]) {
        let n = acc.len().min(out.len());
        let top = _mm256_set1_epi8(qa.clamp(0, 127) as i8);
        let mut i = 0;
        while i + 32 <= n {
            // SAFETY: `i + 32 <= n` keeps the 64 bytes read and the 32 written inside the slices.
            unsafe {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
                let b = _mm256_loadu_si256(acc.as_ptr().add(i + 16).cast());
                let p = _mm256_permute4x64_epi64::<0xD8>(_mm256_packus_epi16(a, b));
                _mm256_storeu_si256(out.as_mut_ptr().add(i).cast(), _mm256_min_epu8(p, top));
            }
            i += 32;
        }
        super::crelu_scalar(&acc[i..n], qa, &mut out[i..n]);
    }

    /// AVX2 dot product of `u8` activations (each at most 127) and `i8` weights, 32 at a time
    /// (`maddubs` pairs, which cannot saturate at these bounds, then `madd` by ones to `i32`),
    /// then the scalar tail.
    ///
    /// # Safety
    /// The processor must have AVX2. Memory: each load covers 32 bytes at `i` with
    /// `i + 32 <= n = min(input.len(), weights.len())`, inside both slices, unaligned.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn dot(input: &[u8], weights: &[i8]) -> i32 {
        let n = input.len().min(weights.len());
        let mut i = 0;
        let mut sum = _mm256_setzero_si256();
        let ones = _mm256_set1_epi16(1);
        while i + 32 <= n {
            // SAFETY: `i + 32 <= n` keeps both 32-byte loads inside their slices.
            unsafe {
                let a = _mm256_loadu_si256(input.as_ptr().add(i).cast());
                let w = _mm256_loadu_si256(weights.as_ptr().add(i).cast());
                let pairs = _mm256_maddubs_epi16(a, w);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(pairs, ones));
            }
            i += 32;
        }
        let lo = _mm256_castsi256_si128(sum);
        let hi = _mm256_extracti128_si256::<1>(sum);
        let s = _mm_add_epi32(lo, hi);
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s) + super::dot_scalar(&input[i..n], &weights[i..n])
    }
}

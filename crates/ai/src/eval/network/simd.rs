//! The network's two hot loops, each in portable scalar code, on x86-64 with AVX2 in `std::arch`
//! intrinsics, and on wasm32 built with `simd128` (as `cargo xtask wasm` builds it) in
//! `core::arch::wasm32` intrinsics: adding or subtracting a first-layer weight row to an accumulator
//! (wrapping `i16` arithmetic, so both paths give the same bits even on overflow), and the second
//! layer's dot products of the clipped activations (`u8`, at most 127) with `i8` weights summed in
//! `i32`. Both paths compute the same integers exactly: the AVX2 pairwise `u8 × i8` products
//! (`maddubs`) cannot saturate, as each pair sums to at most 2 · 127 · 128 = 32,512 < 32,767.
//!
//! The wasm `u8 × i8` products widen both to `i16` and sum adjacent pairs into `i32`
//! (`i32x4.dot_i16x8`): exact for any `u8`.
//!
//! [`Kernel`] picks the path; its AVX2 value can only be made where the processor has AVX2
//! ([`Kernel::avx2`] checks at run time), which is what makes the `unsafe` calls sound. The
//! simd128 value exists only in a module compiled with `simd128`, which a WebAssembly engine
//! without SIMD refuses to load at all; its intrinsics are safe functions there, and its only
//! `unsafe` is the unaligned loads and stores, each inside its slice.

/// Which code computes the network's hot loops.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Portable scalar code (every target).
    Scalar,
    /// x86-64 AVX2; holds a private token, so it exists only where [`Kernel::avx2`] found AVX2.
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2Token),
    /// WebAssembly 128-bit SIMD; exists only where the module is compiled with `simd128`.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    Simd128,
}

/// Proof that the running processor has AVX2: made only by [`Kernel::avx2`] after
/// `is_x86_feature_detected!("avx2")` said yes.
#[cfg(target_arch = "x86_64")]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Avx2Token(());

impl Kernel {
    /// The fastest kernel this processor runs (AVX2 where detected, wasm simd128 where compiled
    /// in, else scalar).
    pub fn best() -> Kernel {
        Kernel::avx2()
            .or_else(Kernel::simd128)
            .unwrap_or(Kernel::Scalar)
    }

    /// The SIMD kernel of this target and processor ([`Kernel::avx2`] or [`Kernel::simd128`]), or
    /// `None` where there is only the scalar one.
    pub fn simd() -> Option<Kernel> {
        Kernel::avx2().or_else(Kernel::simd128)
    }

    /// The wasm simd128 kernel, or `None` where the module is not compiled with `simd128` (or the
    /// target is not wasm32).
    pub fn simd128() -> Option<Kernel> {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        {
            Some(Kernel::Simd128)
        }
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        {
            None
        }
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
    #[cfg_attr(not(test), allow(dead_code))]
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
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => wasm::add_row(acc, row, sub),
        }
    }

    /// `acc += Σ rows(add) − Σ rows(sub)` (wrapping), where row `f` is
    /// `weights[f · n..(f + 1) · n]` with `n = acc.len()`: one pass over the accumulator for all of
    /// a move's features. Panics on a row past the end of `weights` (as slicing does).
    #[inline]
    pub(crate) fn apply(self, acc: &mut [i16], weights: &[i16], add: &[u8], sub: &[u8]) {
        match self {
            Kernel::Scalar => apply_scalar(acc, weights, add, sub),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `add_row`: the token proves the processor has AVX2.
            #[allow(unsafe_code)]
            Kernel::Avx2(_) => unsafe { avx2::apply(acc, weights, add, sub) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => wasm::apply(acc, weights, add, sub),
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
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => wasm::crelu(acc, qa, out),
        }
    }

    /// The dot products of `input` (clipped activations, each 0 to 127) with each of the
    /// `out.len()` rows of `weights` (rows of `input.len()` values, one after another), in `i32`.
    #[inline]
    pub(crate) fn dense(self, input: &[u8], weights: &[i8], out: &mut [i32]) {
        debug_assert_eq!(weights.len(), input.len() * out.len());
        match self {
            Kernel::Scalar => {
                for (o, row) in out.iter_mut().zip(weights.chunks_exact(input.len())) {
                    *o = dot_scalar(input, row);
                }
            }
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `add_row`: the token proves the processor has AVX2.
            #[allow(unsafe_code)]
            Kernel::Avx2(_) => unsafe { avx2::dense(input, weights, out) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => wasm::dense(input, weights, out),
        }
    }

    /// The dot product of `input` (clipped activations, each 0 to 127) and `weights` (the same
    /// length, a multiple of 32), in `i32`.
    #[inline]
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn dot(self, input: &[u8], weights: &[i8]) -> i32 {
        debug_assert_eq!(input.len(), weights.len());
        match self {
            Kernel::Scalar => dot_scalar(input, weights),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `add_row`: the token proves the processor has AVX2.
            #[allow(unsafe_code)]
            Kernel::Avx2(_) => unsafe { avx2::dot(input, weights) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => wasm::dot(input, weights),
        }
    }
}

fn crelu_scalar(acc: &[i16], qa: i16, out: &mut [u8]) {
    for (x, &a) in out.iter_mut().zip(acc) {
        *x = a.clamp(0, qa) as u8;
    }
}

fn apply_scalar(acc: &mut [i16], weights: &[i16], add: &[u8], sub: &[u8]) {
    let n = acc.len();
    for &f in add {
        let f = usize::from(f);
        add_row_scalar(acc, &weights[f * n..(f + 1) * n], false);
    }
    for &f in sub {
        let f = usize::from(f);
        add_row_scalar(acc, &weights[f * n..(f + 1) * n], true);
    }
}

/// Whether every row `f` of `add` and `sub`, `weights[f · n..(f + 1) · n]`, lies inside `weights`:
/// the SIMD `apply`s' precondition (else they take the scalar path, which panics as slicing does).
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
fn rows_fit(n: usize, weights: &[i16], add: &[u8], sub: &[u8]) -> bool {
    add.iter()
        .chain(sub)
        .all(|&f| (usize::from(f) + 1) * n <= weights.len())
}

/// [`apply_scalar`] on the columns from `c` on only: the SIMD `apply`s' tail past their last
/// whole vector.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
fn apply_tail(acc: &mut [i16], weights: &[i16], add: &[u8], sub: &[u8], c: usize) {
    let n = acc.len();
    if c >= n {
        return;
    }
    for (&f, sub) in add
        .iter()
        .map(|f| (f, false))
        .chain(sub.iter().map(|f| (f, true)))
    {
        let f = usize::from(f);
        add_row_scalar(&mut acc[c..n], &weights[f * n + c..(f + 1) * n], sub);
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
    #[cfg_attr(not(test), allow(dead_code))]
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

    /// AVX2 [`super::Kernel::apply`]: 16 lanes of the accumulator at a time stay in a register
    /// while every added row is added and every removed row subtracted, then the scalar tail.
    ///
    /// # Safety
    /// The processor must have AVX2. Memory: a row past the end of `weights` sends the call to
    /// the scalar path up front (which panics on it as slicing does); otherwise row `f` is
    /// `weights[f · n..(f + 1) · n]` and every load covers 16 elements at `f · n + c` with
    /// `c + 16 <= n`, inside it, and every store 16 elements at `c` of `acc`, inside it.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn apply(acc: &mut [i16], weights: &[i16], add: &[u8], sub: &[u8]) {
        let n = acc.len();
        if !super::rows_fit(n, weights, add, sub) {
            return super::apply_scalar(acc, weights, add, sub);
        }
        let w = weights.as_ptr();
        let mut c = 0;
        while c + 16 <= n {
            // SAFETY: `c + 16 <= n` and `(f + 1) · n <= weights.len()` for every row (checked
            // above): the loads are inside `acc` and the rows, the store inside `acc`.
            unsafe {
                let mut v = _mm256_loadu_si256(acc.as_ptr().add(c).cast());
                for &f in add {
                    let r = _mm256_loadu_si256(w.add(usize::from(f) * n + c).cast());
                    v = _mm256_add_epi16(v, r);
                }
                for &f in sub {
                    let r = _mm256_loadu_si256(w.add(usize::from(f) * n + c).cast());
                    v = _mm256_sub_epi16(v, r);
                }
                _mm256_storeu_si256(acc.as_mut_ptr().add(c).cast(), v);
            }
            c += 16;
        }
        super::apply_tail(acc, weights, add, sub, c);
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

    /// AVX2 [`super::Kernel::dense`]: four rows at a time share each 32-byte load of the input,
    /// and one `hadd` tree sums the four rows' lanes at once; rows past a multiple of four, and
    /// inputs whose length is not a multiple of 32, go through [`dot`].
    ///
    /// # Safety
    /// The processor must have AVX2. Memory: with `n = input.len()` a multiple of 32 and
    /// `weights.len() >= n · out.len()` (checked below, else the per-row path), each load covers
    /// 32 bytes at `i < n` of the input or of row `j + k < out.len()` of the weights, each store
    /// 16 bytes at `out[j..j + 4]` with `j + 4 <= out.len()`: all inside the slices.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn dense(input: &[u8], weights: &[i8], out: &mut [i32]) {
        let n = input.len();
        let rows = out.len();
        if n % 32 != 0 || weights.len() < n * rows {
            for (j, o) in out.iter_mut().enumerate() {
                let row = weights.get(j * n..(j + 1) * n).unwrap_or(&[]);
                // SAFETY: the caller's contract (AVX2) carries over; `dot` checks its own bounds.
                *o = unsafe { dot(input, row) };
            }
            return;
        }
        let ones = _mm256_set1_epi16(1);
        let mut j = 0;
        while j + 4 <= rows {
            let mut s = [_mm256_setzero_si256(); 4];
            let mut i = 0;
            while i < n {
                // SAFETY: `i + 32 <= n` (n is a multiple of 32) and `(j + k) · n + i + 32 <=
                // rows · n <= weights.len()`: every load is inside its slice.
                unsafe {
                    let a = _mm256_loadu_si256(input.as_ptr().add(i).cast());
                    for (k, sk) in s.iter_mut().enumerate() {
                        let w = _mm256_loadu_si256(weights.as_ptr().add((j + k) * n + i).cast());
                        *sk = _mm256_add_epi32(
                            *sk,
                            _mm256_madd_epi16(_mm256_maddubs_epi16(a, w), ones),
                        );
                    }
                }
                i += 32;
            }
            let t = _mm256_hadd_epi32(_mm256_hadd_epi32(s[0], s[1]), _mm256_hadd_epi32(s[2], s[3]));
            let r = _mm_add_epi32(_mm256_castsi256_si128(t), _mm256_extracti128_si256::<1>(t));
            // SAFETY: `j + 4 <= rows = out.len()`: the 16 bytes written are `out[j..j + 4]`.
            unsafe { _mm_storeu_si128(out.as_mut_ptr().add(j).cast(), r) };
            j += 4;
        }
        for jj in j..rows {
            // SAFETY: the caller's contract (AVX2) carries over; the row is inside `weights`.
            out[jj] = unsafe { dot(input, &weights[jj * n..(jj + 1) * n]) };
        }
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

/// The wasm simd128 kernel: the AVX2 kernel's algorithms on 128-bit vectors (8 `i16` or 16 bytes).
/// The arithmetic intrinsics are safe functions in a module compiled with `simd128`; the loads
/// and stores take pointers, and each one's bounds are argued where it is.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[allow(unsafe_code)]
mod wasm {
    use core::arch::wasm32::*;

    /// The 16 bytes at element `i` of `s` (unaligned).
    ///
    /// # Safety
    /// The 16 bytes from `s[i]` on must lie inside `s`: `(i + 16 / size_of::<T>()) <= s.len()`.
    #[inline(always)]
    unsafe fn load<T>(s: &[T], i: usize) -> v128 {
        debug_assert!((i + 16 / size_of::<T>()) <= s.len());
        // SAFETY: the caller keeps the 16 bytes inside `s`; wasm loads need no alignment.
        unsafe { v128_load(s.as_ptr().add(i).cast()) }
    }

    /// Store `v` as the 16 bytes at element `i` of `s` (unaligned).
    ///
    /// # Safety
    /// As [`load`]: the 16 bytes from `s[i]` on must lie inside `s`.
    #[inline(always)]
    unsafe fn store<T>(s: &mut [T], i: usize, v: v128) {
        debug_assert!((i + 16 / size_of::<T>()) <= s.len());
        // SAFETY: the caller keeps the 16 bytes inside `s`, which is borrowed mutably (nothing
        // else reads or writes it meanwhile); wasm stores need no alignment.
        unsafe { v128_store(s.as_mut_ptr().add(i).cast(), v) }
    }

    /// `acc[i] ±= row[i]`, 8 lanes at a time (wrapping, as `i16x8.add`/`sub` are), then the
    /// scalar tail.
    pub(super) fn add_row(acc: &mut [i16], row: &[i16], sub: bool) {
        let n = acc.len().min(row.len());
        let mut i = 0;
        while i + 8 <= n {
            // SAFETY: `i + 8 <= n` keeps the 16 bytes read and written inside both slices.
            unsafe {
                let (a, w) = (load(acc, i), load(row, i));
                store(
                    acc,
                    i,
                    if sub {
                        i16x8_sub(a, w)
                    } else {
                        i16x8_add(a, w)
                    },
                );
            }
            i += 8;
        }
        super::add_row_scalar(&mut acc[i..n], &row[i..n], sub);
    }

    /// [`super::Kernel::apply`]: 16 lanes of the accumulator at a time stay in two vectors while
    /// every added row is added and every removed row subtracted; then the scalar tail.
    pub(super) fn apply(acc: &mut [i16], weights: &[i16], add: &[u8], sub: &[u8]) {
        let n = acc.len();
        if !super::rows_fit(n, weights, add, sub) {
            return super::apply_scalar(acc, weights, add, sub);
        }
        let mut c = 0;
        while c + 16 <= n {
            // SAFETY: `c + 16 <= n` and `(f + 1) · n <= weights.len()` for every row (checked
            // above): each 16-byte load or store at `c`, `c + 8`, `f · n + c` or `f · n + c + 8`
            // ends at or before `c + 16` of `acc` or `(f + 1) · n` of `weights`.
            unsafe {
                let (mut v0, mut v1) = (load(acc, c), load(acc, c + 8));
                for &f in add {
                    let r = usize::from(f) * n + c;
                    v0 = i16x8_add(v0, load(weights, r));
                    v1 = i16x8_add(v1, load(weights, r + 8));
                }
                for &f in sub {
                    let r = usize::from(f) * n + c;
                    v0 = i16x8_sub(v0, load(weights, r));
                    v1 = i16x8_sub(v1, load(weights, r + 8));
                }
                store(acc, c, v0);
                store(acc, c + 8, v1);
            }
            c += 16;
        }
        super::apply_tail(acc, weights, add, sub, c);
    }

    /// Clipped ReLU, 16 values at a time: `u8x16.narrow_i16x8` saturates each `i16` to 0..255
    /// (lanes in order), then `min` with `qa` (at most 127) clips, as the scalar `clamp`.
    pub(super) fn crelu(acc: &[i16], qa: i16, out: &mut [u8]) {
        let n = acc.len().min(out.len());
        let top = u8x16_splat(qa.clamp(0, 127) as u8);
        let mut i = 0;
        while i + 16 <= n {
            // SAFETY: `i + 16 <= n`: the 32 bytes read from `acc` at `i` and `i + 8` and the 16
            // written to `out` at `i` are inside the slices.
            unsafe {
                let p = u8x16_narrow_i16x8(load(acc, i), load(acc, i + 8));
                store(out, i, u8x16_min(p, top));
            }
            i += 16;
        }
        super::crelu_scalar(&acc[i..n], qa, &mut out[i..n]);
    }

    /// The 16 activations of `a` widened to `i16` (zero-extended), low half and high half.
    #[inline(always)]
    fn widen(a: v128) -> (v128, v128) {
        (u16x8_extend_low_u8x16(a), u16x8_extend_high_u8x16(a))
    }

    /// The 16 products `a[k] · w[k]` of widened activations `(lo, hi)` ([`widen`]) and `i8`
    /// weights `w` (sign-extended), adjacent pairs summed into `i32x4` by `i32x4.dot_i16x8`:
    /// exact, as each product is at most 255 · 128 in magnitude.
    #[inline(always)]
    fn madd((lo, hi): (v128, v128), w: v128) -> v128 {
        i32x4_add(
            i32x4_dot_i16x8(lo, i16x8_extend_low_i8x16(w)),
            i32x4_dot_i16x8(hi, i16x8_extend_high_i8x16(w)),
        )
    }

    /// The four lanes of `v` summed.
    #[inline(always)]
    fn hsum(v: v128) -> i32 {
        i32x4_extract_lane::<0>(v)
            .wrapping_add(i32x4_extract_lane::<1>(v))
            .wrapping_add(i32x4_extract_lane::<2>(v))
            .wrapping_add(i32x4_extract_lane::<3>(v))
    }

    /// [`super::Kernel::dense`]: four rows at a time share each 16-byte load (and widening) of the
    /// input, and one shuffle tree sums the four rows' lanes at once; rows past a multiple of four, and inputs
    /// whose length is not a multiple of 16, go through [`dot`].
    pub(super) fn dense(input: &[u8], weights: &[i8], out: &mut [i32]) {
        let n = input.len();
        let rows = out.len();
        if n % 16 != 0 || weights.len() < n * rows {
            for (j, o) in out.iter_mut().enumerate() {
                *o = dot(input, weights.get(j * n..(j + 1) * n).unwrap_or(&[]));
            }
            return;
        }
        let mut j = 0;
        while j + 4 <= rows {
            let mut s = [i32x4_splat(0); 4];
            let mut i = 0;
            while i < n {
                // SAFETY: `i + 16 <= n` (n is a multiple of 16) and `(j + k) · n + i + 16 <=
                // rows · n <= weights.len()`: every load is inside its slice.
                unsafe {
                    let a = widen(load(input, i));
                    for (k, sk) in s.iter_mut().enumerate() {
                        *sk = i32x4_add(*sk, madd(a, load(weights, (j + k) * n + i)));
                    }
                }
                i += 16;
            }
            // [s0 s1 s2 s3] → lanes summed per row: interleave pairs, add, then halves, add.
            let u01 = i32x4_add(
                i32x4_shuffle::<0, 4, 1, 5>(s[0], s[1]),
                i32x4_shuffle::<2, 6, 3, 7>(s[0], s[1]),
            );
            let u23 = i32x4_add(
                i32x4_shuffle::<0, 4, 1, 5>(s[2], s[3]),
                i32x4_shuffle::<2, 6, 3, 7>(s[2], s[3]),
            );
            let r = i32x4_add(
                i32x4_shuffle::<0, 1, 4, 5>(u01, u23),
                i32x4_shuffle::<2, 3, 6, 7>(u01, u23),
            );
            // SAFETY: `j + 4 <= rows = out.len()`: the 16 bytes written are `out[j..j + 4]`.
            unsafe { store(out, j, r) };
            j += 4;
        }
        for jj in j..rows {
            out[jj] = dot(input, &weights[jj * n..(jj + 1) * n]);
        }
    }

    /// Dot product of `u8` activations (each at most 127) and `i8` weights, 16 at a time, then
    /// the scalar tail.
    pub(super) fn dot(input: &[u8], weights: &[i8]) -> i32 {
        let n = input.len().min(weights.len());
        let mut i = 0;
        let mut sum = i32x4_splat(0);
        while i + 16 <= n {
            // SAFETY: `i + 16 <= n` keeps both 16-byte loads inside their slices.
            unsafe {
                sum = i32x4_add(sum, madd(widen(load(input, i)), load(weights, i)));
            }
            i += 16;
        }
        hsum(sum).wrapping_add(super::dot_scalar(&input[i..n], &weights[i..n]))
    }
}

//! The stack lanes: for each of the (at most sixteen) stack slots of a position, the column, the
//! row and the height of its stack and its flags, one byte each, side by side in 16-byte arrays
//! (see [`super::position::Position`]'s `lane_q`, `lane_r`, `lane_h` and `flags`), and the SIMD
//! functions that edit them and compare all slots at once: which stacks a dance can reach, and
//! which can reach a stack. Pure functions over byte arrays, with the processor-specific code
//! (SSE2, SSSE3, SSE4.1, AVX2) and its safety arguments in one place; each has a plain fallback
//! or is only called on the path compiled for its instructions.

/// The bytes `k` of the lanes (cells' columns `q`, rows `r`, heights `h`) where the cell lies
/// on a straight line from `(q0, r0)`, at most `h0` steps away, and `h[k]` ≤ `h0`, as bit `k`.
/// See [`Position::targets_in_reach`].
///
/// [`Position::targets_in_reach`]: super::position::Position::targets_in_reach
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
pub(super) fn lanes_in_reach(
    q: &[u8; 16],
    r: &[u8; 16],
    h: &[u8; 16],
    q0: u8,
    r0: u8,
    h0: u8,
) -> u32 {
    use std::arch::x86_64::*;
    // SAFETY: each pointer is to 16 readable bytes; `loadu` needs no alignment.
    let (q, r, heights) = unsafe {
        (
            _mm_loadu_si128(q.as_ptr().cast()),
            _mm_loadu_si128(r.as_ptr().cast()),
            _mm_loadu_si128(h.as_ptr().cast()),
        )
    };
    let zero = _mm_setzero_si128();
    // The differences fit a byte (columns and rows lie within 0..=82, so |Δ| ≤ 82); their
    // sum cannot wrap to 0 (|Δq + Δr| ≤ 164 < 256).
    // A byte in every lane (one 32-bit broadcast: cheaper than a byte broadcast in SSE2).
    let splat = |x: u8| _mm_set1_epi32((x as u32 * 0x0101_0101) as i32);
    let dq = _mm_sub_epi8(q, splat(q0));
    let dr = _mm_sub_epi8(r, splat(r0));
    let ds = _mm_add_epi8(dq, dr);
    let on_line = _mm_or_si128(
        _mm_cmpeq_epi8(dq, zero),
        _mm_or_si128(_mm_cmpeq_epi8(dr, zero), _mm_cmpeq_epi8(ds, zero)),
    );
    // |x| of a byte in -127..=127 as the unsigned minimum of x and -x. On a line the hex
    // distance is the larger of |Δq| and |Δr| (the third is 0 or equal to both), so one
    // maximum with the heights compares distance and height with the reach at once.
    let aq = _mm_min_epu8(dq, _mm_sub_epi8(zero, dq));
    let ar = _mm_min_epu8(dr, _mm_sub_epi8(zero, dr));
    let far = _mm_max_epu8(_mm_max_epu8(aq, ar), heights);
    let near = _mm_cmpeq_epi8(_mm_min_epu8(far, splat(h0)), far);
    _mm_movemask_epi8(_mm_and_si128(on_line, near)) as u32
}

/// `LANE_AT[j]`: byte `j` set (0xff), the others clear: where [`set_lane`] writes.
#[cfg(target_arch = "x86_64")]
static LANE_AT: [[u8; 16]; 16] = {
    let mut t = [[0; 16]; 16];
    let mut j = 0;
    while j < 16 {
        t[j][j] = 0xff;
        j += 1;
    }
    t
};

/// Sets byte `j` of a lane (see [`Position::lane_q`]) to `v` by one load and one store of all
/// sixteen bytes rather than a byte store: the dance search reads each lane as one 16-byte load
/// right after the stack edits of the move before, and a processor cannot forward a wide load
/// from narrower stores still in flight (it waits for them to reach the cache).
/// `V`: on the AVX2 path (see [`set_lane_blend`]).
///
/// [`Position::lane_q`]: super::position::Position::lane_q
#[inline(always)]
pub(super) fn set_lane<const V: bool>(lane: &mut [u8; 16], j: usize, v: u8) {
    #[cfg(target_arch = "x86_64")]
    if V {
        // SAFETY: `V` is true only on the path compiled for AVX2 (`playout_avx2`), which
        // includes SSE4.1, and which `playout` takes only where the processor has AVX2.
        unsafe { set_lane_blend(lane, j, v) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 belongs to every x86-64 processor (the target's baseline); the pointers
        // are to 16 bytes; `loadu`/`storeu` need no alignment.
        unsafe {
            let at = _mm_loadu_si128(LANE_AT[j & 15].as_ptr().cast());
            // A byte in every lane by one 32-bit broadcast (cheaper than a byte broadcast).
            let v = _mm_set1_epi32((u32::from(v) * 0x0101_0101) as i32);
            let x = _mm_loadu_si128(lane.as_ptr().cast());
            let y = _mm_xor_si128(x, _mm_and_si128(_mm_xor_si128(x, v), at));
            _mm_storeu_si128(lane.as_mut_ptr().cast(), y);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        lane[j & 15] = v;
    }
}

/// [`set_lane`] by one `pblendvb` (SSE4.1).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse4.1")]
#[inline]
fn set_lane_blend(lane: &mut [u8; 16], j: usize, v: u8) {
    use std::arch::x86_64::*;
    // SAFETY: the pointers are to 16 bytes; `loadu`/`storeu` need no alignment.
    unsafe {
        let at = _mm_loadu_si128(LANE_AT[j & 15].as_ptr().cast());
        let x = _mm_loadu_si128(lane.as_ptr().cast());
        let y = _mm_blendv_epi8(x, _mm_set1_epi8(v as i8), at);
        _mm_storeu_si128(lane.as_mut_ptr().cast(), y);
    }
}

/// Moves the stack in slot `from` into slot `to` in the column, row and height lanes and the
/// flags (see [`set_lane`]), and clears the flags of slot `from` (also when `to` is `from`):
/// one `pshufb` (SSSE3) of each by one index.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "ssse3")]
#[inline]
pub(super) fn move_lanes(lanes: [&mut [u8; 16]; 4], from: usize, to: usize) {
    use std::arch::x86_64::*;
    let iota = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let at = |k: usize| _mm_cmpeq_epi8(iota, _mm_set1_epi8(k as i8));
    // Each byte its own, byte `to` byte `from`; for the flags also byte `from` zero (0x80).
    let index = _mm_add_epi8(
        iota,
        _mm_and_si128(at(to), _mm_set1_epi8(from.wrapping_sub(to) as i8)),
    );
    let clear = _mm_or_si128(index, _mm_and_si128(at(from), _mm_set1_epi8(i8::MIN)));
    let [q, r, h, flags] = lanes;
    for (lane, index) in [(q, index), (r, index), (h, index), (flags, clear)] {
        // SAFETY: the pointers are to 16 bytes; `loadu`/`storeu` need no alignment.
        unsafe {
            let x = _mm_loadu_si128(lane.as_ptr().cast());
            _mm_storeu_si128(lane.as_mut_ptr().cast(), _mm_shuffle_epi8(x, index));
        }
    }
}

/// ORs `v` into the bytes of a lane (see [`set_lane`]) whose bits are set in `bits` (bit `j`
/// for byte `j`).
#[inline(always)]
pub(super) fn or_lanes(lane: &mut [u8; 16], bits: u32, v: u8) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 belongs to every x86-64 processor (the target's baseline); the pointers
        // are to 16 bytes; `loadu`/`storeu` need no alignment.
        unsafe {
            // Each byte of `bits` in every byte of its half, then each lane's own bit.
            let spread = |b: u32| (u64::from(b & 0xff) * 0x0101_0101_0101_0101) as i64;
            let b = _mm_set_epi64x(spread(bits >> 8), spread(bits));
            let bit = _mm_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
            let at = _mm_cmpeq_epi8(_mm_and_si128(b, bit), bit);
            let x = _mm_loadu_si128(lane.as_ptr().cast());
            let y = _mm_or_si128(x, _mm_and_si128(at, _mm_set1_epi8(v as i8)));
            _mm_storeu_si128(lane.as_mut_ptr().cast(), y);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    for (j, b) in lane.iter_mut().enumerate() {
        if bits >> j & 1 != 0 {
            *b |= v;
        }
    }
}

/// Copies byte `from` of a lane to byte `to` (see [`set_lane`]).
#[inline(always)]
pub(super) fn move_lane(lane: &mut [u8; 16], from: usize, to: usize) {
    let v = lane[from & 15];
    set_lane::<false>(lane, to, v);
}

/// The masks of [`Position::slot_masks`] from the flag bytes: (outer, red top, expandable).
///
/// [`Position::slot_masks`]: super::position::Position::slot_masks
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
pub(super) fn flag_masks(flags: &[u8; 16]) -> (u32, u32, u32) {
    use std::arch::x86_64::*;
    // SAFETY: the pointer is to 16 readable bytes; `loadu` needs no alignment.
    let f = unsafe { _mm_loadu_si128(flags.as_ptr().cast()) };
    // A 16-bit shift moves each byte's flag bit to the byte's top bit (bits shifted in from
    // the neighbouring byte land below it, where `movemask` does not look).
    let outer = _mm_movemask_epi8(_mm_slli_epi16::<6>(f)) as u32;
    let red_top = _mm_movemask_epi8(_mm_slli_epi16::<7>(f)) as u32;
    let expandable = _mm_movemask_epi8(_mm_slli_epi16::<5>(f)) as u32;
    (outer, red_top, expandable)
}

/// The bytes `k` of the lanes (as in [`lanes_in_reach`]) whose cell lies on a straight line
/// from `(q0, r0)`, at most `h[k]` steps away, with `h0` ≤ `h[k]`: the stacks that reach the
/// stack on `(q0, r0)` of height `h0`. See [`Position::dancers_reaching`].
///
/// [`Position::dancers_reaching`]: super::position::Position::dancers_reaching
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
pub(super) fn lanes_reaching(
    q: &[u8; 16],
    r: &[u8; 16],
    h: &[u8; 16],
    q0: u8,
    r0: u8,
    h0: u8,
) -> u32 {
    use std::arch::x86_64::*;
    // SAFETY: each pointer is to 16 readable bytes; `loadu` needs no alignment.
    let (q, r, heights) = unsafe {
        (
            _mm_loadu_si128(q.as_ptr().cast()),
            _mm_loadu_si128(r.as_ptr().cast()),
            _mm_loadu_si128(h.as_ptr().cast()),
        )
    };
    let zero = _mm_setzero_si128();
    let splat = |x: u8| _mm_set1_epi32((x as u32 * 0x0101_0101) as i32);
    let dq = _mm_sub_epi8(q, splat(q0));
    let dr = _mm_sub_epi8(r, splat(r0));
    let ds = _mm_add_epi8(dq, dr);
    let on_line = _mm_or_si128(
        _mm_cmpeq_epi8(dq, zero),
        _mm_or_si128(_mm_cmpeq_epi8(dr, zero), _mm_cmpeq_epi8(ds, zero)),
    );
    let aq = _mm_min_epu8(dq, _mm_sub_epi8(zero, dq));
    let ar = _mm_min_epu8(dr, _mm_sub_epi8(zero, dr));
    let need = _mm_max_epu8(_mm_max_epu8(aq, ar), splat(h0));
    let reach = _mm_cmpeq_epi8(_mm_min_epu8(need, heights), need);
    _mm_movemask_epi8(_mm_and_si128(on_line, reach)) as u32
}

/// `SLOT_BYTES[0][b]`: the positions of the bits set in the byte `b` as bytes in ascending
/// order, the bytes beyond them 0; `SLOT_BYTES[1][b]`: the same plus 8 (the high byte of a
/// 16-bit mask), the bytes beyond them 0x80. See [`slot_bytes`].
#[cfg(target_arch = "x86_64")]
static SLOT_BYTES: [[u64; 256]; 2] = {
    let mut t = [[0; 256]; 2];
    let mut b = 0;
    while b < 256 {
        let (mut lo, mut hi, mut n, mut i) = (0u64, 0x8080_8080_8080_8080u64, 0, 0);
        while i < 8 {
            if b >> i & 1 != 0 {
                lo |= (i as u64) << (8 * n);
                hi = hi & !(0xff << (8 * n)) | (i as u64 + 8) << (8 * n);
                n += 1;
            }
            i += 1;
        }
        t[0][b] = lo;
        t[1][b] = hi;
        b += 1;
    }
    t
};

/// The slots of `m` (at most eight of sixteen bits set) as bytes in ascending order, the bytes
/// beyond them 0x80 (which `pshufb` turns into 0): those of the low eight slots, then those of
/// the high eight shifted above them (the high part's 0x80 bytes fill the rest).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
#[inline]
fn slot_bytes(m: u32) -> u64 {
    debug_assert!(m.count_ones() <= 8 && m < 1 << 16);
    let half = 4 * (m & 0xff).count_ones();
    // Two shifts of at most 32: the low part may fill all eight bytes.
    SLOT_BYTES[0][m as usize & 0xff] | SLOT_BYTES[1][m as usize >> 8 & 0xff] << half << half
}

/// The dance pairs within reach (as [`lanes_in_reach`]) between the stacks of `own` (the
/// dancers) and those of `opp` (the targets), each at most eight slots, all 64 pairs compared
/// at once in two AVX2 registers, without a loop over either side: bit `8a + b` is set when
/// the `a`-th dancer (in slot order) reaches the `b`-th target. Also returns the slots of the
/// dancers and of the targets (see [`slot_bytes`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
#[inline]
pub(super) fn pairs_in_reach(
    q: &[u8; 16],
    r: &[u8; 16],
    h: &[u8; 16],
    own: u32,
    opp: u32,
) -> (u64, u64, u64) {
    use std::arch::x86_64::*;
    let (dancers, targets) = (slot_bytes(own), slot_bytes(opp));
    // The sixteen lanes in both halves of a register.
    // SAFETY: each pointer is to 16 readable bytes; `loadu` needs no alignment.
    let (q, r, h) = unsafe {
        (
            _mm256_broadcastsi128_si256(_mm_loadu_si128(q.as_ptr().cast())),
            _mm256_broadcastsi128_si256(_mm_loadu_si128(r.as_ptr().cast())),
            _mm256_broadcastsi128_si256(_mm_loadu_si128(h.as_ptr().cast())),
        )
    };
    // The targets' eight slots in each quarter of a register; the dancers' slots spread so
    // that dancer `a` fills quarter `a % 4` of the `a / 4`-th register (`pshufb` picks within
    // each half, so the halves hold the same bytes).
    let to = _mm256_broadcastq_epi64(_mm_cvtsi64_si128(targets as i64));
    let from = _mm256_broadcastq_epi64(_mm_cvtsi64_si128(dancers as i64));
    let spread = |a: i8| {
        let (b, c, d) = (a + 1, a + 2, a + 3);
        _mm256_setr_epi8(
            a, a, a, a, a, a, a, a, b, b, b, b, b, b, b, b, c, c, c, c, c, c, c, c, d, d, d, d, d,
            d, d, d,
        )
    };
    let (tq, tr) = (_mm256_shuffle_epi8(q, to), _mm256_shuffle_epi8(r, to));
    // Beyond the targets (slot bytes 0x80), a height of 0x80: out of every dancer's reach
    // (beyond the dancers, `pshufb` gives height 0, reaching no target).
    let th = _mm256_or_si256(
        _mm256_shuffle_epi8(h, to),
        _mm256_and_si256(to, _mm256_set1_epi8(i8::MIN)),
    );
    let zero = _mm256_setzero_si256();
    let half = |a: i8| {
        let slots = _mm256_shuffle_epi8(from, spread(a));
        let (q0, r0, h0) = (
            _mm256_shuffle_epi8(q, slots),
            _mm256_shuffle_epi8(r, slots),
            _mm256_shuffle_epi8(h, slots),
        );
        // As in `lanes_in_reach`: on a line when a difference is 0, the distance the larger
        // of |Δq| and |Δr|, compared with the dancer's height at once with the target's.
        let xq = _mm256_sub_epi8(tq, q0);
        let xr = _mm256_sub_epi8(tr, r0);
        let xs = _mm256_add_epi8(xq, xr);
        let on_line = _mm256_or_si256(
            _mm256_cmpeq_epi8(xq, zero),
            _mm256_or_si256(_mm256_cmpeq_epi8(xr, zero), _mm256_cmpeq_epi8(xs, zero)),
        );
        // |Δ| ≤ 82: no difference is -128, whose absolute value does not fit.
        let far = _mm256_max_epu8(
            _mm256_max_epu8(_mm256_abs_epi8(xq), _mm256_abs_epi8(xr)),
            th,
        );
        let near = _mm256_cmpeq_epi8(_mm256_min_epu8(far, h0), far);
        _mm256_movemask_epi8(_mm256_and_si256(on_line, near)) as u32 as u64
    };
    let pairs = half(0) | half(4) << 32;
    (pairs, dancers, targets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn slot_bytes_lists_the_slots_of_every_mask_of_up_to_eight() {
        if !std::arch::is_x86_feature_detected!("popcnt") {
            return;
        }
        for m in (0u32..1 << 16).filter(|m| m.count_ones() <= 8) {
            let mut want = [0x80u8; 8];
            for (b, j) in (0..16).filter(|j| m >> j & 1 != 0).enumerate() {
                want[b] = j as u8;
            }
            // SAFETY: the processor has `popcnt` (checked above).
            let got = unsafe { slot_bytes(m) };
            assert_eq!(got.to_le_bytes(), want, "{m:x}");
        }
    }
}

//! The EXXIT position and its rules.
//!
//! Representation: a fixed square array of `GRID × GRID` cells indexed by
//! `(r + OFF) * GRID + (q + OFF)`, each cell a tile code (0 none, 1 silver, 2 red) and a stack
//! (height ≤ 16, one bit per disc bottom→top, set for red). The world is connected and grows one
//! adjacent tile at a time from tiles within two steps of the origin (X5) or from (0,0) (X7), so
//! with at most 39 tiles every tile has |q|, |r| ≤ 38 (≤ 39 allowed), every outer-space cell
//! ≤ 40 and every cell the rules ever look at (neighbours of outer space) ≤ 41 = `OFF`, inside
//! the array. `from_line` refuses worlds that could outgrow these bounds (a tile's |q| or |r|
//! plus the supply above 39).
//! Beside the array, the tile cells and the stack cells are kept in small lists for iteration.
//!
//! Repetition (X19): only dances and passes are reversible; a placed disc leaves a hand for
//! good until an expansion, and an expansion shrinks the supply for good. So a position can only
//! recur among the positions since the last placement or expansion, in which tiles, hands and
//! supply are constant. The history keeps, for those positions, a Zobrist-style key: the XOR
//! over the stacks of a 64-bit mix of (cell, height, discs), with the side to move mixed in.
use std::fmt;

use rand::Rng;

use super::notation::parse_move;
use super::{Move, MoveList, Options};
use crate::games::{below, Colour, GameKind, IllegalMove, Outcome, ParseMoveError, Reason};
use crate::hex::{Direction, Hex};

pub(super) const OFF: i32 = 41;
pub(super) const GRID: i32 = 2 * OFF + 1;
const CELLS: usize = (GRID * GRID) as usize;
/// Every tile (present or future) must keep |q|, |r| within this.
pub(super) const TILE_LIMIT: i32 = 39;
/// Discs per colour (X1).
pub(super) const DISCS: u8 = 8;
/// A stack slot's flags (see [`Position::flags`]): its top disc is red,
const RED_TOP: u8 = 1;
/// it lies in outer space,
const OUTER: u8 = 2;
/// it lies in outer space touching two or more tiles.
const EXPANDABLE: u8 = 4;
const SIDE_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

/// Index steps of the six directions, in the order of the expansion chain (X16): W, NW, NE, E,
/// SE, SW.
const STEP: [isize; 6] = [
    -1,
    -(GRID as isize),
    -(GRID as isize) + 1,
    1,
    GRID as isize,
    GRID as isize - 1,
];

/// [`STEP`] padded to eight entries, so that a direction taken from the low three bits of a
/// byte indexes it without a bounds check.
const STEP8: [isize; 8] = [STEP[0], STEP[1], STEP[2], STEP[3], STEP[4], STEP[5], 0, 0];

/// The longest line a dance can look along: the tallest stack (16 discs).
const REACH: isize = 16;
/// Offset of index difference 0 in [`LINES`]: above every difference of two cells of the
/// grid (|Δ| < `CELLS`), and half the table's length, a power of two, so that a difference
/// wrapped into the table by a mask lands where it belongs.
const LINE_SPAN: isize = 8192;
const _: () = assert!((CELLS as isize) < LINE_SPAN);

/// For an index difference `Δ` between two cells (at `Δ + LINE_SPAN`): `d | k << 3` when the
/// second cell lies `k` (1 ≤ k ≤ 16) steps from the first in direction `d` (an index into
/// [`STEP`]), [`NO_LINE`] otherwise. Unique because 16 steps stay well within half a row of the
/// grid.
static LINES: [u8; 2 * LINE_SPAN as usize] = {
    let mut t = [NO_LINE; 2 * LINE_SPAN as usize];
    let mut d = 0;
    while d < 6 {
        let mut k = 1;
        while k <= REACH {
            t[(k * STEP[d] + LINE_SPAN) as usize] = d as u8 | (k as u8) << 3;
            k += 1;
        }
        d += 1;
    }
    t
};

/// No line: a distance (31) beyond every stack's reach, so that one comparison of the distance
/// with the stack's height rejects both cells off the line and cells out of reach.
const NO_LINE: u8 = 31 << 3;

/// The line from cell `a` to cell `b` as `d | k << 3` (see [`LINES`]), [`NO_LINE`] when none.
#[inline]
fn line(a: usize, b: usize) -> u8 {
    let k = b.wrapping_add(LINE_SPAN as usize).wrapping_sub(a);
    LINES[k & (LINES.len() - 1)]
}

/// A move by cell indices, as the random playouts draw and play it.
#[derive(Clone, Copy)]
enum Fast {
    /// The stack on `from` dances in direction `d` (an index into [`STEP`]) onto `target`.
    Dance {
        from: u16,
        target: u16,
        d: u8,
    },
    /// An expansion from the outer-space stack on the cell (X16).
    Expand(u16),
    /// A disc from hand on the tile (X17).
    Place(u16),
    Pass,
    Swap,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(super) struct Cell {
    /// 0 no tile; else the colour code (1 silver, 2 red) in the low two bits and the tile's
    /// place in the tile list (its slot) above them.
    pub(super) tile: u8,
    pub(super) h: u8,
    /// The stack's place in the stack list (its slot), when `h` > 0.
    pub(super) slot: u8,
    /// Disc `i` (0 = bottom) is red when bit `i` is set.
    pub(super) bits: u16,
}

/// A stack of discs (X3), bottom to top.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Stack {
    height: u8,
    bits: u16,
}

impl Stack {
    /// A stack from its discs, bottom first (None when empty or taller than 16).
    pub fn from_discs(discs: &[Colour]) -> Option<Stack> {
        if discs.is_empty() || discs.len() > 16 {
            return None;
        }
        let mut bits = 0u16;
        for (i, c) in discs.iter().enumerate() {
            bits |= (c.index() as u16) << i;
        }
        Some(Stack {
            height: discs.len() as u8,
            bits,
        })
    }
    pub fn height(self) -> usize {
        self.height as usize
    }
    /// The colour of disc `i` (0 = bottom).
    pub fn disc(self, i: usize) -> Colour {
        colour(((self.bits >> i) & 1) as u8)
    }
    /// The owner: the colour of the top disc (X3).
    pub fn owner(self) -> Colour {
        self.disc(self.height() - 1)
    }
    /// The discs, bottom to top.
    pub fn discs(self) -> impl Iterator<Item = Colour> {
        (0..self.height()).map(move |i| self.disc(i))
    }
    /// How many discs of colour `c` the stack holds.
    pub fn count(self, c: Colour) -> u32 {
        let mask = ((1u32 << self.height) - 1) as u16;
        let red = (self.bits & mask).count_ones();
        match c {
            Colour::First => self.height as u32 - red,
            Colour::Second => red,
        }
    }
}

/// The bytes `k` of the lanes (cells' columns `q`, rows `r`, heights `h`) where the cell lies
/// on a straight line from `(q0, r0)`, at most `h0` steps away, and `h[k]` ≤ `h0`, as bit `k`.
/// See [`Position::targets_in_reach`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn lanes_in_reach(q: &[u8; 16], r: &[u8; 16], h: &[u8; 16], q0: u8, r0: u8, h0: u8) -> u32 {
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
#[inline(always)]
fn set_lane<const V: bool>(lane: &mut [u8; 16], j: usize, v: u8) {
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
fn move_lanes(lanes: [&mut [u8; 16]; 4], from: usize, to: usize) {
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
fn or_lanes(lane: &mut [u8; 16], bits: u32, v: u8) {
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
fn move_lane(lane: &mut [u8; 16], from: usize, to: usize) {
    let v = lane[from & 15];
    set_lane::<false>(lane, to, v);
}

/// The masks of [`Position::slot_masks`] from the flag bytes: (outer, red top, expandable).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn flag_masks(flags: &[u8; 16]) -> (u32, u32, u32) {
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
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn lanes_reaching(q: &[u8; 16], r: &[u8; 16], h: &[u8; 16], q0: u8, r0: u8, h0: u8) -> u32 {
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
fn pairs_in_reach(q: &[u8; 16], r: &[u8; 16], h: &[u8; 16], own: u32, opp: u32) -> (u64, u64, u64) {
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

/// The number of bits set in each byte.
static POPCOUNT: [u32; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u32).count_ones();
        i += 1;
    }
    t
};

/// `SELECT8[b][r]`: the position of the `r`-th (from 0) set bit of the byte `b` (8 when none).
static SELECT8: [[u8; 8]; 256] = {
    let mut t = [[8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut r, mut i) = (0, 0);
        while i < 8 {
            if b >> i & 1 != 0 {
                t[b][r] = i as u8;
                r += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// The position of the `k`-th (from 0) set bit of `mask`, which has more than `k` bits set:
/// the random playouts' pick among the empty tiles or the expandable stacks, without a loop
/// whose length is the random `k` (a mispredicted branch at its end).
/// `BMI2`: compiled where the processor deposits bits in one instruction (`pdep`).
#[inline(always)]
fn nth_bit<const BMI2: bool>(mask: u64, k: usize) -> u32 {
    debug_assert!((mask.count_ones() as usize) > k);
    #[cfg(target_arch = "x86_64")]
    if BMI2 {
        // SAFETY: `BMI2` is true only on the path compiled for BMI2 (`playout_avx2`), which
        // `playout` takes only where the processor has it.
        return unsafe { pdep(1 << (k & 63), mask) }.trailing_zeros();
    }
    // Elsewhere without branches: the bits counted per byte, their running sums, the byte
    // where the sum first exceeds `k`, then the bit within that byte from a table.
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let s = mask - ((mask >> 1) & 0x5555_5555_5555_5555);
    let s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    let bytes = (s + (s >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    // Byte `i`: the bits set in bytes 0..=i (at most 64, so no carry into the next byte).
    let sums = bytes.wrapping_mul(ONES);
    // Bytes whose sum is at most `k` (their high bit left set): those before the one sought.
    let le = ((k as u64 * ONES) | HIGH).wrapping_sub(sums) & HIGH;
    let byte = ((le >> 7).wrapping_mul(ONES) >> 56) as u32;
    let before = ((sums << 8) >> (8 * byte)) as usize & 0xff;
    let b = (mask >> (8 * byte)) as usize & 0xff;
    8 * byte + SELECT8[b][(k - before) & 7] as u32
}

/// `pdep` of BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[inline]
fn pdep(a: u64, mask: u64) -> u64 {
    std::arch::x86_64::_pdep_u64(a, mask)
}

#[inline]
fn colour(i: u8) -> Colour {
    if i == 0 {
        Colour::First
    } else {
        Colour::Second
    }
}

#[inline]
const fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A random 64-bit word for each cell of the grid (for the stack keys).
static CELL_KEYS: [u64; CELLS] = {
    let mut t = [0; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = mix(i as u64);
        i += 1;
    }
    t
};

/// The column and row (`q + OFF`, `r + OFF`) of each cell of the grid.
static CELL_QR: [[u8; 2]; CELLS] = {
    let mut t = [[0; 2]; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = [(i % GRID as usize) as u8, (i / GRID as usize) as u8];
        i += 1;
    }
    t
};

/// The key of a stack of height `h` and discs `bits` on cell `i`: the cell's random word with
/// the stack mixed in by one multiplication (odd, so that different stacks on a cell differ).
#[inline]
fn stack_key(i: usize, h: u8, bits: u16) -> u64 {
    (CELL_KEYS[i] ^ ((h as u64) << 16 | bits as u64)).wrapping_mul(0xbf58_476d_1ce4_e5b9)
}

#[inline]
pub(super) fn index(c: Hex) -> Option<usize> {
    // `unsigned_abs`: `i32::MIN.abs()` overflows.
    if c.q.unsigned_abs() <= OFF as u32 && c.r.unsigned_abs() <= OFF as u32 {
        Some(((c.r + OFF) * GRID + (c.q + OFF)) as usize)
    } else {
        None
    }
}

#[inline]
pub(super) fn hex(i: usize) -> Hex {
    let i = i as i32;
    Hex::new(i % GRID - OFF, i / GRID - OFF)
}

#[inline]
fn dir_index(d: Direction) -> usize {
    match d {
        Direction::W => 0,
        Direction::NW => 1,
        Direction::NE => 2,
        Direction::E => 3,
        Direction::SE => 4,
        Direction::SW => 5,
    }
}

/// An EXXIT position: world, stacks, hands, supply, side to move, and the repetition history.
pub struct Position {
    pub(super) options: Options,
    pub(super) cells: Box<[Cell]>,
    pub(super) tiles: [u16; 39],
    pub(super) n_tiles: u8,
    /// By tile slot: the slots of the neighbouring tiles of the same colour (bit `m` for
    /// `tiles[m]`), kept as tiles are put (they never change colour or leave), so that the
    /// islands (X20) are found a tile at a time over masks rather than six neighbours each.
    /// 64 entries so that a slot read from a cell's `tile >> 2` indexes without a check.
    pub(super) links: [u64; 64],
    pub(super) stacks: [u16; 16],
    pub(super) n_stacks: u8,
    /// By stack slot: [`RED_TOP`] when the stack's top disc is red, [`OUTER`] when it lies in
    /// outer space, [`EXPANDABLE`] when it lies in outer space touching two or more tiles
    /// (X16); 0 for unused slots. Kept up to date by every stack and tile edit so that move
    /// generation reads them for all slots at once ([`Position::slot_masks`]) without visiting
    /// the cells, and so that moving a slot moves one byte.
    /// By stack slot: the column and row of the stack's cell in the grid (`q + OFF`,
    /// `r + OFF`) and its height, side by side so that the dance search compares one stack
    /// with all the others at once ([`Position::targets_in_reach`]).
    pub(super) lane_q: [u8; 16],
    pub(super) lane_r: [u8; 16],
    pub(super) lane_h: [u8; 16],
    pub(super) flags: [u8; 16],
    /// By stack slot: the stack's key (its share of `hash`), so that taking or changing a stack
    /// needs no key computed for what was there.
    pub(super) keys: [u64; 16],
    pub(super) hand: [u8; 2],
    pub(super) supply: u8,
    pub(super) to_move: Colour,
    /// Passes in succession just before this position (0, 1 or 2).
    pub(super) passes: u8,
    /// The last move was a swap (X8).
    pub(super) swapped: bool,
    /// The position occurred for the third time (X19).
    pub(super) repetition: bool,
    /// XOR of the stack keys.
    pub(super) hash: u64,
    /// The empty tiles, by slot (bit `k` for `tiles[k]`).
    pub(super) empty: u64,
    /// Keys of the positions since the last placement or expansion, this one included.
    pub(super) history: Vec<u64>,
    /// Bit `k >> 58` set for each key `k` in `history`: a key whose bit is clear occurs there
    /// for the first time, and needs no look through the history.
    pub(super) seen: u64,
}

impl Clone for Position {
    fn clone(&self) -> Position {
        Position {
            options: self.options.clone(),
            cells: self.cells.clone(),
            tiles: self.tiles,
            n_tiles: self.n_tiles,
            links: self.links,
            stacks: self.stacks,
            n_stacks: self.n_stacks,
            lane_q: self.lane_q,
            lane_r: self.lane_r,
            lane_h: self.lane_h,
            flags: self.flags,
            keys: self.keys,
            hand: self.hand,
            supply: self.supply,
            to_move: self.to_move,
            passes: self.passes,
            swapped: self.swapped,
            repetition: self.repetition,
            hash: self.hash,
            empty: self.empty,
            history: self.history.clone(),
            seen: self.seen,
        }
    }

    /// Copies `source` into `self` touching only the cells either holds (their tiles and
    /// stacks) instead of the whole array: what a search or a playout loop does many times over.
    fn clone_from(&mut self, source: &Position) {
        for &i in self.tiles[..self.n_tiles as usize]
            .iter()
            .chain(&self.stacks[..self.n_stacks as usize])
        {
            self.cells[i as usize] = Cell::default();
        }
        for &i in source.tiles[..source.n_tiles as usize]
            .iter()
            .chain(&source.stacks[..source.n_stacks as usize])
        {
            self.cells[i as usize] = source.cells[i as usize];
        }
        self.options.clone_from(&source.options);
        self.tiles = source.tiles;
        self.n_tiles = source.n_tiles;
        self.links = source.links;
        self.stacks = source.stacks;
        self.n_stacks = source.n_stacks;
        self.lane_q = source.lane_q;
        self.lane_r = source.lane_r;
        self.lane_h = source.lane_h;
        self.flags = source.flags;
        self.keys = source.keys;
        self.hand = source.hand;
        self.supply = source.supply;
        self.to_move = source.to_move;
        self.passes = source.passes;
        self.swapped = source.swapped;
        self.repetition = source.repetition;
        self.hash = source.hash;
        self.empty = source.empty;
        self.history.clone_from(&source.history);
        self.seen = source.seen;
    }
}

impl PartialEq for Position {
    /// Equal when what the rules see is equal (world, stacks, hands, supply, side to move,
    /// passes, the swap flag, game over by repetition); the order in which cells were filled and
    /// the repetition history are not compared.
    fn eq(&self, o: &Position) -> bool {
        self.options == o.options
            && self.hand == o.hand
            && self.supply == o.supply
            && self.to_move == o.to_move
            && self.passes == o.passes
            && self.swapped == o.swapped
            && self.repetition == o.repetition
            && self
                .cells
                .iter()
                .zip(o.cells.iter())
                .all(|(a, b)| a.tile & 3 == b.tile & 3 && a.h == b.h && a.bits == b.bits)
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_line())
    }
}

/// Why a dance given as `from-target` is refused, or whether it drops discs into outer space.
type DanceCheck = Result<bool, String>;

impl Position {
    /// An empty board with the options' supply and full hands; silver to move.
    pub(super) fn empty(options: &Options) -> Position {
        Position {
            options: options.clone(),
            cells: vec![Cell::default(); CELLS].into_boxed_slice(),
            tiles: [0; 39],
            n_tiles: 0,
            links: [0; 64],
            stacks: [0; 16],
            n_stacks: 0,
            lane_q: [0; 16],
            lane_r: [0; 16],
            lane_h: [0; 16],
            flags: [0; 16],
            keys: [0; 16],
            hand: [DISCS, DISCS],
            supply: options.tiles,
            to_move: Colour::First,
            passes: 0,
            swapped: false,
            repetition: false,
            hash: 0,
            empty: 0,
            history: Vec::new(),
            seen: 0,
        }
    }

    /// The start position: the diamond of X5, or an empty world for the expert setup (X7).
    pub fn new(options: &Options) -> Position {
        let mut p = Position::empty(options);
        if !options.expert {
            for (q, r, c) in [
                (0, -1, Colour::First),
                (1, -1, Colour::First),
                (0, 0, Colour::Second),
                (1, -2, Colour::Second),
            ] {
                if let Some(i) = index(Hex::new(q, r)) {
                    p.put_tile(i, c);
                }
            }
        }
        p.reset_history();
        p
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn to_move(&self) -> Colour {
        self.to_move
    }

    /// Tiles left in the supply.
    pub fn supply(&self) -> u32 {
        self.supply as u32
    }

    /// Discs in a colour's hand.
    pub fn hand(&self, c: Colour) -> u32 {
        self.hand[c.index()] as u32
    }

    /// Passes in succession that led to this position (0, 1, or 2 when they ended the game).
    pub fn passes(&self) -> u32 {
        self.passes as u32
    }

    /// Whether the last move was a swap (X8).
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    /// Whether the expert setup (X7) is still going on.
    pub fn in_setup(&self) -> bool {
        self.options.expert && self.n_tiles < 6
    }

    /// Whether `swap` is legal now (X8): pie variant, red to answer silver's first move.
    pub fn swap_available(&self) -> bool {
        self.options.pie
            && !self.swapped
            && self.to_move == Colour::Second
            && !self.in_setup()
            && self.hand == [DISCS - 1, DISCS]
            && self.supply + self.options.start_tiles() == self.options.tiles
    }

    /// The tiles of the world with their colours, in no particular order.
    pub fn tiles(&self) -> impl Iterator<Item = (Hex, Colour)> + '_ {
        self.tiles[..self.n_tiles as usize].iter().map(|&i| {
            let i = i as usize;
            (hex(i), colour((self.cells[i].tile & 3) - 1))
        })
    }

    /// The stacks (on tiles and in outer space), in no particular order.
    pub fn stacks(&self) -> impl Iterator<Item = (Hex, Stack)> + '_ {
        self.stacks[..self.n_stacks as usize].iter().map(|&i| {
            let c = self.cells[i as usize];
            (
                hex(i as usize),
                Stack {
                    height: c.h,
                    bits: c.bits,
                },
            )
        })
    }

    /// The colour of the tile on `c`, if `c` belongs to the world (X2).
    pub fn tile_at(&self, c: Hex) -> Option<Colour> {
        let t = self.cells[index(c)?].tile;
        (t != 0).then(|| colour((t & 3) - 1))
    }

    /// The stack on `c`, if any.
    pub fn stack_at(&self, c: Hex) -> Option<Stack> {
        let cell = self.cells[index(c)?];
        (cell.h != 0).then_some(Stack {
            height: cell.h,
            bits: cell.bits,
        })
    }

    /// Whether `c` is outer space: no tile, touching the world (X2).
    pub fn is_outer_space(&self, c: Hex) -> bool {
        match index(c) {
            Some(i) if c.q.unsigned_abs() < OFF as u32 && c.r.unsigned_abs() < OFF as u32 => {
                self.cells[i].tile == 0 && self.tiles_around(i) > 0
            }
            _ => false,
        }
    }

    /// The smallest and largest q and r over the world and its outer space, as two corners
    /// `(min, max)`; `None` for an empty world (expert setup, before the first tile).
    pub fn bounds(&self) -> Option<(Hex, Hex)> {
        let mut it = self.tiles();
        let (first, _) = it.next()?;
        let (mut lo, mut hi) = (first, first);
        for (c, _) in self.tiles() {
            lo = Hex::new(lo.q.min(c.q), lo.r.min(c.r));
            hi = Hex::new(hi.q.max(c.q), hi.r.max(c.r));
        }
        Some((Hex::new(lo.q - 1, lo.r - 1), Hex::new(hi.q + 1, hi.r + 1)))
    }

    /// The score of each colour (X20): every tile counts 1, the tiles of the largest island
    /// count once more. Indexed by [`Colour::index`].
    pub fn score(&self) -> [u32; 2] {
        let mut total = [0u32; 2];
        let mut largest = [0u32; 2];
        // The tiles not yet in a counted island, by slot.
        let mut left = (1u64 << self.n_tiles) - 1;
        while left != 0 {
            // The island of the lowest slot left: grown through `links` a tile at a time.
            let seed = left.trailing_zeros() as usize;
            let mut island = 1u64 << seed;
            let mut todo = island;
            while todo != 0 {
                let k = todo.trailing_zeros() as usize & 63;
                todo &= todo - 1;
                let new = self.links[k] & !island;
                island |= new;
                todo |= new;
            }
            left &= !island;
            let c = ((self.cells[self.tiles[seed] as usize].tile & 3) - 1) as usize;
            let size = island.count_ones();
            total[c] += size;
            largest[c] = largest[c].max(size);
        }
        [total[0] + largest[0], total[1] + largest[1]]
    }

    /// Whether the game is over (X19; resignation is the front's business).
    #[inline]
    pub fn is_over(&self) -> bool {
        self.repetition || self.passes >= 2 || (self.supply == 0 && !self.in_setup())
    }

    pub fn outcome(&self) -> Option<Outcome> {
        let reason = if self.repetition {
            Reason::Repetition
        } else if self.supply == 0 && !self.in_setup() {
            Reason::Score
        } else if self.passes >= 2 {
            Reason::Passes
        } else {
            return None;
        };
        Some(Outcome::by_score(reason, self.score()))
    }

    // ----- low-level edits -----

    #[inline]
    fn tiles_around(&self, i: usize) -> u32 {
        let g = GRID as usize;
        let c = &self.cells[i - g..=i + g];
        u32::from(c[g - 1].tile != 0)
            + u32::from(c[g + 1].tile != 0)
            + u32::from(c[0].tile != 0)
            + u32::from(c[1].tile != 0)
            + u32::from(c[2 * g - 1].tile != 0)
            + u32::from(c[2 * g].tile != 0)
    }

    #[inline]
    fn key(&self) -> u64 {
        self.hash
            ^ match self.to_move {
                Colour::First => 0,
                Colour::Second => SIDE_KEY,
            }
    }

    #[inline]
    pub(super) fn reset_history(&mut self) {
        self.history.clear();
        let k = self.key();
        self.history.push(k);
        self.seen = 1 << (k >> 58);
    }

    /// Puts a tile of colour `c` on `i` (which has none), taking it from the supply, in play:
    /// every outer-space stack touches a tile already (a stack falls into outer space only
    /// beside the tile it came over, and tiles stay), so those beside the new tile now touch
    /// two or more and may expand (X16).
    #[inline]
    pub(super) fn put_tile(&mut self, i: usize, c: Colour) {
        self.tile_in::<true>(i, c);
        self.supply -= 1;
    }

    /// Puts a tile without touching the supply (reading a position line, where stacks and
    /// tiles come in any order, so the outer-space stacks beside it are counted anew).
    #[inline]
    pub(super) fn put_tile_raw(&mut self, i: usize, c: Colour) {
        self.tile_in::<false>(i, c);
        // The outer-space stacks beside it now touch one tile more.
        let (outer, _, expandable) = self.slot_masks();
        let mut m = outer & !expandable;
        while m != 0 {
            let k = m.trailing_zeros() as usize & 15;
            m &= m - 1;
            let nb = self.stacks[k] as usize;
            if line(i, nb) >> 3 == 1 && self.tiles_around(nb) >= 2 {
                self.flags[k] |= EXPANDABLE;
            }
        }
    }

    /// Puts a tile, links it with its neighbours of its colour (`links`) and, in play
    /// (`PLAY`, see [`Position::put_tile`]), marks the outer-space stacks beside it as
    /// expandable; all without a branch per neighbour (a cell without a tile reads as slot 0,
    /// not linked; a cell without a stack as slot 0, given no flag).
    #[inline(always)]
    fn tile_in<const PLAY: bool>(&mut self, i: usize, c: Colour) {
        let col = c.index() as u8 + 1;
        let k = self.n_tiles as usize;
        let g = GRID as usize;
        // The six neighbours within one slice of the cells (one bounds check).
        let around = &self.cells[i - g..=i + g];
        let mut mine = 0u64;
        // The slots of the outer-space stacks beside it.
        let mut outer = 0u32;
        for o in [g - 1, g + 1, 0, 1, 2 * g - 1, 2 * g] {
            let cell = around[o];
            let t = cell.tile;
            let same = u64::from(t & 3 == col);
            let m = (t >> 2) as usize & 63;
            self.links[m] |= same << k;
            mine |= same << m;
            outer |= (u32::from(cell.h != 0) & u32::from(t == 0)) << (cell.slot & 15);
        }
        if PLAY {
            or_lanes(&mut self.flags, outer, EXPANDABLE);
        }
        self.links[k] = mine;
        self.cells[i].tile = col | (self.n_tiles << 2);
        if self.cells[i].h == 0 {
            self.empty |= 1 << self.n_tiles;
        } else {
            let j = self.cells[i].slot as usize & 15;
            let f = self.flags[j] & RED_TOP;
            set_lane::<false>(&mut self.flags, j, f);
        }
        self.tiles[self.n_tiles as usize] = i as u16;
        self.n_tiles += 1;
    }

    /// Puts a stack of height `h` ≥ 1 (discs `bits`) on `i`, replacing any stack there.
    #[inline]
    pub(super) fn set_stack(&mut self, i: usize, h: u8, bits: u16) {
        self.set_stack_in::<false>(i, h, bits);
    }

    /// [`Position::set_stack`]; `V`: on the AVX2 path (see [`set_lane`]).
    #[inline(always)]
    fn set_stack_in<const V: bool>(&mut self, i: usize, h: u8, bits: u16) {
        let cell = self.cells[i];
        let (j, flags) = if cell.h == 0 {
            let j = self.n_stacks as usize;
            self.stacks[j] = i as u16;
            self.n_stacks += 1;
            self.cells[i].slot = j as u8;
            let [q, r] = CELL_QR[i];
            set_lane::<V>(&mut self.lane_q, j, q);
            set_lane::<V>(&mut self.lane_r, j, r);
            let flags = if cell.tile != 0 {
                self.empty &= !(1u64 << (cell.tile >> 2));
                0
            } else if self.tiles_around(i) >= 2 {
                OUTER | EXPANDABLE
            } else {
                OUTER
            };
            (j, flags)
        } else {
            (cell.slot as usize, self.flags[cell.slot as usize & 15])
        };
        let cell = &mut self.cells[i];
        cell.h = h;
        cell.bits = bits;
        set_lane::<V>(&mut self.lane_h, j, h);
        let top = (bits >> (h as u32).wrapping_sub(1)) as u8 & RED_TOP;
        set_lane::<V>(&mut self.flags, j, (flags & !RED_TOP) | top);
        let key = stack_key(i, h, bits);
        // A new slot's old key is 0 (kept so by `take_stack`).
        self.hash ^= self.keys[j] ^ key;
        self.keys[j] = key;
    }

    #[inline(always)]
    fn take_stack<const V: bool>(&mut self, i: usize) -> (u8, u16) {
        let cell = &mut self.cells[i];
        let (h, bits, j) = (cell.h, cell.bits, cell.slot as usize);
        if h == 0 {
            return (0, 0);
        }
        cell.h = 0;
        cell.bits = 0;
        cell.slot = 0;
        if cell.tile != 0 {
            self.empty |= 1u64 << (cell.tile >> 2);
        }
        self.hash ^= self.keys[j];
        // The last slot's stack moves into slot `j`.
        let last = self.n_stacks as usize - 1;
        self.keys[j] = self.keys[last];
        self.keys[last] = 0;
        #[cfg(target_arch = "x86_64")]
        if V {
            let lanes = [
                &mut self.lane_q,
                &mut self.lane_r,
                &mut self.lane_h,
                &mut self.flags,
            ];
            // SAFETY: as in `set_lane` (AVX2 includes SSSE3).
            unsafe { move_lanes(lanes, last, j) };
        }
        let lanes_moved = V && cfg!(target_arch = "x86_64");
        if j != last {
            let moved = self.stacks[last];
            self.stacks[j] = moved;
            self.cells[moved as usize].slot = j as u8;
            if !lanes_moved {
                move_lane(&mut self.lane_q, last, j);
                move_lane(&mut self.lane_r, last, j);
                move_lane(&mut self.lane_h, last, j);
                move_lane(&mut self.flags, last, j);
            }
        }
        if !lanes_moved {
            set_lane::<false>(&mut self.flags, last, 0);
        }
        self.n_stacks -= 1;
        (h, bits)
    }

    /// Whether the stack index (the flags, the lanes, the cells' slots) agrees with the cells.
    #[cfg(test)]
    pub(super) fn stack_index_ok(&self) -> bool {
        let n = self.n_stacks as usize;
        let spare = !((1u32 << n) - 1);
        let (outer, red_top, expandable) = self.slot_masks();
        self.flags[n..].iter().all(|&f| f == 0)
            && outer & spare == 0
            && expandable & spare == 0
            && red_top & spare == 0
            && self.stacks[..n].iter().enumerate().all(|(j, &s)| {
                let c = self.cells[s as usize];
                c.h != 0
                    && c.slot as usize == j
                    && self.lane_q[j] as usize == s as usize % GRID as usize
                    && self.lane_r[j] as usize == s as usize / GRID as usize
                    && self.lane_h[j] == c.h
                    && (outer >> j) & 1 == (c.tile == 0) as u32
                    && (expandable >> j) & 1
                        == (c.tile == 0 && self.tiles_around(s as usize) >= 2) as u32
                    && (red_top >> j) & 1 == ((c.bits >> (c.h - 1)) & 1) as u32
                    && self.keys[j] == stack_key(s as usize, c.h, c.bits)
            })
            && self.keys[n..].iter().all(|&k| k == 0)
            && self.hash == self.keys.iter().fold(0, |a, k| a ^ k)
            && self.cells.iter().filter(|c| c.h != 0).count() == n
            && self.links_ok()
    }

    /// Whether `links` agrees with the tiles: each slot's neighbours of its colour, nothing for
    /// unused slots.
    #[cfg(test)]
    fn links_ok(&self) -> bool {
        let n = self.n_tiles as usize;
        self.links[n..].iter().all(|&l| l == 0)
            && self.tiles[..n].iter().enumerate().all(|(k, &i)| {
                let col = self.cells[i as usize].tile & 3;
                let want = STEP.iter().fold(0u64, |m, &step| {
                    let t = self.cells[(i as isize + step) as usize].tile;
                    if t != 0 && t & 3 == col {
                        m | 1 << (t >> 2)
                    } else {
                        m
                    }
                });
                self.links[k] == want
            })
    }

    /// Puts a disc (red when `red` is 1) on the tile `i`, on top of any stack there.
    #[inline(always)]
    fn push_disc<const V: bool>(&mut self, i: usize, red: u16) {
        let cell = &mut self.cells[i];
        debug_assert!(cell.tile != 0);
        if cell.h == 0 {
            // A new stack of one disc in the next slot (`set_stack` for a tile, unrolled).
            let j = self.n_stacks as usize & 15;
            cell.h = 1;
            cell.bits = red;
            cell.slot = j as u8;
            self.empty &= !(1u64 << (cell.tile >> 2));
            self.stacks[j] = i as u16;
            self.n_stacks += 1;
            let [q, r] = CELL_QR[i];
            set_lane::<V>(&mut self.lane_q, j, q);
            set_lane::<V>(&mut self.lane_r, j, r);
            set_lane::<V>(&mut self.lane_h, j, 1);
            set_lane::<V>(&mut self.flags, j, red as u8);
            let key = stack_key(i, 1, red);
            // A new slot's old key is 0 (kept so by `take_stack`).
            self.hash ^= key;
            self.keys[j] = key;
            return;
        }
        let bits = cell.bits | red << cell.h;
        cell.h += 1;
        cell.bits = bits;
        let j = cell.slot as usize;
        let key = stack_key(i, cell.h, bits);
        set_lane::<V>(&mut self.lane_h, j, cell.h);
        let f = (self.flags[j] & !RED_TOP) | red as u8;
        set_lane::<V>(&mut self.flags, j, f);
        self.hash ^= self.keys[j] ^ key;
        self.keys[j] = key;
    }

    // ----- dances (X12–X14) -----

    /// The dance of the stack on `from` (a tile, owned by the mover) in direction `d`:
    /// `Some((target, drops into outer space))` when possible.
    #[inline]
    fn probe(&self, from: usize, d: usize, me: u8) -> Option<(usize, bool)> {
        let h = self.cells[from].h as usize;
        let step = STEP[d];
        let mut c = from;
        let mut k = 0;
        let target = loop {
            k += 1;
            if k > h {
                return None;
            }
            c = (c as isize + step) as usize;
            let cell = self.cells[c];
            if cell.tile == 0 {
                return None;
            }
            if cell.h != 0 {
                let owner = ((cell.bits >> (cell.h - 1)) & 1) as u8;
                if owner != me && cell.h as usize <= h {
                    break c;
                }
                return None;
            }
        };
        while k < h {
            k += 1;
            c = (c as isize + step) as usize;
            let cell = self.cells[c];
            if cell.tile == 0 {
                return if cell.h == 0 {
                    Some((target, true))
                } else {
                    None
                };
            }
        }
        Some((target, false))
    }

    /// The dance `from-target`: why it is impossible, or whether it drops discs into outer
    /// space.
    fn check_dance(&self, from: Hex, target: Hex) -> DanceCheck {
        let me = self.to_move;
        let fi = index(from).filter(|&i| self.cells[i].h != 0);
        let Some(fi) = fi else {
            return Err(format!("there is no stack on {from} to dance (X12)"));
        };
        let fc = self.cells[fi];
        if fc.tile == 0 {
            return Err(format!(
                "the stack on {from} is in outer space; only stacks on tiles dance (X12)"
            ));
        }
        let h = fc.h as i32;
        if colour(((fc.bits >> (fc.h - 1)) & 1) as u8) != me {
            return Err(format!(
                "the stack on {from} belongs to the opponent (its top disc, X3)"
            ));
        }
        let Some((d, n)) = from.line_to(target) else {
            return Err(format!(
                "{target} is not on a straight line from {from} (X12)"
            ));
        };
        if n > h {
            return Err(format!(
                "{target} is {n} steps from {from}, beyond the stack's height {h} (X13)"
            ));
        }
        for k in 1..n {
            let c = from.steps(d, k);
            let cell = self.cells[index(c).unwrap_or(fi)];
            if cell.tile == 0 {
                return Err(format!(
                    "the line crosses {c}, which has no tile, before {target} (X13)"
                ));
            }
            if cell.h != 0 {
                return Err(format!(
                    "the stack on {c} blocks the line before {target} (X13)"
                ));
            }
        }
        let tc = self.cells[index(target).unwrap_or(fi)];
        if tc.tile == 0 {
            return Err(format!("{target} is not on a tile (X13, X14)"));
        }
        if tc.h == 0 {
            return Err(format!("{target} holds no stack to hit (X13)"));
        }
        if colour(((tc.bits >> (tc.h - 1)) & 1) as u8) == me {
            return Err(format!("the stack on {target} is your own (X13)"));
        }
        if tc.h as i32 > h {
            return Err(format!(
                "the stack on {target} is taller than the dancing stack ({} > {h}) (X13)",
                tc.h
            ));
        }
        for k in n + 1..=h {
            let c = from.steps(d, k);
            let cell = self.cells[index(c).unwrap_or(fi)];
            if cell.tile == 0 {
                if cell.h != 0 {
                    return Err(format!(
                        "the remaining discs would fall on {c}, an occupied outer-space cell (X14)"
                    ));
                }
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether the mover has any dance, and any dance into outer space (X10).
    fn dances(&self) -> (bool, bool) {
        let me = self.to_move.index() as u8;
        let mut any = false;
        for &s in &self.stacks[..self.n_stacks as usize] {
            let s = s as usize;
            let c = self.cells[s];
            if c.tile == 0 || ((c.bits >> (c.h - 1)) & 1) as u8 != me {
                continue;
            }
            for d in 0..6 {
                if let Some((_, outer)) = self.probe(s, d, me) {
                    if outer {
                        return (true, true);
                    }
                    any = true;
                }
            }
        }
        (any, false)
    }

    // ----- move generation -----

    /// Every legal move (none once the game is over).
    pub fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.is_over() {
            return;
        }
        let me_c = self.to_move;
        if self.in_setup() {
            if self.n_tiles == 0 {
                out.push(Move::Expand(Hex::ORIGIN));
                return;
            }
            for &t in &self.tiles[..self.n_tiles as usize] {
                for step in STEP {
                    let nb = (t as isize + step) as usize;
                    if self.cells[nb].tile == 0 {
                        let mv = Move::Expand(hex(nb));
                        if !out.contains(&mv) {
                            out.push(mv);
                        }
                    }
                }
            }
            return;
        }
        let me = me_c.index() as u8;
        let mut outer_only = false;
        for &s in &self.stacks[..self.n_stacks as usize] {
            let s = s as usize;
            let c = self.cells[s];
            if c.tile == 0 || ((c.bits >> (c.h - 1)) & 1) as u8 != me {
                continue;
            }
            for d in 0..6 {
                if let Some((t, outer)) = self.probe(s, d, me) {
                    if outer && !outer_only {
                        outer_only = true;
                        out.clear();
                    }
                    if outer || !outer_only {
                        out.push(Move::Dance {
                            from: hex(s),
                            target: hex(t),
                        });
                    }
                }
            }
        }
        if out.is_empty() {
            // Builds (X11): expansions (X16), then placements (X17).
            if self.supply > 0 {
                for &s in &self.stacks[..self.n_stacks as usize] {
                    let s = s as usize;
                    if self.cells[s].tile == 0 && self.tiles_around(s) >= 2 {
                        out.push(Move::Expand(hex(s)));
                    }
                }
            }
            if self.hand[me as usize] > 0 {
                for &t in &self.tiles[..self.n_tiles as usize] {
                    if self.cells[t as usize].h == 0 {
                        out.push(Move::Place(hex(t as usize)));
                    }
                }
            }
            if out.is_empty() {
                out.push(Move::Pass);
            }
        }
        if self.swap_available() {
            out.push(Move::Swap);
        }
    }

    /// A uniformly random legal move; `None` once the game is over. `buf` is scratch space
    /// (used only in the expert setup); the common cases draw without listing every move.
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R, buf: &mut MoveList) -> Option<Move> {
        if self.is_over() {
            return None;
        }
        if self.in_setup() {
            self.legal_moves(buf);
            return Some(buf.0[rng.random_range(0..buf.len())]);
        }
        Some(
            match self.random_fast::<false, _>(rng, &mut [(0, 0); 64], self.options.pie) {
                Fast::Dance { from, target, .. } => Move::Dance {
                    from: hex(from as usize),
                    target: hex(target as usize),
                },
                Fast::Expand(i) => Move::Expand(hex(i as usize)),
                Fast::Place(i) => Move::Place(hex(i as usize)),
                Fast::Pass => Move::Pass,
                Fast::Swap => Move::Swap,
            },
        )
    }

    /// The stack slots whose stacks lie on a straight line from the stack in slot `j`, at
    /// most its height away, and are no taller than it (the stack itself excluded): the
    /// possible targets of its dances, before the line between is looked at. All sixteen slots
    /// are compared at once, as bytes in one SSE2 register; the bits of unused slots are
    /// meaningless.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn targets_in_reach(&self, j: usize) -> u32 {
        // SAFETY: SSE2 belongs to every x86-64 processor (the target's baseline).
        let m = unsafe {
            lanes_in_reach(
                &self.lane_q,
                &self.lane_r,
                &self.lane_h,
                self.lane_q[j],
                self.lane_r[j],
                self.lane_h[j],
            )
        };
        m & !(1 << j)
    }

    /// The slots whose stacks lie in outer space, whose top disc is red, and that may expand
    /// (X16), as masks (bit `j` for slot `j`): one bit of each slot's flags gathered from all
    /// sixteen at once (the bytes' top bits, after a shift, in one SSE2 `movemask`).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn slot_masks(&self) -> (u32, u32, u32) {
        // SAFETY: SSE2 belongs to every x86-64 processor (the target's baseline).
        unsafe { flag_masks(&self.flags) }
    }

    /// [`Position::slot_masks`] one slot at a time, where SSE2 is not to be had.
    #[cfg(not(target_arch = "x86_64"))]
    fn slot_masks(&self) -> (u32, u32, u32) {
        let mut m = (0, 0, 0);
        for (j, &f) in self.flags.iter().enumerate() {
            m.0 |= u32::from(f & OUTER != 0) << j;
            m.1 |= u32::from(f & RED_TOP != 0) << j;
            m.2 |= u32::from(f & EXPANDABLE != 0) << j;
        }
        m
    }

    /// The stack slots whose stacks reach the stack in slot `t` (the transpose of
    /// [`Position::targets_in_reach`]): on a straight line from it, at most their own height
    /// away, and no shorter than it (the stack itself excluded).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn dancers_reaching(&self, t: usize) -> u32 {
        // SAFETY: SSE2 belongs to every x86-64 processor (the target's baseline).
        let m = unsafe {
            lanes_reaching(
                &self.lane_q,
                &self.lane_r,
                &self.lane_h,
                self.lane_q[t],
                self.lane_r[t],
                self.lane_h[t],
            )
        };
        m & !(1 << t)
    }

    /// [`Position::dancers_reaching`] one slot at a time, where SSE2 is not to be had.
    #[cfg(not(target_arch = "x86_64"))]
    fn dancers_reaching(&self, t: usize) -> u32 {
        let (s, h) = (self.stacks[t] as usize, self.lane_h[t]);
        let mut m = 0;
        for (k, &b) in self.stacks[..self.n_stacks as usize].iter().enumerate() {
            let l = line(b as usize, s);
            if k != t && h.max(l >> 3) <= self.lane_h[k] {
                m |= 1 << k;
            }
        }
        m
    }

    /// [`Position::targets_in_reach`] one slot at a time, where SSE2 is not to be had.
    #[cfg(not(target_arch = "x86_64"))]
    fn targets_in_reach(&self, j: usize) -> u32 {
        let (s, h) = (self.stacks[j] as usize, self.lane_h[j]);
        let mut m = 0;
        for (k, &b) in self.stacks[..self.n_stacks as usize].iter().enumerate() {
            let l = line(s, b as usize);
            if k != j && self.lane_h[k].max(l >> 3) <= h {
                m |= 1 << k;
            }
        }
        m
    }

    /// The cells of the dance of the stack on `s` (height `h`) in direction `step` onto the
    /// stack `k` steps away (on a tile, within reach): whether every cell before it is an
    /// empty tile (X13) and the first cell without a tile within the discs left, if any, is
    /// empty (X14); and whether there is such a cell (the dance drops discs into outer space).
    /// Stacks of height 3 or less (nearly all) are looked at without a branch on the cells.
    #[inline(always)]
    fn dance_line(&self, s: usize, step: isize, k: usize, h: usize) -> (bool, bool) {
        if h <= 3 {
            // Bit `m` for the cell `m` steps away, 1 ≤ m ≤ 3 (cells beyond `h` are read but
            // masked off; the index is clamped to the grid, as they may lie outside it).
            let cells: &[Cell; CELLS] = match (*self.cells).try_into() {
                Ok(c) => c,
                Err(_) => unreachable!(),
            };
            let (mut tile, mut occupied) = (0u32, 0u32);
            let mut c = s;
            for m in 1..=3 {
                c = c.wrapping_add_signed(step);
                let cell = cells[c.min(CELLS - 1)];
                tile |= u32::from(cell.tile != 0) << m;
                occupied |= u32::from(cell.h != 0) << m;
            }
            let before = (1u32 << k) - 2;
            let beyond = ((1u32 << (h + 1)) - 1) & !((1u32 << (k + 1)) - 1);
            let holes = !tile & beyond;
            let first = holes & holes.wrapping_neg();
            let ok = ((before & (!tile | occupied)) | (first & occupied)) == 0;
            return (ok, holes != 0);
        }
        let mut c = s;
        for _ in 1..k {
            c = c.wrapping_add_signed(step);
            let cell = self.cells[c];
            if cell.tile == 0 || cell.h != 0 {
                return (false, false);
            }
        }
        c = c.wrapping_add_signed(step);
        for _ in k..h {
            c = c.wrapping_add_signed(step);
            let cell = self.cells[c];
            if cell.tile == 0 {
                return (cell.h == 0, true);
            }
        }
        (true, false)
    }

    /// A candidate dance of the stack on `s` (height `h`) onto the stack on `ti` (within
    /// reach), added to the list `dances[..n]` if legal. Kept without a branch on the line's
    /// cells: a dance into outer space empties the list once (X10, `outer_only` set), after
    /// which only such dances are kept.
    #[inline(always)]
    fn consider_dance(
        &self,
        dances: &mut [(u16, u16); 64],
        n: &mut usize,
        outer_only: &mut bool,
        s: usize,
        h: usize,
        ti: usize,
    ) {
        let l = line(s, ti);
        let step = STEP8[(l & 7) as usize];
        let k = (l >> 3) as usize;
        let (ok, outer) = self.dance_line(s, step, k, h);
        let outer = ok & outer;
        *n &= usize::from(!outer | *outer_only).wrapping_neg();
        *outer_only |= outer;
        // At most 8 × 8 pairs: `n` < 64.
        dances[*n & 63] = (s as u16, ti as u16);
        *n += usize::from(ok & (outer | !*outer_only));
    }

    /// A uniformly random legal move in normal play (the game going on, not in the setup).
    #[inline(always)]
    /// `dances` is scratch space (kept by the caller so that it is not cleared for every move).
    /// `POPCNT`: compiled where the processor counts bits in one instruction (else the bits
    /// are counted a byte at a time from a table).
    /// `pie`: the options' `pie` (swap may be due).
    fn random_fast<const POPCNT: bool, R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        dances: &mut [(u16, u16); 64],
        pie: bool,
    ) -> Fast {
        let me = self.to_move.index() as u8;
        // Masks over the stack slots: own stacks on tiles (possible dancers), opponent stacks
        // on tiles (possible targets); each stack's cell in `stacks`.
        let stacks = &self.stacks;
        let (outer, red_top, expandable) = self.slot_masks();
        let popcount16 = |m: u32| {
            if POPCNT {
                m.count_ones()
            } else {
                POPCOUNT[(m & 0xff) as usize] + POPCOUNT[(m >> 8 & 0xff) as usize]
            }
        };
        let on_tile = ((1u32 << self.n_stacks) - 1) & !outer;
        let own = on_tile & if me == 1 { red_top } else { !red_top };
        let opp = on_tile & !own;
        // Dances (X10) as (from, target), only those into outer space once one is seen: a
        // target must lie on a line from the dancer, within reach and no taller (X13). With
        // at most 16 stacks there are at most 8 × 8 pairs. With AVX2 all of them are compared
        // at once ([`pairs_in_reach`]); elsewhere the pairs within reach come by dancer
        // (`rows[j]`: the targets of the dancer in slot `j`), compared with all slots at once
        // from whichever side has fewer stacks.
        let mut n = 0;
        let mut outer_only = false;
        let all_pairs = POPCNT && cfg!(target_arch = "x86_64");
        #[cfg(target_arch = "x86_64")]
        if all_pairs {
            // All pairs at once, then one loop over those within reach, in the same order
            // (by dancer slot, then target slot).
            // SAFETY: `POPCNT` is true only on the path compiled for AVX2 and `popcnt`
            // (`playout_avx2`), which `playout` takes only where the processor has them.
            let (mut pairs, from, to) =
                unsafe { pairs_in_reach(&self.lane_q, &self.lane_r, &self.lane_h, own, opp) };
            while pairs != 0 {
                let bit = pairs.trailing_zeros();
                pairs &= pairs - 1;
                let j = (from >> (bit & !7)) as usize & 15;
                let t = (to >> (8 * (bit & 7))) as usize & 15;
                self.consider_dance(
                    dances,
                    &mut n,
                    &mut outer_only,
                    stacks[j] as usize,
                    self.lane_h[j] as usize,
                    stacks[t] as usize,
                );
            }
        }
        if !all_pairs {
            let mut rows = [0u32; 16];
            let mut dancers = 0u32;
            if popcount16(own) <= popcount16(opp) {
                let mut mine = own;
                while mine != 0 {
                    let j = mine.trailing_zeros() as usize & 15;
                    mine &= mine - 1;
                    let theirs = opp & self.targets_in_reach(j);
                    rows[j] = theirs;
                    dancers |= u32::from(theirs != 0) << j;
                }
            } else {
                let mut theirs = opp;
                while theirs != 0 {
                    let t = theirs.trailing_zeros() as usize & 15;
                    theirs &= theirs - 1;
                    let mut from = own & self.dancers_reaching(t);
                    dancers |= from;
                    while from != 0 {
                        let j = from.trailing_zeros() as usize & 15;
                        from &= from - 1;
                        rows[j] |= 1 << t;
                    }
                }
            }
            while dancers != 0 {
                let j = dancers.trailing_zeros() as usize & 15;
                dancers &= dancers - 1;
                let s = stacks[j] as usize;
                let h = self.lane_h[j] as usize;
                let mut theirs = rows[j];
                while theirs != 0 {
                    let ti = stacks[theirs.trailing_zeros() as usize & 15] as usize;
                    theirs &= theirs - 1;
                    self.consider_dance(dances, &mut n, &mut outer_only, s, h, ti);
                }
            }
        }
        // (`options.pie` read once per playout by the caller: the only quick test.)
        let swap = (pie && self.swap_available()) as usize;
        if n > 0 {
            let k = below(rng, n + swap);
            if k == n {
                return Fast::Swap;
            }
            let (from, target) = dances[k];
            let d = line(from as usize, target as usize) & 7;
            return Fast::Dance { from, target, d };
        }
        // Builds (X11): expansions, then placements (the supply is not empty: the game goes on).
        let e = popcount16(expandable) as usize;
        let places = if self.hand[me as usize] > 0 {
            if POPCNT {
                self.empty.count_ones() as usize
            } else {
                (self.empty.to_le_bytes().iter())
                    .map(|&b| POPCOUNT[b as usize])
                    .sum::<u32>() as usize
            }
        } else {
            0
        };
        if e + places == 0 {
            return if swap == 1 && below(rng, 2) == 1 {
                Fast::Swap
            } else {
                Fast::Pass
            };
        }
        let k = below(rng, e + places + swap);
        if k < e {
            return Fast::Expand(stacks[nth_bit::<POPCNT>(expandable as u64, k) as usize & 15]);
        }
        if k == e + places {
            return Fast::Swap;
        }
        Fast::Place(self.tiles[nth_bit::<POPCNT>(self.empty, k - e) as usize])
    }

    /// Plays uniformly random legal moves until the game ends; returns the outcome.
    pub fn playout<R: Rng + ?Sized>(&mut self, rng: &mut R, buf: &mut MoveList) -> Outcome {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            // SAFETY: the CPU has the instructions `playout_avx2` is compiled with.
            return unsafe { self.playout_avx2(rng, buf) };
        }
        self.playout_inline::<false, _>(rng, buf)
    }

    /// [`Position::playout`] compiled for processors with AVX2, BMI1/2 and `popcnt` (x86-64
    /// since about 2013): the same code, in fewer instructions (three-operand vector
    /// instructions, one-instruction bit counts and lowest-bit clears).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    fn playout_avx2<R: Rng + ?Sized>(&mut self, rng: &mut R, buf: &mut MoveList) -> Outcome {
        self.playout_inline::<true, _>(rng, buf)
    }

    #[inline(always)]
    pub(super) fn playout_inline<const POPCNT: bool, R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        buf: &mut MoveList,
    ) -> Outcome {
        while self.in_setup() {
            match self.random_move(rng, buf) {
                Some(mv) => self.play(&mv),
                None => break,
            }
        }
        let mut dances = [(0, 0); 64];
        let pie = self.options.pie;
        // Still in the setup only when it ended the game; out of it for good (tiles stay), the
        // game ends on a repetition, two passes or an empty supply (X19): `is_over` in one test.
        if !self.in_setup() {
            while !(self.repetition | (self.passes >= 2) | (self.supply == 0)) {
                let m = self.random_fast::<POPCNT, _>(rng, &mut dances, pie);
                self.apply_fast::<POPCNT>(m, &mut |_| {});
            }
        }
        debug_assert!(self.is_over());
        // The loop only stops when the game is over, which always has an outcome.
        self.outcome()
            .unwrap_or_else(|| Outcome::by_score(Reason::Score, self.score()))
    }

    /// Plays at most `n` uniformly random legal moves, fewer when the game ends first: the same
    /// moves, drawn from the same random numbers, as `n` rounds of [`Position::random_move`]
    /// and [`Position::play`], without turning each into a [`Move`] and back.
    pub fn random_plies<R: Rng + ?Sized>(&mut self, rng: &mut R, n: u32, buf: &mut MoveList) {
        let mut left = n;
        while left > 0 && self.in_setup() {
            match self.random_move(rng, buf) {
                Some(mv) => self.play(&mv),
                None => return,
            }
            left -= 1;
        }
        let mut dances = [(0, 0); 64];
        let pie = self.options.pie;
        while left > 0 && !self.is_over() {
            let m = self.random_fast::<false, _>(rng, &mut dances, pie);
            self.apply_fast::<false>(m, &mut |_| {});
            left -= 1;
        }
    }

    pub fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        parse_move(text)
    }

    /// Whether `mv` is legal here; if not, why (naming the rule).
    pub fn check_move(&self, mv: &Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::new("the game is over (X19)"));
        }
        let me = self.to_move;
        let name = |c: Colour| GameKind::Exxit.colour_name(c);
        if let Move::Swap = mv {
            if !self.options.pie {
                return Err(IllegalMove::new("swap exists only in the pie variant (X8)"));
            }
            if !self.swap_available() {
                return Err(IllegalMove::new(
                    "swap is only red's answer to silver's first move (X8)",
                ));
            }
            return Ok(());
        }
        if self.in_setup() {
            let Move::Expand(c) = mv else {
                return Err(IllegalMove::new(
                    "during the expert setup each move puts a tile of your colour: +CELL (X7)",
                ));
            };
            if self.n_tiles == 0 {
                if *c != Hex::ORIGIN {
                    return Err(IllegalMove::new("the first setup tile goes on 0,0 (X7)"));
                }
                return Ok(());
            }
            let ok = index(*c).is_some_and(|i| {
                c.q.unsigned_abs() < OFF as u32
                    && c.r.unsigned_abs() < OFF as u32
                    && self.cells[i].tile == 0
                    && self.tiles_around(i) > 0
            });
            if !ok {
                return Err(IllegalMove::new(format!(
                    "{c} is not an empty cell touching a tile (X7)"
                )));
            }
            return Ok(());
        }
        let compulsory = |what: &str| -> Result<(), IllegalMove> {
            let (any, outer) = self.dances();
            if any {
                return Err(IllegalMove::new(format!(
                    "a dance of destruction is compulsory{} before any {what} (X10)",
                    if outer { " (one into outer space)" } else { "" }
                )));
            }
            Ok(())
        };
        match *mv {
            Move::Swap => Ok(()),
            Move::Place(c) => {
                let ok = index(c).is_some_and(|i| self.cells[i].tile != 0 && self.cells[i].h == 0);
                if !ok {
                    return Err(IllegalMove::new(format!(
                        "{c} is not an empty tile of the world (X17)"
                    )));
                }
                if self.hand[me.index()] == 0 {
                    return Err(IllegalMove::new(format!(
                        "{} has no disc in hand (X17)",
                        name(me)
                    )));
                }
                compulsory("build")
            }
            Move::Expand(c) => {
                let i = index(c)
                    .filter(|&i| {
                        c.q.unsigned_abs() < OFF as u32
                            && c.r.unsigned_abs() < OFF as u32
                            && self.cells[i].h != 0
                    })
                    .filter(|&i| self.cells[i].tile == 0);
                let Some(i) = i else {
                    return Err(IllegalMove::new(format!(
                        "{c} holds no stack in outer space (X16)"
                    )));
                };
                let n = self.tiles_around(i);
                if n < 2 {
                    return Err(IllegalMove::new(format!(
                        "the stack on {c} touches {n} tile; an expansion needs two or more (X16)"
                    )));
                }
                compulsory("build")
            }
            Move::Pass => {
                compulsory("pass")?;
                let mut list = MoveList::new();
                self.legal_moves(&mut list);
                if list.iter().any(|m| *m != Move::Pass && *m != Move::Swap) {
                    return Err(IllegalMove::new(
                        "a build is possible, so passing is not allowed (X18)",
                    ));
                }
                Ok(())
            }
            Move::Dance { from, target } => {
                let outer = self.check_dance(from, target).map_err(IllegalMove::new)?;
                if !outer && self.dances().1 {
                    return Err(IllegalMove::new(
                        "a dance that drops discs into outer space is compulsory (X10)",
                    ));
                }
                Ok(())
            }
        }
    }

    // ----- playing -----

    /// Plays a legal move (as given by [`Position::legal_moves`] or accepted by
    /// [`Position::check_move`]). An illegal move may leave a meaningless position.
    pub fn play(&mut self, mv: &Move) {
        self.apply(mv, &mut |_| {});
    }

    /// The cells a move changes, in order: for a dance, each cell a disc lands on (the last
    /// one being the outer-space cell where the remaining discs fall, if they do); for an
    /// expansion, each converted cell in chain order (X16); for a setup tile or a placement, its
    /// cell; nothing for a pass or a swap. The move must be legal.
    pub fn effects(&self, mv: &Move) -> Vec<Hex> {
        let mut p = self.clone();
        let mut out = Vec::new();
        p.apply(mv, &mut |c| out.push(c));
        out
    }

    fn apply(&mut self, mv: &Move, log: &mut impl FnMut(Hex)) {
        let fast = match *mv {
            Move::Dance { from, target } => {
                let (Some(fi), Some((d, _))) = (index(from), from.line_to(target)) else {
                    return;
                };
                Fast::Dance {
                    from: fi as u16,
                    target: index(target).unwrap_or(fi) as u16,
                    d: dir_index(d) as u8,
                }
            }
            Move::Pass => Fast::Pass,
            Move::Swap => Fast::Swap,
            Move::Place(c) => match index(c) {
                Some(i) => Fast::Place(i as u16),
                None => {
                    self.after_irreversible();
                    return;
                }
            },
            Move::Expand(c) => match index(c) {
                Some(i) if self.in_setup() => {
                    self.put_tile(i, self.to_move);
                    log(c);
                    self.after_irreversible();
                    return;
                }
                Some(i) => Fast::Expand(i as u16),
                None => {
                    self.after_irreversible();
                    return;
                }
            },
        };
        self.apply_fast::<false>(fast, log);
    }

    /// Plays a legal move of normal play given by cell indices.
    #[inline(always)]
    /// `V`: on the AVX2 path (see [`set_lane`]).
    fn apply_fast<const V: bool>(&mut self, mv: Fast, log: &mut impl FnMut(Hex)) {
        let me = self.to_move;
        match mv {
            Fast::Dance { from, d, .. } => {
                let step = STEP8[d as usize & 7];
                let fi = from as usize;
                let (h, bits) = self.take_stack::<V>(fi);
                let mut c = fi;
                for k in 0..h {
                    c = (c as isize + step) as usize;
                    if self.cells[c].tile == 0 {
                        self.set_stack_in::<V>(c, h - k, bits >> k);
                        log(hex(c));
                        break;
                    }
                    self.push_disc::<V>(c, (bits >> k) & 1);
                    log(hex(c));
                }
                self.after_reversible();
            }
            Fast::Pass => {
                self.passes += 1;
                self.swapped = false;
                self.to_move = me.other();
                self.remember();
            }
            Fast::Swap => {
                self.swapped = true;
            }
            Fast::Place(i) => {
                let i = i as usize;
                self.push_disc::<V>(i, me.index() as u16);
                self.hand[me.index()] -= 1;
                log(hex(i));
                self.after_irreversible();
            }
            Fast::Expand(i) => {
                self.convert::<V>(i as usize, me, log);
                self.after_irreversible();
            }
        }
    }

    /// X16: converts the outer-space cell `i` into a tile of colour `me`, returns its discs to
    /// their owners' hands, then converts its neighbours depth-first (W, NW, NE, E, SE, SW).
    /// The chain recurses through a function of its own, so that on the AVX2 path (`V`) it is
    /// compiled for AVX2 too (`convert_avx2`) rather than for the baseline processor.
    #[inline(always)]
    fn convert<const V: bool>(&mut self, i: usize, me: Colour, log: &mut impl FnMut(Hex)) {
        #[cfg(target_arch = "x86_64")]
        if V {
            // SAFETY: `V` is true only on the path compiled for AVX2, BMI1/2 and `popcnt`
            // (`playout_avx2`), which `playout` takes only where the processor has them.
            unsafe { self.convert_avx2(i, me, log) };
            return;
        }
        self.convert_base(i, me, log);
    }

    /// [`Position::convert`] compiled for AVX2, BMI1/2 and `popcnt`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    fn convert_avx2(&mut self, i: usize, me: Colour, log: &mut impl FnMut(Hex)) {
        self.convert_in::<true>(i, me, log);
    }

    /// [`Position::convert`] for the baseline processor.
    fn convert_base(&mut self, i: usize, me: Colour, log: &mut impl FnMut(Hex)) {
        self.convert_in::<false>(i, me, log);
    }

    #[inline(always)]
    fn convert_in<const V: bool>(&mut self, i: usize, me: Colour, log: &mut impl FnMut(Hex)) {
        let (h, bits) = self.take_stack::<V>(i);
        let red = (bits & (((1u32 << h) - 1) as u16)).count_ones() as u8;
        self.hand[1] += red;
        self.hand[0] += h - red;
        self.put_tile(i, me);
        log(hex(i));
        // The next direction (from `d` on, in chain order) whose neighbour may expand, found
        // from a mask of all six rather than a branch per neighbour; looked at anew after each
        // conversion, which may have made more neighbours expandable.
        let mut d = 0;
        while self.supply != 0 {
            let m = self.expandable_around(i) >> d << d;
            if m == 0 {
                return;
            }
            d = m.trailing_zeros() as usize;
            self.convert::<V>(i.wrapping_add_signed(STEP8[d & 7]), me, log);
            d += 1;
        }
    }

    /// The directions (bit `d` for [`STEP`]`[d]`) in which the neighbour of `i` is an
    /// outer-space stack that may expand (X16).
    #[inline(always)]
    fn expandable_around(&self, i: usize) -> u32 {
        let g = GRID as usize;
        let around = &self.cells[i - g..=i + g];
        let mut m = 0;
        for (d, o) in [g - 1, 0, 1, g + 1, 2 * g, 2 * g - 1]
            .into_iter()
            .enumerate()
        {
            let cell = around[o];
            // A cell without a stack reads as slot 0: its flag is not its own.
            let f = u32::from(cell.h != 0) & u32::from(self.flags[cell.slot as usize & 15]) >> 2;
            m |= f << d;
        }
        m
    }

    #[inline]
    fn after_reversible(&mut self) {
        self.passes = 0;
        self.swapped = false;
        self.to_move = self.to_move.other();
        self.remember();
    }

    /// Adds the position's key to the history and notes a third occurrence (X19).
    #[inline]
    fn remember(&mut self) {
        let k = self.key();
        let bit = 1u64 << (k >> 58);
        self.history.push(k);
        self.repetition =
            self.seen & bit != 0 && self.history.iter().filter(|&&x| x == k).count() >= 3;
        self.seen |= bit;
    }

    #[inline]
    fn after_irreversible(&mut self) {
        self.passes = 0;
        self.swapped = false;
        self.to_move = self.to_move.other();
        self.reset_history();
    }

    // ----- counting -----

    /// Number of move sequences of length `depth` (a finished game counts 1 and stops).
    pub fn perft(&self, depth: u32) -> u64 {
        let mut lists: Vec<MoveList> = (0..=depth).map(|_| MoveList::new()).collect();
        self.perft_in(depth, &mut lists)
    }

    fn perft_in(&self, depth: u32, lists: &mut [MoveList]) -> u64 {
        if depth == 0 || self.is_over() {
            return 1;
        }
        let (list, rest) = lists.split_first_mut().unwrap_or_else(|| unreachable!());
        self.legal_moves(list);
        if depth == 1 {
            return list.len() as u64;
        }
        let mut n = 0;
        for mv in list.iter() {
            let mut p = self.clone();
            p.play(mv);
            n += p.perft_in(depth - 1, rest);
        }
        n
    }

    /// The number of distinct positions (distinct `position` lines) at the ends of the move
    /// sequences that [`Position::perft`] counts at `depth` (a sequence that ends the game
    /// early contributes its final position).
    pub fn distinct_successors(&self, depth: u32) -> u64 {
        let mut seen = std::collections::HashSet::new();
        self.collect(depth, &mut seen);
        seen.len() as u64
    }

    fn collect(&self, depth: u32, seen: &mut std::collections::HashSet<String>) {
        if depth == 0 || self.is_over() {
            seen.insert(self.to_line());
            return;
        }
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        for mv in list.iter() {
            let mut p = self.clone();
            p.play(mv);
            p.collect(depth - 1, seen);
        }
    }
}

#[cfg(test)]
mod bit_tests {
    use super::*;

    #[test]
    fn nth_bit_finds_the_kth_set_bit_on_every_path() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for round in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Sparse and dense masks, and the edges.
            let mask = match round % 4 {
                0 => x,
                1 => x & (x >> 3) & (x >> 11),
                2 => u64::MAX,
                _ => 1u64 << (x % 64) | 1 << 63,
            };
            let mut m = mask;
            for k in 0..mask.count_ones() as usize {
                let want = m.trailing_zeros();
                m &= m - 1;
                assert_eq!(nth_bit::<false>(mask, k), want, "{mask:x} {k}");
                #[cfg(target_arch = "x86_64")]
                if std::arch::is_x86_feature_detected!("bmi2") {
                    assert_eq!(nth_bit::<true>(mask, k), want, "{mask:x} {k}");
                }
            }
        }
    }

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

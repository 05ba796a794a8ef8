//! Random play in EXXIT: a uniformly random legal move drawn without listing the moves, and
//! playouts to the end of the game, the Monte-Carlo search's inner loop (about 8 µs a game).
//! The dances are found from the stack lanes ([`super::lanes`]) for all slots at once, and the
//! playout is compiled twice: for the baseline x86-64 processor and, chosen at run time, for
//! processors with AVX2, BMI1/2 and `popcnt`.
use rand::Rng;

use super::grid::{hex, line, CELLS, STEP8};
#[cfg(target_arch = "x86_64")]
use super::lanes::{lanes_in_reach, lanes_reaching, pairs_in_reach};
use super::position::{Cell, Position};
use super::rules::Fast;
use super::{Move, MoveList};
use crate::games::{below, Outcome, Reason};

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

impl Position {
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
}

#[cfg(test)]
mod tests {
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
}

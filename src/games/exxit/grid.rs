//! The grid on which an EXXIT world lives: a fixed square array of `GRID × GRID` cells indexed
//! by `(r + OFF) * GRID + (q + OFF)`, the conversions between cells and indices, the index steps
//! of the six directions and the straight lines between two cells.
//!
//! The array is large enough for any world the rules can reach. The world is connected and grows
//! one adjacent tile at a time from tiles within two steps of the origin (X5) or from (0,0)
//! (X7), so with at most 39 tiles every tile has |q|, |r| ≤ 38 (≤ 39 = `TILE_LIMIT` allowed),
//! every outer-space cell ≤ 40 and every cell the rules ever look at (neighbours of outer space)
//! ≤ 41 = `OFF`, inside the array. `from_line` refuses worlds that could outgrow these bounds (a
//! tile's |q| or |r| plus the supply above 39).
use crate::hex::{Direction, Hex};

pub(super) const OFF: i32 = 41;
pub(super) const GRID: i32 = 2 * OFF + 1;
pub(super) const CELLS: usize = (GRID * GRID) as usize;
/// Every tile (present or future) must keep |q|, |r| within this.
pub(super) const TILE_LIMIT: i32 = 39;

/// Index steps of the six directions, in the order of the expansion chain (X16): W, NW, NE, E,
/// SE, SW.
pub(super) const STEP: [isize; 6] = [
    -1,
    -(GRID as isize),
    -(GRID as isize) + 1,
    1,
    GRID as isize,
    GRID as isize - 1,
];

/// [`STEP`] padded to eight entries, so that a direction taken from the low three bits of a
/// byte indexes it without a bounds check.
pub(super) const STEP8: [isize; 8] = [STEP[0], STEP[1], STEP[2], STEP[3], STEP[4], STEP[5], 0, 0];

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
pub(super) fn line(a: usize, b: usize) -> u8 {
    let k = b.wrapping_add(LINE_SPAN as usize).wrapping_sub(a);
    LINES[k & (LINES.len() - 1)]
}

/// The column and row (`q + OFF`, `r + OFF`) of each cell of the grid.
pub(super) static CELL_QR: [[u8; 2]; CELLS] = {
    let mut t = [[0; 2]; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = [(i % GRID as usize) as u8, (i / GRID as usize) as u8];
        i += 1;
    }
    t
};

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
pub(super) fn dir_index(d: Direction) -> usize {
    match d {
        Direction::W => 0,
        Direction::NW => 1,
        Direction::NE => 2,
        Direction::E => 3,
        Direction::SE => 4,
        Direction::SW => 5,
    }
}

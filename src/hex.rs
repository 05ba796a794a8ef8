//! Hex-grid geometry shared by both games and the renderer.
//!
//! Cells use axial coordinates `(q, r)` on a pointy-top grid. The six neighbours of `(q, r)` are
//! `(q±1, r)`, `(q, r±1)`, `(q+1, r−1)` and `(q−1, r+1)` (rules I2 and X4). inpHeXion's column `c`
//! is `q` and its row is `r`.
//!
//! Bounded boards (inpHeXion's N×N rhombus, N ≤ 11) use [`CellSet`], a `u128` bitboard indexed by
//! `r * N + q`, with the board's [`Rhombus`] giving the masks that keep shifts on the board.

use std::fmt;

/// A cell in axial coordinates.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Hex {
    pub q: i32,
    pub r: i32,
}

impl Hex {
    pub const ORIGIN: Hex = Hex { q: 0, r: 0 };

    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// The neighbouring cell in direction `d`.
    pub const fn step(self, d: Direction) -> Hex {
        let (dq, dr) = d.offset();
        Hex {
            q: self.q + dq,
            r: self.r + dr,
        }
    }

    /// The cell `n` steps away in direction `d`.
    pub const fn steps(self, d: Direction, n: i32) -> Hex {
        let (dq, dr) = d.offset();
        Hex {
            q: self.q + dq * n,
            r: self.r + dr * n,
        }
    }

    /// The six neighbours, in the order of [`Direction::ALL`].
    pub fn neighbours(self) -> [Hex; 6] {
        Direction::ALL.map(|d| self.step(d))
    }

    /// Whether `other` is one of the six neighbours.
    pub fn is_adjacent(self, other: Hex) -> bool {
        self.distance(other) == 1
    }

    /// Hex distance (number of steps).
    pub fn distance(self, other: Hex) -> i32 {
        let dq = self.q - other.q;
        let dr = self.r - other.r;
        (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
    }

    /// The direction from `self` to `other` when they lie on one straight line, with the
    /// number of steps.
    pub fn line_to(self, other: Hex) -> Option<(Direction, i32)> {
        let dq = other.q - self.q;
        let dr = other.r - self.r;
        let n = self.distance(other);
        if n == 0 {
            return None;
        }
        Direction::ALL.into_iter().find_map(|d| {
            let (oq, or) = d.offset();
            (oq * n == dq && or * n == dr).then_some((d, n))
        })
    }
}

impl fmt::Display for Hex {
    /// EXXIT notation: `q,r`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.q, self.r)
    }
}

/// The six directions of the grid (rule X4).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Direction {
    E,
    W,
    NE,
    NW,
    SE,
    SW,
}

impl Direction {
    /// Every direction, in the order E, W, NE, NW, SE, SW.
    pub const ALL: [Direction; 6] = [
        Direction::E,
        Direction::W,
        Direction::NE,
        Direction::NW,
        Direction::SE,
        Direction::SW,
    ];

    /// The axial offset `(dq, dr)` of one step.
    pub const fn offset(self) -> (i32, i32) {
        match self {
            Direction::E => (1, 0),
            Direction::W => (-1, 0),
            Direction::NE => (1, -1),
            Direction::NW => (0, -1),
            Direction::SE => (0, 1),
            Direction::SW => (-1, 1),
        }
    }

    pub const fn opposite(self) -> Direction {
        match self {
            Direction::E => Direction::W,
            Direction::W => Direction::E,
            Direction::NE => Direction::SW,
            Direction::SW => Direction::NE,
            Direction::NW => Direction::SE,
            Direction::SE => Direction::NW,
        }
    }
}

/// The largest rhombus a [`CellSet`] holds.
pub const MAX_SIZE: u8 = 11;

/// The geometry of an N×N rhombus (4 ≤ N ≤ 11 in inpHeXion; any 1 ≤ N ≤ 11 here): the masks a
/// [`CellSet`] needs to move one step without wrapping around the sides.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rhombus {
    size: u8,
    all: CellSet,
    /// Every cell but the last column (may step east).
    not_last_col: CellSet,
    /// Every cell but the first column (may step west).
    not_first_col: CellSet,
}

impl Rhombus {
    /// The rhombus of side `size`; `None` outside 1..=11.
    pub fn new(size: u8) -> Option<Rhombus> {
        if !(1..=MAX_SIZE).contains(&size) {
            return None;
        }
        let n = size as u32;
        let mut all = CellSet::EMPTY;
        let mut not_last_col = CellSet::EMPTY;
        let mut not_first_col = CellSet::EMPTY;
        for r in 0..n {
            for q in 0..n {
                let i = r * n + q;
                all.0 |= 1 << i;
                if q + 1 < n {
                    not_last_col.0 |= 1 << i;
                }
                if q > 0 {
                    not_first_col.0 |= 1 << i;
                }
            }
        }
        Some(Rhombus {
            size,
            all,
            not_last_col,
            not_first_col,
        })
    }

    pub const fn size(self) -> u8 {
        self.size
    }

    pub const fn cell_count(self) -> u32 {
        self.size as u32 * self.size as u32
    }

    /// Every cell of the board.
    pub const fn all(self) -> CellSet {
        self.all
    }

    /// The bit index of `h`, if it lies on the board.
    pub fn index(self, h: Hex) -> Option<u8> {
        let n = self.size as i32;
        ((0..n).contains(&h.q) && (0..n).contains(&h.r)).then(|| (h.r * n + h.q) as u8)
    }

    /// The cell of bit index `i`.
    pub fn hex(self, i: u8) -> Hex {
        let n = self.size;
        Hex::new((i % n) as i32, (i / n) as i32)
    }

    /// Row `r` (0-based) as a set.
    pub fn row(self, r: u8) -> CellSet {
        let n = self.size as u32;
        let row_bits = (1u128 << n) - 1;
        CellSet(row_bits << (r as u32 * n))
    }

    /// Column `q` (0-based) as a set.
    pub fn column(self, q: u8) -> CellSet {
        let mut s = CellSet::EMPTY;
        for r in 0..self.size {
            s.0 |= 1 << (r as u32 * self.size as u32 + q as u32);
        }
        s
    }

    /// The set of cells one step from `s` in direction `d` (cells that would leave the board are
    /// dropped).
    #[inline]
    pub fn shift(self, s: CellSet, d: Direction) -> CellSet {
        let n = self.size as u32;
        let bits = match d {
            Direction::E => (s.0 & self.not_last_col.0) << 1,
            Direction::W => (s.0 & self.not_first_col.0) >> 1,
            Direction::SE => s.0 << n,
            Direction::NW => s.0 >> n,
            Direction::NE => (s.0 & self.not_last_col.0) >> (n - 1),
            Direction::SW => (s.0 & self.not_first_col.0) << (n - 1),
        };
        CellSet(bits & self.all.0)
    }

    /// Every cell adjacent to some cell of `s` (not including `s` itself unless adjacent).
    #[inline]
    pub fn neighbours(self, s: CellSet) -> CellSet {
        let mut out = CellSet::EMPTY;
        for d in Direction::ALL {
            out.0 |= self.shift(s, d).0;
        }
        out
    }

    /// The neighbours of the single cell with index `i`.
    #[inline]
    pub fn neighbours_of(self, i: u8) -> CellSet {
        self.neighbours(CellSet::single(i))
    }

    /// Whether the cells of `within` connected to `cell` (in `within`) meet both `a` and `b`:
    /// a flood fill that stops as soon as they do. On boards of up to 64 cells it works on
    /// 64-bit words, twice as fast as on the 128-bit sets.
    #[inline]
    pub fn joins(self, cell: u8, within: CellSet, a: CellSet, b: CellSet) -> bool {
        if self.size <= 8 {
            let n = self.size as u32;
            let (w, a, b) = (within.0 as u64, a.0 as u64, b.0 as u64);
            let (nl, nf) = (self.not_last_col.0 as u64, self.not_first_col.0 as u64);
            let mut reached = 1u64 << cell;
            loop {
                if reached & a != 0 && reached & b != 0 {
                    return true;
                }
                let east = reached & nl;
                let west = reached & nf;
                let next = (reached
                    | east << 1
                    | west >> 1
                    | reached << n
                    | reached >> n
                    | east >> (n - 1)
                    | west << (n - 1))
                    & w;
                if next == reached {
                    return false;
                }
                reached = next;
            }
        }
        let mut reached = CellSet::single(cell);
        loop {
            if reached.intersects(a) && reached.intersects(b) {
                return true;
            }
            let next = self.neighbours(reached).union(reached).intersection(within);
            if next == reached {
                return false;
            }
            reached = next;
        }
    }

    /// The cells of `within` connected to `from` (flood fill, `from` restricted to `within`).
    pub fn flood(self, from: CellSet, within: CellSet) -> CellSet {
        let mut reached = CellSet(from.0 & within.0);
        loop {
            let next = CellSet((reached.0 | self.neighbours(reached).0) & within.0);
            if next == reached {
                return reached;
            }
            reached = next;
        }
    }
}

/// A set of cells of a rhombus of side at most 11, as a bitboard.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellSet(pub u128);

impl CellSet {
    pub const EMPTY: CellSet = CellSet(0);

    #[inline]
    pub const fn single(i: u8) -> CellSet {
        CellSet(1 << i)
    }

    #[inline]
    pub const fn contains(self, i: u8) -> bool {
        self.0 >> i & 1 == 1
    }

    #[inline]
    pub fn insert(&mut self, i: u8) {
        self.0 |= 1 << i;
    }

    #[inline]
    pub fn remove(&mut self, i: u8) {
        self.0 &= !(1 << i);
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Boards up to 8×8 use only the low 64 bits: one 64-bit count then (without a `popcnt`
    /// target feature, a 128-bit count costs two software counts).
    #[inline]
    pub const fn len(self) -> u32 {
        let (lo, hi) = (self.0 as u64, (self.0 >> 64) as u64);
        if hi == 0 {
            lo.count_ones()
        } else {
            lo.count_ones() + hi.count_ones()
        }
    }

    #[inline]
    pub const fn union(self, o: CellSet) -> CellSet {
        CellSet(self.0 | o.0)
    }

    #[inline]
    pub const fn intersection(self, o: CellSet) -> CellSet {
        CellSet(self.0 & o.0)
    }

    #[inline]
    pub const fn difference(self, o: CellSet) -> CellSet {
        CellSet(self.0 & !o.0)
    }

    #[inline]
    pub const fn intersects(self, o: CellSet) -> bool {
        self.0 & o.0 != 0
    }

    /// The lowest index in the set.
    #[inline]
    pub const fn first(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as u8)
        }
    }

    /// The `k`-th lowest index (0-based), if the set has that many.
    pub fn nth(self, mut k: u32) -> Option<u8> {
        let lo = self.0 as u64;
        let n_lo = lo.count_ones();
        if k < n_lo {
            let mut bits = lo;
            for _ in 0..k {
                bits &= bits - 1;
            }
            return Some(bits.trailing_zeros() as u8);
        }
        k -= n_lo;
        let mut bits = self.0 & !(u64::MAX as u128);
        while bits != 0 {
            let i = bits.trailing_zeros();
            if k == 0 {
                return Some(i as u8);
            }
            k -= 1;
            bits &= bits - 1;
        }
        None
    }

    /// The indices in increasing order.
    #[inline]
    pub fn iter(self) -> CellIter {
        CellIter(self.0)
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl IntoIterator for CellSet {
    type Item = u8;
    type IntoIter = CellIter;
    fn into_iter(self) -> CellIter {
        self.iter()
    }
}

/// The indices of a [`CellSet`], lowest first.
#[derive(Clone)]
pub struct CellIter(u128);

impl Iterator for CellIter {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let lo = self.0 as u64;
        let i = if lo != 0 {
            lo.trailing_zeros()
        } else {
            self.0.trailing_zeros()
        } as u8;
        self.0 &= self.0 - 1;
        Some(i)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = CellSet(self.0).len() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CellIter {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_match_axial_neighbours_on_every_size() {
        for n in 1..=MAX_SIZE {
            let b = Rhombus::new(n).expect("valid size");
            for i in 0..(n * n) {
                let h = b.hex(i);
                let mut expected = CellSet::EMPTY;
                for nb in h.neighbours() {
                    if let Some(j) = b.index(nb) {
                        expected.insert(j);
                    }
                }
                assert_eq!(b.neighbours_of(i), expected, "size {n} cell {h}");
                for d in Direction::ALL {
                    let got = b.shift(CellSet::single(i), d);
                    let want = b.index(h.step(d)).map_or(CellSet::EMPTY, CellSet::single);
                    assert_eq!(got, want, "size {n} cell {h} dir {d:?}");
                }
            }
        }
    }

    #[test]
    fn directions_are_opposite_pairs_and_lines_are_found() {
        for d in Direction::ALL {
            let h = Hex::new(2, -1).step(d).step(d.opposite());
            assert_eq!(h, Hex::new(2, -1));
            assert_eq!(Hex::ORIGIN.line_to(Hex::ORIGIN.steps(d, 3)), Some((d, 3)));
        }
        assert_eq!(Hex::ORIGIN.line_to(Hex::new(1, 1)), None);
        assert_eq!(Hex::new(0, 0).distance(Hex::new(2, -1)), 2);
    }

    #[test]
    fn flood_follows_connections_only() {
        let b = Rhombus::new(5).expect("valid size");
        let within = b.column(2).union(CellSet::single(0));
        let reached = b.flood(CellSet::single(2), within);
        assert_eq!(reached, b.column(2));
        assert_eq!(b.row(0).len(), 5);
        assert_eq!(CellSet(0b1011).nth(2), Some(3));
        assert_eq!(CellSet(0b1011).iter().collect::<Vec<_>>(), vec![0, 1, 3]);
    }

    #[test]
    fn joins_agrees_with_flood_on_every_size() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for size in 1..=MAX_SIZE {
            let b = Rhombus::new(size).expect("valid size");
            let n = size as u32 * size as u32;
            for _ in 0..500 {
                // Dense sets, so that groups are large.
                let within = CellSet(((next() as u128) << 64 | next() as u128) | next() as u128)
                    .intersection(b.all());
                let (ea, eb) = if next() & 1 == 0 {
                    (b.row(0), b.row(size - 1))
                } else {
                    (b.column(0), b.column(size - 1))
                };
                let cell = (next() % n as u64) as u8;
                let mut w = within;
                w.insert(cell);
                let f = b.flood(CellSet::single(cell), w);
                assert_eq!(
                    b.joins(cell, w, ea, eb),
                    f.intersects(ea) && f.intersects(eb),
                    "size {size}"
                );
            }
        }
    }
}

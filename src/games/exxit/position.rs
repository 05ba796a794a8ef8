//! The EXXIT position: how the world, the stacks, the hands and the supply are stored (on the
//! [`super::grid`]), what can be read from them, and the low-level edits that the rules
//! ([`super::rules`]) and the random playouts ([`super::playout`]) make.
//!
//! Each cell of the array holds a tile code (0 none, 1 silver, 2 red) and a stack (height ≤ 16,
//! one bit per disc bottom→top, set for red). Beside the array, the tile cells and the stack
//! cells are kept in small lists for iteration, and the stacks' cells, heights and flags in byte
//! lanes by slot ([`super::lanes`]), all kept in step by the edits here.
#[cfg(test)]
use super::grid::STEP;
use super::grid::{hex, index, line, CELLS, CELL_QR, GRID, OFF};
#[cfg(target_arch = "x86_64")]
use super::lanes::{flag_masks, move_lanes};
use super::lanes::{move_lane, or_lanes, set_lane};
use super::Options;
use crate::games::{Colour, Outcome, Reason};
use crate::hex::Hex;

/// Discs per colour (X1).
pub(super) const DISCS: u8 = 8;
/// A stack slot's flags (see [`Position::flags`]): its top disc is red,
const RED_TOP: u8 = 1;
/// it lies in outer space,
const OUTER: u8 = 2;
/// it lies in outer space touching two or more tiles.
const EXPANDABLE: u8 = 4;
const SIDE_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

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

#[inline]
pub(super) fn colour(i: u8) -> Colour {
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

/// The key of a stack of height `h` and discs `bits` on cell `i`: the cell's random word with
/// the stack mixed in by one multiplication (odd, so that different stacks on a cell differ).
#[inline]
fn stack_key(i: usize, h: u8, bits: u16) -> u64 {
    (CELL_KEYS[i] ^ ((h as u64) << 16 | bits as u64)).wrapping_mul(0xbf58_476d_1ce4_e5b9)
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

    #[inline]
    pub(super) fn tiles_around(&self, i: usize) -> u32 {
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
    pub(super) fn key(&self) -> u64 {
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
    pub(super) fn set_stack_in<const V: bool>(&mut self, i: usize, h: u8, bits: u16) {
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
    pub(super) fn take_stack<const V: bool>(&mut self, i: usize) -> (u8, u16) {
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
    pub(super) fn push_disc<const V: bool>(&mut self, i: usize, red: u16) {
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

    /// The slots whose stacks lie in outer space, whose top disc is red, and that may expand
    /// (X16), as masks (bit `j` for slot `j`): one bit of each slot's flags gathered from all
    /// sixteen at once (the bytes' top bits, after a shift, in one SSE2 `movemask`).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn slot_masks(&self) -> (u32, u32, u32) {
        // SAFETY: SSE2 belongs to every x86-64 processor (the target's baseline).
        unsafe { flag_masks(&self.flags) }
    }

    /// [`Position::slot_masks`] one slot at a time, where SSE2 is not to be had.
    #[cfg(not(target_arch = "x86_64"))]
    pub(super) fn slot_masks(&self) -> (u32, u32, u32) {
        let mut m = (0, 0, 0);
        for (j, &f) in self.flags.iter().enumerate() {
            m.0 |= u32::from(f & OUTER != 0) << j;
            m.1 |= u32::from(f & RED_TOP != 0) << j;
            m.2 |= u32::from(f & EXPANDABLE != 0) << j;
        }
        m
    }
}

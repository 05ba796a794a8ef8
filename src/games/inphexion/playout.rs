//! Random play in inpHeXion: random moves (uniform over the move shapes, then over the
//! relocation destinations), playouts to the end of the game — the Monte-Carlo search's inner
//! loop, on 64-bit words for boards of up to 8×8 — and the decisive playouts that take an
//! immediate win whenever there is one.
use rand::Rng;

use super::position::{tables, Position};
use super::{unpack, Move, MAX_RELOCATIONS};
use crate::games::{below, Colour, Outcome, Reason};
use crate::hex::{CellSet, Direction};

/// The index in [`Direction::ALL`] of each direction's opposite.
const OPPOSITE: [usize; 6] = [1, 0, 5, 4, 3, 2];

impl Position {
    /// A random legal move without listing relocation assignments, or `None` when the game is
    /// over. Distribution: uniform over the move *shapes* — each placement cell, the swap, each
    /// (from, to) pair of a regular move — and then, when discs must be relocated, uniform over
    /// the assignments of destinations.
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Move> {
        self.clone().random_step(rng)
    }

    /// Plays random moves (distributed as in [`Position::random_move`]) to the end of the game
    /// and returns the outcome.
    pub fn playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Outcome {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has the instruction `playout_popcnt` is compiled with.
            return unsafe { self.playout_popcnt(rng) };
        }
        self.playout_inline(rng)
    }

    /// [`Position::playout`] compiled with the `popcnt` instruction, which counting the cells
    /// of a set (many times a move) needs most.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn playout_popcnt<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Outcome {
        self.playout_inline(rng)
    }

    #[inline(always)]
    fn playout_inline<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Outcome {
        if self.options.size <= 8 {
            return self.playout64(rng);
        }
        loop {
            if let Some(o) = self.outcome {
                return o;
            }
            if self.random_step_inline(rng).is_none() {
                // Unreachable: a game in play always has a move (I18 ends it otherwise).
                let o = Outcome::win(self.to_move.other(), Reason::NoLegalMove);
                self.outcome = Some(o);
                return o;
            }
        }
    }

    /// [`Position::playout`] on boards of up to 8×8 (64 cells): the same moves from the same
    /// random numbers as [`Position::random_step`] in a loop, on 64-bit words instead of the
    /// 128-bit sets, and without writing down each move.
    #[inline(always)]
    fn playout64<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Outcome {
        let n = self.options.size as u32;
        let t = tables(self.options.size);
        let nb = |i: u32| t.neighbours[i as usize & 127].0 as u64;
        let all = self.rh.all().0 as u64;
        // Every cell but the last column (may step east), but the first (may step west).
        let first_col = t.edges[1].0 .0 as u64;
        let last_col = t.edges[1].1 .0 as u64;
        let (nl, nf) = (all & !last_col, all & !first_col);
        // One step from each cell of `s`, in the order of `Direction::ALL` (E, W, NE, NW,
        // SE, SW); cells leaving the board are dropped.
        let shifts = |s: u64| -> [u64; 6] {
            [
                (s & nl) << 1,
                (s & nf) >> 1,
                (s & nl) >> (n - 1),
                s >> n,
                (s << n) & all,
                ((s & nf) << (n - 1)) & all,
            ]
        };
        let around = |s: u64| -> u64 { shifts(s).iter().fold(0, |a, &x| a | x) };
        let deltas: [i32; 6] = [1, -1, 1 - n as i32, -(n as i32), n as i32, n as i32 - 1];
        let edges = [
            (t.edges[0].0 .0 as u64, t.edges[0].1 .0 as u64),
            (first_col, last_col),
        ];
        let initial = self.options.initial_hand();
        let (pie, free_reply, neutral_variant) = (
            self.options.pie,
            self.options.free_reply,
            self.options.neutral,
        );
        // Whether the group of `discs` through `cell` joins the edges of the colour with index
        // `c` (I17): `group_joins` on 64-bit words.
        let joins = |c: usize, discs: u64, cell: u32| -> bool {
            if discs.count_ones() < n {
                return false;
            }
            let (a, b) = edges[c];
            if a & discs == 0 || b & discs == 0 {
                return false;
            }
            let mut reached = 1u64 << cell;
            loop {
                if reached & a != 0 && reached & b != 0 {
                    return true;
                }
                let next = (reached | around(reached)) & discs;
                if next == reached {
                    return false;
                }
                reached = next;
            }
        };
        // The `k`-th lowest cell of `s` (0-based; `s` has more than `k`).
        let nth = |s: u64, k: usize| -> u32 {
            let mut bits = s;
            for _ in 0..k {
                bits &= bits - 1;
            }
            bits.trailing_zeros()
        };
        // By colour index: the discs.
        let mut discs = [self.white.0 as u64, self.black.0 as u64];
        let mut neutral = self.neutral.0 as u64;
        let mut me = self.to_move.index();
        let mut swapped = self.swapped;
        let mut outcome = self.outcome;
        let colour = |i: usize| {
            if i == 0 {
                Colour::First
            } else {
                Colour::Second
            }
        };
        while outcome.is_none() {
            let empty = all & !(discs[0] | discs[1] | neutral);
            let first_placement = !neutral_variant && discs[0] == 0 && discs[1] == 0;
            let black_first = me == 1 && !swapped && discs[0].count_ones() == 1 && discs[1] == 0;
            // The move: a placement on a cell, a swap, or a regular move with its relocations
            // (I16); `None` for the (unreachable) lack of any move.
            let mut placed = None;
            if first_placement {
                if empty == 0 {
                    outcome = Some(Outcome::win(colour(1 - me), Reason::NoLegalMove));
                    break;
                }
                placed = Some(nth(empty, below(rng, empty.count_ones() as usize)));
            } else {
                let has_hand = discs[me].count_ones() < initial;
                let (mut swap, mut extra) = (false, 0);
                if black_first {
                    swap = pie;
                    let free = free_reply && has_hand;
                    extra = u32::from(swap) + if free { empty.count_ones() } else { 0 };
                }
                let targets = discs[1 - me] | neutral;
                let mut froms = [0u64; 6];
                let mut total = 0;
                if has_hand {
                    // The cells one step from an empty cell against each direction.
                    let back = shifts(empty);
                    for k in 0..6 {
                        froms[k] = targets & back[OPPOSITE[k]];
                        total += froms[k].count_ones();
                    }
                }
                if total + extra == 0 {
                    outcome = Some(Outcome::win(colour(1 - me), Reason::NoLegalMove));
                    break;
                }
                let mut r = below(rng, (total + extra) as usize) as u32;
                if r >= total {
                    r -= total;
                    if swap && r == 0 {
                        // I7: the players exchange colours; the board stays, Black moves next.
                        swapped = true;
                        continue;
                    }
                    placed = Some(nth(empty, (r - u32::from(swap)) as usize));
                } else {
                    let mut k = 0;
                    while r >= froms[k].count_ones() {
                        r -= froms[k].count_ones();
                        k += 1;
                    }
                    let from = nth(froms[k], r as usize);
                    let to = (from as i32 + deltas[k]) as u32;
                    // The stage (I16): the disc on `from` moves to `to`, the mover's disc
                    // goes on `from`.
                    let own = discs[me] | 1 << from;
                    let mut opp = discs[1 - me];
                    let moved_neutral = neutral >> from & 1 != 0;
                    if moved_neutral {
                        neutral = neutral & !(1 << from) | 1 << to;
                    } else {
                        opp = opp & !(1 << from) | 1 << to;
                    }
                    let mut ended = if joins(me, own, from) {
                        Some(Outcome::win(colour(me), Reason::Connection))
                    } else if !moved_neutral && joins(1 - me, opp, to) {
                        Some(Outcome::win(colour(1 - me), Reason::Connection))
                    } else {
                        None
                    };
                    if ended.is_none() {
                        // The discs to relocate (I10): see `stage`.
                        let mut relocate = 0u64;
                        let mut c = nb(from) & (opp | neutral);
                        while c != 0 {
                            let i = c.trailing_zeros();
                            c &= c - 1;
                            if nb(i) & !own == 0 {
                                relocate |= 1 << i;
                            }
                        }
                        if relocate != 0 {
                            let mut dest = all & !(own | opp | neutral);
                            let count = relocate.count_ones();
                            if dest.count_ones() < count {
                                // I14: not enough room.
                                ended = Some(Outcome::win(
                                    colour(1 - me),
                                    Reason::RelocationImpossible,
                                ));
                            } else {
                                // Destinations are drawn for the sources in canonical order
                                // (columns, then rows); only the neutral disc's turn among
                                // them matters for the board.
                                let lifted_neutral = relocate & neutral;
                                let neutral_turn = if lifted_neutral != 0 {
                                    let key = |i: u32| ((i % n) << 4) | (i / n);
                                    let kn = key(lifted_neutral.trailing_zeros());
                                    let mut m = relocate;
                                    let mut rank = 0;
                                    while m != 0 {
                                        rank += u32::from(key(m.trailing_zeros()) < kn);
                                        m &= m - 1;
                                    }
                                    rank
                                } else {
                                    u32::MAX
                                };
                                let mut landed = 0u64;
                                for j in 0..count {
                                    let d = nth(dest, below(rng, dest.count_ones() as usize));
                                    dest &= !(1 << d);
                                    if j == neutral_turn {
                                        neutral = neutral & !lifted_neutral | 1 << d;
                                    } else {
                                        landed |= 1 << d;
                                    }
                                }
                                opp = opp & !(relocate & !lifted_neutral) | landed;
                                // A new chain of the opponent runs through a relocated disc.
                                let mut m = landed;
                                while m != 0 {
                                    if joins(1 - me, opp, m.trailing_zeros()) {
                                        ended =
                                            Some(Outcome::win(colour(1 - me), Reason::Connection));
                                        break;
                                    }
                                    m &= m - 1;
                                }
                            }
                        }
                    }
                    discs[me] = own;
                    discs[1 - me] = opp;
                    outcome = ended;
                }
            }
            if let Some(i) = placed {
                discs[me] |= 1 << i;
            }
            // End of the turn (`end_turn`): the next player loses without a move (I18).
            me = 1 - me;
            swapped = false;
            if outcome.is_none() {
                let empty = all & !(discs[0] | discs[1] | neutral);
                let black_first = me == 1 && discs[0].count_ones() == 1 && discs[1] == 0;
                let any = if black_first && pie {
                    true
                } else if discs[me].count_ones() >= initial {
                    false
                } else if !neutral_variant && discs[0] == 0 && discs[1] == 0 {
                    empty != 0
                } else if black_first && free_reply && empty != 0 {
                    true
                } else {
                    (discs[1 - me] | neutral) & around(empty) != 0
                };
                if !any {
                    outcome = Some(Outcome::win(colour(1 - me), Reason::NoLegalMove));
                }
            }
        }
        self.white = CellSet(discs[0] as u128);
        self.black = CellSet(discs[1] as u128);
        self.neutral = CellSet(neutral as u128);
        self.to_move = colour(me);
        self.swapped = swapped;
        self.outcome = outcome;
        outcome.unwrap_or_else(|| Outcome::win(colour(1 - me), Reason::NoLegalMove))
    }

    /// Plays to the end of the game as [`Position::playout`] does, except that a player who
    /// can win at once by a regular move's placement (I17) always does so; returns the
    /// outcome. Slower per move, but closer to real play: what the strongest search uses.
    pub fn playout_decisive<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Outcome {
        loop {
            if let Some(o) = self.outcome {
                return o;
            }
            if let Some((from, to)) = self.winning_regular() {
                let s = self.stage(from, to);
                self.finish(s, &[]);
                continue;
            }
            if self.random_step_inline(rng).is_none() {
                // Unreachable: a game in play always has a move (I18 ends it otherwise).
                let o = Outcome::win(self.to_move.other(), Reason::NoLegalMove);
                self.outcome = Some(o);
                return o;
            }
        }
    }

    /// A regular move (from, to) whose placement on `from` joins the mover's edges (I17), if
    /// any (the first such `from` in index order, its first empty neighbour). Outside the first
    /// turns: White's first placement and Black's first turn are left to the random moves.
    pub(super) fn winning_regular(&self) -> Option<(u8, u8)> {
        let me = self.to_move;
        let own = self.discs(me);
        if own.len() + 1 < self.options.size as u32
            || self.hand(me) == 0
            || self.is_first_placement()
            || self.is_black_first_turn()
        {
            return None;
        }
        let (a, b) = self.edges(me);
        let empty = self.empty_cells();
        let movable = self.targets().intersection(self.rh.neighbours(empty));
        // A cell joins an edge when it lies on it or next to a group of own discs touching it.
        let near_a = self
            .rh
            .neighbours(self.rh.flood(a.intersection(own), own))
            .union(a);
        let movable = movable.intersection(near_a);
        if movable.is_empty() {
            return None;
        }
        let near_b = self
            .rh
            .neighbours(self.rh.flood(b.intersection(own), own))
            .union(b);
        let from = movable.intersection(near_b).first()?;
        let to = self.nb(from).intersection(empty).first()?;
        Some((from, to))
    }

    /// Chooses a random move, plays it, and returns it.
    pub fn random_step<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<Move> {
        self.random_step_inline(rng)
    }

    #[inline(always)]
    fn random_step_inline<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<Move> {
        if self.outcome.is_some() {
            return None;
        }
        let empty = self.empty_cells();
        if self.is_first_placement() {
            let i = empty.nth(below(rng, empty.len().max(1) as usize) as u32)?;
            let m = self.place_move(i);
            self.play(&m);
            return Some(m);
        }
        let has_hand = self.hand(self.to_move) > 0;
        let mut extra = 0;
        let (mut swap, mut free) = (false, false);
        if self.is_black_first_turn() {
            swap = self.options.pie;
            free = self.options.free_reply && has_hand;
            extra = u32::from(swap) + if free { empty.len() } else { 0 };
        }
        let targets = self.targets();
        let mut counts = [0u32; 6];
        let mut froms = [CellSet::EMPTY; 6];
        let mut total = 0;
        if has_hand {
            for (k, d) in Direction::ALL.into_iter().enumerate() {
                froms[k] = targets.intersection(self.rh.shift(empty, d.opposite()));
                counts[k] = froms[k].len();
                total += counts[k];
            }
        }
        if total + extra == 0 {
            return None;
        }
        let mut r = below(rng, (total + extra) as usize) as u32;
        if r >= total {
            r -= total;
            let m = if swap && r == 0 {
                Move::swap()
            } else {
                let i = empty.nth(r - u32::from(swap))?;
                self.place_move(i)
            };
            let _ = free;
            self.play(&m);
            return Some(m);
        }
        let mut k = 0;
        while r >= counts[k] {
            r -= counts[k];
            k += 1;
        }
        let from = froms[k].nth(r)?;
        let to = (from as i32 + self.delta(Direction::ALL[k])) as u8;
        let s = self.stage(from, to);
        let mut mv = self.bare_regular(from, to);
        let n = s.relocate.len() as usize;
        let mut rels = [(0u8, 0u8); MAX_RELOCATIONS];
        let mut dest = self.stage_empty(&s);
        if s.ended.is_none() && n > 0 && dest.len() as usize >= n {
            let (src, k) = self.sorted_sources(&s);
            for (j, &p) in src[..k].iter().enumerate() {
                let d = dest.nth(below(rng, dest.len() as usize) as u32)?;
                dest.remove(d);
                let si = self.rh.index(unpack(p))?;
                rels[j] = (si, d);
                mv.rel[j] = [p, self.packed(d)];
            }
            mv.count = k as u8;
            self.finish(s, &rels[..k]);
        } else {
            self.finish(s, &[]);
        }
        Some(mv)
    }
}

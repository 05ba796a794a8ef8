//! The rules of a turn in EXXIT (X10–X19) over a [`Position`]: the dances of destruction
//! (X12–X14), the legal moves, the check of a move with the rule it breaks, playing a move (a
//! dance, an expansion and its chain X16, a placement, a pass, a swap), the repetition history
//! and perft.
//!
//! Repetition (X19): only dances and passes are reversible; a placed disc leaves a hand for
//! good until an expansion, and an expansion shrinks the supply for good. So a position can only
//! recur among the positions since the last placement or expansion, in which tiles, hands and
//! supply are constant. The history keeps, for those positions, a Zobrist-style key: the XOR
//! over the stacks of a 64-bit mix of (cell, height, discs), with the side to move mixed in.
use super::grid::{dir_index, hex, index, GRID, OFF, STEP, STEP8};
use super::notation::parse_move;
use super::position::{colour, Position};
use super::{Move, MoveList};
use crate::games::{Colour, GameKind, IllegalMove, ParseMoveError};
use crate::hex::Hex;

/// A move by cell indices, as the random playouts draw and play it.
#[derive(Clone, Copy)]
pub(super) enum Fast {
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

/// Why a dance given as `from-target` is refused, or whether it drops discs into outer space.
type DanceCheck = Result<bool, String>;

impl Position {
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
    /// `V`: on the AVX2 path (see [`set_lane`](super::lanes::set_lane)).
    pub(super) fn apply_fast<const V: bool>(&mut self, mv: Fast, log: &mut impl FnMut(Hex)) {
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

//! inpHeXion: its rules (I1–I19, below), and the board, moves, move generation and notation
//! that implement them.
//!
#![doc = include_str!("rules.md")]
//!
//! # How the rules are implemented
//!
//! The board is a [`Rhombus`] with three [`CellSet`] bitboards (white, black, neutral). Hands
//! are not stored: a hand is always the initial hand (I4) minus that colour's discs on the board.
//! The phase of the game follows from the board too:
//! - White's first placement (I5) is due when no white or black disc is on the board (never in
//!   the `neutral` variant, I15);
//! - Black's first turn (I7, I8) is when Black is to move with exactly one white disc and no black
//!   disc, unless the previous move was `swap` (then the `swapped` flag is set).
//!
//! This is also what a position given with [`Position::from_line`] means.
//!
//! A [`Move`] is 16 bytes, `Copy`. Cells inside it are packed as `column << 4 | row`, so sorting
//! packed cells sorts them "columns-then-rows", the canonical relocation order.
mod notation;
#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::OnceLock;

use rand::Rng;

use super::{
    below, BadPosition, Colour, GameKind, IllegalMove, OptionError, Outcome, ParseMoveError, Reason,
};
use crate::hex::{CellSet, Direction, Hex, Rhombus};

pub use notation::cell_name;

/// The index in [`Direction::ALL`] of each direction's opposite.
const OPPOSITE: [usize; 6] = [1, 0, 5, 4, 3, 2];

/// The most discs one move can relocate (the neighbours of the cell the mover placed on).
pub const MAX_RELOCATIONS: usize = 6;

/// Variant options (I1, I7, I8, I15).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Options {
    pub size: u8,
    pub pie: bool,
    pub free_reply: bool,
    pub neutral: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            size: 7,
            pie: false,
            free_reply: false,
            neutral: false,
        }
    }
}

impl Options {
    /// Reads option words (`size=7`, `pie`, `free-reply`, `neutral`), case-insensitive.
    pub fn parse(words: &[&str]) -> Result<Options, OptionError> {
        let mut o = Options::default();
        for w in words {
            let lw = w.to_ascii_lowercase();
            if let Some(v) = lw.strip_prefix("size=") {
                match v.parse::<u8>() {
                    Ok(n) if (4..=11).contains(&n) => o.size = n,
                    _ => return Err(OptionError::Bad(format!("{lw} (I1: size 4 to 11)"))),
                }
            } else {
                match lw.as_str() {
                    "pie" => o.pie = true,
                    "free-reply" => o.free_reply = true,
                    "neutral" => o.neutral = true,
                    _ => return Err(OptionError::Unknown((*w).to_string())),
                }
            }
        }
        if o.neutral && o.size % 2 == 0 {
            return Err(OptionError::Bad(
                "neutral needs an odd size (I15)".to_string(),
            ));
        }
        Ok(o)
    }

    /// Canonical words: `size=N` always, then `pie`, `free-reply`, `neutral` when set.
    pub fn words(&self) -> Vec<String> {
        let mut v = vec![format!("size={}", self.size)];
        if self.pie {
            v.push("pie".to_string());
        }
        if self.free_reply {
            v.push("free-reply".to_string());
        }
        if self.neutral {
            v.push("neutral".to_string());
        }
        v
    }

    /// Discs in each hand at the start (I4): ⌈N²/2⌉, one fewer with the neutral disc.
    pub fn initial_hand(&self) -> u32 {
        let n = self.size as u32;
        (n * n).div_ceil(2) - u32::from(self.neutral)
    }
}

/// What a cell holds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    White,
    Black,
    Neutral,
}

impl Piece {
    /// The disc of a colour.
    pub const fn of(c: Colour) -> Piece {
        match c {
            Colour::First => Piece::White,
            Colour::Second => Piece::Black,
        }
    }
}

/// A cell packed as `column << 4 | row` (both 0-based, below 16).
#[inline]
const fn pack(h: Hex) -> u8 {
    ((h.q as u8) << 4) | h.r as u8
}

#[inline]
const fn unpack(p: u8) -> Hex {
    Hex::new((p >> 4) as i32, (p & 15) as i32)
}

fn packable(h: Hex) -> bool {
    (0..16).contains(&h.q) && (0..16).contains(&h.r)
}

/// What kind of move a [`Move`] is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// A disc from hand on a cell: White's first move (I5) or Black's free reply (I8).
    Place(Hex),
    /// The pie swap (I7).
    Swap,
    /// A regular move (I6): the opponent (or neutral) disc on `from` goes to `to`, the mover's
    /// disc is placed on `from`; relocations are in [`Move::relocations`].
    Regular { from: Hex, to: Hex },
}

const KIND_PLACE: u8 = 0;
const KIND_SWAP: u8 = 1;
const KIND_REGULAR: u8 = 2;

/// A move (Copy, 16 bytes, no heap). Relocations are kept sorted by source cell
/// "columns-then-rows"; unused slots are zero, so equal moves compare equal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    kind: u8,
    from: u8,
    to: u8,
    count: u8,
    rel: [[u8; 2]; MAX_RELOCATIONS],
}

impl Move {
    /// A placement from hand (I5, I8). `None` for a cell too far out to be on any board.
    pub fn place(cell: Hex) -> Option<Move> {
        packable(cell).then(|| Move {
            kind: KIND_PLACE,
            from: pack(cell),
            to: 0,
            count: 0,
            rel: [[0; 2]; MAX_RELOCATIONS],
        })
    }

    /// The pie swap (I7).
    pub const fn swap() -> Move {
        Move {
            kind: KIND_SWAP,
            from: 0,
            to: 0,
            count: 0,
            rel: [[0; 2]; MAX_RELOCATIONS],
        }
    }

    /// A regular move with relocations `(source, destination)` in any order (they are sorted).
    /// `None` when a cell is too far out for any board, when a source repeats or when there are
    /// more than [`MAX_RELOCATIONS`].
    pub fn regular(from: Hex, to: Hex, relocations: &[(Hex, Hex)]) -> Option<Move> {
        if !packable(from) || !packable(to) || relocations.len() > MAX_RELOCATIONS {
            return None;
        }
        let mut rel = [[0u8; 2]; MAX_RELOCATIONS];
        for (i, &(s, d)) in relocations.iter().enumerate() {
            if !packable(s) || !packable(d) {
                return None;
            }
            rel[i] = [pack(s), pack(d)];
        }
        let n = relocations.len();
        rel[..n].sort_unstable();
        if rel[..n].windows(2).any(|w| w[0][0] == w[1][0]) {
            return None;
        }
        Some(Move {
            kind: KIND_REGULAR,
            from: pack(from),
            to: pack(to),
            count: n as u8,
            rel,
        })
    }

    /// What kind of move this is.
    pub fn kind(&self) -> MoveKind {
        match self.kind {
            KIND_PLACE => MoveKind::Place(unpack(self.from)),
            KIND_SWAP => MoveKind::Swap,
            _ => MoveKind::Regular {
                from: unpack(self.from),
                to: unpack(self.to),
            },
        }
    }

    pub fn is_swap(&self) -> bool {
        self.kind == KIND_SWAP
    }

    /// The cell of the disc moved by a regular move.
    pub fn from(&self) -> Option<Hex> {
        (self.kind == KIND_REGULAR).then(|| unpack(self.from))
    }

    /// The cell a regular move's disc moves to.
    pub fn to(&self) -> Option<Hex> {
        (self.kind == KIND_REGULAR).then(|| unpack(self.to))
    }

    /// The cell where the mover's disc from hand lands: the cell of a placement, or the cell a
    /// regular move's disc left. `None` for a swap.
    pub fn placed(&self) -> Option<Hex> {
        (self.kind != KIND_SWAP).then(|| unpack(self.from))
    }

    /// The relocations `(source, destination)`, sorted by source columns-then-rows.
    pub fn relocations(&self) -> impl ExactSizeIterator<Item = (Hex, Hex)> + '_ {
        self.rel[..self.count as usize]
            .iter()
            .map(|&[s, d]| (unpack(s), unpack(d)))
    }

    pub fn relocation_count(&self) -> usize {
        self.count as usize
    }
}

impl fmt::Display for Move {
    /// Canonical notation: `d4`, `swap`, `c3-d3`, `c3-d3 e5>a1 f2>b7`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            MoveKind::Place(h) => f.write_str(&cell_name(h)),
            MoveKind::Swap => f.write_str("swap"),
            MoveKind::Regular { from, to } => {
                write!(f, "{}-{}", cell_name(from), cell_name(to))?;
                for (s, d) in self.relocations() {
                    write!(f, " {}>{}", cell_name(s), cell_name(d))?;
                }
                Ok(())
            }
        }
    }
}

/// A reusable list of moves; generation into it allocates nothing once it has grown.
#[derive(Clone, Debug, Default)]
pub struct MoveList(Vec<Move>);

impl MoveList {
    pub fn new() -> MoveList {
        MoveList(Vec::new())
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.0.iter()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn clear(&mut self) {
        self.0.clear()
    }
    pub fn as_slice(&self) -> &[Move] {
        &self.0
    }
    pub fn contains(&self, m: &Move) -> bool {
        self.0.contains(m)
    }
}

/// The board right after the move and placement of a regular move (I16), before relocation.
#[derive(Clone, Copy)]
struct Stage {
    own: CellSet,
    opp: CellSet,
    neutral: CellSet,
    /// Set when the first connection check ends the game.
    ended: Option<Outcome>,
    /// The discs to relocate (I10): surrounded by the mover now, not before.
    relocate: CellSet,
}

/// An inpHeXion position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    options: Options,
    rh: Rhombus,
    white: CellSet,
    black: CellSet,
    neutral: CellSet,
    to_move: Colour,
    /// Right after a swap (I7): Black's first turn is used up.
    swapped: bool,
    outcome: Option<Outcome>,
}

impl Position {
    /// The start position. Options outside the rules (size outside 4..=11) are clamped.
    pub fn new(options: &Options) -> Position {
        let mut options = options.clone();
        options.size = options.size.clamp(4, 11);
        if options.size % 2 == 0 {
            options.neutral = false;
        }
        let rh = Rhombus::new(options.size).unwrap_or_else(unreachable_rhombus);
        let mut neutral = CellSet::EMPTY;
        if options.neutral {
            let c = (options.size / 2) as i32;
            if let Some(i) = rh.index(Hex::new(c, c)) {
                neutral.insert(i);
            }
        }
        Position {
            options,
            rh,
            white: CellSet::EMPTY,
            black: CellSet::EMPTY,
            neutral,
            to_move: Colour::First,
            swapped: false,
            outcome: None,
        }
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn to_move(&self) -> Colour {
        self.to_move
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn size(&self) -> u8 {
        self.options.size
    }

    pub fn rhombus(&self) -> Rhombus {
        self.rh
    }

    /// The discs of a colour.
    pub fn discs(&self, c: Colour) -> CellSet {
        match c {
            Colour::First => self.white,
            Colour::Second => self.black,
        }
    }

    /// The neutral disc's cell as a set (empty without the variant).
    pub fn neutral_disc(&self) -> CellSet {
        self.neutral
    }

    /// The index of a cell in the board's [`CellSet`]s (`None` off the board).
    pub fn cell_index(&self, h: Hex) -> Option<u8> {
        self.rh.index(h)
    }

    /// The empty cells.
    pub fn empty_cells(&self) -> CellSet {
        self.rh
            .all()
            .difference(self.white.union(self.black).union(self.neutral))
    }

    /// What is on a cell (`None`: empty or off the board).
    pub fn cell(&self, h: Hex) -> Option<Piece> {
        let i = self.rh.index(h)?;
        if self.white.contains(i) {
            Some(Piece::White)
        } else if self.black.contains(i) {
            Some(Piece::Black)
        } else if self.neutral.contains(i) {
            Some(Piece::Neutral)
        } else {
            None
        }
    }

    /// Discs left in a colour's hand (I4).
    pub fn hand(&self, c: Colour) -> u32 {
        self.options
            .initial_hand()
            .saturating_sub(self.discs(c).len())
    }

    /// Whether the last move was a swap (I7).
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    /// White's first move, a placement (I5), is due.
    pub fn is_first_placement(&self) -> bool {
        !self.options.neutral && self.white.is_empty() && self.black.is_empty()
    }

    /// Black's first turn, where `pie` (I7) and `free-reply` (I8) apply.
    pub fn is_black_first_turn(&self) -> bool {
        self.to_move == Colour::Second
            && !self.swapped
            && self.white.len() == 1
            && self.black.is_empty()
    }

    /// When the game was won by connection: the winner's groups that join both of its edges.
    pub fn winning_chain(&self) -> Option<CellSet> {
        let o = self.outcome?;
        if o.reason != Reason::Connection {
            return None;
        }
        let c = o.winner?;
        let (a, b) = self.edges(c);
        let d = self.discs(c);
        let chain = self
            .rh
            .flood(a.intersection(d), d)
            .intersection(self.rh.flood(b.intersection(d), d));
        (!chain.is_empty()).then_some(chain)
    }

    /// A colour's two edges (I3): White rows 1 and N, Black columns a and the last.
    pub fn edges(&self, c: Colour) -> (CellSet, CellSet) {
        tables(self.options.size).edges[c.index()]
    }

    /// Whether `discs` of colour `c` join c's edges (I17), by a flood from the first edge.
    fn has_chain(&self, c: Colour, discs: CellSet) -> bool {
        let (a, b) = self.edges(c);
        let start = a.intersection(discs);
        !start.is_empty() && self.rh.flood(start, discs).intersects(b)
    }

    /// Whether the group of `discs` through `cell` joins c's edges (I17). A chain that appears
    /// during a move runs through a cell the move filled, so the engine floods from there.
    #[inline(always)]
    fn group_joins(&self, c: Colour, discs: CellSet, cell: u8) -> bool {
        if discs.len() < self.options.size as u32 {
            return false;
        }
        let (a, b) = self.edges(c);
        if !a.intersects(discs) || !b.intersects(discs) {
            return false;
        }
        self.rh.joins(cell, discs, a, b)
    }

    /// The neighbours of cell `i`.
    #[inline]
    fn nb(&self, i: u8) -> CellSet {
        tables(self.options.size).neighbours[i as usize]
    }

    /// The discs the side to move may move (I6, I15): opponent discs and the neutral disc.
    #[inline]
    fn targets(&self) -> CellSet {
        self.discs(self.to_move.other()).union(self.neutral)
    }

    /// Moves the disc on `from` to `to` and places the mover's disc on `from`; checks
    /// connections and finds the discs to relocate (I16).
    ///
    /// Only a neighbour of `from` can become surrounded by the mover (I9): `from` is the only
    /// cell that turned into a mover's disc. And no neighbour of `from` was surrounded by the
    /// mover before the move, since `from` held an opponent or the neutral disc. So the discs
    /// to relocate (I10: surrounded now, not before) are the opponent and neutral discs next to
    /// `from` (the moved disc included) whose neighbours are all the mover's.
    #[inline(always)]
    fn stage(&self, from: u8, to: u8) -> Stage {
        let me = self.to_move;
        let mut own = self.discs(me);
        own.insert(from);
        let mut opp = self.discs(me.other());
        let mut neutral = self.neutral;
        let moved_neutral = neutral.contains(from);
        if moved_neutral {
            neutral.remove(from);
            neutral.insert(to);
        } else {
            opp.remove(from);
            opp.insert(to);
        }
        let ended = if self.group_joins(me, own, from) {
            Some(Outcome::win(me, Reason::Connection))
        } else if !moved_neutral && self.group_joins(me.other(), opp, to) {
            Some(Outcome::win(me.other(), Reason::Connection))
        } else {
            None
        };
        let mut relocate = CellSet::EMPTY;
        if ended.is_none() {
            for c in self.nb(from).intersection(opp.union(neutral)) {
                if self.nb(c).difference(own).is_empty() {
                    relocate.insert(c);
                }
            }
        }
        Stage {
            own,
            opp,
            neutral,
            ended,
            relocate,
        }
    }

    /// The destinations allowed for relocations after `s` (I10): the empty cells.
    #[inline]
    fn stage_empty(&self, s: &Stage) -> CellSet {
        self.rh
            .all()
            .difference(s.own.union(s.opp).union(s.neutral))
    }

    /// Finishes a regular move from its stage with relocations `(source index, dest index)`.
    #[inline(always)]
    fn finish(&mut self, s: Stage, rels: &[(u8, u8)]) {
        let me = self.to_move;
        let mut opp = s.opp;
        let mut neutral = s.neutral;
        let mut outcome = s.ended;
        if outcome.is_none() && !s.relocate.is_empty() {
            if rels.len() < s.relocate.len() as usize {
                // I14: not enough room (a checked move gives every destination otherwise).
                outcome = Some(Outcome::win(me.other(), Reason::RelocationImpossible));
            } else {
                let mut lifted_opp = CellSet::EMPTY;
                let mut lifted_neutral = CellSet::EMPTY;
                for &(src, _) in rels {
                    if neutral.contains(src) {
                        lifted_neutral.insert(src);
                    } else {
                        lifted_opp.insert(src);
                    }
                }
                opp = opp.difference(lifted_opp);
                neutral = neutral.difference(lifted_neutral);
                for &(src, dst) in rels {
                    if lifted_neutral.contains(src) {
                        neutral.insert(dst);
                    } else {
                        opp.insert(dst);
                    }
                }
                // A new chain of the opponent runs through a relocated disc (I16, I17).
                if rels.iter().any(|&(src, dst)| {
                    !lifted_neutral.contains(src) && self.group_joins(me.other(), opp, dst)
                }) {
                    outcome = Some(Outcome::win(me.other(), Reason::Connection));
                }
            }
        }
        match me {
            Colour::First => {
                self.white = s.own;
                self.black = opp;
            }
            Colour::Second => {
                self.black = s.own;
                self.white = opp;
            }
        }
        self.neutral = neutral;
        self.end_turn(outcome);
    }

    /// Passes the turn; records `outcome`, or a loss of the next player without a move (I18).
    #[inline(always)]
    fn end_turn(&mut self, outcome: Option<Outcome>) {
        self.to_move = self.to_move.other();
        self.swapped = false;
        self.outcome = outcome;
        if self.outcome.is_none() && !self.has_any_move() {
            self.outcome = Some(Outcome::win(self.to_move.other(), Reason::NoLegalMove));
        }
    }

    /// Whether the side to move has a legal move (ignoring a finished game).
    #[inline(always)]
    fn has_any_move(&self) -> bool {
        if self.is_black_first_turn() && self.options.pie {
            return true;
        }
        if self.hand(self.to_move) == 0 {
            return false;
        }
        let empty = self.empty_cells();
        if self.is_first_placement() {
            return !empty.is_empty();
        }
        if self.is_black_first_turn() && self.options.free_reply && !empty.is_empty() {
            return true;
        }
        self.targets().intersects(self.rh.neighbours(empty))
    }

    /// The index step of one move in direction `d`.
    #[inline]
    fn delta(&self, d: Direction) -> i32 {
        let n = self.options.size as i32;
        match d {
            Direction::E => 1,
            Direction::W => -1,
            Direction::SE => n,
            Direction::NW => -n,
            Direction::NE => 1 - n,
            Direction::SW => n - 1,
        }
    }

    #[inline]
    fn packed(&self, i: u8) -> u8 {
        pack(self.rh.hex(i))
    }

    /// Every legal move, each assignment of relocation destinations its own move (I10).
    /// Nothing when the game is over.
    pub fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let empty = self.empty_cells();
        if self.is_first_placement() {
            for i in empty {
                out.0.push(self.place_move(i));
            }
            return;
        }
        if self.is_black_first_turn() {
            if self.options.pie {
                out.0.push(Move::swap());
            }
            if self.options.free_reply && self.hand(self.to_move) > 0 {
                for i in empty {
                    out.0.push(self.place_move(i));
                }
            }
        }
        if self.hand(self.to_move) == 0 {
            return;
        }
        let targets = self.targets();
        for d in Direction::ALL {
            let froms = targets.intersection(self.rh.shift(empty, d.opposite()));
            let delta = self.delta(d);
            for from in froms {
                let to = (from as i32 + delta) as u8;
                let s = self.stage(from, to);
                self.push_regular(out, from, to, &s);
            }
        }
    }

    fn place_move(&self, i: u8) -> Move {
        Move {
            kind: KIND_PLACE,
            from: self.packed(i),
            to: 0,
            count: 0,
            rel: [[0; 2]; MAX_RELOCATIONS],
        }
    }

    fn bare_regular(&self, from: u8, to: u8) -> Move {
        Move {
            kind: KIND_REGULAR,
            from: self.packed(from),
            to: self.packed(to),
            count: 0,
            rel: [[0; 2]; MAX_RELOCATIONS],
        }
    }

    /// The sources of `s` in canonical order (packed cells, columns-then-rows).
    fn sorted_sources(&self, s: &Stage) -> ([u8; MAX_RELOCATIONS], usize) {
        let mut src = [0u8; MAX_RELOCATIONS];
        let mut k = 0;
        for i in s.relocate.iter().take(MAX_RELOCATIONS) {
            src[k] = self.packed(i);
            k += 1;
        }
        src[..k].sort_unstable();
        (src, k)
    }

    fn push_regular(&self, out: &mut MoveList, from: u8, to: u8, s: &Stage) {
        let base = self.bare_regular(from, to);
        let k = s.relocate.len() as usize;
        let empty = self.stage_empty(s);
        if k == 0 || s.ended.is_some() || (empty.len() as usize) < k {
            out.0.push(base);
            return;
        }
        let (src, k) = self.sorted_sources(s);
        let mut dests = [0u8; 128];
        let mut m = 0;
        for i in empty {
            dests[m] = self.packed(i);
            m += 1;
        }
        let mut mv = base;
        mv.count = k as u8;
        for (j, slot) in mv.rel.iter_mut().take(k).enumerate() {
            slot[0] = src[j];
        }
        fn rec(out: &mut MoveList, mv: &mut Move, j: usize, dests: &[u8], used: u128) {
            if j == mv.count as usize {
                out.0.push(*mv);
                return;
            }
            for (t, &d) in dests.iter().enumerate() {
                if used >> t & 1 == 0 {
                    mv.rel[j][1] = d;
                    rec(out, mv, j + 1, dests, used | 1 << t);
                }
            }
        }
        rec(out, &mut mv, 0, &dests[..m], 0);
    }

    /// Plays a move that [`Position::check_move`] accepted (or that [`Position::legal_moves`]
    /// gave); fast, and unspecified for other moves.
    pub fn play(&mut self, mv: &Move) {
        match mv.kind {
            KIND_SWAP => {
                // I7: the players exchange colours; the board stays and Black moves next.
                self.swapped = true;
            }
            KIND_PLACE => {
                let Some(i) = self.rh.index(unpack(mv.from)) else {
                    return;
                };
                match self.to_move {
                    Colour::First => self.white.insert(i),
                    Colour::Second => self.black.insert(i),
                }
                self.end_turn(None);
            }
            _ => {
                let (Some(from), Some(to)) =
                    (self.rh.index(unpack(mv.from)), self.rh.index(unpack(mv.to)))
                else {
                    return;
                };
                let s = self.stage(from, to);
                let mut rels = [(0u8, 0u8); MAX_RELOCATIONS];
                let mut k = 0;
                for (a, b) in mv.relocations() {
                    if let (Some(a), Some(b)) = (self.rh.index(a), self.rh.index(b)) {
                        rels[k] = (a, b);
                        k += 1;
                    }
                }
                self.finish(s, &rels[..k]);
            }
        }
    }

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
    fn winning_regular(&self) -> Option<(u8, u8)> {
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

    /// Checks a move against the rules; the error names the rule.
    pub fn check_move(&self, mv: &Move) -> Result<(), IllegalMove> {
        if let Some(o) = self.outcome {
            return Err(IllegalMove::new(format!(
                "the game is over ({})",
                o.describe(GameKind::Inphexion)
            )));
        }
        let n = self.options.size;
        let on_board = |h: Hex| -> Result<u8, IllegalMove> {
            self.rh.index(h).ok_or_else(|| {
                IllegalMove::new(format!("{} is not on the {n}×{n} board (I1)", cell_name(h)))
            })
        };
        match mv.kind() {
            MoveKind::Swap => {
                if !self.options.pie {
                    return Err(IllegalMove::new("swap needs the pie variant (I7)"));
                }
                if !self.is_black_first_turn() {
                    return Err(IllegalMove::new(
                        "swap replaces Black's first turn only, once (I7)",
                    ));
                }
                Ok(())
            }
            MoveKind::Place(h) => {
                let i = on_board(h)?;
                let first = self.is_first_placement();
                let free = self.is_black_first_turn() && self.options.free_reply;
                if !first && !free {
                    if self.options.neutral && self.white.is_empty() && self.black.is_empty() {
                        return Err(IllegalMove::new(
                            "with the neutral disc White's first move is a regular move of the neutral disc (I15): FROM-TO",
                        ));
                    }
                    return Err(IllegalMove::new(
                        "a disc is placed from hand only on White's first move (I5) or Black's free reply (I8); a regular move is FROM-TO (I6)",
                    ));
                }
                if !self.empty_cells().contains(i) {
                    return Err(IllegalMove::new(format!(
                        "{} is not empty (I8)",
                        cell_name(h)
                    )));
                }
                Ok(())
            }
            MoveKind::Regular { from: fh, to: th } => {
                if self.is_first_placement() {
                    return Err(IllegalMove::new(
                        "White's first move places a disc on a cell, e.g. d4 (I5)",
                    ));
                }
                let from = on_board(fh)?;
                let to = on_board(th)?;
                let (fname, tname) = (cell_name(fh), cell_name(th));
                if !self.targets().contains(from) {
                    let what = if self.discs(self.to_move).contains(from) {
                        "your own disc"
                    } else {
                        "no disc"
                    };
                    return Err(IllegalMove::new(format!(
                        "{fname} holds {what}: a regular move moves an opponent disc{} (I6)",
                        if self.options.neutral {
                            " or the neutral disc (I15)"
                        } else {
                            ""
                        }
                    )));
                }
                if !fh.is_adjacent(th) {
                    return Err(IllegalMove::new(format!(
                        "{tname} is not a neighbour of {fname}: a disc moves one step (I6)"
                    )));
                }
                if !self.empty_cells().contains(to) {
                    return Err(IllegalMove::new(format!(
                        "{tname} is not empty: a disc moves to an empty neighbour (I6)"
                    )));
                }
                if self.hand(self.to_move) == 0 {
                    return Err(IllegalMove::new("no disc left in hand to place (I4, I18)"));
                }
                self.check_relocations(mv, from, to)
            }
        }
    }

    fn check_relocations(&self, mv: &Move, from: u8, to: u8) -> Result<(), IllegalMove> {
        let s = self.stage(from, to);
        let bare = format!(
            "{}-{}",
            cell_name(unpack(mv.from)),
            cell_name(unpack(mv.to))
        );
        let given = mv.relocation_count();
        let k = s.relocate.len() as usize;
        let empty = self.stage_empty(&s);
        if s.ended.is_some() || k == 0 || (empty.len() as usize) < k {
            if given == 0 {
                return Ok(());
            }
            let why = if s.ended.is_some() {
                format!("{bare} ends the game at the first connection check, so nothing is relocated (I16): write it {bare}")
            } else if k == 0 {
                format!(
                    "{bare} surrounds no disc anew, so nothing is relocated (I10): write it {bare}"
                )
            } else {
                format!("{bare} must relocate {k} discs but only {} cells are empty: relocation is impossible (I14); write it {bare}", empty.len())
            };
            return Err(IllegalMove::new(why));
        }
        let sources: Vec<Hex> = s.relocate.iter().map(|i| self.rh.hex(i)).collect();
        let mut used = CellSet::EMPTY;
        for (src, dst) in mv.relocations() {
            let si = self.rh.index(src);
            if !si.is_some_and(|i| s.relocate.contains(i)) {
                return Err(IllegalMove::new(format!(
                    "{bare} does not relocate {}: only discs newly surrounded by the mover are relocated (I10, I11); it relocates {}",
                    cell_name(src),
                    names(&sources)
                )));
            }
            let Some(di) = self.rh.index(dst).filter(|&i| empty.contains(i)) else {
                let why = if self.rh.index(dst).is_some_and(|i| s.relocate.contains(i)) {
                    "the cells discs are lifted from may not be destinations"
                } else {
                    "a destination must be an empty cell"
                };
                return Err(IllegalMove::new(format!(
                    "{}>{}: {why} (I10)",
                    cell_name(src),
                    cell_name(dst)
                )));
            };
            if used.contains(di) {
                return Err(IllegalMove::new(format!(
                    "two discs cannot be relocated to {}: each goes to a different empty cell (I10)",
                    cell_name(dst)
                )));
            }
            used.insert(di);
        }
        let missing: Vec<Hex> = sources
            .iter()
            .copied()
            .filter(|&h| !mv.relocations().any(|(s, _)| s == h))
            .collect();
        if let Some(&first) = missing.first() {
            let example = empty
                .iter()
                .find(|&i| !used.contains(i))
                .map(|i| cell_name(self.rh.hex(i)))
                .unwrap_or_default();
            return Err(IllegalMove::new(format!(
                "{bare} relocates {}: give {} destination, e.g. {bare} {}>{example} (I10)",
                names(&sources),
                if sources.len() == 1 { "its" } else { "every" },
                cell_name(first),
            )));
        }
        Ok(())
    }

    /// Reads move text (tolerant notation: case and spaces are free, relocations in any order).
    pub fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        notation::parse(text, self.options.size)
    }

    /// The protocol's position line.
    pub fn to_line(&self) -> String {
        let n = self.options.size;
        let mut s = String::with_capacity(n as usize * (n as usize + 1) + 40);
        for r in 0..n {
            if r > 0 {
                s.push('/');
            }
            for q in 0..n {
                s.push(match self.cell(Hex::new(q as i32, r as i32)) {
                    None => '.',
                    Some(Piece::White) => 'w',
                    Some(Piece::Black) => 'b',
                    Some(Piece::Neutral) => 'n',
                });
            }
        }
        s.push_str("|to-move ");
        s.push_str(GameKind::Inphexion.colour_name(self.to_move));
        s.push_str(&format!(
            "|hand {}/{}",
            self.hand(Colour::First),
            self.hand(Colour::Second)
        ));
        if self.swapped {
            s.push_str("|swapped");
        }
        s
    }

    /// Reads a position line (the protocol's `setpos`), checking everything the rules need.
    /// The phase follows from the board (see the module docs); the outcome is recomputed: a
    /// connection wins (I17), a side to move without a legal move loses (I18). A loss by I14
    /// leaves no trace on the board, so such a position reads as a game in play.
    pub fn from_line(options: &Options, line: &str) -> Result<Position, BadPosition> {
        let opts = Options::parse(
            &options
                .words()
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        )
        .map_err(|e| BadPosition::new(e.to_string()))?;
        let mut p = Position::new(&opts);
        p.neutral = CellSet::EMPTY;
        let n = opts.size as usize;
        let mut parts = line.trim().split('|');
        let board = parts.next().unwrap_or("").trim();
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != n {
            return Err(BadPosition::new(format!(
                "the board has {} rows separated by `/`; a {n}×{n} board has {n}",
                rows.len()
            )));
        }
        for (r, row) in rows.iter().enumerate() {
            let cells: Vec<char> = row.trim().chars().collect();
            if cells.len() != n {
                return Err(BadPosition::new(format!(
                    "row {} has {} cells; a {n}×{n} board has {n}",
                    r + 1,
                    cells.len()
                )));
            }
            for (q, ch) in cells.into_iter().enumerate() {
                let i = (r * n + q) as u8;
                match ch.to_ascii_lowercase() {
                    '.' => {}
                    'w' => p.white.insert(i),
                    'b' => p.black.insert(i),
                    'n' => p.neutral.insert(i),
                    other => {
                        return Err(BadPosition::new(format!(
                            "unknown cell letter `{other}` in row {} (use . w b n)",
                            r + 1
                        )))
                    }
                }
            }
        }
        let mut to_move = None;
        let mut hands = None;
        let mut swapped = false;
        for part in parts {
            let part = part.trim().to_ascii_lowercase();
            let words: Vec<&str> = part.split_whitespace().collect();
            match words.as_slice() {
                ["to-move", c] if to_move.is_none() => {
                    to_move = Some(match *c {
                        "white" => Colour::First,
                        "black" => Colour::Second,
                        _ => {
                            return Err(BadPosition::new(format!(
                                "`to-move {c}`: the side to move is white or black"
                            )))
                        }
                    })
                }
                ["hand", h] if hands.is_none() => {
                    let parsed = h
                        .split_once('/')
                        .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)));
                    hands = Some(parsed.ok_or_else(|| {
                        BadPosition::new(format!(
                            "`hand {h}`: the hands are written `hand WHITE/BLACK`, e.g. hand 12/12"
                        ))
                    })?);
                }
                ["swapped"] if !swapped => swapped = true,
                _ => {
                    return Err(BadPosition::new(format!(
                        "unexpected field `{part}`: after the board come `to-move COLOUR`, `hand W/B` and, only after a swap, `swapped`, each once"
                    )))
                }
            }
        }
        let to_move = to_move.ok_or_else(|| BadPosition::new("the `to-move` field is missing"))?;
        let (hw, hb) = hands.ok_or_else(|| BadPosition::new("the `hand W/B` field is missing"))?;
        if opts.neutral && p.neutral.len() != 1 {
            return Err(BadPosition::new(format!(
                "the neutral variant has exactly one neutral disc `n` on the board, not {} (I15)",
                p.neutral.len()
            )));
        }
        if !opts.neutral && !p.neutral.is_empty() {
            return Err(BadPosition::new(
                "a neutral disc `n` needs the neutral variant (I15)",
            ));
        }
        let init = opts.initial_hand();
        let (w, b) = (p.white.len(), p.black.len());
        for (name, count, hand) in [("white", w, hw), ("black", b, hb)] {
            if count > init {
                return Err(BadPosition::new(format!(
                    "{count} {name} discs on the board, more than the {init} a player has (I4)"
                )));
            }
            if hand != init - count {
                return Err(BadPosition::new(format!(
                    "{name}'s hand must be {} (the initial {init} minus {count} on the board), not {hand} (I4)",
                    init - count
                )));
            }
        }
        let expected = if w == b {
            Colour::First
        } else if w == b + 1 {
            Colour::Second
        } else {
            return Err(BadPosition::new(format!(
                "{w} white and {b} black discs cannot occur: White has as many discs as Black or one more (I5, I6)"
            )));
        };
        if to_move != expected {
            return Err(BadPosition::new(format!(
                "with {w} white and {b} black discs {} is to move, not {}",
                GameKind::Inphexion.colour_name(expected),
                GameKind::Inphexion.colour_name(to_move),
            )));
        }
        p.to_move = to_move;
        if swapped {
            if !opts.pie {
                return Err(BadPosition::new("`swapped` needs the pie variant (I7)"));
            }
            if !(w == 1 && b == 0) {
                return Err(BadPosition::new(
                    "`swapped` only follows a swap (I7): one white disc, no black disc, black to move",
                ));
            }
        }
        p.swapped = swapped;
        let wc = p.has_chain(Colour::First, p.white);
        let bc = p.has_chain(Colour::Second, p.black);
        p.outcome = match (wc, bc) {
            (true, true) => {
                return Err(BadPosition::new(
                    "both colours have a chain, which a Hex board cannot hold (I17)",
                ))
            }
            (true, false) => Some(Outcome::win(Colour::First, Reason::Connection)),
            (false, true) => Some(Outcome::win(Colour::Second, Reason::Connection)),
            (false, false) => None,
        };
        if p.outcome.is_none() && !p.has_any_move() {
            p.outcome = Some(Outcome::win(to_move.other(), Reason::NoLegalMove));
        }
        Ok(p)
    }

    /// A readable diagram: rows shifted right, White's edges (top, bottom) marked `W`, Black's
    /// (left, right) marked `B`, then whose turn it is and the hands.
    pub fn diagram(&self) -> String {
        let n = self.options.size as usize;
        let mut s = String::new();
        s.push_str("    ");
        for q in 0..n {
            s.push((b'a' + q as u8) as char);
            s.push(' ');
        }
        s.push_str("  (White joins top and bottom, Black left and right)\n");
        s.push_str("    ");
        s.push_str(&"W ".repeat(n));
        s.push('\n');
        for r in 0..n {
            s.push_str(&format!("{:>2}  {}B ", r + 1, " ".repeat(r)));
            for q in 0..n {
                s.push(match self.cell(Hex::new(q as i32, r as i32)) {
                    None => '.',
                    Some(Piece::White) => 'w',
                    Some(Piece::Black) => 'b',
                    Some(Piece::Neutral) => 'n',
                });
                s.push(' ');
            }
            s.push_str(&format!("B  {}\n", r + 1));
        }
        s.push_str(&format!("{}    ", " ".repeat(n + 2)));
        s.push_str(&"W ".repeat(n));
        s.push('\n');
        let who = |c: Colour| GameKind::Inphexion.colour_name(c);
        match self.outcome {
            Some(o) => s.push_str(&format!("over: {}", o.describe(GameKind::Inphexion))),
            None => s.push_str(&format!("{} to move", who(self.to_move))),
        }
        s.push_str(&format!(
            "; hands white {} black {}",
            self.hand(Colour::First),
            self.hand(Colour::Second)
        ));
        if self.swapped {
            s.push_str("; swapped");
        }
        s.push('\n');
        s
    }

    /// The number of move sequences of length `depth` (a finished game counts 1 and stops).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.outcome.is_some() {
            return 1;
        }
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        if depth == 1 {
            return list.len() as u64;
        }
        list.iter()
            .map(|m| {
                let mut c = self.clone();
                c.play(m);
                c.perft(depth - 1)
            })
            .sum()
    }
}

/// Per-size tables: each cell's neighbours and each colour's edges.
struct Tables {
    neighbours: [CellSet; 121],
    edges: [(CellSet, CellSet); 2],
}

fn tables(size: u8) -> &'static Tables {
    static TABLES: OnceLock<Vec<Tables>> = OnceLock::new();
    let all = TABLES.get_or_init(|| {
        (0..=crate::hex::MAX_SIZE)
            .map(|n| {
                let mut t = Tables {
                    neighbours: [CellSet::EMPTY; 121],
                    edges: [(CellSet::EMPTY, CellSet::EMPTY); 2],
                };
                if let Some(rh) = Rhombus::new(n) {
                    for i in 0..n * n {
                        t.neighbours[i as usize] = rh.neighbours_of(i);
                    }
                    t.edges = [(rh.row(0), rh.row(n - 1)), (rh.column(0), rh.column(n - 1))];
                }
                t
            })
            .collect()
    });
    &all[(size as usize).min(all.len() - 1)]
}

fn names(cells: &[Hex]) -> String {
    cells
        .iter()
        .map(|&h| cell_name(h))
        .collect::<Vec<_>>()
        .join(" and ")
}

#[cold]
fn unreachable_rhombus() -> Rhombus {
    // Sizes are clamped to 4..=11 before, so this is never reached.
    Rhombus::new(7).unwrap_or_else(|| unreachable!("a 7×7 rhombus always exists"))
}

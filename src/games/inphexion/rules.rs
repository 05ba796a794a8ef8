//! The rules of a turn in inpHeXion (I5–I18) over a [`Position`]: the stage of a regular move
//! (move, place, first connection check, the discs to relocate, I16), finishing it (relocation,
//! I10–I14, and the second check), the end of a turn (I18), the legal moves with every
//! assignment of relocation destinations, checking a move with the rule it breaks, playing a
//! move, and perft.
use super::notation::{self, cell_name};
use super::position::Position;
use super::{
    unpack, Move, MoveKind, MoveList, KIND_PLACE, KIND_REGULAR, KIND_SWAP, MAX_RELOCATIONS,
};
use crate::games::{Colour, GameKind, IllegalMove, Outcome, ParseMoveError, Reason};
use crate::hex::{CellSet, Direction, Hex};

/// The board right after the move and placement of a regular move (I16), before relocation.
#[derive(Clone, Copy)]
pub(super) struct Stage {
    pub(super) own: CellSet,
    pub(super) opp: CellSet,
    pub(super) neutral: CellSet,
    /// Set when the first connection check ends the game.
    pub(super) ended: Option<Outcome>,
    /// The discs to relocate (I10): surrounded by the mover now, not before.
    pub(super) relocate: CellSet,
}

impl Position {
    /// Moves the disc on `from` to `to` and places the mover's disc on `from`; checks
    /// connections and finds the discs to relocate (I16).
    ///
    /// Only a neighbour of `from` can become surrounded by the mover (I9): `from` is the only
    /// cell that turned into a mover's disc. And no neighbour of `from` was surrounded by the
    /// mover before the move, since `from` held an opponent or the neutral disc. So the discs
    /// to relocate (I10: surrounded now, not before) are the opponent and neutral discs next to
    /// `from` (the moved disc included) whose neighbours are all the mover's.
    #[inline(always)]
    pub(super) fn stage(&self, from: u8, to: u8) -> Stage {
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
    pub(super) fn stage_empty(&self, s: &Stage) -> CellSet {
        self.rh
            .all()
            .difference(s.own.union(s.opp).union(s.neutral))
    }

    /// Finishes a regular move from its stage with relocations `(source index, dest index)`.
    #[inline(always)]
    pub(super) fn finish(&mut self, s: Stage, rels: &[(u8, u8)]) {
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
    pub(super) fn has_any_move(&self) -> bool {
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

    pub(super) fn place_move(&self, i: u8) -> Move {
        Move {
            kind: KIND_PLACE,
            from: self.packed(i),
            to: 0,
            count: 0,
            rel: [[0; 2]; MAX_RELOCATIONS],
        }
    }

    pub(super) fn bare_regular(&self, from: u8, to: u8) -> Move {
        Move {
            kind: KIND_REGULAR,
            from: self.packed(from),
            to: self.packed(to),
            count: 0,
            rel: [[0; 2]; MAX_RELOCATIONS],
        }
    }

    /// The sources of `s` in canonical order (packed cells, columns-then-rows).
    pub(super) fn sorted_sources(&self, s: &Stage) -> ([u8; MAX_RELOCATIONS], usize) {
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

fn names(cells: &[Hex]) -> String {
    cells
        .iter()
        .map(|&h| cell_name(h))
        .collect::<Vec<_>>()
        .join(" and ")
}

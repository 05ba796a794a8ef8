//! The inpHeXion position: the board as three bitboards, what can be read from it (discs,
//! hands, the phase of the game, edges and chains), and the per-size tables of neighbours and
//! edges.
use std::sync::OnceLock;

use super::{pack, Options, Piece};
use crate::games::{Colour, Outcome, Reason};
use crate::hex::{CellSet, Direction, Hex, Rhombus};

/// An inpHeXion position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    pub(super) options: Options,
    pub(super) rh: Rhombus,
    pub(super) white: CellSet,
    pub(super) black: CellSet,
    pub(super) neutral: CellSet,
    pub(super) to_move: Colour,
    /// Right after a swap (I7): Black's first turn is used up.
    pub(super) swapped: bool,
    pub(super) outcome: Option<Outcome>,
}

impl Position {
    /// The start position. Options outside the rules (size outside 4..=11) are clamped.
    pub fn new(options: &Options) -> Position {
        let mut options = options.clone();
        options.size = options.size.clamp(4, 11);
        if options.size.is_multiple_of(2) {
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
    pub(super) fn has_chain(&self, c: Colour, discs: CellSet) -> bool {
        let (a, b) = self.edges(c);
        let start = a.intersection(discs);
        !start.is_empty() && self.rh.flood(start, discs).intersects(b)
    }

    /// Whether the group of `discs` through `cell` joins c's edges (I17). A chain that appears
    /// during a move runs through a cell the move filled, so the engine floods from there.
    #[inline(always)]
    pub(super) fn group_joins(&self, c: Colour, discs: CellSet, cell: u8) -> bool {
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
    pub(super) fn nb(&self, i: u8) -> CellSet {
        tables(self.options.size).neighbours[i as usize]
    }

    /// The discs the side to move may move (I6, I15): opponent discs and the neutral disc.
    #[inline]
    pub(super) fn targets(&self) -> CellSet {
        self.discs(self.to_move.other()).union(self.neutral)
    }

    /// The index step of one move in direction `d`.
    #[inline]
    pub(super) fn delta(&self, d: Direction) -> i32 {
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
    pub(super) fn packed(&self, i: u8) -> u8 {
        pack(self.rh.hex(i))
    }
}

/// Per-size tables: each cell's neighbours and each colour's edges.
pub(super) struct Tables {
    pub(super) neighbours: [CellSet; 121],
    pub(super) edges: [(CellSet, CellSet); 2],
}

pub(super) fn tables(size: u8) -> &'static Tables {
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

#[cold]
fn unreachable_rhombus() -> Rhombus {
    // Sizes are clamped to 4..=11 before, so this is never reached.
    Rhombus::new(7).unwrap_or_else(|| unreachable!("a 7×7 rhombus always exists"))
}

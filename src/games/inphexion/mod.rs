//! inpHeXion: its rules (I1–I19, below), and the board, moves, move generation and notation
//! that implement them.
//!
#![doc = include_str!("rules.md")]
//!
//! # How the rules are implemented
//!
//! The board is a [`Rhombus`](crate::hex::Rhombus) with three [`CellSet`](crate::hex::CellSet)
//! bitboards (white, black, neutral). Hands are not stored: a hand is always the initial hand
//! (I4) minus that colour's discs on the board.
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
//!
//! The code, one concern a file (each depending only on those before it):
//! - this file: the options, the pieces, the [`Move`] type and its canonical notation;
//! - `position.rs`: the [`Position`] type, what can be read from it (discs, hands, the phase of
//!   the game, edges and chains) and the per-size tables of neighbours and edges;
//! - `notation.rs`: reading moves;
//! - `rules.rs`: the stages of a regular move (I16), relocation, the end of a turn, the legal
//!   moves, checking and playing a move, perft;
//! - `playout.rs`: random moves and playouts to the end of the game, the search's inner loop;
//! - `line.rs`: the protocol's one-line position format and the text diagram.
mod line;
mod notation;
mod playout;
mod position;
mod rules;
#[cfg(test)]
mod tests;

use std::fmt;

use super::{Colour, OptionError};
use crate::hex::Hex;

pub use notation::cell_name;
pub use position::Position;

/// The most discs one move can relocate (the neighbours of the cell the mover placed on).
pub const MAX_RELOCATIONS: usize = 6;

/// The board sizes a game may have (I1).
pub const SIZES: [u8; 8] = [4, 5, 6, 7, 8, 9, 10, 11];

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
                    Ok(n) if SIZES.contains(&n) => o.size = n,
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

/// inpHeXion's [`Rules`](super::Rules), as the registry lists it.
pub struct Inphexion;

impl super::Rules for Inphexion {
    const NAME: &'static str = "inphexion";
    const TITLE: &'static str = "inpHeXion";
    const COLOUR_NAMES: [&'static str; 2] = ["white", "black"];
    const COLOUR_TEXTS: [&'static str; 2] = ["colour-white", "colour-black"];
    const COLOUR_TITLES: [&'static str; 2] = ["render-colour-white", "render-colour-black"];
    const RULES_TEXT: &'static str = "rules-inphexion";
    const SIZE: super::SizeOption = super::SizeOption {
        word: "size",
        values: &SIZES,
        text: "variant-inphexion",
        label: "local-size",
    };
    const FLAGS: &'static [super::Flag] = &[
        super::Flag {
            word: "pie",
            text: "variant-pie",
        },
        super::Flag {
            word: "free-reply",
            text: "variant-free-reply",
        },
        super::Flag {
            word: "neutral",
            text: "variant-neutral",
        },
    ];

    const FIGURES: &'static [super::Figure] = &[
        super::Figure {
            name: "start",
            moves: &[],
            caption: "rules-figure-inphexion-start",
        },
        super::Figure {
            name: "place",
            moves: &["d4"],
            caption: "rules-figure-inphexion-place",
        },
        super::Figure {
            name: "push",
            moves: &["d4", "d4-e3"],
            caption: "rules-figure-inphexion-push",
        },
    ];

    type Options = Options;
    type Move = Move;
    type Position = Position;

    fn parse_options(words: &[&str]) -> Result<Options, OptionError> {
        Options::parse(words)
    }
    fn option_words(options: &Options) -> Vec<String> {
        options.words()
    }
    fn size(options: &Options) -> u8 {
        options.size
    }
    fn new_position(options: &Options) -> Position {
        Position::new(options)
    }
    fn options(position: &Position) -> &Options {
        position.options()
    }
    fn to_move(position: &Position) -> Colour {
        position.to_move()
    }
    fn outcome(position: &Position) -> Option<super::Outcome> {
        position.outcome()
    }
    fn legal_moves(position: &Position, out: &mut Vec<Move>) {
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        out.extend_from_slice(list.as_slice());
    }
    fn parse_move(position: &Position, text: &str) -> Result<Move, super::ParseMoveError> {
        position.parse_move(text)
    }
    fn check_move(position: &Position, mv: &Move) -> Result<(), super::IllegalMove> {
        position.check_move(mv)
    }
    fn play(position: &mut Position, mv: &Move) {
        position.play(mv)
    }
    fn to_line(position: &Position) -> String {
        position.to_line()
    }
    fn from_line(options: &Options, line: &str) -> Result<Position, super::BadPosition> {
        Position::from_line(options, line)
    }
    fn diagram(position: &Position) -> String {
        position.diagram()
    }
    fn perft(position: &Position, depth: u32) -> u64 {
        position.perft(depth)
    }
}

//! EXXIT: its rules (X1–X20, below), and the position, moves, move generation and notation
//! that implement them.
//!
#![doc = include_str!("rules.md")]
//!
//! # How the rules are implemented
//!
//! - [`Options`]: the variants `tiles=39|29|19` (X6), `expert` (X7) and `pie` (X8).
//! - [`Move`]: a dance, an expansion (also an expert-setup tile), a placed disc, a pass or a swap.
//! - [`Position`]: the world on an unbounded hex grid, stored in a fixed square array large
//!   enough for any world the rules can reach, with the move generator, the scoring and the
//!   repetition history.
//!
//! The code, one concern a file (each depending only on those before it):
//! - `grid.rs`: the fixed array of cells, cell ↔ index, the directions' steps, straight lines;
//! - `lanes.rs`: the stacks' bytes side by side, and the SIMD functions over them;
//! - `position.rs`: the [`Position`] and [`Stack`] types, what can be read from them, and the
//!   low-level edits that keep the position's indexes in step;
//! - `notation.rs`: reading moves;
//! - `line.rs`: the protocol's one-line position format and the text diagram;
//! - `rules.rs`: the dances, the legal moves, checking and playing a move, repetition, perft;
//! - `playout.rs`: random moves and playouts to the end of the game, the search's inner loop.
//!
//! `pie` with `expert`: the swap is offered after silver's first move of normal play, i.e. after
//! the six setup tiles and silver's first disc (the setup tiles alone carry no choice for the
//! first one and little information for the others).
mod grid;
mod lanes;
mod line;
mod notation;
mod playout;
mod position;
mod rules;
#[cfg(test)]
mod tests;

use std::fmt;

use super::OptionError;
use crate::hex::Hex;

pub use position::{Position, Stack};

/// The numbers of tiles a game may have (X6), the standard first.
pub const TILE_COUNTS: [u8; 3] = [39, 29, 19];

/// Variant options (X6, X7, X8).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Options {
    /// 39, 29 or 19 (X6).
    pub tiles: u8,
    pub expert: bool,
    pub pie: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            tiles: 39,
            expert: false,
            pie: false,
        }
    }
}

impl Options {
    /// Reads option words (`tiles=39`, `expert`, `pie`), case-insensitive.
    pub fn parse(words: &[&str]) -> Result<Options, OptionError> {
        let mut o = Options::default();
        for w in words {
            let lower = w.to_ascii_lowercase();
            if let Some(v) = lower.strip_prefix("tiles=") {
                o.tiles = match v.parse::<u8>() {
                    Ok(n) if TILE_COUNTS.contains(&n) && v == n.to_string() => n,
                    _ => return Err(OptionError::Bad(format!("{w} (X6: 39, 29 or 19)"))),
                };
            } else if lower == "expert" {
                o.expert = true;
            } else if lower == "pie" {
                o.pie = true;
            } else {
                return Err(OptionError::Unknown(w.to_string()));
            }
        }
        Ok(o)
    }

    /// Canonical words: `tiles=N` always, then `expert`, `pie` when set.
    pub fn words(&self) -> Vec<String> {
        let mut v = vec![format!("tiles={}", self.tiles)];
        if self.expert {
            v.push("expert".to_string());
        }
        if self.pie {
            v.push("pie".to_string());
        }
        v
    }

    /// Tiles in the world when normal play starts: 4 (X5) or 6 after the expert setup (X7).
    pub fn start_tiles(&self) -> u8 {
        if self.expert {
            6
        } else {
            4
        }
    }
}

/// A move (Copy, no heap).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A dance of destruction (X12–X14): the dancing stack and the opponent stack it hits.
    Dance { from: Hex, target: Hex },
    /// An expansion from the outer-space stack on this cell (X16), or an expert-setup tile (X7).
    Expand(Hex),
    /// A disc from hand on an empty tile (X17).
    Place(Hex),
    /// X18.
    Pass,
    /// X8.
    Swap,
}

impl fmt::Display for Move {
    /// Canonical notation: `0,1`, `1,0-3,-2`, `+2,-1`, `pass`, `swap`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Dance { from, target } => write!(f, "{from}-{target}"),
            Move::Expand(c) => write!(f, "+{c}"),
            Move::Place(c) => write!(f, "{c}"),
            Move::Pass => f.write_str("pass"),
            Move::Swap => f.write_str("swap"),
        }
    }
}

/// A reusable list of moves; generation into it allocates nothing once it has grown.
#[derive(Clone, Debug, Default)]
pub struct MoveList(Vec<Move>);

impl MoveList {
    pub fn new() -> MoveList {
        MoveList(Vec::with_capacity(64))
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
    pub fn as_slice(&self) -> &[Move] {
        &self.0
    }
    pub fn clear(&mut self) {
        self.0.clear();
    }
    pub fn contains(&self, mv: &Move) -> bool {
        self.0.contains(mv)
    }
    fn push(&mut self, mv: Move) {
        self.0.push(mv);
    }
}

/// EXXIT's [`Rules`](super::Rules), as the registry lists it.
pub struct Exxit;

impl super::Rules for Exxit {
    const NAME: &'static str = "exxit";
    const TITLE: &'static str = "EXXIT";
    const COLOUR_NAMES: [&'static str; 2] = ["silver", "red"];
    const COLOUR_TEXTS: [&'static str; 2] = ["colour-silver", "colour-red"];
    const COLOUR_TITLES: [&'static str; 2] = ["render-colour-silver", "render-colour-red"];
    const RULES_TEXT: &'static str = "rules-exxit";
    const SIZE: super::SizeOption = super::SizeOption {
        word: "tiles",
        values: &TILE_COUNTS,
        text: "variant-exxit",
        label: "local-tiles",
    };
    const FLAGS: &'static [super::Flag] = &[
        super::Flag {
            word: "expert",
            text: "variant-expert",
        },
        super::Flag {
            word: "pie",
            text: "variant-pie",
        },
    ];

    const FIGURES: &'static [super::Figure] = &[
        super::Figure {
            name: "start",
            moves: &[],
            caption: "rules-figure-exxit-start",
        },
        super::Figure {
            name: "place",
            moves: &["0,0", "1,-1"],
            caption: "rules-figure-exxit-place",
        },
        super::Figure {
            name: "dance",
            moves: &["0,0", "1,-1", "0,0-1,-1"],
            caption: "rules-figure-exxit-dance",
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
        options.tiles
    }
    fn new_position(options: &Options) -> Position {
        Position::new(options)
    }
    fn options(position: &Position) -> &Options {
        position.options()
    }
    fn to_move(position: &Position) -> super::Colour {
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
    /// The island score (X20).
    fn score(position: &Position) -> Option<[u32; 2]> {
        Some(position.score())
    }
    fn perft(position: &Position, depth: u32) -> u64 {
        position.perft(depth)
    }
}

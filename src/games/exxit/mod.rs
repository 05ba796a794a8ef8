//! EXXIT (rules X1–X20 of the rules file): CONTRACT STUB, to be replaced by the engine.
use std::fmt;

use super::{BadPosition, Colour, IllegalMove, OptionError, Outcome, ParseMoveError};

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
    pub fn parse(_words: &[&str]) -> Result<Options, OptionError> {
        unimplemented!()
    }
    /// Canonical words: `tiles=N` always, then `expert`, `pie` when set.
    pub fn words(&self) -> Vec<String> {
        unimplemented!()
    }
}

/// A move (Copy, no heap).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {}

impl fmt::Display for Move {
    fn fmt(&self, _f: &mut fmt::Formatter<'_>) -> fmt::Result {
        unimplemented!()
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
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {}

impl Position {
    pub fn new(_options: &Options) -> Position {
        unimplemented!()
    }
    pub fn options(&self) -> &Options {
        unimplemented!()
    }
    pub fn to_move(&self) -> Colour {
        unimplemented!()
    }
    pub fn outcome(&self) -> Option<Outcome> {
        unimplemented!()
    }
    pub fn legal_moves(&self, _out: &mut MoveList) {
        unimplemented!()
    }
    pub fn parse_move(&self, _text: &str) -> Result<Move, ParseMoveError> {
        unimplemented!()
    }
    pub fn check_move(&self, _mv: &Move) -> Result<(), IllegalMove> {
        unimplemented!()
    }
    pub fn play(&mut self, _mv: &Move) {
        unimplemented!()
    }
    pub fn to_line(&self) -> String {
        unimplemented!()
    }
    pub fn from_line(_options: &Options, _line: &str) -> Result<Position, BadPosition> {
        unimplemented!()
    }
    pub fn diagram(&self) -> String {
        unimplemented!()
    }
    pub fn perft(&self, _depth: u32) -> u64 {
        unimplemented!()
    }
}

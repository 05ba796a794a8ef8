//! inpHeXion (rules I1–I19 of the rules file): CONTRACT STUB, to be replaced by the engine.
use std::fmt;

use super::{BadPosition, Colour, IllegalMove, OptionError, Outcome, ParseMoveError};

/// Variant options (I1, I7, I8, I15).
#[derive(Clone, PartialEq, Eq, Debug)]
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
    pub fn parse(_words: &[&str]) -> Result<Options, OptionError> {
        unimplemented!()
    }
    /// Canonical words: `size=N` always, then `pie`, `free-reply`, `neutral` when set.
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

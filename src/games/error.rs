//! The small typed errors of the rules: unknown or forbidden options, move text that does not
//! read, moves the rules forbid (naming the rule), and positions the rules cannot hold.
use thiserror::Error;

/// A game or option word that is not known (`? unknown option: …`), or a known option with a
/// value the rules forbid (`? bad option: …`).
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum OptionError {
    #[error("unknown option: {0}")]
    Unknown(String),
    #[error("bad option: {0}")]
    Bad(String),
}

/// Move text that is not well-formed notation.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("{why}")]
pub struct ParseMoveError {
    pub input: String,
    pub why: String,
}

impl ParseMoveError {
    pub fn new(input: &str, why: impl Into<String>) -> ParseMoveError {
        ParseMoveError {
            input: input.to_string(),
            why: why.into(),
        }
    }
}

/// A well-formed move that the rules forbid here; `why` names the rule.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("{why}")]
pub struct IllegalMove {
    pub why: String,
}

impl IllegalMove {
    pub fn new(why: impl Into<String>) -> IllegalMove {
        IllegalMove { why: why.into() }
    }
}

/// A position text that is malformed or that the rules cannot hold.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("{why}")]
pub struct BadPosition {
    pub why: String,
}

impl BadPosition {
    pub fn new(why: impl Into<String>) -> BadPosition {
        BadPosition { why: why.into() }
    }
}

/// Why a move given as text was refused.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum MoveError {
    #[error("bad notation: {0}")]
    Notation(#[from] ParseMoveError),
    #[error("illegal move: {0}")]
    Illegal(#[from] IllegalMove),
}

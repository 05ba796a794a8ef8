//! The options, a move and a position of either game: enums over the two games' own types that
//! dispatch to the game's module, so that callers can ignore which game is played.
use std::fmt;

use super::{
    exxit, inphexion, BadPosition, Colour, GameKind, IllegalMove, MoveError, OptionError, Outcome,
};

/// A game's options.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Options {
    Inphexion(inphexion::Options),
    Exxit(exxit::Options),
}

impl Options {
    /// The options of `kind` from `key=value` and flag words (`size=7 pie`).
    pub fn parse(kind: GameKind, words: &[&str]) -> Result<Options, OptionError> {
        Ok(match kind {
            GameKind::Inphexion => Options::Inphexion(inphexion::Options::parse(words)?),
            GameKind::Exxit => Options::Exxit(exxit::Options::parse(words)?),
        })
    }

    /// A whole variant line such as `inphexion size=7 pie`.
    pub fn parse_line(line: &str) -> Result<Options, OptionError> {
        let mut words = line.split_whitespace();
        let kind: GameKind = words
            .next()
            .ok_or_else(|| OptionError::Unknown(String::new()))?
            .parse()?;
        let rest: Vec<&str> = words.collect();
        Options::parse(kind, &rest)
    }

    pub fn default_for(kind: GameKind) -> Options {
        match kind {
            GameKind::Inphexion => Options::Inphexion(inphexion::Options::default()),
            GameKind::Exxit => Options::Exxit(exxit::Options::default()),
        }
    }

    pub fn kind(&self) -> GameKind {
        match self {
            Options::Inphexion(_) => GameKind::Inphexion,
            Options::Exxit(_) => GameKind::Exxit,
        }
    }

    /// The canonical option words (no game name).
    pub fn words(&self) -> Vec<String> {
        match self {
            Options::Inphexion(o) => o.words(),
            Options::Exxit(o) => o.words(),
        }
    }
}

impl fmt::Display for Options {
    /// The variant line: the game name then the canonical option words.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind().name())?;
        for w in self.words() {
            write!(f, " {w}")?;
        }
        Ok(())
    }
}

/// A move of either game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Inphexion(inphexion::Move),
    Exxit(exxit::Move),
}

impl fmt::Display for Move {
    /// Canonical notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Inphexion(m) => m.fmt(f),
            Move::Exxit(m) => m.fmt(f),
        }
    }
}

/// A position of either game.
// An EXXIT position keeps its cells behind a box but some arrays inline (the stack index and
// keys that make its moves fast); boxing the variant would cost an allocation per copy.
#[allow(clippy::large_enum_variant)]
#[derive(PartialEq, Eq, Debug)]
pub enum Position {
    Inphexion(inphexion::Position),
    Exxit(exxit::Position),
}

impl Clone for Position {
    fn clone(&self) -> Position {
        match self {
            Position::Inphexion(p) => Position::Inphexion(p.clone()),
            Position::Exxit(p) => Position::Exxit(p.clone()),
        }
    }

    /// Reuses the storage of `self` when both hold the same game (an EXXIT position then
    /// copies only its occupied cells, not its whole array).
    fn clone_from(&mut self, source: &Position) {
        match (self, source) {
            (Position::Inphexion(a), Position::Inphexion(b)) => a.clone_from(b),
            (Position::Exxit(a), Position::Exxit(b)) => a.clone_from(b),
            (a, b) => *a = b.clone(),
        }
    }
}

macro_rules! dispatch {
    ($self:expr, $p:ident => $e:expr) => {
        match $self {
            Position::Inphexion($p) => $e,
            Position::Exxit($p) => $e,
        }
    };
}

impl Position {
    pub fn new(options: &Options) -> Position {
        match options {
            Options::Inphexion(o) => Position::Inphexion(inphexion::Position::new(o)),
            Options::Exxit(o) => Position::Exxit(exxit::Position::new(o)),
        }
    }

    pub fn kind(&self) -> GameKind {
        match self {
            Position::Inphexion(_) => GameKind::Inphexion,
            Position::Exxit(_) => GameKind::Exxit,
        }
    }

    pub fn options(&self) -> Options {
        match self {
            Position::Inphexion(p) => Options::Inphexion(p.options().clone()),
            Position::Exxit(p) => Options::Exxit(p.options().clone()),
        }
    }

    pub fn to_move(&self) -> Colour {
        dispatch!(self, p => p.to_move())
    }

    /// The rules' outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        dispatch!(self, p => p.outcome())
    }

    /// Every legal move (empty when the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        match self {
            Position::Inphexion(p) => {
                let mut list = inphexion::MoveList::new();
                p.legal_moves(&mut list);
                list.iter().map(|m| Move::Inphexion(*m)).collect()
            }
            Position::Exxit(p) => {
                let mut list = exxit::MoveList::new();
                p.legal_moves(&mut list);
                list.iter().map(|m| Move::Exxit(*m)).collect()
            }
        }
    }

    /// Every legal move in canonical notation, sorted in byte order (the protocol's `legal`).
    pub fn legal_notations(&self) -> Vec<String> {
        let mut v: Vec<String> = self.legal_moves().iter().map(|m| m.to_string()).collect();
        v.sort_unstable();
        v
    }

    /// Reads move text (tolerant notation) and checks it against the rules.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        Ok(match self {
            Position::Inphexion(p) => {
                let m = p.parse_move(text)?;
                p.check_move(&m)?;
                Move::Inphexion(m)
            }
            Position::Exxit(p) => {
                let m = p.parse_move(text)?;
                p.check_move(&m)?;
                Move::Exxit(m)
            }
        })
    }

    /// Plays a move that [`Position::parse_move`] or [`Position::legal_moves`] gave for this
    /// position. A move of the other game, or one that is not legal here, is refused and changes
    /// nothing.
    pub fn play(&mut self, mv: &Move) -> Result<(), IllegalMove> {
        match (self, mv) {
            (Position::Inphexion(p), Move::Inphexion(m)) => {
                p.check_move(m)?;
                p.play(m);
                Ok(())
            }
            (Position::Exxit(p), Move::Exxit(m)) => {
                p.check_move(m)?;
                p.play(m);
                Ok(())
            }
            _ => Err(IllegalMove::new("that move belongs to the other game")),
        }
    }

    /// The one-line canonical text of the protocol's `position`.
    pub fn to_line(&self) -> String {
        dispatch!(self, p => p.to_line())
    }

    /// Reads a position line for the game and options given.
    pub fn from_line(options: &Options, line: &str) -> Result<Position, BadPosition> {
        Ok(match options {
            Options::Inphexion(o) => Position::Inphexion(inphexion::Position::from_line(o, line)?),
            Options::Exxit(o) => Position::Exxit(exxit::Position::from_line(o, line)?),
        })
    }

    /// A readable multi-line diagram.
    pub fn diagram(&self) -> String {
        dispatch!(self, p => p.diagram())
    }

    /// Number of move sequences of length `depth` (a finished game counts 1 and stops).
    pub fn perft(&self, depth: u32) -> u64 {
        dispatch!(self, p => p.perft(depth))
    }
}

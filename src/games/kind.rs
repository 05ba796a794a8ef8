//! Which game, and the two sides of its board.
use std::fmt;
use std::str::FromStr;

use super::OptionError;

/// Which game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameKind {
    Inphexion,
    Exxit,
}

impl GameKind {
    pub const ALL: [GameKind; 2] = [GameKind::Inphexion, GameKind::Exxit];

    /// The name used in commands and records: `inphexion` or `exxit`.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Inphexion => "inphexion",
            GameKind::Exxit => "exxit",
        }
    }

    /// The name shown to people: `inpHeXion` or `EXXIT`.
    pub const fn title(self) -> &'static str {
        match self {
            GameKind::Inphexion => "inpHeXion",
            GameKind::Exxit => "EXXIT",
        }
    }

    /// The name of a colour in this game: white/black or silver/red.
    pub const fn colour_name(self, c: Colour) -> &'static str {
        match (self, c) {
            (GameKind::Inphexion, Colour::First) => "white",
            (GameKind::Inphexion, Colour::Second) => "black",
            (GameKind::Exxit, Colour::First) => "silver",
            (GameKind::Exxit, Colour::Second) => "red",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = OptionError;
    fn from_str(s: &str) -> Result<GameKind, OptionError> {
        match s.to_ascii_lowercase().as_str() {
            "inphexion" => Ok(GameKind::Inphexion),
            "exxit" => Ok(GameKind::Exxit),
            _ => Err(OptionError::Unknown(format!(
                "unknown game {s} (the games are inphexion and exxit)"
            ))),
        }
    }
}

/// A side of the board. The first colour moves first: White in inpHeXion, Silver in EXXIT.
/// Colours belong to the board, not to players: after a pie swap the players exchange colours.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Colour {
    First,
    Second,
}

impl Colour {
    pub const BOTH: [Colour; 2] = [Colour::First, Colour::Second];

    #[inline]
    pub const fn other(self) -> Colour {
        match self {
            Colour::First => Colour::Second,
            Colour::Second => Colour::First,
        }
    }

    /// 0 for the first colour, 1 for the second.
    #[inline]
    pub const fn index(self) -> usize {
        match self {
            Colour::First => 0,
            Colour::Second => 1,
        }
    }
}

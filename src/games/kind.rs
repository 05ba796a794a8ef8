//! What a game is called and the facts front ends show of it ([`GameKind`], from the
//! registry), and the two sides of its board.
use std::fmt;
use std::str::FromStr;

use super::registry::on_game;
use super::{Figure, Flag, GameKind, OptionError, SizeOption};

impl GameKind {
    /// The game assumed where none is named: the registry's first, inpHeXion (the engine
    /// protocol's game before `new`, an analysis row whose game is unreadable).
    pub const DEFAULT: GameKind = GameKind::ALL[0];

    /// The name used in commands and records: `inphexion` or `exxit`.
    pub const fn name(self) -> &'static str {
        on_game!(self, GameKind, G => G::NAME)
    }

    /// The name shown to people: `inpHeXion` or `EXXIT`.
    pub const fn title(self) -> &'static str {
        on_game!(self, GameKind, G => G::TITLE)
    }

    /// The name of a colour in this game: white/black or silver/red.
    pub const fn colour_name(self, c: Colour) -> &'static str {
        on_game!(self, GameKind, G => G::COLOUR_NAMES[c.index()])
    }

    /// The message id of a colour's name in a sentence (`colour-white`).
    pub const fn colour_text(self, c: Colour) -> &'static str {
        on_game!(self, GameKind, G => G::COLOUR_TEXTS[c.index()])
    }

    /// The message id of a colour's name with a capital, as pictures show it (`render-colour-white`).
    pub const fn colour_title(self, c: Colour) -> &'static str {
        on_game!(self, GameKind, G => G::COLOUR_TITLES[c.index()])
    }

    /// The message id of the rules' summary.
    pub const fn rules_text(self) -> &'static str {
        on_game!(self, GameKind, G => G::RULES_TEXT)
    }

    /// The option that sets the board's size.
    pub const fn size_option(self) -> SizeOption {
        on_game!(self, GameKind, G => G::SIZE)
    }

    /// The on/off options, in the order texts name them.
    pub const fn flags(self) -> &'static [Flag] {
        on_game!(self, GameKind, G => G::FLAGS)
    }

    /// The pictures of the game's rules page, in the page's order.
    pub const fn figures(self) -> &'static [Figure] {
        on_game!(self, GameKind, G => G::FIGURES)
    }

    /// Every game's name, for messages: `inphexion and exxit`.
    pub fn names() -> String {
        let names: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.concat(),
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
    /// A game by its name, case-insensitive.
    fn from_str(s: &str) -> Result<GameKind, OptionError> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                OptionError::Unknown(format!(
                    "unknown game {s} (the games are {})",
                    GameKind::names()
                ))
            })
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

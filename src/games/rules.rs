//! [`Rules`]: what every front end needs of a game, implemented once in each game's folder.
use std::fmt::{Debug, Display};
use std::hash::Hash;

use super::{BadPosition, Colour, IllegalMove, OptionError, Outcome, ParseMoveError};

/// The option that sets a game's length or board size (`size=7`, `tiles=39`): every game has one,
/// chosen from a short list (the pickers and the web page's form offer it).
#[derive(Clone, Copy, Debug)]
pub struct SizeOption {
    /// The option's word before `=` in a variant line, and the form field's name.
    pub word: &'static str,
    /// The values the rules allow, in the order pickers offer them.
    pub values: &'static [u8],
    /// The message id of a size in words (`7×7`, `39 tiles`); its argument is named [`Self::word`].
    pub text: &'static str,
    /// The message id of the form field's label.
    pub label: &'static str,
}

/// An option that is on or off (`pie`, `expert`).
#[derive(Clone, Copy, Debug)]
pub struct Flag {
    /// The option word (`free-reply`); the form fields and Discord's options write it with `_`.
    pub word: &'static str,
    /// The message id of the option in words (`free first reply`).
    pub text: &'static str,
}

/// A picture of a game's rules page: the position after `moves` from the game's default start.
#[derive(Clone, Copy, Debug)]
pub struct Figure {
    /// Its file's name, without `.png`.
    pub name: &'static str,
    /// The moves that lead to it, in notation.
    pub moves: &'static [&'static str],
    /// Its caption's message id.
    pub caption: &'static str,
}

/// A game's rules and the facts front ends show of it (names, colours, options), on a marker type
/// in the game's own folder (`inphexion::Inphexion`). Listed in the registry
/// (`src/games/registry.rs`), a game is then in [`GameKind`](super::GameKind) and behind
/// [`Options`](super::Options), [`Move`](super::Move) and [`Position`](super::Position): the
/// enums call these functions with static dispatch (one `match`, then the game's own code).
pub trait Rules: 'static {
    /// The name in commands, records, the protocol and the database: `inphexion`.
    const NAME: &'static str;
    /// The name shown to people: `inpHeXion`.
    const TITLE: &'static str;
    /// The colours' names as records and the engine protocol write them (first colour first).
    const COLOUR_NAMES: [&'static str; 2];
    /// The message ids of the colours' names in a sentence (`colour-white`) …
    const COLOUR_TEXTS: [&'static str; 2];
    /// … and with a capital, as pictures show them (`render-colour-white`).
    const COLOUR_TITLES: [&'static str; 2];
    /// The message id of the rules' summary (`/rules`, the rules page).
    const RULES_TEXT: &'static str;
    /// The option that sets the board's size.
    const SIZE: SizeOption;
    /// The on/off options, in the order texts name them.
    const FLAGS: &'static [Flag];
    /// The pictures of the rules page, in the page's order.
    const FIGURES: &'static [Figure];

    type Options: Clone + Eq + Debug + Default;
    type Move: Copy + Eq + Hash + Debug + Display;
    type Position: Clone + Eq + Debug;

    /// The options from option words (`size=7 pie`), the rules' reason when they do not fit.
    fn parse_options(words: &[&str]) -> Result<Self::Options, OptionError>;
    /// The canonical option words.
    fn option_words(options: &Self::Options) -> Vec<String>;
    /// The value of [`Self::SIZE`] in `options`.
    fn size(options: &Self::Options) -> u8;

    fn new_position(options: &Self::Options) -> Self::Position;
    fn options(position: &Self::Position) -> &Self::Options;
    fn to_move(position: &Self::Position) -> Colour;
    fn outcome(position: &Self::Position) -> Option<Outcome>;
    /// Every legal move, appended to `out` (none when the game is over).
    fn legal_moves(position: &Self::Position, out: &mut Vec<Self::Move>);
    /// Reads move text (tolerant notation), without checking it against the rules.
    fn parse_move(position: &Self::Position, text: &str) -> Result<Self::Move, ParseMoveError>;
    /// Whether the rules allow `mv` here, naming the rule when not.
    fn check_move(position: &Self::Position, mv: &Self::Move) -> Result<(), IllegalMove>;
    /// Plays a move that [`Self::check_move`] accepted.
    fn play(position: &mut Self::Position, mv: &Self::Move);
    /// The one-line canonical text of the protocol's `position`.
    fn to_line(position: &Self::Position) -> String;
    fn from_line(options: &Self::Options, line: &str) -> Result<Self::Position, BadPosition>;
    /// A readable multi-line diagram.
    fn diagram(position: &Self::Position) -> String;
    /// The score each colour has now, in a game that keeps one (first colour first).
    fn score(_position: &Self::Position) -> Option<[u32; 2]> {
        None
    }
    /// Number of move sequences of length `depth` (a finished game counts 1 and stops).
    fn perft(position: &Self::Position, depth: u32) -> u64;
}

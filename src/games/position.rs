//! The options, a move and a position of any game ([`Options`], [`Move`], [`Position`], defined
//! by the registry): each function runs the game's own code through its [`Rules`], so that
//! callers can ignore which game is played.
use std::fmt;

use super::registry::on_game;
use super::{
    BadPosition, Colour, GameKind, IllegalMove, Move, MoveError, OptionError, Options, Outcome,
    Position,
};

impl Options {
    /// The options of `kind` from `key=value` and flag words (`size=7 pie`).
    pub fn parse(kind: GameKind, words: &[&str]) -> Result<Options, OptionError> {
        on_game!(kind, GameKind, G => Ok(G::wrap_options(G::parse_options(words)?)))
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
        on_game!(kind, GameKind, G => G::wrap_options(Default::default()))
    }

    pub fn kind(&self) -> GameKind {
        on_game!(self, Options(_), G => G::KIND)
    }

    /// The canonical option words (no game name).
    pub fn words(&self) -> Vec<String> {
        on_game!(self, Options(o), G => G::option_words(o))
    }

    /// The value of the game's size option ([`GameKind::size_option`]): `7` for a 7×7 board.
    pub fn size(&self) -> u8 {
        on_game!(self, Options(o), G => G::size(o))
    }

    /// Whether the on/off option `word` (`pie`) is on.
    pub fn flag(&self, word: &str) -> bool {
        self.words().iter().any(|w| w == word)
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

impl Move {
    pub fn kind(&self) -> GameKind {
        on_game!(self, Move(_), G => G::KIND)
    }
}

impl fmt::Display for Move {
    /// Canonical notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        on_game!(self, Move(m), G => fmt::Display::fmt(m, f))
    }
}

impl Clone for Position {
    fn clone(&self) -> Position {
        on_game!(self, Position(p), G => G::wrap_position(p.clone()))
    }

    /// Reuses the storage of `self` when both hold the same game (an EXXIT position then
    /// copies only its occupied cells, not its whole array).
    fn clone_from(&mut self, source: &Position) {
        on_game!(
            (self, source), Position(a), Position(b), G => a.clone_from(b),
            (a, b) => *a = b.clone()
        )
    }
}

impl Position {
    pub fn new(options: &Options) -> Position {
        on_game!(options, Options(o), G => G::wrap_position(G::new_position(o)))
    }

    pub fn kind(&self) -> GameKind {
        on_game!(self, Position(_), G => G::KIND)
    }

    pub fn options(&self) -> Options {
        on_game!(self, Position(p), G => G::wrap_options(G::options(p).clone()))
    }

    pub fn to_move(&self) -> Colour {
        on_game!(self, Position(p), G => G::to_move(p))
    }

    /// The rules' outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        on_game!(self, Position(p), G => G::outcome(p))
    }

    /// Every legal move (empty when the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        on_game!(self, Position(p), G => {
            let mut list = Vec::new();
            G::legal_moves(p, &mut list);
            list.into_iter().map(G::wrap_move).collect()
        })
    }

    /// Every legal move in canonical notation, sorted in byte order (the protocol's `legal`).
    pub fn legal_notations(&self) -> Vec<String> {
        let mut v: Vec<String> = self.legal_moves().iter().map(|m| m.to_string()).collect();
        v.sort_unstable();
        v
    }

    /// Reads move text (tolerant notation) and checks it against the rules.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        on_game!(self, Position(p), G => {
            let m = G::parse_move(p, text)?;
            G::check_move(p, &m)?;
            Ok(G::wrap_move(m))
        })
    }

    /// Plays a move that [`Position::parse_move`] or [`Position::legal_moves`] gave for this
    /// position. A move of another game, or one that is not legal here, is refused and changes
    /// nothing.
    pub fn play(&mut self, mv: &Move) -> Result<(), IllegalMove> {
        on_game!(
            (self, mv), Position(p), Move(m), G => {
                G::check_move(p, m)?;
                G::play(p, m);
                Ok(())
            },
            _ => Err(IllegalMove::new("that move belongs to another game"))
        )
    }

    /// The one-line canonical text of the protocol's `position`.
    pub fn to_line(&self) -> String {
        on_game!(self, Position(p), G => G::to_line(p))
    }

    /// Reads a position line for the game and options given.
    pub fn from_line(options: &Options, line: &str) -> Result<Position, BadPosition> {
        on_game!(options, Options(o), G => Ok(G::wrap_position(G::from_line(o, line)?)))
    }

    /// A readable multi-line diagram.
    pub fn diagram(&self) -> String {
        on_game!(self, Position(p), G => G::diagram(p))
    }

    /// The score each colour has now, in a game that keeps one (EXXIT's island score).
    pub fn score(&self) -> Option<[u32; 2]> {
        on_game!(self, Position(p), G => G::score(p))
    }

    /// Number of move sequences of length `depth` (a finished game counts 1 and stops).
    pub fn perft(&self, depth: u32) -> u64 {
        on_game!(self, Position(p), G => G::perft(p, depth))
    }
}

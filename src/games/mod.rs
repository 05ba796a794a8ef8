//! The game-agnostic front: which game, its options, positions, moves and outcomes.
//!
//! Each game lives in its own module (`inphexion`, `exxit`) with the same shape: `Options`,
//! `Position`, `Move`, `MoveList`. [`Game`] wraps a position of either game with its history
//! (for undo, records and resignation), and dispatches to the game's module, the way one enum
//! over variants lets callers ignore which game is played.

pub mod exxit;
pub mod inphexion;

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use thiserror::Error;

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
            _ => Err(OptionError::Unknown(s.to_string())),
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

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Reason {
    /// inpHeXion I17: a chain joins the winner's edges.
    Connection,
    /// inpHeXion I18: the loser had no legal move.
    NoLegalMove,
    /// inpHeXion I14: the loser could not place every relocated disc.
    RelocationImpossible,
    /// A player resigned.
    Resignation,
    /// EXXIT X19: the supply ran out; scores compared (X20).
    Score,
    /// EXXIT X19: both players passed in succession; scores compared.
    Passes,
    /// EXXIT X19: a position occurred for the third time; scores compared.
    Repetition,
    /// A player let the deadline pass (correspondence play).
    Timeout,
}

/// How a game ended: the winner (none for a draw), why, and for EXXIT the scores by colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    pub winner: Option<Colour>,
    pub reason: Reason,
    /// Scores indexed by [`Colour::index`], when the game was decided by score.
    pub score: Option<[u32; 2]>,
}

impl Outcome {
    pub const fn win(winner: Colour, reason: Reason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
            score: None,
        }
    }

    /// The outcome of a score comparison (X20): higher wins, equal is a draw.
    pub fn by_score(reason: Reason, score: [u32; 2]) -> Outcome {
        let winner = match score[0].cmp(&score[1]) {
            std::cmp::Ordering::Greater => Some(Colour::First),
            std::cmp::Ordering::Less => Some(Colour::Second),
            std::cmp::Ordering::Equal => None,
        };
        Outcome {
            winner,
            reason,
            score: Some(score),
        }
    }

    /// The protocol's text after `over `: `white wins: connection`, `red wins: score 34-25`,
    /// `draw: score 20-20`, `red wins: score 30-28 (repetition)`.
    pub fn describe(&self, kind: GameKind) -> String {
        let who = match self.winner {
            Some(c) => format!("{} wins", kind.colour_name(c)),
            None => "draw".to_string(),
        };
        let score = |s: [u32; 2]| {
            let (a, b) = match self.winner {
                Some(Colour::Second) => (s[1], s[0]),
                _ => (s[0], s[1]),
            };
            format!("score {a}-{b}")
        };
        let why = match (self.reason, self.score) {
            (Reason::Connection, _) => "connection".to_string(),
            (Reason::NoLegalMove, _) => "no legal move".to_string(),
            (Reason::RelocationImpossible, _) => "relocation impossible".to_string(),
            (Reason::Resignation, _) => "resignation".to_string(),
            (Reason::Timeout, _) => "timeout".to_string(),
            (Reason::Score, Some(s)) => score(s),
            (Reason::Passes, Some(s)) => format!("{} (passes)", score(s)),
            (Reason::Repetition, Some(s)) => format!("{} (repetition)", score(s)),
            (Reason::Score | Reason::Passes | Reason::Repetition, None) => "score".to_string(),
        };
        format!("{who}: {why}")
    }

    /// The outcome [`Outcome::describe`] wrote, read back (`None` for any other text). Scores
    /// are written winner first, so they are put back by colour here.
    pub fn parse(kind: GameKind, text: &str) -> Option<Outcome> {
        let (who, why) = text.split_once(": ")?;
        let winner = match who {
            "draw" => None,
            _ => {
                let colour = who.strip_suffix(" wins")?;
                Some(
                    Colour::BOTH
                        .into_iter()
                        .find(|&c| kind.colour_name(c) == colour)?,
                )
            }
        };
        let plain = |reason| Some((reason, None));
        let (reason, score) = match why {
            "connection" => plain(Reason::Connection)?,
            "no legal move" => plain(Reason::NoLegalMove)?,
            "relocation impossible" => plain(Reason::RelocationImpossible)?,
            "resignation" => plain(Reason::Resignation)?,
            "timeout" => plain(Reason::Timeout)?,
            "score" => plain(Reason::Score)?,
            scored => {
                let scored = scored.strip_prefix("score ")?;
                let (numbers, reason) = match scored.split_once(' ') {
                    None => (scored, Reason::Score),
                    Some((n, "(passes)")) => (n, Reason::Passes),
                    Some((n, "(repetition)")) => (n, Reason::Repetition),
                    Some(_) => return None,
                };
                let (a, b) = numbers.split_once('-')?;
                let (a, b): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
                let score = match winner {
                    Some(Colour::Second) => [b, a],
                    _ => [a, b],
                };
                (reason, Some(score))
            }
        };
        Some(Outcome {
            winner,
            reason,
            score,
        })
    }
}

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

/// A game in play: where it started, the moves since, the current position, and a resignation.
///
/// Only the start and the current position are kept; earlier positions are replayed from the
/// start when asked for (microseconds a move). An EXXIT position is tens of kilobytes, so
/// keeping every one would make a long game megabytes — for each copy the bot holds.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    options: Options,
    /// The start position when it is not the options' initial one (`setpos`).
    setup: Option<String>,
    start: Position,
    current: Position,
    moves: Vec<Move>,
    resigned: Option<Colour>,
}

/// A game record that could not be read: the 1-based line and why.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("line {line}: {why}")]
pub struct RecordError {
    pub line: usize,
    pub why: String,
}

impl Game {
    pub fn new(options: Options) -> Game {
        let start = Position::new(&options);
        Game {
            options,
            setup: None,
            current: start.clone(),
            start,
            moves: Vec::new(),
            resigned: None,
        }
    }

    /// A game that starts from a given position (the protocol's `setpos`).
    pub fn from_position(options: Options, line: &str) -> Result<Game, BadPosition> {
        let start = Position::from_line(&options, line)?;
        Ok(Game {
            setup: Some(start.to_line()),
            options,
            current: start.clone(),
            start,
            moves: Vec::new(),
            resigned: None,
        })
    }

    pub fn kind(&self) -> GameKind {
        self.options.kind()
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn position(&self) -> &Position {
        &self.current
    }

    /// The position after `ply` moves (0 is the start): the current one borrowed, an earlier
    /// one replayed.
    pub fn position_at(&self, ply: usize) -> Option<Cow<'_, Position>> {
        if ply == self.moves.len() {
            return Some(Cow::Borrowed(&self.current));
        }
        let mut p = self.start.clone();
        for mv in self.moves.get(..ply)? {
            // Every stored move was checked when played, so the replay cannot fail.
            p.play(mv).ok()?;
        }
        Some(Cow::Owned(p))
    }

    /// Every position from the start to the current one (`ply() + 1` of them), replayed.
    pub fn positions(&self) -> Vec<Position> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut p = self.start.clone();
        out.push(p.clone());
        for mv in &self.moves {
            if p.play(mv).is_err() {
                break;
            }
            out.push(p.clone());
        }
        out
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    pub fn resigned(&self) -> Option<Colour> {
        self.resigned
    }

    /// The outcome: a resignation, or the rules' outcome of the current position.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(c) = self.resigned {
            return Some(Outcome::win(c.other(), Reason::Resignation));
        }
        self.position().outcome()
    }

    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The legal moves now (none once the game is over, resignation included).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.resigned.is_some() {
            return Vec::new();
        }
        self.position().legal_moves()
    }

    /// Legal moves in canonical notation, sorted in byte order.
    pub fn legal_notations(&self) -> Vec<String> {
        if self.resigned.is_some() {
            return Vec::new();
        }
        self.position().legal_notations()
    }

    /// Reads, checks and plays move text; returns the move in canonical form. Nothing changes on
    /// error.
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        self.check_running()?;
        let mv = self.position().parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Plays a move; refused (changing nothing) when illegal or when the game is over.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.check_running()?;
        // `Position::play` checks the move before changing anything.
        self.current.play(&mv)?;
        self.moves.push(mv);
        Ok(())
    }

    /// `Ok` while the game goes on; the reason it is over otherwise.
    pub fn check_running(&self) -> Result<(), IllegalMove> {
        match self.outcome() {
            Some(o) => Err(IllegalMove::new(format!(
                "the game is over ({})",
                o.describe(self.kind())
            ))),
            None => Ok(()),
        }
    }

    /// The player to move resigns. Refused when the game is already over.
    pub fn resign(&mut self) -> Result<(), IllegalMove> {
        self.check_running()?;
        self.resigned = Some(self.position().to_move());
        Ok(())
    }

    /// Takes back a resignation, or else the last move. `false` when there is nothing to undo.
    pub fn undo(&mut self) -> bool {
        if self.resigned.take().is_some() {
            return true;
        }
        if self.moves.is_empty() {
            return false;
        }
        match self.position_at(self.moves.len() - 1).map(Cow::into_owned) {
            Some(before) => {
                self.current = before;
                self.moves.pop();
                true
            }
            None => false,
        }
    }

    /// The game record: the variant line, `setpos POSITION` when the game started from a set
    /// position, then one move a line, then `resign` if the last player to move resigned.
    pub fn record(&self) -> String {
        let mut out = self.options.to_string();
        out.push('\n');
        if let Some(s) = &self.setup {
            out.push_str("setpos ");
            out.push_str(s);
            out.push('\n');
        }
        for m in &self.moves {
            out.push_str(&m.to_string());
            out.push('\n');
        }
        if self.resigned.is_some() {
            out.push_str("resign\n");
        }
        out
    }

    /// Reads a game record (as [`Game::record`] writes it; blank lines and `#` comments are
    /// skipped), replaying and checking every move.
    pub fn from_record(text: &str) -> Result<Game, RecordError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        let (n, head) = lines.next().ok_or(RecordError {
            line: 1,
            why: "the record is empty: it starts with a variant line such as `inphexion size=7`"
                .to_string(),
        })?;
        let options = Options::parse_line(head).map_err(|e| RecordError {
            line: n,
            why: e.to_string(),
        })?;
        let mut game = Game::new(options.clone());
        let mut first = true;
        for (n, line) in lines {
            let err = |why: String| RecordError { line: n, why };
            if game.resigned.is_some() {
                return Err(err("nothing may follow `resign`".to_string()));
            }
            if let Some(rest) = line.strip_prefix("setpos ") {
                if !first {
                    return Err(err("`setpos` may only follow the variant line".to_string()));
                }
                game = Game::from_position(options.clone(), rest.trim())
                    .map_err(|e| err(format!("bad position: {e}")))?;
            } else if line.eq_ignore_ascii_case("resign") {
                game.resign().map_err(|e| err(e.to_string()))?;
            } else {
                game.play_text(line).map_err(|e| err(e.to_string()))?;
            }
            first = false;
        }
        Ok(game)
    }

    /// The protocol's `status` text: `to-move white` or `over white wins: connection`.
    pub fn status(&self) -> String {
        match self.outcome() {
            Some(o) => format!("over {}", o.describe(self.kind())),
            None => format!(
                "to-move {}",
                self.kind().colour_name(self.position().to_move())
            ),
        }
    }
}

/// A random number below `n` (≥ 1) for the random playouts: one 64-bit draw scaled by a
/// multiplication (no division, no rejection loop). Uniform up to a bias below `n / 2⁶⁴`.
#[inline(always)]
pub(crate) fn below<R: rand::Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    ((rng.next_u64() as u128 * n as u128) >> 64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_outcome_text_reads_back_as_the_same_outcome() {
        let reasons = [
            Reason::Connection,
            Reason::NoLegalMove,
            Reason::RelocationImpossible,
            Reason::Resignation,
            Reason::Timeout,
        ];
        for kind in [GameKind::Inphexion, GameKind::Exxit] {
            for c in Colour::BOTH {
                for r in reasons {
                    let o = Outcome::win(c, r);
                    assert_eq!(Outcome::parse(kind, &o.describe(kind)), Some(o));
                }
            }
            for r in [Reason::Score, Reason::Passes, Reason::Repetition] {
                for score in [[0, 0], [25, 34], [34, 25], [20, 20], [u32::MAX, 7]] {
                    let o = Outcome::by_score(r, score);
                    assert_eq!(Outcome::parse(kind, &o.describe(kind)), Some(o), "{o:?}");
                }
            }
        }
        // Anything else is not an outcome: a colour of the other game, unknown words, bad scores.
        for text in [
            "white wins: connection x",
            "black wins: connection",
            "draw",
            "silver wins: score 3-",
            "silver wins: score 3-4 (again)",
            "silver wins: score -3-4",
            "aborted by mod",
            "",
        ] {
            assert_eq!(Outcome::parse(GameKind::Exxit, text), None, "{text}");
        }
    }

    #[test]
    fn outcome_texts_follow_the_protocol() {
        let k = GameKind::Exxit;
        assert_eq!(
            Outcome::by_score(Reason::Score, [25, 34]).describe(k),
            "red wins: score 34-25"
        );
        assert_eq!(
            Outcome::by_score(Reason::Score, [20, 20]).describe(k),
            "draw: score 20-20"
        );
        assert_eq!(
            Outcome::by_score(Reason::Repetition, [28, 30]).describe(k),
            "red wins: score 30-28 (repetition)"
        );
        assert_eq!(
            Outcome::win(Colour::First, Reason::Resignation).describe(k),
            "silver wins: resignation"
        );
        assert_eq!(
            Outcome::win(Colour::Second, Reason::NoLegalMove).describe(GameKind::Inphexion),
            "black wins: no legal move"
        );
    }

    #[test]
    fn illegal_moves_name_their_rule() {
        let mut game = Game::new(Options::default_for(GameKind::Exxit));
        let e = game.play_text("5,5").expect_err("illegal");
        assert_eq!(
            e.to_string(),
            "illegal move: 5,5 is not an empty tile of the world (X17)"
        );
        let mut game = Game::new(Options::default_for(GameKind::Inphexion));
        game.play_text("d4").expect("White's first placement");
        let e = game
            .play_text("e5")
            .expect_err("a placement on a regular turn");
        assert!(e.to_string().contains("(I6)"), "{e}");
        assert_eq!(game.ply(), 1);
    }

    #[test]
    fn game_kinds_parse_case_insensitively() {
        assert_eq!("InpHeXion".parse::<GameKind>(), Ok(GameKind::Inphexion));
        assert_eq!("EXXIT".parse::<GameKind>(), Ok(GameKind::Exxit));
        assert!("chess".parse::<GameKind>().is_err());
    }
}

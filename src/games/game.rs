//! A game in play: its start, the moves since, the current position and a resignation; undo,
//! and the game record (written and read back).
use std::borrow::Cow;

use thiserror::Error;

use super::{
    BadPosition, Colour, GameKind, IllegalMove, Move, MoveError, Options, Outcome, Position, Reason,
};

/// A game in play: where it started, the moves since, the current position, and an ending off
/// the board (a resignation, or one the play layer records: the clock, a call-off).
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
    /// An ending that the position does not show: a resignation, a loss on time, a call-off.
    ended: Option<Outcome>,
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
            ended: None,
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
            ended: None,
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

    /// The colour that resigned, if one did.
    pub fn resigned(&self) -> Option<Colour> {
        self.ended
            .filter(|o| o.reason == Reason::Resignation)
            .and_then(|o| o.winner)
            .map(Colour::other)
    }

    /// The outcome: a resignation, or the rules' outcome of the current position.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.ended {
            return Some(o);
        }
        self.position().outcome()
    }

    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The legal moves now (none once the game is over, resignation included).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.ended.is_some() {
            return Vec::new();
        }
        self.position().legal_moves()
    }

    /// Legal moves in canonical notation, sorted in byte order.
    pub fn legal_notations(&self) -> Vec<String> {
        if self.ended.is_some() {
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
        let loser = self.position().to_move();
        self.ended = Some(Outcome::win(loser.other(), Reason::Resignation));
        Ok(())
    }

    /// Records an ending that the position does not show (a loss on time, a call-off: stored
    /// results read back). Refused when the game is already over.
    pub fn conclude(&mut self, outcome: Outcome) -> Result<(), IllegalMove> {
        self.check_running()?;
        self.ended = Some(outcome);
        Ok(())
    }

    /// Takes back a resignation (or another ending off the board), or else the last move. `false` when there is nothing to undo.
    pub fn undo(&mut self) -> bool {
        if self.ended.take().is_some() {
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
        if self.resigned().is_some() {
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
            if game.ended.is_some() {
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

//! How a game ended — the winner, the reason, the scores — and its text in the protocol's
//! `status` answer (written and read back).
use super::{Colour, GameKind};

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
    /// Called off (by agreement or by a moderator): no winner, and no draw either.
    CalledOff,
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
    /// [`Outcome::describe`]'s text of a call-off.
    const CALLED_OFF: &'static str = "no result: called off";

    /// A game called off: no winner, and not a draw.
    pub const fn called_off() -> Outcome {
        Outcome {
            winner: None,
            reason: Reason::CalledOff,
            score: None,
        }
    }

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
        if self.reason == Reason::CalledOff {
            return Self::CALLED_OFF.to_string();
        }
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
            (Reason::CalledOff, _) => "called off".to_string(),
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
        if text == Self::CALLED_OFF {
            return Some(Outcome::called_off());
        }
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

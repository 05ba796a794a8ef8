//! The coach of a coached game against the bot (`/play` with `coach`): for the member to move,
//! a good move, in words, with one line of why, and a warning when the opponent threatens
//! something.
//!
//! The move is the bot's own search at the `medium` level ([`crate::ai::choose`]), corrected
//! where a rule of thumb is certain: a move that wins at once is taken, and in inpHeXion, when
//! the opponent threatens to connect, a move that leaves them no winning reply is preferred.
//! The why is read off the move and the position (a win, a threat stopped, discs relocated,
//! how many cells each side's shortest chain still lacks; in EXXIT the compulsory dance, the
//! tiles laid and the score), and the warning off the opponent's possible replies.

use crate::ai::{self, Budget};
use crate::games::{exxit, inphexion, Colour, Game, GameKind, Move, Position};
use crate::hex::CellSet;
use crate::i18n::Text;
use crate::text;

/// Why the coach suggests its move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// It is the only legal move.
    Only,
    /// It wins the game at once.
    Wins,
    /// inpHeXion: the opponent threatened to connect; after this move they cannot.
    Stops,
    /// inpHeXion: it surrounds and relocates this many discs.
    Relocates(usize),
    /// inpHeXion: cells the shortest chain between each side's edges still lacks after the
    /// move (the member's, the opponent's).
    Closer { mine: u32, theirs: u32 },
    /// EXXIT: a dance of destruction is compulsory; the score after this one (the member's, the
    /// opponent's).
    Dance { score: [u32; 2] },
    /// EXXIT: it lays this many tiles; the score before and after (the member's first).
    Tiles {
        laid: usize,
        before: [u32; 2],
        after: [u32; 2],
    },
    /// EXXIT: a disc placed (or a pass); the score it keeps (the member's first).
    Builds { score: [u32; 2] },
}

/// What the opponent threatens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Threat {
    /// inpHeXion: before the member's move, the opponent would connect by pushing the disc on
    /// any of these cells (their names, at most three) and taking its place.
    Connects { cells: Vec<String> },
    /// EXXIT: after the suggested move, the opponent's best reply and the score it leaves (the
    /// member's first).
    Reply { with: String, score: [u32; 2] },
}

/// The coach's advice for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    pub mv: Move,
    pub why: Why,
    pub threat: Option<Threat>,
}

/// The search behind a hint: the bot's `medium` level in the game.
pub fn budget(kind: GameKind) -> Budget {
    ai::Level::Medium.budget_for(kind)
}

/// An EXXIT reply that swings the score by this many points against the member is worth a
/// warning.
const EXXIT_SWING: i64 = 3;

/// The coach's advice for the side to move in `game`, searched within `budget` with `seed`;
/// `None` when the game is over.
pub fn hint(game: &Game, budget: Budget, seed: u64) -> Option<Hint> {
    let position = game.position();
    let moves = position.legal_moves();
    let searched = ai::choose(position, budget, seed)?;
    let me = position.to_move();
    let wins = |p: &Position| p.outcome().is_some_and(|o| o.winner == Some(me));
    // A move that wins at once is the move.
    if let Some(mv) = std::iter::once(&searched)
        .chain(&moves)
        .find(|mv| after(position, mv).is_some_and(|p| wins(&p)))
    {
        return Some(Hint {
            mv: *mv,
            why: if moves.len() == 1 {
                Why::Only
            } else {
                Why::Wins
            },
            threat: None,
        });
    }
    Some(match position {
        Position::Inphexion(_) => inphexion_hint(position, &moves, searched, me),
        Position::Exxit(_) => exxit_hint(position, &moves, searched, me),
    })
}

/// The position after `mv`; `None` when it does not play there.
fn after(position: &Position, mv: &Move) -> Option<Position> {
    let mut p = position.clone();
    p.play(mv).ok().map(|()| p)
}

fn inphexion_hint(position: &Position, moves: &[Move], searched: Move, me: Colour) -> Hint {
    let them = me.other();
    let threats = connecting_cells(position, them);
    let threat = (!threats.is_empty()).then(|| Threat::Connects {
        cells: threats.iter().take(3).cloned().collect(),
    });
    // Against a threat, a move after which the opponent cannot connect at once: the search's
    // own if it is one, else the one that leaves the member's chain shortest.
    let safe = |q: &Position| q.outcome().is_none() && connecting_cells(q, them).is_empty();
    let mut mv = searched;
    if threat.is_some() && !after(position, &searched).is_some_and(|q| safe(&q)) {
        if let Some((better, _)) = moves
            .iter()
            .filter_map(|m| {
                let q = after(position, m).filter(|q| safe(q))?;
                Some((m, lacking(&q, me)))
            })
            .min_by_key(|(_, lack)| *lack)
        {
            mv = *better;
        }
    }
    let played = after(position, &mv);
    let relocated = match &mv {
        Move::Inphexion(m) => m.relocation_count(),
        Move::Exxit(_) => 0,
    };
    let why = if moves.len() == 1 {
        Why::Only
    } else if threat.is_some() && played.as_ref().is_some_and(safe) {
        Why::Stops
    } else if relocated > 0 {
        Why::Relocates(relocated)
    } else {
        let q = played.as_ref().unwrap_or(position);
        Why::Closer {
            mine: lacking(q, me),
            theirs: lacking(q, them),
        }
    };
    Hint { mv, why, threat }
}

/// The discs `by`'s opponent could have pushed so that `by`, placing on the cell left,
/// connects (I6, I17): the opponent's discs (and the neutral one) with an empty neighbour whose
/// cell completes `by`'s chain, by name.
fn connecting_cells(position: &Position, by: Colour) -> Vec<String> {
    let Position::Inphexion(p) = position else {
        return Vec::new();
    };
    let rh = p.rhombus();
    let empty = p.empty_cells();
    let theirs = p.discs(by);
    let (a, b) = p.edges(by);
    p.discs(by.other())
        .union(p.neutral_disc())
        .iter()
        .filter(|&i| rh.neighbours_of(i).intersects(empty))
        .filter(|&i| {
            let with = theirs.union(CellSet::single(i));
            rh.flood(a.intersection(with), with).intersects(b)
        })
        .map(|i| inphexion::cell_name(rh.hex(i)))
        .collect()
}

/// How many cells `c`'s shortest chain between its edges still lacks: every cell on the way
/// that does not hold one of `c`'s discs counts one (an empty cell to fill, a disc to push
/// away). A search by cost from one edge to the other (0 through `c`'s own discs, 1 through
/// any other cell).
fn lacking(position: &Position, c: Colour) -> u32 {
    let Position::Inphexion(p) = position else {
        return 0;
    };
    let rh = p.rhombus();
    let mine = p.discs(c);
    let (a, b) = p.edges(c);
    let cost = |i: u8| u32::from(!mine.contains(i));
    let mut best = [u32::MAX; 128];
    let mut queue = std::collections::VecDeque::new();
    for i in a.iter() {
        best[usize::from(i)] = cost(i);
        if cost(i) == 0 {
            queue.push_front(i);
        } else {
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        let here = best[usize::from(i)];
        for j in rh.neighbours_of(i).iter() {
            let there = here + cost(j);
            if there < best[usize::from(j)] {
                best[usize::from(j)] = there;
                if cost(j) == 0 {
                    queue.push_front(j);
                } else {
                    queue.push_back(j);
                }
            }
        }
    }
    b.iter().map(|i| best[usize::from(i)]).min().unwrap_or(0)
}

fn exxit_hint(position: &Position, moves: &[Move], mv: Move, me: Colour) -> Hint {
    let ours = |p: &Position| {
        let s = p.score().unwrap_or([0, 0]);
        [s[me.index()], s[me.other().index()]]
    };
    let tiles = |p: &Position| match p {
        Position::Exxit(x) => x.tiles().count(),
        Position::Inphexion(_) => 0,
    };
    let before = ours(position);
    let q = after(position, &mv).unwrap_or_else(|| position.clone());
    let now = ours(&q);
    let why = match mv {
        _ if moves.len() == 1 => Why::Only,
        Move::Exxit(exxit::Move::Dance { .. }) => Why::Dance { score: now },
        Move::Exxit(exxit::Move::Expand(_)) => Why::Tiles {
            laid: tiles(&q).saturating_sub(tiles(position)),
            before,
            after: now,
        },
        _ => Why::Builds { score: now },
    };
    // The opponent's best reply by the score it leaves them (a win first), worth a warning when
    // it wins or swings the score by EXXIT_SWING points or more.
    let margin = |s: [u32; 2]| i64::from(s[0]) - i64::from(s[1]);
    let threat = q
        .legal_moves()
        .iter()
        .filter_map(|r| {
            let t = after(&q, r)?;
            let lost = t.outcome().is_some_and(|o| o.winner == Some(me.other()));
            let score = ours(&t);
            Some((lost, -margin(score), r.to_string(), score))
        })
        .max_by_key(|(lost, swing, _, _)| (*lost, *swing))
        .filter(|(lost, swing, _, _)| *lost || *swing + margin(now) >= EXXIT_SWING)
        .map(|(_, _, with, score)| Threat::Reply { with, score });
    Hint { mv, why, threat }
}

impl Hint {
    /// The advice in words for the member to move in `game`: the move, why, and the warning.
    pub fn text(&self, game: &Game) -> Text {
        let position = game.position();
        let kind = game.kind();
        let me = position.to_move();
        let them = crate::play::words::colour(kind, me.other());
        let why = match &self.why {
            Why::Only => text!("coach-why-only"),
            Why::Wins => text!("coach-why-wins"),
            Why::Stops => text!("coach-why-stops", them = them.clone()),
            Why::Relocates(n) => text!("coach-why-relocates", n = *n as i64),
            Why::Closer { mine, theirs } => text!(
                "coach-why-closer",
                mine = i64::from(*mine),
                theirs = i64::from(*theirs),
                them = them.clone()
            ),
            Why::Dance { score } => text!(
                "coach-why-dance",
                mine = i64::from(score[0]),
                theirs = i64::from(score[1])
            ),
            Why::Tiles {
                laid,
                before,
                after,
            } => text!(
                "coach-why-tiles",
                n = *laid as i64,
                was = format!("{}–{}", before[0], before[1]),
                now = format!("{}–{}", after[0], after[1])
            ),
            Why::Builds { score } => text!(
                "coach-why-builds",
                score = format!("{}–{}", score[0], score[1])
            ),
        };
        let threat = match &self.threat {
            None => text!("coach-no-threat", them = them),
            Some(Threat::Connects { cells }) => text!(
                "coach-threat-connects",
                them = them,
                cells = cells.join(", ")
            ),
            Some(Threat::Reply { with, score }) => text!(
                "coach-threat-reply",
                them = them,
                with = with.clone(),
                score = format!("{}–{}", score[0], score[1])
            ),
        };
        text!(
            "coach-hint",
            words = crate::play::picker::describe_text(position, &self.mv),
            mv = self.mv.to_string(),
            why = why,
            threat = threat
        )
    }
}

#[cfg(test)]
mod tests;

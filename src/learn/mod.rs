//! Learn to play: a course for each game, in stages of a few levels, played through the rules
//! engine. The course is data ([`mod@course`], `assets/learn/<game>.json`, texts in `learn.ftl`);
//! this module plays a learner's move against a level ([`judge`]): is it legal (else the rule it
//! breaks, in words), does it reach the level's goal (judged on the positions, so every move that
//! does counts), the opponent's scripted reply, and the stars earned.
//!
//! A level is played from its start as a list of moves, the learner's and the replies, so that
//! an attempt is stored as text ([`crate::db`]'s `learn_attempts`) and replayed ([`replay`]):
//! a move that is refused changes nothing, a last move that misses the goal starts the level
//! again ([`Verdict::Missed`]). `/learn` is the bot's front end.

pub mod course;
#[cfg(test)]
mod tests;

pub use course::{course, Goal, Level, Stage};

use crate::games::{exxit, inphexion, Colour, Game, GameKind, Move, MoveError, Options, Position};
use crate::i18n::{catalog, Lang, Text};
use crate::text;

/// A level of the course, where it sits.
#[derive(Clone, Copy, Debug)]
pub struct Place {
    pub kind: GameKind,
    /// The stage's index in the game's course.
    pub stage: usize,
    /// The level's index in its stage.
    pub index: usize,
    pub level: &'static Level,
}

impl Place {
    /// The key stored with a member's progress: `inphexion/first-disc`.
    pub fn key(&self) -> String {
        format!("{}/{}", self.kind.name(), self.level.id)
    }

    pub fn stage(&self) -> &'static Stage {
        &stages(self.kind)[self.stage]
    }

    /// Whether this is its stage's last level.
    pub fn ends_stage(&self) -> bool {
        self.index + 1 == self.stage().levels.len()
    }

    /// The stage's title.
    pub fn stage_title(&self) -> Text {
        Text::dynamic(format!("learn-{}-{}", self.kind.name(), self.stage().id))
    }

    /// The level's goal in one sentence or two (the rule it teaches, then what to do).
    pub fn goal(&self) -> Text {
        Text::dynamic(format!("learn-{}-{}-goal", self.kind.name(), self.level.id))
    }

    /// The level's game at its start.
    pub fn start(&self) -> Result<Game, String> {
        start(self.level)
    }
}

/// The stages of `kind` (none when the course does not read, which the tests rule out).
pub fn stages(kind: GameKind) -> &'static [Stage] {
    course().map_or(&[], |c| c.stages(kind))
}

/// Every level of `kind`, in order.
pub fn places(kind: GameKind) -> Vec<Place> {
    stages(kind)
        .iter()
        .enumerate()
        .flat_map(|(s, stage)| {
            stage
                .levels
                .iter()
                .enumerate()
                .map(move |(i, level)| Place {
                    kind,
                    stage: s,
                    index: i,
                    level,
                })
        })
        .collect()
}

/// The level stored as `key` ([`Place::key`]); `None` when the course has no such level (any
/// more).
pub fn find(key: &str) -> Option<Place> {
    let (game, id) = key.split_once('/')?;
    let kind: GameKind = game.parse().ok()?;
    places(kind).into_iter().find(|p| p.level.id == id)
}

/// The first level of `kind` whose key `done` does not hold.
pub fn next_open(kind: GameKind, done: &dyn Fn(&str) -> bool) -> Option<Place> {
    places(kind).into_iter().find(|p| !done(&p.key()))
}

/// The level's game at its start.
pub fn start(level: &Level) -> Result<Game, String> {
    let options = Options::parse_line(&level.options).map_err(|e| e.to_string())?;
    match &level.position {
        None => Ok(Game::new(options)),
        Some(line) => Game::from_position(options, line).map_err(|e| e.to_string()),
    }
}

/// The level's game after `played` (the learner's moves and the replies, in notation).
pub fn replay(level: &Level, played: &[String]) -> Result<Game, String> {
    let mut game = start(level)?;
    for m in played {
        game.play_text(m)
            .map_err(|e| format!("the stored move `{m}` does not play: {e}"))?;
    }
    Ok(game)
}

/// How many stars a level reached in `tries` moves (the refused and missed ones too) earns:
/// three within its target, two with one more, else one.
pub fn stars(target: usize, tries: usize) -> u8 {
    if tries <= target {
        3
    } else if tries <= target + 1 {
        2
    } else {
        1
    }
}

/// A kind of move, as a goal names it.
pub fn move_kind(mv: &Move) -> &'static str {
    match mv {
        Move::Inphexion(m) => match m.kind() {
            inphexion::MoveKind::Place(_) => "place",
            inphexion::MoveKind::Swap => "swap",
            inphexion::MoveKind::Regular { .. } => "push",
        },
        Move::Exxit(m) => match m {
            exxit::Move::Dance { .. } => "dance",
            exxit::Move::Expand(_) => "expand",
            exxit::Move::Place(_) => "place",
            exxit::Move::Pass => "pass",
            exxit::Move::Swap => "swap",
        },
    }
}

/// The cell a move names first: where a disc is placed, the disc pushed, the dancing stack,
/// the stack replaced by a tile.
fn first_cell(mv: &Move) -> Option<String> {
    match mv {
        Move::Inphexion(m) => match m.kind() {
            inphexion::MoveKind::Place(c) | inphexion::MoveKind::Regular { from: c, .. } => {
                Some(inphexion::cell_name(c))
            }
            inphexion::MoveKind::Swap => None,
        },
        Move::Exxit(m) => match m {
            exxit::Move::Dance { from: c, .. } | exxit::Move::Expand(c) | exxit::Move::Place(c) => {
                Some(c.to_string())
            }
            exxit::Move::Pass | exxit::Move::Swap => None,
        },
    }
}

/// Whether `mv`, played by `learner` from `before` to `after`, does all that `goal` asks (a move
/// that loses the game never does).
pub fn reaches(
    goal: &Goal,
    before: &Position,
    mv: &Move,
    after: &Position,
    learner: Colour,
) -> bool {
    if goal.win && after.outcome().is_none_or(|o| o.winner != Some(learner)) {
        return false;
    }
    // A move that loses the game reaches no goal (a relocation that completes the opponent's
    // chain, I17, relocates all the same).
    if after
        .outcome()
        .is_some_and(|o| o.winner == Some(learner.other()))
    {
        return false;
    }
    if goal.kind.as_deref().is_some_and(|k| k != move_kind(mv)) {
        return false;
    }
    if goal.cell.is_some() && goal.cell != first_cell(mv) {
        return false;
    }
    if goal.relocate > 0 {
        let moved = match mv {
            Move::Inphexion(m) => m.relocation_count(),
            Move::Exxit(_) => 0,
        };
        if moved < goal.relocate {
            return false;
        }
    }
    if let (Position::Exxit(b), Position::Exxit(a), Move::Exxit(m)) = (before, after, mv) {
        if goal.into_space && !crate::play::picker::falls_into_space(b, m) {
            return false;
        }
        if a.tiles().count() < b.tiles().count() + goal.tiles {
            return false;
        }
        if a.stacks().filter(|(_, s)| s.owner() == learner).count() < goal.stacks {
            return false;
        }
    } else if goal.into_space || goal.tiles > 0 || goal.stacks > 0 {
        return false;
    }
    if goal.no_dance
        && after
            .legal_moves()
            .iter()
            .any(|m| matches!(m, Move::Exxit(exxit::Move::Dance { .. })))
    {
        return false;
    }
    if goal.lead {
        let Some(score) = after.score() else {
            return false;
        };
        if score[learner.index()] <= score[learner.other().index()] {
            return false;
        }
    }
    if goal.safe && wins_at_once(after, learner.other()) {
        return false;
    }
    true
}

/// Whether `who`, to move in `position`, has a move that wins at once.
fn wins_at_once(position: &Position, who: Colour) -> bool {
    if position.outcome().is_some() || position.to_move() != who {
        return false;
    }
    position.legal_moves().iter().any(|m| {
        let mut after = position.clone();
        after.play(m).is_ok() && after.outcome().is_some_and(|o| o.winner == Some(who))
    })
}

/// Whether some move of the learner, to move in `position`, reaches `goal` at once.
fn goal_in_one(goal: &Goal, position: &Position, learner: Colour) -> bool {
    if position.outcome().is_some() || position.to_move() != learner {
        return false;
    }
    position.legal_moves().iter().any(|m| {
        let mut after = position.clone();
        after.play(m).is_ok() && reaches(goal, position, m, &after, learner)
    })
}

/// The opponent's answer, in `position` after the learner's move `played`: the level's scripted
/// reply to that move, else the rule: the first legal reply in notation order after which the
/// learner cannot reach the goal at once, else the first. `None` when the game is over.
pub fn reply_rule(
    level: &Level,
    position: &Position,
    played: &str,
) -> Result<Option<Move>, String> {
    if position.outcome().is_some() {
        return Ok(None);
    }
    if let Some((_, reply)) = level.replies.iter().find(|(m, _)| m == played) {
        let mv = position
            .parse_move(reply)
            .map_err(|e| format!("the scripted reply `{reply}` to `{played}`: {e}"))?;
        return Ok(Some(mv));
    }
    let mut moves = position.legal_moves();
    moves.sort_by_cached_key(|m| m.to_string());
    let learner = position.to_move().other();
    let blocks = moves.iter().find(|m| {
        let mut after = position.clone();
        after.play(m).is_ok() && !goal_in_one(&level.goal, &after, learner)
    });
    Ok(blocks.or(moves.first()).copied())
}

/// What a learner's move did to a level.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The goal is reached, with the move in canonical notation and the stars earned.
    Done { mv: String, stars: u8 },
    /// Not played: the rules forbid it, or the level names it as a mistake. Said in words; the
    /// learner tries again from the same position.
    Refused { why: Text },
    /// Legal, but the level's last move missed the goal (or lost the game): said why; the level
    /// starts again.
    Missed { why: Text },
    /// Legal and not yet the goal, with moves left: the move and the opponent's reply, both
    /// played (canonical notation).
    Next { mv: String, reply: String },
}

/// The learner plays `text` in `place`'s level after `played` (the moves so far, replies
/// included); `tries` counts this move too (the refused and missed ones included), for the
/// stars. An error is a level that does not replay (a course or a stored attempt gone wrong).
pub fn judge(
    place: &Place,
    played: &[String],
    text: &str,
    tries: usize,
) -> Result<Verdict, String> {
    let level = place.level;
    let game = replay(level, played)?;
    let position = game.position();
    let learner = position.to_move();
    if let Some(w) = level
        .wrong
        .iter()
        .find(|w| same_move(position, &w.mv, text))
    {
        let why = Text::dynamic(format!(
            "learn-{}-{}-{}",
            place.kind.name(),
            level.id,
            w.why
        ));
        return Ok(Verdict::Refused { why });
    }
    let mv = match position.parse_move(text) {
        Ok(mv) => mv,
        Err(e) => return Ok(Verdict::Refused { why: refusal(&e) }),
    };
    let notation = mv.to_string();
    let mut after = position.clone();
    after.play(&mv).map_err(|e| e.to_string())?;
    if reaches(&level.goal, position, &mv, &after, learner) {
        return Ok(Verdict::Done {
            mv: notation,
            stars: stars(level.target, tries),
        });
    }
    let moves_made = played.len() / 2 + 1;
    let lost = after.outcome().is_some_and(|o| o.winner != Some(learner));
    if lost {
        return Ok(Verdict::Missed {
            why: text!("learn-missed-lost", goal = place.goal()),
        });
    }
    if moves_made >= level.target || after.outcome().is_some() {
        return Ok(Verdict::Missed {
            why: text!("learn-missed", goal = place.goal()),
        });
    }
    let reply = reply_rule(level, &after, &notation)?
        .ok_or_else(|| format!("no reply after `{notation}`"))?;
    Ok(Verdict::Next {
        mv: notation,
        reply: reply.to_string(),
    })
}

/// Whether move texts `a` and `b` name the same move in `position`: the same legal move, or
/// the same text once case and spaces are ignored (a move the rules forbid).
fn same_move(position: &Position, a: &str, b: &str) -> bool {
    let plain = |t: &str| -> String {
        t.chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect()
    };
    if plain(a) == plain(b) {
        return true;
    }
    match (position.parse_move(a), position.parse_move(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Why the rules refuse a move, in words: the rule its reason names (`learn-rule-i6`), else
/// the engine's reason as it is.
pub fn refusal(e: &MoveError) -> Text {
    match e {
        MoveError::Notation(_) => text!("learn-bad-notation"),
        MoveError::Illegal(i) => match rule_text(&i.why) {
            Some(rule) => text!("learn-illegal", rule = rule),
            None => text!("learn-illegal", rule = Text::raw(i.why.clone())),
        },
    }
}

/// The words of the last rule a reason names (`(I6)`, `(I10, I11)`) that the course explains
/// (the last is the one the move breaks: "… only on White's first move (I5) …; a regular move
/// is FROM-TO (I6)").
fn rule_text(why: &str) -> Option<Text> {
    let bytes: Vec<char> = why.chars().collect();
    let mut found = None;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start_ok = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
        if (c == 'I' || c == 'X') && start_ok {
            let digits: String = bytes[i + 1..]
                .iter()
                .take_while(|d| d.is_ascii_digit())
                .collect();
            if !digits.is_empty() {
                let id = format!("learn-rule-{}{digits}", c.to_ascii_lowercase());
                if catalog().get_exact(Lang::EN, &id, None).is_some() {
                    found = Some(Text::dynamic(id));
                }
            }
        }
        i += 1;
    }
    found
}

//! The course as data: one JSON file per game in `assets/learn/`, read once.
//!
//! A file is `{"stages": [{"id", "levels": [level…]}…]}`; a level is
//! - `id`: unique in its game, never changed once members have progress on it (it is stored);
//! - `options`: the variant line (`inphexion size=5`), and `position`: the engine's position line
//!   (`setpos`), or absent for the variant's start; the learner plays the side to move there;
//! - `goal`: what the learner's move must do ([`Goal`]), judged by the rules engine on the
//!   position before and after it: win, a kind of move, a cell, discs relocated, a dance into
//!   outer space, tiles laid, a lead in score, no win left to the opponent (`safe`), no dance
//!   left to the opponent (`no_dance`), stacks owned (`stacks`);
//! - `target`: the most moves of the learner to reach the goal (3 stars when no move was
//!   refused on the way, [`super::stars`]); a last move that misses it starts the level again;
//! - `replies`: the opponent's scripted answers between the learner's moves, by the learner's
//!   move; a move without one is answered by [`super::reply_rule`] (the first reply, in notation
//!   order, after which the goal cannot be reached at once, else the first);
//! - `solution`: one way to reach the goal (checked by the tests, shown to no one);
//! - `wrong`: moves the texts name, each refused with its own explanation `why`.
//!
//! Texts come from `learn.ftl` by message id: a stage's title `learn-<game>-<stage>`, a level's
//! goal `learn-<game>-<level>-goal`, a wrong move's explanation `learn-<game>-<level>-<why>`.

use std::sync::OnceLock;

use serde::Deserialize;

use crate::games::GameKind;

/// The course's files, one per game.
const FILES: [(GameKind, &str); 2] = [
    (
        GameKind::Inphexion,
        include_str!("../../assets/learn/inphexion.json"),
    ),
    (
        GameKind::Exxit,
        include_str!("../../assets/learn/exxit.json"),
    ),
];

/// A game's course as its file says it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct File {
    pub stages: Vec<Stage>,
}

/// A stage: a few levels on one rule or idea.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stage {
    pub id: String,
    pub levels: Vec<Level>,
}

/// One level (see the module's docs).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    pub id: String,
    pub options: String,
    #[serde(default)]
    pub position: Option<String>,
    pub goal: Goal,
    pub target: usize,
    #[serde(default)]
    pub replies: Vec<(String, String)>,
    pub solution: Vec<String>,
    #[serde(default)]
    pub wrong: Vec<Wrong>,
}

/// A move a level's texts explain: refused with `learn-<game>-<level>-<why>`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wrong {
    #[serde(rename = "move")]
    pub mv: String,
    pub why: String,
}

/// What the learner's move must do; every field given must hold.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Goal {
    /// The learner has won once the move is played.
    #[serde(default)]
    pub win: bool,
    /// The kind of move ([`super::move_kind`]: `place`, `push`, `swap`, `dance`, `expand`).
    #[serde(default, rename = "move")]
    pub kind: Option<String>,
    /// The cell the move names first (where a disc is placed, the pushed disc, the dancing
    /// stack, the expanding stack).
    #[serde(default)]
    pub cell: Option<String>,
    /// At least this many opponent (or neutral) discs relocated (inpHeXion, I10).
    #[serde(default)]
    pub relocate: usize,
    /// A dance that drops discs into outer space (EXXIT, X14).
    #[serde(default)]
    pub into_space: bool,
    /// At least this many tiles laid (EXXIT, X16).
    #[serde(default)]
    pub tiles: usize,
    /// The learner's score is above the opponent's after the move (EXXIT, X20).
    #[serde(default)]
    pub lead: bool,
    /// The opponent cannot win with their next move.
    #[serde(default)]
    pub safe: bool,
    /// The opponent has no dance of destruction to play next (EXXIT, X13): the learner's stacks
    /// are out of reach.
    #[serde(default)]
    pub no_dance: bool,
    /// The learner owns at least this many stacks after the move (EXXIT, X3, X15: a stack
    /// covered by the learner's disc changes owner).
    #[serde(default)]
    pub stacks: usize,
}

/// The whole course, read once.
pub struct Course {
    pub games: Vec<(GameKind, File)>,
}

static COURSE: OnceLock<Result<Course, String>> = OnceLock::new();

/// The course (read from the embedded files on first use). A file that does not read is an
/// error naming it; the tests read every file, so this is a build gone wrong.
pub fn course() -> Result<&'static Course, &'static str> {
    COURSE
        .get_or_init(|| {
            let mut games = Vec::new();
            for (kind, text) in FILES {
                let file: File = serde_json::from_str(text)
                    .map_err(|e| format!("assets/learn/{}.json: {e}", kind.name()))?;
                games.push((kind, file));
            }
            Ok(Course { games })
        })
        .as_ref()
        .map_err(String::as_str)
}

impl Course {
    /// The stages of `kind`'s course.
    pub fn stages(&self, kind: GameKind) -> &[Stage] {
        self.games
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or(&[], |(_, f)| &f.stages)
    }

    /// Every level of `kind`, in order, with its stage's index.
    pub fn levels(&self, kind: GameKind) -> impl Iterator<Item = (usize, &Level)> {
        self.stages(kind)
            .iter()
            .enumerate()
            .flat_map(|(i, s)| s.levels.iter().map(move |l| (i, l)))
    }
}

//! The bot as an opponent: Monte-Carlo tree search over a small trait that both games implement.
//!
//! [`SearchGame`] is all the search needs from a game: whose turn, the outcome, the legal moves,
//! making a move and a playout to the end. [`mcts::search`] runs UCT within a [`Budget`] with a
//! seed, so equal seeds give equal moves, and adds solver knowledge at the root: a win in one is
//! always taken, and a move that lets the opponent win at once is avoided when another exists.

pub mod alphabeta;
pub mod boardspace;
pub mod deep;
mod games;
pub mod mcts;

use std::fmt;
use std::str::FromStr;

use rand::rngs::SmallRng;

use crate::games::{Colour, GameKind, Outcome};

/// What a game offers to the search.
pub trait SearchGame: Clone {
    type Move: Copy + Eq + fmt::Debug;

    fn to_move(&self) -> Colour;

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Every legal move, into `out` (cleared first).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays a move from [`SearchGame::legal_moves`].
    fn play(&mut self, mv: Self::Move);

    /// Plays on to the end (random moves, or better where the game knows better) and returns
    /// the outcome.
    fn playout(&mut self, rng: &mut SmallRng) -> Outcome;

    /// A playout's value for the first colour, 0 to 1: by default the outcome of
    /// [`SearchGame::playout`]; a game may stop earlier and estimate.
    fn playout_value(&mut self, rng: &mut SmallRng) -> f64 {
        value_for(&self.playout(rng), Colour::First)
    }

    /// [`SearchGame::playout_value`] for the strongest search ([`mcts::search_trees`]): a
    /// game may play better (and slower) playouts there.
    fn strong_playout_value(&mut self, rng: &mut SmallRng) -> f64 {
        self.playout_value(rng)
    }

    /// The cell (an index below 128) that a move claims for its mover, for the
    /// all-moves-as-first statistics of RAVE ([`mcts::search_trees`]); `None` when the game
    /// has no such notion or the move claims none.
    fn amaf_cell(&self, _mv: Self::Move) -> Option<u8> {
        None
    }

    /// The cells each colour holds (bit `k` for the cell [`SearchGame::amaf_cell`] calls
    /// `k`), indexed by [`Colour::index`].
    fn held(&self) -> [u128; 2] {
        [0, 0]
    }
}

/// How long a search may run: a number of playouts, a time, or both (whichever ends first).
/// In EXXIT, `nodes` (when set) chooses the alpha-beta search of [`deep`] instead of the
/// Monte-Carlo search, within that many evaluated positions (and the time, if any).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Budget {
    pub playouts: Option<u32>,
    pub millis: Option<u64>,
    pub nodes: Option<u64>,
}

impl Budget {
    pub const fn playouts(n: u32) -> Budget {
        Budget {
            playouts: Some(n),
            millis: None,
            nodes: None,
        }
    }

    /// EXXIT's alpha-beta search within `n` evaluated positions.
    pub const fn nodes(n: u64) -> Budget {
        Budget {
            playouts: None,
            millis: None,
            nodes: Some(n),
        }
    }
}

/// The bot's playing strength.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Level {
    Easy,
    Medium,
    Hard,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

    pub const fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    /// A budget for either game (the tighter of the two games' budgets for the level).
    pub const fn budget(self) -> Budget {
        self.budget_for(GameKind::Exxit)
    }

    /// The search budget behind each level in each game. Playouts (Monte-Carlo) or evaluated
    /// positions (EXXIT's `medium` and `hard`, alpha-beta) set the strength, so equal seeds give
    /// equal moves; the time is a cap that keeps `hard` within 5 s on a loaded machine.
    pub const fn budget_for(self, kind: GameKind) -> Budget {
        let (playouts, nodes, millis) = match (kind, self) {
            (GameKind::Inphexion, Level::Easy) => (Some(150), None, 500),
            (GameKind::Inphexion, Level::Medium) => (Some(1_500), None, 1_500),
            (GameKind::Inphexion, Level::Hard) => (Some(120_000), None, 4_000),
            (GameKind::Exxit, Level::Easy) => (Some(200), None, 500),
            (GameKind::Exxit, Level::Medium) => (None, Some(MEDIUM_NODES), 1_500),
            (GameKind::Exxit, Level::Hard) => (None, Some(HARD_NODES), 4_000),
        };
        Budget {
            playouts,
            millis: Some(millis),
            nodes,
        }
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown level `{s}`: easy, medium or hard"))
    }
}

/// Evaluated positions per move of EXXIT's `medium` (alpha-beta, [`deep`]).
pub const MEDIUM_NODES: u64 = 100_000;
/// Evaluated positions per move of EXXIT's `hard`.
pub const HARD_NODES: u64 = 1_000_000;

/// inpHeXion searches of this many playouts or more (`hard`) grow [`TREES`] trees, each on its
/// own thread with its share of the playouts ([`mcts::search_trees`]): both cores of a
/// two-core machine for the move awaited.
pub const SPLIT_FROM: u32 = 20_000;
/// Trees of a split search.
pub const TREES: u32 = 2;

/// The value of an outcome for `player`: 1 for a win, ½ for a draw, 0 for a loss.
pub fn value_for(outcome: &Outcome, player: Colour) -> f64 {
    match outcome.winner {
        Some(w) if w == player => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// Chooses a move for the side to move in a position of either game; `None` when it is over.
pub fn choose(
    position: &crate::games::Position,
    budget: Budget,
    seed: u64,
) -> Option<crate::games::Move> {
    use crate::games::{Move, Position};
    match position {
        Position::Inphexion(p) => {
            let found = if budget.playouts.is_some_and(|n| n >= SPLIT_FROM) {
                mcts::search_trees(p, budget, seed, TREES)
            } else {
                mcts::search(p, budget, seed)
            };
            found.map(|c| Move::Inphexion(c.mv))
        }
        Position::Exxit(p) => match budget.nodes {
            Some(n) => {
                let deadline = budget
                    .millis
                    .map(|ms| std::time::Instant::now() + std::time::Duration::from_millis(ms));
                deep::search(p, n, deadline).map(|c| Move::Exxit(c.mv))
            }
            None => mcts::search(p, budget, seed).map(|c| Move::Exxit(c.mv)),
        },
    }
}

//! [`SearchGame`] for each game's position, and [`Player`] for each game: the bot's searches
//! and levels.

use rand::rngs::SmallRng;

use super::{
    boardspace, deep, mcts, value_for, Amount, Budget, Level, Player, SearchGame, HARD_NODES,
    MEDIUM_NODES, SPLIT_FROM, TREES,
};
use crate::games::{exxit, inphexion, Colour, Outcome};

impl SearchGame for inphexion::Position {
    type Move = inphexion::Move;

    fn to_move(&self) -> Colour {
        inphexion::Position::to_move(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        inphexion::Position::outcome(self)
    }

    fn legal_moves(&self, out: &mut Vec<inphexion::Move>) {
        let mut list = inphexion::MoveList::new();
        inphexion::Position::legal_moves(self, &mut list);
        out.clear();
        out.extend_from_slice(list.as_slice());
    }

    fn play(&mut self, mv: inphexion::Move) {
        inphexion::Position::play(self, &mv);
    }

    fn playout(&mut self, rng: &mut SmallRng) -> Outcome {
        inphexion::Position::playout(self, rng)
    }

    /// Playouts where a player who can win at once does so
    /// ([`inphexion::Position::playout_decisive`]).
    fn strong_playout_value(&mut self, rng: &mut SmallRng) -> f64 {
        value_for(&self.playout_decisive(rng), Colour::First)
    }

    /// The cell where the mover's disc goes: a placement's cell, or the cell a regular move
    /// moves the opponent's disc from (I6).
    fn amaf_cell(&self, mv: inphexion::Move) -> Option<u8> {
        let cell = match mv.kind() {
            inphexion::MoveKind::Place(c) => c,
            inphexion::MoveKind::Regular { from, .. } => from,
            _ => return None,
        };
        self.cell_index(cell)
    }

    fn held(&self) -> [u128; 2] {
        [self.discs(Colour::First).0, self.discs(Colour::Second).0]
    }
}

impl SearchGame for exxit::Position {
    type Move = exxit::Move;

    fn to_move(&self) -> Colour {
        exxit::Position::to_move(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        exxit::Position::outcome(self)
    }

    fn legal_moves(&self, out: &mut Vec<exxit::Move>) {
        let mut list = exxit::MoveList::new();
        exxit::Position::legal_moves(self, &mut list);
        out.clear();
        out.extend_from_slice(list.as_slice());
    }

    fn play(&mut self, mv: exxit::Move) {
        exxit::Position::play(self, &mv);
    }

    fn playout(&mut self, rng: &mut SmallRng) -> Outcome {
        let mut buf = exxit::MoveList::new();
        exxit::Position::playout(self, rng, &mut buf)
    }

    /// Random moves for at most `CUT` (16) plies, then the island score (X20) as a win
    /// probability: a logistic of the score difference.
    fn playout_value(&mut self, rng: &mut SmallRng) -> f64 {
        // Scratch space for the expert setup only: no allocation otherwise.
        let mut buf = exxit::MoveList::default();
        self.random_plies(rng, CUT, &mut buf);
        if let Some(o) = exxit::Position::outcome(self) {
            return value_for(&o, Colour::First);
        }
        let s = self.score();
        let d = s[0] as f64 - s[1] as f64;
        1.0 / (1.0 + (-d / SCALE).exp())
    }
}

/// Playouts of `beginner`'s search in inpHeXion and in EXXIT.
const BEGINNER_INPHEXION: u32 = 30;
const BEGINNER_EXXIT: u32 = 20;

/// Plies an EXXIT playout runs before the evaluation decides.
const CUT: u32 = 16;
/// Score points for a factor e in the odds.
const SCALE: f64 = 3.0;

impl Player for inphexion::Inphexion {
    const ANALYSIS: Amount = Amount::Playouts;

    fn budget(level: Level) -> Budget {
        let (playouts, millis) = match level {
            Level::Beginner => (BEGINNER_INPHEXION, 500),
            Level::Easy => (150, 500),
            Level::Medium => (1_500, 1_500),
            Level::Hard => (120_000, 4_000),
        };
        Budget {
            playouts: Some(playouts),
            millis: Some(millis),
            nodes: None,
        }
    }

    /// UCT; split over [`TREES`] trees from [`SPLIT_FROM`] playouts.
    fn choose(p: &inphexion::Position, budget: Budget, seed: u64) -> Option<inphexion::Move> {
        let found = if budget.playouts.is_some_and(|n| n >= SPLIT_FROM) {
            mcts::search_trees(p, budget, seed, TREES)
        } else {
            mcts::search(p, budget, seed)
        };
        found.map(|c| c.mv)
    }

    /// UCT of `playouts`; its value is the chance.
    fn chance(p: &inphexion::Position, playouts: u64, seed: u64) -> Option<(inphexion::Move, f64)> {
        let n = u32::try_from(playouts).unwrap_or(u32::MAX);
        mcts::search(p, Budget::playouts(n), seed).map(|c| (c.mv, c.value.clamp(0.0, 1.0)))
    }
}

impl Player for exxit::Exxit {
    const ANALYSIS: Amount = Amount::Nodes;

    fn budget(level: Level) -> Budget {
        let (playouts, nodes, millis) = match level {
            Level::Beginner => (Some(BEGINNER_EXXIT), None, 500),
            Level::Easy => (Some(200), None, 500),
            Level::Medium => (None, Some(MEDIUM_NODES), 1_500),
            Level::Hard => (None, Some(HARD_NODES), 4_000),
        };
        Budget {
            playouts,
            millis: Some(millis),
            nodes,
        }
    }

    /// Alpha-beta ([`deep`]) for a budget of positions, else UCT with evaluation-cut playouts.
    fn choose(p: &exxit::Position, budget: Budget, seed: u64) -> Option<exxit::Move> {
        match budget.nodes {
            Some(n) => {
                let deadline = budget
                    .millis
                    .map(|ms| std::time::Instant::now() + std::time::Duration::from_millis(ms));
                deep::search(p, n, deadline, Some(seed)).map(|c| c.mv)
            }
            None => mcts::search(p, budget, seed).map(|c| c.mv),
        }
    }

    /// Alpha-beta of `nodes` positions; the value as a chance: certain once a win or a loss is
    /// found, else a logistic of the island-score points (6 points for a factor e in the odds).
    fn chance(p: &exxit::Position, nodes: u64, _seed: u64) -> Option<(exxit::Move, f64)> {
        let c = deep::search(p, nodes.max(1), None, None)?;
        let win = boardspace::WIN;
        let chance = if c.value >= win / 2.0 {
            1.0
        } else if c.value <= -win / 2.0 {
            0.0
        } else {
            1.0 / (1.0 + (-c.value / CHANCE_SCALE).exp())
        };
        Some((c.mv, chance))
    }
}

/// EXXIT: the alpha-beta value (island-score points) at which the chance is about 73 % (e).
const CHANCE_SCALE: f64 = 6.0;

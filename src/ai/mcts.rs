//! UCT Monte-Carlo tree search with root solver knowledge ([`search`]), and the split search of
//! inpHeXion's `hard` ([`search_trees`]): independent trees on their own threads, RAVE and the
//! game's strong playouts. The design and the budgets are in [`super`].

use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::{value_for, Budget, SearchGame};
use crate::games::Colour;

/// Exploration constant of UCB1.
const EXPLORATION: f64 = 0.9;

struct Node<M> {
    mv: Option<M>,
    /// Who played `mv` (the node's value is from this player's side).
    mover: Colour,
    parent: Option<usize>,
    children: Vec<usize>,
    untried: Vec<M>,
    visits: u32,
    value: f64,
    /// The cell `mv` claims for its mover ([`SearchGame::amaf_cell`]), [`NO_CELL`] if none.
    cell: u8,
    /// All-moves-as-first statistics of `mv` among its siblings: playouts through the parent
    /// that ended with `cell` held by the mover, and their total value for the mover.
    amaf_visits: u32,
    amaf_value: f64,
}

/// Each root move searched, with its visits and total value for the side to move at the root.
type RootStats<M> = Vec<(M, u32, f64)>;

/// No cell for the all-moves-as-first statistics.
const NO_CELL: u8 = u8::MAX;
/// RAVE: the visits at which a move's own mean and its all-moves-as-first mean weigh alike
/// (β = √(K / (3n + K)), Gelly and Silver's schedule).
const RAVE_K: f64 = 1000.0;
/// Exploration constant of UCB1 beside RAVE (which explores by itself).
const RAVE_EXPLORATION: f64 = 0.4;

/// The result of a search: the move chosen and how the search saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice<M> {
    pub mv: M,
    /// Playouts run.
    pub playouts: u32,
    /// The chosen move's mean value for the side to move, 0 to 1.
    pub value: f64,
}

/// Chooses a move for the side to move, or `None` when the game is over or no move exists.
pub fn search<G: SearchGame>(root: &G, budget: Budget, seed: u64) -> Option<Choice<G::Move>> {
    let moves = match prelude(root) {
        Ok(moves) => moves,
        Err(done) => return done,
    };
    let deadline = budget
        .millis
        .map(|ms| Instant::now() + Duration::from_millis(ms));
    let max_playouts = budget.playouts.unwrap_or(u32::MAX);
    let (stats, playouts) = grow(root, &moves, max_playouts, deadline, seed, false);
    Some(rank(root, &moves, stats, playouts))
}

/// [`search`] with the playouts shared among `trees` independent trees (root parallelism),
/// each grown on its own thread from its own seed and run to its share of the playouts; the
/// root moves' visits and values are then added up over the trees. With a budget of
/// playouts (the time only a cap), equal seeds still give equal moves, however many cores
/// the machine has.
pub fn search_trees<G>(root: &G, budget: Budget, seed: u64, trees: u32) -> Option<Choice<G::Move>>
where
    G: SearchGame + Send + Sync,
    G::Move: Send + Sync,
{
    let trees = trees.max(1);
    let moves = match prelude(root) {
        Ok(moves) => moves,
        Err(done) => return done,
    };
    let deadline = budget
        .millis
        .map(|ms| Instant::now() + Duration::from_millis(ms));
    let share = budget.playouts.map_or(u32::MAX, |n| n.div_ceil(trees));
    let grown: Vec<(RootStats<G::Move>, u32)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..trees)
            .map(|k| {
                let moves = &moves;
                let tree_seed = seed ^ u64::from(k).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                scope.spawn(move || grow(root, moves, share, deadline, tree_seed, true))
            })
            .collect();
        handles
            .into_iter()
            // A tree's thread cannot panic short of a bug; its share is then lost.
            .filter_map(|h| h.join().ok())
            .collect()
    });
    let mut stats: RootStats<G::Move> = Vec::new();
    let mut playouts = 0;
    for (tree, n) in grown {
        playouts += n;
        for (mv, visits, value) in tree {
            match stats.iter_mut().find(|s| s.0 == mv) {
                Some(s) => {
                    s.1 += visits;
                    s.2 += value;
                }
                None => stats.push((mv, visits, value)),
            }
        }
    }
    Some(rank(root, &moves, stats, playouts))
}

/// The root's legal moves when a search is needed; otherwise the answer (`None` when the game
/// is over or has no move, the only move, or a win in one).
#[allow(clippy::type_complexity)]
fn prelude<G: SearchGame>(root: &G) -> Result<Vec<G::Move>, Option<Choice<G::Move>>> {
    if root.outcome().is_some() {
        return Err(None);
    }
    let me = root.to_move();
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    if moves.is_empty() {
        return Err(None);
    }
    if moves.len() == 1 {
        return Err(Some(Choice {
            mv: moves[0],
            playouts: 0,
            value: 0.5,
        }));
    }
    // Solver: a win in one is always taken.
    for &mv in &moves {
        let mut g = root.clone();
        g.play(mv);
        if g.outcome().is_some_and(|o| o.winner == Some(me)) {
            return Err(Some(Choice {
                mv,
                playouts: 0,
                value: 1.0,
            }));
        }
    }
    Ok(moves)
}

/// Grows one UCT tree from `root` (whose legal moves are `moves`) for at most `max_playouts`
/// playouts or until `deadline`; returns each expanded root move with its visits and total
/// value for the side to move at the root, and the playouts run. With `rave` (and a game
/// that names the cell a move claims), children are chosen by RAVE: each move's mean is
/// blended with its all-moves-as-first mean (the playouts through its parent that ended with
/// its cell held by its mover), which counts from the first playouts on, and the playouts are
/// the game's strong ones ([`SearchGame::strong_playout_value`]).
fn grow<G: SearchGame>(
    root: &G,
    moves: &[G::Move],
    max_playouts: u32,
    deadline: Option<Instant>,
    seed: u64,
    rave: bool,
) -> (RootStats<G::Move>, u32) {
    let me = root.to_move();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut nodes: Vec<Node<G::Move>> = vec![Node {
        mv: None,
        mover: me.other(),
        parent: None,
        children: Vec::new(),
        untried: moves.to_vec(),
        visits: 0,
        value: 0.0,
        cell: NO_CELL,
        amaf_visits: 0,
        amaf_value: 0.0,
    }];
    let mut scratch = Vec::new();
    let mut playouts = 0;
    // One state, reset from the root for each playout (`clone_from` reuses its storage).
    let mut state = root.clone();
    while playouts < max_playouts {
        if playouts % 64 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        state.clone_from(root);
        let mut at = 0;
        // Selection.
        while nodes[at].untried.is_empty() && !nodes[at].children.is_empty() {
            at = if rave {
                select_child_rave(&nodes, at)
            } else {
                select_child(&nodes, at)
            };
            if let Some(mv) = nodes[at].mv {
                state.play(mv);
            }
        }
        // Expansion.
        if !nodes[at].untried.is_empty() && state.outcome().is_none() {
            let k = rng.random_range(0..nodes[at].untried.len());
            let mv = nodes[at].untried.swap_remove(k);
            let mover = state.to_move();
            let cell = if rave {
                state.amaf_cell(mv).unwrap_or(NO_CELL)
            } else {
                NO_CELL
            };
            state.play(mv);
            let mut untried = Vec::new();
            if state.outcome().is_none() {
                state.legal_moves(&mut scratch);
                untried.extend_from_slice(&scratch);
            }
            nodes.push(Node {
                mv: Some(mv),
                mover,
                parent: Some(at),
                children: Vec::new(),
                untried,
                visits: 0,
                value: 0.0,
                cell,
                amaf_visits: 0,
                amaf_value: 0.0,
            });
            let child = nodes.len() - 1;
            nodes[at].children.push(child);
            at = child;
        }
        // Simulation.
        let first = match state.outcome() {
            Some(o) => value_for(&o, Colour::First),
            None if rave => state.strong_playout_value(&mut rng),
            None => state.playout_value(&mut rng),
        };
        playouts += 1;
        // Back-propagation.
        let held = if rave { state.held() } else { [0, 0] };
        let mut cur = Some(at);
        while let Some(i) = cur {
            if rave {
                for k in 0..nodes[i].children.len() {
                    let ck = nodes[i].children[k];
                    let c = &mut nodes[ck];
                    if c.cell != NO_CELL && (held[c.mover.index()] >> c.cell) & 1 == 1 {
                        c.amaf_visits += 1;
                        c.amaf_value += if c.mover == Colour::First {
                            first
                        } else {
                            1.0 - first
                        };
                    }
                }
            }
            let n = &mut nodes[i];
            n.visits += 1;
            n.value += if n.mover == Colour::First {
                first
            } else {
                1.0 - first
            };
            cur = n.parent;
        }
    }

    let stats = nodes[0]
        .children
        .iter()
        .map(|&c| {
            let n = &nodes[c];
            (n.mv.unwrap_or(moves[0]), n.visits, n.value)
        })
        .collect();
    (stats, playouts)
}

/// The choice from the root moves' statistics (move, visits, total value): the most visited
/// (ties by mean value), unless it lets the opponent win at once and another move does not.
fn rank<G: SearchGame>(
    root: &G,
    moves: &[G::Move],
    stats: RootStats<G::Move>,
    playouts: u32,
) -> Choice<G::Move> {
    let mut scratch = Vec::new();
    let mut ranked: Vec<(G::Move, u32, f64)> = stats
        .into_iter()
        .map(|(mv, visits, value)| {
            let mean = if visits == 0 {
                0.0
            } else {
                value / visits as f64
            };
            (mv, visits, mean)
        })
        .collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)));
    for &mv in moves {
        if !ranked.iter().any(|r| r.0 == mv) {
            ranked.push((mv, 0, 0.0));
        }
    }
    let safe = ranked
        .iter()
        .find(|r| !gives_immediate_win(root, r.0, &mut scratch))
        .or(ranked.first())
        .copied()
        // `moves` is never empty, and each of its moves is ranked.
        .unwrap_or((moves[0], 0, 0.0));
    Choice {
        mv: safe.0,
        playouts,
        value: safe.2,
    }
}

fn select_child<M>(nodes: &[Node<M>], at: usize) -> usize {
    let parent_visits = nodes[at].visits.max(1) as f64;
    let log_n = parent_visits.ln();
    let mut best = nodes[at].children[0];
    let mut best_score = f64::NEG_INFINITY;
    for &c in &nodes[at].children {
        let n = &nodes[c];
        let score = if n.visits == 0 {
            f64::INFINITY
        } else {
            let v = n.visits as f64;
            n.value / v + EXPLORATION * (log_n / v).sqrt()
        };
        if score > best_score {
            best_score = score;
            best = c;
        }
    }
    best
}

/// [`select_child`] with RAVE (see [`grow`]).
fn select_child_rave<M>(nodes: &[Node<M>], at: usize) -> usize {
    let parent_visits = nodes[at].visits.max(1) as f64;
    let log_n = parent_visits.ln();
    let mut best = nodes[at].children[0];
    let mut best_score = f64::NEG_INFINITY;
    for &c in &nodes[at].children {
        let n = &nodes[c];
        let score = if n.visits == 0 {
            f64::INFINITY
        } else {
            let v = n.visits as f64;
            let mean = n.value / v;
            let blended = if n.amaf_visits == 0 {
                mean
            } else {
                let beta = (RAVE_K / (3.0 * v + RAVE_K)).sqrt();
                (1.0 - beta) * mean + beta * n.amaf_value / n.amaf_visits as f64
            };
            blended + RAVE_EXPLORATION * (log_n / v).sqrt()
        };
        if score > best_score {
            best_score = score;
            best = c;
        }
    }
    best
}

/// Whether after `mv` the opponent has a move that wins at once.
fn gives_immediate_win<G: SearchGame>(root: &G, mv: G::Move, scratch: &mut Vec<G::Move>) -> bool {
    let me = root.to_move();
    let mut g = root.clone();
    g.play(mv);
    if let Some(o) = g.outcome() {
        return o.winner == Some(me.other());
    }
    g.legal_moves(scratch);
    let replies = std::mem::take(scratch);
    let lost = replies.iter().any(|&r| {
        let mut h = g.clone();
        h.play(r);
        h.outcome().is_some_and(|o| o.winner == Some(me.other()))
    });
    *scratch = replies;
    lost
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Outcome, Reason};

    /// Take-away: players remove 1–3 counters; whoever takes the last one wins.
    #[derive(Clone, Debug)]
    struct TakeAway {
        left: u32,
        to_move: Colour,
    }

    impl SearchGame for TakeAway {
        type Move = u32;
        fn to_move(&self) -> Colour {
            self.to_move
        }
        fn outcome(&self) -> Option<Outcome> {
            (self.left == 0).then(|| Outcome::win(self.to_move.other(), Reason::NoLegalMove))
        }
        fn legal_moves(&self, out: &mut Vec<u32>) {
            out.clear();
            out.extend((1..=3).filter(|&k| k <= self.left));
        }
        fn play(&mut self, mv: u32) {
            self.left -= mv;
            self.to_move = self.to_move.other();
        }
        fn playout(&mut self, rng: &mut SmallRng) -> Outcome {
            while self.left > 0 {
                let k = rng.random_range(1..=self.left.min(3));
                self.play(k);
            }
            Outcome::win(self.to_move.other(), Reason::NoLegalMove)
        }
    }

    #[test]
    fn takes_a_win_in_one() {
        let g = TakeAway {
            left: 3,
            to_move: Colour::First,
        };
        let c = search(&g, Budget::playouts(10), 1).expect("a move");
        assert_eq!(c.mv, 3);
    }

    #[test]
    fn finds_the_winning_strategy_with_enough_playouts() {
        // From 10, taking 2 leaves a multiple of 4: the only winning move.
        let g = TakeAway {
            left: 10,
            to_move: Colour::Second,
        };
        let c = search(&g, Budget::playouts(5_000), 3).expect("a move");
        assert_eq!(c.mv, 2);
        assert!(c.value > 0.6, "value {}", c.value);
    }

    #[test]
    fn avoids_giving_a_win_in_one() {
        // From 5: taking 2 or 3 leaves 3 or 2, which the opponent takes at once; 1 leaves 4.
        let g = TakeAway {
            left: 5,
            to_move: Colour::First,
        };
        let c = search(&g, Budget::playouts(30), 9).expect("a move");
        assert_eq!(c.mv, 1);
    }

    #[test]
    fn equal_seeds_give_equal_choices() {
        let g = TakeAway {
            left: 21,
            to_move: Colour::First,
        };
        let a = search(&g, Budget::playouts(500), 42);
        let b = search(&g, Budget::playouts(500), 42);
        assert_eq!(a, b);
    }

    #[test]
    fn split_searches_are_reproducible_and_find_the_winning_strategy() {
        let g = TakeAway {
            left: 10,
            to_move: Colour::Second,
        };
        let a = search_trees(&g, Budget::playouts(6_000), 3, 2).expect("a move");
        let b = search_trees(&g, Budget::playouts(6_000), 3, 2).expect("a move");
        assert_eq!(a, b);
        assert_eq!(a.mv, 2);
        assert_eq!(a.playouts, 6_000);
    }

    #[test]
    fn a_finished_game_has_no_move() {
        let g = TakeAway {
            left: 0,
            to_move: Colour::First,
        };
        assert!(search(&g, Budget::playouts(10), 0).is_none());
    }
}

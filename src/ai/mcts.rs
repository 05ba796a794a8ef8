//! UCT Monte-Carlo tree search with root solver knowledge.

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
}

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
    if root.outcome().is_some() {
        return None;
    }
    let me = root.to_move();
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    if moves.is_empty() {
        return None;
    }
    if moves.len() == 1 {
        return Some(Choice {
            mv: moves[0],
            playouts: 0,
            value: 0.5,
        });
    }
    // Solver: a win in one is always taken.
    for &mv in &moves {
        let mut g = root.clone();
        g.play(mv);
        if g.outcome().is_some_and(|o| o.winner == Some(me)) {
            return Some(Choice {
                mv,
                playouts: 0,
                value: 1.0,
            });
        }
    }

    let mut rng = SmallRng::seed_from_u64(seed);
    let start = Instant::now();
    let deadline = budget.millis.map(|ms| start + Duration::from_millis(ms));
    let max_playouts = budget.playouts.unwrap_or(u32::MAX);

    let mut nodes: Vec<Node<G::Move>> = vec![Node {
        mv: None,
        mover: me.other(),
        parent: None,
        children: Vec::new(),
        untried: moves.clone(),
        visits: 0,
        value: 0.0,
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
            at = select_child(&nodes, at);
            if let Some(mv) = nodes[at].mv {
                state.play(mv);
            }
        }
        // Expansion.
        if !nodes[at].untried.is_empty() && state.outcome().is_none() {
            let k = rng.random_range(0..nodes[at].untried.len());
            let mv = nodes[at].untried.swap_remove(k);
            let mover = state.to_move();
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
            });
            let child = nodes.len() - 1;
            nodes[at].children.push(child);
            at = child;
        }
        // Simulation.
        let first = match state.outcome() {
            Some(o) => value_for(&o, Colour::First),
            None => state.playout_value(&mut rng),
        };
        playouts += 1;
        // Back-propagation.
        let mut cur = Some(at);
        while let Some(i) = cur {
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

    // Rank root moves by visits; avoid one that lets the opponent win at once when another
    // does not.
    let mut ranked: Vec<(G::Move, u32, f64)> = nodes[0]
        .children
        .iter()
        .map(|&c| {
            let n = &nodes[c];
            let mean = if n.visits == 0 {
                0.0
            } else {
                n.value / n.visits as f64
            };
            (n.mv.unwrap_or(moves[0]), n.visits, mean)
        })
        .collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)));
    for &mv in &moves {
        if !ranked.iter().any(|r| r.0 == mv) {
            ranked.push((mv, 0, 0.0));
        }
    }
    let safe = ranked
        .iter()
        .find(|r| !gives_immediate_win(root, r.0, &mut scratch))
        .or(ranked.first())
        .copied()?;
    Some(Choice {
        mv: safe.0,
        playouts,
        value: safe.2,
    })
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
    fn a_finished_game_has_no_move() {
        let g = TakeAway {
            left: 0,
            to_move: Colour::First,
        };
        assert!(search(&g, Budget::playouts(10), 0).is_none());
    }
}

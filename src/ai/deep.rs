//! EXXIT: alpha-beta by whole turns with iterative deepening, the search behind the `medium` and
//! `hard` levels.
//!
//! It searches as Boardspace's robots do ([`super::boardspace`]): negamax alpha-beta where every
//! child is made, evaluated with Bestbot's evaluation (island score, topped tiles, discs in
//! reserve) and the children are sorted before they are searched, with the first leaf that
//! reaches the cut-off bound ending its siblings' evaluation. Unlike the robots it plays by the
//! rules (a pass hands the turn over, a third repetition ends the game by score), has no opening
//! randomisation, and deepens one ply at a time (2, 3, 4, …) within a budget of evaluated
//! positions (and a time cap), each iteration searching the root moves in the order of the one
//! before; the deepest completed iteration decides, unless the one cut short by the budget has
//! already found a better move than it (searched after the previous best, with an exact value).
//! A budget of positions rather than of time
//! keeps the choice reproducible; the time cap only guards a slow machine.

use std::time::Instant;

use super::boardspace::{evaluate, order, Child, Kind, Robot, WIN};
use crate::games::exxit::{Move, MoveList, Position};

/// The evaluation used at the leaves.
const EVAL: Robot = Robot::Bestbot;
/// The deepest iteration (the budget ends the search long before, except near the end).
const MAX_DEPTH: u32 = 40;
/// Positions evaluated between two looks at the clock.
const CLOCK_EVERY: u64 = 512;

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct DeepChoice {
    pub mv: Move,
    /// The chosen move's value for the side to move (Bestbot's scale: island-score points, a won
    /// game about 1000).
    pub value: f64,
    /// The depth of the deepest completed iteration (plies; 0 when the move was forced).
    pub depth: u32,
    /// Positions made and evaluated.
    pub nodes: u64,
}

/// Chooses a move for the side to move within `max_nodes` evaluated positions and, when given,
/// before `deadline` (whichever comes first; the first iteration always completes). `None` when
/// the game is over.
pub fn search(root: &Position, max_nodes: u64, deadline: Option<Instant>) -> Option<DeepChoice> {
    if root.is_over() {
        return None;
    }
    let mut s = Searcher {
        horizon: 1,
        nodes: 0,
        max_nodes: max_nodes.max(1),
        next_check: CLOCK_EVERY,
        deadline,
        stopped: false,
        stack: vec![root.clone(); 2],
        lists: vec![MoveList::new(); 2],
        kids: vec![Vec::new(); 2],
    };
    let first = s.expand(0, None);
    if first.is_empty() {
        return None;
    }
    if first.len() == 1 {
        return Some(DeepChoice {
            mv: first[0].mv,
            value: first[0].value,
            depth: 0,
            nodes: s.nodes,
        });
    }
    // The root moves in the order of the last completed iteration, with their values.
    let mut ranked: Vec<Child> = first;
    let mut best: Option<DeepChoice> = None;
    for horizon in 1..=MAX_DEPTH {
        s.set_horizon(horizon);
        let mut kids = s.expand(0, None);
        if best.is_some() {
            // Keep the previous iteration's order (its best move first).
            kids.sort_by_key(|c| {
                ranked
                    .iter()
                    .position(|r| r.mv == c.mv)
                    .unwrap_or(usize::MAX)
            });
        }
        let all_over = kids.iter().all(|c| c.kind == Kind::GameOver);
        let found = s.search_children(0, &mut kids, f64::NEG_INFINITY, f64::NEG_INFINITY);
        if s.stopped {
            if let Some(b) = best.as_mut() {
                // An iteration cut short still counts where it is sure: the previous best move
                // was searched first, so a move it completed with a higher value is better at
                // this depth (its value is exact, the root having no upper bound).
                if let Some(i) = found.filter(|&i| kids[i].mv != b.mv) {
                    b.mv = kids[i].mv;
                    b.value = kids[i].value;
                }
                break;
            }
        }
        let i = found.unwrap_or(0);
        let (mv, value) = (kids[i].mv, kids[i].value);
        // Best first, then the others by their (bound) values, stable in the searched order.
        let mut next = kids.clone();
        next.swap(0, i);
        next[1..].sort_by(|a, b| b.value.total_cmp(&a.value));
        ranked = next;
        best = Some(DeepChoice {
            mv,
            value,
            depth: horizon,
            nodes: s.nodes,
        });
        // Deeper iterations see nothing new when every root move ends the game or the game's
        // result is known.
        if s.stopped || all_over || value.abs() >= WIN - 200.0 {
            break;
        }
    }
    best.map(|mut b| {
        b.nodes = s.nodes;
        b
    })
}

struct Searcher {
    /// Depth of the leaves, in plies below the root.
    horizon: u32,
    nodes: u64,
    max_nodes: u64,
    next_check: u64,
    deadline: Option<Instant>,
    /// The budget ran out: every search in progress returns at once.
    stopped: bool,
    /// `stack[k]`: the position `k` plies below the root on the current line.
    stack: Vec<Position>,
    lists: Vec<MoveList>,
    kids: Vec<Vec<Child>>,
}

impl Searcher {
    fn set_horizon(&mut self, horizon: u32) {
        self.horizon = horizon;
        let need = horizon as usize + 1;
        while self.stack.len() < need {
            let root = self.stack[0].clone();
            self.stack.push(root);
            self.lists.push(MoveList::new());
            self.kids.push(Vec::new());
        }
    }

    /// Counts an evaluated position; sets `stopped` once the budget is spent.
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CLOCK_EVERY;
            if self.nodes >= self.max_nodes || self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.stopped = true;
            }
        }
    }

    /// The ordered children of the node `k` plies below the root (in `stack[k]`); with a bound,
    /// the first leaf whose value reaches it ends the list.
    fn expand(&mut self, k: usize, bound: Option<f64>) -> Vec<Child> {
        let mut out = std::mem::take(&mut self.kids[k]);
        out.clear();
        let mut list = std::mem::take(&mut self.lists[k]);
        self.stack[k].legal_moves(&mut list);
        let ply = k as u32 + 1;
        for &mv in list.iter() {
            let (here, below) = self.stack.split_at_mut(k + 1);
            let p = &here[k];
            let child = &mut below[0];
            child.clone_from(p);
            child.play(&mv);
            let value = evaluate(child, p.to_move(), ply, EVAL);
            let kind = if child.is_over() {
                Kind::GameOver
            } else if ply >= self.horizon {
                Kind::Leaf
            } else {
                Kind::Inner
            };
            self.tick();
            out.push(Child { mv, value, kind });
            if kind != Kind::Inner && bound.is_some_and(|b| value >= b) {
                break;
            }
        }
        self.lists[k] = list;
        order(&mut out);
        out
    }

    /// The value of the node `k` plies below the root for its side to move, searched with the
    /// bounds `i_can` (what the side to move is sure of) and `he_can` (what the other side is).
    fn node(&mut self, k: usize, i_can: f64, he_can: f64) -> f64 {
        let mut kids = self.expand(k, Some(-he_can));
        let v = if kids.is_empty() || self.stopped {
            // No children: unreachable in a game going on (a pass at least); stopped: unused.
            0.0
        } else {
            let best = self.search_children(k, &mut kids, i_can, he_can);
            kids[best.unwrap_or(0)].value
        };
        self.kids[k] = kids;
        v
    }

    /// Searches the ordered children of the node `k` plies below the root, storing their
    /// backed-up values, and returns the index of the best (`None` when the budget ran out
    /// before the first child was searched).
    fn search_children(
        &mut self,
        k: usize,
        kids: &mut [Child],
        mut i_can: f64,
        he_can: f64,
    ) -> Option<usize> {
        if kids.iter().all(|c| c.kind != Kind::Inner) {
            // All leaves: sorted best first.
            return Some(0);
        }
        let mover = self.stack[k].to_move();
        let mut best: Option<(usize, f64)> = None;
        for (i, kid) in kids.iter_mut().enumerate() {
            let c = *kid;
            let v = if c.kind == Kind::Inner {
                let (here, below) = self.stack.split_at_mut(k + 1);
                below[0].clone_from(&here[k]);
                below[0].play(&c.mv);
                if below[0].to_move() == mover {
                    self.node(k + 1, i_can, he_can)
                } else {
                    -self.node(k + 1, he_can, i_can)
                }
            } else {
                c.value
            };
            if self.stopped {
                break;
            }
            kid.value = v;
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((i, v));
                if v >= -he_can {
                    break;
                }
                if i_can < v {
                    i_can = v;
                }
            }
        }
        best.map(|(i, _)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::boardspace;
    use crate::games::exxit::Options;

    fn pos(line: &str) -> Position {
        Position::from_line(&Options::default(), line).expect("position")
    }

    #[test]
    fn a_finished_game_has_no_move_and_a_forced_move_is_played_at_once() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(2);
        let mut list = MoveList::new();
        let mut p = Position::new(&Options::default());
        let mut forced = 0;
        while let Some(mv) = p.random_move(&mut rng, &mut list) {
            p.legal_moves(&mut list);
            if list.len() == 1 {
                let c = search(&p, 10_000, None).expect("a move");
                assert_eq!((c.mv, c.depth), (list.as_slice()[0], 0));
                forced += 1;
            }
            p.play(&mv);
        }
        assert!(forced > 0, "no forced move in the game");
        assert!(search(&p, 1000, None).is_none());
        let start = Position::new(&Options::default());
        let c = search(&start, 10_000, None).expect("a move");
        assert!(c.depth >= 2, "depth {}", c.depth);
    }

    #[test]
    fn equal_budgets_give_equal_choices_and_more_budget_searches_deeper() {
        let p = pos(
            "-1,0:./2 0,-1:1/12 0,0:2/2 1,-3:./1 1,-2:2 1,-1:1|tiles 35|hand 6/5|to-move silver",
        );
        let a = search(&p, 20_000, None).expect("a move");
        let b = search(&p, 20_000, None).expect("a move");
        assert_eq!(a, b);
        let deep = search(&p, 400_000, None).expect("a move");
        assert!(deep.depth > a.depth, "{} vs {}", deep.depth, a.depth);
        assert!(a.nodes >= 20_000 && a.nodes < 20_000 + 2 * CLOCK_EVERY + 200);
    }

    #[test]
    fn each_iteration_agrees_with_the_robot_search_to_the_same_depth() {
        // Without passes or repetitions in reach, a completed iteration of depth d backs up the
        // value Boardspace's search to horizon d finds (same evaluation, same cut-offs).
        let start = Position::new(&Options::default());
        let mut p = start.clone();
        let mut list = MoveList::new();
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        for _ in 0..10 {
            let mv = p.random_move(&mut rng, &mut list).expect("a move");
            p.play(&mv);
        }
        for depth in 1..=3u32 {
            let robot = boardspace::search_to(&p, Robot::Bestbot, depth, None, 0).expect("move");
            // One iteration of depth `depth`, with no budget.
            let mut s = Searcher {
                horizon: 1,
                nodes: 0,
                max_nodes: u64::MAX,
                next_check: CLOCK_EVERY,
                deadline: None,
                stopped: false,
                stack: vec![p.clone(); 2],
                lists: vec![MoveList::new(); 2],
                kids: vec![Vec::new(); 2],
            };
            s.set_horizon(depth);
            let mut kids = s.expand(0, None);
            let i = s
                .search_children(0, &mut kids, f64::NEG_INFINITY, f64::NEG_INFINITY)
                .expect("no budget: every child is searched");
            assert_eq!(kids[i].value, robot.value, "depth {depth}");
        }
    }

    #[test]
    fn the_only_winning_move_is_taken() {
        // Red to move with two tiles left: one expansion wins at once (the position of the
        // Monte-Carlo search's test in `tests/ai.rs`).
        let line = "-2,-1:1/12 -2,0:1 -2,1:./1 -2,2:./1 -1,-2:./1 -1,-1:2/22 -1,0:2 -1,1:1 \
            0,-1:1 0,0:2/11 0,1:2 1,-3:1 1,-2:2 1,-1:1 1,0:2/2 2,-3:1 2,-2:1 2,-1:2 2,0:2 \
            3,-1:2|tiles 2|hand 2/4|to-move red";
        let options = Options::parse(&["tiles=19"]).expect("options");
        let p = Position::from_line(&options, line).expect("position");
        let mut list = MoveList::new();
        p.legal_moves(&mut list);
        let wins = |mv: &Move| {
            let mut after = p.clone();
            after.play(mv);
            after
                .outcome()
                .is_some_and(|o| o.winner == Some(crate::games::Colour::Second))
        };
        assert_eq!(list.iter().filter(|m| wins(m)).count(), 1);
        for budget in [100, 5_000, 100_000] {
            let c = search(&p, budget, None).expect("a move");
            assert!(wins(&c.mv), "{} with {budget}", c.mv);
            assert!(c.value > WIN, "{}", c.value);
        }
    }
}

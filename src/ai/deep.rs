//! EXXIT: alpha-beta by whole turns with iterative deepening, the search behind the `medium` and
//! `hard` levels.
//!
//! It searches as Boardspace's robots do ([`super::boardspace`]): negamax alpha-beta where every
//! child is made, evaluated with Bestbot's evaluation (island score, topped tiles, discs in
//! reserve) and the children are sorted before they are searched, with the first leaf that
//! reaches the cut-off bound ending its siblings' evaluation. Unlike the robots it plays by the
//! rules (a pass hands the turn over, a third repetition ends the game by score), and deepens
//! one ply at a time (2, 3, 4, …) within a budget of evaluated positions (and a time cap), each
//! iteration searching the root moves in the order of the one before; the deepest completed
//! iteration decides, unless the one cut short by the budget has already found a better move
//! than it (searched after the previous best, with an exact value). A budget of positions rather
//! than of time keeps the choice reproducible; the time cap only guards a slow machine.
//!
//! Instead of the robots' opening randomisation (any of the first 20 − m root moves, whatever
//! their values), the levels vary their play all game long but only among moves as good as the
//! best within [`MARGIN`]: each root move is searched above the best value so far minus the
//! margin, so the near-equal ones get exact values, and the seed draws among them. The wider
//! window costs a few positions. Measured over 40 games of 39 tiles,
//! `hexcord arena --game "exxit tiles=39" --a nodes:100000 --b fixed:100000 --games 40 --seed 7`
//! (`medium`'s budget varied against the same search always playing its best move): 18–22,
//! 45 % ± 15.6 %, no loss of strength this short match can see; 39 different games of 40, where
//! the fixed search against itself plays two.

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::boardspace::{Budget, Child, Kind, Robot, Rules, Searcher, WIN};
use crate::games::exxit::{Move, Position};

/// The evaluation used at the leaves.
const EVAL: Robot = Robot::Bestbot;
/// The deepest iteration (the budget ends the search long before, except near the end).
const MAX_DEPTH: u32 = 40;

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct DeepChoice {
    pub mv: Move,
    /// The chosen move's value for the side to move (Bestbot's scale: island-score points, a won
    /// game about 1000), at the deepest iteration that searched it.
    pub value: f64,
    /// The depth of the deepest completed iteration (plies; 0 when the move was forced).
    pub depth: u32,
    /// Positions made and evaluated.
    pub nodes: u64,
}

/// How far below the best a root move's value may be and still be played for variety, in
/// Bestbot's units (island-score points): a disc in reserve is worth half a point.
pub const MARGIN: f64 = 0.5;

/// Chooses a move for the side to move within `max_nodes` evaluated positions and, when given,
/// before `deadline` (whichever comes first; the first iteration always completes). `None` when
/// the game is over.
///
/// Without a seed the best move is played. With one, the move is drawn by the seed among the
/// root moves whose value comes within [`MARGIN`] of the best's, each judged at the deepest
/// iteration that searched it: so games differ, and equal seeds still give equal moves. A won
/// or lost game (a value beyond ±800) plays the best: a forced win is never missed, a loss
/// never chosen where another move does not lose.
pub fn search(
    root: &Position,
    max_nodes: u64,
    deadline: Option<Instant>,
    seed: Option<u64>,
) -> Option<DeepChoice> {
    if root.is_over() {
        return None;
    }
    let mut s = Searcher::new(root, EVAL, Rules::Real, Budget::new(max_nodes, deadline));
    let first = s.expand(0, None);
    if first.is_empty() {
        return None;
    }
    if first.len() == 1 {
        return Some(DeepChoice {
            mv: first[0].mv,
            value: first[0].value,
            depth: 0,
            nodes: s.budget.nodes,
        });
    }
    let margin = if seed.is_some() { MARGIN } else { 0.0 };
    // The root moves in the order of the last completed iteration, with their values.
    let mut ranked: Vec<Child> = first;
    let mut best: Option<DeepChoice> = None;
    // The root moves within the margin of the best, in the searched order.
    let mut near: Vec<(Move, f64)> = Vec::new();
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
        let (found, searched) = s.search_root(&mut kids, margin);
        if s.budget.stopped {
            if let (Some(b), Some(i)) = (best.as_mut(), found) {
                // An iteration cut short still counts where it is sure: the previous best move
                // was searched first, so a move it completed with a higher value is better at
                // this depth (its value is exact, the root having no upper bound).
                if kids[i].mv != b.mv {
                    b.mv = kids[i].mv;
                    b.value = kids[i].value;
                }
                // The moves it searched are judged at this depth, the others stay as they were.
                let top = kids[i].value;
                for k in &kids[..searched] {
                    near.retain(|&(m, _)| m != k.mv);
                    if k.value > top - margin {
                        near.push((k.mv, k.value));
                    }
                }
            }
            if best.is_some() {
                break;
            }
        }
        let i = found.unwrap_or(0);
        let (mv, value) = (kids[i].mv, kids[i].value);
        near = kids
            .iter()
            .filter(|k| k.mv == mv || k.value > value - margin)
            .map(|k| (k.mv, k.value))
            .collect();
        // Best first, then the others by their (bound) values, stable in the searched order.
        let mut next = kids.clone();
        next.swap(0, i);
        next[1..].sort_by(|a, b| b.value.total_cmp(&a.value));
        ranked = next;
        best = Some(DeepChoice {
            mv,
            value,
            depth: horizon,
            nodes: s.budget.nodes,
        });
        // Deeper iterations see nothing new when every root move ends the game or the game's
        // result is known.
        if s.budget.stopped || all_over || value.abs() >= DECIDED {
            break;
        }
    }
    best.map(|mut b| {
        b.nodes = s.budget.nodes;
        if let Some(seed) = seed {
            if b.value.abs() < DECIDED && near.len() > 1 {
                let k = SmallRng::seed_from_u64(seed).random_range(0..near.len());
                (b.mv, b.value) = near[k];
            }
        }
        b
    })
}

/// A value at least this far from 0 is a won or lost game.
const DECIDED: f64 = WIN - 200.0;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::boardspace::{self, CLOCK_EVERY};
    use crate::games::exxit::{MoveList, Options};

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
                let c = search(&p, 10_000, None, None).expect("a move");
                assert_eq!((c.mv, c.depth), (list.as_slice()[0], 0));
                forced += 1;
            }
            p.play(&mv);
        }
        assert!(forced > 0, "no forced move in the game");
        assert!(search(&p, 1000, None, None).is_none());
        let start = Position::new(&Options::default());
        let c = search(&start, 10_000, None, None).expect("a move");
        assert!(c.depth >= 2, "depth {}", c.depth);
    }

    #[test]
    fn equal_budgets_give_equal_choices_and_more_budget_searches_deeper() {
        let p = pos(
            "-1,0:./2 0,-1:1/12 0,0:2/2 1,-3:./1 1,-2:2 1,-1:1|tiles 35|hand 6/5|to-move silver",
        );
        let a = search(&p, 20_000, None, None).expect("a move");
        let b = search(&p, 20_000, None, None).expect("a move");
        assert_eq!(a, b);
        let deep = search(&p, 400_000, None, None).expect("a move");
        assert!(deep.depth > a.depth, "{} vs {}", deep.depth, a.depth);
        assert!(a.nodes >= 20_000 && a.nodes < 20_000 + 2 * CLOCK_EVERY + 200);
    }

    #[test]
    fn a_seed_draws_among_moves_within_the_margin_of_the_best() {
        // Positions of a random game: equal seeds agree, each chosen move is within the margin
        // of the best, and the seeds choose different moves in some of them.
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        let mut list = MoveList::new();
        let mut p = Position::new(&Options::default());
        // The value of `q` for its side to move, searched to `depth` with no budget.
        let value = |q: &Position, depth: u32| {
            let mut s = Searcher::new(q, EVAL, Rules::Real, Budget::unlimited());
            s.set_horizon(depth);
            let mut kids = s.expand(0, None);
            let i = s
                .search_children(0, &mut kids, f64::NEG_INFINITY, f64::NEG_INFINITY)
                .expect("no budget: every child is searched");
            kids[i].value
        };
        let mut varied = 0;
        for _ in 0..3 {
            let mut chosen = Vec::new();
            for seed in 0..6 {
                let c = search(&p, 20_000, None, Some(seed)).expect("a move");
                assert_eq!(Some(&c), search(&p, 20_000, None, Some(seed)).as_ref());
                // The chosen move's value is exact at the deepest completed iteration, or at
                // the one cut short if that one searched it, and within the margin of the best
                // there.
                if c.depth == 0 {
                    // The only legal move.
                    continue;
                }
                let mut after = p.clone();
                after.play(&c.mv);
                assert!(!after.is_over());
                let sign = if after.to_move() == p.to_move() {
                    1.0
                } else {
                    -1.0
                };
                let depth = [c.depth, c.depth + 1]
                    .into_iter()
                    .find(|&d| sign * value(&after, d - 1) == c.value)
                    .unwrap_or_else(|| panic!("seed {seed}: {c:?} is no exact value"));
                let best = value(&p, depth);
                assert!(c.value > best - MARGIN, "seed {seed}: {c:?}, best {best}");
                if !chosen.contains(&c.mv) {
                    chosen.push(c.mv);
                }
            }
            if chosen.len() > 1 {
                varied += 1;
            }
            for _ in 0..6 {
                let mv = p.random_move(&mut rng, &mut list).expect("a move");
                p.play(&mv);
            }
        }
        assert!(varied > 0, "one move for every seed in every position");
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
            let mut s = Searcher::new(&p, EVAL, Rules::Real, Budget::unlimited());
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
            for seed in [None, Some(1), Some(2)] {
                let c = search(&p, budget, None, seed).expect("a move");
                assert!(wins(&c.mv), "{} with {budget}", c.mv);
                assert!(c.value > WIN, "{}", c.value);
            }
        }
    }
}

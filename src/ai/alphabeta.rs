//! A plain alpha-beta searcher for EXXIT: the arena's sparring partner.
//!
//! Negamax with alpha-beta pruning to a fixed depth. The evaluation is the island score (X20:
//! own islands plus the largest one, minus the opponent's), a little for discs in reserve and a
//! little against cells topped by one's own discs (they are targets for dances). Moves are
//! ordered cheaply: dances first, then expansions, then placements. At depth 6 it takes about
//! 22 ms a move over whole games. In the arena it is `alphabeta:D`.

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::games::exxit::{Move, MoveList, Position};
use crate::games::Colour;

/// Score points weigh this much in the evaluation.
const POINT: i32 = 100;
/// A disc in reserve.
const RESERVE: i32 = 10;
/// A cell topped by one's own disc.
const TOPPED: i32 = 5;
/// Beyond any evaluation: a finished game.
const WIN: i32 = 1_000_000;

/// The evaluation of `p` for `c`.
pub fn evaluate(p: &Position, c: Colour) -> i32 {
    let score = p.score();
    let mut topped = [0i32; 2];
    for (_, s) in p.stacks() {
        topped[s.owner().index()] += 1;
    }
    let side = |x: Colour| {
        POINT * score[x.index()] as i32 + RESERVE * p.hand(x) as i32 - TOPPED * topped[x.index()]
    };
    side(c) - side(c.other())
}

/// The result of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AbChoice {
    pub mv: Move,
    /// The value for the side to move, in evaluation units.
    pub value: i32,
    /// Positions visited.
    pub nodes: u64,
}

/// Searches `depth` plies (at least 1) and returns the best move, or `None` when the game is
/// over. Among equally good root moves the seed decides.
pub fn search(root: &Position, depth: u32, seed: u64) -> Option<AbChoice> {
    if root.outcome().is_some() {
        return None;
    }
    let mut list = MoveList::new();
    root.legal_moves(&mut list);
    let mut moves: Vec<Move> = list.as_slice().to_vec();
    if moves.is_empty() {
        return None;
    }
    moves.shuffle(&mut SmallRng::seed_from_u64(seed));
    order(&mut moves);
    let mut nodes = 0;
    let mut best = moves[0];
    let mut alpha = -WIN - 1;
    let beta = WIN + 1;
    for mv in moves {
        let mut child = root.clone();
        child.play(&mv);
        let v = -negamax(&child, depth.max(1) - 1, -beta, -alpha, 1, &mut nodes);
        if v > alpha {
            alpha = v;
            best = mv;
        }
    }
    Some(AbChoice {
        mv: best,
        value: alpha,
        nodes,
    })
}

/// Dances, then expansions, then placements (stable, so the seeded shuffle breaks ties).
fn order(moves: &mut [Move]) {
    moves.sort_by_key(|m| match m {
        Move::Dance { .. } => 0,
        Move::Expand(_) => 1,
        Move::Place(_) => 2,
        Move::Swap => 3,
        Move::Pass => 4,
    });
}

fn negamax(p: &Position, depth: u32, mut alpha: i32, beta: i32, ply: i32, nodes: &mut u64) -> i32 {
    *nodes += 1;
    let me = p.to_move();
    if let Some(o) = p.outcome() {
        // Quicker wins and slower losses are better.
        return match o.winner {
            Some(w) if w == me => WIN - ply,
            Some(_) => -WIN + ply,
            None => 0,
        };
    }
    if depth == 0 {
        return evaluate(p, me);
    }
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut moves: Vec<Move> = list.as_slice().to_vec();
    order(&mut moves);
    let mut best = -WIN - 1;
    for mv in moves {
        let mut child = p.clone();
        child.play(&mv);
        let v = -negamax(&child, depth - 1, -beta, -alpha, ply + 1, nodes);
        if v > best {
            best = v;
        }
        if v > alpha {
            alpha = v;
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

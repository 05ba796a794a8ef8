//! Boardspace's EXXIT robots — Weakbot, Dumbot, Smartbot and Bestbot — rebuilt from a
//! description of what they do, as sparring partners for the arena and as the search behind the
//! `medium` and `hard` levels ([`super::deep`]).
//!
//! Boardspace (boardspace.net, written in Java under the GPLv3) has the only public EXXIT
//! robots, and Bestbot is the strongest EXXIT player there is to measure against. What follows
//! is how they behave, as read from their published source; hexcord's robots reproduce that
//! behaviour (the code here is hexcord's own). Rule numbers refer to [`crate::games::exxit`].
//!
//! # Search
//!
//! - Plain alpha-beta in negamax form, where one ply is one whole turn. No iterative deepening,
//!   no time limit, no transposition table, no quiescence search, no null move, no killer
//!   moves.
//! - A fixed horizon per robot ([`Robot::horizon`]): Weakbot 2 plies, Dumbot 3, Smartbot 5,
//!   Bestbot 8. (The original stops and evaluates when the depth reached plus one equals the
//!   level's depth setting, so each horizon is that setting minus one.)
//! - Move ordering at every node ([`children`], [`order`]): every child is made, evaluated
//!   statically and unmade, and the children are sorted with the moves that end the game first,
//!   then the other leaves (children at the horizon), then the rest, each group best first by
//!   its static value. While the children are made, the first leaf whose value reaches the
//!   node's cut-off bound stops the evaluation of its later siblings (alpha-beta would cut
//!   there anyway). When every child is a leaf the best one is taken without searching further;
//!   a root with a single legal move is played at once.
//! - A pass does not hand the turn over inside the search: the same side moves again in that
//!   line ([`make`]). The robots do not know the threefold-repetition rule (X19): a child that
//!   repeats a position a third time is searched on as if it were new.
//!
//! # Evaluation
//!
//! Each player gets a value; the position's value is the mover's minus the opponent's
//! ([`evaluate`], [`combine`]).
//!
//! - A player who has won is worth 1000 + 1/(1 + depth), so that a quicker win scores higher.
//!   If only the opponent has won, the position is worth minus that; if both count as won, −100
//!   plus the difference.
//! - Weakbot and Dumbot value a player by the island score alone: the sizes of all the
//!   player's islands added up, plus the size of the largest once more — the score of X20.
//! - Smartbot and Bestbot ([`Robot::aux_terms`], [`player_values`]) take the island score,
//!   subtract 0.1 × aux × (the tiles topped by one of the player's discs, [`topped`]) and add
//!   0.5 × (the discs in the player's hand). The weight aux ([`aux`]) is 1 while tiles on the
//!   board + 10 < tiles in the game, and (tiles in the game − tiles on the board) / 10 after
//!   that.
//!
//! # Opening randomisation
//!
//! On by default. On move m ≤ 17 (plies counted from 1) the robot picks uniformly among its
//! first 20 − m root moves, sorted by their backed-up values (under alpha-beta the values of
//! root moves other than the best are only bounds), so its first 17 or so plies are close to
//! random among its best moves. From then on it plays its best move.
//!
//! # How it plays
//!
//! Measured side by side with the original on the same kind of machine, with 39 tiles:
//! Bestbot's median time for a move with a choice is 20–30 ms, the 90th percentile about
//! 0.3 s, its slowest moves 5–10 s. Every level beats a uniformly random player nearly always,
//! and Bestbot beats Dumbot about 19 games in 20. Against Bestbot, the Monte-Carlo levels
//! hexcord had before its alpha-beta search ([`super::deep`]) did less well: a `hard` of 30,000
//! playouts (about 0.3 s a move) won 39, lost 19 and drew 2 of 60 games (measured 2026-11-23), a
//! `medium` of 400 playouts won 1 of 20. The current levels' results are in the README's
//! benchmark table; `easy` (Monte-Carlo, 200 playouts) scores 78 % against Dumbot, 51 % against
//! Smartbot and 22 % against Bestbot (60 games each).
//!
//! # Numbers
//!
//! Values are `f64`, as the original's are; they are compared exactly (the same leaves give the
//! same sums), which the tests use to check the search against a plain minimax.

use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::games::exxit::{Move, MoveList, Position};
use crate::games::{Colour, Reason};

/// The value of a won game before the bonus for winning sooner.
pub const WIN: f64 = 1000.0;
/// The base of a position both players count as won.
const BOTH_WON: f64 = -100.0;
/// Randomisation applies up to this move number (plies counted from 1).
const RANDOM_UNTIL: u32 = 17;
/// On move m the robot picks among the first `RANDOM_WIDTH - m` root moves.
const RANDOM_WIDTH: u32 = 20;

/// One of Boardspace's EXXIT robots.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Robot {
    Weakbot,
    Dumbot,
    Smartbot,
    Bestbot,
}

impl Robot {
    pub const ALL: [Robot; 4] = [
        Robot::Weakbot,
        Robot::Dumbot,
        Robot::Smartbot,
        Robot::Bestbot,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Robot::Weakbot => "weakbot",
            Robot::Dumbot => "dumbot",
            Robot::Smartbot => "smartbot",
            Robot::Bestbot => "bestbot",
        }
    }

    /// Plies searched: the children of a node this many plies below the root are evaluated
    /// statically (the original's depth setting minus one).
    pub const fn horizon(self) -> u32 {
        match self {
            Robot::Weakbot => 2,
            Robot::Dumbot => 3,
            Robot::Smartbot => 5,
            Robot::Bestbot => 8,
        }
    }

    /// Whether the evaluation has the terms beyond the island score (topped tiles, reserve).
    pub const fn aux_terms(self) -> bool {
        matches!(self, Robot::Smartbot | Robot::Bestbot)
    }
}

impl fmt::Display for Robot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Robot {
    type Err = String;
    fn from_str(s: &str) -> Result<Robot, String> {
        Robot::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown robot `{s}`: weakbot, dumbot, smartbot or bestbot"))
    }
}

/// The weight of the topped-tiles term: 1 while more than 10 tiles remain to be laid
/// (tiles on the board + 10 < tiles in the game), then (tiles in the game − tiles on the
/// board) / 10.
pub fn aux(p: &Position) -> f64 {
    let in_game = p.options().tiles as u32;
    let on_board = in_game.saturating_sub(p.supply());
    if on_board + 10 < in_game {
        1.0
    } else {
        (in_game - on_board) as f64 / 10.0
    }
}

/// Tiles whose stack is topped by a disc of each colour (stacks in outer space do not count),
/// indexed by [`Colour::index`].
pub fn topped(p: &Position) -> [u32; 2] {
    let mut n = [0; 2];
    for (cell, s) in p.stacks() {
        if p.tile_at(cell).is_some() {
            n[s.owner().index()] += 1;
        }
    }
    n
}

/// Each player's value in a position neither has won, indexed by [`Colour::index`]: the island
/// score, for Smartbot and Bestbot minus 0.1 × aux × topped tiles plus 0.5 × discs in hand.
pub fn player_values(p: &Position, robot: Robot) -> [f64; 2] {
    let score = p.score();
    let mut v = score.map(|s| s as f64);
    if robot.aux_terms() {
        let aux = aux(p);
        let topped = topped(p);
        for c in Colour::BOTH {
            let i = c.index();
            v[i] += -0.1 * aux * topped[i] as f64 + 0.5 * p.hand(c) as f64;
        }
    }
    v
}

/// The value of `p` for `mover`, the side that made the move leading to it, `ply` turns below
/// the root: the mover's value minus the opponent's, where a player who has won is worth
/// 1000 + 1/(1 + ply) (a quicker win scores higher). If only the opponent has won, minus that;
/// if both count as won, −100 plus the difference. A repetition (X19) is no end to the robot.
pub fn evaluate(p: &Position, mover: Colour, ply: u32, robot: Robot) -> f64 {
    let winner = if p.is_over() {
        p.outcome()
            .filter(|o| o.reason != Reason::Repetition)
            .and_then(|o| o.winner)
    } else {
        None
    };
    let v = player_values(p, robot);
    let side = |c: Colour| {
        if winner == Some(c) {
            WIN + 1.0 / (1.0 + ply as f64)
        } else {
            v[c.index()]
        }
    };
    combine(side(mover), side(mover.other()))
}

/// The position's value from two players' values, the mover's first (wins scored alone, so
/// that a lesser loss never looks better than letting the opponent win).
pub fn combine(mine: f64, theirs: f64) -> f64 {
    if mine >= WIN {
        if theirs >= WIN {
            BOTH_WON + mine - theirs
        } else {
            mine
        }
    } else if theirs >= WIN {
        -theirs
    } else {
        mine - theirs
    }
}

/// The search's child of `p` after `mv`: a pass leaves the position (and the side to move) as it
/// is; a move that repeats a position a third time is taken as if the position were new.
pub fn make(p: &Position, mv: Move) -> Position {
    let mut c = p.clone();
    make_into(&mut c, p, mv);
    c
}

fn make_into(child: &mut Position, p: &Position, mv: Move) {
    child.clone_from(p);
    if mv == Move::Pass {
        return;
    }
    child.play(&mv);
    forget_repetition(child);
}

/// Rebuilds a position that ended by repetition without its history, so the game goes on.
fn forget_repetition(p: &mut Position) {
    if p.outcome().is_some_and(|o| o.reason == Reason::Repetition) {
        if let Ok(fresh) = Position::from_line(p.options(), &p.to_line()) {
            *p = fresh;
        }
    }
}

/// What a child is to the search.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Kind {
    /// The game is over after the move.
    GameOver,
    /// At the horizon: evaluated, not searched.
    Leaf,
    /// Searched further.
    Inner,
}

/// A child of a node: the move, its value for the side that plays it (the static value, then
/// the backed-up value once searched) and its kind.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Child {
    pub mv: Move,
    pub value: f64,
    pub kind: Kind,
}

/// Makes, evaluates and unmakes every child of `p` (the side to move plays them; `ply` is the
/// children's depth below the root, `horizon` the depth of the leaves) in move-generation
/// order. With a cut-off bound, the first leaf (game over or at the horizon) whose value reaches
/// it ends the list.
pub fn children(
    p: &Position,
    ply: u32,
    horizon: u32,
    robot: Robot,
    bound: Option<f64>,
) -> Vec<Child> {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut scratch = p.clone();
    let mut out = Vec::with_capacity(list.len());
    evaluate_children(
        p,
        &mut scratch,
        list.as_slice(),
        ply,
        horizon,
        robot,
        Rules::Robot,
        bound,
        &mut out,
        &mut Budget::unlimited(),
    );
    out
}

/// How the search plays a move in its tree.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Rules {
    /// As Boardspace's robots: a pass leaves the position (and the side to move) as it is, and a
    /// third repetition is taken as a new position ([`make`]).
    Robot,
    /// By the rules: a pass hands the turn over, a third repetition ends the game.
    Real,
}

impl Rules {
    fn make_into(self, child: &mut Position, p: &Position, mv: Move) {
        match self {
            Rules::Robot => make_into(child, p, mv),
            Rules::Real => {
                child.clone_from(p);
                child.play(&mv);
            }
        }
    }
}

/// Positions a search may evaluate, and how long it may take.
#[derive(Clone, Copy, Debug)]
pub(super) struct Budget {
    /// Positions evaluated so far.
    pub nodes: u64,
    max_nodes: u64,
    next_check: u64,
    deadline: Option<Instant>,
    /// The budget ran out: every search in progress returns at once.
    pub stopped: bool,
}

/// Positions evaluated between two looks at the budget and the clock.
pub(super) const CLOCK_EVERY: u64 = 512;

impl Budget {
    /// No limit (the robots search their whole horizon).
    pub fn unlimited() -> Budget {
        Budget::new(u64::MAX, None)
    }

    /// At most about `max_nodes` positions (looked at every [`CLOCK_EVERY`]), and none after
    /// `deadline`.
    pub fn new(max_nodes: u64, deadline: Option<Instant>) -> Budget {
        Budget {
            nodes: 0,
            max_nodes: max_nodes.max(1),
            next_check: CLOCK_EVERY,
            deadline,
            stopped: false,
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
}

#[allow(clippy::too_many_arguments)]
fn evaluate_children(
    p: &Position,
    scratch: &mut Position,
    list: &[Move],
    ply: u32,
    horizon: u32,
    robot: Robot,
    rules: Rules,
    bound: Option<f64>,
    out: &mut Vec<Child>,
    budget: &mut Budget,
) {
    let mover = p.to_move();
    out.clear();
    for &mv in list {
        rules.make_into(scratch, p, mv);
        budget.tick();
        let value = evaluate(scratch, mover, ply, robot);
        let kind = if scratch.is_over() {
            Kind::GameOver
        } else if ply >= horizon {
            Kind::Leaf
        } else {
            Kind::Inner
        };
        out.push(Child { mv, value, kind });
        if kind != Kind::Inner && bound.is_some_and(|b| value >= b) {
            break;
        }
    }
}

/// Sorts children for the search: when some are leaves, game-ending moves first, then the other
/// leaves, then the rest, each group best first; when all are leaves, best first. Stable, so
/// equal children keep the move generator's order.
pub fn order(children: &mut [Child]) {
    if children.iter().all(|c| c.kind != Kind::Inner) {
        children.sort_by(|a, b| b.value.total_cmp(&a.value));
    } else {
        children.sort_by(|a, b| a.kind.cmp(&b.kind).then(b.value.total_cmp(&a.value)));
    }
}

/// The result of a robot's search.
#[derive(Clone, Debug, PartialEq)]
pub struct RobotChoice {
    /// The move played.
    pub mv: Move,
    /// The root's value: the best root move's backed-up value, for the side to move.
    pub value: f64,
    /// The root moves with their backed-up values (exact for the best, bounds for the rest),
    /// best first.
    pub root: Vec<(Move, f64)>,
    /// Children made and evaluated.
    pub nodes: u64,
}

/// Chooses a move for the side to move with `robot`'s horizon. `move_number` (plies counted
/// from 1) turns the opening randomisation on: on move m ≤ 17 the move is drawn (with `seed`)
/// among the first 20 − m root moves sorted by value; `None` always plays the best.
/// `None` when the game is over.
pub fn search(
    root: &Position,
    robot: Robot,
    move_number: Option<u32>,
    seed: u64,
) -> Option<RobotChoice> {
    search_to(root, robot, robot.horizon(), move_number, seed)
}

/// [`search`] to any horizon (at least 1), with `robot`'s evaluation.
pub fn search_to(
    root: &Position,
    robot: Robot,
    horizon: u32,
    move_number: Option<u32>,
    seed: u64,
) -> Option<RobotChoice> {
    if root.is_over() {
        return None;
    }
    let mut s = Searcher::new(root, robot, Rules::Robot, Budget::unlimited());
    s.set_horizon(horizon.max(1));
    let mut kids = s.expand(0, None);
    if kids.is_empty() {
        return None;
    }
    if kids.len() == 1 {
        let c = kids[0];
        return Some(RobotChoice {
            mv: c.mv,
            value: c.value,
            root: vec![(c.mv, c.value)],
            nodes: s.budget.nodes,
        });
    }
    // No budget: every child is searched, so there is a best.
    let best = s
        .search_children(0, &mut kids, f64::NEG_INFINITY, f64::NEG_INFINITY)
        .unwrap_or(0);
    let value = kids[best].value;
    let best_mv = kids[best].mv;
    // Sorted by backed-up value, best first (stable: the search's order breaks ties).
    let mut sorted: Vec<(Move, f64)> = kids.iter().map(|c| (c.mv, c.value)).collect();
    sorted.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mv = match move_number {
        Some(m) if m <= RANDOM_UNTIL => {
            let width = RANDOM_WIDTH - m;
            let n = SmallRng::seed_from_u64(seed).random_range(0..width) as usize;
            // The original reduces the draw modulo the number of root moves.
            sorted[n % sorted.len()].0
        }
        _ => best_mv,
    };
    Some(RobotChoice {
        mv,
        value,
        root: sorted,
        nodes: s.budget.nodes,
    })
}

/// Negamax alpha-beta over made-and-evaluated children, as Boardspace's robots search: the
/// robots (whole horizon, their rules) and the `medium`/`hard` levels ([`super::deep`]: by the
/// rules, within a budget, one horizon after another) share it.
pub(super) struct Searcher {
    robot: Robot,
    rules: Rules,
    /// Depth of the leaves, in plies below the root.
    horizon: u32,
    pub budget: Budget,
    /// `stack[k]`: the position `k` plies below the root on the current line.
    stack: Vec<Position>,
    lists: Vec<MoveList>,
    kids: Vec<Vec<Child>>,
}

impl Searcher {
    pub fn new(root: &Position, robot: Robot, rules: Rules, budget: Budget) -> Searcher {
        Searcher {
            robot,
            rules,
            horizon: 1,
            budget,
            stack: vec![root.clone(); 2],
            lists: vec![MoveList::new(); 2],
            kids: vec![Vec::new(); 2],
        }
    }

    /// Searches to `horizon` plies from now on.
    pub fn set_horizon(&mut self, horizon: u32) {
        self.horizon = horizon;
        let need = horizon as usize + 1;
        while self.stack.len() < need {
            let root = self.stack[0].clone();
            self.stack.push(root);
            self.lists.push(MoveList::new());
            self.kids.push(Vec::new());
        }
    }

    /// The ordered children of the node `k` plies below the root (in `stack[k]`); with a bound,
    /// the first leaf whose value reaches it ends the list.
    pub fn expand(&mut self, k: usize, bound: Option<f64>) -> Vec<Child> {
        let (here, below) = self.stack.split_at_mut(k + 1);
        let p = &here[k];
        let list = &mut self.lists[k];
        p.legal_moves(list);
        let mut out = std::mem::take(&mut self.kids[k]);
        evaluate_children(
            p,
            &mut below[0],
            list.as_slice(),
            k as u32 + 1,
            self.horizon,
            self.robot,
            self.rules,
            bound,
            &mut out,
            &mut self.budget,
        );
        order(&mut out);
        out
    }

    /// The value of the node `k` plies below the root for its side to move, searched with the
    /// bounds `i_can` (what the side to move is sure of) and `he_can` (what the other side is).
    fn node(&mut self, k: usize, i_can: f64, he_can: f64) -> f64 {
        let mut kids = self.expand(k, Some(-he_can));
        let v = if kids.is_empty() || self.budget.stopped {
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
    pub fn search_children(
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
                self.rules.make_into(&mut below[0], &here[k], c.mv);
                if below[0].to_move() == mover {
                    self.node(k + 1, i_can, he_can)
                } else {
                    -self.node(k + 1, he_can, i_can)
                }
            } else {
                c.value
            };
            if self.budget.stopped {
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

    /// Searches the ordered children of the root as [`Searcher::search_children`] does with
    /// no bound (`margin` 0 gives the same values and choice), except that each child is
    /// searched above the best value so far minus `margin`: so every child whose value comes
    /// within `margin` of the best gets its exact value (the others an upper bound at most
    /// `margin` below the best). Returns the index of the best (`None` when the budget ran out
    /// before the first child was searched) and how many children were searched, from the
    /// first.
    pub fn search_root(&mut self, kids: &mut [Child], margin: f64) -> (Option<usize>, usize) {
        if kids.iter().all(|c| c.kind != Kind::Inner) {
            return (Some(0), kids.len());
        }
        let mover = self.stack[0].to_move();
        let mut best: Option<(usize, f64)> = None;
        let mut searched = 0;
        for (i, kid) in kids.iter_mut().enumerate() {
            let c = *kid;
            let floor = best.map_or(f64::NEG_INFINITY, |(_, b)| b - margin);
            let v = if c.kind == Kind::Inner {
                let (here, below) = self.stack.split_at_mut(1);
                self.rules.make_into(&mut below[0], &here[0], c.mv);
                if below[0].to_move() == mover {
                    self.node(1, floor, f64::NEG_INFINITY)
                } else {
                    -self.node(1, f64::NEG_INFINITY, floor)
                }
            } else {
                c.value
            };
            if self.budget.stopped {
                break;
            }
            kid.value = v;
            searched = i + 1;
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((i, v));
            }
        }
        (best.map(|(i, _)| i), searched)
    }
}

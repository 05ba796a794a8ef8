//! Puzzles cut from games: positions where exactly one move keeps a won game or saves a lost
//! one, with the line that follows.
//!
//! - [`find`]`(&Game, &Analysis, PuzzleBudget, seed) -> Vec<Puzzle>`: the puzzles of an analysed
//!   game ([`crate::analysis`]). Seconds to minutes on one core; call it off any async runtime.
//!   Equal budgets and seeds give equal puzzles.
//! - [`only_move`]`(&Position, PuzzleBudget, seed)`: whether a position has exactly one good move,
//!   and which (the check behind every puzzle and every step of its line).
//! - [`Puzzle`] is plain data (serde): the position as the engine protocol's `position` line with
//!   its variant line, so that `Game::from_position` replays it, the side to move, the solution
//!   line in notation, the source (game, ply, the move played there) and a difficulty.
//!
//! # How a puzzle is found
//!
//! 1. **Candidates**: the positions before the moves the analysis judged to have lost at least
//!    [`CANDIDATE_LOSS`] of the mover's chance (every such move, not only the listed turning
//!    points): someone missed something there. In EXXIT, whose alpha-beta search proves wins
//!    and losses (a certain chance is a found result, not an estimate), also those before a
//!    move that lost [`EXACT_CANDIDATE_LOSS`], and every position where the analysis found the
//!    mover's win certain: a won game to keep, even where the game's mover kept it (its
//!    logistic chances rarely move by [`CANDIDATE_LOSS`] in the bot's games, and its decided
//!    endgames are where a single winning move is found for sure). A candidate already played
//!    through in an earlier puzzle's line is skipped.
//! 2. **Every move judged, deeper than the analysis**: each legal move is played and the
//!    position after it searched with the analysis' search ([`crate::analysis`]) at the puzzle
//!    budget, so the position gets the analysis' whole budget once per move, one ply deeper
//!    (a forced reply is played first; a move that ends the game counts as certain). Two moves
//!    that both win at once end the check before anything is searched.
//! 3. **One good move**: the best move must leave the solver at least [`KEEP`] (a won game kept,
//!    or a lost one saved to an even one), and every other move at least [`MARGIN`] less.
//! 4. **A second opinion**: the best move and the [`RECHECKED`] next ones are searched again with
//!    another seed and twice the budget (in EXXIT, whose alpha-beta search has no randomness,
//!    the doubled budget searches deeper); the best move must be the same and both conditions
//!    must hold again. A puzzle whose answer the engine is unsure of is dropped.
//! 5. **The line**: after the solver's move the opponent replies with the AI's choice at the
//!    puzzle budget (forced moves as they come); if the solver's next position again has one good
//!    move (steps 2–4), the reply and that move join the line, up to [`MAX_SOLVER_MOVES`] solver
//!    moves. A line ends with a solver's move, or when the game ends.
//! 6. **The difficulty**, 1 to 5: at each solver position the analysis' search is run with 1/64,
//!    1/16, 1/4 and the whole of the budget; the first that finds the answer gives 1 to 4, none
//!    gives 5 (found only by judging every move); the puzzle's is the hardest of its positions.
//!
//! # Budgets
//!
//! The budget is per judged move (`hexcord puzzles --budget`, by default
//! [`AnalysisBudget::DEFAULT`]). Measured on games of the bot against itself at `medium`
//! (README's *Benchmarks*):
//!
//! - **inpHeXion 7×7**: 5 puzzles in 100 games (one of three solver moves), 8.4 s of CPU a game
//!   (a dev-profile build; a release build is faster).
//! - **EXXIT, 39 tiles**: 8 puzzles in 100 games, 69 s of CPU a game in a release build (the
//!   analysis of about 154 positions a game at 600,000 evaluated positions each, then each
//!   candidate judged); 10 found, of 8 positions (two were reached in two games). Of the 8,
//!   three have one solver move, two have two and three have three; difficulties 1 (five), 2, 3
//!   and 4. Its puzzles come from positions the alpha-beta search proved won: EXXIT's
//!   `medium` games seldom lose [`CANDIDATE_LOSS`] in one move. Before [`SEEDED_OPENING`] plies
//!   at `easy`, its 100 self-played games were one game, the search ignoring the seed.
//! - **inpHeXion 5×5 at `easy`** (`--budget 10000`, the starter set's): 21 puzzles in 100
//!   games, 2.6 s of CPU a game.
//!
//! # The starter set
//!
//! `assets/puzzles/starter.jsonl` holds the puzzles a new server starts with, from the bot's
//! games against itself (no players to credit), made by (its test checks every line):
//!
//! ```text
//! hexcord puzzles --self-play 58 --game "inphexion size=5" --level easy --budget 10000 -o a
//! hexcord puzzles --self-play 200 --game "inphexion size=5" --level easy --budget 10000 \
//!     --seed 59 -o b
//! hexcord puzzles --self-play 20 --game "exxit tiles=19" --budget 100000 -o c
//! hexcord puzzles --self-play 50 --game exxit -o d            # and, beside it,
//! hexcord puzzles --self-play 50 --game exxit --seed 51 -o e  # the other 50 games
//! cat a b c d e > assets/puzzles/starter.jsonl   # a position found twice kept once
//! ```

use serde::{Deserialize, Serialize};

use crate::ai::{self, value_for, Amount, Level, Player};
use crate::analysis::{self, Analysis, AnalysisBudget, MoveAnalysis};
use crate::games::{on_game, Colour, Game, GameKind, Move, Options, Position};

/// The search behind each judged move: the analysis' budgets (playouts in inpHeXion, evaluated
/// positions in EXXIT).
pub type PuzzleBudget = AnalysisBudget;

/// A move that lost at least this much of the mover's chance makes its position a candidate.
pub const CANDIDATE_LOSS: f64 = analysis::TURNING_LOSS;
/// In EXXIT, whose search proves wins, a move that lost this much is enough.
pub const EXACT_CANDIDATE_LOSS: f64 = 0.05;
/// The solver's chance after the one good move: at least this.
pub const KEEP: f64 = 0.5;
/// Every other move leaves the solver at least this much less.
pub const MARGIN: f64 = 0.4;
/// The moves after the best searched again for the second opinion.
pub const RECHECKED: usize = 3;
/// Solver moves in a line at most.
pub const MAX_SOLVER_MOVES: usize = 3;
/// Plies of a self-played game at a level whose search has no randomness played at `easy`
/// instead ([`self_play`]).
pub const SEEDED_OPENING: usize = 8;
/// Forced or replied moves followed between two solver moves at most (a guard: passes and
/// forced moves are rare).
const MAX_BETWEEN: usize = 8;

/// The budget's divisors for the difficulty, easiest first.
const LADDER: [u64; 4] = [64, 16, 4, 1];

/// A puzzle: a position, the side to move and the line that solves it.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Puzzle {
    /// The variant line (`inphexion size=7`, `exxit tiles=39`).
    pub variant: String,
    /// The position, as the engine protocol's `position` line.
    pub position: String,
    /// The side to move (the solver): `0` the first colour, `1` the second.
    pub to_move: u8,
    /// The solution in notation: the solver's move, the opponent's reply, the solver's next
    /// move, … ending with a solver's move or the end of the game.
    pub solution: Vec<String>,
    /// 1 (found by a small search) to 5 (found only by judging every move).
    pub difficulty: u8,
    /// The solver's chance after the answer, and after the best other move (second opinion
    /// included: the lower of the first and the higher of the second).
    pub chance: f64,
    pub second: f64,
    /// Where it comes from.
    pub source: Source,
}

/// The game a puzzle was cut from.
#[derive(Clone, PartialEq, Debug, Default, Serialize, Deserialize)]
pub struct Source {
    /// The stored game's number, when it is one.
    pub game: Option<i64>,
    /// Moves played before the puzzle's position.
    pub ply: usize,
    /// The move played there in the game (the mistake).
    pub played: Option<String>,
}

/// The one good move of a position, as [`only_move`] found it.
#[derive(Clone, PartialEq, Debug)]
pub struct Verdict {
    pub mv: Move,
    /// The solver's chance after it (the lower of the two opinions).
    pub chance: f64,
    /// The solver's chance after the best other move (the higher of the two opinions).
    pub second: f64,
}

impl Puzzle {
    /// The puzzle's position as a game to play on.
    pub fn game(&self) -> Result<Game, String> {
        let options = Options::parse_line(&self.variant)
            .map_err(|e| format!("bad variant `{}`: {e}", self.variant))?;
        Game::from_position(options, &self.position)
            .map_err(|e| format!("bad position `{}`: {e}", self.position))
    }

    /// The solver's colour.
    pub fn solver(&self) -> Colour {
        if self.to_move == 0 {
            Colour::First
        } else {
            Colour::Second
        }
    }

    /// The positions of the puzzle and of its line, each as the protocol's `position` line:
    /// the puzzle's, then the one after each move of the solution that the game does not end.
    pub fn line_positions(&self) -> Vec<String> {
        let Ok(mut game) = self.game() else {
            return Vec::new();
        };
        let mut lines = vec![game.position().to_line()];
        for text in &self.solution {
            if game.play_text(text).is_err() || game.is_over() {
                break;
            }
            lines.push(game.position().to_line());
        }
        lines
    }

    /// The solver's moves in the line.
    pub fn solver_moves(&self) -> usize {
        let Ok(mut game) = self.game() else { return 0 };
        let solver = self.solver();
        let mut n = 0;
        for text in &self.solution {
            if game.position().to_move() == solver {
                n += 1;
            }
            if game.play_text(text).is_err() {
                break;
            }
        }
        n
    }
}

/// The puzzles of `game`, from its `analysis` (whose positions must be the game's), each checked
/// at `budget` per judged move. Seeded: equal arguments give equal puzzles.
pub fn find(game: &Game, analysis: &Analysis, budget: PuzzleBudget, seed: u64) -> Vec<Puzzle> {
    let positions = game.positions();
    let exact = proves_wins(game.kind());
    let mut found: Vec<Puzzle> = Vec::new();
    // The positions of the found puzzles and of their lines: a candidate among them is no new
    // puzzle.
    let mut seen: Vec<String> = Vec::new();
    for m in &analysis.moves {
        if !candidate(m, exact) {
            continue;
        }
        let ply = m.number.saturating_sub(1);
        let Some(pos) = positions.get(ply) else {
            continue;
        };
        let line = pos.to_line();
        if seen.contains(&line) {
            continue;
        }
        if let Some(mut puzzle) = puzzle_at(pos, budget, mix(seed, ply as u64)) {
            puzzle.source = Source {
                game: None,
                ply,
                played: Some(m.played.clone()),
            };
            seen.extend(puzzle.line_positions());
            found.push(puzzle);
        }
    }
    found
}

/// Whether the position before move `m` is judged (step 1 of the module's docs): the move
/// lost at least [`CANDIDATE_LOSS`]; where the analysis' search proves wins (`exact`, EXXIT),
/// also when it lost [`EXACT_CANDIDATE_LOSS`], or when the analysis found the mover's win
/// certain (a won game to keep, even if the move played kept it).
fn candidate(m: &MoveAnalysis, exact: bool) -> bool {
    let lost = |least: f64| m.better.is_some() && m.loss >= least;
    lost(CANDIDATE_LOSS) || (exact && (lost(EXACT_CANDIDATE_LOSS) || m.before >= 1.0))
}

/// Whether the analysis' search of `kind` proves wins and losses (EXXIT's alpha-beta, whose
/// certain chances are found results) rather than estimating them (inpHeXion's playouts).
fn proves_wins(kind: GameKind) -> bool {
    on_game!(kind, GameKind, G => G::ANALYSIS) == Amount::Nodes
}

/// The puzzle at `pos` (its source left empty), if it has exactly one good move.
pub fn puzzle_at(pos: &Position, budget: PuzzleBudget, seed: u64) -> Option<Puzzle> {
    let first = only_move(pos, budget, seed)?;
    let solver = pos.to_move();
    let mut line = vec![first.mv];
    let mut difficulty = difficulty(pos, first.mv, budget, seed);
    let mut p = pos.clone();
    p.play(&first.mv).ok()?;
    let mut solver_moves = 1;
    while solver_moves < MAX_SOLVER_MOVES {
        let mut q = p.clone();
        let mut replies = Vec::new();
        while q.outcome().is_none() && q.to_move() != solver && replies.len() < MAX_BETWEEN {
            let Some(reply) = reply(&q, budget, mix(seed, 0x5eed + replies.len() as u64)) else {
                break;
            };
            if q.play(&reply).is_err() {
                break;
            }
            replies.push(reply);
        }
        if q.outcome().is_some() || q.to_move() != solver {
            break;
        }
        let step_seed = mix(seed, solver_moves as u64);
        let Some(next) = only_move(&q, budget, step_seed) else {
            break;
        };
        difficulty = difficulty.max(self::difficulty(&q, next.mv, budget, step_seed));
        if q.play(&next.mv).is_err() {
            break;
        }
        line.extend(replies);
        line.push(next.mv);
        p = q;
        solver_moves += 1;
    }
    Some(Puzzle {
        variant: pos.options().to_string(),
        position: pos.to_line(),
        to_move: solver.index() as u8,
        solution: line.iter().map(|m| m.to_string()).collect(),
        difficulty,
        chance: first.chance,
        second: first.second,
        source: Source::default(),
    })
}

/// The one good move of `pos` for the side to move (see the module's docs), or `None` when
/// there are several, none, or the engine is unsure.
pub fn only_move(pos: &Position, budget: PuzzleBudget, seed: u64) -> Option<Verdict> {
    if pos.outcome().is_some() {
        return None;
    }
    let me = pos.to_move();
    let moves = pos.legal_moves();
    if moves.len() < 2 {
        return None;
    }
    // Two wins at once: no search needed to know there is no single answer.
    let wins_at_once = moves
        .iter()
        .filter(|m| {
            let mut p = pos.clone();
            p.play(m).is_ok() && p.outcome().is_some_and(|o| o.winner == Some(me))
        })
        .count();
    if wins_at_once > 1 {
        return None;
    }
    let mut judged: Vec<(Move, f64)> = moves
        .iter()
        .map(|&m| (m, chance_after(pos, m, me, budget, seed)))
        .collect();
    // Best first; equal chances keep the legal moves' order (stable).
    judged.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (best, chance) = judged[0];
    let second = judged[1].1;
    if !clear(chance, second) {
        return None;
    }
    // The second opinion: another seed, twice the budget, on the best and the next ones.
    let again = twice(budget);
    let seed2 = mix(seed, 0x0be1_e5ed);
    let mut rechecked: Vec<(Move, f64)> = judged
        .iter()
        .take(1 + RECHECKED)
        .map(|&(m, _)| (m, chance_after(pos, m, me, again, seed2)))
        .collect();
    rechecked.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (best2, chance2) = rechecked[0];
    let second2 = rechecked.get(1).map_or(second, |r| r.1).max(second);
    let (chance, second) = (chance.min(chance2), second.max(second2));
    (best2 == best && clear(chance, second)).then_some(Verdict {
        mv: best,
        chance,
        second,
    })
}

/// Whether a best move's chance and the next one's make a single answer.
fn clear(best: f64, second: f64) -> bool {
    best >= KEEP && best - second >= MARGIN
}

/// The chance of `me` after `mv` in `pos`: the outcome if it ends the game, else the analysis'
/// search of the position after it (after any forced moves).
fn chance_after(pos: &Position, mv: Move, me: Colour, budget: PuzzleBudget, seed: u64) -> f64 {
    let mut p = pos.clone();
    if p.play(&mv).is_err() {
        return 0.0;
    }
    for _ in 0..MAX_BETWEEN {
        if let Some(o) = p.outcome() {
            return value_for(&o, me);
        }
        let moves = p.legal_moves();
        match moves.as_slice() {
            [only] => {
                if p.play(only).is_err() {
                    return 0.0;
                }
            }
            _ => break,
        }
    }
    if let Some(o) = p.outcome() {
        return value_for(&o, me);
    }
    let (_, c) = analysis::search(&p, budget, seed);
    if p.to_move() == me {
        c
    } else {
        1.0 - c
    }
}

/// The opponent's reply in the line: the only move, or the AI's choice.
fn reply(pos: &Position, budget: PuzzleBudget, seed: u64) -> Option<Move> {
    let moves = pos.legal_moves();
    match moves.as_slice() {
        [] => None,
        [only] => Some(*only),
        _ => analysis::search(pos, budget, seed).0,
    }
}

/// 1 to 4: the first of the ladder's searches that finds `answer`; 5 when none does.
fn difficulty(pos: &Position, answer: Move, budget: PuzzleBudget, seed: u64) -> u8 {
    for (k, &d) in LADDER.iter().enumerate() {
        let b = AnalysisBudget {
            playouts: (budget.playouts / d as u32).max(1),
            nodes: (budget.nodes / d).max(1),
        };
        if analysis::search(pos, b, seed).0 == Some(answer) {
            return k as u8 + 1;
        }
    }
    LADDER.len() as u8 + 1
}

fn twice(b: PuzzleBudget) -> PuzzleBudget {
    AnalysisBudget {
        playouts: b.playouts.saturating_mul(2),
        nodes: b.nodes.saturating_mul(2),
    }
}

/// A game of the bot against itself at `level` on both sides, for puzzles on a server's first
/// day (`hexcord puzzles --self-play`): each move searched with the level's budget without its
/// time cap, seeded by `seed` and the ply, so equal seeds give equal games on any machine.
/// Where the level's search has no randomness (EXXIT's alpha-beta at `medium` and `hard`), the
/// first [`SEEDED_OPENING`] plies are the `easy` level's (seeded playouts), so that the seeds
/// give different games rather than one game again and again.
pub fn self_play(options: &Options, level: Level, seed: u64) -> Game {
    let budget = ai::Budget {
        millis: None,
        ..level.budget_for(options.kind())
    };
    let opening = ai::Budget {
        millis: None,
        ..Level::Easy.budget_for(options.kind())
    };
    // A budget of evaluated positions is the alpha-beta search, which ignores the seed.
    let unseeded = budget.nodes.is_some();
    let mut game = Game::new(options.clone());
    while !game.is_over() {
        let b = if unseeded && game.ply() < SEEDED_OPENING {
            opening
        } else {
            budget
        };
        let Some(mv) = ai::choose(game.position(), b, mix(seed, game.ply() as u64)) else {
            break;
        };
        if game.play(mv).is_err() {
            break;
        }
    }
    game
}

/// A seed of its own for each use, all from `seed`.
fn mix(seed: u64, k: u64) -> u64 {
    (seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15)).rotate_left(23)
}

#[cfg(test)]
mod tests;

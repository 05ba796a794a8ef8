//! Puzzles cut from games: positions where exactly one move wins, with the line that follows,
//! proven by search to the end before they are kept.
//!
//! - [`find`]`(&Game, &Analysis, PuzzleBudget, seed) -> Vec<Puzzle>`: the puzzles of an analysed
//!   game ([`crate::analysis`]). Seconds to minutes on one core; call it off any async runtime.
//!   Equal budgets and seeds give equal puzzles.
//! - [`only_move`]`(&Position, PuzzleBudget, seed)`: whether a position has exactly one good move,
//!   and which, as the engine judges it (the search behind every puzzle and every step of its
//!   line).
//! - [`prove`]`(&Puzzle, nodes)` / [`prove_line`]: the proof ([`proof`]): at each solver move of
//!   the line, the answer wins against any defence and every other move does not.
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
//! 7. **The proof**: the line is searched to the end of the game ([`prove_line`], at most
//!    [`PROOF_NODES`] positions for each judged move): at each solver move the answer must win
//!    against any defence, and every other legal move must not (an estimate's "every other move
//!    is worse" misses a second win that takes longer). The line is cut before the first solver
//!    move the search refutes (no puzzle when it is the first). What stands carries its
//!    [`Proof`]: `exact` when every judged move was decided, else `budget N` (the search ran out
//!    somewhere, without finding another win there; the engine's judgement stands). inpHeXion
//!    5×5 is always decided (no repetitions, so every position goes into the search's table);
//!    EXXIT's dances can repeat positions, and its long endgames often stay `budget N`.
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
//! games against itself (no players to credit), found before the proof existed by
//!
//! ```text
//! hexcord puzzles --self-play 58 --game "inphexion size=5" --level easy --budget 10000 -o a
//! hexcord puzzles --self-play 200 --game "inphexion size=5" --level easy --budget 10000 \
//!     --seed 59 -o b
//! hexcord puzzles --self-play 20 --game "exxit tiles=19" --budget 100000 -o c
//! hexcord puzzles --self-play 50 --game exxit -o d            # and, beside it,
//! hexcord puzzles --self-play 50 --game exxit --seed 51 -o e  # the other 50 games
//! cat a b c d e > found.jsonl   # a position found twice kept once
//! ```
//!
//! then proven (step 7), the inpHeXion lines at [`PROOF_NODES`], the EXXIT ones at 100,000
//! positions a judged move (`--budget` only finds the difficulty of a line cut short):
//!
//! ```text
//! hexcord puzzles --prove found-inphexion.jsonl --budget 10000 -o a
//! hexcord puzzles --prove found-exxit.jsonl --proof-budget 100000 --budget 100000 -o b
//! cat a b > assets/puzzles/starter.jsonl
//! ```
//!
//! 3 of its 62 lines did not stand, all inpHeXion 5×5, each with other winning first moves the
//! estimates had missed (2, 3 and 5 winning moves in all): 46 inpHeXion puzzles remain, all
//! `exact` (at most 333,480 positions for one judged move; about 12 s of CPU for the 49 in a
//! dev-profile build, most of it refuting the three). Of the 13 EXXIT puzzles none was refuted:
//! 4 are `exact`, 9 `budget 100000` (three of these stayed undecided at 1,000,000). Its test
//! proves every inpHeXion line again, and every EXXIT line marked `exact`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::ai::{self, value_for, Amount, Level, Player};
use crate::analysis::{self, Analysis, AnalysisBudget, MoveAnalysis};
use crate::games::{on_game, Colour, Game, GameKind, Move, Options, Position};

pub mod proof;

use proof::{Provable, Prover};

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

/// The proof's budget: positions a search to the end expands at most for each move it judges
/// ([`prove`]). Every inpHeXion 5×5 position of the starter set is decided far below it.
pub const PROOF_NODES: u64 = 1_000_000;

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
    /// How far a search to the end proved the line ([`prove`]): `"exact"`, or `"budget N"`.
    /// Absent in older records, and in stored puzzles (the database keeps the line only; a
    /// puzzle is proven before it is stored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<Proof>,
}

/// What a search to the end found of a puzzle's line ([`prove`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Proof {
    /// At every solver move of the line the answer wins against any defence and every other
    /// move does not (it loses, or at best draws).
    Exact,
    /// A search to the end of at most this many positions for each move found no other
    /// winning move, but could not decide every move: the answer stands on the engine's
    /// judgement ([`only_move`]) where the search ran out.
    Budget(u64),
}

impl fmt::Display for Proof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Proof::Exact => f.write_str("exact"),
            Proof::Budget(n) => write!(f, "budget {n}"),
        }
    }
}

impl FromStr for Proof {
    type Err = String;
    fn from_str(s: &str) -> Result<Proof, String> {
        match s.split_once(' ') {
            None if s == "exact" => Ok(Proof::Exact),
            Some(("budget", n)) => n
                .parse()
                .map(Proof::Budget)
                .map_err(|_| format!("bad proof budget `{n}`")),
            _ => Err(format!("unknown proof `{s}`: exact or budget N")),
        }
    }
}

impl From<Proof> for String {
    fn from(p: Proof) -> String {
        p.to_string()
    }
}

impl TryFrom<String> for Proof {
    type Error = String;
    fn try_from(s: String) -> Result<Proof, String> {
        s.parse()
    }
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

/// The puzzle at `pos` (its source left empty), if it has exactly one good move and a search to
/// the end does not refute it ([`prove_line`] at [`PROOF_NODES`]): the line is cut before the
/// first solver move the search refutes, and is no puzzle if that is the first.
pub fn puzzle_at(pos: &Position, budget: PuzzleBudget, seed: u64) -> Option<Puzzle> {
    let first = only_move(pos, budget, seed)?;
    let solver = pos.to_move();
    let mut line = vec![first.mv];
    // The difficulty of each solver position of the line.
    let mut difficulties = vec![difficulty(pos, first.mv, budget, seed)];
    let mut p = pos.clone();
    p.play(&first.mv).ok()?;
    while difficulties.len() < MAX_SOLVER_MOVES {
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
        let step_seed = mix(seed, difficulties.len() as u64);
        let Some(next) = only_move(&q, budget, step_seed) else {
            break;
        };
        difficulties.push(self::difficulty(&q, next.mv, budget, step_seed));
        if q.play(&next.mv).is_err() {
            break;
        }
        line.extend(replies);
        line.push(next.mv);
        p = q;
    }
    let proven = prove_line(pos, &line, PROOF_NODES);
    let proof = proven.proof?;
    line.truncate(proven.stands);
    let kept = solver_moves_of(pos, &line);
    Some(Puzzle {
        variant: pos.options().to_string(),
        position: pos.to_line(),
        to_move: solver.index() as u8,
        solution: line.iter().map(|m| m.to_string()).collect(),
        difficulty: difficulties[..kept].iter().copied().max()?,
        chance: first.chance,
        second: first.second,
        source: Source::default(),
        proof: Some(proof),
    })
}

/// The solver's moves in `line` from `pos`.
fn solver_moves_of(pos: &Position, line: &[Move]) -> usize {
    let solver = pos.to_move();
    let mut p = pos.clone();
    let mut n = 0;
    for mv in line {
        if p.to_move() == solver {
            n += 1;
        }
        if p.play(mv).is_err() {
            break;
        }
    }
    n
}

/// What a search to the end found of a puzzle's line ([`prove_line`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LineProof {
    /// The moves of the line that stand: up to the last solver move before the first one
    /// refuted (all of them when none is; 0 when the first is).
    pub stands: usize,
    /// How far what stands is proven; `None` when nothing stands.
    pub proof: Option<Proof>,
    /// The first refuted solver move, if any: its number in the line (0 the first move).
    pub refuted_at: Option<usize>,
    /// At that position, the solver's moves found to win (in notation): the answer missing
    /// from them, or others beside it.
    pub winning: Vec<String>,
    /// Positions searched, and the most for one judged move.
    pub nodes: u64,
    pub most: u64,
}

/// Proves `puzzle`'s line ([`prove_line`]) with `nodes` per judged move.
pub fn prove(puzzle: &Puzzle, nodes: u64) -> Result<LineProof, String> {
    let mut game = puzzle.game()?;
    let start = game.position().clone();
    for text in &puzzle.solution {
        game.play_text(text)
            .map_err(|e| format!("the line's move `{text}` does not play: {e}"))?;
    }
    Ok(prove_line(&start, game.moves(), nodes))
}

/// `puzzle` as a search to the end leaves it ([`prove`] with `nodes` per judged move): with
/// its proof recorded, its line cut before the first refuted solver move (its difficulty then
/// found again over the solver moves left, at `budget` and `seed`), or `None` when its first
/// move is refuted. Also what the search found.
pub fn keep_proven(
    puzzle: &Puzzle,
    nodes: u64,
    budget: PuzzleBudget,
    seed: u64,
) -> Result<(Option<Puzzle>, LineProof), String> {
    let found = prove(puzzle, nodes)?;
    let Some(proof) = found.proof else {
        return Ok((None, found));
    };
    let mut kept = puzzle.clone();
    kept.proof = Some(proof);
    if found.stands < puzzle.solution.len() {
        kept.solution.truncate(found.stands);
        let mut game = kept.game()?;
        let mut hardest = 1;
        for text in &kept.solution {
            if game.position().to_move() == kept.solver() {
                let answer = game
                    .position()
                    .parse_move(text)
                    .map_err(|e| format!("`{text}`: {e}"))?;
                hardest = hardest.max(difficulty(game.position(), answer, budget, seed));
            }
            game.play_text(text).map_err(|e| format!("`{text}`: {e}"))?;
        }
        kept.difficulty = hardest;
    }
    Ok((Some(kept), found))
}

/// Proves a line from `pos` by search to the end ([`proof`]), expanding at most `nodes`
/// positions for each move it judges: at every solver move of the line, the line's move must
/// win against any defence and every other legal move must not. The search starts from the
/// position as its line reads (as a puzzle is played: EXXIT's repetitions count from there).
pub fn prove_line(pos: &Position, line: &[Move], nodes: u64) -> LineProof {
    let fresh = Position::from_line(&pos.options(), &pos.to_line()).unwrap_or_else(|_| pos.clone());
    let proven = proof::on_stack(|| {
        on_game!(&fresh, Position(p), G => {
            let moves: Vec<_> = line.iter().map_while(|m| G::move_of(m).copied()).collect();
            prove_in(p, &moves, nodes, |m| G::wrap_move(m).to_string())
        })
    });
    // Without a thread for the proof nothing is proven, and nothing is kept.
    proven.unwrap_or(LineProof {
        stands: 0,
        proof: None,
        refuted_at: None,
        winning: Vec::new(),
        nodes: 0,
        most: 0,
    })
}

/// [`prove_line`] in one game.
fn prove_in<G: Provable>(
    start: &G,
    line: &[G::Move],
    nodes: u64,
    name: impl Fn(G::Move) -> String,
) -> LineProof {
    let solver = start.to_move();
    let mut prover: Prover<G> = Prover::new(solver);
    let mut p = start.clone();
    let (mut stands, mut exact) = (0, true);
    let proof = |stands: usize, exact: bool| {
        (stands > 0).then_some(if exact {
            Proof::Exact
        } else {
            Proof::Budget(nodes)
        })
    };
    let mut moves = Vec::new();
    let mut most = 0;
    for (i, &answer) in line.iter().enumerate() {
        if p.outcome().is_some() {
            break;
        }
        if p.to_move() == solver {
            p.legal_moves(&mut moves);
            if !moves.contains(&answer) {
                return LineProof {
                    stands,
                    proof: proof(stands, exact),
                    refuted_at: Some(i),
                    winning: Vec::new(),
                    nodes: prover.nodes,
                    most,
                };
            }
            let mut step_exact = true;
            // The answer's verdict: refuted unless winning or undecided.
            let mut answer_stands = false;
            let mut winning = Vec::new();
            // The answer first: the others are searched with its table.
            let others = moves.iter().copied().filter(|&m| m != answer);
            for m in std::iter::once(answer).chain(others) {
                prover.allow(nodes);
                let before = prover.nodes;
                let found = prover.wins_after(&p, m);
                most = most.max(prover.nodes - before);
                if m == answer {
                    answer_stands = found != Some(false);
                }
                match found {
                    Some(true) => winning.push(name(m)),
                    Some(false) => {}
                    None => step_exact = false,
                }
            }
            let others_win = winning.iter().any(|w| *w != name(answer));
            if !answer_stands || others_win {
                return LineProof {
                    stands,
                    proof: proof(stands, exact),
                    refuted_at: Some(i),
                    winning,
                    nodes: prover.nodes,
                    most,
                };
            }
            exact &= step_exact;
            stands = i + 1;
        }
        p.play(answer);
    }
    LineProof {
        stands,
        proof: proof(stands, exact),
        refuted_at: None,
        winning: Vec::new(),
        nodes: prover.nodes,
        most,
    }
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

//! The AI: the bot's levels, the analysis and the arena all search through this module.
//!
//! [`SearchGame`] is all a search needs from a game: whose turn, the outcome, the legal moves,
//! making a move and a playout to the end (both games implement it in `games.rs`). A [`Budget`]
//! says how long a search may run: playouts (Monte-Carlo), evaluated positions (`nodes`, EXXIT's
//! alpha-beta search) and a time cap. [`choose`] picks the search for a position and a budget;
//! [`Level::budget_for`] gives each level's budget.
//!
//! # The levels
//!
//! | level | inpHeXion | EXXIT | time cap |
//! | --- | --- | --- | --- |
//! | `beginner` | UCT, 30 playouts | UCT, 20 evaluation-cut playouts | 0.5 s |
//! | `easy` | UCT, 150 playouts | UCT, 200 evaluation-cut playouts | 0.5 s |
//! | `medium` | UCT, 1,500 playouts | alpha-beta, 100,000 positions | 1.5 s |
//! | `hard` | 2 × 60,000 playouts, RAVE, decisive | alpha-beta, 1,000,000 positions | 4 s |
//!
//! - **Reproducible.** The strength is set by a count (playouts or positions), never by the
//!   clock, so equal seeds give equal moves on any machine; the time caps only guard a slow or
//!   loaded machine. The seed of a bot's move is derived from the game, so a replayed position
//!   gets the same answer.
//! - **Varied.** Every level plays differently from game to game, the seed choosing among moves
//!   of near-equal value: the Monte-Carlo searches through their seeded playouts, EXXIT's
//!   alpha-beta search by drawing among the root moves within half a point of the best
//!   ([`deep::MARGIN`]), never when the game is won or lost. So a member who beat a level
//!   cannot win again by repeating their moves, and two levels' games against each other do not
//!   repeat. The analysis plays the best move, without variety.
//! - **UCT** ([`mcts::search`]): UCB1 with exploration 0.9, random playouts to the end, and solver
//!   knowledge at the root: a win in one is always taken, and a move that lets the opponent win at
//!   once is avoided when another exists.
//! - **inpHeXion `hard`** ([`mcts::search_trees`], any inpHeXion search of [`SPLIT_FROM`]
//!   playouts or more): the playouts are split over [`TREES`] independent trees, each on its own
//!   thread with its own seed (root parallelism; the root moves' visits and values are added up),
//!   so both
//!   cores of a two-core machine work on the move awaited, with the same moves however many cores
//!   there are. Each tree blends a child's mean with its all-moves-as-first mean (RAVE: the
//!   playouts through its parent that ended with the move's cell held by the mover), with weight
//!   √(1000 / (3n + 1000)) after n visits and exploration 0.4; and its playouts are *decisive*
//!   (`inphexion::Position::playout_decisive`): a player who can win at once by a regular move's
//!   placement does so. The decisive playouts are what lifted it from about 72 % to 90 % against
//!   the 12,000-playout UCT it replaced; more playouts alone paid too slowly.
//! - **EXXIT `easy`** plays UCT with *evaluation-cut* playouts: 16 random plies, then the island
//!   score (X20) as a chance, a logistic of the score difference (3 points for a factor e in the
//!   odds).
//! - **EXXIT `medium` and `hard`** search alpha-beta by whole turns ([`deep`]). Monte-Carlo search
//!   with random playouts lost to Boardspace's Bestbot (an 8-ply alpha-beta search) about one
//!   game in three even at 30,000 playouts a move: EXXIT is tactical (a dance destroys, a chain of
//!   expansions converts several cells at once), and random plies miss what a full-width search
//!   sees. The alpha-beta levels beat Bestbot 95 and 91 games in 100, but `hard` is only somewhat
//!   stronger than the 30,000-playout Monte-Carlo `hard` it replaced (51–37–1 over 89 games). Open
//!   ideas: the evaluation-cut playouts as a second opinion at the root, a transposition table for
//!   more depth, an evaluation that sees threatened dances.
//!
//! The README's benchmark table has the current strength and speed of each level; [`crate::arena`]
//! says how they are measured.
//!
//! # Memory and time bounds
//!
//! A Monte-Carlo tree grows one node per playout, 230–690 bytes each (measured from the start and
//! in midgames of both games), so inpHeXion's `hard` holds about 120,000 nodes (tens of MB) while
//! it thinks. The engine's `genmove` caps any request at 500,000 playouts and 60 s, which bounds
//! its memory to a few hundred MB. The alpha-beta search keeps one position per ply of its line,
//! so its memory is bounded whatever its budget.
//!
//! In the bot, searches never run on the async runtime: [`crate::play::opponent`] runs the bot's
//! moves on blocking threads, at most one per core but one (1 to 4), and analyses with a budget of
//! their own, so a queue of analyses never delays the bot's reply.
//!
//! # Where a playout's time goes
//!
//! Playouts are the Monte-Carlo search's inner loop, so the rules engines make them fast. The
//! current figures (README): an inpHeXion 7×7 playout 2.1 µs, an EXXIT 39-tile game 8.3 µs, on one
//! quiet core.
//!
//! - **Measuring.** `cargo run --release --example playouts -- exxit|inphexion N [lines]` plays N
//!   seeded games and prints a checksum of the outcomes: a speed-up must leave it unchanged
//!   (inpHeXion, 200,000 games: `57ccc5de61c9302f`; EXXIT, 100,000: `78c120982659627e`, 2,000:
//!   `c23da3fc20883759`). Instructions come from `valgrind --tool=callgrind`, mispredicted
//!   branches from `valgrind --tool=cachegrind --branch-sim=yes` (the build machine's processor
//!   has no counters open to `perf stat`). The machine is rarely quiet: compare two builds by
//!   running them alternately in the same minute. Trust time over cachegrind's branch model: a
//!   change that removed 50,000 of its mispredictions for 7 M instructions lost time.
//! - **inpHeXion.** Boards up to 8×8 play out on 64-bit words (`Position::playout64`, with a
//!   `popcnt` path chosen at run time): about 14.9 k instructions a game.
//! - **EXXIT**, about 137 plies a game. A random playout's branches depend on random data, so its
//!   time goes as much to mispredicted branches and memory stalls as to instructions. What is left
//!   per ply is about 530 instructions and 2.2 mispredicted branches: the search for dances (the
//!   pairs within reach about 65 instructions, each candidate's line check about 100, 1.1
//!   candidates a ply), the stack edits about 90, the expansions about 60, the repetition history
//!   and the final score about 18 each. How it got there:
//!   - Each stack slot keeps its cell's column, row and height as bytes side by side (`lane_q`,
//!     `lane_r`, `lane_h`) and its flags (red on top, in outer space, may expand) as one byte, so
//!     all pairs of up to eight dancers and eight targets are compared at once in two AVX2
//!     registers (`pairs_in_reach`), and the flags become masks by one `movemask`.
//!   - The playout loop is compiled twice, for baseline x86-64 (SSE2) and for
//!     AVX2/BMI1/BMI2/`popcnt`, and chosen at run time (`playout_avx2`; the recursive expansion
//!     chain has its own AVX2 copy, `convert_avx2`). A test plays the same games on both paths.
//!     The baseline path takes about 1.25× the time.
//!   - Branch-free where the data is random: the k-th empty tile or expandable stack in one step
//!     (`nth_bit`: BMI2 `pdep`), the final score's islands grown through neighbour masks
//!     (`links`), the next expandable neighbour of a chain from a mask (`expandable_around`), a
//!     candidate dance's line read as two 3-bit masks when the dancer is 3 discs tall or less (99 %
//!     of the candidates).
//!   - The stack edits write the lanes and flags with 16-byte stores (`set_lane`, `or_lanes`).
//!     The next move's dance search reads them with 16-byte loads a few dozen instructions later,
//!     and a load wider than the stores in flight is not forwarded from them: it waits for them to
//!     reach the cache. Byte stores saved instructions and lost more time than they saved.
//!   - Random numbers by one multiplication (`games::below`) instead of `rand`'s general sampler;
//!     stack keys from a table of random words per cell.
//!   - Tried and dropped: islands kept by union–find as tiles are put (its upkeep costs what the
//!     final flood does); per-line lists of stacks kept up to date on every edit (the upkeep cost
//!     more than the search saved: a ply visits about 2.4 own stacks while a dance edits 2–4); a
//!     disc drop without a branch (fewer mispredictions counted, more time).
//!   - Left to try: the dance's drops without a branch per disc; dance candidates kept per stack
//!     and updated only around the cells a move changes.

pub mod alphabeta;
pub mod boardspace;
pub mod deep;
mod games;
pub mod mcts;
pub mod strength;

use std::fmt;
use std::str::FromStr;

use rand::rngs::SmallRng;

use crate::games::{on_game, Colour, GameKind, Outcome, Registered};

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
    Beginner,
    Easy,
    Medium,
    Hard,
}

impl Level {
    /// Every level, weakest first: the order every list of levels shows.
    pub const ALL: [Level; 4] = [Level::Beginner, Level::Easy, Level::Medium, Level::Hard];

    pub const fn name(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    /// Every level's name, weakest first, for messages: `beginner, easy, medium or hard`.
    pub fn names() -> String {
        let names: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => names.join(""),
        }
    }

    /// The search budget behind each level in each game. Playouts (Monte-Carlo) or evaluated
    /// positions (EXXIT's `medium` and `hard`, alpha-beta) set the strength, so equal seeds give
    /// equal moves; the time is a cap that keeps `hard` within 5 s on a loaded machine.
    pub fn budget_for(self, kind: GameKind) -> Budget {
        on_game!(kind, GameKind, G => G::budget(self))
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown level `{s}`: {}", Level::names()))
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

/// Chooses a move for the side to move in a position of any game; `None` when it is over.
pub fn choose(
    position: &crate::games::Position,
    budget: Budget,
    seed: u64,
) -> Option<crate::games::Move> {
    on_game!(position, Position(p), G => G::choose(p, budget, seed).map(G::wrap_move))
}

/// What an analysis counts per position in a game: playouts or evaluated positions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Amount {
    Playouts,
    Nodes,
}

/// How the bot plays a game: the search behind each level and the analysis' search. Implemented
/// on the game's [`Rules`](crate::games::Rules) type in `games.rs`, beside its [`SearchGame`];
/// [`choose`], [`Level::budget_for`] and [`crate::analysis`] reach it through the registry.
pub trait Player: Registered {
    /// What [`Player::chance`] counts.
    const ANALYSIS: Amount;
    /// The search budget of `level` in this game.
    fn budget(level: Level) -> Budget;
    /// The move the AI chooses within `budget`; `None` when the game is over.
    fn choose(position: &Self::Position, budget: Budget, seed: u64) -> Option<Self::Move>;
    /// The analysis' search of `amount` ([`Player::ANALYSIS`]): the AI's move and the side to
    /// move's winning chance (0 to 1).
    fn chance(position: &Self::Position, amount: u64, seed: u64) -> Option<(Self::Move, f64)>;
}

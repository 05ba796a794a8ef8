//! A computer analysis of a game: for each position, each side's winning chance from the AI's
//! search with a fixed budget, and the move the AI prefers; for each move, how much of the
//! mover's chance it lost; and the turning points (the moves that lost the most, with the better
//! move).
//!
//! - [`analyse`]`(&Game, AnalysisBudget, seed, progress) -> Analysis`: the work, a few seconds to
//!   a minute on one core; call it off any async runtime. `progress(done, total)` is called after
//!   each searched position. Equal budgets and seeds give equal analyses.
//! - [`Analysis`] is plain data (serde), to be stored and shown again without searching;
//!   [`Analysis::table`] is the per-move table as text.
//! - [`chart_png`]`(&Analysis, players, Theme)`: the chart of the winning chances
//!   ([`crate::render::chart`]).
//!
//! The searches are those the bot plays with ([`crate::ai`]): in inpHeXion the Monte-Carlo tree
//! search (its value, the share of won playouts, is the chance; a win in one is found by its
//! solver and counts as certain), in EXXIT the alpha-beta search of `medium` and `hard` (its
//! value, in island-score points, becomes a chance through a logistic curve; a found win or
//! loss counts as certain). A position with one legal move is not searched: its chance is the
//! next position's.
//!
//! # How a move is judged
//!
//! A move's loss is the mover's chance before it minus after it (0 when it is the AI's own choice).
//! The turning points are the up to [`TURNING_POINTS`] moves that lost the most, at least
//! [`TURNING_LOSS`] each, the worst first; of equal losses the later comes first (the earlier were
//! made good by the opponent's mistakes). In EXXIT a value of 6 island-score points is a 73 %
//! chance (a logistic curve). The chart (900×440, dark or light like the boards) shows the first
//! colour's chance as an area rising from the bottom in its colour and the second colour's from the
//! top in its own (smoothed), each turning point marked by a line, the chances found before and after
//! it (the values the answer states, not smoothed) and a badge with the move number.
//!
//! # In the bot
//!
//! `/analysis` analyses a finished game at [`AnalysisBudget::DEFAULT`], seeded by the game's
//! number, in the server's language. It runs on the bot's search threads with a budget of its own
//! (one analysis at a time beside the bot's moves, [`crate::play::opponent::OTHER_SEARCHES`]), so
//! the bot's replies never wait behind it; it edits its answer every 2 seconds with the positions
//! searched, and stores the result in the `analyses` table (one row per game, budget and seed), so
//! that the next request answers at once. Two requests for one game at the same moment make one
//! analysis: the second waits and finds it stored. It is refused for a game in play, so that it
//! cannot help anyone during a game.

use serde::{Deserialize, Serialize};

use crate::ai::{value_for, Amount, Player};
use crate::games::{on_game, Colour, Game, GameKind, Move, Position};
use crate::i18n::Lang;
use crate::render::{self, RenderError, Theme};

/// How much the search may do at each position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct AnalysisBudget {
    /// inpHeXion: Monte-Carlo playouts per position.
    pub playouts: u32,
    /// EXXIT: positions evaluated by the alpha-beta search per position.
    pub nodes: u64,
}

impl AnalysisBudget {
    /// The default: more than the bot's `hard` level searches in inpHeXion and more than
    /// `medium` in EXXIT, within seconds for a 40-move inpHeXion game and half a minute for a
    /// 130-move EXXIT game on one core (see README).
    pub const DEFAULT: AnalysisBudget = AnalysisBudget {
        playouts: 30_000,
        nodes: 600_000,
    };

    /// The most a budget may be (an analysis then takes minutes).
    pub const MAX: AnalysisBudget = AnalysisBudget {
        playouts: 200_000,
        nodes: 2_000_000,
    };

    /// `n` searched per position in either game (playouts or evaluated positions), within
    /// [`AnalysisBudget::MAX`].
    pub fn uniform(n: u64) -> AnalysisBudget {
        AnalysisBudget {
            playouts: n.clamp(1, u64::from(Self::MAX.playouts)) as u32,
            nodes: n.clamp(1, Self::MAX.nodes),
        }
    }

    /// The amount searched per position in a game of `kind`.
    pub fn for_kind(self, kind: GameKind) -> u64 {
        match on_game!(kind, GameKind, G => G::ANALYSIS) {
            Amount::Playouts => u64::from(self.playouts),
            Amount::Nodes => self.nodes,
        }
    }
}

impl Default for AnalysisBudget {
    fn default() -> Self {
        AnalysisBudget::DEFAULT
    }
}

/// The analysis of one position.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct PositionAnalysis {
    /// Moves played before it (0: the start).
    pub ply: usize,
    /// The first colour's winning chance, 0 to 1 (the second colour's is the rest; a draw
    /// counts half).
    pub first_chance: f64,
    /// The move the AI prefers, in notation (none once the game is over).
    pub best: Option<String>,
}

/// The analysis of one move.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct MoveAnalysis {
    /// 1 for the first move of the game.
    pub number: usize,
    /// The colour that played it: 0 first, 1 second.
    pub mover: u8,
    /// The move played, in notation.
    pub played: String,
    /// The move the AI prefers in its place (none when it is the move played).
    pub better: Option<String>,
    /// The mover's winning chance before and after the move.
    pub before: f64,
    pub after: f64,
    /// How much of the mover's chance the move lost (`before − after`, never below 0; 0 when it
    /// is the AI's move).
    pub loss: f64,
}

/// The analysis of a game.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Analysis {
    /// `inphexion` or `exxit`.
    pub game: String,
    /// The amount searched per position (playouts or evaluated positions) and the seed.
    pub budget: u64,
    pub seed: u64,
    /// Every position from the start, `moves.len() + 1` of them.
    pub positions: Vec<PositionAnalysis>,
    pub moves: Vec<MoveAnalysis>,
    /// The turning points: numbers of the moves that lost the most (at least
    /// [`TURNING_LOSS`] each), the worst first (of equal losses the later), at most
    /// [`TURNING_POINTS`].
    pub turning_points: Vec<usize>,
}

/// A move is a turning point only if it lost at least this much of the mover's chance.
pub const TURNING_LOSS: f64 = 0.15;
/// Turning points listed at most.
pub const TURNING_POINTS: usize = 3;

/// Analyses `game` (finished or not) within `budget` per position. `progress(done, total)` is
/// called after each position searched (`total` is the number of positions to search).
pub fn analyse(
    game: &Game,
    budget: AnalysisBudget,
    seed: u64,
    mut progress: impl FnMut(usize, usize),
) -> Analysis {
    let positions = game.positions();
    let total = positions.len();
    let mut first_chance = Vec::with_capacity(total);
    let mut best: Vec<Option<Move>> = Vec::with_capacity(total);
    let mut forced = Vec::with_capacity(total);
    for (ply, pos) in positions.iter().enumerate() {
        let (chance, mv, one) = match pos.outcome() {
            Some(o) => (value_for(&o, Colour::First), None, false),
            None => {
                let moves = pos.legal_moves();
                if moves.len() == 1 {
                    (0.5, moves.first().copied(), true)
                } else {
                    let s = ply_seed(seed, ply);
                    let (mv, c) = search(pos, budget, s);
                    let first = if pos.to_move() == Colour::First {
                        c
                    } else {
                        1.0 - c
                    };
                    (first, mv, false)
                }
            }
        };
        first_chance.push(chance);
        best.push(mv);
        forced.push(one);
        progress(ply + 1, total);
    }
    // A forced move changes nothing: the position before it is worth the one after.
    for k in (0..total.saturating_sub(1)).rev() {
        if forced[k] {
            first_chance[k] = first_chance[k + 1];
        }
    }
    let chance_of = |k: usize, c: Colour| match c {
        Colour::First => first_chance[k],
        Colour::Second => 1.0 - first_chance[k],
    };
    let mut moves = Vec::with_capacity(game.ply());
    for (k, played) in game.moves().iter().enumerate() {
        let Some(pos) = positions.get(k) else { break };
        if k + 1 >= total {
            break;
        }
        let mover = pos.to_move();
        let (before, after) = (chance_of(k, mover), chance_of(k + 1, mover));
        let better = best[k].filter(|b| b != played);
        let loss = if better.is_some() {
            (before - after).max(0.0)
        } else {
            0.0
        };
        moves.push(MoveAnalysis {
            number: k + 1,
            mover: mover.index() as u8,
            played: played.to_string(),
            better: better.map(|b| b.to_string()),
            before,
            after,
            loss,
        });
    }
    let mut turning: Vec<&MoveAnalysis> = moves.iter().filter(|m| m.loss >= TURNING_LOSS).collect();
    // Equal losses (certain wins given away, found by the solver) rank the later move first: the
    // earlier ones were made good by the opponent's own mistakes, the last one was not.
    turning.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(b.number.cmp(&a.number)));
    let turning_points = turning
        .iter()
        .take(TURNING_POINTS)
        .map(|m| m.number)
        .collect();
    Analysis {
        game: game.kind().name().to_string(),
        budget: budget.for_kind(game.kind()),
        seed,
        positions: (0..total)
            .map(|k| PositionAnalysis {
                ply: k,
                first_chance: first_chance[k],
                best: best[k].map(|m| m.to_string()),
            })
            .collect(),
        moves,
        turning_points,
    }
}

/// The seed of the search at `ply`: each position its own, all from `seed`.
fn ply_seed(seed: u64, ply: usize) -> u64 {
    seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(ply as u64)
        .rotate_left(17)
}

/// The AI's move and the side to move's winning chance in a position that is not over (the
/// analysis' search; [`crate::puzzles`] judges each move with it too).
pub(crate) fn search(pos: &Position, budget: AnalysisBudget, seed: u64) -> (Option<Move>, f64) {
    on_game!(pos, Position(p), G => {
        match G::chance(p, budget.for_kind(G::KIND), seed) {
            Some((mv, chance)) => (Some(G::wrap_move(mv)), chance),
            None => (None, 0.5),
        }
    })
}

impl Analysis {
    /// The game analysed (inpHeXion for an unknown name, which only a damaged row can hold).
    pub fn kind(&self) -> GameKind {
        GameKind::ALL
            .into_iter()
            .find(|k| k.name() == self.game)
            .unwrap_or(GameKind::DEFAULT)
    }

    /// The analysis of move `number` (1-based).
    pub fn move_number(&self, number: usize) -> Option<&MoveAnalysis> {
        number.checked_sub(1).and_then(|i| self.moves.get(i))
    }

    /// The per-move table: one line a move with its number, colour, the move, the mover's
    /// chance before and after, the loss and the AI's better move; turning points marked `!`.
    pub fn table(&self) -> String {
        let kind = self.kind();
        let colour = |i: u8| colour_name(kind, i);
        let mut out = format!(
            "{:>4}  {:<7} {:<18} {:>7} {:>7} {:>6}  {}\n",
            "move", "colour", "played", "before", "after", "loss", "better"
        );
        for m in &self.moves {
            let mark = if self.turning_points.contains(&m.number) {
                "!"
            } else {
                " "
            };
            out.push_str(&format!(
                "{:>4}{} {:<7} {:<18} {:>6.1}% {:>6.1}% {:>6.1}  {}\n",
                m.number,
                mark,
                colour(m.mover),
                m.played,
                m.before * 100.0,
                m.after * 100.0,
                m.loss * 100.0,
                m.better.as_deref().unwrap_or("")
            ));
        }
        let turning: Vec<String> = self
            .turning_points
            .iter()
            .filter_map(|&n| self.move_number(n))
            .map(|m| {
                format!(
                    "{} {} (−{:.0}%, better {})",
                    m.number,
                    m.played,
                    m.loss * 100.0,
                    m.better.as_deref().unwrap_or("?")
                )
            })
            .collect();
        out.push_str(&format!(
            "turning points: {}\n",
            if turning.is_empty() {
                "none".to_string()
            } else {
                turning.join("; ")
            }
        ));
        out
    }
}

/// A chance as a whole percentage, as the answer and the page state it.
pub fn percent(x: f64) -> i64 {
    (x * 100.0).round() as i64
}

/// Move `notation`, played or preferred as move `number` (1-based) of `game`, in words as
/// captions say them (read against the position before it); the notation itself when it cannot
/// be read there (a damaged row).
pub fn move_in_words(lang: Lang, game: &Game, number: usize, notation: &str) -> String {
    game.position_at(number.saturating_sub(1))
        .as_deref()
        .and_then(|p| crate::play::picker::describe_notation(lang, p, notation))
        .unwrap_or_else(|| notation.to_string())
}

/// The name of colour `index` (0 or 1) in a game of `kind`, with a capital: `White`.
pub fn colour_name(kind: GameKind, index: u8) -> String {
    let c = if index == 0 {
        Colour::First
    } else {
        Colour::Second
    };
    let name = kind.colour_name(c);
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// The chart of an analysis as a PNG: both sides' winning chances over the moves, the turning
/// points marked with their move numbers. `players` are by colour (first, second).
pub fn chart_png(
    analysis: &Analysis,
    players: &[String; 2],
    theme: Theme,
) -> Result<Vec<u8>, RenderError> {
    chart_png_in(Lang::EN, analysis, players, theme)
}

/// [`chart_png`] with its words in `lang`.
pub fn chart_png_in(
    lang: Lang,
    analysis: &Analysis,
    players: &[String; 2],
    theme: Theme,
) -> Result<Vec<u8>, RenderError> {
    render::encode_png(&chart_image_in(lang, analysis, players, theme))
}

/// The chart before PNG encoding (see [`chart_png`]).
pub fn chart_image(analysis: &Analysis, players: &[String; 2], theme: Theme) -> image::RgbaImage {
    chart_image_in(Lang::EN, analysis, players, theme)
}

/// [`chart_image`] with its words in `lang`.
pub fn chart_image_in(
    lang: Lang,
    analysis: &Analysis,
    players: &[String; 2],
    theme: Theme,
) -> image::RgbaImage {
    let view = render::chart::View {
        kind: analysis.kind(),
        players: players.clone(),
        first_chance: analysis.positions.iter().map(|p| p.first_chance).collect(),
        marks: analysis
            .turning_points
            .iter()
            .filter_map(|&n| analysis.move_number(n))
            .map(|m| render::chart::Mark {
                ply: m.number,
                mover: m.mover,
            })
            .collect(),
    };
    render::chart::draw_in(&view, theme, lang)
}

#[cfg(test)]
mod tests;

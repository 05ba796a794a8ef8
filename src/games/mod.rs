//! The game-agnostic front: which game, its options, positions, moves and outcomes.
//!
//! Each game lives in its own module ([`inphexion`], [`exxit`]) with the same shape: `Options`,
//! `Position`, `Move`, `MoveList`, and a marker type implementing [`Rules`]; the rules
//! themselves, numbered I1–I19 and X1–X20, are in those modules' docs. The registry (one list,
//! `registry.rs`) makes [`GameKind`] and the enums [`Options`], [`Move`] and [`Position`] over
//! the games' own types; each of their functions calls the game's [`Rules`] with static dispatch
//! (a `match`, then code compiled for that game alone — as `shakmaty`'s `Position` trait serves
//! chess front ends, without a trait object). [`Game`] wraps a position of any game with its
//! history (for undo, records and resignation).
//!
//! The code, one concern a file (each depending only on those before it):
//! - `error.rs`: the typed errors ([`OptionError`], [`ParseMoveError`], [`IllegalMove`],
//!   [`BadPosition`], [`MoveError`]);
//! - `outcome.rs`: [`Outcome`] and [`Reason`], and their protocol text;
//! - `rules.rs`: the trait [`Rules`] and the facts it gives ([`SizeOption`], [`Flag`], [`Figure`]);
//! - `inphexion/`, `exxit/`: the two games;
//! - `registry.rs`: the list of games, [`GameKind`], the enums and `on_game!`;
//! - `kind.rs`: [`GameKind`]'s names and facts, and [`Colour`];
//! - `position.rs`: the functions of [`Options`], [`Move`] and [`Position`];
//! - `game.rs`: [`Game`], a game with its history, and its record ([`RecordError`]).
//!
//! # Adding a game
//!
//! A game is one folder and one line in the registry; the compiler then names every function
//! it still lacks, each in one place.
//!
//! 1. **The folder** `src/games/<game>/`: its `Options` (option words read and written), `Move`
//!    (displayed as its canonical notation), `Position` (legal moves, playing one, the
//!    protocol's one-line text), the rules in the module's docs, and a marker type implementing
//!    [`Rules`]: its name (the string the database, records and the engine protocol store:
//!    never change it once games are stored), title, colours' names and message ids, its size
//!    option and on/off options ([`SizeOption`], [`Flag`]: the web board's new-game form,
//!    `/challenge`'s checks and a variant's words come from them), the rules page's figures, its
//!    score if it keeps one.
//! 2. **The registration**: a line `Variant => module::Type` in `define_games!` in
//!    `registry.rs`. [`GameKind`] and [`GameKind::ALL`], reading a game's name, and the enums
//!    come from it; `on_game!` runs a front end's generic code for the game a value holds.
//! 3. **The texts** its [`Rules`] names, in `assets/locales/{en-US,ja}/`: the rules' summary,
//!    the colours, the size and options in words, the figures' captions.
//! 4. **Its player**: [`crate::ai::Player`] (the levels' budgets, the search, the analysis'
//!    search) and `SearchGame` in `src/ai/games.rs`. The AI builds on the games, not the
//!    reverse, so this stays beside the searches; a game without a search of its own can use
//!    UCT (`ai::mcts`) through `SearchGame`.
//! 5. **Its pictures**: `src/render/<game>.rs` (and its folder) implementing `render::Draw` (the
//!    view, the PNG, a sequence at one scale, the web board's SVG, the chart's colours), for
//!    the same reason: pixels are not the rules' business, and `games` depends on nothing above
//!    [`crate::hex`].
//! 6. **Its moves in words**: [`crate::play::picker::Pick`] in `src/play/picker.rs` (each move
//!    as the Move button's steps, a move in words): texts in the reader's language, which
//!    `games` cannot depend on.
//!
//! What still names each game outside its folder, and why:
//! - **Discord's options of a variant**: the `size`/`tiles`/flag options of `/challenge` and
//!   `/tournament` (`play::terms::ChosenOptions`) are a schema registered with Discord, fixed at
//!   compile time; [`play::terms::build_options`] checks them against the game's [`Rules`]. The
//!   game choice itself (`GameChoice`) lists the registry.
//! - **The arena's EXXIT-only reference players** (Boardspace's robots, plain alpha-beta) and
//!   tests and benchmarks that play a given game.
//!
//! [`play::terms::build_options`]: crate::play::terms::build_options

mod error;
pub mod exxit;
mod game;
pub mod inphexion;
mod kind;
mod outcome;
mod position;
mod registry;
mod rules;
#[cfg(test)]
mod tests;

pub use error::{BadPosition, IllegalMove, MoveError, OptionError, ParseMoveError};
pub use game::{Game, RecordError};
pub use kind::Colour;
pub use outcome::{Outcome, Reason};
#[allow(unused_imports)]
pub(crate) use registry::on_game;
pub use registry::{GameKind, Move, Options, Position, Registered};
pub use rules::{Figure, Flag, Rules, SizeOption};

/// A random number below `n` (≥ 1) for the random playouts: one 64-bit draw scaled by a
/// multiplication (no division, no rejection loop). Uniform up to a bias below `n / 2⁶⁴`.
#[inline(always)]
pub(crate) fn below<R: rand::Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    ((rng.next_u64() as u128 * n as u128) >> 64) as usize
}

//! The game-agnostic front: which game, its options, positions, moves and outcomes.
//!
//! Each game lives in its own module ([`inphexion`], [`exxit`]) with the same shape: `Options`,
//! `Position`, `Move`, `MoveList`; the rules themselves, numbered I1–I19 and X1–X20, are in
//! those modules' docs. [`Game`] wraps a position of either game with its history (for undo,
//! records and resignation), and dispatches to the game's module, the way one enum over
//! variants lets callers ignore which game is played.
//!
//! The code, one concern a file (each depending only on those before it):
//! - `error.rs`: the typed errors ([`OptionError`], [`ParseMoveError`], [`IllegalMove`],
//!   [`BadPosition`], [`MoveError`]);
//! - `kind.rs`: [`GameKind`] and [`Colour`];
//! - `outcome.rs`: [`Outcome`] and [`Reason`], and their protocol text;
//! - `inphexion/`, `exxit/`: the two games;
//! - `position.rs`: [`Options`], [`Move`] and [`Position`] of either game;
//! - `game.rs`: [`Game`], a game with its history, and its record ([`RecordError`]).

mod error;
pub mod exxit;
mod game;
pub mod inphexion;
mod kind;
mod outcome;
mod position;
#[cfg(test)]
mod tests;

pub use error::{BadPosition, IllegalMove, MoveError, OptionError, ParseMoveError};
pub use game::{Game, RecordError};
pub use kind::{Colour, GameKind};
pub use outcome::{Outcome, Reason};
pub use position::{Move, Options, Position};

/// A random number below `n` (≥ 1) for the random playouts: one 64-bit draw scaled by a
/// multiplication (no division, no rejection loop). Uniform up to a bias below `n / 2⁶⁴`.
#[inline(always)]
pub(crate) fn below<R: rand::Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    ((rng.next_u64() as u128 * n as u128) >> 64) as usize
}

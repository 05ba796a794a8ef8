//! The game's verbs, each in one place: start a game from an accepted challenge or against the
//! bot, apply a move (a member's or the bot's), resign, abort, lose on time, remind, expire
//! challenges and seeks, take a vacation, open a challenge (to a member or to a whole server),
//! seek a game (matched with another member's seek, or accepted from its card), keep a
//! standing seek (made again whenever its member is short of games); and run tournaments.
//!
//! Each action decides on the stored state, then stores the change and queues what must be
//! announced (`db::enqueue`) in **one transaction**, guarded by the game's version (the ply
//! count) or the row's status, so two actions racing on one game cannot both apply. Nothing here
//! talks to Discord: commands, buttons, timers and the bot opponent call these and answer the
//! interaction; the delivery task posts the queue. Every decision is testable with a database
//! file alone.

mod challenges;
mod digest;
mod endings;
mod game;
mod members;
mod moves;
#[cfg(test)]
mod open_tests;
mod pauses;
#[cfg(test)]
mod pool_tests;
mod seeks;
#[cfg(test)]
mod standing_tests;
mod takebacks;
#[cfg(test)]
mod tests;
mod tournaments;

pub use challenges::*;
pub use digest::*;
pub use endings::*;
pub use game::*;
pub use members::*;
pub use moves::*;
pub use pauses::*;
pub use seeks::*;
pub use takebacks::*;
pub use tournaments::*;

/// After game `game` ended (by a move, a resignation, an abort, on time): its tournament takes
/// the result up, and its players' standing seeks are checked. Failures are logged: the timers
/// take both up again.
pub async fn after_game(core: &Core, game: i64) {
    tournaments::after_game(core, game).await;
    seeks::refill_after_game(core, game).await;
}

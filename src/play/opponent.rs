//! The bot as a player: `/play` starts a game against it, and whenever it is the bot's turn it
//! searches for a move off the async runtime and posts the new board like a member would.
//!
//! Searches run on blocking threads, at most [`Opponent::threads`] at once (a semaphore); games
//! that want a move while all are busy wait their turn. A move is stored with the same
//! version-checked write as a member's, so a resignation or an abort that lands while the bot
//! thinks wins, and the bot's move is dropped.
//!
//! With several processes on one database, a turn is searched by one of them: the searcher claims
//! it in the database (`bot_games.claimed_until`, [`TURN_LEASE_MS`]) and gives it back once the
//! move is stored. [`Opponent::watch`] looks for turns nobody holds — at start (the turns that came
//! while the bot was down), a process died while searching, or its members' servers are on
//! another process's shards — and takes them.

use crate::db::UserId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::anyhow;
use tokio::sync::Semaphore;
use tracing::{error, info};

use super::actions::{self, Core};
use super::Error;
use crate::ai;
use crate::db::{self, GameStatus};

/// The bot as a player; cheap to clone.
#[derive(Clone)]
pub struct Opponent {
    inner: Arc<Inner>,
}

struct Inner {
    core: Core,
    bot_id: UserId,
    name: String,
    /// The bot's own moves.
    permits: Semaphore,
    threads: usize,
    /// Other searches (analyses): a budget of their own, so a queue of them never holds up a
    /// member waiting for the bot's reply.
    others: Semaphore,
    /// Games being handled in this process, each with whether it was woken again meanwhile.
    pending: Mutex<HashMap<i64, bool>>,
}

/// Searches other than the bot's moves (analyses) that run at once, beside the bot's own.
pub const OTHER_SEARCHES: usize = 1;

/// How long a process holds the bot's turn in a game (well beyond the longest search, 4 s, and
/// the wait for storing the move); a process that died lets go of it after this long.
pub const TURN_LEASE_MS: i64 = 60_000;

impl Opponent {
    pub fn new(core: Core, bot_id: UserId, name: &str) -> Opponent {
        // One search per core, leaving the runtime's own threads some room on big machines.
        let threads = std::thread::available_parallelism()
            .map(|n| n.get().saturating_sub(1).clamp(1, 4))
            .unwrap_or(1);
        Opponent {
            inner: Arc::new(Inner {
                core,
                bot_id,
                name: name.to_string(),
                permits: Semaphore::new(threads),
                threads,
                others: Semaphore::new(OTHER_SEARCHES),
                pending: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// The bot's own user id: its seat in games against it.
    pub fn bot_id(&self) -> UserId {
        self.inner.bot_id
    }

    /// The bot's name, as stored for its seat.
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    /// A member's move in a game they loaded (from any front end), played by
    /// [`actions::play_move_on`]; the bot is told when its turn comes.
    pub async fn member_moves(
        &self,
        loaded: (crate::db::GameRow, crate::games::Game),
        member: UserId,
        chosen: actions::Chosen<'_>,
    ) -> Result<actions::Played, Error> {
        let played = actions::play_move_on(&self.inner.core, loaded, member, chosen).await?;
        if played.against_bot && !played.over {
            self.wake(played.game);
        }
        Ok(played)
    }

    /// How many searches may run at once.
    pub fn threads(&self) -> usize {
        self.inner.threads
    }

    /// Plays the bot's move in game `id` in the background, if it is a game against the bot and
    /// the bot is to move. Failures are logged.
    pub fn wake(&self, id: i64) {
        // A game already being handled here is looked at again once that is done (the position
        // may have changed since it was loaded), not by a second task.
        {
            let mut pending = self.pending();
            if let Some(again) = pending.get_mut(&id) {
                *again = true;
                return;
            }
            pending.insert(id, false);
        }
        let me = self.clone();
        tokio::spawn(async move {
            loop {
                if let Err(e) = me.turn(id).await {
                    match e {
                        Error::Refused(crate::play::Refusal(text)) => {
                            info!(game = id, "no move for the bot: {text}")
                        }
                        Error::Internal(e) => {
                            error!(game = id, "the bot could not play its move: {e:#}")
                        }
                    }
                }
                let mut pending = me.pending();
                if pending.get(&id) == Some(&true) {
                    pending.insert(id, false);
                } else {
                    pending.remove(&id);
                    break;
                }
            }
        });
    }

    /// Runs `work` (a search other than the bot's move: an analysis, for instance) on a blocking
    /// thread, at most [`OTHER_SEARCHES`] at once. The bot's own moves have their own
    /// [`Opponent::threads`], so they come first: a member playing the bot waits for its search,
    /// never for a queue of analyses.
    pub async fn run_search<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Error> {
        let _permit = self
            .inner
            .others
            .acquire()
            .await
            .map_err(|e| anyhow!("the search pool is closed: {e}"))?;
        Ok(tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| anyhow!("the search stopped: {e}"))?)
    }

    fn pending(&self) -> std::sync::MutexGuard<'_, HashMap<i64, bool>> {
        self.inner
            .pending
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// At once and then every `every`, wakes the games where the bot is to move and no process
    /// holds the turn. Runs until the bot stops.
    pub async fn watch(self, every: Duration) {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut failing = false;
        loop {
            tick.tick().await;
            match db::bot_turns_due(&self.inner.core.pool, self.inner.bot_id, db::now_ms()).await {
                Ok(ids) => {
                    failing = false;
                    for id in ids {
                        self.wake(id);
                    }
                }
                Err(e) if !failing => {
                    failing = true;
                    error!("cannot look for the bot's turns (retrying): {e}");
                }
                Err(_) => {}
            }
        }
    }

    /// One move of the bot in game `id`, when it is the bot's turn.
    async fn turn(&self, id: i64) -> Result<(), Error> {
        let inner = &self.inner;
        let Some(level) = db::fetch_bot_level(&inner.core.pool, id).await? else {
            return Ok(());
        };
        // Wait for a free search thread before looking at the position, so that the position
        // searched is the latest one.
        let permit = inner
            .permits
            .acquire()
            .await
            .map_err(|e| anyhow!("the search pool is closed: {e}"))?;
        // Then the turn: nothing to do when another process holds it.
        let pool = &inner.core.pool;
        let now = db::now_ms();
        let until = now + TURN_LEASE_MS;
        if !db::claim_bot_turn(pool, id, now, until).await? {
            return Ok(());
        }
        let done = self.search_and_play(id, level, permit).await;
        if let Err(e) = db::release_bot_turn(pool, id, until).await {
            // The claim runs out by itself.
            error!(game = id, "cannot give back the bot's turn: {e}");
        }
        done
    }

    /// The bot's move in game `id` at `level`, searched under `permit`, if it is its turn.
    async fn search_and_play(
        &self,
        id: i64,
        level: crate::ai::Level,
        permit: tokio::sync::SemaphorePermit<'_>,
    ) -> Result<(), Error> {
        let inner = &self.inner;
        let (row, game) = actions::load(&inner.core.pool, id).await?;
        if row.status != GameStatus::Active || game.is_over() || row.to_move != Some(inner.bot_id) {
            return Ok(());
        }
        let budget = level.budget_for(game.kind());
        // Repeatable: the same game at the same ply gets the same move.
        let seed = (id as u64) << 16 ^ game.ply() as u64;
        let seen = game.ply() as i64;
        let position = game.position().clone();
        let started = std::time::Instant::now();
        let chosen = tokio::task::spawn_blocking(move || ai::choose(&position, budget, seed))
            .await
            .map_err(|e| anyhow!("the search stopped: {e}"))?;
        drop(permit);
        let Some(mv) = chosen else {
            return Err(anyhow!("no move found in game {id}, which is not over").into());
        };
        // The same action as a member's move, on the position searched: a resignation or an
        // abort that came first wins, and the bot's move is dropped.
        match actions::play_move(&inner.core, id, inner.bot_id, mv, Some(seen)).await {
            Ok(played) => info!(
                game = id,
                ply = played.ply,
                mv = %played.notation,
                level = level.name(),
                ms = started.elapsed().as_millis() as u64,
                "the bot played"
            ),
            Err(Error::Refused(crate::play::Refusal(why))) => {
                info!(game = id, "the bot's move was not played: {why}")
            }
            Err(e) => return Err(e),
        }
        Ok(())
    }
}

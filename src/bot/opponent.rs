//! The bot as a player: `/play` starts a game against it, and whenever it is the bot's turn it
//! searches for a move off the async runtime and posts the new board like a member would.
//!
//! Searches run on blocking threads, at most [`Opponent::threads`] at once (a semaphore); games
//! that want a move while all are busy wait their turn. A move is stored with the same
//! version-checked write as a member's, so a resignation or an abort that lands while the bot
//! thinks wins, and the bot's move is dropped. After a restart, [`Opponent::resume`] wakes every
//! game where the bot is to move.

use std::sync::Arc;

use anyhow::anyhow;
use poise::serenity_prelude as serenity;
use sqlx::SqlitePool;
use tokio::sync::Semaphore;
use tracing::{error, info};

use super::logic::{finish_after_move, player_to_move};
use super::present::{post_board, Notify};
use super::BotError;
use crate::ai::{self, Level};
use crate::clock::Clock;
use crate::db::{self, DbError, GameStatus};

/// Active games one member may have against the bot at once.
pub const MAX_BOT_GAMES: i64 = 3;

/// The bot as a player; cheap to clone.
#[derive(Clone)]
pub struct Opponent {
    inner: Arc<Inner>,
}

struct Inner {
    pool: SqlitePool,
    http: Arc<serenity::Http>,
    bot_id: u64,
    name: String,
    permits: Semaphore,
    threads: usize,
    clock: Clock,
}

impl Opponent {
    pub fn new(
        pool: SqlitePool,
        http: Arc<serenity::Http>,
        bot_id: u64,
        name: &str,
        clock: Clock,
    ) -> Opponent {
        // One search per core, leaving the runtime's own threads some room on big machines.
        let threads = std::thread::available_parallelism()
            .map(|n| n.get().saturating_sub(1).clamp(1, 4))
            .unwrap_or(1);
        Opponent {
            inner: Arc::new(Inner {
                pool,
                http,
                bot_id,
                name: name.to_string(),
                permits: Semaphore::new(threads),
                threads,
                clock,
            }),
        }
    }

    /// The bot's own user id: its seat in games against it.
    pub fn bot_id(&self) -> u64 {
        self.inner.bot_id
    }

    /// The bot's name, as stored for its seat.
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    /// How many searches may run at once.
    pub fn threads(&self) -> usize {
        self.inner.threads
    }

    /// Plays the bot's move in game `id` in the background, if it is a game against the bot and
    /// the bot is to move. Failures are logged.
    pub fn wake(&self, id: i64) {
        let me = self.clone();
        tokio::spawn(async move {
            if let Err(e) = me.turn(id).await {
                match e {
                    BotError::User(text) => info!(game = id, "no move for the bot: {text}"),
                    BotError::Internal(e) => {
                        error!(game = id, "the bot could not play its move: {e:#}")
                    }
                }
            }
        });
    }

    /// Wakes every active game against the bot (after a start or a restart).
    pub async fn resume(&self) -> Result<(), DbError> {
        let games = db::active_bot_games(&self.inner.pool).await?;
        if !games.is_empty() {
            info!(games = games.len(), "resuming games against the bot");
        }
        for id in games {
            self.wake(id);
        }
        Ok(())
    }

    /// One move of the bot in game `id`, when it is the bot's turn.
    async fn turn(&self, id: i64) -> Result<(), BotError> {
        let inner = &self.inner;
        let Some(level) = db::fetch_bot_level(&inner.pool, id).await? else {
            return Ok(());
        };
        let level: Level = level
            .parse()
            .map_err(|e: String| anyhow!("game {id} stores a bad level: {e}"))?;
        // Wait for a free search thread before looking at the position, so that the position
        // searched is the latest one.
        let permit = inner
            .permits
            .acquire()
            .await
            .map_err(|e| anyhow!("the search pool is closed: {e}"))?;
        let (row, game) = load(&inner.pool, id).await?;
        if row.status != GameStatus::Active
            || game.is_over()
            || player_to_move(&row, &game) != inner.bot_id
        {
            return Ok(());
        }
        let budget = level.budget_for(game.kind());
        // Repeatable: the same game at the same ply gets the same move.
        let seed = (id as u64) << 16 ^ game.ply() as u64;
        let position = game.position().clone();
        let started = std::time::Instant::now();
        let chosen = tokio::task::spawn_blocking(move || ai::choose(&position, budget, seed))
            .await
            .map_err(|e| anyhow!("the search stopped: {e}"))?;
        drop(permit);
        let Some(mv) = chosen else {
            return Err(anyhow!("no move found in game {id}, which is not over").into());
        };
        let mut played = game.clone();
        played
            .play(mv)
            .map_err(|e| anyhow!("the search chose an illegal move {mv} in game {id}: {e}"))?;
        let notation = mv.to_string();
        let finish = finish_after_move(&row, &played);
        let mut tx = inner.pool.begin().await?;
        match db::record_move(
            &mut tx,
            id,
            game.ply() as i64,
            &notation,
            inner.bot_id,
            inner.clock.now(),
            finish.as_ref(),
            // Games against the bot have no clock.
            None,
        )
        .await
        {
            Ok(()) => tx.commit().await?,
            // A resignation or an abort came first: the move is not played.
            Err(DbError::Conflict(_)) => return Ok(()),
            Err(e) => return Err(e.into()),
        }
        info!(
            game = id,
            ply = played.ply(),
            mv = %notation,
            level = level.name(),
            ms = started.elapsed().as_millis() as u64,
            "the bot played"
        );

        post_board(
            inner.http.as_ref(),
            &inner.pool,
            id,
            "",
            Some((inner.bot_id, &notation)),
            Notify::AllBut(inner.bot_id),
        )
        .await?;
        Ok(())
    }
}

async fn load(pool: &SqlitePool, id: i64) -> Result<(db::GameRow, crate::games::Game), BotError> {
    let mut conn = pool.acquire().await?;
    db::load_game(&mut conn, id)
        .await?
        .ok_or_else(|| anyhow!("game {id} vanished").into())
}

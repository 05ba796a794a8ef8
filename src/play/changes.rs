//! Games changed: every committed change of a game (a move, a start, a takeback, an ending by
//! resignation, abort or time) is told here, whoever made it — a command, a button, a page, the
//! bot opponent, the timers. Front ends that show games live (the web board's event streams)
//! subscribe and read the game again.
//!
//! The actions tell a change after its transaction commits ([`Changes::publish`], through the
//! actions' `Core`), and, on PostgreSQL, also inside the transaction with a `NOTIFY`
//! ([`crate::db::notify_game_changed`]), which every other process sharing the database hears
//! through [`Changes::listen`]. A subscriber may hear of a change twice; it reads the game again
//! either way. SQLite is one process: the in-memory path is all it needs.

use std::sync::Arc;

use tokio::sync::broadcast;

/// How many changes a slow subscriber may fall behind before it is told it lagged (then it
/// reads its game again anyway).
const BACKLOG: usize = 1024;

/// The changes of one process's games: a broadcast of game ids. Cheap to clone.
#[derive(Clone)]
pub struct Changes {
    origin: i64,
    sender: broadcast::Sender<i64>,
    listening: Arc<tokio::sync::Notify>,
}

impl Default for Changes {
    fn default() -> Self {
        Changes::new()
    }
}

impl Changes {
    /// A new hub, named by a random origin (so this process skips its own notifications).
    pub fn new() -> Changes {
        let (sender, _) = broadcast::channel(BACKLOG);
        Changes {
            // Any number unlikely to be another process's will do; the process id if the OS has no
            // random source to give.
            origin: rand::TryRngCore::try_next_u64(&mut rand::rngs::OsRng)
                .unwrap_or_else(|_| u64::from(std::process::id())) as i64,
            sender,
            listening: Arc::new(tokio::sync::Notify::new()),
        }
    }

    /// This process's name in the notifications it sends.
    pub fn origin(&self) -> i64 {
        self.origin
    }

    /// The ids of the games that change from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<i64> {
        self.sender.subscribe()
    }

    /// Tells the subscribers that game `game` changed (nobody listening is fine).
    pub fn publish(&self, game: i64) {
        let _ = self.sender.send(game);
    }

    /// On PostgreSQL, hears the changes other processes make and tells them here: a task that
    /// runs as long as the runtime. Nothing on SQLite (one process).
    pub fn listen(&self, database_url: &str) {
        if crate::db::Backend::of_url(database_url) != Some(crate::db::Backend::Postgres) {
            return;
        }
        let me = self.clone();
        let url = database_url.to_string();
        tokio::spawn(async move {
            let ready = me.listening.clone();
            crate::db::listen_game_changes(
                &url,
                me.origin,
                |game| me.publish(game),
                || ready.notify_waiters(),
            )
            .await;
        });
    }

    /// Waits until the listener of [`Changes::listen`] is (again) connected: for tests, which
    /// must not change a game before the other process listens.
    pub async fn listening(&self) {
        self.listening.notified().await;
    }
}

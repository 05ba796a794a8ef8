//! Storage: every SQL statement of the project lives under this module.
//!
//! Plain async functions over an executor (a pool, a connection or a transaction), named
//! verb_noun. Discord ids are `u64`; SQLite stores them as `INTEGER` through [`to_db`] /
//! [`from_db`], the one place where they are bit-cast.

mod bot_games;
mod challenges;
mod games;
mod players;
mod ratings;

use std::str::FromStr;
use std::time::Duration;

pub use bot_games::*;
pub use challenges::*;
pub use games::*;
pub use players::*;
pub use ratings::*;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;
use thiserror::Error;

/// The migrations under `migrations/`, applied at start.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!();

/// A storage failure.
#[derive(Debug, Error)]
pub enum DbError {
    #[error("database: {0}")]
    Sqlx(#[from] sqlx::Error),
    #[error("migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The game changed (a move, a resignation) between reading and writing it.
    #[error("game {0} changed in the meantime")]
    Conflict(i64),
    /// A stored game whose moves do not replay: reported, never repaired.
    #[error("game {game} is damaged: {why}")]
    Corrupt { game: i64, why: String },
}

/// A Discord id as stored: the same 64 bits read as a signed integer.
pub const fn to_db(id: u64) -> i64 {
    id as i64
}

/// A stored id back as a Discord id.
pub const fn from_db(v: i64) -> u64 {
    v as u64
}

/// Unix time in seconds.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// Opens (creating the file when missing) the database, in WAL mode with a busy timeout, and
/// applies the migrations. `synchronous = NORMAL`, SQLite's advice for WAL: a commit no longer
/// waits for the disk (checkpoints still do), so the write lock is held for microseconds and
/// many games moving at once rarely wait for it; the database stays consistent through any
/// crash, and only a power cut can lose the last commits.
pub async fn connect(url: &str) -> Result<SqlitePool, DbError> {
    let options = SqliteConnectOptions::from_str(url)?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .busy_timeout(Duration::from_secs(10))
        .foreign_keys(true);
    let pool = SqlitePoolOptions::new()
        .max_connections(8)
        .connect_with(options)
        .await?;
    MIGRATOR.run(&pool).await?;
    Ok(pool)
}

#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    /// A fresh database in a temporary file (removed with the returned guard).
    pub async fn temp_db() -> (SqlitePool, TempFile) {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let path = std::env::temp_dir().join(format!(
            "hexcord-test-{}-{}.db",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_file(&path);
        let pool = connect(&format!("sqlite://{}", path.display()))
            .await
            .expect("temp database");
        (pool, TempFile(path))
    }

    pub struct TempFile(pub std::path::PathBuf);

    impl Drop for TempFile {
        fn drop(&mut self) {
            for ext in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{ext}", self.0.display()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_through_the_bit_cast() {
        for id in [0u64, 1, 1_234_567_890_123_456_789, u64::MAX, 1 << 63] {
            assert_eq!(from_db(to_db(id)), id);
        }
        assert!(to_db(u64::MAX) < 0);
    }

    #[tokio::test]
    async fn connect_creates_the_file_in_wal_mode() {
        let (pool, file) = testing::temp_db().await;
        assert!(file.0.exists());
        let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(mode, "wal");
    }
}

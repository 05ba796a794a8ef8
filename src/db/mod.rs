//! Storage: every SQL statement of the project lives under this module.
//!
//! Plain async functions over an executor (a pool, a connection or a transaction), named
//! verb_noun. Discord ids are newtypes ([`UserId`], [`ChannelId`], [`GuildId`], [`MessageId`])
//! stored as `INTEGER` through [`to_db`] / [`from_db`], the one place where they are bit-cast.

mod analyses;
mod announcements;
mod bot_games;
mod challenges;
mod games;
mod ids;
mod players;
mod ratings;
mod servers;

use std::collections::HashSet;
use std::str::FromStr;
use std::sync::Mutex;
use std::time::Duration;

pub use analyses::*;
pub use announcements::*;
pub use bot_games::*;
pub use challenges::*;
pub use games::*;
pub use ids::*;
pub use players::*;
pub use ratings::*;
pub use servers::*;

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use sqlx::{Connection, FromRow, Row, SqlitePool};
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
    /// The database named by `DATABASE_URL` cannot be opened or prepared.
    #[error("cannot open the database DATABASE_URL={url}: {why}")]
    Open { url: String, why: String },
}

/// Rows that could not be read, already reported (each is logged once, not at every scan).
fn reported_rows() -> &'static Mutex<HashSet<(&'static str, i64)>> {
    static REPORTED: std::sync::OnceLock<Mutex<HashSet<(&'static str, i64)>>> =
        std::sync::OnceLock::new();
    REPORTED.get_or_init(|| Mutex::new(HashSet::new()))
}

/// Logs once that row `id` of `table` cannot be used, and why.
pub fn report_bad_row(table: &'static str, id: i64, why: &dyn std::fmt::Display) {
    let first = reported_rows()
        .lock()
        .map(|mut seen| seen.insert((table, id)))
        .unwrap_or(true);
    if first {
        tracing::error!(
            table,
            id,
            "skipping an unreadable row (it needs repair by hand): {why}"
        );
    }
}

/// Decodes each row on its own: a row that does not decode is reported with its id and left
/// out, so one damaged row never hides the others.
pub(crate) fn decode_each<T>(table: &'static str, rows: &[SqliteRow]) -> Vec<T>
where
    T: for<'r> FromRow<'r, SqliteRow>,
{
    rows.iter()
        .filter_map(|row| match T::from_row(row) {
            Ok(v) => Some(v),
            Err(e) => {
                let id = row.try_get::<i64, _>("id").unwrap_or(-1);
                report_bad_row(table, id, &e);
                None
            }
        })
        .collect()
}

/// What to do about a database that cannot be opened, for the message naming `DATABASE_URL`.
fn open_error(url: &str, e: &dyn std::fmt::Display) -> DbError {
    let path = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url);
    let path = path.split('?').next().unwrap_or(path);
    let why = match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => format!(
            "`{path}` is a directory; set DATABASE_URL to a file, e.g. sqlite://hexcord.db ({e})"
        ),
        Ok(_) => format!(
            "`{path}` exists but cannot be used as an SQLite database ({e}); point DATABASE_URL at another file, or move this one away"
        ),
        Err(_) => format!(
            "`{path}` cannot be created ({e}); check that its folder exists and is writable, or change DATABASE_URL in .env"
        ),
    };
    DbError::Open {
        url: url.to_string(),
        why,
    }
}

/// Opens (creating the file when missing) the database, in WAL mode with a busy timeout, and
/// applies the migrations. `synchronous = NORMAL`, SQLite's advice for WAL: a commit no longer
/// waits for the disk (checkpoints still do), so the write lock is held for microseconds and
/// many games moving at once rarely wait for it; the database stays consistent through any
/// crash, and only a power cut can lose the last commits.
///
/// A failed write (a full disk, an I/O error) can leave a connection inside a transaction that
/// its failed `COMMIT` did not end; such a connection is closed when it comes back to the pool
/// instead of being lent again, so the pool heals by itself once the cause is gone.
pub async fn connect(url: &str) -> Result<SqlitePool, DbError> {
    let options = SqliteConnectOptions::from_str(url)
        .map_err(|e| open_error(url, &e))?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .busy_timeout(Duration::from_secs(10))
        .foreign_keys(true);
    let pool = SqlitePoolOptions::new()
        .max_connections(8)
        .after_release(|conn, _meta| {
            Box::pin(async move {
                // The ping lets a rollback queued by a dropped transaction run first; if the
                // connection is still inside a transaction after it, it is closed.
                if conn.ping().await.is_err() {
                    return Ok(false);
                }
                Ok(!conn.is_in_transaction())
            })
        })
        .before_acquire(|conn, _meta| Box::pin(async move { Ok(!conn.is_in_transaction()) }))
        .connect_with(options)
        .await
        .map_err(|e| open_error(url, &e))?;
    MIGRATOR.run(&pool).await.map_err(|e| match e {
        sqlx::migrate::MigrateError::Execute(ref inner) => open_error(url, inner),
        other => open_error(url, &other),
    })?;
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

    #[tokio::test]
    async fn a_connection_left_inside_a_transaction_is_not_lent_again() {
        let (pool, file) = testing::temp_db().await;
        let mut conn = pool.acquire().await.unwrap();
        let mut tx = sqlx::Connection::begin(&mut *conn).await.unwrap();
        sqlx::query("INSERT INTO players (id, name, created_at, updated_at) VALUES (1, 'a', 0, 0)")
            .execute(&mut *tx)
            .await
            .unwrap();
        // As after a COMMIT that failed on a full disk: the transaction is still open on the
        // connection, holding the write lock, and nothing will end it.
        std::mem::forget(tx);
        drop(conn);
        // Every later write commits (seen from another pool), none waits for the lost lock.
        for id in 2..12 {
            upsert_player(&pool, UserId(id), "b", 0).await.unwrap();
        }
        let other = connect(&format!("sqlite://{}", file.0.display()))
            .await
            .unwrap();
        let n: i64 = sqlx::query_scalar("SELECT count(*) FROM players")
            .fetch_one(&other)
            .await
            .unwrap();
        assert_eq!(n, 10);
    }

    #[tokio::test]
    async fn storage_errors_at_start_name_database_url_and_the_fix() {
        let dir = std::env::temp_dir().join(format!("hexcord-open-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let garbage = dir.join("not-a-database.db");
        std::fs::write(&garbage, vec![b'x'; 4096]).unwrap();
        let cases = [
            (format!("sqlite://{}", dir.display()), "is a directory"),
            (
                format!("sqlite://{}", garbage.display()),
                "cannot be used as an SQLite database",
            ),
            (
                format!("sqlite://{}/missing/folder/x.db", dir.display()),
                "cannot be created",
            ),
        ];
        for (url, why) in cases {
            let e = connect(&url).await.unwrap_err().to_string();
            assert!(e.contains("DATABASE_URL=") && e.contains(why), "{url}: {e}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

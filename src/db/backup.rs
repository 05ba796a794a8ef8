//! `hexcord backup` and `hexcord restore`: a consistent copy of a running SQLite database, and
//! putting a checked copy back in place.
//!
//! A backup is taken with SQLite's `VACUUM INTO`, which reads the database inside one read
//! transaction: the copy is the database as it stood at one instant, while the bot goes on
//! playing (WAL mode lets it write meanwhile). It is written under a temporary name and renamed
//! only once complete and checked, so a file with the name asked for is always a whole backup.
//!
//! A restore checks the backup first (SQLite's integrity check; a hexcord database; made by this
//! version of hexcord or an older one) and refuses while any process has the database open:
//! hexcord must be stopped. The database replaced is kept beside it as
//! `NAME.before-restore-UNIXTIME`, never deleted; the restored one is migrated to this version.
//!
//! Daily, from cron: `0 4 * * * cd /srv/hexcord && hexcord backup backups/$(date +\%F).db`.
//!
//! PostgreSQL is backed up with its own tools, while it runs: `pg_dump --format=custom -f
//! hexcord.dump hexcord`; restored with `pg_restore --clean -d hexcord hexcord.dump`.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqliteLockingMode};
use sqlx::{ConnectOptions, Connection, Row, SqliteConnection};

use super::{Backend, SQLITE_MIGRATOR};

/// What went wrong, in words for the operator.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("{0}")]
    Refused(String),
    #[error("{what}: {why}")]
    Sqlite { what: String, why: sqlx::Error },
    #[error("{what}: {why}")]
    File { what: String, why: std::io::Error },
}

fn sqlite(what: impl Into<String>) -> impl FnOnce(sqlx::Error) -> BackupError {
    let what = what.into();
    move |why| BackupError::Sqlite { what, why }
}

fn file(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> BackupError {
    let what = what.into();
    move |why| BackupError::File { what, why }
}

/// What a checked backup holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contents {
    /// Games stored (finished or not).
    pub games: i64,
    /// The newest migration applied.
    pub version: i64,
    /// Bytes on disk.
    pub bytes: u64,
}

impl std::fmt::Display for Contents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} games, schema version {}, {} bytes",
            self.games, self.version, self.bytes
        )
    }
}

/// The file of an SQLite `DATABASE_URL`; anything else is refused with what to do instead.
pub fn sqlite_file(url: &str) -> Result<PathBuf, BackupError> {
    match Backend::of_url(url) {
        Some(Backend::Sqlite) if !super::sqlite_in_memory(url) => {}
        Some(Backend::Sqlite) => {
            return Err(BackupError::Refused(
                "an SQLite database in memory has no file to back up".into(),
            ))
        }
        Some(Backend::Postgres) => {
            return Err(BackupError::Refused(
                "DATABASE_URL is a PostgreSQL database: back it up with `pg_dump --format=custom` and restore it with `pg_restore` (README, Backups)".into(),
            ))
        }
        None => {
            return Err(BackupError::Refused(
                "DATABASE_URL is neither sqlite:… nor postgres://…".into(),
            ))
        }
    }
    let options = SqliteConnectOptions::from_str(url).map_err(sqlite("DATABASE_URL"))?;
    Ok(options.get_filename().to_path_buf())
}

/// Copies the SQLite database of `url` into the new file `to` while it is in use, then checks
/// the copy. `to` must not exist.
pub async fn backup(url: &str, to: &Path) -> Result<Contents, BackupError> {
    let from = sqlite_file(url)?;
    if !from.exists() {
        return Err(BackupError::Refused(format!(
            "{}: no such database",
            from.display()
        )));
    }
    if to.exists() {
        return Err(BackupError::Refused(format!(
            "{} exists already: choose a new file name (a backup never overwrites a file)",
            to.display()
        )));
    }
    let partial = beside(to, ".partial");
    let _ = std::fs::remove_file(&partial);
    let mut conn = SqliteConnectOptions::new()
        .filename(&from)
        .create_if_missing(false)
        .busy_timeout(Duration::from_secs(30))
        .connect()
        .await
        .map_err(sqlite(format!("cannot open {}", from.display())))?;
    let copied = sqlx::query("VACUUM INTO ?")
        .bind(partial.to_string_lossy().into_owned())
        .execute(&mut conn)
        .await
        .map_err(sqlite(format!("cannot write {}", partial.display())));
    let _ = conn.close().await;
    if let Err(e) = copied {
        let _ = std::fs::remove_file(&partial);
        return Err(e);
    }
    let contents = match check(&partial).await {
        Ok(c) => c,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    std::fs::File::open(&partial)
        .and_then(|f| f.sync_all())
        .map_err(file(format!("cannot write {}", partial.display())))?;
    std::fs::rename(&partial, to).map_err(file(format!("cannot name {}", to.display())))?;
    Ok(contents)
}

/// Checks that `path` is a whole hexcord database this version can open: SQLite's integrity
/// check passes, hexcord's tables are there, and no migration is newer than this version's.
pub async fn check(path: &Path) -> Result<Contents, BackupError> {
    let name = path.display().to_string();
    let bytes = std::fs::metadata(path)
        .map_err(file(format!("cannot read {name}")))?
        .len();
    let mut conn = SqliteConnectOptions::new()
        .filename(path)
        .read_only(true)
        .create_if_missing(false)
        .connect()
        .await
        .map_err(sqlite(format!(
            "{name} cannot be opened as an SQLite database"
        )))?;
    let result = check_open(&mut conn, &name).await;
    let _ = conn.close().await;
    let (games, version) = result?;
    Ok(Contents {
        games,
        version,
        bytes,
    })
}

async fn check_open(conn: &mut SqliteConnection, name: &str) -> Result<(i64, i64), BackupError> {
    let not_sqlite = |e| BackupError::Sqlite {
        what: format!("{name} is not a whole SQLite database"),
        why: e,
    };
    let verdict: Vec<String> = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_all(&mut *conn)
        .await
        .map_err(not_sqlite)?;
    if verdict != ["ok"] {
        return Err(BackupError::Refused(format!(
            "{name} is damaged (SQLite's integrity check: {})",
            verdict.join("; ")
        )));
    }
    let tables: Vec<String> =
        sqlx::query_scalar("SELECT name FROM sqlite_master WHERE type = 'table'")
            .fetch_all(&mut *conn)
            .await
            .map_err(not_sqlite)?;
    if !["_sqlx_migrations", "games"]
        .iter()
        .all(|t| tables.iter().any(|n| n == t))
    {
        return Err(BackupError::Refused(format!(
            "{name} is an SQLite database but not hexcord's"
        )));
    }
    let applied: Vec<i64> = sqlx::query_scalar("SELECT version FROM _sqlx_migrations")
        .fetch_all(&mut *conn)
        .await
        .map_err(not_sqlite)?;
    if let Some(unknown) = applied
        .iter()
        .find(|v| !SQLITE_MIGRATOR.iter().any(|m| m.version == **v))
    {
        return Err(BackupError::Refused(format!(
            "{name} was made by a newer hexcord (migration {unknown} is unknown to this one): restore it with that version"
        )));
    }
    let games = sqlx::query("SELECT COUNT(*) AS n FROM games")
        .fetch_one(&mut *conn)
        .await
        .and_then(|r| r.try_get::<i64, _>("n"))
        .map_err(not_sqlite)?;
    Ok((games, applied.into_iter().max().unwrap_or(0)))
}

/// Puts the backup `from` in place of the SQLite database of `url`, which no process may have
/// open. Returns what the restored database holds and where the replaced one was kept (none when
/// there was no database yet).
pub async fn restore(from: &Path, url: &str) -> Result<(Contents, Option<PathBuf>), BackupError> {
    let target = sqlite_file(url)?;
    check(from).await?;
    let kept = if target.exists() {
        refuse_if_open(&target).await?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        Some(beside(&target, &format!(".before-restore-{now}")))
    } else {
        None
    };
    let incoming = beside(&target, ".restoring");
    std::fs::copy(from, &incoming).map_err(file(format!("cannot write {}", incoming.display())))?;
    std::fs::File::open(&incoming)
        .and_then(|f| f.sync_all())
        .map_err(file(format!("cannot write {}", incoming.display())))?;
    if let Some(kept) = &kept {
        std::fs::rename(&target, kept)
            .map_err(file(format!("cannot move {} aside", target.display())))?;
        // Left only by a crash: they belong to the database moved aside, and go with it.
        for suffix in ["-wal", "-shm"] {
            let side = beside(&target, suffix);
            if side.exists() {
                std::fs::rename(&side, beside(kept, suffix))
                    .map_err(file(format!("cannot move {} aside", side.display())))?;
            }
        }
    }
    std::fs::rename(&incoming, &target)
        .map_err(file(format!("cannot put {} in place", target.display())))?;
    let pool = super::connect(url)
        .await
        .map_err(|e| BackupError::Refused(format!("the restored database: {e}")))?;
    pool.close().await;
    Ok((check(&target).await?, kept))
}

/// Refuses while another connection has the database open: in WAL mode every open connection
/// holds a shared lock, so an exclusive lock is had only when nobody else is there.
async fn refuse_if_open(path: &Path) -> Result<(), BackupError> {
    let in_use = || {
        BackupError::Refused(format!(
            "{} is in use: stop hexcord (every process using it) before restoring",
            path.display()
        ))
    };
    let mut conn = SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(false)
        .journal_mode(SqliteJournalMode::Wal)
        .locking_mode(SqliteLockingMode::Exclusive)
        .busy_timeout(Duration::ZERO)
        .connect()
        .await
        .map_err(|_| in_use())?;
    let taken = sqlx::query("BEGIN EXCLUSIVE").execute(&mut conn).await;
    if taken.is_ok() {
        let _ = sqlx::query("ROLLBACK").execute(&mut conn).await;
    }
    let _ = conn.close().await;
    taken.map(|_| ()).map_err(|_| in_use())
}

/// `path` with `ending` added to its file name, in the same folder (so a rename is atomic):
/// `.partial`, `.before-restore-TIME`, and SQLite's own `-wal` and `-shm`.
fn beside(path: &Path, ending: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(ending);
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::{temp_db, temp_path, TempFile};
    use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
    use std::sync::Arc;

    async fn counts(path: &Path) -> (i64, i64) {
        let mut conn = SqliteConnectOptions::new()
            .filename(path)
            .read_only(true)
            .connect()
            .await
            .expect("open");
        let a: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM load_a")
            .fetch_one(&mut conn)
            .await
            .expect("count");
        let b: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM load_b")
            .fetch_one(&mut conn)
            .await
            .expect("count");
        (a, b)
    }

    /// A backup taken while transactions write two tables at once holds both tables as one
    /// instant left them; it restores in place of another database, which is kept aside.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_backup_under_load_is_consistent_and_restores() {
        let (pool, db) = temp_db().await;
        let url = format!("sqlite://{}", db.0.display());
        for create in [
            "CREATE TABLE load_a (n INTEGER NOT NULL)",
            "CREATE TABLE load_b (n INTEGER NOT NULL)",
        ] {
            sqlx::query(create).execute(&pool).await.expect("table");
        }
        let stop = Arc::new(AtomicBool::new(false));
        let written = Arc::new(AtomicI64::new(0));
        let writer = {
            let (pool, stop, written) = (pool.clone(), stop.clone(), written.clone());
            tokio::spawn(async move {
                let mut n = 0i64;
                while !stop.load(Ordering::Relaxed) {
                    let mut tx = pool.begin().await.expect("begin");
                    for insert in [
                        "INSERT INTO load_a (n) VALUES (?)",
                        "INSERT INTO load_b (n) VALUES (?)",
                    ] {
                        sqlx::query(insert)
                            .bind(n)
                            .execute(&mut *tx)
                            .await
                            .expect("insert");
                    }
                    tx.commit().await.expect("commit");
                    n += 1;
                    written.store(n, Ordering::Relaxed);
                }
            })
        };
        while written.load(Ordering::Relaxed) < 200 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let file = TempFile(temp_path("backup"));
        let contents = backup(&url, &file.0).await.expect("backup");
        let after = written.load(Ordering::Relaxed);
        while written.load(Ordering::Relaxed) < after + 200 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        stop.store(true, Ordering::Relaxed);
        writer.await.expect("writer");
        let (a, b) = counts(&file.0).await;
        assert_eq!(a, b, "one transaction's rows are all in the backup or none");
        assert!(a >= 200 && a <= after + 1, "{a} rows of {after}");
        assert_eq!(contents.games, 0);
        assert_eq!(
            contents.version,
            SQLITE_MIGRATOR.iter().map(|m| m.version).max().unwrap_or(0)
        );
        assert!(!beside(&file.0, ".partial").exists());

        // A backup never overwrites a file.
        let again = backup(&url, &file.0).await.expect_err("exists");
        assert!(again.to_string().contains("exists already"), "{again}");

        // Restoring over the database still open is refused, and changes nothing.
        let live = counts(&db.0).await;
        let refused = restore(&file.0, &url).await.expect_err("in use");
        assert!(refused.to_string().contains("stop hexcord"), "{refused}");
        assert_eq!(counts(&db.0).await, live);

        // Once hexcord is stopped the backup goes in place; the replaced database is kept.
        pool.close().await;
        let (restored, kept) = restore(&file.0, &url).await.expect("restore");
        assert_eq!(restored.games, 0);
        assert_eq!(counts(&db.0).await, (a, b));
        let kept = kept.expect("the replaced database is kept");
        assert_eq!(counts(&kept).await, live);
        let _ = std::fs::remove_file(&kept);
    }

    /// Damaged files, other SQLite databases and PostgreSQL URLs are refused with what to do.
    #[tokio::test]
    async fn bad_backups_are_refused_before_anything_changes() {
        let (pool, db) = temp_db().await;
        pool.close().await;
        let url = format!("sqlite://{}", db.0.display());
        let before = std::fs::read(&db.0).expect("read");

        let junk = TempFile(temp_path("junk"));
        std::fs::write(&junk.0, b"not a database at all, only words").expect("write");
        let e = restore(&junk.0, &url).await.expect_err("junk");
        assert!(
            e.to_string().contains("is not a whole SQLite database")
                || e.to_string().contains("cannot be opened"),
            "{e}"
        );

        let other = TempFile(temp_path("other"));
        let mut conn = SqliteConnectOptions::new()
            .filename(&other.0)
            .create_if_missing(true)
            .connect()
            .await
            .expect("other");
        sqlx::query("CREATE TABLE notes (x TEXT)")
            .execute(&mut conn)
            .await
            .expect("table");
        conn.close().await.expect("close");
        let e = restore(&other.0, &url).await.expect_err("not hexcord's");
        assert!(e.to_string().contains("not hexcord's"), "{e}");

        // A copy cut short is damaged.
        let whole = TempFile(temp_path("whole"));
        backup(&url, &whole.0).await.expect("backup");
        let bytes = std::fs::read(&whole.0).expect("read");
        let cut = TempFile(temp_path("cut"));
        std::fs::write(&cut.0, &bytes[..bytes.len() / 2]).expect("write");
        assert!(restore(&cut.0, &url).await.is_err());

        assert_eq!(std::fs::read(&db.0).expect("read"), before);
        let pg = backup("postgres://u:secret@localhost/x", &junk.0)
            .await
            .expect_err("postgres");
        assert!(pg.to_string().contains("pg_dump"), "{pg}");
        assert!(!pg.to_string().contains("secret"));
    }
}

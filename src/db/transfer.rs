//! `hexcord migrate-data`: a whole SQLite database copied into a new PostgreSQL one, then
//! verified (row counts, every game replays, the ratings recomputed equal those stored).
//!
//! The tables and columns are read from the source, so tables added by later migrations are
//! copied too; the values are converted to the target column's type (`BIGINT`, `TEXT`,
//! `DOUBLE PRECISION`, `BYTEA`).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use sqlx::{Connection, Row};

use super::{
    all_ratings, backend_of, connect, load_game, recompute_ratings, Backend, Conn, DbError, DbRow,
    Pool,
};

/// What was copied and checked.
#[derive(Debug, Default)]
pub struct TransferReport {
    /// Rows per table, in the order they were copied.
    pub tables: Vec<(String, i64)>,
    /// Games that replay in the target.
    pub games_replayed: usize,
    /// Ratings recomputed from the games, equal to those copied.
    pub ratings_checked: usize,
}

impl fmt::Display for TransferReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows: i64 = self.tables.iter().map(|(_, n)| n).sum();
        writeln!(f, "copied {rows} rows in {} tables:", self.tables.len())?;
        for (table, n) in &self.tables {
            writeln!(f, "  {table}: {n}")?;
        }
        writeln!(f, "every game replays ({} games)", self.games_replayed)?;
        write!(
            f,
            "the ratings recomputed from the games equal those copied ({} ratings)",
            self.ratings_checked
        )
    }
}

/// Why the copy was refused or failed its checks.
fn refused(why: String) -> DbError {
    DbError::Transfer(why)
}

/// Copies the SQLite database of `from` into the PostgreSQL database of `to` (migrated first,
/// and required to be empty), in one transaction, then verifies the copy.
pub async fn migrate_data(from: &str, to: &str) -> Result<TransferReport, DbError> {
    if Backend::of_url(from) != Some(Backend::Sqlite) {
        return Err(refused(format!(
            "--from must be an SQLite database (sqlite://…), got {}",
            super::redact_url(from)
        )));
    }
    if Backend::of_url(to) != Some(Backend::Postgres) {
        return Err(refused(format!(
            "--to must be a PostgreSQL database (postgres://…), got {}",
            super::redact_url(to)
        )));
    }
    let path = from
        .strip_prefix("sqlite://")
        .or_else(|| from.strip_prefix("sqlite:"))
        .unwrap_or(from);
    let path = path.split('?').next().unwrap_or(path);
    if !std::path::Path::new(path).is_file() {
        return Err(refused(format!(
            "--from: `{path}` is not a file (the SQLite database to copy must exist)"
        )));
    }
    let source = connect(from).await.map_err(|e| named("--from", e))?;
    let target = connect(to).await.map_err(|e| named("--to", e))?;
    copy_all(&source, &target).await
}

/// An error opening one of the two databases, naming the option (the URL's password redacted).
fn named(option: &str, e: DbError) -> DbError {
    match e {
        DbError::Open { url, why } => refused(format!("{option}: cannot open {url}: {why}")),
        other => other,
    }
}

/// Copies every table of `source` into the empty `target` and verifies the copy.
pub async fn copy_all(source: &Pool, target: &Pool) -> Result<TransferReport, DbError> {
    let mut src = source.acquire().await?;
    let mut dst = target.acquire().await?;
    if backend_of(&src) != Backend::Sqlite || backend_of(&dst) != Backend::Postgres {
        return Err(refused("copies from SQLite to PostgreSQL only".into()));
    }
    let tables = tables_in_order(&mut src).await?;
    let target_columns = postgres_columns(&mut dst).await?;
    for table in &tables {
        if !target_columns.contains_key(table) {
            return Err(refused(format!(
                "table {table} is missing in the PostgreSQL database: are both at the same version of hexcord?"
            )));
        }
        let n = count(&mut dst, table).await?;
        if n > 0 {
            return Err(refused(format!(
                "the PostgreSQL database is not empty ({table} has {n} rows): copy into a new database"
            )));
        }
    }

    let mut report = TransferReport::default();
    let mut tx = Connection::begin(&mut *dst).await?;
    for table in &tables {
        let columns = &target_columns[table];
        let n = copy_table(&mut src, &mut tx, table, columns).await?;
        report.tables.push((table.clone(), n));
    }
    reset_identities(&mut tx).await?;
    tx.commit().await?;

    // Counts.
    for (table, n) in &report.tables {
        let copied = count(&mut dst, table).await?;
        if copied != *n {
            return Err(refused(format!(
                "{table}: {n} rows read but {copied} stored"
            )));
        }
    }
    // Every game replays.
    let ids: Vec<i64> = sqlx::query_scalar("SELECT id FROM games ORDER BY id")
        .fetch_all(&mut *dst)
        .await?;
    let mut damaged = Vec::new();
    for id in &ids {
        if let Err(e) = load_game(&mut dst, *id).await {
            damaged.push(format!("game {id}: {e}"));
        }
    }
    if !damaged.is_empty() {
        return Err(refused(format!(
            "copied, but {} games do not replay (also check them in the SQLite file): {}",
            damaged.len(),
            damaged.join("; ")
        )));
    }
    report.games_replayed = ids.len();
    // The ratings recomputed from the games equal those copied (the rebuild is rolled back).
    let stored = all_ratings(&mut *dst).await?;
    let mut tx = Connection::begin(&mut *dst).await?;
    recompute_ratings(&mut tx).await?;
    let rebuilt = all_ratings(&mut *tx).await?;
    tx.rollback().await?;
    if !same_ratings(&stored, &rebuilt) {
        return Err(refused(format!(
            "copied, but the ratings recomputed from the games ({} rows) differ from those copied ({} rows): run `hexcord recompute-ratings` on the SQLite file, then copy again into a new database",
            rebuilt.len(),
            stored.len()
        )));
    }
    report.ratings_checked = stored.len();
    Ok(report)
}

/// Equal up to the rounding of floating-point sums.
fn same_ratings(a: &[super::RatingRow], b: &[super::RatingRow]) -> bool {
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-9 * x.abs().max(1.0);
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            (
                x.guild_id,
                x.kind,
                x.player_id,
                x.games,
                x.wins,
                x.losses,
                x.draws,
            ) == (
                y.guild_id,
                y.kind,
                y.player_id,
                y.games,
                y.wins,
                y.losses,
                y.draws,
            ) && close(x.rating, y.rating)
                && close(x.deviation, y.deviation)
                && close(x.volatility, y.volatility)
        })
}

/// A name read from the schema, checked before it is put into SQL.
fn identifier(name: String) -> Result<String, DbError> {
    if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        Ok(name)
    } else {
        Err(refused(format!("unexpected table or column name `{name}`")))
    }
}

/// The source's tables, each after the tables it references.
async fn tables_in_order(src: &mut Conn) -> Result<Vec<String>, DbError> {
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
            AND name <> '_sqlx_migrations' ORDER BY name",
    )
    .fetch_all(&mut *src)
    .await?;
    let mut references = BTreeMap::new();
    for name in names {
        let name = identifier(name)?;
        let refs: Vec<String> = sqlx::query_scalar(
            "SELECT DISTINCT \"table\" FROM pragma_foreign_key_list($1) WHERE \"table\" <> $1",
        )
        .bind(name.clone())
        .fetch_all(&mut *src)
        .await?;
        references.insert(name, refs.into_iter().collect::<BTreeSet<_>>());
    }
    let mut order: Vec<String> = Vec::new();
    while order.len() < references.len() {
        let next = references
            .iter()
            .find(|(t, refs)| {
                !order.contains(t)
                    && refs
                        .iter()
                        .all(|r| order.contains(r) || !references.contains_key(r))
            })
            .map(|(t, _)| t.clone())
            .ok_or_else(|| refused("the tables' foreign keys form a cycle".into()))?;
        order.push(next);
    }
    Ok(order)
}

/// The target's columns and their types, by table.
async fn postgres_columns(
    dst: &mut Conn,
) -> Result<BTreeMap<String, Vec<(String, String)>>, DbError> {
    let rows: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT CAST(table_name AS TEXT), CAST(column_name AS TEXT), CAST(data_type AS TEXT)
           FROM information_schema.columns WHERE table_schema = current_schema()
          ORDER BY table_name, ordinal_position",
    )
    .fetch_all(&mut *dst)
    .await?;
    let mut columns: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for (table, column, ty) in rows {
        columns.entry(table).or_default().push((column, ty));
    }
    Ok(columns)
}

async fn count(conn: &mut Conn, table: &str) -> Result<i64, DbError> {
    Ok(
        sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}")))
            .fetch_one(&mut *conn)
            .await?,
    )
}

/// Copies one table, row by row, converting each value to the target column's type.
async fn copy_table(
    src: &mut Conn,
    dst: &mut Conn,
    table: &str,
    columns: &[(String, String)],
) -> Result<i64, DbError> {
    let source_columns: BTreeSet<String> =
        sqlx::query_scalar("SELECT name FROM pragma_table_info($1)")
            .bind(table.to_string())
            .fetch_all(&mut *src)
            .await?
            .into_iter()
            .collect();
    let columns: Vec<&(String, String)> = columns
        .iter()
        .filter(|(c, _)| source_columns.contains(c))
        .collect();
    if columns.len() != source_columns.len() {
        return Err(refused(format!(
            "{table}: the two databases have different columns"
        )));
    }
    let names: Vec<String> = columns
        .iter()
        .map(|(c, _)| identifier(c.clone()))
        .collect::<Result<_, _>>()?;
    let list = names.join(", ");
    let placeholders: Vec<String> = (1..=names.len()).map(|i| format!("${i}")).collect();
    let select = format!("SELECT {list} FROM {table} ORDER BY rowid");
    let insert = format!(
        "INSERT INTO {table} ({list}) VALUES ({})",
        placeholders.join(", ")
    );
    let rows: Vec<DbRow> = sqlx::query(sqlx::AssertSqlSafe(select))
        .fetch_all(&mut *src)
        .await?;
    for (n, row) in rows.iter().enumerate() {
        let place = |column: &str, e: &dyn fmt::Display| {
            refused(format!(
                "{table}, row {} (in rowid order), column {column}: {e}",
                n + 1
            ))
        };
        let mut query = sqlx::query(sqlx::AssertSqlSafe(insert.clone()));
        for (i, (column, ty)) in columns.iter().enumerate() {
            query = match ty.as_str() {
                "bigint" | "integer" | "smallint" => query.bind(
                    row.try_get::<Option<i64>, _>(i)
                        .map_err(|e| place(column, &e))?,
                ),
                "double precision" | "real" => query.bind(
                    row.try_get::<Option<f64>, _>(i)
                        .map_err(|e| place(column, &e))?,
                ),
                "text" | "character varying" => query.bind(
                    row.try_get::<Option<String>, _>(i)
                        .map_err(|e| place(column, &e))?,
                ),
                "bytea" => query.bind(
                    row.try_get::<Option<Vec<u8>>, _>(i)
                        .map_err(|e| place(column, &e))?,
                ),
                other => return Err(place(column, &format!("unexpected column type {other}"))),
            };
        }
        query
            .execute(&mut *dst)
            .await
            .map_err(|e| place("(all)", &e))?;
    }
    Ok(rows.len() as i64)
}

/// Sets each identity column's sequence past the largest id copied, so new rows get new ids.
async fn reset_identities(dst: &mut Conn) -> Result<(), DbError> {
    let identities: Vec<(String, String)> = sqlx::query_as(
        "SELECT CAST(table_name AS TEXT), CAST(column_name AS TEXT)
           FROM information_schema.columns
          WHERE table_schema = current_schema() AND is_identity = 'YES'",
    )
    .fetch_all(&mut *dst)
    .await?;
    for (table, column) in identities {
        let (table, column) = (identifier(table)?, identifier(column)?);
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT CAST(setval(pg_get_serial_sequence('{table}', '{column}'),
                               COALESCE(MAX({column}), 0) + 1, false) AS BIGINT) FROM {table}"
        )))
        .execute(&mut *dst)
        .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::{pg_db, temp_db};
    use crate::db::{
        apply_result, enqueue, finish_game, insert_game, record_move, upsert_player, Announcement,
        ChannelId, Finish, GameResult, GuildId, MoveRecord, NewGame, UserId,
    };
    use crate::games::{Colour, Options, Outcome, Reason};

    /// A game of `a` against `b` in server 5; rated games are finished (won by `a`) and rated.
    async fn game(pool: &Pool, a: u64, b: u64, rated: bool, at: i64) -> i64 {
        let options = Options::parse_line("exxit tiles=39").unwrap();
        let id = insert_game(
            pool,
            &NewGame {
                guild_id: Some(GuildId(5)),
                channel_id: ChannelId(6),
                options: &options,
                players: [UserId(a), UserId(b)],
                rated,
                now: at,
                seconds_per_move: 100,
                deadline_at: Some(at + 100),
                clock: None,
            },
        )
        .await
        .unwrap();
        let mut tx = pool.begin().await.unwrap();
        record_move(
            &mut tx,
            &MoveRecord {
                game: id,
                expected_version: 0,
                notation: "0,0",
                player: UserId(a),
                now: at + 1,
                finish: None,
                next_deadline: Some(at + 101),
                next_to_move: UserId(b),
                clock: None,
                left_before: None,
            },
        )
        .await
        .unwrap();
        if rated {
            let finish = Finish {
                kind: options.kind(),
                result: GameResult::Decided(Outcome::win(Colour::First, Reason::Resignation)),
                winner_id: Some(UserId(a)),
            };
            finish_game(&mut *tx, id, 1, &finish, at + 2).await.unwrap();
            apply_result(&mut tx, id).await.unwrap();
        }
        tx.commit().await.unwrap();
        id
    }

    #[tokio::test]
    async fn a_sqlite_database_is_copied_to_postgres_and_verified() {
        let (source, _file) = temp_db().await;
        for (id, name) in [(1, "ann"), (u64::MAX, "bob"), (3, "cid")] {
            upsert_player(&source, UserId(id), name, 0).await.unwrap();
        }
        game(&source, 1, u64::MAX, true, 100).await;
        game(&source, 3, 1, true, 200).await;
        let active = game(&source, u64::MAX, 3, false, 300).await;
        enqueue(
            &source,
            Some(active),
            &Announcement {
                target: crate::db::Target::Channel {
                    channel: ChannelId(6),
                },
                content: "hello".into(),
                mentions: vec![UserId(1)],
                board: None,
                concerned: vec![],
                lang: "en-US".into(),
            },
        )
        .await
        .unwrap();
        let (target, _url) = pg_db().await;
        let report = copy_all(&source, &target).await.unwrap();
        let counted: BTreeMap<&str, i64> = report
            .tables
            .iter()
            .map(|(t, n)| (t.as_str(), *n))
            .collect();
        assert_eq!(counted["players"], 3);
        assert_eq!(counted["games"], 3);
        assert_eq!(counted["moves"], 3);
        assert_eq!(counted["ratings"], 3);
        assert_eq!(counted["announcements"], 1);
        assert_eq!(report.games_replayed, 3);
        assert_eq!(report.ratings_checked, 3);
        // Players come before the games that reference them.
        let at = |t: &str| report.tables.iter().position(|(n, _)| n == t).unwrap();
        assert!(at("players") < at("games") && at("games") < at("moves"));
        // The copy is the source, and new rows get new ids.
        let copied = crate::db::fetch_game(&target, active)
            .await
            .unwrap()
            .unwrap();
        let original = crate::db::fetch_game(&source, active)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(copied, original);
        assert_eq!(
            crate::db::all_ratings(&target).await.unwrap(),
            crate::db::all_ratings(&source).await.unwrap()
        );
        let next = game(&target, 1, 3, false, 400).await;
        assert_eq!(next, active + 1);
        // A database that is not empty is refused.
        let again = copy_all(&source, &target).await.unwrap_err().to_string();
        assert!(again.contains("not empty"), "{again}");
    }

    #[tokio::test]
    async fn a_damaged_value_is_named_with_its_table_row_and_column() {
        let (source, _file) = temp_db().await;
        upsert_player(&source, UserId(1), "ann", 0).await.unwrap();
        upsert_player(&source, UserId(2), "bob", 0).await.unwrap();
        let id = game(&source, 1, 2, false, 100).await;
        sqlx::query("UPDATE games SET version = 'many' WHERE id = $1")
            .bind(id)
            .execute(&source)
            .await
            .unwrap();
        let (target, _url) = pg_db().await;
        let e = copy_all(&source, &target).await.unwrap_err().to_string();
        assert!(
            e.contains("games, row 1") && e.contains("column version"),
            "{e}"
        );
        // Nothing was copied: the copy is one transaction.
        let players: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM players")
            .fetch_one(&target)
            .await
            .unwrap();
        assert_eq!(players, 0);
    }

    #[tokio::test]
    async fn only_sqlite_to_postgres_is_accepted() {
        let e = migrate_data("postgres://u:s3cret@h/db", "postgres://h/db")
            .await
            .unwrap_err()
            .to_string();
        assert!(e.contains("--from") && !e.contains("s3cret"), "{e}");
        let e = migrate_data("sqlite:///nowhere/x.db", "postgres://h/db")
            .await
            .unwrap_err()
            .to_string();
        assert!(e.contains("is not a file"), "{e}");
        let file = crate::db::testing::TempFile(crate::db::testing::temp_path("db"));
        std::fs::write(&file.0, b"").unwrap();
        let e = migrate_data(
            &format!("sqlite://{}", file.0.display()),
            "postgres://u:s3cret@127.0.0.1:1/db",
        )
        .await
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("--to: cannot open postgres://u:***@127.0.0.1:1/db")
                && !e.contains("s3cret"),
            "{e}"
        );
    }
}

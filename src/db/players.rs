//! Players: Discord users who have played or been challenged, with a display name.

use sqlx::SqliteExecutor;

use super::{to_db, DbError};

/// Records a user (or refreshes their name). Writes only when the user is new or renamed:
/// every command calls this, and a read does not wait for other writers.
pub async fn upsert_player(
    ex: impl SqliteExecutor<'_> + Copy,
    id: u64,
    name: &str,
    now: i64,
) -> Result<(), DbError> {
    if fetch_player_name(ex, id).await?.as_deref() == Some(name) {
        return Ok(());
    }
    sqlx::query(
        "INSERT INTO players (id, name, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at",
    )
    .bind(to_db(id))
    .bind(name)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// A player's name, when known.
pub async fn fetch_player_name(
    ex: impl SqliteExecutor<'_>,
    id: u64,
) -> Result<Option<String>, DbError> {
    Ok(sqlx::query_scalar("SELECT name FROM players WHERE id = ?1")
        .bind(to_db(id))
        .fetch_optional(ex)
        .await?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::temp_db;

    #[tokio::test]
    async fn names_are_refreshed() {
        let (pool, _f) = temp_db().await;
        let id = u64::MAX - 5;
        assert_eq!(fetch_player_name(&pool, id).await.unwrap(), None);
        upsert_player(&pool, id, "ann", 1).await.unwrap();
        upsert_player(&pool, id, "Ann", 2).await.unwrap();
        assert_eq!(
            fetch_player_name(&pool, id).await.unwrap().as_deref(),
            Some("Ann")
        );
    }
}

//! Players: Discord users who have played or been challenged, with a display name, their
//! settings and their vacations.

use sqlx::SqliteExecutor;

use super::{to_db, DbError};

/// How a player wants to be reminded of a move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum ReminderMode {
    /// A mention in the game's channel (the default).
    #[default]
    Channel,
    /// A direct message.
    Dm,
    /// No reminders.
    Off,
}

impl ReminderMode {
    pub const fn as_str(self) -> &'static str {
        match self {
            ReminderMode::Channel => "channel",
            ReminderMode::Dm => "dm",
            ReminderMode::Off => "off",
        }
    }

    pub fn parse(s: &str) -> Option<ReminderMode> {
        Some(match s {
            "channel" => ReminderMode::Channel,
            "dm" => ReminderMode::Dm,
            "off" => ReminderMode::Off,
            _ => return None,
        })
    }
}

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

/// A player's reminder setting (the default when never set; an unknown stored value reads as the
/// default too).
pub async fn fetch_reminder_mode(
    ex: impl SqliteExecutor<'_>,
    id: u64,
) -> Result<ReminderMode, DbError> {
    let stored: Option<String> =
        sqlx::query_scalar("SELECT reminders FROM player_settings WHERE player_id = ?1")
            .bind(to_db(id))
            .fetch_optional(ex)
            .await?;
    Ok(stored
        .as_deref()
        .and_then(ReminderMode::parse)
        .unwrap_or_default())
}

/// Stores a player's reminder setting (the player must be known).
pub async fn set_reminder_mode(
    ex: impl SqliteExecutor<'_>,
    id: u64,
    mode: ReminderMode,
    now: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO player_settings (player_id, reminders, updated_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (player_id) DO UPDATE SET reminders = excluded.reminders,
                                               updated_at = excluded.updated_at",
    )
    .bind(to_db(id))
    .bind(mode.as_str())
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// The end of the player's vacation running at `now`, if any.
pub async fn vacation_until(
    ex: impl SqliteExecutor<'_>,
    id: u64,
    now: i64,
) -> Result<Option<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT MAX(ends_at) FROM vacations WHERE player_id = ?1 AND starts_at <= ?2 AND ends_at > ?2",
    )
    .bind(to_db(id))
    .bind(now)
    .fetch_one(ex)
    .await?)
}

/// Seconds of vacation the player took that started at or after `since`.
pub async fn vacation_seconds_since(
    ex: impl SqliteExecutor<'_>,
    id: u64,
    since: i64,
) -> Result<i64, DbError> {
    let total: Option<i64> = sqlx::query_scalar(
        "SELECT SUM(ends_at - starts_at) FROM vacations WHERE player_id = ?1 AND starts_at >= ?2",
    )
    .bind(to_db(id))
    .bind(since)
    .fetch_one(ex)
    .await?;
    Ok(total.unwrap_or(0))
}

/// Stores a vacation.
pub async fn insert_vacation(
    ex: impl SqliteExecutor<'_>,
    id: u64,
    starts_at: i64,
    ends_at: i64,
) -> Result<(), DbError> {
    sqlx::query("INSERT INTO vacations (player_id, starts_at, ends_at) VALUES (?1, ?2, ?3)")
        .bind(to_db(id))
        .bind(starts_at)
        .bind(ends_at)
        .execute(ex)
        .await?;
    Ok(())
}

/// Starts a vacation of `seconds` at `now`, unless one is running or the vacations that started
/// since `since` would then exceed `cap_seconds`. One statement decides and inserts, so requests
/// arriving together cannot pass the cap between them. `false` when refused.
pub async fn start_vacation_within_cap(
    ex: impl SqliteExecutor<'_>,
    id: u64,
    now: i64,
    seconds: i64,
    since: i64,
    cap_seconds: i64,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "INSERT INTO vacations (player_id, starts_at, ends_at)
         SELECT ?1, ?2, ?2 + ?3
          WHERE NOT EXISTS (SELECT 1 FROM vacations
                             WHERE player_id = ?1 AND starts_at <= ?2 AND ends_at > ?2)
            AND (SELECT COALESCE(SUM(ends_at - starts_at), 0) FROM vacations
                  WHERE player_id = ?1 AND starts_at >= ?4) + ?3 <= ?5",
    )
    .bind(to_db(id))
    .bind(now)
    .bind(seconds)
    .bind(since)
    .bind(cap_seconds)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
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

    #[tokio::test]
    async fn settings_and_vacations_are_stored() {
        let (pool, _f) = temp_db().await;
        let id = u64::MAX - 7;
        upsert_player(&pool, id, "ann", 1).await.unwrap();
        assert_eq!(
            fetch_reminder_mode(&pool, id).await.unwrap(),
            ReminderMode::Channel
        );
        set_reminder_mode(&pool, id, ReminderMode::Dm, 2)
            .await
            .unwrap();
        set_reminder_mode(&pool, id, ReminderMode::Off, 3)
            .await
            .unwrap();
        assert_eq!(
            fetch_reminder_mode(&pool, id).await.unwrap(),
            ReminderMode::Off
        );
        assert_eq!(vacation_until(&pool, id, 100).await.unwrap(), None);
        insert_vacation(&pool, id, 100, 400).await.unwrap();
        assert_eq!(vacation_until(&pool, id, 100).await.unwrap(), Some(400));
        assert_eq!(vacation_until(&pool, id, 400).await.unwrap(), None);
        assert_eq!(vacation_seconds_since(&pool, id, 0).await.unwrap(), 300);
        assert_eq!(vacation_seconds_since(&pool, id, 101).await.unwrap(), 0);
    }
}

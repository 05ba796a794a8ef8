//! Players: Discord users who have played or been challenged, with a display name, their
//! settings and their vacations.

use super::{Conn, Executor};

use super::{DbError, UserId};

/// How a player hears that it is their turn, and is reminded of it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum NotifyMode {
    /// A mention in the game's channel (the default).
    #[default]
    Channel,
    /// A direct message with the board (and its Move button) instead of the mention.
    Dm,
    /// Both.
    Both,
}

impl NotifyMode {
    pub const fn as_str(self) -> &'static str {
        match self {
            NotifyMode::Channel => "channel",
            NotifyMode::Dm => "dm",
            NotifyMode::Both => "both",
        }
    }

    pub fn parse(s: &str) -> Option<NotifyMode> {
        Some(match s {
            "channel" => NotifyMode::Channel,
            "dm" => NotifyMode::Dm,
            "both" => NotifyMode::Both,
            _ => return None,
        })
    }

    /// Told in the game's channel.
    pub const fn in_channel(self) -> bool {
        matches!(self, NotifyMode::Channel | NotifyMode::Both)
    }

    /// Told by direct message.
    pub const fn direct(self) -> bool {
        matches!(self, NotifyMode::Dm | NotifyMode::Both)
    }
}

/// A player's settings.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Settings {
    pub notify: NotifyMode,
    pub reminders: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            notify: NotifyMode::Channel,
            reminders: true,
        }
    }
}

/// Records a user (or refreshes their name). Writes only when the user is new or renamed:
/// every command calls this, and a read does not wait for other writers. A member who had their
/// data deleted ([`super::forget_member`]) and uses hexcord again is named again from here on.
pub async fn upsert_player(
    ex: impl Executor<'_> + Copy,
    id: UserId,
    name: &str,
    now: i64,
) -> Result<(), DbError> {
    if fetch_player_name(ex, id).await?.as_deref() == Some(name) {
        return Ok(());
    }
    sqlx::query(
        "INSERT INTO players (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at,
                                        forgotten_at = NULL",
    )
    .bind(id)
    .bind(name)
    .bind(now)
    .execute(ex)
    .await?;
    crate::i18n::note_member_returned(id.0);
    Ok(())
}

/// Records the Discord language a member last used (their direct messages are written in it).
/// Writes only when it changed.
pub async fn note_player_locale(
    ex: impl Executor<'_> + Copy,
    id: UserId,
    locale: &str,
) -> Result<(), DbError> {
    if player_locale(ex, id).await?.as_deref() == Some(locale) {
        return Ok(());
    }
    sqlx::query("UPDATE players SET locale = $2 WHERE id = $1")
        .bind(id)
        .bind(locale)
        .execute(ex)
        .await?;
    Ok(())
}

/// Notes that the bot may send member `id` a direct message of its own: they acted in a server
/// with the bot, in its direct messages, or through hexcord installed to their account
/// ([`crate::bot::chats`]).
pub async fn note_reachable(ex: impl Executor<'_>, id: UserId) -> Result<(), DbError> {
    sqlx::query("UPDATE players SET reachable = 1 WHERE id = $1 AND reachable = 0")
        .bind(id)
        .execute(ex)
        .await?;
    Ok(())
}

/// Whether the bot may send member `id` a direct message of its own ([`note_reachable`]).
pub async fn is_reachable(ex: impl Executor<'_>, id: UserId) -> Result<bool, DbError> {
    let flag: Option<i64> = sqlx::query_scalar("SELECT reachable FROM players WHERE id = $1")
        .bind(id)
        .fetch_optional(ex)
        .await?;
    Ok(flag == Some(1))
}

/// The Discord language a member last used, when known.
pub async fn player_locale(ex: impl Executor<'_>, id: UserId) -> Result<Option<String>, DbError> {
    Ok(
        sqlx::query_scalar::<_, Option<String>>("SELECT locale FROM players WHERE id = $1")
            .bind(id)
            .fetch_optional(ex)
            .await?
            .flatten(),
    )
}

/// A player's name, when known.
pub async fn fetch_player_name(
    ex: impl Executor<'_>,
    id: UserId,
) -> Result<Option<String>, DbError> {
    Ok(sqlx::query_scalar("SELECT name FROM players WHERE id = $1")
        .bind(id)
        .fetch_optional(ex)
        .await?)
}

/// A player's settings (the defaults when never set; an unknown stored value reads as its
/// default too).
pub async fn fetch_settings(ex: impl Executor<'_>, id: UserId) -> Result<Settings, DbError> {
    let stored: Option<(String, String)> =
        sqlx::query_as("SELECT notify, reminders FROM player_settings WHERE player_id = $1")
            .bind(id)
            .fetch_optional(ex)
            .await?;
    Ok(match stored {
        None => Settings::default(),
        Some((notify, reminders)) => Settings {
            notify: NotifyMode::parse(&notify).unwrap_or_default(),
            reminders: reminders != "off",
        },
    })
}

/// Stores a player's settings (the player must be known).
pub async fn store_settings(
    ex: impl Executor<'_>,
    id: UserId,
    settings: Settings,
    now: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO player_settings (player_id, notify, reminders, updated_at)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (player_id) DO UPDATE SET notify = excluded.notify,
                                               reminders = excluded.reminders,
                                               updated_at = excluded.updated_at",
    )
    .bind(id)
    .bind(settings.notify.as_str())
    .bind(if settings.reminders { "channel" } else { "off" })
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// The end of the player's vacation running at `now`, if any.
pub async fn vacation_until(
    ex: impl Executor<'_>,
    id: UserId,
    now: i64,
) -> Result<Option<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT MAX(ends_at) FROM vacations WHERE player_id = $1 AND starts_at <= $2 AND ends_at > $2",
    )
    .bind(id)
    .bind(now)
    .fetch_one(ex)
    .await?)
}

/// Seconds of vacation the player took that started at or after `since`.
pub async fn vacation_seconds_since(
    ex: impl Executor<'_>,
    id: UserId,
    since: i64,
) -> Result<i64, DbError> {
    let total: Option<i64> = sqlx::query_scalar(
        "SELECT CAST(SUM(ends_at - starts_at) AS BIGINT) FROM vacations WHERE player_id = $1 AND starts_at >= $2",
    )
    .bind(id)
    .bind(since)
    .fetch_one(ex)
    .await?;
    Ok(total.unwrap_or(0))
}

/// Stores a vacation.
pub async fn insert_vacation(
    ex: impl Executor<'_>,
    id: UserId,
    starts_at: i64,
    ends_at: i64,
) -> Result<(), DbError> {
    sqlx::query("INSERT INTO vacations (player_id, starts_at, ends_at) VALUES ($1, $2, $3)")
        .bind(id)
        .bind(starts_at)
        .bind(ends_at)
        .execute(ex)
        .await?;
    Ok(())
}

/// Takes the rows of `players` (those stored) until the end of the transaction, by a write that
/// changes nothing, so that decisions about them taken by transactions arriving together — a
/// cap counted, then a row added — are made one after the other, each seeing what the one
/// before added: on SQLite (the write waits for the other writer) as on PostgreSQL (the row
/// lock waits, and each later statement reads afresh). The rows are taken in id order, so two
/// transactions taking the same pair never wait for each other.
pub async fn take_players(conn: &mut Conn, players: &[UserId]) -> Result<(), DbError> {
    let mut ids = players.to_vec();
    ids.sort_unstable_by_key(|id| super::to_db(id.0));
    ids.dedup();
    for id in ids {
        sqlx::query("UPDATE players SET updated_at = updated_at WHERE id = $1")
            .bind(id)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// A vacation asked for, with the yearly cap it must stay within.
#[derive(Clone, Copy, Debug)]
pub struct VacationRequest {
    pub player: UserId,
    pub starts_at: i64,
    pub seconds: i64,
    /// Vacations that started at or after this time count against the cap.
    pub counted_since: i64,
    pub cap_seconds: i64,
}

/// Starts the vacation asked for, unless one is running or the vacations counted would then
/// exceed the cap. `false` when refused. Call it in a transaction: it first takes the player's
/// row ([`take_players`]), so requests arriving together cannot pass the cap between them.
pub async fn start_vacation_within_cap(
    conn: &mut Conn,
    v: &VacationRequest,
) -> Result<bool, DbError> {
    take_players(&mut *conn, &[v.player]).await?;
    let done = sqlx::query(
        "INSERT INTO vacations (player_id, starts_at, ends_at)
         SELECT $1, $2, $2 + $3
          WHERE NOT EXISTS (SELECT 1 FROM vacations
                             WHERE player_id = $1 AND starts_at <= $2 AND ends_at > $2)
            AND (SELECT CAST(COALESCE(SUM(ends_at - starts_at), 0) AS BIGINT) FROM vacations
                  WHERE player_id = $1 AND starts_at >= $4) + $3 <= $5",
    )
    .bind(v.player)
    .bind(v.starts_at)
    .bind(v.seconds)
    .bind(v.counted_since)
    .bind(v.cap_seconds)
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::both_backends;

    both_backends! {
        async fn names_are_refreshed(pool) {
            let id = u64::MAX - 5;
            assert_eq!(fetch_player_name(&pool, UserId(id)).await.unwrap(), None);
            upsert_player(&pool, UserId(id), "ann", 1).await.unwrap();
            upsert_player(&pool, UserId(id), "Ann", 2).await.unwrap();
            assert_eq!(
                fetch_player_name(&pool, UserId(id))
                    .await
                    .unwrap()
                    .as_deref(),
                Some("Ann")
            );
        }
    }

    both_backends! {
        async fn settings_and_vacations_are_stored(pool) {
            let id = u64::MAX - 7;
            upsert_player(&pool, UserId(id), "ann", 1).await.unwrap();
            let me = UserId(id);
            assert_eq!(
                fetch_settings(&pool, me).await.unwrap(),
                Settings::default()
            );
            for (notify, reminders) in [
                (NotifyMode::Dm, true),
                (NotifyMode::Both, false),
                (NotifyMode::Channel, false),
            ] {
                let s = Settings { notify, reminders };
                store_settings(&pool, me, s, 2).await.unwrap();
                assert_eq!(fetch_settings(&pool, me).await.unwrap(), s);
            }
            assert_eq!(vacation_until(&pool, UserId(id), 100).await.unwrap(), None);
            insert_vacation(&pool, UserId(id), 100, 400).await.unwrap();
            assert_eq!(
                vacation_until(&pool, UserId(id), 100).await.unwrap(),
                Some(400)
            );
            assert_eq!(vacation_until(&pool, UserId(id), 400).await.unwrap(), None);
            assert_eq!(
                vacation_seconds_since(&pool, UserId(id), 0).await.unwrap(),
                300
            );
            assert_eq!(
                vacation_seconds_since(&pool, UserId(id), 101)
                    .await
                    .unwrap(),
                0
            );
        }
    }

    both_backends! {
        async fn vacations_asked_together_stay_within_the_cap(pool) {
            let me = UserId(42);
            upsert_player(&pool, me, "ann", 1).await.unwrap();
            let ask = |pool: crate::db::Pool| async move {
                let mut tx = pool.begin().await?;
                let request = VacationRequest {
                    player: me,
                    starts_at: 1_000,
                    seconds: 30 * 86_400,
                    counted_since: 0,
                    cap_seconds: 30 * 86_400,
                };
                let started = start_vacation_within_cap(&mut tx, &request).await?;
                // Both hold their transaction a moment, as the bot does while it moves deadlines.
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                tx.commit().await?;
                Ok::<bool, DbError>(started)
            };
            let asks: Vec<_> = (0..4).map(|_| tokio::spawn(ask(pool.clone()))).collect();
            let mut started = 0;
            for a in asks {
                if a.await.unwrap().unwrap() {
                    started += 1;
                }
            }
            assert_eq!(started, 1);
            assert_eq!(
                vacation_seconds_since(&pool, me, 0).await.unwrap(),
                30 * 86_400
            );
        }
    }
}

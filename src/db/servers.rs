//! Servers: the settings moderators choose for their server, the notices they were given
//! once about a permission the bot lacks there, its name, and the members seen in it.

use super::Executor;
use sqlx::Row;

use super::{DbError, GuildId, UserId};

/// A server's settings.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ServerSettings {
    /// Each game gets its own thread (the default).
    pub threads: bool,
}

impl Default for ServerSettings {
    fn default() -> ServerSettings {
        ServerSettings { threads: true }
    }
}

/// A server's settings (the defaults until a moderator changes one).
pub async fn fetch_server_settings(
    ex: impl Executor<'_>,
    guild: GuildId,
) -> Result<ServerSettings, DbError> {
    let row = sqlx::query("SELECT threads FROM server_settings WHERE guild_id = $1")
        .bind(guild)
        .fetch_optional(ex)
        .await?;
    Ok(match row {
        Some(r) => ServerSettings {
            threads: r.try_get::<i64, _>("threads")? != 0,
        },
        None => ServerSettings::default(),
    })
}

/// Stores a server's settings.
pub async fn store_server_settings(
    ex: impl Executor<'_>,
    guild: GuildId,
    settings: ServerSettings,
    now: i64,
) -> Result<(), DbError> {
    set_column(ex, guild, Column::Threads, i64::from(settings.threads), now).await
}

/// A column of `server_settings` set on its own.
#[derive(Clone, Copy, Debug)]
pub(super) enum Column {
    Threads,
    Locale,
    Language,
    Theme,
    Name,
    PoolClosed,
}

impl Column {
    fn name(self) -> &'static str {
        match self {
            Column::Threads => "threads",
            Column::Locale => "locale",
            Column::Language => "language",
            Column::Theme => "theme",
            Column::Name => "name",
            Column::PoolClosed => "pool_closed",
        }
    }

    /// Whether setting it is a moderator's change, stamped with its time (what the bot notes
    /// as last seen from Discord is not).
    fn stamped(self) -> bool {
        !matches!(self, Column::Locale | Column::Name)
    }
}

/// Sets `column` of server `guild`'s settings to `value`, the other settings kept (their
/// defaults for a server without a row): the one write of each setting.
pub(super) async fn set_column<'q, T>(
    ex: impl Executor<'_>,
    guild: GuildId,
    column: Column,
    value: T,
    now: i64,
) -> Result<(), DbError>
where
    T: 'q + sqlx::Encode<'q, sqlx::Any> + sqlx::Type<sqlx::Any> + Send,
{
    let name = column.name();
    let stamp = match column.stamped() {
        true => ", updated_at = excluded.updated_at",
        false => "",
    };
    let sql = format!(
        "INSERT INTO server_settings (guild_id, {name}, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (guild_id) DO UPDATE SET {name} = excluded.{name}{stamp}"
    );
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(guild)
        .bind(value)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

/// Notes `value` in `column` (a name or language last seen from Discord), writing only when it
/// changed.
async fn note_column(
    ex: impl Executor<'_> + Copy,
    guild: GuildId,
    column: Column,
    value: &str,
    now: i64,
) -> Result<(), DbError> {
    let sql = format!(
        "SELECT {} FROM server_settings WHERE guild_id = $1",
        column.name()
    );
    let seen: Option<Option<String>> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
        .bind(guild)
        .fetch_optional(ex)
        .await?;
    if seen.flatten().as_deref() == Some(value) {
        return Ok(());
    }
    set_column(ex, guild, column, value, now).await
}

/// Records the server's Discord language as last seen (its public messages are written in it
/// unless moderators chose one). Writes only when it changed.
pub async fn note_server_locale(
    ex: impl Executor<'_> + Copy,
    guild: GuildId,
    locale: &str,
    now: i64,
) -> Result<(), DbError> {
    note_column(ex, guild, Column::Locale, locale, now).await
}

/// The language of a server's public messages: the one its moderators chose, else its Discord
/// language as last seen.
pub async fn server_language(
    ex: impl Executor<'_>,
    guild: GuildId,
) -> Result<Option<String>, DbError> {
    Ok(sqlx::query_scalar::<_, Option<String>>(
        "SELECT COALESCE(language, locale) FROM server_settings WHERE guild_id = $1",
    )
    .bind(guild)
    .fetch_optional(ex)
    .await?
    .flatten())
}

/// Sets (or, with `None`, clears: back to Discord's) the language moderators chose.
pub async fn set_server_language(
    ex: impl Executor<'_>,
    guild: GuildId,
    language: Option<&str>,
    now: i64,
) -> Result<(), DbError> {
    set_column(ex, guild, Column::Language, language, now).await
}

/// The picture theme moderators chose for their server (`dark` or `light`), if any.
pub async fn server_theme(
    ex: impl Executor<'_>,
    guild: GuildId,
) -> Result<Option<String>, DbError> {
    Ok(sqlx::query_scalar::<_, Option<String>>(
        "SELECT theme FROM server_settings WHERE guild_id = $1",
    )
    .bind(guild)
    .fetch_optional(ex)
    .await?
    .flatten())
}

/// Sets the picture theme of a server's pictures (`dark` or `light`).
pub async fn set_server_theme(
    ex: impl Executor<'_>,
    guild: GuildId,
    theme: &str,
    now: i64,
) -> Result<(), DbError> {
    set_column(ex, guild, Column::Theme, theme, now).await
}

/// Marks the moderators of `guild` as told about `topic`: `true` the first time only, so a
/// missing permission is reported once, not with every game.
pub async fn claim_moderator_notice(
    ex: impl Executor<'_>,
    guild: GuildId,
    topic: &str,
    now: i64,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "INSERT INTO moderator_notices (guild_id, topic, told_at) VALUES ($1, $2, $3)
         ON CONFLICT (guild_id, topic) DO NOTHING",
    )
    .bind(guild)
    .bind(topic)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Forgets the notice about `topic` (the permission works again): a later loss is told anew.
pub async fn clear_moderator_notice(
    ex: impl Executor<'_>,
    guild: GuildId,
    topic: &str,
) -> Result<(), DbError> {
    sqlx::query("DELETE FROM moderator_notices WHERE guild_id = $1 AND topic = $2")
        .bind(guild)
        .bind(topic)
        .execute(ex)
        .await?;
    Ok(())
}

/// Records that `user` was seen in server `guild` (a command or a button press there), so the
/// lobby shows them its open seeks and challenges. Writes only when it was not recorded.
pub async fn note_server_member(
    ex: impl Executor<'_> + Copy,
    guild: GuildId,
    user: UserId,
    now: i64,
) -> Result<(), DbError> {
    let known: Option<i64> = sqlx::query_scalar(
        "SELECT seen_at FROM server_members WHERE guild_id = $1 AND user_id = $2",
    )
    .bind(guild)
    .bind(user)
    .fetch_optional(ex)
    .await?;
    if known.is_some() {
        return Ok(());
    }
    sqlx::query(
        "INSERT INTO server_members (guild_id, user_id, seen_at) VALUES ($1, $2, $3)
         ON CONFLICT (guild_id, user_id) DO NOTHING",
    )
    .bind(guild)
    .bind(user)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Forgets that `user` is a member of server `guild` (they left it).
pub async fn forget_server_member(
    ex: impl Executor<'_>,
    guild: GuildId,
    user: UserId,
) -> Result<(), DbError> {
    sqlx::query("DELETE FROM server_members WHERE guild_id = $1 AND user_id = $2")
        .bind(guild)
        .bind(user)
        .execute(ex)
        .await?;
    Ok(())
}

/// Whether `user` was seen in server `guild` and has not left it since.
pub async fn is_server_member(
    ex: impl Executor<'_>,
    guild: GuildId,
    user: UserId,
) -> Result<bool, DbError> {
    let n: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM server_members WHERE guild_id = $1 AND user_id = $2",
    )
    .bind(guild)
    .bind(user)
    .fetch_one(ex)
    .await?;
    Ok(n > 0)
}

/// The servers `user` was seen in, with each server's name when Discord gave it, by id.
pub async fn servers_of_member(
    ex: impl Executor<'_>,
    user: UserId,
) -> Result<Vec<(GuildId, Option<String>)>, DbError> {
    Ok(sqlx::query_as(
        "SELECT m.guild_id, s.name FROM server_members m
           LEFT JOIN server_settings s ON s.guild_id = m.guild_id
          WHERE m.user_id = $1
          ORDER BY m.guild_id",
    )
    .bind(user)
    .fetch_all(ex)
    .await?)
}

/// Records server `guild`'s name as Discord gave it. Writes only when it changed.
pub async fn note_server_name(
    ex: impl Executor<'_> + Copy,
    guild: GuildId,
    name: &str,
    now: i64,
) -> Result<(), DbError> {
    note_column(ex, guild, Column::Name, name, now).await
}

/// Server `guild`'s name as Discord last gave it.
pub async fn server_name(ex: impl Executor<'_>, guild: GuildId) -> Result<Option<String>, DbError> {
    let name: Option<Option<String>> =
        sqlx::query_scalar("SELECT name FROM server_settings WHERE guild_id = $1")
            .bind(guild)
            .fetch_optional(ex)
            .await?;
    Ok(name.flatten())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::both_backends;

    both_backends! {
        async fn settings_default_and_store(pool) {
            let g = GuildId(u64::MAX);
            assert!(fetch_server_settings(&pool, g).await.unwrap().threads);
            let off = ServerSettings { threads: false };
            store_server_settings(&pool, g, off, 5).await.unwrap();
            assert_eq!(fetch_server_settings(&pool, g).await.unwrap(), off);
            assert!(
                fetch_server_settings(&pool, GuildId(3))
                    .await
                    .unwrap()
                    .threads
            );
        }
    }

    both_backends! {
        async fn a_servers_language_is_the_chosen_one_else_the_last_seen(pool) {
            let g = GuildId(9);
            assert_eq!(server_language(&pool, g).await.unwrap(), None);
            note_server_locale(&pool, g, "ja", 1).await.unwrap();
            assert_eq!(
                server_language(&pool, g).await.unwrap().as_deref(),
                Some("ja")
            );
            set_server_language(&pool, g, Some("en-US"), 2)
                .await
                .unwrap();
            note_server_locale(&pool, g, "ko", 3).await.unwrap();
            assert_eq!(
                server_language(&pool, g).await.unwrap().as_deref(),
                Some("en-US")
            );
            set_server_language(&pool, g, None, 4).await.unwrap();
            assert_eq!(
                server_language(&pool, g).await.unwrap().as_deref(),
                Some("ko")
            );
            // Settings and language live side by side.
            store_server_settings(&pool, g, ServerSettings { threads: false }, 5)
                .await
                .unwrap();
            assert_eq!(
                server_language(&pool, g).await.unwrap().as_deref(),
                Some("ko")
            );
        }
    }

    both_backends! {
        async fn a_servers_theme_is_kept_beside_its_other_settings(pool) {
            let g = GuildId(11);
            assert_eq!(server_theme(&pool, g).await.unwrap(), None);
            set_server_language(&pool, g, Some("ja"), 1).await.unwrap();
            set_server_theme(&pool, g, "light", 2).await.unwrap();
            assert_eq!(server_theme(&pool, g).await.unwrap().as_deref(), Some("light"));
            store_server_settings(&pool, g, ServerSettings { threads: false }, 3)
                .await
                .unwrap();
            set_server_theme(&pool, g, "dark", 4).await.unwrap();
            assert_eq!(server_theme(&pool, g).await.unwrap().as_deref(), Some("dark"));
            assert_eq!(server_language(&pool, g).await.unwrap().as_deref(), Some("ja"));
            assert!(!fetch_server_settings(&pool, g).await.unwrap().threads);
            assert_eq!(server_theme(&pool, GuildId(12)).await.unwrap(), None);
        }
    }

    both_backends! {
        async fn a_notice_is_claimed_once_until_cleared(pool) {
            let g = GuildId(7);
            assert!(claim_moderator_notice(&pool, g, "threads", 1)
                .await
                .unwrap());
            assert!(!claim_moderator_notice(&pool, g, "threads", 2)
                .await
                .unwrap());
            assert!(claim_moderator_notice(&pool, g, "archive", 2)
                .await
                .unwrap());
            assert!(claim_moderator_notice(&pool, GuildId(8), "threads", 2)
                .await
                .unwrap());
            clear_moderator_notice(&pool, g, "threads").await.unwrap();
            assert!(claim_moderator_notice(&pool, g, "threads", 3)
                .await
                .unwrap());
        }
    }
}

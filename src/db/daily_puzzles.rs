//! The daily puzzle of a server ([`crate::play::daily`]): where and when moderators want it
//! (`daily_puzzles`), and each post made (`daily_puzzle_posts`).
//!
//! A post is claimed before it is queued, by its row: one per server and local day (the primary
//! key), never the same puzzle twice in a server (a unique constraint, and
//! [`next_daily_puzzle`] skips the puzzles posted there). A restart, or two processes scanning
//! at once, so never posts twice the same day. Who solved a posted puzzle is not stored here:
//! it is read from the members' first attempts ([`daily_solvers`], from the table of
//! [`super::start_attempt`]), which `/privacy` lists and deletes. The one member stored here is the moderator who chose the setting (told by direct
//! message when a post cannot be made); deleting their data stops the daily puzzle they set.

use chrono_tz::Tz;
use sqlx::Row;

use super::{ChannelId, DbError, Executor, GuildId, MessageId, UserId};

/// A server's daily puzzle setting.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DailyPuzzle {
    pub guild: GuildId,
    pub channel: ChannelId,
    /// The hour (0–23, in the server's time zone) of the post.
    pub hour: u8,
    /// The moderator who chose it.
    pub set_by: UserId,
    /// The channel was told that no unposted puzzle remains (said once, until a new post).
    pub exhausted: bool,
}

/// A daily puzzle setting with what its scan needs: the server's time zone (`None`: UTC) and
/// the local day of its last post.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ScheduledDaily {
    pub daily: DailyPuzzle,
    pub time_zone: Option<Tz>,
    pub last_day: Option<i64>,
}

/// One daily post.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DailyPost {
    pub guild: GuildId,
    /// The server's local day (days since 1970-01-01 in its time zone).
    pub day: i64,
    pub puzzle: i64,
    pub channel: ChannelId,
    /// The message, once Discord has it.
    pub message: Option<MessageId>,
    pub posted_at: i64,
}

fn corrupt(column: &str, why: String) -> DbError {
    DbError::Sqlx(sqlx::Error::ColumnDecode {
        index: column.into(),
        source: why.into(),
    })
}

fn read_daily(row: &super::DbRow) -> Result<DailyPuzzle, DbError> {
    let hour: i64 = row.try_get("hour")?;
    let hour = u8::try_from(hour)
        .ok()
        .filter(|h| *h < 24)
        .ok_or_else(|| corrupt("hour", format!("{hour} is not an hour")))?;
    Ok(DailyPuzzle {
        guild: row.try_get("guild_id")?,
        channel: row.try_get("channel_id")?,
        hour,
        set_by: row.try_get("set_by_user_id")?,
        exhausted: row.try_get::<Option<i64>, _>("exhausted_at")?.is_some(),
    })
}

const DAILY_COLUMNS: &str = "d.guild_id, d.channel_id, d.hour, d.set_by_user_id, d.exhausted_at";

/// The daily puzzle setting of `guild`, if it has one.
pub async fn fetch_daily_puzzle(
    ex: impl Executor<'_>,
    guild: GuildId,
) -> Result<Option<DailyPuzzle>, DbError> {
    let sql = format!("SELECT {DAILY_COLUMNS} FROM daily_puzzles d WHERE d.guild_id = $1");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(guild)
        .fetch_optional(ex)
        .await?;
    row.as_ref().map(read_daily).transpose()
}

/// Sets (or changes) the channel and hour of `guild`'s daily puzzle, chosen by `by`.
pub async fn set_daily_puzzle(
    ex: impl Executor<'_>,
    guild: GuildId,
    channel: ChannelId,
    hour: u8,
    by: UserId,
    now: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO daily_puzzles (guild_id, channel_id, hour, set_by_user_id, updated_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id,
                                              hour = excluded.hour,
                                              set_by_user_id = excluded.set_by_user_id,
                                              updated_at = excluded.updated_at",
    )
    .bind(guild)
    .bind(channel)
    .bind(i64::from(hour))
    .bind(by)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Stops `guild`'s daily puzzle: `false` when it had none. Its posts stay (a puzzle posted is
/// never posted again there).
pub async fn stop_daily_puzzle(ex: impl Executor<'_>, guild: GuildId) -> Result<bool, DbError> {
    let done = sqlx::query("DELETE FROM daily_puzzles WHERE guild_id = $1")
        .bind(guild)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Every server's daily puzzle setting, with its time zone and the day of its last post. A row
/// that cannot be read is left out (and reported once); it never stops the others.
pub async fn scheduled_daily_puzzles(
    ex: impl Executor<'_>,
) -> Result<Vec<ScheduledDaily>, DbError> {
    let sql = format!(
        "SELECT {DAILY_COLUMNS}, s.time_zone,
                (SELECT MAX(p.day) FROM daily_puzzle_posts p WHERE p.guild_id = d.guild_id) AS last_day
           FROM daily_puzzles d
           LEFT JOIN server_settings s ON s.guild_id = d.guild_id
          ORDER BY d.guild_id"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_all(ex).await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let read = || -> Result<ScheduledDaily, DbError> {
            let zone: Option<String> = row.try_get("time_zone")?;
            let time_zone = zone
                .map(|n| {
                    crate::time_control::time_zone(&n)
                        .ok_or_else(|| corrupt("time_zone", format!("`{n}` is not a time zone")))
                })
                .transpose()?;
            Ok(ScheduledDaily {
                daily: read_daily(&row)?,
                time_zone,
                last_day: row.try_get("last_day")?,
            })
        };
        match read() {
            Ok(d) => out.push(d),
            Err(e) => {
                let id = row.try_get::<i64, _>("guild_id").unwrap_or(0);
                super::report_bad_row("daily_puzzles", id, &e);
            }
        }
    }
    Ok(out)
}

/// The first puzzle (by number) never posted in `guild`, if any remains.
pub async fn next_daily_puzzle(
    ex: impl Executor<'_>,
    guild: GuildId,
) -> Result<Option<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT z.id FROM puzzles z
          WHERE z.retired_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM daily_puzzle_posts p
                             WHERE p.guild_id = $1 AND p.puzzle_id = z.id)
          ORDER BY z.id LIMIT 1",
    )
    .bind(guild)
    .fetch_optional(ex)
    .await?)
}

/// Claims the post of `post.day` in `post.guild` with its puzzle: `true` for the one caller that
/// stores it (none was made that day, and the puzzle was never posted there). The server's
/// "no puzzle left" notice is cleared with it (a later lack is told again).
pub async fn claim_daily_post(ex: &mut super::Conn, post: &DailyPost) -> Result<bool, DbError> {
    let done = sqlx::query(
        "INSERT INTO daily_puzzle_posts (guild_id, day, puzzle_id, channel_id, message_id, posted_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
    )
    .bind(post.guild)
    .bind(post.day)
    .bind(post.puzzle)
    .bind(post.channel)
    .bind(post.message)
    .bind(post.posted_at)
    .execute(&mut *ex)
    .await?;
    if done.rows_affected() != 1 {
        return Ok(false);
    }
    sqlx::query("UPDATE daily_puzzles SET exhausted_at = NULL WHERE guild_id = $1")
        .bind(post.guild)
        .execute(&mut *ex)
        .await?;
    Ok(true)
}

/// Marks `guild`'s channel as told that no unposted puzzle remains: `true` the first time only
/// (until the next post clears it).
pub async fn claim_daily_exhausted(
    ex: impl Executor<'_>,
    guild: GuildId,
    now: i64,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE daily_puzzles SET exhausted_at = $2 WHERE guild_id = $1 AND exhausted_at IS NULL",
    )
    .bind(guild)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

fn read_post(row: &super::DbRow) -> Result<DailyPost, DbError> {
    Ok(DailyPost {
        guild: row.try_get("guild_id")?,
        day: row.try_get("day")?,
        puzzle: row.try_get("puzzle_id")?,
        channel: row.try_get("channel_id")?,
        message: row.try_get("message_id")?,
        posted_at: row.try_get("posted_at")?,
    })
}

/// `guild`'s last daily post before local day `day`, if any.
pub async fn daily_post_before(
    ex: impl Executor<'_>,
    guild: GuildId,
    day: i64,
) -> Result<Option<DailyPost>, DbError> {
    let row = sqlx::query(
        "SELECT guild_id, day, puzzle_id, channel_id, message_id, posted_at
           FROM daily_puzzle_posts WHERE guild_id = $1 AND day < $2
          ORDER BY day DESC LIMIT 1",
    )
    .bind(guild)
    .bind(day)
    .fetch_optional(ex)
    .await?;
    row.as_ref().map(read_post).transpose()
}

/// `guild`'s daily post of puzzle `puzzle`, if it was posted there.
pub async fn daily_post_of(
    ex: impl Executor<'_>,
    guild: GuildId,
    puzzle: i64,
) -> Result<Option<DailyPost>, DbError> {
    let row = sqlx::query(
        "SELECT guild_id, day, puzzle_id, channel_id, message_id, posted_at
           FROM daily_puzzle_posts WHERE guild_id = $1 AND puzzle_id = $2",
    )
    .bind(guild)
    .bind(puzzle)
    .fetch_optional(ex)
    .await?;
    row.as_ref().map(read_post).transpose()
}

/// Stores the message of `guild`'s post of local day `day`, once Discord has it.
pub async fn set_daily_post_message(
    ex: impl Executor<'_>,
    guild: GuildId,
    day: i64,
    message: MessageId,
) -> Result<(), DbError> {
    sqlx::query("UPDATE daily_puzzle_posts SET message_id = $3 WHERE guild_id = $1 AND day = $2")
        .bind(guild)
        .bind(day)
        .bind(message)
        .execute(ex)
        .await?;
    Ok(())
}

/// The members who solved puzzle `puzzle` in `guild`'s pool with a first attempt started at or
/// after `since` (its daily post), in the order they solved it.
pub async fn daily_solvers(
    ex: impl Executor<'_>,
    guild: GuildId,
    puzzle: i64,
    since: i64,
) -> Result<Vec<UserId>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT player_id FROM puzzle_attempts
          WHERE guild_id = $1 AND puzzle_id = $2 AND status = 'solved' AND started_at >= $3
          ORDER BY finished_at, id",
    )
    .bind(guild)
    .bind(puzzle)
    .bind(since)
    .fetch_all(ex)
    .await?)
}

/// `user`'s attempt at puzzle `puzzle` (their first, the only one), if they made one.
pub async fn attempt_at(
    ex: impl Executor<'_>,
    puzzle: i64,
    user: UserId,
) -> Result<Option<super::AttemptRow>, DbError> {
    let rows = sqlx::query("SELECT * FROM puzzle_attempts WHERE puzzle_id = $1 AND player_id = $2")
        .bind(puzzle)
        .bind(user)
        .fetch_all(ex)
        .await?;
    Ok(super::decode_each("puzzle_attempts", &rows).pop())
}

#[cfg(test)]
mod tests;

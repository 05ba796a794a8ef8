//! Where a game is shown and who hears of it: its thread, the message with its current board, why
//! its posts cannot reach its channel, and its followers.

use super::{ChannelId, Conn, DbError, Executor, MessageId, UserId};

/// Records the thread where a game is played (`None`: back to its channel).
pub async fn set_game_thread(
    ex: impl Executor<'_>,
    game: i64,
    thread: Option<ChannelId>,
) -> Result<(), DbError> {
    sqlx::query("UPDATE games SET thread_id = $2 WHERE id = $1")
        .bind(game)
        .bind(thread)
        .execute(ex)
        .await?;
    Ok(())
}

/// The game played in thread `channel`, if it is a game's thread.
pub async fn game_of_thread(
    ex: impl Executor<'_>,
    channel: ChannelId,
) -> Result<Option<i64>, DbError> {
    Ok(
        sqlx::query_scalar("SELECT id FROM games WHERE thread_id = $1")
            .bind(channel)
            .fetch_optional(ex)
            .await?,
    )
}

/// Remembers the message that shows the game's current board (posted where it belongs, so any
/// delivery fault is over).
pub async fn set_board_message(
    ex: impl Executor<'_>,
    game: i64,
    message_id: MessageId,
) -> Result<(), DbError> {
    sqlx::query("UPDATE games SET board_message_id = $2, delivery_fault = NULL WHERE id = $1")
        .bind(game)
        .bind(message_id)
        .execute(ex)
        .await?;
    Ok(())
}

/// Records (or clears, with `None`) why a game's announcements cannot reach its channel.
pub async fn set_delivery_fault(
    ex: impl Executor<'_>,
    game: i64,
    fault: Option<&str>,
) -> Result<(), DbError> {
    sqlx::query("UPDATE games SET delivery_fault = $2 WHERE id = $1")
        .bind(game)
        .bind(fault)
        .execute(ex)
        .await?;
    Ok(())
}

/// `user` starts following game `game` (`true`), or stops when they already did (`false`).
pub async fn toggle_follow(
    conn: &mut Conn,
    game: i64,
    user: UserId,
    now: i64,
) -> Result<bool, DbError> {
    let stopped = sqlx::query("DELETE FROM followers WHERE game_id = $1 AND user_id = $2")
        .bind(game)
        .bind(user)
        .execute(&mut *conn)
        .await?;
    if stopped.rows_affected() > 0 {
        return Ok(false);
    }
    // Two presses at the same moment both mean "follow": the second finds the row there.
    sqlx::query(
        "INSERT INTO followers (game_id, user_id, since) VALUES ($1, $2, $3)
         ON CONFLICT (game_id, user_id) DO NOTHING",
    )
    .bind(game)
    .bind(user)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(true)
}

/// The members following game `game`, longest first.
pub async fn followers_of(ex: impl Executor<'_>, game: i64) -> Result<Vec<UserId>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT user_id FROM followers WHERE game_id = $1 ORDER BY since, user_id",
    )
    .bind(game)
    .fetch_all(ex)
    .await?)
}

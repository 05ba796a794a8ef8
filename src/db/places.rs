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

/// Makes message `message`, a board of game `game` just posted, the game's board, unless a later
/// board is already (Discord's message ids grow with time, so the later post has the greater
/// id); a post made, the game's delivery fault is over either way. Returns the board that is no
/// longer current, whose buttons must be taken off, with the game's thread: the one replaced,
/// or `message` itself when a later board was posted first (a slow answer from Discord). Call it
/// in the transaction that marks the post sent, after a write (on SQLite the transaction then
/// holds the write lock); on PostgreSQL the game's row is locked until the end of it, so two
/// posts of one game ending at once see each other.
pub async fn take_board_place(
    conn: &mut Conn,
    game: i64,
    message: MessageId,
) -> Result<Option<(MessageId, Option<ChannelId>)>, DbError> {
    let lock = match super::backend_of(conn) {
        super::Backend::Postgres => " FOR UPDATE",
        super::Backend::Sqlite => "",
    };
    let sql = format!("SELECT board_message_id, thread_id FROM games WHERE id = $1{lock}");
    let row: Option<(Option<MessageId>, Option<ChannelId>)> =
        sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(game)
            .fetch_optional(&mut *conn)
            .await?;
    let Some((current, thread)) = row else {
        return Ok(None);
    };
    let newest = current.is_none_or(|c| c.0 < message.0);
    if newest {
        set_board_message(&mut *conn, game, message).await?;
    } else {
        set_delivery_fault(&mut *conn, game, None).await?;
    }
    Ok(match current {
        Some(c) if c == message => None,
        Some(c) if newest => Some((c, thread)),
        None => None,
        Some(_) => Some((message, thread)),
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::games::game_with_players;
    use crate::db::testing::both_backends;
    use crate::db::{fetch_game, set_delivery_fault};

    both_backends! {
        async fn only_the_latest_board_takes_the_games_place(pool) {
            let id = game_with_players(&pool).await;
            let mut conn = pool.acquire().await.unwrap();
            // The first board: nothing to take off.
            assert_eq!(take_board_place(&mut conn, id, MessageId(100)).await.unwrap(), None);
            // A later one replaces it, and a fault noted meanwhile is over.
            set_delivery_fault(&pool, id, Some("missing access")).await.unwrap();
            assert_eq!(take_board_place(&mut conn, id, MessageId(200)).await.unwrap(), Some((MessageId(100), None)));
            let row = fetch_game(&pool, id).await.unwrap().unwrap();
            assert_eq!(row.board_message_id, Some(MessageId(200)));
            assert_eq!(row.delivery_fault, None);
            // Discord's answer to an earlier post comes after the later one's: the later stays
            // the game's board, and the earlier one is the board to take the buttons off.
            set_game_thread(&pool, id, Some(ChannelId(9))).await.unwrap();
            assert_eq!(
                take_board_place(&mut conn, id, MessageId(150)).await.unwrap(),
                Some((MessageId(150), Some(ChannelId(9))))
            );
            assert_eq!(
                fetch_game(&pool, id).await.unwrap().unwrap().board_message_id,
                Some(MessageId(200))
            );
            // The same post stored twice: nothing to take off.
            assert_eq!(take_board_place(&mut conn, id, MessageId(200)).await.unwrap(), None);
            // No such game.
            assert_eq!(take_board_place(&mut conn, id + 1, MessageId(300)).await.unwrap(), None);
        }
    }
}

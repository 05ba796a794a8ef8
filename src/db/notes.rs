//! What a member keeps on a game for their eyes alone: private notes ([`crate::play::notes`]
//! decides who may keep them and how long they may be), one text per member and game; and a
//! player's conditional moves ([`crate::play::plans`]), one tree per player and game.

use super::{DbError, Executor, UserId};

/// `user`'s notes on game `game`, if they keep any.
pub async fn fetch_note(
    ex: impl Executor<'_>,
    game: i64,
    user: UserId,
) -> Result<Option<String>, DbError> {
    Ok(
        sqlx::query_scalar("SELECT body FROM game_notes WHERE game_id = $1 AND user_id = $2")
            .bind(game)
            .bind(user)
            .fetch_optional(ex)
            .await?,
    )
}

/// Stores `body` as `user`'s notes on game `game` (replacing what they had); an empty `body`
/// deletes them.
pub async fn store_note(
    ex: impl Executor<'_>,
    game: i64,
    user: UserId,
    body: &str,
    now: i64,
) -> Result<(), DbError> {
    if body.is_empty() {
        sqlx::query("DELETE FROM game_notes WHERE game_id = $1 AND user_id = $2")
            .bind(game)
            .bind(user)
            .execute(ex)
            .await?;
        return Ok(());
    }
    sqlx::query(
        "INSERT INTO game_notes (game_id, user_id, body, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (game_id, user_id) DO UPDATE SET body = excluded.body,
                                                     updated_at = excluded.updated_at",
    )
    .bind(game)
    .bind(user)
    .bind(body)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Is `user` following game `game`?
pub async fn is_following(ex: impl Executor<'_>, game: i64, user: UserId) -> Result<bool, DbError> {
    let n: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM followers WHERE game_id = $1 AND user_id = $2")
            .bind(game)
            .bind(user)
            .fetch_one(ex)
            .await?;
    Ok(n > 0)
}

/// `user`'s conditional moves in game `game`: the number of moves of the position they start
/// from, and their lines as stored (JSON), if they keep any.
pub async fn fetch_plans(
    ex: impl Executor<'_>,
    game: i64,
    user: UserId,
) -> Result<Option<(i64, String)>, DbError> {
    Ok(sqlx::query_as(
        "SELECT at_ply, lines FROM conditional_moves WHERE game_id = $1 AND user_id = $2",
    )
    .bind(game)
    .bind(user)
    .fetch_optional(ex)
    .await?)
}

/// Stores `lines` (JSON) as `user`'s conditional moves in game `game` from ply `at_ply`,
/// replacing theirs; `None` deletes them.
pub async fn store_plans(
    ex: impl Executor<'_>,
    game: i64,
    user: UserId,
    plans: Option<(i64, &str)>,
    now: i64,
) -> Result<(), DbError> {
    let Some((at_ply, lines)) = plans else {
        sqlx::query("DELETE FROM conditional_moves WHERE game_id = $1 AND user_id = $2")
            .bind(game)
            .bind(user)
            .execute(ex)
            .await?;
        return Ok(());
    };
    sqlx::query(
        "INSERT INTO conditional_moves (game_id, user_id, at_ply, lines, updated_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (game_id, user_id) DO UPDATE SET at_ply = excluded.at_ply,
                                                     lines = excluded.lines,
                                                     updated_at = excluded.updated_at",
    )
    .bind(game)
    .bind(user)
    .bind(at_ply)
    .bind(lines)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Deletes every conditional move of game `game` (both players'): after a takeback they answer
/// positions that no longer come.
pub async fn clear_game_plans(ex: impl Executor<'_>, game: i64) -> Result<(), DbError> {
    sqlx::query("DELETE FROM conditional_moves WHERE game_id = $1")
        .bind(game)
        .execute(ex)
        .await?;
    Ok(())
}

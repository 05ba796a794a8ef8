//! The web board's private links: each stored as the hash of its token, with its game and
//! player, and the links to a member's inbox, with their member ([`crate::web`] makes and checks
//! the tokens).

use super::{DbError, Executor, UserId};

/// Stores a link's token hash for `user` in game `game`.
pub async fn insert_web_token(
    ex: impl Executor<'_>,
    hash: &str,
    game: i64,
    user: UserId,
    now: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO web_tokens (hash, game_id, user_id, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(hash)
    .bind(game)
    .bind(user)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// The game and player of the link whose token has this hash, if there is one.
pub async fn web_token_holder(
    ex: impl Executor<'_>,
    hash: &str,
) -> Result<Option<(i64, UserId)>, DbError> {
    Ok(
        sqlx::query_as("SELECT game_id, user_id FROM web_tokens WHERE hash = $1")
            .bind(hash)
            .fetch_optional(ex)
            .await?,
    )
}

/// Deletes the links of games no longer active (they refuse every request anyway); returns how
/// many.
pub async fn delete_ended_web_tokens(ex: impl Executor<'_>) -> Result<u64, DbError> {
    let done = sqlx::query(
        "DELETE FROM web_tokens WHERE game_id IN
           (SELECT id FROM games WHERE status <> 'active')",
    )
    .execute(ex)
    .await?;
    Ok(done.rows_affected())
}

/// Stores an inbox link's token hash for `user`.
pub async fn insert_inbox_token(
    ex: impl Executor<'_>,
    hash: &str,
    user: UserId,
    now: i64,
) -> Result<(), DbError> {
    sqlx::query("INSERT INTO inbox_tokens (hash, user_id, created_at) VALUES ($1, $2, $3)")
        .bind(hash)
        .bind(user)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

/// The member of the inbox link whose token has this hash, with when it was made, if there is
/// one.
pub async fn inbox_token_holder(
    ex: impl Executor<'_>,
    hash: &str,
) -> Result<Option<(UserId, i64)>, DbError> {
    Ok(
        sqlx::query_as("SELECT user_id, created_at FROM inbox_tokens WHERE hash = $1")
            .bind(hash)
            .fetch_optional(ex)
            .await?,
    )
}

/// Deletes the inbox links made before `before`; returns how many.
pub async fn delete_inbox_tokens_before(
    ex: impl Executor<'_>,
    before: i64,
) -> Result<u64, DbError> {
    let done = sqlx::query("DELETE FROM inbox_tokens WHERE created_at < $1")
        .bind(before)
        .execute(ex)
        .await?;
    Ok(done.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::both_backends;

    both_backends! {
        async fn a_token_hash_names_its_game_and_player(pool) {
            let id = crate::db::games::game_with_players(&pool).await;
            insert_web_token(&pool, "abc", id, UserId(5), 1).await.unwrap();
            assert_eq!(web_token_holder(&pool, "abc").await.unwrap(), Some((id, UserId(5))));
            assert_eq!(web_token_holder(&pool, "abd").await.unwrap(), None);
            assert_eq!(delete_ended_web_tokens(&pool).await.unwrap(), 0);
            sqlx::query("UPDATE games SET status = 'aborted' WHERE id = $1")
                .bind(id)
                .execute(&pool)
                .await
                .unwrap();
            assert_eq!(delete_ended_web_tokens(&pool).await.unwrap(), 1);
            assert_eq!(web_token_holder(&pool, "abc").await.unwrap(), None);
        }
    }

    both_backends! {
        async fn an_inbox_token_hash_names_its_member_until_deleted(pool) {
            insert_inbox_token(&pool, "in1", UserId(7), 100).await.unwrap();
            insert_inbox_token(&pool, "in2", UserId(8), 200).await.unwrap();
            assert_eq!(inbox_token_holder(&pool, "in1").await.unwrap(), Some((UserId(7), 100)));
            assert_eq!(inbox_token_holder(&pool, "in3").await.unwrap(), None);
            assert_eq!(delete_inbox_tokens_before(&pool, 150).await.unwrap(), 1);
            assert_eq!(inbox_token_holder(&pool, "in1").await.unwrap(), None);
            assert_eq!(inbox_token_holder(&pool, "in2").await.unwrap(), Some((UserId(8), 200)));
        }
    }
}

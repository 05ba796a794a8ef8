//! Games listed for a member: their active games in a channel or a server, and their finished
//! games. Unreadable rows are reported and left out.

use super::{decode_each, ChannelId, DbError, Executor, GameRow, GuildId, UserId};

/// Active games of `user` in `channel` (or in their thread `channel`), oldest first. Unreadable rows are reported and left out.
pub async fn active_games_in_channel(
    ex: impl Executor<'_>,
    channel: ChannelId,
    user: UserId,
) -> Result<Vec<GameRow>, DbError> {
    let rows = sqlx::query(
        "SELECT * FROM games WHERE status = 'active' AND (channel_id = $1 OR thread_id = $1)
           AND (first_player_id = $2 OR second_player_id = $2) ORDER BY id",
    )
    .bind(channel)
    .bind(user)
    .fetch_all(ex)
    .await?;
    Ok(decode_each("games", &rows))
}

/// Active games of `user` in a server (or, without one, anywhere), oldest first. Unreadable rows
/// are reported and left out.
pub async fn active_games_of(
    ex: impl Executor<'_>,
    guild: Option<GuildId>,
    user: UserId,
) -> Result<Vec<GameRow>, DbError> {
    let rows = sqlx::query(
        "SELECT * FROM games WHERE status = 'active'
           AND ($1 IS NULL OR guild_id = $1)
           AND (first_player_id = $2 OR second_player_id = $2) ORDER BY id",
    )
    .bind(guild)
    .bind(user)
    .fetch_all(ex)
    .await?;
    Ok(decode_each("games", &rows))
}

/// The games of `channel` outside servers, in play first, then the most recent: the local
/// page's list ([`crate::play::local`]). At most `limit`.
pub async fn games_in_channel(
    ex: impl Executor<'_>,
    channel: ChannelId,
    limit: i64,
) -> Result<Vec<GameRow>, DbError> {
    let rows = sqlx::query(
        "SELECT * FROM games WHERE channel_id = $1 AND guild_id IS NULL
         ORDER BY CASE WHEN status = 'active' THEN 0 ELSE 1 END, updated_at DESC, id DESC
         LIMIT $2",
    )
    .bind(channel)
    .bind(limit)
    .fetch_all(ex)
    .await?;
    Ok(decode_each("games", &rows))
}

/// Finished games of `user` in a server (or, for [`crate::play::chats::RATINGS`], outside
/// servers), the most recent first.
pub async fn recent_games_of(
    ex: impl Executor<'_>,
    guild: GuildId,
    user: UserId,
    limit: i64,
) -> Result<Vec<GameRow>, DbError> {
    let (pool, scope) = pool_condition(guild);
    let sql = format!(
        "SELECT g.* FROM games g WHERE g.status = 'finished' AND {pool}
           AND (g.first_player_id = $2 OR g.second_player_id = $2)
         ORDER BY g.finished_at DESC, g.id DESC LIMIT $3"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(scope)
        .bind(user)
        .bind(limit)
        .fetch_all(ex)
        .await?;
    Ok(decode_each("games", &rows))
}

/// The games of a ratings pool as an SQL condition on `games g` with its parameter `$1`: a
/// server's games, or (the pool [`crate::play::chats::RATINGS`]) those stored without a server,
/// local games aside.
pub(super) fn pool_condition(guild: GuildId) -> (&'static str, i64) {
    match guild == crate::play::chats::RATINGS {
        true => (
            "g.guild_id IS NULL AND g.channel_id <> $1",
            super::ids::to_db(crate::play::local::CHANNEL.0),
        ),
        false => ("g.guild_id = $1", super::ids::to_db(guild.0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::games::game_with_players;
    use crate::db::testing::both_backends;
    use crate::db::{fetch_game, set_board_message, MessageId};

    both_backends! {
        async fn active_games_are_found_by_channel_and_server(pool) {
            let id = game_with_players(&pool).await;
            let ids = |v: Vec<GameRow>| v.into_iter().map(|g| g.id).collect::<Vec<_>>();
            assert_eq!(
                ids(
                    active_games_in_channel(&pool, ChannelId(6), UserId(u64::MAX))
                        .await
                        .unwrap()
                ),
                [id]
            );
            assert!(active_games_in_channel(&pool, ChannelId(7), UserId(1))
                .await
                .unwrap()
                .is_empty());
            assert_eq!(
                ids(active_games_of(&pool, Some(GuildId(5)), UserId(1))
                    .await
                    .unwrap()),
                [id]
            );
            assert_eq!(
                ids(active_games_of(&pool, None, UserId(1)).await.unwrap()),
                [id]
            );
            assert!(active_games_of(&pool, Some(GuildId(4)), UserId(1))
                .await
                .unwrap()
                .is_empty());
            set_board_message(&pool, id, MessageId(u64::MAX - 1))
                .await
                .unwrap();
            let row = fetch_game(&pool, id).await.unwrap().unwrap();
            assert_eq!(row.board_message_id, Some(MessageId(u64::MAX - 1)));
            assert_eq!(row.players, [UserId(1), UserId(u64::MAX)]);
        }
    }
}

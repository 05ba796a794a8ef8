//! Blocks and the pool across servers: a member blocks another (`/block`), who is then never
//! matched with them, nor challenges them nor takes their challenge or seek; moderators keep
//! their server out of the pool where seeks are matched across servers (`/seeks`).

use super::Executor;

use super::{DbError, GuildId, UserId};

/// `user` blocks `blocked` from now on (`false`: they had already).
pub async fn block(
    ex: impl Executor<'_>,
    user: UserId,
    blocked: UserId,
    now: i64,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "INSERT INTO blocks (user_id, blocked_user_id, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, blocked_user_id) DO NOTHING",
    )
    .bind(user)
    .bind(blocked)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// `user` no longer blocks `blocked` (`false`: they did not).
pub async fn unblock(
    ex: impl Executor<'_>,
    user: UserId,
    blocked: UserId,
) -> Result<bool, DbError> {
    let done = sqlx::query("DELETE FROM blocks WHERE user_id = $1 AND blocked_user_id = $2")
        .bind(user)
        .bind(blocked)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Whether either of `a` and `b` blocks the other.
pub async fn blocked_between(ex: impl Executor<'_>, a: UserId, b: UserId) -> Result<bool, DbError> {
    let n: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM blocks
          WHERE (user_id = $1 AND blocked_user_id = $2) OR (user_id = $2 AND blocked_user_id = $1)",
    )
    .bind(a)
    .bind(b)
    .fetch_one(ex)
    .await?;
    Ok(n > 0)
}

/// The members `user` blocks, the latest first.
pub async fn blocked_by(ex: impl Executor<'_>, user: UserId) -> Result<Vec<UserId>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT blocked_user_id FROM blocks WHERE user_id = $1
          ORDER BY created_at DESC, blocked_user_id",
    )
    .bind(user)
    .fetch_all(ex)
    .await?)
}

/// Whether server `guild`'s moderators keep it out of the pool across servers.
pub async fn pool_closed(ex: impl Executor<'_>, guild: GuildId) -> Result<bool, DbError> {
    let closed: Option<i64> =
        sqlx::query_scalar("SELECT pool_closed FROM server_settings WHERE guild_id = $1")
            .bind(guild)
            .fetch_optional(ex)
            .await?;
    Ok(closed.is_some_and(|c| c != 0))
}

/// Keeps server `guild` out of the pool across servers (`closed`), or lets it in.
pub async fn set_pool_closed(
    ex: impl Executor<'_>,
    guild: GuildId,
    closed: bool,
    now: i64,
) -> Result<(), DbError> {
    use super::servers::{set_column, Column};
    set_column(ex, guild, Column::PoolClosed, i64::from(closed), now).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::both_backends;
    use crate::db::{
        insert_seek, open_seeks, open_seeks_anywhere, upsert_player, ChannelId, NewSeek, SeeksOf,
    };
    use crate::games::Options;

    both_backends! {
        async fn blocks_hold_both_ways_and_closed_servers_leave_the_pool(pool) {
            let (ann, bob, cat) = (UserId(u64::MAX - 1), UserId(2), UserId(3));
            for p in [ann, bob, cat] {
                upsert_player(&pool, p, "p", 0).await.unwrap();
            }
            assert!(!blocked_between(&pool, ann, bob).await.unwrap());
            assert!(block(&pool, ann, bob, 10).await.unwrap());
            assert!(!block(&pool, ann, bob, 11).await.unwrap(), "once");
            assert!(block(&pool, ann, cat, 12).await.unwrap());
            assert!(blocked_between(&pool, ann, bob).await.unwrap());
            assert!(blocked_between(&pool, bob, ann).await.unwrap(), "both ways");
            assert!(!blocked_between(&pool, bob, cat).await.unwrap());
            assert_eq!(blocked_by(&pool, ann).await.unwrap(), [cat, bob]);
            assert!(unblock(&pool, ann, bob).await.unwrap());
            assert!(!unblock(&pool, ann, bob).await.unwrap());
            assert!(!blocked_between(&pool, bob, ann).await.unwrap());

            // Seeks across servers: those made to be, of other servers that stay in.
            let (here, there, closed) = (GuildId(u64::MAX - 5), GuildId(6), GuildId(7));
            let v = vec![Options::parse_line("inphexion size=9").unwrap()];
            let seek = |guild, player, anywhere| NewSeek {
                guild_id: guild,
                channel_id: ChannelId(8),
                player_id: player,
                variants: &v,
                days: 1..=3,
                rated: true,
                now: 100,
                expires_at: 200,
                standing_id: None,
                anywhere,
            };
            let local = insert_seek(&pool, &seek(there, bob, false)).await.unwrap();
            let open = insert_seek(&pool, &seek(there, cat, true)).await.unwrap();
            let shut = insert_seek(&pool, &seek(closed, cat, true)).await.unwrap();
            let own = insert_seek(&pool, &seek(here, ann, true)).await.unwrap();
            set_pool_closed(&pool, closed, true, 5).await.unwrap();
            assert!(pool_closed(&pool, closed).await.unwrap());
            assert!(!pool_closed(&pool, there).await.unwrap(), "in by default");
            let ids = |v: Vec<crate::db::Seek>| v.iter().map(|s| s.id).collect::<Vec<_>>();
            assert_eq!(ids(open_seeks_anywhere(&pool, here, 150).await.unwrap()), [open]);
            assert_eq!(ids(open_seeks_anywhere(&pool, there, 150).await.unwrap()), [own]);
            assert!(open_seeks_anywhere(&pool, here, 200).await.unwrap().is_empty(), "expired");
            set_pool_closed(&pool, closed, false, 6).await.unwrap();
            assert_eq!(ids(open_seeks_anywhere(&pool, here, 150).await.unwrap()), [open, shut]);
            let theirs = open_seeks(&pool, SeeksOf::Server(there), 150).await.unwrap();
            assert_eq!(ids(theirs), [local, open]);
            assert!(crate::db::fetch_seek(&pool, open).await.unwrap().unwrap().anywhere);
        }
    }
}

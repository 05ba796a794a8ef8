//! Games against the bot: the level it plays at.

use super::{Conn, Executor};

use super::DbError;
use crate::ai::Level;

/// Marks game `game` as played by the bot at `level` (`easy`, `medium` or `hard`), and takes
/// away its clock: games against the bot have no deadlines.
pub async fn insert_bot_game(conn: &mut Conn, game: i64, level: Level) -> Result<(), DbError> {
    sqlx::query("INSERT INTO bot_games (game_id, level) VALUES ($1, $2)")
        .bind(game)
        .bind(level.name())
        .execute(&mut *conn)
        .await?;
    sqlx::query("UPDATE games SET deadline_at = NULL WHERE id = $1")
        .bind(game)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// The level the bot plays at in `game`; `None` when the game is between two members.
pub async fn fetch_bot_level(ex: impl Executor<'_>, game: i64) -> Result<Option<Level>, DbError> {
    let level: Option<String> =
        sqlx::query_scalar("SELECT level FROM bot_games WHERE game_id = $1")
            .bind(game)
            .fetch_optional(ex)
            .await?;
    level
        .map(|l| {
            l.parse()
                .map_err(|why: String| DbError::Corrupt { game, why })
        })
        .transpose()
}

/// Active games against the bot, oldest first (to resume after a restart).
pub async fn active_bot_games(ex: impl Executor<'_>) -> Result<Vec<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT g.id FROM games g JOIN bot_games b ON b.game_id = g.id
          WHERE g.status = 'active' ORDER BY g.id",
    )
    .fetch_all(ex)
    .await?)
}

/// How many active games `user` has against the bot.
pub async fn count_active_bot_games(
    ex: impl Executor<'_>,
    user: super::UserId,
) -> Result<i64, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT count(*) FROM games g JOIN bot_games b ON b.game_id = g.id
          WHERE g.status = 'active' AND (g.first_player_id = $1 OR g.second_player_id = $1)",
    )
    .bind(user)
    .fetch_one(ex)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use crate::ai::Level;
    use crate::db::testing::both_backends;
    use crate::games::{Colour, Outcome, Reason};

    both_backends! {
        async fn bot_games_keep_their_level_and_are_found_while_active(pool) {
            let now = 1_700_000_000;
            upsert_player(&pool, UserId(1), "ann", now)
                .await
                .expect("player");
            upsert_player(&pool, UserId(2), "hexcord", now)
                .await
                .expect("bot");
            let mut ids = Vec::new();
            for _ in 0..2 {
                let id = insert_game(
                    &pool,
                    &NewGame {
                        guild_id: Some(GuildId(5)),
                        channel_id: ChannelId(6),
                        options: &crate::games::Options::parse_line("inphexion size=5").unwrap(),
                        players: [UserId(1), UserId(2)],
                        rated: false,
                        now,
                        seconds_per_move: 86_400,
                        deadline_at: Some(now + 86_400),
                    },
                )
                .await
                .expect("game");
                ids.push(id);
            }
            let mut conn = pool.acquire().await.expect("connection");
            insert_bot_game(&mut conn, ids[0], Level::Hard)
                .await
                .expect("bot game");
            let row = fetch_game(&pool, ids[0]).await.expect("row").expect("game");
            assert_eq!(row.deadline_at, None, "no clock against the bot");
            assert_eq!(
                fetch_bot_level(&pool, ids[0]).await.expect("level"),
                Some(Level::Hard)
            );
            assert_eq!(fetch_bot_level(&pool, ids[1]).await.expect("level"), None);
            assert_eq!(active_bot_games(&pool).await.expect("active"), vec![ids[0]]);
            assert_eq!(
                count_active_bot_games(&pool, UserId(1))
                    .await
                    .expect("count"),
                1
            );
            // A level the bot does not know is reported, not guessed.
            sqlx::query("UPDATE bot_games SET level = 'grandmaster' WHERE game_id = $1")
                .bind(ids[0])
                .execute(&mut *conn)
                .await
                .expect_err("the schema allows only the three levels");
            drop(conn);
            let finish = Finish {
                kind: crate::games::GameKind::Inphexion,
                result: GameResult::Decided(Outcome::win(Colour::First, Reason::Connection)),
                winner_id: Some(UserId(1)),
            };
            finish_game(&pool, ids[0], 0, &finish, now)
                .await
                .expect("finish");
            assert!(active_bot_games(&pool).await.expect("active").is_empty());
            assert_eq!(
                count_active_bot_games(&pool, UserId(1))
                    .await
                    .expect("count"),
                0
            );
        }
    }
}

//! Games against the bot: the level it plays at.

use super::{Conn, Executor};

use super::DbError;
use crate::ai::Level;
use crate::games::GameKind;

/// Marks game `game` as played by the bot at `level` ([`Level::name`]), coached or not (its
/// member may ask for hints), and takes away its clock: games against the bot have no deadlines.
pub async fn insert_bot_game(
    conn: &mut Conn,
    game: i64,
    level: Level,
    coached: bool,
) -> Result<(), DbError> {
    sqlx::query("INSERT INTO bot_games (game_id, level, coached) VALUES ($1, $2, $3)")
        .bind(game)
        .bind(level.name())
        .bind(i64::from(coached))
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

/// Whether `game` is a coached game against the bot (`false` for any other game).
pub async fn is_coached(ex: impl Executor<'_>, game: i64) -> Result<bool, DbError> {
    let coached: Option<i64> =
        sqlx::query_scalar("SELECT coached FROM bot_games WHERE game_id = $1")
            .bind(game)
            .fetch_optional(ex)
            .await?;
    Ok(coached.is_some_and(|c| c != 0))
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

/// A member's finished games against the bot in one game at one level, in a ratings pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotRecord {
    pub kind: GameKind,
    pub level: Level,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
}

/// `user`'s results against the bot in a server (or, for [`crate::play::chats::RATINGS`],
/// outside servers), per game and level, in [`GameKind::ALL`] and [`Level::ALL`] order. A row
/// whose game or level cannot be read is reported and left out.
pub async fn bot_record_of(
    ex: impl Executor<'_>,
    guild: super::GuildId,
    user: super::UserId,
) -> Result<Vec<BotRecord>, DbError> {
    use sqlx::Row;
    let (pool, scope) = super::listings::pool_condition(guild);
    let sql = format!(
        "SELECT g.id, g.options, g.winner_id, b.level FROM games g
           JOIN bot_games b ON b.game_id = g.id
          WHERE g.status = 'finished' AND {pool}
            AND (g.first_player_id = $2 OR g.second_player_id = $2)"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(scope)
        .bind(user)
        .fetch_all(ex)
        .await?;
    let mut records: Vec<BotRecord> = Vec::new();
    for row in &rows {
        let game: i64 = row.try_get("id")?;
        let read = || -> Result<(GameKind, Level, Option<super::UserId>), String> {
            let options: String = row.try_get("options").map_err(|e| e.to_string())?;
            let kind = crate::games::Options::parse_line(&options)
                .map_err(|e| e.to_string())?
                .kind();
            let level: String = row.try_get("level").map_err(|e| e.to_string())?;
            let winner: Option<super::UserId> =
                row.try_get("winner_id").map_err(|e| e.to_string())?;
            Ok((kind, level.parse()?, winner))
        };
        let (kind, level, winner) = match read() {
            Ok(r) => r,
            Err(why) => {
                super::report_bad_row("games", game, &why);
                continue;
            }
        };
        let i = match records
            .iter()
            .position(|r| r.kind == kind && r.level == level)
        {
            Some(i) => i,
            None => {
                records.push(BotRecord {
                    kind,
                    level,
                    wins: 0,
                    losses: 0,
                    draws: 0,
                });
                records.len() - 1
            }
        };
        let r = &mut records[i];
        match winner {
            Some(w) if w == user => r.wins += 1,
            Some(_) => r.losses += 1,
            None => r.draws += 1,
        }
    }
    let order = |r: &BotRecord| {
        (
            GameKind::ALL.iter().position(|&k| k == r.kind),
            Level::ALL.iter().position(|&l| l == r.level),
        )
    };
    records.sort_by_key(order);
    Ok(records)
}

/// Claims the bot's turn in game `game` until `until_ms` (Unix milliseconds), unless another
/// claim holds at `now_ms`; returns whether this caller has it. One process searches a turn;
/// the claim of a process that died runs out and another takes the turn.
pub async fn claim_bot_turn(
    ex: impl Executor<'_>,
    game: i64,
    now_ms: i64,
    until_ms: i64,
) -> Result<bool, DbError> {
    let claimed = sqlx::query(
        "UPDATE bot_games SET claimed_until = $3
          WHERE game_id = $1 AND (claimed_until IS NULL OR claimed_until <= $2)",
    )
    .bind(game)
    .bind(now_ms)
    .bind(until_ms)
    .execute(ex)
    .await?;
    Ok(claimed.rows_affected() == 1)
}

/// Gives back the claim on the bot's turn in game `game` that holds until `until_ms` (the
/// caller's own: a claim that ran out and was taken by another is left alone).
pub async fn release_bot_turn(
    ex: impl Executor<'_>,
    game: i64,
    until_ms: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "UPDATE bot_games SET claimed_until = NULL WHERE game_id = $1 AND claimed_until = $2",
    )
    .bind(game)
    .bind(until_ms)
    .execute(ex)
    .await?;
    Ok(())
}

/// Active games against the bot (`bot`) where it is to move and no claim holds at `now_ms`.
pub async fn bot_turns_due(
    ex: impl Executor<'_>,
    bot: super::UserId,
    now_ms: i64,
) -> Result<Vec<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT g.id FROM games g JOIN bot_games b ON b.game_id = g.id
          WHERE g.status = 'active' AND g.to_move_id = $1
            AND (b.claimed_until IS NULL OR b.claimed_until <= $2)
          ORDER BY g.id",
    )
    .bind(bot)
    .bind(now_ms)
    .fetch_all(ex)
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
                        clock: None,
                    },
                )
                .await
                .expect("game");
                ids.push(id);
            }
            let mut conn = pool.acquire().await.expect("connection");
            insert_bot_game(&mut conn, ids[0], Level::Hard, true)
                .await
                .expect("bot game");
            let row = fetch_game(&pool, ids[0]).await.expect("row").expect("game");
            assert_eq!(row.deadline_at, None, "no clock against the bot");
            assert_eq!(
                fetch_bot_level(&pool, ids[0]).await.expect("level"),
                Some(Level::Hard)
            );
            assert_eq!(fetch_bot_level(&pool, ids[1]).await.expect("level"), None);
            // Coached, and only that game.
            assert!(is_coached(&pool, ids[0]).await.expect("coached"));
            assert!(!is_coached(&pool, ids[1]).await.expect("not a bot game"));
            // Found while active (the member, the first seat, is to move).
            assert_eq!(
                bot_turns_due(&pool, UserId(1), 0).await.expect("active"),
                vec![ids[0]]
            );
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
                .expect_err("the schema allows only the bot's levels");
            // Every level is stored and read back.
            for level in Level::ALL {
                sqlx::query("UPDATE bot_games SET level = $1 WHERE game_id = $2")
                    .bind(level.name())
                    .bind(ids[0])
                    .execute(&mut *conn)
                    .await
                    .expect("a level");
                assert_eq!(
                    fetch_bot_level(&mut *conn, ids[0]).await.expect("level"),
                    Some(level)
                );
            }
            drop(conn);
            // The bot's turns: claimed by one caller at a time, until the claim runs out.
            sqlx::query("UPDATE games SET to_move_id = 2 WHERE id = $1")
                .bind(ids[0])
                .execute(&pool)
                .await
                .expect("the bot to move");
            let due = |t: i64| bot_turns_due(&pool, UserId(2), t);
            assert_eq!(due(1_000).await.expect("due"), vec![ids[0]]);
            assert!(bot_turns_due(&pool, UserId(1), 1_000)
                .await
                .expect("due")
                .is_empty());
            assert!(claim_bot_turn(&pool, ids[0], 1_000, 2_000)
                .await
                .expect("claim"));
            assert!(!claim_bot_turn(&pool, ids[0], 1_500, 2_500)
                .await
                .expect("claim"));
            assert!(due(1_500).await.expect("due").is_empty());
            assert_eq!(due(2_000).await.expect("due"), vec![ids[0]], "run out");
            assert!(claim_bot_turn(&pool, ids[0], 2_000, 3_000)
                .await
                .expect("claim"));
            // Only the holder's own claim is given back.
            release_bot_turn(&pool, ids[0], 2_000)
                .await
                .expect("release");
            assert!(due(2_100).await.expect("due").is_empty());
            release_bot_turn(&pool, ids[0], 3_000)
                .await
                .expect("release");
            assert_eq!(due(2_100).await.expect("due"), vec![ids[0]]);
            let finish = Finish {
                kind: crate::games::GameKind::Inphexion,
                result: GameResult::Decided(Outcome::win(Colour::First, Reason::Connection)),
                winner_id: Some(UserId(1)),
            };
            finish_game(&pool, ids[0], 0, &finish, now)
                .await
                .expect("finish");
            assert!(bot_turns_due(&pool, UserId(1), 0)
                .await
                .expect("active")
                .is_empty());
            assert!(bot_turns_due(&pool, UserId(2), 0)
                .await
                .expect("due")
                .is_empty());
            assert_eq!(
                count_active_bot_games(&pool, UserId(1))
                    .await
                    .expect("count"),
                0
            );
            // The member's record against the bot: the won game at `hard` (its level last set),
            // then a drawn one at `beginner`; the other server's pool has none.
            let mut conn = pool.acquire().await.expect("connection");
            insert_bot_game(&mut conn, ids[1], Level::Beginner, false)
                .await
                .expect("bot game");
            assert!(!is_coached(&pool, ids[1]).await.expect("not coached"));
            drop(conn);
            let draw = Finish {
                kind: crate::games::GameKind::Inphexion,
                result: GameResult::Decided(Outcome::by_score(Reason::Repetition, [20, 20])),
                winner_id: None,
            };
            finish_game(&pool, ids[1], 0, &draw, now)
                .await
                .expect("finish");
            let record = |kind, level, wins, losses, draws| BotRecord {
                kind,
                level,
                wins,
                losses,
                draws,
            };
            let inphexion = crate::games::GameKind::Inphexion;
            assert_eq!(
                bot_record_of(&pool, GuildId(5), UserId(1))
                    .await
                    .expect("record"),
                vec![
                    record(inphexion, Level::Beginner, 0, 0, 1),
                    record(inphexion, Level::Hard, 1, 0, 0)
                ]
            );
            assert_eq!(
                bot_record_of(&pool, GuildId(5), UserId(2))
                    .await
                    .expect("record")[1],
                record(inphexion, Level::Hard, 0, 1, 0),
                "the other side's view"
            );
            assert!(bot_record_of(&pool, GuildId(6), UserId(1))
                .await
                .expect("record")
                .is_empty());
        }
    }
}

//! Moves stored and taken back, and games ended without a move: each write applies only while the
//! game is still where its writer saw it, else it is a [`DbError::Conflict`].

use super::{Conn, DbError, Executor, GameClock, GameResult, GameStatus, UserId};
use crate::games::GameKind;

/// How a game ends, for [`record_move`] and [`finish_game`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Finish {
    /// The game's kind, which names the colours in the stored result.
    pub kind: GameKind,
    pub result: GameResult,
    pub winner_id: Option<UserId>,
}

impl Finish {
    /// The status the game takes.
    pub fn status(&self) -> GameStatus {
        match self.result {
            GameResult::Decided(_) => GameStatus::Finished,
            GameResult::Aborted { .. } => GameStatus::Aborted,
        }
    }

    /// The result as stored.
    pub fn text(&self) -> String {
        self.result.describe(self.kind)
    }
}

/// A move to store: ply `expected_version + 1` of `game`.
#[derive(Clone, Debug)]
pub struct MoveRecord<'a> {
    pub game: i64,
    /// The number of moves the mover saw: the write applies only while it still holds.
    pub expected_version: i64,
    pub notation: &'a str,
    pub player: UserId,
    pub now: i64,
    /// How the game ends with this move, if it does.
    pub finish: Option<&'a Finish>,
    /// When the next player loses on time (`None`: no clock).
    pub next_deadline: Option<i64>,
    /// The player to move after it (ignored when the move ends the game).
    pub next_to_move: UserId,
    /// The game's clock after it, with the next turn started (`None`: no time control).
    pub clock: Option<GameClock>,
    /// What the mover had left of their turn (kept for a takeback; `None`: no time control).
    pub left_before: Option<i64>,
}

/// Stores a move, in one statement group that first claims the game: when another write got
/// there first (another move, a resignation), nothing is stored and the answer is
/// [`DbError::Conflict`]. Call it inside a transaction. The reminders of the new turn start again.
pub async fn record_move(conn: &mut Conn, m: &MoveRecord<'_>) -> Result<(), DbError> {
    let finish = m.finish;
    // The move first, with the mover's deadline as it stood (for a takeback): written only
    // while the game is still where the mover saw it.
    let stored = sqlx::query(
        "INSERT INTO moves (game_id, ply, notation, player_id, played_at, deadline_before,
                            left_before)
         SELECT $1, $2 + 1, $3, $4, $5, deadline_at, $6 FROM games
          WHERE id = $1 AND version = $2 AND status = 'active'",
    )
    .bind(m.game)
    .bind(m.expected_version)
    .bind(m.notation)
    .bind(m.player)
    .bind(m.now)
    .bind(m.left_before)
    .execute(&mut *conn)
    .await
    .map_err(|e| match e {
        // PostgreSQL: a move stored meanwhile by another transaction, from the same snapshot.
        sqlx::Error::Database(ref d) if d.is_unique_violation() => DbError::Conflict(m.game),
        other => DbError::from(other),
    })?;
    if stored.rows_affected() != 1 {
        return Err(DbError::Conflict(m.game));
    }
    let claimed = sqlx::query(
        "UPDATE games SET version = version + 1, updated_at = $3,
                status = COALESCE($4, status), result = COALESCE($5, result),
                winner_id = COALESCE($6, winner_id),
                finished_at = CASE WHEN $4 IS NULL THEN finished_at ELSE $3 END,
                deadline_at = CASE WHEN $4 IS NULL THEN $7 ELSE NULL END,
                to_move_id = CASE WHEN $4 IS NULL THEN $8 ELSE NULL END,
                reminders_sent = 0,
                first_bank = COALESCE($9, first_bank), second_bank = COALESCE($10, second_bank),
                turn_started_at = COALESCE($11, turn_started_at),
                remind_at = CASE WHEN $4 IS NULL THEN $12 ELSE NULL END
         WHERE id = $1 AND version = $2 AND status = 'active'",
    )
    .bind(m.game)
    .bind(m.expected_version)
    .bind(m.now)
    .bind(finish.map(|f| f.status().as_str()))
    .bind(finish.map(Finish::text))
    .bind(finish.and_then(|f| f.winner_id))
    .bind(m.next_deadline)
    .bind(m.next_to_move)
    .bind(m.clock.map(|c| c.banks[0]))
    .bind(m.clock.map(|c| c.banks[1]))
    .bind(m.clock.map(|c| c.turn_started_at))
    .bind(m.clock.and_then(|c| c.remind_at))
    .execute(&mut *conn)
    .await?;
    if claimed.rows_affected() != 1 {
        return Err(DbError::Conflict(m.game));
    }
    Ok(())
}

/// How many moves of game `id` were taken back so far. With the ply, it names one move for good:
/// the same ply played again after a takeback is another move.
pub async fn count_takebacks(ex: impl Executor<'_>, game: i64) -> Result<i64, DbError> {
    Ok(
        sqlx::query_scalar("SELECT COUNT(*) FROM takebacks WHERE game_id = $1")
            .bind(game)
            .fetch_one(ex)
            .await?,
    )
}

/// What the mover of the move `ply` of `game` had left of their turn when making it (`None`:
/// not kept, as for games without a time control).
pub async fn left_before_move(
    ex: impl Executor<'_>,
    game: i64,
    ply: i64,
) -> Result<Option<i64>, DbError> {
    Ok(sqlx::query_scalar::<_, Option<i64>>(
        "SELECT left_before FROM moves WHERE game_id = $1 AND ply = $2",
    )
    .bind(game)
    .bind(ply)
    .fetch_optional(ex)
    .await?
    .flatten())
}

/// Takes back move `ply` of active game `game` (its last): the move goes to the game's
/// takebacks, its player is to move again with the time they had left when they made it
/// (counted from `now`; a full turn when that is not known). A game with a time control gets
/// `restored`: its clock with the mover's bank given back and their turn started, and the
/// turn's deadline. [`DbError::Conflict`] when the game is no longer at `ply` moves.
pub async fn take_back_move(
    conn: &mut Conn,
    game: i64,
    ply: i64,
    now: i64,
    restored: Option<(GameClock, i64)>,
) -> Result<(), DbError> {
    let kept = sqlx::query(
        "INSERT INTO takebacks (game_id, ply, notation, player_id, played_at, taken_back_at)
         SELECT m.game_id, m.ply, m.notation, m.player_id, m.played_at, $3
           FROM moves m JOIN games g ON g.id = m.game_id
          WHERE m.game_id = $1 AND m.ply = $2 AND g.version = $2 AND g.status = 'active'",
    )
    .bind(game)
    .bind(ply)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    if kept.rows_affected() != 1 {
        return Err(DbError::Conflict(game));
    }
    sqlx::query(
        "UPDATE games SET version = version - 1, updated_at = $3, reminders_sent = 0,
                to_move_id = (SELECT player_id FROM moves WHERE game_id = $1 AND ply = $2),
                deadline_at = CASE WHEN deadline_at IS NULL THEN NULL
                    WHEN $4 IS NOT NULL THEN $4 ELSE $3 + COALESCE(
                    (SELECT deadline_before - played_at FROM moves WHERE game_id = $1 AND ply = $2),
                    seconds_per_move) END,
                first_bank = COALESCE($5, first_bank), second_bank = COALESCE($6, second_bank),
                turn_started_at = COALESCE($7, turn_started_at), remind_at = $8
         WHERE id = $1",
    )
    .bind(game)
    .bind(ply)
    .bind(now)
    .bind(restored.map(|r| r.1))
    .bind(restored.map(|r| r.0.banks[0]))
    .bind(restored.map(|r| r.0.banks[1]))
    .bind(restored.map(|r| r.0.turn_started_at))
    .bind(restored.and_then(|r| r.0.remind_at))
    .execute(&mut *conn)
    .await?;
    sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply = $2")
        .bind(game)
        .bind(ply)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Ends an active game without a move (resignation, abort) while it is still at `version`.
/// [`DbError::Conflict`] when it moved on or is no longer active.
pub async fn finish_game(
    ex: impl Executor<'_>,
    game: i64,
    version: i64,
    finish: &Finish,
    now: i64,
) -> Result<(), DbError> {
    let done = sqlx::query(
        "UPDATE games SET status = $2, result = $3, winner_id = $4, finished_at = $5, updated_at = $5,
                          deadline_at = NULL, to_move_id = NULL
         WHERE id = $1 AND status = 'active' AND version = $6",
    )
    .bind(game)
    .bind(finish.status().as_str())
    .bind(finish.text())
    .bind(finish.winner_id)
    .bind(now)
    .bind(version)
    .execute(ex)
    .await?;
    if done.rows_affected() != 1 {
        return Err(DbError::Conflict(game));
    }
    Ok(())
}

/// Active games stored before the player to move was kept with them: their ids.
pub async fn games_without_turn(ex: impl Executor<'_>) -> Result<Vec<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM games WHERE status = 'active' AND to_move_id IS NULL ORDER BY id",
    )
    .fetch_all(ex)
    .await?)
}

/// Stores the player to move of an active game at `version`.
pub async fn set_to_move(
    ex: impl Executor<'_>,
    game: i64,
    version: i64,
    player: UserId,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE games SET to_move_id = $3 WHERE id = $1 AND version = $2 AND status = 'active'",
    )
    .bind(game)
    .bind(version)
    .bind(player)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::games::game_with_players;
    use crate::db::testing::both_backends;
    use crate::db::{active_games_of, fetch_game, fetch_moves, load_game, GuildId, Pool};
    use crate::games::{Colour, Game, Options, Outcome, Reason};

    /// A move of game 1 (the only one in these tests) that does not end it.
    fn mv(
        expected_version: i64,
        notation: &str,
        player: UserId,
        now: i64,
        next_deadline: Option<i64>,
    ) -> MoveRecord<'_> {
        MoveRecord {
            game: 1,
            expected_version,
            notation,
            player,
            now,
            finish: None,
            next_deadline,
            next_to_move: UserId(1),
            clock: None,
            left_before: None,
        }
    }

    both_backends! {
        async fn a_move_applies_once_for_one_version(pool) {
            let id = game_with_players(&pool).await;
            let mut tx = pool.begin().await.unwrap();
            record_move(&mut tx, &mv(0, "0,1", UserId(1), 11, Some(111)))
                .await
                .unwrap();
            tx.commit().await.unwrap();
            let mut tx = pool.begin().await.unwrap();
            let again = record_move(&mut tx, &mv(0, "1,1", UserId(1), 12, Some(112))).await;
            assert!(
                matches!(again, Err(DbError::Conflict(g)) if g == id),
                "{again:?}"
            );
            drop(tx);
            let row = fetch_game(&pool, id).await.unwrap().unwrap();
            assert_eq!(row.version, 1);
            let moves = fetch_moves(&pool, id).await.unwrap();
            assert_eq!(moves.len(), 1);
            assert_eq!(moves[0].notation, "0,1");
            assert_eq!(moves[0].player_id, UserId(1));
        }
    }

    both_backends! {
        async fn racing_moves_apply_once(pool) {
            let id = game_with_players(&pool).await;
            let attempt = |pool: Pool, text: &'static str| async move {
                let mut tx = pool.begin().await?;
                record_move(&mut tx, &mv(0, text, UserId(u64::MAX), 20, Some(120))).await?;
                tx.commit().await?;
                Ok::<(), DbError>(())
            };
            let (a, b) = tokio::join!(
                tokio::spawn(attempt(pool.clone(), "0,1")),
                tokio::spawn(attempt(pool.clone(), "1,0"))
            );
            let results = [a.unwrap(), b.unwrap()];
            assert_eq!(
                results.iter().filter(|r| r.is_ok()).count(),
                1,
                "{results:?}"
            );
            assert!(results
                .iter()
                .any(|r| matches!(r, Err(DbError::Conflict(_)))));
            assert_eq!(fetch_moves(&pool, id).await.unwrap().len(), 1);
        }
    }

    both_backends! {
        async fn finishing_is_refused_once_the_game_is_over(pool) {
            let id = game_with_players(&pool).await;
            let finish = Finish {
                kind: GameKind::Exxit,
                result: GameResult::Decided(Outcome::win(Colour::Second, Reason::Resignation)),
                winner_id: Some(UserId(u64::MAX)),
            };
            finish_game(&pool, id, 0, &finish, 30).await.unwrap();
            assert!(matches!(
                finish_game(&pool, id, 0, &finish, 31).await,
                Err(DbError::Conflict(_))
            ));
            let mut tx = pool.begin().await.unwrap();
            assert!(matches!(
                record_move(&mut tx, &mv(0, "0,1", UserId(1), 32, Some(132))).await,
                Err(DbError::Conflict(_))
            ));
            drop(tx);
            let row = fetch_game(&pool, id).await.unwrap().unwrap();
            assert_eq!(row.status, GameStatus::Finished);
            assert_eq!(row.winner_id, Some(UserId(u64::MAX)));
            assert_eq!(row.finished_at, Some(30));
            assert_eq!(row.result, Some(finish.result.clone()));
            assert_eq!(row.result_text(), "red wins: resignation");
            assert!(active_games_of(&pool, Some(GuildId(5)), UserId(1))
                .await
                .unwrap()
                .is_empty());
            // A result that is no result (edited by hand) makes the row unreadable, not a game with
            // a made-up ending.
            for garbled in ["red wins", "white wins: connection", "aborted", "score 3-4"] {
                sqlx::query("UPDATE games SET result = $2 WHERE id = $1")
                    .bind(id)
                    .bind(garbled)
                    .execute(&pool)
                    .await
                    .unwrap();
                let e = fetch_game(&pool, id).await.unwrap_err().to_string();
                assert!(e.contains("is not a game result"), "{garbled}: {e}");
            }
        }
    }

    both_backends! {
        async fn a_game_loads_whole_while_moves_are_stored_and_taken_back(pool) {
            // The row and the moves are read from one snapshot: a move stored or taken back
            // between the two reads never makes a sound game look damaged.
            let id = game_with_players(&pool).await;
            let first = Game::new(Options::parse_line("exxit tiles=39").unwrap()).legal_notations()[0].clone();
            let writer = {
                let pool = pool.clone();
                tokio::spawn(async move {
                    for round in 0..150 {
                        let mut tx = pool.begin().await.unwrap();
                        record_move(&mut tx, &mv(0, &first, UserId(1), 11 + round, Some(111)))
                            .await
                            .unwrap();
                        tx.commit().await.unwrap();
                        let mut tx = pool.begin().await.unwrap();
                        take_back_move(&mut tx, id, 1, 12 + round, None).await.unwrap();
                        tx.commit().await.unwrap();
                    }
                })
            };
            let mut conn = pool.acquire().await.unwrap();
            let mut loads = 0;
            while !writer.is_finished() {
                let (row, game) = load_game(&mut conn, id).await.unwrap().unwrap();
                assert_eq!(game.ply() as i64, row.version);
                loads += 1;
            }
            writer.await.unwrap();
            assert!(loads > 0);
        }
    }
}

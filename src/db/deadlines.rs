//! Correspondence deadlines: the scans for games past their deadline or due a reminder, a game
//! lost on time, a reminder claimed once, and deadlines moved by a vacation.

use super::{DbError, Executor, Finish, GameRow, UserId};

/// Ends an active game on time: only when it is still at `version` and its deadline has passed
/// at `now`, so a move that arrived first (or a second scan) leaves it alone. `false` when it
/// did not apply.
pub async fn time_out_game(
    ex: impl Executor<'_>,
    game: i64,
    version: i64,
    finish: &Finish,
    now: i64,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE games SET status = $3, result = $4, winner_id = $5, finished_at = $6, updated_at = $6,
                          deadline_at = NULL, to_move_id = NULL
         WHERE id = $1 AND version = $2 AND status = 'active' AND deadline_at <= $6",
    )
    .bind(game)
    .bind(version)
    .bind(finish.status().as_str())
    .bind(finish.text())
    .bind(finish.winner_id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Ids of active games whose deadline has passed at `now`, oldest deadline first. Only ids are
/// read, so one unreadable row cannot stop the scan.
pub async fn games_past_deadline(ex: impl Executor<'_>, now: i64) -> Result<Vec<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM games WHERE status = 'active' AND CAST(deadline_at AS BIGINT) = deadline_at
           AND deadline_at <= $1
         ORDER BY deadline_at, id",
    )
    .bind(now)
    .fetch_all(ex)
    .await?)
}

/// Ids of active games that may be due a reminder: with a time control, those whose next
/// reminder's time has come; without, those with at most half their time per move left and
/// fewer than two reminders sent.
pub async fn games_needing_reminders(ex: impl Executor<'_>, now: i64) -> Result<Vec<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM games WHERE status = 'active' AND reminders_sent < 2
           AND CAST(deadline_at AS BIGINT) = deadline_at AND deadline_at > $1
           AND ((time_control IS NULL AND CAST(seconds_per_move AS BIGINT) = seconds_per_move
                 AND deadline_at - $1 <= seconds_per_move / 2)
             OR (time_control IS NOT NULL AND CAST(remind_at AS BIGINT) = remind_at
                 AND remind_at <= $1))
         ORDER BY deadline_at, id",
    )
    .bind(now)
    .fetch_all(ex)
    .await?)
}

/// Marks that the reminders of the current turn went from those `row` counts to `to`, the next
/// one due at `next` (games with a time control): `false` when the game moved on or another
/// scan marked it first (then nothing is to be sent).
pub async fn claim_reminder(
    ex: impl Executor<'_>,
    row: &GameRow,
    to: i64,
    next: Option<i64>,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE games SET reminders_sent = $4, remind_at = $5
         WHERE id = $1 AND version = $2 AND reminders_sent = $3 AND status = 'active'",
    )
    .bind(row.id)
    .bind(row.version)
    .bind(row.reminders_sent)
    .bind(to)
    .bind(next)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Sets the deadline and next reminder of the current turn of active game `row` (at its version)
/// as its clock now reckons them: after a pause or a vacation. `false` when the game moved on.
pub async fn set_turn_deadline(
    ex: impl Executor<'_>,
    row: &GameRow,
    deadline: i64,
    remind_at: Option<i64>,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE games SET deadline_at = $3, remind_at = $4
         WHERE id = $1 AND version = $2 AND status = 'active' AND time_control IS NOT NULL",
    )
    .bind(row.id)
    .bind(row.version)
    .bind(deadline)
    .bind(remind_at)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Ids of the active games with a time control where `player` is to move and whose deadline
/// has not passed at `now`.
pub async fn clock_games_waiting_for(
    ex: impl Executor<'_>,
    player: UserId,
    now: i64,
) -> Result<Vec<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM games WHERE status = 'active' AND to_move_id = $1
           AND time_control IS NOT NULL AND CAST(deadline_at AS BIGINT) = deadline_at
           AND deadline_at > $2
         ORDER BY id",
    )
    .bind(player)
    .bind(now)
    .fetch_all(ex)
    .await?)
}

/// Moves later by `seconds` the deadlines of the active games without a time control where
/// `player` is to move and whose deadline has not passed at `now` (a vacation); returns how many
/// moved. A deadline that has passed stays: that game is lost on time. Games with a time control
/// are reckoned again by their clock instead ([`set_turn_deadline`]).
pub async fn pause_deadlines(
    ex: impl Executor<'_>,
    player: UserId,
    seconds: i64,
    now: i64,
) -> Result<u64, DbError> {
    let done = sqlx::query(
        "UPDATE games SET deadline_at = deadline_at + $2
         WHERE status = 'active' AND to_move_id = $1 AND CAST(deadline_at AS BIGINT) = deadline_at
           AND deadline_at > $3 AND time_control IS NULL",
    )
    .bind(player)
    .bind(seconds)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected())
}

//! Learn to play ([`crate::learn`]): the levels a member finished, with their best stars
//! (`learn_progress`), and the level they are playing (`learn_attempts`: the moves so far, the
//! moves tried, and a version that every change bumps, so that an older picker is stale).
//!
//! A member's attempt row is never deleted while they use `/learn` (a finished level leaves it
//! with no level), so its version only grows: a button made for an earlier level or move never
//! matches a later one. `/privacy` lists and deletes both tables.

use sqlx::Row;

use super::{DbError, Executor, UserId};

/// The moves of an attempt, stored as one text.
const SEPARATOR: char = ';';

/// The level a member is playing.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LearnAttempt {
    pub player_id: UserId,
    /// The level's key (`inphexion/first-disc`), empty when no level is in play.
    pub level: String,
    /// The moves so far, the member's and the replies, in notation.
    pub moves: Vec<String>,
    /// The moves the member tried at this level (refused ones too).
    pub tries: i64,
    pub version: i64,
}

fn split_moves(text: &str) -> Vec<String> {
    text.split(SEPARATOR)
        .filter(|m| !m.is_empty())
        .map(str::to_string)
        .collect()
}

fn join_moves(moves: &[String]) -> String {
    moves.join(&SEPARATOR.to_string())
}

/// `user`'s attempt row, if they ever opened a level.
pub async fn fetch_learn_attempt(
    ex: impl Executor<'_>,
    user: UserId,
) -> Result<Option<LearnAttempt>, DbError> {
    let row =
        sqlx::query("SELECT level, moves, tries, version FROM learn_attempts WHERE player_id = $1")
            .bind(user)
            .fetch_optional(ex)
            .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let moves: String = row.try_get("moves")?;
    Ok(Some(LearnAttempt {
        player_id: user,
        level: row.try_get("level")?,
        moves: split_moves(&moves),
        tries: row.try_get("tries")?,
        version: row.try_get("version")?,
    }))
}

/// Opens `level` for `user` from its start (replacing the level they were playing) and returns
/// the new version.
pub async fn start_learn_attempt(
    ex: impl Executor<'_>,
    user: UserId,
    level: &str,
    now: i64,
) -> Result<i64, DbError> {
    let row = sqlx::query(
        "INSERT INTO learn_attempts (player_id, level, moves, tries, version, updated_at)
         VALUES ($1, $2, '', 0, 1, $3)
         ON CONFLICT (player_id) DO UPDATE SET level = excluded.level, moves = '', tries = 0,
             version = learn_attempts.version + 1, updated_at = excluded.updated_at
         RETURNING version",
    )
    .bind(user)
    .bind(level)
    .bind(now)
    .fetch_one(ex)
    .await?;
    Ok(row.try_get("version")?)
}

/// Stores `user`'s attempt at version `version` with `moves` and `tries`, bumping the version;
/// `false` (nothing changed) when the attempt is no longer at `version`.
pub async fn update_learn_attempt(
    ex: impl Executor<'_>,
    user: UserId,
    version: i64,
    moves: &[String],
    tries: i64,
    now: i64,
) -> Result<bool, DbError> {
    Ok(sqlx::query(
        "UPDATE learn_attempts SET moves = $3, tries = $4, version = version + 1, updated_at = $5
         WHERE player_id = $1 AND version = $2",
    )
    .bind(user)
    .bind(version)
    .bind(join_moves(moves))
    .bind(tries)
    .bind(now)
    .execute(ex)
    .await?
    .rows_affected()
        == 1)
}

/// Ends `user`'s attempt at version `version` (no level in play after it, the version bumped);
/// `false` when it is no longer at `version`. The caller records the level
/// ([`record_learn_level`]) in the same transaction.
pub async fn end_learn_attempt(
    ex: impl Executor<'_>,
    user: UserId,
    version: i64,
    now: i64,
) -> Result<bool, DbError> {
    Ok(sqlx::query(
        "UPDATE learn_attempts SET level = '', moves = '', tries = 0, version = version + 1,
             updated_at = $3
         WHERE player_id = $1 AND version = $2",
    )
    .bind(user)
    .bind(version)
    .bind(now)
    .execute(ex)
    .await?
    .rows_affected()
        == 1)
}

/// Records that `user` finished `level` with `stars` (keeping their best).
pub async fn record_learn_level(
    ex: impl Executor<'_>,
    user: UserId,
    level: &str,
    stars: u8,
    now: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO learn_progress (player_id, level, stars, done_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (player_id, level) DO UPDATE SET
             stars = CASE WHEN excluded.stars > learn_progress.stars THEN excluded.stars
                          ELSE learn_progress.stars END,
             done_at = excluded.done_at",
    )
    .bind(user)
    .bind(level)
    .bind(i64::from(stars))
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// The levels `user` finished, each with its best stars.
pub async fn learn_progress(
    ex: impl Executor<'_>,
    user: UserId,
) -> Result<Vec<(String, u8)>, DbError> {
    let rows = sqlx::query("SELECT level, stars FROM learn_progress WHERE player_id = $1")
        .bind(user)
        .fetch_all(ex)
        .await?;
    rows.iter()
        .map(|r| {
            let stars: i64 = r.try_get("stars")?;
            Ok((
                r.try_get("level")?,
                u8::try_from(stars.clamp(1, 3)).unwrap_or(1),
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::both_backends;

    both_backends! {
        async fn attempts_bump_their_version_and_progress_keeps_the_best_stars(pool) {
            let user = UserId(u64::MAX - 7);
            crate::db::upsert_player(&pool, user, "ann", 1).await.unwrap();
            assert_eq!(fetch_learn_attempt(&pool, user).await.unwrap(), None);
            let v1 = start_learn_attempt(&pool, user, "inphexion/first-disc", 10)
                .await
                .unwrap();
            let moves = vec!["c3-d3 a1>e5".to_string(), "d3-d4".to_string()];
            assert!(update_learn_attempt(&pool, user, v1, &moves, 2, 11).await.unwrap());
            // An older version changes nothing.
            assert!(!update_learn_attempt(&pool, user, v1, &[], 9, 12).await.unwrap());
            let a = fetch_learn_attempt(&pool, user).await.unwrap().unwrap();
            assert_eq!((a.moves.clone(), a.tries, a.version), (moves, 2, v1 + 1));
            assert!(end_learn_attempt(&pool, user, a.version, 13).await.unwrap());
            record_learn_level(&pool, user, "inphexion/first-disc", 2, 13).await.unwrap();
            record_learn_level(&pool, user, "inphexion/first-disc", 1, 14).await.unwrap();
            record_learn_level(&pool, user, "exxit/first-disc", 3, 14).await.unwrap();
            let mut done = learn_progress(&pool, user).await.unwrap();
            done.sort();
            assert_eq!(
                done,
                vec![
                    ("exxit/first-disc".to_string(), 3),
                    ("inphexion/first-disc".to_string(), 2)
                ]
            );
            let a = fetch_learn_attempt(&pool, user).await.unwrap().unwrap();
            assert_eq!(a.level, "");
            // The next level's version is above every earlier one.
            let v = start_learn_attempt(&pool, user, "inphexion/white-connects", 15)
                .await
                .unwrap();
            assert!(v > a.version);
        }
    }
}

//! Ratings: one Glicko-2 table per server and game kind, with each player's record.

use sqlx::sqlite::SqliteRow;
use sqlx::{FromRow, Row, SqliteExecutor};

use super::{from_db, to_db, DbError, GameRow};

/// A player's rating in one server and game kind.
#[derive(Clone, PartialEq, Debug)]
pub struct RatingRow {
    pub guild_id: u64,
    pub kind: String,
    pub player_id: u64,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
    pub updated_at: i64,
}

impl<'r> FromRow<'r, SqliteRow> for RatingRow {
    fn from_row(row: &'r SqliteRow) -> Result<Self, sqlx::Error> {
        Ok(RatingRow {
            guild_id: from_db(row.try_get("guild_id")?),
            kind: row.try_get("kind")?,
            player_id: from_db(row.try_get("player_id")?),
            rating: row.try_get("rating")?,
            deviation: row.try_get("deviation")?,
            volatility: row.try_get("volatility")?,
            games: row.try_get("games")?,
            wins: row.try_get("wins")?,
            losses: row.try_get("losses")?,
            draws: row.try_get("draws")?,
            updated_at: row.try_get("updated_at")?,
        })
    }
}

pub async fn fetch_rating(
    ex: impl SqliteExecutor<'_>,
    guild: u64,
    kind: &str,
    player: u64,
) -> Result<Option<RatingRow>, DbError> {
    Ok(
        sqlx::query_as(
            "SELECT * FROM ratings WHERE guild_id = ?1 AND kind = ?2 AND player_id = ?3",
        )
        .bind(to_db(guild))
        .bind(kind)
        .bind(to_db(player))
        .fetch_optional(ex)
        .await?,
    )
}

/// Every rating of a player in a server (one per game kind played).
pub async fn ratings_of(
    ex: impl SqliteExecutor<'_>,
    guild: u64,
    player: u64,
) -> Result<Vec<RatingRow>, DbError> {
    Ok(
        sqlx::query_as(
            "SELECT * FROM ratings WHERE guild_id = ?1 AND player_id = ?2 ORDER BY kind",
        )
        .bind(to_db(guild))
        .bind(to_db(player))
        .fetch_all(ex)
        .await?,
    )
}

pub async fn store_rating(ex: impl SqliteExecutor<'_>, r: &RatingRow) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO ratings (guild_id, kind, player_id, rating, deviation, volatility, games, wins,
                              losses, draws, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
         ON CONFLICT (guild_id, kind, player_id) DO UPDATE SET
            rating = excluded.rating, deviation = excluded.deviation,
            volatility = excluded.volatility, games = excluded.games, wins = excluded.wins,
            losses = excluded.losses, draws = excluded.draws, updated_at = excluded.updated_at",
    )
    .bind(to_db(r.guild_id))
    .bind(&r.kind)
    .bind(to_db(r.player_id))
    .bind(r.rating)
    .bind(r.deviation)
    .bind(r.volatility)
    .bind(r.games)
    .bind(r.wins)
    .bind(r.losses)
    .bind(r.draws)
    .bind(r.updated_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// One page of a server's table for a game kind: the highest rating first (ties by player id).
pub async fn top_ratings(
    ex: impl SqliteExecutor<'_>,
    guild: u64,
    kind: &str,
    limit: i64,
    offset: i64,
) -> Result<Vec<RatingRow>, DbError> {
    Ok(sqlx::query_as(
        "SELECT * FROM ratings WHERE guild_id = ?1 AND kind = ?2
         ORDER BY rating DESC, player_id LIMIT ?3 OFFSET ?4",
    )
    .bind(to_db(guild))
    .bind(kind)
    .bind(limit)
    .bind(offset)
    .fetch_all(ex)
    .await?)
}

/// How many players a server's table for a game kind holds.
pub async fn count_ratings(
    ex: impl SqliteExecutor<'_>,
    guild: u64,
    kind: &str,
) -> Result<i64, DbError> {
    Ok(
        sqlx::query_scalar("SELECT COUNT(*) FROM ratings WHERE guild_id = ?1 AND kind = ?2")
            .bind(to_db(guild))
            .bind(kind)
            .fetch_one(ex)
            .await?,
    )
}

/// Every rating, in a fixed order (for comparisons).
pub async fn all_ratings(ex: impl SqliteExecutor<'_>) -> Result<Vec<RatingRow>, DbError> {
    Ok(
        sqlx::query_as("SELECT * FROM ratings ORDER BY guild_id, kind, player_id")
            .fetch_all(ex)
            .await?,
    )
}

/// Forgets every rating (before they are rebuilt from the games).
pub async fn clear_ratings(ex: impl SqliteExecutor<'_>) -> Result<(), DbError> {
    sqlx::query("DELETE FROM ratings").execute(ex).await?;
    Ok(())
}

/// Marks a game's result as applied to the ratings, as the next in order; returns its place.
/// `None` when it was marked already.
pub async fn mark_rated(ex: impl SqliteExecutor<'_>, game: i64) -> Result<Option<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "UPDATE games SET rating_seq = (SELECT COALESCE(MAX(rating_seq), 0) + 1 FROM games)
         WHERE id = ?1 AND rating_seq IS NULL RETURNING rating_seq",
    )
    .bind(game)
    .fetch_optional(ex)
    .await?)
}

/// The games whose results were applied to the ratings, in the order they were applied.
pub async fn rated_games_in_order(ex: impl SqliteExecutor<'_>) -> Result<Vec<GameRow>, DbError> {
    Ok(
        sqlx::query_as("SELECT * FROM games WHERE rating_seq IS NOT NULL ORDER BY rating_seq")
            .fetch_all(ex)
            .await?,
    )
}

/// Finished rated games of a server whose result was never applied (games that ended before
/// ratings existed), in the order they finished.
pub async fn unapplied_rated_games(ex: impl SqliteExecutor<'_>) -> Result<Vec<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM games WHERE status = 'finished' AND rated = 1 AND guild_id IS NOT NULL
           AND rating_seq IS NULL AND first_player_id <> second_player_id
         ORDER BY finished_at, id",
    )
    .fetch_all(ex)
    .await?)
}

//! Ratings: one Glicko-2 table per server and game kind, with each player's record; the games
//! played outside servers have one pool of their own ([`crate::play::chats::RATINGS`]).

use super::{Conn, DbRow, Executor};
use sqlx::{FromRow, Row};

use super::{DbError, GameRow, GameStatus, GuildId, UserId};
use crate::games::GameKind;
use crate::rating::{after_game, Rating, Score};

/// A player's rating in one server and game kind.
#[derive(Clone, PartialEq, Debug)]
pub struct RatingRow {
    pub guild_id: GuildId,
    pub kind: GameKind,
    pub player_id: UserId,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
    pub updated_at: i64,
}

impl<'r> FromRow<'r, DbRow> for RatingRow {
    fn from_row(row: &'r DbRow) -> Result<Self, sqlx::Error> {
        Ok(RatingRow {
            guild_id: row.try_get("guild_id")?,
            kind: row.try_get("kind")?,
            player_id: row.try_get("player_id")?,
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
    ex: impl Executor<'_>,
    guild: GuildId,
    kind: GameKind,
    player: UserId,
) -> Result<Option<RatingRow>, DbError> {
    Ok(
        sqlx::query_as(
            "SELECT * FROM ratings WHERE guild_id = $1 AND kind = $2 AND player_id = $3",
        )
        .bind(guild)
        .bind(kind)
        .bind(player)
        .fetch_optional(ex)
        .await?,
    )
}

/// Every rating of a player in a server (one per game kind played).
pub async fn ratings_of(
    ex: impl Executor<'_>,
    guild: GuildId,
    player: UserId,
) -> Result<Vec<RatingRow>, DbError> {
    Ok(
        sqlx::query_as(
            "SELECT * FROM ratings WHERE guild_id = $1 AND player_id = $2 ORDER BY kind",
        )
        .bind(guild)
        .bind(player)
        .fetch_all(ex)
        .await?,
    )
}

pub async fn store_rating(ex: impl Executor<'_>, r: &RatingRow) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO ratings (guild_id, kind, player_id, rating, deviation, volatility, games, wins,
                              losses, draws, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (guild_id, kind, player_id) DO UPDATE SET
            rating = excluded.rating, deviation = excluded.deviation,
            volatility = excluded.volatility, games = excluded.games, wins = excluded.wins,
            losses = excluded.losses, draws = excluded.draws, updated_at = excluded.updated_at",
    )
    .bind(r.guild_id)
    .bind(r.kind)
    .bind(r.player_id)
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
    ex: impl Executor<'_>,
    guild: GuildId,
    kind: GameKind,
    limit: i64,
    offset: i64,
) -> Result<Vec<RatingRow>, DbError> {
    Ok(sqlx::query_as(
        "SELECT * FROM ratings WHERE guild_id = $1 AND kind = $2
         ORDER BY rating DESC, player_id LIMIT $3 OFFSET $4",
    )
    .bind(guild)
    .bind(kind)
    .bind(limit)
    .bind(offset)
    .fetch_all(ex)
    .await?)
}

/// How many players a server's table for a game kind holds.
pub async fn count_ratings(
    ex: impl Executor<'_>,
    guild: GuildId,
    kind: GameKind,
) -> Result<i64, DbError> {
    Ok(
        sqlx::query_scalar("SELECT COUNT(*) FROM ratings WHERE guild_id = $1 AND kind = $2")
            .bind(guild)
            .bind(kind)
            .fetch_one(ex)
            .await?,
    )
}

/// Every rating, in a fixed order (for comparisons).
pub async fn all_ratings(ex: impl Executor<'_>) -> Result<Vec<RatingRow>, DbError> {
    Ok(
        sqlx::query_as("SELECT * FROM ratings ORDER BY guild_id, kind, player_id")
            .fetch_all(ex)
            .await?,
    )
}

/// Forgets every rating (before they are rebuilt from the games).
pub async fn clear_ratings(ex: impl Executor<'_>) -> Result<(), DbError> {
    sqlx::query("DELETE FROM ratings").execute(ex).await?;
    Ok(())
}

/// Marks a game's result as applied to the ratings, as the next in order; returns its place.
/// `None` when it was marked already.
pub async fn mark_rated(ex: impl Executor<'_>, game: i64) -> Result<Option<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "UPDATE games SET rating_seq = (SELECT COALESCE(MAX(rating_seq), 0) + 1 FROM games)
         WHERE id = $1 AND rating_seq IS NULL RETURNING rating_seq",
    )
    .bind(game)
    .fetch_optional(ex)
    .await?)
}

/// The games whose results were applied to the ratings, in the order they were applied.
pub async fn rated_games_in_order(ex: impl Executor<'_>) -> Result<Vec<GameRow>, DbError> {
    Ok(
        sqlx::query_as("SELECT * FROM games WHERE rating_seq IS NOT NULL ORDER BY rating_seq")
            .fetch_all(ex)
            .await?,
    )
}

/// Finished rated games whose result was never applied (games that ended before ratings
/// existed), in the order they finished. [`apply_result`] leaves out those that do not count.
pub async fn unapplied_rated_games(ex: impl Executor<'_>) -> Result<Vec<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM games WHERE status = 'finished' AND rated = 1
           AND rating_seq IS NULL AND first_player_id <> second_player_id
         ORDER BY finished_at, id",
    )
    .fetch_all(ex)
    .await?)
}
impl From<&RatingRow> for Rating {
    fn from(r: &RatingRow) -> Rating {
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// Updates both players' ratings for one finished rated game, in its pool (its server's, or the
/// one of games outside servers).
async fn rate(conn: &mut Conn, row: &GameRow) -> Result<(), DbError> {
    let Some(guild) = crate::play::chats::rating_pool(row) else {
        return Ok(());
    };
    let [p, q] = row.players;
    let at = row.finished_at.unwrap_or(row.updated_at);
    let mut stored = Vec::with_capacity(2);
    for player in [p, q] {
        let r = fetch_rating(&mut *conn, guild, row.kind(), player)
            .await?
            .unwrap_or(RatingRow {
                guild_id: guild,
                kind: row.kind(),
                player_id: player,
                rating: Rating::START.rating,
                deviation: Rating::START.deviation,
                volatility: Rating::START.volatility,
                games: 0,
                wins: 0,
                losses: 0,
                draws: 0,
                updated_at: at,
            });
        stored.push(r);
    }
    let score = match row.winner_id {
        Some(w) if w == p => Score::Win,
        Some(w) if w == q => Score::Loss,
        _ => Score::Draw,
    };
    let (np, nq) = after_game(Rating::from(&stored[0]), Rating::from(&stored[1]), score);
    let other = match score {
        Score::Win => Score::Loss,
        Score::Loss => Score::Win,
        Score::Draw => Score::Draw,
    };
    for (r, new, s) in stored
        .iter_mut()
        .zip([(np, score), (nq, other)])
        .map(|(r, (n, s))| (r, n, s))
    {
        r.rating = new.rating;
        r.deviation = new.deviation;
        r.volatility = new.volatility;
        r.games += 1;
        match s {
            Score::Win => r.wins += 1,
            Score::Loss => r.losses += 1,
            Score::Draw => r.draws += 1,
        }
        r.updated_at = at;
    }
    for r in &stored {
        store_rating(&mut *conn, r).await?;
    }
    Ok(())
}

/// Whether a game's result counts for the ratings: finished (not aborted), rated, in a server
/// or a chat (not a local game), between two different players.
pub fn counts(row: &GameRow) -> bool {
    row.status == GameStatus::Finished
        && row.rated
        && crate::play::chats::rating_pool(row).is_some()
        && row.players[0] != row.players[1]
}

/// Applies a game that has just ended to the ratings, once (a second call does nothing). Call it
/// in the transaction that ended the game.
pub async fn apply_result(conn: &mut Conn, game: i64) -> Result<(), DbError> {
    let Some(row) = super::fetch_game(&mut *conn, game).await? else {
        return Ok(());
    };
    if !counts(&row) {
        return Ok(());
    }
    if mark_rated(&mut *conn, game).await?.is_none() {
        return Ok(());
    }
    rate(conn, &row).await
}

/// Applies the results of finished rated games that were never applied (games that ended
/// before ratings existed), in the order they finished. Returns how many. Run at start.
pub async fn apply_pending(conn: &mut Conn) -> Result<usize, DbError> {
    let pending = unapplied_rated_games(&mut *conn).await?;
    let mut applied = 0;
    for &id in &pending {
        let mut tx = sqlx::Connection::begin(&mut *conn).await?;
        match apply_result(&mut tx, id).await {
            Ok(()) => {
                tx.commit().await?;
                applied += 1;
            }
            // A damaged game is reported and left out; the others are applied.
            Err(DbError::Sqlx(e)) => {
                drop(tx);
                super::report_bad_row("games", id, &e);
            }
            Err(e) => return Err(e),
        }
    }
    Ok(applied)
}

/// Rebuilds every rating from the stored games, replaying the rated results in the order they
/// were applied (members who had their data deleted get none back). Call it in a transaction.
pub async fn recompute_ratings(conn: &mut Conn) -> Result<(), DbError> {
    let games = rated_games_in_order(&mut *conn).await?;
    clear_ratings(&mut *conn).await?;
    for row in games.iter().filter(|g| counts(g)) {
        rate(conn, row).await?;
    }
    // Members who had their data deleted keep no rating; their opponents' stay as they were.
    sqlx::query(
        "DELETE FROM ratings WHERE player_id IN (SELECT id FROM players WHERE forgotten_at IS NOT NULL)",
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

#[cfg(test)]
mod rating_tests {
    use super::*;
    use crate::db::testing::both_backends;
    use crate::db::{self, ChannelId, Finish, NewGame};

    /// Plays (without moves) and ends a game between `p` and `q`, as the bot does.
    /// A result of `status`: an abort, or a win of the second seat (`second`) or the first.
    fn test_result(status: GameStatus, second: bool) -> db::GameResult {
        match status {
            GameStatus::Aborted => db::GameResult::Aborted { by: "mod".into() },
            _ => db::GameResult::Decided(crate::games::Outcome::win(
                if second {
                    crate::games::Colour::Second
                } else {
                    crate::games::Colour::First
                },
                crate::games::Reason::Resignation,
            )),
        }
    }

    #[allow(clippy::too_many_arguments)] // one argument per column the test varies
    async fn finished_game(
        pool: &crate::db::Pool,
        guild: GuildId,
        kind: GameKind,
        p: UserId,
        q: UserId,
        winner: Option<UserId>,
        status: GameStatus,
        rated: bool,
        at: i64,
    ) {
        let options = if kind == GameKind::Exxit {
            "exxit tiles=39"
        } else {
            "inphexion size=7"
        };
        let options = crate::games::Options::parse_line(options).unwrap();
        let id = db::insert_game(
            pool,
            &NewGame {
                guild_id: Some(guild),
                channel_id: ChannelId(1),
                options: &options,
                players: [p, q],
                rated,
                now: at,
                seconds_per_move: 86400,
                deadline_at: Some(at + 86400),
                clock: None,
            },
        )
        .await
        .unwrap();
        let mut tx = pool.begin().await.unwrap();
        let finish = Finish {
            kind: options.kind(),
            result: test_result(status, winner == Some(q)),
            winner_id: winner,
        };
        db::finish_game(&mut *tx, id, 0, &finish, at + 10)
            .await
            .unwrap();
        apply_result(&mut tx, id).await.unwrap();
        // A second application (a retried handler) changes nothing.
        apply_result(&mut tx, id).await.unwrap();
        tx.commit().await.unwrap();
    }

    both_backends! {
        async fn recomputing_gives_the_stored_ratings_and_the_table_pages(pool) {
            let players: Vec<u64> = (1..=12).map(|i| i * 1000 + u64::MAX / 2).collect();
            for &p in &players {
                db::upsert_player(&pool, UserId(p), "p", 0).await.unwrap();
            }
            // Player i beats every player after them once, in a shuffled-ish order, with a few
            // draws, an aborted game, an unrated game and another server and game kind mixed in.
            let mut t = 1_000;
            for i in 0..players.len() {
                for j in (i + 1)..players.len() {
                    let (a, b) = if (i + j) % 2 == 0 {
                        (players[i], players[j])
                    } else {
                        (players[j], players[i])
                    };
                    let winner = if (i * j) % 7 == 3 {
                        None
                    } else {
                        Some(players[i])
                    };
                    finished_game(
                        &pool,
                        GuildId(5),
                        GameKind::Exxit,
                        UserId(a),
                        UserId(b),
                        winner.map(UserId),
                        GameStatus::Finished,
                        true,
                        t,
                    )
                    .await;
                    t += 100;
                }
            }
            // The last player beats the first in an aborted and an unrated game (no rating
            // moves), then in another server and in another game kind (rated apart).
            for (guild, kind, status, rated) in [
                (5, GameKind::Exxit, GameStatus::Aborted, true),
                (5, GameKind::Exxit, GameStatus::Finished, false),
                (6, GameKind::Exxit, GameStatus::Finished, true),
                (5, GameKind::Inphexion, GameStatus::Finished, true),
            ] {
                finished_game(
                    &pool,
                    GuildId(guild),
                    kind,
                    UserId(players[11]),
                    UserId(players[0]),
                    Some(UserId(players[11])),
                    status,
                    rated,
                    t,
                )
                .await;
            }

            let stored = db::all_ratings(&pool).await.unwrap();
            assert_eq!(stored.len(), 12 + 2 + 2);
            let mut conn = pool.acquire().await.unwrap();
            assert_eq!(apply_pending(&mut conn).await.unwrap(), 0);
            drop(conn);
            let mut conn = pool.acquire().await.unwrap();
            let mut tx = sqlx::Connection::begin(&mut *conn).await.unwrap();
            recompute_ratings(&mut tx).await.unwrap();
            tx.commit().await.unwrap();
            assert_eq!(db::all_ratings(&pool).await.unwrap(), stored);

            // The table: best first, ten a page; aborted and unrated games did not count.
            assert_eq!(
                db::count_ratings(&pool, GuildId(5), GameKind::Exxit)
                    .await
                    .unwrap(),
                12
            );
            let page1 = db::top_ratings(&pool, GuildId(5), GameKind::Exxit, 10, 0)
                .await
                .unwrap();
            let page2 = db::top_ratings(&pool, GuildId(5), GameKind::Exxit, 10, 10)
                .await
                .unwrap();
            assert_eq!((page1.len(), page2.len()), (10, 2));
            let all: Vec<&RatingRow> = page1.iter().chain(&page2).collect();
            assert!(all.windows(2).all(|w| w[0].rating >= w[1].rating));
            assert_eq!(all[0].player_id, UserId(players[0]));
            assert_eq!(all[11].player_id, UserId(players[11]));
            assert!(all.iter().all(|r| r.games == 11));
            let first = &all[0];
            assert_eq!(first.wins + first.draws, 11);
            let other = db::top_ratings(&pool, GuildId(6), GameKind::Exxit, 10, 0)
                .await
                .unwrap();
            assert_eq!(other[0].player_id, UserId(players[11]));
            assert!(Rating::from(&other[0]).is_provisional());
        }
    }

    both_backends! {
        async fn games_finished_before_ratings_existed_are_rated_once_at_start(pool) {
            for p in [1, 2] {
                db::upsert_player(&pool, UserId(p), "p", 0).await.unwrap();
            }
            for (winner, at) in [(1, 100), (2, 50)] {
                let id = db::insert_game(
                    &pool,
                    &NewGame {
                        guild_id: Some(GuildId(9)),
                        channel_id: ChannelId(1),
                        options: &crate::games::Options::parse_line("exxit tiles=39").unwrap(),
                        players: [UserId(1), UserId(2)],
                        rated: true,
                        now: 0,
                        seconds_per_move: 86400,
                        deadline_at: Some(86400),
                        clock: None,
                    },
                )
                .await
                .unwrap();
                let finish = Finish {
                    kind: crate::games::GameKind::Exxit,
                    result: test_result(GameStatus::Finished, winner == 2),
                    winner_id: Some(UserId(winner)),
                };
                db::finish_game(&pool, id, 0, &finish, at).await.unwrap();
            }
            let mut conn = pool.acquire().await.unwrap();
            assert_eq!(apply_pending(&mut conn).await.unwrap(), 2);
            assert_eq!(apply_pending(&mut conn).await.unwrap(), 0);
            let one = db::fetch_rating(&mut *conn, GuildId(9), GameKind::Exxit, UserId(1))
                .await
                .unwrap()
                .unwrap();
            assert_eq!((one.games, one.wins, one.losses), (2, 1, 1));
            // The earlier game (won by 2) was applied first.
            let first = db::rated_games_in_order(&mut *conn).await.unwrap();
            assert_eq!(first[0].winner_id, Some(UserId(2)));
            let stored = db::all_ratings(&mut *conn).await.unwrap();
            let mut tx = sqlx::Connection::begin(&mut *conn).await.unwrap();
            recompute_ratings(&mut tx).await.unwrap();
            tx.commit().await.unwrap();
            assert_eq!(db::all_ratings(&mut *conn).await.unwrap(), stored);
        }
    }
}

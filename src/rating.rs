//! Glicko-2 ratings (the `skillratings` crate), one table per server and game kind.
//!
//! Each rated game is its own rating period: both players are updated when it ends (win, loss,
//! draw, resignation, timeout; aborted games do not count). The order in which results were
//! applied is stored with the games (`rating_seq`), so [`recompute_ratings`] rebuilds exactly
//! the stored table from the games alone.

use skillratings::glicko2::{glicko2, glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;
use sqlx::SqliteConnection;

use crate::db::{self, DbError, GameRow, GameStatus, RatingRow};

/// A rating deviation above this marks a player as provisional (not enough games yet to trust
/// the rating). A new player starts at 350 and drops below 110 after about ten games.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// Glickman's system constant τ (his paper suggests 0.3–1.2; 0.5 is the crate's default).
const TAU: f64 = 0.5;

/// A Glicko-2 rating.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Rating {
    /// Where every player starts: 1500 ± 350, volatility 0.06.
    pub const START: Rating = Rating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };

    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_glicko(g: Glicko2Rating) -> Rating {
        Rating {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
        }
    }
}

fn config() -> Glicko2Config {
    Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    }
}

/// How a game went for the first player given.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    Win,
    Loss,
    Draw,
}

impl Score {
    fn outcome(self) -> Outcomes {
        match self {
            Score::Win => Outcomes::WIN,
            Score::Loss => Outcomes::LOSS,
            Score::Draw => Outcomes::DRAW,
        }
    }
}

/// Both players' ratings after one game between them (`score` is `a`'s).
pub fn after_game(a: Rating, b: Rating, score: Score) -> (Rating, Rating) {
    let (na, nb) = glicko2(&a.glicko(), &b.glicko(), &score.outcome(), &config());
    (Rating::from_glicko(na), Rating::from_glicko(nb))
}

/// A player's rating after a rating period of several games.
pub fn after_period(player: Rating, results: &[(Rating, Score)]) -> Rating {
    let results: Vec<(Glicko2Rating, Outcomes)> = results
        .iter()
        .map(|(r, s)| (r.glicko(), s.outcome()))
        .collect();
    Rating::from_glicko(glicko2_rating_period(&player.glicko(), &results, &config()))
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

/// Updates both players' ratings for one finished rated game of a server.
async fn rate(conn: &mut SqliteConnection, row: &GameRow) -> Result<(), DbError> {
    let Some(guild) = row.guild_id else {
        return Ok(());
    };
    let [p, q] = row.players;
    let at = row.finished_at.unwrap_or(row.updated_at);
    let mut stored = Vec::with_capacity(2);
    for player in [p, q] {
        let r = db::fetch_rating(&mut *conn, guild, &row.kind, player)
            .await?
            .unwrap_or(RatingRow {
                guild_id: guild,
                kind: row.kind.clone(),
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
        db::store_rating(&mut *conn, r).await?;
    }
    Ok(())
}

/// Whether a game's result counts for the ratings: finished (not aborted), rated, in a server,
/// between two different players.
pub fn counts(row: &GameRow) -> bool {
    row.status == GameStatus::Finished
        && row.rated
        && row.guild_id.is_some()
        && row.players[0] != row.players[1]
}

/// Applies a game that has just ended to the ratings, once (a second call does nothing). Call it
/// in the transaction that ended the game.
pub async fn apply_result(conn: &mut SqliteConnection, game: i64) -> Result<(), DbError> {
    let Some(row) = db::fetch_game(&mut *conn, game).await? else {
        return Ok(());
    };
    if !counts(&row) {
        return Ok(());
    }
    if db::mark_rated(&mut *conn, game).await?.is_none() {
        return Ok(());
    }
    rate(conn, &row).await
}

/// Applies the results of finished rated games that were never applied (games that ended
/// before ratings existed), in the order they finished. Returns how many. Run at start.
pub async fn apply_pending(conn: &mut SqliteConnection) -> Result<usize, DbError> {
    let pending = db::unapplied_rated_games(&mut *conn).await?;
    for &id in &pending {
        let mut tx = sqlx::Connection::begin(&mut *conn).await?;
        apply_result(&mut tx, id).await?;
        tx.commit().await?;
    }
    Ok(pending.len())
}

/// Rebuilds every rating from the stored games, replaying the rated results in the order they
/// were applied. Call it in a transaction.
pub async fn recompute_ratings(conn: &mut SqliteConnection) -> Result<(), DbError> {
    let games = db::rated_games_in_order(&mut *conn).await?;
    db::clear_ratings(&mut *conn).await?;
    for row in games.iter().filter(|g| counts(g)) {
        rate(conn, row).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    /// The worked example of Glickman's "Example of the Glicko-2 system" (2013).
    #[test]
    fn glickmans_example() {
        let player = r(1500.0, 200.0);
        let results = [
            (r(1400.0, 30.0), Score::Win),
            (r(1550.0, 100.0), Score::Loss),
            (r(1700.0, 300.0), Score::Loss),
        ];
        let new = after_period(player, &results);
        assert!((new.rating - 1464.06).abs() < 0.01, "{new:?}");
        assert!((new.deviation - 151.52).abs() < 0.01, "{new:?}");
        assert!((new.volatility - 0.05999).abs() < 0.00001, "{new:?}");
    }

    #[test]
    fn a_win_raises_and_a_loss_lowers_and_draws_are_symmetric() {
        let (w, l) = after_game(Rating::START, Rating::START, Score::Win);
        assert!(w.rating > 1500.0 && l.rating < 1500.0);
        assert!((w.rating - 1500.0 + (l.rating - 1500.0)).abs() < 1e-9);
        assert!(w.deviation < 350.0);
        let (a, b) = after_game(Rating::START, Rating::START, Score::Draw);
        assert!((a.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
        assert!(Rating::START.is_provisional());
        assert!(!r(1500.0, 100.0).is_provisional());
    }
}

#[cfg(test)]
mod db_tests {
    use super::*;
    use crate::db::testing::temp_db;
    use crate::db::{Finish, NewGame};

    /// Plays (without moves) and ends a game between `p` and `q`, as the bot does.
    #[allow(clippy::too_many_arguments)] // one argument per column the test varies
    async fn finished_game(
        pool: &sqlx::SqlitePool,
        guild: u64,
        kind: &str,
        p: u64,
        q: u64,
        winner: Option<u64>,
        status: GameStatus,
        rated: bool,
        at: i64,
    ) {
        let options = if kind == "exxit" {
            "exxit tiles=39"
        } else {
            "inphexion size=7"
        };
        let id = db::insert_game(
            pool,
            &NewGame {
                guild_id: Some(guild),
                channel_id: 1,
                kind,
                options,
                players: [p, q],
                rated,
                now: at,
                seconds_per_move: 86400,
                deadline_at: at + 86400,
            },
        )
        .await
        .unwrap();
        let mut tx = pool.begin().await.unwrap();
        let finish = Finish {
            status,
            result: "test".into(),
            winner_id: winner,
        };
        db::finish_game(&mut *tx, id, &finish, at + 10)
            .await
            .unwrap();
        apply_result(&mut tx, id).await.unwrap();
        // A second application (a retried handler) changes nothing.
        apply_result(&mut tx, id).await.unwrap();
        tx.commit().await.unwrap();
    }

    #[tokio::test]
    async fn recomputing_gives_the_stored_ratings_and_the_table_pages() {
        let (pool, _f) = temp_db().await;
        let players: Vec<u64> = (1..=12).map(|i| i * 1000 + u64::MAX / 2).collect();
        for &p in &players {
            db::upsert_player(&pool, p, "p", 0).await.unwrap();
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
                    5,
                    "exxit",
                    a,
                    b,
                    winner,
                    GameStatus::Finished,
                    true,
                    t,
                )
                .await;
                t += 100;
            }
        }
        finished_game(
            &pool,
            5,
            "exxit",
            players[11],
            players[0],
            Some(players[11]),
            GameStatus::Aborted,
            true,
            t,
        )
        .await;
        finished_game(
            &pool,
            5,
            "exxit",
            players[11],
            players[0],
            Some(players[11]),
            GameStatus::Finished,
            false,
            t,
        )
        .await;
        finished_game(
            &pool,
            6,
            "exxit",
            players[11],
            players[0],
            Some(players[11]),
            GameStatus::Finished,
            true,
            t,
        )
        .await;
        finished_game(
            &pool,
            5,
            "inphexion",
            players[11],
            players[0],
            Some(players[11]),
            GameStatus::Finished,
            true,
            t,
        )
        .await;

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
        assert_eq!(db::count_ratings(&pool, 5, "exxit").await.unwrap(), 12);
        let page1 = db::top_ratings(&pool, 5, "exxit", 10, 0).await.unwrap();
        let page2 = db::top_ratings(&pool, 5, "exxit", 10, 10).await.unwrap();
        assert_eq!((page1.len(), page2.len()), (10, 2));
        let all: Vec<&RatingRow> = page1.iter().chain(&page2).collect();
        assert!(all.windows(2).all(|w| w[0].rating >= w[1].rating));
        assert_eq!(all[0].player_id, players[0]);
        assert_eq!(all[11].player_id, players[11]);
        assert!(all.iter().all(|r| r.games == 11));
        let first = &all[0];
        assert_eq!(first.wins + first.draws, 11);
        let other = db::top_ratings(&pool, 6, "exxit", 10, 0).await.unwrap();
        assert_eq!(other[0].player_id, players[11]);
        assert!(Rating::from(&other[0]).is_provisional());
    }

    #[tokio::test]
    async fn games_finished_before_ratings_existed_are_rated_once_at_start() {
        let (pool, _f) = temp_db().await;
        for p in [1, 2] {
            db::upsert_player(&pool, p, "p", 0).await.unwrap();
        }
        for (winner, at) in [(1, 100), (2, 50)] {
            let id = db::insert_game(
                &pool,
                &NewGame {
                    guild_id: Some(9),
                    channel_id: 1,
                    kind: "exxit",
                    options: "exxit tiles=39",
                    players: [1, 2],
                    rated: true,
                    now: 0,
                    seconds_per_move: 86400,
                    deadline_at: 86400,
                },
            )
            .await
            .unwrap();
            let finish = Finish {
                status: GameStatus::Finished,
                result: "test".into(),
                winner_id: Some(winner),
            };
            db::finish_game(&pool, id, &finish, at).await.unwrap();
        }
        let mut conn = pool.acquire().await.unwrap();
        assert_eq!(apply_pending(&mut conn).await.unwrap(), 2);
        assert_eq!(apply_pending(&mut conn).await.unwrap(), 0);
        let one = db::fetch_rating(&mut *conn, 9, "exxit", 1)
            .await
            .unwrap()
            .unwrap();
        assert_eq!((one.games, one.wins, one.losses), (2, 1, 1));
        // The earlier game (won by 2) was applied first.
        let first = db::rated_games_in_order(&mut *conn).await.unwrap();
        assert_eq!(first[0].winner_id, Some(2));
        let stored = db::all_ratings(&mut *conn).await.unwrap();
        let mut tx = sqlx::Connection::begin(&mut *conn).await.unwrap();
        recompute_ratings(&mut tx).await.unwrap();
        tx.commit().await.unwrap();
        assert_eq!(db::all_ratings(&mut *conn).await.unwrap(), stored);
    }
}

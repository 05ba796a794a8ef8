//! What the bot stored, read straight from its database.

use super::Discord;

impl Discord {
    /// A snapshot of everything the bot stores about games and challenges.
    pub async fn snapshot(&self) -> String {
        let pool = hexcord::db::connect(&self.db_url).await.expect("db");
        let games: Vec<(i64, String, i64, Option<String>)> =
            sqlx::query_as("SELECT id, status, version, result FROM games ORDER BY id")
                .fetch_all(&pool)
                .await
                .expect("games");
        let moves: i64 = sqlx::query_scalar("SELECT count(*) FROM moves")
            .fetch_one(&pool)
            .await
            .expect("moves");
        let challenges: Vec<(i64, String)> =
            sqlx::query_as("SELECT id, status FROM challenges ORDER BY id")
                .fetch_all(&pool)
                .await
                .expect("challenges");
        pool.close().await;
        format!("{games:?} {moves} {challenges:?}")
    }

    pub async fn move_count(&self, game: i64) -> i64 {
        let pool = hexcord::db::connect(&self.db_url).await.expect("db");
        let n = sqlx::query_scalar("SELECT count(*) FROM moves WHERE game_id = $1")
            .bind(game)
            .fetch_one(&pool)
            .await
            .expect("moves");
        pool.close().await;
        n
    }

    /// The notation of move `ply` (1 for the first) of a game, when stored.
    pub async fn move_at(&self, game: i64, ply: i64) -> Option<String> {
        let pool = hexcord::db::connect(&self.db_url).await.expect("db");
        let m = sqlx::query_scalar("SELECT notation FROM moves WHERE game_id = $1 AND ply = $2")
            .bind(game)
            .bind(ply)
            .fetch_optional(&pool)
            .await
            .expect("moves");
        pool.close().await;
        m
    }

    pub async fn game_status(&self, game: i64) -> String {
        let pool = hexcord::db::connect(&self.db_url).await.expect("db");
        let s = sqlx::query_scalar("SELECT status FROM games WHERE id = $1")
            .bind(game)
            .fetch_one(&pool)
            .await
            .expect("game");
        pool.close().await;
        s
    }

    pub async fn winner(&self, game: i64) -> Option<u64> {
        let pool = hexcord::db::connect(&self.db_url).await.expect("db");
        let w: Option<i64> = sqlx::query_scalar("SELECT winner_id FROM games WHERE id = $1")
            .bind(game)
            .fetch_one(&pool)
            .await
            .expect("game");
        pool.close().await;
        w.map(|w| w as u64)
    }
}

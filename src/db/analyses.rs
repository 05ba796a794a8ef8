//! Computer analyses of finished games, kept so that asking again is instant.

use super::{DbError, Executor};
use crate::analysis::Analysis;

/// The stored analysis of game `game` with `budget` per position and `seed`, if any. A row that
/// does not decode is reported and treated as absent (the analysis is then made again and the
/// row replaced).
pub async fn fetch_analysis(
    ex: impl Executor<'_>,
    game: i64,
    budget: u64,
    seed: u64,
) -> Result<Option<Analysis>, DbError> {
    let json: Option<String> = sqlx::query_scalar(
        "SELECT analysis FROM analyses WHERE game_id = $1 AND budget = $2 AND seed = $3",
    )
    .bind(game)
    .bind(budget as i64)
    .bind(seed as i64)
    .fetch_optional(ex)
    .await?;
    Ok(
        json.and_then(|j| match serde_json::from_str::<Analysis>(&j) {
            Ok(a) if a.budget == budget && a.seed == seed => Some(a),
            Ok(_) => {
                super::report_bad_row("analyses", game, &"budget or seed differ from the key");
                None
            }
            Err(e) => {
                super::report_bad_row("analyses", game, &e);
                None
            }
        }),
    )
}

/// Stores the analysis of game `game` (replacing one with the same budget and seed).
pub async fn store_analysis(
    ex: impl Executor<'_>,
    game: i64,
    analysis: &Analysis,
    now: i64,
) -> Result<(), DbError> {
    let json = serde_json::to_string(analysis).map_err(|e| DbError::Corrupt {
        game,
        why: format!("analysis not storable: {e}"),
    })?;
    sqlx::query(
        "INSERT INTO analyses (game_id, budget, seed, analysis, created_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (game_id, budget, seed) DO UPDATE
            SET analysis = excluded.analysis, created_at = excluded.created_at",
    )
    .bind(game)
    .bind(analysis.budget as i64)
    .bind(analysis.seed as i64)
    .bind(json)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use crate::analysis::{analyse, AnalysisBudget};
    use crate::db::testing::both_backends;
    use crate::games::{Game, Options};

    both_backends! {
        async fn analyses_are_kept_by_budget_and_seed_and_bad_rows_are_skipped(pool) {
            let now = 1_700_000_000;
            upsert_player(&pool, UserId(1), "ann", now).await.unwrap();
            upsert_player(&pool, UserId(2), "bob", now).await.unwrap();
            let options = Options::parse_line("inphexion size=5").unwrap();
            let id = insert_game(
                &pool,
                &NewGame {
                    guild_id: Some(GuildId(5)),
                    channel_id: ChannelId(6),
                    options: &options,
                    players: [UserId(1), UserId(2)],
                    rated: false,
                    now,
                    seconds_per_move: 86_400,
                    deadline_at: None,
                    clock: None,
                },
            )
            .await
            .unwrap();
            let mut game = Game::new(options);
            let first = game.legal_moves()[0];
            game.play(first).unwrap();
            let budget = AnalysisBudget::uniform(50);
            let a = analyse(&game, budget, 7, |_, _| {});
            assert_eq!(fetch_analysis(&pool, id, 50, 7).await.unwrap(), None);
            store_analysis(&pool, id, &a, now).await.unwrap();
            assert_eq!(fetch_analysis(&pool, id, 50, 7).await.unwrap(), Some(a.clone()));
            assert_eq!(fetch_analysis(&pool, id, 50, 8).await.unwrap(), None);
            assert_eq!(fetch_analysis(&pool, id, 51, 7).await.unwrap(), None);
            // Stored again: replaced, not doubled.
            store_analysis(&pool, id, &a, now + 1).await.unwrap();
            let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM analyses")
                .fetch_one(&pool)
                .await
                .unwrap();
            assert_eq!(rows, 1);
            // A damaged row reads as absent.
            sqlx::query("UPDATE analyses SET analysis = '{not json'")
                .execute(&pool)
                .await
                .unwrap();
            assert_eq!(fetch_analysis(&pool, id, 50, 7).await.unwrap(), None);
        }
    }
}

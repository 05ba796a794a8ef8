//! Puzzles ([`crate::puzzles`]) and members' attempts at them, with members' puzzle ratings.
//!
//! - **Puzzles**: one row per position (variant and position line), with its line, difficulty,
//!   origin ([`Origin`]: the starter set, or a stored game credited to its two players) and its
//!   own Glicko-2 rating ([`crate::rating`]), which starts from its difficulty
//!   ([`start_rating`]). Storing a position again adds nothing and changes nothing
//!   ([`store_puzzle`]).
//! - **Attempts**: a member's first attempt at a puzzle is the only one ([`start_attempt`]): it
//!   stays open while they solve it (`step` moves of the line played, [`advance_attempt`]), then
//!   ends solved or failed ([`finish_attempt`]), which rates the member against the puzzle and
//!   the puzzle against the member, once, in the attempt's pool.
//! - **Pools**: a member's puzzle rating is kept per server, and one for direct messages and
//!   group chats ([`crate::play::chats::RATINGS`]), as game ratings are, with solved and failed
//!   counts and the current and best streak of puzzles solved in a row.
//!
//! `/privacy` lists and deletes a member's attempts and puzzle ratings; a puzzle credited to a
//! member who had their data deleted keeps their id only, and names them as anonymous from then
//! on ([`super::fetch_name`] gives [`super::Name::Former`]).

use sqlx::{FromRow, Row};

use super::{Conn, DbError, DbRow, Executor, GuildId, UserId};
use crate::games::{GameKind, Options};
use crate::puzzles::{Puzzle, Source};
use crate::rating::{after_game, Rating, Score};

/// Where a stored puzzle comes from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Origin {
    /// The starter set shipped with hexcord (games of the bot against itself).
    Starter,
    /// A stored game, credited to its two players (first colour first).
    Game { game: i64, players: [UserId; 2] },
}

/// A stored puzzle.
#[derive(Clone, PartialEq, Debug)]
pub struct PuzzleRow {
    pub id: i64,
    pub kind: GameKind,
    /// The puzzle itself; its `source.game` is the stored game's id for [`Origin::Game`].
    pub puzzle: Puzzle,
    pub origin: Origin,
    /// The puzzle's own rating.
    pub rating: Rating,
    pub created_at: i64,
}

impl<'r> FromRow<'r, DbRow> for PuzzleRow {
    fn from_row(row: &'r DbRow) -> Result<Self, sqlx::Error> {
        let bad = |why: String| sqlx::Error::Decode(why.into());
        let solution: String = row.try_get("solution")?;
        let solution: Vec<String> = serde_json::from_str(&solution)
            .map_err(|e| bad(format!("the solution is not a JSON list of moves: {e}")))?;
        let to_move: i64 = row.try_get("to_move")?;
        let difficulty: i64 = row.try_get("difficulty")?;
        let ply: i64 = row.try_get("ply")?;
        let origin: String = row.try_get("origin")?;
        let game: Option<i64> = row.try_get("game_id")?;
        let first: Option<UserId> = row.try_get("first_player_id")?;
        let second: Option<UserId> = row.try_get("second_player_id")?;
        let origin = match (origin.as_str(), game, first, second) {
            ("starter", _, _, _) => Origin::Starter,
            ("game", Some(game), Some(a), Some(b)) => Origin::Game {
                game,
                players: [a, b],
            },
            (other, ..) => return Err(bad(format!("origin `{other}` without its game"))),
        };
        Ok(PuzzleRow {
            id: row.try_get("id")?,
            kind: row.try_get("kind")?,
            puzzle: Puzzle {
                variant: row.try_get("variant")?,
                position: row.try_get("position")?,
                to_move: u8::try_from(to_move)
                    .ok()
                    .filter(|&c| c < 2)
                    .ok_or_else(|| bad(format!("side to move {to_move}")))?,
                solution,
                difficulty: u8::try_from(difficulty)
                    .map_err(|_| bad(format!("difficulty {difficulty}")))?,
                chance: row.try_get("chance")?,
                second: row.try_get("second_chance")?,
                source: Source {
                    game: match origin {
                        Origin::Game { game, .. } => Some(game),
                        Origin::Starter => None,
                    },
                    ply: usize::try_from(ply).map_err(|_| bad(format!("ply {ply}")))?,
                    played: row.try_get("played")?,
                },
                // Not stored: a puzzle is proven before it is stored.
                proof: None,
            },
            origin,
            rating: Rating {
                rating: row.try_get("rating")?,
                deviation: row.try_get("deviation")?,
                volatility: row.try_get("volatility")?,
            },
            created_at: row.try_get("created_at")?,
        })
    }
}

/// A new puzzle's rating: 1500 for difficulty 3, 200 less or more a step easier or harder, as
/// unsure as a new member's (±350), so that the first attempts move it where it belongs.
pub fn start_rating(difficulty: u8) -> Rating {
    Rating {
        rating: Rating::START.rating + 200.0 * (f64::from(difficulty.clamp(1, 5)) - 3.0),
        ..Rating::START
    }
}

/// Stores `puzzle` from `origin` with its starting rating; `None` (nothing changed) when its
/// position is stored already, or when its variant is not one hexcord plays.
pub async fn store_puzzle(
    ex: impl Executor<'_>,
    puzzle: &Puzzle,
    origin: Origin,
    now: i64,
) -> Result<Option<i64>, DbError> {
    let Ok(options) = Options::parse_line(&puzzle.variant) else {
        return Ok(None);
    };
    let solution = serde_json::to_string(&puzzle.solution).unwrap_or_else(|_| "[]".into());
    let (name, game, players) = match origin {
        Origin::Starter => ("starter", None, [None, None]),
        Origin::Game { game, players } => ("game", Some(game), players.map(Some)),
    };
    let r = start_rating(puzzle.difficulty);
    Ok(sqlx::query_scalar(
        "INSERT INTO puzzles (kind, variant, position, to_move, solution, difficulty, chance,
                              second_chance, origin, game_id, first_player_id, second_player_id,
                              ply, played, rating, deviation, volatility, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
         ON CONFLICT (variant, position) DO NOTHING RETURNING id",
    )
    .bind(options.kind())
    .bind(&puzzle.variant)
    .bind(&puzzle.position)
    .bind(i64::from(puzzle.to_move))
    .bind(solution)
    .bind(i64::from(puzzle.difficulty))
    .bind(puzzle.chance)
    .bind(puzzle.second)
    .bind(name)
    .bind(game)
    .bind(players[0])
    .bind(players[1])
    .bind(puzzle.source.ply as i64)
    .bind(puzzle.source.played.as_deref())
    .bind(r.rating)
    .bind(r.deviation)
    .bind(r.volatility)
    .bind(now)
    .fetch_optional(ex)
    .await?)
}

/// Stores each of `puzzles` from `origin` ([`store_puzzle`]) in one transaction; returns how
/// many were new.
pub async fn store_puzzles(
    conn: &mut Conn,
    puzzles: &[Puzzle],
    origin: Origin,
    now: i64,
) -> Result<usize, DbError> {
    let mut tx = sqlx::Connection::begin(&mut *conn).await?;
    let mut added = 0;
    for p in puzzles {
        if store_puzzle(&mut *tx, p, origin, now).await?.is_some() {
            added += 1;
        }
    }
    tx.commit().await?;
    Ok(added)
}

/// Retires the starter puzzles not in `set` (the set now shipped): they stay stored for the
/// attempts and posts that name them, and are never given or posted again. Returns how many
/// were retired now.
pub async fn retire_starter_puzzles(
    conn: &mut Conn,
    set: &[Puzzle],
    now: i64,
) -> Result<usize, DbError> {
    use sqlx::Row;
    let shipped: std::collections::HashSet<(&str, &str)> = set
        .iter()
        .map(|p| (p.variant.as_str(), p.position.as_str()))
        .collect();
    let rows = sqlx::query(
        "SELECT id, variant, position FROM puzzles WHERE origin = 'starter' AND retired_at IS NULL",
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut retired = 0;
    for row in &rows {
        let id: i64 = row.try_get("id")?;
        let variant: String = row.try_get("variant")?;
        let position: String = row.try_get("position")?;
        if !shipped.contains(&(variant.as_str(), position.as_str())) {
            sqlx::query("UPDATE puzzles SET retired_at = $2 WHERE id = $1")
                .bind(id)
                .bind(now)
                .execute(&mut *conn)
                .await?;
            retired += 1;
        }
    }
    Ok(retired)
}

/// Puzzle `id`; `None` when there is none, or when its row cannot be read (reported).
pub async fn fetch_puzzle(ex: impl Executor<'_>, id: i64) -> Result<Option<PuzzleRow>, DbError> {
    let row = sqlx::query("SELECT * FROM puzzles WHERE id = $1")
        .bind(id)
        .fetch_optional(ex)
        .await?;
    Ok(row.and_then(|r| super::decode_each("puzzles", &[r]).pop()))
}

/// How many puzzles are stored and not retired (of one game, or of all).
pub async fn count_puzzles(ex: impl Executor<'_>, kind: Option<GameKind>) -> Result<i64, DbError> {
    Ok(match kind {
        Some(k) => sqlx::query_scalar(
            "SELECT COUNT(*) FROM puzzles WHERE kind = $1 AND retired_at IS NULL",
        )
        .bind(k),
        None => sqlx::query_scalar("SELECT COUNT(*) FROM puzzles WHERE retired_at IS NULL"),
    }
    .fetch_one(ex)
    .await?)
}

/// Puzzles read in a row by [`next_puzzle`]: a damaged one is skipped (and reported), the next
/// nearest is given.
const NEAREST: i64 = 8;

/// The puzzle for `player` in pool `guild`: of game `kind` (or any), never attempted by them,
/// the nearest to their puzzle rating there (a new member's is [`Rating::START`]'s); ties by
/// the lower id. `None` when they attempted every one.
pub async fn next_puzzle(
    conn: &mut Conn,
    player: UserId,
    guild: GuildId,
    kind: Option<GameKind>,
) -> Result<Option<PuzzleRow>, DbError> {
    let near = fetch_puzzle_rating(&mut *conn, guild, player)
        .await?
        .map_or(Rating::START.rating, |r| r.rating);
    let unseen = "p.retired_at IS NULL AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a
                               WHERE a.puzzle_id = p.id AND a.player_id = $1)";
    let rows = match kind {
        Some(k) => sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT p.* FROM puzzles p WHERE {unseen} AND p.kind = $4
             ORDER BY ABS(p.rating - $2), p.id LIMIT $3"
        )))
        .bind(player)
        .bind(near)
        .bind(NEAREST)
        .bind(k),
        None => sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT p.* FROM puzzles p WHERE {unseen}
             ORDER BY ABS(p.rating - $2), p.id LIMIT $3"
        )))
        .bind(player)
        .bind(near)
        .bind(NEAREST),
    }
    .fetch_all(&mut *conn)
    .await?;
    let rows: Vec<PuzzleRow> = super::decode_each("puzzles", &rows);
    Ok(rows.into_iter().find(|p| match p.puzzle.game() {
        Ok(_) => true,
        Err(why) => {
            super::report_bad_row("puzzles", p.id, &why);
            false
        }
    }))
}

/// Where an attempt stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AttemptStatus {
    /// Being solved.
    Open,
    Solved,
    Failed,
}

impl AttemptStatus {
    fn name(self) -> &'static str {
        match self {
            AttemptStatus::Open => "open",
            AttemptStatus::Solved => "solved",
            AttemptStatus::Failed => "failed",
        }
    }
}

/// A member's attempt at a puzzle (their first, the only one).
#[derive(Clone, PartialEq, Debug)]
pub struct AttemptRow {
    pub id: i64,
    pub puzzle_id: i64,
    pub player_id: UserId,
    /// The pool it is rated in: a server, or [`crate::play::chats::RATINGS`].
    pub guild_id: GuildId,
    pub status: AttemptStatus,
    /// Moves of the solution line played so far (the solver's and the replies).
    pub step: i64,
    pub started_at: i64,
    pub finished_at: Option<i64>,
}

impl<'r> FromRow<'r, DbRow> for AttemptRow {
    fn from_row(row: &'r DbRow) -> Result<Self, sqlx::Error> {
        let status: String = row.try_get("status")?;
        let status = match status.as_str() {
            "open" => AttemptStatus::Open,
            "solved" => AttemptStatus::Solved,
            "failed" => AttemptStatus::Failed,
            other => return Err(sqlx::Error::Decode(format!("status `{other}`").into())),
        };
        Ok(AttemptRow {
            id: row.try_get("id")?,
            puzzle_id: row.try_get("puzzle_id")?,
            player_id: row.try_get("player_id")?,
            guild_id: row.try_get("guild_id")?,
            status,
            step: row.try_get("step")?,
            started_at: row.try_get("started_at")?,
            finished_at: row.try_get("finished_at")?,
        })
    }
}

/// Starts `player`'s attempt at `puzzle` in pool `guild`; `None` (nothing changed) when they
/// attempted it before: only the first attempt counts.
pub async fn start_attempt(
    ex: impl Executor<'_>,
    puzzle: i64,
    player: UserId,
    guild: GuildId,
    now: i64,
) -> Result<Option<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "INSERT INTO puzzle_attempts (puzzle_id, player_id, guild_id, status, step, started_at)
         VALUES ($1, $2, $3, 'open', 0, $4)
         ON CONFLICT (puzzle_id, player_id) DO NOTHING RETURNING id",
    )
    .bind(puzzle)
    .bind(player)
    .bind(guild)
    .bind(now)
    .fetch_optional(ex)
    .await?)
}

/// Attempt `id`; `None` when there is none or it cannot be read (reported).
pub async fn fetch_attempt(ex: impl Executor<'_>, id: i64) -> Result<Option<AttemptRow>, DbError> {
    let row = sqlx::query("SELECT * FROM puzzle_attempts WHERE id = $1")
        .bind(id)
        .fetch_optional(ex)
        .await?;
    Ok(row.and_then(|r| super::decode_each("puzzle_attempts", &[r]).pop()))
}

/// `player`'s attempt still open in pool `guild` (the latest), to take up again.
pub async fn open_attempt(
    ex: impl Executor<'_>,
    player: UserId,
    guild: GuildId,
) -> Result<Option<AttemptRow>, DbError> {
    let rows = sqlx::query(
        "SELECT * FROM puzzle_attempts WHERE player_id = $1 AND guild_id = $2 AND status = 'open'
         ORDER BY id DESC LIMIT 1",
    )
    .bind(player)
    .bind(guild)
    .fetch_all(ex)
    .await?;
    Ok(super::decode_each("puzzle_attempts", &rows).pop())
}

/// Moves open attempt `id` on from `from` to `to` moves of its line: `false` (nothing changed)
/// when it is no longer open at `from` (a second press of the same button).
pub async fn advance_attempt(
    ex: impl Executor<'_>,
    id: i64,
    from: i64,
    to: i64,
) -> Result<bool, DbError> {
    Ok(sqlx::query(
        "UPDATE puzzle_attempts SET step = $3 WHERE id = $1 AND step = $2 AND status = 'open'",
    )
    .bind(id)
    .bind(from)
    .bind(to)
    .execute(ex)
    .await?
    .rows_affected()
        == 1)
}

/// A member's puzzle rating in one pool, with their record.
#[derive(Clone, PartialEq, Debug)]
pub struct PuzzleRatingRow {
    pub guild_id: GuildId,
    pub player_id: UserId,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub solved: i64,
    pub failed: i64,
    /// Puzzles solved in a row, up to the latest.
    pub streak: i64,
    pub best_streak: i64,
    pub updated_at: i64,
}

impl PuzzleRatingRow {
    /// A member's row before their first puzzle in a pool.
    pub fn new(guild: GuildId, player: UserId, now: i64) -> PuzzleRatingRow {
        PuzzleRatingRow {
            guild_id: guild,
            player_id: player,
            rating: Rating::START.rating,
            deviation: Rating::START.deviation,
            volatility: Rating::START.volatility,
            solved: 0,
            failed: 0,
            streak: 0,
            best_streak: 0,
            updated_at: now,
        }
    }

    pub fn glicko(&self) -> Rating {
        Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

impl<'r> FromRow<'r, DbRow> for PuzzleRatingRow {
    fn from_row(row: &'r DbRow) -> Result<Self, sqlx::Error> {
        Ok(PuzzleRatingRow {
            guild_id: row.try_get("guild_id")?,
            player_id: row.try_get("player_id")?,
            rating: row.try_get("rating")?,
            deviation: row.try_get("deviation")?,
            volatility: row.try_get("volatility")?,
            solved: row.try_get("solved")?,
            failed: row.try_get("failed")?,
            streak: row.try_get("streak")?,
            best_streak: row.try_get("best_streak")?,
            updated_at: row.try_get("updated_at")?,
        })
    }
}

/// `player`'s puzzle rating in pool `guild`, if they attempted a puzzle there.
pub async fn fetch_puzzle_rating(
    ex: impl Executor<'_>,
    guild: GuildId,
    player: UserId,
) -> Result<Option<PuzzleRatingRow>, DbError> {
    Ok(
        sqlx::query_as("SELECT * FROM puzzle_ratings WHERE guild_id = $1 AND player_id = $2")
            .bind(guild)
            .bind(player)
            .fetch_optional(ex)
            .await?,
    )
}

async fn store_puzzle_rating(ex: impl Executor<'_>, r: &PuzzleRatingRow) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO puzzle_ratings (guild_id, player_id, rating, deviation, volatility, solved,
                                    failed, streak, best_streak, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (guild_id, player_id) DO UPDATE SET
            rating = excluded.rating, deviation = excluded.deviation,
            volatility = excluded.volatility, solved = excluded.solved, failed = excluded.failed,
            streak = excluded.streak, best_streak = excluded.best_streak,
            updated_at = excluded.updated_at",
    )
    .bind(r.guild_id)
    .bind(r.player_id)
    .bind(r.rating)
    .bind(r.deviation)
    .bind(r.volatility)
    .bind(r.solved)
    .bind(r.failed)
    .bind(r.streak)
    .bind(r.best_streak)
    .bind(r.updated_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// A pool's puzzle leaderboard: the `limit` highest ratings (ties by the most solved, then
/// player id).
pub async fn puzzle_leaderboard(
    ex: impl Executor<'_>,
    guild: GuildId,
    limit: i64,
) -> Result<Vec<PuzzleRatingRow>, DbError> {
    Ok(sqlx::query_as(
        "SELECT * FROM puzzle_ratings WHERE guild_id = $1
         ORDER BY rating DESC, solved DESC, player_id LIMIT $2",
    )
    .bind(guild)
    .bind(limit)
    .fetch_all(ex)
    .await?)
}

/// What an attempt's end did to the ratings.
#[derive(Clone, PartialEq, Debug)]
pub struct Rated {
    /// The member's puzzle rating in the attempt's pool, before and after.
    pub before: PuzzleRatingRow,
    pub after: PuzzleRatingRow,
    /// The puzzle's rating after.
    pub puzzle: Rating,
}

/// Ends open attempt `id` at `from` moves of its line, solved or failed, and rates it: the
/// member's puzzle rating in the attempt's pool against the puzzle's (a win when solved), the
/// puzzle's against the member's, the member's record and streak. `None` (nothing changed) when
/// the attempt is no longer open at `from` (a second press). Call it in a transaction: it takes
/// the puzzle's row first, so two members finishing it at once are both counted.
pub async fn finish_attempt(
    conn: &mut Conn,
    id: i64,
    from: i64,
    solved: bool,
    now: i64,
) -> Result<Option<Rated>, DbError> {
    let status = if solved {
        AttemptStatus::Solved
    } else {
        AttemptStatus::Failed
    };
    let ended = sqlx::query(
        "UPDATE puzzle_attempts SET status = $3, finished_at = $4
          WHERE id = $1 AND step = $2 AND status = 'open'",
    )
    .bind(id)
    .bind(from)
    .bind(status.name())
    .bind(now)
    .execute(&mut *conn)
    .await?;
    if ended.rows_affected() != 1 {
        return Ok(None);
    }
    let Some(attempt) = fetch_attempt(&mut *conn, id).await? else {
        return Ok(None);
    };
    sqlx::query("UPDATE puzzles SET rating = rating WHERE id = $1")
        .bind(attempt.puzzle_id)
        .execute(&mut *conn)
        .await?;
    let puzzle: Option<(f64, f64, f64)> =
        sqlx::query_as("SELECT rating, deviation, volatility FROM puzzles WHERE id = $1")
            .bind(attempt.puzzle_id)
            .fetch_optional(&mut *conn)
            .await?;
    let Some((rating, deviation, volatility)) = puzzle else {
        return Ok(None);
    };
    let puzzle = Rating {
        rating,
        deviation,
        volatility,
    };
    let (guild, player) = (attempt.guild_id, attempt.player_id);
    let before = fetch_puzzle_rating(&mut *conn, guild, player)
        .await?
        .unwrap_or_else(|| PuzzleRatingRow::new(guild, player, now));
    let score = if solved { Score::Win } else { Score::Loss };
    let (member, puzzle) = after_game(before.glicko(), puzzle, score);
    let mut after = before.clone();
    after.rating = member.rating;
    after.deviation = member.deviation;
    after.volatility = member.volatility;
    if solved {
        after.solved += 1;
        after.streak += 1;
        after.best_streak = after.best_streak.max(after.streak);
    } else {
        after.failed += 1;
        after.streak = 0;
    }
    after.updated_at = now;
    store_puzzle_rating(&mut *conn, &after).await?;
    sqlx::query("UPDATE puzzles SET rating = $2, deviation = $3, volatility = $4 WHERE id = $1")
        .bind(attempt.puzzle_id)
        .bind(puzzle.rating)
        .bind(puzzle.deviation)
        .bind(puzzle.volatility)
        .execute(&mut *conn)
        .await?;
    Ok(Some(Rated {
        before,
        after,
        puzzle,
    }))
}

#[cfg(test)]
mod tests;

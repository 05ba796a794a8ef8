//! Correspondence time around the games' clocks: a member's time zone and how they hear of their
//! turns (per move, a daily digest, or not at all), the digest claimed once a day, a server's time
//! zone and weekends-off default, and pauses by agreement.
//!
//! A value that cannot be what it stands for (a time zone that is not an IANA name, a digest
//! without its hour) is read back as an error naming the column, never as a default.

use chrono_tz::Tz;
use sqlx::Row;

use super::{DbError, Executor, GuildId, UserId};
use crate::time_control::time_zone;

/// How a member hears that games wait for their move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Notifications {
    /// A notice for each move, as before digests (the default).
    #[default]
    PerMove,
    /// One direct message a day, at this hour (0–23) in the member's time zone, listing every
    /// game waiting for them.
    Digest { hour: u8 },
    /// Nothing: the member looks for themselves.
    None,
}

impl Notifications {
    /// The stored word and digest hour.
    fn stored(self) -> (&'static str, Option<i64>) {
        match self {
            Notifications::PerMove => ("move", None),
            Notifications::Digest { hour } => ("digest", Some(hour.into())),
            Notifications::None => ("none", None),
        }
    }

    fn read(word: &str, hour: Option<i64>) -> Result<Notifications, String> {
        match (word, hour) {
            ("move", _) => Ok(Notifications::PerMove),
            ("none", _) => Ok(Notifications::None),
            ("digest", Some(h)) => match u8::try_from(h) {
                Ok(hour) if hour < 24 => Ok(Notifications::Digest { hour }),
                _ => Err(format!("digest hour {h} is not 0–23")),
            },
            ("digest", None) => Err("a digest without its hour".into()),
            (other, _) => Err(format!("`{other}` is not move, digest or none")),
        }
    }
}

/// A member's time settings.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct TimeSettings {
    /// Their time zone, when they set one.
    pub time_zone: Option<Tz>,
    pub notifications: Notifications,
}

fn corrupt(column: &str, why: String) -> DbError {
    DbError::Sqlx(sqlx::Error::ColumnDecode {
        index: column.into(),
        source: why.into(),
    })
}

/// Reads a stored time zone name.
fn read_zone(column: &str, name: Option<String>) -> Result<Option<Tz>, DbError> {
    name.map(|n| time_zone(&n).ok_or_else(|| corrupt(column, format!("`{n}` is not a time zone"))))
        .transpose()
}

/// A member's time settings (the defaults when never set).
pub async fn fetch_time_settings(
    ex: impl Executor<'_>,
    id: UserId,
) -> Result<TimeSettings, DbError> {
    let row = sqlx::query(
        "SELECT time_zone, notifications, digest_hour FROM player_settings WHERE player_id = $1",
    )
    .bind(id)
    .fetch_optional(ex)
    .await?;
    let Some(row) = row else {
        return Ok(TimeSettings::default());
    };
    let word: String = row.try_get("notifications")?;
    Ok(TimeSettings {
        time_zone: read_zone("time_zone", row.try_get("time_zone")?)?,
        notifications: Notifications::read(&word, row.try_get("digest_hour")?)
            .map_err(|why| corrupt("notifications", why))?,
    })
}

/// Stores a member's time zone (`None`: the server's, else UTC). The member must be known.
pub async fn store_time_zone(
    ex: impl Executor<'_>,
    id: UserId,
    zone: Option<Tz>,
    now: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO player_settings (player_id, time_zone, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (player_id) DO UPDATE SET time_zone = excluded.time_zone,
                                               updated_at = excluded.updated_at",
    )
    .bind(id)
    .bind(zone.map(|z| z.name()))
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Stores how a member hears of their turns. A digest chosen anew is next sent at its hour.
pub async fn store_notifications(
    ex: impl Executor<'_>,
    id: UserId,
    notifications: Notifications,
    now: i64,
) -> Result<(), DbError> {
    let (word, hour) = notifications.stored();
    sqlx::query(
        "INSERT INTO player_settings (player_id, notifications, digest_hour, updated_at)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (player_id) DO UPDATE SET notifications = excluded.notifications,
                                               digest_hour = excluded.digest_hour,
                                               updated_at = excluded.updated_at",
    )
    .bind(id)
    .bind(word)
    .bind(hour)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// A member who takes a daily digest.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DigestReader {
    pub player: UserId,
    pub hour: u8,
    /// Their own time zone (`None`: not set).
    pub time_zone: Option<Tz>,
    /// The last local day whose digest was claimed.
    pub last_day: Option<i64>,
}

/// The members who take a daily digest and have a game waiting for their move. A row that
/// cannot be read is left out (and reported once); it never stops the others.
pub async fn digest_readers(ex: impl Executor<'_>) -> Result<Vec<DigestReader>, DbError> {
    let rows = sqlx::query(
        "SELECT s.player_id, s.digest_hour, s.time_zone, s.digest_day FROM player_settings s
          WHERE s.notifications = 'digest'
            AND EXISTS (SELECT 1 FROM games g WHERE g.status = 'active' AND g.to_move_id = s.player_id)
          ORDER BY s.player_id",
    )
    .fetch_all(ex)
    .await?;
    let mut readers = Vec::with_capacity(rows.len());
    for row in rows {
        let read = || -> Result<DigestReader, DbError> {
            let hour: Option<i64> = row.try_get("digest_hour")?;
            let Notifications::Digest { hour } =
                Notifications::read("digest", hour).map_err(|why| corrupt("digest_hour", why))?
            else {
                return Err(corrupt("digest_hour", "not a digest".into()));
            };
            Ok(DigestReader {
                player: row.try_get("player_id")?,
                hour,
                time_zone: read_zone("time_zone", row.try_get("time_zone")?)?,
                last_day: row.try_get("digest_day")?,
            })
        };
        match read() {
            Ok(r) => readers.push(r),
            Err(e) => {
                let id = row.try_get::<i64, _>("player_id").unwrap_or(0);
                super::report_bad_row("player_settings", id, &e);
            }
        }
    }
    Ok(readers)
}

/// Claims the digest of local day `day` for `player`: `true` for the one caller that moves their
/// last digest day forward to it, so the digest is sent once whatever restarts or processes.
pub async fn claim_digest(
    ex: impl Executor<'_>,
    player: UserId,
    day: i64,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE player_settings SET digest_day = $2
          WHERE player_id = $1 AND notifications = 'digest'
            AND (digest_day IS NULL OR digest_day < $2)",
    )
    .bind(player)
    .bind(day)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The active games where `player` is to move, by id. A game that cannot be read is left out
/// (and reported once).
pub async fn games_waiting_for(
    conn: &mut super::Conn,
    player: UserId,
) -> Result<Vec<super::GameRow>, DbError> {
    let ids: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM games WHERE status = 'active' AND to_move_id = $1 ORDER BY id",
    )
    .bind(player)
    .fetch_all(&mut *conn)
    .await?;
    let mut rows = Vec::with_capacity(ids.len());
    for id in ids {
        match super::fetch_game(&mut *conn, id).await {
            Ok(Some(row)) => rows.push(row),
            Ok(None) => {}
            Err(DbError::Sqlx(e @ sqlx::Error::ColumnDecode { .. })) => {
                super::report_bad_row("games", id, &e)
            }
            Err(e) => return Err(e),
        }
    }
    Ok(rows)
}

/// Another active game (not `except`) where `player` is to move: the one whose deadline comes
/// first (games without one last).
pub async fn next_game_waiting_for(
    ex: impl Executor<'_>,
    player: UserId,
    except: i64,
) -> Result<Option<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM games WHERE status = 'active' AND to_move_id = $1 AND id <> $2
          ORDER BY CASE WHEN deadline_at IS NULL THEN 1 ELSE 0 END, deadline_at, id
          LIMIT 1",
    )
    .bind(player)
    .bind(except)
    .fetch_optional(ex)
    .await?)
}

/// A server's clock defaults.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct ServerClock {
    /// The time zone of members who set none.
    pub time_zone: Option<Tz>,
    /// Whether new games take weekends off unless their challenge says otherwise.
    pub weekends_off: bool,
}

/// A server's clock defaults (none set: UTC, weekends played).
pub async fn fetch_server_clock(
    ex: impl Executor<'_>,
    guild: GuildId,
) -> Result<ServerClock, DbError> {
    let row =
        sqlx::query("SELECT time_zone, weekends_off FROM server_settings WHERE guild_id = $1")
            .bind(guild)
            .fetch_optional(ex)
            .await?;
    let Some(row) = row else {
        return Ok(ServerClock::default());
    };
    Ok(ServerClock {
        time_zone: read_zone("time_zone", row.try_get("time_zone")?)?,
        weekends_off: super::get_flag(&row, "weekends_off")?,
    })
}

/// Stores a server's clock defaults.
pub async fn store_server_clock(
    ex: impl Executor<'_>,
    guild: GuildId,
    clock: ServerClock,
    now: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO server_settings (guild_id, time_zone, weekends_off, updated_at)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (guild_id) DO UPDATE SET time_zone = excluded.time_zone,
                                              weekends_off = excluded.weekends_off,
                                              updated_at = excluded.updated_at",
    )
    .bind(guild)
    .bind(clock.time_zone.map(|z| z.name()))
    .bind(i64::from(clock.weekends_off))
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Where a pause stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PauseStatus {
    Proposed,
    Declined,
    Accepted,
}

impl PauseStatus {
    fn parse(s: &str) -> Option<PauseStatus> {
        Some(match s {
            "proposed" => PauseStatus::Proposed,
            "declined" => PauseStatus::Declined,
            "accepted" => PauseStatus::Accepted,
            _ => return None,
        })
    }
}

/// A pause of a game, proposed or agreed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pause {
    pub id: i64,
    pub game: i64,
    pub proposed_by: UserId,
    pub seconds: i64,
    pub proposed_at: i64,
    pub status: PauseStatus,
    /// `[starts_at, ends_at)` once accepted.
    pub span: Option<(i64, i64)>,
    /// The player who asked to resume early, until the other agrees.
    pub resume_by: Option<UserId>,
}

impl Pause {
    fn read(row: &super::DbRow) -> Result<Pause, DbError> {
        let status: String = row.try_get("status")?;
        let status = PauseStatus::parse(&status)
            .ok_or_else(|| corrupt("status", format!("`{status}` is not a pause status")))?;
        let starts: Option<i64> = row.try_get("starts_at")?;
        let ends: Option<i64> = row.try_get("ends_at")?;
        let span = match (status, starts, ends) {
            (PauseStatus::Accepted, Some(s), Some(e)) if s <= e => Some((s, e)),
            (PauseStatus::Accepted, _, _) => {
                return Err(corrupt(
                    "ends_at",
                    "an accepted pause without its span".into(),
                ))
            }
            _ => None,
        };
        Ok(Pause {
            id: row.try_get("id")?,
            game: row.try_get("game_id")?,
            proposed_by: row.try_get("proposed_by")?,
            seconds: row.try_get("seconds")?,
            proposed_at: row.try_get("proposed_at")?,
            status,
            span,
            resume_by: row.try_get("resume_by")?,
        })
    }
}

/// Proposes a pause of `seconds` in game `game`: its id, or `None` when a proposal is already
/// open there.
pub async fn propose_pause(
    ex: impl Executor<'_>,
    game: i64,
    by: UserId,
    seconds: i64,
    now: i64,
) -> Result<Option<i64>, DbError> {
    let id = sqlx::query_scalar(
        "INSERT INTO game_pauses (game_id, proposed_by, seconds, proposed_at, status)
         SELECT $1, $2, $3, $4, 'proposed'
          WHERE NOT EXISTS (SELECT 1 FROM game_pauses WHERE game_id = $1 AND status = 'proposed')
         RETURNING id",
    )
    .bind(game)
    .bind(by)
    .bind(seconds)
    .bind(now)
    .fetch_optional(ex)
    .await
    .or_else(|e| match e {
        // PostgreSQL: a proposal stored meanwhile by another transaction.
        sqlx::Error::Database(ref d) if d.is_unique_violation() => Ok(None),
        other => Err(other),
    })?;
    Ok(id)
}

/// A game's pause by id.
pub async fn fetch_pause(ex: impl Executor<'_>, id: i64) -> Result<Option<Pause>, DbError> {
    let row = sqlx::query("SELECT * FROM game_pauses WHERE id = $1")
        .bind(id)
        .fetch_optional(ex)
        .await?;
    row.as_ref().map(Pause::read).transpose()
}

/// Answers the open proposal `id`: accepted, the pause runs from `now` for its length. `false`
/// when it was answered already.
pub async fn answer_pause(
    ex: impl Executor<'_>,
    id: i64,
    accept: bool,
    now: i64,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE game_pauses SET status = $2,
                starts_at = CASE WHEN $2 = 'accepted' THEN $3 ELSE NULL END,
                ends_at = CASE WHEN $2 = 'accepted' THEN $3 + seconds ELSE NULL END
          WHERE id = $1 AND status = 'proposed'",
    )
    .bind(id)
    .bind(if accept { "accepted" } else { "declined" })
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Asks to end the running pause `id` early, or agrees to it when the other player asked:
/// `Some(true)` when the pause ended at `now`, `Some(false)` when the request is stored and waits
/// for the other player, `None` when the pause is not running at `now` or `by` asked already.
pub async fn resume_pause(
    ex: impl Executor<'_>,
    id: i64,
    by: UserId,
    now: i64,
) -> Result<Option<bool>, DbError> {
    let done = sqlx::query(
        "UPDATE game_pauses
            SET ends_at = CASE WHEN resume_by IS NULL THEN ends_at ELSE $3 END,
                resume_by = CASE WHEN resume_by IS NULL THEN $2 ELSE resume_by END
          WHERE id = $1 AND status = 'accepted' AND starts_at <= $3 AND ends_at > $3
            AND (resume_by IS NULL OR resume_by <> $2)
         RETURNING ends_at",
    )
    .bind(id)
    .bind(by)
    .bind(now)
    .fetch_optional(ex)
    .await?;
    Ok(match done {
        None => None,
        Some(row) => Some(row.try_get::<i64, _>("ends_at")? == now),
    })
}

/// The spans of a game's accepted pauses, by start.
pub async fn pause_spans(ex: impl Executor<'_>, game: i64) -> Result<Vec<(i64, i64)>, DbError> {
    let rows = sqlx::query("SELECT * FROM game_pauses WHERE game_id = $1 AND status = 'accepted'")
        .bind(game)
        .fetch_all(ex)
        .await?;
    let mut spans = Vec::with_capacity(rows.len());
    for row in &rows {
        spans.extend(Pause::read(row)?.span);
    }
    spans.sort_unstable();
    Ok(spans)
}

/// The pause of a game that is proposed or running at `now`, if any (a proposal first).
pub async fn open_pause(
    ex: impl Executor<'_>,
    game: i64,
    now: i64,
) -> Result<Option<Pause>, DbError> {
    let row = sqlx::query(
        "SELECT * FROM game_pauses
          WHERE game_id = $1 AND (status = 'proposed'
                OR (status = 'accepted' AND starts_at <= $2 AND ends_at > $2))
          ORDER BY CASE WHEN status = 'proposed' THEN 0 ELSE 1 END, id DESC",
    )
    .bind(game)
    .bind(now)
    .fetch_optional(ex)
    .await?;
    row.as_ref().map(Pause::read).transpose()
}

/// The vacations of a member, `[starts_at, ends_at)` by start, that end after `since`.
pub async fn vacation_spans(
    ex: impl Executor<'_>,
    player: UserId,
    since: i64,
) -> Result<Vec<(i64, i64)>, DbError> {
    Ok(sqlx::query_as(
        "SELECT starts_at, ends_at FROM vacations WHERE player_id = $1 AND ends_at > $2
          ORDER BY starts_at",
    )
    .bind(player)
    .bind(since)
    .fetch_all(ex)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::both_backends;

    const ANN: UserId = UserId(1);
    const BOB: UserId = UserId(u64::MAX);

    both_backends! {
        async fn time_settings_read_back_and_corrupt_ones_are_named(pool) {
            crate::db::games::game_with_players(&pool).await;
            assert_eq!(fetch_time_settings(&pool, ANN).await.unwrap(), TimeSettings::default());
            store_time_zone(&pool, ANN, Some(chrono_tz::Asia::Tokyo), 5).await.unwrap();
            store_notifications(&pool, ANN, Notifications::Digest { hour: 7 }, 6).await.unwrap();
            assert_eq!(
                fetch_time_settings(&pool, ANN).await.unwrap(),
                TimeSettings {
                    time_zone: Some(chrono_tz::Asia::Tokyo),
                    notifications: Notifications::Digest { hour: 7 },
                }
            );
            // A game waits for Ann: she is a digest reader; Bob is not.
            let readers = digest_readers(&pool).await.unwrap();
            assert_eq!(readers.len(), 1);
            assert_eq!((readers[0].player, readers[0].hour, readers[0].last_day), (ANN, 7, None));
            // Claimed once per day, whoever asks.
            assert!(claim_digest(&pool, ANN, 20_000).await.unwrap());
            assert!(!claim_digest(&pool, ANN, 20_000).await.unwrap());
            assert!(!claim_digest(&pool, ANN, 19_999).await.unwrap());
            assert!(claim_digest(&pool, ANN, 20_001).await.unwrap());
            assert!(!claim_digest(&pool, BOB, 20_001).await.unwrap());
            store_time_zone(&pool, ANN, None, 7).await.unwrap();
            assert_eq!(fetch_time_settings(&pool, ANN).await.unwrap().time_zone, None);

            sqlx::query("UPDATE player_settings SET time_zone = 'Mars/Olympus' WHERE player_id = $1")
                .bind(ANN)
                .execute(&pool)
                .await
                .unwrap();
            let err = fetch_time_settings(&pool, ANN).await.unwrap_err().to_string();
            assert!(err.contains("Mars/Olympus") && err.contains("time_zone"), "{err}");
            // The damaged row is left out of the digest, the scan goes on.
            assert!(digest_readers(&pool).await.unwrap().is_empty());
            sqlx::query("UPDATE player_settings SET time_zone = NULL, digest_hour = NULL WHERE player_id = $1")
                .bind(ANN)
                .execute(&pool)
                .await
                .unwrap();
            let err = fetch_time_settings(&pool, ANN).await.unwrap_err().to_string();
            assert!(err.contains("without its hour"), "{err}");
        }
    }

    both_backends! {
        async fn server_clock_defaults(pool) {
            let g = GuildId(9);
            assert_eq!(fetch_server_clock(&pool, g).await.unwrap(), ServerClock::default());
            let set = ServerClock { time_zone: Some(chrono_tz::Europe::Paris), weekends_off: true };
            store_server_clock(&pool, g, set, 1).await.unwrap();
            assert_eq!(fetch_server_clock(&pool, g).await.unwrap(), set);
        }
    }

    both_backends! {
        async fn pauses_are_proposed_once_answered_once_and_resumed_by_both(pool) {
            let game = crate::db::games::game_with_players(&pool).await;
            let id = propose_pause(&pool, game, ANN, 86_400, 100).await.unwrap().unwrap();
            assert_eq!(propose_pause(&pool, game, BOB, 3600, 101).await.unwrap(), None);
            assert_eq!(open_pause(&pool, game, 102).await.unwrap().map(|p| p.id), Some(id));
            assert!(answer_pause(&pool, id, true, 200).await.unwrap());
            assert!(!answer_pause(&pool, id, false, 201).await.unwrap());
            let p = fetch_pause(&pool, id).await.unwrap().unwrap();
            assert_eq!((p.status, p.span), (PauseStatus::Accepted, Some((200, 86_600))));
            assert_eq!(pause_spans(&pool, game).await.unwrap(), [(200, 86_600)]);
            // Resuming takes both players.
            assert_eq!(resume_pause(&pool, id, ANN, 300).await.unwrap(), Some(false));
            assert_eq!(resume_pause(&pool, id, ANN, 301).await.unwrap(), None);
            assert_eq!(resume_pause(&pool, id, BOB, 400).await.unwrap(), Some(true));
            assert_eq!(pause_spans(&pool, game).await.unwrap(), [(200, 400)]);
            assert_eq!(open_pause(&pool, game, 401).await.unwrap(), None);
            // A declined proposal leaves no span; the next one may be proposed.
            let id = propose_pause(&pool, game, BOB, 3600, 500).await.unwrap().unwrap();
            assert!(answer_pause(&pool, id, false, 501).await.unwrap());
            assert_eq!(pause_spans(&pool, game).await.unwrap(), [(200, 400)]);
        }
    }
}

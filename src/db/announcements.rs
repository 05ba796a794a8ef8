//! The delivery queue: public messages that follow from a change, stored in the same
//! transaction as the change and posted by the delivery task (`bot::delivery`).
//!
//! Each row belongs to a queue (`game:12`, `challenge:3`, `user:…`); within a queue rows are
//! delivered in `id` order, one at a time. A delivery claims its row with a lease
//! (`claimed_until`), so a second worker, or the same process after a crash, never posts a row
//! that is being posted, and a dead worker's claim runs out.

use super::{DbRow, Executor};
use serde::{Deserialize, Serialize};
use sqlx::{FromRow, Row};

use super::{ChannelId, DbError, MessageId, UserId};

/// Where an announcement goes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Target {
    /// A new message in a channel.
    Channel { channel: ChannelId },
    /// A direct message; when the member accepts none, `or_channel` (if any) instead.
    Direct {
        user: UserId,
        or_channel: Option<ChannelId>,
    },
    /// An edit of an earlier message (its buttons removed).
    Edit {
        channel: ChannelId,
        message: MessageId,
    },
    /// A message in the thread where game `game` is played, else in `channel`, its channel.
    Game { game: i64, channel: ChannelId },
    /// A line in `channel`, the channel of game `game`, posted only when the game has a thread
    /// (without one, the game's own messages are in the channel already).
    Parent { game: i64, channel: ChannelId },
    /// Opens the thread of game `game` in `channel`, started from the message `from` when there
    /// is one. The content is the thread's name; the members concerned are added to it.
    OpenThread {
        game: i64,
        channel: ChannelId,
        from: Option<MessageId>,
    },
    /// Archives the thread of game `game` (of `channel`), if it has one.
    Archive { game: i64, channel: ChannelId },
}

impl Target {
    /// The channel the target is in (for a game's thread, the game's channel).
    pub fn channel(&self) -> Option<ChannelId> {
        match *self {
            Target::Channel { channel }
            | Target::Edit { channel, .. }
            | Target::Game { channel, .. }
            | Target::Parent { channel, .. }
            | Target::OpenThread { channel, .. }
            | Target::Archive { channel, .. } => Some(channel),
            Target::Direct { .. } => None,
        }
    }
}

/// A game's board at a ply, drawn when the announcement is posted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardAt {
    pub game: i64,
    pub ply: i64,
    /// The posted message becomes the game's board message (`/turn` and `/games` link it).
    pub current: bool,
}

/// What to post, where, and who to tell when it cannot be posted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Announcement {
    pub target: Target,
    pub content: String,
    /// Members the message may ping.
    pub mentions: Vec<UserId>,
    pub board: Option<BoardAt>,
    /// Members told by direct message when the channel refuses the message for good.
    pub concerned: Vec<UserId>,
    /// The language it is written in (a tag of `assets/locales`): its picture and buttons
    /// follow it.
    #[serde(default = "english")]
    pub lang: String,
}

fn english() -> String {
    crate::i18n::FALLBACK.to_string()
}

impl Announcement {
    /// The queue keeping this announcement in order: its game's, else its target's.
    pub fn queue(&self, game: Option<i64>) -> String {
        match (game, &self.target) {
            (Some(g), _) => format!("game:{g}"),
            (None, Target::Direct { user, .. }) => format!("user:{user}"),
            (None, other) => format!("channel:{}", other.channel().unwrap_or_default()),
        }
    }
}

/// A queued announcement as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct QueuedAnnouncement {
    pub id: i64,
    pub queue: String,
    pub game_id: Option<i64>,
    pub body: Announcement,
    pub attempts: i64,
    pub created_at: i64,
}

impl<'r> FromRow<'r, DbRow> for QueuedAnnouncement {
    fn from_row(row: &'r DbRow) -> Result<Self, sqlx::Error> {
        let text: String = row.try_get("body")?;
        let body = serde_json::from_str(&text).map_err(|e| sqlx::Error::ColumnDecode {
            index: "body".into(),
            source: Box::new(e),
        })?;
        Ok(QueuedAnnouncement {
            id: row.try_get("id")?,
            queue: row.try_get("queue")?,
            game_id: row.try_get("game_id")?,
            body,
            attempts: row.try_get("attempts")?,
            created_at: row.try_get("created_at")?,
        })
    }
}

/// Unix time in milliseconds (the delivery queue's clock: real time, whatever the game clock).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Queues an announcement (call it in the transaction of the change it announces).
pub async fn enqueue(
    ex: impl Executor<'_>,
    game: Option<i64>,
    a: &Announcement,
) -> Result<i64, DbError> {
    let body = serde_json::to_string(a).map_err(|e| DbError::Corrupt {
        game: game.unwrap_or(0),
        why: format!("an announcement does not encode: {e}"),
    })?;
    let now = now_ms();
    let id = sqlx::query_scalar(
        "INSERT INTO announcements (queue, game_id, body, next_attempt_at, created_at)
         VALUES ($1, $2, $3, $4, $4) RETURNING id",
    )
    .bind(a.queue(game))
    .bind(game)
    .bind(body)
    .bind(now)
    .fetch_one(ex)
    .await?;
    Ok(id)
}

/// The announcements to post now: the first pending one of each queue, when it is due and
/// nobody holds it. Ids only, so an unreadable row cannot hide the others.
pub async fn due_announcements(
    ex: impl Executor<'_>,
    now_ms: i64,
    limit: i64,
) -> Result<Vec<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT a.id FROM announcements a
          WHERE a.status = 'pending' AND a.next_attempt_at <= $1
            AND (a.claimed_until IS NULL OR a.claimed_until <= $1)
            AND NOT EXISTS (SELECT 1 FROM announcements b
                             WHERE b.queue = a.queue AND b.status = 'pending' AND b.id < a.id)
          ORDER BY a.id LIMIT $2",
    )
    .bind(now_ms)
    .bind(limit)
    .fetch_all(ex)
    .await?)
}

/// When the next pending announcement is due (ms), if any is pending.
pub async fn next_due_at(ex: impl Executor<'_>) -> Result<Option<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT MIN(CASE WHEN next_attempt_at > COALESCE(claimed_until, 0) THEN next_attempt_at
                        ELSE COALESCE(claimed_until, 0) END)
           FROM announcements
          WHERE status = 'pending'",
    )
    .fetch_one(ex)
    .await?)
}

/// Claims a due announcement until `until` (ms): `None` when someone else holds it or it is no
/// longer pending. Counts the attempt.
pub async fn claim_announcement(
    ex: impl Executor<'_>,
    id: i64,
    now_ms: i64,
    until: i64,
) -> Result<Option<DbRow>, DbError> {
    Ok(sqlx::query(
        "UPDATE announcements SET claimed_until = $3, attempts = attempts + 1
          WHERE id = $1 AND status = 'pending'
            AND (claimed_until IS NULL OR claimed_until <= $2)
         RETURNING *",
    )
    .bind(id)
    .bind(now_ms)
    .bind(until)
    .fetch_optional(ex)
    .await?)
}

/// Marks an announcement posted (as message `message`, when known).
pub async fn mark_sent(
    ex: impl Executor<'_>,
    id: i64,
    message: Option<MessageId>,
    now_ms: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "UPDATE announcements SET status = 'sent', sent_at = $3, message_id = $2,
                claimed_until = NULL, error = NULL
          WHERE id = $1",
    )
    .bind(id)
    .bind(message)
    .bind(now_ms)
    .execute(ex)
    .await?;
    Ok(())
}

/// Gives an announcement back to the queue after a passing failure, to try again at `at` (ms).
pub async fn retry_later(
    ex: impl Executor<'_>,
    id: i64,
    at: i64,
    error: &str,
) -> Result<(), DbError> {
    sqlx::query(
        "UPDATE announcements SET next_attempt_at = $2, claimed_until = NULL, error = $3
          WHERE id = $1",
    )
    .bind(id)
    .bind(at)
    .bind(error)
    .execute(ex)
    .await?;
    Ok(())
}

/// Marks an announcement as refused for good (it is not tried again).
pub async fn mark_failed(ex: impl Executor<'_>, id: i64, error: &str) -> Result<(), DbError> {
    sqlx::query(
        "UPDATE announcements SET status = 'failed', claimed_until = NULL, error = $2 WHERE id = $1",
    )
    .bind(id)
    .bind(error)
    .execute(ex)
    .await?;
    Ok(())
}

/// The delay (ms) from its change to its delivery of each posted announcement queued after
/// announcement `after` (0: all), for figures.
pub async fn delivery_delays(ex: impl Executor<'_>, after: i64) -> Result<Vec<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT sent_at - created_at FROM announcements WHERE status = 'sent' AND id > $1
          ORDER BY id",
    )
    .bind(after)
    .fetch_all(ex)
    .await?)
}

/// The id of the last announcement queued (0 when none).
pub async fn last_announcement(ex: impl Executor<'_>) -> Result<i64, DbError> {
    let id: Option<i64> = sqlx::query_scalar("SELECT MAX(id) FROM announcements")
        .fetch_one(ex)
        .await?;
    Ok(id.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::both_backends;

    fn board(game: i64, ply: i64) -> Announcement {
        Announcement {
            target: Target::Channel {
                channel: ChannelId(5),
            },
            content: format!("game #{game} move {ply}"),
            mentions: vec![UserId(1)],
            board: Some(BoardAt {
                game,
                ply,
                current: true,
            }),
            concerned: vec![UserId(1), UserId(2)],
            lang: crate::i18n::FALLBACK.to_string(),
        }
    }

    both_backends! {
        async fn each_queue_delivers_in_order_one_at_a_time(pool) {
            let a1 = enqueue(&pool, Some(1), &board(1, 1)).await.unwrap();
            let a2 = enqueue(&pool, Some(1), &board(1, 2)).await.unwrap();
            let b1 = enqueue(&pool, Some(2), &board(2, 1)).await.unwrap();
            let now = now_ms() + 10;
            assert_eq!(due_announcements(&pool, now, 10).await.unwrap(), [a1, b1]);
            // Claimed: neither it nor the rest of its queue is offered to anyone else.
            let row = claim_announcement(&pool, a1, now, now + 1000)
                .await
                .unwrap()
                .expect("claimed");
            let claimed = QueuedAnnouncement::from_row(&row).unwrap();
            assert_eq!((claimed.body, claimed.attempts), (board(1, 1), 1));
            assert!(claim_announcement(&pool, a1, now, now + 1000)
                .await
                .unwrap()
                .is_none());
            assert_eq!(due_announcements(&pool, now, 10).await.unwrap(), [b1]);
            // A dead worker's claim runs out.
            assert_eq!(
                due_announcements(&pool, now + 1000, 10).await.unwrap(),
                [a1, b1]
            );
            mark_sent(&pool, a1, Some(MessageId(77)), now)
                .await
                .unwrap();
            assert_eq!(due_announcements(&pool, now, 10).await.unwrap(), [a2, b1]);
            // A passing failure waits; the queue behind it waits too.
            retry_later(&pool, a2, now + 5000, "HTTP 502")
                .await
                .unwrap();
            assert_eq!(due_announcements(&pool, now, 10).await.unwrap(), [b1]);
            assert!(next_due_at(&pool).await.unwrap().is_some_and(|t| t <= now));
            mark_failed(&pool, b1, "403").await.unwrap();
            assert!(due_announcements(&pool, now, 10).await.unwrap().is_empty());
            assert_eq!(next_due_at(&pool).await.unwrap(), Some(now + 5000));
            assert_eq!(
                due_announcements(&pool, now + 5000, 10).await.unwrap(),
                [a2]
            );
        }
    }
}

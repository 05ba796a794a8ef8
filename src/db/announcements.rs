//! The delivery queue: public messages that follow from a change, stored in the same
//! transaction as the change and posted by the delivery task (`bot::delivery`).
//!
//! Each row belongs to a queue (`game:12`, `challenge:3`, `user:…`); within a queue rows are
//! delivered in `id` order, one at a time. A delivery claims its row with a lease
//! (`claimed_until`), so a second worker, or the same process after a crash, never posts a row
//! that is being posted, and a dead worker's claim runs out.

use super::{backend_of, Backend, Conn, DbRow, Executor};
use serde::{Deserialize, Serialize};
use sqlx::{FromRow, Row};

use super::{ChannelId, DbError, GuildId, MessageId, UserId};

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
    /// A message in the thread of tournament `tournament`, else in `channel`, its channel.
    Tournament { tournament: i64, channel: ChannelId },
    /// Opens the thread of tournament `tournament` on its card, `message` in `channel`. The
    /// content is the thread's name.
    OpenTournamentThread {
        tournament: i64,
        channel: ChannelId,
        message: MessageId,
    },
    /// A new message in the thread of tournament `tournament` (else in `channel`, its channel)
    /// with the picture of its standings after round `round`, drawn when it is posted.
    Standings {
        channel: ChannelId,
        tournament: i64,
        round: i64,
    },
    /// An edit of tournament `tournament`'s card (`message` in `channel`): its Join and Leave
    /// buttons stay while it takes players.
    Card {
        channel: ChannelId,
        message: MessageId,
        tournament: i64,
    },
    /// A rematch offer in `channel`: challenge `challenge`, with its Accept, Decline and
    /// Withdraw buttons; once posted, the challenge's message. Refused for good, the challenge
    /// is withdrawn (nobody could answer it) and the members concerned are told.
    Rematch { channel: ChannelId, challenge: i64 },
    /// Seek `seek`'s card in `channel` (the server's seek channel), with its Accept and Withdraw
    /// buttons, pinging `roles` (the seek roles of its games); once posted, the seek's message.
    /// A seek closed before it is posted is not posted. Refused for good, the seek is withdrawn
    /// (nobody could take it) and its author told.
    Seek {
        channel: ChannelId,
        seek: i64,
        #[serde(default)]
        roles: Vec<super::RoleId>,
    },
    /// Takes the buttons off `message` in `channel`, a game's board that a newer one replaced.
    /// Queued in the write that makes the newer board the game's, each in a queue of its own
    /// ([`Lane::Cleanup`]), so that it is tried again until done and never delays a post.
    TakeButtons {
        channel: ChannelId,
        message: MessageId,
    },
    /// The daily puzzle of `guild` for its local day `day` ([`crate::play::daily`]): puzzle
    /// `puzzle`'s picture, drawn when it is posted, with its Solve button; once posted, the
    /// message is stored as the day's post ([`super::set_daily_post_message`]).
    DailyPuzzle {
        channel: ChannelId,
        guild: GuildId,
        day: i64,
        puzzle: i64,
    },
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
            | Target::Archive { channel, .. }
            | Target::Standings { channel, .. }
            | Target::Tournament { channel, .. }
            | Target::OpenTournamentThread { channel, .. }
            | Target::Card { channel, .. }
            | Target::Rematch { channel, .. }
            | Target::Seek { channel, .. }
            | Target::TakeButtons { channel, .. }
            | Target::DailyPuzzle { channel, .. } => Some(channel),
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
    /// A reminder's board: its buttons also offer the member's inbox.
    #[serde(default)]
    pub reminder: bool,
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
            (None, Target::TakeButtons { message, .. }) => format!("{CLEANUP}{message}"),
            (None, other) => format!("channel:{}", other.channel().unwrap_or_default()),
        }
    }
}

/// The start of the queues of [`Target::TakeButtons`]: one queue each, in [`Lane::Cleanup`].
pub const CLEANUP: &str = "buttons:";

/// The two lanes of the delivery queue, claimed apart so that the cleanup after posts (buttons
/// taken off old boards) never takes a post's place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// Posts, edits, threads: everything but the cleanup.
    Posts,
    /// Buttons taken off old boards ([`Target::TakeButtons`]).
    Cleanup,
}

impl Lane {
    /// The condition on `queue` of the lane's rows.
    fn filter(self) -> &'static str {
        match self {
            Lane::Posts => "queue NOT LIKE 'buttons:%'",
            Lane::Cleanup => "queue LIKE 'buttons:%'",
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

/// The first pending row of each queue among the `oldest` oldest pending rows, when it is due
/// and nobody holds it: up to `limit` ids, oldest first.
async fn due_heads(
    conn: &mut Conn,
    lane: Lane,
    now_ms: i64,
    limit: i64,
    oldest: i64,
) -> Result<Vec<i64>, DbError> {
    // A lane is a set of whole queues: the first row of a queue within the lane is its first.
    let sql = format!(
        "SELECT id FROM (
             SELECT id, next_attempt_at, claimed_until,
                    ROW_NUMBER() OVER (PARTITION BY queue ORDER BY id) AS place
               FROM (SELECT id, queue, next_attempt_at, claimed_until FROM announcements
                      WHERE status = 'pending' AND {lane} ORDER BY id LIMIT $3) oldest) heads
          WHERE place = 1 AND next_attempt_at <= $1
            AND (claimed_until IS NULL OR claimed_until <= $1)
          ORDER BY id LIMIT $2",
        lane = lane.filter()
    );
    Ok(sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
        .bind(now_ms)
        .bind(limit)
        .bind(oldest)
        .fetch_all(&mut *conn)
        .await?)
}

/// How many of the oldest pending announcements a claim looks through first.
const OLDEST: i64 = 256;

/// Claims up to `limit` of `lane`'s announcements to post now (the first pending one of each queue,
/// when it is due and nobody holds it, oldest first) until `until` (ms), counting an attempt on
/// each; the rows as claimed, in `id` order. Workers claiming at the same moment get different
/// rows (PostgreSQL: `FOR UPDATE SKIP LOCKED`; SQLite runs one write at a time), and never the
/// second of a queue whose first is held.
///
/// Two statements, neither with a join that a planner could turn quadratic. First the
/// candidates: each queue's first pending row, numbered within its queue by a window function,
/// not found by asking for each row whether an earlier one of its queue is pending — a join
/// PostgreSQL planned as a scan of all pending rows for each row (50–90 ms a claim at two
/// thousand pending) while the statistics of a young table said it held almost nothing. They
/// are looked for among the `OLDEST` (256) pending rows (a queue's earlier rows are older, so its
/// first row there is its first anywhere), and among all only when those give too few: while
/// the queues are many, a claim costs the same with ten or ten thousand rows waiting, and a
/// queue stuck on a failing channel does not hide the others. Then the claim of some of them, by id,
/// each checked again (a candidate another worker claimed meanwhile is left out); a candidate
/// stays its queue's first until it is posted, as rows are only added behind it. Up to four
/// times `limit` candidates are read, so that a worker racing another for the oldest still
/// finds rows of its own.
pub async fn claim_due_announcements(
    conn: &mut Conn,
    lane: Lane,
    now_ms: i64,
    until: i64,
    limit: i64,
) -> Result<Vec<DbRow>, DbError> {
    if limit <= 0 {
        return Ok(Vec::new());
    }
    let wanted = limit.saturating_mul(4);
    let mut candidates = due_heads(&mut *conn, lane, now_ms, wanted, OLDEST).await?;
    if (candidates.len() as i64) < wanted {
        // With fewer than OLDEST rows pending this reads the same rows again, which costs no
        // more than counting them first would.
        candidates = due_heads(&mut *conn, lane, now_ms, wanted, i64::MAX).await?;
    }
    if candidates.is_empty() {
        return Ok(Vec::new());
    }
    let lock = match backend_of(conn) {
        Backend::Postgres => " FOR UPDATE SKIP LOCKED",
        Backend::Sqlite => "",
    };
    let ids: Vec<String> = (0..candidates.len())
        .map(|i| format!("${}", i + 4))
        .collect();
    // Materialised, so that the search and its locks run once (as a subquery of the `UPDATE`,
    // PostgreSQL may run it again for each row).
    let sql = format!(
        "WITH claimed AS MATERIALIZED (
             SELECT id FROM announcements
              WHERE id IN ({ids}) AND status = 'pending'
                AND (claimed_until IS NULL OR claimed_until <= $1)
              ORDER BY id LIMIT $2{lock})
         UPDATE announcements SET claimed_until = $3, attempts = attempts + 1
          WHERE id IN (SELECT id FROM claimed)
         RETURNING *",
        ids = ids.join(", ")
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(now_ms)
        .bind(limit)
        .bind(until);
    for id in candidates {
        query = query.bind(id);
    }
    let mut rows = query.fetch_all(&mut *conn).await?;
    rows.sort_by_key(|row| row.try_get::<i64, _>("id").unwrap_or(i64::MAX));
    Ok(rows)
}

/// Extends to `until` (ms) the claims a worker still holds: each `(id, attempts)` of `held` is
/// an announcement it claimed at that attempt and has not finished with. A claim another worker
/// took since (its attempt counted again), or one given back or finished, is left alone. A
/// worker renews its claims while it works on them, so that a post waiting its turn longer
/// than a lease (under Discord's limits, behind newer posts) is never taken and posted by a
/// second worker, which would show a game's boards twice or out of order; a dead worker's
/// claims still run out. Returns how many claims were extended.
pub async fn renew_claims(
    ex: impl Executor<'_>,
    held: &[(i64, i64)],
    until: i64,
) -> Result<u64, DbError> {
    if held.is_empty() {
        return Ok(0);
    }
    let each: Vec<String> = (0..held.len())
        .map(|i| format!("(id = ${} AND attempts = ${})", 2 * i + 2, 2 * i + 3))
        .collect();
    let sql = format!(
        "UPDATE announcements SET claimed_until = $1
          WHERE status = 'pending' AND claimed_until IS NOT NULL AND ({})",
        each.join(" OR ")
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(until);
    for &(id, attempts) in held {
        query = query.bind(id).bind(attempts);
    }
    Ok(query.execute(ex).await?.rows_affected())
}

/// The pending announcements queued behind announcement `id` in queue `queue`, oldest first
/// (up to `limit`, and up to the first that does not read).
pub async fn queued_behind(
    ex: impl Executor<'_>,
    queue: &str,
    id: i64,
    limit: i64,
) -> Result<Vec<QueuedAnnouncement>, DbError> {
    let rows = sqlx::query(
        "SELECT * FROM announcements WHERE status = 'pending' AND queue = $1 AND id > $2
          ORDER BY id LIMIT $3",
    )
    .bind(queue)
    .bind(id)
    .bind(limit)
    .fetch_all(ex)
    .await?;
    // Up to the first one that does not read (its delivery reports it).
    Ok(rows
        .iter()
        .map_while(|row| QueuedAnnouncement::from_row(row).ok())
        .collect())
}

/// Folds the announcements `folded`, queued behind announcement `head` and never tried, into it:
/// `head` says `body` from now on (their news and its own), and they are marked sent, at
/// `now_ms` (the head's post, when it is made, sets their time and message again:
/// [`mark_folded_sent`]). Only for a head never tried before, as its post must not differ from
/// an earlier attempt's. False, with nothing changed, when one of them was taken meanwhile.
pub async fn fold_announcements(
    conn: &mut Conn,
    head: i64,
    body: &Announcement,
    folded: &[i64],
    now_ms: i64,
) -> Result<bool, DbError> {
    let text = serde_json::to_string(body).map_err(|e| DbError::Corrupt {
        game: 0,
        why: format!("an announcement does not encode: {e}"),
    })?;
    let mut tx = sqlx::Connection::begin(&mut *conn).await?;
    let changed = sqlx::query(
        "UPDATE announcements SET body = $2 WHERE id = $1 AND status = 'pending' AND attempts = 1",
    )
    .bind(head)
    .bind(text)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if changed != 1 {
        tx.rollback().await?;
        return Ok(false);
    }
    let ids: Vec<String> = (0..folded.len()).map(|i| format!("${}", i + 2)).collect();
    let sql = format!(
        "UPDATE announcements SET status = 'sent', sent_at = $1, claimed_until = NULL, error = NULL
          WHERE id IN ({}) AND status = 'pending' AND attempts = 0",
        ids.join(", ")
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(now_ms);
    for &id in folded {
        query = query.bind(id);
    }
    if query.execute(&mut *tx).await?.rows_affected() != folded.len() as u64 {
        // Given back at once: the head's row stays locked until then.
        tx.rollback().await?;
        return Ok(false);
    }
    tx.commit().await?;
    Ok(true)
}

/// Marks the announcements `folded` into another as posted with it (as message `message`).
pub async fn mark_folded_sent(
    ex: impl Executor<'_>,
    folded: &[i64],
    message: Option<MessageId>,
    now_ms: i64,
) -> Result<(), DbError> {
    if folded.is_empty() {
        return Ok(());
    }
    let ids: Vec<String> = (0..folded.len()).map(|i| format!("${}", i + 3)).collect();
    let sql = format!(
        "UPDATE announcements SET sent_at = $1, message_id = $2 WHERE id IN ({}) AND status = 'sent'",
        ids.join(", ")
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(now_ms)
        .bind(message);
    for &id in folded {
        query = query.bind(id);
    }
    query.execute(ex).await?;
    Ok(())
}

/// When the delivery task should look again (ms): the earliest time after `now_ms` at which a
/// pending announcement becomes due or its claim runs out, if any. Rows due now and unclaimed
/// are left out: they are claimed already, or wait behind their queue's first.
pub async fn next_due_at(ex: impl Executor<'_>, now_ms: i64) -> Result<Option<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT MIN(t) FROM (
             SELECT CASE WHEN next_attempt_at > COALESCE(claimed_until, 0) THEN next_attempt_at
                         ELSE claimed_until END AS t
               FROM announcements
              WHERE status = 'pending') times
          WHERE t > $1",
    )
    .bind(now_ms)
    .fetch_one(ex)
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

/// The delivery queue for monitoring: how many announcements wait to be posted, and when (ms) the
/// oldest of them was queued. Reads the pending rows only (a partial index), so it stays cheap
/// however many were ever sent.
pub async fn pending_summary(ex: impl Executor<'_>) -> Result<(i64, Option<i64>), DbError> {
    Ok(sqlx::query_as(
        "SELECT COUNT(*), MIN(created_at) FROM announcements WHERE status = 'pending'",
    )
    .fetch_one(ex)
    .await?)
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

/// The announcement that was posted as `message` (the last of those folded into it), while it is
/// stored.
pub async fn posted_as(
    ex: impl Executor<'_>,
    message: MessageId,
) -> Result<Option<Announcement>, DbError> {
    let body: Option<String> = sqlx::query_scalar(
        "SELECT body FROM announcements WHERE message_id = $1 AND status = 'sent'
          ORDER BY id DESC LIMIT 1",
    )
    .bind(message)
    .fetch_optional(ex)
    .await?;
    Ok(body.and_then(|b| serde_json::from_str(&b).ok()))
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
                reminder: false,
            }),
            concerned: vec![UserId(1), UserId(2)],
            lang: crate::i18n::FALLBACK.to_string(),
        }
    }

    /// The ids of rows as claimed, with their attempts.
    fn claimed(rows: &[DbRow]) -> Vec<(i64, i64)> {
        rows.iter()
            .map(|row| {
                let q = QueuedAnnouncement::from_row(row).unwrap();
                (q.id, q.attempts)
            })
            .collect()
    }

    both_backends! {
        async fn old_boards_buttons_are_claimed_apart_from_the_posts(pool) {
            let take = |message| Announcement {
                target: Target::TakeButtons {
                    channel: ChannelId(5),
                    message: MessageId(message),
                },
                content: String::new(),
                mentions: Vec::new(),
                board: None,
                concerned: Vec::new(),
                lang: crate::i18n::FALLBACK.to_string(),
            };
            // Older than the post, each in a queue of its own.
            let t1 = enqueue(&pool, None, &take(70)).await.unwrap();
            let t2 = enqueue(&pool, None, &take(71)).await.unwrap();
            let post = enqueue(&pool, Some(1), &board(1, 1)).await.unwrap();
            let mut conn = pool.acquire().await.unwrap();
            let now = now_ms() + 10;
            let rows = claim_due_announcements(&mut conn, Lane::Posts, now, now + 1000, 1)
                .await
                .unwrap();
            assert_eq!(claimed(&rows), [(post, 1)], "the post, not the older cleanup");
            let rows = claim_due_announcements(&mut conn, Lane::Cleanup, now, now + 1000, 10)
                .await
                .unwrap();
            assert_eq!(claimed(&rows), [(t1, 1), (t2, 1)], "the cleanup rows, at once");
            let body = QueuedAnnouncement::from_row(&rows[0]).unwrap().body;
            assert_eq!(body.queue(None), "buttons:70");
        }
    }

    both_backends! {
        async fn a_renewed_claim_stays_its_workers_past_its_first_lease(pool) {
            let a1 = enqueue(&pool, Some(1), &board(1, 1)).await.unwrap();
            let a2 = enqueue(&pool, Some(1), &board(1, 2)).await.unwrap();
            let mut conn = pool.acquire().await.unwrap();
            let now = now_ms() + 10;
            let lease = now + 1000;
            let rows = claim_due_announcements(&mut conn, Lane::Posts, now, lease, 10).await.unwrap();
            assert_eq!(claimed(&rows), [(a1, 1)]);
            // Still at work when its lease would run out: renewed, nobody else takes it, nor the
            // board behind it.
            assert_eq!(renew_claims(&pool, &[(a1, 1)], lease + 1000).await.unwrap(), 1);
            assert!(claim_due_announcements(&mut conn, Lane::Posts, lease, lease + 1000, 10)
                .await
                .unwrap()
                .is_empty());
            // Its worker gone quiet, the renewed lease runs out and another worker takes it.
            let rows = claim_due_announcements(&mut conn, Lane::Posts, lease + 1000, lease + 2000, 10)
                .await
                .unwrap();
            assert_eq!(claimed(&rows), [(a1, 2)]);
            // The first worker's claim is no longer its own: renewing it changes nothing.
            assert_eq!(renew_claims(&pool, &[(a1, 1)], lease + 9000).await.unwrap(), 0);
            assert!(claim_due_announcements(&mut conn, Lane::Posts, lease + 1500, lease + 3000, 10)
                .await
                .unwrap()
                .is_empty());
            // Nor are rows it finished or gave back.
            mark_sent(&pool, a1, Some(MessageId(77)), now).await.unwrap();
            assert_eq!(renew_claims(&pool, &[(a1, 2)], lease + 9000).await.unwrap(), 0);
            let rows = claim_due_announcements(&mut conn, Lane::Posts, lease + 2000, lease + 3000, 10)
                .await
                .unwrap();
            assert_eq!(claimed(&rows), [(a2, 1)]);
            retry_later(&pool, a2, lease + 2000, "HTTP 502").await.unwrap();
            assert_eq!(renew_claims(&pool, &[(a2, 1)], lease + 9000).await.unwrap(), 0);
            assert_eq!(renew_claims(&pool, &[], lease + 9000).await.unwrap(), 0);
        }
    }

    both_backends! {
        async fn each_queue_delivers_in_order_one_at_a_time(pool) {
            let a1 = enqueue(&pool, Some(1), &board(1, 1)).await.unwrap();
            let a2 = enqueue(&pool, Some(1), &board(1, 2)).await.unwrap();
            let b1 = enqueue(&pool, Some(2), &board(2, 1)).await.unwrap();
            let mut conn = pool.acquire().await.unwrap();
            let now = now_ms() + 10;
            let lease = now + 1000;
            // Oldest first, as many as asked.
            let rows = claim_due_announcements(&mut conn, Lane::Posts, now, lease, 1).await.unwrap();
            assert_eq!(claimed(&rows), [(a1, 1)]);
            assert_eq!(
                QueuedAnnouncement::from_row(&rows[0]).unwrap().body,
                board(1, 1)
            );
            // Claimed: neither it nor the rest of its queue is offered to anyone else.
            let rows = claim_due_announcements(&mut conn, Lane::Posts, now, lease, 10).await.unwrap();
            assert_eq!(claimed(&rows), [(b1, 1)]);
            assert!(claim_due_announcements(&mut conn, Lane::Posts, now, lease, 10)
                .await
                .unwrap()
                .is_empty());
            // Nothing to post before the claims run out.
            assert_eq!(next_due_at(&pool, now).await.unwrap(), Some(lease));
            // A dead worker's claims run out.
            let rows = claim_due_announcements(&mut conn, Lane::Posts, lease, lease + 1000, 10)
                .await
                .unwrap();
            assert_eq!(claimed(&rows), [(a1, 2), (b1, 2)]);
            mark_sent(&pool, a1, Some(MessageId(77)), now).await.unwrap();
            let rows = claim_due_announcements(&mut conn, Lane::Posts, lease, lease + 1000, 10)
                .await
                .unwrap();
            assert_eq!(claimed(&rows), [(a2, 1)]);
            // A passing failure waits; the queue behind it waits too.
            retry_later(&pool, a2, lease + 5000, "HTTP 502").await.unwrap();
            mark_failed(&pool, b1, "403").await.unwrap();
            assert!(claim_due_announcements(&mut conn, Lane::Posts, lease, lease + 1000, 10)
                .await
                .unwrap()
                .is_empty());
            assert_eq!(next_due_at(&pool, lease).await.unwrap(), Some(lease + 5000));
            let rows = claim_due_announcements(&mut conn, Lane::Posts, lease + 5000, lease + 6000, 10)
                .await
                .unwrap();
            assert_eq!(claimed(&rows), [(a2, 2)]);
            mark_sent(&pool, a2, None, lease + 5000).await.unwrap();
            assert_eq!(next_due_at(&pool, lease + 5000).await.unwrap(), None);
        }
    }

    both_backends! {
        async fn boards_queued_behind_fold_into_the_first(pool) {
            let a1 = enqueue(&pool, Some(1), &board(1, 1)).await.unwrap();
            let a2 = enqueue(&pool, Some(1), &board(1, 2)).await.unwrap();
            let other = enqueue(&pool, Some(2), &board(2, 1)).await.unwrap();
            let a3 = enqueue(&pool, Some(1), &board(1, 3)).await.unwrap();
            let mut conn = pool.acquire().await.unwrap();
            let now = now_ms() + 10;
            let rows = claim_due_announcements(&mut conn, Lane::Posts, now, now + 1000, 1).await.unwrap();
            assert_eq!(claimed(&rows), [(a1, 1)]);
            let behind = queued_behind(&pool, "game:1", a1, 10).await.unwrap();
            let ids: Vec<i64> = behind.iter().map(|q| q.id).collect();
            assert_eq!(ids, [a2, a3]);
            assert_eq!(behind[1].body, board(1, 3));
            let folded = Announcement {
                content: "moves 1 to 3".into(),
                ..board(1, 3)
            };
            assert!(fold_announcements(&mut conn, a1, &folded, &[a2, a3], now).await.unwrap());
            // The first says it all; the others left the queue: only the other game's row is
            // claimed, and nothing of game 1 once its first is posted.
            let rows = claim_due_announcements(&mut conn, Lane::Posts, now, now + 1000, 10).await.unwrap();
            assert_eq!(claimed(&rows), [(other, 1)]);
            mark_sent(&pool, other, None, now).await.unwrap();
            mark_sent(&pool, a1, Some(MessageId(9)), now + 50).await.unwrap();
            mark_folded_sent(&pool, &[a2, a3], Some(MessageId(9)), now + 50).await.unwrap();
            assert!(claim_due_announcements(&mut conn, Lane::Posts, now, now + 1000, 10)
                .await
                .unwrap()
                .is_empty());
            let stored: Vec<(i64, String, Option<i64>, Option<i64>)> = sqlx::query_as(
                "SELECT id, status, message_id, sent_at FROM announcements WHERE game_id = 1
                  ORDER BY id",
            )
            .fetch_all(&pool)
            .await
            .unwrap();
            let want = |id| (id, "sent".to_string(), Some(9), Some(now + 50));
            assert_eq!(stored, [want(a1), want(a2), want(a3)]);
            let head: String = sqlx::query_scalar("SELECT body FROM announcements WHERE id = $1")
                .bind(a1)
                .fetch_one(&pool)
                .await
                .unwrap();
            assert_eq!(serde_json::from_str::<Announcement>(&head).unwrap(), folded);

            // A row taken meanwhile, or a first tried before, folds nothing.
            let b1 = enqueue(&pool, Some(3), &board(3, 1)).await.unwrap();
            let b2 = enqueue(&pool, Some(3), &board(3, 2)).await.unwrap();
            let later = now + 2000;
            let rows = claim_due_announcements(&mut conn, Lane::Posts, later, later + 1000, 10).await.unwrap();
            assert_eq!(claimed(&rows), [(b1, 1)]);
            mark_failed(&pool, b2, "403").await.unwrap();
            assert!(!fold_announcements(&mut conn, b1, &folded, &[b2], later).await.unwrap());
            let b3 = enqueue(&pool, Some(3), &board(3, 3)).await.unwrap();
            retry_later(&pool, b1, later, "HTTP 502").await.unwrap();
            let rows = claim_due_announcements(&mut conn, Lane::Posts, later, later + 1000, 10).await.unwrap();
            assert_eq!(claimed(&rows), [(b1, 2)]);
            assert!(!fold_announcements(&mut conn, b1, &folded, &[b3], later).await.unwrap());
            let rows = sqlx::query("SELECT * FROM announcements WHERE game_id = 3 ORDER BY id")
                .fetch_all(&pool)
                .await
                .unwrap();
            let stored: Vec<(Announcement, String)> = rows
                .iter()
                .map(|r| {
                    let q = QueuedAnnouncement::from_row(r).unwrap();
                    (q.body, r.try_get("status").unwrap())
                })
                .collect();
            assert_eq!(
                stored,
                [
                    (board(3, 1), "pending".to_string()),
                    (board(3, 2), "failed".to_string()),
                    (board(3, 3), "pending".to_string())
                ]
            );
        }
    }

    both_backends! {
        async fn a_queue_stuck_in_front_does_not_hide_the_others(pool) {
            // More rows than a claim looks through first, all in one queue whose first waits to
            // be tried again (its channel failing), then one row of another queue.
            let mut stuck = Vec::new();
            for ply in 0..OLDEST + 44 {
                stuck.push(enqueue(&pool, Some(1), &board(1, ply)).await.unwrap());
            }
            let other = enqueue(&pool, Some(2), &board(2, 0)).await.unwrap();
            let now = now_ms() + 10;
            retry_later(&pool, stuck[0], now + 60_000, "HTTP 502").await.unwrap();
            let mut conn = pool.acquire().await.unwrap();
            let rows = claim_due_announcements(&mut conn, Lane::Posts, now, now + 1000, 8).await.unwrap();
            assert_eq!(claimed(&rows), [(other, 1)]);
            // Once the first is due again, it goes before the rest of its queue.
            let later = now + 60_000;
            let rows = claim_due_announcements(&mut conn, Lane::Posts, later, later + 1000, 8).await.unwrap();
            assert_eq!(claimed(&rows), [(stuck[0], 1), (other, 2)]);
        }
    }

    both_backends! {
        async fn workers_claiming_at_once_share_the_rows_in_order(pool) {
            // 30 queues of 4: two workers claim and post at the same moment until all is posted.
            let mut all = Vec::new();
            for ply in 1..=4 {
                for game in 1..=30 {
                    all.push((game, enqueue(&pool, Some(game), &board(game, ply)).await.unwrap()));
                }
            }
            let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
            let worker = |pool: crate::db::Pool| {
                let log = log.clone();
                async move {
                    let mut conn = pool.acquire().await.unwrap();
                    let mut idle = 0;
                    while idle < 20 {
                        let now = now_ms();
                        let rows = claim_due_announcements(&mut conn, Lane::Posts, now, now + 60_000, 5)
                            .await
                            .unwrap();
                        idle = if rows.is_empty() { idle + 1 } else { 0 };
                        for row in &rows {
                            let q = QueuedAnnouncement::from_row(row).unwrap();
                            log.lock().unwrap().push((q.game_id.unwrap(), q.id, q.attempts));
                        }
                        for row in &rows {
                            let id: i64 = row.try_get("id").unwrap();
                            mark_sent(&mut *conn, id, None, now).await.unwrap();
                        }
                        tokio::task::yield_now().await;
                    }
                }
            };
            let (a, b) = tokio::join!(
                tokio::spawn(worker(pool.clone())),
                tokio::spawn(worker(pool.clone()))
            );
            a.unwrap();
            b.unwrap();
            let log = log.lock().unwrap().clone();
            // Each posted once, at its first attempt…
            let mut ids: Vec<i64> = log.iter().map(|&(_, id, _)| id).collect();
            ids.sort_unstable();
            let mut want: Vec<i64> = all.iter().map(|&(_, id)| id).collect();
            want.sort_unstable();
            assert_eq!(ids, want);
            assert!(log.iter().all(|&(_, _, attempts)| attempts == 1), "{log:?}");
            // …and each queue in order.
            for game in 1..=30 {
                let order: Vec<i64> = log.iter().filter(|e| e.0 == game).map(|e| e.1).collect();
                let want: Vec<i64> = all.iter().filter(|e| e.0 == game).map(|e| e.1).collect();
                assert_eq!(order, want, "queue of game {game}");
            }
        }
    }
}

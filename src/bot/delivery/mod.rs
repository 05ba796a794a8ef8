//! The delivery task: posts the queued announcements (the `announcements` table,
//! `src/db/announcements.rs`), in order within each game, exactly once. It is the far end of the
//! play layer's outbox: an action writes what must be announced in the transaction of its change
//! ([`crate::db::enqueue`]) and rings the bell ([`Delivery::queued`]); nothing else posts to a
//! channel.
//!
//! - **Queues.** Each row belongs to a queue: its game's (`game:12`), else its target's (a member's
//!   direct messages, a channel). A queue's rows go one at a time, in `id` order; up to 32
//!   queues are posted at once, and up to four of those use the database at a time (half the
//!   pool: members' actions always find a connection). A board is drawn when it is posted (the
//!   row names the game and the ply), with its alt text and its buttons (Move while the game is
//!   in play, Rematch once a game between members ended), in the language stored with the row.
//!   Its game is read once, before the post (its picture, its thread, the board it replaces);
//!   after the post, one write makes it the game's board, marks it sent and queues the removal
//!   of the buttons of the board it replaced ([`db::Target::TakeButtons`]); that edit also gives
//!   the old board new words, what happened after it rather than whose turn it was
//!   ([`crate::play::present::superseded_caption`], read from the old board's stored post).
//! - **Discord's limits.** Every request takes a turn in one budget under Discord's global
//!   limit ([`super::rest::Pacer`]): announcements the newest first, then the buttons taken off
//!   old boards. Those removals are rows of their own, each its own queue, claimed apart from the
//!   posts ([`db::Lane::Cleanup`], [`CLEANUP_PARALLEL`] at once) so that they never hold a post's
//!   place; a refused removal is tried again like any post, until done. serenity's limiter
//!   keeps each route's limit (five messages per five seconds in a channel) and sends a 429
//!   again after its `Retry-After`.
//! - **Folding.** When a game moves faster than its boards are posted, the boards of the moves
//!   queued right behind the one about to go are folded into it ([`crate::db::fold_announcements`]):
//!   one post shows the latest position, its caption naming every move in turn (each in the
//!   words its own board had, [`crate::play::present::folded_caption`]) and mentioning the player
//!   to move now. A burst of moves so never builds a backlog of boards, and the players see the
//!   current position at once. Only a board at its first attempt takes others in: one tried
//!   before may have been shown, and its retry must be the same message. The boards folded in
//!   leave the queue marked sent, and take the post's time and message once it is made.
//! - **Exactly once.** A row is claimed with a lease of [`LEASE_MS`] before it is posted, and
//!   marked sent after. The lease is renewed while the worker is at it ([`db::renew_claims`]):
//!   a post that waits for its turn under Discord's limits longer than a lease is never taken
//!   by another worker, which would post it beside it and its game's next board ahead of it.
//!   Whatever the order in which answers come back, only a game's latest board (the greatest
//!   message id) becomes its board and keeps its buttons ([`db::take_board_place`]). The post carries the row's id as its `nonce` with `enforce_nonce`, so when
//!   the bot dies between Discord's answer and the mark, the post made again after the restart is
//!   recognised by Discord and not shown twice. A bot killed at any point posts what it owed once
//!   it is back.
//! - **Passing failures** (5xx, the network) are
//!   tried again after a delay that doubles from 1 s up to 5 minutes; the queue behind waits, so
//!   the order holds. The first failure is logged, not every retry.
//! - **A refusal for good** (missing permissions, a deleted channel) is never silent: the members
//!   concerned get a direct message with the news (and the board) and a line naming what is
//!   missing where ([`super::failure`]), the game is marked (`/games` shows ⚠️ until a post there
//!   succeeds), and the fault is logged once. A game's thread that refuses for good (locked,
//!   archived) is left for the game's channel; missing thread permissions send new games to the
//!   channel. The moderators are told once (per server, or per game for a thread), not per post.
//! - **Waiting.** Between rounds the task sleeps until the bell, the next row due or the next
//!   lease to run out, and at most a second (for rows other processes queued).
//!
//! The answer to an interaction is not part of this: it is immediate, and if it fails the board is
//! still posted from the queue.
//!
//! # Several processes, and scaling
//!
//! Each process runs its own delivery task on the one database. Rows are claimed by
//! `FOR UPDATE SKIP LOCKED` on PostgreSQL (SQLite runs one write at a time), so processes claiming
//! at once take different rows; a dead process's leases run out and another posts its rows. A claim
//! looks for each queue's first row among the 256 oldest pending rows, so it costs the same with
//! ten or ten thousand rows waiting ([`crate::db::claim_due_announcements`] says why it is two
//! statements without a join). The other shared work is claimed the same way: losses on time,
//! reminders and challenge expiry by conditional writes ([`crate::play::timers`]), the bot's turns
//! by a lease on the game ([`crate::play::opponent`]). The end-to-end test
//! `two_processes_share_the_shards_and_the_work` kills one of two processes while it posts, and
//! checks that the other carries its board, the bot's move and a deadline, with nothing done twice.
//!
//! **What limits a process** (`cargo bench --bench scale`: 500 games moving at once, 6,000
//! moves in 7–16 s, on two cores shared with the fake Discord): moves are answered far faster
//! than their boards can be drawn and posted one by one (a board is a picture of about 2 ms of a
//! core, drawn on one blocking thread per core, [`crate::play::present`], and a request). With
//! every board posted, 6,000 boards reached Discord 15–19 s (p50) and 21–28 s (p99) after their
//! answers. Folding turns such a burst into fewer posts, each showing every move its game made
//! meanwhile. The delivery's database work (a claim, a read of the game with the boards behind
//! it and the fold, one write after the post) goes through its own small pool
//! ([`CONNECTIONS`]): on the members' pool each of those turns waited in line behind hundreds of
//! moves, about as long as a move's answer, and a post took about 0.6 s. With its own pool the
//! boards follow their answers by about 2.2–2.6 s (p50) and 5.4–6.7 s (p99) instead of 3–4 s and
//! 7–12 s, in about twice as many posts (1,400–1,700); the price is the CPU those posts take from
//! the moves on two cores (SQLite's answers p99 0.8 → 1.0 s; PostgreSQL's unchanged). Four
//! connections brought the boards sooner still (p99 3.6–5.3 s) but PostgreSQL's answers to p99
//! 3.3 s, past Discord's 3 s: the members' answers come first. What remains is the turn of each
//! game among 500 (posts go oldest first, and a game's next post waits for its last) on a machine
//! the moves already keep busy.
//!
//! Under Discord's global limit (the fake Discord of the bench enforces it) a process posts at
//! most 44 requests a second: with 500 games moving at once its 875 posts went out at 41 a
//! second, the boards p50 6.0 s and p99 17.8 s after their answers, the answers themselves p99
//! 1.1 s, with no 429 and no old board left with buttons. The limit, not the machine, now
//! decides how soon a burst's boards are out; folding keeps their number down.
//!
//! **On paper, 100,000 servers.** Discord needs at least 40 shards (2,500 servers each); take 100
//! for headroom. With 3 games in play per server and 4 moves a game a day, that is 1.2 million
//! moves a day: 14 a second on average, about 70 at a busy hour. A layout:
//! - 4 processes of 25 shards (`SHARD_COUNT=100`, `SHARD_RANGE=0-24`, `25-49`, …), 2 cores each,
//!   so one may die or be redeployed while the others carry its timers, queue and the bot's turns
//!   (its servers wait for it: Discord sends their events only to their shards). The busy hour's
//!   70–85 boards a second is a third of what one process on two cores draws, so four leave ample
//!   room; the shards, not the moves, set the number of processes.
//!   Discord's global limit is the bot's, not a process's: 70–85 posts a second is past the 50
//!   it allows by default, which large bots ask Discord to raise; [`super::rest::GLOBAL_RATE`]
//!   must then follow the limit granted.
//! - Connections: at most 10 per process (8 for the members' actions, [`crate::db::connect`], and
//!   2 for the delivery), 40 in all, within PostgreSQL's default 100.
//! - PostgreSQL: about 100–200 short transactions a second at the busy hour (a move is one
//!   transaction with its board's row, a delivery two or three); 2–4 cores, 8–16 GB and an SSD.
//!   The tables grow by about 1.2 million moves and as many announcements a day: the
//!   announcements already sent are the rows to archive first.
//! - The bot's own games cost CPU where they are searched (up to 4 s of a core for EXXIT's
//!   `hard`): with many, give the processes more cores rather than more processes.

use crate::db::ChannelId;
use crate::i18n::{Lang, Text};
use crate::text;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use poise::serenity_prelude as serenity;
use sqlx::{FromRow, Row};
use tokio::sync::{Notify, Semaphore};
use tracing::{error, info, warn};

use super::components::{inbox_button, move_button_row, rematch_button_row, watch_button};
use super::failure::{explain_refusal, Failure};
use super::rest::{Pacer, Urgency};
use crate::db::{self, Announcement, QueuedAnnouncement, Target};
use crate::play::present::{alt_text, folded_caption, names_of, picture};

mod pictures;
mod threads;

/// How long a claimed announcement stays with its worker before another may take it.
pub const LEASE_MS: i64 = 10_000;

/// The topics of the notices moderators get once per server.
const NOTICE_THREADS: &str = "threads";
const NOTICE_THREAD_POSTS: &str = "thread-posts";
const NOTICE_ARCHIVE: &str = "archive";
/// One game's thread refused a post for good (locked, archived): told once per game.
const NOTICE_THREAD_LEFT: &str = "thread-left";

/// Whether a refusal by a game's thread means leaving it for the game's channel: every refusal
/// but those of the message itself (malformed, too large, empty), which the channel would
/// refuse too. A locked or archived thread (50083, 160005), missing permissions (50001, 50013)
/// and a deleted thread (10003) all send the game back to its channel.
fn leaves_thread(code: isize) -> bool {
    !matches!(code, 0 | 50035 | 40005 | 50006)
}

/// Announcements posted at once (each from a different queue).
const PARALLEL: usize = 32;

/// Old boards whose buttons are taken off at once ([`db::Lane::Cleanup`]), beside the posts.
pub const CLEANUP_PARALLEL: usize = 4;

/// The delivery's own connections ([`db::connect_side`]): its reads and writes never wait in
/// line behind the members' actions for a connection (under a burst of moves they waited about
/// as long as a move's answer, for each of a post's three turns), and never take theirs.
pub const CONNECTIONS: u32 = 2;

/// The most boards of later moves folded into one post.
const FOLD_MAX: i64 = 32;

/// The longest wait between two attempts of one announcement.
const MAX_BACKOFF_MS: i64 = 5 * 60_000;

/// A board drawn for an announcement.
struct Board {
    png: Vec<u8>,
    /// The picture's description.
    alt: String,
    /// Its buttons: Move while the game is in play, Rematch once a game between members ended.
    buttons: Option<serenity::CreateActionRow>,
}

/// A board's game, read before its post.
struct Shown {
    row: db::GameRow,
    game: crate::games::Game,
    /// The players' names by colour.
    names: [String; 2],
    /// Whether the board offers a rematch (a finished game between members).
    rematch: bool,
    /// The colours of the server's pictures.
    theme: crate::render::Theme,
}

/// The delivery task's handles.
#[derive(Clone)]
pub struct Delivery {
    /// The delivery's own pool ([`CONNECTIONS`]), not the members'.
    pub pool: db::Pool,
    pub http: Arc<serenity::Http>,
    /// Rung by every action that queued something.
    pub queued: Arc<Notify>,
    /// The bot's own user id, once connected (it is never told anything by direct message).
    pub me: Arc<OnceLock<db::UserId>>,
    /// The web board's address for players, when it runs: boards in play link to it.
    pub web_url: Option<String>,
    /// Boards in play offer the game page inside Discord (an Activity).
    pub activity: bool,
    /// The budget of requests to Discord, shared with the answers' own posts.
    pub pacer: Arc<Pacer>,
    /// The announcements this process claimed and is working on, with the attempt of each
    /// claim: their leases are renewed until they are done (`Delivery::renew`).
    pub held: Arc<std::sync::Mutex<HashMap<i64, i64>>>,
}

impl Delivery {
    /// Posts what is due, then waits for the bell or the next due time. Runs until the bot stops.
    pub async fn run(self) {
        let permits = Arc::new(Semaphore::new(PARALLEL));
        let cleanup = Arc::new(Semaphore::new(CLEANUP_PARALLEL));
        tokio::spawn(self.clone().renew());
        let mut failing = false;
        loop {
            // Whether every free permit was taken: a delivery ending rings the bell then.
            let mut busy = false;
            for (lane, permits) in [(db::Lane::Posts, &permits), (db::Lane::Cleanup, &cleanup)] {
                let free = permits.available_permits();
                if free == 0 {
                    busy = true;
                    continue;
                }
                match self.claim(lane, free).await {
                    Ok(rows) => {
                        failing = false;
                        busy |= rows.len() >= free;
                        for row in rows {
                            let Ok(permit) = permits.clone().try_acquire_owned() else {
                                break;
                            };
                            let id: i64 = row.try_get("id").unwrap_or_default();
                            let attempts: i64 = row.try_get("attempts").unwrap_or_default();
                            self.hold(id, Some(attempts));
                            let me = self.clone();
                            tokio::spawn(async move {
                                me.deliver(row).await;
                                me.hold(id, None);
                                drop(permit);
                                // The next announcement of its queue may go now.
                                me.queued.notify_one();
                            });
                        }
                    }
                    Err(e) if !failing => {
                        failing = true;
                        error!("the delivery queue cannot be read (retrying): {e}");
                    }
                    Err(_) => {}
                }
            }
            // Until the bell (something queued here, or a delivery done) or the next time a row
            // becomes due or a claim runs out; at most a second, for what other processes queue.
            // While every permit is at work, the end of a delivery rings the bell first.
            let now = db::now_ms();
            let wait = if busy {
                1000
            } else {
                match db::next_due_at(&self.pool, now).await {
                    Ok(Some(t)) => (t - now).clamp(5, 1000),
                    _ => 1000,
                }
            };
            tokio::select! {
                () = self.queued.notified() => {}
                () = tokio::time::sleep(Duration::from_millis(wait as u64)) => {}
            }
        }
    }

    /// Notes that this process works on announcement `id` at attempt `attempts` (its claim is
    /// renewed), or, with `None`, that it is done with it.
    fn hold(&self, id: i64, attempts: Option<i64>) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        match attempts {
            Some(a) => held.insert(id, a),
            None => held.remove(&id),
        };
    }

    /// Renews the leases of the announcements this process works on, every third of a lease,
    /// until the bot stops ([`db::renew_claims`]): a post waiting for its turn under Discord's
    /// limits longer than a lease stays this worker's, so no other worker (of this process or
    /// another) posts it again meanwhile, ahead of it or beside it. A dead process stops
    /// renewing, and its claims run out as before.
    async fn renew(self) {
        let mut failing = false;
        loop {
            tokio::time::sleep(Duration::from_millis((LEASE_MS / 3) as u64)).await;
            let held: Vec<(i64, i64)> = {
                let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
                held.iter().map(|(&id, &a)| (id, a)).collect()
            };
            match db::renew_claims(&self.pool, &held, db::now_ms() + LEASE_MS).await {
                Ok(_) => failing = false,
                Err(e) if !failing => {
                    failing = true;
                    warn!("cannot renew the delivery's claims (retrying): {e}");
                }
                Err(_) => {}
            }
        }
    }

    /// A connection of the delivery's pool, for a delivery's reads or writes.
    async fn connection(&self) -> Result<sqlx::pool::PoolConnection<sqlx::Any>, db::DbError> {
        Ok(self.pool.acquire().await?)
    }

    /// Claims up to `n` due announcements of `lane` for [`LEASE_MS`].
    async fn claim(&self, lane: db::Lane, n: usize) -> Result<Vec<db::DbRow>, db::DbError> {
        let mut conn = self.pool.acquire().await?;
        let now = db::now_ms();
        db::claim_due_announcements(&mut conn, lane, now, now + LEASE_MS, n as i64).await
    }

    /// Waits for the turn of one of `q`'s requests to Discord in the budget shared by every
    /// request the bot makes on its own ([`Pacer`]): the newest announcements first, buttons
    /// taken off old boards last.
    async fn turn(&self, q: &QueuedAnnouncement) -> super::rest::Turn {
        let urgency = match q.body.target {
            Target::TakeButtons { .. } => Urgency::Cleanup,
            _ => Urgency::Announcement,
        };
        self.pacer.turn(urgency, q.id).await
    }

    /// Makes one of `q`'s requests to Discord in its turn ([`Delivery::turn`]), holding the turn
    /// until the answer.
    async fn paced<F: std::future::Future>(&self, q: &QueuedAnnouncement, request: F) -> F::Output {
        let _turn = self.turn(q).await;
        request.await
    }

    /// Posts a claimed announcement; the outcome is stored.
    async fn deliver(&self, row: db::DbRow) {
        let id: i64 = row.try_get("id").unwrap_or_default();
        let mut queued = match QueuedAnnouncement::from_row(&row) {
            Ok(q) => q,
            Err(e) => {
                db::report_bad_row("announcements", id, &e);
                let _ = db::mark_failed(&self.pool, id, "unreadable").await;
                return;
            }
        };
        // A board's game, read once: for its picture, its thread and the board it replaces.
        // On one connection, given back before the post.
        let (shown, folded) = match queued.body.board {
            Some(b) => match self.connection().await {
                Ok(mut conn) => {
                    let shown = self.load_board(&mut conn, b).await;
                    let folded = match &shown {
                        Some(shown) if queued.attempts == 1 => {
                            self.fold(&mut conn, &mut queued, shown).await
                        }
                        _ => Vec::new(),
                    };
                    (shown, folded)
                }
                Err(e) => {
                    error!(announcement = id, "cannot read the game of a board: {e}");
                    (None, Vec::new())
                }
            },
            None => (None, Vec::new()),
        };
        let outcome = self.post(&queued, shown.as_ref()).await;
        let stored = match outcome {
            Ok(message) => self.sent(&queued, message, &folded).await,
            Err(Failure::Passing(why)) => {
                let delay = (1000_i64 << (queued.attempts - 1).clamp(0, 20)).min(MAX_BACKOFF_MS);
                if queued.attempts == 1 {
                    if matches!(queued.body.target, Target::TakeButtons { .. }) {
                        // A button left a while longer answers that its board is out of date.
                        info!(
                            announcement = id,
                            "could not take the buttons off an old board ({why}); trying again"
                        );
                    } else {
                        warn!(
                            announcement = id,
                            queue = %queued.queue,
                            "could not post ({why}); trying again with growing delays"
                        );
                    }
                }
                db::retry_later(&self.pool, id, db::now_ms() + delay, &why).await
            }
            Err(Failure::Refused {
                status,
                code,
                message,
            }) => {
                let told = self.refused(&queued, status, code, &message).await;
                // The boards folded into it share its fate (their news went with its own).
                if told.is_ok() {
                    for &id in &folded {
                        let _ = db::mark_failed(&self.pool, id, "folded into a refused post").await;
                    }
                }
                told
            }
        };
        if let Err(e) = stored {
            // The lease runs out and the announcement is tried again (the nonce keeps a
            // second post from showing twice).
            error!(announcement = id, "cannot store a delivery's outcome: {e}");
        }
    }

    /// The new words of old board `message`, which a newer board replaced: what happened after
    /// it ([`crate::play::present::superseded_caption`]); `None` (its words stay) when its post
    /// is no longer stored or cannot be read.
    async fn superseded(&self, message: db::MessageId, lang: Lang) -> Option<String> {
        let read = async {
            let Some(old) = db::posted_as(&self.pool, message).await? else {
                return Ok(None);
            };
            let Some(board) = old.board else {
                return Ok(None);
            };
            let mut conn = self.connection().await?;
            let Some((row, game)) = db::load_game(&mut conn, board.game).await? else {
                return Ok(None);
            };
            let ply = usize::try_from(board.ply).unwrap_or(0);
            Ok::<_, db::DbError>(crate::play::present::superseded_caption(
                lang,
                &row,
                &game,
                &old.content,
                ply,
            ))
        };
        match read.await {
            Ok(words) => words,
            Err(e) => {
                warn!(%message, "cannot say what followed an old board: {e}");
                None
            }
        }
    }

    /// Stores a post made, in one write: the announcement (and those folded into it) marked
    /// sent, and a current board made its game's board unless a later one is already
    /// ([`db::take_board_place`]), the buttons of the board no longer current queued to be taken
    /// off. However late Discord's answer comes, only the game's latest board keeps its buttons.
    async fn sent(
        &self,
        q: &QueuedAnnouncement,
        message: Option<db::MessageId>,
        folded: &[i64],
    ) -> Result<(), db::DbError> {
        let now = db::now_ms();
        let mut conn = self.connection().await?;
        let mut tx = sqlx::Connection::begin(&mut *conn).await?;
        // The write first: on SQLite the transaction holds the write lock from here on.
        db::mark_sent(&mut *tx, q.id, message, now).await?;
        db::mark_folded_sent(&mut *tx, folded, message, now).await?;
        let mut replaced = None;
        if let (Some(board), Some(m)) = (q.body.board.filter(|b| b.current), message) {
            let channel = match q.body.target {
                Target::Channel { channel } | Target::Game { channel, .. } => Some(channel),
                _ => None,
            };
            if let Some(channel) = channel {
                replaced =
                    db::take_board_place(&mut tx, board.game, m)
                        .await?
                        .map(|(old, thread)| Announcement {
                            target: Target::TakeButtons {
                                // Where it is: the game's thread, else its channel.
                                channel: thread.unwrap_or(channel),
                                message: old,
                            },
                            content: String::new(),
                            mentions: Vec::new(),
                            board: None,
                            concerned: Vec::new(),
                            lang: q.body.lang.clone(),
                        });
            }
        }
        if let (&Target::Rematch { challenge, .. }, Some(m)) = (&q.body.target, message) {
            db::set_challenge_message(&mut *tx, challenge, m).await?;
        }
        if let (&Target::Seek { channel, seek, .. }, Some(m)) = (&q.body.target, message) {
            db::set_seek_message(&mut *tx, seek, channel, m).await?;
        }
        if let (&Target::DailyPuzzle { guild, day, .. }, Some(m)) = (&q.body.target, message) {
            db::set_daily_post_message(&mut *tx, guild, day, m).await?;
        }
        if let Some(old) = &replaced {
            db::enqueue(&mut *tx, None, old).await?;
        }
        tx.commit().await?;
        if replaced.is_some() {
            self.queued.notify_one();
        }
        if q.attempts > 1 {
            info!(
                announcement = q.id,
                attempts = q.attempts,
                "posted after earlier failures"
            );
        }
        Ok(())
    }

    /// Folds into a move's board the boards of the moves queued right behind it, when its game
    /// moved faster than its boards were posted: one post then shows the latest position, its
    /// caption naming every move it covers, so that a burst of moves never builds a backlog and
    /// the players see the current position at once. Only at a board's first attempt: a board
    /// tried before may have been shown, and its retry must be the same message (its nonce).
    /// Returns the announcements folded in (none when nothing was, or the fold failed: logged,
    /// and the board goes alone).
    async fn fold(
        &self,
        conn: &mut db::Conn,
        q: &mut QueuedAnnouncement,
        shown: &Shown,
    ) -> Vec<i64> {
        let Some(head) = q.body.board.filter(|b| b.current) else {
            return Vec::new();
        };
        let behind = match db::queued_behind(&mut *conn, &q.queue, q.id, FOLD_MAX).await {
            Ok(rows) => rows,
            Err(e) => {
                warn!(
                    announcement = q.id,
                    "cannot read the boards queued behind a board: {e}"
                );
                return Vec::new();
            }
        };
        // The boards of the next moves, in a row, going where this one goes.
        let mut next = Vec::new();
        for later in &behind {
            let follows = later.attempts == 0
                && later.body.target == q.body.target
                && later.body.lang == q.body.lang
                && later.body.board.is_some_and(|b| {
                    b.current
                        && b.game == head.game
                        && b.ply == head.ply + 1 + next.len() as i64
                        && b.ply <= shown.game.ply() as i64
                });
            if !follows {
                break;
            }
            next.push(later);
        }
        let Some(last) = next.last() else {
            return Vec::new();
        };
        let lang = Lang::of(&q.body.lang);
        let captions: Vec<&str> = std::iter::once(q.body.content.as_str())
            .chain(next.iter().map(|a| a.body.content.as_str()))
            .collect();
        let Some(caption) = usize::try_from(head.ply)
            .ok()
            .and_then(|first| folded_caption(lang, &shown.row, &shown.game, first, &captions))
        else {
            return Vec::new();
        };
        let body = Announcement {
            content: caption,
            ..last.body.clone()
        };
        let ids: Vec<i64> = next.iter().map(|a| a.id).collect();
        match db::fold_announcements(conn, q.id, &body, &ids, db::now_ms()).await {
            Ok(true) => {
                q.body = body;
                ids
            }
            Ok(false) => Vec::new(),
            Err(e) => {
                warn!(
                    announcement = q.id,
                    "cannot fold the boards queued behind a board: {e}"
                );
                Vec::new()
            }
        }
    }

    /// A permanent refusal: marked, logged once, and the members concerned are told by direct
    /// message (with the board), naming what is missing where.
    async fn refused(
        &self,
        q: &QueuedAnnouncement,
        status: u16,
        code: isize,
        message: &str,
    ) -> Result<(), db::DbError> {
        let what = format!("HTTP {status}, code {code}: {message}");
        db::mark_failed(&self.pool, q.id, &what).await?;
        if let Target::TakeButtons { channel, message } = q.body.target {
            // The old board is gone, or out of reach: nothing to tell anyone.
            info!(%channel, %message, "cannot take the buttons off an old board ({what})");
            return Ok(());
        }
        let channel = match (&q.body.target, q.body.target.channel()) {
            (_, Some(channel)) => channel,
            (Target::Direct { user, .. }, None) => {
                match self.tell_direct_refused(q, *user, code, message).await? {
                    true => info!(
                        announcement = q.id,
                        %user, "a direct message was refused ({what}); the opponent is told"
                    ),
                    false => warn!(
                        announcement = q.id,
                        %user, "a direct message was refused ({what}); the member cannot be told"
                    ),
                }
                return Ok(());
            }
            (_, None) => return Ok(()),
        };
        let why = explain_refusal(status, code, message, channel);
        if let Target::Rematch { challenge, .. } = q.body.target {
            // Nobody can answer it: closed, so that it does not count as open.
            db::close_challenge(&self.pool, challenge, db::ChallengeStatus::Withdrawn, None)
                .await?;
        }
        if let Target::Seek { seek, .. } = q.body.target {
            // Nobody can take it from its card: withdrawn, so that it is not matched unseen;
            // the standing seek it was made from stops (its next card would fail the same way).
            db::close_seek(&self.pool, seek, db::SeekStatus::Withdrawn).await?;
            if let Some(standing) = db::fetch_seek(&self.pool, seek)
                .await?
                .and_then(|s| s.standing_id)
            {
                db::delete_standing_seek(&self.pool, standing).await?;
            }
        }
        warn!(
            announcement = q.id,
            %channel, "cannot post in a channel ({what}); telling the players by direct message"
        );
        if let Some(game) = q.game_id {
            // Stored in English (the log's language); members are told in theirs below.
            db::set_delivery_fault(&self.pool, game, Some(&why.render(Lang::EN))).await?;
        }
        let me = self.me.get().copied();
        let mut tx = self.pool.begin().await?;
        for &user in q.body.concerned.iter().filter(|&&u| Some(u) != me) {
            let lang = crate::play::member_lang(&mut *tx, user).await?;
            let notice = Announcement {
                target: Target::Direct {
                    user,
                    or_channel: None,
                },
                content: format!(
                    "{}\n\n{}",
                    match q.body.target {
                        Target::Rematch { .. } => text!(
                            "rematch-not-posted",
                            channel = channel.to_string(),
                            why = why.clone()
                        ),
                        _ => text!(
                            "could-not-post-here",
                            channel = channel.to_string(),
                            why = why.clone()
                        ),
                    }
                    .render(lang),
                    q.body.content
                ),
                mentions: Vec::new(),
                board: q.body.board.map(|b| db::BoardAt {
                    current: false,
                    ..b
                }),
                concerned: Vec::new(),
                lang: lang.tag().to_string(),
            };
            db::enqueue(&mut *tx, None, &notice).await?;
        }
        tx.commit().await?;
        self.queued.notify_one();
        Ok(())
    }

    /// Direct message `q`, a board of a game played only in direct messages (matched across
    /// servers, [`crate::play::seats::IN_DIRECT`]), was refused to player `user` (who may have
    /// closed their direct messages): the game's fault is stored (`/games` shows it), and its
    /// other player is told by direct message that `user` was not sent their board and that
    /// the game waits for them. `true` for any direct message of such a game in play (its other
    /// words are the board's, which tells when it is refused too); `false`, nothing done, for
    /// any other: a server's or a chat's game shows its board where it is played.
    async fn tell_direct_refused(
        &self,
        q: &QueuedAnnouncement,
        user: db::UserId,
        code: isize,
        message: &str,
    ) -> Result<bool, db::DbError> {
        let Some(game) = q.game_id else {
            return Ok(false);
        };
        let Some(row) = db::fetch_game(&self.pool, game).await? else {
            return Ok(false);
        };
        if row.channel_id != crate::play::seats::IN_DIRECT || row.status != db::GameStatus::Active {
            return Ok(false);
        }
        if q.body.board.is_none() {
            return Ok(true);
        }
        let fault = text!(
            "direct-refused-fault",
            who = crate::play::words::mention(user),
            code = code as i64,
            message = message
        );
        db::set_delivery_fault(&self.pool, game, Some(&fault.render(Lang::EN))).await?;
        let me = self.me.get().copied();
        let name = db::fetch_name(&self.pool, user).await?;
        let mut told = Vec::new();
        for &other in row.players.iter().filter(|&&p| p != user && Some(p) != me) {
            let lang = crate::play::member_lang(&self.pool, other).await?;
            let who = crate::play::words::name_in(lang, name.clone(), || {
                crate::play::words::mention(user)
            });
            let text = text!(
                "direct-refused-opponent",
                who = who,
                game = game,
                code = code as i64,
                message = message
            );
            told.push(Announcement {
                target: Target::Direct {
                    user: other,
                    or_channel: None,
                },
                content: text.render(lang),
                mentions: Vec::new(),
                board: None,
                concerned: Vec::new(),
                lang: lang.tag().to_string(),
            });
        }
        let mut tx = self.pool.begin().await?;
        for notice in &told {
            // Queued apart from the game: its own refusal tells nobody again.
            db::enqueue(&mut *tx, None, notice).await?;
        }
        tx.commit().await?;
        self.queued.notify_one();
        Ok(true)
    }

    /// Posts one announcement; the id of the message made, when there is one.
    async fn post(
        &self,
        q: &QueuedAnnouncement,
        shown: Option<&Shown>,
    ) -> Result<Option<db::MessageId>, Failure> {
        let a = &q.body;
        match a.target {
            Target::OpenThread {
                game,
                channel,
                from,
            } => return self.open_thread(q, game, channel, from).await,
            Target::Archive { game, channel } => return self.archive(q, game, channel).await,
            Target::OpenTournamentThread {
                tournament,
                channel,
                message,
            } => {
                return self
                    .open_tournament_thread(q, tournament, channel, message)
                    .await
            }
            _ => {}
        }
        let picture = match (a.board, &a.target) {
            (Some(b), _) => self.board_picture(b, shown, Lang::of(&a.lang)).await,
            (
                None,
                &Target::Standings {
                    tournament, round, ..
                },
            ) => {
                self.standings_picture(tournament, round, Lang::of(&a.lang))
                    .await
            }
            (None, &Target::DailyPuzzle { guild, puzzle, .. }) => {
                self.puzzle_picture(guild, puzzle, Lang::of(&a.lang)).await
            }
            (None, _) => None,
        };
        let mut mentions = serenity::CreateAllowedMentions::new()
            .users(a.mentions.iter().map(|&u| serenity::UserId::from(u)));
        // A seek's card: its buttons (the seek as stored names its variants), and the pings
        // of its games' seek roles. A seek closed meanwhile is not posted.
        let mut seek_row = None;
        if let Target::Seek {
            seek, ref roles, ..
        } = a.target
        {
            let stored = db::fetch_seek(&self.pool, seek)
                .await
                .map_err(|e| Failure::Passing(format!("cannot read seek {seek}: {e}")))?;
            match stored {
                Some(s) if s.status == db::SeekStatus::Open => {
                    seek_row = Some(crate::bot::components::seek_buttons(
                        Lang::of(&a.lang),
                        s.id,
                        &s.variants,
                        s.standing_id.is_some(),
                    ))
                }
                _ => return Ok(None),
            }
            mentions = mentions.roles(roles.iter().map(|&r| serenity::RoleId::new(r.get())));
        }
        let message = || {
            let mut m = serenity::CreateMessage::new()
                .content(super::limits::fit(&a.content, super::limits::CONTENT))
                .allowed_mentions(mentions.clone())
                .nonce(serenity::Nonce::String(format!("hx{}", q.id)))
                .enforce_nonce(true);
            if let Some(board) = &picture {
                let name = match a.target {
                    Target::Standings { .. } => "standings.png",
                    Target::DailyPuzzle { .. } => "puzzle.png",
                    _ => "board.png",
                };
                m = m.add_file(
                    serenity::CreateAttachment::bytes(board.png.clone(), name).description(
                        super::limits::fit(&board.alt, super::limits::ATTACHMENT_DESCRIPTION),
                    ),
                );
                if let Some(row) = board.buttons.clone() {
                    m = m.components(vec![row]);
                }
            }
            if let Target::DailyPuzzle { puzzle, .. } = a.target {
                // With its picture or without (one that could not be drawn).
                m = m.components(vec![crate::bot::components::daily_solve_row(
                    Lang::of(&a.lang),
                    puzzle,
                )]);
            }
            if let Target::Rematch { challenge, .. } = a.target {
                m = m.components(vec![crate::bot::components::challenge_buttons(
                    Lang::of(&a.lang),
                    challenge,
                )]);
            }
            if let Some(row) = &seek_row {
                m = m.components(vec![row.clone()]);
            }
            m
        };
        let http = self.http.as_ref();
        let send = |channel: ChannelId| async move {
            self.paced(
                q,
                serenity::ChannelId::from(channel).send_message(http, message()),
            )
            .await
            .map(|m| Some(m.id.into()))
            .map_err(|e| Failure::of(&e))
        };
        match a.target {
            Target::Channel { channel }
            | Target::Rematch { channel, .. }
            | Target::Seek { channel, .. }
            | Target::DailyPuzzle { channel, .. } => send(channel).await,
            Target::Tournament {
                tournament,
                channel,
            }
            | Target::Standings {
                tournament,
                channel,
                ..
            } => match self.tournament_thread(tournament).await? {
                None => send(channel).await,
                Some(thread) => match send(thread).await {
                    Err(Failure::Refused { code, message, .. }) if leaves_thread(code) => {
                        warn!(
                            tournament,
                            %thread,
                            "the tournament's thread refused a message ({code}: {message}); going on in its channel"
                        );
                        db::set_tournament_thread(&self.pool, tournament, None)
                            .await
                            .map_err(|e| Failure::Passing(format!("cannot store a thread: {e}")))?;
                        Err(Failure::Passing(format!(
                            "the tournament's thread refused the message ({message}); posting in its channel"
                        )))
                    }
                    other => other,
                },
            },
            Target::Card {
                channel,
                message,
                tournament,
            } => {
                let open = db::fetch_tournament(&self.pool, tournament)
                    .await
                    .map_err(|e| Failure::Passing(format!("cannot read tournament: {e}")))?
                    .is_some_and(|t| {
                        matches!(
                            t.status,
                            db::TournamentStatus::Signup | db::TournamentStatus::Running
                        )
                    });
                let buttons = crate::bot::components::tournament_buttons(
                    Lang::of(&a.lang),
                    tournament,
                    open,
                    self.web_url.as_deref(),
                );
                let edit = serenity::EditMessage::new()
                    .content(super::limits::fit(&a.content, super::limits::CONTENT))
                    .components(buttons)
                    .allowed_mentions(serenity::CreateAllowedMentions::new());
                let at = serenity::ChannelId::from(channel);
                self.paced(
                    q,
                    at.edit_message(http, serenity::MessageId::from(message), edit),
                )
                .await
                .map(|m| Some(m.id.into()))
                .map_err(|e| Failure::of(&e))
            }
            Target::Game { game, channel } => {
                // Its thread as read with the board's game, else read now.
                let thread = match shown.filter(|s| s.row.id == game) {
                    Some(s) => s.row.thread_id,
                    None => self.thread_of(game).await?,
                };
                match thread {
                    None => send(channel).await,
                    Some(thread) => match send(thread).await {
                        Err(Failure::Refused { code, message, .. }) if leaves_thread(code) => {
                            self.thread_refused(game, channel, thread, code, &message)
                                .await?;
                            Err(Failure::Passing(format!(
                                "the game's thread refused the message ({message}); posting in its channel"
                            )))
                        }
                        other => other,
                    },
                }
            }
            Target::Parent { game, channel } => match self.thread_of(game).await? {
                Some(_) => send(channel).await,
                None => Ok(None),
            },
            Target::Direct { user, or_channel } => {
                let direct = async {
                    let to = serenity::UserId::from(user);
                    let dm = self.paced(q, to.create_dm_channel(http)).await?;
                    self.paced(q, dm.id.send_message(http, message())).await
                }
                .await;
                match (direct, or_channel) {
                    (Ok(m), _) => Ok(Some(m.id.into())),
                    (Err(e), Some(channel))
                        if matches!(Failure::of(&e), Failure::Refused { .. }) =>
                    {
                        info!(
                            %user,
                            "no direct message possible ({e}); posting in the channel"
                        );
                        send(channel).await
                    }
                    (Err(e), _) => Err(Failure::of(&e)),
                }
            }
            Target::Edit { channel, message } | Target::TakeButtons { channel, message } => {
                // Both take the buttons off; an edit also says something new, and so does an
                // old board: what happened after it, rather than whose turn it was.
                let take_only = matches!(a.target, Target::TakeButtons { .. });
                let words = match take_only {
                    true => self.superseded(message, Lang::of(&a.lang)).await,
                    false => Some(a.content.clone()),
                };
                let mut edit = serenity::EditMessage::new().components(Vec::new());
                if let Some(words) = words {
                    edit = edit
                        .content(super::limits::fit(&words, super::limits::CONTENT))
                        .allowed_mentions(serenity::CreateAllowedMentions::new());
                }
                let at = serenity::ChannelId::from(channel);
                self.paced(
                    q,
                    at.edit_message(http, serenity::MessageId::from(message), edit),
                )
                .await
                .map(|m| (!take_only).then(|| m.id.into()))
                .map_err(|e| Failure::of(&e))
            }
            Target::OpenThread { .. }
            | Target::Archive { .. }
            | Target::OpenTournamentThread { .. } => Ok(None),
        }
    }
}

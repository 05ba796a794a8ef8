//! The timer task: losses on time, reminders, daily digests, servers' daily puzzles
//! ([`super::daily`]), challenge and seek expiry, standing seeks made again, tournaments
//! starting at the end of their sign-up or advancing a round that nothing advanced, and the
//! settings of servers the bot left [`SERVER_GRACE_SECS`] ago removed
//! ([`crate::db::clear_server`]). Each scan also learns of members who had their data deleted
//! through another process ([`crate::i18n::note_former_members`]).
//!
//! Everything it acts on is a row: a game's `deadline_at` and `reminders_sent`, a challenge's
//! `expires_at`. Each scan asks the database which games are due at the clock's time (ids only)
//! and hands each to its action, which claims it with a conditional write and queues the
//! announcement in the same transaction: a restart, a bot that was down when a deadline passed,
//! or two scans overlapping handle every item exactly once. One game that cannot be read is
//! reported (once) and skipped; it never stops the scan for the others.

use std::time::Duration;

use tracing::error;

use super::actions::{self, Core};
use super::Error;
use crate::db::{self, DbError};

/// What one scan did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scanned {
    pub timed_out: usize,
    pub reminded: usize,
    pub expired: usize,
    /// Seeks closed, their time run out.
    pub expired_seeks: usize,
    /// Standing seeks that made a seek (their member short of games, none of their seeks open).
    pub standing_seeks: usize,
    /// Tournaments started (their sign-up over) or advanced (a round complete).
    pub tournaments: usize,
    /// Daily digests queued.
    pub digests: usize,
    /// Servers' daily puzzles queued.
    pub daily_puzzles: usize,
    /// Servers whose settings were removed, the bot gone from them for the grace period.
    pub servers_cleared: usize,
    /// Games skipped because they could not be read or acted on.
    pub skipped: usize,
}

/// Reports a game an action could not handle: a damaged row once, other failures each time.
fn report(game: i64, what: &str, e: Error) {
    match e {
        Error::Refused(crate::play::Refusal(_)) => {}
        Error::Internal(e) => match e.downcast_ref::<DbError>() {
            Some(DbError::Corrupt { .. })
            | Some(DbError::Sqlx(sqlx::Error::ColumnDecode { .. })) => {
                db::report_bad_row("games", game, &format!("cannot {what}: {e:#}"))
            }
            _ => error!(game, "cannot {what}: {e:#}"),
        },
    }
}

/// Applies everything due now: timeouts (rated ones update the ratings in the same
/// transaction), reminders, expired challenges and seeks.
pub async fn scan(core: &Core) -> Result<Scanned, DbError> {
    let now = core.clock.now();
    let mut done = Scanned::default();
    for id in db::games_past_deadline(&core.pool, now).await? {
        match actions::time_out(core, id).await {
            Ok(true) => done.timed_out += 1,
            Ok(false) => {}
            Err(e) => {
                done.skipped += 1;
                report(id, "time out", e);
            }
        }
    }
    for id in db::games_needing_reminders(&core.pool, now).await? {
        match actions::remind(core, id).await {
            Ok(true) => done.reminded += 1,
            Ok(false) => {}
            Err(e) => {
                done.skipped += 1;
                report(id, "remind", e);
            }
        }
    }
    match actions::advance_due(core).await {
        Ok(n) => done.tournaments = n,
        Err(e) => error!("cannot advance tournaments: {e:?}"),
    }
    match actions::send_digests(core).await {
        Ok(n) => done.digests = n,
        Err(e) => error!("cannot send digests: {e:?}"),
    }
    match super::daily::post_daily_puzzles(core).await {
        Ok(n) => done.daily_puzzles = n,
        Err(e) => error!("cannot post the daily puzzles: {e:?}"),
    }
    match actions::expire_challenges(core).await {
        Ok(expired) => done.expired = expired.len(),
        Err(e) => error!("cannot expire challenges: {e:?}"),
    }
    match actions::expire_seeks(core).await {
        Ok(n) => done.expired_seeks = n,
        Err(e) => error!("cannot expire seeks: {e:?}"),
    }
    // After the expiry: a standing seek whose seek expired unmatched is posted again.
    match actions::refill_standing_seeks(core).await {
        Ok(n) => done.standing_seeks = n,
        Err(e) => error!("cannot check standing seeks: {e:?}"),
    }
    match clear_servers_left(core, now).await {
        Ok(n) => done.servers_cleared = n,
        Err(e) => error!("cannot remove the settings of servers left: {e}"),
    }
    let former = db::former_members(&core.pool).await?;
    crate::i18n::note_former_members(former.into_iter().map(|u| u.0));
    Ok(done)
}

/// How long a server's settings are kept after the bot was removed from it (30 days): adding
/// the bot back within that time finds them as they were.
pub const SERVER_GRACE_SECS: i64 = 30 * crate::play::schedule::DAY;

/// Removes the settings of the servers the bot left at least [`SERVER_GRACE_SECS`] before `now`
/// and was not added back to: how many.
async fn clear_servers_left(core: &Core, now: i64) -> Result<usize, DbError> {
    let before = now - SERVER_GRACE_SECS;
    let mut cleared = 0;
    for guild in db::servers_to_clear(&core.pool, before).await? {
        let mut tx = core.pool.begin().await?;
        if db::clear_server(&mut tx, guild, before).await? {
            tx.commit().await?;
            tracing::info!(%guild, "removed the settings of a server the bot left");
            cleared += 1;
        }
    }
    Ok(cleared)
}

/// Scans every `every` (the first scan at once, catching up on what happened while the bot was
/// down). Runs until the bot stops.
pub async fn run(core: Core, every: Duration) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut failing = false;
    loop {
        tick.tick().await;
        match scan(&core).await {
            Ok(_) => failing = false,
            // Logged when the failure starts, not at every tick while it lasts.
            Err(e) if !failing => {
                failing = true;
                error!("timer scan failed (retrying every tick): {e}");
            }
            Err(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Clock;
    use crate::db::testing::temp_db;
    use crate::db::UserId;
    use crate::db::{ChannelId, GuildId};
    use crate::db::{GameStatus, NewGame};
    use crate::games::Options;
    use crate::play::schedule::DAY;
    use std::sync::atomic::Ordering;

    const T0: i64 = 1_800_000_000;
    const ANN: UserId = UserId(11);
    const BOB: UserId = UserId(u64::MAX - 3);

    async fn game(core: &Core, rated: bool) -> i64 {
        for (id, name) in [(ANN, "ann"), (BOB, "bob")] {
            db::upsert_player(&core.pool, id, name, T0).await.unwrap();
        }
        db::insert_game(
            &core.pool,
            &NewGame {
                guild_id: Some(GuildId(77)),
                channel_id: ChannelId(88),
                options: &Options::parse_line("inphexion size=5").unwrap(),
                players: [ANN, BOB],
                rated,
                now: T0,
                seconds_per_move: DAY,
                deadline_at: Some(T0 + DAY),
                clock: None,
            },
        )
        .await
        .unwrap()
    }

    #[tokio::test]
    async fn reminders_then_a_loss_on_time_each_once_across_restarts() {
        let (pool, _f) = temp_db().await;
        let (clock, t) = Clock::fixed(T0);
        let core = Core::new(pool, clock);
        let id = game(&core, true).await;
        let at = |s: i64| t.store(T0 + s, Ordering::SeqCst);
        // Each scan below may come from a restarted bot.
        at(11 * 3600);
        assert_eq!(scan(&core).await.unwrap(), Scanned::default());
        at(12 * 3600);
        assert_eq!(scan(&core).await.unwrap().reminded, 1);
        at(12 * 3600 + 60);
        assert_eq!(scan(&core).await.unwrap(), Scanned::default());
        at(18 * 3600);
        assert_eq!(scan(&core).await.unwrap().reminded, 1);
        at(DAY + 5000);
        assert_eq!(scan(&core).await.unwrap().timed_out, 1);
        at(DAY + 6000);
        assert_eq!(scan(&core).await.unwrap(), Scanned::default());
        let row = db::fetch_game(&core.pool, id).await.unwrap().unwrap();
        assert_eq!(row.status, GameStatus::Finished);
        assert_eq!(row.winner_id, Some(BOB));
        assert_eq!(row.result_text(), "black wins: timeout");
        let bob = db::fetch_rating(
            &core.pool,
            GuildId(77),
            crate::games::GameKind::Inphexion,
            BOB,
        )
        .await
        .unwrap()
        .unwrap();
        assert_eq!((bob.wins, bob.games), (1, 1));
    }

    #[tokio::test]
    async fn one_garbled_row_never_stops_the_others() {
        let (pool, _f) = temp_db().await;
        let (clock, t) = Clock::fixed(T0);
        let core = Core::new(pool, clock);
        let bad = game(&core, false).await;
        let good = game(&core, false).await;
        let also_bad = game(&core, false).await;
        // Text where a number belongs, and options that are not a variant.
        sqlx::query("UPDATE games SET version = 'many' WHERE id = $1")
            .bind(bad)
            .execute(&core.pool)
            .await
            .unwrap();
        sqlx::query("UPDATE games SET options = 'chess' WHERE id = $1")
            .bind(also_bad)
            .execute(&core.pool)
            .await
            .unwrap();
        t.store(T0 + DAY / 2, Ordering::SeqCst);
        let s = scan(&core).await.unwrap();
        assert_eq!((s.reminded, s.skipped), (1, 2), "{s:?}");
        t.store(T0 + DAY, Ordering::SeqCst);
        let s = scan(&core).await.unwrap();
        assert_eq!((s.timed_out, s.skipped), (1, 2), "{s:?}");
        assert_eq!(
            db::fetch_game(&core.pool, good)
                .await
                .unwrap()
                .unwrap()
                .status,
            GameStatus::Finished
        );
        // The listings leave the damaged games out instead of failing.
        let listed = db::active_games_of(&core.pool, Some(GuildId(77)), ANN)
            .await
            .unwrap();
        assert!(listed.is_empty(), "{listed:?}");
    }

    /// The bot removed from a server: its settings stay through the grace period, go at its
    /// end, once; a server the bot was added back to keeps them.
    #[tokio::test]
    async fn a_server_left_loses_its_settings_after_the_grace_period() {
        let (pool, _f) = temp_db().await;
        let (clock, t) = Clock::fixed(T0);
        let core = Core::new(pool, clock);
        let (gone, back) = (GuildId(5), GuildId(6));
        for g in [gone, back] {
            db::store_server_settings(&core.pool, g, db::ServerSettings { threads: false }, T0)
                .await
                .unwrap();
            db::note_bot_left(&core.pool, g, T0).await.unwrap();
        }
        t.store(T0 + DAY, Ordering::SeqCst);
        db::note_bot_joined(&core.pool, back).await.unwrap();
        let threads = |g| db::fetch_server_settings(&core.pool, g);
        t.store(T0 + SERVER_GRACE_SECS - 1, Ordering::SeqCst);
        assert_eq!(scan(&core).await.unwrap(), Scanned::default());
        assert!(
            !threads(gone).await.unwrap().threads,
            "kept during the grace period"
        );
        t.store(T0 + SERVER_GRACE_SECS, Ordering::SeqCst);
        assert_eq!(scan(&core).await.unwrap().servers_cleared, 1);
        assert!(threads(gone).await.unwrap().threads, "back to the defaults");
        assert!(
            !threads(back).await.unwrap().threads,
            "the bot came back: kept"
        );
        t.store(T0 + 2 * SERVER_GRACE_SECS, Ordering::SeqCst);
        assert_eq!(scan(&core).await.unwrap(), Scanned::default());
    }
}

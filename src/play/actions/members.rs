//! A member's own state across games: following a game, vacations, and reminders of a turn.

use tracing::info;

use super::game::{load, Core};
use crate::db::{self, Announcement, GameRow, GameStatus, GuildId, Target, UserId};
use crate::i18n::Text;
use crate::play::access::mention;
use crate::play::schedule::{reminder_due, DAY, VACATION_DAYS_PER_YEAR};
use crate::play::Error;
use crate::text;

/// `user` follows game `id` (in server `guild`), or stops following it: `true` when they now
/// follow it, with the game. Followers are mentioned with the result. Following is for games
/// in servers: a chat's members see every board of its games there, and its boards offer no
/// Follow button.
pub async fn toggle_follow(
    core: &Core,
    id: i64,
    user: UserId,
    guild: Option<GuildId>,
) -> Result<(bool, db::GameRow), Error> {
    let (row, _) = load(&core.pool, id).await?;
    if crate::play::chats::is_chat_game(&row) {
        return Err(Error::refused(text!("follow-not-in-chats", game = id)));
    }
    if guild.is_none() || row.guild_id != guild {
        return Err(Error::refused(text!("game-not-in-this-server", game = id)));
    }
    if row.status != GameStatus::Active {
        return Err(Error::refused(text!(
            "game-over-replay",
            game = id,
            result = crate::play::words::row_result(&row)
        )));
    }
    let mut conn = core.pool.acquire().await?;
    let following = db::toggle_follow(&mut conn, id, user, core.clock.now()).await?;
    Ok((following, row))
}

/// The reminder's text.
pub fn reminder_text(game: &GameRow, player: UserId, left: i64) -> Text {
    let common = |t: Text| {
        t.with("who", mention(player))
            .with("game", game.kind().title())
            .with("id", game.id)
            .with("opponent", mention(game.opponent_of(player)))
            .with("place", game.place().to_string())
            .with("left", crate::play::words::time_left(left))
    };
    match game.deadline_at {
        Some(d) => common(text!("reminder-until", until = d)),
        None => common(text!("reminder")),
    }
}

/// Sends the reminder due in game `id`, if one is: `true` when one was queued.
pub async fn remind(core: &Core, id: i64) -> Result<bool, Error> {
    let now = core.clock.now();
    let Some(row) = db::fetch_game(&core.pool, id).await? else {
        return Ok(false);
    };
    let (Some(deadline), Some(player), GameStatus::Active) =
        (row.deadline_at, row.to_move, row.status)
    else {
        return Ok(false);
    };
    let (left, to, next) = match &row.clock {
        None => {
            let left = deadline - now;
            let to = reminder_due(row.seconds_per_move, left, row.reminders_sent);
            (left, to, None)
        }
        Some(clock) => {
            let mut conn = core.pool.acquire().await?;
            let (turn, off, times) =
                crate::play::schedule::current_turn(&mut conn, &row, clock, player).await?;
            let left = crate::time_control::time_left(turn, &off, now);
            let to = crate::time_control::reminder_due(turn.bank, left, row.reminders_sent);
            let Some(to) = to else {
                // A pause or a vacation moved it: the scan looks again when it is due.
                let next = crate::play::schedule::next_reminder(&times, row.reminders_sent);
                db::set_turn_deadline(&mut *conn, &row, times.deadline, next).await?;
                return Ok(false);
            };
            (
                left,
                Some(to),
                crate::play::schedule::next_reminder(&times, to),
            )
        }
    };
    let Some(to) = to else {
        return Ok(false);
    };
    // Reminders go where the player hears of their turn (`/settings`), unless switched off.
    let settings = db::fetch_settings(&core.pool, player).await?;
    // A member who takes a daily digest (or no notices) hears of their games there only.
    let per_move = !matches!(
        db::fetch_time_settings(&core.pool, player).await,
        Ok(t) if t.notifications != db::Notifications::PerMove
    );
    let mut targets = Vec::new();
    if crate::play::chats::is_chat_game(&row) {
        // In a chat the bot may not post: a direct message, where Discord lets it write.
        if per_move && settings.reminders && db::is_reachable(&core.pool, player).await? {
            targets.push(Target::Direct {
                user: player,
                or_channel: None,
            });
        }
    } else if per_move && settings.reminders && settings.notify.in_channel() {
        targets.push(Target::Game {
            game: row.id,
            channel: row.channel_id,
        });
    }
    if per_move
        && settings.reminders
        && settings.notify.direct()
        && !crate::play::chats::is_chat_game(&row)
    {
        targets.push(Target::Direct {
            user: player,
            // With their direct messages closed, only the game's place is left.
            or_channel: (!settings.notify.in_channel()).then_some(row.place()),
        });
    }
    let mut tx = core.pool.begin().await?;
    if !db::claim_reminder(&mut *tx, &row, to, next).await? {
        return Ok(false);
    }
    for target in &targets {
        // A direct message in the player's language; in the game's place, the server's.
        let lang = match target {
            Target::Direct { .. } => crate::play::member_lang(&mut *tx, player).await?,
            _ => crate::play::server_lang(&mut *tx, row.guild_id).await?,
        };
        let reminder = Announcement {
            target: target.clone(),
            content: reminder_text(&row, player, left).render(lang),
            mentions: vec![player],
            // With the board as it stands and its Move button: the player plays from here.
            board: Some(db::BoardAt {
                game: row.id,
                ply: row.version,
                current: false,
                reminder: true,
            }),
            concerned: vec![player],
            lang: lang.tag().to_string(),
        };
        db::enqueue(&mut *tx, Some(id), &reminder).await?;
    }
    tx.commit().await?;
    if !targets.is_empty() {
        core.wake_delivery();
        info!(game = id, %player, "reminder queued");
    }
    Ok(!targets.is_empty())
}

/// Reckons again the deadline and next reminder of the current turn of game `id` (with a time
/// control) from what stops its clock now: after a vacation or a pause. `true` when it was
/// stored.
pub(crate) async fn reclock(conn: &mut db::Conn, id: i64) -> Result<bool, Error> {
    let Some(row) = db::fetch_game(&mut *conn, id).await? else {
        return Ok(false);
    };
    let (Some(clock), Some(player), GameStatus::Active) = (row.clock, row.to_move, row.status)
    else {
        return Ok(false);
    };
    let (_, _, times) = crate::play::schedule::current_turn(conn, &row, &clock, player).await?;
    let next = crate::play::schedule::next_reminder(&times, row.reminders_sent);
    Ok(db::set_turn_deadline(&mut *conn, &row, times.deadline, next).await?)
}

/// A vacation taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vacation {
    pub until: i64,
    /// Games waiting for the player's move whose deadline moved.
    pub paused: u64,
    /// Vacation days left in the next 365 days.
    pub days_left: i64,
    /// Open seeks withdrawn (a game would start the player's clock while they are away).
    pub seeks_withdrawn: usize,
}

/// `player` takes `days` of vacation from now: the deadlines of the games waiting for their move
/// move by as much, unless they have passed already (those games are lost on time), and their
/// open seeks are withdrawn. The yearly
/// cap holds under concurrent requests: `db::start_vacation_within_cap` decides them one at a
/// time.
pub async fn take_vacation(core: &Core, player: UserId, days: i64) -> Result<Vacation, Error> {
    let now = core.clock.now();
    let since = now - 365 * DAY;
    let cap = VACATION_DAYS_PER_YEAR * DAY;
    let seconds = days * DAY;
    let mut tx = core.pool.begin().await?;
    let started = days >= 1
        && db::start_vacation_within_cap(
            &mut tx,
            &db::VacationRequest {
                player,
                starts_at: now,
                seconds,
                counted_since: since,
                cap_seconds: cap,
            },
        )
        .await?;
    if !started {
        drop(tx);
        let away = db::vacation_until(&core.pool, player, now).await?;
        let used = db::vacation_seconds_since(&core.pool, player, since).await?;
        return Err(crate::play::schedule::vacation_refusal(days, away, used).into());
    }
    let mut paused = db::pause_deadlines(&mut *tx, player, seconds, now).await?;
    // Games with a time control: their clock stops for the vacation.
    for game in db::clock_games_waiting_for(&mut *tx, player, now).await? {
        if reclock(&mut tx, game).await? {
            paused += 1;
        }
    }
    // Their pages show the deadlines moved.
    let waiting: Vec<i64> = db::games_waiting_for(&mut tx, player)
        .await?
        .iter()
        .map(|row| row.id)
        .collect();
    core.commit_changes(tx, &waiting).await?;
    let used = db::vacation_seconds_since(&core.pool, player, since).await?;
    info!(%player, days, paused, "vacation taken");
    // Taken: a seek left open could not be matched anyway (matching skips a member away).
    let seeks_withdrawn = super::withdraw_seeks_for_vacation(core, player).await?;
    Ok(Vacation {
        until: now + seconds,
        paused,
        days_left: (cap - used).max(0) / DAY,
        seeks_withdrawn,
    })
}

/// How long `/privacy delete`'s confirmation stays good, in seconds.
pub const FORGET_CONFIRM_SECS: i64 = 10 * 60;

/// Games or tournaments listed in words: `#12, #15`.
fn numbers(ids: &[i64]) -> String {
    ids.iter()
        .map(|id| format!("#{id}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why `user` cannot have their data deleted now: their games in play, else their open
/// tournament entries (`None`: nothing stands in the way).
pub fn forget_refusal(games: &[i64], tournaments: &[i64]) -> Option<Text> {
    if !games.is_empty() {
        return Some(text!("privacy-blocked-games", games = numbers(games)));
    }
    if !tournaments.is_empty() {
        return Some(text!(
            "privacy-blocked-tournaments",
            tournaments = numbers(tournaments)
        ));
    }
    None
}

/// Deletes `user`'s data ([`db::forget_member`]) on their confirmation asked at `asked_at`:
/// refused, changing nothing, when the confirmation is older than [`FORGET_CONFIRM_SECS`] or
/// they have a game in play or an open tournament entry. From then on every text names them
/// "a former member".
pub async fn forget_member(core: &Core, user: UserId, asked_at: i64) -> Result<Text, Error> {
    let now = core.clock.now();
    if now - asked_at > FORGET_CONFIRM_SECS || asked_at > now + 60 {
        return Err(Error::refused(text!("privacy-confirm-stale")));
    }
    let mut tx = core.pool.begin().await?;
    match db::forget_member(&mut tx, user, now).await? {
        db::Forgotten::Blocked { games, tournaments } => {
            drop(tx);
            let why = forget_refusal(&games, &tournaments)
                .unwrap_or_else(|| text!("privacy-confirm-stale"));
            Err(Error::refused(why))
        }
        db::Forgotten::Done { erased } => {
            tx.commit().await?;
            crate::i18n::note_former_members([user.0]);
            info!(%user, erased, "a member's data was deleted on their request");
            Ok(text!("privacy-deleted", rows = erased))
        }
    }
}

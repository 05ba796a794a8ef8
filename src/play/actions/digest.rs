//! The daily digest: one direct message a day to each member who chose it, listing every game
//! waiting for their move, the least time left first, each with a link to its board message.
//!
//! The digest of a member's local day is claimed in the database (their last digest day moves
//! forward in the transaction that queues the message), so it is sent once, whatever restarts or
//! processes scan at the same time.

use tracing::{error, info};

use super::game::Core;
use crate::db::{self, Announcement, GameRow, Target, UserId};
use crate::i18n::Text;
use crate::play::access::mention;
use crate::play::Error;
use crate::text;
use crate::time_control::local_day_and_hour;

/// Sends the digests due at the clock's time: to each member who takes one, has a game waiting
/// and whose local hour has come today with today's digest not yet claimed. Returns how many
/// were queued; one member's failure is logged and never stops the others.
pub async fn send_digests(core: &Core) -> Result<usize, Error> {
    let now = core.clock.now();
    let mut sent = 0;
    for reader in db::digest_readers(&core.pool).await? {
        let zone = reader.time_zone.unwrap_or(chrono_tz::UTC);
        let Some((day, hour)) = local_day_and_hour(zone, now) else {
            continue;
        };
        if hour < reader.hour || reader.last_day.is_some_and(|d| d >= day) {
            continue;
        }
        match send_digest(core, reader.player, day, now).await {
            Ok(true) => sent += 1,
            Ok(false) => {}
            Err(e) => error!(player = %reader.player, "cannot send a digest: {e:?}"),
        }
    }
    Ok(sent)
}

/// One line of a digest: a game, its opponent, the time left and where its board is.
fn digest_line(row: &GameRow, player: UserId, left: Option<i64>) -> Text {
    let place = match (row.guild_id, row.board_message_id) {
        (Some(g), Some(m)) => format!("https://discord.com/channels/{g}/{}/{m}", row.place()),
        _ => format!("<#{}>", row.place()),
    };
    let left = match left {
        Some(l) => crate::play::words::time_left(l),
        None => text!("clock-digest-no-clock"),
    };
    text!(
        "clock-digest-line",
        game = row.id,
        title = row.kind().title(),
        opponent = mention(row.opponent_of(player)),
        left = left,
        link = place
    )
}

/// Claims and queues `player`'s digest of local day `day`: `false` when another scan claimed it
/// first or no game waits for them any more.
async fn send_digest(core: &Core, player: UserId, day: i64, now: i64) -> Result<bool, Error> {
    let mut conn = core.pool.acquire().await?;
    let rows = db::games_waiting_for(&mut conn, player).await?;
    let mut games = Vec::with_capacity(rows.len());
    for row in rows {
        let left = match (&row.clock, row.deadline_at) {
            (_, None) => None,
            (Some(clock), Some(_)) => Some(
                crate::play::schedule::time_left_in_turn(&mut conn, &row, clock, player, now)
                    .await?,
            ),
            (None, Some(d)) => Some((d - now).max(0)),
        };
        games.push((left, row));
    }
    drop(conn);
    if games.is_empty() {
        return Ok(false);
    }
    // The least time left first; games without a clock last.
    games.sort_by_key(|(left, row)| (left.unwrap_or(i64::MAX), row.id));
    let mut tx = core.pool.begin().await?;
    if !db::claim_digest(&mut *tx, player, day).await? {
        return Ok(false);
    }
    let lang = crate::play::member_lang(&mut *tx, player).await?;
    let lines: Vec<String> = games
        .iter()
        .map(|(left, row)| digest_line(row, player, *left).render(lang))
        .collect();
    let content = text!(
        "clock-digest",
        who = mention(player),
        count = games.len() as i64,
        lines = lines.join("\n")
    )
    .render(lang);
    let digest = Announcement {
        target: Target::Direct {
            user: player,
            or_channel: None,
        },
        content,
        mentions: vec![player],
        board: None,
        concerned: vec![player],
        lang: lang.tag().to_string(),
    };
    db::enqueue(&mut *tx, None, &digest).await?;
    tx.commit().await?;
    core.wake_delivery();
    info!(%player, games = games.len(), "digest queued");
    Ok(true)
}

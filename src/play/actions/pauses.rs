//! Pauses by agreement: a player of a game with a time control proposes to stop its clock for 1
//! to 14 days, the other accepts or declines; a running pause ends at its end, or earlier when
//! both players agree to resume. The clock of the turn in progress is reckoned again at each
//! change ([`crate::play::schedule::current_turn`] counts the pauses as time off).

use tracing::info;

use super::game::{load, Core};
use super::members::reclock;
use crate::db::{self, PauseStatus, UserId};
use crate::i18n::Text;
use crate::play::access::{check_player, mention};
use crate::play::schedule::DAY;
use crate::play::Error;
use crate::text;

/// The longest pause that may be proposed, in days.
pub const MAX_PAUSE_DAYS: i64 = 14;

/// A pause proposed: its id and the text asking the other player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PauseProposed {
    pub pause: i64,
    pub text: Text,
}

/// `user`, a player of active game `id`, proposes to pause it for `days`.
pub async fn propose_pause(
    core: &Core,
    id: i64,
    user: UserId,
    days: i64,
) -> Result<PauseProposed, Error> {
    let (row, _) = load(&core.pool, id).await?;
    check_player(&row, user)?;
    if !(1..=MAX_PAUSE_DAYS).contains(&days) {
        return Err(Error::refused(text!(
            "pause-bad-days",
            days = days,
            most = MAX_PAUSE_DAYS
        )));
    }
    if row.clock.is_none() || row.deadline_at.is_none() {
        return Err(Error::refused(text!("pause-no-clock", game = id)));
    }
    let now = core.clock.now();
    if let Some(open) = db::open_pause(&core.pool, id, now).await? {
        return Err(Error::refused(match open.status {
            PauseStatus::Proposed => text!("pause-already-proposed", game = id),
            _ => text!(
                "pause-already-running",
                game = id,
                until = open.span.map_or(now, |s| s.1)
            ),
        }));
    }
    let Some(pause) = db::propose_pause(&core.pool, id, user, days * DAY, now).await? else {
        return Err(Error::refused(text!("pause-already-proposed", game = id)));
    };
    info!(game = id, pause, days, "pause proposed");
    Ok(PauseProposed {
        pause,
        text: text!(
            "pause-proposed",
            who = mention(user),
            other = mention(row.opponent_of(user)),
            game = id,
            days = days
        ),
    })
}

/// `user` answers the pause proposal `pause`: only the other player of its game may. Accepted,
/// the clock stops from now for its length.
pub async fn answer_pause(
    core: &Core,
    pause: i64,
    user: UserId,
    accept: bool,
) -> Result<Text, Error> {
    let p = db::fetch_pause(&core.pool, pause)
        .await?
        .ok_or_else(|| Error::refused(text!("pause-gone")))?;
    let (row, _) = load(&core.pool, p.game).await?;
    check_player(&row, user)?;
    if p.status != PauseStatus::Proposed {
        return Err(Error::refused(text!("pause-answered", game = p.game)));
    }
    if user == p.proposed_by {
        return Err(Error::refused(text!(
            "only-they-answer-request",
            who = mention(row.opponent_of(user))
        )));
    }
    let now = core.clock.now();
    let mut tx = core.pool.begin().await?;
    if !db::answer_pause(&mut *tx, pause, accept, now).await? {
        return Err(Error::refused(text!("pause-answered", game = p.game)));
    }
    if !accept {
        tx.commit().await?;
        return Ok(text!("pause-declined", who = mention(user), game = p.game));
    }
    reclock(&mut tx, p.game).await?;
    core.commit_change(tx, p.game).await?;
    info!(game = p.game, pause, "pause accepted");
    Ok(text!(
        "pause-accepted",
        who = mention(user),
        game = p.game,
        until = now + p.seconds
    ))
}

/// `user` asks to resume game `id` before its pause ends, or agrees to the other player's asking:
/// when both have, the clock runs again from now.
pub async fn resume_game(core: &Core, id: i64, user: UserId) -> Result<Text, Error> {
    let (row, _) = load(&core.pool, id).await?;
    check_player(&row, user)?;
    let now = core.clock.now();
    let running = db::open_pause(&core.pool, id, now)
        .await?
        .filter(|p| p.status == PauseStatus::Accepted)
        .ok_or_else(|| Error::refused(text!("pause-not-running", game = id)))?;
    let mut tx = core.pool.begin().await?;
    match db::resume_pause(&mut *tx, running.id, user, now).await? {
        None => Err(Error::refused(text!(
            "pause-resume-asked",
            other = mention(row.opponent_of(user)),
            game = id
        ))),
        Some(false) => {
            tx.commit().await?;
            Ok(text!(
                "pause-resume-proposed",
                who = mention(user),
                other = mention(row.opponent_of(user)),
                game = id
            ))
        }
        Some(true) => {
            reclock(&mut tx, id).await?;
            core.commit_change(tx, id).await?;
            info!(game = id, "pause ended by agreement");
            Ok(text!("pause-resumed", game = id))
        }
    }
}

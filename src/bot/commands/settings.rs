//! A member's own settings: `/settings` (how they are told of their turn, reminders) and
//! `/vacation`.

use super::{remember_author, NotifyChoice, OnOff};
use crate::bot::actions;
use crate::bot::{BotError, Context};
use crate::db;

/// Your settings: how you hear that it is your move, and reminders.
#[poise::command(slash_command)]
pub async fn settings(
    ctx: Context<'_>,
    #[description = "How you are told that it is your move (and reminded)"] notify: Option<
        NotifyChoice,
    >,
    #[description = "Reminders before your time per move runs out"] reminders: Option<OnOff>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let pool = &ctx.data().core.pool;
    let mut settings = db::fetch_settings(pool, me).await?;
    let changed = notify.is_some() || reminders.is_some();
    if let Some(n) = notify {
        settings.notify = n.into();
    }
    if let Some(r) = reminders {
        settings.reminders = matches!(r, OnOff::On);
    }
    if changed {
        db::store_settings(pool, me, settings, ctx.data().core.clock.now()).await?;
    }
    let told = match settings.notify {
        db::NotifyMode::Channel => "a mention in the game's channel",
        db::NotifyMode::Dm => "a direct message with the board and its Move button (a mention in the game's channel when I cannot send you one)",
        db::NotifyMode::Both => "a mention in the game's channel and a direct message with the board",
    };
    let reminded = if settings.reminders {
        "Reminders: the same way, when half your time for a move is left and again near the end."
    } else {
        "Reminders: off. Your deadlines still apply (`/turn` shows them)."
    };
    let text = format!("Your turn: {told}.\n{reminded}");
    let text = if changed {
        format!("Saved. {text}")
    } else {
        format!("{text}\nChange them with `/settings notify` and `/settings reminders`.")
    };
    super::answer_privately(&ctx, text).await
}

/// Take a vacation: your deadlines are paused for that many days.
#[poise::command(slash_command)]
pub async fn vacation(
    ctx: Context<'_>,
    #[description = "How many days"]
    #[min = 1]
    #[max = 30]
    days: i64,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let v = actions::take_vacation(&ctx.data().core, me, days).await?;
    let plural = |n: i64| if n == 1 { "" } else { "s" };
    let text = format!(
        "Enjoy your vacation! Until <t:{}:f> your deadlines are paused ({} game{} waiting for your move got {days} more day{}). Vacation days left in the next 365 days: {}.",
        v.until,
        v.paused,
        plural(v.paused as i64),
        plural(days),
        v.days_left,
    );
    super::answer_privately(&ctx, text).await
}

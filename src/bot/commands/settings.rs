//! A member's own settings: `/settings` (reminders) and `/vacation`.

use super::{remember_author, RemindersChoice};
use crate::bot::actions;
use crate::bot::{BotError, Context};
use crate::db;

/// Your settings: how you are reminded of your moves.
#[poise::command(slash_command)]
pub async fn settings(
    ctx: Context<'_>,
    #[description = "Reminders before your time per move runs out"] reminders: Option<
        RemindersChoice,
    >,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let pool = &ctx.data().core.pool;
    if let Some(choice) = reminders {
        db::set_reminder_mode(pool, me, choice.into(), ctx.data().core.clock.now()).await?;
    }
    let text = match db::fetch_reminder_mode(pool, me).await? {
        db::ReminderMode::Channel => "Reminders: a mention in the game's channel, when half your time for a move is left and again near the end.",
        db::ReminderMode::Dm => "Reminders: a direct message (or, when I cannot send you one, a mention in the game's channel), when half your time for a move is left and again near the end.",
        db::ReminderMode::Off => "Reminders: off. Your deadlines still apply (`/turn` shows them).",
    };
    let text = if reminders.is_some() {
        format!("Saved. {text}")
    } else {
        format!("{text}\nChange it with `/settings reminders`.")
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

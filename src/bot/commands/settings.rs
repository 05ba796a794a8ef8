//! A member's own settings: `/settings` (how they are told of their turn, reminders) and
//! `/vacation`.

use super::{lang, remember_author, NotifyChoice, OnOff};
use crate::bot::{BotError, Context};
use crate::db;
use crate::play::actions;
use crate::text;

/// Your settings: how you hear that it is your move, and reminders.
#[poise::command(slash_command)]
pub async fn settings(
    ctx: Context<'_>,
    notify: Option<NotifyChoice>,
    reminders: Option<OnOff>,
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
        db::NotifyMode::Channel => text!("answer-notify-channel"),
        db::NotifyMode::Dm => text!("answer-notify-dm"),
        db::NotifyMode::Both => text!("answer-notify-both"),
    };
    let reminded = if settings.reminders {
        text!("answer-reminders-on")
    } else {
        text!("answer-reminders-off")
    };
    let text = text!("answer-settings", told = told, reminded = reminded);
    let text = if changed {
        text!("answer-settings-saved", settings = text)
    } else {
        text!("answer-settings-change", settings = text)
    };
    super::answer_privately(&ctx, text.render(lang(&ctx))).await
}

/// Take a vacation: your deadlines are paused for that many days.
#[poise::command(slash_command)]
pub async fn vacation(
    ctx: Context<'_>,
    #[min = 1]
    #[max = 30]
    days: i64,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let v = actions::take_vacation(&ctx.data().core, me, days).await?;
    let text = text!(
        "answer-vacation",
        until = v.until,
        paused = v.paused,
        days = days,
        left = v.days_left,
    );
    super::answer_privately(&ctx, text.render(lang(&ctx))).await
}

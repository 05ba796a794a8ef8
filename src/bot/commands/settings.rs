//! A member's own settings: `/settings` (how they are told of their turn, reminders, their time
//! zone, a daily digest instead of a notice per move) and `/vacation`.

use poise::serenity_prelude as serenity;

use super::{lang, remember_author, NotificationsChoice, NotifyChoice, OnOff};
use crate::bot::{BotError, Context};
use crate::db;
use crate::i18n::excerpt;
use crate::play::{actions, Refusal};
use crate::text;
use crate::time_control::{time_zone, time_zones_matching};

/// The hour of a daily digest when the member chooses one without an hour.
pub const DEFAULT_DIGEST_HOUR: u8 = 8;

/// Time zone names containing what the member typed.
pub(super) async fn autocomplete_zone(
    _ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let choices: Vec<_> = time_zones_matching(partial, crate::bot::limits::CHOICES)
        .into_iter()
        .map(|name| super::suggestion(name, name))
        .collect();
    super::suggestions(choices)
}

/// How you hear of your move, and reminders.
#[poise::command(slash_command)]
pub async fn settings(
    ctx: Context<'_>,
    notify: Option<NotifyChoice>,
    reminders: Option<OnOff>,
    #[autocomplete = "autocomplete_zone"]
    #[max_length = 64]
    timezone: Option<String>,
    notifications: Option<NotificationsChoice>,
    #[min = 0]
    #[max = 23]
    digest_hour: Option<i64>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let now = ctx.data().core.clock.now();
    let pool = &ctx.data().core.pool;
    // Every value is checked before anything is stored.
    let zone = match timezone.as_deref() {
        None => None,
        Some(name) => Some(
            time_zone(name)
                .ok_or_else(|| Refusal::new(text!("clock-zone-unknown", zone = excerpt(name))))?,
        ),
    };
    let hour = match digest_hour.map(u8::try_from) {
        None => None,
        Some(Ok(h)) if h < 24 => Some(h),
        Some(_) => return Err(Refusal::new(text!("clock-digest-hour-bad")).into()),
    };
    let mut time = db::fetch_time_settings(pool, me).await?;
    let chosen = match (notifications, hour) {
        (Some(NotificationsChoice::PerMove), _) => Some(db::Notifications::PerMove),
        (Some(NotificationsChoice::None), _) => Some(db::Notifications::None),
        (Some(NotificationsChoice::Digest), h) => Some(db::Notifications::Digest {
            hour: h.unwrap_or(DEFAULT_DIGEST_HOUR),
        }),
        (None, Some(h)) => Some(db::Notifications::Digest { hour: h }),
        (None, None) => None,
    };
    let mut settings = db::fetch_settings(pool, me).await?;
    let changed = notify.is_some() || reminders.is_some() || zone.is_some() || chosen.is_some();
    if let Some(n) = notify {
        settings.notify = n.into();
    }
    if let Some(r) = reminders {
        settings.reminders = matches!(r, OnOff::On);
    }
    if notify.is_some() || reminders.is_some() {
        db::store_settings(pool, me, settings, now).await?;
    }
    if let Some(z) = zone {
        db::store_time_zone(pool, me, Some(z), now).await?;
        time.time_zone = Some(z);
    }
    if let Some(n) = chosen {
        db::store_notifications(pool, me, n, now).await?;
        time.notifications = n;
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
    let zone = match time.time_zone {
        Some(z) => text!("clock-zone-set", zone = z.name()),
        None => text!("clock-zone-unset"),
    };
    let heard = match time.notifications {
        db::Notifications::PerMove => text!("clock-notifications-move"),
        db::Notifications::Digest { hour } => text!("clock-notifications-digest", hour = hour),
        db::Notifications::None => text!("clock-notifications-none"),
    };
    let text = text!(
        "clock-settings",
        settings = text,
        zone = zone,
        heard = heard
    );
    let text = if changed {
        text!("answer-settings-saved", settings = text)
    } else {
        text!("answer-settings-change", settings = text)
    };
    super::answer_privately(&ctx, text.render(lang(&ctx))).await
}

/// Pause your deadlines for that many days.
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
        seeks = v.seeks_withdrawn,
    );
    super::answer_privately(&ctx, text.render(lang(&ctx))).await
}

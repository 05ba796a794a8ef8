//! Moderators' commands: `/abort`, `/server` (the server's settings) and `/daily_puzzle`.

use poise::serenity_prelude as serenity;

use super::{lang, OnOff};
use crate::bot::{BotError, Context};
use crate::db::{self, GuildId};
use crate::i18n::{catalog, tr, Lang};
use crate::play::access::parse_game_ref;
use crate::play::actions;
use crate::text;

/// The `language` value that gives the choice back to Discord's server language.
const AUTOMATIC: &str = "auto";

/// The author may manage the server (Discord says so with each command).
fn manages_server(ctx: &Context<'_>) -> bool {
    super::author_permissions(ctx).is_some_and(|p| p.manage_guild())
}

/// Moderators: end a game in this server without a result.
#[poise::command(slash_command, default_member_permissions = "MANAGE_GUILD")]
pub async fn abort(ctx: Context<'_>, game: String) -> Result<(), BotError> {
    let id = parse_game_ref(&game)?;
    let manage = manages_server(&ctx);
    actions::abort(
        &ctx.data().core,
        id,
        &super::author_name(&ctx),
        manage,
        ctx.guild_id().map(GuildId::from),
    )
    .await?;
    let text = text!("answer-aborted", game = id).render(lang(&ctx));
    super::answer_privately(&ctx, text).await
}

/// A language's name in itself, with its tag: `日本語 (ja)`.
fn language_label(tag: &str) -> String {
    format!("{} ({tag})", tr(Lang::of(tag), "answer-language-name"))
}

/// The language a moderator chose: a tag of the catalog (any case, or as its label reads),
/// `None` for Discord's own.
fn parse_language(value: &str) -> Result<Option<&'static str>, crate::play::Refusal> {
    let value = value.trim();
    if value.eq_ignore_ascii_case(AUTOMATIC) {
        return Ok(None);
    }
    catalog()
        .tags()
        .find(|&tag| value.eq_ignore_ascii_case(tag) || value == language_label(tag))
        .map(Some)
        .ok_or_else(|| {
            let known: Vec<String> = catalog()
                .tags()
                .map(|t| format!("`{t}`"))
                .chain([format!("`{AUTOMATIC}`")])
                .collect();
            crate::play::Refusal::new(text!(
                "answer-language-unknown",
                value = crate::i18n::excerpt(value),
                known = known.join(", ")
            ))
        })
}

/// The languages the bot speaks, each in itself, then Discord's automatic choice.
async fn autocomplete_language(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let typed = partial.trim().to_lowercase();
    let choices = catalog()
        .tags()
        .map(|tag| (language_label(tag), tag.to_string()))
        .chain([(
            tr(lang(&ctx), "answer-language-auto"),
            AUTOMATIC.to_string(),
        )])
        .filter(|(label, value)| label.to_lowercase().contains(&typed) || value.contains(&typed))
        .map(|(label, value)| super::suggestion(&label, value))
        .collect::<Vec<_>>();
    super::suggestions(choices)
}

/// Moderators: server settings.
#[poise::command(slash_command, guild_only, default_member_permissions = "MANAGE_GUILD")]
pub async fn server(
    ctx: Context<'_>,
    threads: Option<OnOff>,
    #[max_length = 40]
    #[autocomplete = "autocomplete_language"]
    language: Option<String>,
    tournaments: Option<OnOff>,
    weekends_off: Option<OnOff>,
    #[autocomplete = "super::settings::autocomplete_zone"]
    #[max_length = 64]
    timezone: Option<String>,
    theme: Option<super::ThemeChoice>,
) -> Result<(), BotError> {
    let Some(guild) = ctx.guild_id().map(GuildId::from) else {
        return Err(crate::play::Refusal::new(text!("answer-server-only")).into());
    };
    let lang = lang(&ctx);
    let pool = &ctx.data().core.pool;
    let now = ctx.data().core.clock.now();
    let chosen = language.as_deref().map(parse_language).transpose()?;
    let zone = match timezone.as_deref() {
        None => None,
        Some(name) => Some(crate::time_control::time_zone(name).ok_or_else(|| {
            crate::play::Refusal::new(text!(
                "clock-zone-unknown",
                zone = crate::i18n::excerpt(name)
            ))
        })?),
    };
    let changes = threads.is_some()
        || chosen.is_some()
        || tournaments.is_some()
        || weekends_off.is_some()
        || zone.is_some()
        || theme.is_some();
    if changes && !manages_server(&ctx) {
        return Err(crate::play::Refusal::new(text!("answer-moderators-only")).into());
    }
    let mut settings = db::fetch_server_settings(pool, guild).await?;
    if let Some(t) = threads {
        settings.threads = t == OnOff::On;
        db::store_server_settings(pool, guild, settings, now).await?;
    }
    if let Some(tag) = chosen {
        db::set_server_language(pool, guild, tag, now).await?;
    }
    if let Some(open) = tournaments {
        db::set_tournaments_open(pool, guild, open == OnOff::On, now).await?;
    }
    if let Some(t) = theme {
        db::set_server_theme(pool, guild, crate::render::Theme::from(t).name(), now).await?;
    }
    let mut clock = db::fetch_server_clock(pool, guild).await?;
    if weekends_off.is_some() || zone.is_some() {
        if let Some(w) = weekends_off {
            clock.weekends_off = w == OnOff::On;
        }
        if zone.is_some() {
            clock.time_zone = zone;
        }
        db::store_server_clock(pool, guild, clock, now).await?;
    }
    let clock_state = text!(
        "clock-server-state",
        weekends = if clock.weekends_off { "on" } else { "off" },
        zone = clock.time_zone.map_or("UTC", |z| z.name())
    );
    let who_creates = if db::tournaments_open(pool, guild).await? {
        text!("answer-tournaments-open")
    } else {
        text!("answer-tournaments-managers")
    };
    let state = if settings.threads {
        text!("answer-threads-on")
    } else {
        text!("answer-threads-off")
    };
    let public = crate::play::server_lang(pool, Some(guild)).await?;
    let language_state = text!(
        "answer-language-state",
        language = tr(public, "answer-language-name"),
        // Said only when just given back to Discord.
        chosen = if chosen == Some(None) { "auto" } else { "set" }
    );
    let text = if changes {
        text!(
            "answer-server-saved",
            state = state,
            language = language_state,
            tournaments = who_creates
        )
    } else {
        text!(
            "answer-server-change",
            state = state,
            language = language_state,
            tournaments = who_creates
        )
    };
    let theme_state = text!(
        "answer-theme-state",
        theme = crate::play::server_theme(pool, Some(guild)).await?.name()
    );
    let text = text!(
        "clock-server",
        settings = text,
        clock = clock_state,
        theme = theme_state
    );
    super::answer_privately(&ctx, text.render(lang)).await
}

/// Moderators: a daily puzzle here.
#[poise::command(slash_command, guild_only, default_member_permissions = "MANAGE_GUILD")]
pub async fn daily_puzzle(
    ctx: Context<'_>,
    #[min = 0]
    #[max = 23]
    hour: Option<i64>,
    stop: Option<bool>,
) -> Result<(), BotError> {
    let Some(guild) = ctx.guild_id().map(GuildId::from) else {
        return Err(crate::play::Refusal::new(text!("answer-server-only")).into());
    };
    let lang = lang(&ctx);
    let me = super::remember_author(&ctx).await?;
    let pool = &ctx.data().core.pool;
    let now = ctx.data().core.clock.now();
    let hour = match hour.map(u8::try_from) {
        None => None,
        Some(Ok(h)) if h < 24 => Some(h),
        Some(_) => return Err(crate::play::Refusal::new(text!("clock-digest-hour-bad")).into()),
    };
    let stop = stop == Some(true);
    let changes = stop || hour.is_some();
    if changes && !manages_server(&ctx) {
        return Err(crate::play::Refusal::new(text!("answer-moderators-only")).into());
    }
    let current = db::fetch_daily_puzzle(pool, guild).await?;
    let zone = db::fetch_server_clock(pool, guild)
        .await?
        .time_zone
        .map_or("UTC", |z| z.name());
    let text = if stop {
        match db::stop_daily_puzzle(pool, guild).await? {
            true => text!("daily-puzzle-stopped"),
            false => text!("daily-puzzle-unset"),
        }
    } else if let Some(hour) = hour {
        let channel = db::ChannelId::from(ctx.channel_id());
        // Checked by posting there: a missing permission is told now, and nothing is saved.
        let here = text!("daily-puzzle-here", hour = hour, zone = zone);
        let public = crate::play::server_lang(pool, Some(guild)).await?;
        let post = serenity::CreateMessage::new()
            .content(here.render(public))
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        let turn = ctx
            .data()
            .pacer
            .turn(crate::bot::rest::Urgency::Member, 0)
            .await;
        let posted = ctx.channel_id().send_message(ctx.http(), post).await;
        drop(turn);
        if let Err(e) = posted {
            let why = match crate::bot::failure::Failure::of(&e) {
                crate::bot::failure::Failure::Refused {
                    status,
                    code,
                    message,
                } => crate::bot::failure::explain_refusal(status, code, &message, channel),
                crate::bot::failure::Failure::Passing(_) => text!("daily-puzzle-try-again"),
            };
            tracing::info!(%guild, %channel, "cannot post a daily puzzle's first notice: {e}");
            return Err(
                crate::play::Refusal::new(text!("daily-puzzle-cannot-post", why = why)).into(),
            );
        }
        db::set_daily_puzzle(pool, guild, channel, hour, me, now).await?;
        text!(
            "daily-puzzle-saved",
            channel = channel.to_string(),
            hour = hour,
            zone = zone
        )
    } else {
        match current {
            Some(d) => text!(
                "daily-puzzle-state",
                channel = d.channel.to_string(),
                hour = d.hour,
                zone = zone
            ),
            None => text!("daily-puzzle-unset"),
        }
    };
    super::answer_privately(&ctx, text.render(lang)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_are_chosen_from_the_catalog() {
        assert_eq!(parse_language("ja"), Ok(Some("ja")));
        assert_eq!(parse_language("EN-us"), Ok(Some("en-US")));
        assert_eq!(parse_language("日本語 (ja)"), Ok(Some("ja")));
        assert_eq!(parse_language("auto"), Ok(None));
        let refused = parse_language("klingon").unwrap_err();
        let en = refused.0.render(Lang::EN);
        assert!(en.contains("klingon") && en.contains("`ja`"), "{en}");
        assert_eq!(language_label("en-US"), "English (en-US)");
    }
}

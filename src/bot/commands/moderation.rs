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

/// Moderators: end a game without a result.
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
        if let Err(why) = post_checked(&ctx, ctx.channel_id(), post).await {
            tracing::info!(%guild, %channel, "cannot post a daily puzzle's first notice");
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

/// Posts `post` in `channel`, to check that the bot may post there: the reason in words when
/// Discord refuses it (or a failure that may pass: try again).
async fn post_checked(
    ctx: &Context<'_>,
    channel: serenity::ChannelId,
    post: serenity::CreateMessage,
) -> Result<(), crate::i18n::Text> {
    let turn = ctx
        .data()
        .pacer
        .turn(crate::bot::rest::Urgency::Member, 0)
        .await;
    let posted = channel.send_message(ctx.http(), post).await;
    drop(turn);
    let Err(e) = posted else {
        return Ok(());
    };
    tracing::info!(%channel, "a checked post was refused: {e}");
    Err(match crate::bot::failure::Failure::of(&e) {
        crate::bot::failure::Failure::Refused {
            status,
            code,
            message,
        } => crate::bot::failure::explain_refusal(status, code, &message, channel.into()),
        crate::bot::failure::Failure::Passing(_) => text!("daily-puzzle-try-again"),
    })
}

/// Moderators: seeks here and across servers.
#[poise::command(slash_command, guild_only, default_member_permissions = "MANAGE_GUILD")]
pub async fn seeks(
    ctx: Context<'_>,
    post_here: Option<bool>,
    game: Option<super::GameChoice>,
    role: Option<serenity::Role>,
    remove_role: Option<bool>,
    other_servers: Option<bool>,
) -> Result<(), BotError> {
    let Some(guild) = ctx.guild_id().map(GuildId::from) else {
        return Err(crate::play::Refusal::new(text!("answer-server-only")).into());
    };
    let lang = lang(&ctx);
    let refuse = |t| -> Result<(), BotError> { Err(crate::play::Refusal::new(t).into()) };
    let changes = post_here.is_some()
        || role.is_some()
        || remove_role == Some(true)
        || other_servers.is_some();
    if changes && !manages_server(&ctx) {
        return refuse(text!("answer-moderators-only"));
    }
    let kind = game.map(crate::games::GameKind::from);
    match (kind, &role, remove_role == Some(true)) {
        (None, Some(_), _) | (None, None, true) => return refuse(text!("seeks-role-needs-game")),
        (Some(_), Some(_), true) => return refuse(text!("seeks-role-and-remove")),
        (Some(_), None, false) => return refuse(text!("seeks-game-alone")),
        _ => {}
    }
    if let Some(role) = &role {
        check_seek_role(&ctx, guild, role)?;
    }
    let pool = &ctx.data().core.pool;
    let now = ctx.data().core.clock.now();
    let public = crate::play::server_lang(pool, Some(guild)).await?;
    // The roles as they will be, for the notice in the seek channel.
    let mut roles = db::seek_roles(pool, guild).await?;
    if let Some(kind) = kind {
        roles.retain(|(k, _)| *k != kind);
        if let Some(role) = &role {
            roles.push((kind, db::RoleId::from(role.id.get())));
        }
        roles.sort_by_key(|(k, _)| crate::games::GameKind::ALL.iter().position(|g| g == k));
    }
    let channel = match post_here {
        Some(true) => Some(db::ChannelId::from(ctx.channel_id())),
        Some(false) => None,
        None => db::fetch_seek_channel(pool, guild).await?,
    };
    // A change is shown in the seek channel with the roles' buttons, which checks that the bot
    // may post there: refused, nothing is saved and the moderator is told why.
    if let (Some(channel), true) = (channel, changes) {
        let post = serenity::CreateMessage::new()
            .content(seek_notice(&roles).render(public))
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        let post = match crate::bot::components::seek_role_buttons(public, &roles) {
            Some(row) => post.components(vec![row]),
            None => post,
        };
        if let Err(why) = post_checked(&ctx, channel.get().into(), post).await {
            return refuse(text!(
                "seeks-cannot-post",
                channel = channel.to_string(),
                why = why
            ));
        }
    }
    match post_here {
        Some(true) => {
            db::set_seek_channel(pool, guild, db::ChannelId::from(ctx.channel_id()), now).await?
        }
        Some(false) => {
            db::clear_seek_channel(pool, guild).await?;
        }
        None => {}
    }
    if let Some(kind) = kind {
        let role = role.as_ref().map(|r| db::RoleId::from(r.id.get()));
        db::set_seek_role(pool, guild, kind, role, now).await?;
    }
    if let Some(open) = other_servers {
        db::set_pool_closed(pool, guild, !open, now).await?;
    }
    let closed = db::pool_closed(pool, guild).await?;
    let text = text!(
        "seeks-state",
        saved = if changes { "yes" } else { "no" },
        across = if closed { "closed" } else { "open" },
        channel = channel.map_or_else(
            || text!("seeks-none"),
            |c| crate::i18n::Text::raw(format!("<#{c}>"))
        ),
        roles = role_list(&roles)
    );
    super::answer_privately(&ctx, text.render(lang)).await
}

/// Refuses a seek role the bot cannot mention (not mentionable by everyone, and the bot lacks
/// Mention Everyone here), `@everyone`, and a role an integration manages (no member can be
/// given it).
fn check_seek_role(
    ctx: &Context<'_>,
    guild: GuildId,
    role: &serenity::Role,
) -> Result<(), BotError> {
    let refuse = |t| Err(crate::play::Refusal::new(t).into());
    let name = crate::i18n::excerpt(&role.name);
    if role.id.get() == guild.get() {
        return refuse(text!("seeks-role-everyone"));
    }
    if role.managed {
        return refuse(text!("seeks-role-managed", role = name));
    }
    let bot_may_mention = match ctx {
        poise::Context::Application(a) => a
            .interaction
            .app_permissions
            .is_some_and(|p| p.mention_everyone()),
        poise::Context::Prefix(_) => false,
    };
    if !role.mentionable && !bot_may_mention {
        return refuse(text!("seeks-role-not-mentionable", role = name));
    }
    Ok(())
}

/// The seek roles in words: `inpHeXion: @role, EXXIT: @role`, or none.
fn role_list(roles: &[(crate::games::GameKind, db::RoleId)]) -> crate::i18n::Text {
    if roles.is_empty() {
        return text!("seeks-none");
    }
    crate::i18n::Text::raw(
        roles
            .iter()
            .map(|(kind, role)| format!("{}: <@&{role}>", kind.title()))
            .collect::<Vec<_>>()
            .join(", "),
    )
}

/// The notice in the seek channel: seeks are posted here, and the roles members may take.
fn seek_notice(roles: &[(crate::games::GameKind, db::RoleId)]) -> crate::i18n::Text {
    text!(
        "seeks-notice",
        roles = if roles.is_empty() { "no" } else { "yes" }
    )
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

//! Moderators' commands: `/abort` and `/server` (the server's settings).

use super::OnOff;
use crate::bot::access::parse_game_ref;
use crate::bot::actions;
use crate::bot::{BotError, Context};
use crate::db::{self, GuildId};

/// The author may manage the server (Discord says so with each command).
fn manages_server(ctx: &Context<'_>) -> bool {
    match ctx {
        poise::Context::Application(actx) => actx
            .interaction
            .member
            .as_ref()
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_guild()),
        poise::Context::Prefix(_) => false,
    }
}

/// Moderators: end a game in this server without a result.
#[poise::command(slash_command, default_member_permissions = "MANAGE_GUILD")]
pub async fn abort(
    ctx: Context<'_>,
    #[description = "The game number"] game: String,
) -> Result<(), BotError> {
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
    super::answer_privately(
        &ctx,
        format!("Game #{id} is aborted; the announcement follows in its channel."),
    )
    .await
}

/// Moderators: this server's settings (a thread for each game).
#[poise::command(slash_command, guild_only, default_member_permissions = "MANAGE_GUILD")]
pub async fn server(
    ctx: Context<'_>,
    #[description = "Each new game gets its own thread (default: on)"] threads: Option<OnOff>,
) -> Result<(), BotError> {
    let Some(guild) = ctx.guild_id().map(GuildId::from) else {
        return Err(BotError::raw("`/server` works in a server.".into()));
    };
    let pool = &ctx.data().core.pool;
    let mut settings = db::fetch_server_settings(pool, guild).await?;
    if let Some(t) = threads {
        if !manages_server(&ctx) {
            return Err(BotError::raw(
                "Only members who may manage the server can change its settings.".into(),
            ));
        }
        settings.threads = t == OnOff::On;
        db::store_server_settings(pool, guild, settings, ctx.data().core.clock.now()).await?;
    }
    let state = if settings.threads {
        "Threads: **on**. Each new game is played in its own thread, started from its challenge; the result is also posted here in one line, and the thread is archived when the game ends."
    } else {
        "Threads: **off**. New games are played in the channel where they were challenged."
    };
    let text = match threads {
        Some(_) => format!("Saved. {state} Games already started stay where they are."),
        None => format!("{state}\nChange it with `/server threads`."),
    };
    super::answer_privately(&ctx, text).await
}

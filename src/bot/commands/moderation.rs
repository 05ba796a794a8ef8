//! Moderators' commands: `/abort`.

use crate::bot::access::parse_game_ref;
use crate::bot::actions;
use crate::bot::{BotError, Context};
use crate::db::GuildId;

/// Moderators: end a game in this server without a result.
#[poise::command(slash_command, default_member_permissions = "MANAGE_GUILD")]
pub async fn abort(
    ctx: Context<'_>,
    #[description = "The game number"] game: String,
) -> Result<(), BotError> {
    let id = parse_game_ref(&game)?;
    let manage = match ctx {
        poise::Context::Application(actx) => actx
            .interaction
            .member
            .as_ref()
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_guild()),
        poise::Context::Prefix(_) => false,
    };
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

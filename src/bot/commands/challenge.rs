//! Starting games: `/challenge` (a member) and `/play` (the bot).

use crate::db::{ChannelId, GuildId, UserId};
use poise::serenity_prelude as serenity;
use poise::CreateReply;

use super::{
    not_in_a_game_thread, remember_author, DaysChoice, GameChoice, LevelChoice, TilesChoice,
};
use crate::ai::Level;
use crate::bot::access::mention;
use crate::bot::actions::{self, BotGameRequest, ChallengeRequest};
use crate::bot::components::challenge_buttons;
use crate::bot::schedule::{CHALLENGE_TTL_SECS, DAY, DEFAULT_DAYS_PER_MOVE};
use crate::bot::terms::{build_options, check_challenge, ChosenOptions};
use crate::bot::{BotError, Context};
use crate::db::{self, ChallengeStatus};
use crate::games::{Colour, GameKind};

/// Challenge a member to a game.
// Each parameter is one Discord option of the command.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command)]
pub async fn challenge(
    ctx: Context<'_>,
    #[description = "Who to play"] opponent: serenity::User,
    #[description = "Which game"] game: GameChoice,
    #[description = "inpHeXion: board size (7 is standard)"]
    #[min = 4]
    #[max = 11]
    size: Option<i64>,
    #[description = "Pie rule: the second player may swap after the first move"] pie: Option<bool>,
    #[description = "inpHeXion: Black's first disc may go anywhere"] free_reply: Option<bool>,
    #[description = "inpHeXion: a neutral disc in the centre (odd sizes)"] neutral: Option<bool>,
    #[description = "EXXIT: number of tiles"] tiles: Option<TilesChoice>,
    #[description = "EXXIT: players lay the first six tiles"] expert: Option<bool>,
    #[description = "Counts for the server's ratings (default: yes)"] rated: Option<bool>,
    #[description = "Time for each move (default: 3 days); running out loses the game"]
    days_per_move: Option<DaysChoice>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    not_in_a_game_thread(&ctx).await?;
    if UserId::from(opponent.id) == ctx.data().opponent.bot_id() {
        return Err(BotError::raw(
            "To play against me, use `/play` and choose a level.".to_string(),
        ));
    }
    check_challenge(me, UserId::from(opponent.id), opponent.bot)?;
    let kind = GameKind::from(game);
    let chosen = ChosenOptions {
        size,
        pie,
        free_reply,
        neutral,
        tiles: tiles.map(TilesChoice::count),
        expert,
    };
    let options = build_options(kind, &chosen)?;
    let days = days_per_move.map_or(DEFAULT_DAYS_PER_MOVE, DaysChoice::days);
    let core = &ctx.data().core;
    db::upsert_player(
        &core.pool,
        UserId::from(opponent.id),
        opponent.display_name(),
        core.clock.now(),
    )
    .await?;
    let rated = rated.unwrap_or(true);
    let id = actions::open_challenge(
        core,
        &ChallengeRequest {
            guild_id: ctx.guild_id().map(GuildId::from),
            channel_id: ChannelId::from(ctx.channel_id()),
            challenger: me,
            opponent: UserId::from(opponent.id),
            options: options.clone(),
            rated,
            seconds_per_move: days * DAY,
            challenger_first: true,
            rematch_of: None,
        },
    )
    .await?;
    let text = format!(
        "{}, {} challenges you to **{}** (`{options}`), {}, {days} day{} per move. {} plays {} and moves first.\nAccept or decline below (open for {} hours).",
        mention(UserId::from(opponent.id)),
        mention(me),
        kind.title(),
        if rated { "rated" } else { "unrated" },
        if days == 1 { "" } else { "s" },
        mention(me),
        kind.colour_name(Colour::First),
        CHALLENGE_TTL_SECS / 3600,
    );
    let lang = crate::bot::server_lang(&core.pool, ctx.guild_id().map(GuildId::from)).await?;
    let buttons = challenge_buttons(lang, id);
    let reply = CreateReply::default()
        .content(text)
        .components(vec![buttons])
        .allowed_mentions(serenity::CreateAllowedMentions::new().users([opponent.id]));
    let shown = async {
        let handle = ctx.send(reply).await?;
        let message = handle.message().await?;
        Ok::<_, serenity::Error>(db::MessageId::from(message.id))
    }
    .await;
    match shown {
        Ok(message) => db::set_challenge_message(&core.pool, id, message).await?,
        Err(e) => {
            // Nobody could see it: it must not stay open, counting against the caps.
            db::close_challenge(&core.pool, id, ChallengeStatus::Withdrawn, None).await?;
            return Err(e.into());
        }
    }
    Ok(())
}

/// Play a game against me, the bot, at the level you choose.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command)]
pub async fn play(
    ctx: Context<'_>,
    #[description = "Which game"] game: GameChoice,
    #[description = "How strong I play"] level: LevelChoice,
    #[description = "You move first (default: yes)"] first: Option<bool>,
    #[description = "inpHeXion: board size (7 is standard)"]
    #[min = 4]
    #[max = 11]
    size: Option<i64>,
    #[description = "Pie rule: the second player may swap after the first move"] pie: Option<bool>,
    #[description = "inpHeXion: Black's first disc may go anywhere"] free_reply: Option<bool>,
    #[description = "inpHeXion: a neutral disc in the centre (odd sizes)"] neutral: Option<bool>,
    #[description = "EXXIT: number of tiles"] tiles: Option<TilesChoice>,
    #[description = "EXXIT: players lay the first six tiles"] expert: Option<bool>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    not_in_a_game_thread(&ctx).await?;
    let kind = GameKind::from(game);
    let level = Level::from(level);
    let chosen = ChosenOptions {
        size,
        pie,
        free_reply,
        neutral,
        tiles: tiles.map(TilesChoice::count),
        expert,
    };
    let options = build_options(kind, &chosen)?;
    let data = ctx.data();
    let bot = data.opponent.bot_id();
    db::upsert_player(
        &data.core.pool,
        bot,
        data.opponent.name(),
        data.core.clock.now(),
    )
    .await?;
    let id = actions::start_bot_game(
        &data.core,
        &BotGameRequest {
            guild_id: ctx.guild_id().map(GuildId::from),
            channel_id: ChannelId::from(ctx.channel_id()),
            member: me,
            bot,
            options,
            level,
            member_first: first.unwrap_or(true),
        },
    )
    .await?;
    data.opponent.wake(id);
    let reply = CreateReply::default()
        .content(format!(
            "Game #{id} against me at level **{}** starts: the board follows in this channel.",
            level.name()
        ))
        .ephemeral(true);
    ctx.send(reply).await?;
    Ok(())
}

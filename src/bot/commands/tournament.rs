//! `/tournament`: create an event, join or leave it, start it, withdraw, and its standings (as
//! text and as a picture); for its organisers, call it off, pause and resume its next round,
//! remove a player and correct a result. The card it posts carries Join and Leave buttons
//! ([`crate::bot::components::tournament_buttons`]).

use poise::serenity_prelude as serenity;
use poise::CreateReply;

use super::{
    lang, public_lang, remember_author, server, ClockChoice, DaysChoice, GameChoice, TilesChoice,
};
use crate::bot::components::{read_back, tournament_buttons};
use crate::bot::limits::{self, fit};
use crate::bot::{BotError, Context};
use crate::db::{ChannelId, GuildId, PairingResult, TournamentFormat, UserId};
use crate::games::GameKind;
use crate::play::actions::{self, Starter, TournamentRequest, Withdrawal};
use crate::play::schedule::{DAY, DEFAULT_DAYS_PER_MOVE};
use crate::play::terms::{build_options, ChosenOptions};
use crate::text;

/// How the event is paired (a choice in Discord): one of the registered formats, in their
/// order ([`crate::pairings::format::FORMATS`]).
#[derive(Clone, Copy, Debug)]
pub struct FormatChoice(TournamentFormat);

impl poise::ChoiceParameter for FormatChoice {
    fn list() -> std::borrow::Cow<'static, [poise::CommandParameterChoice]> {
        crate::pairings::format::FORMATS
            .iter()
            .map(|f| poise::CommandParameterChoice {
                name: f.choice().into(),
                localizations: std::borrow::Cow::Borrowed(&[]),
                __non_exhaustive: (),
            })
            .collect()
    }

    fn from_index(index: usize) -> Option<FormatChoice> {
        crate::pairings::format::FORMATS
            .get(index)
            .copied()
            .map(FormatChoice)
    }

    fn from_name(name: &str) -> Option<FormatChoice> {
        crate::pairings::format::FORMATS
            .iter()
            .copied()
            .find(|f| f.choice() == name)
            .map(FormatChoice)
    }

    fn name(&self) -> &'static str {
        self.0.choice()
    }

    fn localized_name(&self, _locale: &str) -> Option<&'static str> {
        None
    }
}

impl From<FormatChoice> for TournamentFormat {
    fn from(c: FormatChoice) -> TournamentFormat {
        c.0
    }
}

/// A corrected result, the first named player (White) first.
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum ResultChoice {
    #[name = "1–0"]
    WhiteWins,
    #[name = "0–1"]
    BlackWins,
    #[name = "½–½"]
    Draw,
    #[name = "1–0 by forfeit"]
    WhiteByForfeit,
    #[name = "0–1 by forfeit"]
    BlackByForfeit,
}

impl From<ResultChoice> for PairingResult {
    fn from(c: ResultChoice) -> PairingResult {
        match c {
            ResultChoice::WhiteWins => PairingResult::White,
            ResultChoice::BlackWins => PairingResult::Black,
            ResultChoice::Draw => PairingResult::Draw,
            ResultChoice::WhiteByForfeit => PairingResult::WhiteForfeit,
            ResultChoice::BlackByForfeit => PairingResult::BlackForfeit,
        }
    }
}

/// The author manages the server or its events (Discord says so with each command).
fn manages_events(ctx: &Context<'_>) -> bool {
    super::author_permissions(ctx).is_some_and(|p| p.manage_guild() || p.manage_events())
}

/// The author, as an organiser would be: who they are, where, and whether they manage events.
async fn organiser(ctx: &Context<'_>) -> Result<Starter, BotError> {
    Ok(Starter {
        user: remember_author(ctx).await?,
        guild: Some(server(ctx)?),
        manager: manages_events(ctx),
    })
}

/// Swiss and round-robin events.
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "create",
        "join",
        "leave",
        "start",
        "withdraw",
        "standings",
        "export",
        "cancel",
        "pause",
        "resume",
        "remove",
        "correct"
    ),
    subcommand_required
)]
pub async fn tournament(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Create a tournament; members join it with its buttons.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only)]
pub async fn create(
    ctx: Context<'_>,
    #[max_length = 80] name: String,
    game: GameChoice,
    format: FormatChoice,
    #[min = 1]
    #[max = 20]
    rounds: Option<i64>,
    days_per_move: Option<DaysChoice>,
    rated: Option<bool>,
    #[min = 2]
    #[max = 256]
    max_players: Option<i64>,
    #[min = 1]
    #[max = 720]
    signup_hours: Option<i64>,
    #[min = 4]
    #[max = 11]
    size: Option<i64>,
    pie: Option<bool>,
    free_reply: Option<bool>,
    neutral: Option<bool>,
    tiles: Option<TilesChoice>,
    expert: Option<bool>,
    clock: Option<ClockChoice>,
    weekends_off: Option<bool>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let guild = server(&ctx)?;
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
    let core = &ctx.data().core;
    let days = days_per_move.map_or(DEFAULT_DAYS_PER_MOVE, DaysChoice::days);
    let (id, card) = actions::create_tournament(
        core,
        &TournamentRequest {
            guild_id: guild,
            channel_id: ChannelId::from(ctx.channel_id()),
            creator: me,
            manager: manages_events(&ctx),
            name,
            options,
            format: format.into(),
            rounds,
            seconds_per_move: days * DAY,
            rated: rated.unwrap_or(true),
            max_players,
            starts_at: signup_hours.map(|h| core.clock.now() + h * 3600),
            time_control: clock.and_then(ClockChoice::control),
            weekends_off,
        },
    )
    .await?;
    let public = public_lang(&ctx).await?;
    let reply = CreateReply::default()
        .content(card.render(public))
        .components(tournament_buttons(
            public,
            id,
            true,
            ctx.data().web_url.as_deref(),
        ))
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    let handle = ctx.send(reply).await?;
    match read_back(|| async { handle.message().await.map(|m| m.into_owned()) }).await {
        Ok(message) => actions::card_posted(core, id, message).await?,
        Err(e) => tracing::warn!(tournament = id, "cannot read the card back: {e}"),
    }
    Ok(())
}

/// Join a tournament of this server (default: the newest one taking players).
#[poise::command(slash_command, guild_only)]
pub async fn join(ctx: Context<'_>, #[min = 1] tournament: Option<i64>) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let guild = server(&ctx)?;
    let core = &ctx.data().core;
    let id = actions::tournament_here(core, guild, tournament).await?;
    let entered = actions::join_tournament(core, id, Some(guild), me).await?;
    super::answer_privately(&ctx, entered.text.render(lang(&ctx))).await
}

/// Leave a tournament before it starts.
#[poise::command(slash_command, guild_only)]
pub async fn leave(ctx: Context<'_>, #[min = 1] tournament: Option<i64>) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let guild = server(&ctx)?;
    let core = &ctx.data().core;
    let id = actions::tournament_here(core, guild, tournament).await?;
    let entered = actions::leave_tournament(core, id, Some(guild), me).await?;
    super::answer_privately(&ctx, entered.text.render(lang(&ctx))).await
}

/// Start a tournament now (its organiser, or a member who manages the server or its events).
#[poise::command(slash_command, guild_only)]
pub async fn start(ctx: Context<'_>, #[min = 1] tournament: Option<i64>) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let guild = server(&ctx)?;
    let core = &ctx.data().core;
    let id = actions::tournament_here(core, guild, tournament).await?;
    let starter = Starter {
        user: me,
        guild: Some(guild),
        manager: manages_events(&ctx),
    };
    actions::start_tournament(core, id, Some(starter)).await?;
    let text = text!("answer-tournament-started", id = id).render(lang(&ctx));
    super::answer_privately(&ctx, text).await
}

/// Withdraw from a tournament under way: your game in progress is resigned.
#[poise::command(slash_command, guild_only)]
pub async fn withdraw(
    ctx: Context<'_>,
    #[min = 1] tournament: Option<i64>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let guild = server(&ctx)?;
    let core = &ctx.data().core;
    let id = actions::tournament_here(core, guild, tournament).await?;
    let text = actions::withdraw(core, id, Some(guild), me, Withdrawal::Asked).await?;
    super::answer_privately(&ctx, text.render(lang(&ctx))).await
}

/// A tournament's standings, as a table and in words.
#[poise::command(slash_command, guild_only)]
pub async fn standings(
    ctx: Context<'_>,
    #[min = 1] tournament: Option<i64>,
) -> Result<(), BotError> {
    remember_author(&ctx).await?;
    let guild: GuildId = server(&ctx)?;
    let core = &ctx.data().core;
    let id = actions::tournament_here(core, guild, tournament).await?;
    let view = actions::show_standings(core, id, Some(guild)).await?;
    let lang = lang(&ctx);
    let mut reply = CreateReply::default()
        .content(view.text.render(lang))
        .ephemeral(true)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    if !view.table.is_empty() {
        let theme =
            crate::play::server_theme(&ctx.data().core.pool, Some(view.tournament.guild_id))
                .await?;
        let (title, format, table, names, withdrawn, round) = (
            view.tournament.name.clone(),
            view.format,
            view.table.clone(),
            view.names.clone(),
            view.withdrawn.clone(),
            view.round,
        );
        let png = tokio::task::spawn_blocking(move || {
            crate::render::standings::standings_png(
                lang,
                &title,
                format,
                &table,
                &names,
                crate::render::standings::Marks {
                    round,
                    withdrawn: &withdrawn,
                },
                theme,
            )
        })
        .await
        .map_err(|e| BotError::Internal(anyhow::anyhow!("drawing the standings: {e}")))?
        .map_err(|e| BotError::Internal(anyhow::anyhow!("drawing the standings: {e}")))?;
        let alt = text!(
            "tournament-standings-alt",
            name = view.tournament.name.clone(),
            round = view.round,
            players = view.table.len() as i64
        )
        .render(lang);
        reply = reply.attachment(
            serenity::CreateAttachment::bytes(png, "standings.png")
                .description(fit(&alt, limits::ATTACHMENT_DESCRIPTION)),
        );
    }
    ctx.send(reply).await?;
    Ok(())
}

/// A tournament as a FIDE TRF file, after its rounds decided so far.
#[poise::command(slash_command, guild_only)]
pub async fn export(ctx: Context<'_>, #[min = 1] tournament: Option<i64>) -> Result<(), BotError> {
    remember_author(&ctx).await?;
    let guild = server(&ctx)?;
    let core = &ctx.data().core;
    let id = actions::tournament_here(core, guild, tournament).await?;
    let export = actions::export_tournament(core, id, Some(guild)).await?;
    let reply = CreateReply::default()
        .content(export.text.render(lang(&ctx)))
        .ephemeral(true)
        .allowed_mentions(serenity::CreateAllowedMentions::new())
        .attachment(serenity::CreateAttachment::bytes(
            export.trf.into_bytes(),
            export.file_name,
        ));
    ctx.send(reply).await?;
    Ok(())
}

/// Organisers: call a tournament off; its games in progress end without a result.
#[poise::command(slash_command, guild_only)]
pub async fn cancel(ctx: Context<'_>, #[min = 1] tournament: Option<i64>) -> Result<(), BotError> {
    let by = organiser(&ctx).await?;
    let core = &ctx.data().core;
    let id = actions::tournament_here(core, server(&ctx)?, tournament).await?;
    let text = actions::cancel_tournament(core, id, by).await?;
    super::answer_privately(&ctx, text.render(lang(&ctx))).await
}

/// Organisers: pause a tournament's next round (the games under way go on).
#[poise::command(slash_command, guild_only)]
pub async fn pause(ctx: Context<'_>, #[min = 1] tournament: Option<i64>) -> Result<(), BotError> {
    let by = organiser(&ctx).await?;
    let core = &ctx.data().core;
    let id = actions::tournament_here(core, server(&ctx)?, tournament).await?;
    let text = actions::pause_round(core, id, by, true).await?;
    super::answer_privately(&ctx, text.render(lang(&ctx))).await
}

/// Organisers: resume a paused tournament; its next round is paired when due.
#[poise::command(slash_command, guild_only)]
pub async fn resume(ctx: Context<'_>, #[min = 1] tournament: Option<i64>) -> Result<(), BotError> {
    let by = organiser(&ctx).await?;
    let core = &ctx.data().core;
    let id = actions::tournament_here(core, server(&ctx)?, tournament).await?;
    let text = actions::pause_round(core, id, by, false).await?;
    super::answer_privately(&ctx, text.render(lang(&ctx))).await
}

/// Organisers: remove a player from a tournament under way (as a withdrawal).
#[poise::command(slash_command, guild_only)]
pub async fn remove(
    ctx: Context<'_>,
    player: serenity::User,
    #[min = 1] tournament: Option<i64>,
) -> Result<(), BotError> {
    let by = organiser(&ctx).await?;
    let core = &ctx.data().core;
    let id = actions::tournament_here(core, server(&ctx)?, tournament).await?;
    let text = actions::remove_player(core, id, by, UserId::from(player.id)).await?;
    super::answer_privately(&ctx, text.render(lang(&ctx))).await
}

/// Organisers: correct the result of a decided tournament game; the standings follow.
#[poise::command(slash_command, guild_only)]
pub async fn correct(
    ctx: Context<'_>,
    #[min = 1] game: i64,
    result: ResultChoice,
) -> Result<(), BotError> {
    let by = organiser(&ctx).await?;
    let core = &ctx.data().core;
    let text = actions::correct_result(core, game, by, result.into()).await?;
    super::answer_privately(&ctx, text.render(lang(&ctx))).await
}

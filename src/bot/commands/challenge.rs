//! Starting games: `/challenge` (a member, or without `opponent` every member of the server:
//! an open challenge) and `/play` (the bot).

use crate::db::{ChannelId, GuildId, UserId};
use poise::serenity_prelude as serenity;
use poise::CreateReply;

use super::{
    lang, not_in_a_game_thread, public_lang, remember_author, ClockChoice, DaysChoice, GameChoice,
    LevelChoice, TilesChoice,
};
use crate::ai::{strength, Level};
use crate::bot::components::{
    challenge_buttons, open_challenge_buttons, read_back, settle_challenge, Shown,
};
use crate::bot::{BotError, Context, Data};
use crate::db;
use crate::db::RatingRange;
use crate::games::{Colour, GameKind};
use crate::i18n::Text;
use crate::play::access::mention;
use crate::play::actions::{self, BotGameRequest, ChallengeRequest, OpenChallengeRequest};
use crate::play::schedule::{CHALLENGE_TTL_SECS, DAY, DEFAULT_DAYS_PER_MOVE};
use crate::play::terms::{build_options, check_challenge, ChosenOptions};
use crate::text;
use crate::time_control::TimeControl;

/// How long an open challenge stays open.
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum ExpiresChoice {
    #[name = "1 hour"]
    Hour,
    #[name = "6 hours"]
    SixHours,
    #[name = "24 hours (default)"]
    Day,
    #[name = "3 days"]
    ThreeDays,
    #[name = "7 days"]
    Week,
}

impl ExpiresChoice {
    pub(super) fn seconds(self) -> i64 {
        match self {
            ExpiresChoice::Hour => 3600,
            ExpiresChoice::SixHours => 6 * 3600,
            ExpiresChoice::Day => DAY,
            ExpiresChoice::ThreeDays => 3 * DAY,
            ExpiresChoice::Week => 7 * DAY,
        }
    }
}

/// Challenge a member, or anyone here.
// Each parameter is one Discord option of the command. Discord wants the required ones first.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command)]
pub async fn challenge(
    ctx: Context<'_>,
    game: GameChoice,
    opponent: Option<serenity::User>,
    #[min = 4]
    #[max = 11]
    size: Option<i64>,
    pie: Option<bool>,
    free_reply: Option<bool>,
    neutral: Option<bool>,
    tiles: Option<TilesChoice>,
    expert: Option<bool>,
    rated: Option<bool>,
    days_per_move: Option<DaysChoice>,
    clock: Option<ClockChoice>,
    weekends_off: Option<bool>,
    #[min = 0]
    #[max = 4000]
    min_rating: Option<i64>,
    #[min = 0]
    #[max = 4000]
    max_rating: Option<i64>,
    expires: Option<ExpiresChoice>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    not_in_a_game_thread(&ctx).await?;
    let chosen = ChosenOptions {
        size,
        pie,
        free_reply,
        neutral,
        tiles: tiles.map(TilesChoice::count),
        expert,
    };
    let Some(opponent) = opponent else {
        let options = build_options(GameKind::from(game), &chosen)?;
        let ratings = RatingRange {
            min: min_rating,
            max: max_rating,
        };
        let terms = OpenTerms {
            options,
            rated: rated.unwrap_or(true),
            days: days_per_move.map_or(DEFAULT_DAYS_PER_MOVE, DaysChoice::days),
            time_control: clock.and_then(ClockChoice::control),
            weekends_off,
            ratings,
            lasts: expires.map_or(CHALLENGE_TTL_SECS, ExpiresChoice::seconds),
        };
        return challenge_everyone(&ctx, me, terms).await;
    };
    if min_rating.is_some() || max_rating.is_some() || expires.is_some() {
        return Err(crate::play::Refusal::new(text!("open-challenge-only-options")).into());
    }
    if UserId::from(opponent.id) == ctx.data().opponent.bot_id() {
        return Err(crate::play::Refusal::new(text!("answer-challenge-the-bot")).into());
    }
    check_challenge(me, UserId::from(opponent.id), opponent.bot)?;
    let kind = GameKind::from(game);
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
            guild_id: super::game_server(&ctx),
            channel_id: ChannelId::from(ctx.channel_id()),
            challenger: me,
            opponent: UserId::from(opponent.id),
            options: options.clone(),
            rated,
            seconds_per_move: days * DAY,
            challenger_first: true,
            rematch_of: None,
            time_control: clock.and_then(ClockChoice::control),
            weekends_off,
        },
    )
    .await?;
    // The time control as stored (weekends off may come from the server's setting).
    let stored = db::fetch_challenge(&core.pool, id).await?;
    let control = stored
        .as_ref()
        .and_then(|c| c.time_control)
        .unwrap_or(TimeControl::PerMove {
            seconds: days * DAY,
        });
    let weekends = stored.is_some_and(|c| c.weekends_off);
    let text = text!(
        "answer-challenge",
        opponent = mention(UserId::from(opponent.id)),
        challenger = mention(me),
        options = crate::play::words::variant(&options),
        rated = if rated { "yes" } else { "no" },
        clock = crate::play::words::time_control(control, weekends),
        colour = crate::play::words::colour(kind, Colour::First),
        hours = CHALLENGE_TTL_SECS / 3600,
    );
    let lang = public_lang(&ctx).await?;
    let text = text.render(lang);
    let buttons = challenge_buttons(lang, id);
    let reply = CreateReply::default()
        .content(text)
        .components(vec![buttons])
        .allowed_mentions(serenity::CreateAllowedMentions::new().users([opponent.id]));
    post_challenge(&ctx, id, reply).await
}

/// An open challenge's terms, as `/challenge` gave them.
struct OpenTerms {
    options: crate::games::Options,
    rated: bool,
    days: i64,
    time_control: Option<TimeControl>,
    weekends_off: Option<bool>,
    ratings: RatingRange,
    lasts: i64,
}

/// `/challenge` without an opponent: a card in this channel that any member of the server but
/// `me` may accept (pinging nobody).
async fn challenge_everyone(
    ctx: &Context<'_>,
    me: UserId,
    terms: OpenTerms,
) -> Result<(), BotError> {
    let Some(guild) = super::game_server(ctx) else {
        return Err(crate::play::Refusal::new(text!("open-challenge-in-a-server")).into());
    };
    let core = &ctx.data().core;
    let c = actions::open_challenge_to_all(
        core,
        &OpenChallengeRequest {
            guild_id: guild,
            channel_id: ChannelId::from(ctx.channel_id()),
            challenger: me,
            options: terms.options,
            rated: terms.rated,
            seconds_per_move: terms.days * DAY,
            time_control: terms.time_control,
            weekends_off: terms.weekends_off,
            ratings: terms.ratings,
            lasts: terms.lasts,
        },
    )
    .await?;
    let lang = public_lang(ctx).await?;
    let reply = CreateReply::default()
        .content(actions::open_challenge_card(&c).render(lang))
        .components(vec![open_challenge_buttons(lang, c.id)])
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    post_challenge(ctx, c.id, reply).await
}

/// Posts challenge `id` as the command's answer and stores its message (a challenge nobody could
/// see is closed: see [`settle_challenge`]).
async fn post_challenge(ctx: &Context<'_>, id: i64, reply: CreateReply) -> Result<(), BotError> {
    let shown = match ctx.send(reply).await {
        Err(e) => Shown::NotPosted(e),
        Ok(handle) => {
            match read_back(|| async { handle.message().await.map(|m| m.into_owned()) }).await {
                Ok(message) => Shown::Posted(message),
                Err(e) => Shown::Unread(e),
            }
        }
    };
    settle_challenge(ctx.data(), id, shown).await?;
    Ok(())
}

/// Play against me, the bot.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command)]
pub async fn play(
    ctx: Context<'_>,
    game: GameChoice,
    level: Option<LevelChoice>,
    first: Option<bool>,
    #[min = 4]
    #[max = 11]
    size: Option<i64>,
    pie: Option<bool>,
    free_reply: Option<bool>,
    neutral: Option<bool>,
    tiles: Option<TilesChoice>,
    expert: Option<bool>,
    coach: Option<bool>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    not_in_a_game_thread(&ctx).await?;
    let kind = GameKind::from(game);
    let options = ChosenOptions {
        size,
        pie,
        free_reply,
        neutral,
        tiles: tiles.map(TilesChoice::count),
        expert,
    };
    let options = build_options(kind, &options)?;
    let answer = game_against_me(
        ctx.data(),
        AgainstMe {
            guild: super::game_server(&ctx),
            channel: ChannelId::from(ctx.channel_id()),
            member: me,
            options,
            level: level.map(Level::from),
            member_first: first.unwrap_or(true),
            coached: coach.unwrap_or(false),
        },
    )
    .await?;
    let reply = CreateReply::default()
        .content(answer.render(lang(&ctx)))
        .ephemeral(true);
    ctx.send(reply).await?;
    Ok(())
}

/// A game against the bot asked for by `/play` or a button: where, by whom, what.
pub(crate) struct AgainstMe {
    pub guild: Option<GuildId>,
    pub channel: ChannelId,
    pub member: UserId,
    pub options: crate::games::Options,
    /// `None`: the level whose measured rating is nearest the member's in this game.
    pub level: Option<Level>,
    pub member_first: bool,
    pub coached: bool,
}

/// Starts a game against the bot ([`actions::start_bot_game`]), wakes the bot, and returns the
/// member's private answer: the game, the level and its strength, and where it is played.
pub(crate) async fn game_against_me(data: &Data, req: AgainstMe) -> Result<Text, BotError> {
    let kind = req.options.kind();
    let pool = req.guild.unwrap_or(crate::play::chats::RATINGS);
    let yours = db::ratings_of(&data.core.pool, pool, req.member)
        .await?
        .iter()
        .find(|r| r.kind == kind)
        .map_or(crate::rating::Rating::START.rating, |r| r.rating);
    let chosen = req.level.is_none();
    let level = req.level.unwrap_or_else(|| strength::nearest(kind, yours));
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
            guild_id: req.guild,
            channel_id: req.channel,
            member: req.member,
            bot,
            options: req.options,
            level,
            member_first: req.member_first,
            coached: req.coached,
        },
    )
    .await?;
    data.opponent.wake(id);
    // The game's thread is opened as the server's settings say (the delivery falls back to the
    // channel when Discord refuses it).
    let thread = match req.guild {
        Some(guild) => {
            db::fetch_server_settings(&data.core.pool, guild)
                .await?
                .threads
        }
        None => false,
    };
    Ok(text!(
        "answer-bot-game",
        game = id,
        level = crate::play::words::level(level),
        title = kind.title(),
        strength = format!(
            "{:.0}",
            strength::of(kind, level).map_or(strength::ANCHOR, |s| s.rating)
        ),
        chosen = super::ratings::yes_no(chosen),
        yours = format!("{yours:.0}"),
        thread = if thread { "yes" } else { "no" }
    ))
}

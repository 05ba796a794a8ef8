//! `/seek`: a member asks for a game in this server, in one or more variants and a range of
//! days per move. A compatible seek of another member is matched at once; otherwise the seek's
//! card is shown, with an Accept button per variant and Withdraw. With `keep`, the seek is
//! standing: made again whenever the member has fewer games of those variants here (`stop`
//! ends it). With `anywhere`, it may be matched with members of other servers who seek so too:
//! the game is then played in direct messages. `/block` keeps a member from ever being matched
//! with another, or challenging them.

use crate::db::ChannelId;
use poise::serenity_prelude as serenity;
use poise::CreateReply;

use super::challenge::ExpiresChoice;
use super::{not_in_a_game_thread, public_lang, remember_author, DaysChoice, GameChoice};
use crate::bot::components::{read_back, seek_buttons};
use crate::bot::{BotError, Context};
use crate::db;
use crate::games::{GameKind, Options};
use crate::play::actions::{self, Refill, SeekRequest, Sought};
use crate::play::schedule::{CHALLENGE_TTL_SECS, DEFAULT_DAYS_PER_MOVE};
use crate::play::terms::options_from;
use crate::play::Refusal;
use crate::text;

/// Find an opponent here, now or later.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only)]
pub async fn seek(
    ctx: Context<'_>,
    game: GameChoice,
    #[max_length = 40] sizes: Option<String>,
    other_game: Option<GameChoice>,
    #[max_length = 40] other_sizes: Option<String>,
    days_per_move: Option<DaysChoice>,
    max_days_per_move: Option<DaysChoice>,
    rated: Option<bool>,
    expires: Option<ExpiresChoice>,
    #[min = 1]
    #[max = 10]
    keep: Option<i64>,
    stop: Option<bool>,
    anywhere: Option<bool>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    not_in_a_game_thread(&ctx).await?;
    let Some(guild) = super::game_server(&ctx) else {
        return Err(Refusal::new(text!("seek-in-a-server")).into());
    };
    let first = GameKind::from(game);
    let core = &ctx.data().core;
    if stop == Some(true) {
        if keep.is_some() {
            return Err(Refusal::new(text!("standing-keep-and-stop")).into());
        }
        if anywhere.is_some() {
            return Err(Refusal::new(text!("standing-keep-and-stop")).into());
        }
        let stopped = actions::stop_standing(core, guild, me, first).await?;
        let text = text!(
            "standing-stopped",
            count = stopped as i64,
            game = first.title()
        );
        return super::answer_privately(&ctx, text.render(super::lang(&ctx))).await;
    }
    let mut variants = variants_of(first, sizes.as_deref())?;
    match (other_game.map(GameKind::from), other_sizes.as_deref()) {
        (None, Some(_)) => return Err(Refusal::new(text!("seek-other-sizes-alone")).into()),
        (Some(other), _) if other == first => {
            return Err(Refusal::new(text!("seek-same-game")).into())
        }
        (Some(other), sizes) => variants.extend(variants_of(other, sizes)?),
        (None, None) => {}
    }
    let days = match (
        days_per_move.map(DaysChoice::days),
        max_days_per_move.map(DaysChoice::days),
    ) {
        (Some(min), Some(max)) => min..=max,
        (Some(min), None) => min..=min,
        (None, Some(max)) => DEFAULT_DAYS_PER_MOVE.min(max)..=max,
        (None, None) => DEFAULT_DAYS_PER_MOVE..=DEFAULT_DAYS_PER_MOVE,
    };
    let channel = ChannelId::from(ctx.channel_id());
    let req = SeekRequest {
        guild_id: guild,
        channel_id: channel,
        player: me,
        variants,
        days,
        rated: rated.unwrap_or(true),
        lasts: expires.map_or(CHALLENGE_TTL_SECS, ExpiresChoice::seconds),
        standing: None,
        anywhere: anywhere == Some(true),
    };
    if let Some(keep) = keep {
        if req.anywhere {
            return Err(Refusal::new(text!("standing-anywhere")).into());
        }
        let stood = actions::stand(core, &req, keep).await?;
        let text = standing_text(&req, keep, &stood.refill);
        return super::answer_privately(&ctx, text.render(super::lang(&ctx))).await;
    }
    let sought = actions::seek(core, &req).await?;
    let lang = public_lang(&ctx).await?;
    match sought {
        // The game's first board, queued with it, mentions the player to move.
        Sought::Matched { text, .. } => {
            let reply = CreateReply::default()
                .content(text.render(lang))
                .allowed_mentions(serenity::CreateAllowedMentions::new());
            ctx.send(reply).await?;
            Ok(())
        }
        Sought::Open {
            posted_in: Some(posted_in),
            ..
        } => {
            let text = text!("seek-posted", channel = posted_in.to_string());
            super::answer_privately(&ctx, text.render(super::lang(&ctx))).await
        }
        Sought::Open { seek: s, .. } => {
            let reply = CreateReply::default()
                .content(actions::seek_card(&s, None).render(lang))
                .components(vec![seek_buttons(lang, s.id, &s.variants, false)])
                .allowed_mentions(serenity::CreateAllowedMentions::new());
            post_card(&ctx, s.id, channel, reply).await
        }
    }
}

/// Block a member, or list your blocks.
// `undo` unblocks; without a member or a game, the answer lists the members blocked.
#[poise::command(slash_command)]
pub async fn block(
    ctx: Context<'_>,
    member: Option<serenity::User>,
    #[min = 1] game: Option<i64>,
    undo: Option<bool>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let core = &ctx.data().core;
    let lang = super::lang(&ctx);
    // A member named in the command is mentioned; one found by a game or in the list, who may
    // share no server with the member, by Discord display name.
    let named = |u: db::UserId| async move {
        let name = db::fetch_name(&core.pool, u).await?;
        Ok::<_, BotError>(format!(
            "**{}**",
            crate::play::words::name_in(lang, name, || crate::play::access::mention(u))
        ))
    };
    let (other, who) = match (&member, game) {
        (Some(_), Some(_)) => return Err(Refusal::new(text!("block-name-one")).into()),
        (Some(m), None) => {
            let u = db::UserId::from(m.id);
            (u, crate::play::access::mention(u))
        }
        (None, Some(id)) => {
            // Across servers the opponent may share no server with the member: named by game.
            let row = db::fetch_game(&core.pool, id)
                .await?
                .filter(|r| r.players.contains(&me))
                .ok_or_else(|| Refusal::new(text!("block-not-your-game", game = id)))?;
            let u = row.opponent_of(me);
            (u, named(u).await?)
        }
        (None, None) => {
            let mut names = Vec::new();
            for u in db::blocked_by(&core.pool, me).await? {
                names.push(named(u).await?);
            }
            let text = text!(
                "block-list",
                count = names.len() as i64,
                names = names.join(", ")
            );
            return super::answer_privately(&ctx, text.render(lang)).await;
        }
    };
    let bot = ctx.data().opponent.bot_id();
    let text = match actions::block(core, me, other, bot, undo == Some(true)).await? {
        actions::Blocked::Blocked(true) => text!("block-done", who = who),
        actions::Blocked::Blocked(false) => text!("block-already", who = who),
        actions::Blocked::Unblocked(true) => text!("block-undone", who = who),
        actions::Blocked::Unblocked(false) => text!("block-not-blocked", who = who),
    };
    super::answer_privately(&ctx, text.render(lang)).await
}

/// What a member who set a standing seek is told: what it keeps them in, and what its first
/// check did (a game started, its seek posted, or enough games already).
fn standing_text(req: &SeekRequest, keep: i64, refill: &Refill) -> crate::i18n::Text {
    let (now, game, channel) = match refill {
        Refill::Made(made) => match made.last() {
            Some(Sought::Open {
                posted_in: Some(c), ..
            }) => ("posted", 0, c.to_string()),
            Some(Sought::Matched { game, .. }) => ("matched", *game, String::new()),
            _ => ("waiting", 0, String::new()),
        },
        Refill::Enough { .. } => ("enough", 0, String::new()),
        Refill::Away | Refill::Waiting | Refill::Busy => ("waiting", 0, String::new()),
    };
    text!(
        "standing-set",
        keep = keep,
        variants = actions::variants_text(&req.variants),
        now = now,
        game = game,
        channel = channel
    )
}

/// The variants of `kind` at the sizes `sizes` names (numbers separated by spaces or commas;
/// none: the standard size), refused with the rules' reason when one does not fit.
fn variants_of(kind: GameKind, sizes: Option<&str>) -> Result<Vec<Options>, Refusal> {
    let Some(sizes) = sizes.map(str::trim).filter(|s| !s.is_empty()) else {
        return Ok(vec![options_from(kind, None, &[])?]);
    };
    let unreadable = || {
        Refusal::new(text!(
            "seek-sizes-unreadable",
            input = crate::i18n::excerpt(sizes)
        ))
    };
    sizes
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            let size: i64 = s.parse().map_err(|_| unreadable())?;
            options_from(kind, Some(size), &[])
        })
        .collect()
}

/// Posts seek `id`'s card as the command's answer and stores its message; a seek whose card
/// could not be posted is withdrawn (its author was told it failed, so it must not stay open).
async fn post_card(
    ctx: &Context<'_>,
    id: i64,
    channel: ChannelId,
    reply: CreateReply,
) -> Result<(), BotError> {
    let pool = &ctx.data().core.pool;
    let handle = match ctx.send(reply).await {
        Ok(handle) => handle,
        Err(e) => {
            if let Err(stored) = db::close_seek(pool, id, db::SeekStatus::Withdrawn).await {
                tracing::error!(seek = id, "cannot close a seek nobody saw: {stored}");
            }
            return Err(e.into());
        }
    };
    match read_back(|| async { handle.message().await.map(|m| m.into_owned()) }).await {
        Ok(message) => db::set_seek_message(pool, id, channel, message).await?,
        // Open, as it shows; its buttons name it.
        Err(e) => tracing::warn!(
            seek = id,
            "a seek was posted but could not be read back: {e}"
        ),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_read_as_variants() {
        let lines = |kind, sizes| {
            variants_of(kind, sizes).map(|v| v.iter().map(Options::to_string).collect::<Vec<_>>())
        };
        assert_eq!(
            lines(GameKind::Inphexion, Some("7 9")).unwrap(),
            ["inphexion size=7", "inphexion size=9"]
        );
        assert_eq!(
            lines(GameKind::Exxit, Some(" 29, 39 ")).unwrap(),
            ["exxit tiles=29", "exxit tiles=39"]
        );
        assert_eq!(lines(GameKind::Exxit, None).unwrap().len(), 1);
        let en = |r: Result<Vec<String>, Refusal>| r.unwrap_err().0.render(crate::i18n::Lang::EN);
        assert!(en(lines(GameKind::Inphexion, Some("7x7"))).contains("`7x7` is not a list"));
        assert!(en(lines(GameKind::Exxit, Some("40"))).contains("do not fit"));
    }
}

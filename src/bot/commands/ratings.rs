//! The server's ratings: `/leaderboard`, `/profile`.

use crate::db::{GuildId, UserId};
use poise::serenity_prelude as serenity;
use poise::CreateReply;

use super::{lang, public_lang, remember_author, server, GameChoice};
use crate::bot::limits::{self, fit};
use crate::bot::{BotError, Context};
use crate::db;
use crate::games::GameKind;
use crate::i18n::{tr, Lang};
use crate::play::access::mention;
use crate::play::present::{leaderboard_page, LEADERBOARD_PAGE};
use crate::text;

/// One leaderboard line.
fn rating_line(place: i64, r: &db::RatingRow, lang: Lang) -> String {
    let rating = crate::rating::Rating::from(r);
    text!(
        "answer-rating-line",
        place = place,
        player = mention(r.player_id),
        rating = format!("{:.0}", r.rating),
        provisional = yes_no(rating.is_provisional()),
        deviation = format!("{:.0}", r.deviation),
        games = r.games,
        wins = r.wins,
        losses = r.losses,
        draws = r.draws,
    )
    .render(lang)
}

pub(super) fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// The server's rating table for a game.
#[poise::command(slash_command)]
pub async fn leaderboard(
    ctx: Context<'_>,
    game: GameChoice,
    #[min = 1] page: Option<i64>,
) -> Result<(), BotError> {
    let guild = server(&ctx)?;
    let kind = GameKind::from(game);
    let pool = &ctx.data().core.pool;
    let total = db::count_ratings(pool, guild, kind).await?;
    if total == 0 {
        let reply = CreateReply::default()
            .content(text!("answer-leaderboard-empty", title = kind.title()).render(lang(&ctx)))
            .ephemeral(true);
        ctx.send(reply).await?;
        return Ok(());
    }
    let (offset, pages) = leaderboard_page(total, page.unwrap_or(1))?;
    let lang = public_lang(&ctx).await?;
    let rows = db::top_ratings(pool, guild, kind, LEADERBOARD_PAGE, offset).await?;
    let lines: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| rating_line(offset + i as i64 + 1, r, lang))
        .collect();
    let embed = serenity::CreateEmbed::new()
        .title(text!("answer-leaderboard-title", title = kind.title()).render(lang))
        .description(fit(&lines.join("\n"), limits::EMBED_DESCRIPTION))
        .footer(serenity::CreateEmbedFooter::new(
            text!(
                "answer-leaderboard-footer",
                page = offset / LEADERBOARD_PAGE + 1,
                pages = pages,
                provisional = format!("{:.0}", crate::rating::PROVISIONAL_DEVIATION),
            )
            .render(lang),
        ));
    let reply = CreateReply::default()
        .embed(embed)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    ctx.send(reply).await?;
    Ok(())
}

/// A player's ratings and recent games.
#[poise::command(slash_command)]
pub async fn profile(ctx: Context<'_>, user: Option<serenity::User>) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let lang = lang(&ctx);
    // Outside servers: the member's rating across direct and group chats.
    let guild = ctx
        .guild_id()
        .map_or(crate::play::chats::RATINGS, GuildId::from);
    let who = user.as_ref().map_or(me, |u| UserId::from(u.id));
    let pool = &ctx.data().core.pool;
    let name = db::fetch_name(pool, who).await?;
    let name = crate::play::words::name_in(lang, name, || tr(lang, "answer-this-member"));
    let mut embed = serenity::CreateEmbed::new().title(fit(&name, limits::EMBED_TITLE));
    let ratings = db::ratings_of(pool, guild, who).await?;
    if ratings.is_empty() {
        embed = embed.description(text!("answer-profile-unrated", who = mention(who)).render(lang));
    } else {
        embed = embed.description(mention(who));
    }
    for r in &ratings {
        let title = r.kind.title();
        let rating = crate::rating::Rating::from(r);
        embed = embed.field(
            title,
            text!(
                "answer-profile-rating",
                rating = format!("{:.0}", r.rating),
                deviation = format!("{:.0}", r.deviation),
                provisional = yes_no(rating.is_provisional()),
                games = r.games,
                wins = r.wins,
                losses = r.losses,
                draws = r.draws,
            )
            .render(lang),
            true,
        );
    }
    let against_bot = db::bot_record_of(pool, guild, who).await?;
    if !against_bot.is_empty() {
        let lines: Vec<String> = against_bot
            .iter()
            .map(|r| {
                text!(
                    "answer-profile-bot-line",
                    title = r.kind.title(),
                    level = crate::play::words::level(r.level),
                    strength = format!(
                        "{:.0}",
                        crate::ai::strength::of(r.kind, r.level)
                            .map_or(crate::ai::strength::ANCHOR, |s| s.rating)
                    ),
                    wins = r.wins,
                    losses = r.losses,
                    draws = r.draws,
                )
                .render(lang)
            })
            .collect();
        embed = embed.field(
            tr(lang, "answer-profile-bot"),
            fit(&lines.join("\n"), limits::EMBED_FIELD_VALUE),
            false,
        );
    }
    if let Some(lines) = super::learn::progress_lines(ctx.data(), lang, who).await? {
        embed = embed.field(
            tr(lang, "answer-profile-learn"),
            fit(&lines, limits::EMBED_FIELD_VALUE),
            false,
        );
    }
    let recent = db::recent_games_of(pool, guild, who, 5).await?;
    if !recent.is_empty() {
        let lines: Vec<String> = recent
            .iter()
            .map(|g| {
                let opponent = g.players.iter().copied().find(|&p| p != who).unwrap_or(who);
                let verdict = match g.winner_id {
                    Some(w) if w == who => "won",
                    Some(_) => "lost",
                    None => "drew",
                };
                text!(
                    "answer-recent-line",
                    game = g.id,
                    title = g.kind().title(),
                    opponent = mention(opponent),
                    verdict = verdict,
                    result = crate::play::words::row_result(g),
                    rated = yes_no(g.rated),
                )
                .render(lang)
            })
            .collect();
        embed = embed.field(
            tr(lang, "answer-recent-games"),
            fit(&lines.join("\n"), limits::EMBED_FIELD_VALUE),
            false,
        );
    }
    let reply = CreateReply::default()
        .embed(embed)
        .ephemeral(true)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    ctx.send(reply).await?;
    Ok(())
}

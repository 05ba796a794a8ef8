//! The server's ratings: `/leaderboard`, `/profile`.

use crate::db::UserId;
use poise::serenity_prelude as serenity;
use poise::CreateReply;

use super::{remember_author, server, GameChoice};
use crate::bot::access::mention;
use crate::bot::present::{leaderboard_page, LEADERBOARD_PAGE};
use crate::bot::{BotError, Context};
use crate::db;
use crate::games::GameKind;

/// One leaderboard line.
fn rating_line(place: i64, r: &db::RatingRow) -> String {
    let rating = crate::rating::Rating::from(r);
    format!(
        "{place}. {} **{:.0}**{} ±{:.0} · {} game{} ({}–{}–{})",
        mention(r.player_id),
        r.rating,
        if rating.is_provisional() { "?" } else { "" },
        r.deviation,
        r.games,
        if r.games == 1 { "" } else { "s" },
        r.wins,
        r.losses,
        r.draws,
    )
}

/// The server's rating table for a game.
#[poise::command(slash_command)]
pub async fn leaderboard(
    ctx: Context<'_>,
    #[description = "Which game"] game: GameChoice,
    #[description = "Page (10 players a page)"]
    #[min = 1]
    page: Option<i64>,
) -> Result<(), BotError> {
    let guild = server(&ctx)?;
    let kind = GameKind::from(game);
    let pool = &ctx.data().core.pool;
    let total = db::count_ratings(pool, guild, kind).await?;
    if total == 0 {
        let reply = CreateReply::default()
            .content(format!(
                "No rated {} game has been finished in this server yet. `/challenge` someone!",
                kind.title()
            ))
            .ephemeral(true);
        ctx.send(reply).await?;
        return Ok(());
    }
    let (offset, pages) = leaderboard_page(total, page.unwrap_or(1))?;
    let rows = db::top_ratings(pool, guild, kind, LEADERBOARD_PAGE, offset).await?;
    let lines: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| rating_line(offset + i as i64 + 1, r))
        .collect();
    let embed = serenity::CreateEmbed::new()
        .title(format!("{} leaderboard", kind.title()))
        .description(lines.join("\n"))
        .footer(serenity::CreateEmbedFooter::new(format!(
            "Page {} of {pages} · Glicko-2 rating ± deviation · ? = provisional (deviation over {:.0}) · wins–losses–draws",
            offset / LEADERBOARD_PAGE + 1,
            crate::rating::PROVISIONAL_DEVIATION
        )));
    let reply = CreateReply::default()
        .embed(embed)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    ctx.send(reply).await?;
    Ok(())
}

/// A player's ratings, record and recent games in this server.
#[poise::command(slash_command)]
pub async fn profile(
    ctx: Context<'_>,
    #[description = "Whose profile (default: yours)"] user: Option<serenity::User>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let guild = server(&ctx)?;
    let who = user.as_ref().map_or(me, |u| UserId::from(u.id));
    let pool = &ctx.data().core.pool;
    let name = db::fetch_player_name(pool, who)
        .await?
        .unwrap_or_else(|| "this member".to_string());
    let mut embed = serenity::CreateEmbed::new().title(name);
    let ratings = db::ratings_of(pool, guild, who).await?;
    if ratings.is_empty() {
        embed = embed.description(format!("{} has no rated game here yet.", mention(who)));
    } else {
        embed = embed.description(mention(who));
    }
    for r in &ratings {
        let title = r.kind.title();
        let rating = crate::rating::Rating::from(r);
        embed = embed.field(
            title,
            format!(
                "**{:.0}** ±{:.0}{}\n{} game{}: {} won, {} lost, {} drawn",
                r.rating,
                r.deviation,
                if rating.is_provisional() {
                    " (provisional)"
                } else {
                    ""
                },
                r.games,
                if r.games == 1 { "" } else { "s" },
                r.wins,
                r.losses,
                r.draws
            ),
            true,
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
                let title = g.kind().title();
                format!(
                    "#{} {title} vs {}: {verdict} ({}){}",
                    g.id,
                    mention(opponent),
                    g.result_text(),
                    if g.rated { "" } else { ", unrated" }
                )
            })
            .collect();
        embed = embed.field("Recent games", lines.join("\n"), false);
    }
    let reply = CreateReply::default()
        .embed(embed)
        .ephemeral(true)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    ctx.send(reply).await?;
    Ok(())
}

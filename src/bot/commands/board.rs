//! Looking at games: `/board`, `/games`, `/turn`, `/record`, `/replay`, `/rules`, `/help`.

use crate::db::{GuildId, UserId};
use poise::serenity_prelude as serenity;
use poise::CreateReply;

use super::{
    autocomplete_finished, autocomplete_game, game_in_server, pick_game, remember_author, server,
    time_left, GameChoice,
};
use crate::bot::access::{mention, parse_game_ref};
use crate::bot::actions;
use crate::bot::present::{board_caption, help_text, names_by_colour, picture, rules_text};
use crate::bot::{BotError, Context};
use crate::db::{self, GameRow};
use crate::games::{Game, GameKind};

/// Discord's limit on a message's text.
const MAX_CONTENT: usize = 2000;

/// Lines joined under `head`, as many as fit in one message; the rest counted in a last line.
fn fit_lines(head: String, lines: &[String]) -> String {
    let mut text = head;
    for (i, line) in lines.iter().enumerate() {
        let more = format!("\n… and {} more.", lines.len() - i);
        if text.len() + 1 + line.len() + more.len() > MAX_CONTENT {
            text.push_str(&more);
            return text;
        }
        text.push('\n');
        text.push_str(line);
    }
    text
}

/// A link to the game's board message, or where it is played.
fn board_link(row: &GameRow) -> String {
    match (row.guild_id, row.board_message_id) {
        (Some(g), Some(m)) => format!(
            " · [board](https://discord.com/channels/{g}/{}/{m})",
            row.place()
        ),
        _ => format!(" · in <#{}>", row.place()),
    }
}

/// Show a game's board, now or after a given number of moves.
#[poise::command(slash_command)]
pub async fn board(
    ctx: Context<'_>,
    #[description = "Which game (a number; default: yours here)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
    #[description = "Show the position after this many moves"]
    #[min = 0]
    ply: Option<i64>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let (row, played) = match game.as_deref() {
        Some(text) => {
            let id = parse_game_ref(text)?;
            let (row, g) = actions::load(&ctx.data().core.pool, id).await?;
            if row.guild_id != ctx.guild_id().map(GuildId::from) {
                return Err(BotError::raw(format!(
                    "There is no game #{id} in this server."
                )));
            }
            (row, g)
        }
        None => pick_game(&ctx, me, None, false).await?,
    };
    let shown = match ply {
        None => None,
        Some(p) if p >= 0 && p as usize <= played.ply() => Some(p as usize),
        Some(p) => {
            return Err(BotError::raw(format!(
                "Game #{} has {} moves: pick a `ply` from 0 to {} (you asked for {p}).",
                row.id,
                played.ply(),
                played.ply()
            )))
        }
    };
    ctx.defer().await?;
    let names = names_by_colour(&ctx.data().core.pool, &row, &played).await?;
    let mut caption = board_caption(
        crate::bot::server_lang(&ctx.data().core.pool, ctx.guild_id().map(GuildId::from)).await?,
        &row,
        &played,
        None,
    );
    if let Some(p) = shown {
        caption = format!(
            "{caption}\nShowing the position after move {p} of {}.",
            played.ply()
        );
    }
    let png = picture(played, shown, names).await?;
    let reply = CreateReply::default()
        .content(caption)
        .attachment(serenity::CreateAttachment::bytes(png, "board.png"))
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    ctx.send(reply).await?;
    Ok(())
}

/// List active games (yours, or a member's) in this server.
#[poise::command(slash_command)]
pub async fn games(
    ctx: Context<'_>,
    #[description = "Whose games (default: yours)"] user: Option<serenity::User>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let who = user.as_ref().map_or(me, |u| UserId::from(u.id));
    let guild = ctx.guild_id().map(GuildId::from);
    let rows = db::active_games_of(&ctx.data().core.pool, guild, who).await?;
    let now = ctx.data().core.clock.now();
    let text = if rows.is_empty() {
        format!(
            "{} has no active game here. `/challenge` someone!",
            mention(who)
        )
    } else {
        let lines: Vec<String> = rows
            .iter()
            .map(|row| {
                let fault = row
                    .delivery_fault
                    .as_deref()
                    .map(|f| format!("\n  ⚠️ its boards cannot be posted: {f}"))
                    .unwrap_or_default();
                format!(
                    "• #{} **{}** {} vs {} · move {} · {} to move{}{}{fault}",
                    row.id,
                    row.kind().title(),
                    mention(row.players[0]),
                    mention(row.players[1]),
                    row.version + 1,
                    row.to_move.map_or("?".to_string(), mention),
                    time_left(row, now),
                    board_link(row),
                )
            })
            .collect();
        fit_lines(format!("Active games of {}:", mention(who)), &lines)
    };
    super::answer_privately(&ctx, text).await
}

/// List the games of this server where it is your move, with the time left.
#[poise::command(slash_command)]
pub async fn turn(ctx: Context<'_>) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let guild = server(&ctx)?;
    let rows = db::active_games_of(&ctx.data().core.pool, Some(guild), me).await?;
    let now = ctx.data().core.clock.now();
    let lines: Vec<String> = rows
        .iter()
        .filter(|row| row.to_move == Some(me))
        .map(|row| {
            format!(
                "• #{} **{}** vs {} in <#{}> · move {}{}{}",
                row.id,
                row.kind().title(),
                mention(row.opponent_of(me)),
                row.place(),
                row.version + 1,
                time_left(row, now),
                board_link(row),
            )
        })
        .collect();
    let text = if lines.is_empty() {
        "It is not your move in any game here. `/games` lists your active games.".to_string()
    } else {
        fit_lines("Your move in:".to_string(), &lines)
    };
    super::answer_privately(&ctx, text).await
}

/// A short summary of a game's rules, with its starting board.
#[poise::command(slash_command)]
pub async fn rules(
    ctx: Context<'_>,
    #[description = "Which game"] game: GameChoice,
) -> Result<(), BotError> {
    let kind = GameKind::from(game);
    ctx.defer_ephemeral().await?;
    let start = Game::new(crate::games::Options::default_for(kind));
    let names = [
        kind.colour_name(crate::games::Colour::First).to_string(),
        kind.colour_name(crate::games::Colour::Second).to_string(),
    ];
    let png = picture(start, None, names).await?;
    let reply = CreateReply::default()
        .content(rules_text(kind))
        .attachment(serenity::CreateAttachment::bytes(png, "start.png"))
        .ephemeral(true);
    ctx.send(reply).await?;
    Ok(())
}

/// Follow a game of this server (you are mentioned with its result); again to stop.
#[poise::command(slash_command)]
pub async fn follow(
    ctx: Context<'_>,
    #[description = "The game number, as its board shows it"] game: String,
) -> Result<(), BotError> {
    let me = super::remember_author(&ctx).await?;
    let id = crate::bot::access::parse_game_ref(&game)?;
    let guild = ctx.guild_id().map(crate::db::GuildId::from);
    let again = crate::text!("follow-again-command", game = id);
    let text = crate::bot::components::follow(
        &ctx.serenity_context().http,
        ctx.data(),
        id,
        me,
        guild,
        again,
    )
    .await?;
    let lang = crate::i18n::Lang::of(ctx.locale().unwrap_or_default());
    super::answer_privately(&ctx, text.render(lang)).await
}

/// How to play with this bot.
#[poise::command(slash_command)]
pub async fn help(ctx: Context<'_>) -> Result<(), BotError> {
    let text = help_text(&ctx.framework().options().commands);
    super::answer_privately(&ctx, text).await
}

/// Attach a game's record (readable by `hexcord engine`'s `load`).
#[poise::command(slash_command)]
pub async fn record(
    ctx: Context<'_>,
    #[description = "The game number"]
    #[autocomplete = "autocomplete_finished"]
    game: String,
) -> Result<(), BotError> {
    let (row, _) = game_in_server(&ctx, &game).await?;
    let moves = db::fetch_moves(&ctx.data().core.pool, row.id).await?;
    let text = db::record_text(&row, &moves);
    let reply = CreateReply::default()
        .content(format!(
            "The record of game #{} ({} moves): the variant line, then one move a line. Load it with `hexcord engine` (`load`) or draw it with `hexcord render`.",
            row.id,
            moves.len()
        ))
        .attachment(serenity::CreateAttachment::bytes(
            text.into_bytes(),
            format!("game-{}.txt", row.id),
        ))
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    ctx.send(reply).await?;
    Ok(())
}

/// The largest file Discord accepts from a bot in any server (10 MiB).
const MAX_ATTACHMENT: usize = 10 << 20;

/// Attach a game as an animated picture.
#[poise::command(slash_command)]
pub async fn replay(
    ctx: Context<'_>,
    #[description = "The game number"]
    #[autocomplete = "autocomplete_finished"]
    game: String,
) -> Result<(), BotError> {
    let (row, played) = game_in_server(&ctx, &game).await?;
    ctx.defer().await?;
    let names = names_by_colour(&ctx.data().core.pool, &row, &played).await?;
    let gif = crate::bot::present::draw(move || {
        crate::render::replay(&played, &names, crate::render::Theme::default())
    })
    .await?;
    if gif.len() > MAX_ATTACHMENT {
        return Err(BotError::raw(format!(
            "The replay of game #{} is too large to attach ({} MB). `/record` gives the record; `hexcord render --replay` draws it.",
            row.id,
            gif.len() >> 20
        )));
    }
    let reply = CreateReply::default()
        .content(format!("Game #{}, move by move.", row.id))
        .attachment(serenity::CreateAttachment::bytes(
            gif,
            format!("game-{}.gif", row.id),
        ))
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    ctx.send(reply).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_listings_fit_in_one_message() {
        let lines: Vec<String> = (0..200)
            .map(|i| format!("• game #{i} {}", "x".repeat(60)))
            .collect();
        let text = fit_lines("Head:".into(), &lines);
        assert!(text.len() <= MAX_CONTENT, "{}", text.len());
        assert!(text.ends_with("more."), "{text}");
        let short = fit_lines("Head:".into(), &lines[..3]);
        assert_eq!(short.lines().count(), 4);
    }
}

//! Looking at games: `/board`, `/games`, `/turn`, `/record`, `/replay`, `/rules`, `/help`.

use crate::db::{GuildId, UserId};
use poise::serenity_prelude as serenity;
use poise::CreateReply;

use super::localise::{command_description, command_name, option_name};
use super::{
    autocomplete_finished, autocomplete_game, game_in_server, lang, pick_game, public_lang,
    remember_author, server, times_left, GameChoice,
};
use crate::bot::{BotError, Context, Data};
use crate::db::{self, GameRow};
use crate::games::{Game, GameKind};
use crate::i18n::{tr, Lang};
use crate::play::access::{mention, parse_game_ref};
use crate::play::actions;
use crate::play::present::{names_by_colour, picture};
use crate::text;

/// Lines joined under `head`, as many as fit in one message; the rest counted in a last line.
fn fit_lines(head: String, lines: &[String], lang: Lang) -> String {
    let mut text = head;
    for (i, line) in lines.iter().enumerate() {
        let more = format!(
            "\n{}",
            text!("answer-and-more", count = lines.len() - i).render(lang)
        );
        if text.len() + 1 + line.len() + more.len() > crate::bot::limits::CONTENT {
            text.push_str(&more);
            return text;
        }
        text.push('\n');
        text.push_str(line);
    }
    text
}

/// A link to the game's board message, or where it is played.
fn board_link(row: &GameRow, lang: Lang) -> String {
    let link = match (row.guild_id, row.board_message_id) {
        (Some(g), Some(m)) => text!(
            "answer-board-link",
            url = format!("https://discord.com/channels/{g}/{}/{m}", row.place())
        ),
        _ => text!("answer-played-in", channel = row.place().to_string()),
    };
    format!(" · {}", link.render(lang))
}

/// A game's board, now or earlier.
#[poise::command(slash_command)]
pub async fn board(
    ctx: Context<'_>,
    #[max_length = 20]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
    #[min = 0] ply: Option<i64>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let (row, played) = match game.as_deref() {
        Some(text) => {
            let id = parse_game_ref(text)?;
            let (row, g) = actions::load(&ctx.data().core.pool, id).await?;
            if row.guild_id != ctx.guild_id().map(GuildId::from) {
                return Err(
                    crate::play::Refusal::new(text!("answer-no-such-game", game = id)).into(),
                );
            }
            (row, g)
        }
        None => pick_game(&ctx, me, None, false).await?,
    };
    let shown = match ply {
        None => None,
        Some(p) if p >= 0 && p as usize <= played.ply() => Some(p as usize),
        Some(p) => {
            return Err(crate::play::Refusal::new(text!(
                "answer-ply-range",
                game = row.id,
                moves = played.ply(),
                asked = p
            ))
            .into())
        }
    };
    ctx.defer().await?;
    let lang = public_lang(&ctx).await?;
    let shown_board =
        crate::bot::chats::board_answer(ctx.data(), lang, &row, played, shown, None, None).await?;
    // The board of a game in play as it stands now carries the Move button, as posted boards do.
    let mut reply = CreateReply::default()
        .content(shown_board.content)
        .attachment(shown_board.picture)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    if let Some(buttons) = shown_board.buttons {
        reply = reply.components(vec![buttons]);
    }
    ctx.send(reply).await?;
    // A player of a game in play gets their private link to its web board, seen by them alone.
    if row.status == db::GameStatus::Active && row.players.contains(&me) {
        let mine = super::lang(&ctx);
        if let Some(button) =
            crate::bot::components::open_board_button(ctx.data(), mine, row.id, me).await?
        {
            let private = CreateReply::default()
                .content(text!("web-link-private", game = row.id).render(mine))
                .components(vec![serenity::CreateActionRow::Buttons(vec![button])])
                .ephemeral(true)
                .allowed_mentions(serenity::CreateAllowedMentions::new());
            ctx.send(private).await?;
        }
    }
    Ok(())
}

/// Active games here; your inbox link.
#[poise::command(slash_command)]
pub async fn games(ctx: Context<'_>, user: Option<serenity::User>) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let lang = lang(&ctx);
    let who = user.as_ref().map_or(me, |u| UserId::from(u.id));
    let guild = ctx.guild_id().map(GuildId::from);
    let rows = db::active_games_of(&ctx.data().core.pool, guild, who).await?;
    let lefts = times_left(&ctx, &rows, lang).await?;
    let inbox = match who == me {
        true => crate::bot::components::inbox_reply(ctx.data(), lang, me).await?,
        false => None,
    };
    // The inbox's link first: the list may be cut short, the link never.
    let (first, link) = match inbox {
        Some((words, link)) => (format!("{words}\n"), Some(link)),
        None => (String::new(), None),
    };
    let text = if rows.is_empty() {
        first + &text!("answer-no-games", who = mention(who)).render(lang)
    } else {
        let lines: Vec<String> = rows
            .iter()
            .zip(&lefts)
            .map(|(row, left)| {
                let fault = row
                    .delivery_fault
                    .as_deref()
                    .map(|f| {
                        let fault = text!("answer-delivery-fault", fault = f);
                        format!("\n  {}", fault.render(lang))
                    })
                    .unwrap_or_default();
                let line = text!(
                    "answer-games-line",
                    game = row.id,
                    title = row.kind().title(),
                    first = mention(row.players[0]),
                    second = mention(row.players[1]),
                    move = row.version + 1,
                    to_move = row.to_move.map_or("?".to_string(), mention),
                );
                format!(
                    "{}{}{}{fault}",
                    line.render(lang),
                    left,
                    board_link(row, lang),
                )
            })
            .collect();
        let head = text!("answer-games-head", who = mention(who)).render(lang);
        fit_lines(first + &head, &lines, lang)
    };
    super::answer_privately_with(&ctx, text, link).await
}

/// Your games here to move in, with time left.
#[poise::command(slash_command)]
pub async fn turn(ctx: Context<'_>) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let lang = lang(&ctx);
    let guild = server(&ctx)?;
    let rows = db::active_games_of(&ctx.data().core.pool, Some(guild), me).await?;
    let rows: Vec<_> = rows
        .into_iter()
        .filter(|row| row.to_move == Some(me))
        .collect();
    let lefts = times_left(&ctx, &rows, lang).await?;
    let lines: Vec<String> = rows
        .iter()
        .zip(&lefts)
        .map(|(row, left)| {
            let line = text!(
                "answer-turn-line",
                game = row.id,
                title = row.kind().title(),
                opponent = mention(row.opponent_of(me)),
                channel = row.place().to_string(),
                move = row.version + 1,
            );
            format!("{}{}{}", line.render(lang), left, board_link(row, lang))
        })
        .collect();
    let text = if lines.is_empty() {
        tr(lang, "answer-turn-none")
    } else {
        fit_lines(tr(lang, "answer-turn-head"), &lines, lang)
    };
    super::answer_privately(&ctx, text).await
}

/// A game's rules in short.
#[poise::command(slash_command)]
pub async fn rules(ctx: Context<'_>, game: GameChoice) -> Result<(), BotError> {
    let kind = GameKind::from(game);
    let lang = lang(&ctx);
    ctx.defer_ephemeral().await?;
    let start = Game::new(crate::games::Options::default_for(kind));
    let names =
        crate::games::Colour::BOTH.map(|c| crate::play::words::colour(kind, c).render(lang));
    let guild = ctx.guild_id().map(GuildId::from);
    let theme = crate::play::server_theme(&ctx.data().core.pool, guild).await?;
    let png = picture(lang, theme, start, None, names).await?;
    let alt = text!("alt-rules", game = kind.title()).render(lang);
    let reply = CreateReply::default()
        .content(rules_text(kind, lang))
        .attachment(serenity::CreateAttachment::bytes(png, "start.png").description(alt))
        .ephemeral(true);
    ctx.send(reply).await?;
    Ok(())
}

/// Follow a game's result; again to stop.
#[poise::command(slash_command)]
pub async fn follow(ctx: Context<'_>, #[max_length = 20] game: String) -> Result<(), BotError> {
    let me = super::remember_author(&ctx).await?;
    let id = crate::play::access::parse_game_ref(&game)?;
    let guild = ctx.guild_id().map(crate::db::GuildId::from);
    // The command as the caller's Discord names it.
    let lang = lang(&ctx);
    let follow = crate::i18n::catalog().get(lang, "cmd-follow", Some("name"), None);
    let again = crate::i18n::Text::raw(format!("`/{follow} {id}`"));
    let text = crate::bot::components::follow(
        &ctx.serenity_context().http,
        ctx.data(),
        id,
        me,
        guild,
        again,
    )
    .await?;
    super::answer_privately(&ctx, text.render(lang)).await
}

/// Your private notes on a game.
#[poise::command(slash_command)]
pub async fn note(
    ctx: Context<'_>,
    #[max_length = 20]
    #[autocomplete = "autocomplete_game"]
    game: String,
    #[max_length = 1000] text: Option<String>,
) -> Result<(), BotError> {
    let me = super::remember_author(&ctx).await?;
    let id = crate::play::access::parse_game_ref(&game)?;
    let core = &ctx.data().core;
    let (row, _) = actions::load(&core.pool, id).await?;
    let answer = match text {
        Some(line) => {
            crate::play::notes::add_note(&core.pool, &row, me, &line, core.clock.now()).await?
        }
        None => {
            let notes = crate::play::notes::notes_of(&core.pool, row.id, me).await?;
            crate::play::notes::shown(row.id, notes.as_deref())
        }
    };
    super::answer_privately(&ctx, answer.render(lang(&ctx))).await
}

/// The summary of a game's rules in `lang`.
fn rules_text(kind: GameKind, lang: Lang) -> String {
    tr(lang, kind.rules_text())
}

/// How many optional options of a command the help names; `[…]` stands for the others (Discord
/// lists them all as the member types).
const HELP_OPTIONAL: usize = 1;

/// The help text in `lang`, built from the commands' own names, options and descriptions in
/// that language (the one source of what each command does).
pub(super) fn help_text(commands: &[poise::Command<Data, BotError>], lang: Lang) -> String {
    let mut lines = vec![tr(lang, "help-head")];
    for c in commands {
        let mut usage = format!("/{}", command_name(c, lang));
        let mut optional = 0;
        for p in &c.parameters {
            let name = option_name(p, lang);
            if p.required {
                usage = format!("{usage} {name}");
            } else {
                optional += 1;
                match optional {
                    n if n <= HELP_OPTIONAL => usage = format!("{usage} [{name}]"),
                    n if n == HELP_OPTIONAL + 1 => usage = format!("{usage} […]"),
                    _ => {}
                }
            }
        }
        lines.push(format!("• `{usage}` — {}", command_description(c, lang)));
    }
    lines.join("\n")
}

/// How to play with this bot.
#[poise::command(slash_command)]
pub async fn help(ctx: Context<'_>) -> Result<(), BotError> {
    let lang = lang(&ctx);
    let text = help_text(&ctx.framework().options().commands, lang);
    let buttons = help_buttons(lang, ctx.data().web_url.as_deref());
    super::answer_privately_with(&ctx, text, buttons).await
}

/// The buttons under `/help`: each game's rules page, when the web board is public at
/// `web_url`; none otherwise.
pub(super) fn help_buttons(lang: Lang, web_url: Option<&str>) -> Option<serenity::CreateActionRow> {
    let base = web_url?.trim_end_matches('/');
    let buttons = GameKind::ALL
        .iter()
        .map(|&k| {
            serenity::CreateButton::new_link(format!("{base}{}", crate::web::front::rules_path(k)))
                .label(text!("front-rules-link", game = k.title()).render(lang))
        })
        .collect();
    Some(serenity::CreateActionRow::Buttons(buttons))
}

/// Attach a game's record.
#[poise::command(slash_command)]
pub async fn record(
    ctx: Context<'_>,
    #[max_length = 20]
    #[autocomplete = "autocomplete_finished"]
    game: String,
) -> Result<(), BotError> {
    let (row, _) = game_in_server(&ctx, &game).await?;
    let lang = public_lang(&ctx).await?;
    let moves = db::fetch_moves(&ctx.data().core.pool, row.id).await?;
    let text = db::record_text(&row, &moves);
    let reply = CreateReply::default()
        .content(text!("answer-record", game = row.id, moves = moves.len()).render(lang))
        .attachment(serenity::CreateAttachment::bytes(
            text.into_bytes(),
            format!("game-{}.txt", row.id),
        ))
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    ctx.send(reply).await?;
    // The caller's private notes on the game and what they still had planned follow, for
    // them alone.
    let me = UserId::from(ctx.author().id);
    let pool = &ctx.data().core.pool;
    let notes = crate::play::notes::notes_of(pool, row.id, me).await?;
    let plans = crate::play::plans::plans_of(pool, row.id, me).await?;
    let extras = crate::play::plans::record_extras(
        row.id,
        notes.as_deref(),
        plans.as_ref(),
        super::lang(&ctx),
    );
    if let Some(extras) = extras {
        let extras = crate::bot::limits::fit(&extras, crate::bot::limits::CONTENT);
        super::answer_privately(&ctx, extras).await?;
    }
    Ok(())
}

/// The largest file Discord accepts from a bot in any server (10 MiB).
const MAX_ATTACHMENT: usize = 10 << 20;

/// Attach a game as an animated picture.
#[poise::command(slash_command)]
pub async fn replay(
    ctx: Context<'_>,
    #[max_length = 20]
    #[autocomplete = "autocomplete_finished"]
    game: String,
) -> Result<(), BotError> {
    let (row, played) = game_in_server(&ctx, &game).await?;
    ctx.defer().await?;
    let lang = public_lang(&ctx).await?;
    let names = names_by_colour(&ctx.data().core.pool, &row, &played, lang).await?;
    let alt = text!(
        "alt-replay",
        game = played.kind().title(),
        id = row.id,
        moves = played.ply()
    )
    .render(lang);
    let theme = crate::play::server_theme(&ctx.data().core.pool, row.guild_id).await?;
    let gif =
        crate::play::present::draw(move || crate::render::replay_in(lang, &played, &names, theme))
            .await?;
    if gif.len() > MAX_ATTACHMENT {
        return Err(crate::play::Refusal::new(text!(
            "answer-replay-too-large",
            game = row.id,
            size = gif.len() >> 20
        ))
        .into());
    }
    let reply = CreateReply::default()
        .content(text!("answer-replay", game = row.id).render(lang))
        .attachment(
            serenity::CreateAttachment::bytes(gif, format!("game-{}.gif", row.id)).description(alt),
        )
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
        let text = fit_lines("Head:".into(), &lines, Lang::EN);
        assert!(text.len() <= crate::bot::limits::CONTENT, "{}", text.len());
        assert!(text.ends_with("more."), "{text}");
        let ja = fit_lines("Head:".into(), &lines, Lang::of("ja"));
        assert!(
            ja.len() <= crate::bot::limits::CONTENT && ja.ends_with("件。"),
            "{ja}"
        );
        let short = fit_lines("Head:".into(), &lines[..3], Lang::EN);
        assert_eq!(short.lines().count(), 4);
    }
}

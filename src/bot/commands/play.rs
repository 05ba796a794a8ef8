//! Playing: `/move` and `/resign`.

use poise::serenity_prelude as serenity;
use poise::CreateReply;

use super::{autocomplete_game, autocomplete_move, lang, pick_game, public_lang, remember_author};
use crate::bot::components::Component;
use crate::bot::seal::Request;
use crate::bot::{actions, BotError, Context};
use crate::i18n::tr;
use crate::play::access::{check_player, split_game_prefix};
use crate::text;

/// Play a move in your game in this channel.
#[poise::command(slash_command, rename = "move")]
pub async fn move_(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_move"]
    #[rename = "move"]
    #[max_length = 100]
    text: String,
    #[max_length = 20]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
    #[rename = "if"]
    #[max_length = 200]
    expected: Option<String>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    // A suggestion covering several games names its game: `#12 0,1`.
    let (named, text) = split_game_prefix(&text);
    let named = named.map(|id| id.to_string());
    if let Some(expected) = expected {
        return plan_ahead(
            &ctx,
            me,
            named.as_deref().or(game.as_deref()),
            &expected,
            text,
        )
        .await;
    }
    if text == super::WAITING {
        return Err(crate::play::Refusal::new(text!("answer-not-your-turn")).into());
    }
    let loaded = pick_game(&ctx, me, named.as_deref().or(game.as_deref()), true).await?;
    let place = loaded.0.place();
    let before = loaded.1.position().clone();
    let played = (ctx.data().opponent)
        .member_moves(loaded, me, actions::Chosen::Typed(text))
        .await?;
    // Stored with its board in the delivery queue: the answer is immediate, the board follows
    // in the game's place (even if this answer cannot be delivered). The same words as the
    // picker's.
    let lang = lang(&ctx);
    let words = before
        .parse_move(&played.notation)
        .map(|mv| crate::play::picker::describe(lang, &before, &mv))
        .unwrap_or_else(|_| played.notation.clone());
    // In a direct or group chat the bot may not post: the answer is the board, for the chat.
    let public = public_lang(&ctx).await?;
    let data = ctx.data();
    if let Some((board, mentions)) =
        crate::bot::chats::board_for_chat(data, public, played.game, None, Some(&played)).await?
    {
        let mut reply = CreateReply::default()
            .content(board.content)
            .attachment(board.picture)
            .allowed_mentions(mentions);
        if let Some(buttons) = board.buttons {
            reply = reply.components(vec![buttons]);
        }
        ctx.send(reply).await?;
        return Ok(());
    }
    let next = played
        .next_game
        .map(|next| crate::bot::picker_view::next_game_row(lang, next));
    super::answer_privately_with(&ctx, played.answer(words, place).render(lang), next).await
}

/// `/move` with `if`: the reply `text` planned to the opponent's `expected` move (or line:
/// theirs; yours; theirs …), or with `-` the branch beginning there removed.
async fn plan_ahead(
    ctx: &Context<'_>,
    me: crate::db::UserId,
    game: Option<&str>,
    expected: &str,
    text: &str,
) -> Result<(), BotError> {
    let (row, _) = pick_game(ctx, me, game, false).await?;
    let core = &ctx.data().core;
    let mut line: Vec<&str> = expected
        .split(';')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .collect();
    let answer = if text.trim() == "-" {
        crate::play::plans::remove_plan(core, row.id, me, &line).await?
    } else {
        line.push(text);
        crate::play::plans::plan(core, row.id, me, &line).await?
    };
    super::answer_privately(ctx, answer.render(lang(ctx))).await
}

/// Take back your move before your opponent moves.
#[poise::command(slash_command)]
pub async fn takeback(
    ctx: Context<'_>,
    #[max_length = 20]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let (row, _) = pick_game(&ctx, me, game.as_deref(), false).await?;
    let (at, text) = actions::ask_takeback(&ctx.data().core, row.id, me).await?;
    let seal = (ctx.data().seals).seal(Request::Takeback { game: row.id, at });
    let answer = |accept: bool| Component::Takeback {
        game: row.id,
        at,
        accept,
        seal,
    };
    let lang = public_lang(&ctx).await?;
    let buttons = [
        (
            answer(true),
            tr(lang, "answer-accept-takeback"),
            serenity::ButtonStyle::Success,
        ),
        (
            answer(false),
            tr(lang, "answer-decline"),
            serenity::ButtonStyle::Danger,
        ),
    ];
    propose(&ctx, row.opponent_of(me), text.render(lang), buttons).await
}

/// Call off a game barely started.
#[poise::command(slash_command, rename = "calloff")]
pub async fn call_off(
    ctx: Context<'_>,
    #[max_length = 20]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let (row, _) = pick_game(&ctx, me, game.as_deref(), false).await?;
    let (at, text) = actions::propose_call_off(&ctx.data().core, row.id, me).await?;
    let seat = u8::from(row.players[1] == me);
    let seal = (ctx.data().seals).seal(Request::CallOff {
        game: row.id,
        at,
        seat,
    });
    let answer = |accept: bool| Component::CallOff {
        game: row.id,
        at,
        seat,
        accept,
        seal,
    };
    let lang = public_lang(&ctx).await?;
    let buttons = [
        (
            answer(true),
            tr(lang, "answer-call-it-off"),
            serenity::ButtonStyle::Danger,
        ),
        (
            answer(false),
            tr(lang, "answer-play-on"),
            serenity::ButtonStyle::Success,
        ),
    ];
    propose(&ctx, row.opponent_of(me), text.render(lang), buttons).await
}

/// Propose pausing a game's clock for 1–14 days.
#[poise::command(slash_command)]
pub async fn pause(
    ctx: Context<'_>,
    #[min = 1]
    #[max = 14]
    days: i64,
    #[max_length = 20]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let (row, _) = pick_game(&ctx, me, game.as_deref(), false).await?;
    let proposed = actions::propose_pause(&ctx.data().core, row.id, me, days).await?;
    let answer = |accept: bool| Component::Pause {
        pause: proposed.pause,
        accept,
    };
    let lang = public_lang(&ctx).await?;
    let buttons = [
        (
            answer(true),
            tr(lang, "pause-accept"),
            serenity::ButtonStyle::Primary,
        ),
        (
            answer(false),
            tr(lang, "pause-decline"),
            serenity::ButtonStyle::Secondary,
        ),
    ];
    propose(
        &ctx,
        row.opponent_of(me),
        proposed.text.render(lang),
        buttons,
    )
    .await
}

/// End a pause early, once both players ask.
#[poise::command(slash_command)]
pub async fn resume(
    ctx: Context<'_>,
    #[max_length = 20]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let (row, _) = pick_game(&ctx, me, game.as_deref(), false).await?;
    let text = actions::resume_game(&ctx.data().core, row.id, me).await?;
    let lang = public_lang(&ctx).await?;
    let reply = CreateReply::default()
        .content(text.render(lang))
        .allowed_mentions(
            serenity::CreateAllowedMentions::new()
                .users([serenity::UserId::from(row.opponent_of(me))]),
        );
    ctx.send(reply).await?;
    Ok(())
}

/// Posts a proposal to the other player (pinged), with its answer buttons.
async fn propose(
    ctx: &Context<'_>,
    to: crate::db::UserId,
    text: String,
    answers: [(Component, String, serenity::ButtonStyle); 2],
) -> Result<(), BotError> {
    let buttons = answers
        .into_iter()
        .map(|(c, label, style)| {
            serenity::CreateButton::new(c.encode())
                .label(label)
                .style(style)
        })
        .collect();
    let reply = CreateReply::default()
        .content(text)
        .components(vec![serenity::CreateActionRow::Buttons(buttons)])
        .allowed_mentions(
            serenity::CreateAllowedMentions::new().users([serenity::UserId::from(to)]),
        );
    ctx.send(reply).await?;
    Ok(())
}

/// Resign a game (asks for confirmation).
#[poise::command(slash_command)]
pub async fn resign(
    ctx: Context<'_>,
    #[max_length = 20]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let (row, _) = pick_game(&ctx, me, game.as_deref(), false).await?;
    check_player(&row, me)?;
    let lang = lang(&ctx);
    let buttons = serenity::CreateActionRow::Buttons(vec![
        serenity::CreateButton::new(Component::Resign(row.id).encode())
            .label(tr(lang, "answer-resign"))
            .style(serenity::ButtonStyle::Danger),
        serenity::CreateButton::new(Component::KeepPlaying(row.id).encode())
            .label(tr(lang, "answer-keep-playing"))
            .style(serenity::ButtonStyle::Secondary),
    ]);
    let reply = CreateReply::default()
        .content(text!("answer-really-resign", game = row.id).render(lang))
        .components(vec![buttons])
        .ephemeral(true);
    ctx.send(reply).await?;
    Ok(())
}

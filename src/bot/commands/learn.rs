//! `/learn`: the course ([`crate::learn`]), level by level, privately, with the Move button's
//! picker.
//!
//! `/learn [game]` answers privately with the member's level ([`learn::open_level`]): the
//! stage and level, the goal, the side they play, the board, and the picker. Its buttons name
//! the member and their attempt's version ([`Component::LearnPick`]); each answer goes through
//! [`learn::answer_level`], which refuses an old picker, and another member's press is refused
//! before anything is read. A refused or missed move is said in words and can be tried again; a
//! right one is answered by the opponent's reply; a level done gives its stars and a button to
//! the next level, and the end of a stage points to a game against the bot at `beginner`, a
//! puzzle and a challenge. It works in servers, direct messages and group chats alike (the
//! course is the member's own); `/profile` shows the progress. Where the web board is public,
//! the first answer also links to the course on the page ([`crate::web::learn`]) with the
//! member's private link, so that the page keeps the same progress.
//!
//! [`Component::LearnPick`]: crate::bot::custom_id::Component::LearnPick

use poise::serenity_prelude as serenity;

use super::{lang, remember_author, GameChoice, PrivateView};
use crate::bot::custom_id::{Component, StageOffer};
use crate::bot::limits::{self, fit};
use crate::bot::picker_view::{picker_parts, Target};
use crate::bot::{BotError, Context, Data};
use crate::db::{ChannelId, GuildId, LearnAttempt, UserId};
use crate::games::{Colour, Game, GameKind};
use crate::i18n::{tr, Lang, Text};
use crate::learn::{self as course, Place};
use crate::play::learn::{self, Answered};
use crate::play::picker::{self, Path};
use crate::text;

/// Learn to play, level by level.
#[poise::command(slash_command)]
pub async fn learn(ctx: Context<'_>, game: Option<GameChoice>) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let lang = lang(&ctx);
    let data = ctx.data();
    let kind = game.map(GameKind::from);
    let now = data.core.clock.now();
    let opened = learn::open_level(&data.core.pool, me, kind, now).await?;
    let head = opened.head.map(|h| h.render(lang));
    let guild = ctx.guild_id().map(GuildId::from);
    let link = page_link(lang, data, me, opened.place.kind, now).await?;
    let shown = level_message(
        lang,
        data,
        &opened.place,
        &opened.attempt,
        &Path::default(),
        head,
        guild,
        link,
    )
    .await?;
    ctx.send(shown.reply()).await?;
    Ok(())
}

/// The button to the course on the web board, with the member's private link (their progress
/// kept there too); `None` when the web board is not public.
async fn page_link(
    lang: Lang,
    data: &Data,
    user: UserId,
    kind: GameKind,
    now: i64,
) -> Result<Option<serenity::CreateButton>, BotError> {
    let Some(web_url) = data.web_url.as_deref() else {
        return Ok(None);
    };
    let token = crate::play::links::issue_inbox(&data.core.pool, user, now).await?;
    let url = crate::web::learn::learn_url(web_url, kind, Some(&token));
    Ok(Some(
        serenity::CreateButton::new_link(url)
            .label(tr(lang, "learn-web-open"))
            .emoji('🌐'),
    ))
}

/// The level's game at the attempt's moves; a level that does not replay is logged and the
/// member told.
fn game_of(place: &Place, attempt: &LearnAttempt) -> Result<Game, BotError> {
    course::replay(place.level, &attempt.moves).map_err(|e| {
        tracing::error!(level = %place.key(), "a level does not replay: {e}");
        BotError::refused(text!("learn-gone"))
    })
}

/// The board of a level at `game` as the learner sees it ("You" and hexcord), as an attachment
/// named `name`.
async fn board_file(
    lang: Lang,
    data: &Data,
    guild: Option<GuildId>,
    learner: Colour,
    game: Game,
    name: &str,
) -> Result<serenity::CreateAttachment, BotError> {
    let kind = game.kind();
    let mut names = [String::new(), String::new()];
    names[learner.index()] = tr(lang, "puzzle-you");
    names[learner.other().index()] = "hexcord".to_string();
    let alt = text!(
        "learn-alt",
        game = kind.title(),
        colour = crate::play::words::colour(kind, game.position().to_move())
    )
    .render(lang);
    let theme = crate::play::server_theme(&data.core.pool, guild).await?;
    let png = crate::play::present::picture(lang, theme, game, None, names).await?;
    Ok(serenity::CreateAttachment::bytes(png, name.to_string())
        .description(fit(&alt, limits::ATTACHMENT_DESCRIPTION)))
}

/// The level's title: the game, the stage and the level, with their places.
fn title(place: &Place) -> Text {
    let stages = course::stages(place.kind);
    text!(
        "learn-title",
        game = place.kind.title(),
        stage = place.stage + 1,
        stages = stages.len(),
        name = place.stage_title(),
        level = place.index + 1,
        levels = place.stage().levels.len()
    )
}

/// The level at the attempt with its picker at `path`: `head` first, then the title, the goal,
/// the side the learner plays, the board, and the preview of a chosen move; `link` (the course
/// on the web board) beside the picker's buttons.
#[allow(clippy::too_many_arguments)] // what the message shows, each from its caller
async fn level_message(
    lang: Lang,
    data: &Data,
    place: &Place,
    attempt: &LearnAttempt,
    path: &Path,
    head: Option<String>,
    guild: Option<GuildId>,
    link: Option<serenity::CreateButton>,
) -> Result<PrivateView, BotError> {
    let game = game_of(place, attempt)?;
    let learner = game.position().to_move();
    let mut words = head.map(|h| format!("{h}\n")).unwrap_or_default();
    words.push_str(&title(place).render(lang));
    words.push('\n');
    words.push_str(&place.goal().render(lang));
    words.push('\n');
    words.push_str(
        &text!(
            "learn-you-play",
            colour = crate::play::words::colour(place.kind, learner)
        )
        .render(lang),
    );
    let target = Target::Learn {
        user: attempt.player_id.0,
        version: attempt.version,
    };
    let Some(parts) = picker_parts(lang, &game, target, path, words, link.into_iter().collect())
    else {
        return Err(BotError::refused(text!("learn-stale")));
    };
    let mut files = vec![board_file(lang, data, guild, learner, game.clone(), "level.png").await?];
    if let Some(mv) = parts.chosen {
        let mut after = game;
        after
            .play(mv)
            .map_err(|e| anyhow::anyhow!("the picker's move does not play: {e}"))?;
        files.push(board_file(lang, data, guild, learner, after, "preview.png").await?);
    }
    Ok(PrivateView {
        text: fit(&parts.text, limits::CONTENT),
        rows: parts.rows,
        files,
    })
}

/// The Next level button.
fn next_button(lang: Lang, user: UserId, kind: GameKind) -> serenity::CreateButton {
    serenity::CreateButton::new(Component::LearnNext { user: user.0, kind }.encode())
        .label(tr(lang, "learn-button-next"))
        .emoji('⏭')
        .style(serenity::ButtonStyle::Primary)
}

/// The end of a stage's buttons: a coached game against the bot at `beginner`, and a puzzle.
fn offer_buttons(lang: Lang, user: UserId, kind: GameKind) -> [serenity::CreateButton; 2] {
    let button = |offer, key, emoji| {
        serenity::CreateButton::new(
            Component::LearnOffer {
                user: user.0,
                kind,
                offer,
            }
            .encode(),
        )
        .label(tr(lang, key))
        .emoji(emoji)
        .style(serenity::ButtonStyle::Secondary)
    };
    [
        button(StageOffer::Bot, "learn-button-bot", '🤖'),
        button(StageOffer::Puzzle, "learn-button-puzzle", '🧩'),
    ]
}

/// A press in a level's picker: the next step, the preview of the move chosen, or with `play`
/// the answer (judged once, by [`learn::answer_level`]). The presser was checked to be the
/// level's member.
pub(crate) async fn picker_press(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    (owner, version, path): (u64, i64, Path),
    play: bool,
) -> Result<(), BotError> {
    let lang = Lang::of(&press.locale);
    let guild = press.guild_id.map(GuildId::from);
    let pool = &data.core.pool;
    let user = UserId(owner);
    let (attempt, place) = learn::open_at(pool, user, version).await?;
    let shown = if !play {
        level_message(lang, data, &place, &attempt, &path, None, guild, None).await?
    } else {
        let game = game_of(&place, &attempt)?;
        let Ok(picker::View::Confirm { mv, .. }) = picker::view(lang, &game, &path) else {
            return Err(BotError::refused(text!("learn-stale")));
        };
        let notation = mv.to_string();
        let now = data.core.clock.now();
        // A wrong move is tried again, a right one answered: the level again under its head.
        let (place, attempt, head) =
            match learn::answer_level(pool, user, version, &notation, now).await? {
                Answered::Again {
                    place,
                    attempt,
                    why,
                } => (place, attempt, text!("learn-wrong", why = why).render(lang)),
                Answered::Next {
                    place,
                    attempt,
                    mv,
                    reply,
                } => {
                    let mut after = game.clone();
                    after
                        .play_text(&mv)
                        .map_err(|e| anyhow::anyhow!("the level's move does not play: {e}"))?;
                    let head = text!(
                        "learn-reply",
                        mine = learn::move_words(lang, &game, &mv),
                        reply = learn::move_words(lang, &after, &reply)
                    )
                    .render(lang);
                    (place, attempt, head)
                }
                Answered::Done {
                    place,
                    moves,
                    stars,
                    next,
                } => {
                    let shown =
                        done_message(lang, data, guild, user, &place, &game, &moves, stars, next)
                            .await?;
                    return shown.update(ctx, press).await;
                }
            };
        level_message(
            lang,
            data,
            &place,
            &attempt,
            &Path::default(),
            Some(head),
            guild,
            None,
        )
        .await?
    };
    shown.update(ctx, press).await
}

/// A level done: the move, the stars, the board after it; the next level's button, and at the
/// end of a stage what to do next.
#[allow(clippy::too_many_arguments)] // what the message shows, each from its caller
async fn done_message(
    lang: Lang,
    data: &Data,
    guild: Option<GuildId>,
    user: UserId,
    place: &Place,
    before: &Game,
    moves: &[String],
    stars: u8,
    next: Option<Place>,
) -> Result<PrivateView, BotError> {
    let last = moves.last().map(String::as_str).unwrap_or_default();
    let learner = before.position().to_move();
    let mut words = vec![learn::done_text(lang, before, last, stars).render(lang)];
    if place.ends_stage() {
        words.push(
            text!(
                "learn-stage-done",
                name = place.stage_title(),
                game = place.kind.title()
            )
            .render(lang),
        );
    }
    let mut buttons = Vec::new();
    match next {
        Some(_) => buttons.push(next_button(lang, user, place.kind)),
        None => words.push(text!("learn-course-done", game = place.kind.title()).render(lang)),
    }
    if place.ends_stage() {
        buttons.extend(offer_buttons(lang, user, place.kind));
    }
    let rows = if buttons.is_empty() {
        Vec::new()
    } else {
        vec![serenity::CreateActionRow::Buttons(buttons)]
    };
    let mut after = before.clone();
    let files = match after.play_text(last) {
        Ok(_) => vec![board_file(lang, data, guild, learner, after, "level.png").await?],
        Err(_) => Vec::new(),
    };
    Ok(PrivateView {
        text: fit(&words.join("\n"), limits::CONTENT),
        rows,
        files,
    })
}

/// The Next level button: the member's next level of `kind`, in place of the message.
pub(crate) async fn next_press(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    owner: u64,
    kind: GameKind,
) -> Result<(), BotError> {
    let lang = Lang::of(&press.locale);
    let guild = press.guild_id.map(GuildId::from);
    let user = UserId(owner);
    let now = data.core.clock.now();
    let opened = learn::open_level(&data.core.pool, user, Some(kind), now).await?;
    let head = opened.head.map(|h| h.render(lang));
    let shown = level_message(
        lang,
        data,
        &opened.place,
        &opened.attempt,
        &Path::default(),
        head,
        guild,
        None,
    )
    .await?;
    shown.update(ctx, press).await
}

/// A button at the end of a stage ([`StageOffer`]), pressed by the level's member: a coached
/// game against the bot at `beginner` in this channel, or a puzzle of the game, each answered
/// privately in a message of its own (the stage's message stays, with its Next level).
pub(crate) async fn offer_press(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    owner: u64,
    kind: GameKind,
    offer: StageOffer,
) -> Result<(), BotError> {
    let lang = Lang::of(&press.locale);
    let user = UserId(owner);
    let shown = match offer {
        StageOffer::Bot => {
            let channel = ChannelId::from(press.channel_id);
            super::not_a_game_thread(&data.core.pool, channel).await?;
            let answer = super::challenge::game_against_me(
                data,
                super::challenge::AgainstMe {
                    guild: super::server_of(press.guild_id, &press.authorizing_integration_owners),
                    channel,
                    member: user,
                    options: crate::games::Options::default_for(kind),
                    level: Some(crate::ai::Level::Beginner),
                    member_first: true,
                    coached: true,
                },
            )
            .await?;
            PrivateView::words(answer.render(lang))
        }
        StageOffer::Puzzle => {
            super::puzzle::give(data, lang, user, press.guild_id, Some(kind)).await?
        }
    };
    shown.answer(ctx, press).await
}

/// The member's progress in words, a line per game they started (for `/profile`); `None` when
/// they never finished a level.
pub(super) async fn progress_lines(
    data: &Data,
    lang: Lang,
    user: UserId,
) -> Result<Option<String>, BotError> {
    let done = learn::progress(&data.core.pool, user).await?;
    let mut lines = Vec::new();
    for kind in GameKind::ALL {
        let places = course::places(kind);
        let mine: Vec<u8> = places
            .iter()
            .filter_map(|p| done.get(&p.key()).copied())
            .collect();
        if mine.is_empty() {
            continue;
        }
        lines.push(
            text!(
                "answer-profile-learn-line",
                game = kind.title(),
                done = mine.len(),
                total = places.len(),
                stars = mine.iter().map(|&s| u32::from(s)).sum::<u32>(),
                most = 3 * places.len()
            )
            .render(lang),
        );
    }
    Ok((!lines.is_empty()).then(|| lines.join("\n")))
}

//! The Move button's picker as Discord shows it: each step's select menus and buttons, the
//! preview of the chosen move with Play, and the messages of a picker that cannot go on (the
//! position moved on, or it is not the presser's turn), and the row of buttons under a board
//! that opens it. The steps themselves are [`crate::play::picker`]'s.

use poise::serenity_prelude as serenity;

use super::custom_id::Component;
use super::limits::{self, fit};
use super::{BotError, Data};
use crate::db::{GameRow, GameStatus, UserId};
use crate::games::Game;
use crate::i18n::{tr, Lang, Text};
use crate::play::access::{mention, player_to_move};
use crate::play::picker::{self, Path, View};
use crate::text;

/// Who may not pick a move in this game now, and why (`None`: the player to move).
pub(super) fn not_yours(row: &GameRow, game: &Game, user: UserId) -> Option<Text> {
    if row.status != GameStatus::Active {
        return Some(text!(
            "game-over-plain",
            game = row.id,
            result = crate::play::words::row_result(row)
        ));
    }
    let to_move = player_to_move(row, game);
    if !row.players.contains(&user) {
        return Some(text!(
            "game-between",
            game = row.id,
            a = mention(row.players[0]),
            b = mention(row.players[1]),
            who = mention(to_move)
        ));
    }
    (to_move != user).then(|| {
        text!(
            "their-turn-not-yours",
            who = mention(to_move),
            game = row.id
        )
    })
}

/// Why a picker opened on `ply` moves cannot go on: the position has moved on, or it is not
/// the user's turn (a forged press). `None` when it can.
pub(super) fn cannot_go_on(
    lang: Lang,
    row: &GameRow,
    game: &Game,
    ply: i64,
    user: UserId,
) -> Option<serenity::CreateInteractionResponseMessage> {
    if game.ply() as i64 != ply {
        return Some(stale_message(lang, row, game, user));
    }
    not_yours(row, game, user).map(|t| closed_message(t.render(lang)))
}

/// A picker message that only says something (no choices, no picture).
/// The answer to a move: the words, and a Next game button when another game waits for the
/// player (it opens that game's Move flow).
pub(super) fn played_message(
    lang: Lang,
    text: String,
    next_game: Option<i64>,
) -> serenity::CreateInteractionResponseMessage {
    let msg = closed_message(text);
    match next_game {
        Some(next) => msg.components(vec![next_game_row(lang, next)]),
        None => msg,
    }
}

/// The Next game button: the Move button of game `next`.
pub(super) fn next_game_row(lang: Lang, next: i64) -> serenity::CreateActionRow {
    serenity::CreateActionRow::Buttons(vec![serenity::CreateButton::new(
        crate::bot::custom_id::Component::Move(next).encode(),
    )
    .label(crate::i18n::tr(lang, "button-next-game"))
    .emoji('⏭')
    .style(serenity::ButtonStyle::Primary)])
}

/// The row under a board of game `row` in play: its Move button, Follow for onlookers in a
/// server (a chat's members see every board there; following is for games in servers), and,
/// when the web board runs (`web_url`), the link to watch it live, and, when it also opens
/// inside Discord (`activity`), Play in Discord.
pub fn move_button_row(
    lang: Lang,
    row: &crate::db::GameRow,
    web_url: Option<&str>,
    activity: bool,
) -> serenity::CreateActionRow {
    let game = row.id;
    let mut buttons = vec![serenity::CreateButton::new(Component::Move(game).encode())
        .label(tr(lang, "button-move"))
        .emoji('🎯')
        .style(serenity::ButtonStyle::Primary)];
    if !crate::play::chats::is_chat_game(row) {
        buttons.push(
            serenity::CreateButton::new(Component::Follow(game).encode())
                .label(tr(lang, "button-follow"))
                .style(serenity::ButtonStyle::Secondary),
        );
    }
    buttons.extend(web_url.map(|url| watch_button(lang, url, game)));
    if activity && web_url.is_some() {
        buttons.push(
            serenity::CreateButton::new(Component::Launch(game).encode())
                .label(tr(lang, "activity-launch"))
                .emoji('🎮')
                .style(serenity::ButtonStyle::Secondary),
        );
    }
    serenity::CreateActionRow::Buttons(buttons)
}

/// The link to a game's web board, for anyone: it shows the game live.
pub fn watch_button(lang: Lang, web_url: &str, game: i64) -> serenity::CreateButton {
    serenity::CreateButton::new_link(crate::play::links::board_url(web_url, game, None))
        .label(tr(lang, "web-link-watch"))
}

pub(super) fn closed_message(text: String) -> serenity::CreateInteractionResponseMessage {
    serenity::CreateInteractionResponseMessage::new()
        .content(text)
        .components(Vec::new())
        .allowed_mentions(serenity::CreateAllowedMentions::new())
}

/// A picker opened on an earlier position (or a path that leads nowhere in this one): says so,
/// and offers a fresh picker when it is the user's turn.
pub(super) fn stale_message(
    lang: Lang,
    row: &GameRow,
    game: &Game,
    user: UserId,
) -> serenity::CreateInteractionResponseMessage {
    let text = text!("picker-stale", game = row.id, n = game.ply()).render(lang);
    if let Some(why) = not_yours(row, game, user) {
        return closed_message(format!("{text}\n{}", why.render(lang)));
    }
    let fresh = Component::Pick {
        game: row.id,
        ply: game.ply() as i64,
        path: Path::default(),
    };
    closed_message(text).components(vec![serenity::CreateActionRow::Buttons(vec![
        serenity::CreateButton::new(fresh.encode())
            .label(tr(lang, "button-fresh-picker"))
            .style(serenity::ButtonStyle::Primary),
        serenity::CreateButton::new(Component::Cancel(row.id).encode())
            .label(tr(lang, "button-cancel"))
            .style(serenity::ButtonStyle::Secondary),
    ])])
}

/// Whose picker it is: the Move button's of a game (opened on `ply` moves), or a puzzle's
/// being solved (its attempt, at `step` moves of its line). Its buttons name it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Target {
    Game {
        id: i64,
        ply: i64,
    },
    Puzzle {
        attempt: i64,
        step: i64,
    },
    /// A member's level of the course (`/learn`), at their attempt's version.
    Learn {
        user: u64,
        version: i64,
    },
}

impl Target {
    fn pick(self, path: Path) -> String {
        match self {
            Target::Game { id, ply } => Component::Pick {
                game: id,
                ply,
                path,
            },
            Target::Puzzle { attempt, step } => Component::PuzzlePick {
                attempt,
                step,
                path,
            },
            Target::Learn { user, version } => Component::LearnPick {
                user,
                version,
                path,
            },
        }
        .encode()
    }

    fn play(self, path: Path) -> String {
        match self {
            Target::Game { id, ply } => Component::Play {
                game: id,
                ply,
                path,
            },
            Target::Puzzle { attempt, step } => Component::PuzzlePlay {
                attempt,
                step,
                path,
            },
            Target::Learn { user, version } => Component::LearnPlay {
                user,
                version,
                path,
            },
        }
        .encode()
    }

    /// The Cancel button's id: a game's picker closes; a puzzle's or a level's stays until it is
    /// answered (`/puzzle solve` and `/learn` show it again).
    fn cancel(self) -> Option<String> {
        match self {
            Target::Game { id, .. } => Some(Component::Cancel(id).encode()),
            Target::Puzzle { .. } | Target::Learn { .. } => None,
        }
    }
}

/// A picker's message before its preview picture: the words (after `title`), the menus and
/// buttons, and the move when the path completes one (its preview is to be attached).
pub(super) struct PickerParts {
    pub text: String,
    pub rows: Vec<serenity::CreateActionRow>,
    pub chosen: Option<crate::games::Move>,
}

/// The picker of `target` at `path` on the current position of `game`, under `title`, with
/// `link` beside its buttons; `None` when the path leads nowhere there.
pub(super) fn picker_parts(
    lang: Lang,
    game: &Game,
    target: Target,
    path: &Path,
    title: String,
    extra: Vec<serenity::CreateButton>,
) -> Option<PickerParts> {
    let view = picker::view(lang, game, path).ok()?;
    let mut nav = Vec::new();
    if !path.0.is_empty() {
        nav.push(
            serenity::CreateButton::new(target.pick(path.back()))
                .label(tr(lang, "button-back"))
                .style(serenity::ButtonStyle::Secondary),
        );
    }
    if let Some(cancel) = target.cancel() {
        nav.push(
            serenity::CreateButton::new(cancel)
                .label(tr(lang, "button-cancel"))
                .style(serenity::ButtonStyle::Secondary),
        );
    }
    // The player's private link to click the move on the web board instead, a coached game's
    // Hint.
    nav.extend(extra);
    Some(match view {
        View::Choose {
            prompt,
            so_far,
            choices,
        } => {
            let mut text = title;
            if !so_far.is_empty() {
                text.push_str(&format!("\n{}", so_far.join(" → ")));
            }
            text.push_str(&format!("\n**{prompt}**"));
            let mut rows = Vec::new();
            let (buttons, menu): (Vec<_>, Vec<_>) = choices.into_iter().partition(|c| c.button);
            if !menu.is_empty() {
                let options = menu
                    .iter()
                    .map(|c| {
                        serenity::CreateSelectMenuOption::new(
                            fit(&c.label, limits::SELECT_OPTION_LABEL),
                            c.token.to_string(),
                        )
                    })
                    .collect();
                rows.push(serenity::CreateActionRow::SelectMenu(
                    serenity::CreateSelectMenu::new(
                        target.pick(path.clone()),
                        serenity::CreateSelectMenuKind::String { options },
                    )
                    .placeholder(fit(&prompt, limits::SELECT_PLACEHOLDER)),
                ));
            }
            if !buttons.is_empty() {
                rows.push(serenity::CreateActionRow::Buttons(
                    buttons
                        .iter()
                        .map(|c| {
                            serenity::CreateButton::new(target.pick(path.then(c.token)))
                                .label(fit(&c.label, limits::BUTTON_LABEL))
                                .style(serenity::ButtonStyle::Primary)
                        })
                        .collect(),
                ));
            }
            if !nav.is_empty() {
                rows.push(serenity::CreateActionRow::Buttons(nav));
            }
            PickerParts {
                text,
                rows,
                chosen: None,
            }
        }
        View::Confirm {
            mv,
            words,
            notation,
        } => {
            let mut buttons = vec![serenity::CreateButton::new(target.play(path.clone()))
                .label(tr(lang, "button-play"))
                .style(serenity::ButtonStyle::Success)];
            buttons.extend(nav);
            PickerParts {
                text: format!(
                    "{title}\n{}",
                    text!("picker-confirm", words = words, mv = notation).render(lang)
                ),
                rows: vec![serenity::CreateActionRow::Buttons(buttons)],
                chosen: Some(mv),
            }
        }
    })
}

/// The picker at `path` on the current position of `game` (opened on `ply` moves), with `link`
/// (the player's private link to the web board) and, in a coached game, the Hint button.
pub(super) async fn picker_message(
    lang: Lang,
    data: &Data,
    row: &GameRow,
    game: &Game,
    ply: i64,
    path: &Path,
    link: Option<serenity::CreateButton>,
) -> Result<serenity::CreateInteractionResponseMessage, BotError> {
    let id = row.id;
    let title = text!("picker-title", game = game.kind().title(), id = id).render(lang);
    let target = Target::Game { id, ply };
    let mut extra: Vec<_> = link.into_iter().collect();
    if crate::db::is_coached(&data.core.pool, id).await? {
        extra.push(
            serenity::CreateButton::new(Component::Hint { game: id, ply }.encode())
                .label(tr(lang, "coach-button"))
                .emoji('💡')
                .style(serenity::ButtonStyle::Secondary),
        );
    }
    let Some(parts) = picker_parts(lang, game, target, path, title, extra) else {
        let user = player_to_move(row, game);
        return Ok(stale_message(lang, row, game, user));
    };
    let msg = closed_message(parts.text).components(parts.rows);
    let Some(mv) = parts.chosen else {
        return Ok(msg);
    };
    let mut after = game.clone();
    after
        .play(mv)
        .map_err(|e| anyhow::anyhow!("the picker's move does not play: {e}"))?;
    let alt = crate::play::present::alt_text(lang, id, &after, after.ply());
    let names = crate::play::present::names_by_colour(&data.core.pool, row, game, lang).await?;
    let theme = crate::play::server_theme(&data.core.pool, row.guild_id).await?;
    let png = crate::play::present::picture(lang, theme, after, None, names).await?;
    Ok(msg.add_file(
        serenity::CreateAttachment::bytes(png, "preview.png")
            .description(fit(&alt, limits::ATTACHMENT_DESCRIPTION)),
    ))
}

//! Buttons, handled from their `custom_id` (see [`Component`]) so that they keep working after a
//! restart. Every press gets an answer: a button this bot does not know, or whose challenge or
//! game is gone, is answered privately too. A refusal never replaces a public message: it comes
//! as a new private message (or as the next state of a picker, which only its member sees). Only
//! a press that acts replaces the message pressed, and only when the button is on that message
//! (`placed`).
//!
//! A `custom_id` reads `hx:<verb>:<game or challenge>…` ([`Component::encode`],
//! [`Component::parse`]). The Move button's picker carries its path of choices in it, so it needs
//! no memory in the bot; its steps are [`crate::play::picker`]'s. The answers to a takeback or a
//! call-off carry the request's position and a seal ([`crate::bot::seal`]).

use crate::db::UserId;
use poise::serenity_prelude as serenity;
use tracing::{error, info, warn};

use super::commands::PrivateView;
pub use super::custom_id::Component;
use super::picker_view::{cannot_go_on, not_yours, picker_message, played_message, stale_message};
pub use super::picker_view::{move_button_row, watch_button};
use super::rest::Urgency;
use super::seal::Request;
use super::{BotError, Data};
use crate::i18n::{tr, Lang, Text};
use crate::play::access::mention;
use crate::play::actions::{self, Answered};
use crate::play::picker::{self, Path, Token, View};
use crate::play::terms::ChallengeAnswer;
use crate::text;

/// How posting a challenge (or a rematch offer) went.
pub enum Shown {
    /// Posted; its message is known.
    Posted(crate::db::MessageId),
    /// Posted, but reading it back failed: it is on screen with its buttons, so the challenge
    /// stays open (the buttons name it); only its message id is unknown.
    Unread(serenity::Error),
    /// Not posted: nobody can see it.
    NotPosted(serenity::Error),
}

/// How many times a posted message is read back before its id is given up.
const READ_BACK_ATTEMPTS: u32 = 3;

/// Reads back a message just posted, trying again after a passing failure.
pub async fn read_back<F, Fut>(read: F) -> Result<crate::db::MessageId, serenity::Error>
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Result<serenity::Message, serenity::Error>>,
{
    let mut attempt = 1;
    loop {
        match read().await {
            Ok(m) => return Ok(m.id.into()),
            Err(e) if attempt < READ_BACK_ATTEMPTS => {
                info!("reading back a posted message failed ({e}); trying again");
                tokio::time::sleep(std::time::Duration::from_millis(200 << attempt)).await;
                attempt += 1;
            }
            Err(e) => return Err(e),
        }
    }
}

/// Stores what showing challenge `id` gave: its message, or nothing more when it is on screen
/// but unread; a challenge nobody could see is closed (it must not count against the caps), and
/// the failure returned.
pub async fn settle_challenge(data: &Data, id: i64, shown: Shown) -> Result<(), serenity::Error> {
    let pool = &data.core.pool;
    let stored = match shown {
        Shown::Posted(message) => crate::db::set_challenge_message(pool, id, message).await,
        Shown::Unread(e) => {
            // Open, as it shows; a press on its buttons answers from what is stored.
            warn!(
                challenge = id,
                "a challenge was posted but could not be read back: {e}"
            );
            Ok(())
        }
        Shown::NotPosted(e) => {
            if let Err(stored) =
                crate::db::close_challenge(pool, id, crate::db::ChallengeStatus::Withdrawn, None)
                    .await
            {
                error!(
                    challenge = id,
                    "cannot close a challenge nobody saw: {stored}"
                );
            }
            return Err(e);
        }
    };
    if let Err(e) = stored {
        error!(challenge = id, "cannot store a challenge's message: {e}");
    }
    Ok(())
}

/// The buttons under a challenge: Accept, Decline (the opponent), Withdraw (the challenger).
pub fn challenge_buttons(lang: Lang, challenge: i64) -> serenity::CreateActionRow {
    serenity::CreateActionRow::Buttons(vec![
        serenity::CreateButton::new(Component::Accept(challenge).encode())
            .label(tr(lang, "button-accept"))
            .style(serenity::ButtonStyle::Success),
        serenity::CreateButton::new(Component::Decline(challenge).encode())
            .label(tr(lang, "button-decline"))
            .style(serenity::ButtonStyle::Danger),
        serenity::CreateButton::new(Component::Withdraw(challenge).encode())
            .label(tr(lang, "button-withdraw"))
            .style(serenity::ButtonStyle::Secondary),
    ])
}

/// The buttons under an open challenge: Accept (any member but its challenger), Withdraw (its
/// challenger).
pub fn open_challenge_buttons(lang: Lang, challenge: i64) -> serenity::CreateActionRow {
    serenity::CreateActionRow::Buttons(vec![
        serenity::CreateButton::new(Component::Accept(challenge).encode())
            .label(tr(lang, "button-accept"))
            .style(serenity::ButtonStyle::Success),
        serenity::CreateButton::new(Component::Withdraw(challenge).encode())
            .label(tr(lang, "button-withdraw"))
            .style(serenity::ButtonStyle::Secondary),
    ])
}

/// The buttons under seek `seek`'s card: Accept for each of its `variants` (any member but its
/// author), then Withdraw (its author; made from a standing seek, it stops that too).
pub fn seek_buttons(
    lang: Lang,
    seek: i64,
    variants: &[crate::games::Options],
    standing: bool,
) -> serenity::CreateActionRow {
    let accept = variants.iter().enumerate().filter_map(|(i, v)| {
        let variant = u8::try_from(i).ok()?;
        let label = text!(
            "button-accept-seek",
            variant = crate::play::words::variant(v)
        );
        Some(
            serenity::CreateButton::new(Component::SeekAccept { seek, variant }.encode())
                .label(super::limits::fit(
                    &label.render(lang),
                    super::limits::BUTTON_LABEL,
                ))
                .style(serenity::ButtonStyle::Success),
        )
    });
    let label = match standing {
        true => "button-stop-standing",
        false => "button-withdraw",
    };
    let withdraw = serenity::CreateButton::new(Component::SeekWithdraw(seek).encode())
        .label(tr(lang, label))
        .style(serenity::ButtonStyle::Secondary);
    serenity::CreateActionRow::Buttons(accept.chain([withdraw]).collect())
}

/// The buttons under the seek channel's notice: one per seek role, to take it or drop it (none
/// without roles).
pub fn seek_role_buttons(
    lang: Lang,
    roles: &[(crate::games::GameKind, crate::db::RoleId)],
) -> Option<serenity::CreateActionRow> {
    if roles.is_empty() {
        return None;
    }
    let buttons = roles
        .iter()
        .take(super::limits::ROW_BUTTONS)
        .map(|(kind, role)| {
            let label = text!("button-seek-role", game = kind.title());
            serenity::CreateButton::new(Component::SeekRole(role.get()).encode())
                .label(super::limits::fit(
                    &label.render(lang),
                    super::limits::BUTTON_LABEL,
                ))
                .style(serenity::ButtonStyle::Primary)
        })
        .collect();
    Some(serenity::CreateActionRow::Buttons(buttons))
}

/// The row under a tournament's card: Join and Leave while it takes players (`open`), and the
/// link to its page when the web board runs (`web_url`); none when neither.
pub fn tournament_buttons(
    lang: Lang,
    tournament: i64,
    open: bool,
    web_url: Option<&str>,
) -> Vec<serenity::CreateActionRow> {
    let mut buttons = Vec::new();
    if open {
        buttons.push(
            serenity::CreateButton::new(Component::Join(tournament).encode())
                .label(tr(lang, "button-join"))
                .style(serenity::ButtonStyle::Success),
        );
        buttons.push(
            serenity::CreateButton::new(Component::Leave(tournament).encode())
                .label(tr(lang, "button-leave"))
                .style(serenity::ButtonStyle::Secondary),
        );
    }
    buttons.extend(web_url.map(|url| tournament_page_button(lang, url, tournament)));
    if buttons.is_empty() {
        Vec::new()
    } else {
        vec![serenity::CreateActionRow::Buttons(buttons)]
    }
}

/// The link to a tournament's page on the web board: its standings and games, live.
pub fn tournament_page_button(
    lang: Lang,
    web_url: &str,
    tournament: i64,
) -> serenity::CreateButton {
    serenity::CreateButton::new_link(crate::web::tournament::tournament_url(web_url, tournament))
        .label(tr(lang, "web-tournament-link"))
}

/// The row under a server's daily puzzle: its Solve button.
pub fn daily_solve_row(lang: Lang, puzzle: i64) -> serenity::CreateActionRow {
    serenity::CreateActionRow::Buttons(vec![serenity::CreateButton::new(
        Component::DailySolve(puzzle).encode(),
    )
    .label(tr(lang, "button-daily-solve"))
    .emoji('🧩')
    .style(serenity::ButtonStyle::Primary)])
}

fn guild_of(press: &serenity::ComponentInteraction) -> Option<crate::db::GuildId> {
    press.guild_id.map(crate::db::GuildId::from)
}

/// After a Join or Leave press: the card shows the new count (its buttons kept while the event
/// takes players), and the presser alone reads what happened.
async fn show_entered(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    entered: actions::Entered,
) -> Result<(), BotError> {
    let t = &entered.tournament;
    let public = crate::play::server_lang(&data.core.pool, Some(t.guild_id)).await?;
    let open = matches!(
        t.status,
        crate::db::TournamentStatus::Signup | crate::db::TournamentStatus::Running
    );
    let buttons = tournament_buttons(public, t.id, open, data.web_url.as_deref());
    let card = serenity::CreateInteractionResponseMessage::new()
        .content(actions::card(t, entered.players).render(public))
        .components(buttons)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    press
        .create_response(
            ctx,
            serenity::CreateInteractionResponse::UpdateMessage(card),
        )
        .await?;
    let answer = serenity::CreateInteractionResponseFollowup::new()
        .content(entered.text.render(Lang::of(&press.locale)))
        .ephemeral(true)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    press.create_followup(ctx, answer).await?;
    Ok(())
}

/// The row under the final board of a game between members: its Rematch button, and the link
/// to its web board when that runs.
pub fn rematch_button_row(
    lang: Lang,
    game: i64,
    web_url: Option<&str>,
) -> serenity::CreateActionRow {
    let mut buttons = vec![
        serenity::CreateButton::new(Component::Rematch(game).encode())
            .label(tr(lang, "button-rematch"))
            .emoji('🔁')
            .style(serenity::ButtonStyle::Secondary),
    ];
    buttons.extend(web_url.map(|url| watch_button(lang, url, game)));
    serenity::CreateActionRow::Buttons(buttons)
}

/// A player's private link to a game's web board (a new token), when the web board runs.
pub async fn open_board_button(
    data: &Data,
    lang: Lang,
    game: i64,
    user: UserId,
) -> Result<Option<serenity::CreateButton>, BotError> {
    let Some(web_url) = data.web_url.as_deref() else {
        return Ok(None);
    };
    let token =
        crate::play::links::issue(&data.core.pool, game, user, data.core.clock.now()).await?;
    Ok(Some(
        serenity::CreateButton::new_link(crate::play::links::board_url(
            web_url,
            game,
            Some(&token),
        ))
        .label(tr(lang, "web-link-open")),
    ))
}

/// The button under a reminder that gives the presser their inbox's private link.
pub fn inbox_button(lang: Lang, game: i64) -> serenity::CreateButton {
    serenity::CreateButton::new(Component::Inbox(game).encode())
        .label(tr(lang, "inbox-link"))
        .emoji('📥')
        .style(serenity::ButtonStyle::Secondary)
}

/// A member's private answer with the link to their inbox (a new token): its words and the
/// link's button; `None` when the web board is not public.
pub async fn inbox_reply(
    data: &Data,
    lang: Lang,
    user: UserId,
) -> Result<Option<(String, serenity::CreateActionRow)>, BotError> {
    let Some(web_url) = data.web_url.as_deref() else {
        return Ok(None);
    };
    let token =
        crate::play::links::issue_inbox(&data.core.pool, user, data.core.clock.now()).await?;
    let button = serenity::CreateButton::new_link(crate::play::links::inbox_url(web_url, &token))
        .label(tr(lang, "inbox-link"))
        .emoji('📥');
    let words = text!("inbox-link-private", days = crate::play::links::INBOX_DAYS).render(lang);
    Ok(Some((
        words,
        serenity::CreateActionRow::Buttons(vec![button]),
    )))
}

/// Answers a button press; every failure is answered too (privately).
pub async fn handle(ctx: &serenity::Context, data: &Data, press: &serenity::ComponentInteraction) {
    // The presser's language (and their server's) as Discord tells it.
    let user = UserId::from(press.user.id);
    let now = data.core.clock.now();
    let pool = &data.core.pool;
    let noted = async {
        crate::db::upsert_player(pool, user, press.user.display_name(), now).await?;
        crate::play::note_locales(
            pool,
            user,
            press.guild_id.map(crate::db::GuildId::from),
            &press.locale,
            press.guild_locale.as_deref(),
            now,
        )
        .await
    }
    .await;
    let outcome = match noted {
        // The database cannot be reached: said at once (within Discord's deadline), not after
        // the press's own work waits for it again.
        Err(crate::db::DbError::Sqlx(e)) if crate::db::is_unavailable(&e) => {
            Err(BotError::Internal(crate::db::DbError::Sqlx(e).into()))
        }
        noted => {
            if let Err(e) = noted {
                warn!(%user, "cannot record a member's language: {e}");
            }
            Ok(())
        }
    };
    let outcome = match outcome.map(|()| Component::parse(&press.data.custom_id)) {
        Err(e) => Err(e),
        Ok(None) => {
            info!(custom_id = %press.data.custom_id, "a button this bot does not know");
            Err(BotError::refused(text!("stale-button")))
        }
        Ok(Some(component)) => dispatch(ctx, data, press, component).await,
    };
    if let Err(e) = outcome {
        let lang = Lang::of(&press.locale);
        let text = match e {
            BotError::Refused(crate::play::Refusal(text)) => text.render(lang),
            e @ BotError::Internal(_) => {
                error!(custom_id = %press.data.custom_id, "button failed: {e:#}");
                crate::i18n::tr(lang, e.apology_id())
            }
        };
        let reply = serenity::CreateInteractionResponseMessage::new()
            .content(text)
            .ephemeral(true)
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        if let Err(e) = press
            .create_response(ctx, serenity::CreateInteractionResponse::Message(reply))
            .await
        {
            warn!("could not answer a button: {e}");
        }
    }
}

async fn dispatch(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    component: Component,
) -> Result<(), BotError> {
    let user = UserId::from(press.user.id);
    if !placed(press, &component) {
        info!(%user, custom_id = %press.data.custom_id, "a button pressed where this bot never put it");
        return Err(BotError::refused(text!("stale-button")));
    }
    check_presser(data, press, &component, user).await?;
    let (id, answer) = match component {
        Component::Move(id) => return open_picker(ctx, data, press, id, user).await,
        Component::Pick { game, ply, path } => {
            let path = chosen_path(press, path)?;
            return picker_press(ctx, data, press, (game, ply, path), user, false).await;
        }
        Component::Play { game, ply, path } => {
            return picker_press(ctx, data, press, (game, ply, path), user, true).await
        }
        Component::PuzzlePick {
            attempt,
            step,
            path,
        } => {
            let path = chosen_path(press, path)?;
            let at = (attempt, step, path);
            return super::commands::puzzle::picker_press(ctx, data, press, at, user, false).await;
        }
        Component::PuzzlePlay {
            attempt,
            step,
            path,
        } => {
            let at = (attempt, step, path);
            return super::commands::puzzle::picker_press(ctx, data, press, at, user, true).await;
        }
        Component::LearnPick {
            user: owner,
            version,
            path,
        } => {
            let path = chosen_path(press, path)?;
            let at = (owner, version, path);
            return super::commands::learn::picker_press(ctx, data, press, at, false).await;
        }
        Component::LearnPlay {
            user: owner,
            version,
            path,
        } => {
            let at = (owner, version, path);
            return super::commands::learn::picker_press(ctx, data, press, at, true).await;
        }
        Component::LearnNext { user: owner, kind } => {
            return super::commands::learn::next_press(ctx, data, press, owner, kind).await;
        }
        Component::LearnOffer {
            user: owner,
            kind,
            offer,
        } => {
            return super::commands::learn::offer_press(ctx, data, press, owner, kind, offer).await;
        }
        Component::Hint { game, ply } => return hint(ctx, data, press, game, ply, user).await,
        Component::Rematch(id) => return rematch(ctx, data, press, id, user).await,
        Component::Launch(_) => {
            // The Activity opens in the channel of the press: in a game's thread, that game.
            if !data.activity {
                return Err(BotError::refused(text!("activity-off")));
            }
            press
                .create_response(ctx, serenity::CreateInteractionResponse::LaunchActivity)
                .await?;
            return Ok(());
        }
        Component::Inbox(_) => {
            let lang = Lang::of(&press.locale);
            let Some(reply) = inbox_reply(data, lang, user).await? else {
                return Err(BotError::refused(text!("inbox-off")));
            };
            let shown = PrivateView {
                text: reply.0,
                rows: vec![reply.1],
                files: Vec::new(),
            };
            return shown.answer(ctx, press).await;
        }
        Component::DailySolve(puzzle) => {
            let Some(guild) = guild_of(press) else {
                return Err(BotError::refused(text!("daily-puzzle-unknown")));
            };
            let now = data.core.clock.now();
            let (attempt, stored) =
                crate::play::daily::give_daily(&data.core.pool, user, guild, puzzle, now).await?;
            return super::commands::puzzle::show_daily(ctx, data, press, &attempt, &stored).await;
        }
        Component::Follow(id) => {
            let guild = press.guild_id.map(crate::db::GuildId::from);
            let again = text!("follow-again-button");
            let text = follow(&ctx.http, data, id, user, guild, again).await?;
            let shown = PrivateView::words(text.render(Lang::of(&press.locale)));
            return shown.answer(ctx, press).await;
        }
        Component::Takeback {
            game,
            at,
            accept,
            seal: _,
        } => {
            let text = actions::answer_takeback(&data.core, game, at, user, accept).await?;
            return update(ctx, data, press, text).await;
        }
        Component::CallOff {
            game,
            at,
            seat,
            accept,
            seal: _,
        } => {
            let (row, _) = actions::load(&data.core.pool, game).await?;
            let proposer = row.players[usize::from(seat)];
            let text =
                actions::answer_call_off(&data.core, game, at, proposer, user, accept).await?;
            return update(ctx, data, press, text).await;
        }
        Component::Cancel(id) => {
            return update(ctx, data, press, text!("picker-cancelled", game = id)).await
        }
        Component::Forget { at, .. } => {
            // `check_presser` saw that the presser is the member who asked.
            let text = actions::forget_member(&data.core, user, at).await?;
            return update(ctx, data, press, text).await;
        }
        Component::Pause { pause, accept } => {
            let text = actions::answer_pause(&data.core, pause, user, accept).await?;
            return update(ctx, data, press, text).await;
        }
        Component::Join(id) => {
            let entered = actions::join_tournament(&data.core, id, guild_of(press), user).await?;
            return show_entered(ctx, data, press, entered).await;
        }
        Component::Leave(id) => {
            let entered = actions::leave_tournament(&data.core, id, guild_of(press), user).await?;
            return show_entered(ctx, data, press, entered).await;
        }
        Component::SeekAccept { seek, variant } => {
            let (_, text) =
                actions::accept_seek(&data.core, seek, user, usize::from(variant), true).await?;
            return update(ctx, data, press, text).await;
        }
        Component::SeekWithdraw(seek) => {
            let text = actions::withdraw_seek(&data.core, seek, user).await?;
            return update(ctx, data, press, text).await;
        }
        Component::SeekRole(role) => return seek_role(ctx, data, press, role).await,
        Component::Accept(id) => (id, ChallengeAnswer::Accept),
        Component::Decline(id) => (id, ChallengeAnswer::Decline),
        Component::Withdraw(id) => (id, ChallengeAnswer::Withdraw),
        Component::Resign(id) => {
            actions::resign(&data.core, id, user).await?;
            update(ctx, data, press, text!("you-resigned", game = id)).await?;
            return follow_with_board(ctx, data, press, id, None).await;
        }
        Component::KeepPlaying(game) => {
            // The confirmation becomes the way back to the game: its Move button.
            let lang = Lang::of(&press.locale);
            let (row, _) = actions::load(&data.core.pool, game).await?;
            let msg = serenity::CreateInteractionResponseMessage::new()
                .content(text!("keep-playing").render(lang))
                .components(vec![move_button_row(
                    lang,
                    &row,
                    data.web_url.as_deref(),
                    data.activity,
                )])
                .allowed_mentions(serenity::CreateAllowedMentions::new());
            press
                .create_response(ctx, serenity::CreateInteractionResponse::UpdateMessage(msg))
                .await?;
            return Ok(());
        }
    };
    let public = !press
        .message
        .flags
        .is_some_and(|f| f.contains(serenity::MessageFlags::EPHEMERAL));
    if answer == ChallengeAnswer::Accept && public {
        // The pressed message shows the challenge: the game's thread starts from it even when
        // the delivery that posted it has not stored it yet.
        crate::db::remember_challenge_message(&data.core.pool, id, press.message.id.into()).await?;
    }
    let text = match actions::answer_challenge(&data.core, id, user, answer).await? {
        Answered::Closed(text) => text,
        Answered::Started { game, text } => {
            // In a direct or group chat the challenge becomes the first board.
            let lang = Lang::of(&press.locale);
            let shown =
                crate::bot::chats::board_for_chat(data, lang, game, Some(text.render(lang)), None)
                    .await?;
            if let Some((board, mentions)) = shown {
                let msg = serenity::CreateInteractionResponseMessage::new()
                    .content(board.content)
                    .files([board.picture])
                    .components(board.buttons.into_iter().collect())
                    .allowed_mentions(mentions);
                press
                    .create_response(ctx, serenity::CreateInteractionResponse::UpdateMessage(msg))
                    .await?;
                return Ok(());
            }
            text
        }
    };
    update(ctx, data, press, text).await
}

/// The button of seek role `role`: the presser takes it (to be pinged with the seeks of its
/// game), or drops it when they have it, as Discord says with the press.
async fn seek_role(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    role: u64,
) -> Result<(), BotError> {
    let Some(guild) = guild_of(press) else {
        return Err(BotError::refused(text!("stale-button")));
    };
    let roles = crate::db::seek_roles(&data.core.pool, guild).await?;
    let Some(&(kind, _)) = roles.iter().find(|(_, r)| r.get() == role) else {
        return Err(BotError::refused(text!("seek-role-gone")));
    };
    let has = press
        .member
        .as_ref()
        .is_some_and(|m| m.roles.iter().any(|r| r.get() == role));
    let (guild_id, member, role_id) = (
        serenity::GuildId::new(guild.get()),
        press.user.id,
        serenity::RoleId::new(role),
    );
    let turn = data.pacer.turn(Urgency::Member, 0).await;
    let done = if has {
        ctx.http
            .remove_member_role(guild_id, member, role_id, None)
            .await
    } else {
        ctx.http
            .add_member_role(guild_id, member, role_id, None)
            .await
    };
    drop(turn);
    let mention = format!("<@&{role}>");
    let text = match done {
        Ok(()) if has => text!("seek-role-dropped", role = mention, game = kind.title()),
        Ok(()) => text!("seek-role-taken", role = mention, game = kind.title()),
        Err(e) => {
            info!(%guild, role, "cannot change a member's seek role: {e}");
            return Err(BotError::refused(text!("seek-role-cannot", role = mention)));
        }
    };
    PrivateView::words(text.render(Lang::of(&press.locale)))
        .answer(ctx, press)
        .await
}

/// A picker's path with the option chosen in its select menu, if the press is a menu's.
fn chosen_path(press: &serenity::ComponentInteraction, path: Path) -> Result<Path, BotError> {
    match &press.data.kind {
        serenity::ComponentInteractionDataKind::StringSelect { values } => {
            match values.first().and_then(|v| Token::parse(v)) {
                Some(t) => Ok(path.then(t)),
                None => Err(BotError::refused(text!("stale-button"))),
            }
        }
        _ => Ok(path),
    }
}

/// `user` follows game `id` (or stops following it): mentioned with its result, and a member
/// of its thread. `again` says how to undo it. Returns the answer.
pub async fn follow(
    http: &serenity::Http,
    data: &Data,
    id: i64,
    user: UserId,
    guild: Option<crate::db::GuildId>,
    again: Text,
) -> Result<Text, BotError> {
    let (following, row) = actions::toggle_follow(&data.core, id, user, guild).await?;
    let mut text = if following {
        text!("following-now", game = id, again = again)
    } else {
        text!("not-following", game = id)
    };
    if let Some(thread) = row.thread_id {
        let thread = serenity::ChannelId::from(thread);
        let member = serenity::UserId::from(user);
        let turn = data.pacer.turn(Urgency::Member, 0).await;
        let done = if following {
            thread.add_thread_member(http, member).await
        } else {
            thread.remove_thread_member(http, member).await
        };
        drop(turn);
        let thread_ref = thread.to_string();
        text = match done {
            Ok(()) if following => text!("and-its-thread", first = text, thread = thread_ref),
            Ok(()) => text,
            Err(e) => {
                warn!(game = id, %user, "cannot change a follower's thread membership: {e}");
                if following {
                    text!("and-not-added-to-thread", first = text, thread = thread_ref)
                } else {
                    text!(
                        "and-not-removed-from-thread",
                        first = text,
                        thread = thread_ref
                    )
                }
            }
        };
    }
    Ok(text)
}

/// The Rematch button: a public challenge with the colours swapped, answered like any other.
/// Pressed in the game's channel, the answer to the press is the offer; pressed elsewhere (the
/// game's thread), the offer is queued for the game's channel like every other post of the bot
/// ([`crate::bot::delivery`]: tried again after passing failures; refused for good, it is
/// withdrawn and the member told by direct message), and the press is answered at once.
async fn rematch(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    id: i64,
    user: UserId,
) -> Result<(), BotError> {
    let (challenge, text, row) = actions::offer_rematch(&data.core, id, user).await?;
    let lang = crate::play::server_lang(&data.core.pool, row.guild_id).await?;
    let opponent = row.opponent_of(user);
    // The challenge goes to the game's channel, where the next game's thread can start.
    if crate::db::ChannelId::from(press.channel_id) != row.channel_id {
        actions::queue_rematch_offer(&data.core, challenge, &row, user, &text, lang).await?;
        let there = text!(
            "rematch-offered-there",
            channel = row.channel_id.to_string(),
            opponent = mention(opponent)
        );
        return PrivateView::words(there.render(Lang::of(&press.locale)))
            .answer(ctx, press)
            .await;
    }
    let msg = serenity::CreateInteractionResponseMessage::new()
        .content(text.render(lang))
        .components(vec![challenge_buttons(lang, challenge)])
        .allowed_mentions(
            serenity::CreateAllowedMentions::new().users([serenity::UserId::from(opponent)]),
        );
    let shown = match press
        .create_response(ctx, serenity::CreateInteractionResponse::Message(msg))
        .await
    {
        Err(e) => Shown::NotPosted(e),
        Ok(()) => match read_back(|| press.get_response(&ctx.http)).await {
            Ok(message) => Shown::Posted(message),
            Err(e) => Shown::Unread(e),
        },
    };
    // The answer to the press itself failed: there is no one to tell.
    settle_challenge(data, challenge, shown).await?;
    Ok(())
}

/// The Move button: a private picker for the player to move; a short private answer for
/// anyone else.
async fn open_picker(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    id: i64,
    user: UserId,
) -> Result<(), BotError> {
    let (row, game) = actions::load(&data.core.pool, id).await?;
    if let Some(why) = not_yours(&row, &game, user) {
        return Err(BotError::Refused(crate::play::Refusal(why)));
    }
    let ply = game.ply() as i64;
    let lang = Lang::of(&press.locale);
    let link = open_board_button(data, lang, id, user).await?;
    let msg = picker_message(lang, data, &row, &game, ply, &Path::default(), link).await?;
    press
        .create_response(
            ctx,
            serenity::CreateInteractionResponse::Message(msg.ephemeral(true)),
        )
        .await?;
    Ok(())
}

/// A coached game's Hint, pressed in its member's picker opened on `ply` moves: the coach's
/// advice for the position, in a private message of its own (the picker stays). Refused in a
/// game without a coach, to anyone but the member to move, and on a position that moved on.
async fn hint(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    id: i64,
    ply: i64,
    user: UserId,
) -> Result<(), BotError> {
    let (row, game) = actions::load(&data.core.pool, id).await?;
    if !crate::db::is_coached(&data.core.pool, id).await? {
        return Err(BotError::refused(text!("coach-not-coached", game = id)));
    }
    if let Some(why) = not_yours(&row, &game, user) {
        return Err(BotError::Refused(crate::play::Refusal(why)));
    }
    if game.ply() as i64 != ply {
        return Err(BotError::refused(text!(
            "picker-stale",
            game = id,
            n = game.ply() as i64
        )));
    }
    // The search may take a second or two: the answer is deferred, then sent.
    press
        .create_response(
            ctx,
            serenity::CreateInteractionResponse::Defer(
                serenity::CreateInteractionResponseMessage::new().ephemeral(true),
            ),
        )
        .await?;
    let lang = Lang::of(&press.locale);
    let seed = (id as u64) << 16 ^ ply as u64;
    let budget = crate::play::coach::budget(game.kind());
    let searched = game.clone();
    let advice = data
        .opponent
        .run_search(move || crate::play::coach::hint(&searched, budget, seed))
        .await;
    let text = match advice {
        Ok(Some(h)) => h.text(&game).render(lang),
        Ok(None) => text!(
            "game-over-plain",
            game = id,
            result = crate::play::words::row_result(&row)
        )
        .render(lang),
        Err(e) => {
            error!(game = id, "the coach's search failed: {e:#}");
            crate::i18n::tr(lang, e.apology_id())
        }
    };
    press
        .create_followup(
            ctx,
            serenity::CreateInteractionResponseFollowup::new()
                .content(text)
                .ephemeral(true)
                .allowed_mentions(serenity::CreateAllowedMentions::new()),
        )
        .await?;
    Ok(())
}

/// A press in a picker at `(game, ply, path)`: the next step (the next choices, or the move to
/// confirm with its preview), or with `play` the Play button, whose move goes through the same
/// action as `/move`, on the position the player saw.
async fn picker_press(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    (id, ply, path): (i64, i64, Path),
    user: UserId,
    play: bool,
) -> Result<(), BotError> {
    let (row, game) = actions::load(&data.core.pool, id).await?;
    let lang = Lang::of(&press.locale);
    let mut chat_move = None;
    let msg = match cannot_go_on(lang, &row, &game, ply, user) {
        Some(msg) => msg,
        None if !play => picker_message(lang, data, &row, &game, ply, &path, None).await?,
        None => match picker::view(lang, &game, &path) {
            Ok(View::Confirm { mv, words, .. }) => {
                let in_chat = crate::play::chats::is_chat_game(&row);
                let place = row.place();
                let played = (data.opponent)
                    .member_moves((row, game), user, actions::Chosen::Move(mv))
                    .await?;
                let message = played_message(
                    lang,
                    played.answer(words, place).render(lang),
                    played.next_game,
                );
                chat_move = in_chat.then_some(played);
                message
            }
            _ => stale_message(lang, &row, &game, user),
        },
    };
    press
        .create_response(ctx, serenity::CreateInteractionResponse::UpdateMessage(msg))
        .await?;
    if let Some(played) = chat_move {
        follow_with_board(ctx, data, press, id, Some(&played)).await?;
    }
    Ok(())
}

/// In a direct or group chat, where the bot may not post, the board of chat game `id` after a
/// change made by `press` follows its answer, for the chat to see (`played`: the move made).
/// Nothing for a game of a server, whose board is posted.
async fn follow_with_board(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    id: i64,
    played: Option<&actions::Played>,
) -> Result<(), BotError> {
    let lang = Lang::of(&press.locale);
    if let Some((board, mentions)) =
        crate::bot::chats::board_for_chat(data, lang, id, None, played).await?
    {
        let follow = serenity::CreateInteractionResponseFollowup::new()
            .content(board.content)
            .add_file(board.picture)
            .components(board.buttons.into_iter().collect())
            .allowed_mentions(mentions);
        press.create_followup(ctx, follow).await?;
    }
    Ok(())
}

/// Whether the pressed button sits on a message only its member sees.
fn on_private_message(press: &serenity::ComponentInteraction) -> bool {
    press
        .message
        .flags
        .is_some_and(|f| f.contains(serenity::MessageFlags::EPHEMERAL))
}

/// Whether a press could come from the message it names: its `custom_id` is one of that
/// message's buttons or menus, and a button shown to one member alone (a picker's, a
/// resignation's confirmation) sits on a message only they see. A press that is not is forged:
/// it is refused privately before anything is read or changed, so that its answer never replaces
/// the message pressed (a public board, a challenge, a tournament's card).
fn placed(press: &serenity::ComponentInteraction, component: &Component) -> bool {
    let pressed = press.data.custom_id.as_str();
    let on_message = press
        .message
        .components
        .iter()
        .flat_map(|row| &row.components)
        .any(|c| match c {
            serenity::ActionRowComponent::Button(b) => matches!(
                &b.data,
                serenity::ButtonKind::NonLink { custom_id, .. } if custom_id == pressed
            ),
            serenity::ActionRowComponent::SelectMenu(m) => m.custom_id.as_deref() == Some(pressed),
            _ => false,
        });
    let private_only = matches!(
        component,
        Component::Pick { .. }
            | Component::Play { .. }
            | Component::Hint { .. }
            | Component::PuzzlePick { .. }
            | Component::PuzzlePlay { .. }
            | Component::LearnPick { .. }
            | Component::LearnPlay { .. }
            | Component::LearnNext { .. }
            | Component::LearnOffer { .. }
            | Component::Cancel(_)
            | Component::Resign(_)
            | Component::KeepPlaying(_)
            | Component::Forget { .. }
    );
    on_message && (!private_only || on_private_message(press))
}

/// A forged or misplaced button changes nothing: the buttons of a game's players (a picker,
/// Cancel, the resignation's confirmation, Keep playing, the answers to a request) are refused to
/// anyone who does not play it, a request's answer without the request's seal is refused, and a
/// deletion's confirmation is refused to anyone but the member who asked.
/// Answered privately: the message pressed stays as it is.
async fn check_presser(
    data: &Data,
    press: &serenity::ComponentInteraction,
    component: &Component,
    user: UserId,
) -> Result<(), BotError> {
    let game = match *component {
        Component::Pick { game, .. }
        | Component::Play { game, .. }
        | Component::Hint { game, .. }
        | Component::Cancel(game)
        | Component::Resign(game)
        | Component::KeepPlaying(game) => game,
        Component::Takeback { game, at, seal, .. } => {
            if !data.seals.holds(Request::Takeback { game, at }, seal) {
                info!(%user, custom_id = %press.data.custom_id, "a takeback answer without its seal");
                return Err(BotError::refused(text!("stale-button")));
            }
            game
        }
        Component::CallOff {
            game,
            at,
            seat,
            seal,
            ..
        } => {
            if !data.seals.holds(Request::CallOff { game, at, seat }, seal) {
                info!(%user, custom_id = %press.data.custom_id, "a call-off answer without its seal");
                return Err(BotError::refused(text!("stale-button")));
            }
            game
        }
        // A puzzle's picker is its member's alone.
        Component::PuzzlePick { attempt, .. } | Component::PuzzlePlay { attempt, .. } => {
            let owner = crate::db::fetch_attempt(&data.core.pool, attempt).await?;
            return match owner {
                None => Err(BotError::refused(text!("puzzle-gone"))),
                Some(a) if a.player_id != user => {
                    info!(%user, "a puzzle's picker pressed by another member");
                    Err(BotError::refused(text!("puzzle-not-yours")))
                }
                Some(_) => Ok(()),
            };
        }
        // A level of the course is its member's alone.
        Component::LearnPick { user: owner, .. }
        | Component::LearnPlay { user: owner, .. }
        | Component::LearnNext { user: owner, .. }
        | Component::LearnOffer { user: owner, .. } => {
            if owner != user.0 {
                info!(%user, "a level of the course pressed by another member");
                return Err(BotError::refused(text!("learn-not-yours")));
            }
            return Ok(());
        }
        // A deletion is confirmed by the member who asked for it, on the button the bot sealed.
        Component::Forget { user: asker, at, seal } => {
            if !data.seals.holds(Request::Forget { user: asker, at }, seal) {
                info!(%user, custom_id = %press.data.custom_id, "a deletion confirmed without its seal");
                return Err(BotError::refused(text!("stale-button")));
            }
            if asker != user.0 {
                info!(%user, "a deletion confirmed by another member");
                return Err(BotError::refused(text!("privacy-not-yours")));
            }
            return Ok(());
        }
        // Anyone may open their own picker, follow a game or ask for a rematch (each checks the
        // member itself); challenges check their own parties.
        Component::Move(_)
        | Component::Launch(_)
        | Component::Inbox(_)
        | Component::Follow(_)
        | Component::Rematch(_)
        | Component::Accept(_)
        | Component::Decline(_)
        | Component::Withdraw(_)
        | Component::Join(_)
        | Component::Leave(_)
        // A seek's actions check who presses (its author withdraws it, anyone else accepts);
        // anyone takes or drops a seek role.
        | Component::SeekAccept { .. }
        | Component::SeekWithdraw(_)
        | Component::SeekRole(_)
        // The daily puzzle's Solve is checked against the server's posts, and solved by whoever
        // presses it.
        | Component::DailySolve(_)
        // The pause's action checks that the other player of its game answers.
        | Component::Pause { .. } => return Ok(()),
    };
    let Some(row) = crate::db::fetch_game(&data.core.pool, game).await? else {
        return Err(BotError::refused(text!("no-such-game", game = game)));
    };
    crate::play::access::check_member(&row, user)?;
    Ok(())
}

/// Replaces the message holding the button (and its buttons) by `text`: in the presser's
/// language when only they see it, else in the server's.
async fn update(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    text: Text,
) -> Result<(), BotError> {
    let lang = if on_private_message(press) {
        Lang::of(&press.locale)
    } else {
        let guild = press.guild_id.map(crate::db::GuildId::from);
        crate::play::server_lang(&data.core.pool, guild).await?
    };
    let msg = serenity::CreateInteractionResponseMessage::new()
        .content(text.render(lang))
        .components(Vec::new())
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    press
        .create_response(ctx, serenity::CreateInteractionResponse::UpdateMessage(msg))
        .await?;
    Ok(())
}

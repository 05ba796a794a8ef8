//! Buttons, handled from their `custom_id` (see [`Component`]) so that they keep working after a
//! restart.

use poise::serenity_prelude as serenity;
use tracing::{error, info, warn};

use super::logic::{
    check_challenge_answer, check_player, deadline_after, finish_by_resignation, mention,
    ChallengeAnswer, Component,
};
use super::present::{post_board, Notify};
use super::{BotError, Data, APOLOGY};
use crate::db::{self, ChallengeStatus, NewGame};
use crate::games::Options;

/// Answers a button press; every failure is answered too (privately).
pub async fn handle(ctx: &serenity::Context, data: &Data, press: &serenity::ComponentInteraction) {
    let Some(component) = Component::parse(&press.data.custom_id) else {
        warn!(custom_id = %press.data.custom_id, "a button this bot does not know");
        return;
    };
    let outcome = match component {
        Component::Accept(id) => {
            answer_challenge(ctx, data, press, id, ChallengeAnswer::Accept).await
        }
        Component::Decline(id) => {
            answer_challenge(ctx, data, press, id, ChallengeAnswer::Decline).await
        }
        Component::Withdraw(id) => {
            answer_challenge(ctx, data, press, id, ChallengeAnswer::Withdraw).await
        }
        Component::Resign(id) => confirm_resignation(ctx, data, press, id).await,
        Component::KeepPlaying(_) => {
            update(ctx, press, "Good luck! Play on with `/move`.".into()).await
        }
    };
    if let Err(e) = outcome {
        let text = match e {
            BotError::User(text) => text,
            BotError::Internal(e) => {
                error!(custom_id = %press.data.custom_id, "button failed: {e:#}");
                APOLOGY.to_string()
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

/// Replaces the message holding the button (and its buttons) by `text`.
async fn update(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    text: String,
) -> Result<(), BotError> {
    let msg = serenity::CreateInteractionResponseMessage::new()
        .content(text)
        .components(Vec::new())
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    press
        .create_response(ctx, serenity::CreateInteractionResponse::UpdateMessage(msg))
        .await?;
    Ok(())
}

async fn answer_challenge(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    id: i64,
    answer: ChallengeAnswer,
) -> Result<(), BotError> {
    let user = press.user.id.get();
    let now = data.clock.now();
    let challenge = db::fetch_challenge(&data.pool, id)
        .await?
        .ok_or_else(|| BotError::User(format!("Challenge #{id} does not exist any more.")))?;
    if let Err((refusal, store)) = check_challenge_answer(&challenge, user, answer, now) {
        if let Some(status) = store {
            db::close_challenge(&data.pool, id, status, None).await?;
        }
        return Err(refusal.into());
    }
    db::upsert_player(&data.pool, user, press.user.display_name(), now).await?;
    let closed_as = match answer {
        ChallengeAnswer::Accept => ChallengeStatus::Accepted,
        ChallengeAnswer::Decline => ChallengeStatus::Declined,
        ChallengeAnswer::Withdraw => ChallengeStatus::Withdrawn,
    };
    let gone = || BotError::User(format!("Challenge #{id} was answered in the meantime."));
    if answer != ChallengeAnswer::Accept {
        if !db::close_challenge(&data.pool, id, closed_as, None).await? {
            return Err(gone());
        }
        let text = match answer {
            ChallengeAnswer::Decline => format!(
                "{} declined the challenge of {} (`{}`).",
                mention(challenge.opponent_id),
                mention(challenge.challenger_id),
                challenge.options
            ),
            _ => format!(
                "{} withdrew the challenge to {} (`{}`).",
                mention(challenge.challenger_id),
                mention(challenge.opponent_id),
                challenge.options
            ),
        };
        return update(ctx, press, text).await;
    }

    let options = Options::parse_line(&challenge.options)
        .map_err(|e| anyhow::anyhow!("challenge {id} holds bad options: {e}"))?;
    // The challenger moves first: their clock starts now (after their vacation, if away).
    let away = db::vacation_until(&data.pool, challenge.challenger_id, now).await?;
    let mut tx = data.pool.begin().await?;
    let game_id = db::insert_game(
        &mut *tx,
        &NewGame {
            guild_id: challenge.guild_id,
            channel_id: challenge.channel_id,
            kind: options.kind().name(),
            options: &challenge.options,
            players: [challenge.challenger_id, challenge.opponent_id],
            rated: challenge.rated,
            now,
            seconds_per_move: challenge.seconds_per_move,
            deadline_at: deadline_after(now, challenge.seconds_per_move, away),
        },
    )
    .await?;
    if !db::close_challenge(&mut *tx, id, ChallengeStatus::Accepted, Some(game_id)).await? {
        return Err(gone());
    }
    tx.commit().await?;
    info!(challenge = id, game = game_id, "challenge accepted");
    update(
        ctx,
        press,
        format!(
            "{} accepted the challenge of {}: game #{game_id} (`{}`) starts below.",
            mention(challenge.opponent_id),
            mention(challenge.challenger_id),
            challenge.options
        ),
    )
    .await?;

    post_board(&ctx.http, &data.pool, game_id, "", None, Notify::ToMove).await?;
    Ok(())
}

async fn confirm_resignation(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    id: i64,
) -> Result<(), BotError> {
    let user = press.user.id.get();
    let (row, game) = super::commands::load(data, id).await?;
    check_player(&row, user)?;
    let finish = finish_by_resignation(&row, &game, user)
        .ok_or_else(|| anyhow::anyhow!("player {user} has no colour in game {id}"))?;
    let mut tx = data.pool.begin().await?;
    db::finish_game(&mut *tx, id, &finish, data.clock.now()).await?;
    crate::rating::apply_result(&mut tx, id).await?;
    tx.commit().await?;
    info!(game = id, "resigned");
    update(ctx, press, format!("You resigned game #{id}.")).await?;

    let intro = format!("{} resigned.", mention(user));
    post_board(&ctx.http, &data.pool, id, &intro, None, Notify::Players).await?;
    Ok(())
}

//! Buttons, handled from their `custom_id` (see [`Component`]) so that they keep working after a
//! restart. Every press gets an answer: a button this bot does not know, or whose challenge or
//! game is gone, is answered privately too.

use crate::db::UserId;
use poise::serenity_prelude as serenity;
use tracing::{error, info, warn};

use super::actions::{self, Answered};
use super::terms::ChallengeAnswer;
use super::{BotError, Data, APOLOGY};

/// Buttons, and what their `custom_id` says. The id carries all the state the press needs, so a
/// button keeps working after a restart.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Component {
    Accept(i64),
    Decline(i64),
    Withdraw(i64),
    Resign(i64),
    KeepPlaying(i64),
}

impl Component {
    pub fn encode(self) -> String {
        let (verb, id) = match self {
            Component::Accept(id) => ("accept", id),
            Component::Decline(id) => ("decline", id),
            Component::Withdraw(id) => ("withdraw", id),
            Component::Resign(id) => ("resign", id),
            Component::KeepPlaying(id) => ("keep", id),
        };
        format!("hx:{verb}:{id}")
    }

    /// `None` for an id this bot did not make.
    pub fn parse(custom_id: &str) -> Option<Component> {
        let mut parts = custom_id.split(':');
        if parts.next()? != "hx" {
            return None;
        }
        let verb = parts.next()?;
        let id: i64 = parts.next()?.parse().ok()?;
        if parts.next().is_some() || id <= 0 {
            return None;
        }
        Some(match verb {
            "accept" => Component::Accept(id),
            "decline" => Component::Decline(id),
            "withdraw" => Component::Withdraw(id),
            "resign" => Component::Resign(id),
            "keep" => Component::KeepPlaying(id),
            _ => return None,
        })
    }
}

/// The answer to a button this bot cannot use (not its own, or from an older version).
pub const STALE_BUTTON: &str =
    "This button is no longer valid: its game or challenge has moved on. Use `/games` to see your games, or `/challenge` to start one.";

/// Answers a button press; every failure is answered too (privately).
pub async fn handle(ctx: &serenity::Context, data: &Data, press: &serenity::ComponentInteraction) {
    let outcome = match Component::parse(&press.data.custom_id) {
        None => {
            info!(custom_id = %press.data.custom_id, "a button this bot does not know");
            Err(BotError::User(STALE_BUTTON.to_string()))
        }
        Some(component) => dispatch(ctx, data, press, component).await,
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

async fn dispatch(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    component: Component,
) -> Result<(), BotError> {
    let user = UserId::from(press.user.id);
    let (id, answer) = match component {
        Component::Accept(id) => (id, ChallengeAnswer::Accept),
        Component::Decline(id) => (id, ChallengeAnswer::Decline),
        Component::Withdraw(id) => (id, ChallengeAnswer::Withdraw),
        Component::Resign(id) => {
            actions::resign(&data.core, id, user).await?;
            return update(ctx, press, format!("You resigned game #{id}.")).await;
        }
        Component::KeepPlaying(_) => {
            return update(ctx, press, "Good luck! Play on with `/move`.".into()).await;
        }
    };
    crate::db::upsert_player(
        &data.core.pool,
        user,
        press.user.display_name(),
        data.core.clock.now(),
    )
    .await?;
    let text = match actions::answer_challenge(&data.core, id, user, answer).await? {
        Answered::Closed(text) | Answered::Started { text, .. } => text,
    };
    update(ctx, press, text).await
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_round_trip_and_foreign_ids_are_ignored() {
        for c in [
            Component::Accept(1),
            Component::Decline(22),
            Component::Withdraw(333),
            Component::Resign(i64::MAX),
            Component::KeepPlaying(5),
        ] {
            assert_eq!(Component::parse(&c.encode()), Some(c));
        }
        assert_eq!(Component::Accept(7).encode(), "hx:accept:7");
        for bad in [
            "",
            "hx",
            "hx:accept",
            "hx:accept:x",
            "hx:accept:0",
            "hx:accept:-1",
            "hx:fly:3",
            "xx:accept:3",
            "hx:accept:3:4",
        ] {
            assert_eq!(Component::parse(bad), None, "{bad}");
        }
    }
}

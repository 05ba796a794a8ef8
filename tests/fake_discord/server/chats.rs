//! Direct and group chats between members, where hexcord is installed to a member's account and
//! the bot is no member, and the limits Discord sets there (see `hexcord::play::chats` for the
//! documentation they come from). The rules the fake keeps:
//!
//! - **No post of the bot's own in a chat.** Any request on a chat's messages or threads
//!   (`/channels/{chat}/messages…`, `/channels/{chat}/threads`) answers 403, code 50001
//!   *Missing Access*: the bot speaks there only through interactions.
//! - **Interaction tokens last 15 minutes.** A request on `/webhooks/{app}/{token}…` (a
//!   follow-up, reading or editing the answer) with a token older than that answers 401, code
//!   50027 *Invalid Webhook Token*. Tests age the tokens ([`FakeState::age_tokens`]) as they move
//!   the bot's clock.
//! - **The bot's own direct messages** go to members who share a server with it or who installed
//!   the app to their account; a post in the direct message channel of anyone else (a
//!   [`FakeState::strangers`] member without the app), or of a member who closed direct messages
//!   from server members ([`FakeState::closed_dms`]), answers 403, code 50007 *Cannot send
//!   messages to this user* (Discord opens the channel, and refuses the message).
//! - **Commands** are offered to a member in a chat only when they installed the app and the
//!   command was registered with `integration_types` holding 1 (user install) and `contexts`
//!   holding the chat's (1 the bot's direct messages, 2 other chats): see [`command_offered`].
//!   Anyone in the chat may press the components of the bot's answers there.
//! - A channel of a server that did not install the app is, for the bot, such a chat too: a
//!   member's installation brings the commands there (context 0), the bot may not post.

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use super::FakeState;

/// How long an interaction token may be used (Discord's 15 minutes).
pub const TOKEN_LIFE: Duration = Duration::from_secs(15 * 60);

/// A direct (two members) or group chat.
#[derive(Clone, Debug)]
pub struct Chat {
    pub members: Vec<u64>,
}

impl Chat {
    /// Discord's channel type: 1 for a direct message, 3 for a group.
    pub fn channel_type(&self) -> u64 {
        if self.members.len() > 2 {
            3
        } else {
            1
        }
    }
}

fn refusal(status: StatusCode, message: &str, code: u64) -> Response {
    (status, Json(json!({"message": message, "code": code}))).into_response()
}

/// Discord's answer to a request of the bot in a chat it is not in.
pub fn missing_access() -> Response {
    refusal(StatusCode::FORBIDDEN, "Missing Access", 50001)
}

/// Discord's answer to a request on an interaction token past its 15 minutes.
pub fn invalid_token() -> Response {
    refusal(StatusCode::UNAUTHORIZED, "Invalid Webhook Token", 50027)
}

/// Discord's answer to a direct message the member cannot be sent.
pub fn cannot_send() -> Response {
    refusal(
        StatusCode::FORBIDDEN,
        "Cannot send messages to this user",
        50007,
    )
}

impl FakeState {
    /// Whether `channel` (as in a path) is a chat between members.
    pub fn is_chat(&self, channel: &str) -> bool {
        channel
            .parse::<u64>()
            .is_ok_and(|c| self.chats.lock().unwrap().contains_key(&c))
    }

    /// Whether the bot may post in `channel` as its direct message: not when it is the channel of
    /// a member who shares no server with it and did not install the app.
    pub fn may_post_direct(&self, channel: &str) -> bool {
        let Ok(c) = channel.parse::<u64>() else {
            return true;
        };
        match self.dms.lock().unwrap().get(&c) {
            Some(user) => self.may_be_written_to(*user),
            None => true,
        }
    }

    /// Whether the bot may send member `user` a direct message.
    pub fn may_be_written_to(&self, user: u64) -> bool {
        let shares_or_installed = !self.strangers.lock().unwrap().contains(&user)
            || self.installed.lock().unwrap().contains(&user);
        shares_or_installed && !self.closed_dms.lock().unwrap().contains(&user)
    }

    /// Whether interaction token `token` is past its 15 minutes.
    pub fn token_expired(&self, token: &str) -> bool {
        self.tokens
            .lock()
            .unwrap()
            .get(token)
            .is_some_and(|(at, aged)| at.elapsed() + *aged > TOKEN_LIFE)
    }

    /// Notes that interaction token `token` was issued now.
    pub fn issue_token(&self, token: &str) {
        self.tokens
            .lock()
            .unwrap()
            .insert(token.to_string(), (Instant::now(), Duration::ZERO));
    }

    /// Every token issued so far grows older by `by` (the test moved the bot's clock); tokens
    /// issued later start afresh.
    pub fn age_tokens(&self, by: Duration) {
        for (_, aged) in self.tokens.lock().unwrap().values_mut() {
            *aged += by;
        }
    }
}

impl super::Fake {
    /// The bot's direct messages to member `user` that Discord accepted: their bodies.
    pub fn directs_to(&self, user: u64) -> Vec<Value> {
        let dms = self.state.dms.lock().unwrap().clone();
        self.state
            .requests
            .lock()
            .unwrap()
            .iter()
            .filter(|r| r.is_new_post())
            .filter(|r| {
                r.path
                    .strip_prefix("/channels/")
                    .and_then(|p| p.strip_suffix("/messages"))
                    .and_then(|c| c.parse::<u64>().ok())
                    .is_some_and(|c| dms.get(&c) == Some(&user))
            })
            .filter_map(|r| r.json.clone())
            .collect()
    }

    /// The requests Discord refused for the limits of chats and tokens (403, 401), as
    /// `METHOD path status`.
    pub fn refused_by_the_limits(&self) -> Vec<String> {
        self.state
            .requests
            .lock()
            .unwrap()
            .iter()
            .filter(|r| matches!(r.status, 401 | 403))
            .map(|r| format!("{} {} {}", r.method, r.path, r.status))
            .collect()
    }
}

/// Whether Discord offers command `registered` (as the bot registered it) to a member in a
/// chat of context `context` (0 a server without the bot, 1 the bot's direct messages, 2
/// another chat): the member installed the app and the command reaches there.
pub fn command_offered(registered: &Value, context: u64, installed: bool) -> bool {
    let has = |key: &str, v: u64| {
        registered[key]
            .as_array()
            .is_some_and(|a| a.iter().any(|x| x.as_u64() == Some(v)))
    };
    installed && has("integration_types", 1) && has("contexts", context)
}

#[cfg(test)]
mod tests {
    #[test]
    fn commands_reach_chats_only_when_registered_so_and_installed() {
        use super::command_offered;
        use serde_json::json;
        let anywhere = json!({"integration_types": [0, 1], "contexts": [0, 1, 2]});
        let servers = json!({"integration_types": [0], "contexts": [0]});
        assert!(command_offered(&anywhere, 2, true));
        assert!(!command_offered(&anywhere, 2, false));
        assert!(!command_offered(&servers, 2, true));
        assert!(!command_offered(&json!({}), 1, true));
    }
}

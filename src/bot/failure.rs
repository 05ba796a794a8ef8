//! Why Discord did not take a post, in words for the member who asked for it: a passing failure
//! (worth trying again) or a refusal for good, with what is missing where.

use poise::serenity_prelude as serenity;
use serenity::http::HttpError;

use crate::db::ChannelId;
use crate::i18n::Text;
use crate::text;

/// Why a post did not go through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Worth trying again later.
    Passing(String),
    /// Discord refused for good (status, JSON error code, message).
    Refused {
        status: u16,
        code: isize,
        message: String,
    },
}

impl Failure {
    pub fn of(e: &serenity::Error) -> Failure {
        match e {
            serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => {
                let status = r.status_code.as_u16();
                if status == 429 || status >= 500 {
                    Failure::Passing(format!("HTTP {status}: {}", r.error.message))
                } else {
                    Failure::Refused {
                        status,
                        code: r.error.code,
                        message: r.error.message.clone(),
                    }
                }
            }
            serenity::Error::Http(other) => Failure::Passing(other.to_string()),
            serenity::Error::Io(e) => Failure::Passing(e.to_string()),
            other => Failure::Refused {
                status: 0,
                code: 0,
                message: other.to_string(),
            },
        }
    }
}

/// What a member reads about a refusal to post in `channel`: what is missing, and where.
pub fn explain_refusal(status: u16, code: isize, message: &str, channel: ChannelId) -> Text {
    let channel = channel.to_string();
    match code {
        50013 => text!("refused-missing-permissions", channel = channel),
        50001 => text!("refused-missing-access", channel = channel),
        10003 => text!("refused-unknown-channel", channel = channel),
        _ => text!(
            "refused-other",
            channel = channel,
            status = status,
            code = code as i64,
            message = message
        ),
    }
}

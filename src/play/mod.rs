//! The play layer: every game action and everything around it that does not speak Discord.
//!
//! Front ends — the Discord bot ([`crate::bot`]), and whatever else serves players — parse what
//! a member sent, call an [`actions`] function and show its answer. An action decides on the
//! stored state, stores the change and queues what must be announced, in one transaction; the
//! bot's delivery task posts that queue. Beside the actions live the [`timers`] (deadlines,
//! reminders, expiry), the bot [`opponent`], the [`schedule`] (deadlines and vacations), the
//! [`access`] rules (who may do what), the move [`picker`] (a legal move step by step), and the
//! texts of announcements ([`words`], [`terms`], [`present`]).
//!
//! Nothing here imports serenity or poise; a request refused is one [`Refusal`], carried in the
//! layer's one error type, [`Error`].

pub mod access;
pub mod actions;
pub mod opponent;
pub mod picker;
pub mod present;
pub mod schedule;
pub mod terms;
pub mod timers;
pub mod words;

use crate::db::{DbError, Executor, GuildId, Pool, UserId};
use crate::i18n::{Lang, Text};

/// A member's request refused: nothing changed. Shown to them privately, in their language,
/// with what to do instead.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Refusal(pub Text);

impl Refusal {
    pub fn new(text: Text) -> Refusal {
        Refusal(text)
    }
}

/// Why an action did not happen.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The member's mistake, or a state that forbids the request: nothing changed.
    #[error("{}", .0 .0)]
    Refused(Refusal),
    /// Ours: logged with its cause; the member sees an apology.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl Error {
    /// A refusal with this text.
    pub fn refused(text: Text) -> Error {
        Error::Refused(Refusal(text))
    }
}

impl From<Refusal> for Error {
    fn from(r: Refusal) -> Error {
        Error::Refused(r)
    }
}

impl From<DbError> for Error {
    fn from(e: DbError) -> Error {
        match e {
            DbError::Conflict(id) => Error::refused(crate::text!("game-changed", game = id)),
            other => Error::Internal(other.into()),
        }
    }
}

impl From<sqlx::Error> for Error {
    fn from(e: sqlx::Error) -> Error {
        Error::Internal(e.into())
    }
}

/// The language of a server's public messages (English outside servers and by default).
pub async fn server_lang(ex: impl Executor<'_>, guild: Option<GuildId>) -> Result<Lang, DbError> {
    Ok(match guild {
        Some(g) => crate::db::server_language(ex, g)
            .await?
            .map(|l| Lang::of(&l))
            .unwrap_or_default(),
        None => Lang::EN,
    })
}

/// The language of a member's direct messages: the one they last used.
pub async fn member_lang(ex: impl Executor<'_>, user: UserId) -> Result<Lang, DbError> {
    Ok(crate::db::player_locale(ex, user)
        .await?
        .map(|l| Lang::of(&l))
        .unwrap_or_default())
}

/// Records the languages a request shows: the member's (for their direct messages) and the
/// server's (for its public messages). The member must be known.
pub async fn note_locales(
    pool: &Pool,
    user: UserId,
    guild: Option<GuildId>,
    locale: &str,
    guild_locale: Option<&str>,
    now: i64,
) -> Result<(), DbError> {
    if !locale.is_empty() {
        crate::db::note_player_locale(pool, user, locale).await?;
    }
    if let (Some(g), Some(l)) = (guild, guild_locale.filter(|l| !l.is_empty())) {
        crate::db::note_server_locale(pool, g, l, now).await?;
    }
    Ok(())
}

//! The play layer: every game action and everything around it that does not speak Discord.
//!
//! Front ends — the Discord bot ([`crate::bot`]), and whatever else serves players — parse what
//! a member sent, call an [`actions`] function and show its answer. An action decides on the
//! stored state, stores the change and queues what must be announced, in one transaction; the
//! bot's delivery task posts that queue. Beside the actions live the [`timers`] (deadlines,
//! reminders, expiry), the bot [`opponent`], the [`schedule`] (deadlines and vacations), the
//! [`access`] rules (who may do what), the move [`picker`] (a legal move step by step), and the
//! texts of announcements ([`words`], [`terms`], [`present`]). Every committed change of a game is
//! told to whoever shows games live through [`changes`]; [`links`] are the players' private links
//! to a game's web board; [`local`] games are played on the web page alone, without Discord;
//! members keep private [`notes`] on games, and players conditional moves ([`plans`]); servers
//! get a [`daily`] puzzle.
//!
//! Tournaments are actions too ([`actions::create_tournament`], [`actions::join_tournament`],
//! [`actions::start_tournament`], [`actions::withdraw`], …): their games are ordinary games, each
//! game's end records its pairing's result in the same transaction ([`actions::after_game`]
//! advances the event), and the timers start events at the end of sign-up and take up a round
//! nothing advanced.
//!
//! Nothing here imports serenity or poise; a request refused is one [`Refusal`], carried in the
//! layer's one error type, [`Error`].
//!
//! # Correspondence play
//!
//! - Each move gives the player to move the game's time per move ([`schedule::deadline_after`]);
//!   games against the bot have no clock. The [`timers`] task ends a game whose deadline passed as
//!   a loss on time, reminds the player to move when half the time is left and again a quarter of
//!   it (at most a day) before the deadline ([`schedule::reminder_due`]), and expires challenges
//!   after 24 hours. Each item is claimed by a conditional write in the transaction that queues its
//!   announcement, so it is handled once, also after a restart or by one of several processes.
//! - A vacation moves the deadline of every game waiting for the member's move; a move made to them
//!   while away gives a full turn from the vacation's end; 30 days in any 365.
//! - Caps ([`actions::MAX_OPEN_CHALLENGES`], one open challenge per pair and game,
//!   [`actions::MAX_BOT_GAMES`], the vacation days) are checked after taking the member's row
//!   ([`crate::db::take_players`]), so requests arriving together are counted one after the other.
//!
//! How this layer sits between the bot and the storage, and its conventions, is on [the crate's
//! front page](crate).

pub mod access;
pub mod actions;
pub mod changes;
pub mod chats;
pub mod coach;
pub mod daily;
pub mod learn;
pub mod links;
pub mod lobby;
pub mod local;
pub mod notes;
pub mod opponent;
pub mod picker;
pub mod plans;
pub mod present;
pub mod puzzles;
pub mod schedule;
pub mod seats;
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
    /// Ours: logged with its cause; the member sees an apology, or, when the database cannot be
    /// reached ([`Error::storage_unavailable`]), that nothing was done.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl Error {
    /// A refusal with this text.
    pub fn refused(text: Text) -> Error {
        Error::Refused(Refusal(text))
    }

    /// Whether the request failed because the database could not be reached: then nothing was
    /// stored, and the member is told so ("storage-unavailable") instead of an apology.
    pub fn storage_unavailable(&self) -> bool {
        let Error::Internal(e) = self else {
            return false;
        };
        e.chain().any(|cause| {
            let sqlx =
                cause
                    .downcast_ref::<sqlx::Error>()
                    .or(match cause.downcast_ref::<DbError>() {
                        Some(DbError::Sqlx(s)) => Some(s),
                        _ => None,
                    });
            sqlx.is_some_and(crate::db::is_unavailable)
        })
    }

    /// The message id of what the member reads about an internal failure.
    pub fn apology_id(&self) -> &'static str {
        if self.storage_unavailable() {
            "storage-unavailable"
        } else {
            "apology"
        }
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

/// The colours of a server's pictures: the theme its moderators chose, else dark (and dark
/// outside servers). A stored name this version does not know also reads as dark.
pub async fn server_theme(
    ex: impl Executor<'_>,
    guild: Option<GuildId>,
) -> Result<crate::render::Theme, DbError> {
    Ok(match guild {
        Some(g) => crate::db::server_theme(ex, g)
            .await?
            .and_then(|t| crate::render::Theme::from_name(&t))
            .unwrap_or_default(),
        None => crate::render::Theme::default(),
    })
}

/// The language of a member's direct messages: the one they last used.
pub async fn member_lang(ex: impl Executor<'_>, user: UserId) -> Result<Lang, DbError> {
    Ok(crate::db::player_locale(ex, user)
        .await?
        .map(|l| Lang::of(&l))
        .unwrap_or_default())
}

/// Records what a request shows: the member's language (for their direct messages), the
/// server's (for its public messages), and that the member was seen in the server (its open
/// seeks and challenges are in their lobby). The member must be known.
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
    if let Some(g) = guild {
        crate::db::note_server_member(pool, g, user, now).await?;
    }
    if let (Some(g), Some(l)) = (guild, guild_locale.filter(|l| !l.is_empty())) {
        crate::db::note_server_locale(pool, g, l, now).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database that cannot be reached is told as such, whichever way the failure came up;
    /// a failed statement or a bug is an apology.
    #[tokio::test]
    async fn an_unreachable_database_is_told_as_such() {
        let timed_out = Error::from(DbError::Sqlx(sqlx::Error::PoolTimedOut));
        assert!(timed_out.storage_unavailable());
        assert_eq!(timed_out.apology_id(), "storage-unavailable");
        let wrapped =
            Error::Internal(anyhow::Error::new(sqlx::Error::PoolClosed).context("loading"));
        assert!(wrapped.storage_unavailable());
        let bug = Error::Internal(anyhow::anyhow!("no move found"));
        assert_eq!(bug.apology_id(), "apology");
        let row = Error::from(DbError::Sqlx(sqlx::Error::RowNotFound));
        assert!(!row.storage_unavailable());
        assert!(!Error::refused(crate::text!("stale-button")).storage_unavailable());
        // A real pool with nothing behind it: refused within the acquire timeout, as unavailable.
        sqlx::any::install_default_drivers();
        let pool = sqlx::any::AnyPoolOptions::new()
            .acquire_timeout(crate::db::ACQUIRE_TIMEOUT)
            .connect_lazy("postgres://hexcord:x@127.0.0.1:1/hexcord")
            .unwrap();
        let started = std::time::Instant::now();
        let e = Error::from(crate::db::fetch_game(&pool, 1).await.unwrap_err());
        assert!(e.storage_unavailable(), "{e:#}");
        assert!(started.elapsed() < crate::db::ACQUIRE_TIMEOUT + std::time::Duration::from_secs(1));
    }
}

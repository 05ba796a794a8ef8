//! Local play: hexcord on the operator's own machine without Discord (no `DISCORD_TOKEN`), its
//! games started and played on the web page ([`crate::web::local`]).
//!
//! A local game is an ordinary game: started by the same actions as in Discord
//! ([`actions::start_bot_game`], which `/play` calls, or [`actions::start_hot_seat_game`]), stored
//! in the same tables, played on the same game page through the same move action, and answered
//! by the same bot [`Opponent`].
//!
//! # Identities
//!
//! The game tables name players and channels by Discord id. Local games use reserved ids
//! ([`crate::play::seats`], which the links and actions read too) below
//! 2²²: a Discord id (a snowflake) carries its creation time, in milliseconds since 2015, from
//! bit 22 up, and no id was made in 2015's first millisecond, so these never name a member, a
//! bot or a channel of Discord; a database shared with the Discord bot later keeps both apart.
//!
//! - [`YOU`]: the person at the screen ("You"), the human against the bot and the first of two
//!   players at one screen;
//! - [`PLAYER_TWO`]: the second player at one screen ("Player 2");
//! - [`BOT`]: the bot's seat (named [`BOT_NAME`]); the bot running on Discord has its own id, so
//!   it never moves in local games, which are resumed in local mode;
//! - [`CHANNEL`]: the place of every local game, outside any server.
//!
//! The players' names are stored in the language of the page that started the last game.
//!
//! # Nothing reaches Discord
//!
//! A local game queues no announcement (its boards, its thread, direct messages: see
//! `enqueue_board`), so the delivery task has nothing to post or retry for it; it has no
//! deadline, so the timers neither remind nor end it on time; it is unrated. Anyone who can open
//! the page can play: local mode is meant for the operator's own machine.
//!
//! # Two players at one screen
//!
//! The link of a game between [`YOU`] and [`PLAYER_TWO`] plays for whoever is to move
//! ([`crate::play::links::holder`]): the one page plays both sides.

use crate::ai::Level;
use crate::db::{self, GameRow};
use crate::games::Options;
use crate::i18n::{tr, Lang};
use crate::play::actions::{self, BotGameRequest, Core};
use crate::play::opponent::Opponent;
use crate::play::{links, Error};
use crate::text;

pub use super::seats::{is_hot_seat, is_local, BOT, CHANNEL, PLAYER_TWO, YOU};

/// The bot's name in local games.
pub const BOT_NAME: &str = "hexcord";

/// How many games the local page lists (those in play first, then the most recent).
pub const LISTED: i64 = 50;

/// Who plays against the person at the screen.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Against {
    /// The bot, at a level.
    Bot(Level),
    /// A second player at the same screen.
    HotSeat,
}

/// A new local game as the page asks for it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NewGame {
    pub options: Options,
    pub against: Against,
    /// Against the bot: the person at the screen moves first.
    pub you_first: bool,
}

/// Starts a local game (its players' names in `lang`); the bot is woken when it moves first.
/// Returns the game's id and the link token that plays it from the page.
pub async fn start(
    core: &Core,
    bot: &Opponent,
    new: &NewGame,
    lang: Lang,
) -> Result<(i64, String), Error> {
    let now = core.clock.now();
    for (id, name) in [
        (YOU, tr(lang, "local-you")),
        (PLAYER_TWO, tr(lang, "local-player-two")),
        (BOT, BOT_NAME.to_string()),
    ] {
        db::upsert_player(&core.pool, id, &name, now).await?;
    }
    let id = match new.against {
        Against::Bot(level) => {
            let id = actions::start_bot_game(
                core,
                &BotGameRequest {
                    guild_id: None,
                    channel_id: CHANNEL,
                    member: YOU,
                    bot: BOT,
                    options: new.options.clone(),
                    level,
                    member_first: new.you_first,
                    coached: false,
                },
            )
            .await?;
            bot.wake(id);
            id
        }
        Against::HotSeat => {
            actions::start_hot_seat_game(core, [YOU, PLAYER_TWO], &new.options).await?
        }
    };
    let token = links::issue(&core.pool, id, YOU, now).await?;
    Ok((id, token))
}

/// A new link token for local game `id` (the stored ones are hashed, so a game is resumed with a
/// new one); a game that is not local is refused as unknown.
pub async fn open(core: &Core, id: i64) -> Result<String, Error> {
    let row = db::fetch_game(&core.pool, id)
        .await?
        .filter(is_local)
        .ok_or_else(|| Error::refused(text!("web-no-such-game", game = id)))?;
    links::issue(&core.pool, row.id, YOU, core.clock.now()).await
}

/// The local games, those in play first, then the most recent ([`LISTED`] at most).
pub async fn games(core: &Core) -> Result<Vec<GameRow>, Error> {
    Ok(db::games_in_channel(&core.pool, CHANNEL, LISTED).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reserved ids are below every Discord id: a snowflake made after 2015's first
    /// millisecond is at least 2²².
    #[test]
    fn the_reserved_ids_are_never_discords() {
        for id in [CHANNEL.get(), YOU.get(), PLAYER_TWO.get(), BOT.get()] {
            assert!(id > 0 && id < 1 << 22, "{id}");
        }
        let ids = [YOU, PLAYER_TWO, BOT];
        assert!(ids
            .iter()
            .all(|a| ids.iter().filter(|b| *b == a).count() == 1));
    }
}

//! Play outside servers: games in direct messages and group chats, where a member installed
//! hexcord to their own account (a *user-installed app*) and uses its commands.
//!
//! # What Discord allows there
//!
//! From Discord's developer documentation (*Application Commands*: `integration_types`,
//! `contexts`; *Receiving and Responding*: the interaction object's `context` and
//! `authorizing_integration_owners`, interaction tokens, follow-ups; the change log *User-Installed
//! Apps General Availability*, 27 June 2024, discord/discord-api-docs#6958):
//!
//! - A command registered with `integration_types` `[0, 1]` (installed to a server, to a member)
//!   and `contexts` `[0, 1, 2]` (a server, the bot's direct messages, other direct and group
//!   chats) is offered to a member who installed the app wherever they are
//!   ([`crate::bot::commands::Reach`]). A member who did not install it cannot run its commands
//!   in a chat (they are not in their command list), but sees the bot's answers there and may
//!   press their buttons and menus: such a press is an interaction of its own, authorized by the
//!   installation of the member whose command made the message.
//! - The bot is no member of a direct or group chat between members: it cannot post there on its
//!   own (`POST /channels/{id}/messages` answers 403, code 50001 *Missing Access*). It speaks only
//!   in answers to interactions: the answer itself, then follow-ups and edits of the answer
//!   through the interaction's token, a webhook valid for 15 minutes (after that, 401, code 50027
//!   *Invalid Webhook Token*); at most five follow-ups per interaction for a user-installed app.
//! - The bot may send a direct message of its own (`POST /users/@me/channels`, then a post) to a
//!   member who shares a server with it or who installed the app to their account; anyone else
//!   is refused (403, code 50007). hexcord notes which members it may reach so
//!   ([`crate::db::note_reachable`]: acting in a server, in the bot's direct messages, or through
//!   their own installation) and never tries the others.
//!
//! # How hexcord plays there
//!
//! A game started in a chat is stored without a server ([`is_chat_game`]); so is one started in
//! a server that did not install hexcord, where a member's own installation brought the command
//! (`authorizing_integration_owners` names no installation in that server) and the bot may not
//! post either. Nothing of it is
//! posted in the chat outside an interaction: a move's answer shows the new board to the chat
//! (the same words as a server's board, with the Move button, which the opponent presses even
//! without the app); accepting a challenge answers with the first board. The player to move is
//! told by the bot's own direct message with the board, where Discord allows it; otherwise the
//! mover is told the opponent could not be notified, and the board waits in the chat for them.
//! Reminders and the end of a game on time reach the players the same way (a direct message
//! where allowed). Ratings of such games are kept in one pool of their own ([`RATINGS`]): a
//! member's rating across every chat, which no server's leaderboard includes.

use crate::db::{GameRow, GuildId};

/// The rating pool of the games played outside servers: a reserved id below 2²², which no
/// Discord server has (a Discord id carries its creation time from bit 22 up; see
/// [`crate::play::local`] for the same reasoning on players and channels).
pub const RATINGS: GuildId = GuildId((1 << 22) - 5);

/// Whether `row` is a game played in a direct or group chat (no server, not a local game).
pub fn is_chat_game(row: &GameRow) -> bool {
    row.guild_id.is_none() && !crate::play::local::is_local(row)
}

/// The rating pool of a game: its server's, or [`RATINGS`] for a chat game; `None` for a
/// local game.
pub fn rating_pool(row: &GameRow) -> Option<GuildId> {
    match row.guild_id {
        Some(g) => Some(g),
        None if is_chat_game(row) => Some(RATINGS),
        None => None,
    }
}

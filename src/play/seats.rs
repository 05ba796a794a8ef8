//! The ids local games reserve below every Discord id, and whether a game is local: what the
//! links ([`crate::play::links`]), the actions and local mode ([`crate::play::local`], whose
//! documentation tells why these ids never name anything of Discord) all need. The place of the
//! games matched across servers ([`IN_DIRECT`]) is reserved the same way.

use crate::db::{ChannelId, GameRow, UserId};

/// Below every Discord id (see [`crate::play::local`]).
const RESERVED: u64 = 1 << 22;

/// The place of every local game.
pub const CHANNEL: ChannelId = ChannelId(RESERVED - 1);
/// The person at the screen.
pub const YOU: UserId = UserId(RESERVED - 2);
/// The second player at one screen.
pub const PLAYER_TWO: UserId = UserId(RESERVED - 3);
/// The bot's seat in local games.
pub const BOT: UserId = UserId(RESERVED - 4);
/// The place of every game matched across servers: no channel, for it is played in each
/// player's direct messages with the bot (a game outside servers,
/// [`crate::play::chats::is_chat_game`]); a text naming it as a channel reads "your direct
/// messages" ([`crate::i18n`]). (`RESERVED - 5` is the rating pool of the games outside servers.)
pub const IN_DIRECT: ChannelId = ChannelId(RESERVED - 6);

/// Whether `row` is a local game.
pub fn is_local(row: &GameRow) -> bool {
    row.channel_id == CHANNEL && row.guild_id.is_none()
}

/// Whether `row` is a local game of two players at one screen.
pub fn is_hot_seat(row: &GameRow) -> bool {
    is_local(row) && !row.players.contains(&BOT)
}

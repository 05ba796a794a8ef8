//! hexcord: inpHeXion and EXXIT for Discord — rules engines, pictures, the engine protocol and
//! the bot.
pub mod games;
pub mod hex;
pub mod render;

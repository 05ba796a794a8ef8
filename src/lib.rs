//! hexcord: inpHeXion and EXXIT for Discord — rules engines, pictures, the engine protocol and
//! the bot.
pub mod ai;
pub mod analysis;
pub mod arena;
pub mod bot;
pub mod clock;
pub mod config;
pub mod db;
pub mod engine;
pub mod games;
pub mod hex;
pub mod i18n;
pub mod play;
pub mod rating;
pub mod render;
pub mod standings;

//! End-to-end: the real `hexcord` binary against a fake Discord (`server`), driven by
//! INTERACTION_CREATE events as Discord sends them, every request checked against Discord's
//! OpenAPI description (`spec`). `discord` plays Discord and the members; `common` holds what the
//! scenarios share; each other module is one group of scenarios.

mod common;
mod discord;
mod server;
mod spec;

mod activity;
mod analysis;
mod bot_opponent;
mod chats;
mod clock;
mod daily;
mod faults;
mod games;
mod japanese;
mod learn;
mod learn_page;
mod move_button;
mod notes;
mod open_challenges;
mod pacing;
mod processes;
mod puzzles;
mod recovery;
mod seeks;
mod threads;
mod timers;
mod tournaments;
mod web;
mod web_page;
mod within_limits;

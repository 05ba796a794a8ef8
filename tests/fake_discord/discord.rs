//! Playing the part of Discord and of the members: the members, interactions as Discord sends
//! them and the answers they get. Beside it: members at play (`play`), the Move button and its
//! picker (`picker`), what the bot stored (`stored`) and the bot process (`bot`).

// Paths spelled out: the benches (benches/bot.rs, benches/scale.rs) include this file by its
// path, which would look for its modules beside it instead of in discord/.
#[path = "discord/bot.rs"]
mod bot;
#[path = "discord/picker.rs"]
mod picker;
#[path = "discord/play.rs"]
mod play;
#[path = "discord/stored.rs"]
mod stored;

pub use bot::Bot;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::{json, Value};

use crate::server::{
    guild_of_channel, Fake, Recorded, APP_ID, BOT_ID, CHANNEL2_ID, CHANNEL_ID, GUILD_ID,
};

pub struct Member {
    pub id: u64,
    pub name: &'static str,
    pub bot: bool,
    pub permissions: u64,
}

/// Ordinary permissions (send messages, view channel, …) without Manage Server.
pub const MEMBER_PERMS: u64 = 0x0000_0000_0006_4c40;
const MANAGE_GUILD: u64 = 1 << 5;

pub const ANN: Member = Member {
    id: 930_000_000_000_000_001,
    name: "ann",
    bot: false,
    permissions: MEMBER_PERMS,
};
pub const BOB: Member = Member {
    id: 930_000_000_000_000_002,
    name: "bob",
    bot: false,
    permissions: MEMBER_PERMS,
};
pub const CAT: Member = Member {
    id: 930_000_000_000_000_003,
    name: "cat",
    bot: false,
    permissions: MEMBER_PERMS,
};
pub const MOD: Member = Member {
    id: 930_000_000_000_000_004,
    name: "mod",
    bot: false,
    permissions: MEMBER_PERMS | MANAGE_GUILD,
};
/// Members whose display names take all of Discord's 32 characters, in Latin letters and in
/// Japanese.
pub const LONG: Member = Member {
    id: 930_000_000_000_000_005,
    name: "Alexandrina Konstantinopoulou-Sm",
    bot: false,
    permissions: MEMBER_PERMS,
};
pub const LONG_JA: Member = Member {
    id: 930_000_000_000_000_006,
    name: "長い名前の長い名前の長い名前の長い名前の長い名前の長い名前の会員",
    bot: false,
    permissions: MEMBER_PERMS,
};
/// A member who shares no server with the bot (in chats only; see [`Discord::stranger`]).
pub const EVE: Member = Member {
    id: 930_000_000_000_000_007,
    name: "eve",
    bot: false,
    permissions: MEMBER_PERMS,
};
pub const OTHER_BOT: Member = Member {
    id: 930_000_000_000_000_009,
    name: "robot",
    bot: true,
    permissions: MEMBER_PERMS,
};

fn user_json(m: &Member) -> Value {
    json!({"id": m.id.to_string(), "username": m.name, "discriminator": "0", "global_name": m.name,
           "avatar": null, "bot": m.bot, "public_flags": 0})
}

fn member_json(m: &Member, with_user: bool) -> Value {
    let mut v = json!({"roles": [], "joined_at": "2024-01-01T00:00:00+00:00", "deaf": false, "mute": false,
                       "flags": 0, "pending": false, "nick": null, "avatar": null,
                       "permissions": m.permissions.to_string()});
    if with_user {
        v["user"] = user_json(m);
    }
    v
}

/// The bot's answer to one interaction.
#[derive(Clone, Debug)]
pub struct Answer {
    pub callback_type: u64,
    pub ephemeral: bool,
    pub content: String,
    pub components: Value,
    pub embeds: Value,
    pub files: Vec<Vec<u8>>,
    pub allowed_users: Vec<u64>,
    /// The answer's message as sent (its `attachments` carry the pictures' descriptions).
    pub raw: Value,
}

/// A message with buttons that a member can press.
#[derive(Clone, Debug)]
pub struct Pressable {
    pub message: Value,
    pub ids: HashMap<String, String>,
}

impl Pressable {
    pub fn from_answer(ans: &Answer, fake: &Fake) -> Pressable {
        let mut ids = HashMap::new();
        for row in ans.components.as_array().into_iter().flatten() {
            for b in row["components"].as_array().into_iter().flatten() {
                if let Some(id) = b["custom_id"].as_str() {
                    let verb = id.split(':').nth(1).unwrap_or("").to_string();
                    ids.insert(verb, id.to_string());
                }
            }
        }
        let message = message_json(
            fake.new_id(),
            &ans.content,
            ans.components.clone(),
            ans.ephemeral,
        );
        Pressable { message, ids }
    }

    /// The confirmation button of a resignation, as if shown to anyone.
    pub fn resign(game: i64) -> Pressable {
        Pressable::button("resign", &format!("hx:resign:{game}"))
    }

    /// A message with one button whose `custom_id` is `custom` (pressed as `verb`), as if the bot
    /// had shown it: a forged or stale button.
    pub fn button(verb: &str, custom: &str) -> Pressable {
        let components = json!([{"type": 1, "components": [{"type": 2, "style": 4, "label": "Press", "custom_id": custom, "disabled": false}]}]);
        Pressable {
            message: message_json(990_000_000_000_000_000, "A button", components, true),
            ids: HashMap::from([(verb.to_string(), custom.to_string())]),
        }
    }
}

fn message_json(id: u64, content: &str, components: Value, ephemeral: bool) -> Value {
    let mut components = components;
    for row in components.as_array_mut().into_iter().flatten() {
        for b in row["components"].as_array_mut().into_iter().flatten() {
            if b.get("disabled").is_none() {
                b["disabled"] = json!(false);
            }
        }
    }
    json!({
        "id": id.to_string(), "channel_id": CHANNEL_ID.to_string(), "guild_id": GUILD_ID.to_string(), "type": 20,
        "content": content,
        "author": {"id": BOT_ID.to_string(), "username": "hexcord", "discriminator": "0", "global_name": null,
                   "avatar": null, "bot": true, "public_flags": 0},
        "mentions": [], "mention_roles": [], "attachments": [], "embeds": [],
        "timestamp": "2025-01-01T00:00:00+00:00", "edited_timestamp": null,
        "flags": if ephemeral { 64 } else { 0 }, "components": components,
        "pinned": false, "mention_everyone": false, "tts": false, "application_id": APP_ID.to_string()
    })
}

/// A game as the last board showed it.
#[derive(Clone, Debug)]
pub struct GameState {
    pub id: i64,
    pub to_move: u64,
    pub caption: String,
}

/// The game a board caption shows: its number and the player to move.
pub fn parse_state(caption: &str) -> GameState {
    // English captions say "game #12 … to move", Japanese ones "対局 #12 … の手番".
    let id = caption
        .split("game #")
        .nth(1)
        .or_else(|| caption.split("対局 #").nth(1))
        .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no game number in {caption:?}"));
    let to_move = caption
        .lines()
        .find(|l| l.contains("to move") || l.contains("の手番"))
        .and_then(|l| l.split("<@").nth(1))
        .and_then(|s| s.split('>').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    GameState {
        id,
        to_move,
        caption: caption.to_string(),
    }
}

/// How an English board caption names the move it shows: `Move 12 · <@1>: …`.
pub fn move_marker(ply: impl std::fmt::Display) -> String {
    format!("Move {ply} · ")
}

/// The move an English board caption shows, if it shows one.
pub fn caption_ply(caption: &str) -> Option<usize> {
    caption
        .split("Move ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
}

/// Every move an English board caption names, in order: one, or several when the boards of
/// moves queued at once were folded into one post.
pub fn caption_plies(caption: &str) -> Vec<usize> {
    caption
        .split("Move ")
        .skip(1)
        .filter_map(|rest| rest.split_once(" · ").and_then(|(n, _)| n.parse().ok()))
        .collect()
}

pub fn member(id: u64) -> &'static Member {
    [&ANN, &BOB, &CAT, &MOD, &LONG, &LONG_JA, &EVE]
        .into_iter()
        .find(|m| m.id == id)
        .unwrap_or_else(|| panic!("no member {id}"))
}

pub struct Discord {
    pub fake: Fake,
    pub db_url: String,
    pub dir: PathBuf,
    /// The bot's clock (a file holding Unix seconds), when the test controls time.
    pub clock: Option<PathBuf>,
    /// Where members use commands and buttons now: the games channel or one of its threads.
    here: std::sync::atomic::AtomicU64,
    /// The Discord language of the members and of the server (`en-US`, `ja`).
    locale: std::sync::Mutex<String>,
    /// The games channel of the server members act in (`CHANNEL_ID` or `CHANNEL2_ID`).
    server: std::sync::atomic::AtomicU64,
    /// The chat members act in instead, when they do ([`Discord::in_chat`]).
    chat: std::sync::Mutex<Option<InChat>>,
    /// Whether members act in their direct messages with the bot instead ([`Discord::in_dm`]).
    dm: std::sync::atomic::AtomicBool,
}

/// A chat between members where they act: its channel, and the member whose installation of
/// the app the bot's messages there came through (presses on them are authorized by it). With
/// `server`, the channel is one of that server, which did not install the app (the bot is no
/// member): the command reached it through the member's own installation.
#[derive(Clone, Copy, Debug)]
pub struct InChat {
    pub channel: u64,
    pub installer: u64,
    pub server: Option<u64>,
}

impl Drop for Discord {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("kept for inspection: {}", self.dir.display());
            return;
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Discord {
    pub async fn start(name: &str) -> Discord {
        static N: AtomicU32 = AtomicU32::new(0);
        let fake = Fake::start().await;
        let dir = std::env::temp_dir().join(format!(
            "hexcord-e2e-{name}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let db_url = format!("sqlite://{}", dir.join("hexcord.db").display());
        eprintln!("bot log: {}", dir.join("bot.log").display());
        Discord {
            fake,
            db_url,
            dir,
            clock: None,
            here: std::sync::atomic::AtomicU64::new(CHANNEL_ID),
            server: std::sync::atomic::AtomicU64::new(CHANNEL_ID),
            locale: std::sync::Mutex::new("en-US".to_string()),
            chat: std::sync::Mutex::new(None),
            dm: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// A fake Discord whose bot reads the time from a file (set to `t` now) and scans its timers
    /// every 100 ms.
    pub async fn start_with_clock(name: &str, t: i64) -> Discord {
        let mut d = Discord::start(name).await;
        d.clock = Some(d.dir.join("clock"));
        d.set_clock(t);
        d
    }

    /// Moves the bot's clock (written whole, then renamed, so the bot never reads half a file).
    pub fn set_clock(&self, t: i64) {
        let path = self.clock.as_ref().expect("a test-controlled clock");
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, t.to_string()).expect("clock file");
        std::fs::rename(&tmp, path).expect("clock file");
    }

    /// Waits for a message the bot posts by itself (not an interaction answer) whose content
    /// contains `needle`, in the channel `channel` or its threads (any channel when `None`).
    pub async fn posted(&self, from: usize, channel: Option<u64>, needle: &str) -> Recorded {
        let (_, r) = self
            .fake
            .wait_for(from, &format!("a message with `{needle}`"), |r| {
                r.method == "POST"
                    && r.path.starts_with("/channels/")
                    && r.path.ends_with("/messages")
                    && channel.is_none_or(|c| self.fake.in_channel(&r.path, c))
                    && r.json
                        .as_ref()
                        .is_some_and(|j| j["content"].as_str().is_some_and(|c| c.contains(needle)))
            })
            .await;
        r
    }

    /// Warnings and errors the bot logged (a dropped event shows up here as serenity's warning).
    pub fn log_problems(&self) -> Vec<String> {
        let log = std::fs::read_to_string(self.dir.join("bot.log")).unwrap_or_default();
        log.lines()
            .filter(|l| l.contains("WARN") || l.contains("ERROR") || l.contains("panicked"))
            .map(str::to_string)
            .collect()
    }

    /// Members and the server use Discord in `locale` from now on.
    pub fn speak(&self, locale: &str) {
        *self.locale.lock().unwrap() = locale.to_string();
    }

    /// Members act in server `n` (0: `GUILD_ID`, 1: `GUILD2_ID`), in its games channel, from now
    /// on.
    pub fn in_server(&self, n: usize) {
        let channel = [CHANNEL_ID, CHANNEL2_ID][n];
        self.server.store(channel, Ordering::Relaxed);
        self.here.store(channel, Ordering::Relaxed);
    }

    /// The games channel of the server members act in.
    pub fn channel(&self) -> u64 {
        self.server.load(Ordering::Relaxed)
    }

    /// The server members act in.
    pub fn guild(&self) -> u64 {
        guild_of_channel(self.channel())
    }

    /// Members act in `channel` from now on (the games channel or a thread of it).
    pub fn act_in(&self, channel: u64) {
        self.here.store(channel, Ordering::Relaxed);
    }

    /// A direct (two members) or group chat between `members`, the bot in none; returns its
    /// channel.
    pub fn open_chat(&self, members: &[&Member]) -> u64 {
        let id = self.fake.new_id();
        let chat = crate::server::chats::Chat {
            members: members.iter().map(|m| m.id).collect(),
        };
        self.fake.state.chats.lock().unwrap().insert(id, chat);
        id
    }

    /// `m` installs the app to their account.
    pub fn install(&self, m: &Member) {
        self.fake.state.installed.lock().unwrap().insert(m.id);
    }

    /// `m` closes (`true`) or opens again direct messages from server members: the bot's direct
    /// messages to them are refused meanwhile.
    pub fn close_dms(&self, m: &Member, closed: bool) {
        let mut set = self.fake.state.closed_dms.lock().unwrap();
        match closed {
            true => set.insert(m.id),
            false => set.remove(&m.id),
        };
    }

    /// `m` shares no server with the bot.
    pub fn stranger(&self, m: &Member) {
        self.fake.state.strangers.lock().unwrap().insert(m.id);
    }

    /// Members act in `chat` from now on (`None`: back in the server), the bot's messages there
    /// coming through `installer`'s installation of the app.
    pub fn in_chat(&self, chat: Option<InChat>) {
        *self.chat.lock().unwrap() = chat;
    }

    /// `installer` installs the app, opens a chat between `members` (the bot in none, no server
    /// shared through it) and members act there from now on; returns the chat's channel.
    pub fn enter_chat(&self, installer: &Member, members: &[&Member]) -> u64 {
        self.install(installer);
        let channel = self.open_chat(members);
        self.in_chat(Some(InChat {
            channel,
            installer: installer.id,
            server: None,
        }));
        channel
    }

    /// Whether Discord offers command `name` to `who` where they act now: in a server always; in
    /// a chat only through their own installation, for a command registered to reach there.
    pub fn offered(&self, who: &Member, name: &str) -> bool {
        let Some(chat) = *self.chat.lock().unwrap() else {
            return true;
        };
        let context = if chat.server.is_some() { 0 } else { 2 };
        let registered = self
            .fake
            .state
            .registered
            .lock()
            .unwrap()
            .get(name)
            .cloned();
        let installed = self.fake.state.installed.lock().unwrap().contains(&who.id);
        registered.is_some_and(|r| crate::server::chats::command_offered(&r, context, installed))
    }

    /// Members act in their own direct messages with the bot from now on (`false`: back where
    /// they acted before).
    pub fn in_dm(&self, on: bool) {
        self.dm.store(on, Ordering::Relaxed);
    }

    pub fn interaction(
        &self,
        kind: u64,
        who: &Member,
        data: Value,
        message: Option<Value>,
    ) -> (String, Value) {
        if self.dm.load(Ordering::Relaxed) {
            return self.dm_interaction(kind, who, data, message);
        }
        let chat = *self.chat.lock().unwrap();
        if let Some(chat) = chat {
            return self.chat_interaction(kind, who, data, message, chat);
        }
        let here = self.here.load(Ordering::Relaxed);
        self.interaction_at(kind, who, data, message, here, self.channel())
    }

    /// An interaction in a chat between members (context 2), as Discord sends it: no server, the
    /// member as a user, the chat as the channel, authorized by the installation of the member
    /// who runs a command, or for a press by the one whose command made the message pressed.
    fn chat_interaction(
        &self,
        kind: u64,
        who: &Member,
        data: Value,
        message: Option<Value>,
        chat: InChat,
    ) -> (String, Value) {
        let command = data["name"].as_str().map(str::to_string);
        if let (Some(name), 2 | 4) = (&command, kind) {
            assert!(
                self.offered(who, name),
                "Discord does not offer /{name} to {} in this chat",
                who.name
            );
        }
        let iid = self.fake.new_id();
        let token = format!("token-{iid}");
        self.fake
            .state
            .token_channels
            .lock()
            .unwrap()
            .insert(token.clone(), chat.channel);
        self.fake.state.issue_token(&token);
        let members = self
            .fake
            .state
            .chats
            .lock()
            .unwrap()
            .get(&chat.channel)
            .cloned()
            .expect("a chat opened with open_chat");
        let others: Vec<Value> = members
            .members
            .iter()
            .filter(|&&m| m != who.id)
            .map(|&m| user_json(member(m)))
            .collect();
        let mut data = data;
        if let Some(d) = data.as_object_mut() {
            d.remove("guild_id");
        }
        let owner = if kind == 3 { chat.installer } else { who.id };
        if let Some(guild) = chat.server {
            // A server's channel the bot is not in: the member, the server, context 0, and only
            // the member's installation authorizing it.
            data["guild_id"] = json!(guild.to_string());
            let mut v = json!({
                "id": iid.to_string(), "application_id": APP_ID.to_string(), "type": kind,
                "data": data, "guild_id": guild.to_string(), "channel_id": chat.channel.to_string(),
                "channel": {"id": chat.channel.to_string(), "type": 0, "name": "general",
                            "guild_id": guild.to_string()},
                "member": member_json(who, true), "token": token, "version": 1,
                "locale": self.locale.lock().unwrap().clone(),
                "guild_locale": self.locale.lock().unwrap().clone(), "entitlements": [],
                "attachment_size_limit": 10485760, "app_permissions": "180224",
                "authorizing_integration_owners": {"1": owner.to_string()},
                "context": 0
            });
            if let Some(mut m) = message {
                m["channel_id"] = json!(chat.channel.to_string());
                m["guild_id"] = json!(guild.to_string());
                v["message"] = m;
            }
            return (token, v);
        }
        let mut v = json!({
            "id": iid.to_string(), "application_id": APP_ID.to_string(), "type": kind, "data": data,
            "channel_id": chat.channel.to_string(),
            "channel": {"id": chat.channel.to_string(), "type": members.channel_type(), "flags": 0,
                        "recipients": others},
            "user": user_json(who), "token": token, "version": 1,
            "locale": self.locale.lock().unwrap().clone(), "entitlements": [],
            "attachment_size_limit": 10485760,
            // Discord's documented permissions of an app in a chat: attach files, embed links,
            // mention everyone.
            "app_permissions": "180224",
            "authorizing_integration_owners": {"1": owner.to_string()},
            "context": 2
        });
        if let Some(mut m) = message {
            m["channel_id"] = json!(chat.channel.to_string());
            if let Some(o) = m.as_object_mut() {
                o.remove("guild_id");
            }
            v["message"] = m;
        }
        (token, v)
    }

    /// An interaction in `who`'s direct messages with the bot (context 1), as Discord sends it:
    /// no server, the member as a user, their direct message channel (the one the bot opened,
    /// or a new one), authorized by the bot's installation to servers ("0").
    fn dm_interaction(
        &self,
        kind: u64,
        who: &Member,
        data: Value,
        message: Option<Value>,
    ) -> (String, Value) {
        let opened = self
            .fake
            .state
            .dms
            .lock()
            .unwrap()
            .iter()
            .find(|(_, &u)| u == who.id)
            .map(|(&c, _)| c);
        let channel = opened.unwrap_or_else(|| {
            let c = self.fake.new_id();
            self.fake.state.dms.lock().unwrap().insert(c, who.id);
            c
        });
        let iid = self.fake.new_id();
        let token = format!("token-{iid}");
        self.fake
            .state
            .token_channels
            .lock()
            .unwrap()
            .insert(token.clone(), channel);
        self.fake.state.issue_token(&token);
        let mut data = data;
        if let Some(d) = data.as_object_mut() {
            d.remove("guild_id");
        }
        let mut v = json!({
            "id": iid.to_string(), "application_id": APP_ID.to_string(), "type": kind, "data": data,
            "channel_id": channel.to_string(),
            "channel": {"id": channel.to_string(), "type": 1, "flags": 0,
                        "recipients": [user_json(who)]},
            "user": user_json(who), "token": token, "version": 1,
            "locale": self.locale.lock().unwrap().clone(), "entitlements": [],
            "attachment_size_limit": 10485760, "app_permissions": "2248473465835073",
            "authorizing_integration_owners": {"0": "0"},
            "context": 1
        });
        if let Some(mut m) = message {
            m["channel_id"] = json!(channel.to_string());
            if let Some(o) = m.as_object_mut() {
                o.remove("guild_id");
            }
            v["message"] = m;
        }
        (token, v)
    }

    /// An interaction in channel `here`, a games channel `parent` or one of its threads.
    fn interaction_at(
        &self,
        kind: u64,
        who: &Member,
        data: Value,
        message: Option<Value>,
        here: u64,
        parent: u64,
    ) -> (String, Value) {
        let iid = self.fake.new_id();
        let token = format!("token-{iid}");
        self.fake.state.issue_token(&token);
        let guild = guild_of_channel(parent);
        let channel = if here == parent {
            json!({"id": parent.to_string(), "type": 0, "name": "games", "guild_id": guild.to_string()})
        } else {
            self.fake
                .state
                .token_channels
                .lock()
                .unwrap()
                .insert(token.clone(), here);
            json!({"id": here.to_string(), "type": 11, "name": "a game", "guild_id": guild.to_string(),
                   "parent_id": parent.to_string()})
        };
        let mut v = json!({
            "id": iid.to_string(), "application_id": APP_ID.to_string(), "type": kind, "data": data,
            "guild_id": guild.to_string(), "channel_id": here.to_string(), "channel": channel,
            "member": member_json(who, true), "token": token, "version": 1,
            "locale": self.locale.lock().unwrap().clone(), "guild_locale": self.locale.lock().unwrap().clone(), "entitlements": [], "attachment_size_limit": 10485760,
            "app_permissions": "2248473465835073", "authorizing_integration_owners": {"0": guild.to_string()},
            "context": 0
        });
        if let Some(m) = message {
            v["message"] = m;
        }
        (token, v)
    }

    pub fn command_data(&self, name: &str, options: Vec<Value>, users: &[&Member]) -> Value {
        let id = *self
            .fake
            .state
            .commands
            .lock()
            .unwrap()
            .get(name)
            .unwrap_or_else(|| panic!("command /{name} was not registered"));
        let mut data = json!({"id": id.to_string(), "name": name, "type": 1, "options": options,
                              "guild_id": self.guild().to_string()});
        if !users.is_empty() {
            let u: serde_json::Map<String, Value> = users
                .iter()
                .map(|m| (m.id.to_string(), user_json(m)))
                .collect();
            let mem: serde_json::Map<String, Value> = users
                .iter()
                .map(|m| (m.id.to_string(), member_json(m, false)))
                .collect();
            data["resolved"] = json!({"users": u, "members": mem});
        }
        data
    }

    /// Sends an interaction and waits for its answer (following a deferral to its follow-up).
    async fn exchange(&self, token: String, event: Value) -> Answer {
        let from = self.fake.request_count();
        let pressed_flags = event["message"]["flags"].as_u64();
        self.fake.dispatch("INTERACTION_CREATE", event);
        let callback = format!("/{token}/callback");
        let (_, cb) = self
            .fake
            .wait_for(from, &format!("the answer to {token}"), |r| {
                r.method == "POST" && r.path.ends_with(&callback)
            })
            .await;
        let body = cb.json.clone().unwrap_or(Value::Null);
        let callback_type = body["type"].as_u64().unwrap_or(0);
        let data = body.get("data").cloned().unwrap_or(json!({}));
        // An update (7) keeps the flags of the message pressed, as on Discord: an ephemeral
        // message stays ephemeral.
        let flags = match callback_type {
            7 => pressed_flags,
            _ => data["flags"].as_u64(),
        };
        let ephemeral = flags.unwrap_or(0) & 64 != 0;
        if callback_type == 5 {
            let hook = format!("/webhooks/{APP_ID}/{token}");
            let (_, follow) = self
                .fake
                .wait_for(
                    from,
                    &format!("the follow-up of {token}"),
                    |r: &Recorded| r.method == "POST" && r.path == hook,
                )
                .await;
            let f = follow.json.clone().unwrap_or(Value::Null);
            return Answer {
                callback_type,
                ephemeral,
                content: f["content"].as_str().unwrap_or("").to_string(),
                components: f.get("components").cloned().unwrap_or(json!([])),
                embeds: f.get("embeds").cloned().unwrap_or(json!([])),
                files: follow.files.iter().map(|(_, b)| b.clone()).collect(),
                allowed_users: users_of(&f),
                raw: f,
            };
        }
        Answer {
            callback_type,
            ephemeral,
            content: data["content"].as_str().unwrap_or("").to_string(),
            components: data.get("components").cloned().unwrap_or(json!([])),
            embeds: data.get("embeds").cloned().unwrap_or(json!([])),
            files: cb.files.iter().map(|(_, b)| b.clone()).collect(),
            allowed_users: users_of(&data),
            raw: data,
        }
    }

    pub async fn command_with(
        &self,
        who: &Member,
        name: &str,
        options: Vec<Value>,
        users: &[&Member],
    ) -> Answer {
        let data = self.command_data(name, options, users);
        let (token, event) = self.interaction(2, who, data, None);
        self.exchange(token, event).await
    }

    /// A command in the games channel of server `server` (0 or 1), whichever server members act
    /// in now: players of different servers at once.
    pub async fn command_in(
        &self,
        server: usize,
        who: &Member,
        name: &str,
        options: Vec<Value>,
    ) -> Answer {
        let channel = [CHANNEL_ID, CHANNEL2_ID][server];
        let mut data = self.command_data(name, options, &[]);
        data["guild_id"] = json!(guild_of_channel(channel).to_string());
        let (token, event) = self.interaction_at(2, who, data, None, channel, channel);
        self.exchange(token, event).await
    }

    /// `who` runs command `name` with `options`, one of which names role `role` (its object,
    /// resolved as Discord sends it), the bot's permissions in the channel being
    /// `app_permissions`.
    pub async fn command_with_role(
        &self,
        who: &Member,
        name: &str,
        options: Vec<Value>,
        role: Value,
        app_permissions: u64,
    ) -> Answer {
        let mut data = self.command_data(name, options, &[]);
        let id = role["id"].as_str().unwrap_or("0").to_string();
        data["resolved"] = json!({ "roles": { id: role } });
        let (token, mut event) = self.interaction(2, who, data, None);
        event["app_permissions"] = json!(app_permissions.to_string());
        self.exchange(token, event).await
    }

    pub async fn command(&self, who: &Member, name: &str, options: Vec<Value>) -> Answer {
        self.command_with(who, name, options, &[]).await
    }

    pub async fn autocomplete(&self, who: &Member, name: &str, options: Vec<Value>) -> Vec<String> {
        self.autocomplete_choices(who, name, options)
            .await
            .into_iter()
            .map(|(_, value)| value)
            .collect()
    }

    /// The suggestions offered: (what is shown, what is sent).
    pub async fn autocomplete_choices(
        &self,
        who: &Member,
        name: &str,
        options: Vec<Value>,
    ) -> Vec<(String, String)> {
        let data = self.command_data(name, options, &[]);
        let (token, event) = self.interaction(4, who, data, None);
        let from = self.fake.request_count();
        self.fake.dispatch("INTERACTION_CREATE", event);
        let callback = format!("/{token}/callback");
        let (_, cb) = self
            .fake
            .wait_for(from, "autocomplete answer", |r| {
                r.method == "POST" && r.path.ends_with(&callback)
            })
            .await;
        let body = cb.json.unwrap_or(Value::Null);
        assert_eq!(body["type"].as_u64(), Some(8), "{body}");
        body["data"]["choices"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap_or("").to_string(),
                    c["value"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect()
    }

    pub async fn press(&self, who: &Member, p: &Pressable, verb: &str) -> Answer {
        let custom = p
            .ids
            .get(verb)
            .unwrap_or_else(|| panic!("no `{verb}` button in {:?}", p.ids))
            .clone();
        let data = json!({"custom_id": custom, "component_type": 2});
        let (token, event) = self.interaction(3, who, data, Some(p.message.clone()));
        self.exchange(token, event).await
    }

    /// Ends a test: stops the bot, then checks that every request kept to Discord's spec and
    /// that the bot logged no warning or error.
    pub async fn end(&self, bot: &mut Bot, name: &str, started: std::time::Instant) {
        bot.kill().await;
        let v = self.fake.violations();
        assert!(v.is_empty(), "requests that break Discord's spec: {v:#?}");
        let problems = self.log_problems();
        assert!(
            problems.is_empty(),
            "the bot logged problems: {problems:#?}"
        );
        eprintln!("{name} took {:?}", started.elapsed());
    }

    /// `who` presses the button `custom_id` on `message`.
    pub async fn press_id(&self, who: &Member, message: &Value, custom_id: &str) -> Answer {
        let data = json!({"custom_id": custom_id, "component_type": 2});
        let (token, event) = self.interaction(3, who, data, Some(message.clone()));
        self.exchange(token, event).await
    }

    /// `who` picks `value` in the select menu `custom_id` on `message`.
    pub async fn select(
        &self,
        who: &Member,
        message: &Value,
        custom_id: &str,
        value: &str,
    ) -> Answer {
        let data = json!({"custom_id": custom_id, "component_type": 3, "values": [value]});
        let (token, event) = self.interaction(3, who, data, Some(message.clone()));
        self.exchange(token, event).await
    }

    /// The message an answer made, as Discord would show it (for pressing its components).
    pub fn shown(&self, ans: &Answer) -> Value {
        message_json(
            self.fake.new_id(),
            &ans.content,
            ans.components.clone(),
            ans.ephemeral,
        )
    }

    /// A board post's message as Discord would show it.
    pub fn shown_post(&self, post: &Value) -> Value {
        message_json(
            self.fake.new_id(),
            post["content"].as_str().unwrap_or(""),
            post["components"].clone(),
            false,
        )
    }

    /// The body of the last board posted in the channel for `game`.
    /// The boards of game `game` posted in the channel, oldest first.
    fn boards_of(&self, game: i64) -> Vec<Value> {
        // "game #12 " in English, "対局 #12 " in Japanese.
        let tag = format!(" #{game} ");
        self.fake
            .state
            .requests
            .lock()
            .unwrap()
            .iter()
            .filter(|r| {
                r.is_new_post()
                    && self.fake.in_channel(&r.path, self.channel())
                    && r.files.len() == 1
            })
            .filter_map(|r| r.json.clone())
            .filter(|j| j["content"].as_str().is_some_and(|c| c.contains(&tag)))
            .collect()
    }

    /// How many boards of game `game` were posted in the channel.
    pub fn boards_posted(&self, game: i64) -> usize {
        self.boards_of(game).len()
    }

    /// How many messages had their buttons taken off (an edit of nothing but an empty
    /// `components`, accepted), as the bot does to a board a newer one replaced. Each message
    /// counts once: an edit refused for a rate limit and sent again is one.
    pub fn retired_boards(&self) -> usize {
        self.fake
            .state
            .requests
            .lock()
            .unwrap()
            .iter()
            .filter(|r| {
                r.method == "PATCH"
                    && r.status == 200
                    && r.path.contains("/messages/")
                    && !r.path.contains("/webhooks/")
                    && r.json.as_ref().is_some_and(|j| {
                        j["components"] == serde_json::json!([])
                            && j["content"].as_str().is_none_or(|c| c.contains('⏭'))
                    })
            })
            .map(|r| r.path.clone())
            .collect::<std::collections::HashSet<_>>()
            .len()
    }

    /// The words the old boards of game `game` were given when their buttons were taken off
    /// (what happened after each), by message.
    pub fn retired_words(&self, game: i64) -> std::collections::HashMap<String, String> {
        let tag = format!(" #{game} ");
        self.fake
            .state
            .requests
            .lock()
            .unwrap()
            .iter()
            .filter(|r| r.method == "PATCH" && r.status == 200 && !r.path.contains("/webhooks/"))
            .filter_map(|r| {
                let j = r.json.as_ref()?;
                let c = j["content"].as_str()?;
                (j["components"] == serde_json::json!([]) && c.contains(&tag) && c.contains('⏭'))
                    .then(|| (r.path.clone(), c.to_string()))
            })
            .collect()
    }

    pub fn last_board(&self, game: i64) -> Value {
        self.boards_of(game)
            .pop()
            .unwrap_or_else(|| panic!("no board of game #{game} posted"))
    }
}

/// Every component (button, menu) of a message's action rows.
pub fn components_of(rows: &Value) -> impl Iterator<Item = &Value> {
    rows.as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().into_iter().flatten())
}

pub fn users_of(body: &Value) -> Vec<u64> {
    body["allowed_mentions"]["users"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|u| u.as_str().and_then(|s| s.parse().ok()).or(u.as_u64()))
        .collect()
}

//! Playing the part of Discord and of the members: interactions as Discord sends them, the bot
//! process, and checks on the answers and the database.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Stdio;
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

pub fn member(id: u64) -> &'static Member {
    [&ANN, &BOB, &CAT, &MOD]
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

    pub fn interaction(
        &self,
        kind: u64,
        who: &Member,
        data: Value,
        message: Option<Value>,
    ) -> (String, Value) {
        let here = self.here.load(Ordering::Relaxed);
        self.interaction_at(kind, who, data, message, here, self.channel())
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
        let ephemeral = data["flags"].as_u64().unwrap_or(0) & 64 != 0;
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
    pub fn last_board(&self, game: i64) -> Value {
        // "game #12 " in English, "対局 #12 " in Japanese.
        let tag = format!(" #{game} ");
        self.fake
            .state
            .requests
            .lock()
            .unwrap()
            .iter()
            .rev()
            .filter(|r| {
                r.is_new_post()
                    && self.fake.in_channel(&r.path, self.channel())
                    && r.files.len() == 1
            })
            .filter_map(|r| r.json.clone())
            .find(|j| j["content"].as_str().is_some_and(|c| c.contains(&tag)))
            .unwrap_or_else(|| panic!("no board of game #{game} posted"))
    }

    /// `who` presses the Move button under `board` (a board post's body).
    pub async fn press_move(&self, who: &Member, board: &Value) -> Answer {
        let id = components_of(&board["components"])
            .find(|c| {
                c["custom_id"]
                    .as_str()
                    .is_some_and(|i| i.starts_with("hx:move:"))
            })
            .and_then(|c| c["custom_id"].as_str().map(str::to_string))
            .unwrap_or_else(|| panic!("no Move button under the board: {board}"));
        self.press_id(who, &self.shown_post(board), &id).await
    }

    /// Plays a move using only the Move button under `board` and the picker: at each step the
    /// option named by the next of `steps` (or the row it is in, where the menu is narrowed), then
    /// Play. Checks the preview picture and its description on the way. Returns Play's answer.
    pub async fn pick_move(
        &self,
        who: &Member,
        board: &Value,
        steps: &[hexcord::play::picker::Step],
    ) -> Answer {
        self.pick_move_timed(who, board, steps).await.0
    }

    /// [`Discord::pick_move`], with the time each interaction took until its answer, and whether
    /// that answer carried the preview picture.
    pub async fn pick_move_timed(
        &self,
        who: &Member,
        board: &Value,
        steps: &[hexcord::play::picker::Step],
    ) -> (Answer, Vec<(std::time::Duration, bool)>) {
        let mut times = Vec::new();
        let sent = std::time::Instant::now();
        let mut ans = self.press_move(who, board).await;
        times.push((sent.elapsed(), false));
        assert!(ans.ephemeral && ans.callback_type == 4, "{ans:?}");
        let mut depth = 0;
        for _ in 0..4 * steps.len() + 4 {
            let shown = self.shown(&ans);
            let parts: Vec<Value> = components_of(&ans.components).cloned().collect();
            if let Some(play) = parts.iter().find(|c| c["label"] == "Play") {
                assert_eq!(
                    depth,
                    steps.len(),
                    "Play offered before the last step: {ans:?}"
                );
                assert_eq!(ans.files.len(), 1, "a preview comes with the last step");
                assert!(ans.files[0].starts_with(b"\x89PNG"), "the preview is a PNG");
                let alt = ans.raw["attachments"][0]["description"]
                    .as_str()
                    .unwrap_or("");
                assert!(
                    alt.contains(" game #") && alt.contains("after move"),
                    "{alt:?}"
                );
                let id = play["custom_id"].as_str().unwrap_or("").to_string();
                let sent = std::time::Instant::now();
                let played = self.press_id(who, &shown, &id).await;
                times.push((sent.elapsed(), false));
                return (played, times);
            }
            let step = steps
                .get(depth)
                .unwrap_or_else(|| panic!("steps run out: {ans:?}"));
            let menu = parts.iter().find(|c| c["type"] == 3);
            let options: Vec<&Value> = menu
                .and_then(|m| m["options"].as_array())
                .map(|o| o.iter().collect())
                .unwrap_or_default();
            assert!(options.len() <= 25, "a menu holds at most 25 options");
            let menu_id = menu.and_then(|m| m["custom_id"].as_str()).unwrap_or("");
            let label = step.label.render(hexcord::i18n::Lang::EN);
            let button = parts
                .iter()
                .find(|c| c["type"] == 2 && c["label"] == label.as_str());
            let exact = options.iter().find(|o| o["label"] == label.as_str());
            let row = step.group.as_ref().and_then(|g| {
                let g = g.render(hexcord::i18n::Lang::EN);
                options.iter().find(|o| {
                    o["label"]
                        .as_str()
                        .is_some_and(|l| l.starts_with(&format!("{g} (")))
                })
            });
            let sent = std::time::Instant::now();
            ans = if let Some(o) = exact {
                depth += 1;
                self.select(who, &shown, menu_id, o["value"].as_str().unwrap_or(""))
                    .await
            } else if let Some(b) = button {
                depth += 1;
                self.press_id(who, &shown, b["custom_id"].as_str().unwrap_or(""))
                    .await
            } else if let Some(o) = row {
                self.select(who, &shown, menu_id, o["value"].as_str().unwrap_or(""))
                    .await
            } else {
                panic!("`{}` is not offered: {ans:?}", step.label);
            };
            times.push((sent.elapsed(), !ans.files.is_empty()));
            assert_eq!(
                ans.callback_type, 7,
                "a picker step updates its message: {ans:?}"
            );
        }
        panic!("the picker never offered Play");
    }

    /// A snapshot of everything the bot stores about games and challenges.
    pub async fn snapshot(&self) -> String {
        let pool = hexcord::db::connect(&self.db_url).await.expect("db");
        let games: Vec<(i64, String, i64, Option<String>)> =
            sqlx::query_as("SELECT id, status, version, result FROM games ORDER BY id")
                .fetch_all(&pool)
                .await
                .expect("games");
        let moves: i64 = sqlx::query_scalar("SELECT count(*) FROM moves")
            .fetch_one(&pool)
            .await
            .expect("moves");
        let challenges: Vec<(i64, String)> =
            sqlx::query_as("SELECT id, status FROM challenges ORDER BY id")
                .fetch_all(&pool)
                .await
                .expect("challenges");
        pool.close().await;
        format!("{games:?} {moves} {challenges:?}")
    }

    pub async fn move_count(&self, game: i64) -> i64 {
        let pool = hexcord::db::connect(&self.db_url).await.expect("db");
        let n = sqlx::query_scalar("SELECT count(*) FROM moves WHERE game_id = $1")
            .bind(game)
            .fetch_one(&pool)
            .await
            .expect("moves");
        pool.close().await;
        n
    }

    /// The notation of move `ply` (1 for the first) of a game, when stored.
    pub async fn move_at(&self, game: i64, ply: i64) -> Option<String> {
        let pool = hexcord::db::connect(&self.db_url).await.expect("db");
        let m = sqlx::query_scalar("SELECT notation FROM moves WHERE game_id = $1 AND ply = $2")
            .bind(game)
            .bind(ply)
            .fetch_optional(&pool)
            .await
            .expect("moves");
        pool.close().await;
        m
    }

    pub async fn game_status(&self, game: i64) -> String {
        let pool = hexcord::db::connect(&self.db_url).await.expect("db");
        let s = sqlx::query_scalar("SELECT status FROM games WHERE id = $1")
            .bind(game)
            .fetch_one(&pool)
            .await
            .expect("game");
        pool.close().await;
        s
    }

    pub async fn winner(&self, game: i64) -> Option<u64> {
        let pool = hexcord::db::connect(&self.db_url).await.expect("db");
        let w: Option<i64> = sqlx::query_scalar("SELECT winner_id FROM games WHERE id = $1")
            .bind(game)
            .fetch_one(&pool)
            .await
            .expect("game");
        pool.close().await;
        w.map(|w| w as u64)
    }

    /// A command that must be refused privately, naming `needle`, and change nothing.
    pub async fn refused(&self, who: &Member, name: &str, options: Vec<Value>, needle: &str) {
        self.refused_with(who, name, options, &[], needle).await
    }

    async fn refused_with(
        &self,
        who: &Member,
        name: &str,
        options: Vec<Value>,
        users: &[&Member],
        needle: &str,
    ) {
        let before = self.snapshot().await;
        let ans = self.command_with(who, name, options, users).await;
        assert!(
            ans.ephemeral,
            "/{name} by {} should be private: {ans:?}",
            who.name
        );
        assert!(
            ans.content.to_lowercase().contains(&needle.to_lowercase()),
            "/{name} by {}: expected `{needle}` in {:?}",
            who.name,
            ans.content
        );
        assert_eq!(
            self.snapshot().await,
            before,
            "/{name} by {} changed the database",
            who.name
        );
    }

    fn challenge_options(opponent: &Member, kind: &str, extra: &[Value]) -> Vec<Value> {
        let game = if kind == "exxit" { 1 } else { 0 };
        let mut o = vec![
            json!({"name": "opponent", "type": 6, "value": opponent.id.to_string()}),
            json!({"name": "game", "type": 4, "value": game}),
        ];
        o.extend(extra.iter().cloned());
        o
    }

    pub async fn refused_challenge(
        &self,
        who: &Member,
        opponent: &Member,
        kind: &str,
        extra: &[Value],
        needle: &str,
    ) {
        let options = Self::challenge_options(opponent, kind, extra);
        self.refused_with(who, "challenge", options, &[opponent], needle)
            .await
    }

    pub async fn challenge(
        &self,
        who: &Member,
        opponent: &Member,
        kind: &str,
        extra: &[Value],
    ) -> Pressable {
        let options = Self::challenge_options(opponent, kind, extra);
        let ans = self
            .command_with(who, "challenge", options, &[opponent])
            .await;
        assert!(!ans.ephemeral && ans.callback_type == 4, "{ans:?}");
        assert!(
            ans.content.contains(&format!("<@{}>", opponent.id)),
            "{ans:?}"
        );
        assert!(
            ans.allowed_users.contains(&opponent.id),
            "the opponent is pinged: {ans:?}"
        );
        let p = Pressable::from_answer(&ans, &self.fake);
        for verb in ["accept", "decline", "withdraw"] {
            assert!(p.ids.contains_key(verb), "{:?}", p.ids);
        }
        p
    }

    /// Starts a game against the bot with `/play` (`level` 0 easy, 1 medium, 2 hard); returns
    /// it as its first board shows it.
    pub async fn play_bot(
        &self,
        who: &Member,
        kind: &str,
        level: u64,
        extra: &[Value],
    ) -> GameState {
        let game = if kind == "exxit" { 1 } else { 0 };
        let mut options = vec![
            json!({"name": "game", "type": 4, "value": game}),
            json!({"name": "level", "type": 4, "value": level}),
        ];
        options.extend(extra.iter().cloned());
        let from = self.fake.request_count();
        let ans = self.command(who, "play", options).await;
        assert!(ans.ephemeral && ans.content.contains("starts"), "{ans:?}");
        let post = self
            .posted(from, Some(self.channel()), "plays me at level")
            .await;
        assert_eq!(post.files.len(), 1, "the first board is attached");
        parse_state(
            post.json.unwrap_or(Value::Null)["content"]
                .as_str()
                .unwrap_or(""),
        )
    }

    /// Waits for the bot's own move in `state`'s game, posted in the channel (looking at the
    /// requests from index `from` on); returns the game as that board shows it.
    pub async fn bot_move(&self, from: usize, state: &GameState) -> GameState {
        let game = format!("game #{} ", state.id);
        let played = format!("<@{BOT_ID}> played");
        let (_, post) = self
            .fake
            .wait_for(from, "the bot's move", |r| {
                r.method == "POST"
                    && self.fake.in_channel(&r.path, self.channel())
                    && r.json
                        .as_ref()
                        .and_then(|j| j["content"].as_str())
                        .is_some_and(|c| c.contains(&game) && c.contains(&played))
            })
            .await;
        assert_eq!(post.files.len(), 1, "the bot's board is attached");
        let body = post.json.unwrap_or(Value::Null);
        let next = parse_state(body["content"].as_str().unwrap_or(""));
        if !next.caption.contains("Game over") {
            assert!(
                users_of(&body).contains(&next.to_move),
                "the member to move is pinged: {body}"
            );
        }
        next
    }

    pub async fn refused_press(&self, who: &Member, p: &Pressable, verb: &str, needle: &str) {
        let before = self.snapshot().await;
        let ans = self.press(who, p, verb).await;
        assert!(
            ans.ephemeral && ans.callback_type == 4,
            "{verb} by {}: {ans:?}",
            who.name
        );
        assert!(
            ans.content.to_lowercase().contains(&needle.to_lowercase()),
            "{verb} by {}: {ans:?}",
            who.name
        );
        assert_eq!(
            self.snapshot().await,
            before,
            "{verb} by {} changed the database",
            who.name
        );
    }

    pub async fn answer_challenge(&self, who: &Member, p: &Pressable, verb: &str, needle: &str) {
        let ans = self.press(who, p, verb).await;
        assert_eq!(ans.callback_type, 7, "{ans:?}");
        assert!(ans.content.contains(needle), "{ans:?}");
        assert_eq!(ans.components, json!([]), "the buttons go away");
    }

    /// Accepts a challenge; returns the new game as its first board shows it.
    pub async fn accept(&self, who: &Member, p: &Pressable) -> GameState {
        let from = self.fake.request_count();
        let ans = self.press(who, p, "accept").await;
        assert_eq!(ans.callback_type, 7, "{ans:?}");
        assert!(
            ans.content.contains("accepted") || ans.content.contains("挑戦を受けました"),
            "{ans:?}"
        );
        let (_, post) = self
            .fake
            .wait_for(from, "the first board", |r| {
                r.is_new_post()
                    && self.fake.in_channel(&r.path, self.channel())
                    && !r.files.is_empty()
            })
            .await;
        assert_eq!(post.files.len(), 1, "the board is attached");
        let body = post.json.unwrap_or(Value::Null);
        let state = parse_state(body["content"].as_str().unwrap_or(""));
        assert!(
            users_of(&body).contains(&state.to_move),
            "the player to move is pinged: {body}"
        );
        state
    }

    /// The player to move picks the first suggestion (checking the suggestions) and plays it;
    /// returns the game as the board then posted shows it.
    pub async fn play_suggested(&self, state: &GameState) -> GameState {
        let from = self.fake.request_count();
        let ply = self.send_suggested(state).await;
        let post = self.board_post(from, state.id, ply).await;
        let body = post.json.unwrap_or(Value::Null);
        let content = body["content"].as_str().unwrap_or("").to_string();
        let next = parse_state(&content);
        if !content.contains("Game over") {
            assert!(users_of(&body).contains(&next.to_move), "{body}");
        }
        next
    }

    /// The player to move picks the first suggestion (checking the suggestions) and sends it
    /// with `/move`; returns the ply it made, once the answer came (not waiting for the board).
    pub async fn send_suggested(&self, state: &GameState) -> i64 {
        let who = member(state.to_move);
        let game = state.id.to_string();
        let choices = self
            .autocomplete(
                who,
                "move",
                vec![
                    json!({"name": "move", "type": 3, "value": "", "focused": true}),
                    json!({"name": "game", "type": 3, "value": game}),
                ],
            )
            .await;
        assert!(!choices.is_empty() && choices.len() <= 25, "{choices:?}");
        // Typing narrows the suggestions to matching moves.
        let typed: String = choices[0].chars().take(1).collect();
        let narrowed = self
            .autocomplete(
                who,
                "move",
                vec![
                    json!({"name": "move", "type": 3, "value": typed, "focused": true}),
                    json!({"name": "game", "type": 3, "value": game}),
                ],
            )
            .await;
        assert!(
            narrowed
                .iter()
                .all(|c| c.to_lowercase().contains(&typed.to_lowercase())),
            "{narrowed:?}"
        );
        let before = self.move_count(state.id).await;
        let ans = self
            .command(
                who,
                "move",
                vec![
                    json!({"name": "move", "type": 3, "value": choices[0]}),
                    json!({"name": "game", "type": 3, "value": game}),
                ],
            )
            .await;
        assert!(
            ans.ephemeral && ans.content.contains("You played"),
            "{ans:?}"
        );
        // The move is stored as the next ply (in a game against the bot, the bot's answer may
        // already follow it).
        assert_eq!(
            self.move_at(state.id, before + 1).await.as_deref(),
            Some(choices[0].as_str()),
            "{ans:?}"
        );
        before + 1
    }

    /// Waits for the board of move `ply` of `game`, posted by the delivery queue (requests from
    /// index `from` on), with its picture.
    pub async fn board_post(&self, from: usize, game: i64, ply: i64) -> Recorded {
        let game_ref = format!("game #{game} ");
        let move_ref = format!("(move {ply})");
        let (_, post) = self
            .fake
            .wait_for(from, &format!("the board of move {ply} of #{game}"), |r| {
                r.is_new_post()
                    && self.fake.in_channel(&r.path, self.channel())
                    && r.json
                        .as_ref()
                        .and_then(|j| j["content"].as_str())
                        .is_some_and(|c| c.contains(&game_ref) && c.contains(&move_ref))
            })
            .await;
        assert_eq!(post.files.len(), 1, "a board comes with each move");
        post
    }

    /// The position as `/board` shows it.
    pub async fn current(&self, state: &GameState) -> GameState {
        let ans = self
            .command(
                &CAT,
                "board",
                vec![json!({"name": "game", "type": 3, "value": state.id.to_string()})],
            )
            .await;
        assert!(!ans.ephemeral && ans.files.len() == 1, "{ans:?}");
        parse_state(&ans.content)
    }

    /// Two different moves sent at the same moment: exactly one applies, the other is refused
    /// privately.
    pub async fn race(&self, state: &GameState) {
        let who = member(state.to_move);
        let game = state.id.to_string();
        let choices = self
            .autocomplete(
                who,
                "move",
                vec![
                    json!({"name": "move", "type": 3, "value": "", "focused": true}),
                    json!({"name": "game", "type": 3, "value": game}),
                ],
            )
            .await;
        assert!(choices.len() >= 2, "{choices:?}");
        let before = self.move_count(state.id).await;
        let events: Vec<(String, Value)> = choices[..2]
            .iter()
            .map(|c| {
                let data = self.command_data(
                    "move",
                    vec![
                        json!({"name": "move", "type": 3, "value": c}),
                        json!({"name": "game", "type": 3, "value": game}),
                    ],
                    &[],
                );
                self.interaction(2, who, data, None)
            })
            .collect();
        let from = self.fake.request_count();
        for (_, e) in &events {
            self.fake.dispatch("INTERACTION_CREATE", e.clone());
        }
        let mut played = 0;
        let mut refused = 0;
        for (token, _) in &events {
            let cb = format!("/{token}/callback");
            let (_, r) = self
                .fake
                .wait_for(from, "a racing move's answer", |r| r.path.ends_with(&cb))
                .await;
            let body = r.json.unwrap_or(Value::Null);
            assert!(
                body["data"]["flags"].as_u64().unwrap_or(0) & 64 != 0,
                "answers to moves are private: {body}"
            );
            let text = body["data"]["content"].as_str().unwrap_or("");
            if text.contains("You played") {
                played += 1;
            } else {
                // Either the position changed under it, or it is no longer this player's turn.
                refused += 1;
            }
        }
        assert_eq!(
            (played, refused),
            (1, 1),
            "exactly one of two racing moves applies"
        );
        assert_eq!(self.move_count(state.id).await, before + 1);
        self.board_post(from, state.id, before + 1).await;
    }

    /// Plays suggested moves until the game ends (or resigns after `max` plies).
    pub async fn play_out(&self, mut state: GameState, max: usize) -> GameState {
        for ply in 0..max {
            if state.caption.contains("Game over") {
                let last = state.caption.lines().last().unwrap_or("");
                eprintln!("game #{} ended after {ply} more plies: {last}", state.id);
                return state;
            }
            state = self.play_suggested(&state).await;
        }
        panic!("game #{} did not end within {max} plies", state.id);
    }

    pub async fn resign(&self, who: &Member, state: &GameState) {
        let ans = self
            .command(
                who,
                "resign",
                vec![json!({"name": "game", "type": 3, "value": state.id.to_string()})],
            )
            .await;
        assert!(ans.ephemeral, "{ans:?}");
        let p = Pressable::from_answer(&ans, &self.fake);
        let keep = self.press(who, &p, "keep").await;
        assert_eq!(keep.callback_type, 7);
        // Keeping on leads back to the game: its Move button.
        assert!(
            components_of(&keep.components)
                .any(|c| c["custom_id"] == format!("hx:move:{}", state.id).as_str()),
            "{keep:?}"
        );
        assert_eq!(self.game_status(state.id).await, "active");
        let from = self.fake.request_count();
        let done = self.press(who, &p, "resign").await;
        assert_eq!(done.callback_type, 7, "{done:?}");
        let (_, post) = self
            .fake
            .wait_for(from, "the resignation board", |r| {
                r.method == "POST" && self.fake.in_channel(&r.path, self.channel())
            })
            .await;
        let text = post.json.unwrap_or(Value::Null)["content"]
            .as_str()
            .unwrap_or("")
            .to_string();
        assert!(
            text.contains("resigned") && text.contains("resignation"),
            "{text}"
        );
        assert_eq!(post.files.len(), 1);
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

/// The real binary, run against the fake.
pub struct Bot {
    child: tokio::process::Child,
}

impl Bot {
    pub async fn start(d: &Discord) -> Bot {
        Bot::start_with(d, &[]).await
    }

    /// The bot with more settings (`extra` overrides the test's defaults).
    pub async fn start_with(d: &Discord, extra: &[(&str, &str)]) -> Bot {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(d.dir.join("bot.log"))
            .expect("log file");
        let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_hexcord"))
            .arg("bot")
            .current_dir(&d.dir)
            .env("DISCORD_TOKEN", "fake-token-for-the-test.ABCDEFGHIJKLMNOP")
            .env("DISCORD_API_BASE", &d.fake.base)
            .env("DATABASE_URL", &d.db_url)
            .env("DEV_GUILD_ID", GUILD_ID.to_string())
            .env("RUST_LOG", "warn,hexcord=info")
            .envs(d.clock.iter().flat_map(|c| {
                [
                    ("HEXCORD_CLOCK_FILE", c.display().to_string()),
                    ("TIMER_INTERVAL_MS", "100".to_string()),
                ]
            }))
            .envs(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())))
            .stdout(Stdio::from(log.try_clone().expect("log")))
            // Through a pipe copied by the test: the log keeps coming while the bot's own file
            // writes are limited (`limit_file_size`).
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the hexcord binary starts");
        if let Some(mut err) = child.stderr.take() {
            let mut log = tokio::fs::File::from_std(log);
            tokio::spawn(async move {
                let _ = tokio::io::copy(&mut err, &mut log).await;
            });
        }
        Bot { child }
    }

    pub async fn restart(d: &Discord, old: Bot) -> Bot {
        drop(old);
        Bot::start(d).await
    }

    /// The bot's process id while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// Limits the size of every file the bot writes (`None`: no limit): its writes fail as on
    /// a full disk. Only the soft limit changes, so no privilege is needed to lift it again.
    pub fn limit_file_size(&self, bytes: Option<u64>) {
        let pid = self.pid().expect("the bot runs");
        let limit = bytes.map_or("unlimited".to_string(), |b| b.to_string());
        let status = std::process::Command::new("prlimit")
            .arg("--pid")
            .arg(pid.to_string())
            .arg(format!("--fsize={limit}:"))
            .status()
            .expect("prlimit runs");
        assert!(status.success(), "prlimit --fsize={limit}");
    }

    pub async fn kill(&mut self) {
        let _ = self.child.kill().await;
    }
}

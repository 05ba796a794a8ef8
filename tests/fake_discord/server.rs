//! A fake Discord: the REST API and the gateway on 127.0.0.1, enough for the bot. Every request
//! the bot makes is recorded and checked against Discord's OpenAPI description.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use tokio::sync::{mpsc, Notify};

use crate::spec::Spec;

pub const APP_ID: u64 = 900_000_000_000_000_001;
pub const BOT_ID: u64 = 900_000_000_000_000_001;
pub const GUILD_ID: u64 = 910_000_000_000_000_001;
/// The one channel where the members play.
pub const CHANNEL_ID: u64 = 920_000_000_000_000_001;
/// A second server, on shard 1 when there are two (`GUILD_ID` is on shard 0), and its channel.
pub const GUILD2_ID: u64 = (910_000_000_000_000_001 >> 22 | 1) << 22;
pub const CHANNEL2_ID: u64 = 920_000_000_000_000_002;

/// The server of a channel (the games channels of the two servers).
pub fn guild_of_channel(channel: u64) -> u64 {
    if channel == CHANNEL2_ID {
        GUILD2_ID
    } else {
        GUILD_ID
    }
}

/// The gateway shard of server `guild` when there are `count` (Discord's rule).
pub fn shard_of(guild: u64, count: u64) -> u64 {
    (guild >> 22) % count.max(1)
}

/// A request the bot made.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    /// The JSON body, or `payload_json` of a multipart body.
    pub json: Option<Value>,
    /// Attached files: (part name, bytes).
    pub files: Vec<(String, Vec<u8>)>,
    /// The status the fake answered.
    pub status: u16,
    /// When the fake answered.
    pub at: std::time::Instant,
    /// A message post whose nonce was seen before: answered with the earlier message, nothing
    /// new shown (as Discord does with `enforce_nonce`).
    pub duplicate: bool,
}

impl Recorded {
    /// A message that members see: a channel post the fake accepted, not a repeated nonce.
    pub fn is_new_post(&self) -> bool {
        self.method == "POST"
            && self.path.starts_with("/channels/")
            && self.path.ends_with("/messages")
            && self.status == 200
            && !self.duplicate
    }
}

/// A failure the fake answers instead of serving a request (a test's fault injection).
#[derive(Clone, Debug)]
pub struct Fault {
    pub method: &'static str,
    /// The path the request must have (under `/api/v10`).
    pub path: String,
    pub status: u16,
    pub body: Value,
    /// A `Retry-After` header (seconds), as Discord sends with a 429.
    pub retry_after: Option<f64>,
    /// How many matching requests get it.
    pub times: usize,
    /// Answer only after this long (the bot may be killed meanwhile).
    pub delay: Duration,
}

impl Fault {
    /// Whether the fault applies to `path` (a `path` ending in `*` matches what starts with it).
    pub fn matches(&self, path: &str) -> bool {
        match self.path.strip_suffix('*') {
            Some(prefix) => path.starts_with(prefix),
            None => self.path == path,
        }
    }

    /// Discord's answer when the bot may not post in a channel.
    pub fn missing_permissions(path: String, times: usize) -> Fault {
        Fault {
            method: "POST",
            path,
            status: 403,
            body: json!({"message": "Missing Permissions", "code": 50013}),
            retry_after: None,
            times,
            delay: Duration::ZERO,
        }
    }
}

pub struct FakeState {
    pub requests: Mutex<Vec<Recorded>>,
    pub violations: Mutex<Vec<String>>,
    changed: Notify,
    /// The open gateway connections by shard, with the shard count each identified with.
    gateways: Mutex<HashMap<u64, (u64, mpsc::UnboundedSender<Value>)>>,
    /// Events dispatched, by shard.
    pub dispatched: Mutex<HashMap<u64, usize>>,
    pub readies: AtomicU64,
    pub commands: Mutex<HashMap<String, u64>>,
    /// The message each interaction token's first answer created (for `@original`).
    originals: Mutex<HashMap<String, Value>>,
    next_id: AtomicU64,
    spec: Spec,
    addr: Mutex<String>,
    /// Failures to answer instead of serving (see [`Fault`]).
    pub faults: Mutex<Vec<Fault>>,
    /// Requests held by a delayed fault right now.
    pub held: AtomicU64,
    /// Messages created with `enforce_nonce`, by nonce.
    nonces: Mutex<HashMap<String, Value>>,
    /// Threads opened by the bot, by id.
    pub threads: Mutex<HashMap<u64, Thread>>,
    /// The channel of each interaction (by token) that was not in the games channel.
    pub token_channels: Mutex<HashMap<String, u64>>,
}

/// A thread as the fake keeps it.
#[derive(Clone, Debug, Default)]
pub struct Thread {
    pub parent: u64,
    pub name: String,
    /// The message it was started from, if any.
    pub from: Option<u64>,
    pub members: Vec<u64>,
    pub archived: bool,
}

impl Thread {
    fn json(&self, id: u64) -> Value {
        json!({
            "id": id.to_string(), "type": 11, "guild_id": guild_of_channel(self.parent).to_string(),
            "parent_id": self.parent.to_string(), "owner_id": BOT_ID.to_string(),
            "name": self.name, "last_message_id": null, "rate_limit_per_user": 0,
            "message_count": 0, "member_count": self.members.len(), "flags": 0,
            "total_message_sent": 0,
            "thread_metadata": {
                "archived": self.archived, "auto_archive_duration": 10080,
                "archive_timestamp": "2026-01-01T00:00:00.000000+00:00", "locked": false
            }
        })
    }
}

pub struct Fake {
    pub base: String,
    pub state: Arc<FakeState>,
}

impl Fake {
    pub async fn start() -> Fake {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let state = Arc::new(FakeState {
            requests: Mutex::new(Vec::new()),
            violations: Mutex::new(Vec::new()),
            changed: Notify::new(),
            gateways: Mutex::new(HashMap::new()),
            dispatched: Mutex::new(HashMap::new()),
            readies: AtomicU64::new(0),
            commands: Mutex::new(HashMap::new()),
            originals: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1_000_000_000_000_000_000),
            spec: Spec::load(),
            addr: Mutex::new(addr.to_string()),
            faults: Mutex::new(Vec::new()),
            held: AtomicU64::new(0),
            nonces: Mutex::new(HashMap::new()),
            threads: Mutex::new(HashMap::new()),
            token_channels: Mutex::new(HashMap::new()),
        });
        let app = Router::new()
            .route("/ws", get(gateway))
            .fallback(rest)
            .with_state(state.clone());
        // Like Discord's servers, send without Nagle's delay: otherwise an event that follows
        // another one quickly waits for the bot's delayed acknowledgement (up to 40 ms).
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            let _ = tcp.set_nodelay(true);
        });
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Fake {
            base: format!("http://{addr}"),
            state,
        }
    }

    /// Answers the next `fault.times` matching requests with `fault`.
    pub fn inject(&self, fault: Fault) {
        self.state.faults.lock().unwrap().push(fault);
    }

    /// Whether `path` posts in `channel` or in one of its threads.
    pub fn in_channel(&self, path: &str, channel: u64) -> bool {
        let Some(at) = path
            .strip_prefix("/channels/")
            .and_then(|p| p.strip_suffix("/messages"))
            .and_then(|c| c.parse::<u64>().ok())
        else {
            return false;
        };
        at == channel
            || self
                .state
                .threads
                .lock()
                .unwrap()
                .get(&at)
                .is_some_and(|t| t.parent == channel)
    }

    /// The thread opened for a game whose name starts with `#{game} `.
    pub fn thread_of(&self, game: i64) -> Option<(u64, Thread)> {
        let prefix = format!("#{game} ");
        self.state
            .threads
            .lock()
            .unwrap()
            .iter()
            .find(|(_, t)| t.name.starts_with(&prefix))
            .map(|(&id, t)| (id, t.clone()))
    }

    pub fn new_id(&self) -> u64 {
        self.state.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Sends a gateway event to the connection of the shard its server belongs to (shard 0 for
    /// an event without a server), as Discord does.
    pub fn dispatch(&self, event: &str, data: Value) {
        let guild = data["guild_id"]
            .as_str()
            .and_then(|g| g.parse::<u64>().ok());
        let gateways = self.state.gateways.lock().unwrap();
        let (shard, tx) = gateways
            .iter()
            .find(|(&shard, (count, _))| guild.map_or(0, |g| shard_of(g, *count)) == shard)
            .map(|(&shard, (_, tx))| (shard, tx.clone()))
            .unwrap_or_else(|| panic!("no bot runs the shard of server {guild:?}"));
        drop(gateways);
        *self
            .state
            .dispatched
            .lock()
            .unwrap()
            .entry(shard)
            .or_default() += 1;
        tx.send(json!({"op": 0, "t": event, "d": data}))
            .expect("gateway open");
    }

    pub fn request_count(&self) -> usize {
        self.state.requests.lock().unwrap().len()
    }

    /// Waits until a request from index `from` on satisfies `pred`; returns it with its index.
    pub async fn wait_for(
        &self,
        from: usize,
        what: &str,
        pred: impl Fn(&Recorded) -> bool,
    ) -> (usize, Recorded) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(40);
        // Each request is looked at once: many waiters (the load benchmark) stay cheap.
        let mut next = from;
        loop {
            let notified = self.state.changed.notified();
            {
                let reqs = self.state.requests.lock().unwrap();
                if let Some((i, r)) = reqs.iter().enumerate().skip(next).find(|(_, r)| pred(r)) {
                    return (i, r.clone());
                }
                next = next.max(reqs.len());
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                let reqs = self.state.requests.lock().unwrap();
                let seen: Vec<String> = reqs[from.min(reqs.len())..]
                    .iter()
                    .map(|r| {
                        format!(
                            "{} {} {}",
                            r.method,
                            r.path,
                            r.json.as_ref().map(|j| j.to_string()).unwrap_or_default()
                        )
                    })
                    .collect();
                panic!("timed out waiting for {what}; requests since: {seen:#?}");
            }
        }
    }

    /// Waits for the `n`th READY (1 for the first connection).
    pub async fn wait_ready(&self, n: u64) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            let notified = self.state.changed.notified();
            if self.state.readies.load(Ordering::SeqCst) >= n
                && self.state.commands.lock().unwrap().len() >= 8
            {
                return;
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                panic!("the bot did not connect (ready #{n})");
            }
        }
    }

    pub fn violations(&self) -> Vec<String> {
        self.state.violations.lock().unwrap().clone()
    }
}

async fn gateway(State(state): State<Arc<FakeState>>, ws: WebSocketUpgrade) -> Response {
    ws.on_upgrade(move |socket| run_gateway(state, socket))
}

async fn run_gateway(state: Arc<FakeState>, mut socket: WebSocket) {
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41250}});
    if socket
        .send(Message::Text(hello.to_string().into()))
        .await
        .is_err()
    {
        return;
    }
    let (tx, mut rx) = mpsc::unbounded_channel::<Value>();
    let mut seq = 0u64;
    let mut identified: Option<u64> = None;
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let Some(Ok(msg)) = incoming else { break };
                let text = match msg {
                    Message::Text(t) => t.to_string(),
                    Message::Binary(b) => String::from_utf8_lossy(&b).to_string(),
                    Message::Close(_) => break,
                    _ => continue,
                };
                let Ok(v) = serde_json::from_str::<Value>(&text) else { continue };
                match v["op"].as_u64() {
                    Some(1) => {
                        let ack = json!({"op": 11});
                        if socket.send(Message::Text(ack.to_string().into())).await.is_err() { break; }
                    }
                    Some(2) => {
                        if v["d"]["token"].as_str().is_none() {
                            state.violations.lock().unwrap().push("IDENTIFY without token".into());
                        }
                        seq += 1;
                        let addr = state.addr.lock().unwrap().clone();
                        // `shard: [id, count]`, or one shard of one.
                        let shard = v["d"]["shard"][0].as_u64().unwrap_or(0);
                        let count = v["d"]["shard"][1].as_u64().unwrap_or(1);
                        let guilds: Vec<Value> = [GUILD_ID, GUILD2_ID]
                            .into_iter()
                            .filter(|&g| shard_of(g, count) == shard)
                            .map(|g| json!({"id": g.to_string(), "unavailable": true}))
                            .collect();
                        let ready = json!({"op": 0, "s": seq, "t": "READY", "d": {
                            "v": 10,
                            "user": {"id": BOT_ID.to_string(), "username": "hexcord", "discriminator": "0",
                                     "global_name": null, "avatar": null, "bot": true},
                            "guilds": guilds,
                            "session_id": format!("session-{seq}"),
                            "resume_gateway_url": format!("ws://{addr}/ws"),
                            "application": {"id": APP_ID.to_string(), "flags": 0}
                        }});
                        if socket.send(Message::Text(ready.to_string().into())).await.is_err() { break; }
                        state.gateways.lock().unwrap().insert(shard, (count, tx.clone()));
                        identified = Some(shard);
                        state.readies.fetch_add(1, Ordering::SeqCst);
                        state.changed.notify_waiters();
                    }
                    _ => {}
                }
            }
            out = rx.recv() => {
                let Some(mut event) = out else { break };
                seq += 1;
                event["s"] = json!(seq);
                if socket.send(Message::Text(event.to_string().into())).await.is_err() { break; }
            }
        }
    }
    // A connection that ended (a killed bot) no longer receives its shard's events.
    if let Some(shard) = identified {
        let mut gateways = state.gateways.lock().unwrap();
        if gateways
            .get(&shard)
            .is_some_and(|(_, open)| open.same_channel(&tx))
        {
            gateways.remove(&shard);
        }
    }
}

/// The channel where the interaction with `token` happened.
fn channel_of(state: &FakeState, token: &str) -> String {
    state
        .token_channels
        .lock()
        .unwrap()
        .get(token)
        .copied()
        .unwrap_or(CHANNEL_ID)
        .to_string()
}

fn message_object(state: &FakeState, channel: &str, body: &Value, files: usize) -> Value {
    let id = state.next_id.fetch_add(1, Ordering::Relaxed);
    let attachments: Vec<Value> = (0..files)
        .map(|i| {
            json!({"id": (id + 1 + i as u64).to_string(), "filename": "board.png", "size": 1,
                   "url": "https://cdn.example/board.png", "proxy_url": "https://cdn.example/board.png"})
        })
        .collect();
    json!({
        "id": id.to_string(),
        "channel_id": channel,
        "type": 0,
        "content": body.get("content").cloned().unwrap_or(json!("")),
        "author": {"id": BOT_ID.to_string(), "username": "hexcord", "discriminator": "0",
                   "global_name": null, "avatar": null, "bot": true, "public_flags": 0, "flags": 0},
        "mentions": [], "mention_roles": [], "attachments": attachments, "embeds": [],
        "timestamp": "2025-01-01T00:00:00+00:00", "edited_timestamp": null,
        "flags": body.get("flags").cloned().unwrap_or(json!(0)),
        "components": body.get("components").cloned().unwrap_or(json!([])),
        "pinned": false, "mention_everyone": false, "tts": false,
        "application_id": APP_ID.to_string()
    })
}

/// Whether an attachment is a decodable PNG or GIF, or else UTF-8 text.
fn attachment_decodes(bytes: &[u8]) -> bool {
    if bytes.starts_with(b"\x89PNG") {
        image::load_from_memory_with_format(bytes, image::ImageFormat::Png).is_ok()
    } else if bytes.starts_with(b"GIF8") {
        image::load_from_memory_with_format(bytes, image::ImageFormat::Gif).is_ok()
    } else {
        std::str::from_utf8(bytes).is_ok()
    }
}

async fn rest(State(state): State<Arc<FakeState>>, req: Request) -> Response {
    let method = req.method().clone();
    let full = req.uri().path().to_string();
    let content_type = req
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let Some(path) = full.strip_prefix("/api/v10").map(str::to_string) else {
        state
            .violations
            .lock()
            .unwrap()
            .push(format!("{method} {full}: not under /api/v10"));
        return StatusCode::NOT_FOUND.into_response();
    };
    let mut json_body = None;
    let mut files = Vec::new();
    if content_type.starts_with("multipart/form-data") {
        match Multipart::from_request(req, &()).await {
            Ok(mut mp) => {
                while let Ok(Some(field)) = mp.next_field().await {
                    let name = field.name().unwrap_or("").to_string();
                    let data: Bytes = field.bytes().await.unwrap_or_default();
                    if name == "payload_json" {
                        json_body = serde_json::from_slice(&data).ok();
                        if json_body.is_none() {
                            state
                                .violations
                                .lock()
                                .unwrap()
                                .push(format!("{method} {path}: payload_json is not JSON"));
                        }
                    } else {
                        files.push((name, data.to_vec()));
                    }
                }
            }
            Err(e) => state
                .violations
                .lock()
                .unwrap()
                .push(format!("{method} {path}: bad multipart: {e}")),
        }
    } else {
        let bytes = axum::body::to_bytes(req.into_body(), 16 << 20)
            .await
            .unwrap_or_default();
        if !bytes.is_empty() {
            match serde_json::from_slice::<Value>(&bytes) {
                Ok(v) => json_body = Some(v),
                Err(_) => state
                    .violations
                    .lock()
                    .unwrap()
                    .push(format!("{method} {path}: body is not JSON")),
            }
        }
    }

    // Check the request against the spec.
    match state.spec.operation(method.as_str(), &path) {
        Err(e) => state.violations.lock().unwrap().push(e),
        Ok(op) => {
            if let (Some(schema), Some(body)) = (op.body_schema, &json_body) {
                for e in state.spec.validate(schema, body) {
                    state
                        .violations
                        .lock()
                        .unwrap()
                        .push(format!("{method} {} body{e}", op.template));
                }
            }
            if op.body_schema.is_some() && json_body.is_none() && method != Method::GET {
                state
                    .violations
                    .lock()
                    .unwrap()
                    .push(format!("{method} {path}: no body"));
            }
        }
    }
    // Pictures (PNG boards, GIF replays) must decode; anything else is a text record. Decoding
    // a picture takes milliseconds: it runs on a blocking thread so that the fake keeps
    // answering other requests (and timing callbacks) meanwhile.
    let (files, decoded) = tokio::task::spawn_blocking(move || {
        // A decoder that panics marks the attachment as not decoding.
        let decoded: Vec<bool> = files
            .iter()
            .map(|(_, b)| std::panic::catch_unwind(|| attachment_decodes(b)).unwrap_or(false))
            .collect();
        (files, decoded)
    })
    .await
    .expect("the decoding thread ran");
    for ((name, bytes), content_ok) in files.iter().zip(decoded.iter().copied()) {
        let part_ok = name.starts_with("files[") && name.ends_with(']');
        if !part_ok || !content_ok {
            state.violations.lock().unwrap().push(format!(
                "{method} {path}: attachment `{name}` (part name ok: {part_ok}) does not decode: {content_ok}"
            ));
        }
        // Every picture carries a description (its alt text) for readers who cannot see it.
        let picture = bytes.starts_with(b"\x89PNG") || bytes.starts_with(b"GIF8");
        let id = name.trim_start_matches("files[").trim_end_matches(']');
        let described = json_body
            .as_ref()
            .and_then(|b| {
                // A message's own, or an interaction answer's (under `data`).
                b["attachments"]
                    .as_array()
                    .or_else(|| b["data"]["attachments"].as_array())
            })
            .and_then(|list| {
                list.iter().find(|a| {
                    a["id"].as_str() == Some(id)
                        || a["id"].as_u64().map(|n| n.to_string()).as_deref() == Some(id)
                })
            })
            .and_then(|a| a["description"].as_str())
            .is_some_and(|d| !d.trim().is_empty());
        if picture && !described {
            state.violations.lock().unwrap().push(format!(
                "{method} {path}: picture `{name}` has no description (alt text)"
            ));
        }
    }

    let fault = {
        let mut faults = state.faults.lock().unwrap();
        let at = faults
            .iter()
            .position(|f| f.method == method.as_str() && f.matches(&path) && f.times > 0);
        at.map(|i| {
            faults[i].times -= 1;
            faults[i].clone()
        })
    };
    if let Some(f) = fault {
        if !f.delay.is_zero() {
            state.held.fetch_add(1, Ordering::SeqCst);
            state.changed.notify_waiters();
            tokio::time::sleep(f.delay).await;
            state.held.fetch_sub(1, Ordering::SeqCst);
        }
        let mut answer = (
            StatusCode::from_u16(f.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            Json(f.body.clone()),
        )
            .into_response();
        if let Some(secs) = f.retry_after {
            if let Ok(v) = axum::http::HeaderValue::from_str(&secs.to_string()) {
                answer.headers_mut().insert("retry-after", v);
            }
        }
        state.requests.lock().unwrap().push(Recorded {
            method: method.to_string(),
            path,
            json: json_body,
            files,
            status: f.status,
            at: std::time::Instant::now(),
            duplicate: false,
        });
        state.changed.notify_waiters();
        return answer;
    }

    let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
    let body = json_body.clone().unwrap_or(Value::Null);
    let mut duplicate = false;
    let answer = match (method.as_str(), segs.as_slice()) {
        ("GET", ["gateway"]) => {
            let addr = state.addr.lock().unwrap().clone();
            Json(json!({"url": format!("ws://{addr}/ws")})).into_response()
        }
        ("PUT", ["applications", _, "guilds", _, "commands"])
        | ("PUT", ["applications", _, "commands"]) => {
            let mut out = Vec::new();
            let mut names = state.commands.lock().unwrap();
            for c in body.as_array().cloned().unwrap_or_default() {
                let id = state.next_id.fetch_add(1, Ordering::Relaxed);
                let name = c["name"].as_str().unwrap_or("").to_string();
                names.insert(name.clone(), id);
                let mut c = c.clone();
                c["id"] = json!(id.to_string());
                c["application_id"] = json!(APP_ID.to_string());
                c["version"] = json!(id.to_string());
                c["type"] = json!(c.get("type").and_then(Value::as_u64).unwrap_or(1));
                // Discord answers with permissions as a string.
                if let Some(bits) = c.get("default_member_permissions").and_then(Value::as_u64) {
                    c["default_member_permissions"] = json!(bits.to_string());
                }
                c["description"] =
                    json!(c.get("description").and_then(Value::as_str).unwrap_or(""));
                out.push(c);
            }
            Json(Value::Array(out)).into_response()
        }
        ("POST", ["interactions", _, token, "callback"]) => {
            if matches!(body["type"].as_u64(), Some(4) | Some(5)) {
                let data = body.get("data").cloned().unwrap_or(json!({}));
                let msg = message_object(&state, &channel_of(&state, token), &data, files.len());
                state
                    .originals
                    .lock()
                    .unwrap()
                    .insert(token.to_string(), msg);
            }
            StatusCode::NO_CONTENT.into_response()
        }
        ("GET", ["webhooks", _, token, "messages", "@original"]) => {
            match state.originals.lock().unwrap().get(*token) {
                Some(m) => Json(m.clone()).into_response(),
                None => StatusCode::NOT_FOUND.into_response(),
            }
        }
        ("POST", ["webhooks", _, token]) => Json(message_object(
            &state,
            &channel_of(&state, token),
            &body,
            files.len(),
        ))
        .into_response(),
        ("PATCH", ["webhooks", _, token, "messages", _]) => Json(message_object(
            &state,
            &channel_of(&state, token),
            &body,
            files.len(),
        ))
        .into_response(),
        ("POST", ["channels", channel, "messages"]) => {
            let nonce = body["enforce_nonce"]
                .as_bool()
                .unwrap_or(false)
                .then(|| body["nonce"].to_string());
            let mut nonces = state.nonces.lock().unwrap();
            match nonce.as_ref().and_then(|n| nonces.get(n)) {
                Some(earlier) => {
                    duplicate = true;
                    Json(earlier.clone()).into_response()
                }
                None => {
                    let m = message_object(&state, channel, &body, files.len());
                    if let Some(n) = nonce {
                        nonces.insert(n, m.clone());
                    }
                    Json(m).into_response()
                }
            }
        }
        ("PATCH", ["channels", channel, "messages", _]) => {
            Json(message_object(&state, channel, &body, files.len())).into_response()
        }
        ("POST", ["channels", channel, "messages", _, "threads"])
        | ("POST", ["channels", channel, "threads"]) => {
            let parent = channel.parse().unwrap_or(0);
            let from = segs.get(3).and_then(|m| m.parse().ok());
            let mut threads = state.threads.lock().unwrap();
            let taken = from.is_some_and(|m| threads.contains_key(&m));
            if taken || threads.contains_key(&parent) {
                // A message has one thread; a thread has none.
                (
                    StatusCode::BAD_REQUEST,
                    Json(json!({"message": "Cannot execute action on this channel type", "code": 50024})),
                )
                    .into_response()
            } else {
                let id = from.unwrap_or_else(|| state.next_id.fetch_add(1, Ordering::Relaxed));
                let t = Thread {
                    parent,
                    name: body["name"].as_str().unwrap_or("").to_string(),
                    from,
                    members: vec![BOT_ID],
                    archived: false,
                };
                let answer = t.json(id);
                threads.insert(id, t);
                Json(answer).into_response()
            }
        }
        ("PUT", ["channels", thread, "thread-members", user])
        | ("DELETE", ["channels", thread, "thread-members", user]) => {
            let (thread, user): (u64, u64) =
                (thread.parse().unwrap_or(0), user.parse().unwrap_or(0));
            match state.threads.lock().unwrap().get_mut(&thread) {
                Some(t) => {
                    t.members.retain(|&m| m != user);
                    if method == Method::PUT {
                        t.members.push(user);
                    }
                    StatusCode::NO_CONTENT.into_response()
                }
                None => (
                    StatusCode::NOT_FOUND,
                    Json(json!({"message": "Unknown Channel", "code": 10003})),
                )
                    .into_response(),
            }
        }
        ("PATCH", ["channels", thread]) => {
            let id: u64 = thread.parse().unwrap_or(0);
            match state.threads.lock().unwrap().get_mut(&id) {
                Some(t) => {
                    if let Some(a) = body["archived"].as_bool() {
                        t.archived = a;
                    }
                    Json(t.json(id)).into_response()
                }
                None => (
                    StatusCode::NOT_FOUND,
                    Json(json!({"message": "Unknown Channel", "code": 10003})),
                )
                    .into_response(),
            }
        }
        ("POST", ["users", "@me", "channels"]) => {
            let id = state.next_id.fetch_add(1, Ordering::Relaxed);
            let user = body["recipient_id"].as_str().unwrap_or("0").to_string();
            Json(json!({
                "id": id.to_string(), "type": 1, "last_message_id": null, "flags": 0,
                "recipients": [{"id": user, "username": "member", "discriminator": "0",
                                "global_name": null, "avatar": null, "public_flags": 0}]
            }))
            .into_response()
        }
        _ => {
            state
                .violations
                .lock()
                .unwrap()
                .push(format!("{method} {path}: the fake does not serve this"));
            StatusCode::NOT_FOUND.into_response()
        }
    };
    state.requests.lock().unwrap().push(Recorded {
        method: method.to_string(),
        path,
        json: json_body,
        files,
        status: answer.status().as_u16(),
        at: std::time::Instant::now(),
        duplicate,
    });
    state.changed.notify_waiters();
    answer
}

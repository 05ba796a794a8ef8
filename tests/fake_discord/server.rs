//! A fake Discord: the REST API and the gateway on 127.0.0.1, enough for the bot. Every request
//! the bot makes is recorded and checked against Discord's OpenAPI description.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::routing::get;
use axum::Router;
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, Notify};
use tokio_rustls::rustls;

use crate::spec::Spec;

// Paths spelled out: the benches (benches/bot.rs, benches/scale.rs) include this file by its
// path, which would look for its modules beside it instead of in server/.
#[path = "server/chats.rs"]
pub mod chats;
#[path = "server/gateway.rs"]
mod gateway;
#[path = "server/limits.rs"]
mod limits;
#[path = "server/rate_limits.rs"]
pub mod rate_limits;
#[path = "server/rest.rs"]
mod rest;

use gateway::gateway;
use rest::rest;

pub const APP_ID: u64 = 900_000_000_000_000_001;
pub const BOT_ID: u64 = 900_000_000_000_000_001;
pub const GUILD_ID: u64 = 910_000_000_000_000_001;
/// The one channel where the members play.
pub const CHANNEL_ID: u64 = 920_000_000_000_000_001;
/// The application's OAuth2 client secret, as the bot is configured with.
pub const CLIENT_SECRET: &str = "fake-client-secret-0123456789";
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
    /// The status answered; 200 serves the request as usual once `delay` is over (a slow
    /// answer from Discord).
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
    /// The gateway intents each shard identified with.
    intents: Mutex<HashMap<u64, u64>>,
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
    /// OAuth2: the authorization codes not yet exchanged and the access tokens, by member.
    pub oauth: Mutex<OAuth>,
    /// Discord's rate limits, and the 429s and invalid requests counted.
    pub limits: rate_limits::RateLimits,
    /// The messages the bot posted in channels, in order: (channel, message, whether it was
    /// posted with buttons, whether it still shows them).
    pub buttons: Mutex<Vec<(u64, u64, bool, bool)>>,
    /// Direct and group chats between members, by channel (the bot is in none: see `chats`).
    pub chats: Mutex<HashMap<u64, chats::Chat>>,
    /// Members who installed the app to their account.
    pub installed: Mutex<std::collections::HashSet<u64>>,
    /// Members who share no server with the bot (every other member does).
    pub strangers: Mutex<std::collections::HashSet<u64>>,
    /// Members who closed direct messages from server members (the bot's are refused).
    pub closed_dms: Mutex<std::collections::HashSet<u64>>,
    /// The bot's own direct message channels: the member of each.
    pub dms: Mutex<HashMap<u64, u64>>,
    /// The interaction tokens issued: when, and how much older the test made them since.
    pub tokens: Mutex<HashMap<String, (std::time::Instant, Duration)>>,
    /// The commands as registered, by name.
    pub registered: Mutex<HashMap<String, Value>>,
}

impl FakeState {
    /// Keeps whether a new message in `channel` shows buttons.
    fn keep_buttons(&self, channel: &str, message: &Value) {
        let id = message["id"].as_str().and_then(|i| i.parse().ok());
        let live = message["components"]
            .as_array()
            .is_some_and(|c| !c.is_empty());
        if let (Ok(channel), Some(id)) = (channel.parse(), id) {
            self.buttons.lock().unwrap().push((channel, id, live, live));
        }
    }

    /// An edit of `message` set its buttons to `components`.
    fn edit_buttons(&self, message: &str, components: &Value) {
        let live = components.as_array().is_some_and(|c| !c.is_empty());
        if let Ok(id) = message.parse::<u64>() {
            for m in self.buttons.lock().unwrap().iter_mut() {
                if m.1 == id {
                    m.3 = live;
                }
            }
        }
    }
}

/// What the fake's OAuth2 knows.
#[derive(Default)]
pub struct OAuth {
    pub codes: HashMap<String, u64>,
    pub access_tokens: HashMap<String, u64>,
    /// How long the access tokens it grants last, in seconds (Discord's week unless set).
    pub expires_in: Option<u64>,
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
            intents: Mutex::new(HashMap::new()),
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
            oauth: Mutex::new(OAuth::default()),
            limits: rate_limits::RateLimits::default(),
            buttons: Mutex::new(Vec::new()),
            chats: Mutex::new(HashMap::new()),
            installed: Mutex::new(Default::default()),
            strangers: Mutex::new(Default::default()),
            closed_dms: Mutex::new(Default::default()),
            dms: Mutex::new(HashMap::new()),
            tokens: Mutex::new(HashMap::new()),
            registered: Mutex::new(HashMap::new()),
        });
        let app = Router::new()
            .route("/ws", get(gateway))
            .fallback(rest)
            .with_state(state.clone());
        let tls = tls_acceptor();
        tokio::spawn(async move {
            loop {
                let Ok((tcp, _)) = listener.accept().await else {
                    continue;
                };
                // Like Discord's servers, send without Nagle's delay: otherwise an event that
                // follows another one quickly waits for the bot's delayed acknowledgement.
                let _ = tcp.set_nodelay(true);
                tokio::spawn(serve_connection(tcp, app.clone(), tls.clone()));
            }
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
        self.thread_named(&format!("#{game} "))
    }

    /// The thread whose name starts with `prefix`.
    pub fn thread_named(&self, prefix: &str) -> Option<(u64, Thread)> {
        self.state
            .threads
            .lock()
            .unwrap()
            .iter()
            .find(|(_, t)| t.name.starts_with(prefix))
            .map(|(&id, t)| (id, t.clone()))
    }

    /// An authorization code for `member`, as the Discord client gets when the member
    /// authorizes the application in an Activity (used once).
    pub fn authorize(&self, member: u64) -> String {
        let code = format!("code{}", self.new_id());
        self.state
            .oauth
            .lock()
            .unwrap()
            .codes
            .insert(code.clone(), member);
        code
    }

    pub fn new_id(&self) -> u64 {
        self.state.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Sends a gateway event to the connection of the shard its server belongs to (shard 0 for
    /// an event without a server), as Discord does: a member event (`GUILD_MEMBER_*`) only to a
    /// connection that identified with the Server Members intent. Whether it was sent.
    pub fn dispatch(&self, event: &str, data: Value) -> bool {
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
        const GUILD_MEMBERS: u64 = 1 << 1;
        let intents = self.state.intents.lock().unwrap().get(&shard).copied();
        if event.starts_with("GUILD_MEMBER_") && intents.unwrap_or(0) & GUILD_MEMBERS == 0 {
            return false;
        }
        *self
            .state
            .dispatched
            .lock()
            .unwrap()
            .entry(shard)
            .or_default() += 1;
        tx.send(json!({"op": 0, "t": event, "d": data}))
            .expect("gateway open");
        true
    }

    pub fn request_count(&self) -> usize {
        self.state.requests.lock().unwrap().len()
    }

    /// The requests that reached the OAuth2 token endpoint so far.
    pub fn token_requests(&self) -> usize {
        self.state
            .requests
            .lock()
            .unwrap()
            .iter()
            .filter(|r| r.path == "/oauth2/token")
            .count()
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

    /// Messages that still show buttons although a later message with buttons came after them
    /// in the same channel (old boards whose Move button should have been taken off).
    pub fn superseded_with_buttons(&self) -> Vec<(u64, u64)> {
        let buttons = self.state.buttons.lock().unwrap();
        let mut last: HashMap<u64, u64> = HashMap::new();
        for &(channel, id, posted_with, _) in buttons.iter() {
            if posted_with {
                last.insert(channel, id);
            }
        }
        buttons
            .iter()
            .filter(|&&(channel, id, _, live)| live && last.get(&channel) != Some(&id))
            .map(|&(channel, id, _, _)| (channel, id))
            .collect()
    }

    pub fn violations(&self) -> Vec<String> {
        self.state.violations.lock().unwrap().clone()
    }
}

/// The fake's TLS as `discord.com`: a certificate signed by the tests' own authority
/// (`tests/data/discord/tls/`, valid until 2126), which the bot is told to trust
/// (`DISCORD_API_CA`). The key is a throwaway made for these tests only.
fn tls_acceptor() -> tokio_rustls::TlsAcceptor {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/discord/tls");
    let cert = std::fs::read(dir.join("discord.com.der")).expect("the fake's certificate");
    let key = std::fs::read(dir.join("discord.com.key.der")).expect("the fake's key");
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .expect("TLS versions")
    .with_no_client_auth()
    .with_single_cert(
        vec![rustls::pki_types::CertificateDer::from(cert)],
        rustls::pki_types::PrivateKeyDer::Pkcs8(key.into()),
    )
    .expect("the fake's certificate and key");
    tokio_rustls::TlsAcceptor::from(Arc::new(config))
}

/// Serves one connection: plain HTTP (the gateway's WebSocket, the Activity's OAuth2), or an
/// HTTP proxy's `CONNECT` tunnel, inside which the fake answers as `https://discord.com`. The
/// bot's REST client reaches Discord that way, with serenity's rate limiter on as in production
/// (the limiter always sends to `https://discord.com`).
async fn serve_connection(
    mut tcp: tokio::net::TcpStream,
    app: Router,
    tls: tokio_rustls::TlsAcceptor,
) {
    let mut first = [0u8; 8];
    let tunnel = loop {
        match tcp.peek(&mut first).await {
            Ok(0) | Err(_) => return,
            Ok(n) if n >= first.len() || !b"CONNECT ".starts_with(&first[..n]) => {
                break first.starts_with(b"CONNECT ");
            }
            Ok(_) => tokio::time::sleep(Duration::from_millis(1)).await,
        }
    };
    if !tunnel {
        return serve_http(tcp, app).await;
    }
    // The proxy request's head, up to its blank line; then the tunnel is open.
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match tcp.read(&mut byte).await {
            Ok(1) if head.len() < 8192 => head.push(byte[0]),
            _ => return,
        }
    }
    if tcp
        .write_all(b"HTTP/1.1 200 Connection Established\r\n\r\n")
        .await
        .is_err()
    {
        return;
    }
    if let Ok(stream) = tls.accept(tcp).await {
        serve_http(stream, app).await;
    }
}

/// Serves HTTP/1.1 on `io` with the fake's routes (WebSocket upgrades included).
async fn serve_http<I>(io: I, app: Router)
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    use tower::ServiceExt;
    let service = hyper::service::service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
        app.clone().oneshot(req.map(axum::body::Body::new))
    });
    let _ = hyper::server::conn::http1::Builder::new()
        .serve_connection(hyper_util::rt::TokioIo::new(io), service)
        .with_upgrades()
        .await;
}

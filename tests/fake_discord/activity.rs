//! The game page inside Discord, as an Activity, in a real headless browser. The test plays
//! Discord's side: a client page (`client.html`, served here) holds the game page in a frame,
//! as Discord's client does, and answers the page's Embedded App SDK messages (the handshake
//! with READY, AUTHORIZE with a code from the fake Discord's OAuth2, AUTHENTICATE, the locale and
//! the instance's participants); the frame's addresses go through a proxy here under `/.proxy/`
//! that signs every request as Discord's Activity proxy does, to the bot's web board. Two
//! members, each in their own client, play a whole game of each kind by clicking, each opened
//! from the game's thread after the board's Play in Discord button answered LAUNCH_ACTIVITY,
//! while the fake Discord receives every board. A forged code, a code of another member than
//! the client's, and forged or stale proxy signatures are refused.
//!
//! The proxy works as Discord's does: the client puts a ticket in the frame's address
//! (`discord_proxy_ticket`), the proxy trades it for a `discord_proxy_token` cookie on the
//! page's origin (the payload it signs, with its expiry), and forwards only requests carrying a
//! token; a new ticket comes from the client (`REQUEST_PROXY_TICKET_REFRESH`) and is traded the
//! same way. With tokens and sessions made to last seconds, the page renews both ahead of their
//! expiry and plays after the first ones ran out.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{Query, Request, State};
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use base64::Engine;
use ed25519_dalek::{Signer, SigningKey};
use fantoccini::Client;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

use crate::discord::{components_of, Bot, Discord, Member, ANN, BOB, CAT};
use crate::server::{Fake, APP_ID, CLIENT_SECRET};
use crate::web_page::{click_move, get_json, js, moves_shown, until, Driver, EVERY_POST};

/// The application's key pair of the test (Discord keeps the private half).
fn app_key() -> SigningKey {
    SigningKey::from_bytes(&[42u8; 32])
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Discord's proxy headers for a payload made at `created` and expiring at `expires`, signed
/// with `key`.
fn proxy_headers(key: &SigningKey, created: i64, expires: i64, user: u64) -> [(String, String); 3] {
    let payload = json!({
        "created_at": created, "expires_at": expires, "user_id": user.to_string(),
        "application_id": APP_ID.to_string(),
    })
    .to_string();
    let signature = key.sign(payload.as_bytes()).to_bytes();
    [
        (
            "X-Discord-Proxy-Payload".to_string(),
            base64::engine::general_purpose::STANDARD.encode(payload.as_bytes()),
        ),
        ("X-Signature-Ed25519".to_string(), hex(&signature)),
        ("X-Signature-Timestamp".to_string(), created.to_string()),
    ]
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// What the Discord client of the test needs.
#[derive(Clone)]
struct ClientSide {
    fake: Arc<FakeRef>,
    /// The bot's web board (`http://127.0.0.1:port`).
    bot: String,
    http: hyper_util::client::legacy::Client<
        hyper_util::client::legacy::connect::HttpConnector,
        Body,
    >,
    proxy: Arc<ProxySide>,
}

/// Discord's proxy of the test: the tickets the client gave out, how long the tokens it sets
/// last, and what it saw.
struct ProxySide {
    /// Tickets not traded yet, and their members.
    tickets: std::sync::Mutex<std::collections::HashMap<String, u64>>,
    next: std::sync::atomic::AtomicU64,
    token_secs: i64,
    /// Tickets traded for tokens.
    traded: std::sync::atomic::AtomicUsize,
    /// Requests refused for want of a token (none, or a ticket it did not give out).
    refused: std::sync::atomic::AtomicUsize,
    /// Sessions the bot renewed, as the page asked through the proxy.
    renewed: std::sync::atomic::AtomicUsize,
}

impl ProxySide {
    /// A new ticket for `member`, as Discord's client gets one.
    fn ticket(&self, member: u64) -> String {
        let n = self.next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let ticket = format!("ticket-{member}-{n}");
        self.tickets.lock().unwrap().insert(ticket.clone(), member);
        ticket
    }
}

/// The fake Discord, shared with the client's handlers (its OAuth2 makes the codes).
struct FakeRef {
    state: Arc<crate::server::FakeState>,
    base: String,
}

impl FakeRef {
    fn authorize(&self, member: u64) -> String {
        Fake {
            base: self.base.clone(),
            state: self.state.clone(),
        }
        .authorize(member)
    }
}

/// The client's page: the game page in a frame, with the frame's query as Discord sets it.
async fn client_page(
    State(side): State<ClientSide>,
    Query(q): Query<std::collections::HashMap<String, String>>,
) -> Response {
    let member = q.get("member").cloned().unwrap_or_default();
    let channel = q.get("channel").cloned().unwrap_or_default();
    let forge = q.get("forge").cloned().unwrap_or_default();
    let others = q.get("others").cloned().unwrap_or_default();
    // In Discord's mobile app of that version (else on the desktop).
    let mobile = q.get("mobile").cloned().unwrap_or_default();
    let frame = format!("{member}-{channel}");
    // Popped out: the Activity's frame is in a window of its own, which this one opened.
    let popout = q.contains_key("popout");
    let iframe = if popout {
        String::new()
    } else {
        activity_frame(&side, &member, &channel, &mobile)
    };
    let html = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Discord</title>\
         <style>body{{margin:0}} iframe{{border:0;width:100vw;height:100vh}}</style></head>\
         <body data-member=\"{member}\" data-frame=\"{frame}\" data-forge=\"{forge}\" \
         data-others=\"{others}\" data-channel=\"{channel}\" data-mobile=\"{mobile}\" \
         data-popout=\"{}\">{iframe}\
         <script src=\"/client.js\"></script></body></html>",
        if popout { "1" } else { "" }
    );
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
}

/// The Activity's frame, with the frame's query as Discord sets it (a new proxy ticket in it):
/// on the desktop, or in the mobile app of version `mobile` when there is one.
fn activity_frame(side: &ClientSide, member: &str, channel: &str, mobile: &str) -> String {
    let ticket = side.proxy.ticket(member.parse().unwrap_or(0));
    let platform = match mobile {
        "" => "desktop".to_string(),
        v => format!("mobile&mobile_app_version={v}"),
    };
    let src = format!(
        "/.proxy/?instance_id=i-{channel}&location_id=gc-{channel}&launch_id=1\
         &frame_id={member}-{channel}&platform={platform}&guild_id={}&channel_id={channel}\
         &discord_proxy_ticket={ticket}",
        crate::server::GUILD_ID
    );
    format!("<iframe id=\"activity\" src=\"{src}\"></iframe>")
}

/// The Activity popped out: a window of the client holding only its frame.
async fn popout_page(
    State(side): State<ClientSide>,
    Query(q): Query<std::collections::HashMap<String, String>>,
) -> Response {
    let member = q.get("member").cloned().unwrap_or_default();
    let channel = q.get("channel").cloned().unwrap_or_default();
    let html = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Activity</title></head>\
         <body>{}</body></html>",
        activity_frame(&side, &member, &channel, "")
    );
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
}

/// The client's side of the Embedded App SDK's protocol, as Discord's client speaks it.
const CLIENT_JS: &str = r#"
const body = document.body.dataset;
window.seen = [];
window.failures = [];
// The Activity's window: in this page's frame, or in the popped-out window's.
let activity = () => document.getElementById('activity').contentWindow;
if (body.popout) {
  const popped = window.open(`/popout.html?member=${body.member}&channel=${body.channel}`, 'activity');
  activity = () => popped.document.getElementById('activity').contentWindow;
}
const send = (op, payload) => activity().postMessage([op, payload], location.origin);
const answer = (cmd, nonce, data) => send(1, { cmd, evt: null, nonce, data });
const user = (id) => ({ id, username: `member${id.slice(-3)}`, discriminator: '0', avatar: null, global_name: null });
let token = null;
window.addEventListener('message', async (event) => {
  if (event.source !== activity() || !Array.isArray(event.data)) return;
  const [op, m] = event.data;
  if (op === 0) {
    window.seen.push('HANDSHAKE');
    // The SDK's version: on the desktop, and in the mobile app from version 250.x (a version
    // without a dot is unknown to the SDK: none).
    const mobile = body.mobile;
    const versioned = !mobile || (mobile.includes('.') && parseInt(mobile.split('.')[0], 10) >= 250);
    if (m.v !== 1 || m.encoding !== 'json' || m.frame_id !== body.frame || m.client_id !== '__APP__'
        || (versioned ? m.sdk_version !== '2.5.0' : 'sdk_version' in m)) {
      window.failures.push(`handshake ${JSON.stringify(m)}`);
      return;
    }
    // The READY of a client signed in as another member, when asked to forge one.
    const me = body.forge === 'member' ? '__OTHER__' : body.member;
    send(1, { cmd: 'DISPATCH', evt: 'READY', nonce: null,
      data: { v: 1, config: { api_endpoint: '//discord.com/api', environment: 'production' }, user: user(me) } });
    return;
  }
  if (op !== 1) return;
  window.seen.push(m.cmd);
  const a = m.args || {};
  switch (m.cmd) {
    case 'AUTHORIZE': {
      if (a.client_id !== '__APP__' || a.response_type !== 'code' || !(a.scope || []).includes('identify')) {
        window.failures.push(`authorize ${JSON.stringify(a)}`);
      }
      let code = 'forged-code';
      if (body.forge !== 'code') code = await (await fetch(`/code?member=${body.member}`)).text();
      answer('AUTHORIZE', m.nonce, { code });
      break;
    }
    case 'AUTHENTICATE':
      token = a.access_token;
      if (!token) window.failures.push('authenticate without a token');
      answer('AUTHENTICATE', m.nonce, { access_token: token, user: user(body.member), scopes: ['identify'],
        expires: new Date(Date.now() + 3600000).toISOString(), application: { id: '__APP__', name: 'hexcord' } });
      break;
    case 'USER_SETTINGS_GET_LOCALE':
      answer(m.cmd, m.nonce, { locale: 'en-US' });
      break;
    case 'REQUEST_PROXY_TICKET_REFRESH': {
      const ticket = await (await fetch(`/ticket?member=${body.member}`)).text();
      answer(m.cmd, m.nonce, { ticket });
      break;
    }
    case 'SUBSCRIBE':
      answer(m.cmd, m.nonce, { evt: m.evt });
      break;
    case 'GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS': {
      const ids = [body.member, ...body.others.split(',').filter((x) => x)];
      answer(m.cmd, m.nonce, { participants: ids.map((id) => ({ ...user(id), nickname: `nick${id.slice(-1)}` })) });
      break;
    }
    default:
      send(1, { cmd: m.cmd, evt: 'ERROR', nonce: m.nonce, data: { code: 4002, message: 'unknown command' } });
  }
});
"#;

async fn client_js() -> Response {
    let js = CLIENT_JS
        .replace("__APP__", &APP_ID.to_string())
        .replace("__OTHER__", &CAT.id.to_string());
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        js,
    )
        .into_response()
}

/// A new proxy ticket for `member`, as the client gets one from Discord.
async fn ticket(
    State(side): State<ClientSide>,
    Query(q): Query<std::collections::HashMap<String, String>>,
) -> String {
    let member: u64 = q.get("member").and_then(|m| m.parse().ok()).unwrap_or(0);
    side.proxy.ticket(member)
}

/// An authorization code for `member`, as the client gets when the member authorizes the app.
async fn code(
    State(side): State<ClientSide>,
    Query(q): Query<std::collections::HashMap<String, String>>,
) -> String {
    let member: u64 = q.get("member").and_then(|m| m.parse().ok()).unwrap_or(0);
    side.fake.authorize(member)
}

/// The proxy's token in a request's cookies, when it is the proxy's own: its payload's
/// creation, expiry and member.
fn proxy_token(headers: &axum::http::HeaderMap) -> Option<(i64, i64, u64)> {
    let cookies = headers.get(header::COOKIE)?.to_str().ok()?;
    let token = cookies
        .split(';')
        .find_map(|c| c.trim().strip_prefix("discord_proxy_token="))?;
    let (payload, signature) = token.split_once('.')?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(payload)
        .ok()?;
    let sig: [u8; 64] = (0..64)
        .map(|i| u8::from_str_radix(signature.get(2 * i..2 * i + 2)?, 16).ok())
        .collect::<Option<Vec<u8>>>()?
        .try_into()
        .ok()?;
    use ed25519_dalek::Verifier;
    app_key()
        .verifying_key()
        .verify(&bytes, &ed25519_dalek::Signature::from_bytes(&sig))
        .ok()?;
    let v: Value = serde_json::from_slice(&bytes).ok()?;
    Some((
        v["created_at"].as_i64()?,
        v["expires_at"].as_i64()?,
        v["user_id"].as_str()?.parse().ok()?,
    ))
}

/// Discord's Activity proxy: `/.proxy/…` to the bot's `/…`, signed with the request's token.
/// A request carrying a ticket (`discord_proxy_ticket`) trades it for a new token, set as the
/// `discord_proxy_token` cookie; one with neither a ticket nor a token is refused here. An
/// expired token is forwarded as it is, and the bot refuses it.
async fn proxy(State(side): State<ClientSide>, request: Request) -> Response {
    use std::sync::atomic::Ordering;
    let path = request.uri().path();
    let rest = path.strip_prefix("/.proxy").unwrap_or(path).to_string();
    let query = request.uri().query().unwrap_or("").to_string();
    let ticket = query
        .split('&')
        .find_map(|p| p.strip_prefix("discord_proxy_ticket="))
        .map(str::to_string);
    let mut set_cookie = None;
    let token = match ticket {
        Some(ticket) => {
            let Some(member) = side.proxy.tickets.lock().unwrap().remove(&ticket) else {
                side.proxy.refused.fetch_add(1, Ordering::SeqCst);
                return (StatusCode::FORBIDDEN, "not a ticket of Discord's").into_response();
            };
            side.proxy.traded.fetch_add(1, Ordering::SeqCst);
            let t = now();
            let [(_, payload), (_, signature), _] =
                proxy_headers(&app_key(), t, t + side.proxy.token_secs, member);
            set_cookie = Some(format!(
                "discord_proxy_token={payload}.{signature}; Path=/; SameSite=Lax"
            ));
            (t, t + side.proxy.token_secs, member)
        }
        None => match proxy_token(request.headers()) {
            Some(token) => token,
            None => {
                side.proxy.refused.fetch_add(1, Ordering::SeqCst);
                return (StatusCode::FORBIDDEN, "no proxy token").into_response();
            }
        },
    };
    let query = if query.is_empty() {
        String::new()
    } else {
        format!("?{query}")
    };
    let Ok(uri) = format!("{}{rest}{query}", side.bot).parse::<Uri>() else {
        return StatusCode::BAD_REQUEST.into_response();
    };
    let renewal = rest == "/api/activity/session";
    let (mut parts, body) = request.into_parts();
    parts.uri = uri;
    parts.headers.remove(header::HOST);
    parts.headers.remove(header::COOKIE);
    let (created, expires, member) = token;
    for (k, v) in proxy_headers(&app_key(), created, expires, member) {
        parts.headers.insert(
            axum::http::HeaderName::from_bytes(k.as_bytes()).expect("a header name"),
            v.parse().expect("a header value"),
        );
    }
    match side.http.request(Request::from_parts(parts, body)).await {
        Ok(answer) => {
            if renewal && answer.status().is_success() {
                side.proxy.renewed.fetch_add(1, Ordering::SeqCst);
            }
            let mut answer = answer.map(Body::new).into_response();
            if let Some(cookie) = set_cookie {
                answer
                    .headers_mut()
                    .append(header::SET_COOKIE, cookie.parse().expect("a cookie"));
            }
            answer
        }
        Err(e) => (StatusCode::BAD_GATEWAY, e.to_string()).into_response(),
    }
}

/// Serves the client on 127.0.0.1, its proxy's tokens lasting `token_secs`; its address and
/// its proxy.
async fn serve_client(fake: &Fake, bot: &str, token_secs: i64) -> (String, Arc<ProxySide>) {
    let proxy_side = Arc::new(ProxySide {
        tickets: Default::default(),
        next: Default::default(),
        token_secs,
        traded: Default::default(),
        refused: Default::default(),
        renewed: Default::default(),
    });
    let side = ClientSide {
        fake: Arc::new(FakeRef {
            state: fake.state.clone(),
            base: fake.base.clone(),
        }),
        bot: bot.to_string(),
        http: hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
            .build_http(),
        proxy: proxy_side.clone(),
    };
    let app = Router::new()
        .route("/client.html", get(client_page))
        .route("/popout.html", get(popout_page))
        .route("/client.js", get(client_js))
        .route("/code", get(code))
        .route("/ticket", get(ticket))
        .route("/.proxy", axum::routing::any(proxy))
        .route("/.proxy/", axum::routing::any(proxy))
        .route("/.proxy/{*rest}", axum::routing::any(proxy))
        .with_state(side);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (format!("http://{addr}"), proxy_side)
}

/// A request to `url` with `headers` and a JSON `body` (a GET without one): the status and the
/// answer as JSON.
async fn request(
    method: &str,
    url: &str,
    headers: &[(String, String)],
    body: Option<Value>,
) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let rest = url.strip_prefix("http://").expect("an http address");
    let (host, path) = rest.split_once('/').expect("a path");
    let mut socket = tokio::net::TcpStream::connect(host).await.expect("connect");
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut head = format!("{method} /{path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if !body.is_empty() {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    head.push_str("\r\n");
    socket
        .write_all(format!("{head}{body}").as_bytes())
        .await
        .expect("send");
    let mut answer = String::new();
    socket.read_to_string(&mut answer).await.expect("read");
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// A session for `who`, signed in as the page does (a code from the fake Discord's OAuth2).
async fn session(d: &Discord, bot: &str, who: &Member) -> String {
    let code = d.fake.authorize(who.id);
    let (status, body) = request(
        "POST",
        &format!("{bot}/api/token"),
        &[],
        Some(json!({"code": code, "user": who.id.to_string()})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(body["access_token"].as_str().is_some_and(|t| !t.is_empty()));
    body["session"].as_str().expect("a session").to_string()
}

/// Forged codes, another member's code, forged sessions and forged or stale proxy signatures
/// are refused, each with words saying why.
async fn refusals(d: &Discord, bot: &str, game: i64) {
    let post = |body: Value| async move {
        request("POST", &format!("{bot}/api/token"), &[], Some(body)).await
    };
    let (status, body) = post(json!({"code": "forged-code"})).await;
    assert_eq!(status, 403, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap_or("")
            .contains("did not confirm"),
        "{body}"
    );
    // Bob's code, from a client that says it runs for Ann.
    let code = d.fake.authorize(BOB.id);
    let (status, body) = post(json!({"code": code, "user": ANN.id.to_string()})).await;
    assert_eq!(status, 403, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap_or("")
            .contains("another member"),
        "{body}"
    );
    let (status, body) = post(json!({"code": ""})).await;
    assert_eq!(status, 400, "{body}");
    // A session with a forged seal, and one whose member was changed.
    let real = session(d, bot, &ANN).await;
    let forged = format!("{}0", &real[..real.len() - 1]);
    let forged = if forged == real {
        format!("{}1", &real[..real.len() - 1])
    } else {
        forged
    };
    let state = format!("{bot}/api/game/{game}/state");
    let (status, body) = get_json(&state, Some(&forged)).await;
    assert_eq!(status, 403, "{body}");
    let other = real.replacen(&ANN.id.to_string(), &BOB.id.to_string(), 1);
    let (status, _) = get_json(&state, Some(&other)).await;
    assert_eq!(status, 403);
    // A member who does not play the game watches it, and cannot move in it.
    let cat = session(d, bot, &CAT).await;
    let (status, body) = get_json(&state, Some(&cat)).await;
    assert_eq!(status, 200, "{body}");
    assert!(body["you"].is_null() && body["legal"].as_array().is_some_and(|l| l.is_empty()));
    let (status, body) = request(
        "POST",
        &format!("{bot}/api/game/{game}/move"),
        &[("Authorization".to_string(), format!("Bearer {cat}"))],
        Some(json!({"move": "pass", "version": 0})),
    )
    .await;
    assert_eq!(status, 403, "{body}");
    assert!(
        body["error"].as_str().unwrap_or("").contains("watching"),
        "{body}"
    );
    // Proxy signatures: the application's passes; another key's, a stale one and a partial
    // set are refused (401) before anything is served.
    let t = now();
    let signed = |key: &SigningKey, created: i64, expires: i64| {
        proxy_headers(key, created, expires, ANN.id).to_vec()
    };
    let (status, _) = request("GET", &state, &signed(&app_key(), t, t + 600), None).await;
    assert_eq!(status, 200);
    let forger = SigningKey::from_bytes(&[9u8; 32]);
    for (what, headers) in [
        ("another key", signed(&forger, t, t + 600)),
        ("expired", signed(&app_key(), t - 1200, t - 600)),
        ("from the future", signed(&app_key(), t + 3600, t + 4200)),
        ("partial", signed(&app_key(), t, t + 600)[..2].to_vec()),
    ] {
        let (status, body) = request("GET", &state, &headers, None).await;
        assert_eq!(status, 401, "{what}: {body}");
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{what}"
        );
        let (status, _) = request(
            "POST",
            &format!("{bot}/api/token"),
            &headers,
            Some(json!({"code": d.fake.authorize(ANN.id)})),
        )
        .await;
        assert_eq!(status, 401, "{what}: the sign-in too");
    }
}

/// Opens `who`'s client in `channel` (with `others` in the Activity) and waits for the game.
async fn open(c: &Client, client: &str, who: &Member, channel: u64, others: &[&Member]) {
    let others: Vec<String> = others.iter().map(|m| m.id.to_string()).collect();
    c.goto(&format!(
        "{client}/client.html?member={}&channel={channel}&others={}",
        who.id,
        others.join(",")
    ))
    .await
    .expect("open the client");
    c.enter_parent_frame().await.expect("the top");
    c.enter_frame(0).await.expect("the Activity's frame");
    until(
        c,
        "the game in the Activity",
        "return document.querySelector('#board svg') !== null",
    )
    .await;
}

/// The client's record: every command and the problems it found (read from the top frame).
async fn client_record(c: &Client) -> (Vec<String>, Vec<String>) {
    c.enter_parent_frame().await.expect("the top");
    let record = client_record_top(c).await;
    c.enter_frame(0).await.expect("the Activity's frame");
    record
}

/// [`client_record`] from the client's window, which the browser is in.
async fn client_record_top(c: &Client) -> (Vec<String>, Vec<String>) {
    let seen = js(c, "return window.seen").await;
    let failures = js(c, "return window.failures").await;
    let strings = |v: Value| -> Vec<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    (strings(seen), strings(failures))
}

/// Two members play a whole game of each kind in the Activity, by clicking, launched from the
/// board's Play in Discord button in the game's thread; the fake Discord gets every board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_members_play_in_the_activity_and_forgeries_are_refused() {
    use crate::common::boards_seen;
    let started = Instant::now();
    let d = Discord::start("activity").await;
    let public_key = hex(&app_key().verifying_key().to_bytes());
    let mut bot = Bot::start_with(
        &d,
        &[
            ("DISCORD_CLIENT_SECRET", CLIENT_SECRET),
            ("DISCORD_PUBLIC_KEY", &public_key),
        ],
    )
    .await;
    d.fake.wait_ready(1).await;
    // With Activities on, the Entry Point command is registered, globally (the slash commands
    // go to the development server), for Discord to launch the page itself.
    let global = format!("/applications/{APP_ID}/commands");
    let (_, registration) = d
        .fake
        .wait_for(0, "the global registration", |r| {
            r.method == "PUT" && r.path == global
        })
        .await;
    let registered = registration.json.expect("the commands as JSON");
    let entry: Vec<&Value> = registered
        .as_array()
        .expect("a list of commands")
        .iter()
        .filter(|c| c["type"] == 4)
        .collect();
    assert_eq!(entry.len(), 1, "{registered}");
    assert_eq!(
        (&entry[0]["name"], &entry[0]["handler"]),
        (&json!("launch"), &json!(2)),
        "{}",
        entry[0]
    );
    assert_eq!(entry[0]["name_localizations"]["ja"], "盤を開く");
    let driver = Driver::start().await;
    let pages = [
        driver.browser(420, 900).await,
        driver.browser(420, 900).await,
    ];
    let mut rng = SmallRng::seed_from_u64(2028);
    let mut client = None;
    let size4 = json!({"name": "size", "type": 4, "value": 4});
    let tiles = json!({"name": "tiles", "type": 4, "value": 2});
    for (kind, option) in [("inphexion", size4), ("exxit", tiles)] {
        let ch = d.challenge(&ANN, &BOB, kind, &[option]).await;
        let game = d.accept(&BOB, &ch).await;
        let board = d.last_board(game.id);
        let buttons: Vec<&Value> = components_of(&board["components"]).collect();
        let watch = buttons
            .iter()
            .find(|c| c["label"] == "Watch live")
            .and_then(|c| c["url"].as_str())
            .unwrap_or_else(|| panic!("no Watch live link: {board}"));
        let bot_web = watch
            .split("/game/")
            .next()
            .expect("the web board")
            .to_string();
        let launch = buttons
            .iter()
            .find(|c| c["label"] == "Play in Discord")
            .and_then(|c| c["custom_id"].as_str())
            .unwrap_or_else(|| panic!("no Play in Discord button: {board}"))
            .to_string();
        // The button answers LAUNCH_ACTIVITY (type 12, no message), in the game's thread.
        let (thread, _) = d.fake.thread_of(game.id).expect("the game's thread");
        d.act_in(thread);
        let launched = d.press_id(&BOB, &d.shown_post(&board), &launch).await;
        assert_eq!(launched.callback_type, 12, "{launched:?}");
        assert!(launched.content.is_empty());
        d.act_in(d.channel());
        let client = match &client {
            Some(c) => c,
            None => {
                refusals(&d, &bot_web, game.id).await;
                client.insert(serve_client(&d.fake, &bot_web, 600).await.0)
            }
        };
        let seats = [&ANN, &BOB];
        for (seat, who) in seats.iter().enumerate() {
            open(&pages[seat], client, who, thread, &[seats[1 - seat]]).await;
        }
        let api = format!("{bot_web}/api/game/{}", game.id);
        let sessions = [
            session(&d, &bot_web, &ANN).await,
            session(&d, &bot_web, &BOB).await,
        ];
        let mut ply = 0usize;
        loop {
            let (_, public) = get_json(&format!("{api}/state"), None).await;
            let Some(to_move) = public["to_move"].as_u64().map(|s| s as usize) else {
                break;
            };
            assert!(ply < 400, "{kind}: the game goes on and on");
            // The member of the seat to move (by colour, either may have the first seat).
            let mut mover = None;
            for (i, s) in sessions.iter().enumerate() {
                let (status, mine) = get_json(&format!("{api}/state"), Some(s)).await;
                assert_eq!(status, 200, "{mine}");
                if mine["you"]["seat"].as_u64() == Some(to_move as u64) {
                    mover = Some((i, mine));
                }
            }
            let (i, mine) = mover.unwrap_or_else(|| panic!("{kind}: nobody has seat {to_move}"));
            let legal = mine["legal"].as_array().cloned().unwrap_or_default();
            assert!(!legal.is_empty(), "{kind}: the mover has moves: {mine}");
            let chosen = legal[rng.random_range(0..legal.len())].clone();
            let page = &pages[i];
            until(
                page,
                "the mover's Activity to offer the move",
                &format!(
                    "return document.querySelectorAll('#moves li:not(.none)').length === {ply} \
                     && (document.querySelector('#board .target.next') !== null \
                     || document.querySelector('#controls button.move') !== null)"
                ),
            )
            .await;
            click_move(page, &chosen, false).await;
            ply += 1;
            // The other member's Activity shows it live; a post refused for speed is tried again.
            let other = &pages[1 - i];
            let started_move = Instant::now();
            while moves_shown(other).await != ply {
                let refused = js(
                    page,
                    "const a = document.getElementById('alert'); \
                     return !a.hidden && a.dataset.kind === 'refusal'",
                )
                .await;
                if refused == Value::Bool(true) {
                    tokio::time::sleep(EVERY_POST).await;
                    click_move(page, &chosen, false).await;
                }
                assert!(
                    started_move.elapsed() < Duration::from_secs(20),
                    "{kind}: move {ply} never reached the other Activity"
                );
                tokio::time::sleep(Duration::from_millis(25)).await;
            }
            let waited = Instant::now();
            while boards_seen(&d, game.id, ply as i64) == 0 {
                assert!(
                    waited.elapsed() < Duration::from_secs(15),
                    "{kind}: no board of move {ply} in Discord"
                );
                tokio::time::sleep(Duration::from_millis(25)).await;
            }
        }
        for (seat, page) in pages.iter().enumerate() {
            until(
                page,
                "the result",
                "return !document.getElementById('result').hidden",
            )
            .await;
            // The instance's participants are shown, by the names the client gives.
            let names = js(
                page,
                "return [...document.querySelectorAll('#participants li')].map(l => l.textContent)",
            )
            .await;
            let who = seats[seat];
            assert_eq!(
                names,
                json!([
                    format!("nick{}", who.id % 10),
                    format!("nick{}", seats[1 - seat].id % 10)
                ]),
                "participants"
            );
            let (seen, failures) = client_record(page).await;
            assert!(failures.is_empty(), "{failures:?}");
            for cmd in [
                "HANDSHAKE",
                "AUTHORIZE",
                "AUTHENTICATE",
                "USER_SETTINGS_GET_LOCALE",
                "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS",
            ] {
                assert!(seen.iter().any(|s| s == cmd), "{cmd} in {seen:?}");
            }
        }
        eprintln!("{kind}: {ply} moves played in the Activity, each posted");
    }
    // In the Activity: a forged code and a client of another member are refused in words.
    let client = client.expect("the client");
    for (forge, words) in [("code", "did not confirm"), ("member", "another member")] {
        let page = &pages[0];
        page.enter_parent_frame().await.expect("the top");
        page.goto(&format!(
            "{client}/client.html?member={}&channel={}&forge={forge}",
            ANN.id,
            d.channel()
        ))
        .await
        .expect("open the client");
        page.enter_frame(0).await.expect("the frame");
        until(
            page,
            "the refusal",
            &format!(
                "const a = document.getElementById('alert'); \
                 return !a.hidden && a.textContent.includes({})",
                json!(words)
            ),
        )
        .await;
        let shown = js(page, "return document.querySelector('#board svg') === null").await;
        assert_eq!(shown, Value::Bool(true), "{forge}: no game is opened");
    }
    // In Discord's mobile app the handshake says the SDK's version from version 250.x on, as the
    // SDK does; the client checks it (`failures`), and the member signs in each time.
    for mobile in ["250.2", "249.0", "250"] {
        let page = &pages[0];
        page.enter_parent_frame().await.expect("the top");
        page.goto(&format!(
            "{client}/client.html?member={}&channel={}&mobile={mobile}",
            ANN.id,
            d.channel()
        ))
        .await
        .expect("open the client");
        until(
            page,
            "the mobile Activity signed in",
            "return window.seen.includes('AUTHENTICATE') || window.failures.length > 0",
        )
        .await;
        let (_, failures) = client_record_top(page).await;
        assert!(failures.is_empty(), "mobile {mobile}: {failures:?}");
    }
    // Popped out of Discord's window, the Activity still speaks to the client, which opened it.
    let page = &pages[0];
    page.enter_parent_frame().await.expect("the top");
    page.goto(&format!(
        "{client}/client.html?member={}&channel={}&popout=1",
        ANN.id,
        d.channel()
    ))
    .await
    .expect("open the client");
    until(
        page,
        "the popped-out Activity signed in",
        "return window.seen.includes('AUTHENTICATE') \
         && window.seen.includes('GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS')",
    )
    .await;
    let (_, failures) = client_record_top(page).await;
    assert!(failures.is_empty(), "popped out: {failures:?}");
    for c in pages {
        let _ = c.close().await;
    }
    d.end(&mut bot, "activity", started).await;
}

/// Sessions and proxy tokens lasting seconds (Discord's access token 6 s, the proxy's tokens
/// 4 s): both members' Activities renew them ahead of their expiry, through the bot's session
/// renewal and the client's new proxy tickets, and play moves well after the first ones ran
/// out; no request is ever refused for want of a token, and no page shows a refusal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_game_in_the_activity_renews_its_session_and_proxy_token() {
    use crate::common::boards_seen;
    use std::sync::atomic::Ordering;
    let started = Instant::now();
    let d = Discord::start("activity-renewals").await;
    let public_key = hex(&app_key().verifying_key().to_bytes());
    let mut bot = Bot::start_with(
        &d,
        &[
            ("DISCORD_CLIENT_SECRET", CLIENT_SECRET),
            ("DISCORD_PUBLIC_KEY", &public_key),
        ],
    )
    .await;
    d.fake.wait_ready(1).await;
    const SESSION_SECS: u64 = 6;
    const TOKEN_SECS: i64 = 4;
    d.fake.state.oauth.lock().unwrap().expires_in = Some(SESSION_SECS);
    let size4 = json!({"name": "size", "type": 4, "value": 4});
    let ch = d.challenge(&ANN, &BOB, "inphexion", &[size4]).await;
    let game = d.accept(&BOB, &ch).await;
    let board = d.last_board(game.id);
    let bot_web = components_of(&board["components"])
        .find(|c| c["label"] == "Watch live")
        .and_then(|c| c["url"].as_str())
        .and_then(|w| w.split("/game/").next())
        .unwrap_or_else(|| panic!("no Watch live link: {board}"))
        .to_string();
    let (thread, _) = d.fake.thread_of(game.id).expect("the game's thread");
    let (client, proxy) = serve_client(&d.fake, &bot_web, TOKEN_SECS).await;
    let driver = Driver::start().await;
    let pages = [
        driver.browser(420, 900).await,
        driver.browser(420, 900).await,
    ];
    let seats = [&ANN, &BOB];
    for (seat, who) in seats.iter().enumerate() {
        open(&pages[seat], &client, who, thread, &[seats[1 - seat]]).await;
    }
    // Every session and token given so far is gone by then.
    let first_expired = Instant::now() + Duration::from_secs(SESSION_SECS + 1);
    let api = format!("{bot_web}/api/game/{}", game.id);
    let mut rng = SmallRng::seed_from_u64(2029);
    for ply in 1..=3usize {
        // Each move a few seconds after the last: well past the first session and token.
        let due = first_expired + Duration::from_secs(3 * (ply as u64 - 1));
        tokio::time::sleep_until(due.into()).await;
        let (_, public) = get_json(&format!("{api}/state"), None).await;
        let to_move = public["to_move"].as_u64().expect("the game goes on");
        // The member of the seat to move, asked with a session of the test's own.
        let mut mover = None;
        for (i, who) in seats.iter().enumerate() {
            let mine = session(&d, &bot_web, who).await;
            let (status, state) = get_json(&format!("{api}/state"), Some(&mine)).await;
            assert_eq!(status, 200, "{state}");
            if state["you"]["seat"].as_u64() == Some(to_move) {
                mover = Some((i, state));
            }
        }
        let (i, mine) = mover.expect("a member to move");
        let legal = mine["legal"].as_array().cloned().unwrap_or_default();
        let chosen = legal[rng.random_range(0..legal.len())].clone();
        let page = &pages[i];
        until(
            page,
            "the mover's Activity to offer the move, signed in still",
            &format!(
                "return document.querySelectorAll('#moves li:not(.none)').length === {} \
                 && (document.querySelector('#board .target.next') !== null \
                 || document.querySelector('#controls button.move') !== null)",
                ply - 1
            ),
        )
        .await;
        click_move(page, &chosen, false).await;
        let moved = Instant::now();
        while moves_shown(&pages[1 - i]).await != ply {
            assert!(
                moved.elapsed() < Duration::from_secs(20),
                "move {ply} never reached the other Activity"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        while boards_seen(&d, game.id, ply as i64) == 0 {
            assert!(
                moved.elapsed() < Duration::from_secs(20),
                "no board of move {ply} in Discord"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        eprintln!(
            "move {ply} played {:?} after the test began (sessions last {SESSION_SECS} s, \
             proxy tokens {TOKEN_SECS} s)",
            started.elapsed()
        );
    }
    for (seat, page) in pages.iter().enumerate() {
        let refusal = js(
            page,
            "const a = document.getElementById('alert'); \
             return !a.hidden && a.dataset.kind === 'refusal' && a.textContent",
        )
        .await;
        assert_eq!(refusal, Value::Bool(false), "seat {seat}: nothing refused");
        let (seen, failures) = client_record(page).await;
        assert!(failures.is_empty(), "{failures:?}");
        let tickets = seen
            .iter()
            .filter(|s| *s == "REQUEST_PROXY_TICKET_REFRESH")
            .count();
        assert!(tickets >= 3, "seat {seat}: {tickets} new proxy tickets");
    }
    // Both members' sessions renewed (each once at least: a renewed one lasts a day), every
    // ticket traded, and no request without a token.
    let renewed = proxy.renewed.load(Ordering::SeqCst);
    assert!(renewed >= 2, "{renewed} sessions renewed");
    let traded = proxy.traded.load(Ordering::SeqCst);
    assert!(traded >= 2 + 6, "{traded} tickets traded");
    assert_eq!(proxy.refused.load(Ordering::SeqCst), 0, "requests refused");
    eprintln!("{renewed} sessions renewed, {traded} proxy tickets traded, none refused");
    assert!(d.fake.violations().is_empty(), "{:?}", d.fake.violations());
    for c in pages {
        let _ = c.close().await;
    }
    d.end(&mut bot, "activity-renewals", started).await;
}

/// A raw HTTP/1.1 request: the status, the head (lower case) and the body.
async fn raw(host: &str, request: String) -> (u16, String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut socket = tokio::net::TcpStream::connect(host).await.expect("connect");
    socket.write_all(request.as_bytes()).await.expect("send");
    let mut answer = Vec::new();
    socket.read_to_end(&mut answer).await.expect("read");
    let answer = String::from_utf8_lossy(&answer).to_string();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, head.to_ascii_lowercase(), body.to_string())
}

/// A sign-in posting `body` (raw) from `from` (as a local reverse proxy forwards it).
fn sign_in(host: &str, from: &str, body: &str) -> String {
    format!(
        "POST /api/token HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nX-Forwarded-For: {from}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// 300 junk sign-in codes at once from one address: the malformed ones never reach Discord,
/// the well-formed ones only up to the address's burst; the rest are answered 429 with
/// `Retry-After`. A member at another address signs in at once, and the flooder's address
/// again once its bucket refills.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_junk_codes_barely_reaches_discords_token_endpoint() {
    let d = Discord::start("activity-flood").await;
    let mut bot = Bot::start_with(&d, &[("DISCORD_CLIENT_SECRET", CLIENT_SECRET)]).await;
    d.fake.wait_ready(1).await;
    let size4 = json!({"name": "size", "type": 4, "value": 4});
    let ch = d.challenge(&ANN, &BOB, "inphexion", &[size4]).await;
    let game = d.accept(&BOB, &ch).await;
    let board = d.last_board(game.id);
    let watch = components_of(&board["components"])
        .find(|c| c["label"] == "Watch live")
        .and_then(|c| c["url"].as_str())
        .unwrap_or_else(|| panic!("no Watch live link: {board}"))
        .to_string();
    let host = watch
        .strip_prefix("http://")
        .and_then(|w| w.split('/').next())
        .expect("the web board's host")
        .to_string();
    let before = d.fake.token_requests();
    let flooder = "198.51.100.66";
    let long = "a".repeat(65);
    let malformed = [
        json!({"code": ""}).to_string(),
        json!({"code": "   "}).to_string(),
        json!({"code": long}).to_string(),
        json!({"code": "a b"}).to_string(),
        json!({"code": "<script>"}).to_string(),
        json!({"code": "ok", "user": "not-a-member"}).to_string(),
        json!({"code": 42}).to_string(),
        "not json".to_string(),
    ];
    let bodies: Vec<String> = (0..300)
        .map(|i| match i % 3 {
            0 => malformed[(i / 3) % malformed.len()].clone(),
            _ => json!({"code": format!("junk{i}")}).to_string(),
        })
        .collect();
    let started = Instant::now();
    let answers = futures_util::future::join_all(
        bodies
            .iter()
            .map(|body| raw(&host, sign_in(&host, flooder, body))),
    )
    .await;
    let took = started.elapsed();
    let reached = d.fake.token_requests() - before;
    // The address's burst, and a refill or two if the flood was slow.
    let allowed = 10 + (took.as_secs() / 6) as usize + 1;
    assert!(
        reached <= allowed,
        "{reached} of 300 junk codes reached Discord in {took:?}"
    );
    let count = |s: u16| answers.iter().filter(|a| a.0 == s).count();
    assert_eq!(count(400), 100, "every malformed code refused at once");
    assert_eq!(count(400) + count(403) + count(429), 300, "{answers:?}");
    assert_eq!(
        count(403),
        reached,
        "each code Discord saw was refused by it"
    );
    assert!(
        answers
            .iter()
            .filter(|a| a.0 == 429)
            .all(|a| a.1.contains("retry-after: ") && a.2.contains("Too many sign-ins")),
        "{answers:?}"
    );
    // A member at another address signs in.
    let code = d.fake.authorize(ANN.id);
    let body = json!({"code": code, "user": ANN.id.to_string()}).to_string();
    let (status, _, answer) = raw(&host, sign_in(&host, "203.0.113.5", &body)).await;
    assert_eq!(status, 200, "{answer}");
    // The flooder's address waits for its bucket, then signs in.
    let code = d.fake.authorize(BOB.id);
    let body = json!({"code": code}).to_string();
    let mut refused = 0;
    loop {
        let (status, head, answer) = raw(&host, sign_in(&host, flooder, &body)).await;
        if status == 200 {
            break;
        }
        assert_eq!(status, 429, "{head}{answer}");
        refused += 1;
        assert!(refused < 3, "the flooder's address stays refused");
        let wait: u64 = head
            .lines()
            .find_map(|l| l.strip_prefix("retry-after: "))
            .and_then(|s| s.trim().parse().ok())
            .expect("a Retry-After");
        assert!((1..=6).contains(&wait), "{wait}");
        tokio::time::sleep(Duration::from_secs(wait)).await;
    }
    assert!(
        refused > 0 || started.elapsed() >= Duration::from_secs(6),
        "the flooder's address was not refused right after the flood"
    );
    assert!(d.fake.violations().is_empty(), "{:?}", d.fake.violations());
    bot.kill().await;
}

//! The game page inside Discord: an Activity (Discord's Embedded App SDK frame), on when
//! `DISCORD_CLIENT_SECRET` is set.
//!
//! The page, in Discord's frame, asks the client to authorize the application (`identify`) and
//! sends the code it gets to `POST /api/token`, which exchanges it at Discord's OAuth2 token
//! endpoint with the client secret and asks `GET /users/@me` with the access token who the member
//! is. The answer is the access token (the page authenticates the SDK with it) and a session:
//! `<user>.<expiry>.<HMAC-SHA-256>` keyed by the client secret, so it is checked without any
//! storage and by every process of the bot alike. The page sends the session as
//! `Authorization: Bearer` where a link's token goes otherwise: the member plays their own side
//! of a game they play, and watches any other.
//!
//! Requests through Discord's proxy are checked against the application's public key when
//! `DISCORD_PUBLIC_KEY` is set ([`super::proxy`]); each member is then counted on their own by
//! the per-client limits (without the key, by the proxy's address).
//!
//! **Set-up**, with the web board on HTTPS at `PUBLIC_URL`, in the Developer Portal
//! (<https://discord.com/developers/applications>), then a restart of the bot:
//!
//! 1. **OAuth2**: the **Client Secret** goes in `DISCORD_CLIENT_SECRET`; add a redirect, any HTTPS
//!    address of the operator's (the Activity never follows it).
//! 2. **Activities → URL Mappings**: map `/` to `PUBLIC_URL`'s host (`hexcord.example.org`).
//!    Discord opens `/` with its frame's query (`frame_id` …), which gets the game page, not the
//!    front page.
//! 3. **Activities → Settings**: turn Activities on, for the platforms wanted.
//! 4. Optionally, the **Public Key** in `DISCORD_PUBLIC_KEY`: proxied requests are then checked
//!    (below).
//!
//! Every code sent to Discord is a request that Discord counts against the application when it
//! fails (too many failures in 10 minutes and all of the bot's traffic is banned for a while),
//! so no stranger may make many: a code that cannot be Discord's is refused (400) without
//! asking, codes are limited per client ([`super::server::Client`]: [`SIGN_INS_BURST`] at once)
//! and in all ([`ALL_SIGN_INS_BURST`]; 429 with
//! `Retry-After`), and none is sent while Discord itself asks to wait. Nothing else a stranger
//! sends makes the bot call Discord: a session is checked by its seal alone.
//!
//! A session lasts [`SESSION_SECS`] (less when Discord's access token expires sooner); the page
//! renews it ahead of its expiry (`POST /api/activity/session`, [`renew`]: a still-valid session
//! for a new one), and the proxy's ticket likewise (the SDK's `REQUEST_PROXY_TICKET_REFRESH`,
//! `assets/web/activity.js`), so a game of several hours in the Activity is never cut off.
//!
//! `GET /api/activity` gives the page the application's id (learned when the bot connects) and
//! its first words; `GET /api/activity/games?channel=…` says which game the Activity opens: the
//! game of the thread it was launched in, else the member's game to move, else the list of
//! their games.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use hmac::{Hmac, KeyInit, Mac};
use serde::Deserialize;
use serde_json::json;
use sha2::{Digest, Sha256};

use super::answer::{bearer, read_json, Failure};
use super::limit::{Every, Limiter};
use super::server::Client;
use super::texts::{accepted_lang, page_texts};
use super::Web;
use crate::config::Token;
use crate::db::{self, ChannelId, UserId};
use crate::i18n::Lang;
use crate::play::access::player_to_move;
use crate::play::actions;
use crate::text;

/// Discord's API, unless `DISCORD_API_BASE` names another (the tests' fake Discord).
pub const DISCORD: &str = "https://discord.com";

/// The longest a session lasts (less when Discord's access token expires sooner).
pub const SESSION_SECS: i64 = 24 * 3600;

/// The longest authorization code accepted (Discord's are about 30 letters and digits).
pub const MAX_CODE: usize = 64;
/// Codes one client may have exchanged at once, and one more after each period: a member signs
/// in once each time they open the Activity.
pub const SIGN_INS_BURST: f64 = 10.0;
pub const SIGN_INS_EVERY: Duration = Duration::from_secs(6);
/// Codes all clients together may have exchanged at once, and one more after each period: at
/// most about 1,200 requests to Discord's token endpoint in 10 minutes, an eighth of the failed
/// requests Discord tolerates from an application before it bans all its traffic for a while.
pub const ALL_SIGN_INS_BURST: f64 = 30.0;
pub const ALL_SIGN_INS_EVERY: Duration = Duration::from_millis(500);
/// How long no code is sent after Discord answered 429 without saying how long to wait.
pub const DISCORD_WAIT: Duration = Duration::from_secs(60);

/// What the Activity needs: the secret, where Discord is, the application's id.
pub struct Activity {
    secret: Token,
    /// The key of the sessions' seals, derived from the secret.
    seal_key: [u8; 32],
    api_base: String,
    /// The application's id, learned when the bot connects to Discord.
    pub app_id: Arc<OnceLock<u64>>,
    http: reqwest::Client,
    /// The check of Discord's proxy signature, when `DISCORD_PUBLIC_KEY` is set.
    pub proxy: Option<super::proxy::ProxyCheck>,
    /// Codes exchanged per client, and in all.
    sign_ins: Limiter,
    all_sign_ins: Limiter,
    /// No code is sent to Discord before then (it answered 429).
    discord_wait: Mutex<Option<Instant>>,
    /// Sign-ins refused by the limits, reported once a minute.
    refused: Every,
}

impl Activity {
    /// The Activity with the client `secret`, Discord at `api_base` (default [`DISCORD`]), and
    /// the application's public key, when set, for the proxy's signatures.
    pub fn new(
        secret: Token,
        api_base: Option<&str>,
        app_id: Arc<OnceLock<u64>>,
        public_key: Option<[u8; 32]>,
    ) -> anyhow::Result<Activity> {
        let digest = Sha256::new()
            .chain_update(b"hexcord activity sessions\0")
            .chain_update(secret.expose().as_bytes())
            .finalize();
        let mut seal_key = [0u8; 32];
        seal_key.copy_from_slice(&digest);
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .map_err(|e| anyhow::anyhow!("an HTTP client for Discord's OAuth2: {e}"))?;
        let proxy = public_key
            .map(|k| super::proxy::ProxyCheck::new(&k))
            .transpose()?;
        Ok(Activity {
            secret,
            seal_key,
            api_base: api_base
                .unwrap_or(DISCORD)
                .trim_end_matches('/')
                .to_string(),
            app_id,
            http,
            proxy,
            sign_ins: Limiter::new(SIGN_INS_BURST, SIGN_INS_EVERY),
            all_sign_ins: Limiter::new(ALL_SIGN_INS_BURST, ALL_SIGN_INS_EVERY),
            discord_wait: Mutex::new(None),
            refused: Every::new(super::server::REPORT_EVERY),
        })
    }

    /// Admits a code of `client` to be sent to Discord at `now`, or says how long to wait: the
    /// client's limit first (a refused client takes nothing from the others' share), then
    /// everyone's, then Discord's own request to wait.
    fn admit(&self, client: &str, now: Instant) -> Result<(), Duration> {
        let admitted = self
            .sign_ins
            .take(client, now)
            .and_then(|()| self.all_sign_ins.take("", now))
            .and_then(|()| {
                let until = self.discord_wait.lock().ok().and_then(|w| *w);
                match until {
                    Some(until) if until > now => Err(until - now),
                    _ => Ok(()),
                }
            });
        if admitted.is_err() {
            if let Some(refused) = self.refused.due(now) {
                tracing::warn!(
                    refused,
                    client,
                    "activity: sign-ins refused in the last minute (too many at once)"
                );
            }
        }
        admitted
    }

    /// Holds every code back as long as Discord's 429 answer says (`Retry-After`, else a
    /// minute), from `now`; how long that is.
    fn hold_off(&self, headers: &reqwest::header::HeaderMap, now: Instant) -> Duration {
        let wait = headers
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s > 0.0)
            .map_or(DISCORD_WAIT, |s| Duration::from_secs_f64(s.min(3600.0)));
        if let Ok(mut until) = self.discord_wait.lock() {
            *until = Some(now + wait);
        }
        wait
    }

    /// The seal of a session's `body` (empty only if HMAC refused the key, which it never does:
    /// then no session is valid).
    fn seal(&self, body: &str) -> String {
        let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(&self.seal_key) else {
            return String::new();
        };
        mac.update(body.as_bytes());
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// A session for `user` until `expires` (Unix time).
    pub fn session(&self, user: UserId, expires: i64) -> String {
        let body = format!("{}.{expires}", user.0);
        let seal = self.seal(&body);
        format!("{body}.{seal}")
    }

    /// A new session for the member of `session`, still valid at `now`: [`SESSION_SECS`] from
    /// `now`, and its expiry. `None` (nothing issued) when `session` is forged or expired.
    pub fn renew(&self, session: &str, now: i64) -> Option<(String, i64)> {
        let user = self.member(session, now)?;
        let expires = now + SESSION_SECS;
        Some((self.session(user, expires), expires))
    }

    /// The member of a session still valid at `now`; `None` when it is forged or expired.
    pub fn member(&self, session: &str, now: i64) -> Option<UserId> {
        let (body, seal) = session.rsplit_once('.')?;
        let (user, expires) = body.split_once('.')?;
        let user: u64 = user.parse().ok()?;
        let expires: i64 = expires.parse().ok()?;
        let expected = self.seal(body);
        // Compared in constant time: a seal is not found byte by byte.
        let same = !expected.is_empty()
            && expected.len() == seal.len()
            && expected
                .bytes()
                .zip(seal.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0;
        (same && expires > now).then_some(UserId(user))
    }
}

/// Whether a bearer token is a session (a link's token is 64 hex digits, a session has dots).
pub fn is_session(token: &str) -> bool {
    token.contains('.')
}

/// The member of an Activity's session: refused (403) when it is forged or expired, or the
/// Activity is off.
pub(super) fn session_member(web: &Web, session: &str, lang: Lang) -> Result<UserId, Failure> {
    web.activity
        .as_ref()
        .and_then(|a| a.member(session, web.core.clock.now()))
        .ok_or_else(|| {
            Failure::new(
                StatusCode::FORBIDDEN,
                lang,
                text!("activity-session-invalid"),
            )
        })
}

/// The Activity of `web`, or the refusal when it is off.
fn activity(web: &Web, lang: Lang) -> Result<&Activity, Failure> {
    web.activity
        .as_ref()
        .ok_or_else(|| Failure::new(StatusCode::NOT_FOUND, lang, text!("activity-off")))
}

/// `GET /api/activity`: the application's id and the page's words before a game is chosen.
pub async fn info(State(web): State<Arc<Web>>, headers: HeaderMap) -> Result<Response, Failure> {
    let lang = accepted_lang(&headers).unwrap_or_default();
    let activity = activity(&web, lang)?;
    let Some(id) = activity.app_id.get() else {
        return Err(Failure::new(
            StatusCode::SERVICE_UNAVAILABLE,
            lang,
            text!("activity-not-ready"),
        ));
    };
    Ok((
        [(header::CACHE_CONTROL, "no-store")],
        Json(json!({
            "client_id": id.to_string(),
            "lang": super::texts::lang_code(lang),
            "texts": page_texts(lang),
        })),
    )
        .into_response())
}

#[derive(Deserialize)]
struct TokenBody {
    code: String,
    /// The member the page was told it runs for (the client's READY), checked against the one
    /// the access token names.
    user: Option<String>,
}

#[derive(Deserialize)]
struct OAuthToken {
    access_token: String,
    expires_in: Option<i64>,
}

#[derive(Deserialize)]
struct Me {
    id: String,
    username: Option<String>,
    global_name: Option<String>,
}

/// Whether `code` may be an authorization code of Discord's (a few dozen letters and digits):
/// anything else is refused without asking Discord.
fn well_formed_code(code: &str) -> bool {
    (1..=MAX_CODE).contains(&code.len())
        && code
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Whether `id` may be a Discord id (a snowflake: up to 20 digits).
fn snowflake(id: &str) -> bool {
    (1..=20).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_digit())
}

/// `POST /api/token`: the authorization code exchanged for an access token, its member, and
/// their session. Codes are exchanged within [`SIGN_INS_BURST`] / [`SIGN_INS_EVERY`] per
/// client and [`ALL_SIGN_INS_BURST`] / [`ALL_SIGN_INS_EVERY`] in all, and none while Discord
/// asks to wait (429).
pub async fn token(
    State(web): State<Arc<Web>>,
    client: Option<Extension<Client>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Failure> {
    let lang = accepted_lang(&headers).unwrap_or_default();
    let activity = activity(&web, lang)?;
    let body: TokenBody = read_json(&body, lang)?;
    let code = body.code.trim();
    if !well_formed_code(code) {
        return Err(Failure::new(
            StatusCode::BAD_REQUEST,
            lang,
            text!("activity-code-refused"),
        ));
    }
    if body.user.as_deref().is_some_and(|u| !snowflake(u)) {
        return Err(Failure::new(
            StatusCode::BAD_REQUEST,
            lang,
            text!("web-bad-request", why = "user"),
        ));
    }
    let Some(client_id) = activity.app_id.get().map(u64::to_string) else {
        return Err(Failure::new(
            StatusCode::SERVICE_UNAVAILABLE,
            lang,
            text!("activity-not-ready"),
        ));
    };
    let client = client.map_or_else(|| "local".into(), |Extension(c)| c.0);
    activity.admit(&client, Instant::now()).map_err(|wait| {
        Failure::new(
            StatusCode::TOO_MANY_REQUESTS,
            lang,
            text!("activity-too-many"),
        )
        .retry_after(wait)
    })?;
    let unreachable = |e: &dyn std::fmt::Display| {
        tracing::warn!("activity: Discord's OAuth2 did not answer: {e}");
        Failure::new(
            StatusCode::BAD_GATEWAY,
            lang,
            text!("activity-discord-unreachable"),
        )
    };
    let exchanged = activity
        .http
        .post(format!("{}/api/v10/oauth2/token", activity.api_base))
        .form(&[
            ("client_id", client_id.as_str()),
            ("client_secret", activity.secret.expose()),
            ("grant_type", "authorization_code"),
            ("code", code),
        ])
        .send()
        .await
        .map_err(|e| unreachable(&e))?;
    let status = exchanged.status();
    if status == reqwest::StatusCode::TOO_MANY_REQUESTS {
        let wait = activity.hold_off(exchanged.headers(), Instant::now());
        tracing::warn!(
            secs = wait.as_secs(),
            "activity: Discord's OAuth2 asks to wait; no code is sent until then"
        );
        return Err(Failure::new(
            StatusCode::TOO_MANY_REQUESTS,
            lang,
            text!("activity-too-many"),
        )
        .retry_after(wait));
    }
    let bytes = exchanged.bytes().await.map_err(|e| unreachable(&e))?;
    if status.is_server_error() {
        return Err(unreachable(&status));
    }
    let granted: OAuthToken = match serde_json::from_slice(&bytes) {
        Ok(t) if status.is_success() => t,
        _ => {
            tracing::info!(%status, "activity: Discord refused an authorization code");
            return Err(Failure::new(
                StatusCode::FORBIDDEN,
                lang,
                text!("activity-code-refused"),
            ));
        }
    };
    let me = activity
        .http
        .get(format!("{}/api/v10/users/@me", activity.api_base))
        .bearer_auth(&granted.access_token)
        .send()
        .await
        .map_err(|e| unreachable(&e))?;
    let status = me.status();
    let bytes = me.bytes().await.map_err(|e| unreachable(&e))?;
    let me: Me = match serde_json::from_slice(&bytes) {
        Ok(me) if status.is_success() => me,
        _ => {
            tracing::info!(%status, "activity: Discord did not say whose access token it is");
            return Err(Failure::new(
                StatusCode::FORBIDDEN,
                lang,
                text!("activity-code-refused"),
            ));
        }
    };
    let Ok(user) = me.id.parse::<u64>() else {
        return Err(Failure::new(
            StatusCode::FORBIDDEN,
            lang,
            text!("activity-code-refused"),
        ));
    };
    if let Some(claimed) = body.user.as_deref().filter(|c| *c != me.id) {
        tracing::info!(
            user,
            claimed,
            "activity: a code for another member than the page's"
        );
        return Err(Failure::new(
            StatusCode::FORBIDDEN,
            lang,
            text!("activity-wrong-member"),
        ));
    }
    let now = web.core.clock.now();
    let lasts = granted
        .expires_in
        .filter(|&s| s > 0)
        .map_or(SESSION_SECS, |s| s.min(SESSION_SECS));
    let session = activity.session(UserId(user), now + lasts);
    let name = me.global_name.or(me.username).unwrap_or_default();
    Ok((
        [(header::CACHE_CONTROL, "no-store")],
        Json(json!({
            "access_token": granted.access_token,
            "session": session,
            "expires_in": lasts,
            "user": {"id": me.id, "name": name},
        })),
    )
        .into_response())
}

/// `POST /api/activity/session`: the session sent as `Authorization: Bearer`, still valid,
/// exchanged for a new one lasting [`SESSION_SECS`] from now (`{"session", "expires_in"}`, in
/// seconds). The page renews its session this way ahead of its expiry, so that an Activity open
/// for hours never meets a refusal mid-game. A forged or expired session is refused (401) and
/// nothing is issued; nothing is asked of Discord.
pub async fn renew(State(web): State<Arc<Web>>, headers: HeaderMap) -> Result<Response, Failure> {
    let lang = accepted_lang(&headers).unwrap_or_default();
    let activity = activity(&web, lang)?;
    let now = web.core.clock.now();
    let (session, expires) = bearer(&headers)
        .filter(|t| is_session(t))
        .and_then(|t| activity.renew(t, now))
        .ok_or_else(|| {
            Failure::new(
                StatusCode::UNAUTHORIZED,
                lang,
                text!("activity-session-invalid"),
            )
        })?;
    Ok((
        [(header::CACHE_CONTROL, "no-store")],
        Json(json!({ "session": session, "expires_in": expires - now })),
    )
        .into_response())
}

/// `GET /api/activity/games?channel=…`: the game the Activity opens (`{"game": id}`), or the
/// member's games to choose from (`{"games": […]}`).
pub async fn games(
    State(web): State<Arc<Web>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, Failure> {
    let lang = accepted_lang(&headers).unwrap_or_default();
    let activity = activity(&web, lang)?;
    let user = bearer(&headers)
        .filter(|t| is_session(t))
        .and_then(|t| activity.member(t, web.core.clock.now()))
        .ok_or_else(|| {
            Failure::new(
                StatusCode::UNAUTHORIZED,
                lang,
                text!("activity-session-invalid"),
            )
        })?;
    let pool = &web.core.pool;
    let failed = |e: db::DbError| Failure::of(e.into(), StatusCode::SERVICE_UNAVAILABLE, lang, 0);
    let answer =
        |v: serde_json::Value| ([(header::CACHE_CONTROL, "no-store")], Json(v)).into_response();
    let channel = query
        .as_deref()
        .unwrap_or("")
        .split('&')
        .find_map(|pair| pair.strip_prefix("channel="))
        .and_then(|c| c.parse::<u64>().ok());
    if let Some(channel) = channel {
        if let Some(game) = db::game_of_thread(pool, ChannelId(channel))
            .await
            .map_err(failed)?
        {
            return Ok(answer(json!({ "game": game })));
        }
    }
    let rows = db::active_games_of(pool, None, user)
        .await
        .map_err(failed)?;
    let mut list = Vec::new();
    for row in rows {
        let Ok((row, game)) = actions::load(pool, row.id).await else {
            continue;
        };
        let your_turn = player_to_move(&row, &game) == user;
        let mut names = Vec::new();
        for &p in &row.players {
            let name = db::fetch_name(pool, p).await.map_err(failed)?;
            names.push(crate::play::words::name_in(lang, name, String::new));
        }
        list.push((row.id, your_turn, game.kind(), names));
    }
    let to_move: Vec<i64> = list.iter().filter(|g| g.1).map(|g| g.0).collect();
    if let [game] = to_move.as_slice() {
        return Ok(answer(json!({ "game": game })));
    }
    let games: Vec<serde_json::Value> = list
        .into_iter()
        .map(|(id, your_turn, kind, names)| {
            json!({
                "id": id,
                "kind": kind.name(),
                "players": names,
                "your_turn": your_turn,
            })
        })
        .collect();
    Ok(answer(json!({ "games": games })))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn activity(secret: &str) -> Activity {
        let config = crate::config::Config::from_lookup(|k| {
            (k == "DISCORD_CLIENT_SECRET").then(|| secret.to_string())
        })
        .expect("settings");
        let secret = config.client_secret.expect("a secret");
        Activity::new(secret, None, Arc::new(OnceLock::new()), None).expect("the Activity")
    }

    #[test]
    fn a_session_names_its_member_until_it_expires_and_cannot_be_forged() {
        let a = activity("first-secret-0123456789");
        let ann = UserId(930_000_000_000_000_001);
        let s = a.session(ann, 1_000);
        assert!(is_session(&s) && !is_session(&"ab".repeat(32)));
        assert_eq!(a.member(&s, 999), Some(ann));
        assert_eq!(a.member(&s, 1_000), None, "expired");
        // Another member, a later expiry, another secret's seal, or no seal: refused.
        let other = s.replacen("930000000000000001", "930000000000000002", 1);
        assert_eq!(a.member(&other, 999), None);
        let later = s.replacen(".1000.", ".9999.", 1);
        assert_eq!(a.member(&later, 999), None);
        let b = activity("second-secret-0123456789");
        assert_eq!(b.member(&s, 999), None);
        assert_eq!(a.member("930000000000000001.1000", 999), None);
        assert_eq!(a.member("", 999), None);
    }

    #[test]
    fn a_valid_session_is_renewed_with_a_later_expiry_and_no_other_is() {
        let a = activity("first-secret-0123456789");
        let ann = UserId(930_000_000_000_000_001);
        let s = a.session(ann, 1_000);
        let (renewed, expires) = a.renew(&s, 990).expect("renewed while valid");
        assert_eq!(expires, 990 + SESSION_SECS);
        assert!(expires > 1_000);
        assert_eq!(
            a.member(&renewed, 1_000),
            Some(ann),
            "valid past the old expiry"
        );
        assert_eq!(a.member(&renewed, expires - 1), Some(ann));
        assert_eq!(
            a.member(&renewed, expires),
            None,
            "and it expires in its turn"
        );
        // Expired, forged, another secret's: nothing issued.
        assert_eq!(a.renew(&s, 1_000), None);
        assert_eq!(a.renew(&s.replacen(".1000.", ".9999.", 1), 990), None);
        assert_eq!(
            a.renew(
                &s.replacen("930000000000000001", "930000000000000002", 1),
                990
            ),
            None
        );
        assert_eq!(activity("second-secret-0123456789").renew(&s, 990), None);
        assert_eq!(a.renew("", 990), None);
    }
}

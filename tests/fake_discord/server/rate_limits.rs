//! Discord's rate limits, as the fake enforces them
//! (<https://discord.com/developers/docs/topics/rate-limits>):
//!
//! - **Global**: [`GLOBAL_LIMIT`] requests a second from the bot, all routes together; the
//!   interaction endpoints (`/interactions/…`, and the interactions' webhooks `/webhooks/…`) are
//!   exempt. Over it: 429 with `X-RateLimit-Global: true` and `X-RateLimit-Scope: global`.
//! - **Per route**: messages posted in one channel, and messages edited in one channel, each
//!   [`CHANNEL_LIMIT`] per [`CHANNEL_WINDOW`]. Every answer on such a route carries the bucket's
//!   `X-RateLimit-Limit`, `-Remaining`, `-Reset`, `-Reset-After` and `-Bucket`, which serenity's
//!   limiter reads; over it: 429 with `X-RateLimit-Scope: user`.
//! - **Invalid requests**: answers 401, 403 and 429 (but those of scope `shared`) are counted;
//!   past [`INVALID_LIMIT`] in ten minutes the application is banned for an hour, every request
//!   answered 429 as Cloudflare does.
//!
//! The windows slide: no second holds more than the limit, however the requests fall.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// Requests a second from a bot, all routes together.
pub const GLOBAL_LIMIT: usize = 50;
/// Messages posted (or edited) in one channel per [`CHANNEL_WINDOW`].
pub const CHANNEL_LIMIT: usize = 5;
pub const CHANNEL_WINDOW: Duration = Duration::from_secs(5);
/// Invalid requests (401, 403, 429) in ten minutes before a ban.
pub const INVALID_LIMIT: usize = 10_000;
const INVALID_WINDOW: Duration = Duration::from_secs(600);
const BAN: Duration = Duration::from_secs(3600);

/// The times of the requests served in a window, oldest first.
#[derive(Default)]
struct Window {
    times: VecDeque<Instant>,
}

impl Window {
    fn forget(&mut self, now: Instant, window: Duration) {
        while self
            .times
            .front()
            .is_some_and(|&t| now.duration_since(t) >= window)
        {
            self.times.pop_front();
        }
    }

    /// When the oldest request leaves the window.
    fn frees_in(&self, now: Instant, window: Duration) -> Duration {
        self.times.front().map_or(Duration::ZERO, |&t| {
            (t + window).saturating_duration_since(now)
        })
    }
}

/// What the fake counted.
#[derive(Default)]
pub struct Counts {
    /// Requests answered 429 for the global limit.
    pub global_429: AtomicU64,
    /// Requests answered 429 for a route's limit.
    pub route_429: AtomicU64,
    /// Answers 401, 403 and 429 (Discord's invalid requests), in all.
    pub invalid: AtomicU64,
}

#[derive(Default)]
pub struct RateLimits {
    global: Mutex<Window>,
    routes: Mutex<HashMap<String, Window>>,
    invalid: Mutex<Window>,
    banned_until: Mutex<Option<Instant>>,
    pub counts: Counts,
}

/// A request let through, with the headers of its route's bucket for its answer.
pub struct Admitted {
    headers: Vec<(&'static str, String)>,
}

impl Admitted {
    /// Adds the bucket's headers to the answer.
    pub fn decorate(&self, answer: &mut Response) {
        for (name, value) in &self.headers {
            if let Ok(v) = HeaderValue::from_str(value) {
                answer
                    .headers_mut()
                    .insert(HeaderName::from_static(name), v);
            }
        }
    }
}

/// The bucket of a route that has its own limit: messages posted in a channel, messages edited
/// in a channel.
fn bucket(method: &str, path: &str) -> Option<String> {
    let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
    match (method, segs.as_slice()) {
        ("POST", ["channels", channel, "messages"]) => Some(format!("post:{channel}")),
        ("PATCH", ["channels", channel, "messages", _]) => Some(format!("edit:{channel}")),
        _ => None,
    }
}

/// Whether a route is exempt from the global limit (the interaction endpoints).
fn exempt(path: &str) -> bool {
    path.starts_with("/interactions/") || path.starts_with("/webhooks/")
}

fn epoch_secs(after: Duration) -> f64 {
    (SystemTime::now() + after)
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs_f64()
}

/// Discord's 429.
fn too_many(retry_after: Duration, scope: &str, bucket: Option<&str>) -> Box<Response> {
    let secs = retry_after.as_secs_f64().max(0.001);
    let global = scope == "global";
    let mut answer = (
        StatusCode::TOO_MANY_REQUESTS,
        Json(
            json!({"message": "You are being rate limited.", "retry_after": secs,
                    "global": global, "code": 0}),
        ),
    )
        .into_response();
    let headers = answer.headers_mut();
    let mut put = |name: &'static str, value: String| {
        if let Ok(v) = HeaderValue::from_str(&value) {
            headers.insert(HeaderName::from_static(name), v);
        }
    };
    put("retry-after", format!("{secs:.3}"));
    put("x-ratelimit-scope", scope.to_string());
    if global {
        put("x-ratelimit-global", "true".to_string());
    }
    if let Some(b) = bucket {
        put("x-ratelimit-limit", CHANNEL_LIMIT.to_string());
        put("x-ratelimit-remaining", "0".to_string());
        put("x-ratelimit-reset-after", format!("{secs:.3}"));
        put(
            "x-ratelimit-reset",
            format!("{:.3}", epoch_secs(retry_after)),
        );
        put("x-ratelimit-bucket", b.to_string());
    }
    Box::new(answer)
}

impl RateLimits {
    /// Lets a request through, or answers it 429 as Discord would.
    pub fn admit(&self, method: &str, path: &str) -> Result<Admitted, Box<Response>> {
        let now = Instant::now();
        if let Some(until) = *self.banned_until.lock().unwrap() {
            if now < until {
                self.counts.invalid.fetch_add(1, Ordering::Relaxed);
                return Err(Box::new(
                    (
                        StatusCode::TOO_MANY_REQUESTS,
                        "error code: 1015 (banned for exceeding the invalid-request limit)",
                    )
                        .into_response(),
                ));
            }
        }
        let route = bucket(method, path);
        // The route's bucket first: a request it refuses takes nothing from the global budget.
        let mut routes = self.routes.lock().unwrap();
        let mut headers = Vec::new();
        if let Some(key) = &route {
            let w = routes.entry(key.clone()).or_default();
            w.forget(now, CHANNEL_WINDOW);
            if w.times.len() >= CHANNEL_LIMIT {
                self.counts.route_429.fetch_add(1, Ordering::Relaxed);
                return Err(too_many(w.frees_in(now, CHANNEL_WINDOW), "user", Some(key)));
            }
        }
        if !exempt(path) {
            let mut global = self.global.lock().unwrap();
            global.forget(now, Duration::from_secs(1));
            if global.times.len() >= GLOBAL_LIMIT {
                self.counts.global_429.fetch_add(1, Ordering::Relaxed);
                return Err(too_many(
                    global.frees_in(now, Duration::from_secs(1)),
                    "global",
                    None,
                ));
            }
            global.times.push_back(now);
        }
        if let Some(key) = &route {
            let w = routes.entry(key.clone()).or_default();
            w.times.push_back(now);
            let remaining = CHANNEL_LIMIT - w.times.len();
            let reset_after = w.frees_in(now, CHANNEL_WINDOW).as_secs_f64();
            headers = vec![
                ("x-ratelimit-limit", CHANNEL_LIMIT.to_string()),
                ("x-ratelimit-remaining", remaining.to_string()),
                ("x-ratelimit-reset-after", format!("{reset_after:.3}")),
                (
                    "x-ratelimit-reset",
                    format!("{:.3}", epoch_secs(Duration::from_secs_f64(reset_after))),
                ),
                ("x-ratelimit-bucket", key.clone()),
            ];
        }
        Ok(Admitted { headers })
    }

    /// Counts an answer toward the invalid-request limit (401, 403, 429), banning the
    /// application past it.
    pub fn answered(&self, status: u16) {
        if !matches!(status, 401 | 403 | 429) {
            return;
        }
        self.counts.invalid.fetch_add(1, Ordering::Relaxed);
        let now = Instant::now();
        let mut invalid = self.invalid.lock().unwrap();
        invalid.forget(now, INVALID_WINDOW);
        invalid.times.push_back(now);
        if invalid.times.len() > INVALID_LIMIT {
            *self.banned_until.lock().unwrap() = Some(now + BAN);
        }
    }

    pub fn global_429(&self) -> u64 {
        self.counts.global_429.load(Ordering::Relaxed)
    }

    pub fn route_429(&self) -> u64 {
        self.counts.route_429.load(Ordering::Relaxed)
    }

    pub fn invalid(&self) -> u64 {
        self.counts.invalid.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    // The benches include this file too, without its tests.
    #[allow(unused_imports)]
    use super::*;

    #[test]
    fn a_channel_takes_five_messages_in_five_seconds_and_says_so() {
        let limits = RateLimits::default();
        for left in (0..CHANNEL_LIMIT).rev() {
            let ok = limits
                .admit("POST", "/channels/7/messages")
                .unwrap_or_else(|_| panic!("refused with {left} left"));
            assert!(ok
                .headers
                .contains(&("x-ratelimit-remaining", left.to_string())));
        }
        let refused = limits.admit("POST", "/channels/7/messages").err().unwrap();
        assert_eq!(refused.status(), 429);
        assert_eq!(refused.headers()["x-ratelimit-scope"], "user");
        let wait: f64 = refused.headers()["retry-after"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!(wait > 4.0 && wait <= 5.0, "{wait}");
        // Another channel, an edit in the same one, an interaction: their own limits.
        assert!(limits.admit("POST", "/channels/8/messages").is_ok());
        assert!(limits.admit("PATCH", "/channels/7/messages/1").is_ok());
        assert_eq!(limits.route_429(), 1);
    }

    #[test]
    fn fifty_requests_a_second_in_all_but_interactions() {
        let limits = RateLimits::default();
        for i in 0..GLOBAL_LIMIT {
            assert!(limits
                .admit("POST", &format!("/channels/{i}/messages"))
                .is_ok());
        }
        let refused = limits
            .admit("POST", "/channels/999/messages")
            .err()
            .unwrap();
        assert_eq!(refused.status(), 429);
        assert_eq!(refused.headers()["x-ratelimit-global"], "true");
        assert!(limits
            .admit("POST", "/interactions/1/token/callback")
            .is_ok());
        assert!(limits.admit("POST", "/webhooks/1/token").is_ok());
        assert_eq!(limits.global_429(), 1);
    }

    #[test]
    fn too_many_invalid_requests_ban_the_application() {
        let limits = RateLimits::default();
        for _ in 0..=INVALID_LIMIT {
            limits.answered(403);
        }
        limits.answered(200);
        assert!(limits
            .admit("POST", "/interactions/1/token/callback")
            .is_err());
    }
}

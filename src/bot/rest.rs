//! How the bot reaches Discord's REST API, within Discord's rate limits.
//!
//! Discord allows a bot about 50 requests a second in all (the answers to interactions are
//! exempt), limits each route on its own (five messages per five seconds in one channel), answers
//! a request over a limit with 429 and `Retry-After`, and bans for a while an application that
//! makes too many refused requests (10,000 answered 401, 403 or 429 in ten minutes).
//!
//! - **Each route**: serenity's rate limiter ([`client`]) reads the `X-RateLimit-*` headers of
//!   every answer, waits before a request that a route's bucket would refuse, and sends again,
//!   after `Retry-After`, a request answered 429. It runs in production and in the tests alike:
//!   the tests' fake Discord answers as `https://discord.com` inside a proxy's tunnel, with
//!   Discord's headers and limits.
//! - **All routes together** ([`Pacer`]): serenity only reacts to a global 429. Every request the
//!   bot makes on its own (the delivery queue's posts, edits, threads and direct messages, button
//!   removals, the posts of a button's answer) first takes a turn from one budget of
//!   [`GLOBAL_RATE`] a second (shared out between processes by their shards), the most urgent
//!   first: what a member waits for, then boards and announcements (the newest first), then
//!   buttons taken off old boards.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;
use tokio::sync::oneshot;
use tracing::{debug, warn};

use crate::config::Config;

/// Discord's global limit: requests a second for a bot, all routes together (interaction
/// answers exempt).
pub const DISCORD_GLOBAL_LIMIT: f64 = 50.0;

/// The pace kept by all of a bot's processes together: under [`DISCORD_GLOBAL_LIMIT`] with room
/// for the requests not paced here (command registration at start-up) and for the time requests
/// take to reach Discord, which can bunch paced requests together (at 45 a second with a
/// burst of 3, a busy two-core machine drew three global 429s in 6,000 moves).
pub const GLOBAL_RATE: f64 = 44.0;

/// Requests a process may make at once after a quiet moment. With [`GLOBAL_RATE`], no second
/// holds more than `GLOBAL_RATE + BURST` of them.
pub const BURST: f64 = 1.0;

/// The serenity HTTP client: Discord's API with serenity's rate limiter, or, with
/// `DISCORD_API_BASE` set (tests only), the same through that address as an HTTP proxy,
/// trusting the certificate of `DISCORD_API_CA`.
pub fn client(config: &Config) -> anyhow::Result<serenity::Http> {
    let token = config.token()?.expose().to_string();
    let mut builder = reqwest::Client::builder().use_rustls_tls();
    if let Some(base) = &config.api_base {
        let proxy = reqwest::Proxy::all(base.as_str())
            .map_err(|e| anyhow::anyhow!("DISCORD_API_BASE as a proxy: {e}"))?;
        builder = builder.proxy(proxy);
    }
    if let Some(path) = &config.api_ca {
        let bytes = std::fs::read(path)
            .map_err(|e| anyhow::anyhow!("DISCORD_API_CA={}: {e}", path.display()))?;
        let cert = reqwest::Certificate::from_der(&bytes)
            .or_else(|_| reqwest::Certificate::from_pem(&bytes))
            .map_err(|e| anyhow::anyhow!("DISCORD_API_CA={}: {e}", path.display()))?;
        builder = builder.add_root_certificate(cert);
    }
    let http = builder
        .build()
        .map_err(|e| anyhow::anyhow!("an HTTP client for Discord: {e}"))?;
    // The limiter sends the token as it is given: with its `Bot ` prefix.
    let authorization = match token.strip_prefix("Bot ") {
        Some(_) => token.clone(),
        None => format!("Bot {token}"),
    };
    // serenity's client replaces the limiter's callback with its event handlers' `ratelimit`:
    // what the bot does on a 429 is [`RateLimitWatch`], given to the client as a handler.
    let limiter = serenity::Ratelimiter::new(http.clone(), authorization);
    Ok(serenity::HttpBuilder::new(token)
        .client(http)
        .ratelimiter(limiter)
        .build())
}

/// What the bot does when serenity's rate limiter meets a limit (an event handler of the
/// client, which calls it for each one): counts it for `/metrics`, and on a global 429 holds the
/// [`Pacer`] until Discord's wait is over (serenity sends the refused request again then, and
/// new ones after it would be refused in turn).
pub struct RateLimitWatch {
    pub pacer: Arc<Pacer>,
}

#[serenity::async_trait]
impl serenity::EventHandler for RateLimitWatch {
    async fn ratelimit(&self, info: serenity::RatelimitInfo) {
        crate::metrics::METRICS.rate_limited(info.global);
        if info.global {
            self.pacer.hold(info.timeout);
            warn!(path = %info.path, wait = ?info.timeout, "Discord's global rate limit reached; waiting");
        } else {
            debug!(path = %info.path, wait = ?info.timeout, "a route's rate limit: waiting");
        }
    }
}

/// How urgent a request is: the lower, the sooner among those waiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Urgency {
    /// A member waits for it (the post that answers a button).
    Member = 0,
    /// An announcement: a board, a line, a thread, a direct message.
    Announcement = 1,
    /// Buttons taken off a board that a newer one replaced.
    Cleanup = 2,
}

/// One waiting request: the most urgent first, then the newest (highest `order`), then the
/// first to ask.
struct Waiter {
    key: (Reverse<Urgency>, i64, Reverse<u64>),
    go: oneshot::Sender<()>,
}

impl PartialEq for Waiter {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}
impl Eq for Waiter {}
impl PartialOrd for Waiter {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Waiter {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

struct State {
    /// Turns available now (a token bucket of [`Pacer::burst`]).
    tokens: f64,
    at: Instant,
    waiting: BinaryHeap<Waiter>,
    asked: u64,
    /// Whether a task hands out turns to the waiting.
    granting: bool,
    /// No turn before this (Discord answered a global 429).
    held_until: Option<Instant>,
}

/// One budget of requests a second for every request the bot makes on its own.
pub struct Pacer {
    rate: f64,
    burst: f64,
    state: Mutex<State>,
}

impl Pacer {
    /// A budget of `rate` requests a second, `burst` at once after a quiet moment.
    pub fn new(rate: f64, burst: f64) -> Arc<Pacer> {
        Arc::new(Pacer {
            rate,
            burst,
            state: Mutex::new(State {
                tokens: burst,
                at: Instant::now(),
                waiting: BinaryHeap::new(),
                asked: 0,
                granting: false,
                held_until: None,
            }),
        })
    }

    /// This process's share of [`GLOBAL_RATE`]: the share of the gateway shards it runs (the
    /// processes of one bot share its global limit).
    pub fn for_shards(run: u32, count: u32) -> Arc<Pacer> {
        let share = f64::from(run.max(1)) / f64::from(count.max(1));
        Pacer::new((GLOBAL_RATE * share.min(1.0)).max(1.0), BURST)
    }

    /// The requests a second this pacer allows.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    fn refill(&self, s: &mut State, now: Instant) {
        let gained = now.saturating_duration_since(s.at).as_secs_f64() * self.rate;
        s.tokens = (s.tokens + gained).min(self.burst);
        s.at = now;
    }

    /// Gives no turn for `wait` from now (Discord asked the bot to wait).
    pub fn hold(&self, wait: Duration) {
        if let Ok(mut s) = self.state.lock() {
            let until = Instant::now() + wait;
            s.held_until = Some(s.held_until.map_or(until, |t| t.max(until)));
            // The budget starts again empty after the wait.
            s.tokens = 0.0;
        }
    }

    /// The time still to wait before any turn, if any.
    fn held(s: &mut State, now: Instant) -> Option<Duration> {
        match s.held_until {
            Some(t) if t > now => Some(t - now),
            _ => {
                s.held_until = None;
                None
            }
        }
    }

    /// Waits for a turn to make one request: `urgency` first, then the highest `order` (a
    /// newer announcement) among those as urgent.
    pub async fn turn(self: &Arc<Self>, urgency: Urgency, order: i64) {
        let go = {
            let Ok(mut s) = self.state.lock() else {
                return;
            };
            let now = Instant::now();
            let held = Pacer::held(&mut s, now).is_some();
            self.refill(&mut s, now);
            if !held && s.waiting.is_empty() && s.tokens >= 1.0 {
                s.tokens -= 1.0;
                return;
            }
            let (go, wait) = oneshot::channel();
            s.asked += 1;
            let asked = s.asked;
            s.waiting.push(Waiter {
                key: (Reverse(urgency), order, Reverse(asked)),
                go,
            });
            if !s.granting {
                s.granting = true;
                tokio::spawn(self.clone().grant());
            }
            wait
        };
        let _ = go.await;
    }

    /// Hands out turns to the waiting, the most urgent first, as the budget refills; ends when
    /// nobody waits.
    async fn grant(self: Arc<Self>) {
        loop {
            let wait = {
                let Ok(mut s) = self.state.lock() else {
                    return;
                };
                let now = Instant::now();
                if let Some(wait) = Pacer::held(&mut s, now) {
                    // Turns come back after the wait, the budget empty.
                    s.at = now + wait;
                    wait
                } else {
                    self.refill(&mut s, now);
                    while s.tokens >= 1.0 {
                        let Some(w) = s.waiting.pop() else {
                            break;
                        };
                        // One that stopped waiting takes no turn.
                        if w.go.send(()).is_ok() {
                            s.tokens -= 1.0;
                        }
                    }
                    if s.waiting.is_empty() {
                        s.granting = false;
                        return;
                    }
                    Duration::from_secs_f64(((1.0 - s.tokens) / self.rate).max(0.0005))
                }
            };
            tokio::time::sleep(wait).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The turns handed out in any window of one second, at most.
    fn most_in_a_second(times: &[Instant]) -> usize {
        let mut most = 0;
        for (i, &t) in times.iter().enumerate() {
            let n = times[i..]
                .iter()
                .take_while(|&&u| u.duration_since(t) < Duration::from_secs(1))
                .count();
            most = most.max(n);
        }
        most
    }

    #[tokio::test]
    async fn no_second_holds_more_than_the_rate_and_the_burst() {
        let pacer = Pacer::new(40.0, 3.0);
        let times = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for i in 0..120 {
            let (pacer, times) = (pacer.clone(), times.clone());
            tasks.push(tokio::spawn(async move {
                pacer.turn(Urgency::Announcement, i).await;
                times.lock().unwrap().push(Instant::now());
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        let mut times = times.lock().unwrap().clone();
        times.sort();
        let most = most_in_a_second(&times);
        assert!(most <= 43, "{most} turns in one second");
        let took = times[times.len() - 1].duration_since(times[0]);
        // 117 turns after the burst at 40 a second: close to 2.9 s, not much more.
        assert!(
            took >= Duration::from_millis(2800) && took < Duration::from_millis(3600),
            "{took:?}"
        );
    }

    #[tokio::test]
    async fn the_urgent_and_the_newest_go_first() {
        let pacer = Pacer::new(20.0, 1.0);
        // The burst is used up: everything after waits its turn.
        pacer.turn(Urgency::Announcement, 0).await;
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for (urgency, n) in [
            (Urgency::Cleanup, 1),
            (Urgency::Announcement, 2),
            (Urgency::Announcement, 5),
            (Urgency::Member, 3),
            (Urgency::Cleanup, 4),
        ] {
            let (pacer, order) = (pacer.clone(), order.clone());
            tasks.push(tokio::spawn(async move {
                pacer.turn(urgency, n).await;
                order.lock().unwrap().push(n);
            }));
            // Each in the queue before the next asks.
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(*order.lock().unwrap(), vec![3, 5, 2, 4, 1]);
    }

    #[tokio::test]
    async fn a_global_429_holds_every_turn_until_discords_wait_is_over() {
        let pacer = Pacer::new(100.0, 1.0);
        pacer.hold(Duration::from_millis(300));
        let asked = Instant::now();
        pacer.turn(Urgency::Member, 0).await;
        assert!(
            asked.elapsed() >= Duration::from_millis(300),
            "{:?}",
            asked.elapsed()
        );
    }

    #[test]
    fn processes_share_the_global_budget_by_their_shards() {
        assert_eq!(Pacer::for_shards(1, 1).rate(), GLOBAL_RATE);
        assert_eq!(Pacer::for_shards(2, 4).rate(), GLOBAL_RATE / 2.0);
        assert!(Pacer::for_shards(1, 4096).rate() >= 1.0);
    }
}

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
//! - **Whatever the delays**: a pace alone is kept where turns are handed out, not where Discord
//!   counts: requests stalled on a busy machine (or on the network) reach Discord bunched, and
//!   bunched requests of two processes, each under its half of the budget, went over the limit
//!   together. So a turn is also a [`Turn`] held while its request is under way: a process
//!   starts a request only while fewer than its share of [`IN_ANY_SECOND`] are under way or
//!   ended in the last second. Whenever a request reaches Discord, it is between its turn and its
//!   answer; of the requests reaching Discord in any one second, the last to get its turn saw
//!   every other still under way or ended within the second, so they are never more than
//!   [`IN_ANY_SECOND`], however late each arrives.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;
use tokio::sync::{oneshot, Notify};
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

/// The most paced requests of all processes together that are under way or ended within the
/// last second (shared out between processes by their shards): under
/// [`DISCORD_GLOBAL_LIMIT`], with room for the requests not paced here.
pub const IN_ANY_SECOND: usize = 46;

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
        builder = builder.add_root_certificate(trusted_certificate(path)?);
    }
    let http = builder.build().map_err(|e| match &config.api_ca {
        // The certificate's bytes are only read here.
        Some(path) => anyhow::anyhow!(
            "DISCORD_API_CA={}: not a certificate in PEM or DER form ({e})",
            path.display()
        ),
        None => anyhow::anyhow!("an HTTP client for Discord: {e}"),
    })?;
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

/// The certificate authority of `DISCORD_API_CA`, in PEM (text, `-----BEGIN CERTIFICATE-----`)
/// or DER (binary) form, told apart by its content.
fn trusted_certificate(path: &std::path::Path) -> anyhow::Result<reqwest::Certificate> {
    let bytes = std::fs::read(path)
        .map_err(|e| anyhow::anyhow!("DISCORD_API_CA={}: {e}", path.display()))?;
    let pem = bytes
        .windows(b"-----BEGIN".len())
        .any(|w| w == b"-----BEGIN");
    let cert = if pem {
        reqwest::Certificate::from_pem(&bytes)
    } else {
        reqwest::Certificate::from_der(&bytes)
    };
    cert.map_err(|e| {
        anyhow::anyhow!(
            "DISCORD_API_CA={}: not a certificate in PEM or DER form ({e})",
            path.display()
        )
    })
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
    go: oneshot::Sender<Turn>,
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
    /// Turns whose request is under way.
    under_way: usize,
    /// When the requests that ended in the last second ended, the oldest first.
    ended: VecDeque<Instant>,
}

/// One budget of requests a second for every request the bot makes on its own.
pub struct Pacer {
    rate: f64,
    burst: f64,
    /// The most requests under way or ended within the last second.
    in_any_second: usize,
    state: Mutex<State>,
    /// Rung when a request ends.
    ended: Notify,
}

/// A turn to make one request to Discord: hold it until the request has its answer (drop it
/// then). While held, the request counts as under way ([`IN_ANY_SECOND`]).
#[must_use = "a turn counts its request as under way until it is dropped: hold it for the request"]
pub struct Turn {
    pacer: Option<Arc<Pacer>>,
}

impl Turn {
    /// A turn never used: it returns to the budget as if it had not been handed out.
    fn unused(mut self, s: &mut State) {
        self.pacer = None;
        s.under_way = s.under_way.saturating_sub(1);
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        let Some(pacer) = self.pacer.take() else {
            return;
        };
        if let Ok(mut s) = pacer.state.lock() {
            s.under_way = s.under_way.saturating_sub(1);
            s.ended.push_back(Instant::now());
        }
        pacer.ended.notify_one();
    }
}

impl Pacer {
    /// A budget of `rate` requests a second, `burst` at once after a quiet moment, and at most
    /// `in_any_second` under way or ended within the last second.
    pub fn new(rate: f64, burst: f64, in_any_second: usize) -> Arc<Pacer> {
        Arc::new(Pacer {
            rate,
            burst,
            in_any_second: in_any_second.max(1),
            state: Mutex::new(State {
                tokens: burst,
                at: Instant::now(),
                waiting: BinaryHeap::new(),
                asked: 0,
                granting: false,
                held_until: None,
                under_way: 0,
                ended: VecDeque::new(),
            }),
            ended: Notify::new(),
        })
    }

    /// This process's share of [`GLOBAL_RATE`] and [`IN_ANY_SECOND`]: the share of the gateway
    /// shards it runs (the processes of one bot share its global limit).
    pub fn for_shards(run: u32, count: u32) -> Arc<Pacer> {
        let share = (f64::from(run.max(1)) / f64::from(count.max(1))).min(1.0);
        Pacer::new(
            (GLOBAL_RATE * share).max(1.0),
            BURST,
            (IN_ANY_SECOND as f64 * share).floor() as usize,
        )
    }

    /// The requests a second this pacer allows.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// The most requests under way or ended within the last second this pacer allows.
    pub fn in_any_second(&self) -> usize {
        self.in_any_second
    }

    /// Whether another request may start now: fewer than [`Pacer::in_any_second`] under way or
    /// ended within the last second. Else, when one may (`None`: when a request ends).
    fn room(&self, s: &mut State, now: Instant) -> Result<(), Option<Instant>> {
        while s
            .ended
            .front()
            .is_some_and(|&t| now.duration_since(t) >= Duration::from_secs(1))
        {
            s.ended.pop_front();
        }
        if s.under_way + s.ended.len() < self.in_any_second {
            Ok(())
        } else {
            Err(s.ended.front().map(|&t| t + Duration::from_secs(1)))
        }
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
    /// newer announcement) among those as urgent. Hold the turn until the request's answer.
    pub async fn turn(self: &Arc<Self>, urgency: Urgency, order: i64) -> Turn {
        let go = {
            let Ok(mut s) = self.state.lock() else {
                return Turn { pacer: None };
            };
            let now = Instant::now();
            let held = Pacer::held(&mut s, now).is_some();
            self.refill(&mut s, now);
            if !held && s.waiting.is_empty() && s.tokens >= 1.0 && self.room(&mut s, now).is_ok() {
                s.tokens -= 1.0;
                s.under_way += 1;
                return Turn {
                    pacer: Some(self.clone()),
                };
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
        // The granting task is gone only if the budget's lock was poisoned: go on unpaced.
        go.await.unwrap_or(Turn { pacer: None })
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
                    let mut room = self.room(&mut s, now);
                    while s.tokens >= 1.0 && room.is_ok() {
                        let Some(w) = s.waiting.pop() else {
                            break;
                        };
                        s.under_way += 1;
                        match w.go.send(Turn {
                            pacer: Some(self.clone()),
                        }) {
                            Ok(()) => s.tokens -= 1.0,
                            // One that stopped waiting takes no turn.
                            Err(turn) => turn.unused(&mut s),
                        }
                        room = self.room(&mut s, now);
                    }
                    if s.waiting.is_empty() {
                        s.granting = false;
                        return;
                    }
                    match room {
                        // Until a request ends, at most a second.
                        Err(None) => Duration::from_secs(1),
                        Err(Some(at)) => at
                            .saturating_duration_since(now)
                            .max(Duration::from_micros(500)),
                        Ok(()) => {
                            Duration::from_secs_f64(((1.0 - s.tokens) / self.rate).max(0.0005))
                        }
                    }
                }
            };
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = self.ended.notified() => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The client for Discord, with the tests' certificate authority in `DISCORD_API_CA`.
    fn client_trusting(ca: &[u8]) -> anyhow::Result<serenity::Http> {
        let dir = std::env::temp_dir().join(format!("hexcord-ca-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let path = dir.join(format!("ca-{}", ca.len()));
        std::fs::write(&path, ca)?;
        let config = Config::from_lookup(|k| match k {
            "DISCORD_TOKEN" => {
                Some("MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.abcdefghijklmnopqrstuvwxyz0123".into())
            }
            "DISCORD_API_CA" => Some(path.display().to_string()),
            _ => None,
        })?;
        let made = client(&config);
        std::fs::remove_file(&path)?;
        made
    }

    #[test]
    fn the_certificate_authority_is_read_in_pem_or_der_form() {
        use base64::Engine;
        let der = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/discord/tls/ca.der"),
        )
        .unwrap();
        let body = base64::engine::general_purpose::STANDARD.encode(&der);
        let lines: Vec<&str> = body
            .as_bytes()
            .chunks(64)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect();
        let pem = format!(
            "-----BEGIN CERTIFICATE-----\n{}\n-----END CERTIFICATE-----\n",
            lines.join("\n")
        );
        assert!(client_trusting(&der).is_ok());
        assert!(client_trusting(pem.as_bytes()).is_ok());
        for bad in [
            &b"not a certificate"[..],
            b"-----BEGIN CERTIFICATE-----\nxx\n",
        ] {
            let Err(e) = client_trusting(bad) else {
                panic!("a file that is no certificate was taken");
            };
            let e = e.to_string();
            assert!(
                e.contains("DISCORD_API_CA=") && e.contains("PEM or DER"),
                "{e}"
            );
        }
    }

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
        let pacer = Pacer::new(40.0, 3.0, 100);
        let times = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for i in 0..120 {
            let (pacer, times) = (pacer.clone(), times.clone());
            tasks.push(tokio::spawn(async move {
                let _turn = pacer.turn(Urgency::Announcement, i).await;
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
        let pacer = Pacer::new(20.0, 1.0, 100);
        // The burst is used up: everything after waits its turn.
        drop(pacer.turn(Urgency::Announcement, 0).await);
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
                let _turn = pacer.turn(urgency, n).await;
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
        let pacer = Pacer::new(100.0, 1.0, 100);
        pacer.hold(Duration::from_millis(300));
        let asked = Instant::now();
        let _turn = pacer.turn(Urgency::Member, 0).await;
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
        assert_eq!(Pacer::for_shards(1, 1).in_any_second(), IN_ANY_SECOND);
        assert_eq!(Pacer::for_shards(1, 2).in_any_second(), IN_ANY_SECOND / 2);
        assert_eq!(Pacer::for_shards(1, 4096).in_any_second(), 1);
        // Two processes of one bot together stay under Discord's limit.
        assert!(
            2 * Pacer::for_shards(1, 2).in_any_second() < DISCORD_GLOBAL_LIMIT as usize,
            "two halves"
        );
    }

    /// Two processes, each pacing half of the budget, whose requests are held up on their way
    /// (a stalled machine): whatever gets its turn in the first 600 ms arrives at 600 ms, the
    /// rest at once. Counted where Discord counts them, on arrival, no second holds more than
    /// the two processes' [`IN_ANY_SECOND`] together; paced by the rate alone, the stalled
    /// requests land with the next second's, past Discord's limit.
    #[tokio::test]
    async fn requests_delayed_on_their_way_never_bunch_past_the_limit() {
        async fn run(in_any_second: usize) -> usize {
            let arrivals = Arc::new(Mutex::new(Vec::new()));
            let stalled_until = Instant::now() + Duration::from_millis(600);
            let mut tasks = Vec::new();
            for _process in 0..2 {
                let pacer = Pacer::new(GLOBAL_RATE / 2.0, BURST, in_any_second);
                for i in 0..60_i64 {
                    let (pacer, arrivals) = (pacer.clone(), arrivals.clone());
                    tasks.push(tokio::spawn(async move {
                        let turn = pacer.turn(Urgency::Announcement, -i).await;
                        tokio::time::sleep_until(stalled_until.into()).await;
                        arrivals.lock().unwrap().push(Instant::now());
                        // The answer comes back a little after.
                        tokio::time::sleep(Duration::from_millis(5)).await;
                        drop(turn);
                    }));
                }
            }
            for t in tasks {
                t.await.unwrap();
            }
            let mut arrivals = arrivals.lock().unwrap().clone();
            arrivals.sort();
            most_in_a_second(&arrivals)
        }
        let kept = run(IN_ANY_SECOND / 2).await;
        assert!(
            kept <= 2 * (IN_ANY_SECOND / 2),
            "{kept} requests in one second"
        );
        let paced_only = run(10_000).await;
        assert!(
            paced_only > DISCORD_GLOBAL_LIMIT as usize,
            "the stall must bunch requests paced by the rate alone: {paced_only}"
        );
    }
}

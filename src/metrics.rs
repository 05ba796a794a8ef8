//! What an operator's monitoring reads: the process's health (`/healthz`) and its figures in
//! Prometheus' text exposition format, version 0.0.4 (`/metrics`), both served by the web board
//! ([`crate::web`]).
//!
//! The figures counted as they happen live in one process-wide [`METRICS`]: the gateway shards
//! connected (from the bot's gateway events), moves played, interactions answered with their
//! latency, and the times Discord made the bot wait. The rest is read at scrape time: games in
//! play and the delivery queue from the database (indexed counts of a few rows), the pool's
//! connections, and the web board's live connections and streams.
//!
//! `/healthz` answers `200 ok` when the database answers `SELECT 1` within [`HEALTH_TIMEOUT`]
//! and every gateway shard this process runs is connected; otherwise `503` and, one a line,
//! what is not ready. `/metrics` answers requests from this machine (not forwarded by a reverse
//! proxy), or any carrying `Authorization: Bearer` with `METRICS_TOKEN`; others get 403. Its
//! figures: `hexcord_database_up`, `hexcord_games_in_play`, `hexcord_moves_total`,
//! `hexcord_interactions_answered_total` and `hexcord_interaction_latency_seconds` (by `kind`),
//! `hexcord_delivery_queue_length` and `hexcord_delivery_queue_oldest_age_seconds`,
//! `hexcord_database_connections` (`in_use`, `idle`), `hexcord_discord_rate_limited_total`
//! (`global`, `route`), `hexcord_gateway_shards` (`connected`, `run`),
//! `hexcord_gateway_disconnects_total`, `hexcord_web_connections` and `hexcord_web_live_streams`.
//!
//! A Prometheus scrape config (the target is `WEB_ADDR`):
//!
//! ```yaml
//! scrape_configs:
//!   - job_name: hexcord
//!     static_configs:
//!       - targets: ["127.0.0.1:8787"]
//!     # From another machine, with METRICS_TOKEN set in hexcord's .env:
//!     # authorization: { credentials: "the METRICS_TOKEN" }
//! ```

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use crate::db::{self, Pool};

/// How long `/healthz` waits for the database.
pub const HEALTH_TIMEOUT: Duration = Duration::from_secs(2);

/// The upper bounds (seconds) of the interaction latency histogram's buckets; Discord wants a
/// first answer within 3 s.
pub const LATENCY_BUCKETS: [f64; 9] = [0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 10.0];

/// The process's figures.
pub static METRICS: Metrics = Metrics::new();

/// A latency histogram: counts per bucket (not cumulative; the last is past every bound), the sum
/// in microseconds.
struct Histogram {
    buckets: [AtomicU64; LATENCY_BUCKETS.len() + 1],
    sum_us: AtomicU64,
}

impl Histogram {
    const fn new() -> Histogram {
        Histogram {
            buckets: [const { AtomicU64::new(0) }; LATENCY_BUCKETS.len() + 1],
            sum_us: AtomicU64::new(0),
        }
    }

    fn observe(&self, took: Duration) {
        let secs = took.as_secs_f64();
        let i = LATENCY_BUCKETS
            .iter()
            .position(|&bound| secs <= bound)
            .unwrap_or(LATENCY_BUCKETS.len());
        self.buckets[i].fetch_add(1, Ordering::Relaxed);
        let us = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        self.sum_us.fetch_add(us, Ordering::Relaxed);
    }
}

/// What kind of interaction was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interaction {
    /// A slash command.
    Command = 0,
    /// A button or a menu.
    Component = 1,
}

const INTERACTIONS: [(&str, Interaction); 2] = [
    ("command", Interaction::Command),
    ("component", Interaction::Component),
];

/// The gateway shards this process runs and those connected now.
struct Shards {
    expected: u32,
    ready: BTreeSet<u32>,
}

/// The figures counted as they happen (see the module's docs).
pub struct Metrics {
    shards: Mutex<Shards>,
    moves: AtomicU64,
    latency: [Histogram; 2],
    rate_limited_global: AtomicU64,
    rate_limited_route: AtomicU64,
    shard_disconnects: AtomicU32,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    pub const fn new() -> Metrics {
        Metrics {
            shards: Mutex::new(Shards {
                expected: 0,
                ready: BTreeSet::new(),
            }),
            moves: AtomicU64::new(0),
            latency: [Histogram::new(), Histogram::new()],
            rate_limited_global: AtomicU64::new(0),
            rate_limited_route: AtomicU64::new(0),
            shard_disconnects: AtomicU32::new(0),
        }
    }

    fn shards(&self) -> std::sync::MutexGuard<'_, Shards> {
        self.shards.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// This process runs `count` gateway shards (none connected yet).
    pub fn expect_shards(&self, count: u32) {
        let mut s = self.shards();
        s.expected = count;
        s.ready.clear();
    }

    /// Gateway shard `shard` is connected (`true`: ready or resumed) or not.
    pub fn shard_connected(&self, shard: u32, connected: bool) {
        let mut s = self.shards();
        if connected {
            s.ready.insert(shard);
        } else if s.ready.remove(&shard) {
            self.shard_disconnects.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The shards connected and the shards this process runs.
    pub fn shards_ready(&self) -> (u32, u32) {
        let s = self.shards();
        (u32::try_from(s.ready.len()).unwrap_or(u32::MAX), s.expected)
    }

    /// A move was played (and committed).
    pub fn move_played(&self) {
        self.moves.fetch_add(1, Ordering::Relaxed);
    }

    /// An interaction of `kind` was answered, `took` after it was received.
    pub fn answered(&self, kind: Interaction, took: Duration) {
        self.latency[kind as usize].observe(took);
    }

    /// Discord made the bot wait: a global 429 (`global`), or a route's limit.
    pub fn rate_limited(&self, global: bool) {
        let counter = match global {
            true => &self.rate_limited_global,
            false => &self.rate_limited_route,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

/// The web board's live connections and streams, read by the server at scrape time.
#[derive(Clone, Copy, Debug, Default)]
pub struct Live {
    pub connections: usize,
    pub streams: usize,
}

/// What is not ready, one a line; empty when the process is healthy. Local play (`gateway`
/// false) has no gateway to wait for.
pub async fn health(pool: &Pool, gateway: bool) -> Vec<String> {
    let mut not_ready = Vec::new();
    let answer = tokio::time::timeout(HEALTH_TIMEOUT, sqlx::query("SELECT 1").execute(pool)).await;
    match answer {
        Ok(Ok(_)) => {}
        Ok(Err(e)) => not_ready.push(format!("database: {e}")),
        Err(_) => not_ready.push(format!(
            "database: no answer within {} s",
            HEALTH_TIMEOUT.as_secs()
        )),
    }
    let (ready, expected) = METRICS.shards_ready();
    if !gateway {
        return not_ready;
    }
    if expected == 0 {
        not_ready.push("gateway: not started".to_string());
    } else if ready < expected {
        not_ready.push(format!("gateway: {ready} of {expected} shards connected"));
    }
    not_ready
}

/// One metric family's head: its HELP and TYPE lines.
fn head(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

/// A family of one sample without labels: its head, then `name value`.
fn single(out: &mut String, name: &str, kind: &str, help: &str, value: impl std::fmt::Display) {
    head(out, name, kind, help);
    let _ = writeln!(out, "{name} {value}");
}

/// A float as the text format writes it.
fn number(v: f64) -> String {
    if v.is_infinite() {
        if v > 0.0 { "+Inf" } else { "-Inf" }.to_string()
    } else {
        format!("{v}")
    }
}

/// The figures in Prometheus' text format: those of `metrics`, the database's through `pool`,
/// and the web board's `live` ones. A figure the database cannot give now is left out (and
/// `hexcord_database_up` is 0).
pub async fn render(metrics: &Metrics, pool: &Pool, live: Live) -> String {
    let mut out = String::with_capacity(4096);
    let in_play = db::count_games_in_play(pool).await;
    let queue = db::pending_summary(pool).await;
    let up = in_play.is_ok() && queue.is_ok();

    single(
        &mut out,
        "hexcord_database_up",
        "gauge",
        "Whether the database answered this scrape's queries (1) or not (0).",
        u8::from(up),
    );
    if let Ok(n) = in_play {
        single(
            &mut out,
            "hexcord_games_in_play",
            "gauge",
            "Games being played (neither finished nor aborted).",
            n,
        );
    }
    single(
        &mut out,
        "hexcord_moves_total",
        "counter",
        "Moves played through this process (rate() gives moves a minute).",
        metrics.moves.load(Ordering::Relaxed),
    );

    head(
        &mut out,
        "hexcord_interactions_answered_total",
        "counter",
        "Slash commands and components (buttons, menus) answered.",
    );
    for (kind, which) in INTERACTIONS {
        let count: u64 = metrics.latency[which as usize]
            .buckets
            .iter()
            .map(|b| b.load(Ordering::Relaxed))
            .sum();
        let _ = writeln!(
            out,
            "hexcord_interactions_answered_total{{kind=\"{kind}\"}} {count}"
        );
    }
    head(
        &mut out,
        "hexcord_interaction_latency_seconds",
        "histogram",
        "Time from receiving an interaction to having answered it.",
    );
    for (kind, which) in INTERACTIONS {
        let h = &metrics.latency[which as usize];
        let mut cumulative = 0;
        let bounds = LATENCY_BUCKETS.iter().copied().chain([f64::INFINITY]);
        for (bucket, bound) in h.buckets.iter().zip(bounds) {
            cumulative += bucket.load(Ordering::Relaxed);
            let _ = writeln!(
                out,
                "hexcord_interaction_latency_seconds_bucket{{kind=\"{kind}\",le=\"{}\"}} {cumulative}",
                number(bound)
            );
        }
        let sum = h.sum_us.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(
            out,
            "hexcord_interaction_latency_seconds_sum{{kind=\"{kind}\"}} {}",
            number(sum)
        );
        let _ = writeln!(
            out,
            "hexcord_interaction_latency_seconds_count{{kind=\"{kind}\"}} {cumulative}"
        );
    }

    if let Ok((length, oldest)) = queue {
        single(
            &mut out,
            "hexcord_delivery_queue_length",
            "gauge",
            "Announcements (boards, lines, messages) waiting to be posted to Discord.",
            length,
        );
        let age = oldest.map_or(0, |at| (db::now_ms() - at).max(0)) as f64 / 1000.0;
        single(
            &mut out,
            "hexcord_delivery_queue_oldest_age_seconds",
            "gauge",
            "How long the oldest waiting announcement has waited (0 when none waits).",
            number(age),
        );
    }

    head(
        &mut out,
        "hexcord_database_connections",
        "gauge",
        "The main database pool's connections, in use and idle.",
    );
    let size = pool.size() as usize;
    let idle = pool.num_idle().min(size);
    let _ = writeln!(
        out,
        "hexcord_database_connections{{state=\"in_use\"}} {}",
        size - idle
    );
    let _ = writeln!(out, "hexcord_database_connections{{state=\"idle\"}} {idle}");

    head(
        &mut out,
        "hexcord_discord_rate_limited_total",
        "counter",
        "Times Discord made the bot wait: scope=\"global\" counts global 429 answers, scope=\"route\" a route's limit (429 answers and waits before a request the route would refuse).",
    );
    let _ = writeln!(
        out,
        "hexcord_discord_rate_limited_total{{scope=\"global\"}} {}",
        metrics.rate_limited_global.load(Ordering::Relaxed)
    );
    let _ = writeln!(
        out,
        "hexcord_discord_rate_limited_total{{scope=\"route\"}} {}",
        metrics.rate_limited_route.load(Ordering::Relaxed)
    );

    let (ready, expected) = metrics.shards_ready();
    head(
        &mut out,
        "hexcord_gateway_shards",
        "gauge",
        "This process's gateway shards: connected, and all it runs.",
    );
    let _ = writeln!(out, "hexcord_gateway_shards{{state=\"connected\"}} {ready}");
    let _ = writeln!(out, "hexcord_gateway_shards{{state=\"run\"}} {expected}");
    single(
        &mut out,
        "hexcord_gateway_disconnects_total",
        "counter",
        "Times a connected gateway shard lost its connection.",
        metrics.shard_disconnects.load(Ordering::Relaxed),
    );

    single(
        &mut out,
        "hexcord_web_connections",
        "gauge",
        "The web board's open HTTP connections.",
        live.connections,
    );
    single(
        &mut out,
        "hexcord_web_live_streams",
        "gauge",
        "Game pages following a game live (Server-Sent Events streams).",
        live.streams,
    );
    out
}

/// Whether `given` (an `Authorization` header's value) carries `token` as a bearer token,
/// compared in constant time.
pub fn bearer_matches(given: Option<&str>, token: &str) -> bool {
    let Some(given) = given.and_then(|g| g.strip_prefix("Bearer ")) else {
        return false;
    };
    let (a, b) = (given.trim().as_bytes(), token.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latencies_fall_in_their_buckets() {
        let m = Metrics::new();
        m.answered(Interaction::Command, Duration::from_millis(20));
        m.answered(Interaction::Command, Duration::from_millis(700));
        m.answered(Interaction::Command, Duration::from_secs(30));
        let counts: Vec<u64> = m.latency[0]
            .buckets
            .iter()
            .map(|b| b.load(Ordering::Relaxed))
            .collect();
        assert_eq!(counts, vec![1, 0, 0, 0, 0, 1, 0, 0, 0, 1]);
        assert_eq!(m.latency[0].sum_us.load(Ordering::Relaxed), 30_720_000);
    }

    #[test]
    fn shards_count_as_connected_until_they_drop() {
        let m = Metrics::new();
        assert_eq!(m.shards_ready(), (0, 0));
        m.expect_shards(2);
        m.shard_connected(0, true);
        m.shard_connected(0, true);
        assert_eq!(m.shards_ready(), (1, 2));
        m.shard_connected(1, true);
        assert_eq!(m.shards_ready(), (2, 2));
        m.shard_connected(1, false);
        m.shard_connected(1, false);
        assert_eq!(m.shards_ready(), (1, 2));
        assert_eq!(m.shard_disconnects.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn only_the_exact_bearer_token_matches() {
        let t = "0123456789abcdef0123";
        assert!(bearer_matches(Some("Bearer 0123456789abcdef0123"), t));
        assert!(!bearer_matches(Some("Bearer 0123456789abcdef012"), t));
        assert!(!bearer_matches(Some("Bearer 0123456789abcdef0124"), t));
        assert!(!bearer_matches(Some("0123456789abcdef0123"), t));
        assert!(!bearer_matches(None, t));
    }
}

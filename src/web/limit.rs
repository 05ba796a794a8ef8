//! Move posts limited per link: a token bucket for each token (by its hash), holding [`BURST`]
//! posts and refilled by one every [`EVERY`]. A player moves a few times a minute at most; a
//! page or script posting faster is answered 429 until the bucket refills.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Posts a link may make at once.
pub const BURST: f64 = 5.0;
/// One more post is allowed after this long.
pub const EVERY: Duration = Duration::from_secs(2);
/// Buckets kept before full ones are forgotten.
const KEPT: usize = 10_000;

/// The buckets, by token hash.
pub struct Limiter {
    burst: f64,
    every: Duration,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl Limiter {
    pub fn new(burst: f64, every: Duration) -> Limiter {
        Limiter {
            burst,
            every,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one post from `key`'s bucket: `false` when it is empty.
    pub fn allow(&self, key: &str, now: Instant) -> bool {
        let Ok(mut buckets) = self.buckets.lock() else {
            return true;
        };
        let refill = |(level, at): (f64, Instant)| {
            let gained = now.saturating_duration_since(at).as_secs_f64() / self.every.as_secs_f64();
            (level + gained).min(self.burst)
        };
        if buckets.len() >= KEPT {
            buckets.retain(|_, b| refill(*b) < self.burst);
        }
        let level = buckets.get(key).map_or(self.burst, |b| refill(*b));
        let allowed = level >= 1.0;
        buckets.insert(
            key.to_string(),
            (if allowed { level - 1.0 } else { level }, now),
        );
        allowed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_one_post_per_period() {
        let l = Limiter::new(3.0, Duration::from_secs(2));
        let t = Instant::now();
        assert!((0..3).all(|_| l.allow("a", t)));
        assert!(!l.allow("a", t));
        assert!(l.allow("b", t), "another link has its own bucket");
        assert!(!l.allow("a", t + Duration::from_secs(1)));
        assert!(l.allow("a", t + Duration::from_millis(2100)));
        assert!(!l.allow("a", t + Duration::from_millis(2200)));
        assert!((0..3).all(|_| l.allow("a", t + Duration::from_secs(60))));
    }
}

//! The web board's limits, one implementation of each kind:
//!
//! - [`Limiter`]: token buckets, one per key, each holding a burst and refilled one at a time:
//!   move posts per link ([`BURST`], [`EVERY`]), and sign-ins per client and in all
//!   ([`super::activity`]). An empty bucket says how long until it holds one again (the
//!   answer's `Retry-After`).
//! - [`Seats`]: what stays open, counted in all and per client: the server's connections and
//!   live streams ([`super::server`]). A seat is given back when it is dropped.
//! - [`Every`]: lets a refusal be logged at most once a period, with how many there were since.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Posts a link may make at once.
pub const BURST: f64 = 5.0;
/// One more post is allowed after this long.
pub const EVERY: Duration = Duration::from_secs(2);
/// Buckets kept before full ones are forgotten.
const KEPT: usize = 10_000;

/// The lock of `mutex`, also after a panic elsewhere left it poisoned (the counts stay usable).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The buckets, by key.
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

    /// Takes one from `key`'s bucket; when it is empty, how long until it holds one again.
    pub fn take(&self, key: &str, now: Instant) -> Result<(), Duration> {
        let mut buckets = lock(&self.buckets);
        let refill = |(level, at): (f64, Instant)| {
            let gained = now.saturating_duration_since(at).as_secs_f64() / self.every.as_secs_f64();
            (level + gained).min(self.burst)
        };
        if buckets.len() >= KEPT {
            buckets.retain(|_, b| refill(*b) < self.burst);
        }
        let level = buckets.get(key).map_or(self.burst, |b| refill(*b));
        if level >= 1.0 {
            buckets.insert(key.to_string(), (level - 1.0, now));
            Ok(())
        } else {
            buckets.insert(key.to_string(), (level, now));
            Err(self.every.mul_f64(1.0 - level))
        }
    }
}

/// Why a seat was refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Full {
    /// Every seat is taken.
    Total,
    /// The client holds as many as one client may.
    Client,
}

/// Seats, at most `total` taken at once and `per_client` by one client.
pub struct Seats {
    total: usize,
    per_client: usize,
    held: Mutex<Held>,
}

#[derive(Default)]
struct Held {
    total: usize,
    by_client: HashMap<String, usize>,
}

/// A seat taken, given back when dropped.
pub struct Seat {
    seats: Arc<Seats>,
    client: Option<String>,
}

impl Seats {
    pub fn new(total: usize, per_client: usize) -> Arc<Seats> {
        Arc::new(Seats {
            total,
            per_client,
            held: Mutex::new(Held::default()),
        })
    }

    /// A seat for `client` (only the total counts when `None`), or why there is none.
    pub fn take(self: &Arc<Self>, client: Option<&str>) -> Result<Seat, Full> {
        let mut held = lock(&self.held);
        if held.total >= self.total {
            return Err(Full::Total);
        }
        if let Some(client) = client {
            let mine = held.by_client.entry(client.to_string()).or_default();
            if *mine >= self.per_client {
                return Err(Full::Client);
            }
            *mine += 1;
        }
        held.total += 1;
        Ok(Seat {
            seats: self.clone(),
            client: client.map(str::to_string),
        })
    }

    /// The seats taken now.
    pub fn taken(&self) -> usize {
        lock(&self.held).total
    }

    /// The seats there are in all.
    pub fn total(&self) -> usize {
        self.total
    }
}

impl Drop for Seat {
    fn drop(&mut self) {
        let mut held = lock(&self.seats.held);
        held.total = held.total.saturating_sub(1);
        if let Some(client) = &self.client {
            if let Some(mine) = held.by_client.get_mut(client) {
                *mine = mine.saturating_sub(1);
                if *mine == 0 {
                    held.by_client.remove(client);
                }
            }
        }
    }
}

/// Events reported at most once a period: the first at once, then the count of each period's.
pub struct Every {
    period: Duration,
    state: Mutex<(Option<Instant>, u64)>,
}

impl Every {
    pub fn new(period: Duration) -> Every {
        Every {
            period,
            state: Mutex::new((None, 0)),
        }
    }

    /// Counts an event at `now`: when a report is due, the events since the last one (this one
    /// included).
    pub fn due(&self, now: Instant) -> Option<u64> {
        let mut state = lock(&self.state);
        state.1 += 1;
        let due = state
            .0
            .is_none_or(|last| now.saturating_duration_since(last) >= self.period);
        due.then(|| {
            let count = state.1;
            *state = (Some(now), 0);
            count
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_one_post_per_period() {
        let l = Limiter::new(3.0, Duration::from_secs(2));
        let t = Instant::now();
        assert!((0..3).all(|_| l.take("a", t).is_ok()));
        assert_eq!(l.take("a", t), Err(Duration::from_secs(2)));
        assert!(l.take("b", t).is_ok(), "another link has its own bucket");
        assert_eq!(
            l.take("a", t + Duration::from_secs(1)),
            Err(Duration::from_secs(1))
        );
        assert!(l.take("a", t + Duration::from_millis(2100)).is_ok());
        assert!(l.take("a", t + Duration::from_millis(2200)).is_err());
        assert!((0..3).all(|_| l.take("a", t + Duration::from_secs(60)).is_ok()));
    }

    #[test]
    fn seats_are_counted_in_all_and_per_client_and_given_back() {
        let seats = Seats::new(3, 2);
        let a1 = seats.take(Some("a")).expect("a's first");
        let a2 = seats.take(Some("a")).expect("a's second");
        assert_eq!(seats.take(Some("a")).err(), Some(Full::Client));
        let b = seats.take(Some("b")).expect("b's");
        assert_eq!(seats.take(Some("c")).err(), Some(Full::Total));
        assert_eq!(seats.take(None).err(), Some(Full::Total));
        assert_eq!(seats.taken(), 3);
        drop(a1);
        assert_eq!(seats.taken(), 2);
        let none = seats.take(None).expect("a seat for anyone");
        drop((a2, b, none));
        assert_eq!(seats.taken(), 0);
        assert!(lock(&seats.held).by_client.is_empty(), "nothing kept");
    }

    #[test]
    fn events_are_reported_once_a_period_with_their_count() {
        let every = Every::new(Duration::from_secs(60));
        let t = Instant::now();
        assert_eq!(every.due(t), Some(1));
        assert_eq!(every.due(t + Duration::from_secs(1)), None);
        assert_eq!(every.due(t + Duration::from_secs(59)), None);
        assert_eq!(every.due(t + Duration::from_secs(60)), Some(3));
        assert_eq!(every.due(t + Duration::from_secs(61)), None);
    }
}

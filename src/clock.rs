//! The time the bot acts on: the system clock, or a controllable one for tests.
//!
//! Deadlines, reminders, vacations and challenge expiry all ask [`Clock::now`], so tests move
//! time forward without waiting: unit tests with [`Clock::fixed`], the end-to-end test through a
//! file (`HEXCORD_CLOCK_FILE`) whose content is the current Unix time in seconds.

use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

/// Unix time in seconds, from the system clock.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

#[derive(Clone, Debug)]
pub enum Clock {
    /// The system clock.
    System,
    /// The Unix time written in a file (tests only); the system clock while the file cannot be
    /// read.
    File(PathBuf),
    /// A time set by the test itself.
    Fixed(Arc<AtomicI64>),
}

impl Clock {
    /// A fixed clock at `t`, and the handle that moves it.
    pub fn fixed(t: i64) -> (Clock, Arc<AtomicI64>) {
        let cell = Arc::new(AtomicI64::new(t));
        (Clock::Fixed(cell.clone()), cell)
    }

    /// Unix time in seconds.
    pub fn now(&self) -> i64 {
        match self {
            Clock::System => unix_now(),
            Clock::File(path) => std::fs::read_to_string(path)
                .ok()
                .and_then(|s| s.trim().parse().ok())
                .unwrap_or_else(unix_now),
            Clock::Fixed(t) => t.load(Ordering::SeqCst),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_clock_tells_its_time() {
        let (c, handle) = Clock::fixed(100);
        assert_eq!(c.now(), 100);
        handle.store(250, Ordering::SeqCst);
        assert_eq!(c.now(), 250);
        let path = std::env::temp_dir().join(format!("hexcord-clock-{}", std::process::id()));
        std::fs::write(&path, "1234567\n").unwrap();
        assert_eq!(Clock::File(path.clone()).now(), 1_234_567);
        std::fs::write(&path, "garbage").unwrap();
        assert!(Clock::File(path.clone()).now() > 1_600_000_000);
        let _ = std::fs::remove_file(&path);
        assert!(Clock::System.now() > 1_600_000_000);
    }
}

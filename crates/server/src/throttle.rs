//! Per-account login throttle: exponential backoff after repeated failures.
//!
//! The per-address limit alone let 100 wrong passwords on one account from 5 addresses
//! through in 2.3 s. This counts failures per normalised login name, whether the name
//! exists or not (so the answer and its timing say nothing about which names exist),
//! and while an account is backing off its logins are refused without running argon2.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failures allowed before the backoff starts (typos happen).
pub const FREE_FAILURES: u32 = 5;
/// The first backoff; each further failure doubles it, up to `MAX_BACKOFF`.
pub const FIRST_BACKOFF: Duration = Duration::from_secs(1);
pub const MAX_BACKOFF: Duration = Duration::from_secs(15 * 60);
/// A bound on the names remembered; past it, names whose backoff is over are forgotten.
const MAX_NAMES: usize = 100_000;

struct Failures {
    count: u32,
    /// No login is tried for this name before then.
    until: Instant,
}

#[derive(Default)]
pub struct LoginThrottle {
    names: Mutex<HashMap<String, Failures>>,
}

/// The backoff after `count` consecutive failures.
pub fn backoff(count: u32) -> Duration {
    if count < FREE_FAILURES {
        return Duration::ZERO;
    }
    let doublings = (count - FREE_FAILURES).min(20);
    FIRST_BACKOFF
        .saturating_mul(1u32 << doublings)
        .min(MAX_BACKOFF)
}

impl LoginThrottle {
    /// `Err(wait)` while `key` is backing off.
    pub fn check(&self, key: &str) -> Result<(), Duration> {
        let names = self.names.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        match names.get(key) {
            Some(f) if f.until > now => Err(f.until - now),
            _ => Ok(()),
        }
    }

    pub fn failed(&self, key: &str) {
        let mut names = self.names.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        if names.len() >= MAX_NAMES {
            names.retain(|_, f| f.until > now);
        }
        let f = names.entry(key.to_string()).or_insert(Failures {
            count: 0,
            until: now,
        });
        f.count = f.count.saturating_add(1);
        f.until = now + backoff(f.count);
    }

    pub fn succeeded(&self, key: &str) {
        let mut names = self.names.lock().unwrap_or_else(|e| e.into_inner());
        names.remove(key);
    }
}

/// Whole seconds to announce in `Retry-After` (never 0 while waiting).
pub fn retry_seconds(wait: Duration) -> u32 {
    let ceil = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    u32::try_from(ceil.max(1)).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_starts_after_five_failures_doubles_and_stops_at_fifteen_minutes() {
        assert_eq!(backoff(4), Duration::ZERO);
        assert_eq!(backoff(5), Duration::from_secs(1));
        assert_eq!(backoff(6), Duration::from_secs(2));
        assert_eq!(backoff(10), Duration::from_secs(32));
        assert_eq!(backoff(15), MAX_BACKOFF);
        assert_eq!(backoff(u32::MAX), MAX_BACKOFF);
    }

    #[test]
    fn a_name_backs_off_after_its_failures_and_a_success_forgets_them() {
        let t = LoginThrottle::default();
        for _ in 0..4 {
            t.failed("hanako");
        }
        assert!(t.check("hanako").is_ok());
        t.failed("hanako");
        let wait = t.check("hanako").expect_err("backing off");
        assert!(wait <= FIRST_BACKOFF && retry_seconds(wait) == 1);
        assert!(t.check("taro").is_ok());
        t.succeeded("hanako");
        assert!(t.check("hanako").is_ok());
    }
}

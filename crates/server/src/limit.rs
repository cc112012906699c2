//! A token-bucket rate limiter per key (an IP address, an account).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::Instant;

/// `rate` tokens per second, up to `burst`.
#[derive(Clone, Copy, Debug)]
pub struct Rate {
    pub per_second: f64,
    pub burst: f64,
}

pub struct Limiter<K> {
    rate: Rate,
    buckets: Mutex<HashMap<K, (f64, Instant)>>,
}

impl<K: Hash + Eq + Clone> Limiter<K> {
    pub fn new(rate: Rate) -> Self {
        Limiter {
            rate,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `key`; false when its bucket is empty.
    pub fn check(&self, key: &K) -> bool {
        let now = Instant::now();
        let Ok(mut buckets) = self.buckets.lock() else {
            return true;
        };
        // Forget idle keys now and then so the map cannot grow without bound.
        if buckets.len() > 100_000 {
            let burst = self.rate.burst;
            let per = self.rate.per_second;
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() * per < burst
            });
        }
        let entry = buckets.entry(key.clone()).or_insert((self.rate.burst, now));
        let refill = now.duration_since(entry.1).as_secs_f64() * self.rate.per_second;
        entry.0 = (entry.0 + refill).min(self.rate.burst);
        entry.1 = now;
        if entry.0 >= 1.0 {
            entry.0 -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_refusal() {
        let l = Limiter::new(Rate {
            per_second: 0.001,
            burst: 3.0,
        });
        assert!(l.check(&1) && l.check(&1) && l.check(&1));
        assert!(!l.check(&1));
        assert!(l.check(&2));
    }
}

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

/// `RATE/BURST` (or `RATE`, with a burst of four seconds' worth), as the command line
/// writes it: `50/200`.
impl std::str::FromStr for Rate {
    type Err = String;
    fn from_str(s: &str) -> Result<Rate, String> {
        let (rate, burst) = match s.split_once('/') {
            Some((r, b)) => (r, Some(b)),
            None => (s, None),
        };
        let per_second: f64 = rate
            .trim()
            .parse()
            .map_err(|_| format!("`{s}`: the rate is a number per second, as in 50/200"))?;
        let burst: f64 = match burst {
            Some(b) => b
                .trim()
                .parse()
                .map_err(|_| format!("`{s}`: the burst is a number, as in 50/200"))?,
            None => per_second * 4.0,
        };
        if !(per_second.is_finite() && per_second > 0.0 && burst.is_finite() && burst >= 1.0) {
            return Err(format!(
                "`{s}`: the rate must be above 0 and the burst at least 1"
            ));
        }
        Ok(Rate { per_second, burst })
    }
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

/// Counts what is open per key (connections per address, sockets per account) up to a
/// cap; each admitted one holds a [`CountGuard`] that gives its place back on drop.
pub struct Counter<K: Hash + Eq> {
    max: usize,
    counts: Mutex<HashMap<K, usize>>,
}

impl<K: Hash + Eq + Clone> Counter<K> {
    pub fn new(max: usize) -> Self {
        Counter {
            max,
            counts: Mutex::new(HashMap::new()),
        }
    }

    /// A place for `key`, or `None` when it already holds `max`.
    pub fn acquire(self: &std::sync::Arc<Self>, key: K) -> Option<CountGuard<K>> {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let n = counts.entry(key.clone()).or_insert(0);
        if *n >= self.max {
            return None;
        }
        *n += 1;
        Some(CountGuard {
            counter: self.clone(),
            key: Some(key),
        })
    }

    pub fn get(&self, key: &K) -> usize {
        let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts.get(key).copied().unwrap_or(0)
    }

    fn release(&self, key: &K) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = counts.get_mut(key) {
            *n = n.saturating_sub(1);
            // Keys with nothing open are forgotten, so the map is as big as what is open.
            if *n == 0 {
                counts.remove(key);
            }
        }
    }
}

/// One place held in a [`Counter`].
pub struct CountGuard<K: Hash + Eq + Clone> {
    counter: std::sync::Arc<Counter<K>>,
    key: Option<K>,
}

impl<K: Hash + Eq + Clone> Drop for CountGuard<K> {
    fn drop(&mut self) {
        if let Some(key) = self.key.take() {
            self.counter.release(&key);
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

    #[test]
    fn a_counter_admits_up_to_its_cap_and_frees_on_drop() {
        let c = std::sync::Arc::new(Counter::new(2));
        let a = c.acquire("x");
        let b = c.acquire("x");
        assert!(a.is_some() && b.is_some());
        assert!(c.acquire("x").is_none(), "a third is refused");
        assert!(c.acquire("y").is_some(), "other keys have their own count");
        drop(a);
        assert_eq!(c.get(&"x"), 1);
        assert!(c.acquire("x").is_some(), "a freed place is given again");
    }
}

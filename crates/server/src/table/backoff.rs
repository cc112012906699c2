//! Retries after a failed write (a bot's move, a clock's timeout), spaced out more
//! each time: while the database refuses writes, a table must not retry at full speed.

use std::time::Duration;
use tokio::time::Instant;

/// The longest wait between two tries to store a bot's move or a timeout.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

#[derive(Default)]
pub(super) struct Backoff {
    pub wait: Duration,
    not_before: Option<Instant>,
}

impl Backoff {
    pub fn failed(&mut self) {
        self.wait = (self.wait * 2).clamp(Duration::from_millis(250), MAX_BACKOFF);
        self.not_before = Some(Instant::now() + self.wait);
    }
    pub fn succeeded(&mut self) {
        *self = Backoff::default();
    }
    /// `t`, or later if a retry must wait.
    pub fn not_before(&self, t: Instant) -> Instant {
        self.not_before.map_or(t, |nb| nb.max(t))
    }
}

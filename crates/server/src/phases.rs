//! Where an action's time goes, phase by phase, for `/metrics` (issue 20, item 4: a
//! p50 of 2 ms beside a p99 of hundreds is a stall, and these say which part stalls):
//!
//! - `queued`: a client's action in its table's mailbox, behind the table's other
//!   commands (bot moves, other seats' actions, subscribes);
//! - `applied`: the rules' step, from the table taking the action to asking the writer;
//! - `writer_queue`: the action in the writer's queue until its batch starts (behind
//!   the batch being committed and, on SQLite, the other writes run before it);
//! - the commit itself is `Metrics::commit_wait` (which includes `writer_queue`);
//! - `broadcast`: building every follower's message and queueing it, after a change;
//! - `answered`: a WebSocket action, from its message read to its ack (all of the
//!   above, as the server sees it);
//! - `writer_other`: per writer round, the writes other than actions run before its
//!   batch (SQLite: new tables, seats, sessions), which every action of it waits for;
//! - `runtime_lag`: how late a timer of [`LAG_PROBE_EVERY`] wakes its task on the
//!   shared runtime: every ready task queues like that (a worker blocked by
//!   synchronous work shows here first).

use crate::metrics::Histogram;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Default)]
pub struct Phases {
    pub queued: Histogram,
    pub applied: Histogram,
    pub writer_queue: Histogram,
    pub broadcast: Histogram,
    pub answered: Histogram,
    pub writer_other: Histogram,
    pub runtime_lag: Histogram,
}

/// How often the lag probe asks to be woken.
pub const LAG_PROBE_EVERY: Duration = Duration::from_millis(10);

impl Phases {
    /// The histograms in the Prometheus text format, after the others.
    pub fn render(&self, out: &mut String) {
        let rows: [(&Histogram, &str, &str); 7] = [
            (
                &self.queued,
                "takuge_action_queued_seconds",
                "A client's action in its table's mailbox before the table takes it",
            ),
            (
                &self.applied,
                "takuge_action_applied_seconds",
                "An action's rules step, from the table taking it to asking the writer",
            ),
            (
                &self.writer_queue,
                "takuge_action_writer_queue_seconds",
                "An action in the writer's queue until its batch starts",
            ),
            (
                &self.broadcast,
                "takuge_broadcast_seconds",
                "Building and queueing every follower's message after a change",
            ),
            (
                &self.answered,
                "takuge_action_answered_seconds",
                "A WebSocket action, from its message read to its ack",
            ),
            (
                &self.writer_other,
                "takuge_writer_other_writes_seconds",
                "Per writer round, the writes other than actions run before its batch",
            ),
            (
                &self.runtime_lag,
                "takuge_runtime_lag_seconds",
                "How late a 10 ms timer wakes its task on the shared runtime",
            ),
        ];
        for (h, name, help) in rows {
            h.render(out, name, help);
        }
    }
}

/// Measures the shared runtime's lag until the server stops: a task that sleeps
/// [`LAG_PROBE_EVERY`] and records how much later than asked it ran again.
pub async fn lag_probe(phases: Arc<Phases>, mut stop: tokio::sync::watch::Receiver<bool>) {
    loop {
        let asked = Instant::now();
        tokio::select! {
            () = tokio::time::sleep(LAG_PROBE_EVERY) => {}
            _ = stop.changed() => return,
        }
        phases
            .runtime_lag
            .observe(asked.elapsed().saturating_sub(LAG_PROBE_EVERY));
    }
}

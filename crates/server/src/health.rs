//! Whether the database takes writes. A database can answer reads and refuse every
//! write (made read-only, disk full, a replica after failover): `/healthz` then says
//! "degraded", `/readyz` answers 503 so a load balancer sends players elsewhere, every
//! write request is refused with 503 `database_unavailable`, and bots and clocks back
//! off instead of retrying at full speed.

use crate::metrics::Metrics;
use crate::writer::Writer;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the writes have shown: kept by the writer, read by the health checks.
#[derive(Default)]
pub struct WriteHealth {
    last_error: Mutex<Option<String>>,
}

impl WriteHealth {
    pub fn succeeded(&self, metrics: &Metrics) {
        if metrics.database_writable.swap(1, Ordering::Relaxed) == 0 {
            if let Ok(mut e) = self.last_error.lock() {
                *e = None;
            }
            tracing::info!("the database takes writes again");
        }
    }

    pub fn failed(&self, metrics: &Metrics, why: &str) {
        metrics
            .database_write_errors
            .fetch_add(1, Ordering::Relaxed);
        if let Ok(mut e) = self.last_error.lock() {
            *e = Some(why.chars().take(200).collect());
        }
        if metrics.database_writable.swap(0, Ordering::Relaxed) == 1 {
            tracing::error!(
                error = why,
                "the database refuses writes; the server is read-only until it takes them again"
            );
        }
    }

    pub fn failure(&self, metrics: &Metrics) -> Option<String> {
        if metrics.database_writable.load(Ordering::Relaxed) == 1 {
            return None;
        }
        let e = self.last_error.lock().ok()?;
        Some(e.clone().unwrap_or_else(|| "unknown".into()))
    }
}

/// How often `/readyz` may write its probe row, whatever the rate of checks.
const PROBE_EVERY: Duration = Duration::from_secs(1);

/// `/readyz`'s probe: a real write, at most once a [`PROBE_EVERY`].
pub struct Readiness {
    metrics: Arc<Metrics>,
    last: tokio::sync::Mutex<Option<(Instant, Result<(), String>)>>,
}

impl Readiness {
    pub fn new(metrics: Arc<Metrics>) -> Self {
        Readiness {
            metrics,
            last: tokio::sync::Mutex::new(None),
        }
    }

    /// Why writes fail, if the last one failed.
    pub fn last_failure(&self) -> Option<String> {
        self.metrics.write_health.failure(&self.metrics)
    }

    pub async fn probe(&self, writer: &Writer) -> Result<(), String> {
        let mut last = self.last.lock().await;
        if let Some((at, result)) = &*last {
            if at.elapsed() < PROBE_EVERY {
                return result.clone();
            }
        }
        let now = crate::time::now();
        let result = writer.probe(now).await.map_err(|e| e.to_string());
        *last = Some((Instant::now(), result.clone()));
        result
    }
}

//! What a load run measured, and its text (the lines docs/PERFORMANCE.md quotes).

use crate::journal::Acknowledged;
use crate::sample::{Buckets, ServerSample};
use crate::WARM_UP;

#[derive(Debug)]
pub struct LoadReport {
    pub tables: usize,
    pub seconds: f64,
    /// The servers loaded (the nodes of a cluster); the figures are their sums.
    pub nodes: usize,
    pub committed: u64,
    pub client_actions: u64,
    pub games_finished: u64,
    pub errors: u64,
    /// Actions sent again under their id, and connections opened again.
    pub resends: u64,
    pub reconnects: u64,
    pub latencies_ms: Vec<f64>,
    /// The server's own commit figures over the measurement (from its `/metrics`).
    pub server: ServerDelta,
    /// The server process's memory, CPU and tables (from its `/metrics`).
    pub process: ServerProcess,
    /// Whether the server ran in the load test's own process (so its RSS and CPU
    /// include the load clients').
    pub own_server: bool,
    /// Every table started and every action the servers acknowledged.
    pub acknowledged: Acknowledged,
}

/// The server's process and tables, as its `/metrics` gave them: before any client
/// connected, when the measurement started, and when it ended. `None` where the
/// server does not report the figure (RSS and CPU are read on Linux only).
#[derive(Debug, Default)]
pub struct ServerProcess {
    pub rss_idle: Option<u64>,
    pub rss_start: Option<u64>,
    pub rss_end: Option<u64>,
    /// CPU seconds the server used during the measurement.
    pub cpu_seconds: Option<f64>,
    /// At the end: tables open or in play, tables in memory, of those tables over,
    /// WebSocket connections open.
    pub live_tables: i64,
    pub resident_tables: i64,
    pub finished_resident: i64,
    pub websockets: i64,
}

impl ServerProcess {
    pub(crate) fn of(
        idle: &ServerSample,
        before: &ServerSample,
        after: &ServerSample,
    ) -> ServerProcess {
        ServerProcess {
            rss_idle: idle.rss,
            rss_start: before.rss,
            rss_end: after.rss,
            cpu_seconds: after.cpu.zip(before.cpu).map(|(a, b)| a - b),
            live_tables: after.live_tables,
            resident_tables: after.resident_tables,
            finished_resident: after.finished_resident,
            websockets: after.websockets,
        }
    }

    /// What each live table (with its connection) adds to the server's RSS over the
    /// server at rest, bytes.
    pub fn bytes_per_live_table(&self) -> Option<f64> {
        let (idle, end) = self.rss_idle.zip(self.rss_end)?;
        (self.live_tables > 0).then(|| (end as f64 - idle as f64) / self.live_tables as f64)
    }
}

pub(crate) fn mb(bytes: Option<u64>) -> String {
    bytes.map_or_else(|| "?".to_string(), |b| format!("{:.1} MB", b as f64 / 1e6))
}

/// What the server's `/metrics` counted between two reads.
#[derive(Debug, Default)]
pub struct ServerDelta {
    pub committed: u64,
    /// `takuge_commit_wait_seconds`.
    pub commit_wait: Buckets,
    pub commit_wait_sum: f64,
    pub batches: u64,
    pub batch_sum: f64,
    pub batch_rows: u64,
    /// `takuge_bot_search_decision_seconds` and `takuge_bot_think_seconds`.
    pub bot_search_decision: Buckets,
    pub bot_think: Buckets,
    /// The server's phase histograms (`crate::sample::PHASES`), in that order.
    pub phases: Vec<Buckets>,
}

impl ServerDelta {
    pub(crate) fn between(before: &ServerSample, after: &ServerSample) -> ServerDelta {
        ServerDelta {
            committed: after.committed.saturating_sub(before.committed),
            commit_wait: after.commit_wait.since(&before.commit_wait),
            bot_search_decision: after.bot_search_decision.since(&before.bot_search_decision),
            bot_think: after.bot_think.since(&before.bot_think),
            commit_wait_sum: after.commit_wait_sum - before.commit_wait_sum,
            batches: after.batches.saturating_sub(before.batches),
            batch_sum: after.batch_sum - before.batch_sum,
            batch_rows: after.batch_rows.saturating_sub(before.batch_rows),
            phases: after
                .phases
                .iter()
                .zip(&before.phases)
                .map(|(a, b)| a.since(b))
                .collect(),
        }
    }
}

impl LoadReport {
    pub fn percentile(&self, p: f64) -> f64 {
        if self.latencies_ms.is_empty() {
            return 0.0;
        }
        let i = ((self.latencies_ms.len() as f64 - 1.0) * p).round() as usize;
        self.latencies_ms[i.min(self.latencies_ms.len() - 1)]
    }
}

impl std::fmt::Display for LoadReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let on = if self.nodes > 1 {
            format!(" on {} nodes", self.nodes)
        } else {
            String::new()
        };
        writeln!(
            f,
            "{} tables{on} for {:.1} s (after every table was playing, and {} s more): {} games finished, {} client actions, {} errors, {} resent, {} reconnections",
            self.tables,
            self.seconds,
            WARM_UP.as_secs(),
            self.games_finished,
            self.client_actions,
            self.errors,
            self.resends,
            self.reconnects,
        )?;
        writeln!(
            f,
            "committed {:.0} actions/s ({} in all, bots included)",
            self.committed as f64 / self.seconds,
            self.committed
        )?;
        writeln!(
            f,
            "action-to-update latency: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} samples)",
            self.percentile(0.5),
            self.percentile(0.99),
            self.latencies_ms.last().copied().unwrap_or(0.0),
            self.latencies_ms.len()
        )?;
        let d = &self.server;
        let per = |x: f64, n: u64| if n == 0 { 0.0 } else { x / n as f64 };
        writeln!(
            f,
            "server commits: wait mean {:.2} ms, p50 ≤ {} ms, p99 ≤ {} ms; {:.0} batches/s of {:.1} actions, {:.2} ms each",
            per(d.commit_wait_sum * 1000.0, d.commit_wait.count()),
            d.commit_wait.quantile_ms(0.5).unwrap_or(0.0),
            d.commit_wait.quantile_ms(0.99).unwrap_or(0.0),
            d.batches as f64 / self.seconds,
            per(d.batch_rows as f64, d.batches),
            per(d.batch_sum * 1000.0, d.batches),
        )?;
        let q = |b: &Buckets, p: f64| {
            b.quantile_ms(p)
                .map_or_else(|| "-".to_string(), |ms| format!("≤ {ms}"))
        };
        writeln!(
            f,
            "server bots: {} moves, thinking p50 {} ms, p99 {} ms; {} searches, asked to chosen (thread wait and search, no pause) p50 {} ms, p99 {} ms",
            d.bot_think.count(),
            q(&d.bot_think, 0.5),
            q(&d.bot_think, 0.99),
            d.bot_search_decision.count(),
            q(&d.bot_search_decision, 0.5),
            q(&d.bot_search_decision, 0.99),
        )?;
        let phases: Vec<String> = crate::sample::PHASES
            .iter()
            .zip(&d.phases)
            .filter(|(_, b)| b.count() > 0)
            .map(|((_, word), b)| {
                let ms = |p| {
                    b.quantile_ms(p)
                        .map_or_else(|| "-".to_string(), |m| m.to_string())
                };
                format!("{word} {}/{}", ms(0.5), ms(0.99))
            })
            .collect();
        if !phases.is_empty() {
            writeln!(
                f,
                "server phases, p50/p99 (ms, bucket bounds): {}",
                phases.join(", ")
            )?;
        }
        let p = &self.process;
        writeln!(
            f,
            "server process{}: RSS {} at rest, {} at the start, {} at the end; CPU {}",
            if self.own_server {
                " (this one: the load clients included)"
            } else {
                ""
            },
            mb(p.rss_idle),
            mb(p.rss_start),
            mb(p.rss_end),
            p.cpu_seconds.map_or_else(
                || "?".to_string(),
                |c| format!("{c:.1} s ({:.2} cores)", c / self.seconds)
            ),
        )?;
        writeln!(
            f,
            "server tables at the end: {} live, {} in memory ({} over), {} WebSocket connections; {} a live table",
            p.live_tables,
            p.resident_tables,
            p.finished_resident,
            p.websockets,
            p.bytes_per_live_table()
                .map_or_else(|| "?".to_string(), |b| format!("{:.1} KB", b / 1e3)),
        )
    }
}

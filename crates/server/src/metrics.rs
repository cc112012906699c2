//! Counters for `/metrics`, in the Prometheus text format.

use std::fmt::Write;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

#[derive(Default)]
pub struct Metrics {
    pub http_requests: AtomicU64,
    pub actions_committed: AtomicU64,
    pub open_tables: AtomicI64,
    pub ws_connections: AtomicI64,
    pub ws_messages_in: AtomicU64,
    /// WebSocket connections closed (1013) because they fell behind (`crate::outbox`).
    pub ws_closed_lagging: AtomicU64,
    pub rate_limited: AtomicU64,
    /// From a table asking for its action to be committed to hearing it is durable.
    pub commit_wait: Histogram,
    /// One group-commit transaction, from its first statement to its commit.
    pub commit_batch: Histogram,
    /// Actions written by group-commit transactions (÷ `commit_batch`'s count: rows a batch).
    pub commit_batch_rows: AtomicU64,
    /// Connections closed at once because a cap (in all, or per address) was reached.
    pub connections_refused: AtomicU64,
    /// Connections open now (HTTP and WebSocket), kept by the accept loop's counter.
    pub connections_open: AtomicI64,
    /// 1 while the last write reached the database, 0 once one failed (until one works).
    pub database_writable: AtomicI64,
    /// Writes the database refused (read-only, full, gone).
    pub database_write_errors: AtomicU64,
    /// Why the last write failed, while writes fail.
    pub write_health: crate::health::WriteHealth,
    /// Bot searches stopped early because their table was abandoned (or shut down).
    pub bot_searches_cancelled: AtomicU64,
    /// Bot searches that started from a tree kept from the seat's earlier searches.
    pub bot_searches_reused: AtomicU64,
    /// Searching bots' moves that waited out their time budget in the bot threads'
    /// queue and were answered by the game's rule bot instead (an overloaded server).
    pub bot_moves_rushed: AtomicU64,
    /// A searching bot's move, from its seat being asked to move to the move being
    /// chosen: the wait for a bot thread and the search (the deliberate `bot_delay`
    /// pause not included).
    pub bot_search_decision: Histogram,
    /// Every bot move's thinking alone (a rule bot's on the table's task, a search's on
    /// a bot thread).
    pub bot_think: Histogram,
    /// Password hashing: running now, most at once, refused as busy.
    pub hashing: std::sync::Arc<crate::hashing::HashStats>,
    /// Tables whose task is running although they are over (finished or abandoned):
    /// such a table answers what is still queued for it, then leaves memory.
    pub finished_tables_resident: AtomicI64,
    /// Tables read from the database and replayed (the others a request needed were
    /// in memory, or kept replayed in `finished_cache`).
    pub table_loads: AtomicU64,
    /// Several nodes: table leases this node holds now (tables it runs under an epoch).
    pub leases_held: AtomicI64,
    /// Several nodes: leases this node took (a load, a failover, a handover received).
    pub lease_claims: AtomicU64,
    /// Several nodes: a table's writes the database refused for a stale epoch.
    pub fenced_writes: AtomicU64,
    /// Several nodes: tables whose lease had expired, claimed and restored here.
    pub failover_restores: AtomicU64,
    /// HTTP requests passed to the node that owns their table, and of those the ones
    /// that node did not answer (`cluster::forward`).
    pub forwarded_requests: AtomicU64,
    pub forward_failures: AtomicU64,
    /// Upstream WebSockets open now to other nodes (one per client connection and
    /// node it follows tables on; `cluster::relay`).
    pub upstream_sockets: AtomicI64,
    /// Tables a connection looked up again after they moved or their node died.
    pub reroutes: AtomicU64,
    /// Where an action's time goes, phase by phase (`crate::phases`).
    pub phases: std::sync::Arc<crate::phases::Phases>,
}

/// What the process itself uses, read from the kernel when it tells (Linux `/proc`);
/// `None` elsewhere, and the rows are then left out.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ProcessFigures {
    /// Resident set size, bytes (`VmRSS` of `/proc/self/status`).
    pub rss_bytes: Option<u64>,
    /// User plus system CPU time of every thread, seconds (`/proc/self/stat`).
    pub cpu_seconds: Option<f64>,
}

/// The kernel's clock ticks a second as `/proc` counts CPU time (`USER_HZ`, which
/// Linux fixes at 100 for user space on every architecture we build for).
const USER_HZ: f64 = 100.0;

impl ProcessFigures {
    pub fn read() -> ProcessFigures {
        ProcessFigures {
            rss_bytes: std::fs::read_to_string("/proc/self/status")
                .ok()
                .and_then(|s| rss_of_status(&s)),
            cpu_seconds: std::fs::read_to_string("/proc/self/stat")
                .ok()
                .and_then(|s| cpu_of_stat(&s)),
        }
    }
}

/// `VmRSS:   123 kB` of `/proc/<pid>/status`, in bytes.
fn rss_of_status(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let mut words = line.split_whitespace().skip(1);
    let n: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => n.checked_mul(1024),
        _ => None,
    }
}

/// utime + stime (fields 14 and 15) of `/proc/<pid>/stat`, in seconds. The command
/// name (field 2) is in parentheses and may hold spaces, so fields count from its `)`.
fn cpu_of_stat(stat: &str) -> Option<f64> {
    let (_, rest) = stat.rsplit_once(')')?;
    // `rest` starts at field 3 (the state).
    let mut fields = rest.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some((utime + stime) as f64 / USER_HZ)
}

/// What only the server as a whole knows, for `/metrics` beside the counters.
#[derive(Clone, Copy, Debug, Default)]
pub struct Gauges {
    /// Tables in memory (the hub's map: each a running task, or one just ended).
    pub tables_resident: i64,
    /// Finished tables kept replayed (`finished_cache`), apart from the tables in memory.
    pub finished_cached: i64,
    pub process: ProcessFigures,
}

/// One counter or gauge a row: `(name, "counter" | "gauge", help, value)`.
pub type Row<'a> = (&'a str, &'a str, &'a str, i64);

/// Writes plain counters and gauges in the Prometheus text format.
pub fn write_rows(out: &mut String, rows: &[Row<'_>]) {
    for (name, kind, help, value) in rows {
        let _ = writeln!(
            out,
            "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
        );
    }
}

/// Upper bounds of the latency buckets, in seconds (a commit on a quiet machine takes
/// well under a millisecond; under load tens; 0.25 is the bots' "normal" move target).
pub const BUCKETS: [f64; 15] = [
    0.000_25, 0.000_5, 0.001, 0.002, 0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.25, 0.5, 1.0, 5.0,
];

/// A Prometheus histogram of durations: per bucket the number of observations at most
/// its bound, plus their count and sum. Lock-free, so tables record on their own tasks.
#[derive(Default)]
pub struct Histogram {
    buckets: [AtomicU64; BUCKETS.len()],
    count: AtomicU64,
    sum_us: AtomicU64,
}

impl Histogram {
    pub fn observe(&self, d: std::time::Duration) {
        let s = d.as_secs_f64();
        if let Some(i) = BUCKETS.iter().position(|&b| s <= b) {
            self.buckets[i].fetch_add(1, Ordering::Relaxed);
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_us.fetch_add(
            d.as_micros().min(u128::from(u64::MAX)) as u64,
            Ordering::Relaxed,
        );
    }

    pub(crate) fn render(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        let mut cumulative = 0;
        for (bound, n) in BUCKETS.iter().zip(&self.buckets) {
            cumulative += n.load(Ordering::Relaxed);
            let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {cumulative}");
        }
        let count = self.count.load(Ordering::Relaxed);
        let sum = self.sum_us.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let _ = writeln!(out, "{name}_sum {sum}\n{name}_count {count}");
    }
}

impl Metrics {
    /// Counts a request or message refused for going too fast, and the refusal it gets
    /// (`429` with `code` and words).
    pub fn rate_limited(
        &self,
        code: &'static str,
        message: &'static str,
    ) -> crate::error::ApiError {
        self.rate_limited.fetch_add(1, Ordering::Relaxed);
        crate::error::ApiError::new(axum::http::StatusCode::TOO_MANY_REQUESTS, code, message)
    }

    /// Everything, in the Prometheus text format; `gauges` from the server
    /// ([`Gauges`]). Every row is a count over the whole server: nothing per seat,
    /// table or account.
    pub fn render(&self, gauges: &Gauges) -> String {
        let mut out = String::new();
        let rows: [(&str, &str, &str, i64); 19] = [
            (
                "takuge_http_requests_total",
                "counter",
                "HTTP requests received",
                self.http_requests.load(Ordering::Relaxed) as i64,
            ),
            (
                "takuge_actions_committed_total",
                "counter",
                "Game actions committed to the database",
                self.actions_committed.load(Ordering::Relaxed) as i64,
            ),
            (
                "takuge_open_tables",
                "gauge",
                "Tables open or being played",
                self.open_tables.load(Ordering::Relaxed),
            ),
            (
                "takuge_websocket_connections",
                "gauge",
                "WebSocket connections open now",
                self.ws_connections.load(Ordering::Relaxed),
            ),
            (
                "takuge_websocket_messages_total",
                "counter",
                "WebSocket messages received from clients",
                self.ws_messages_in.load(Ordering::Relaxed) as i64,
            ),
            (
                "takuge_websocket_closed_lagging_total",
                "counter",
                "WebSocket connections closed (1013) because they fell behind",
                self.ws_closed_lagging.load(Ordering::Relaxed) as i64,
            ),
            (
                "takuge_rate_limited_total",
                "counter",
                "Requests and messages refused by the rate limiter",
                self.rate_limited.load(Ordering::Relaxed) as i64,
            ),
            (
                "takuge_bot_searches_cancelled_total",
                "counter",
                "Bot searches stopped early because their table was abandoned",
                self.bot_searches_cancelled.load(Ordering::Relaxed) as i64,
            ),
            (
                "takuge_bot_searches_reused_total",
                "counter",
                "Bot searches that started from the tree of the seat's earlier searches",
                self.bot_searches_reused.load(Ordering::Relaxed) as i64,
            ),
            (
                "takuge_bot_moves_rushed_total",
                "counter",
                "Searching bots' moves that waited out their time in the bot queue and were played by the rule bot",
                self.bot_moves_rushed.load(Ordering::Relaxed) as i64,
            ),
            (
                "takuge_leases_held",
                "gauge",
                "Table leases this node holds (several nodes)",
                self.leases_held.load(Ordering::Relaxed),
            ),
            (
                "takuge_lease_claims_total",
                "counter",
                "Table leases this node claimed",
                self.lease_claims.load(Ordering::Relaxed) as i64,
            ),
            (
                "takuge_fenced_writes_total",
                "counter",
                "Table writes refused by the database for a stale lease epoch",
                self.fenced_writes.load(Ordering::Relaxed) as i64,
            ),
            (
                "takuge_failover_restores_total",
                "counter",
                "Tables of a node that stopped heartbeating claimed and restored here",
                self.failover_restores.load(Ordering::Relaxed) as i64,
            ),
            (
                "takuge_commit_batch_rows_total",
                "counter",
                "Actions written by group-commit transactions",
                self.commit_batch_rows.load(Ordering::Relaxed) as i64,
            ),
            (
                "takuge_connections_refused_total",
                "counter",
                "Connections closed at once: a connection cap was reached",
                self.connections_refused.load(Ordering::Relaxed) as i64,
            ),
            (
                "takuge_connections_open",
                "gauge",
                "Connections open now, HTTP and WebSocket",
                self.connections_open.load(Ordering::Relaxed),
            ),
            (
                "takuge_database_writable",
                "gauge",
                "1 while writes reach the database, 0 after a write failed",
                self.database_writable.load(Ordering::Relaxed),
            ),
            (
                "takuge_database_write_errors_total",
                "counter",
                "Writes the database refused",
                self.database_write_errors.load(Ordering::Relaxed) as i64,
            ),
        ];
        write_rows(&mut out, &rows);
        write_rows(
            &mut out,
            &[
                (
                    "takuge_tables_resident",
                    "gauge",
                    "Tables in memory: live ones, and those over still answering",
                    gauges.tables_resident,
                ),
                (
                    "takuge_finished_tables_resident",
                    "gauge",
                    "Tables over (finished or abandoned) still in memory",
                    self.finished_tables_resident.load(Ordering::Relaxed),
                ),
                (
                    "takuge_finished_tables_cached",
                    "gauge",
                    "Finished tables kept replayed for late requests (bounded)",
                    gauges.finished_cached,
                ),
                (
                    "takuge_table_loads_total",
                    "counter",
                    "Tables read from the database and replayed",
                    self.table_loads.load(Ordering::Relaxed) as i64,
                ),
                (
                    "takuge_forwarded_requests_total",
                    "counter",
                    "HTTP requests passed to the node that owns their table",
                    self.forwarded_requests.load(Ordering::Relaxed) as i64,
                ),
                (
                    "takuge_forward_failures_total",
                    "counter",
                    "Passed requests the owning node did not answer",
                    self.forward_failures.load(Ordering::Relaxed) as i64,
                ),
                (
                    "takuge_upstream_sockets",
                    "gauge",
                    "WebSockets open to other nodes for clients connected here",
                    self.upstream_sockets.load(Ordering::Relaxed),
                ),
                (
                    "takuge_reroutes_total",
                    "counter",
                    "Tables a connection looked up again after they moved or their node died",
                    self.reroutes.load(Ordering::Relaxed) as i64,
                ),
            ],
        );
        if let Some(rss) = gauges.process.rss_bytes {
            let rss = i64::try_from(rss).unwrap_or(i64::MAX);
            write_rows(
                &mut out,
                &[(
                    "takuge_process_resident_memory_bytes",
                    "gauge",
                    "Resident memory of the server's process, bytes",
                    rss,
                )],
            );
        }
        if let Some(cpu) = gauges.process.cpu_seconds {
            let name = "takuge_process_cpu_seconds_total";
            let _ = writeln!(
                out,
                "# HELP {name} User and system CPU time of the server's process, seconds\n# TYPE {name} counter\n{name} {cpu}"
            );
        }
        self.commit_wait.render(
            &mut out,
            "takuge_commit_wait_seconds",
            "From a table asking to commit an action to hearing it is durable",
        );
        self.commit_batch.render(
            &mut out,
            "takuge_commit_batch_seconds",
            "Group-commit transactions, first statement to commit",
        );
        self.bot_search_decision.render(
            &mut out,
            "takuge_bot_search_decision_seconds",
            "A searching bot's move, asked to chosen: the wait for a bot thread and the search",
        );
        self.bot_think.render(
            &mut out,
            "takuge_bot_think_seconds",
            "A bot's thinking for one move",
        );
        self.hashing.render(&mut out);
        self.phases.render(&mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_histogram_renders_cumulative_prometheus_buckets_with_count_and_sum() {
        let m = Metrics::default();
        m.commit_wait.observe(Duration::from_micros(100));
        m.commit_wait.observe(Duration::from_millis(3));
        m.commit_wait.observe(Duration::from_secs(9));
        let text = m.render(&Gauges::default());
        let value = |series: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
                .unwrap_or_else(|| panic!("no {series} in\n{text}"))
                .to_string()
        };
        assert_eq!(
            value("takuge_commit_wait_seconds_bucket{le=\"0.00025\"}"),
            "1"
        );
        assert_eq!(
            value("takuge_commit_wait_seconds_bucket{le=\"0.002\"}"),
            "1"
        );
        assert_eq!(
            value("takuge_commit_wait_seconds_bucket{le=\"0.005\"}"),
            "2"
        );
        assert_eq!(value("takuge_commit_wait_seconds_bucket{le=\"5\"}"), "2");
        assert_eq!(value("takuge_commit_wait_seconds_bucket{le=\"+Inf\"}"), "3");
        assert_eq!(value("takuge_commit_wait_seconds_count"), "3");
        assert_eq!(value("takuge_commit_wait_seconds_sum"), "9.0031");
        assert!(text.contains("# TYPE takuge_commit_batch_seconds histogram"));
        // Without the kernel's figures, their rows are left out.
        assert!(!text.contains("takuge_process_"), "{text}");
    }

    #[test]
    fn the_process_figures_are_read_from_proc() {
        let status = "Name:\ttakuge\nVmPeak:\t  9000 kB\nVmRSS:\t  5120 kB\nThreads:\t3\n";
        assert_eq!(rss_of_status(status), Some(5120 * 1024));
        assert_eq!(rss_of_status("VmRSS: 12 MB\n"), None);
        assert_eq!(rss_of_status(""), None);
        // The command name may hold spaces and parentheses.
        let stat = "4242 (tak (u) ge) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 3 0";
        assert_eq!(cpu_of_stat(stat), Some(3.25));
        assert_eq!(cpu_of_stat("4242 (x) S 1"), None);
        if cfg!(target_os = "linux") {
            let m = Metrics::default();
            let text = m.render(&Gauges {
                tables_resident: 2,
                finished_cached: 0,
                process: ProcessFigures::read(),
            });
            let value = |name: &str| {
                text.lines()
                    .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
                    .and_then(|v| v.parse::<f64>().ok())
            };
            assert!(value("takuge_process_resident_memory_bytes").is_some_and(|v| v > 0.0));
            assert!(value("takuge_process_cpu_seconds_total").is_some_and(|v| v >= 0.0));
            assert_eq!(value("takuge_tables_resident"), Some(2.0));
        }
    }
}

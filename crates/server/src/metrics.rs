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
    pub rate_limited: AtomicU64,
}

impl Metrics {
    pub fn render(&self) -> String {
        let mut out = String::new();
        let rows: [(&str, &str, &str, i64); 6] = [
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
                "takuge_rate_limited_total",
                "counter",
                "Requests and messages refused by the rate limiter",
                self.rate_limited.load(Ordering::Relaxed) as i64,
            ),
        ];
        for (name, kind, help, value) in rows {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
            );
        }
        out
    }
}

//! `takuge loadtest`: N concurrent tables against a running server, each with one
//! bot-driven client over a real WebSocket (the other seats are server bots); measures
//! committed actions per second and the latency from sending an action to receiving
//! the update it caused, beside the server's own figures from its `/metrics`.
//!
//! Only a client: the server is given by its URL, or a cluster by its nodes' URLs (a
//! table's clients are then spread over the nodes). (`takuge loadtest` without
//! `--server` starts a server, or `--nodes N`, and hands their URLs here.) Every action
//! is sent with a client action id and every acknowledged one is kept
//! ([`LoadReport::acknowledged`]), so a checker can compare them with the database.

mod client;
mod incoming;
mod journal;
mod nodes;
mod player;
mod report;
mod sample;

pub use journal::{Acked, Acknowledged};
pub use nodes::Nodes;
pub use report::{LoadReport, ServerDelta, ServerProcess};
pub use sample::Buckets;

use client::{group, Counters, Shared};
use sample::ServerSample;
use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct LoadConfig {
    pub tables: usize,
    /// How long to measure; with `games_per_table`, the most the run may take.
    pub seconds: f64,
    /// The server (`http://127.0.0.1:8080`), or every node of a cluster.
    pub servers: Vec<String>,
    /// Whether the server runs in this process (its RSS and CPU then include the load
    /// clients'; the report says so).
    pub server_in_process: bool,
    pub game: String,
    pub players: usize,
    /// The bot in the server's seats (default `random`, the cheapest).
    pub bot: String,
    /// The table options (`null`: the game's defaults).
    pub options: Value,
    /// A client's mean think time before it acts (uniform from half to one and a half
    /// of it). With none, every table always has an action in flight, the server is
    /// saturated whatever its speed, and by Little's law the latency is just
    /// tables ÷ throughput.
    pub think_ms: u64,
    /// Print the server's figures (`/metrics`: RSS, tables, connections) to stderr
    /// every this many seconds of the measurement; `None`: only at the end.
    pub progress_seconds: Option<f64>,
    /// Seats of each table played by load clients, each a guest of its own with its
    /// own WebSocket, on node `table + k` (1 to `players`; the other seats are server
    /// bots): with several nodes, a table then has players on several of them.
    pub humans: usize,
    /// Each table's clients play this many games and stop; the run ends when all have
    /// (or after `seconds`). `None`: they play until `seconds` of measurement end.
    pub games_per_table: Option<u64>,
}

impl LoadConfig {
    /// The defaults of `takuge loadtest` against `servers`.
    pub fn new(servers: Vec<String>) -> LoadConfig {
        LoadConfig {
            tables: 100,
            seconds: 10.0,
            servers,
            server_in_process: false,
            game: "secret-moon".into(),
            players: 4,
            bot: "random".into(),
            options: serde_json::json!({"games": 5}),
            think_ms: 250,
            progress_seconds: None,
            humans: 1,
            games_per_table: None,
        }
    }
}

/// How long every table plays before the measurement starts, once all are playing.
pub const WARM_UP: Duration = Duration::from_secs(2);

/// An HTTP client that lets its idle connections go before the server does (it closes a
/// connection idle for its header deadline, 10 s by default): reusing one the server is
/// closing fails the request ("error sending request").
fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .pool_idle_timeout(Duration::from_secs(5))
        .timeout(Duration::from_secs(15))
        .build()
        .unwrap_or_else(|_| reqwest::Client::new())
}

/// Prints the servers' figures every `every` until `end`.
async fn progress(
    nodes: &Nodes,
    (every, end): (Duration, tokio::time::Instant),
    (started, before): (Instant, &ServerSample),
) {
    loop {
        let next = tokio::time::Instant::now() + every;
        if next >= end {
            break;
        }
        tokio::time::sleep_until(next).await;
        match nodes.sample().await {
            Ok(s) => eprintln!(
                "{:>7.0} s: RSS {}, {} live tables, {} in memory ({} over), {} WebSockets, {} committed",
                started.elapsed().as_secs_f64(),
                report::mb(s.rss),
                s.live_tables,
                s.resident_tables,
                s.finished_resident,
                s.websockets,
                s.committed.saturating_sub(before.committed),
            ),
            Err(e) => eprintln!("cannot read the server's /metrics: {e}"),
        }
    }
}

pub async fn run(cfg: LoadConfig) -> Result<LoadReport, String> {
    let nodes = Nodes::new(&cfg.servers)?;
    let idle = nodes.sample().await?;
    let games_mode = cfg.games_per_table.is_some();
    let shared = Arc::new(Shared {
        cfg: cfg.clone(),
        nodes: nodes.clone(),
        stop: AtomicBool::new(false),
        counters: Counters::default(),
        journal: Default::default(),
    });
    let counters = || &shared.counters;
    // A run of so many games counts from the start: it measures the whole of it.
    counters().measuring.store(games_mode, Ordering::Relaxed);
    let clients: Vec<_> = (0..cfg.tables)
        .map(|i| {
            tokio::spawn(group(
                shared.clone(),
                i,
                0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1),
            ))
        })
        .collect();
    let started;
    let before;
    if games_mode {
        before = idle.clone();
        started = Instant::now();
        let end = tokio::time::Instant::now() + Duration::from_secs_f64(cfg.seconds);
        while !clients.iter().all(|c| c.is_finished()) && tokio::time::Instant::now() < end {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    } else {
        // The measurement starts once every table is playing, and has for a while: the
        // first seconds are a burst of sign-ups and table creations no steady load has.
        let ramp = Instant::now();
        while counters().ready.load(Ordering::Relaxed) < cfg.tables as u64
            && ramp.elapsed() < Duration::from_secs(60)
            && !clients.iter().all(|c| c.is_finished())
        {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        tokio::time::sleep(WARM_UP).await;
        before = nodes.sample().await?;
        started = Instant::now();
        counters().measuring.store(true, Ordering::Relaxed);
        let end = tokio::time::Instant::now() + Duration::from_secs_f64(cfg.seconds);
        if let Some(every) = cfg.progress_seconds.filter(|s| *s > 0.0) {
            let every = Duration::from_secs_f64(every);
            progress(&nodes, (every, end), (started, &before)).await;
        }
        tokio::time::sleep_until(end).await;
    }
    let after = nodes.sample().await?;
    let elapsed = started.elapsed().as_secs_f64();
    counters().measuring.store(false, Ordering::Relaxed);
    shared.stop.store(true, Ordering::Relaxed);
    let mut latencies = Vec::new();
    let mut failures = 0;
    for c in clients {
        match c.await {
            Ok(Ok(l)) => latencies.extend(l),
            Ok(Err(e)) => {
                failures += 1;
                if failures <= 3 {
                    eprintln!("a client failed: {e}");
                }
            }
            Err(e) => eprintln!("a client panicked: {e}"),
        }
    }
    latencies.sort_by(f64::total_cmp);
    let c = counters();
    Ok(LoadReport {
        tables: cfg.tables,
        seconds: elapsed,
        nodes: nodes.len(),
        committed: after.committed.saturating_sub(before.committed),
        client_actions: c.client_actions.load(Ordering::Relaxed),
        games_finished: c.games.load(Ordering::Relaxed),
        errors: c.errors.load(Ordering::Relaxed) + failures,
        resends: c.resends.load(Ordering::Relaxed),
        reconnects: c.reconnects.load(Ordering::Relaxed),
        latencies_ms: latencies,
        server: ServerDelta::between(&before, &after),
        process: ServerProcess::of(&idle, &before, &after),
        own_server: cfg.server_in_process,
        acknowledged: shared.journal.take(),
    })
}

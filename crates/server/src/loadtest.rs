//! `takuge loadtest`: N concurrent tables, each with one bot-driven client over a real
//! WebSocket on loopback (the other seats are server bots); measures committed actions
//! per second and the latency from sending an action to receiving the update it caused.

use crate::limit::Rate;
use crate::{Config, Server};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};
use std::borrow::Cow;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

#[derive(Clone, Debug)]
pub struct LoadConfig {
    pub tables: usize,
    pub seconds: f64,
    /// A running server (`http://127.0.0.1:8080`); default: start one on loopback with
    /// a temporary database.
    pub server: Option<String>,
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
    /// The server bots' pause before each move (`Config::bot_delay`; own server only).
    pub bot_delay_ms: u64,
    /// The own server's database (`postgres://…` to load PostgreSQL); default: a
    /// temporary SQLite file. Own server only.
    pub database_url: Option<String>,
    /// Print the server's figures (`/metrics`: RSS, tables, connections) to stderr
    /// every this many seconds of the measurement; `None`: only at the end.
    pub progress_seconds: Option<f64>,
    /// The own server's bot threads (`Config::bot_pool`).
    pub bot_pool: crate::bots::PoolConfig,
}

#[derive(Debug)]
pub struct LoadReport {
    pub tables: usize,
    pub seconds: f64,
    pub committed: u64,
    pub client_actions: u64,
    pub games_finished: u64,
    pub errors: u64,
    pub latencies_ms: Vec<f64>,
    /// The server's own commit figures over the measurement (from its `/metrics`).
    pub server: ServerDelta,
    /// The server process's memory, CPU and tables (from its `/metrics`).
    pub process: ServerProcess,
    /// Whether the server was the load test's own, in this process (so its RSS and
    /// CPU include the load clients').
    pub own_server: bool,
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
    fn of(idle: &ServerSample, before: &ServerSample, after: &ServerSample) -> ServerProcess {
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

fn mb(bytes: Option<u64>) -> String {
    bytes.map_or_else(|| "?".to_string(), |b| format!("{:.1} MB", b as f64 / 1e6))
}

/// What the server's `/metrics` counted between two reads.
#[derive(Debug, Default)]
pub struct ServerDelta {
    pub committed: u64,
    /// `takuge_commit_wait_seconds` bucket counts (cumulative, per `metrics::BUCKETS`).
    pub commit_wait: Vec<u64>,
    pub commit_wait_sum: f64,
    pub batches: u64,
    pub batch_sum: f64,
    pub batch_rows: u64,
    /// `takuge_bot_search_decision_seconds` and `takuge_bot_think_seconds` bucket
    /// counts.
    pub bot_search_decision: Vec<u64>,
    pub bot_think: Vec<u64>,
}

/// Bucket counts gained between two reads of one histogram.
fn bucket_delta(after: &[u64], before: &[u64]) -> Vec<u64> {
    after
        .iter()
        .zip(before)
        .map(|(a, b)| a.saturating_sub(*b))
        .collect()
}

/// The bucket bound (ms) at or below which a fraction `p` of a histogram's
/// observations fell (`buckets` cumulative, per `metrics::BUCKETS`, then `+Inf`).
fn bucket_quantile_ms(buckets: &[u64], p: f64) -> Option<f64> {
    let total = *buckets.last()?;
    if total == 0 {
        return None;
    }
    let i = buckets.iter().position(|&c| c as f64 >= p * total as f64)?;
    Some(
        crate::metrics::BUCKETS
            .get(i)
            .map_or(f64::INFINITY, |b| b * 1000.0),
    )
}

impl ServerDelta {
    fn between(before: &ServerSample, after: &ServerSample) -> ServerDelta {
        ServerDelta {
            committed: after.committed.saturating_sub(before.committed),
            commit_wait: bucket_delta(&after.commit_wait, &before.commit_wait),
            bot_search_decision: bucket_delta(
                &after.bot_search_decision,
                &before.bot_search_decision,
            ),
            bot_think: bucket_delta(&after.bot_think, &before.bot_think),
            commit_wait_sum: after.commit_wait_sum - before.commit_wait_sum,
            batches: after.batches.saturating_sub(before.batches),
            batch_sum: after.batch_sum - before.batch_sum,
            batch_rows: after.batch_rows.saturating_sub(before.batch_rows),
        }
    }

    /// The bucket bound (ms) at or below which a fraction `p` of the commit waits fell.
    fn commit_wait_quantile_ms(&self, p: f64) -> Option<f64> {
        bucket_quantile_ms(&self.commit_wait, p)
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
        writeln!(
            f,
            "{} tables for {:.1} s (after every table was playing, and {} s more): {} games finished, {} client actions, {} errors",
            self.tables,
            self.seconds,
            WARM_UP.as_secs(),
            self.games_finished,
            self.client_actions,
            self.errors
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
            per(d.commit_wait_sum * 1000.0, d.commit_wait.last().copied().unwrap_or(0)),
            d.commit_wait_quantile_ms(0.5).unwrap_or(0.0),
            d.commit_wait_quantile_ms(0.99).unwrap_or(0.0),
            d.batches as f64 / self.seconds,
            per(d.batch_rows as f64, d.batches),
            per(d.batch_sum * 1000.0, d.batches),
        )?;
        let q = |b: &[u64], p: f64| {
            bucket_quantile_ms(b, p).map_or_else(|| "-".to_string(), |ms| format!("≤ {ms}"))
        };
        writeln!(
            f,
            "server bots: {} moves, thinking p50 {} ms, p99 {} ms; {} searches, asked to chosen (thread wait and search, no pause) p50 {} ms, p99 {} ms",
            d.bot_think.last().copied().unwrap_or(0),
            q(&d.bot_think, 0.5),
            q(&d.bot_think, 0.99),
            d.bot_search_decision.last().copied().unwrap_or(0),
            q(&d.bot_search_decision, 0.5),
            q(&d.bot_search_decision, 0.99),
        )?;
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

/// The fields of a server message a load client reads.
#[derive(Deserialize)]
struct Incoming<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    table: Option<i64>,
    version: Option<u64>,
    /// The seat's steps so far of a secret choice of several steps (the version stays).
    #[serde(default)]
    draft: u64,
    #[serde(borrow)]
    status: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    legal: Vec<Legal<'a>>,
}

#[derive(Deserialize)]
struct Legal<'a> {
    #[serde(borrow)]
    action: &'a RawValue,
}

impl<'a> Incoming<'a> {
    /// Reads a server message. A `table` message ends `,"view":{…},"legal":[…]}`
    /// (`message::table_message` writes them last, in that order), and a client never
    /// reads the view — most of the message — so only the head before it and the
    /// legal actions after it are parsed, and the view is not even scanned. `,"view":`
    /// cannot occur inside a JSON string (a `"` there is always escaped). Any other
    /// message, or one of another shape, is parsed whole.
    fn read(text: &'a str, head: &mut String) -> Option<Incoming<'a>> {
        const LEGAL: &str = ",\"legal\":";
        if let (Some(v), Some(l)) = (text.find(",\"view\":"), text.rfind(LEGAL)) {
            if v < l && text.ends_with('}') {
                head.clear();
                head.push_str(&text[..v]);
                head.push('}');
                let legal = text.get(l + LEGAL.len()..text.len() - 1).unwrap_or("");
                if let (Ok(h), Ok(legal)) = (
                    serde_json::from_str::<Incoming<'_>>(head),
                    serde_json::from_str::<Vec<Legal<'a>>>(legal),
                ) {
                    return Some(Incoming {
                        kind: Cow::Owned(h.kind.into_owned()),
                        table: h.table,
                        version: h.version,
                        draft: h.draft,
                        status: h.status.map(|s| Cow::Owned(s.into_owned())),
                        legal,
                    });
                }
            }
        }
        serde_json::from_str(text).ok()
    }
}

#[derive(Default)]
struct Counters {
    client_actions: AtomicU64,
    games: AtomicU64,
    errors: AtomicU64,
    /// Clients whose first table is playing.
    ready: AtomicU64,
    /// Set after the warm-up: only then are actions, games and latencies counted.
    measuring: AtomicBool,
}

impl Counters {
    fn measuring(&self) -> bool {
        self.measuring.load(Ordering::Relaxed)
    }

    fn count(&self, what: &AtomicU64) {
        if self.measuring() {
            what.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// How long every table plays before the measurement starts, once all are playing.
const WARM_UP: Duration = Duration::from_secs(2);

type Stream =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn post(
    http: &reqwest::Client,
    url: String,
    token: Option<&str>,
    body: Value,
) -> Result<Value, String> {
    let mut req = http.post(url).header("x-takuge", "1").json(&body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let res = req.send().await.map_err(|e| e.to_string())?;
    let status = res.status();
    let body: Value = res.json().await.map_err(|e| e.to_string())?;
    if status.is_success() {
        Ok(body)
    } else {
        Err(format!("{status}: {body}"))
    }
}

async fn new_table(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    cfg: &LoadConfig,
) -> Result<i64, String> {
    let t = post(
        http,
        format!("{base}/api/tables"),
        Some(token),
        json!({"game": cfg.game, "players": cfg.players, "options": cfg.options}),
    )
    .await?;
    let id = t["id"].as_i64().ok_or("no table id")?;
    post(
        http,
        format!("{base}/api/tables/{id}/bots"),
        Some(token),
        json!({"bot": cfg.bot}),
    )
    .await?;
    post(
        http,
        format!("{base}/api/tables/{id}/start"),
        Some(token),
        json!({}),
    )
    .await?;
    Ok(id)
}

/// One client: plays table after table until `stop`.
async fn client(
    base: String,
    cfg: LoadConfig,
    stop: Arc<AtomicBool>,
    counters: Arc<Counters>,
    seed: u64,
) -> Result<Vec<f64>, String> {
    let http = http_client();
    let guest = post(&http, format!("{base}/api/guest"), None, json!({})).await?;
    let token = guest["token"].as_str().ok_or("no token")?.to_string();
    let mut req = (base.replace("http://", "ws://") + "/ws")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    let auth = format!("Bearer {token}")
        .parse()
        .map_err(|_| "bad token header")?;
    req.headers_mut().insert("authorization", auth);
    // tungstenite zeroes its whole read buffer on every read; the default is 128 KiB.
    let config = WebSocketConfig::default().read_buffer_size(16 * 1024);
    let (mut ws, _): (Stream, _) =
        // TCP_NODELAY: a move is a small frame answered at once; with Nagle's algorithm
        // against the server's delayed ACKs every round trip waited ~40 ms (issue 20).
        tokio_tungstenite::connect_async_with_config(req, Some(config), true)
            .await
            .map_err(|e| e.to_string())?;
    let mut latencies = Vec::new();
    let mut head = String::new();
    let mut rng = seed | 1;
    let mut first = true;
    while !stop.load(Ordering::Relaxed) {
        let table = new_table(&http, &base, &token, &cfg).await?;
        ws.send(Message::Text(
            format!(r#"{{"type":"subscribe","table":{table}}}"#).into(),
        ))
        .await
        .map_err(|e| e.to_string())?;
        if std::mem::take(&mut first) {
            counters.ready.fetch_add(1, Ordering::Relaxed);
        }
        let mut sent: Option<((u64, u64), Instant)> = None;
        // The action chosen and when the player, done thinking, sends it.
        let mut chosen: Option<((u64, u64), String, tokio::time::Instant)> = None;
        loop {
            let incoming = match &chosen {
                Some((_, _, at)) => tokio::select! {
                    m = ws.next() => Some(m),
                    () = tokio::time::sleep_until(*at) => None,
                },
                None => match tokio::time::timeout(Duration::from_secs(30), ws.next()).await {
                    Ok(m) => Some(m),
                    Err(_) => return Err("the connection stalled".into()),
                },
            };
            let msg = match incoming {
                None => {
                    if let Some((step, act, _)) = chosen.take() {
                        sent = Some((step, Instant::now()));
                        counters.count(&counters.client_actions);
                        ws.send(Message::Text(act.into()))
                            .await
                            .map_err(|e| e.to_string())?;
                    }
                    continue;
                }
                Some(Some(Ok(Message::Text(t)))) => t,
                Some(Some(Ok(_))) => continue,
                Some(_) => return Err("the connection closed".into()),
            };
            // A client reads what it needs: the view is skipped unread.
            let Some(m) = Incoming::read(msg.as_str(), &mut head) else {
                continue;
            };
            match m.kind.as_ref() {
                "table" if m.table == Some(table) => {}
                "error" => {
                    counters.errors.fetch_add(1, Ordering::Relaxed);
                    sent = None;
                    continue;
                }
                _ => continue,
            }
            let version = m.version.unwrap_or(0);
            // A draft step keeps the version and counts up `draft`: a new state too.
            let at_step = (version, m.draft);
            if let Some((v, at)) = sent {
                if at_step > v {
                    if counters.measuring() {
                        latencies.push(at.elapsed().as_secs_f64() * 1000.0);
                    }
                    sent = None;
                }
            }
            // A newer state: decide again on it.
            chosen = None;
            match m.status.as_deref() {
                Some("playing") => {}
                Some("finished") => {
                    counters.count(&counters.games);
                    break;
                }
                _ => continue,
            }
            if stop.load(Ordering::Relaxed) {
                break;
            }
            if m.legal.is_empty() || sent.is_some() {
                continue;
            }
            // xorshift: a cheap, seeded choice, and a think time of 0.5 to 1.5 times
            // the mean.
            let mut next = || {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                rng
            };
            let action = m.legal[(next() % m.legal.len() as u64) as usize]
                .action
                .get();
            let draft = m.draft;
            let act = format!(
                r#"{{"type":"act","table":{table},"version":{version},"draft":{draft},"action":{action}}}"#
            );
            let think_us = cfg.think_ms * 500 + next() % (cfg.think_ms * 1000 + 1);
            let at = tokio::time::Instant::now() + Duration::from_micros(think_us);
            chosen = Some((at_step, act, at));
        }
        let _ = ws
            .send(Message::Text(
                format!(r#"{{"type":"unsubscribe","table":{table}}}"#).into(),
            ))
            .await;
    }
    let _ = ws.close(None).await;
    Ok(latencies)
}

/// An HTTP client that lets its idle connections go before the server does (it closes a
/// connection idle for its header deadline, 10 s by default): reusing one the server is
/// closing fails the request ("error sending request").
fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .pool_idle_timeout(Duration::from_secs(5))
        .build()
        .unwrap_or_else(|_| reqwest::Client::new())
}

/// The server's counters the report needs, read from its `/metrics` (the names are
/// documented in docs/PERFORMANCE.md, "What /metrics tells a load test").
#[derive(Debug, Default)]
struct ServerSample {
    committed: u64,
    commit_wait: Vec<u64>,
    commit_wait_sum: f64,
    batches: u64,
    batch_sum: f64,
    batch_rows: u64,
    bot_search_decision: Vec<u64>,
    bot_think: Vec<u64>,
    rss: Option<u64>,
    cpu: Option<f64>,
    live_tables: i64,
    resident_tables: i64,
    finished_resident: i64,
    websockets: i64,
}

async fn server_sample(http: &reqwest::Client, base: &str) -> Result<ServerSample, String> {
    let text = http
        .get(format!("{base}/metrics"))
        .send()
        .await
        .map_err(|e| e.to_string())?
        .text()
        .await
        .map_err(|e| e.to_string())?;
    let mut sample = ServerSample::default();
    let mut has_committed = false;
    for line in text.lines() {
        let Some((name, value)) = line.rsplit_once(' ') else {
            continue;
        };
        let Ok(v) = value.trim().parse::<f64>() else {
            continue;
        };
        match name {
            "takuge_actions_committed_total" => {
                sample.committed = v as u64;
                has_committed = true;
            }
            "takuge_commit_wait_seconds_sum" => sample.commit_wait_sum = v,
            "takuge_commit_batch_seconds_sum" => sample.batch_sum = v,
            "takuge_commit_batch_seconds_count" => sample.batches = v as u64,
            "takuge_commit_batch_rows_total" => sample.batch_rows = v as u64,
            "takuge_process_resident_memory_bytes" => sample.rss = Some(v as u64),
            "takuge_process_cpu_seconds_total" => sample.cpu = Some(v),
            "takuge_open_tables" => sample.live_tables = v as i64,
            "takuge_tables_resident" => sample.resident_tables = v as i64,
            "takuge_finished_tables_resident" => sample.finished_resident = v as i64,
            "takuge_websocket_connections" => sample.websockets = v as i64,
            _ if name.starts_with("takuge_commit_wait_seconds_bucket") => {
                sample.commit_wait.push(v as u64)
            }
            _ if name.starts_with("takuge_bot_search_decision_seconds_bucket") => {
                sample.bot_search_decision.push(v as u64)
            }
            _ if name.starts_with("takuge_bot_think_seconds_bucket") => {
                sample.bot_think.push(v as u64)
            }
            _ => {}
        }
    }
    if !has_committed {
        return Err("the server's /metrics has no takuge_actions_committed_total".into());
    }
    Ok(sample)
}

pub async fn run(cfg: LoadConfig) -> Result<LoadReport, String> {
    let mut own = None;
    let _dir;
    let base = match &cfg.server {
        Some(url) => url.trim_end_matches('/').to_string(),
        None => {
            let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
            let lots = Rate {
                per_second: 1e9,
                burst: 1e9,
            };
            let database_url = match &cfg.database_url {
                Some(url) => url.clone(),
                None => format!("sqlite://{}", dir.path().join("load.db").display()),
            };
            let config = Config {
                bind: SocketAddr::from(([127, 0, 0, 1], 0)),
                database_url,
                per_ip: lots,
                per_account: lots,
                auth_per_ip: lots,
                bot_delay: Duration::from_millis(cfg.bot_delay_ms),
                bot_pool: cfg.bot_pool,
                // Every client of the load comes from loopback.
                connections: crate::listen::ConnectionLimits {
                    max_per_ip: usize::MAX,
                    ..Default::default()
                },
                subscriptions_per_ip: usize::MAX,
                ..Config::default()
            };
            let server = Server::start(config).await?;
            let base = format!("http://{}", server.addr);
            own = Some(server);
            _dir = dir;
            base
        }
    };
    let http = http_client();
    let idle = server_sample(&http, &base).await?;
    let stop = Arc::new(AtomicBool::new(false));
    let counters = Arc::new(Counters::default());
    let clients: Vec<_> = (0..cfg.tables)
        .map(|i| {
            tokio::spawn(client(
                base.clone(),
                cfg.clone(),
                stop.clone(),
                counters.clone(),
                0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1),
            ))
        })
        .collect();
    // The measurement starts once every table is playing, and has for a while: the
    // first seconds are a burst of sign-ups and table creations no steady load has.
    let ramp = Instant::now();
    while counters.ready.load(Ordering::Relaxed) < cfg.tables as u64
        && ramp.elapsed() < Duration::from_secs(60)
        && !clients.iter().all(|c| c.is_finished())
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(WARM_UP).await;
    let before = server_sample(&http, &base).await?;
    let started = Instant::now();
    counters.measuring.store(true, Ordering::Relaxed);
    let end = tokio::time::Instant::now() + Duration::from_secs_f64(cfg.seconds);
    if let Some(every) = cfg.progress_seconds.filter(|s| *s > 0.0) {
        let every = Duration::from_secs_f64(every);
        loop {
            let next = tokio::time::Instant::now() + every;
            if next >= end {
                break;
            }
            tokio::time::sleep_until(next).await;
            match server_sample(&http, &base).await {
                Ok(s) => eprintln!(
                    "{:>7.0} s: RSS {}, {} live tables, {} in memory ({} over), {} WebSockets, {} committed",
                    started.elapsed().as_secs_f64(),
                    mb(s.rss),
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
    tokio::time::sleep_until(end).await;
    let after = server_sample(&http, &base).await?;
    let elapsed = started.elapsed().as_secs_f64();
    counters.measuring.store(false, Ordering::Relaxed);
    stop.store(true, Ordering::Relaxed);
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
    let own_server = own.is_some();
    if let Some(server) = own {
        server.shutdown().await;
    }
    latencies.sort_by(f64::total_cmp);
    Ok(LoadReport {
        tables: cfg.tables,
        seconds: elapsed,
        committed: after.committed.saturating_sub(before.committed),
        client_actions: counters.client_actions.load(Ordering::Relaxed),
        games_finished: counters.games.load(Ordering::Relaxed),
        errors: counters.errors.load(Ordering::Relaxed) + failures,
        latencies_ms: latencies,
        server: ServerDelta::between(&before, &after),
        process: ServerProcess::of(&idle, &before, &after),
        own_server,
    })
}

/// [`run`] on its own runtime, for the command line.
pub fn run_blocking(cfg: LoadConfig) -> Result<LoadReport, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?
        .block_on(run(cfg))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_reads_the_head_and_legal_actions_of_a_table_message_without_its_view() {
        let text = r#"{"protocol":1,"type":"table","table":7,"seats":[{"name":"a,\"view\":"}],"version":12,"status":"playing","view":{"hand":[1,2],"legal":9},"legal":[{"action":{"play":3},"label":"x"},{"action":"pass"}]}"#;
        let mut head = String::new();
        let m = Incoming::read(text, &mut head).expect("read");
        assert_eq!(m.kind, "table");
        assert_eq!((m.table, m.version), (Some(7), Some(12)));
        assert_eq!(m.status.as_deref(), Some("playing"));
        let actions: Vec<&str> = m.legal.iter().map(|l| l.action.get()).collect();
        assert_eq!(actions, [r#"{"play":3}"#, r#""pass""#]);
        // The same as reading it whole.
        let whole: Incoming<'_> = serde_json::from_str(text).expect("whole");
        assert_eq!(whole.version, m.version);
        assert_eq!(whole.legal.len(), m.legal.len());
    }

    #[test]
    fn other_messages_are_read_whole() {
        let mut head = String::new();
        let m =
            Incoming::read(r#"{"type":"error","code":"stale_version"}"#, &mut head).expect("read");
        assert_eq!(m.kind, "error");
        assert!(m.legal.is_empty());
        assert!(Incoming::read("not json", &mut head).is_none());
    }
}

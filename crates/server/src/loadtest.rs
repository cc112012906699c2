//! `takuge loadtest`: N concurrent tables, each with one bot-driven client over a real
//! WebSocket on loopback (the other seats are server bots); measures committed actions
//! per second and the latency from sending an action to receiving the update it caused.

use crate::limit::Rate;
use crate::{Config, Server};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
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
}

impl LoadReport {
    fn percentile(&self, p: f64) -> f64 {
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
            "{} tables for {:.1} s: {} games finished, {} client actions, {} errors",
            self.tables, self.seconds, self.games_finished, self.client_actions, self.errors
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
        )
    }
}

#[derive(Default)]
struct Counters {
    client_actions: AtomicU64,
    games: AtomicU64,
    errors: AtomicU64,
}

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
        json!({"game": cfg.game, "players": cfg.players}),
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
    let http = reqwest::Client::new();
    let guest = post(&http, format!("{base}/api/guest"), None, json!({})).await?;
    let token = guest["token"].as_str().ok_or("no token")?.to_string();
    let mut req = (base.replace("http://", "ws://") + "/ws")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    let auth = format!("Bearer {token}")
        .parse()
        .map_err(|_| "bad token header")?;
    req.headers_mut().insert("authorization", auth);
    let (mut ws, _): (Stream, _) = tokio_tungstenite::connect_async(req)
        .await
        .map_err(|e| e.to_string())?;
    let mut latencies = Vec::new();
    let mut rng = seed | 1;
    while !stop.load(Ordering::Relaxed) {
        let table = new_table(&http, &base, &token, &cfg).await?;
        ws.send(Message::Text(
            json!({"type": "subscribe", "table": table})
                .to_string()
                .into(),
        ))
        .await
        .map_err(|e| e.to_string())?;
        let mut sent: Option<(u64, Instant)> = None;
        loop {
            let msg = match tokio::time::timeout(Duration::from_secs(30), ws.next()).await {
                Ok(Some(Ok(Message::Text(t)))) => t,
                Ok(Some(Ok(_))) => continue,
                _ => return Err("the connection stalled or closed".into()),
            };
            let Ok(m) = serde_json::from_str::<Value>(msg.as_str()) else {
                continue;
            };
            match m["type"].as_str() {
                Some("table") if m["table"] == table => {}
                Some("error") => {
                    counters.errors.fetch_add(1, Ordering::Relaxed);
                    sent = None;
                    continue;
                }
                _ => continue,
            }
            let version = m["version"].as_u64().unwrap_or(0);
            if let Some((v, at)) = sent {
                if version > v {
                    latencies.push(at.elapsed().as_secs_f64() * 1000.0);
                    sent = None;
                }
            }
            if m["status"] != "playing" {
                if m["status"] == "finished" {
                    counters.games.fetch_add(1, Ordering::Relaxed);
                    break;
                }
                continue;
            }
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let legal = m["legal"].as_array().map(Vec::as_slice).unwrap_or(&[]);
            if legal.is_empty() || sent.is_some() {
                continue;
            }
            // xorshift: a cheap, seeded choice.
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let action = legal[(rng % legal.len() as u64) as usize]["action"].clone();
            sent = Some((version, Instant::now()));
            counters.client_actions.fetch_add(1, Ordering::Relaxed);
            ws.send(Message::Text(
                json!({"type": "act", "table": table, "version": version, "action": action})
                    .to_string()
                    .into(),
            ))
            .await
            .map_err(|e| e.to_string())?;
        }
        let _ = ws
            .send(Message::Text(
                json!({"type": "unsubscribe", "table": table})
                    .to_string()
                    .into(),
            ))
            .await;
    }
    let _ = ws.close(None).await;
    Ok(latencies)
}

async fn committed(http: &reqwest::Client, base: &str) -> Result<u64, String> {
    let text = http
        .get(format!("{base}/metrics"))
        .send()
        .await
        .map_err(|e| e.to_string())?
        .text()
        .await
        .map_err(|e| e.to_string())?;
    text.lines()
        .find_map(|l| l.strip_prefix("takuge_actions_committed_total "))
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| "the server's /metrics has no takuge_actions_committed_total".into())
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
            let config = Config {
                bind: SocketAddr::from(([127, 0, 0, 1], 0)),
                database_url: format!("sqlite://{}", dir.path().join("load.db").display()),
                per_ip: lots,
                per_account: lots,
                auth_per_ip: lots,
                ..Config::default()
            };
            let server = Server::start(config).await?;
            let base = format!("http://{}", server.addr);
            own = Some(server);
            _dir = dir;
            base
        }
    };
    let http = reqwest::Client::new();
    let stop = Arc::new(AtomicBool::new(false));
    let counters = Arc::new(Counters::default());
    let before = committed(&http, &base).await?;
    let started = Instant::now();
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
    tokio::time::sleep(Duration::from_secs_f64(cfg.seconds)).await;
    let after = committed(&http, &base).await?;
    let elapsed = started.elapsed().as_secs_f64();
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
    if let Some(server) = own {
        server.shutdown().await;
    }
    latencies.sort_by(f64::total_cmp);
    Ok(LoadReport {
        tables: cfg.tables,
        seconds: elapsed,
        committed: after.saturating_sub(before),
        client_actions: counters.client_actions.load(Ordering::Relaxed),
        games_finished: counters.games.load(Ordering::Relaxed),
        errors: counters.errors.load(Ordering::Relaxed) + failures,
        latencies_ms: latencies,
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

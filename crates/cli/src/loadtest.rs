//! `takuge loadtest`: the load generator (`takuge-loadtest`, a client of the server's
//! protocol only) against the servers `--server` names (the nodes of a cluster), or
//! against one this command starts in its own process on loopback, with a temporary
//! database and its limits raised for one address's many clients, or `--nodes N`
//! `takuge serve` processes on one PostgreSQL (`cluster.rs`), whose URLs it hands over.

use crate::args::{LoadPreset, LoadtestArgs};
use crate::CliError;
use std::net::SocketAddr;
use std::time::Duration;
use takuge_loadtest::{LoadConfig, LoadReport};
use takuge_server::limit::Rate;

/// `takuge loadtest --preset latency-floor`'s p99 ceiling: 3 ms without Nagle's
/// algorithm on an idle machine and about 20 ms on a busy one, 46–98 ms with it
/// (docs/PERFORMANCE.md): a shared machine's noise stays under it, the floor's return
/// does not.
const LATENCY_FLOOR_MAX_P99_MS: f64 = 30.0;

/// The server a load test starts for itself.
#[derive(Clone, Debug, Default)]
pub struct OwnServer {
    /// Its bots' pause before each move (`Config::bot_delay`).
    pub bot_delay_ms: u64,
    /// Its database (`postgres://…` to load PostgreSQL); default: a temporary SQLite
    /// file.
    pub database_url: Option<String>,
    /// Its bot threads (`Config::bot_pool`).
    pub bot_pool: takuge_server::bots::PoolConfig,
    /// Start this many nodes (`takuge serve` processes) on `database_url` instead of a
    /// server in this process.
    pub nodes: Option<u16>,
}

/// Runs the load against `load.server`, or, given `own`, against a server started
/// here for the run (and stopped after it).
pub async fn measure(mut load: LoadConfig, own: Option<OwnServer>) -> Result<LoadReport, String> {
    let Some(own) = own else {
        return takuge_loadtest::run(load).await;
    };
    if let Some(n) = own.nodes {
        return on_nodes(load, &own, n).await;
    }
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let lots = Rate {
        per_second: 1e9,
        burst: 1e9,
    };
    let database_url = match own.database_url {
        Some(url) => url,
        None => format!("sqlite://{}", dir.path().join("load.db").display()),
    };
    let config = takuge_server::Config {
        bind: SocketAddr::from(([127, 0, 0, 1], 0)),
        database_url,
        per_ip: lots,
        per_account: lots,
        auth_per_ip: lots,
        bot_delay: Duration::from_millis(own.bot_delay_ms),
        bot_pool: own.bot_pool,
        // Every client of the load comes from loopback.
        connections: takuge_server::listen::ConnectionLimits {
            max_per_ip: usize::MAX,
            ..Default::default()
        },
        subscriptions_per_ip: usize::MAX,
        ..takuge_server::Config::default()
    };
    let server = takuge_server::Server::start(config).await?;
    load.servers = vec![format!("http://{}", server.addr)];
    load.server_in_process = true;
    let report = takuge_loadtest::run(load).await;
    server.shutdown().await;
    report
}

/// The load on `n` nodes started for it on the PostgreSQL `own.database_url` names.
async fn on_nodes(mut load: LoadConfig, own: &OwnServer, n: u16) -> Result<LoadReport, String> {
    let Some(url) = own
        .database_url
        .as_deref()
        .filter(|u| u.starts_with("postgres"))
    else {
        return Err(
            "--nodes needs --database-url postgres://…: the nodes share one PostgreSQL".into(),
        );
    };
    let delay = own.bot_delay_ms.to_string();
    let threads = own.bot_pool.threads.to_string();
    let nice = own.bot_pool.nice.to_string();
    let url = url.to_string();
    let cluster = tokio::task::spawn_blocking(move || {
        let mut extra: Vec<&str> = crate::cluster::LOAD_LIMITS.to_vec();
        extra.extend([
            "--bot-delay-ms",
            &delay,
            "--bot-threads",
            &threads,
            "--bot-nice",
            &nice,
        ]);
        crate::cluster::LocalCluster::start(None, usize::from(n), &url, &extra)
    })
    .await
    .map_err(|e| e.to_string())??;
    load.servers = cluster.urls();
    let report = takuge_loadtest::run(load).await;
    tokio::task::spawn_blocking(move || drop(cluster))
        .await
        .map_err(|e| e.to_string())?;
    report
}

/// [`measure`] on a runtime of its own, for the command line.
pub fn measure_blocking(load: LoadConfig, own: Option<OwnServer>) -> Result<LoadReport, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?
        .block_on(measure(load, own))
}

/// The run `args` ask for: its report, and the p99 ceiling it must keep (if any).
pub fn run(mut args: LoadtestArgs) -> Result<(LoadReport, Option<f64>), CliError> {
    let mut max_p99_ms = args.max_p99_ms;
    if let Some(LoadPreset::LatencyFloor) = args.preset {
        args.tables = 10;
        args.think_ms = 0;
        args.bot_delay_ms = 0;
        max_p99_ms = max_p99_ms.or(Some(LATENCY_FLOOR_MAX_P99_MS));
    }
    for url in &args.server {
        let host = url
            .trim_start_matches("http://")
            .split(['/', ':'])
            .next()
            .unwrap_or("");
        if !matches!(host, "127.0.0.1" | "localhost" | "[") && !host.starts_with("127.") {
            return Err(CliError::new(format!(
                "--server {url}: the load test only targets loopback addresses"
            )));
        }
    }
    let options = match &args.options {
        Some(text) => serde_json::from_str(text)
            .map_err(|e| CliError(format!("--options is not JSON: {e}")))?,
        None if args.game == "secret-moon" => serde_json::json!({ "games": 5 }),
        None => serde_json::Value::Null,
    };
    if args.humans == 0 || args.humans > args.players {
        return Err(CliError(format!(
            "--humans {}: from 1 to --players ({})",
            args.humans, args.players
        )));
    }
    let own = args.server.is_empty().then(|| OwnServer {
        bot_delay_ms: args.bot_delay_ms,
        database_url: args.database_url,
        bot_pool: args.bot_pool.config(),
        nodes: args.nodes,
    });
    let load = LoadConfig {
        tables: args.tables,
        seconds: args.seconds,
        servers: args.server,
        server_in_process: false,
        game: args.game,
        players: args.players,
        bot: args.bot,
        options,
        think_ms: args.think_ms,
        progress_seconds: args.progress_seconds,
        humans: args.humans,
        games_per_table: args.games,
    };
    let report = measure_blocking(load, own).map_err(CliError)?;
    Ok((report, max_p99_ms))
}

/// A ceiling is a check of the run: it fails rather than pass on nothing.
pub fn check_ceiling(report: &LoadReport, max_p99_ms: Option<f64>) -> Result<(), CliError> {
    let p99 = report.percentile(0.99);
    match max_p99_ms {
        Some(_) if report.latencies_ms.is_empty() => Err(CliError::new(
            "no action was measured, so the p99 ceiling cannot be checked",
        )),
        Some(max) if p99 > max => Err(CliError(format!(
            "p99 {p99:.2} ms is above the ceiling of {max} ms"
        ))),
        _ => Ok(()),
    }
}

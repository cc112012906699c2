//! `takuge shelf-bench`: the shelf's speed on a full database (issue 17), run by hand,
//! never in CI. It fills a database with `users` accounts of `entries` collection
//! entries each (100,000 × 300 by default: 30 million rows) over a catalog of `games`,
//! plus one shelf of `shelf` games (2,000), then starts a server on it and measures over
//! HTTP: that shelf's page sorted and filtered several ways (p50, p99, max), a game's
//! page, and a 5,000-row BoardGameGeek import by a new account. A database already
//! filled by an earlier run (the account `bench-shelf` exists) is measured as it is.
//!
//! Nothing is measured before the server's start-up recommendation build is over (it
//! reads every shelf: 30 million rows at full size, seconds of both cores): the bench
//! waits for `takuge_recommend_builds_total` (or `_build_failures_total`) on
//! `/metrics`, and the server it starts never rebuilds during the run (its rebuild
//! period and settling time are a day).

use crate::limit::Rate;
use crate::store::shelf::bench::BenchFill;
use crate::{Config, Server};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// `None`: a temporary SQLite file. A PostgreSQL URL must name an empty database.
    pub database_url: Option<String>,
    pub users: u64,
    pub entries: u64,
    pub games: u64,
    pub shelf: u64,
    pub rounds: usize,
}

/// One measured request.
#[derive(Debug)]
pub struct Timing {
    pub what: String,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// What one answer held (games on the page / the import's rows).
    pub size: i64,
}

#[derive(Debug)]
pub struct BenchReport {
    pub backend: &'static str,
    pub collection_rows: i64,
    pub fill_seconds: f64,
    /// How long the start-up recommendation build took to end after the server
    /// started (waited out, unmeasured), and whether it built a model.
    pub recommend_wait_seconds: f64,
    pub recommend_built: bool,
    pub timings: Vec<Timing>,
}

const NAME: &str = "bench-shelf";

/// Fills the database (if not yet) and returns the collection's row count.
async fn fill(url: &str, cfg: &BenchConfig) -> Result<i64, String> {
    let db = crate::store::Store::connect(url).await?;
    let e = |e: crate::store::StoreError| format!("filling the database: {e}");
    if db.account_named(NAME).await.map_err(e)?.is_none() {
        if cfg.games < cfg.entries.max(cfg.shelf) {
            return Err("--games must be at least --entries and --shelf".into());
        }
        let users = cfg.users;
        let fill = BenchFill {
            name: NAME,
            users,
            entries: cfg.entries,
            games: cfg.games,
            shelf: cfg.shelf,
        };
        db.fill_shelf_bench(fill, |to| eprintln!("  {to} of {users} accounts filled"))
            .await
            .map_err(e)?;
    }
    let rows = db.collection_rows().await.map_err(e)?;
    db.close().await;
    Ok(rows)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let k = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len());
    sorted[k - 1]
}

/// What comes before each measured GET (unmeasured).
#[derive(Clone, Copy)]
enum Before<'a> {
    Nothing,
    /// A write to the shelf of `user` as another server node would make it (on the
    /// database directly): the server's copy is stale and is read again.
    RemoteWrite(&'a crate::store::Store, i64),
    /// A write through this server (`PUT /api/collections/me/{game}` with `token`),
    /// which this server's copy of the shelf hears of.
    LocalWrite(&'a str, i64),
}

async fn before(
    http: &reqwest::Client,
    base: &str,
    what: Before<'_>,
    round: usize,
) -> Result<(), String> {
    match what {
        Before::Nothing => Ok(()),
        Before::RemoteWrite(db, user) => db
            .touch_shelf(user)
            .await
            .map_err(|e| format!("writing to the shelf: {e}")),
        Before::LocalWrite(token, game) => {
            let res = http
                .put(format!("{base}/api/collections/me/{game}"))
                .bearer_auth(token)
                .json(&json!({"own": true, "rating": 1 + round % 10}))
                .send()
                .await
                .map_err(|e| format!("writing to the shelf: {e}"))?;
            if !res.status().is_success() {
                return Err(format!("writing to the shelf: {}", res.status()));
            }
            Ok(())
        }
    }
}

/// `rounds` GETs of `path` (with `token`, if any), each after `what`.
async fn timed_get(
    http: &reqwest::Client,
    base: &str,
    path: &str,
    rounds: usize,
    token: Option<&str>,
    what: Before<'_>,
) -> Result<Timing, String> {
    let mut ms = Vec::with_capacity(rounds);
    let mut size = 0;
    // Two unmeasured rounds warm the caches.
    for round in 0..rounds + 2 {
        before(http, base, what, round).await?;
        let started = Instant::now();
        let mut req = http.get(format!("{base}{path}"));
        if let Some(token) = token {
            req = req.bearer_auth(token);
        }
        let res = req.send().await.map_err(|e| format!("{path}: {e}"))?;
        let status = res.status();
        let bytes = res.bytes().await.map_err(|e| format!("{path}: {e}"))?;
        // The answer's time ends with its last byte: decoding a 1.2 MB page into a
        // `Value` is the client's work and stays out of the figure.
        if round >= 2 {
            ms.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        let body: Value = serde_json::from_slice(&bytes).map_err(|e| format!("{path}: {e}"))?;
        if !status.is_success() {
            return Err(format!("{path}: {status} {body}"));
        }
        size = body["entries"]
            .as_array()
            .map_or(body["counts"]["own"].as_i64().unwrap_or(0), |a| {
                a.len() as i64
            });
    }
    ms.sort_by(f64::total_cmp);
    Ok(Timing {
        what: format!("GET {path}"),
        p50_ms: percentile(&ms, 0.5),
        p99_ms: percentile(&ms, 0.99),
        max_ms: ms.last().copied().unwrap_or(0.0),
        size,
    })
}

/// The value of the counter or gauge `name` in a `/metrics` text.
fn metric(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .filter_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .find_map(|v| v.trim().parse().ok())
}

/// Waits until the server's start-up recommendation build is over (built or failed);
/// whether it built a model. Gives up after an hour.
async fn recommendation_build_over(http: &reqwest::Client, base: &str) -> Result<bool, String> {
    let started = Instant::now();
    loop {
        // A read that fails is tried again: on a loaded machine, with the build
        // taking both cores, a pooled connection was once dropped mid-request.
        let read = async {
            http.get(format!("{base}/metrics"))
                .send()
                .await?
                .text()
                .await
        };
        match read.await {
            Ok(text) => {
                let built = metric(&text, "takuge_recommend_builds_total").unwrap_or(0.0);
                let failed = metric(&text, "takuge_recommend_build_failures_total").unwrap_or(0.0);
                if built + failed >= 1.0 {
                    return Ok(built >= 1.0);
                }
            }
            Err(e) => eprintln!("  /metrics: {e} (trying again)"),
        }
        if started.elapsed() > Duration::from_secs(3600) {
            return Err("the start-up recommendation build did not end in an hour".into());
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// A new account (over HTTP) and its bearer token.
async fn new_account(
    http: &reqwest::Client,
    base: &str,
    prefix: &str,
) -> Result<(String, String), String> {
    let name = format!("{prefix}_{}", crate::time::now_ms() % 1_000_000_000);
    let res = http
        .post(format!("{base}/api/register"))
        .header(crate::auth::CSRF_HEADER, "1")
        .json(&json!({"name": name, "password": "correct horse battery"}))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let body: Value = res.json().await.map_err(|e| e.to_string())?;
    let token = body["token"]
        .as_str()
        .ok_or_else(|| format!("register: {body}"))?
        .to_string();
    Ok((name, token))
}

const BGG_HEADER: &str = "objectname,objectid,rating,numplays,own,prevowned,want,wanttoplay,wishlist,wishlistpriority,comment,minplayers,maxplayers,playingtime,yearpublished,bggbestplayers,bggrecagerange,originalname";

async fn timed_import(http: &reqwest::Client, base: &str) -> Result<Vec<Timing>, String> {
    let (_, token) = new_account(http, base, "bench_import").await?;
    let seed = (crate::time::now_ms() % 20_000) as u64;
    let mut csv = format!("{BGG_HEADER}\n");
    for k in 1..=5000u64 {
        csv.push_str(&format!(
            "Import {k},{},{}.5,{},1,0,0,{},0,,\"a comment, {k}\",2,{},{},{},{},10+,インポート{k}\n",
            700_000_000 + seed * 10_000 + k,
            1 + k % 9,
            k % 4,
            k % 2,
            2 + k % 5,
            15 * (1 + k % 8),
            1990 + k % 35,
            2 + k % 4,
        ));
    }
    let mut out = Vec::new();
    for round in ["5,000 new games", "the same file again"] {
        let started = Instant::now();
        let res = http
            .post(format!("{base}/api/collections/import"))
            .bearer_auth(&token)
            .header("content-type", "text/csv")
            .body(csv.clone())
            .send()
            .await
            .map_err(|e| e.to_string())?;
        let status = res.status();
        let body: Value = res.json().await.map_err(|e| e.to_string())?;
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        if !status.is_success() {
            return Err(format!("import: {status} {body}"));
        }
        out.push(Timing {
            what: format!("POST /api/collections/import ({round})"),
            p50_ms: ms,
            p99_ms: ms,
            max_ms: ms,
            size: body["rows"].as_i64().unwrap_or(0),
        });
    }
    Ok(out)
}

pub async fn run(cfg: BenchConfig) -> Result<BenchReport, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let url = cfg
        .database_url
        .clone()
        .unwrap_or_else(|| format!("sqlite://{}", dir.path().join("bench.db").display()));
    let backend = crate::store::Dialect::of(&url).name();
    let started = Instant::now();
    let collection_rows = fill(&url, &cfg).await?;
    let fill_seconds = started.elapsed().as_secs_f64();
    let lots = Rate {
        per_second: 1e9,
        burst: 1e9,
    };
    // A day: no rebuild (after the writes below) during the measurement.
    let day = Duration::from_secs(86_400);
    let server = Server::start(Config {
        bind: SocketAddr::from(([127, 0, 0, 1], 0)),
        database_url: url.clone(),
        per_ip: lots,
        per_account: lots,
        auth_per_ip: lots,
        recommend_every: day,
        recommend_settle: day,
        ..Config::default()
    })
    .await?;
    let base = format!("http://{}", server.addr);
    let http = reqwest::Client::builder()
        .pool_idle_timeout(Duration::from_secs(5))
        .build()
        .map_err(|e| e.to_string())?;
    let waited = Instant::now();
    eprintln!("  waiting for the start-up recommendation build to end (not measured)");
    let recommend_built = recommendation_build_over(&http, &base).await?;
    let recommend_wait_seconds = waited.elapsed().as_secs_f64();
    let mut timings = Vec::new();
    let shelf = format!("/api/collections/{NAME}");
    for q in [
        "?sort=name_ja&limit=2000",
        "?sort=name_en&order=desc&limit=2000",
        "?best=4&max_minutes=60&sort=name_ja&limit=2000",
        "?status=own&min_rating=5&sort=rating&order=desc&limit=2000",
        "?players=4&age=10&sort=year&limit=2000",
        "?q=game%201&sort=minutes&limit=2000",
    ] {
        let path = format!("{shelf}{q}");
        let t = timed_get(&http, &base, &path, cfg.rounds, None, Before::Nothing).await;
        timings.push(t?);
    }
    // The first page after a write through another node (the server's copy of the
    // shelf is stale), then after one through this server, to a copy of the measured
    // shelf owned by a new account (the measured one has no password).
    let db = crate::store::Store::connect(&url).await?;
    let me = db
        .account_named(NAME)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("the account {NAME} is missing"))?;
    let (copy, token) = new_account(&http, &base, "bench_local").await?;
    let copy_id = db
        .account_named(&copy)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("the account {copy} is missing"))?;
    let game = db
        .copy_shelf(me, copy_id)
        .await
        .map_err(|e| format!("copying the shelf: {e}"))?;
    for q in [
        "?sort=name_ja&limit=2000",
        "?best=4&max_minutes=60&sort=name_ja&limit=2000",
    ] {
        let path = format!("{shelf}{q}");
        let remote = Before::RemoteWrite(&db, me);
        let mut t = timed_get(&http, &base, &path, cfg.rounds, None, remote).await?;
        t.what = format!("{} (after another node's write)", t.what);
        timings.push(t);
        let path = format!("/api/collections/me{q}");
        let local = Before::LocalWrite(&token, game);
        let mut t = timed_get(&http, &base, &path, cfg.rounds, Some(&token), local).await?;
        t.what = format!(
            "{} (after a write through this server; a copy of the shelf)",
            t.what
        );
        timings.push(t);
    }
    db.close().await;
    let game: i64 = {
        let res = http
            .get(format!("{base}/api/catalog?q=Bench%20game%207&limit=1"))
            .send()
            .await
            .map_err(|e| e.to_string())?;
        let body: Value = res.json().await.map_err(|e| e.to_string())?;
        body["games"][0]["id"].as_i64().unwrap_or(1)
    };
    let path = format!("/api/catalog/{game}");
    let t = timed_get(&http, &base, &path, cfg.rounds, None, Before::Nothing).await?;
    timings.push(t);
    timings.extend(timed_import(&http, &base).await?);
    server.shutdown().await;
    Ok(BenchReport {
        backend,
        collection_rows,
        fill_seconds,
        recommend_wait_seconds,
        recommend_built,
        timings,
    })
}

/// [`run`] on its own runtime, for the command line.
pub fn run_blocking(cfg: BenchConfig) -> Result<BenchReport, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?
        .block_on(run(cfg))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_metric_is_read_by_its_whole_name() {
        let text = "# HELP takuge_recommend_builds_total Models\n\
                    takuge_recommend_builds_total_x 5\n\
                    takuge_recommend_builds_total 2\n";
        assert_eq!(
            super::metric(text, "takuge_recommend_builds_total"),
            Some(2.0)
        );
        assert_eq!(super::metric(text, "takuge_recommend_building"), None);
    }
}

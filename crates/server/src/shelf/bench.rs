//! `takuge shelf-bench`: the shelf's speed on a full database (issue 17), run by hand,
//! never in CI. It fills a database with `users` accounts of `entries` collection
//! entries each (100,000 × 300 by default: 30 million rows) over a catalog of `games`,
//! plus one shelf of `shelf` games (2,000), then starts a server on it and measures over
//! HTTP: that shelf's page sorted and filtered several ways (p50, p99, max), a game's
//! page, and a 5,000-row BoardGameGeek import by a new account. A database already
//! filled by an earlier run (the account `bench-shelf` exists) is measured as it is.

use crate::limit::Rate;
use crate::{Config, Server};
use serde_json::{json, Value};
use sqlx::{Connection, Executor};
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
    pub timings: Vec<Timing>,
}

const NAME: &str = "bench-shelf";

/// Fills the database (if not yet) and returns the collection's row count.
async fn fill(url: &str, cfg: &BenchConfig) -> Result<i64, String> {
    let db = crate::store::Store::connect(url).await?;
    let e = |e: sqlx::Error| format!("filling the database: {e}");
    let mut c = db.pool().acquire().await.map_err(e)?;
    let done: Option<i64> = sqlx::query_scalar("SELECT id FROM users WHERE name = $1")
        .bind(NAME)
        .fetch_optional(&mut *c)
        .await
        .map_err(e)?;
    if done.is_none() {
        if cfg.games < cfg.entries.max(cfg.shelf) {
            return Err("--games must be at least --entries and --shelf".into());
        }
        let seq = cfg.users.max(cfg.games).max(cfg.entries).max(cfg.shelf) as i64;
        c.execute("CREATE TEMP TABLE bench_seq (n BIGINT PRIMARY KEY)")
            .await
            .map_err(e)?;
        sqlx::query(
            "WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n + 1 < $1)
             INSERT INTO bench_seq (n) SELECT n FROM s",
        )
        .bind(seq)
        .execute(&mut *c)
        .await
        .map_err(e)?;
        let mut tx = c.begin().await.map_err(e)?;
        sqlx::query(
            "INSERT INTO catalog_games (name_ja, name_en, sort_ja, sort_en, min_players, max_players,
                best_players, min_minutes, max_minutes, min_age, year, status, created_at, updated_at)
             SELECT 'ゲーム' || CAST(n AS TEXT), 'Bench game ' || CAST(n AS TEXT),
                'げーむ' || CAST(n AS TEXT), 'bench game ' || CAST(n AS TEXT),
                1 + n % 2, 2 + n % 5, ',' || CAST(2 + n % 4 AS TEXT) || ',',
                15 * (1 + n % 4), 15 * (1 + n % 8), 6 + n % 8, 1990 + n % 35, 'approved', 0, 0
             FROM bench_seq WHERE n < $1 ORDER BY n",
        )
        .bind(cfg.games as i64)
        .execute(&mut *tx)
        .await
        .map_err(e)?;
        // Every bulk account's name is its key (they are never looked up).
        sqlx::query(
            "INSERT INTO users (name, name_key, display_name, guest, created_at)
             SELECT 'bench_' || CAST(n AS TEXT), 'bench_' || CAST(n AS TEXT),
                'bench_' || CAST(n AS TEXT), 0, 0
             FROM bench_seq WHERE n < $1 ORDER BY n",
        )
        .bind(cfg.users as i64)
        .execute(&mut *tx)
        .await
        .map_err(e)?;
        tx.commit().await.map_err(e)?;
        let g0: i64 = sqlx::query_scalar(
            "SELECT MIN(id) FROM catalog_games WHERE name_en LIKE 'Bench game %'",
        )
        .fetch_one(&mut *c)
        .await
        .map_err(e)?;
        let u0: i64 =
            sqlx::query_scalar("SELECT MIN(id) FROM users WHERE name LIKE 'bench\\_%' ESCAPE '\\'")
                .fetch_one(&mut *c)
                .await
                .map_err(e)?;
        // Each account's entries are distinct games: (37u + k) mod games, k < entries.
        let chunk = 5_000u64;
        let mut from = 0;
        while from < cfg.users {
            let to = (from + chunk).min(cfg.users);
            sqlx::query(
                "INSERT INTO collections (user_id, game_id, own, played, want_to_play, rating, comment, updated_at)
                 SELECT $1 + u.n, $2 + (u.n * 37 + k.n) % $3,
                    CASE WHEN k.n % 2 = 0 THEN 1 ELSE 0 END, CASE WHEN k.n % 3 = 0 THEN 1 ELSE 0 END,
                    CASE WHEN k.n % 5 = 0 THEN 1 ELSE 0 END, 10 + (u.n + k.n) % 91, '', 0
                 FROM bench_seq u JOIN bench_seq k ON k.n < $4
                 WHERE u.n >= $5 AND u.n < $6 ORDER BY u.n, k.n",
            )
            .bind(u0)
            .bind(g0)
            .bind(cfg.games as i64)
            .bind(cfg.entries as i64)
            .bind(from as i64)
            .bind(to as i64)
            .execute(&mut *c)
            .await
            .map_err(e)?;
            from = to;
            eprintln!("  {to} of {} accounts filled", cfg.users);
        }
        let me = crate::store::insert_returning_id(
            sqlx::query(
                "INSERT INTO users (name, name_key, display_name, guest, created_at)
                 VALUES ($1, $2, $3, 0, 0) RETURNING id",
            )
            .bind(NAME)
            .bind(crate::policy::name_key(NAME))
            .bind(NAME),
            &mut c,
        )
        .await
        .map_err(e)?;
        sqlx::query(
            "INSERT INTO collections (user_id, game_id, own, played, want_to_play, rating, comment, updated_at)
             SELECT $1, $2 + k.n, CASE WHEN k.n % 2 = 0 THEN 1 ELSE 0 END,
                CASE WHEN k.n % 3 = 0 THEN 1 ELSE 0 END, 0, 10 + k.n % 91, 'a comment', k.n
             FROM bench_seq k WHERE k.n < $3",
        )
        .bind(me)
        .bind(g0)
        .bind(cfg.shelf as i64)
        .execute(&mut *c)
        .await
        .map_err(e)?;
        c.execute("ANALYZE").await.map_err(e)?;
    }
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM collections")
        .fetch_one(&mut *c)
        .await
        .map_err(e)?;
    drop(c);
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

/// A write to the measured shelf, as another server node could make it: one entry's
/// time changed and the shelf's version raised, so the next page is read afresh.
async fn write_to_shelf(db: &crate::store::Store, user: i64) -> Result<(), String> {
    let e = |e: sqlx::Error| format!("writing to the shelf: {e}");
    let mut tx = db.pool().begin().await.map_err(e)?;
    sqlx::query(
        "UPDATE collections SET updated_at = updated_at + 1 WHERE user_id = $1
         AND game_id = (SELECT MIN(game_id) FROM collections WHERE user_id = $1)",
    )
    .bind(user)
    .execute(&mut *tx)
    .await
    .map_err(e)?;
    super::versions::bump_shelf(&mut tx, user)
        .await
        .map_err(e)?;
    tx.commit().await.map_err(e)
}

/// `rounds` GETs of `path`; with `after_write`, each right after a write to that
/// account's shelf (unmeasured).
async fn timed_get(
    http: &reqwest::Client,
    base: &str,
    path: &str,
    rounds: usize,
    after_write: Option<(&crate::store::Store, i64)>,
) -> Result<Timing, String> {
    let mut ms = Vec::with_capacity(rounds);
    let mut size = 0;
    // Two unmeasured rounds warm the caches.
    for round in 0..rounds + 2 {
        if let Some((db, user)) = after_write {
            write_to_shelf(db, user).await?;
        }
        let started = Instant::now();
        let res = http
            .get(format!("{base}{path}"))
            .send()
            .await
            .map_err(|e| format!("{path}: {e}"))?;
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

const BGG_HEADER: &str = "objectname,objectid,rating,numplays,own,prevowned,want,wanttoplay,wishlist,wishlistpriority,comment,minplayers,maxplayers,playingtime,yearpublished,bggbestplayers,bggrecagerange,originalname";

async fn timed_import(http: &reqwest::Client, base: &str) -> Result<Vec<Timing>, String> {
    let name = format!("bench_import_{}", crate::time::now_ms() % 1_000_000_000);
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
    let server = Server::start(Config {
        bind: SocketAddr::from(([127, 0, 0, 1], 0)),
        database_url: url.clone(),
        per_ip: lots,
        per_account: lots,
        auth_per_ip: lots,
        ..Config::default()
    })
    .await?;
    let base = format!("http://{}", server.addr);
    let http = reqwest::Client::builder()
        .pool_idle_timeout(Duration::from_secs(5))
        .build()
        .map_err(|e| e.to_string())?;
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
        let t = timed_get(&http, &base, &format!("{shelf}{q}"), cfg.rounds, None).await;
        timings.push(t?);
    }
    // The first page after a write (the server's copy of the shelf is stale).
    let db = crate::store::Store::connect(&url).await?;
    let me: i64 = sqlx::query_scalar("SELECT id FROM users WHERE name = $1")
        .bind(NAME)
        .fetch_one(db.pool())
        .await
        .map_err(|e| e.to_string())?;
    for q in [
        "?sort=name_ja&limit=2000",
        "?best=4&max_minutes=60&sort=name_ja&limit=2000",
    ] {
        let path = format!("{shelf}{q}");
        let mut t = timed_get(&http, &base, &path, cfg.rounds, Some((&db, me))).await?;
        t.what = format!("{} (after a write)", t.what);
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
    timings.push(
        timed_get(
            &http,
            &base,
            &format!("/api/catalog/{game}"),
            cfg.rounds,
            None,
        )
        .await?,
    );
    timings.extend(timed_import(&http, &base).await?);
    server.shutdown().await;
    Ok(BenchReport {
        backend,
        collection_rows,
        fill_seconds,
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

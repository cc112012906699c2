//! Issue 13: the holes found when the server was attacked on loopback — connection
//! floods and slow headers (item 4), a database that stops taking writes (item 11),
//! the web client's security headers and the trusted proxy (item 13). Each test was
//! written before its fix and failed then.

use crate::common::*;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use takuge_server::limit::Rate;
use takuge_server::{Config, Server};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

async fn start(env: &Env, change: impl FnOnce(&mut Config)) -> Server {
    let mut config = crate::common::config(env.url.clone());
    change(&mut config);
    Server::start(config).await.expect("server starts")
}

/// A connection from `from` (any 127.x address: the per-address limits tell them apart).
async fn connect_from(from: [u8; 4], to: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("socket");
    socket
        .bind(SocketAddr::from((from, 0)))
        .expect("bind a loopback address");
    socket.connect(to).await.expect("connect")
}

/// Whether the server closed `stream` within `within` (end of stream or reset),
/// reading and dropping whatever it sent first.
async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let until = tokio::time::Instant::now() + within;
    let mut buf = [0u8; 1024];
    loop {
        match tokio::time::timeout_at(until, stream.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => continue,
        }
    }
}

/// A plain request on a fresh connection from `from`: the status and body, or `None`
/// when the connection was closed without an answer.
async fn fetch_from(from: [u8; 4], addr: SocketAddr, path: &str) -> Option<(u16, String)> {
    let mut stream = connect_from(from, addr).await;
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(req.as_bytes()).await.ok()?;
    let mut out = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut out))
        .await
        .ok()?
        .ok()?;
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text.split_whitespace().nth(1)?.parse().ok()?;
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_string())?;
    Some((status, body))
}

async fn get_from(from: [u8; 4], addr: SocketAddr, path: &str) -> Option<u16> {
    fetch_from(from, addr, path).await.map(|(s, _)| s)
}

// ---- item 4: slow headers, connection caps ----

/// "300 slow-header connections stayed open 75 s": a client that trickles its headers,
/// or sends nothing, is cut off at the header deadline.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_trickles_its_headers_is_cut_off_at_the_deadline() {
    let Some(env) = Env::new(Backend::Sqlite).await else {
        return;
    };
    let server = start(&env, |c| {
        c.connections.header_timeout = Duration::from_secs(1);
    })
    .await;
    let started = Instant::now();
    let mut slow = TcpStream::connect(server.addr).await.expect("connect");
    let mut silent = TcpStream::connect(server.addr).await.expect("connect");
    slow.write_all(b"GET /healthz HTTP/1.1\r\n")
        .await
        .expect("write");
    let trickle = async {
        for _ in 0..8 {
            tokio::time::sleep(Duration::from_millis(400)).await;
            if slow.write_all(b"X-Slow: 1\r\n").await.is_err() {
                break;
            }
        }
    };
    trickle.await;
    assert!(
        closed_within(&mut slow, Duration::from_secs(2)).await,
        "the trickling client is still connected after {:?}",
        started.elapsed()
    );
    assert!(
        closed_within(&mut silent, Duration::from_secs(2)).await,
        "a client that sends nothing is still connected after {:?}",
        started.elapsed()
    );
    server.shutdown().await;
}

/// "at a low descriptor limit, /healthz stopped answering": one address holds at most
/// its share of connections; past it a connection is closed at once, and other
/// addresses (a health check, other players) are still served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_cannot_hold_every_connection() {
    let Some(env) = Env::new(Backend::Sqlite).await else {
        return;
    };
    let server = start(&env, |c| {
        c.connections.max_per_ip = 5;
        c.connections.header_timeout = Duration::from_secs(30);
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..5 {
        held.push(connect_from([127, 0, 0, 1], server.addr).await);
    }
    // Let the server accept them all before the one too many.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut extra = connect_from([127, 0, 0, 1], server.addr).await;
    assert!(
        closed_within(&mut extra, Duration::from_secs(2)).await,
        "a sixth connection from one address is closed at once"
    );
    assert_eq!(
        get_from([127, 0, 0, 2], server.addr, "/healthz").await,
        Some(200),
        "another address is served"
    );
    let metrics = fetch_from([127, 0, 0, 2], server.addr, "/metrics")
        .await
        .map(|(_, b)| b)
        .unwrap_or_default();
    held.pop();
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        metrics.contains("takuge_connections_refused_total 1"),
        "{metrics}"
    );
    assert_eq!(
        get_from([127, 0, 0, 1], server.addr, "/healthz").await,
        Some(200),
        "a freed place is given again"
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_holds_at_most_its_connections_in_all() {
    let Some(env) = Env::new(Backend::Sqlite).await else {
        return;
    };
    let server = start(&env, |c| {
        c.connections.max_total = Some(6);
        c.connections.header_timeout = Duration::from_secs(30);
    })
    .await;
    let mut held = Vec::new();
    for k in 0..6u8 {
        held.push(connect_from([127, 0, 1, k + 1], server.addr).await);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut extra = connect_from([127, 0, 2, 1], server.addr).await;
    assert!(closed_within(&mut extra, Duration::from_secs(2)).await);
    drop(held);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        get_from([127, 0, 2, 1], server.addr, "/healthz").await,
        Some(200)
    );
    server.shutdown().await;
}

/// Item 10's "connections per user": one account holds a bounded number of WebSockets.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_account_holds_at_most_its_websockets() {
    let Some(env) = Env::new(Backend::Sqlite).await else {
        return;
    };
    let server = start(&env, |c| c.websockets_per_account = 2).await;
    let alice = Client::guest(server.addr).await;
    let first = alice.ws().await;
    let _second = alice.ws().await;
    let url = format!("ws://{}/ws?token={}", server.addr, alice.token);
    match tokio_tungstenite::connect_async(url.clone()).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(res)) => {
            assert_eq!(res.status().as_u16(), 429);
            let body = String::from_utf8_lossy(res.body().as_deref().unwrap_or(&[])).to_string();
            assert!(body.contains("too_many_connections"), "{body}");
        }
        other => panic!("a third WebSocket was not refused: {:?}", other.map(|_| ())),
    }
    // Another account is not affected.
    let bob = Client::guest(server.addr).await;
    let _bobs = bob.ws().await;
    drop(first);
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        if tokio_tungstenite::connect_async(url.clone()).await.is_ok() {
            break;
        }
        assert!(
            Instant::now() < until,
            "a closed WebSocket's place is never freed"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_follows_at_most_its_subscriptions() {
    let Some(env) = Env::new(Backend::Sqlite).await else {
        return;
    };
    let server = start(&env, |c| c.subscriptions_per_ip = 2).await;
    let alice = Client::guest(server.addr).await;
    let mut tables = Vec::new();
    for _ in 0..3 {
        let (s, t) = alice
            .post("/api/tables", json!({"game": "secret-moon", "players": 4}))
            .await;
        assert_eq!(s, 201, "{t}");
        tables.push(t["id"].as_i64().expect("id"));
    }
    let mut ws = alice.ws().await;
    for t in &tables[..2] {
        ws.send(json!({"type": "subscribe", "table": t, "ref": t}))
            .await;
        assert_eq!(ws.recv_type("table").await["table"], *t);
    }
    ws.send(json!({"type": "subscribe", "table": tables[2], "ref": "third"}))
        .await;
    let e = ws.recv_type("error").await;
    assert_eq!(e["code"], "too_many_subscriptions", "{e}");
    assert_eq!(e["ref"], "third");
    // A second connection from the same address shares the count.
    let mut other = alice.ws().await;
    other
        .send(json!({"type": "subscribe", "table": tables[2]}))
        .await;
    assert_eq!(
        other.recv_type("error").await["code"],
        "too_many_subscriptions"
    );
    ws.send(json!({"type": "unsubscribe", "table": tables[0]}))
        .await;
    ws.recv_type("unsubscribed").await;
    ws.send(json!({"type": "subscribe", "table": tables[2]}))
        .await;
    assert_eq!(ws.recv_type("table").await["table"], tables[2]);
    server.shutdown().await;
}

// ---- item 13: headers, trusted proxy ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_forbids_framing_inline_scripts_and_referrers() {
    let Some(env) = Env::new(Backend::Sqlite).await else {
        return;
    };
    let server = env.start().await;
    let http = reqwest::Client::new();
    for path in [
        "/",
        "/app.js",
        "/api/games",
        "/api/tables/999999",
        "/healthz",
    ] {
        let res = http
            .get(format!("http://{}{path}", server.addr))
            .send()
            .await
            .expect("request");
        let h = res.headers();
        let csp = h
            .get("content-security-policy")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_else(|| panic!("{path}: no Content-Security-Policy"));
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert_eq!(
            h.get("x-frame-options").map(|v| v.as_bytes()),
            Some(&b"DENY"[..]),
            "{path}"
        );
        assert_eq!(
            h.get("referrer-policy").map(|v| v.as_bytes()),
            Some(&b"no-referrer"[..]),
            "{path}"
        );
        assert_eq!(
            h.get("x-content-type-options").map(|v| v.as_bytes()),
            Some(&b"nosniff"[..]),
            "{path}"
        );
    }
    server.shutdown().await;
}

async fn get_with_forwarded(addr: SocketAddr, forwarded: &str) -> u16 {
    reqwest::Client::new()
        .get(format!("http://{addr}/api/games"))
        .header("x-forwarded-for", forwarded)
        .send()
        .await
        .expect("request")
        .status()
        .as_u16()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_each_client_has_its_own_limit() {
    let Some(env) = Env::new(Backend::Sqlite).await else {
        return;
    };
    let few = Rate {
        per_second: 0.001,
        burst: 3.0,
    };
    let server = start(&env, |c| {
        c.per_ip = few;
        c.trusted_proxies = vec!["127.0.0.0/8".parse().expect("cidr")];
    })
    .await;
    for _ in 0..3 {
        assert_eq!(get_with_forwarded(server.addr, "198.51.100.1").await, 200);
    }
    assert_eq!(get_with_forwarded(server.addr, "198.51.100.1").await, 429);
    assert_eq!(
        get_with_forwarded(server.addr, "198.51.100.2").await,
        200,
        "another client behind the same proxy has its own budget"
    );
    // A client cannot pick its address by sending its own header: the proxy's entry
    // (the last one) is the one believed.
    assert_eq!(
        get_with_forwarded(server.addr, "203.0.113.9, 198.51.100.1").await,
        429
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_trusted_proxy_forwarded_for_is_ignored() {
    let Some(env) = Env::new(Backend::Sqlite).await else {
        return;
    };
    let few = Rate {
        per_second: 0.001,
        burst: 3.0,
    };
    let server = start(&env, |c| c.per_ip = few).await;
    for k in 0..3 {
        assert_eq!(
            get_with_forwarded(server.addr, &format!("198.51.100.{k}")).await,
            200
        );
    }
    assert_eq!(
        get_with_forwarded(server.addr, "198.51.100.99").await,
        429,
        "a forged X-Forwarded-For does not buy a new budget"
    );
    server.shutdown().await;
}

/// The web client is plain ES modules, dozens of files a page: loading the site must never
/// use up an address's request budget (many people behind one school's or office's
/// address; a reload), which guards the API. Over budget, the API answers 429 while the
/// page's files are still served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_web_clients_files_are_not_counted_against_the_request_limit() {
    let Some(env) = Env::new(Backend::Sqlite).await else {
        return;
    };
    let few = Rate {
        per_second: 0.001,
        burst: 3.0,
    };
    let server = start(&env, |c| c.per_ip = few).await;
    let http = reqwest::Client::new();
    let status = |path: &'static str| {
        let http = http.clone();
        let addr = server.addr;
        async move {
            http.get(format!("http://{addr}{path}"))
                .send()
                .await
                .expect("request")
                .status()
                .as_u16()
        }
    };
    for _ in 0..20 {
        for path in ["/", "/app.js", "/style.css", "/login", "/favicon.svg"] {
            assert_eq!(status(path).await, 200, "{path}");
        }
    }
    for _ in 0..3 {
        assert_eq!(status("/api/games").await, 200);
    }
    assert_eq!(status("/api/games").await, 429, "the API keeps its limit");
    assert_eq!(status("/app.js").await, 200);
    server.shutdown().await;
}

// ---- item 11: a database that stops taking writes ----

async fn text(addr: SocketAddr, path: &str) -> (u16, String) {
    let res = reqwest::Client::new()
        .get(format!("http://{addr}{path}"))
        .send()
        .await
        .expect("request");
    (res.status().as_u16(), res.text().await.unwrap_or_default())
}

fn metric(metrics: &str, name: &str) -> f64 {
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or(f64::NAN)
}

async fn metrics_of(addr: SocketAddr) -> String {
    text(addr, "/metrics").await.1
}

async fn eventually(what: &str, within: Duration, mut check: impl AsyncFnMut() -> bool) {
    let until = Instant::now() + within;
    while !check().await {
        assert!(Instant::now() < until, "never: {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Makes a database refuse writes, and takes it back; two ways, one per backend.
enum Freeze {
    /// PostgreSQL: the database turned read-only (as a replica after failover is),
    /// its sessions ended so every new one starts read-only.
    Postgres { admin: String, name: String },
    /// SQLite: the files made immutable (`chattr +i`, root only), as a full or
    /// read-only disk would make them.
    Sqlite { files: Vec<std::path::PathBuf> },
}

impl Freeze {
    fn of(env: &Env) -> Option<Freeze> {
        match env.backend {
            Backend::Postgres => Some(Freeze::Postgres {
                admin: std::env::var(POSTGRES_ENV).ok()?,
                name: env.url.rsplit('/').next()?.split('?').next()?.to_string(),
            }),
            Backend::Sqlite => {
                let db = env.dir.path().join("takuge.db");
                let files = ["", "-wal", "-shm"]
                    .iter()
                    .map(|s| std::path::PathBuf::from(format!("{}{s}", db.display())))
                    .collect();
                Some(Freeze::Sqlite { files })
            }
        }
    }

    /// `false` when this machine cannot do it (SQLite without root's chattr).
    async fn set(&self, frozen: bool) -> bool {
        match self {
            Freeze::Postgres { admin, name } => {
                use sqlx::Executor;
                let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(admin)
                    .await
                    .expect("admin connection");
                conn.execute(
                    format!(
                        "ALTER DATABASE {name} SET default_transaction_read_only = {}",
                        if frozen { "on" } else { "off" }
                    )
                    .as_str(),
                )
                .await
                .expect("alter database");
                conn.execute(
                    format!(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}' AND pid <> pg_backend_pid()"
                    )
                    .as_str(),
                )
                .await
                .expect("end the sessions");
                true
            }
            Freeze::Sqlite { files } => {
                let flag = if frozen { "+i" } else { "-i" };
                let mut ok = true;
                for f in files {
                    if !f.exists() {
                        continue;
                    }
                    ok &= std::process::Command::new("chattr")
                        .arg(flag)
                        .arg(f)
                        .status()
                        .is_ok_and(|s| s.success());
                }
                ok
            }
        }
    }
}

async fn a_database_that_refuses_writes_is_reported_and_survived(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = start(&env, |c| c.bot_delay = Duration::from_millis(20)).await;
    let host = Client::guest(server.addr).await;
    // A table that only bots play, so it writes all the time.
    let (s, t) = host
        .post(
            "/api/tables",
            json!({"game": "secret-moon", "players": 5, "sit": false, "options": {"games": 5}}),
        )
        .await;
    assert_eq!(s, 201, "{t}");
    let table = t["id"].as_i64().expect("id");
    assert_eq!(
        host.post(&format!("/api/tables/{table}/bots"), json!({}))
            .await
            .0,
        200
    );
    assert_eq!(
        host.post(&format!("/api/tables/{table}/start"), json!({}))
            .await
            .0,
        200
    );
    assert_eq!(text(server.addr, "/readyz").await, (200, "ready\n".into()));

    let freeze = Freeze::of(&env).expect("freeze");
    if !freeze.set(true).await {
        let _ = freeze.set(false).await;
        eprintln!("skipped: chattr +i needs root");
        server.shutdown().await;
        return;
    }
    let addr = server.addr;
    eventually(
        "/readyz says not ready",
        Duration::from_secs(10),
        async || {
            let (s, body) = text(addr, "/readyz").await;
            s == 503 && body.starts_with("not ready")
        },
    )
    .await;
    let (s, body) = text(addr, "/healthz").await;
    assert_eq!(s, 200, "the process is alive: {body}");
    assert!(body.starts_with("degraded"), "{body}");
    // A write request is refused clearly, not as an internal error.
    let (s, b) = post_csrf(&format!("http://{addr}"), "/api/guest", json!({})).await;
    assert_eq!(
        (s, &b["error"]["code"]),
        (503, &Value::from("database_unavailable")),
        "{b}"
    );
    // The bots back off: a handful of tries in two seconds, not thousands.
    let before = metric(
        &metrics_of(addr).await,
        "takuge_database_write_errors_total",
    );
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = metric(
        &metrics_of(addr).await,
        "takuge_database_write_errors_total",
    );
    assert!(
        after - before < 30.0,
        "{} failed writes in 2 s: the bots retry without pause",
        after - before
    );
    assert_eq!(
        metric(&metrics_of(addr).await, "takuge_database_writable"),
        0.0
    );

    assert!(freeze.set(false).await, "writable again");
    eventually(
        "/readyz is ready again",
        Duration::from_secs(15),
        async || text(addr, "/readyz").await.0 == 200,
    )
    .await;
    // The bots play on.
    let committed = metric(&metrics_of(addr).await, "takuge_actions_committed_total");
    eventually("bots commit again", Duration::from_secs(45), async || {
        metric(&metrics_of(addr).await, "takuge_actions_committed_total") > committed + 5.0
    })
    .await;
    assert_eq!(
        metric(&metrics_of(addr).await, "takuge_database_writable"),
        1.0
    );
    server.shutdown().await;
}

on_both_databases!(a_database_that_refuses_writes_is_reported_and_survived);

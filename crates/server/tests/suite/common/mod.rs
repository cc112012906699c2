//! A real server on loopback with a temporary database (a SQLite file, or a fresh
//! database on the PostgreSQL that `TAKUGE_TEST_POSTGRES_URL` names), and real clients.
#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;
use takuge_server::limit::Rate;
use takuge_server::{Config, Server};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

pub const CSRF: &str = "x-takuge";

pub use takuge_server::store::Dialect as Backend;

/// The PostgreSQL the tests use (a superuser URL; `scripts/test` starts one).
pub const POSTGRES_ENV: &str = "TAKUGE_TEST_POSTGRES_URL";

pub fn config(database_url: String) -> Config {
    let lots = Rate {
        per_second: 10_000.0,
        burst: 10_000.0,
    };
    Config {
        bind: SocketAddr::from(([127, 0, 0, 1], 0)),
        database_url,
        allow_fixed_seeds: true,
        per_ip: lots,
        per_account: lots,
        auth_per_ip: lots,
        ..Config::default()
    }
}

pub struct Env {
    pub dir: tempfile::TempDir,
    pub backend: Backend,
    pub url: String,
}

static NEXT_DB: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

impl Env {
    /// A fresh, empty database of that kind; `None` (the test is skipped, saying so)
    /// when PostgreSQL is asked for and `TAKUGE_TEST_POSTGRES_URL` is unset — except in
    /// CI (`CI` set), where that is a failure: the suite must run against both.
    pub async fn new(backend: Backend) -> Option<Env> {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = match backend {
            Backend::Sqlite => format!("sqlite://{}", dir.path().join("takuge.db").display()),
            Backend::Postgres => {
                let Ok(admin) = std::env::var(POSTGRES_ENV) else {
                    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false");
                    assert!(
                        !ci,
                        "{POSTGRES_ENV} is unset: in CI the server tests must run against PostgreSQL (scripts/test starts one)"
                    );
                    eprintln!("skipped: {POSTGRES_ENV} is unset (scripts/test sets it)");
                    return None;
                };
                fresh_postgres_database(&admin).await
            }
        };
        Some(Env { dir, backend, url })
    }
    pub async fn start(&self) -> Server {
        Server::start(config(self.url.clone()))
            .await
            .expect("server starts")
    }
}

/// Creates a new database on the server `admin` names and returns its URL.
async fn fresh_postgres_database(admin: &str) -> String {
    use sqlx::Executor;
    let name = format!(
        "takuge_test_{}_{}",
        std::process::id(),
        NEXT_DB.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(admin)
        .await
        .expect("connect to the test PostgreSQL");
    conn.execute(format!("DROP DATABASE IF EXISTS {name}").as_str())
        .await
        .expect("drop old test database");
    conn.execute(format!("CREATE DATABASE {name}").as_str())
        .await
        .expect("create test database");
    let (base, query) = match admin.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (admin, String::new()),
    };
    let (server, _) = base
        .rsplit_once('/')
        .filter(|(s, _)| s.contains("://") && !s.ends_with('/'))
        .unwrap_or((base, ""));
    format!("{server}/{name}{query}")
}

pub struct Client {
    pub base: String,
    pub http: reqwest::Client,
    pub token: String,
    pub user: Value,
}

pub async fn post_raw(base: &str, path: &str, token: Option<&str>, body: String) -> (u16, Value) {
    let http = reqwest::Client::new();
    let mut req = http
        .post(format!("{base}{path}"))
        .header("content-type", "application/json")
        .body(body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let res = req.send().await.expect("request");
    let status = res.status().as_u16();
    let text = res.text().await.expect("body");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// A GET with a bearer token: the status, and the body as JSON (or as a string when it
/// is not JSON).
pub async fn get_raw(base: &str, path: &str, token: &str) -> (u16, Value) {
    let res = reqwest::Client::new()
        .get(format!("{base}{path}"))
        .bearer_auth(token)
        .send()
        .await
        .expect("request");
    let status = res.status().as_u16();
    let text = res.text().await.expect("body");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// A POST without credentials, with the CSRF header (as a browser page would send).
pub async fn post_csrf(base: &str, path: &str, body: Value) -> (u16, Value) {
    let res = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .header(CSRF, "1")
        .json(&body)
        .send()
        .await
        .expect("request");
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// A GET on `c`'s server without credentials, as anyone on the web.
pub async fn anonymous(c: &Client, path: &str) -> (u16, Value) {
    let res = reqwest::get(format!("{}{path}", c.base))
        .await
        .expect("request");
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// Signs in to a test account (`register`'s password) at `path`: `/api/register` or
/// `/api/login`.
async fn sign_in(addr: SocketAddr, path: &str, name: &str) -> Client {
    let base = format!("http://{addr}");
    let (s, b) = post_csrf(
        &base,
        path,
        json!({"name": name, "password": "correct horse battery"}),
    )
    .await;
    assert_eq!(s, 200, "{path} {name}: {b}");
    Client {
        base,
        http: reqwest::Client::new(),
        token: b["token"].as_str().expect("token").to_string(),
        user: b["user"].clone(),
    }
}

/// A registered account, logged in (the password is the same for every test account).
pub async fn register(addr: SocketAddr, name: &str) -> Client {
    sign_in(addr, "/api/register", name).await
}

/// A new session of an account `register` made.
pub async fn login(addr: SocketAddr, name: &str) -> Client {
    sign_in(addr, "/api/login", name).await
}

impl Client {
    pub async fn guest(addr: SocketAddr) -> Client {
        let base = format!("http://{addr}");
        let res = reqwest::Client::new()
            .post(format!("{base}/api/guest"))
            .header(CSRF, "1")
            .send()
            .await
            .expect("guest");
        assert_eq!(res.status().as_u16(), 200);
        let body: Value = res.json().await.expect("json");
        Client {
            base,
            http: reqwest::Client::new(),
            token: body["token"].as_str().expect("token").to_string(),
            user: body["user"].clone(),
        }
    }

    pub fn with_base(&self, addr: SocketAddr) -> Client {
        Client {
            base: format!("http://{addr}"),
            http: reqwest::Client::new(),
            token: self.token.clone(),
            user: self.user.clone(),
        }
    }

    pub fn id(&self) -> i64 {
        self.user["id"].as_i64().expect("id")
    }

    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        post_raw(&self.base, path, Some(&self.token), body.to_string()).await
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        get_raw(&self.base, path, &self.token).await
    }

    /// A request of any method with the token and an optional JSON body: the status,
    /// and the body as JSON (or as a string when it is not JSON).
    pub async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut req = self
            .http
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.token);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let res = req.send().await.expect("request");
        let status = res.status().as_u16();
        let text = res.text().await.expect("body");
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    pub async fn put(&self, path: &str, body: Value) -> (u16, Value) {
        self.send(reqwest::Method::PUT, path, Some(body)).await
    }

    pub async fn delete(&self, path: &str) -> (u16, Value) {
        self.send(reqwest::Method::DELETE, path, None).await
    }

    pub async fn ws(&self) -> Ws {
        let url = self.base.replace("http://", "ws://") + "/ws";
        let mut req = url.into_client_request().expect("ws request");
        req.headers_mut().insert(
            "authorization",
            format!("Bearer {}", self.token).parse().expect("header"),
        );
        let (mut stream, _) = tokio_tungstenite::connect_async(req)
            .await
            .expect("ws connect");
        let hello = next_json(&mut stream).await.expect("hello");
        assert_eq!(hello["type"], "hello");
        assert_eq!(hello["protocol"], 1);
        Ws { stream }
    }
}

pub type Stream =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub async fn next_json(stream: &mut Stream) -> Option<Value> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), stream.next())
            .await
            .expect("a message within 20 s")?;
        match msg.ok()? {
            Message::Text(t) => return serde_json::from_str(t.as_str()).ok(),
            Message::Close(_) => return None,
            _ => continue,
        }
    }
}

pub struct Ws {
    pub stream: Stream,
}

impl Ws {
    pub async fn send(&mut self, v: Value) {
        self.stream
            .send(Message::Text(v.to_string().into()))
            .await
            .expect("ws send");
    }
    pub async fn send_text(&mut self, t: &str) {
        self.stream
            .send(Message::Text(t.to_string().into()))
            .await
            .expect("ws send");
    }
    pub async fn recv(&mut self) -> Option<Value> {
        next_json(&mut self.stream).await
    }
    /// The next message of `kind`, skipping others.
    pub async fn recv_type(&mut self, kind: &str) -> Value {
        loop {
            let m = self.recv().await.expect("connection open");
            if m["type"] == kind {
                return m;
            }
        }
    }
}

/// A value of `/metrics` on the server at `base` (`http://…`).
pub async fn metric(base: &str, name: &str) -> i64 {
    let text = reqwest::get(format!("{base}/metrics"))
        .await
        .expect("metrics")
        .text()
        .await
        .expect("text");
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {name} in /metrics"))
}

/// A WebSocket of `client` to the server at `addr` with a small receive buffer, so that
/// a test that stops reading it backs the server up after little data.
pub async fn slow_reader(client: &Client, addr: SocketAddr) -> Stream {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("receive buffer");
    let tcp = socket.connect(addr).await.expect("connect");
    let mut req = format!("ws://{addr}/ws")
        .into_client_request()
        .expect("ws request");
    req.headers_mut().insert(
        "authorization",
        format!("Bearer {}", client.token).parse().expect("header"),
    );
    let (stream, _) =
        tokio_tungstenite::client_async(req, tokio_tungstenite::MaybeTlsStream::Plain(tcp))
            .await
            .expect("ws handshake");
    stream
}

/// Reads `stream` to its end: the close frame's code and reason, if one came, after
/// every message before it.
pub async fn close_frame(stream: &mut Stream, within: Duration) -> Option<(u16, String)> {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let next = tokio::time::timeout_at(deadline, stream.next())
            .await
            .expect("the connection ends in time");
        match next {
            Some(Ok(Message::Close(frame))) => {
                return frame.map(|f| (u16::from(f.code), f.reason.as_str().to_owned()))
            }
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => return None,
        }
    }
}

/// Creates `n` tables of `players` bots (the host watches, seated nowhere) playing a
/// match of five games, not started yet; their ids.
pub async fn bot_tables(host: &Client, n: usize, players: usize) -> Vec<i64> {
    let mut ids = Vec::with_capacity(n);
    for _ in 0..n {
        let (s, t) = host
            .post(
                "/api/tables",
                json!({"game": "secret-moon", "players": players, "sit": false, "options": {"games": 5}}),
            )
            .await;
        assert_eq!(s, 201, "{t}");
        let id = t["id"].as_i64().expect("id");
        let (s, b) = host
            .post(&format!("/api/tables/{id}/bots"), json!({}))
            .await;
        assert_eq!(s, 200, "{b}");
        ids.push(id);
    }
    ids
}

/// Polls `check` every 100 ms until it holds or `within` passes; whether it held.
pub async fn eventually<F, Fut>(within: Duration, mut check: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + within;
    loop {
        if check().await {
            return true;
        }
        if tokio::time::Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A client-side "bot": a deterministic choice among the legal actions.
pub fn choose(legal: &[Value], version: u64, seat: u64) -> Value {
    let h = (version.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ seat.wrapping_mul(0xD6E8_FEB8_6659_FD93))
        >> 17;
    legal[(h % legal.len() as u64) as usize]["action"].clone()
}

/// Plays one seat over a WebSocket until the game ends or the table reaches
/// `stop_at`; returns every table message received.
pub async fn play_seat(client: Client, table: i64, stop_at: Option<u64>) -> Vec<Value> {
    let mut ws = client.ws().await;
    ws.send(json!({"type": "subscribe", "table": table})).await;
    let mut seen = Vec::new();
    let mut acted: Option<(u64, u64)> = None;
    loop {
        let Some(m) = ws.recv().await else { break };
        match m["type"].as_str() {
            Some("table") => {}
            Some("ack") | Some("pong") => continue,
            // With simultaneous choices another seat may change the table between our
            // choice and its arrival; a later message asks again.
            Some("error") if m["code"] == "stale_version" || m["code"] == "illegal_action" => {
                continue
            }
            _ => panic!("unexpected message: {m}"),
        }
        seen.push(m.clone());
        let version = m["version"].as_u64().expect("version");
        // A draft step keeps the version and counts up `draft` (docs/PROTOCOL.md).
        let step = (version, m["draft"].as_u64().unwrap_or(0));
        if m["status"] != "playing" {
            if m["status"] == "finished" || m["status"] == "abandoned" {
                break;
            }
            continue;
        }
        if stop_at.is_some_and(|s| version >= s) {
            break;
        }
        let legal = m["legal"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() || acted == Some(step) {
            continue;
        }
        let seat = m["you"].as_u64().expect("seated");
        acted = Some(step);
        ws.send(json!({
            "type": "act", "table": table, "version": version, "draft": step.1,
            "action": choose(&legal, version, seat),
        }))
        .await;
    }
    seen
}

/// Creates a table of `players` with the given human clients (seats 0..) and bots in
/// the rest, and starts it.
pub async fn setup_table(host: &Client, others: &[&Client], players: usize, seed: u64) -> i64 {
    setup_table_with(host, others, players, seed, Value::Null).await
}

pub async fn setup_table_with(
    host: &Client,
    others: &[&Client],
    players: usize,
    seed: u64,
    options: Value,
) -> i64 {
    let (s, t) = host
        .post(
            "/api/tables",
            json!({"game": "secret-moon", "players": players, "seed": seed, "options": options}),
        )
        .await;
    assert_eq!(s, 201, "{t}");
    let id = t["id"].as_i64().expect("id");
    for (k, c) in others.iter().enumerate() {
        let (s, b) = c
            .post(&format!("/api/tables/{id}/sit"), json!({"seat": k + 1}))
            .await;
        assert_eq!(s, 200, "{b}");
    }
    let (s, b) = host
        .post(&format!("/api/tables/{id}/bots"), json!({}))
        .await;
    assert_eq!(s, 200, "{b}");
    let (s, b) = host
        .post(&format!("/api/tables/{id}/start"), json!({}))
        .await;
    assert_eq!(s, 200, "{b}");
    id
}

/// The secret the test nodes share (`--cluster-secret`).
pub const NODE_SECRET: &str = "s3cret";

/// Named node `name` on `env`'s database, advertised at an address nobody answers
/// (for tests where no request passes between nodes).
pub fn node_config(env: &Env, name: &str) -> Config {
    let mut config = config(env.url.clone());
    config.node = Some(takuge_server::cluster::NodeConfig {
        name: name.into(),
        advertise: format!("http://{name}.invalid"),
        secret: NODE_SECRET.into(),
    });
    config
}

/// Named node `name`, started.
pub async fn node(env: &Env, name: &str) -> Server {
    Server::start(node_config(env, name))
        .await
        .expect("node starts")
}

/// Named node `name` on a port of its own, advertised at its real address (the other
/// nodes pass requests to it).
pub async fn reachable_node(env: &Env, name: &str) -> Server {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut config = node_config(env, name);
    config.bind = SocketAddr::from(([127, 0, 0, 1], port));
    if let Some(node) = config.node.as_mut() {
        node.advertise = format!("http://127.0.0.1:{port}");
    }
    Server::start(config).await.expect("node starts")
}

/// A pool of the test's own on `env`'s database, to read what the servers wrote.
pub async fn db_pool(env: &Env) -> sqlx::AnyPool {
    sqlx::any::install_default_drivers();
    sqlx::AnyPool::connect(&env.url).await.expect("open db")
}

/// Everything the database holds about games, to check that a refused request
/// changed nothing.
pub async fn snapshot(env: &Env) -> Vec<String> {
    use sqlx::Row;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&env.url).await.expect("open db");
    let mut out = Vec::new();
    for q in [
        "SELECT table_id || ':' || version || ':' || seat || ':' || action FROM actions ORDER BY table_id, version",
        "SELECT id || ':' || status || ':' || COALESCE(outcome, '') FROM game_tables ORDER BY id",
        "SELECT table_id || ':' || seat || ':' || COALESCE(CAST(user_id AS TEXT), '') || ':' || COALESCE(bot, '') FROM seats ORDER BY table_id, seat",
        "SELECT id || ':' || COALESCE(name, '') || ':' || guest FROM users ORDER BY id",
    ] {
        for r in sqlx::query(q).fetch_all(&pool).await.expect("query") {
            out.push(r.get::<String, _>(0));
        }
    }
    pool.close().await;
    out
}

/// Each named test `async fn name(backend: Backend)` of the calling file, once against
/// SQLite and once against PostgreSQL (as `sqlite::name` and `postgres::name`).
#[allow(unused_macros)] // (a test file of one database does not use it)
macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(super::Backend::Sqlite).await
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(super::Backend::Postgres).await
                }
            )*
        }
    };
}
#[allow(unused_imports)]
pub(crate) use on_both_databases;

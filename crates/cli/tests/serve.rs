//! `takuge serve` as a user runs it: a fresh directory gets `takuge.db`, the server
//! answers on loopback, and a SIGKILL followed by a restart loses nothing.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

fn fresh_dir() -> PathBuf {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!("takuge-serve-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Starts `takuge serve` on an ephemeral loopback port; returns it and its address.
fn serve(dir: &PathBuf) -> (Child, String) {
    serve_with(dir, None)
}

/// [`serve`], with `TAKUGE_DATABASE_URL` set to `database_url` (or unset).
fn serve_with(dir: &PathBuf, database_url: Option<&str>) -> (Child, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_takuge"));
    match database_url {
        Some(url) => command.env("TAKUGE_DATABASE_URL", url),
        None => command.env_remove("TAKUGE_DATABASE_URL"),
    };
    let mut child = command
        .args(["serve", "--bind", "127.0.0.1:0"])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("takuge serve starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("the server logs where it listens")
            .expect("a log line");
        if let Some(rest) = line.split("addr=").nth(1) {
            break rest.split_whitespace().next().unwrap_or("").to_string();
        }
    };
    // Keep draining the log so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    (child, addr)
}

fn request(addr: &str, req: &str) -> String {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    stream.write_all(req.as_bytes()).expect("write");
    let mut out = String::new();
    let _ = stream.read_to_string(&mut out);
    out
}

fn get(addr: &str, path: &str) -> String {
    request(
        addr,
        &format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    )
}

#[test]
fn serve_creates_its_database_answers_and_survives_sigkill() {
    let dir = fresh_dir();
    let (mut child, addr) = serve(&dir);
    assert!(dir.join("takuge.db").exists(), "takuge.db is created");
    let health = get(&addr, "/healthz");
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    let metrics = get(&addr, "/metrics");
    assert!(metrics.contains("takuge_open_tables"), "{metrics}");
    let guest = request(
        &addr,
        &format!(
            "POST /api/guest HTTP/1.1\r\nHost: {addr}\r\nx-takuge: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        ),
    );
    assert!(guest.starts_with("HTTP/1.1 200"), "{guest}");
    let token = guest
        .split("\"token\":\"")
        .nth(1)
        .and_then(|t| t.split('"').next())
        .expect("a token")
        .to_string();
    let body = r#"{"game":"secret-moon","players":4}"#;
    let created = request(
        &addr,
        &format!(
            "POST /api/tables HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    );
    assert!(created.starts_with("HTTP/1.1 201"), "{created}");
    child.kill().expect("SIGKILL");
    let _ = child.wait();

    let (mut child, addr) = serve(&dir);
    let lobby = get(&addr, "/api/tables?game=secret-moon");
    assert!(
        lobby.contains("\"players\":4"),
        "the table survived: {lobby}"
    );
    child.kill().expect("kill");
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A deployment keeps the database URL (with a PostgreSQL password) out of the process
/// list: `TAKUGE_DATABASE_URL` names the database when `--database-url` is absent
/// (docs/DEPLOY.md, the systemd unit's `EnvironmentFile=`).
#[test]
fn serve_reads_its_database_url_from_the_environment() {
    let dir = fresh_dir();
    let db = dir.join("from-env.db");
    let (mut child, addr) = serve_with(&dir, Some(&format!("sqlite://{}", db.display())));
    let health = get(&addr, "/healthz");
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    assert!(db.exists(), "the database the environment names is created");
    assert!(
        !dir.join("takuge.db").exists(),
        "the default database is not used"
    );
    child.kill().expect("kill");
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}

/// `takuge migrate` with the server still running on its SQLite file: refused at once,
/// saying to stop the server, and the server keeps answering (issue 19, "moving up").
#[test]
fn migrate_refuses_a_database_a_running_server_holds() {
    let dir = fresh_dir();
    let (mut child, addr) = serve(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_takuge"))
        .args([
            "migrate",
            "--from",
            "sqlite://takuge.db",
            "--to",
            "postgres://127.0.0.1:1/unused",
        ])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("takuge migrate runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("stop the takuge server running on it first"),
        "{stderr}"
    );
    assert!(get(&addr, "/healthz").starts_with("HTTP/1.1 200"));
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}

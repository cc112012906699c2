//! `takuge serve` with its default logging stays responsive when log lines come from the
//! runtime's worker threads (issue 13, item 1). The command once held the stdout lock for
//! the server's whole life, so the first log line written from a worker (a clock running
//! out, a client that does not read) blocked that worker for ever, and soon every request.
//! Only the real binary shows this: in-process servers log elsewhere.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

struct Served {
    child: Child,
    addr: String,
    log: Arc<Mutex<Vec<String>>>,
    dir: PathBuf,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Served {
    /// `takuge serve` as a user starts it: default log level, log on stdout, read by us.
    fn start(extra: &[&str]) -> Served {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!("takuge-log-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let mut child = Command::new(env!("CARGO_BIN_EXE_takuge"))
            .args(["serve", "--bind", "127.0.0.1:0"])
            .args(extra)
            .current_dir(&dir)
            .env_remove("RUST_LOG")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("takuge serve starts");
        let log = Arc::new(Mutex::new(Vec::new()));
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        for stream in [
            Box::new(child.stdout.take().expect("stdout")) as Box<dyn Read + Send>,
            Box::new(child.stderr.take().expect("stderr")),
        ] {
            let log = log.clone();
            let addr_tx = addr_tx.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines() {
                    let Ok(line) = line else { break };
                    if let Some(rest) = line.split("addr=").nth(1) {
                        let addr = rest.split_whitespace().next().unwrap_or("").to_string();
                        let _ = addr_tx.send(addr);
                    }
                    log.lock().expect("log").push(line);
                }
            });
        }
        let addr = addr_rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the server logs where it listens");
        Served {
            child,
            addr,
            log,
            dir,
        }
    }

    fn logged(&self, needle: &str) -> bool {
        self.log
            .lock()
            .expect("log")
            .iter()
            .any(|l| l.contains(needle))
    }

    /// One HTTP request; `None` when the server does not answer within `within`.
    fn request(&self, req: &str, within: Duration) -> Option<String> {
        let mut stream = TcpStream::connect(&self.addr).ok()?;
        stream.set_read_timeout(Some(within)).ok()?;
        stream.set_write_timeout(Some(within)).ok()?;
        stream.write_all(req.as_bytes()).ok()?;
        let mut out = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(_) if out.is_empty() => return None,
                Err(_) => break,
            }
        }
        Some(String::from_utf8_lossy(&out).into_owned())
    }

    fn post(&self, path: &str, token: Option<&str>, body: &str) -> String {
        let auth = token
            .map(|t| format!("Authorization: Bearer {t}\r\n"))
            .unwrap_or_default();
        let addr = &self.addr;
        let req = format!(
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}x-takuge: 1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        self.request(&req, Duration::from_secs(20))
            .unwrap_or_else(|| panic!("no answer to POST {path}"))
    }

    fn guest(&self) -> String {
        let answer = self.post("/api/guest", None, "");
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        json_field(&answer, "token")
    }

    /// Asserts that `/healthz` answers quickly, again and again, for `how_long`.
    fn assert_responsive(&self, how_long: Duration, what: &str) {
        let until = Instant::now() + how_long;
        let addr = &self.addr;
        while Instant::now() < until {
            let started = Instant::now();
            let answer = self.request(
                &format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
                Duration::from_secs(5),
            );
            assert!(
                answer
                    .as_deref()
                    .is_some_and(|a| a.starts_with("HTTP/1.1 200")),
                "{what}: /healthz did not answer within 5 s (after {:?}): {answer:?}",
                started.elapsed()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

/// The string value of `"key":"…"` in an HTTP answer, or the number of `"key":N`.
fn json_field(answer: &str, key: &str) -> String {
    let pat = format!("\"{key}\":");
    let rest = answer
        .split(&pat)
        .nth(1)
        .unwrap_or_else(|| panic!("no {key} in {answer}"));
    if let Some(s) = rest.strip_prefix('"') {
        s.split('"').next().unwrap_or("").to_string()
    } else {
        rest.chars().take_while(|c| c.is_ascii_digit()).collect()
    }
}

fn wait_for(served: &Served, needle: &str, within: Duration) {
    let until = Instant::now() + within;
    while !served.logged(needle) {
        assert!(
            Instant::now() < until,
            "the server never logged {needle:?}: {:?}",
            served.log.lock().expect("log")
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn two_guests_whose_one_second_clocks_run_out_do_not_freeze_the_server() {
    let served = Served::start(&[]);
    let host = served.guest();
    let other = served.guest();
    let created = served.post(
        "/api/tables",
        Some(&host),
        r#"{"game":"ghost-at-home","players":2,"clock":{"kind":"real_time","per_move_seconds":1,"reserve_seconds":0}}"#,
    );
    assert!(created.starts_with("HTTP/1.1 201"), "{created}");
    let table = json_field(&created, "id");
    let sat = served.post(&format!("/api/tables/{table}/sit"), Some(&other), "{}");
    assert!(sat.starts_with("HTTP/1.1 200"), "{sat}");
    let started = served.post(&format!("/api/tables/{table}/start"), Some(&host), "");
    assert!(started.starts_with("HTTP/1.1 200"), "{started}");
    // Nobody moves: the clock runs out, a worker thread logs it, a bot takes the seat.
    wait_for(&served, "out of time", Duration::from_secs(20));
    served.assert_responsive(Duration::from_secs(4), "after a clock ran out");
    let third = served.post("/api/guest", None, "");
    assert!(third.starts_with("HTTP/1.1 200"), "{third}");
}

#[test]
fn websocket_clients_that_never_read_do_not_freeze_the_server() {
    // Many tables set up quickly from one address: above the default request limits.
    let served = Served::start(&[
        "--rate-per-account",
        "1000/5000",
        "--rate-per-ip",
        "1000/5000",
        "--rate-auth-per-ip",
        "100/100",
    ]);
    // Tables that bots play as fast as they can, five games each; a guest may hold
    // only three tables not yet started, so fourteen hosts set them up.
    let mut tables = Vec::new();
    for _ in 0..14 {
        let host = served.guest();
        for _ in 0..3 {
            let created = served.post(
                "/api/tables",
                Some(&host),
                r#"{"game":"secret-moon","players":5,"sit":false,"options":{"games":5}}"#,
            );
            assert!(created.starts_with("HTTP/1.1 201"), "{created}");
            tables.push((host.clone(), json_field(&created, "id")));
        }
    }
    // Two clients of a spectator subscribe to every table and never read a byte.
    let spectator = served.guest();
    let mut sockets = Vec::new();
    for _ in 0..2 {
        let url = format!("ws://{}/ws?token={spectator}", served.addr);
        let (mut socket, _) = tungstenite::connect(url).expect("websocket");
        for (_, table) in &tables {
            socket
                .send(tungstenite::Message::text(format!(
                    r#"{{"type":"subscribe","table":{table}}}"#
                )))
                .expect("subscribe");
        }
        sockets.push(socket);
    }
    std::thread::sleep(Duration::from_millis(300));
    for (host, table) in &tables {
        let filled = served.post(&format!("/api/tables/{table}/bots"), Some(host), "{}");
        assert!(filled.starts_with("HTTP/1.1 200"), "{filled}");
        let started = served.post(&format!("/api/tables/{table}/start"), Some(host), "");
        assert!(started.starts_with("HTTP/1.1 200"), "{started}");
    }
    wait_for(&served, "fell behind", Duration::from_secs(60));
    served.assert_responsive(Duration::from_secs(4), "after clients fell behind");
    drop(sockets);
}

//! `takuge serve` as a user starts it, driven over loopback: the harness the tests of
//! the real binary share.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

pub struct Served {
    pub child: Child,
    pub addr: String,
    pub log: Arc<Mutex<Vec<String>>>,
    pub dir: PathBuf,
    /// Made by [`Served::start`], so removed with it.
    owns_dir: bool,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if self.owns_dir {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

impl Served {
    /// `takuge serve` as a user starts it, in a fresh directory (so a fresh
    /// `takuge.db`): default log level, log on stdout, read by us.
    pub fn start(extra: &[&str]) -> Served {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!("takuge-log-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let mut served = Served::start_in(dir, extra);
        served.owns_dir = true;
        served
    }

    /// `takuge serve` in `dir` (its `takuge.db` kept from an earlier server); the
    /// directory is left in place.
    pub fn start_in(dir: PathBuf, extra: &[&str]) -> Served {
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
            owns_dir: false,
        }
    }

    /// Sends SIGTERM, as a supervisor stopping the service does, and waits for the
    /// process to exit: how long it took and how it ended, or `None` if it was still
    /// running after `within`.
    pub fn terminate(&mut self, within: Duration) -> Option<(Duration, std::process::ExitStatus)> {
        let started = Instant::now();
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "SIGTERM was not delivered");
        while started.elapsed() < within {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some((started.elapsed(), status));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    pub fn logged(&self, needle: &str) -> bool {
        self.log
            .lock()
            .expect("log")
            .iter()
            .any(|l| l.contains(needle))
    }

    /// One HTTP request; `None` when the server does not answer within `within`.
    pub fn request(&self, req: &str, within: Duration) -> Option<String> {
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

    pub fn post(&self, path: &str, token: Option<&str>, body: &str) -> String {
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

    pub fn guest(&self) -> String {
        let answer = self.post("/api/guest", None, "");
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        json_field(&answer, "token")
    }

    /// Tables of five-game Secret Moon matches for bots to play as fast as they can
    /// (no bot delay), not yet filled or started, three for each of `hosts` guests (a
    /// guest may hold only three tables not yet started): (host's token, table id).
    pub fn bot_tables(&self, hosts: usize) -> Vec<(String, String)> {
        let mut tables = Vec::new();
        for _ in 0..hosts {
            let host = self.guest();
            for _ in 0..3 {
                let created = self.post(
                    "/api/tables",
                    Some(&host),
                    r#"{"game":"secret-moon","players":5,"sit":false,"options":{"games":5}}"#,
                );
                assert!(created.starts_with("HTTP/1.1 201"), "{created}");
                tables.push((host.clone(), json_field(&created, "id")));
            }
        }
        tables
    }

    /// Fills every empty seat of each table with bots (`bot`: a bot or level; `None`: the
    /// game's default) and starts it, as its host.
    pub fn fill_with_bots_and_start(&self, tables: &[(String, String)], bot: Option<&str>) {
        let body = match bot {
            Some(bot) => format!(r#"{{"bot":"{bot}"}}"#),
            None => "{}".to_string(),
        };
        for (host, table) in tables {
            let filled = self.post(&format!("/api/tables/{table}/bots"), Some(host), &body);
            assert!(filled.starts_with("HTTP/1.1 200"), "{filled}");
            let started = self.post(&format!("/api/tables/{table}/start"), Some(host), "");
            assert!(started.starts_with("HTTP/1.1 200"), "{started}");
        }
    }

    /// Asserts that `/healthz` answers quickly, again and again, for `how_long`.
    pub fn assert_responsive(&self, how_long: Duration, what: &str) {
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
pub fn json_field(answer: &str, key: &str) -> String {
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

pub fn wait_for(served: &Served, needle: &str, within: Duration) {
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

//! Nodes of a cluster on loopback: `takuge serve` processes of this very binary on one
//! PostgreSQL, each with its own port, name and log file, for `takuge loadtest --nodes`
//! and the chaos test (`tests/cluster_chaos.rs`), which also kills, pauses and restarts
//! them by signal.

use std::fs::File;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Limits raised for a load run: every client comes from loopback.
pub const LOAD_LIMITS: [&str; 12] = [
    "--rate-per-ip",
    "1000000/1000000",
    "--rate-per-account",
    "1000000/1000000",
    "--rate-auth-per-ip",
    "1000000/1000000",
    "--max-connections-per-ip",
    "1000000",
    "--subscriptions-per-ip",
    "1000000",
    "--websockets-per-account",
    "64",
];

/// One `takuge serve` of a cluster on loopback.
pub struct LocalNode {
    pub name: String,
    pub port: u16,
    args: Vec<String>,
    log: PathBuf,
    child: Option<Child>,
}

impl LocalNode {
    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// The node's log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Starts the process (again, after it ended: same name, port and flags) and waits
    /// until it answers `/healthz`.
    pub fn spawn(&mut self, bin: &Path) -> Result<(), String> {
        let log = File::options()
            .create(true)
            .append(true)
            .open(&self.log)
            .map_err(|e| format!("{}: {e}", self.log.display()))?;
        let err = log.try_clone().map_err(|e| e.to_string())?;
        let child = Command::new(bin)
            .args(&self.args)
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        self.child = Some(child);
        self.wait_healthy(Duration::from_secs(60))
    }

    fn wait_healthy(&mut self, within: Duration) -> Result<(), String> {
        let until = Instant::now() + within;
        loop {
            if get(self.port, "/healthz").is_some_and(|a| a.starts_with("HTTP/1.1 200")) {
                return Ok(());
            }
            if let Some(child) = &mut self.child {
                if let Ok(Some(status)) = child.try_wait() {
                    return Err(format!(
                        "node {} exited at start ({status}); its log:\n{}",
                        self.name,
                        self.log()
                    ));
                }
            }
            if Instant::now() >= until {
                return Err(format!(
                    "node {} did not answer within {within:?}",
                    self.name
                ));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Sends `signal` (`KILL`, `TERM`, `STOP`, `CONT`) to the process.
    pub fn signal(&self, signal: &str) -> Result<(), String> {
        let pid = self.pid().ok_or("the node is not running")?;
        let ok = Command::new("kill")
            .args([&format!("-{signal}"), &pid.to_string()])
            .status()
            .map_err(|e| e.to_string())?
            .success();
        ok.then_some(())
            .ok_or_else(|| format!("kill -{signal} {pid} failed"))
    }

    /// Waits for the process to end (after a signal that ends it), at most `within`:
    /// how long it took.
    pub fn wait_exit(&mut self, within: Duration) -> Result<Duration, String> {
        let started = Instant::now();
        let Some(child) = &mut self.child else {
            return Ok(Duration::ZERO);
        };
        while started.elapsed() < within {
            if let Ok(Some(_)) = child.try_wait() {
                self.child = None;
                return Ok(started.elapsed());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Err(format!("node {} still runs after {within:?}", self.name))
    }

    /// SIGTERM (as `systemctl stop`), then SIGKILL if it is still running after 15 s.
    pub fn stop(&mut self) {
        if self.child.is_none() {
            return;
        }
        let _ = self.signal("CONT");
        if self.signal("TERM").is_err() || self.wait_exit(Duration::from_secs(15)).is_err() {
            if let Some(mut child) = self.child.take() {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }
}

impl Drop for LocalNode {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `n` nodes on `database_url` (PostgreSQL), named `node1`…, with `extra` flags.
pub struct LocalCluster {
    pub nodes: Vec<LocalNode>,
    bin: PathBuf,
    /// The nodes' logs (removed with the cluster).
    pub dir: tempfile::TempDir,
}

impl LocalCluster {
    /// Starts `n` nodes of `bin` (this binary when `None`) and waits until each answers.
    pub fn start(
        bin: Option<PathBuf>,
        n: usize,
        database_url: &str,
        extra: &[&str],
    ) -> Result<LocalCluster, String> {
        let bin = match bin {
            Some(b) => b,
            None => std::env::current_exe().map_err(|e| e.to_string())?,
        };
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let secret = format!(
            "local-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0)
        );
        let mut cluster = LocalCluster {
            nodes: Vec::new(),
            bin,
            dir,
        };
        for i in 1..=n {
            let port = free_port()?;
            let name = format!("node{i}");
            let mut args: Vec<String> = [
                "serve",
                "--bind",
                &format!("127.0.0.1:{port}"),
                "--database-url",
                database_url,
                "--node-name",
                &name,
                "--advertise",
                &format!("http://127.0.0.1:{port}"),
                "--cluster-secret",
                &secret,
            ]
            .iter()
            .map(|s| s.to_string())
            .collect();
            args.extend(extra.iter().map(|s| s.to_string()));
            let log = cluster.dir.path().join(format!("{name}.log"));
            cluster.nodes.push(LocalNode {
                name,
                port,
                args,
                log,
                child: None,
            });
        }
        for i in 0..n {
            cluster.spawn(i)?;
        }
        Ok(cluster)
    }

    /// (Re)starts node `i`.
    pub fn spawn(&mut self, i: usize) -> Result<(), String> {
        let bin = self.bin.clone();
        let node = self.nodes.get_mut(i).ok_or("no such node")?;
        node.spawn(&bin)
    }

    pub fn urls(&self) -> Vec<String> {
        self.nodes.iter().map(LocalNode::url).collect()
    }
}

/// A port free on loopback now.
fn free_port() -> Result<u16, String> {
    let l = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    Ok(l.local_addr().map_err(|e| e.to_string())?.port())
}

/// A GET on loopback: the raw answer, or `None` when there is none within 2 s.
pub fn get(port: u16, path: &str) -> Option<String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(2))).ok()?;
    s.set_write_timeout(Some(Duration::from_secs(2))).ok()?;
    let req = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).ok()?;
    let mut out = String::new();
    s.read_to_string(&mut out).ok()?;
    Some(out)
}

//! Two `takuge serve` nodes on one PostgreSQL (issue 19): the node that owns a table
//! is paused (SIGSTOP) past its lease, the other takes the table (only once the lease
//! ran out: a paused node keeps its database sessions), and once the first runs again
//! (SIGCONT) the database refuses its writes: fencing, seen from outside. A node
//! killed (SIGKILL) loses its sessions with its process, and the other takes its
//! table at once, before the lease runs out.
//! A node without `--node-name` and named nodes refuse to run on one database
//! together, whichever starts second.
//! Needs `TAKUGE_TEST_POSTGRES_URL` (scripts/test starts a PostgreSQL); skipped
//! without it, except in CI.

mod common;

use common::{json_field, Served};
use std::process::Command;
use std::time::{Duration, Instant};

/// `sql`'s answer from `psql` (unaligned, tuples only), trimmed.
fn psql(url: &str, sql: &str) -> String {
    let out = Command::new("psql")
        .args([url, "-v", "ON_ERROR_STOP=1", "-tAc", sql])
        .output()
        .expect("psql runs");
    assert!(
        out.status.success(),
        "{sql}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A fresh database on the test PostgreSQL, named after `test`; its URL.
fn fresh_database(test: &str) -> Option<String> {
    let Ok(admin) = std::env::var("TAKUGE_TEST_POSTGRES_URL") else {
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false");
        assert!(
            !ci,
            "TAKUGE_TEST_POSTGRES_URL is unset: in CI this test must run"
        );
        eprintln!("skipped: TAKUGE_TEST_POSTGRES_URL is unset (scripts/test sets it)");
        return None;
    };
    let name = format!("takuge_nodes_{test}_{}", std::process::id());
    psql(&admin, &format!("DROP DATABASE IF EXISTS {name}"));
    psql(&admin, &format!("CREATE DATABASE {name}"));
    let (base, _) = admin.rsplit_once('/').expect("a database in the URL");
    Some(format!("{base}/{name}"))
}

fn node(dir: &std::path::Path, url: &str, name: &str) -> Served {
    let advertise = format!("http://{name}.invalid");
    Served::start_in(
        dir.to_path_buf(),
        &[
            "--database-url",
            url,
            "--node-name",
            name,
            "--advertise",
            &advertise,
            "--cluster-secret",
            "s3cret",
        ],
    )
}

fn signal(served: &Served, sig: &str) {
    let sent = Command::new("kill")
        .args([sig, &served.child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "{sig} was not delivered");
}

/// A started table of `a`'s (the host in seat 0, bots in the rest, waiting on the
/// host): the host's session and the table's id.
fn table_on(a: &Served) -> (String, String) {
    let host = a.guest();
    let created = a.post(
        "/api/tables",
        Some(&host),
        r#"{"game":"secret-moon","players":3}"#,
    );
    assert!(created.starts_with("HTTP/1.1 201"), "{created}");
    let table = json_field(&created, "id");
    a.fill_with_bots_and_start(&[(host.clone(), table.clone())], None);
    (host, table)
}

/// Who holds `table`'s lease, and under which epoch: "a 1".
fn owner(url: &str, table: &str) -> String {
    psql(
        url,
        &format!("SELECT node || ' ' || epoch FROM table_leases WHERE table_id = {table}"),
    )
}

/// Waits (up to 20 s) until `owner(url, table)` is `wanted`; how long it took.
fn wait_for_owner(url: &str, table: &str, wanted: &str) -> Duration {
    let since = Instant::now();
    while owner(url, table) != wanted {
        assert!(
            since.elapsed() < Duration::from_secs(20),
            "the table did not go to {wanted}: {}",
            owner(url, table)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    since.elapsed()
}

/// Whether `node`'s claim of `table` came before the lease it replaced ran out
/// (`expiry_ms`, the database's clock in milliseconds since 1970).
fn claimed_before(url: &str, table: &str, node: &str, expiry_ms: &str) -> bool {
    psql(
        url,
        &format!(
            "SELECT (extract(epoch FROM claimed_at) * 1000)::bigint < {expiry_ms}
             FROM lease_claims WHERE table_id = {table} AND node = '{node}'"
        ),
    ) == "t"
}

/// `table`'s lease expiry, in milliseconds since 1970 (the database's clock).
fn lease_expiry_ms(url: &str, table: &str) -> String {
    psql(
        url,
        &format!(
            "SELECT (extract(epoch FROM expires_at) * 1000)::bigint FROM table_leases WHERE table_id = {table}"
        ),
    )
}

fn drop_database(url: &str) {
    let admin = std::env::var("TAKUGE_TEST_POSTGRES_URL").unwrap_or_default();
    let name = url.rsplit('/').next().unwrap_or_default().to_string();
    psql(
        &admin,
        &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
    );
}

/// "When a node dies (SIGKILL), another node claims its tables within 15 s": the
/// killed process's sessions end with it, freeing its presence lock, and the other
/// node claims the table then, not once the lease runs out.
#[test]
fn a_killed_owners_table_is_claimed_before_its_lease_runs_out() {
    let Some(url) = fresh_database("killed") else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let a = node(dir.path(), &url, "a");
    let b = node(dir.path(), &url, "b");
    let (_host, table) = table_on(&a);
    assert_eq!(owner(&url, &table), "a 1");
    signal(&a, "-KILL");
    // A renewal in flight at the kill may still land: read the expiry once it did.
    std::thread::sleep(Duration::from_millis(300));
    let expiry = lease_expiry_ms(&url, &table);
    let took = wait_for_owner(&url, &table, "b 2");
    eprintln!("b took the table {took:?} after the kill");
    assert!(
        claimed_before(&url, &table, "b", &expiry),
        "b waited for a's lease to run out"
    );
    drop(a);
    drop(b);
    drop_database(&url);
}

#[test]
fn a_paused_owner_cannot_write_once_another_node_took_its_table() {
    let Some(url) = fresh_database("paused") else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let a = node(dir.path(), &url, "a");
    let b = node(dir.path(), &url, "b");
    let (host, table) = table_on(&a);
    assert_eq!(owner(&url, &table), "a 1");

    // a stops answering past its lease; b claims the table and restores it, but only
    // once the lease ran out: a paused process keeps its sessions, so its presence
    // lock says it is alive.
    signal(&a, "-STOP");
    std::thread::sleep(Duration::from_millis(300));
    let expiry = lease_expiry_ms(&url, &table);
    let took = wait_for_owner(&url, &table, "b 2");
    eprintln!("b took the table {took:?} after the pause");
    assert!(
        !claimed_before(&url, &table, "b", &expiry),
        "b claimed a paused node's table before its lease ran out"
    );
    // b may play the bots' moves now (under epoch 2); a may write nothing more.
    let actions = format!("SELECT count(*) FROM actions WHERE table_id = {table} AND epoch = 1");
    let before = psql(&url, &actions);

    // a runs again, and its host abandons the table there: refused, nothing written.
    signal(&a, "-CONT");
    let answer = a.post(&format!("/api/tables/{table}/abandon"), Some(&host), "");
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    // a refuses it itself (`table_moved`), or, if it already stopped the table, passes
    // it to b, which this test's nodes cannot reach (`--advertise http://b.invalid`):
    // `unavailable`. Either way nothing is written (below).
    assert!(
        answer.contains("table_moved") || answer.contains("\"unavailable\""),
        "{answer}"
    );
    let status = format!("SELECT status FROM game_tables WHERE id = {table}");
    assert_eq!(psql(&url, &status), "playing");
    assert_eq!(psql(&url, &actions), before);
    assert_eq!(
        psql(
            &url,
            &format!("SELECT count(*) FROM actions WHERE table_id = {table} AND epoch <> 1 AND epoch <> 2")
        ),
        "0"
    );
    // b, which holds the table, writes.
    let answer = b.post(&format!("/api/tables/{table}/abandon"), Some(&host), "");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert_eq!(psql(&url, &status), "abandoned");
    // The history: a held epoch 1, b epoch 2, and nobody else.
    assert_eq!(
        psql(
            &url,
            &format!("SELECT string_agg(epoch || ':' || node, ',' ORDER BY epoch) FROM lease_claims WHERE table_id = {table}")
        ),
        "1:a,2:b"
    );
    drop(a);
    drop(b);
    drop_database(&url);
}

/// `takuge serve` with `extra` in `dir`, which must refuse to start: its exit status
/// and everything it printed.
fn refused_start(dir: &std::path::Path, extra: &[&str]) -> (std::process::ExitStatus, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_takuge"))
        .args(["serve", "--bind", "127.0.0.1:0"])
        .args(extra)
        .current_dir(dir)
        .env_remove("RUST_LOG")
        .env_remove("TAKUGE_DATABASE_URL")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("takuge serve starts");
    let pid = child.id().to_string();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let Ok(out) = rx.recv_timeout(Duration::from_secs(60)) else {
        let _ = Command::new("kill").args(["-KILL", &pid]).status();
        panic!("takuge serve {extra:?} was not refused: it still ran after 60 s");
    };
    let out = out.expect("takuge serve's output");
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status, printed)
}

/// "Do not run a nameless node beside named ones", made impossible: a node started
/// without `--node-name` beside a named one exits at once with the reason, and so
/// does a named node started beside a nameless one; the lock goes with a graceful
/// stop and with a killed process.
#[test]
fn a_node_without_a_name_and_named_nodes_refuse_to_run_together() {
    let Some(url) = fresh_database("kinds") else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let mut a = node(dir.path(), &url, "a");
    let (status, printed) = refused_start(dir.path(), &["--database-url", &url]);
    assert!(!status.success(), "{printed}");
    assert!(
        printed.contains("named nodes (--node-name) run on this database"),
        "{printed}"
    );
    // a stops gracefully: a node without a name may run now.
    a.terminate(Duration::from_secs(20)).expect("a stops");
    let alone = Served::start_in(dir.path().to_path_buf(), &["--database-url", &url]);
    let advertise = "http://b.invalid";
    let named = [
        "--database-url",
        &url,
        "--node-name",
        "b",
        "--advertise",
        advertise,
        "--cluster-secret",
        "s3cret",
    ];
    let (status, printed) = refused_start(dir.path(), &named);
    assert!(!status.success(), "{printed}");
    assert!(
        printed.contains("a node without --node-name runs on this database"),
        "{printed}"
    );
    // Killed, the nameless node's lock goes with its session: b starts.
    signal(&alone, "-KILL");
    let b = node(dir.path(), &url, "b");
    drop(alone);
    drop(b);
    drop_database(&url);
}

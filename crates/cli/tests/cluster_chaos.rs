//! Three `takuge serve` nodes on one PostgreSQL, 200 tables of load clients and bots
//! played through all three, while one node is killed (SIGKILL) and restarted, another
//! paused past its lease (SIGSTOP for 13 s, then SIGCONT) and a third restarted
//! gracefully (SIGTERM) — issue 19, "Tested for real". Then, from the database: every
//! game finished and its record replays to the outcome stored; no acknowledged action
//! is lost; no action was applied twice; and no table was owned by two nodes at once,
//! watched every 250 ms during the run (the lease rows) and checked at the end from
//! history (per table, the epoch of its actions never goes down with the version, and
//! each epoch was claimed by one node).
//!
//! Needs `TAKUGE_TEST_POSTGRES_URL` (scripts/test starts a throwaway PostgreSQL); without
//! it the test says so and passes, except in CI, where that is a failure.

mod chaos;

use chaos::{check_history, fresh_database, LeaseWatch};
use std::time::{Duration, Instant};
use takuge::cluster::{LocalCluster, LOAD_LIMITS};
use takuge_loadtest::LoadConfig;

const POSTGRES_ENV: &str = "TAKUGE_TEST_POSTGRES_URL";

/// What the load plays: four-seat Secret Moon matches of five games (about 38 moves)
/// with three seats of load clients, one per node, and one server bot; slow enough
/// (players think ~0.8 s, the bot 0.5 s) that every table is in play through the
/// whole of the chaos, which takes about 40 s.
fn load(urls: Vec<String>) -> LoadConfig {
    LoadConfig {
        tables: 200,
        seconds: 170.0,
        humans: 3,
        players: 4,
        game: "secret-moon".into(),
        options: serde_json::json!({"games": 5}),
        think_ms: 800,
        games_per_table: Some(1),
        ..LoadConfig::new(urls)
    }
}

#[test]
fn three_nodes_lose_and_double_nothing_through_a_kill_a_pause_and_a_restart() {
    let Ok(admin) = std::env::var(POSTGRES_ENV) else {
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false");
        assert!(!ci, "{POSTGRES_ENV} is unset: in CI the chaos test must run (scripts/test starts a PostgreSQL)");
        eprintln!("skipped: {POSTGRES_ENV} is unset (scripts/test sets it)");
        return;
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let db = rt.block_on(fresh_database(&admin));
    let bin = std::path::PathBuf::from(env!("CARGO_BIN_EXE_takuge"));
    let mut extra = LOAD_LIMITS.to_vec();
    extra.extend(["--bot-delay-ms", "500", "--bot-threads", "1"]);
    let mut cluster = LocalCluster::start(Some(bin), 3, &db, &extra).expect("three nodes start");

    let watch = LeaseWatch::start(&rt, &db, Duration::from_millis(250));
    let started = Instant::now();
    let urls = cluster.urls();
    let handle = rt.handle().clone();
    let load = std::thread::spawn(move || handle.block_on(takuge_loadtest::run(load(urls))));

    // The chaos, one event after another (a node restarted under its name may wait
    // for its old heartbeat to go stale first).
    let mut events = Vec::new();
    let mut note = |what: String| {
        eprintln!("{:>5.1} s: {what}", started.elapsed().as_secs_f64());
        events.push(what);
    };
    std::thread::sleep(Duration::from_secs(12));
    cluster.nodes[0].signal("KILL").expect("SIGKILL node1");
    cluster.nodes[0]
        .wait_exit(Duration::from_secs(5))
        .expect("node1 dies");
    note("SIGKILL node1".into());
    std::thread::sleep(Duration::from_secs(4));
    cluster.spawn(0).expect("node1 starts again");
    note("node1 started again".into());
    cluster.nodes[1].signal("STOP").expect("SIGSTOP node2");
    note("SIGSTOP node2".into());
    std::thread::sleep(Duration::from_secs(13));
    cluster.nodes[1].signal("CONT").expect("SIGCONT node2");
    note("SIGCONT node2 (13 s stopped, past its 10 s lease)".into());
    std::thread::sleep(Duration::from_secs(5));
    cluster.nodes[2].signal("TERM").expect("SIGTERM node3");
    let took = cluster.nodes[2].wait_exit(Duration::from_secs(20));
    note(format!("SIGTERM node3: exited after {took:?}"));
    cluster.spawn(2).expect("node3 starts again");
    note("node3 started again".into());

    let report = load
        .join()
        .expect("the load thread")
        .expect("the load runs");
    let elapsed = started.elapsed();
    eprintln!("{report}");
    let mut violations = rt.block_on(watch.stop());
    let history = rt.block_on(check_history(&db, &report.acknowledged, cluster.urls()));
    eprintln!("{}", history.summary);
    violations.extend(history.violations);
    if report.acknowledged.tables.len() < 200 {
        violations.push(format!(
            "only {} of 200 tables were set up and started",
            report.acknowledged.tables.len()
        ));
    }
    if !violations.is_empty() {
        for node in &cluster.nodes {
            let log = node.log();
            let tail: Vec<&str> = log.lines().rev().take(15).collect();
            eprintln!(
                "--- {} (last lines, newest first):\n{}",
                node.name,
                tail.join("\n")
            );
        }
    }
    drop(cluster);
    rt.block_on(chaos::drop_database(&admin, &db));
    assert!(
        violations.is_empty(),
        "{} violations in {elapsed:?} (events: {events:?}):\n{}",
        violations.len(),
        violations
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

//! A node without a name beside named ones (issue 19, docs/ARCHITECTURE.md "Several
//! nodes"): a nameless PostgreSQL node serves every table with no lease while named
//! nodes own theirs through leases, so the two together could run one table twice.
//! PostgreSQL keeps them apart: a nameless node holds one advisory lock exclusively,
//! every named node holds it shared, each on a session of its own for its whole life.
//! SQLite takes no such lock (its file is one process's): the suite's two-server tests
//! on SQLite (`shelf_memory.rs`) still run two nameless servers side by side.

use crate::cluster::started_table;
use crate::common::*;
use serde_json::Value;
use sqlx::Row;
use std::time::Duration;
use takuge_server::Server;

/// The backend holding `(classid, objid)`'s advisory lock with two int keys (the
/// nodes' kind lock), and its mode.
async fn kind_lock_holders(db: &sqlx::AnyPool) -> Vec<(i32, String)> {
    sqlx::query(
        "SELECT pid, mode FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
         ORDER BY pid",
    )
    .fetch_all(db)
    .await
    .expect("read locks")
    .iter()
    .map(|r| (r.get(0), r.get(1)))
    .collect()
}

/// "Do not run a nameless node beside named ones": a node started without
/// `--node-name` on a database where named nodes run is refused, saying so, and the
/// named node serves on; once the named nodes have stopped it starts.
#[tokio::test]
async fn a_node_without_a_name_is_refused_while_named_nodes_run() {
    let Some(env) = Env::new(Backend::Postgres).await else {
        return;
    };
    let a = node(&env, "a").await;
    let host = Client::guest(a.addr).await;
    let id = started_table(&host).await;
    let refused = match Server::start(config(env.url.clone())).await {
        Ok(_) => panic!("a nameless node started beside node a"),
        Err(e) => e,
    };
    assert!(
        refused.contains("named nodes (--node-name) run on this database"),
        "{refused}"
    );
    let (s, info): (u16, Value) = host.get(&format!("/api/tables/{id}")).await;
    assert_eq!(s, 200, "a serves on: {info}");
    a.shutdown().await;
    // a's lock went with its graceful stop: a node without a name may run now.
    let alone = env.start().await;
    let (s, info): (u16, Value) = host
        .with_base(alone.addr)
        .get(&format!("/api/tables/{id}"))
        .await;
    assert_eq!(s, 200, "{info}");
    alone.shutdown().await;
}

/// The same the other way: a named node started while a node without a name runs is
/// refused; once that node has died (its session and its lock with it), a named node
/// starts at once.
#[tokio::test]
async fn a_named_node_is_refused_while_a_node_without_a_name_runs() {
    let Some(env) = Env::new(Backend::Postgres).await else {
        return;
    };
    let alone = env.start().await;
    let db = db_pool(&env).await;
    assert_eq!(
        kind_lock_holders(&db)
            .await
            .iter()
            .map(|h| h.1.as_str())
            .collect::<Vec<_>>(),
        vec!["ExclusiveLock"],
        "the nameless node holds the lock alone"
    );
    let refused = match Server::start(node_config(&env, "a")).await {
        Ok(_) => panic!("a named node started beside a nameless one"),
        Err(e) => e,
    };
    assert!(
        refused.contains("a node without --node-name runs on this database"),
        "{refused}"
    );
    let registered: i64 = sqlx::query("SELECT count(*) FROM nodes")
        .fetch_one(&db)
        .await
        .expect("count nodes")
        .get(0);
    assert_eq!(registered, 0, "the refused node left no row");
    alone.kill().await;
    let a = node(&env, "a").await;
    let b = node(&env, "b").await;
    let modes: Vec<String> = kind_lock_holders(&db)
        .await
        .into_iter()
        .map(|h| h.1)
        .collect();
    assert_eq!(
        modes,
        vec!["ShareLock", "ShareLock"],
        "each named node holds it shared"
    );
    a.shutdown().await;
    b.shutdown().await;
}

/// A named node's presence session can drop while its process runs on (a database
/// restart, a proxy); it then takes its locks back at its next heartbeat. If a node
/// without a name took the lock meanwhile, the named node cannot: it stops serving
/// its tables (they stop here; nothing more is written under its leases), marks
/// itself stopping so that the nameless node goes ahead, and is displaced (`serve`
/// stops the process).
#[tokio::test]
async fn a_named_node_that_cannot_take_its_lock_back_from_a_node_without_a_name_stops_serving() {
    let Some(env) = Env::new(Backend::Postgres).await else {
        return;
    };
    let a = node(&env, "a").await;
    let host = Client::guest(a.addr).await;
    let id = started_table(&host).await;
    let db = db_pool(&env).await;
    // a's heartbeat waits while the test holds its presence: its session is cut,
    // and a nameless node starts before a can take its locks back.
    let presence = a
        .cluster()
        .presence()
        .await
        .expect("a named node's presence");
    let holders = kind_lock_holders(&db).await;
    assert_eq!(holders.len(), 1, "{holders:?}");
    sqlx::query("SELECT pg_terminate_backend($1)")
        .bind(holders[0].0)
        .execute(&db)
        .await
        .expect("cut a's session");
    let url = env.url.clone();
    let alone = tokio::spawn(async move { Server::start(config(url)).await });
    let took = eventually(Duration::from_secs(10), || async {
        kind_lock_holders(&db)
            .await
            .iter()
            .any(|h| h.1 == "ExclusiveLock")
    })
    .await;
    assert!(took, "the nameless node did not take the lock");
    // It waits for a, whose heartbeat is fresh: a may be a moment from its lock.
    assert!(!alone.is_finished(), "the nameless node did not wait for a");
    drop(presence);
    let displaced = eventually(Duration::from_secs(10), || async {
        a.cluster().is_displaced()
    })
    .await;
    assert!(displaced, "a did not find the nameless node");
    let alone = tokio::time::timeout(Duration::from_secs(15), alone)
        .await
        .expect("the nameless node starts once a stopped")
        .expect("task")
        .expect("the nameless node starts");
    let (s, _) = host.get(&format!("/api/tables/{id}")).await;
    assert_eq!(s, 503, "a serves the table no more");
    let stopping: bool = sqlx::query("SELECT stopping FROM nodes WHERE name = 'a'")
        .fetch_one(&db)
        .await
        .expect("a's row")
        .get(0);
    assert!(stopping, "a marked itself stopping");
    let (s, info): (u16, Value) = host
        .with_base(alone.addr)
        .get(&format!("/api/tables/{id}"))
        .await;
    assert_eq!(s, 200, "the nameless node serves it: {info}");
    alone.shutdown().await;
    a.shutdown().await;
}

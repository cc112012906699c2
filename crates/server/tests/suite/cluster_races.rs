//! Three races between a node's own paths to a table (issue 19), each once found only
//! by the 3,000-table benchmark and fixed without a test; here each is forced in
//! order. Two orders are forced from outside, with PostgreSQL's own locks (a row a
//! claim must wait for, a table a read must wait for); the third happens between two
//! statements of one node, where only a test hook (`Config::pause_handed`) can hold it.

use crate::cluster::{actions, claims, lease, started_table};
use crate::common::*;
use serde_json::Value;
use sqlx::Row;
use std::sync::atomic::Ordering;
use std::time::Duration;
use takuge_server::cluster::Route;
use takuge_server::store::cluster::OrphanScan;
use takuge_server::store::Store;
use takuge_server::Server;

/// How many sessions of this database wait for a lock now.
async fn waiting_on_locks(db: &sqlx::AnyPool) -> i64 {
    sqlx::query(
        "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE NOT l.granted AND a.datname = current_database()",
    )
    .fetch_one(db)
    .await
    .expect("read locks")
    .get(0)
}

/// A table started on a node without a name, which then stopped: open on the
/// database with no lease at all, as a table created before the nodes were named.
async fn unleased_table(env: &Env) -> (i64, Client) {
    let alone = env.start().await;
    let host = Client::guest(alone.addr).await;
    let id = started_table(&host).await;
    alone.shutdown().await;
    (id, host)
}

/// Plays the host's seat on `node` until the table is `moves` versions further on.
async fn play_on(host: &Client, node: &Server, id: i64, moves: u64) -> u64 {
    let (s, info): (u16, Value) = host
        .with_base(node.addr)
        .get(&format!("/api/tables/{id}"))
        .await;
    assert_eq!(s, 200, "{info}");
    let from = info["version"].as_u64().expect("version");
    let seen = play_seat(host.with_base(node.addr), id, Some(from + moves)).await;
    seen.last()
        .and_then(|m| m["version"].as_u64())
        .expect("the table played on")
}

/// "A table handed over is restored under the epoch its sender wrote; it is not
/// claimed again" (`Hub::take_handed`). Node b is told of a table a handed it, picks
/// it as not running here, and — held there — a request loads it first (claiming it:
/// the lease is b's own). The restore then finds it running and leaves it: the table
/// runs on under the request's epoch, every action committed under it, and no claim
/// follows the request's. (Claiming the handed tables again, as it once did, took a
/// new epoch after the request's and fenced the running table.)
#[tokio::test]
async fn a_handed_table_a_request_loaded_first_runs_on_under_one_epoch() {
    let Some(env) = Env::new(Backend::Postgres).await else {
        return;
    };
    let a = node(&env, "a").await;
    let config = node_config(&env, "b");
    let pause = config.pause_handed.clone();
    let b = Server::start(config).await.expect("b starts");
    let host = Client::guest(a.addr).await;
    let id = started_table(&host).await;
    let db = db_pool(&env).await;
    assert_eq!(lease(&db, id).await, Some(("a".into(), 1)));
    let (arrived, go) = pause.arm();
    a.shutdown().await;
    tokio::time::timeout(Duration::from_secs(10), arrived)
        .await
        .expect("b was told of the handed table")
        .expect("pause");
    assert_eq!(lease(&db, id).await, Some(("b".into(), 2)), "handed to b");
    // The request, while the restore is held: b loads the table under a claim of its own.
    let (s, info): (u16, Value) = host
        .with_base(b.addr)
        .get(&format!("/api/tables/{id}"))
        .await;
    assert_eq!(s, 200, "{info}");
    assert_eq!(lease(&db, id).await, Some(("b".into(), 3)));
    let _ = go.send(());
    // The restore has its say at once; a claim after the request's would be here well
    // within this.
    let claimed_again = eventually(Duration::from_secs(2), || async {
        claims(&db, id).await.len() > 3
    })
    .await;
    assert!(!claimed_again, "claims: {:?}", claims(&db, id).await);
    let version = play_on(&host, &b, id, 4).await;
    assert_eq!(
        claims(&db, id).await,
        vec![(1, "a".into()), (2, "b".into()), (3, "b".into())]
    );
    let committed = actions(&db, id).await;
    // Every version the host saw is committed (the bots may have played on since).
    assert!(
        committed.last().map(|a| a.0) >= Some(version as i64),
        "every action committed: {committed:?}"
    );
    assert!(
        committed.iter().all(|a| matches!(a.1, Some(1) | Some(3))),
        "a's actions under epoch 1, b's all under 3: {committed:?}"
    );
    assert_eq!(b.metrics().fenced_writes.load(Ordering::Relaxed), 0);
    assert_eq!(b.cluster().route(id).await.expect("route"), Route::Here);
    b.shutdown().await;
}

/// "A failover scan never claims again an unexpired lease of this node's own"
/// (`CLAIM_ORPHANS`): a scan that found a table nobody held, while a request on the
/// same node was claiming it, meets the request's claim — and leaves it. Forced with
/// PostgreSQL's locks: the request's claim is held (a claim row of the epoch it is
/// about to take is being written by the test), the scan starts, finds the table
/// without a lease and waits on the request's row, then the request goes on first.
/// (The scan once took a lease of its own node whatever its expiry, bumped the epoch
/// and fenced the table the request had just loaded.)
#[tokio::test]
async fn a_failover_scan_leaves_the_epoch_of_a_table_this_node_runs_alone() {
    let Some(env) = Env::new(Backend::Postgres).await else {
        return;
    };
    let (id, host) = unleased_table(&env).await;
    // A table created less than a lease ago is left to its creator by b's own scans.
    let b = node(&env, "b").await;
    let db = db_pool(&env).await;
    assert_eq!(lease(&db, id).await, None, "nobody holds the table yet");
    let mut blocker = db.begin().await.expect("begin");
    sqlx::query("INSERT INTO lease_claims (table_id, epoch, node, claimed_at) VALUES ($1, 1, 'test', clock_timestamp())")
        .bind(id)
        .execute(&mut *blocker)
        .await
        .expect("hold the claim row of epoch 1");
    let request = {
        let host = host.with_base(b.addr);
        tokio::spawn(async move { host.get(&format!("/api/tables/{id}")).await })
    };
    assert!(
        eventually(Duration::from_secs(10), || async {
            waiting_on_locks(&db).await >= 1
        })
        .await,
        "b's claim did not wait on the test's row"
    );
    let store = Store::connect(&env.url).await.expect("store");
    let scan = tokio::spawn(async move {
        store
            .claim_orphans(OrphanScan {
                node: "b",
                // The scan began before the request's table ran: it is not among them.
                running: &[],
                created_before: i64::MAX,
                lease_ms: 10_000,
                limit: 5000,
                mine_too: false,
            })
            .await
    });
    assert!(
        eventually(Duration::from_secs(10), || async {
            waiting_on_locks(&db).await >= 2
        })
        .await,
        "the scan did not wait on the request's claim"
    );
    blocker
        .rollback()
        .await
        .expect("let the request's claim go");
    let (s, info) = request.await.expect("request");
    assert_eq!(s, 200, "{info}");
    let scanned = scan.await.expect("scan").expect("the scan ran");
    assert_eq!(scanned, vec![], "the scan claimed b's own table");
    assert_eq!(lease(&db, id).await, Some(("b".into(), 1)));
    let version = play_on(&host, &b, id, 4).await;
    assert_eq!(claims(&db, id).await, vec![(1, "b".into())]);
    let committed = actions(&db, id).await;
    assert!(
        committed.last().map(|a| a.0) >= Some(version as i64),
        "{committed:?}"
    );
    assert!(
        committed
            .iter()
            .filter(|a| a.1.is_some())
            .all(|a| a.1 == Some(1)),
        "{committed:?}"
    );
    assert_eq!(b.metrics().fenced_writes.load(Ordering::Relaxed), 0);
    b.shutdown().await;
}

/// "A table a request loads is held from its claim on": its lease is renewed by the
/// heartbeat while its rows are read, however long that takes. Forced with
/// PostgreSQL's locks: the test holds the `actions` table locked, so b's read of the
/// table it has just claimed waits, past a lease; node a, scanning every two seconds,
/// never finds the lease expired, and once the read goes on b runs the table under
/// its claim. (The lease was once renewed only once the table ran: a slow read let it
/// expire, a claimed it, and the table b then started was stopped.)
#[tokio::test]
async fn a_table_a_request_is_loading_keeps_its_lease_while_its_read_is_held_past_a_lease() {
    let Some(env) = Env::new(Backend::Postgres).await else {
        return;
    };
    let (id, host) = unleased_table(&env).await;
    let a = node(&env, "a").await;
    let mut config = node_config(&env, "b");
    // The request waits longer than the server's usual 10 s for its table.
    config.request_timeout = Duration::from_secs(60);
    let b = Server::start(config).await.expect("b starts");
    let db = db_pool(&env).await;
    let mut blocker = db.begin().await.expect("begin");
    sqlx::query("LOCK TABLE actions IN ACCESS EXCLUSIVE MODE")
        .execute(&mut *blocker)
        .await
        .expect("hold the actions");
    let request = {
        let host = host.with_base(b.addr);
        tokio::spawn(async move { host.get(&format!("/api/tables/{id}")).await })
    };
    assert!(
        eventually(Duration::from_secs(10), || async {
            lease(&db, id).await.is_some() && waiting_on_locks(&db).await >= 1
        })
        .await,
        "b did not claim the table and wait to read it"
    );
    assert_eq!(lease(&db, id).await, Some(("b".into(), 1)));
    // Past a lease (10 s) and two of a's scans (every 2 s).
    let taken = eventually(Duration::from_secs(15), || async {
        claims(&db, id).await.iter().any(|c| c.1 != "b")
    })
    .await;
    assert!(
        !taken,
        "a claimed the table b was loading: {:?}",
        claims(&db, id).await
    );
    blocker.commit().await.expect("let the read go");
    let (s, info) = request.await.expect("request");
    assert_eq!(s, 200, "{info}");
    assert_eq!(claims(&db, id).await, vec![(1, "b".into())]);
    assert_eq!(b.cluster().route(id).await.expect("route"), Route::Here);
    let version = play_on(&host, &b, id, 2).await;
    assert!(actions(&db, id).await.last().map(|a| a.0) >= Some(version as i64));
    assert_eq!(b.metrics().fenced_writes.load(Ordering::Relaxed), 0);
    a.shutdown().await;
    b.shutdown().await;
}

/// "A load cancelled with its request lets go of its table" (`hub::Restoring`): node
/// b claims a table for a request and waits to read it (the test holds `actions`
/// locked, as above); the request times out, and the load is dropped with it. b must
/// stop renewing the lease of a table it does not run: the lease runs out and the
/// table is claimed again (by whichever node scans first) under a new epoch. (The
/// claim's entry once stayed when its load was cancelled, and the heartbeat renewed
/// the lease for good: nobody ran the table and nobody could take it.)
#[tokio::test]
async fn a_load_cancelled_with_its_request_lets_its_lease_run_out() {
    let Some(env) = Env::new(Backend::Postgres).await else {
        return;
    };
    let (id, host) = unleased_table(&env).await;
    let a = node(&env, "a").await;
    let mut config = node_config(&env, "b");
    config.request_timeout = Duration::from_secs(2);
    let b = Server::start(config).await.expect("b starts");
    let db = db_pool(&env).await;
    let mut blocker = db.begin().await.expect("begin");
    sqlx::query("LOCK TABLE actions IN ACCESS EXCLUSIVE MODE")
        .execute(&mut *blocker)
        .await
        .expect("hold the actions");
    let (s, info): (u16, Value) = host
        .with_base(b.addr)
        .get(&format!("/api/tables/{id}"))
        .await;
    assert_eq!(s, 408, "the request was not cut short: {info}");
    assert_eq!(lease(&db, id).await, Some(("b".into(), 1)));
    blocker.commit().await.expect("let the reads go");
    // A lease (10 s) and a scan (every 2 s) later, with room to spare.
    let claimed_again = eventually(Duration::from_secs(25), || async {
        claims(&db, id).await.len() >= 2
    })
    .await;
    assert!(
        claimed_again,
        "b renewed the lease of a table whose load was cancelled: {:?}",
        claims(&db, id).await
    );
    a.shutdown().await;
    b.shutdown().await;
}

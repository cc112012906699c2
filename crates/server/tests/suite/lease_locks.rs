//! The locks on a table's lease row (issue 20, item 4): the heartbeat's renewal of a
//! node's leases must not hold that node's writes (with `FOR SHARE`, each renewal of
//! thousands of leases held every action batch touching one of them, and now and then
//! the two deadlocked, stalling the batch for PostgreSQL's `deadlock_timeout` and then
//! failing it), while a claim (a new epoch) must still fence them: a write under the
//! old epoch waits for the claim, then is refused.

use crate::common::*;
use sqlx::Row;
use std::sync::Arc;
use std::time::Duration;
use takuge_server::metrics::Metrics;
use takuge_server::store::{Store, StoreError};
use takuge_server::writer::{ActionWrite, Committed, Fence, Writer};

/// Long enough for any commit on a loaded test machine; a write still waiting then is
/// held by the lock this test holds, which it never lets go before.
const STUCK: Duration = Duration::from_secs(20);

async fn versions(db: &sqlx::AnyPool, table: i64) -> Vec<i64> {
    sqlx::query("SELECT version FROM actions WHERE table_id = $1 ORDER BY version")
        .bind(table)
        .fetch_all(db)
        .await
        .expect("read actions")
        .iter()
        .map(|r| r.get(0))
        .collect()
}

fn action(table: i64, version: i64) -> ActionWrite {
    ActionWrite {
        table,
        version,
        seat: 0,
        action: "\"x\"".into(),
        client_id: None,
        outcome: None,
        clock_state: None,
        epoch: Some(1),
    }
}

/// Waits until some session waits for a lock (the writer, on the row this test locked).
async fn until_a_lock_is_awaited(db: &sqlx::AnyPool) {
    let deadline = tokio::time::Instant::now() + STUCK;
    loop {
        let waiting: i64 = sqlx::query(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
        )
        .fetch_one(db)
        .await
        .expect("pg_stat_activity")
        .get(0);
        if waiting > 0 {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the write never waited for the claim's lock"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_lease_renewal_under_way_holds_no_write_of_its_table_but_a_claim_fences_them() {
    let Some(env) = Env::new(Backend::Postgres).await else {
        return;
    };
    let a = node(&env, "a").await;
    let host = Client::guest(a.addr).await;
    let table = setup_table(&host, &[], 3, 7).await;
    // Node a's table, under epoch 1; its writes come from this test's writer now.
    a.kill().await;
    let db = db_pool(&env).await;
    let store = Store::connect(&env.url).await.expect("store");
    let (writer, task) = Writer::start(store, Arc::new(Metrics::default()));
    let before = versions(&db, table).await;
    let next = before.len() as i64 + 1;

    // A renewal under way: its transaction holds the row as the heartbeat's statement
    // holds every lease it renews until it commits.
    let mut renewal = db.begin().await.expect("begin");
    sqlx::query("UPDATE table_leases SET expires_at = clock_timestamp() + interval '10 seconds' WHERE table_id = $1")
        .bind(table)
        .execute(&mut *renewal)
        .await
        .expect("renew");
    let batch = tokio::time::timeout(STUCK, writer.commit(action(table, next))).await;
    assert_eq!(
        batch,
        Ok(Ok(Committed::Yes)),
        "an action batch waited for a lease renewal"
    );
    let fence = Fence {
        table,
        epoch: Some(1),
    };
    let seat_write = tokio::time::timeout(
        STUCK,
        writer.execute_fenced(
            fence,
            "UPDATE game_tables SET private = private WHERE id = $1",
            vec![table.into()],
        ),
    )
    .await;
    assert!(
        matches!(seat_write, Ok(Ok(1))),
        "a fenced write waited for a lease renewal: {seat_write:?}"
    );
    renewal.commit().await.expect("renewal commits");
    assert_eq!(versions(&db, table).await.len(), before.len() + 1);

    // A claim under way (node b, epoch 2): the next action waits for it, then is
    // refused and writes nothing; so is any other write under epoch 1.
    let mut claim = db.begin().await.expect("begin");
    sqlx::query("UPDATE table_leases SET node = 'b', epoch = epoch + 1 WHERE table_id = $1")
        .bind(table)
        .execute(&mut *claim)
        .await
        .expect("claim");
    let held = {
        let writer = writer.clone();
        tokio::spawn(async move { writer.commit(action(table, next + 1)).await })
    };
    until_a_lock_is_awaited(&db).await;
    assert!(!held.is_finished(), "the action did not wait for the claim");
    claim.commit().await.expect("claim commits");
    let refused = tokio::time::timeout(STUCK, held).await;
    assert!(
        matches!(refused, Ok(Ok(Ok(Committed::Fenced)))),
        "{refused:?}"
    );
    let stale = writer
        .execute_fenced(
            fence,
            "UPDATE game_tables SET private = private WHERE id = $1",
            vec![table.into()],
        )
        .await;
    assert!(matches!(stale, Err(StoreError::Fenced)), "{stale:?}");
    assert_eq!(versions(&db, table).await.len(), before.len() + 1);
    task.abort();
}

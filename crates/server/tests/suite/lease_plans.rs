//! Several nodes' statements on `table_leases` find their rows by id, never by a scan
//! of every lease ever taken. A finished table's lease row stays (the next claim's
//! epoch must be a new one), so the table only grows: a scan there costs more with
//! every game played, and each of these runs every few seconds on every node or with
//! every batch of actions. Found one by one with `pg_stat_statements` under the
//! 3-node load (docs/PERFORMANCE.md): the batch's fence (2.1 ms a batch), the renewal
//! (63 ms), the failover scan (64 ms, 107 ms at 236,000 leases). The plans are read
//! with the database holding 3,000 live tables, leased by two nodes, and 20,000
//! finished ones whose leases expired.

use crate::common::*;
use serde_json::json;
use sqlx::Row;
use takuge_server::store::{cluster, postgres, Store};

/// A lease statement, the values to plan it with, and what it is.
struct Planned {
    what: &'static str,
    sql: &'static str,
    binds: Vec<Bind>,
}

enum Bind {
    Text(String),
    Int(i64),
    Bool(bool),
}

async fn plan(db: &sqlx::AnyPool, planned: &Planned) -> String {
    let explain = format!("EXPLAIN {}", planned.sql);
    let mut query = sqlx::query(&explain);
    for bind in &planned.binds {
        query = match bind {
            Bind::Text(t) => query.bind(t.clone()),
            Bind::Int(i) => query.bind(*i),
            Bind::Bool(b) => query.bind(*b),
        };
    }
    query
        .fetch_all(db)
        .await
        .unwrap_or_else(|e| panic!("explain {}: {e}", planned.what))
        .iter()
        .map(|r| r.try_get::<String, _>(0).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// 3,000 live tables (odd ids leased by node a, even by b, unexpired) and 20,000
/// finished ones with expired leases; a's live tables.
async fn fill(db: &sqlx::AnyPool) -> Vec<i64> {
    let host: i64 = sqlx::query_scalar(
        "INSERT INTO users (name, display_name, guest, created_at)
         VALUES ('plans', 'plans', 1, 0) RETURNING id",
    )
    .fetch_one(db)
    .await
    .expect("host");
    for sql in [
        "INSERT INTO game_tables (game, options, players, host, private, clock, seed, status,
             created_at, updated_at)
         SELECT 'secret-moon', '{}', 5, $1, 0, '{}', n,
             CASE WHEN n <= 3000 THEN 'playing' ELSE 'finished' END, 0, 0
         FROM generate_series(1, 23000) AS n",
        "INSERT INTO nodes (name, url, instance, started_at, heartbeat_at, live_tables)
         SELECT x, 'http://' || x || '.invalid', x, clock_timestamp(), clock_timestamp(), 1500
         FROM unnest(ARRAY['a', 'b']) AS x WHERE $1 > 0",
        "INSERT INTO table_leases (table_id, node, epoch, expires_at)
         SELECT id, CASE WHEN id % 2 = 1 THEN 'a' ELSE 'b' END, 1,
             CASE WHEN status = 'playing' THEN clock_timestamp() + interval '1 hour'
                  ELSE clock_timestamp() - interval '1 hour' END
         FROM game_tables WHERE $1 > 0",
        "ANALYZE",
    ] {
        let query = sqlx::query(sql);
        let query = if sql.contains("$1") {
            query.bind(host)
        } else {
            query
        };
        query.execute(db).await.expect(sql);
    }
    sqlx::query_scalar(
        "SELECT table_id FROM table_leases WHERE node = 'a' AND expires_at > clock_timestamp()
         ORDER BY table_id",
    )
    .fetch_all(db)
    .await
    .expect("a's tables")
}

/// "A lease row is found by its table's id": no statement a node runs on leases,
/// and not the action batch's fence, is planned as a scan of `table_leases` (or of
/// `game_tables`, `actions`).
#[tokio::test]
async fn every_lease_statement_finds_its_rows_by_id_not_by_a_scan_of_every_lease() {
    let Some(env) = Env::new(Backend::Postgres).await else {
        return;
    };
    Store::connect(&env.url).await.expect("migrated");
    let db = db_pool(&env).await;
    let mine = fill(&db).await;
    assert_eq!(mine.len(), 1500);
    let held = |n: usize| {
        json!(mine
            .iter()
            .take(n)
            .map(|t| json!({ "t": t, "e": 1 }))
            .collect::<Vec<_>>())
        .to_string()
    };
    let ids = json!(mine.iter().take(50).collect::<Vec<_>>()).to_string();
    let batch = json!(mine
        .iter()
        .take(50)
        .map(|t| json!({ "t": t, "v": 1, "s": 0, "a": "\"pass\"", "c": null, "e": 1 }))
        .collect::<Vec<_>>())
    .to_string();
    let text = |s: &str| Bind::Text(s.into());
    let statements = [
        Planned {
            what: "the action batch (its fence)",
            sql: postgres::BATCH,
            binds: vec![Bind::Int(0), Bind::Text(batch)],
        },
        Planned {
            what: "the heartbeat's renewal",
            sql: cluster::RENEW,
            binds: vec![text("a"), Bind::Text(held(1500)), Bind::Int(10_000)],
        },
        Planned {
            what: "the failover scan",
            sql: cluster::CLAIM_ORPHANS,
            binds: vec![
                text("a"),
                Bind::Text(ids.clone()),
                Bind::Int(1),
                Bind::Int(10_000),
                Bind::Int(200),
                Bind::Bool(false),
            ],
        },
        Planned {
            what: "a graceful stop's handover",
            sql: cluster::HAND_OVER,
            binds: vec![
                text("a"),
                Bind::Text(held(100)),
                text("b"),
                Bind::Int(10_000),
            ],
        },
        Planned {
            what: "a lone node's release at its stop",
            sql: cluster::RELEASE,
            binds: vec![text("a"), Bind::Text(held(100))],
        },
        Planned {
            what: "the handed tables' lookup",
            sql: cluster::LEASED_TO,
            binds: vec![Bind::Text(ids), text("a")],
        },
        Planned {
            what: "the look for nodes gone",
            sql: cluster::EXPIRE_GONE,
            binds: vec![Bind::Int(10_000)],
        },
    ];
    for planned in &statements {
        let plan = plan(&db, planned).await;
        for table in ["table_leases", "game_tables", "actions"] {
            assert!(
                !plan.contains(&format!("Seq Scan on {table}")),
                "{} is planned as a scan of all of {table}:\n{plan}",
                planned.what
            );
        }
    }
}

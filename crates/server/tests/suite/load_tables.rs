//! A failover restores a dead node's tables read many at a time
//! (`Store::load_tables`, three statements a batch): each table read so must be the
//! table read alone (`Store::load_table`) — its row, its seats in order, its actions
//! in order — whatever the others in the batch hold, and an id with no table is left
//! out.

use crate::common::*;
use serde_json::json;
use std::time::Duration;
use takuge_server::store::live_tables::LoadedTable;
use takuge_server::store::Store;

/// What a loaded table says, as comparable values: id, game, status, seats
/// (number, name, bot), actions (version, seat, action).
type Summary = (
    i64,
    String,
    String,
    Vec<(i64, String, Option<String>)>,
    Vec<(i64, i64, String)>,
);

fn summary(t: &LoadedTable) -> Summary {
    (
        t.table.id,
        t.table.game.clone(),
        t.table.status.clone(),
        t.seats
            .iter()
            .map(|s| (s.seat, s.name.clone(), s.bot.clone()))
            .collect(),
        t.actions
            .iter()
            .map(|a| (a.version, a.seat, a.action.clone()))
            .collect(),
    )
}

async fn tables_read_together_are_the_tables_read_alone(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let host = Client::guest(server.addr).await;
    // Tables with different numbers of seats and actions: a finished one, two being
    // played, and one open (no seats filled, no actions).
    let finished = setup_table(&host, &[], 3, 11).await;
    play_seat(host.with_base(server.addr), finished, None).await;
    assert!(
        eventually(Duration::from_secs(30), || async {
            host.get(&format!("/api/tables/{finished}")).await.1["status"] == "finished"
        })
        .await,
        "table {finished} never finished"
    );
    let playing = setup_table(&host, &[], 5, 12).await;
    let playing_too = setup_table(&host, &[], 4, 13).await;
    let (s, t) = host
        .post(
            "/api/tables",
            json!({"game": "ghost-for-sale", "players": 3, "sit": false}),
        )
        .await;
    assert_eq!(s, 201, "{t}");
    let open = t["id"].as_i64().expect("id");
    server.shutdown().await;

    let store = Store::connect(&env.url).await.expect("store");
    let missing = open + 1000;
    // Asked out of order, with an id that has no table.
    let asked = [playing_too, missing, finished, open, playing];
    let together = store.load_tables(&asked).await.expect("load together");
    assert_eq!(together.len(), 4, "the missing id is left out");
    for t in &together {
        let alone = store
            .load_table(t.table.id)
            .await
            .expect("load alone")
            .expect("the table is there");
        assert_eq!(summary(t), summary(&alone), "table {}", t.table.id);
    }
    let finished_read = together
        .iter()
        .find(|t| t.table.id == finished)
        .expect("the finished table");
    assert!(!finished_read.actions.is_empty(), "its actions were read");
    assert_eq!(finished_read.seats.len(), 3);
    assert!(store.load_tables(&[]).await.expect("none").is_empty());
    assert!(store
        .load_tables(&[missing])
        .await
        .expect("missing")
        .is_empty());
}

/// "Each must find its rows through the table id's index": loading a table reads its
/// own row, seats and actions, not the whole of each table. Before, PostgreSQL
/// planned the actions' statement as a scan of every action ever played (31 ms a
/// table at 90,000 actions, the most time of any statement under load). The plans
/// are read with the database holding 3,000 finished tables of 30 actions each (the
/// shape of the load test's database where the scan was found).
async fn loading_a_table_reads_its_rows_by_index_not_every_row(backend: Backend) {
    use sqlx::Row;
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let host = Client::guest(server.addr).await;
    let table = setup_table(&host, &[], 5, 21).await;
    server.shutdown().await;
    let store = Store::connect(&env.url).await.expect("store");
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&env.url).await.expect("pool");
    let postgres = store.dialect() == takuge_server::store::Dialect::Postgres;
    if postgres {
        for sql in [
            "INSERT INTO game_tables (game, options, players, host, private, invite_code, clock,
                 seed, status, outcome, created_at, updated_at)
             SELECT game, options, players, host, private, invite_code, clock, seed + n, 'finished',
                 outcome, created_at, updated_at
             FROM game_tables, generate_series(1, 3000) AS n WHERE id = $1",
            "INSERT INTO seats (table_id, seat, user_id, bot, name)
             SELECT g.id, s, NULL, 'random', 'bot' FROM game_tables g, generate_series(0, 4) AS s
             WHERE g.id <> $1",
            "INSERT INTO actions (table_id, version, seat, action, created_at)
             SELECT g.id, v, v % 5, '\"pass\"', 0 FROM game_tables g, generate_series(1, 30) AS v
             WHERE g.id <> $1",
        ] {
            sqlx::query(sql)
                .bind(table)
                .execute(&pool)
                .await
                .expect(sql);
        }
        sqlx::query("ANALYZE")
            .execute(&pool)
            .await
            .expect("analyze");
    }
    let statements = takuge_server::store::live_tables::load_statements(store.dialect());
    for statement in statements {
        let with_ids = statement.replace("$1", &format!("'[{table}, {}]'", table + 7));
        let explain = if postgres {
            format!("EXPLAIN {with_ids}")
        } else {
            format!("EXPLAIN QUERY PLAN {with_ids}")
        };
        let plan: Vec<String> = sqlx::query(&explain)
            .fetch_all(&pool)
            .await
            .expect("explain")
            .iter()
            .map(|r| {
                r.try_get::<String, _>(if postgres { 0 } else { 3 })
                    .unwrap_or_default()
            })
            .collect();
        let plan = plan.join("\n");
        let scans_all = if postgres {
            plan.contains("Seq Scan on game_tables")
                || plan.contains("Seq Scan on seats")
                || plan.contains("Seq Scan on actions")
        } else {
            plan.lines().any(|l| {
                l.starts_with("SCAN game_tables")
                    || l.starts_with("SCAN seats")
                    || l.starts_with("SCAN actions")
            })
        };
        assert!(
            !scans_all,
            "{statement}\nis planned as a scan of the whole table:\n{plan}"
        );
    }
    // And it still reads the right rows.
    let loaded = store.load_table(table).await.expect("load").expect("there");
    assert_eq!(loaded.seats.len(), 5);
}

on_both_databases!(
    tables_read_together_are_the_tables_read_alone,
    loading_a_table_reads_its_rows_by_index_not_every_row,
);

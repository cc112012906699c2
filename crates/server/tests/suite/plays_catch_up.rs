//! At start a server writes the plays that a crash kept from being written
//! (`store::shelf::matches::catch_up`), for tables that finished in the last day. Only a
//! registered person's seat gets a play, so a table of bots and guests has none to
//! write, and a start must not walk it again: each restart of a node under load walked
//! every guest's finished game of the day one by one before it listened (over a minute
//! at 3,000 tables, issue 19's failover measurement).

use crate::common::*;
use serde_json::json;
use std::time::Duration;
use takuge_server::store::{shelf::matches::catch_up, Store};

async fn finished(c: &Client, table: i64) -> bool {
    c.get(&format!("/api/tables/{table}")).await.1["status"] == "finished"
}

async fn a_start_writes_missing_plays_and_skips_tables_no_registered_person_played(
    backend: Backend,
) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let alice = register(server.addr, "alice").await;
    let guest = Client::guest(server.addr).await;
    let mut bots_only = Vec::new();
    for _ in 0..2 {
        let (s, t) = alice
            .post(
                "/api/tables",
                json!({"game": "secret-moon", "players": 3, "sit": false}),
            )
            .await;
        assert_eq!(s, 201, "{t}");
        let id = t["id"].as_i64().expect("id");
        for step in ["bots", "start"] {
            let body = json!({"bot": "random"});
            let (s, b) = alice.post(&format!("/api/tables/{id}/{step}"), body).await;
            assert_eq!(s, 200, "{b}");
        }
        bots_only.push(id);
    }
    let guests = setup_table(&guest, &[], 3, 7).await;
    let alices = setup_table(&alice, &[], 3, 8).await;
    play_seat(guest.with_base(server.addr), guests, None).await;
    play_seat(alice.with_base(server.addr), alices, None).await;
    for t in bots_only.iter().chain([&guests, &alices]) {
        assert!(
            eventually(Duration::from_secs(30), || finished(&alice, *t)).await,
            "table {t} never finished"
        );
    }
    server.shutdown().await;

    // A crash between the last action's commit and the plays' write: alice's play is
    // missing.
    sqlx::any::install_default_drivers();
    let db = sqlx::AnyPool::connect(&env.url).await.expect("open db");
    sqlx::query(
        "DELETE FROM play_players WHERE play_id IN (SELECT id FROM plays WHERE table_id = $1)",
    )
    .bind(alices)
    .execute(&db)
    .await
    .expect("delete the players");
    let removed = sqlx::query("DELETE FROM plays WHERE table_id = $1")
        .bind(alices)
        .execute(&db)
        .await
        .expect("delete the play")
        .rows_affected();
    assert_eq!(removed, 1, "alice's finished match had recorded her play");
    db.close().await;

    let store = Store::connect(&env.url).await.expect("store");
    assert_eq!(
        catch_up(&store).await,
        Ok(1),
        "only alice's table is walked: the bots' and the guest's have no play to write"
    );
    assert_eq!(catch_up(&store).await, Ok(0), "nothing is left to write");

    let server = env.start().await;
    let (s, plays) = alice.with_base(server.addr).get("/api/plays").await;
    assert_eq!(s, 200, "{plays}");
    let tables: Vec<_> = plays["plays"]
        .as_array()
        .expect("plays")
        .iter()
        .map(|p| p["table_id"].clone())
        .collect();
    assert_eq!(tables, vec![json!(alices)], "{plays}");
    server.shutdown().await;
}

on_both_databases!(a_start_writes_missing_plays_and_skips_tables_no_registered_person_played);

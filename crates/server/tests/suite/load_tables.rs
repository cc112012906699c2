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

on_both_databases!(tables_read_together_are_the_tables_read_alone);

//! Rules versions on the server (docs/PROTOCOL.md, "Rules versions"): every table stores
//! the rules version it is played under; a table in play under other rules than the
//! running build's is closed on restore with the reason, and a record keeps the version
//! its match was played under, so no build replays it under other rules.
//!
//! The "other rules" are made by editing the database between two server runs, as an
//! older build would have left it.

use crate::common::*;
use serde_json::{json, Value};
use sqlx::Row;
use std::time::Duration;
use takuge_engine::record::ReplayError;

fn running(game: &str) -> u32 {
    takuge_games::registry()
        .get(game)
        .map(|g| g.rules_version())
        .expect("a catalog game")
}

async fn open_db(env: &Env) -> sqlx::AnyPool {
    sqlx::any::install_default_drivers();
    sqlx::AnyPool::connect(&env.url).await.expect("open db")
}

/// The table's stored rules version and status, read straight from the database.
async fn stored(env: &Env, id: i64) -> (Option<i64>, String, Option<String>) {
    let db = open_db(env).await;
    let row = sqlx::query(
        "SELECT rules_version, status, abandoned_reason FROM game_tables WHERE id = $1",
    )
    .bind(id)
    .fetch_one(&db)
    .await
    .expect("the table's row");
    let out = (row.get(0), row.get(1), row.get(2));
    db.close().await;
    out
}

/// What an older build (or one from before versions were stored) would have left.
async fn store_rules(env: &Env, id: i64, rules: Option<i64>) {
    let db = open_db(env).await;
    sqlx::query("UPDATE game_tables SET rules_version = $1 WHERE id = $2")
        .bind(rules)
        .bind(id)
        .execute(&db)
        .await
        .expect("update");
    db.close().await;
}

/// Creates a table of random bots only (the host does not sit) and starts it.
async fn bots_table(host: &Client, game: &str, players: usize, seed: u64) -> i64 {
    let (s, t) = host
        .post(
            "/api/tables",
            json!({"game": game, "players": players, "seed": seed, "sit": false}),
        )
        .await;
    assert_eq!(s, 201, "{t}");
    let id = t["id"].as_i64().expect("id");
    let (s, b) = host
        .post(&format!("/api/tables/{id}/bots"), json!({"bot": "random"}))
        .await;
    assert_eq!(s, 200, "{b}");
    let (s, b) = host
        .post(&format!("/api/tables/{id}/start"), json!({}))
        .await;
    assert_eq!(s, 200, "{b}");
    id
}

async fn wait_finished(host: &Client, id: i64) -> Value {
    for _ in 0..600 {
        let (s, t) = host.get(&format!("/api/tables/{id}")).await;
        assert_eq!(s, 200, "{t}");
        if t["status"] == "finished" {
            return t;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("table {id} did not finish within 30 s");
}

async fn download(host: &Client, id: i64) -> takuge_engine::MatchRecord {
    let (s, body) = host.get(&format!("/api/tables/{id}/record")).await;
    assert_eq!(s, 200, "{body}");
    serde_json::from_value(body).expect("a match record")
}

async fn a_new_table_stores_the_rules_version_it_is_played_under(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let host = Client::guest(server.addr).await;
    for (game, players) in [("secret-moon", 3), ("ghost-for-sale", 3)] {
        let id = bots_table(&host, game, players, 21).await;
        let version = i64::from(running(game));
        assert_eq!(stored(&env, id).await.0, Some(version), "{game}");
        let table = wait_finished(&host, id).await;
        assert_eq!(table["rules"], version, "{table}");
        let record = download(&host, id).await;
        assert_eq!(i64::from(record.rules), version, "{game}");
        record
            .check_rules(running(game))
            .expect("this build replays its own records");
        let (s, replay) = host.get(&format!("/api/tables/{id}/replay?seat=0")).await;
        assert_eq!(s, 200, "{replay}");
    }
    server.shutdown().await;
}

async fn a_table_in_play_under_other_rules_is_closed_on_restore_with_the_reason(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let game = "secret-moon";
    let older = running(game) - 1;
    let server = env.start().await;
    let host = Client::guest(server.addr).await;
    // The host holds seat 0 and plays a few moves; the bots play the rest.
    let id = setup_table(&host, &[], 3, 31).await;
    play_seat(host.with_base(server.addr), id, Some(4)).await;
    server.shutdown().await;
    // The bots may have moved after the host stopped: the log as committed.
    let before = snapshot_actions(&env, id).await;
    assert!(before.len() >= 4, "{before:?}");
    store_rules(&env, id, Some(i64::from(older))).await;

    let server = env.start().await;
    let host = host.with_base(server.addr);
    let (s, t) = host.get(&format!("/api/tables/{id}")).await;
    assert_eq!(s, 200, "{t}");
    assert_eq!(t["status"], "abandoned", "{t}");
    assert_eq!(t["rules"], older, "{t}");
    assert_eq!(t["abandoned_reason"]["code"], "rules_version", "{t}");
    let message = t["abandoned_reason"]["message"].as_str().expect("message");
    assert!(
        message.contains(&format!("secret-moon rules version {older}"))
            && message.contains(&format!("this server plays version {}", older + 1)),
        "{message}"
    );
    // Stored as closed, so the next start does not restore it again.
    assert_eq!(
        stored(&env, id).await,
        (
            Some(i64::from(older)),
            "abandoned".to_string(),
            Some("rules_version".to_string())
        )
    );
    // Its record downloads with the version it was played under, nothing lost...
    let record = download(&host, id).await;
    assert_eq!(record.rules, older);
    assert_eq!(record.seed, 31);
    let actions: Vec<String> = record
        .actions
        .iter()
        .map(|a| format!("{}:{}", a.seat.0, a.action))
        .collect();
    assert_eq!(actions, before);
    // ...and is refused by this build's replay (`takuge replay` and the endpoint) with
    // the reason, instead of being shown as another match.
    match record.check_rules(running(game)) {
        Err(ReplayError::RulesVersion {
            expected, found, ..
        }) => assert_eq!((expected, found), (older + 1, older)),
        other => panic!("{other:?}"),
    }
    let (s, b) = host.get(&format!("/api/tables/{id}/replay")).await;
    assert_eq!(
        (s, b["error"]["code"].as_str()),
        (409, Some("rules_version"))
    );
    // Nothing can be played on it any more.
    let (s, b) = host
        .post(
            &format!("/api/tables/{id}/actions"),
            json!({"version": before.len(), "action": null}),
        )
        .await;
    assert_eq!((s, b["error"]["code"].as_str()), (409, Some("not_playing")));
    let mut ws = host.ws().await;
    ws.send(json!({"type": "subscribe", "table": id})).await;
    let m = ws.recv_type("table").await;
    assert_eq!(m["status"], "abandoned", "{m}");
    assert!(m["legal"].as_array().is_some_and(Vec::is_empty), "{m}");
    drop(ws);
    server.shutdown().await;
    // A second restart finds it closed, with the same record.
    let server = env.start().await;
    let host = host.with_base(server.addr);
    let (_, t) = host.get(&format!("/api/tables/{id}")).await;
    assert_eq!(t["abandoned_reason"]["code"], "rules_version", "{t}");
    assert_eq!(download(&host, id).await, record);
    server.shutdown().await;
}

async fn a_finished_match_from_older_rules_downloads_with_its_version(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let game = "secret-moon";
    let older = running(game) - 1;
    let server = env.start().await;
    let host = Client::guest(server.addr).await;
    let id = bots_table(&host, game, 4, 41).await;
    wait_finished(&host, id).await;
    let finished = download(&host, id).await;
    server.shutdown().await;
    store_rules(&env, id, Some(i64::from(older))).await;

    let server = env.start().await;
    let host = host.with_base(server.addr);
    let (_, t) = host.get(&format!("/api/tables/{id}")).await;
    // Over already: it stays finished, with its outcome.
    assert_eq!(t["status"], "finished", "{t}");
    assert!(t["outcome"]["ranks"].is_array(), "{t}");
    assert_eq!(t["rules"], older, "{t}");
    let record = download(&host, id).await;
    assert_eq!(record.rules, older);
    assert_eq!(record.actions, finished.actions);
    let (s, b) = host.get(&format!("/api/tables/{id}/replay")).await;
    assert_eq!(
        (s, b["error"]["code"].as_str()),
        (409, Some("rules_version"))
    );
    server.shutdown().await;
}

async fn a_table_stored_before_versions_were_kept_continues_only_if_its_log_replays(
    backend: Backend,
) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let game = "secret-moon";
    let version = i64::from(running(game));
    let server = env.start().await;
    let host = Client::guest(server.addr).await;
    let replays = setup_table(&host, &[], 3, 51).await;
    play_seat(host.with_base(server.addr), replays, Some(3)).await;
    let broken = setup_table(&host, &[], 3, 52).await;
    play_seat(host.with_base(server.addr), broken, Some(3)).await;
    let (s, t) = host
        .post(
            "/api/tables",
            json!({"game": game, "players": 3, "sit": false}),
        )
        .await;
    assert_eq!(s, 201, "{t}");
    let open = t["id"].as_i64().expect("id");
    server.shutdown().await;
    // As migration 0003 leaves secret-moon tables from before versions were stored.
    for id in [replays, broken, open] {
        store_rules(&env, id, None).await;
    }
    // The second's log no longer fits the rules (as an older build's may not).
    let db = open_db(&env).await;
    sqlx::query("UPDATE actions SET action = $1 WHERE table_id = $2 AND version = 1")
        .bind(r#"{"no_such_action": true}"#)
        .bind(broken)
        .execute(&db)
        .await
        .expect("update");
    db.close().await;

    let server = env.start().await;
    let host = host.with_base(server.addr);
    // Its whole log replays under this build: it continues, under this build's version.
    let (_, t) = host.get(&format!("/api/tables/{replays}")).await;
    assert_eq!(
        (t["status"].as_str(), t["rules"].as_i64()),
        (Some("playing"), Some(version)),
        "{t}"
    );
    assert_eq!(stored(&env, replays).await.0, Some(version));
    play_seat(host.with_base(server.addr), replays, None).await;
    assert_eq!(download(&host, replays).await.rules, running(game));
    // It does not: closed with the reason; its record says the version is unknown (0,
    // which no build plays, so every build refuses it).
    let (_, t) = host.get(&format!("/api/tables/{broken}")).await;
    assert_eq!(t["status"], "abandoned", "{t}");
    assert_eq!(t["rules"], Value::Null, "{t}");
    assert_eq!(t["abandoned_reason"]["code"], "rules_version", "{t}");
    let record = download(&host, broken).await;
    assert_eq!(record.rules, takuge_server::table::UNKNOWN_RULES);
    assert!(record.check_rules(running(game)).is_err());
    // An open table has played nothing: it takes this build's version.
    let (_, t) = host.get(&format!("/api/tables/{open}")).await;
    assert_eq!(
        (t["status"].as_str(), t["rules"].as_i64()),
        (Some("open"), Some(version)),
        "{t}"
    );
    assert_eq!(stored(&env, open).await.0, Some(version));
    server.shutdown().await;
}

/// The database's action log of table `id`, as `seat:action`.
async fn snapshot_actions(env: &Env, id: i64) -> Vec<String> {
    let db = open_db(env).await;
    let rows = sqlx::query("SELECT seat, action FROM actions WHERE table_id = $1 ORDER BY version")
        .bind(id)
        .fetch_all(&db)
        .await
        .expect("actions");
    db.close().await;
    rows.iter()
        .map(|r| {
            let action: Value = serde_json::from_str(&r.get::<String, _>(1)).expect("stored JSON");
            format!("{}:{}", r.get::<i64, _>(0), action)
        })
        .collect()
}

on_both_databases!(
    a_new_table_stores_the_rules_version_it_is_played_under,
    a_table_in_play_under_other_rules_is_closed_on_restore_with_the_reason,
    a_finished_match_from_older_rules_downloads_with_its_version,
    a_table_stored_before_versions_were_kept_continues_only_if_its_log_replays,
);

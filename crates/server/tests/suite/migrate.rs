//! `takuge migrate`: a single-node SQLite database copied into PostgreSQL keeps
//! everything (issue 19, "moving up").

use crate::common::*;
use serde_json::json;
use takuge_server::migrate::{migrate, Outcome};
use takuge_server::{Config, Server};

fn rows(outcome: &Outcome, table: &str) -> u64 {
    outcome
        .tables()
        .iter()
        .find(|t| t.table == table)
        .map_or(0, |t| t.rows)
}

async fn start(url: &str) -> Server {
    let config: Config = config(url.to_string());
    Server::start(config).await.expect("server starts")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_database_moves_to_postgresql_with_everything_and_only_once() {
    let Some(source) = Env::new(Backend::Sqlite).await else {
        return;
    };
    let Some(target) = Env::new(Backend::Postgres).await else {
        return;
    };
    // A community's database: accounts, a finished match, a shelf.
    let server = source.start().await;
    let alice = register(server.addr, "alice").await;
    let bob = register(server.addr, "bob").await;
    let table = setup_table(&alice, &[&bob], 3, 7).await;
    let (a, b) = (
        play_seat(alice.with_base(server.addr), table, None),
        play_seat(bob.with_base(server.addr), table, None),
    );
    tokio::join!(a, b);
    let (s, e) = alice
        .put(
            "/api/collections/me/ghost-at-home",
            json!({"own": true, "rating": 8}),
        )
        .await;
    assert_eq!(s, 200, "{e}");
    let (_, info) = alice.get(&format!("/api/tables/{table}")).await;
    assert_eq!(info["status"], "finished", "{info}");
    let (_, record) = alice.get(&format!("/api/tables/{table}/record")).await;
    let (_, shelf) = alice.get("/api/collections/me").await;
    // (A running server's file is refused: `takuge-cli`'s tests/serve.rs shows it with
    // the real binary; in one process SQLite's locks do not exclude each other.)
    server.shutdown().await;
    let before = snapshot(&source).await;

    let copied = migrate(&source.url, &target.url, false)
        .await
        .expect("copies");
    assert!(matches!(copied, Outcome::Copied(_)), "{copied:?}");
    assert_eq!(rows(&copied, "users"), 2);
    let actions = record["actions"].as_array().map_or(0, |a| a.len()) as u64;
    assert!(actions > 0, "{record}");
    assert_eq!(rows(&copied, "actions"), actions, "{}", copied.report());
    assert_eq!(
        snapshot(&target).await,
        before,
        "the same rows on PostgreSQL"
    );
    assert_eq!(snapshot(&source).await, before, "the source is untouched");

    // Again: nothing to do, nothing changed.
    let again = migrate(&source.url, &target.url, false)
        .await
        .expect("a second run");
    assert!(matches!(again, Outcome::AlreadyThere(_)), "{again:?}");
    assert_eq!(snapshot(&target).await, before);

    // The community plays on, on PostgreSQL: the same accounts and passwords, the match,
    // the shelf; a new table gets an id of its own.
    let server = start(&target.url).await;
    let alice = login(server.addr, "alice").await;
    let (s, moved) = alice.get(&format!("/api/tables/{table}/record")).await;
    assert_eq!(s, 200, "{moved}");
    assert_eq!(moved, record, "the match's record is the same");
    let (_, moved_shelf) = alice.get("/api/collections/me").await;
    assert_eq!(moved_shelf, shelf);
    let (s, t) = alice
        .post(
            "/api/tables",
            json!({"game": "secret-moon", "players": 3, "seed": 1}),
        )
        .await;
    assert_eq!(s, 201, "{t}");
    assert!(t["id"].as_i64().expect("id") > table, "{t}");
    server.shutdown().await;

    // The target now holds more than the source: refused, and left as it is …
    let diverged = snapshot(&target).await;
    let refused = migrate(&source.url, &target.url, false)
        .await
        .expect_err("a target with other data");
    assert!(refused.contains("--replace"), "{refused}");
    assert_eq!(snapshot(&target).await, diverged);
    // … unless told to replace it.
    let replaced = migrate(&source.url, &target.url, true)
        .await
        .expect("replaces");
    assert!(matches!(replaced, Outcome::Copied(_)));
    assert_eq!(snapshot(&target).await, before);
}

#[tokio::test]
async fn a_missing_source_or_a_target_that_is_not_postgresql_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = format!("sqlite://{}", dir.path().join("none.db").display());
    let e = migrate(&missing, "postgres://127.0.0.1:1/x", false)
        .await
        .expect_err("no source");
    assert!(e.contains("no SQLite database"), "{e}");
    assert!(!dir.path().join("none.db").exists(), "nothing was created");
    let e = migrate(&missing, "sqlite://other.db", false)
        .await
        .expect_err("not PostgreSQL");
    assert!(e.contains("must be a PostgreSQL"), "{e}");
}

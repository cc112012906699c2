//! What is SQLite's own: the URL (a file created on first start, held by this process
//! alone), every connection's pragmas, the pool, the migrations, the commit batch as
//! one query, the background WAL checkpoint, and SQLite's result codes.

use super::error::Class;
use super::writer::{ActionWrite, BatchRow};
use sqlx::any::AnyPoolOptions;
use sqlx::error::DatabaseError;
use sqlx::migrate::Migrator;
use sqlx::{AnyConnection, Executor};
use std::collections::HashSet;

/// Every SQLite connection's settings. WAL with synchronous=NORMAL: a committed
/// transaction survives a process crash (SIGKILL); only a power loss may drop the
/// last few. The writer's thread checkpoints the WAL in the background (see
/// `writer::checkpoint_loop`); a connection does it itself only if that falls far
/// behind.
pub(crate) const PRAGMAS: &str =
    "PRAGMA page_size = 1024; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
     PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;
     PRAGMA wal_autocheckpoint = 16384;";

/// Copies the write-ahead log into the database file without waiting for, or
/// blocking, the connection that commits.
pub(crate) const CHECKPOINT: &str = "PRAGMA wal_checkpoint(PASSIVE)";

/// The URL sqlx opens for `url`: the file created on first start, held by this
/// process alone.
pub(crate) fn connect_url(url: &str) -> String {
    let url = if url.starts_with("sqlite:") {
        url.to_string()
    } else {
        format!("sqlite://{url}")
    };
    // Create the file on first start.
    let url = if url.contains("mode=") || url.contains(":memory:") {
        url
    } else if url.contains('?') {
        format!("{url}&mode=rwc")
    } else {
        format!("{url}?mode=rwc")
    };
    // `unix-excl`: this process alone opens the file, and WAL's index lives in
    // this process's memory instead of a memory-mapped `-shm` file. With the
    // mapping, a `-shm` that could no longer be written (made immutable; a
    // sparse page on a full disk) killed the whole server with SIGBUS on the
    // next write to it; now such a database just refuses writes. It also
    // keeps a second server off the same file.
    if url.contains(":memory:") || url.contains("vfs=") {
        url
    } else {
        format!("{url}&vfs=unix-excl")
    }
}

/// Readers: SQLite has one writer at a time, and several writing connections would
/// wait on each other in SQLite's sleeping busy handler, so every write goes through
/// the writer's own connection (`writer::Writer`); in WAL mode these read beside it
/// without waiting.
pub(super) fn pool_options(url: &str) -> AnyPoolOptions {
    AnyPoolOptions::new()
        // (An in-memory database is one per connection: keep it to one.)
        .max_connections(if url.contains(":memory:") { 1 } else { 4 })
        .after_connect(|conn, _| {
            Box::pin(async move {
                conn.execute(PRAGMAS).await?;
                Ok(())
            })
        })
}

pub(crate) fn migrator() -> Migrator {
    sqlx::migrate!("./migrations/sqlite")
}

/// The condition under which a batch's update of `game_tables` from JSON entry `j`
/// applies: the row stored at the entry's version is its very action.
macro_rules! own_action_stored {
    () => {
        "game_tables.id = json_extract(j.value, '$.t') AND EXISTS (SELECT 1 FROM actions a
        WHERE a.table_id = game_tables.id AND a.version = json_extract(j.value, '$.v')
          AND a.seat = json_extract(j.value, '$.s') AND a.action = json_extract(j.value, '$.a'))"
    };
}

/// A whole batch on SQLite, as one query of five statements: one round trip to the
/// connection's thread instead of one per statement (each a wake-up of two threads
/// that, under load, wait for a core). The outcome and clock updates cannot wait to
/// learn which rows went in, so they apply where the row stored at that version is
/// this very action (same seat, same action): then it went in now, or an identical
/// one did, whose outcome is the same.
const BATCH: &str = concat!(
    "BEGIN IMMEDIATE;
INSERT INTO actions (table_id, version, seat, action, client_id, created_at)
    SELECT json_extract(value, '$.t'), json_extract(value, '$.v'),
           json_extract(value, '$.s'), json_extract(value, '$.a'), json_extract(value, '$.c'), $1
    FROM json_each($2) WHERE true -- SQLite's grammar needs a WHERE before ON CONFLICT
    ON CONFLICT (table_id, version) DO NOTHING RETURNING table_id, version;
UPDATE game_tables SET status = 'finished', outcome = json_extract(j.value, '$.x'), updated_at = $1
    FROM json_each($3) AS j WHERE ",
    own_action_stored!(),
    ";
UPDATE game_tables SET clock_state = json_extract(j.value, '$.x'), updated_at = $1
    FROM json_each($4) AS j WHERE ",
    own_action_stored!(),
    ";
COMMIT;"
);

/// A table's new outcome or clocks, with the action that brings them.
#[derive(serde::Serialize)]
struct Update<'a> {
    t: i64,
    v: i64,
    s: i64,
    a: &'a str,
    x: &'a str,
}

/// Commits `batch` in one transaction; the (table, version) pairs that went in.
pub(super) async fn commit_batch(
    conn: &mut AnyConnection,
    now: i64,
    batch: &[ActionWrite],
) -> Result<HashSet<(i64, i64)>, String> {
    use sqlx::Row as _;
    let rows: Vec<BatchRow<'_>> = batch.iter().map(BatchRow::of).collect();
    // A table has one action in flight at a time, so one update per table; were there
    // two, the later one is the one kept.
    let updates = |x: fn(&ActionWrite) -> Option<&str>| {
        let mut out: Vec<Update<'_>> = Vec::new();
        for w in batch.iter().rev() {
            if let Some(x) = x(w) {
                if !out.iter().any(|u| u.t == w.table) {
                    let r = BatchRow::of(w);
                    out.push(Update {
                        t: r.t,
                        v: r.v,
                        s: r.s,
                        a: r.a,
                        x,
                    });
                }
            }
        }
        serde_json::to_string(&out).map_err(|e| e.to_string())
    };
    let outcomes = updates(|w| w.outcome.as_deref())?;
    let clocks = updates(|w| w.clock_state.as_deref())?;
    let rows = serde_json::to_string(&rows).map_err(|e| e.to_string())?;
    let result = sqlx::query(BATCH)
        .bind(now)
        .bind(rows)
        .bind(outcomes)
        .bind(clocks)
        .fetch_all(&mut *conn)
        .await;
    match result {
        Ok(rows) => Ok(rows
            .iter()
            .map(|r| (r.get::<i64, _>(0), r.get::<i64, _>(1)))
            .collect()),
        Err(e) => {
            // A statement failed: nothing of the batch stays (if the transaction began).
            let _ = conn.execute("ROLLBACK").await;
            Err(e.to_string())
        }
    }
}

/// How a SQLite error classifies, if it is SQLite's.
pub(super) fn classify(e: &dyn DatabaseError) -> Option<Class> {
    let e = e.try_downcast_ref::<sqlx::sqlite::SqliteError>()?;
    let code = e.code();
    let code = code.as_deref().unwrap_or("").parse::<u32>().unwrap_or(0);
    // Primary result codes (the extended ones carry them in the low byte): BUSY 5,
    // LOCKED 6, READONLY 8, IOERR 10, CORRUPT 11, FULL 13, CANTOPEN 14, NOTADB 26.
    if matches!(code & 0xff, 5 | 6 | 8 | 10 | 11 | 13 | 14 | 26) {
        return Some(Class::Unavailable);
    }
    if e.is_unique_violation() {
        // SQLite names no constraint, but its message names the columns:
        // "UNIQUE constraint failed: users.name_key".
        let what = e
            .message()
            .rsplit_once(": ")
            .map_or_else(|| e.message().to_string(), |(_, cols)| cols.to_string());
        return Some(Class::Conflict(what));
    }
    Some(Class::Other)
}

#[cfg(test)]
mod tests {
    use super::super::Store;
    use sqlx::any::AnyPoolOptions;
    use sqlx::Row;

    /// A database made by an earlier build (migrations up to 0003, with actions stored)
    /// keeps every action when migration 0004 rebuilds `actions` without rowids.
    #[tokio::test]
    async fn migrating_to_the_keyed_actions_table_keeps_every_action() {
        sqlx::any::install_default_drivers();
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("old.db").display());
        let old = AnyPoolOptions::new()
            .max_connections(1)
            .connect(&url)
            .await
            .expect("open");
        let mut up_to_3 = super::migrator();
        up_to_3.migrations = up_to_3
            .migrations
            .iter()
            .filter(|m| m.version <= 3)
            .cloned()
            .collect::<Vec<_>>()
            .into();
        up_to_3.run(&old).await.expect("old migrations");
        for sql in [
            "INSERT INTO users (id, name, display_name, guest, created_at) VALUES (1, 'a', 'a', 0, 0)",
            "INSERT INTO game_tables (id, game, options, players, host, private, clock, seed, status, created_at, updated_at)
             VALUES (5, 'secret-moon', 'null', 3, 1, 0, '{}', 9, 'playing', 0, 0)",
            "INSERT INTO actions (table_id, version, seat, action, created_at) VALUES
             (5, 1, 0, '\"a\"', 10), (5, 2, 1, '\"b\"', 11), (5, 3, 2, '{\"c\":1}', 12)",
        ] {
            sqlx::query(sql).execute(&old).await.expect("old rows");
        }
        old.close().await;
        let store = Store::connect(&url).await.expect("migrates");
        let db = store.pool();
        let rows: Vec<(i64, i64, i64, String, i64)> = sqlx::query(
            "SELECT table_id, version, seat, action, created_at FROM actions ORDER BY version",
        )
        .fetch_all(db)
        .await
        .expect("read")
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)))
        .collect();
        assert_eq!(
            rows,
            [
                (5, 1, 0, "\"a\"".to_string(), 10),
                (5, 2, 1, "\"b\"".to_string(), 11),
                (5, 3, 2, "{\"c\":1}".to_string(), 12),
            ]
        );
        let schema: String = sqlx::query_scalar(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'actions'",
        )
        .fetch_one(db)
        .await
        .expect("schema");
        assert!(schema.contains("WITHOUT ROWID"), "{schema}");
        // The key still refuses a second action at a version.
        let again = sqlx::query(
            "INSERT INTO actions (table_id, version, seat, action, created_at) VALUES (5, 3, 0, '1', 13)",
        )
        .execute(db)
        .await;
        assert!(again.is_err());
    }
}

//! The database: SQLite by default, created and migrated on first start, or
//! PostgreSQL (`postgres://...`). One schema and one set of queries serve both, through
//! sqlx's `Any` driver: `$N` parameters (SQLite reads them too), `RETURNING id` rather
//! than SQLite's rowid, and 64-bit integers everywhere (PostgreSQL's `BIGINT`).

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor};
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

pub type Db = AnyPool;

/// Which database a URL names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn of(url: &str) -> Backend {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }
}

/// Every SQLite connection's settings. WAL with synchronous=NORMAL: a committed
/// transaction survives a process crash (SIGKILL); only a power loss may drop the
/// last few. The writer's thread checkpoints the WAL in the background (see
/// `writer::checkpoint_loop`); a connection does it itself only if that falls far
/// behind.
pub(crate) const SQLITE_PRAGMAS: &str =
    "PRAGMA page_size = 1024; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
     PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;
     PRAGMA wal_autocheckpoint = 16384;";

/// Runs an `INSERT … RETURNING id` to its end and returns the id. Not `fetch_one`:
/// SQLite hands out a RETURNING row before the statement's implicit commit, and
/// `fetch_one` stops there — a commit that then fails (a read-only or full disk) went
/// unnoticed and the id named a row that was never stored.
pub async fn insert_returning_id<'q>(
    query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    conn: &mut sqlx::AnyConnection,
) -> Result<i64, sqlx::Error> {
    use sqlx::Row;
    let rows = query.fetch_all(&mut *conn).await?;
    let row = rows.first().ok_or(sqlx::Error::RowNotFound)?;
    row.try_get::<i64, _>(0)
}

/// The URL sqlx opens for `url`: SQLite's created on first start, held by this
/// process alone.
pub(crate) fn connect_url(url: &str) -> String {
    match Backend::of(url) {
        Backend::Postgres => url.to_string(),
        Backend::Sqlite => {
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
    }
}

/// Opens (creating if missing) and migrates the database at `url`: `postgres://...`,
/// or SQLite as `sqlite://takuge.db`, `sqlite:path`, or a bare file path.
pub async fn connect(url: &str) -> Result<Db, String> {
    sqlx::any::install_default_drivers();
    let backend = Backend::of(url);
    let url = connect_url(url);
    let options =
        AnyConnectOptions::from_str(&url).map_err(|e| format!("database url {url}: {e}"))?;
    let pool = match backend {
        // Readers: SQLite has one writer at a time, and several writing connections
        // would wait on each other in SQLite's sleeping busy handler, so every write
        // goes through the writer's own connection (`writer::Writer`); in WAL mode
        // these read beside it without waiting.
        Backend::Sqlite => AnyPoolOptions::new()
            // (An in-memory database is one per connection: keep it to one.)
            .max_connections(if url.contains(":memory:") { 1 } else { 4 })
            .after_connect(|conn, _| {
                Box::pin(async move {
                    conn.execute(SQLITE_PRAGMAS).await?;
                    Ok(())
                })
            }),
        // Requests read while the writer commits; a handful of connections is plenty
        // for one process.
        Backend::Postgres => AnyPoolOptions::new().max_connections(8),
    };
    let pool = pool
        .acquire_timeout(Duration::from_secs(10))
        .connect_with(options)
        .await
        .map_err(|e| format!("cannot open the database {url}: {e}"))?;
    let migrated = match backend {
        Backend::Sqlite => sqlx::migrate!("./migrations/sqlite").run(&pool).await,
        Backend::Postgres => sqlx::migrate!("./migrations/postgres").run(&pool).await,
    };
    migrated.map_err(|e| format!("cannot migrate the database {url}: {e}"))?;
    Ok(pool)
}

/// Seconds since the Unix epoch.
pub fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
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
        let mut up_to_3 = sqlx::migrate!("./migrations/sqlite");
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
        let db = connect(&url).await.expect("migrates");
        let rows: Vec<(i64, i64, i64, String, i64)> = sqlx::query(
            "SELECT table_id, version, seat, action, created_at FROM actions ORDER BY version",
        )
        .fetch_all(&db)
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
        .fetch_one(&db)
        .await
        .expect("schema");
        assert!(schema.contains("WITHOUT ROWID"), "{schema}");
        // The key still refuses a second action at a version.
        let again = sqlx::query(
            "INSERT INTO actions (table_id, version, seat, action, created_at) VALUES (5, 3, 0, '1', 13)",
        )
        .execute(&db)
        .await;
        assert!(again.is_err());
    }
}

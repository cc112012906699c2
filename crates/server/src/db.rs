//! The database: SQLite by default, created and migrated on first start.

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

pub type Db = SqlitePool;

/// Opens (creating if missing) and migrates the database at `url`
/// (`sqlite://takuge.db`, `sqlite:path`, or a bare file path).
pub async fn connect(url: &str) -> Result<Db, String> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Err("PostgreSQL is not supported by this build yet; use SQLite".into());
    }
    let url = if url.starts_with("sqlite:") {
        url.to_string()
    } else {
        format!("sqlite://{url}")
    };
    let options = SqliteConnectOptions::from_str(&url)
        .map_err(|e| format!("database url {url}: {e}"))?
        .create_if_missing(true)
        // WAL with synchronous=NORMAL: a committed transaction survives a process crash
        // (SIGKILL); only a power loss may drop the last few.
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .busy_timeout(Duration::from_secs(5))
        .foreign_keys(true);
    // One connection: SQLite has one writer at a time, and several connections would
    // wait on each other in SQLite's sleeping busy handler; one connection queues the
    // writes instead (and in WAL mode a commit is short).
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .acquire_timeout(Duration::from_secs(10))
        .connect_with(options)
        .await
        .map_err(|e| format!("cannot open the database {url}: {e}"))?;
    sqlx::migrate!("./migrations")
        .run(&pool)
        .await
        .map_err(|e| format!("cannot migrate the database {url}: {e}"))?;
    Ok(pool)
}

/// Seconds since the Unix epoch.
pub fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

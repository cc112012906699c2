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

/// Opens (creating if missing) and migrates the database at `url`: `postgres://...`,
/// or SQLite as `sqlite://takuge.db`, `sqlite:path`, or a bare file path.
pub async fn connect(url: &str) -> Result<Db, String> {
    sqlx::any::install_default_drivers();
    let backend = Backend::of(url);
    let url = match backend {
        Backend::Postgres => url.to_string(),
        Backend::Sqlite => {
            let url = if url.starts_with("sqlite:") {
                url.to_string()
            } else {
                format!("sqlite://{url}")
            };
            // Create the file on first start.
            if url.contains("mode=") || url.contains(":memory:") {
                url
            } else if url.contains('?') {
                format!("{url}&mode=rwc")
            } else {
                format!("{url}?mode=rwc")
            }
        }
    };
    let options =
        AnyConnectOptions::from_str(&url).map_err(|e| format!("database url {url}: {e}"))?;
    let pool = match backend {
        // One connection: SQLite has one writer at a time, and several connections
        // would wait on each other in SQLite's sleeping busy handler; one connection
        // queues the writes instead (and in WAL mode a commit is short).
        Backend::Sqlite => AnyPoolOptions::new()
            .max_connections(1)
            .after_connect(|conn, _| {
                Box::pin(async move {
                    // WAL with synchronous=NORMAL: a committed transaction survives a
                    // process crash (SIGKILL); only a power loss may drop the last few.
                    conn.execute(
                        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
                         PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;",
                    )
                    .await?;
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

/// One action to commit: the row for `actions`, and the outcome when it ends the game.
#[derive(Debug)]
pub struct ActionWrite {
    pub table: i64,
    pub version: i64,
    pub seat: i64,
    pub action: String,
    pub outcome: Option<String>,
    /// The clocks after this action (`table::ClockState` as JSON), for clocked tables.
    pub clock_state: Option<String>,
}

/// How one action's commit went.
#[derive(Debug, PartialEq, Eq)]
pub enum Committed {
    Yes,
    /// Another writer already committed this (table, version): nothing was written.
    VersionConflict,
}

struct Job {
    write: ActionWrite,
    reply: tokio::sync::oneshot::Sender<Result<Committed, String>>,
}

/// Group commit: one task commits the actions of every table that are waiting, in one
/// transaction. A commit costs about as much for one row as for hundreds (the journal
/// write and lock dominate), so under load this turns thousands of commits a second
/// into tens, and each table still hears of its own action only after it is durable.
#[derive(Clone)]
pub struct Writer {
    tx: tokio::sync::mpsc::UnboundedSender<Job>,
}

/// At most this many actions per transaction, so one batch cannot hold the database
/// (and the tables waiting on it) for long.
const MAX_BATCH: usize = 1024;

impl Writer {
    pub fn start(db: Db) -> (Writer, tokio::task::JoinHandle<()>) {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Job>();
        let task = tokio::spawn(async move {
            let mut batch = Vec::with_capacity(MAX_BATCH);
            while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
                let results = commit_batch(&db, &batch).await;
                for (i, job) in batch.drain(..).enumerate() {
                    let r = match &results {
                        Ok(each) => Ok(if each.get(i).copied().unwrap_or(false) {
                            Committed::Yes
                        } else {
                            Committed::VersionConflict
                        }),
                        Err(e) => Err(e.clone()),
                    };
                    let _ = job.reply.send(r);
                }
            }
        });
        (Writer { tx }, task)
    }

    /// Commits one action (with the others waiting); returns once it is durable.
    pub async fn commit(&self, write: ActionWrite) -> Result<Committed, String> {
        let (reply, rx) = tokio::sync::oneshot::channel();
        self.tx
            .send(Job { write, reply })
            .map_err(|_| "the database writer has stopped".to_string())?;
        rx.await
            .map_err(|_| "the database writer has stopped".to_string())?
    }
}

/// The whole batch in as few statements as possible (each one is a round trip to the
/// database, and the tables wait on them): one multi-row insert, then the outcomes and
/// clocks of the actions that went in, all in one transaction. The primary key
/// (table_id, version) is the optimistic check: a version already there inserts
/// nothing, and that job alone is refused. Per job, whether its row went in.
async fn commit_batch(db: &Db, batch: &[Job]) -> Result<Vec<bool>, String> {
    use sqlx::Row;
    let at = now();
    let mut sql = String::with_capacity(64 + batch.len() * 32);
    sql.push_str("INSERT INTO actions (table_id, version, seat, action, created_at) VALUES ");
    for i in 0..batch.len() {
        let p = i * 5;
        if i > 0 {
            sql.push(',');
        }
        sql.push_str(&format!(
            "(${}, ${}, ${}, ${}, ${})",
            p + 1,
            p + 2,
            p + 3,
            p + 4,
            p + 5
        ));
    }
    sql.push_str(" ON CONFLICT (table_id, version) DO NOTHING RETURNING table_id, version");
    let mut insert = sqlx::query(&sql);
    for job in batch {
        let w = &job.write;
        insert = insert
            .bind(w.table)
            .bind(w.version)
            .bind(w.seat)
            .bind(w.action.as_str())
            .bind(at);
    }
    let updates = batch
        .iter()
        .any(|j| j.write.outcome.is_some() || j.write.clock_state.is_some());
    let mut tx = db.begin().await.map_err(|e| e.to_string())?;
    let rows = insert
        .fetch_all(&mut *tx)
        .await
        .map_err(|e| e.to_string())?;
    let went_in: std::collections::HashSet<(i64, i64)> = rows
        .iter()
        .map(|r| (r.get::<i64, _>(0), r.get::<i64, _>(1)))
        .collect();
    let inserted: Vec<bool> = batch
        .iter()
        .map(|j| went_in.contains(&(j.write.table, j.write.version)))
        .collect();
    if updates {
        for (job, &ok) in batch.iter().zip(&inserted) {
            let w = &job.write;
            if !ok {
                continue;
            }
            if let Some(outcome) = &w.outcome {
                sqlx::query(
                    "UPDATE game_tables SET status = 'finished', outcome = $1, updated_at = $2 WHERE id = $3",
                )
                .bind(outcome)
                .bind(at)
                .bind(w.table)
                .execute(&mut *tx)
                .await
                .map_err(|e| e.to_string())?;
            }
            if let Some(clocks) = &w.clock_state {
                sqlx::query("UPDATE game_tables SET clock_state = $1 WHERE id = $2")
                    .bind(clocks)
                    .bind(w.table)
                    .execute(&mut *tx)
                    .await
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    tx.commit().await.map_err(|e| e.to_string())?;
    Ok(inserted)
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

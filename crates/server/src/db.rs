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
                    // The writer's thread checkpoints the WAL in the background
                    // (see `checkpoint_loop`); this connection does it itself only if
                    // that falls far behind.
                    conn.execute(
                        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
                         PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;
                         PRAGMA wal_autocheckpoint = 16384;",
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

/// The writer's loop, to stop it (once no commit is waiting).
pub struct WriterTask {
    stop: tokio::sync::watch::Sender<bool>,
}

impl WriterTask {
    /// Stops the loop after the batch it is committing, if any.
    pub fn abort(&self) {
        let _ = self.stop.send(true);
    }
}

impl Writer {
    /// Starts the writer on a thread of its own with its own small runtime: a batch
    /// is a few round trips to SQLite's connection thread, and on the shared runtime
    /// each would wait behind every ready table and connection (under load, tens of
    /// milliseconds a batch, which every table then waits on).
    pub fn start(db: Db) -> (Writer, WriterTask) {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<Job>();
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let spawned = std::thread::Builder::new()
            .name("takuge-writer".into())
            .spawn(move || {
                match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt.block_on(async move {
                        tokio::spawn(checkpoint_loop(db.clone(), stopped.clone()));
                        write_loop(db, rx, stopped).await;
                    }),
                    Err(e) => tracing::error!(error = %e, "cannot start the database writer"),
                }
            });
        if let Err(e) = spawned {
            // Every commit then fails with "the database writer has stopped".
            tracing::error!(error = %e, "cannot start the database writer");
        }
        (Writer { tx }, WriterTask { stop })
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

/// How often the WAL is checkpointed in the background.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(250);

/// Copies SQLite's write-ahead log into the database file from a connection of its
/// own. A checkpoint writes and syncs megabytes; done by the one connection that
/// commits (SQLite's default, every 1,000 pages) it would stall every table's commit
/// for as long, several times a second under load. A passive checkpoint from another
/// connection neither waits for nor blocks that connection's commits.
async fn checkpoint_loop(db: Db, mut stopped: tokio::sync::watch::Receiver<bool>) {
    use sqlx::ConnectOptions;
    let options = db.connect_options();
    if options.database_url.scheme() != "sqlite"
        || options.database_url.as_str().contains(":memory:")
    {
        return;
    }
    let mut conn = match options.connect().await {
        Ok(c) => c,
        Err(e) => {
            tracing::warn!(error = %e, "no background checkpoints: cannot open a second connection");
            return;
        }
    };
    loop {
        tokio::select! {
            () = tokio::time::sleep(CHECKPOINT_EVERY) => {}
            _ = stopped.changed() => return,
        }
        if let Err(e) = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").await {
            tracing::warn!(error = %e, "background checkpoint failed");
        }
    }
}

async fn write_loop(
    db: Db,
    mut rx: tokio::sync::mpsc::UnboundedReceiver<Job>,
    mut stopped: tokio::sync::watch::Receiver<bool>,
) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    loop {
        tokio::select! {
            n = rx.recv_many(&mut batch, MAX_BATCH) => if n == 0 { return },
            _ = stopped.changed() => return,
        }
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
}

/// The whole batch in as few statements as possible (each one is a round trip to the
/// database, and the tables wait on them): a few multi-row inserts, then the outcomes
/// and clocks of the actions that went in, all in one transaction. The primary key
/// (table_id, version) is the optimistic check: a version already there inserts
/// nothing, and that job alone is refused. Per job, whether its row went in.
async fn commit_batch(db: &Db, batch: &[Job]) -> Result<Vec<bool>, String> {
    let at = now();
    let mut tx = db.begin().await.map_err(|e| e.to_string())?;
    let sqlite = tx.backend_name() == "SQLite";
    let inserted = insert_rows(&mut tx, batch, at, sqlite).await?;
    let updates = batch
        .iter()
        .any(|j| j.write.outcome.is_some() || j.write.clock_state.is_some());
    if updates {
        let went_in = || batch.iter().zip(&inserted).filter(|(_, &ok)| ok);
        let outcomes: Vec<TableText<'_>> = went_in()
            .filter_map(|(j, _)| {
                Some(TableText {
                    t: j.write.table,
                    x: j.write.outcome.as_deref()?,
                })
            })
            .collect();
        let clocks: Vec<TableText<'_>> = went_in()
            .filter_map(|(j, _)| {
                Some(TableText {
                    t: j.write.table,
                    x: j.write.clock_state.as_deref()?,
                })
            })
            .collect();
        // A table's later clock in one batch overwrites its earlier: apply in order.
        let set_outcome = "status = 'finished', outcome = ";
        update_tables(&mut tx, set_outcome, &outcomes, at, sqlite).await?;
        update_tables(&mut tx, "clock_state = ", &clocks, at, sqlite).await?;
    }
    tx.commit().await.map_err(|e| e.to_string())?;
    Ok(inserted)
}

/// One row of `actions` as the batch insert reads it from JSON.
#[derive(serde::Serialize)]
struct Row<'a> {
    t: i64,
    v: i64,
    s: i64,
    a: &'a str,
}

/// Every row in one statement with one parameter, the rows as a JSON array: one
/// round trip to the database (whose thread or server the writer would otherwise wait
/// on once a chunk), and the same prepared statement for every batch size. Per job,
/// whether its row went in.
async fn insert_rows(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    batch: &[Job],
    at: i64,
    sqlite: bool,
) -> Result<Vec<bool>, String> {
    use sqlx::Row as _;
    let rows: Vec<Row<'_>> = batch
        .iter()
        .map(|j| Row {
            t: j.write.table,
            v: j.write.version,
            s: j.write.seat,
            a: &j.write.action,
        })
        .collect();
    let json = serde_json::to_string(&rows).map_err(|e| e.to_string())?;
    let sql = if sqlite {
        // `WHERE true`: SQLite's grammar needs it between a SELECT and ON CONFLICT.
        "INSERT INTO actions (table_id, version, seat, action, created_at)
         SELECT json_extract(value, '$.t'), json_extract(value, '$.v'),
                json_extract(value, '$.s'), json_extract(value, '$.a'), $1
         FROM json_each($2) WHERE true
         ON CONFLICT (table_id, version) DO NOTHING RETURNING table_id, version"
    } else {
        "INSERT INTO actions (table_id, version, seat, action, created_at)
         SELECT x.t, x.v, x.s, x.a, $1
         FROM jsonb_to_recordset($2::jsonb) AS x(t BIGINT, v BIGINT, s BIGINT, a TEXT)
         ON CONFLICT (table_id, version) DO NOTHING RETURNING table_id, version"
    };
    let went_in: std::collections::HashSet<(i64, i64)> = sqlx::query(sql)
        .bind(at)
        .bind(json)
        .fetch_all(&mut **tx)
        .await
        .map_err(|e| e.to_string())?
        .iter()
        .map(|r| (r.get::<i64, _>(0), r.get::<i64, _>(1)))
        .collect();
    Ok(batch
        .iter()
        .map(|j| went_in.contains(&(j.write.table, j.write.version)))
        .collect())
}

/// A text column's new value for one table.
#[derive(serde::Serialize)]
struct TableText<'a> {
    t: i64,
    x: &'a str,
}

/// `UPDATE game_tables SET <set>x` for every table in `values`, in one statement.
/// For a table that appears more than once, the last value wins.
async fn update_tables(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    set: &str,
    values: &[TableText<'_>],
    at: i64,
    sqlite: bool,
) -> Result<(), String> {
    if values.is_empty() {
        return Ok(());
    }
    // Later entries win: keep each table's last.
    let mut last: Vec<&TableText<'_>> = Vec::with_capacity(values.len());
    for v in values.iter().rev() {
        if !last.iter().any(|l| l.t == v.t) {
            last.push(v);
        }
    }
    let json = serde_json::to_string(&last).map_err(|e| e.to_string())?;
    let sql = if sqlite {
        format!(
            "UPDATE game_tables SET {set}json_extract(j.value, '$.x'), updated_at = $1
             FROM json_each($2) AS j WHERE game_tables.id = json_extract(j.value, '$.t')"
        )
    } else {
        format!(
            "UPDATE game_tables AS g SET {set}x.x, updated_at = $1
             FROM jsonb_to_recordset($2::jsonb) AS x(t BIGINT, x TEXT) WHERE g.id = x.t"
        )
    };
    sqlx::query(&sql)
        .bind(at)
        .bind(json)
        .execute(&mut **tx)
        .await
        .map_err(|e| e.to_string())?;
    Ok(())
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

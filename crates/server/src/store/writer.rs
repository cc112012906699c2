//! The database writer. SQLite takes one writer at a time, so on SQLite every write
//! goes through one connection on a thread of its own: the actions of all tables
//! group-committed (one transaction for every action waiting), and the other writes
//! (accounts, sessions, tables, seats) run there between those batches. A write waits
//! only for the writes before it, never for a request task that holds a pooled
//! connection while the runtime is busy elsewhere (under load the writer otherwise
//! waited ≈ 14 ms of every 18 ms batch for the pool's connection). On PostgreSQL the
//! other writes run on the pool directly, and the batches on the writer's own
//! connection (beside the pool's), each batch one statement: one round trip.

use super::{Dialect, Store, StoreError};
use crate::metrics::Metrics;
use crate::time::now;
use futures_util::future::BoxFuture;
use sqlx::AnyConnection;
use sqlx::{ConnectOptions, Connection, Executor};
use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot, watch};

/// One action to commit: the row for `actions`, and the outcome when it ends the game.
#[derive(Debug)]
pub struct ActionWrite {
    pub table: i64,
    pub version: i64,
    pub seat: i64,
    pub action: String,
    /// The id the client gave the action, if any (kept so a retry is recognised).
    pub client_id: Option<String>,
    pub outcome: Option<String>,
    /// The clocks after this action (`table::ClockState` as JSON), for clocked tables.
    pub clock_state: Option<String>,
    /// The epoch of the table's lease the action is committed under (several nodes);
    /// `None` on a single node. The database refuses it under any other epoch.
    pub epoch: Option<i64>,
}

/// Which table a write is for, and the epoch of its lease it is made under (several
/// nodes; `None` on a single node, where nothing is fenced).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fence {
    pub table: i64,
    pub epoch: Option<i64>,
}

/// How one action's commit went.
#[derive(Debug, PartialEq, Eq)]
pub enum Committed {
    Yes,
    /// Another writer already committed this (table, version): nothing was written.
    VersionConflict,
    /// The table's lease is no longer under the action's epoch (another node claimed
    /// it): nothing was written, and the table must stop here.
    Fenced,
}

struct ActionJob {
    write: ActionWrite,
    /// When it was queued (its wait for a batch: `crate::phases`).
    sent: Instant,
    reply: oneshot::Sender<Result<Committed, String>>,
}

/// Any other write, run on the writer's connection.
type WriteJob = Box<dyn for<'c> FnOnce(&'c mut AnyConnection) -> BoxFuture<'c, ()> + Send>;

enum Job {
    Action(ActionJob),
    Write(WriteJob),
}

/// The database's one writer (see the module doc).
#[derive(Clone)]
pub struct Writer {
    tx: mpsc::UnboundedSender<Job>,
    /// Where writes other than actions run directly: PostgreSQL's pool, or an
    /// in-memory SQLite database's one connection. `None`: through the writer thread.
    direct: Option<Store>,
    /// The database's dialect, for the writes that differ.
    pub(super) dialect: Dialect,
    /// Every write's result tells the health checks whether the database takes writes.
    metrics: Arc<Metrics>,
}

/// At most this many actions per transaction, so one batch cannot hold the database
/// (and the tables waiting on it) for long.
const MAX_BATCH: usize = 1024;

/// The writer's loop, to stop it (once no commit is waiting).
pub struct WriterTask {
    stop: watch::Sender<bool>,
}

impl WriterTask {
    /// Stops the loop after the batch it is committing, if any.
    pub fn abort(&self) {
        let _ = self.stop.send(true);
    }
}

/// The connection the writer commits on.
enum Target {
    /// A connection of the writer's own, opened by the writer's thread, so that its
    /// I/O is driven by the writer's runtime and not the shared one (where under load
    /// a reply from the database waited behind every ready table): a SQLite file's,
    /// or PostgreSQL's (which also spares a batch the pool's ping on acquiring).
    Own(AnyConnection),
    /// An in-memory SQLite database's one connection, in the pool.
    Pool(Store),
}

impl Writer {
    /// Starts the writer on a thread of its own with its own small runtime: a batch
    /// is a few round trips to the database, and on the shared runtime each would
    /// wait behind every ready table and connection (under load, tens of
    /// milliseconds a batch, which every table then waits on).
    pub fn start(db: Store, metrics: Arc<Metrics>) -> (Writer, WriterTask) {
        let (tx, rx) = mpsc::unbounded_channel::<Job>();
        let (stop, stopped) = watch::channel(false);
        let file = db.is_sqlite_file();
        let dialect = db.dialect();
        let own = file || dialect == Dialect::Postgres;
        let direct = (!file).then(|| db.clone());
        let health = metrics.clone();
        let spawned = std::thread::Builder::new()
            .name("takuge-writer".into())
            .spawn(move || {
                match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt.block_on(async move {
                        let target = if own {
                            match open_own(&db).await {
                                Ok(conn) => Target::Own(conn),
                                Err(e) => {
                                    // Every write then fails: "the database writer has stopped".
                                    tracing::error!(error = %e, "the database writer cannot connect");
                                    return;
                                }
                            }
                        } else {
                            Target::Pool(db.clone())
                        };
                        tokio::spawn(checkpoint_loop(db.clone(), stopped.clone()));
                        write_loop(target, &db, rx, stopped, &metrics).await;
                    }),
                    Err(e) => tracing::error!(error = %e, "cannot start the database writer"),
                }
            });
        if let Err(e) = spawned {
            tracing::error!(error = %e, "cannot start the database writer");
        }
        (
            Writer {
                tx,
                direct,
                dialect,
                metrics: health,
            },
            WriterTask { stop },
        )
    }

    /// Commits one action (with the others waiting); returns once it is durable.
    pub async fn commit(&self, write: ActionWrite) -> Result<Committed, String> {
        let (reply, rx) = oneshot::channel();
        let result = match self.tx.send(Job::Action(ActionJob {
            write,
            sent: Instant::now(),
            reply,
        })) {
            Ok(()) => rx
                .await
                .unwrap_or_else(|_| Err("the database writer has stopped".to_string())),
            Err(_) => Err("the database writer has stopped".to_string()),
        };
        match &result {
            Ok(_) => self.metrics.write_health.succeeded(&self.metrics),
            Err(e) => self.metrics.write_health.failed(&self.metrics, e),
        }
        result
    }

    /// Runs `f`, a write (statements or a transaction of its own), on the writer's
    /// connection, and returns what it returns. A stopped writer answers
    /// `PoolClosed` (unavailable).
    pub async fn write<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(&'c mut AnyConnection) -> BoxFuture<'c, Result<T, sqlx::Error>>
            + Send
            + 'static,
    {
        let result = self.write_unobserved(f).await.map_err(StoreError::from);
        match &result {
            Err(e) if e.is_unavailable() => self
                .metrics
                .write_health
                .failed(&self.metrics, &e.to_string()),
            // A refused statement (a name taken) still reached the database.
            _ => self.metrics.write_health.succeeded(&self.metrics),
        }
        result
    }

    async fn write_unobserved<T, F>(&self, f: F) -> Result<T, sqlx::Error>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(&'c mut AnyConnection) -> BoxFuture<'c, Result<T, sqlx::Error>>
            + Send
            + 'static,
    {
        if let Some(pool) = &self.direct {
            let mut conn = pool.pool().acquire().await?;
            return f(&mut conn).await;
        }
        let (reply, rx) = oneshot::channel();
        let job: WriteJob = Box::new(move |conn| {
            Box::pin(async move {
                let _ = reply.send(f(conn).await);
            })
        });
        self.tx
            .send(Job::Write(job))
            .map_err(|_| sqlx::Error::PoolClosed)?;
        rx.await.map_err(|_| sqlx::Error::PoolClosed)?
    }
}

/// A parameter of a statement run by the writer: owned, as the statement runs on the
/// writer's thread after the caller's borrow ends.
#[derive(Debug)]
pub enum Param {
    Int(Option<i64>),
    Text(Option<String>),
}

impl From<i64> for Param {
    fn from(v: i64) -> Param {
        Param::Int(Some(v))
    }
}

impl From<Option<i64>> for Param {
    fn from(v: Option<i64>) -> Param {
        Param::Int(v)
    }
}

impl From<String> for Param {
    fn from(v: String) -> Param {
        Param::Text(Some(v))
    }
}

impl From<&str> for Param {
    fn from(v: &str) -> Param {
        Param::Text(Some(v.to_string()))
    }
}

impl From<Option<String>> for Param {
    fn from(v: Option<String>) -> Param {
        Param::Text(v)
    }
}

impl From<Option<&str>> for Param {
    fn from(v: Option<&str>) -> Param {
        Param::Text(v.map(str::to_string))
    }
}

impl Writer {
    /// Writes the time of this check to the database: whether it takes writes now.
    pub async fn probe(&self, now: i64) -> Result<(), StoreError> {
        self.execute(
            "INSERT INTO server_health (id, checked_at) VALUES (1, $1)
             ON CONFLICT (id) DO UPDATE SET checked_at = $2",
            vec![now.into(), now.into()],
        )
        .await?;
        Ok(())
    }

    /// One statement with its parameters (`$1`, `$2`, … in order), run by the writer
    /// ([`Writer::write`]); the number of rows it changed.
    pub(super) async fn execute(
        &self,
        sql: &'static str,
        params: Vec<Param>,
    ) -> Result<u64, StoreError> {
        self.write(move |c| {
            Box::pin(async move { Ok(bound(sql, params).execute(&mut *c).await?.rows_affected()) })
        })
        .await
    }
}

/// `sql` with `params` bound to `$1`, `$2`, … in order.
fn bound(
    sql: &'static str,
    params: Vec<Param>,
) -> sqlx::query::Query<'static, sqlx::Any, sqlx::any::AnyArguments<'static>> {
    params
        .into_iter()
        .fold(sqlx::query(sql), |query, p| match p {
            Param::Int(v) => query.bind(v),
            Param::Text(v) => query.bind(v),
        })
}

impl Writer {
    /// [`Writer::execute`] for a table's write under its lease's `epoch` (several
    /// nodes): in one transaction, the lease row is read `FOR KEY SHARE` (so a claim of the
    /// table waits for this write, and this write for a claim under way) and the
    /// statement runs only if the epoch is still the lease's; otherwise nothing is
    /// written and [`StoreError::Fenced`] is returned. Without an epoch, a plain
    /// `execute`.
    pub async fn execute_fenced(
        &self,
        fence: Fence,
        sql: &'static str,
        params: Vec<Param>,
    ) -> Result<u64, StoreError> {
        let Fence {
            table,
            epoch: Some(epoch),
        } = fence
        else {
            return self.execute(sql, params).await;
        };
        self.fenced(table, epoch, move |c| {
            Box::pin(async move { Ok(bound(sql, params).execute(&mut *c).await?.rows_affected()) })
        })
        .await
    }

    /// Runs `f` in a transaction that first checks that table `table`'s lease is
    /// under `epoch` (row locked `FOR KEY SHARE` until the commit: a claim, which
    /// changes the epoch, a key column, waits for it; the heartbeat's renewal, which
    /// changes only the expiry, does not); `Fenced` if not.
    pub async fn fenced<T, F>(&self, table: i64, epoch: i64, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(&'c mut AnyConnection) -> BoxFuture<'c, Result<T, sqlx::Error>>
            + Send
            + 'static,
    {
        let r = self
            .write(move |c| {
                Box::pin(async move {
                    let mut tx = c.begin().await?;
                    let held = sqlx::query(
                        "SELECT 1 FROM table_leases WHERE table_id = $1 AND epoch = $2 FOR KEY SHARE",
                    )
                    .bind(table)
                    .bind(epoch)
                    .fetch_optional(&mut *tx)
                    .await?;
                    if held.is_none() {
                        return Ok(None);
                    }
                    let r = f(&mut tx).await?;
                    tx.commit().await?;
                    Ok(Some(r))
                })
            })
            .await?;
        match r {
            Some(r) => Ok(r),
            None => {
                self.metrics.fenced_writes.fetch_add(1, Ordering::Relaxed);
                Err(StoreError::Fenced)
            }
        }
    }
}

async fn open_own(db: &Store) -> Result<AnyConnection, sqlx::Error> {
    let mut conn = db.pool().connect_options().connect().await?;
    if db.dialect() == Dialect::Sqlite {
        conn.execute(super::sqlite::PRAGMAS).await?;
    }
    Ok(conn)
}

/// After a failed batch: if the writer's own connection is gone (a PostgreSQL server
/// restarted, a network cut), opens another for the next batch.
async fn reopen_if_lost(conn: &mut AnyConnection, db: &Store) {
    if conn.ping().await.is_ok() {
        return;
    }
    match open_own(db).await {
        Ok(fresh) => *conn = fresh,
        Err(e) => tracing::error!(error = %e, "the database writer cannot reconnect"),
    }
}

/// How often the WAL is checkpointed in the background.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(250);

/// Copies SQLite's write-ahead log into the database file from a connection of its
/// own. A checkpoint writes and syncs megabytes; done by the one connection that
/// commits (SQLite's default, every 1,000 pages) it would stall every table's commit
/// for as long, several times a second under load. A passive checkpoint from another
/// connection neither waits for nor blocks that connection's commits.
async fn checkpoint_loop(db: Store, mut stopped: watch::Receiver<bool>) {
    if !db.is_sqlite_file() {
        return;
    }
    let mut conn = match db.pool().connect_options().connect().await {
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
        if let Err(e) = conn.execute(super::sqlite::CHECKPOINT).await {
            tracing::warn!(error = %e, "background checkpoint failed");
        }
    }
}

async fn write_loop(
    mut target: Target,
    db: &Store,
    mut rx: mpsc::UnboundedReceiver<Job>,
    mut stopped: watch::Receiver<bool>,
    metrics: &Metrics,
) {
    let mut jobs = Vec::with_capacity(MAX_BATCH);
    // The batch's actions and their callers, apart, so the dialect gets a plain slice.
    let mut batch: Vec<ActionWrite> = Vec::with_capacity(MAX_BATCH);
    let mut replies = Vec::with_capacity(MAX_BATCH);
    loop {
        tokio::select! {
            n = rx.recv_many(&mut jobs, MAX_BATCH) => if n == 0 { return },
            _ = stopped.changed() => return,
        }
        // The other writes first, each as it asked (they are independent of the
        // actions: a table waits for its own writes before it plays on).
        let round = Instant::now();
        let mut sent = Vec::with_capacity(jobs.len());
        let mut others = false;
        for job in jobs.drain(..) {
            match job {
                Job::Action(a) => {
                    sent.push(a.sent);
                    batch.push(a.write);
                    replies.push(a.reply);
                }
                Job::Write(f) => {
                    others = true;
                    match &mut target {
                        Target::Own(conn) => f(conn).await,
                        Target::Pool(pool) => match pool.pool().acquire().await {
                            Ok(mut conn) => f(&mut conn).await,
                            // Dropping the job answers "writer stopped" to its caller.
                            Err(e) => tracing::error!(error = %e, "no connection for a write"),
                        },
                    }
                }
            }
        }
        if others {
            metrics.phases.writer_other.observe(round.elapsed());
        }
        if batch.is_empty() {
            continue;
        }
        let started = Instant::now();
        for t in sent {
            metrics
                .phases
                .writer_queue
                .observe(started.duration_since(t));
        }
        let results = match &mut target {
            Target::Own(conn) => {
                let results = commit_batch(db.dialect(), conn, &batch).await;
                if results.is_err() {
                    reopen_if_lost(conn, db).await;
                }
                results
            }
            Target::Pool(pool) => match pool.pool().acquire().await {
                Ok(mut conn) => commit_batch(db.dialect(), &mut conn, &batch).await,
                Err(e) => Err(e.to_string()),
            },
        };
        metrics.commit_batch.observe(started.elapsed());
        metrics
            .commit_batch_rows
            .fetch_add(batch.len() as u64, Ordering::Relaxed);
        for (write, reply) in batch.drain(..).zip(replies.drain(..)) {
            let r = match &results {
                Ok(b) => Ok(if b.went_in.contains(&(write.table, write.version)) {
                    Committed::Yes
                } else if b.fenced.contains(&write.table) {
                    metrics.fenced_writes.fetch_add(1, Ordering::Relaxed);
                    Committed::Fenced
                } else {
                    Committed::VersionConflict
                }),
                Err(e) => Err(e.clone()),
            };
            let _ = reply.send(r);
        }
    }
}

/// What a batch's commit did with its actions.
pub(super) struct Batched {
    /// The (table, version) pairs that went in.
    pub(super) went_in: HashSet<(i64, i64)>,
    /// The tables whose actions were refused for their epoch (PostgreSQL only).
    pub(super) fenced: HashSet<i64>,
}

/// The whole batch in one transaction, in the dialect's own way. The primary key
/// (table_id, version) is the optimistic check: a version already there inserts
/// nothing, and that action alone is refused (with its outcome and clocks). On
/// PostgreSQL an action with an epoch also goes in only under its table's lease.
async fn commit_batch(
    dialect: Dialect,
    conn: &mut AnyConnection,
    batch: &[ActionWrite],
) -> Result<Batched, String> {
    match dialect {
        Dialect::Sqlite => Ok(Batched {
            went_in: super::sqlite::commit_batch(conn, now(), batch).await?,
            fenced: HashSet::new(),
        }),
        Dialect::Postgres => super::postgres::commit_batch(conn, now(), batch).await,
    }
}

/// One row of `actions` as the batch insert reads it from JSON.
#[derive(serde::Serialize)]
pub(super) struct BatchRow<'a> {
    pub(super) t: i64,
    pub(super) v: i64,
    pub(super) s: i64,
    pub(super) a: &'a str,
    /// Absent (read as NULL) for the many actions without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    c: Option<&'a str>,
}

impl<'a> BatchRow<'a> {
    pub(super) fn of(w: &'a ActionWrite) -> BatchRow<'a> {
        BatchRow {
            t: w.table,
            v: w.version,
            s: w.seat,
            a: &w.action,
            c: w.client_id.as_deref(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::Row;

    async fn user(writer: &Writer, name: &str) -> Result<i64, StoreError> {
        let name = name.to_string();
        writer
            .write(move |c| {
                Box::pin(async move {
                    sqlx::query(
                        "INSERT INTO users (name, display_name, password_hash, guest, created_at) VALUES ($1, $1, NULL, 0, 0) RETURNING id",
                    )
                    .bind(name)
                    .fetch_one(&mut *c)
                    .await
                    .map(|r| r.get(0))
                })
            })
            .await
    }

    /// A writer started on a fresh database file (deleted when `_dir` is dropped: bind it).
    struct Started {
        _dir: tempfile::TempDir,
        db: Store,
        metrics: Arc<Metrics>,
        writer: Writer,
        task: WriterTask,
    }

    async fn started() -> Started {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = Store::connect(&dir.path().join("w.db").display().to_string())
            .await
            .expect("database");
        let metrics = Arc::new(Metrics::default());
        let (writer, task) = Writer::start(db.clone(), metrics.clone());
        Started {
            _dir: dir,
            db,
            metrics,
            writer,
            task,
        }
    }

    /// A file database: the writer commits on its own connection, readers on the pool.
    #[tokio::test]
    async fn a_write_on_the_writers_connection_is_seen_by_the_pool_once_it_returns() {
        let Started {
            _dir,
            db,
            writer,
            task,
            ..
        } = started().await;
        let id = user(&writer, "alice").await.expect("insert");
        let name: String = sqlx::query_scalar("SELECT name FROM users WHERE id = $1")
            .bind(id)
            .fetch_one(db.pool())
            .await
            .expect("read");
        assert_eq!(name, "alice");
        task.abort();
    }

    #[tokio::test]
    async fn a_refused_write_returns_its_error_changes_nothing_and_the_writer_goes_on() {
        let Started {
            _dir,
            db,
            metrics,
            writer,
            task,
        } = started().await;
        user(&writer, "bob").await.expect("first");
        match user(&writer, "bob").await {
            Err(StoreError::Conflict(what, _)) => assert!(what.contains("name"), "{what}"),
            other => panic!("a taken name must be refused, got {other:?}"),
        }
        let host = user(&writer, "carol")
            .await
            .expect("the writer still writes");
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users")
            .fetch_one(db.pool())
            .await
            .expect("count");
        assert_eq!(count, 2);
        // Actions still group-commit beside the other writes.
        let table = NewTable(host);
        let id = writer
            .write(move |c| Box::pin(table.insert(c)))
            .await
            .expect("a table");
        let write = |version| ActionWrite {
            table: id,
            version,
            seat: 0,
            action: "1".into(),
            client_id: None,
            outcome: None,
            clock_state: None,
            epoch: None,
        };
        assert_eq!(writer.commit(write(1)).await, Ok(Committed::Yes));
        assert_eq!(
            writer.commit(write(1)).await,
            Ok(Committed::VersionConflict)
        );
        assert_eq!(metrics.commit_batch_rows.load(Ordering::Relaxed), 2);
        task.abort();
    }

    #[tokio::test]
    async fn an_outcome_is_stored_with_its_action_and_not_with_a_refused_one() {
        let Started {
            _dir,
            db,
            writer,
            task,
            ..
        } = started().await;
        let host = user(&writer, "erin").await.expect("user");
        let table = NewTable(host);
        let id = writer
            .write(move |c| Box::pin(table.insert(c)))
            .await
            .expect("a table");
        let stored = || async {
            sqlx::query("SELECT status, outcome, clock_state FROM game_tables WHERE id = $1")
                .bind(id)
                .fetch_one(db.pool())
                .await
                .map(|r| {
                    (
                        r.get::<String, _>(0),
                        r.get::<Option<String>, _>(1),
                        r.get::<Option<String>, _>(2),
                    )
                })
                .expect("read")
        };
        let ending = |action: &str, outcome: &str| ActionWrite {
            table: id,
            version: 1,
            seat: 0,
            action: action.into(),
            client_id: None,
            outcome: Some(outcome.into()),
            clock_state: Some(format!("{{\"by\":{action}}}")),
            epoch: None,
        };
        assert_eq!(
            writer.commit(ending("1", r#"{"winner":0}"#)).await,
            Ok(Committed::Yes)
        );
        let first = stored().await;
        assert_eq!(
            first,
            (
                "finished".to_string(),
                Some(r#"{"winner":0}"#.to_string()),
                Some(r#"{"by":1}"#.to_string())
            )
        );
        // Another action at that version is refused, and its outcome and clocks with it.
        assert_eq!(
            writer.commit(ending("2", r#"{"winner":1}"#)).await,
            Ok(Committed::VersionConflict)
        );
        assert_eq!(stored().await, first);
        task.abort();
    }

    /// The bare table row an action refers to.
    struct NewTable(i64);

    impl NewTable {
        async fn insert(self, c: &mut AnyConnection) -> Result<i64, sqlx::Error> {
            sqlx::query(
                "INSERT INTO game_tables (game, options, players, host, private, clock, seed, status, created_at, updated_at)
                 VALUES ('g', 'null', 3, $1, 0, '{}', 0, 'playing', 0, 0) RETURNING id",
            )
            .bind(self.0)
            .fetch_one(&mut *c)
            .await
            .map(|r| r.get(0))
        }
    }

    #[tokio::test]
    async fn a_stopped_writer_refuses_writes_instead_of_hanging() {
        let Started {
            _dir, writer, task, ..
        } = started().await;
        task.abort();
        // The loop notices the stop signal, returns, and drops its receiver.
        let mut refused = false;
        for _ in 0..100 {
            if matches!(user(&writer, "dave").await, Err(StoreError::Unavailable(_))) {
                refused = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(refused);
    }
}

//! What is PostgreSQL's own: the pool, the migrations, the commit batch as one
//! statement, the row lock a count needs, moving an identity sequence, and SQLSTATEs.

use super::error::Class;
use super::writer::{ActionWrite, BatchRow, Batched};
use sqlx::any::AnyPoolOptions;
use sqlx::error::DatabaseError;
use sqlx::migrate::Migrator;
use sqlx::AnyConnection;
use std::collections::HashSet;

/// Whether `url` names a PostgreSQL database.
pub(super) fn names(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// Requests read while the writer commits; a handful of connections is plenty for
/// one process.
pub(super) fn pool_options() -> AnyPoolOptions {
    AnyPoolOptions::new().max_connections(8)
}

pub(crate) fn migrator() -> Migrator {
    sqlx::migrate!("./migrations/postgres")
}

/// Moves the identity sequence of `table.column` past the ids it holds, so the next
/// row gets a new id (after rows were copied in with their ids).
pub(crate) fn reset_sequence_sql(table: &str, column: &str) -> String {
    format!(
        "SELECT setval(pg_get_serial_sequence('{table}', '{column}'),
                COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)"
    )
}

/// Locks the user's row for the rest of the transaction, so that two transactions
/// counting what the user owns count one after the other (SQLite's one writer
/// already does that).
pub(super) async fn lock_user(conn: &mut AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT id FROM users WHERE id = $1 FOR UPDATE")
        .bind(user)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// A whole batch on PostgreSQL, as one statement: one round trip (a prepared
/// statement's Bind, Execute and Sync in one write), where a transaction of its own
/// took five (BEGIN, the insert, two updates, COMMIT). A single statement is its own
/// transaction. The updates join the insert's `RETURNING`, so they apply to the
/// actions that went in and no other (a statement's parts do not see each other's
/// rows, but they see what `RETURNING` hands on); both columns are set by one update,
/// as PostgreSQL applies only one of two updates of a row in one statement.
///
/// Fencing (several nodes): an action with an epoch `e` goes in only if its table's
/// lease row has that epoch, read `FOR KEY SHARE` in this statement, so a claim or a
/// handover (which change the epoch, a key column: migration 0013) and this batch wait
/// for each other, while the heartbeat's renewal (which changes only `expires_at`)
/// neither waits for the batch nor holds it; the others of the batch are not held
/// back by it. The answer's third column is 1 for an action refused so. The lease rows
/// are found by their ids (`= ANY (ARRAY(…))`): joined with the batch alone, they were
/// read by a scan of every lease ever taken, 2 ms a batch and growing with the
/// leases and their dead row versions (the heartbeat rewrites each every 3 s).
#[doc(hidden)]
pub const BATCH: &str = "WITH x AS (
    SELECT * FROM jsonb_to_recordset($2::jsonb)
        AS x(t BIGINT, v BIGINT, s BIGINT, a TEXT, c TEXT, o TEXT, k TEXT, e BIGINT)
), held AS (
    SELECT x.t, x.v FROM x JOIN table_leases l ON l.table_id = x.t AND l.epoch = x.e
    WHERE l.table_id = ANY (ARRAY(SELECT t FROM x WHERE e IS NOT NULL))
    FOR KEY SHARE OF l
), ins AS (
    INSERT INTO actions (table_id, version, seat, action, client_id, created_at, epoch)
    SELECT t, v, s, a, c, $1, e FROM x
    WHERE x.e IS NULL OR EXISTS (SELECT 1 FROM held WHERE held.t = x.t AND held.v = x.v)
    ON CONFLICT (table_id, version) DO NOTHING RETURNING table_id, version
), u AS (
    -- Per table, the last outcome and the last clocks among the actions that went in.
    SELECT x.t,
           (array_agg(x.o ORDER BY x.v DESC) FILTER (WHERE x.o IS NOT NULL))[1] AS o,
           (array_agg(x.k ORDER BY x.v DESC) FILTER (WHERE x.k IS NOT NULL))[1] AS k
    FROM x JOIN ins ON ins.table_id = x.t AND ins.version = x.v
    WHERE x.o IS NOT NULL OR x.k IS NOT NULL
    GROUP BY x.t
), upd AS (
    UPDATE game_tables AS g SET
        status = CASE WHEN u.o IS NULL THEN g.status ELSE 'finished' END,
        outcome = COALESCE(u.o, g.outcome),
        clock_state = COALESCE(u.k, g.clock_state),
        updated_at = $1
    FROM u WHERE g.id = u.t
)
SELECT table_id, version, 0::bigint FROM ins
UNION ALL
SELECT x.t, x.v, 1::bigint FROM x
WHERE x.e IS NOT NULL AND NOT EXISTS (SELECT 1 FROM held WHERE held.t = x.t AND held.v = x.v)";

/// One row of a PostgreSQL batch: the action, and the outcome and clocks it brings.
#[derive(serde::Serialize)]
struct Row<'a> {
    #[serde(flatten)]
    row: BatchRow<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    o: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    k: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    e: Option<i64>,
}

/// Commits `batch` as one statement; the (table, version) pairs that went in, and
/// the tables refused for their epoch.
pub(super) async fn commit_batch(
    conn: &mut AnyConnection,
    now: i64,
    batch: &[ActionWrite],
) -> Result<Batched, String> {
    use sqlx::Row as _;
    let rows: Vec<Row<'_>> = batch
        .iter()
        .map(|w| Row {
            row: BatchRow::of(w),
            o: w.outcome.as_deref(),
            k: w.clock_state.as_deref(),
            e: w.epoch,
        })
        .collect();
    let json = serde_json::to_string(&rows).map_err(|e| e.to_string())?;
    let mut done = Batched {
        went_in: HashSet::new(),
        fenced: HashSet::new(),
    };
    for r in sqlx::query(BATCH)
        .bind(now)
        .bind(json)
        .fetch_all(&mut *conn)
        .await
        .map_err(|e| e.to_string())?
    {
        let row = |i| r.try_get::<i64, _>(i).map_err(|e| e.to_string());
        if row(2)? == 0 {
            done.went_in.insert((row(0)?, row(1)?));
        } else {
            done.fenced.insert(row(0)?);
        }
    }
    Ok(done)
}

/// How a PostgreSQL error classifies, if it is PostgreSQL's.
pub(super) fn classify(e: &dyn DatabaseError) -> Option<Class> {
    let e = e.try_downcast_ref::<sqlx::postgres::PgDatabaseError>()?;
    let code = e.code();
    // Read-only transaction, connection exceptions, insufficient resources (disk
    // full), operator intervention, system errors.
    if code == "25006" || ["08", "53", "57", "58"].iter().any(|c| code.starts_with(c)) {
        return Some(Class::Unavailable);
    }
    if code == "23505" {
        let what = e.constraint().unwrap_or(e.message());
        return Some(Class::Conflict(what.to_string()));
    }
    Some(Class::Other)
}

//! The queries of several nodes on one PostgreSQL (docs/ARCHITECTURE.md, "Several
//! nodes"): the node registry and its heartbeat, table leases with epochs (claim,
//! renew, hand over, release), the lookups of placement and failover, and NOTIFY.
//! Every time is the database's (`clock_timestamp()`), never a node's: nodes whose
//! clocks differ still agree on who holds what. Durations are bound in milliseconds.

use super::{Store, StoreError};
use sqlx::Row;

/// What a claim of a table found.
#[derive(Debug, PartialEq, Eq)]
pub enum Claim {
    /// This node holds the table now, under this epoch.
    Held(i64),
    /// Another node holds a lease on it that has not expired.
    Owner { node: String, url: String },
    /// The table is over: nobody writes it again, so it takes no lease.
    Over,
    /// There is no such table.
    NoTable,
}

/// A table this node runs, with the epoch it runs under (as JSON for `jsonb_to_recordset`).
#[derive(serde::Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Held {
    pub t: i64,
    pub e: i64,
}

/// A live node, as placement and handover see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveNode {
    pub name: String,
    pub url: String,
    pub live_tables: i64,
}

/// Takes table `$1` for node `$2` when its lease is free, expired or already this
/// node's: one statement that bumps the epoch and appends the claim to the history.
/// Only a live table (open or playing) is claimed. The upsert's row lock serialises a
/// claim with every fenced write of the table (which reads the row `FOR KEY SHARE`:
/// the claim changes the epoch, a key column since migration 0013, so its lock is the
/// row's strongest).
const CLAIM: &str = "WITH c AS (
    INSERT INTO table_leases (table_id, node, epoch, expires_at)
    SELECT g.id, $2, 1, clock_timestamp() + $3::bigint * interval '1 millisecond'
    FROM game_tables g WHERE g.id = $1 AND g.status IN ('open', 'playing')
    ON CONFLICT (table_id) DO UPDATE SET
        node = EXCLUDED.node, epoch = table_leases.epoch + 1, expires_at = EXCLUDED.expires_at
    WHERE table_leases.node = EXCLUDED.node OR table_leases.expires_at < clock_timestamp()
    RETURNING table_id, epoch, node
), h AS (
    INSERT INTO lease_claims (table_id, epoch, node, claimed_at)
    SELECT table_id, epoch, node, clock_timestamp() FROM c
)
SELECT epoch FROM c";

/// Of the tables `$1` (a JSON array), the live ones whose unexpired lease names node
/// `$2`, with its epoch: the tables handed or placed on that node (the sender wrote
/// the lease, under a new epoch, before telling it).
#[doc(hidden)]
pub const LEASED_TO: &str = "SELECT l.table_id, l.epoch FROM table_leases l
    JOIN game_tables g ON g.id = l.table_id
    WHERE l.table_id = ANY (ARRAY(SELECT value::bigint FROM jsonb_array_elements_text($1::jsonb)))
      AND l.node = $2 AND l.expires_at >= clock_timestamp()
      AND g.status IN ('open', 'playing')";

/// Why a claim took nothing: the table's status, and its lease's holder if that
/// lease has not expired.
const CLAIM_REFUSED: &str = "SELECT g.status, l.node, n.url FROM game_tables g
    LEFT JOIN table_leases l ON l.table_id = g.id AND l.expires_at >= clock_timestamp()
    LEFT JOIN nodes n ON n.name = l.node
    WHERE g.id = $1";

/// Renews the leases of node `$1` on the tables it runs, each only under the epoch it
/// runs it (`$2`, JSON): a table claimed by another node since is not renewed, and
/// missing from the answer. The rows are found by their ids (`= ANY`), not by a scan
/// of every lease ever taken.
#[doc(hidden)]
pub const RENEW: &str = "WITH m AS (
    SELECT * FROM jsonb_to_recordset($2::jsonb) AS m(t BIGINT, e BIGINT)
)
UPDATE table_leases AS l SET expires_at = clock_timestamp() + $3::bigint * interval '1 millisecond'
FROM m WHERE l.table_id = m.t AND l.epoch = m.e AND l.node = $1
  AND l.table_id = ANY (ARRAY(SELECT t FROM m))
RETURNING l.table_id";

/// Hands tables of node `$1` (`$2`, JSON, each under its epoch) to node `$3` with a
/// new epoch, appending each to the history; the tables handed.
#[doc(hidden)]
pub const HAND_OVER: &str = "WITH m AS (
    SELECT * FROM jsonb_to_recordset($2::jsonb) AS m(t BIGINT, e BIGINT)
), c AS (
    UPDATE table_leases AS l SET node = $3, epoch = l.epoch + 1,
        expires_at = clock_timestamp() + $4::bigint * interval '1 millisecond'
    FROM m WHERE l.table_id = m.t AND l.epoch = m.e AND l.node = $1
      AND l.table_id = ANY (ARRAY(SELECT t FROM m))
    RETURNING l.table_id, l.epoch, l.node
), h AS (
    INSERT INTO lease_claims (table_id, epoch, node, claimed_at)
    SELECT table_id, epoch, node, clock_timestamp() FROM c
)
SELECT table_id FROM c";

/// Lets the leases of node `$1` on `$2` (JSON, each under its epoch) expire now; the
/// rows found by their ids, as in [`RENEW`].
#[doc(hidden)]
pub const RELEASE: &str = "WITH m AS (
    SELECT * FROM jsonb_to_recordset($2::jsonb) AS m(t BIGINT, e BIGINT)
)
UPDATE table_leases AS l SET expires_at = clock_timestamp() - interval '1 second'
FROM m WHERE l.table_id = m.t AND l.epoch = m.e AND l.node = $1
  AND l.table_id = ANY (ARRAY(SELECT t FROM m))";

/// Places new table `$1` on node `$2`: its first lease and claim, and one more table
/// counted on the node until its next heartbeat says how many it runs (so that tables
/// created meanwhile spread).
const PLACE: &str = "WITH c AS (
    INSERT INTO table_leases (table_id, node, epoch, expires_at)
    VALUES ($1, $2, 1, clock_timestamp() + $3::bigint * interval '1 millisecond')
    ON CONFLICT (table_id) DO NOTHING
    RETURNING table_id, epoch, node
), h AS (
    INSERT INTO lease_claims (table_id, epoch, node, claimed_at)
    SELECT table_id, epoch, node, clock_timestamp() FROM c
), n AS (
    UPDATE nodes SET live_tables = live_tables + 1
    WHERE name = $2 AND EXISTS (SELECT 1 FROM c)
)
SELECT epoch FROM c";

/// Claims for node `$1`, in one statement, its share of the live tables nobody holds
/// (the failover scan; docs/ARCHITECTURE.md "Several nodes"): those whose lease
/// expired, or that never had one (created before `$3`, Unix seconds, so a table just
/// created is left to its creator), and with `$6` also the leases that still name
/// `$1` (a restarted node's tables from its previous run; then the share is all of
/// them, as a lone node's restart needs). The tables running here
/// (`$2`, a JSON array) are left alone: their next heartbeat renews them. The share,
/// at most `$5`, is the larger of the orphans divided by the live nodes and what brings
/// this node up to an even split of every live table: a node scanning after another
/// took half then takes the rest, where half of what was left each time took a dozen
/// scans, 2 s apart, to move a thousand tables. An expired lease is taken `FOR UPDATE
/// SKIP LOCKED`, so nodes scanning at once take different tables instead of queueing
/// on the same rows (and taking nothing); the upsert's condition (as in [`CLAIM`])
/// still refuses a lease that another node renewed or claimed meanwhile. Each claim
/// bumps the epoch and is appended to the history. A lease of this node's that has not
/// expired is never claimed again by a scan (only at start, `$6`): it is a table a
/// request loaded here since the scan began, and a new epoch would fence it as it runs.
/// The live tables' leases are read once, by id (`live_leases`), never found by a scan
/// of `table_leases`: a finished table's lease row stays, so that scan grew with every
/// game played (31 ms at 36,000 leases, 107 ms at 236,000, on every node every 2 s;
/// 23–26 ms both ways by id with 6,000 live tables). Public for the test that reads
/// its plan (`tests/suite/lease_plans.rs`), as are the others of this kind.
#[doc(hidden)]
pub const CLAIM_ORPHANS: &str = "WITH running AS (
    SELECT value::bigint AS id FROM jsonb_array_elements_text($2::jsonb)
), live_ids AS MATERIALIZED (
    SELECT ARRAY(SELECT id FROM game_tables WHERE status IN ('open', 'playing')) AS ids
), live_leases AS MATERIALIZED (
    SELECT l.table_id, l.node, l.expires_at FROM table_leases l
    WHERE l.table_id = ANY ((SELECT ids FROM live_ids)::bigint[])
), live AS (
    SELECT greatest(count(*), 1) AS n FROM nodes
    WHERE heartbeat_at > clock_timestamp() - $4::bigint * interval '1 millisecond' AND NOT stopping
), expired AS (
    SELECT table_id FROM live_leases
    WHERE table_id NOT IN (SELECT id FROM running)
      AND (expires_at < clock_timestamp() OR ($6 AND node = $1))
), unleased AS (
    SELECT g.id FROM game_tables g
    WHERE g.status IN ('open', 'playing') AND g.created_at < $3
      AND g.id NOT IN (SELECT id FROM running)
      AND g.id NOT IN (SELECT table_id FROM live_leases)
), orphans AS (
    SELECT (SELECT count(*) FROM expired) + (SELECT count(*) FROM unleased) AS n
), fair AS (
    SELECT ceil(cardinality((SELECT ids FROM live_ids))::numeric
        / (SELECT n FROM live))::bigint - (SELECT count(*) FROM live_leases
            WHERE node = $1 AND expires_at >= clock_timestamp()) AS n
), share AS (
    SELECT CASE WHEN $6 THEN $5::bigint ELSE least($5::bigint, greatest(
        ceil((SELECT n FROM orphans)::numeric / (SELECT n FROM live))::bigint,
        (SELECT n FROM fair))) END AS n
), taken AS (
    SELECT l.table_id FROM table_leases l
    WHERE l.table_id = ANY (ARRAY(SELECT table_id FROM expired))
    ORDER BY random() LIMIT (SELECT n FROM share)
    FOR UPDATE OF l SKIP LOCKED
), picked AS (
    SELECT table_id FROM taken
    UNION ALL
    (SELECT id FROM unleased ORDER BY random()
     LIMIT greatest((SELECT n FROM share) - (SELECT count(*) FROM taken), 0))
), c AS (
    INSERT INTO table_leases (table_id, node, epoch, expires_at)
    SELECT table_id, $1, 1, clock_timestamp() + $4::bigint * interval '1 millisecond' FROM picked
    ON CONFLICT (table_id) DO UPDATE SET
        node = EXCLUDED.node, epoch = table_leases.epoch + 1, expires_at = EXCLUDED.expires_at
    WHERE table_leases.expires_at < clock_timestamp() OR ($6 AND table_leases.node = EXCLUDED.node)
    RETURNING table_id, epoch, node
), h AS (
    INSERT INTO lease_claims (table_id, epoch, node, claimed_at)
    SELECT table_id, epoch, node, clock_timestamp() FROM c
)
SELECT table_id, epoch FROM c";

/// What the failover scan asks of [`Store::claim_orphans`].
#[derive(Debug, Clone, Copy)]
pub struct OrphanScan<'a> {
    /// The node claiming.
    pub node: &'a str,
    /// The tables running on it (never claimed again: the heartbeat renews them).
    pub running: &'a [i64],
    /// A table without a lease is claimed only if created before this (Unix seconds).
    pub created_before: i64,
    /// The new leases' length.
    pub lease_ms: i64,
    /// At most this many tables in one scan.
    pub limit: i64,
    /// Also the leases that still name `node` (its previous run's), expired or not,
    /// and every orphan rather than a share (a node starting).
    pub mine_too: bool,
}

/// SQL that is true while some session holds the [`Presence`] lock whose key is `$key`
/// (an SQL expression): `pg_locks` shows a bigint advisory key as two 32-bit halves.
/// A macro so that the statements using it stay `&'static str` constants.
macro_rules! presence_held {
    ($key:literal) => {
        concat!(
            "EXISTS (SELECT 1 FROM pg_locks k
              WHERE k.locktype = 'advisory' AND k.granted AND k.objsubid = 1
                AND k.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                AND ((k.classid::bigint << 32) | k.objid::bigint) = ",
            $key,
            ")"
        )
    };
}

/// Registers node `$1` as run by instance `$3` (see [`Store::register_node`]).
const REGISTER: &str = concat!(
    "INSERT INTO nodes (name, url, instance, started_at, heartbeat_at, live_tables, stopping, presence_key)
     VALUES ($1, $2, $3, clock_timestamp(), clock_timestamp(), 0, FALSE, $5)
     ON CONFLICT (name) DO UPDATE SET url = EXCLUDED.url, instance = EXCLUDED.instance,
         started_at = EXCLUDED.started_at, heartbeat_at = EXCLUDED.heartbeat_at,
         live_tables = 0, stopping = FALSE, presence_key = EXCLUDED.presence_key
     WHERE nodes.instance = EXCLUDED.instance OR nodes.stopping
         OR nodes.heartbeat_at < clock_timestamp() - $4::bigint * interval '1 millisecond'
         OR (nodes.presence_key IS NOT NULL AND NOT ",
    presence_held!("nodes.presence_key"),
    ")
     RETURNING name"
);

/// Finds the nodes that look alive (a fresh heartbeat, not stopping) but whose
/// [`Presence`] lock nobody holds: their database session ended, so their process
/// died (or lost its connection). Each is marked gone (its heartbeat set a lease
/// back, so no scan counts it live and its name may start again) and its unexpired
/// leases are expired now, for the failover scan to claim; the gone nodes' names and
/// how many leases that expired. A paused node keeps its session, and so its lock:
/// only its leases' own expiry frees its tables. A lease renewed meanwhile by a node
/// that is alive after all is expired all the same; its next renewal then finds the
/// table claimed (the epoch moved) and stops it there, as after a pause.
#[doc(hidden)]
pub const EXPIRE_GONE: &str = concat!(
    "WITH gone AS (
    SELECT n.name FROM nodes n
    WHERE n.presence_key IS NOT NULL AND NOT n.stopping
      AND n.heartbeat_at > clock_timestamp() - $1::bigint * interval '1 millisecond'
      AND NOT ",
    presence_held!("n.presence_key"),
    "
    FOR UPDATE OF n SKIP LOCKED
), marked AS (
    UPDATE nodes SET heartbeat_at = clock_timestamp() - $1::bigint * interval '1 millisecond' - interval '1 second'
    WHERE name IN (SELECT name FROM gone)
), expired AS (
    UPDATE table_leases SET expires_at = clock_timestamp() - interval '1 millisecond'
    WHERE node IN (SELECT name FROM gone) AND expires_at >= clock_timestamp()
    RETURNING table_id
)
SELECT (SELECT string_agg(name, ' ') FROM gone), (SELECT count(*) FROM expired)"
);

/// What [`Store::expire_gone_nodes`] found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Gone {
    /// The nodes found gone.
    pub nodes: Vec<String>,
    /// Their leases expired now.
    pub leases: i64,
}

/// The live nodes, least loaded first: a fresh heartbeat and not stopping.
const LIVE_NODES: &str = "SELECT name, url, live_tables FROM nodes
    WHERE heartbeat_at > clock_timestamp() - $1::bigint * interval '1 millisecond' AND NOT stopping
    ORDER BY live_tables, name";

impl Store {
    /// Registers node `name` as run by `instance` now. Refused (`false`) while another
    /// instance runs under that name: its heartbeat is fresher than `lease_ms`, it is
    /// not stopping, and its presence lock is held (a process restarted after a crash
    /// starts at once: the crashed one's lock went with its session). `presence_key` is the key of the lock its [`Presence`] holds.
    pub async fn register_node(
        &self,
        name: &str,
        url: &str,
        instance: &str,
        presence_key: i64,
        lease_ms: i64,
    ) -> Result<bool, StoreError> {
        let rows = sqlx::query(REGISTER)
            .bind(name)
            .bind(url)
            .bind(instance)
            .bind(lease_ms)
            .bind(presence_key)
            .fetch_all(self.pool())
            .await?;
        Ok(!rows.is_empty())
    }

    /// Marks the node as stopping: no new table is placed on it, nothing handed to it,
    /// and its name may start again at once.
    pub async fn node_stopping(&self, name: &str, instance: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE nodes SET stopping = TRUE WHERE name = $1 AND instance = $2")
            .bind(name)
            .bind(instance)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Claims table `id` for node `node` (see [`CLAIM`]), for `lease_ms`.
    pub async fn claim_table(
        &self,
        id: i64,
        node: &str,
        lease_ms: i64,
    ) -> Result<Claim, StoreError> {
        // The lease can expire between the claim and the look at why it took nothing:
        // then the claim is tried once more.
        for _ in 0..2 {
            let rows = sqlx::query(CLAIM)
                .bind(id)
                .bind(node)
                .bind(lease_ms)
                .fetch_all(self.pool())
                .await?;
            if let Some(r) = rows.first() {
                return Ok(Claim::Held(r.try_get(0)?));
            }
            let Some(r) = sqlx::query(CLAIM_REFUSED)
                .bind(id)
                .fetch_optional(self.pool())
                .await?
            else {
                return Ok(Claim::NoTable);
            };
            let status: String = r.try_get(0)?;
            if status != "open" && status != "playing" {
                return Ok(Claim::Over);
            }
            if let Some(owner) = r.try_get::<Option<String>, _>(1)? {
                let url = r.try_get::<Option<String>, _>(2)?.unwrap_or_default();
                return Ok(Claim::Owner { node: owner, url });
            }
        }
        Err(StoreError::Unavailable(sqlx::Error::PoolTimedOut))
    }

    /// Of `ids`, the live tables whose lease names `node` now, each with its epoch
    /// (see [`LEASED_TO`]).
    pub async fn leased_to(&self, ids: &[i64], node: &str) -> Result<Vec<Held>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        sqlx::query(LEASED_TO)
            .bind(json_param(ids)?)
            .bind(node)
            .fetch_all(self.pool())
            .await?
            .iter()
            .map(|r| {
                Ok(Held {
                    t: r.try_get(0)?,
                    e: r.try_get(1)?,
                })
            })
            .collect()
    }

    /// Gives new table `id` to node `node` (see [`PLACE`]); whether it was placed
    /// (a table with a lease already is not).
    pub async fn place_table(
        &self,
        id: i64,
        node: &str,
        lease_ms: i64,
    ) -> Result<bool, StoreError> {
        let rows = sqlx::query(PLACE)
            .bind(id)
            .bind(node)
            .bind(lease_ms)
            .fetch_all(self.pool())
            .await?;
        Ok(!rows.is_empty())
    }

    /// Hands `held` from node `from` to node `to` (see [`HAND_OVER`]); the tables handed.
    pub async fn hand_over(
        &self,
        from: &str,
        held: &[Held],
        to: &str,
        lease_ms: i64,
    ) -> Result<Vec<i64>, StoreError> {
        if held.is_empty() {
            return Ok(Vec::new());
        }
        let json = json_param(held)?;
        sqlx::query(HAND_OVER)
            .bind(from)
            .bind(json)
            .bind(to)
            .bind(lease_ms)
            .fetch_all(self.pool())
            .await?
            .iter()
            .map(|r| r.try_get::<i64, _>(0).map_err(StoreError::from))
            .collect()
    }

    /// Lets the leases of `held` expire now (a node stopping with nobody to hand its
    /// tables to). The rows stay, so the next claim's epoch is still a new one.
    pub async fn release_leases(&self, node: &str, held: &[Held]) -> Result<(), StoreError> {
        if held.is_empty() {
            return Ok(());
        }
        let json = json_param(held)?;
        sqlx::query(RELEASE)
            .bind(node)
            .bind(json)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// The live nodes, least loaded first (a heartbeat within `lease_ms`, not stopping).
    pub async fn live_nodes(&self, lease_ms: i64) -> Result<Vec<LiveNode>, StoreError> {
        sqlx::query(LIVE_NODES)
            .bind(lease_ms)
            .fetch_all(self.pool())
            .await?
            .iter()
            .map(|r| {
                Ok(LiveNode {
                    name: r.try_get(0)?,
                    url: r.try_get(1)?,
                    live_tables: i64::from(r.try_get::<i32, _>(2)?),
                })
            })
            .collect()
    }

    /// The node other than `me` that holds an unexpired lease on table `id`, with its URL.
    pub async fn lease_owner(
        &self,
        id: i64,
        me: &str,
    ) -> Result<Option<(String, String)>, StoreError> {
        let row = sqlx::query(
            "SELECT l.node, n.url FROM table_leases l JOIN nodes n ON n.name = l.node
             WHERE l.table_id = $1 AND l.node <> $2 AND l.expires_at >= clock_timestamp()",
        )
        .bind(id)
        .bind(me)
        .fetch_optional(self.pool())
        .await?;
        match row {
            Some(r) => Ok(Some((r.try_get(0)?, r.try_get(1)?))),
            None => Ok(None),
        }
    }

    /// Claims the share of orphaned tables `scan` describes (see [`CLAIM_ORPHANS`]);
    /// each table claimed with its new epoch.
    pub async fn claim_orphans(&self, scan: OrphanScan<'_>) -> Result<Vec<Held>, StoreError> {
        let running = json_param(scan.running)?;
        sqlx::query(CLAIM_ORPHANS)
            .bind(scan.node)
            .bind(running)
            .bind(scan.created_before)
            .bind(scan.lease_ms)
            .bind(scan.limit)
            .bind(scan.mine_too)
            .fetch_all(self.pool())
            .await?
            .iter()
            .map(|r| {
                Ok(Held {
                    t: r.try_get(0)?,
                    e: r.try_get(1)?,
                })
            })
            .collect()
    }

    /// Sends `payload` on `channel` to every node listening (PostgreSQL's NOTIFY).
    pub async fn notify(&self, channel: &str, payload: &str) -> Result<(), StoreError> {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(channel)
            .bind(payload)
            .execute(self.pool())
            .await?;
        Ok(())
    }
}

/// A list bound as JSON (what `jsonb_to_recordset` and `jsonb_array_elements_text`
/// read): the `Any` driver binds no arrays.
fn json_param<T: serde::Serialize>(list: &[T]) -> Result<String, StoreError> {
    serde_json::to_string(list).map_err(|e| StoreError::Other(sqlx::Error::Decode(e.into())))
}

/// A connection that LISTENs on the nodes' channels (PostgreSQL), reconnecting by
/// itself after a drop.
pub struct Listener(sqlx::postgres::PgListener);

/// What came from a [`Listener`].
pub enum Heard {
    /// A notice: its channel and payload.
    Notice { channel: String, payload: String },
    /// The connection dropped (the next `recv` reconnects): notices may be lost.
    Dropped,
}

impl Listener {
    /// Connects to `url` and listens on `channels`.
    pub async fn connect(url: &str, channels: &[&str]) -> Result<Listener, StoreError> {
        let mut listener = sqlx::postgres::PgListener::connect(url).await?;
        listener.listen_all(channels.iter().copied()).await?;
        Ok(Listener(listener))
    }

    /// The next notice; an error when the connection cannot be made again.
    pub async fn recv(&mut self) -> Result<Heard, StoreError> {
        Ok(match self.0.try_recv().await? {
            Some(n) => Heard::Notice {
                channel: n.channel().to_string(),
                payload: n.payload().to_string(),
            },
            None => Heard::Dropped,
        })
    }
}

/// The key of the lock that keeps a node without a name (which takes no leases and
/// serves every table) from running beside named ones (which own tables through
/// leases): a nameless PostgreSQL node holds it exclusively ([`SoleNode`]), every named
/// node shared ([`Presence`]), each on a connection of its own for as long as it runs,
/// so PostgreSQL itself refuses the second kind while the first runs, and a crash
/// frees it with the session. Two 32-bit halves ("taku", "ge"): `pg_locks` keeps these
/// (`objsubid` 2) apart from the presence locks' bigint keys (`objsubid` 1), so no
/// random presence key can ever be this one.
const MODE_LOCK: (i32, i32) = (0x7461_6b75, 0x6765);

pub use super::held_lock::Kept;
use super::held_lock::{HeldLock, Locked, TryLock};

/// How long a start tries a lock that another session holds before it is refused:
/// the session of a process that has just died (or stopped) ends a moment later.
const LOCK_PATIENCE: std::time::Duration = std::time::Duration::from_secs(2);

/// Why a named node may not start: a node without a name runs on the database.
pub const NAMELESS_NODE_RUNS: &str = "a node without --node-name runs on this database: it serves every table without a lease, so a named node beside it would run tables twice; stop it (or give it a --node-name) first";

/// Why a node without a name may not start: named nodes run on the database.
pub const NAMED_NODES_RUN: &str = "named nodes (--node-name) run on this database: a node without a name serves every table without a lease, so it would run their tables twice; give this node a --node-name too (or stop the named nodes) first";

/// The named nodes that look alive (a fresh heartbeat, not stopping).
const NAMED_ALIVE: &str = "SELECT string_agg(name, ' ' ORDER BY name) FROM nodes
    WHERE heartbeat_at > clock_timestamp() - $1::bigint * interval '1 millisecond' AND NOT stopping";

/// A node without a name on PostgreSQL: it holds the [`MODE_LOCK`] exclusively, on a
/// connection of its own (not the pool's, which may close and reopen connections),
/// for as long as it runs.
pub struct SoleNode {
    held: HeldLock<SoleLock>,
}

/// The [`MODE_LOCK`], exclusively.
struct SoleLock;

impl TryLock for SoleLock {
    const WHAT: &'static str = "lock";
    const DISPLACED: &'static str = NAMED_NODES_RUN;

    async fn try_lock(&self, conn: &mut sqlx::AnyConnection) -> Result<Locked, StoreError> {
        let held: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock($1, $2)")
            .bind(MODE_LOCK.0)
            .bind(MODE_LOCK.1)
            .fetch_one(conn)
            .await?;
        Ok(if held { Locked::Yes } else { Locked::Displaced })
    }
}

impl SoleNode {
    /// Takes the lock for a node without a name, or says why it may not run: named
    /// nodes hold the lock, or one looks alive in the registry (its presence session
    /// may be reconnecting, its lock a moment away from being taken again; waited for
    /// up to `lease_ms` to stop or go stale, as a named node's start waits for its
    /// name). `Ok(Err(why))` when refused.
    pub async fn take(
        url: &str,
        db: &Store,
        lease_ms: i64,
    ) -> Result<Result<SoleNode, String>, StoreError> {
        use tokio::time::{sleep, Duration, Instant};
        let mut sole = SoleNode {
            held: HeldLock::new(url, SoleLock),
        };
        let started = Instant::now();
        while sole.held.lock().await? != Locked::Yes {
            if started.elapsed() >= LOCK_PATIENCE {
                return Ok(Err(NAMED_NODES_RUN.into()));
            }
            sleep(Duration::from_millis(100)).await;
        }
        let give_up = Instant::now() + Duration::from_millis(lease_ms.max(0) as u64);
        loop {
            let alive: Option<String> = sqlx::query_scalar(NAMED_ALIVE)
                .bind(lease_ms)
                .fetch_one(db.pool())
                .await?;
            let Some(alive) = alive else {
                return Ok(Ok(sole));
            };
            if Instant::now() >= give_up {
                sole.held.end().await;
                return Ok(Err(format!(
                    "{NAMED_NODES_RUN} (named nodes whose heartbeat is fresh: {alive})"
                )));
            }
            sleep(Duration::from_millis(250)).await;
        }
    }

    /// Makes sure the lock is held (see [`HeldLock::keep`]). `Kept::Displaced` when
    /// named nodes took their lock meanwhile.
    pub async fn keep(&mut self) -> Result<Kept, StoreError> {
        self.held.keep().await
    }

    /// Ends the session (and so frees the lock) now.
    pub async fn end(&mut self) {
        self.held.end().await
    }
}

/// A named node's presence: a connection of its own (PostgreSQL) holding a
/// session-level advisory lock under a random key, for as long as the node runs. The
/// other nodes read `pg_locks`: a node whose lock is gone has lost its session —
/// its process died — and its tables are claimed at once ([`EXPIRE_GONE`]) instead of
/// after their leases. The connection is its own, not the pool's, so that the lock
/// lives exactly as long as the process (a pool may close and reopen connections),
/// and the node's heartbeat, its leases' renewal and the look for nodes gone run on
/// it: under load the pool's 8 connections were taken for seconds (acquiring one took
/// over 2 s), heartbeats came late, and a node's leases expired while it ran them.
pub struct Presence {
    held: HeldLock<PresenceLock>,
}

/// A named node's two locks: its presence key, and the [`MODE_LOCK`] shared.
struct PresenceLock {
    key: i64,
}

impl TryLock for PresenceLock {
    const WHAT: &'static str = "presence";
    const DISPLACED: &'static str = NAMELESS_NODE_RUNS;

    /// Both locks in one statement; either refused, the connection is closed, which
    /// frees the other.
    async fn try_lock(&self, conn: &mut sqlx::AnyConnection) -> Result<Locked, StoreError> {
        let row =
            sqlx::query("SELECT pg_try_advisory_lock_shared($2, $3), pg_try_advisory_lock($1)")
                .bind(self.key)
                .bind(MODE_LOCK.0)
                .bind(MODE_LOCK.1)
                .fetch_one(conn)
                .await?;
        let (shared, key): (bool, bool) = (row.try_get(0)?, row.try_get(1)?);
        Ok(match (shared, key) {
            (true, true) => Locked::Yes,
            (true, false) => Locked::KeyTaken,
            (false, _) => Locked::Displaced,
        })
    }
}

impl Presence {
    /// Connects to `url` and takes a lock under a new random key, with the
    /// [`MODE_LOCK`] shared; `Ok(Err(why))` when a node without a name holds that.
    pub async fn take(url: &str) -> Result<Result<Presence, String>, StoreError> {
        let started = tokio::time::Instant::now();
        let mut keys_tried = 0;
        loop {
            let bytes = crate::auth::random_bytes::<8>()
                .map_err(|e| StoreError::Other(sqlx::Error::Protocol(e.message)))?;
            // Non-negative, so that `pg_locks`' two 32-bit halves join back to it
            // without a sign to mind.
            let key = (u64::from_le_bytes(bytes) >> 1) as i64;
            let mut presence = Presence {
                held: HeldLock::new(url, PresenceLock { key }),
            };
            match presence.held.lock().await? {
                Locked::Yes => return Ok(Ok(presence)),
                Locked::KeyTaken => {
                    keys_tried += 1;
                    if keys_tried >= 4 {
                        return Err(StoreError::Other(sqlx::Error::Protocol(
                            "no free presence lock key".into(),
                        )));
                    }
                }
                Locked::Displaced => {
                    if started.elapsed() >= LOCK_PATIENCE {
                        return Ok(Err(NAMELESS_NODE_RUNS.into()));
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                }
            }
        }
    }

    /// The key of the lock (stored in the node's row).
    pub fn key(&self) -> i64 {
        self.held.lock.key
    }

    /// Makes sure the lock is held (see [`HeldLock::keep`]). `Kept::Displaced` when a
    /// node without a name took the [`MODE_LOCK`] while the session was down: this
    /// node must stop serving.
    pub async fn keep(&mut self) -> Result<Kept, StoreError> {
        self.held.keep().await
    }

    /// The node's heartbeat: its row says it is alive and how many tables it runs.
    /// `false` when another instance has taken the name since (this one must stop).
    pub async fn node_heartbeat(
        &mut self,
        name: &str,
        instance: &str,
        live_tables: i64,
    ) -> Result<bool, StoreError> {
        let conn = self.held.conn().await?;
        let rows = sqlx::query(
            "UPDATE nodes SET heartbeat_at = clock_timestamp(), live_tables = $3
             WHERE name = $1 AND instance = $2 RETURNING name",
        )
        .bind(name)
        .bind(instance)
        .bind(live_tables)
        .fetch_all(conn)
        .await;
        Ok(!self.held.seen(rows)?.is_empty())
    }

    /// Renews this node's leases on `held` (see [`RENEW`]); the tables it still holds.
    pub async fn renew_leases(
        &mut self,
        node: &str,
        held: &[Held],
        lease_ms: i64,
    ) -> Result<Vec<i64>, StoreError> {
        if held.is_empty() {
            return Ok(Vec::new());
        }
        let json = json_param(held)?;
        let conn = self.held.conn().await?;
        let rows = sqlx::query(RENEW)
            .bind(node)
            .bind(json)
            .bind(lease_ms)
            .fetch_all(conn)
            .await;
        self.held
            .seen(rows)?
            .iter()
            .map(|r| r.try_get::<i64, _>(0).map_err(StoreError::from))
            .collect()
    }

    /// Marks gone the nodes whose process died (see [`EXPIRE_GONE`]) and expires their
    /// leases; what it found.
    pub async fn expire_gone_nodes(&mut self, lease_ms: i64) -> Result<Gone, StoreError> {
        let conn = self.held.conn().await?;
        let row = sqlx::query(EXPIRE_GONE)
            .bind(lease_ms)
            .fetch_one(conn)
            .await;
        let row = self.held.seen(row)?;
        let nodes: Option<String> = row.try_get(0)?;
        Ok(Gone {
            nodes: nodes
                .map(|n| n.split(' ').map(str::to_string).collect())
                .unwrap_or_default(),
            leases: row.try_get(1)?,
        })
    }

    /// Ends the session (and so frees the lock) now, as the process's death would.
    pub async fn end(&mut self) {
        self.held.end().await
    }
}

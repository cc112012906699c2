//! Every table in memory, by id; tables are loaded from the database on demand.
//!
//! A table is in memory while it is open or in play. Once over it answers what is
//! queued for it and ends (`table::Table::run`), and its entry goes with it: the map
//! holds no more tables than are live, however many games have finished (issue 20).
//! The last finished tables loaded stay replayed in a small cache (`finished_cache`),
//! not in the map, so a bunch of late requests for one costs one replay; a table is
//! loaded under a lock of its own, so loading one never waits for another's.

use crate::error::ApiError;
use crate::finished_cache::FinishedCache;
use crate::keyed_lock::KeyedLock;
use crate::metrics::Metrics;
use crate::store::Store;
use crate::table::{self, Cmd, TableHandle, TableId};
use std::collections::HashMap;
use std::sync::Arc;
use takuge_engine::Registry;
use tokio::sync::{mpsc, oneshot};

/// How many claimed tables a node loads at once after a failover: the database
/// pool has 8 connections, and the tables running here and the heartbeat need some.
const RESTORE_BATCH: usize = 64;

/// Whether a restore of table `id` started it; a failure is logged (the table stays
/// where it is).
fn started(id: TableId, loaded: Result<Loaded, ApiError>) -> bool {
    match loaded {
        Ok(Loaded::Yes) => true,
        Ok(Loaded::NoSuchTable) => false,
        Err(e) => {
            tracing::error!(table = id, error = %e.message, "cannot restore table");
            false
        }
    }
}

/// The tables in memory, by id: the hub's map, which the cluster reads to answer
/// for the tables this node runs.
pub type Tables = Arc<std::sync::Mutex<HashMap<TableId, TableHandle>>>;

pub struct Hub {
    /// Every command looks its table up here, so the lock is a plain one held for a
    /// lookup (and the `try_send` into the mailbox found); loading a table from the
    /// database holds the table's lock in `loading` instead. Shared with each table's
    /// task, which removes its own entry when it ends.
    tables: Tables,
    /// This node's name when several nodes share the database: a table is claimed
    /// (its lease taken, docs/ARCHITECTURE.md "Several nodes") before it is loaded.
    node: Option<String>,
    loading: KeyedLock<TableId>,
    /// Tables claimed (by a failover scan, a handover, or a request that loads one)
    /// and not loaded yet, with their epochs: the heartbeat renews their leases too,
    /// so a slow load under load does not lose them to another node's scan (a request
    /// whose reads waited on the pool for over 10 s once did, and the table it then
    /// started was stopped at the next heartbeat), and one lost meanwhile is not loaded.
    restoring: std::sync::Mutex<HashMap<TableId, i64>>,
    finished: FinishedCache,
    registry: Registry,
    db: Store,
    writer: crate::writer::Writer,
    writer_task: crate::writer::WriterTask,
    bots: crate::bots::BotPool,
    /// `Config::bot_delay`, for every table.
    bot_delay: std::time::Duration,
    metrics: Arc<Metrics>,
    closing: std::sync::atomic::AtomicBool,
    /// Turns true once, at shutdown: every table stops after the command it is running.
    /// (A command in each mailbox was the first design; a busy table's full mailbox
    /// held the shutdown back behind hundreds of bot moves, each a commit.)
    stop: tokio::sync::watch::Sender<bool>,
    /// Tests: `Config::pause_handed`.
    pause_handed: crate::cluster::pause::Pause,
}

impl Hub {
    pub fn new(
        registry: Registry,
        db: Store,
        metrics: Arc<Metrics>,
        bot_delay: std::time::Duration,
        finished_cache_tables: usize,
        bot_pool: crate::bots::PoolConfig,
        node: Option<String>,
    ) -> Self {
        let (writer, writer_task) = crate::writer::Writer::start(db.clone(), metrics.clone());
        Hub {
            tables: Arc::new(std::sync::Mutex::new(HashMap::new())),
            node,
            loading: KeyedLock::default(),
            restoring: Default::default(),
            finished: FinishedCache::new(finished_cache_tables),
            registry,
            db,
            writer,
            writer_task,
            bots: crate::bots::BotPool::new(bot_pool),
            bot_delay,
            metrics,
            closing: std::sync::atomic::AtomicBool::new(false),
            stop: tokio::sync::watch::Sender::new(false),
            pause_handed: Default::default(),
        }
    }

    /// Tests: holds `take_handed` where `pause` says (`Config::pause_handed`).
    #[doc(hidden)]
    pub fn pause_handed(mut self, pause: crate::cluster::pause::Pause) -> Self {
        self.pause_handed = pause;
        self
    }

    /// The database's one writer: every write goes through it.
    pub fn writer(&self) -> &crate::writer::Writer {
        &self.writer
    }

    /// The map of tables in memory (the cluster reads it).
    pub fn tables(&self) -> Tables {
        self.tables.clone()
    }

    /// Restores every unfinished table (open or playing) from its record: one node
    /// alone, at its start (a named node claims first: `cluster::nodes::take_orphans`).
    /// Read `RESTORE_BATCH` tables at a time.
    pub async fn restore_all(&self) -> Result<usize, ApiError> {
        let ids = self.db.unfinished_table_ids().await?;
        let mut restored = 0;
        for batch in ids.chunks(RESTORE_BATCH) {
            let read = table::load_many(&self.db, batch).await?;
            for (id, model) in read {
                let _loading = self.loading.lock(id).await;
                if self.is_running(id) || self.closing.load(std::sync::atomic::Ordering::Relaxed) {
                    continue;
                }
                if started(id, model.and_then(|m| self.start_loaded(id, m, None, None))) {
                    restored += 1;
                }
            }
        }
        Ok(restored)
    }

    /// Restores the tables `ids` handed or placed on this node (several nodes: a
    /// graceful stop's handover or a placement, told by NOTIFY), in a few statements,
    /// as a failover's, each under the epoch of the lease its sender wrote for this
    /// node; how many started. They are not claimed again: a claim bumps the epoch,
    /// and a request may have loaded one of them meanwhile (it claims under the
    /// table's lock): a second claim would fence the table as it runs. Those running
    /// here already are left as they run.
    pub async fn take_handed(&self, ids: &[TableId]) -> usize {
        let Some(node) = &self.node else {
            return 0;
        };
        let ids: Vec<TableId> = ids
            .iter()
            .copied()
            .filter(|&id| !self.is_running(id))
            .collect();
        // Where a request may load one of them before they are read (a test holds it
        // here to make that happen).
        self.pause_handed.pass().await;
        match self.db.leased_to(&ids, node).await {
            Ok(handed) => self.restore_claimed(handed).await,
            Err(e) => {
                tracing::error!(error = %e, tables = ids.len(), "cannot read the leases of the tables handed here");
                0
            }
        }
    }

    /// Loads and starts the tables this node has just claimed (`claimed`, each under
    /// the epoch of its claim), read `RESTORE_BATCH` at a time in three statements
    /// (`table::load_many`): one at a time, three round trips each, a node taking over
    /// a dead node's thousand tables needed longer than a lease under load. How many
    /// started; a table already running here (a request loaded it meanwhile) is left
    /// as it runs.
    pub async fn restore_claimed(&self, claimed: Vec<crate::store::cluster::Held>) -> usize {
        self.restoring
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(claimed.iter().map(|h| (h.t, h.e)));
        let mut started = 0;
        for batch in claimed.chunks(RESTORE_BATCH) {
            let ids: Vec<TableId> = batch.iter().map(|h| h.t).collect();
            let mut read: HashMap<TableId, Result<(table::TableMeta, table::Log), ApiError>> =
                match table::load_many(&self.db, &ids).await {
                    Ok(read) => read.into_iter().collect(),
                    Err(e) => {
                        // Each is read on its own then (below).
                        tracing::warn!(error = %e.message, "cannot read claimed tables together");
                        HashMap::new()
                    }
                };
            for held in batch {
                if self
                    .restore_under(held.t, held.e, read.remove(&held.t))
                    .await
                {
                    started += 1;
                }
                // A batch is replayed on this task: the tables running here go on
                // between two of them.
                tokio::task::yield_now().await;
            }
        }
        started
    }

    /// `restore` for a table this node claimed already, under `epoch`, from `read`
    /// if its rows were read since the claim (else they are read now).
    async fn restore_under(
        &self,
        id: TableId,
        epoch: i64,
        read: Option<Result<(table::TableMeta, table::Log), ApiError>>,
    ) -> bool {
        let _loading = self.loading.lock(id).await;
        let still_ours = self
            .restoring
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id)
            .is_some_and(|e| e == epoch);
        if !still_ours
            || self.is_running(id)
            || self.closing.load(std::sync::atomic::Ordering::Relaxed)
        {
            return false;
        }
        let loaded = match read {
            // Read after the claim, and nothing but this node has written it since
            // (the epoch is still the claim's): the rows are the table's.
            Some(Ok(model)) => self.start_loaded(id, model, None, Some(epoch)),
            Some(Err(e)) => Err(e),
            None => self.load_claimed(id, None, Some(epoch)).await,
        };
        started(id, loaded)
    }

    /// The tables this node runs under a lease, with their epochs (several nodes),
    /// and those it claimed and is still loading.
    pub fn held(&self) -> Vec<crate::store::cluster::Held> {
        let mut held: Vec<_> = {
            let tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
            tables
                .iter()
                .filter(|(_, h)| !h.tx.is_closed())
                .filter_map(|(&t, h)| h.epoch.map(|e| crate::store::cluster::Held { t, e }))
                .collect()
        };
        let restoring = self.restoring.lock().unwrap_or_else(|e| e.into_inner());
        held.extend(
            restoring
                .iter()
                .map(|(&t, &e)| crate::store::cluster::Held { t, e }),
        );
        held
    }

    /// Stops at once the tables whose lease another node took (their followers are
    /// told they moved): each only if it still runs under that epoch.
    pub fn lose(&self, lost: &[crate::store::cluster::Held]) {
        {
            let mut restoring = self.restoring.lock().unwrap_or_else(|e| e.into_inner());
            for held in lost {
                if restoring.get(&held.t) == Some(&held.e) {
                    restoring.remove(&held.t);
                }
            }
        }
        let tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        for held in lost {
            if let Some(h) = tables.get(&held.t).filter(|h| h.epoch == Some(held.e)) {
                let tx = h.tx.clone();
                if let Err(mpsc::error::TrySendError::Full(cmd)) = tx.try_send(Cmd::LeaseLost) {
                    tokio::spawn(async move { tx.send(cmd).await });
                }
            }
        }
    }

    /// Claims table `id`'s lease for this node when several nodes share the
    /// database: `Ok(None)` on a single node or for a table that is over (nothing
    /// writes it again), the epoch once held, `table_moved` while another live node
    /// holds it.
    async fn claim(&self, id: TableId) -> Result<Result<Option<i64>, Loaded>, ApiError> {
        use crate::store::cluster::Claim;
        let Some(node) = &self.node else {
            return Ok(Ok(None));
        };
        let lease_ms = crate::cluster::lease_ms();
        match self.db.claim_table(id, node, lease_ms).await? {
            Claim::Held(epoch) => {
                self.metrics
                    .lease_claims
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                Ok(Ok(Some(epoch)))
            }
            Claim::Over => Ok(Ok(None)),
            Claim::NoTable => Ok(Err(Loaded::NoSuchTable)),
            Claim::Owner { .. } => Err(ApiError::table_moved()),
        }
    }

    fn is_running(&self, id: TableId) -> bool {
        let tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        tables.get(&id).is_some_and(|h| !h.tx.is_closed())
    }

    /// Puts `cmd` in the mailbox of table `id` if it is in memory. Under the map's lock,
    /// so that a table found running took the command before it could end: an ending
    /// table closes its mailbox first, and then a send fails instead.
    fn try_running(&self, id: TableId, cmd: Cmd) -> Sent {
        let tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        let Some(h) = tables.get(&id) else {
            return Sent::NotRunning(cmd);
        };
        match h.tx.try_send(cmd) {
            Ok(()) => Sent::Yes,
            Err(mpsc::error::TrySendError::Full(cmd)) => Sent::Full(h.tx.clone(), cmd),
            Err(mpsc::error::TrySendError::Closed(cmd)) => Sent::NotRunning(cmd),
        }
    }

    /// Loads table `id` (kept replayed, or from the database) and starts it with
    /// `first` in its mailbox. The caller holds the table's lock in `loading`.
    async fn load(&self, id: TableId, first: Option<Cmd>) -> Result<Loaded, ApiError> {
        // Over: nothing writes it again, so it needs no lease.
        if let Some(kept) = self.finished.get(id) {
            return self.run(kept, first, None);
        }
        // The lease first, then the table: what is read is all that was committed
        // under the epochs before this one (a claim waits for their writes).
        let epoch = match self.claim(id).await? {
            Ok(epoch) => epoch,
            Err(loaded) => return Ok(loaded),
        };
        let Some(e) = epoch else {
            return self.load_claimed(id, first, None).await;
        };
        // Held (renewed by the heartbeat) from its claim on, not only once it runs.
        let _held = Restoring::hold(&self.restoring, id, e);
        self.load_claimed(id, first, epoch).await
    }

    /// Loads table `id` from the database, its lease (if it takes one) already
    /// claimed under `epoch`, and starts it with `first` in its mailbox. The caller
    /// holds the table's lock in `loading`.
    async fn load_claimed(
        &self,
        id: TableId,
        first: Option<Cmd>,
        epoch: Option<i64>,
    ) -> Result<Loaded, ApiError> {
        let Some(model) = table::load(&self.db, id).await? else {
            return Ok(Loaded::NoSuchTable);
        };
        self.start_loaded(id, model, first, epoch)
    }

    /// Replays a table read from the database and starts it (see `load_claimed`).
    fn start_loaded(
        &self,
        id: TableId,
        (meta, log): (table::TableMeta, table::Log),
        first: Option<Cmd>,
        epoch: Option<i64>,
    ) -> Result<Loaded, ApiError> {
        self.metrics
            .table_loads
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let prepared = table::prepare(&self.registry, meta, log)?;
        if let Some(copy) = prepared.snapshot() {
            self.finished.put(id, copy);
        }
        self.run(prepared, first, epoch)
    }

    /// Starts `prepared` and puts it in the map.
    fn run(
        &self,
        prepared: table::Prepared,
        first: Option<Cmd>,
        epoch: Option<i64>,
    ) -> Result<Loaded, ApiError> {
        let id = prepared.id();
        let handle = self.start(prepared, first, epoch)?;
        self.tables
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, handle);
        Ok(Loaded::Yes)
    }

    fn start(
        &self,
        prepared: table::Prepared,
        first: Option<Cmd>,
        epoch: Option<i64>,
    ) -> Result<TableHandle, ApiError> {
        let id = prepared.id();
        let tables = Arc::downgrade(&self.tables);
        // The entry goes when the task ends, unless a new task replaced it meanwhile:
        // the entry of an ended task has a closed mailbox, a new one's is open.
        let ended = Box::new(move || {
            if let Some(tables) = tables.upgrade() {
                let mut tables = tables.lock().unwrap_or_else(|e| e.into_inner());
                if tables.get(&id).is_some_and(|h| h.tx.is_closed()) {
                    tables.remove(&id);
                }
            }
        });
        table::start(
            prepared,
            self.writer.clone(),
            (self.bots.clone(), self.bot_delay),
            self.metrics.clone(),
            table::Lifecycle {
                first,
                epoch,
                stop: self.stop.subscribe(),
                ended,
            },
        )
    }

    /// Starts a table just created (so nothing to load from the database). With
    /// several nodes, the table goes to the least-loaded live node: this one (under a
    /// lease of its own), or another, which is given its lease and told to load it
    /// (NOTIFY); then what `viewer` is told of the table as created is returned.
    pub async fn adopt(
        &self,
        meta: table::TableMeta,
        viewer: i64,
    ) -> Result<Option<table::TableInfo>, ApiError> {
        let id = meta.id;
        let _loading = self.loading.lock(id).await;
        let prepared = table::prepare(&self.registry, meta, table::Log::default())?;
        if let Some(other) = self.placement().await {
            let lease_ms = crate::cluster::lease_ms();
            if self.db.place_table(id, &other, lease_ms).await? {
                crate::cluster::events::tell_tables(&self.db, &other, &[id]).await?;
                return Ok(Some(prepared.info(viewer)));
            }
        }
        let epoch = match self.claim(id).await? {
            Ok(epoch) => epoch,
            Err(_) => return Err(ApiError::unknown_table(id)),
        };
        self.run(prepared, None, epoch)?;
        Ok(None)
    }

    /// The live node a new table goes to when it is not this one: the least loaded,
    /// if it runs fewer tables than this node would with one more. A failed look
    /// leaves the table here.
    async fn placement(&self) -> Option<String> {
        let me = self.node.as_ref()?;
        let nodes = match self.db.live_nodes(crate::cluster::lease_ms()).await {
            Ok(nodes) => nodes,
            Err(e) => {
                tracing::warn!(error = %e, "no placement: the table stays here");
                return None;
            }
        };
        let here = self.held().len() as i64;
        nodes
            .into_iter()
            .find(|n| n.name != *me)
            .filter(|n| n.live_tables + 1 < here + 1)
            .map(|n| n.name)
    }

    /// Sends a command to table `id`, loading it first if needed.
    pub async fn send(&self, id: TableId, cmd: Cmd) -> Result<(), ApiError> {
        if self.closing.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(ApiError::unavailable());
        }
        let mut cmd = cmd;
        // A table ends when it is over, so a command can find it ending; it is then
        // loaded again. Each try either delivers or finds the mailbox closed, and a
        // table loaded here takes the command before anyone else can reach it, so a
        // second try only fails if the mailbox was full and the table ended meanwhile.
        for _ in 0..3 {
            cmd = match self.try_running(id, cmd) {
                Sent::Yes => return Ok(()),
                Sent::Full(tx, cmd) => match tx.send(cmd).await {
                    Ok(()) => return Ok(()),
                    Err(e) => e.0,
                },
                Sent::NotRunning(cmd) => {
                    let _loading = self.loading.lock(id).await;
                    // Someone may have loaded it while we waited.
                    match self.try_running(id, cmd) {
                        Sent::Yes => return Ok(()),
                        Sent::Full(_, cmd) => cmd,
                        Sent::NotRunning(cmd) => match self.load(id, Some(cmd)).await? {
                            Loaded::Yes => return Ok(()),
                            Loaded::NoSuchTable => return Err(ApiError::unknown_table(id)),
                        },
                    }
                }
            };
        }
        Err(ApiError::unavailable())
    }

    /// Sends a command to table `id` only if it is in memory: a table that is not
    /// needs nothing of it (an unsubscribe from a table that ended, which has nobody
    /// left to tell anything).
    /// Waits while the mailbox is full, so that the command keeps its place among
    /// the connection's (an unsubscribe must not overtake a subscribe after it).
    pub async fn send_if_running(&self, id: TableId, cmd: Cmd) {
        if let Sent::Full(tx, cmd) = self.try_running(id, cmd) {
            let _ = tx.send(cmd).await;
        }
    }

    /// Sends a command built around a reply channel and waits for the answer.
    pub async fn ask<T>(
        &self,
        id: TableId,
        make: impl FnOnce(oneshot::Sender<Result<T, ApiError>>) -> Cmd,
    ) -> Result<T, ApiError> {
        let (tx, rx) = oneshot::channel();
        self.send(id, make(tx)).await?;
        rx.await.map_err(|_| ApiError::unavailable())?
    }

    /// Stops every table after the command it is running (a commit under way finishes;
    /// queued commands are refused), all at once, then the writer. The tables that
    /// ran under a lease, to hand to another node.
    pub async fn shutdown(&self) -> Vec<crate::store::cluster::Held> {
        self.closing
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let held = self.held();
        self.stop.send_replace(true);
        let handles: Vec<TableHandle> = self
            .tables
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain()
            .map(|(_, h)| h)
            .collect();
        // Every table is stopping at once: waiting for them in turn takes as long as
        // the slowest.
        for h in handles {
            let _ = h.task.await;
        }
        // Every table has stopped, so no commit is waiting.
        self.writer_task.abort();
        held
    }

    /// Stops every table at once, as a crash would (tests).
    pub async fn abort(&self) {
        self.closing
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let handles: Vec<TableHandle> = self
            .tables
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain()
            .map(|(_, h)| h)
            .collect();
        for h in handles {
            h.task.abort();
        }
        self.writer_task.abort();
    }

    /// Tables in memory: the entries of the map.
    pub fn resident(&self) -> usize {
        self.tables.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Finished tables kept replayed (at most `Config::finished_cache_tables`).
    pub fn finished_cached(&self) -> usize {
        self.finished.len()
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }
}

/// What became of a command offered to a table in memory.
enum Sent {
    Yes,
    /// The mailbox is full: send it there, waiting.
    Full(mpsc::Sender<Cmd>, Cmd),
    /// Not in memory (or ending): load it.
    NotRunning(Cmd),
}

enum Loaded {
    Yes,
    NoSuchTable,
}

/// A table in the hub's `restoring` map while a request loads it: the heartbeat renews
/// its lease meanwhile. Let go when dropped — the load done, failed, or cancelled with
/// its request (a timeout, a client gone); a cancelled load used to stay in the map, and
/// the heartbeat renewed the lease of a table no one ran, for good.
struct Restoring<'a> {
    map: &'a std::sync::Mutex<HashMap<TableId, i64>>,
    id: TableId,
    epoch: i64,
}

impl<'a> Restoring<'a> {
    fn hold(map: &'a std::sync::Mutex<HashMap<TableId, i64>>, id: TableId, epoch: i64) -> Self {
        map.lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, epoch);
        Restoring { map, id, epoch }
    }
}

impl Drop for Restoring<'_> {
    fn drop(&mut self) {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if map.get(&self.id) == Some(&self.epoch) {
            map.remove(&self.id);
        }
    }
}

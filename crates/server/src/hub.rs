//! Every table in memory, by id; tables are loaded from the database on demand.

use crate::db::Db;
use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::table::{self, Cmd, TableHandle, TableId};
use std::collections::HashMap;
use std::sync::Arc;
use takuge_engine::Registry;
use tokio::sync::{mpsc, oneshot, Mutex};

pub struct Hub {
    /// Every command looks its table up here, so the lock is a plain one held for a
    /// lookup; loading a table from the database holds `loading` instead.
    tables: std::sync::Mutex<HashMap<TableId, TableHandle>>,
    loading: Mutex<()>,
    registry: Registry,
    db: Db,
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
}

impl Hub {
    pub fn new(
        registry: Registry,
        db: Db,
        metrics: Arc<Metrics>,
        bot_delay: std::time::Duration,
    ) -> Self {
        let (writer, writer_task) = crate::writer::Writer::start(db.clone(), metrics.clone());
        Hub {
            tables: std::sync::Mutex::new(HashMap::new()),
            loading: Mutex::new(()),
            registry,
            db,
            writer,
            writer_task,
            bots: crate::bots::BotPool::per_core(),
            bot_delay,
            metrics,
            closing: std::sync::atomic::AtomicBool::new(false),
            stop: tokio::sync::watch::Sender::new(false),
        }
    }

    /// The database's one writer: every write goes through it.
    pub fn writer(&self) -> &crate::writer::Writer {
        &self.writer
    }

    /// Restores every unfinished table (open or playing) from its record.
    pub async fn restore_all(&self) -> Result<usize, ApiError> {
        let ids: Vec<i64> = sqlx::query_scalar(
            "SELECT id FROM game_tables WHERE status IN ('open', 'playing') ORDER BY id",
        )
        .fetch_all(&self.db)
        .await?;
        let mut restored = 0;
        for id in ids {
            match self.ensure(id).await {
                Ok(Some(_)) => restored += 1,
                Ok(None) => {}
                Err(e) => tracing::error!(table = id, error = %e.message, "cannot restore table"),
            }
        }
        Ok(restored)
    }

    fn running(&self, id: TableId) -> Option<mpsc::Sender<Cmd>> {
        let tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        tables
            .get(&id)
            .filter(|h| !h.tx.is_closed())
            .map(|h| h.tx.clone())
    }

    /// The mailbox of table `id`, loading the table if it is not running; `None` if
    /// there is no such table.
    async fn ensure(&self, id: TableId) -> Result<Option<mpsc::Sender<Cmd>>, ApiError> {
        if let Some(tx) = self.running(id) {
            return Ok(Some(tx));
        }
        let _loading = self.loading.lock().await;
        // Someone may have loaded it while we waited.
        if let Some(tx) = self.running(id) {
            return Ok(Some(tx));
        }
        let Some((meta, log)) = table::load(&self.db, id).await? else {
            return Ok(None);
        };
        let handle = self.spawn(meta, log)?;
        let tx = handle.tx.clone();
        self.tables
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, handle);
        Ok(Some(tx))
    }

    fn spawn(&self, meta: table::TableMeta, log: table::Log) -> Result<TableHandle, ApiError> {
        table::spawn(
            &self.registry,
            self.writer.clone(),
            (self.bots.clone(), self.bot_delay),
            self.metrics.clone(),
            meta,
            log,
            self.stop.subscribe(),
        )
    }

    /// Starts a table just created (so nothing to load from the database).
    pub fn adopt(&self, meta: table::TableMeta) -> Result<(), ApiError> {
        let id = meta.id;
        let handle = self.spawn(meta, table::Log::default())?;
        self.tables
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, handle);
        Ok(())
    }

    /// Sends a command to table `id`, loading it first if needed.
    pub async fn send(&self, id: TableId, cmd: Cmd) -> Result<(), ApiError> {
        if self.closing.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(ApiError::unavailable());
        }
        let mut cmd = cmd;
        for _ in 0..2 {
            let Some(tx) = self.ensure(id).await? else {
                return Err(ApiError::unknown_table(id));
            };
            match tx.send(cmd).await {
                Ok(()) => return Ok(()),
                // The table's task ended (idle); load it again.
                Err(e) => cmd = e.0,
            }
        }
        Err(ApiError::unavailable())
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
    /// queued commands are refused), all at once, then the writer.
    pub async fn shutdown(&self) {
        self.closing
            .store(true, std::sync::atomic::Ordering::Relaxed);
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

    pub fn registry(&self) -> &Registry {
        &self.registry
    }
}

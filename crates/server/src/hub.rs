//! Every table in memory, by id; tables are loaded from the database on demand.

use crate::db::Db;
use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::table::{self, Cmd, TableHandle, TableId};
use std::collections::HashMap;
use std::sync::Arc;
use takuge_engine::Registry;
use tokio::sync::{oneshot, Mutex};

pub struct Hub {
    tables: Mutex<HashMap<TableId, TableHandle>>,
    registry: Registry,
    db: Db,
    metrics: Arc<Metrics>,
    closing: std::sync::atomic::AtomicBool,
}

impl Hub {
    pub fn new(registry: Registry, db: Db, metrics: Arc<Metrics>) -> Self {
        Hub {
            tables: Mutex::new(HashMap::new()),
            registry,
            db,
            metrics,
            closing: std::sync::atomic::AtomicBool::new(false),
        }
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
                Ok(true) => restored += 1,
                Ok(false) => {}
                Err(e) => tracing::error!(table = id, error = %e.message, "cannot restore table"),
            }
        }
        Ok(restored)
    }

    /// Makes sure table `id` runs; false if there is no such table.
    async fn ensure(&self, id: TableId) -> Result<bool, ApiError> {
        let mut tables = self.tables.lock().await;
        if let Some(h) = tables.get(&id) {
            if !h.tx.is_closed() {
                return Ok(true);
            }
            tables.remove(&id);
        }
        let Some((meta, actions)) = table::load(&self.db, id).await? else {
            return Ok(false);
        };
        let handle = table::spawn(
            &self.registry,
            self.db.clone(),
            self.metrics.clone(),
            meta,
            actions,
        )?;
        tables.insert(id, handle);
        Ok(true)
    }

    /// Sends a command to table `id`, loading it first if needed.
    pub async fn send(&self, id: TableId, cmd: Cmd) -> Result<(), ApiError> {
        if self.closing.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(ApiError::unavailable());
        }
        let mut cmd = cmd;
        for _ in 0..2 {
            if !self.ensure(id).await? {
                return Err(ApiError::unknown_table(id));
            }
            let tx = match self.tables.lock().await.get(&id) {
                Some(h) => h.tx.clone(),
                None => return Err(ApiError::unknown_table(id)),
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

    /// Stops every table after the commands already queued (in-flight commits finish).
    pub async fn shutdown(&self) {
        self.closing
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let handles: Vec<TableHandle> = self.tables.lock().await.drain().map(|(_, h)| h).collect();
        for h in &handles {
            let _ = h.tx.send(Cmd::Shutdown).await;
        }
        for h in handles {
            let _ = h.task.await;
        }
    }

    /// Stops every table at once, as a crash would (tests).
    pub async fn abort(&self) {
        self.closing
            .store(true, std::sync::atomic::Ordering::Relaxed);
        for (_, h) in self.tables.lock().await.drain() {
            h.task.abort();
        }
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }
}

//! The last finished tables replayed, kept to start again without the database.
//!
//! A table that is over leaves memory (issue 20), and each late request for it (a
//! viewer, its info, record or replay) starts it again: a read of its whole log and a
//! replay of its match. Late requests come in bunches (the viewers of a match that
//! just ended, a shared link), so the last tables replayed (64 by default,
//! [`FINISHED_CACHE_TABLES`]) stay here, least recently used first out: a bunch costs
//! one replay. An entry is a table's state, its log lines for every viewer and its
//! actions; a table over never changes, so an entry stays true.

use crate::table::{Prepared, TableId};
use hashlink::LruCache;
use std::sync::{Arc, Mutex};

/// How many finished tables the cache keeps by default (`Config::finished_cache_tables`).
pub const FINISHED_CACHE_TABLES: usize = 64;

pub struct FinishedCache {
    tables: Mutex<LruCache<TableId, Arc<Prepared>>>,
}

impl FinishedCache {
    pub fn new(capacity: usize) -> Self {
        FinishedCache {
            tables: Mutex::new(LruCache::new(capacity.max(1))),
        }
    }

    /// A copy of table `id` to start, if it is kept (copied outside the lock: a
    /// copy of a long match takes a while, and other tables' requests go on).
    pub fn get(&self, id: TableId) -> Option<Prepared> {
        let kept = self.lock().get(&id).cloned()?;
        kept.snapshot()
    }

    /// Keeps `table` (a copy from [`Prepared::snapshot`]: over, nothing to store).
    pub fn put(&self, id: TableId, table: Prepared) {
        self.lock().insert(id, Arc::new(table));
    }

    /// Tables kept.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, LruCache<TableId, Arc<Prepared>>> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }
}

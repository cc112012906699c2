//! The lease a table runs under (several nodes, docs/ARCHITECTURE.md): every write
//! of the table carries its epoch, and once the database refuses one (another node
//! claimed the table) the table is lost here: it stops at once, writing nothing more,
//! and its followers are told it moved.

use super::meta::TableId;
use crate::error::ApiError;
use crate::store::StoreError;
use crate::writer::Fence;
use std::sync::atomic::{AtomicBool, Ordering};

pub(super) struct TableFence {
    fence: Fence,
    lost: AtomicBool,
}

impl TableFence {
    pub fn new(table: TableId, epoch: Option<i64>) -> Self {
        TableFence {
            fence: Fence { table, epoch },
            lost: AtomicBool::new(false),
        }
    }

    /// What each write of the table carries.
    pub fn fence(&self) -> Fence {
        self.fence
    }

    pub fn table(&self) -> TableId {
        self.fence.table
    }

    pub fn epoch(&self) -> Option<i64> {
        self.fence.epoch
    }

    /// Another node holds the table now.
    pub fn lose(&self) {
        self.lost.store(true, Ordering::Relaxed);
    }

    pub fn is_lost(&self) -> bool {
        self.lost.load(Ordering::Relaxed)
    }

    /// A write's result as the API answers it; a fenced write loses the table.
    pub fn check<T>(&self, r: Result<T, StoreError>) -> Result<T, ApiError> {
        if matches!(r, Err(StoreError::Fenced)) {
            self.lose();
        }
        Ok(r?)
    }
}

//! Shelves kept in memory, each under the version numbers it was read with (migration
//! 0011): a 2,000-game page read from the database and sorted there spent most of its
//! time fetching and decoding 2,000 joined rows, so a server keeps a person's rows and
//! sorts and filters them itself (`shelf_select`). A copy is only used while the
//! database still gives the same numbers, read on every request, so a write through
//! any server node sharing the database is seen by the next read everywhere.
//!
//! Bounded by the entries held, least recently used first out.

use super::collection::ShelfEntry;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// The version numbers (a person's shelf, the catalog) a copy was read under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stamp {
    pub shelf: i64,
    pub catalog: i64,
}

/// One entry with what the filters and sorts read that the answer does not show.
#[derive(Clone, Debug)]
pub struct Held {
    pub entry: ShelfEntry,
    pub sort_ja: String,
    pub sort_en: String,
    /// Tenths, as stored (the filter compares these, not the shown decimal).
    pub rating: Option<i64>,
}

/// One person's whole shelf, in no particular order.
#[derive(Debug)]
pub struct ShelfRows {
    pub stamp: Stamp,
    pub entries: Vec<Held>,
}

/// At most this many entries in all (≈ 50 shelves of 2,000; a few hundred bytes each).
const CAPACITY: usize = 100_000;

#[derive(Default)]
struct Inner {
    shelves: HashMap<i64, (Arc<ShelfRows>, u64)>,
    held: usize,
    tick: u64,
}

#[derive(Default)]
pub struct ShelfCache {
    inner: Mutex<Inner>,
}

impl ShelfCache {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic elsewhere cannot leave the map half-changed: every change below is
        // whole before the guard drops.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `user`'s shelf if the copy held was read under `stamp`.
    pub fn get(&self, user: i64, stamp: Stamp) -> Option<Arc<ShelfRows>> {
        let mut inner = self.lock();
        inner.tick += 1;
        let tick = inner.tick;
        let (rows, used) = inner.shelves.get_mut(&user)?;
        if rows.stamp != stamp {
            return None;
        }
        *used = tick;
        Some(rows.clone())
    }

    /// Keeps `rows` as `user`'s shelf, replacing an older copy.
    pub fn put(&self, user: i64, rows: Arc<ShelfRows>) {
        let size = rows.entries.len();
        if size > CAPACITY {
            return;
        }
        let mut inner = self.lock();
        if let Some((old, _)) = inner.shelves.remove(&user) {
            inner.held -= old.entries.len();
        }
        while inner.held + size > CAPACITY {
            let Some(oldest) = inner
                .shelves
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| *k)
            else {
                break;
            };
            if let Some((old, _)) = inner.shelves.remove(&oldest) {
                inner.held -= old.entries.len();
            }
        }
        inner.tick += 1;
        let tick = inner.tick;
        inner.held += size;
        inner.shelves.insert(user, (rows, tick));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(stamp: Stamp, n: usize) -> Arc<ShelfRows> {
        let entries = Vec::with_capacity(n);
        let mut rows = ShelfRows { stamp, entries };
        rows.entries.resize_with(n, || Held {
            entry: crate::shelf::collection::tests::entry(1),
            sort_ja: String::new(),
            sort_en: String::new(),
            rating: None,
        });
        Arc::new(rows)
    }

    #[test]
    fn a_copy_is_only_given_under_the_numbers_it_was_read_with() {
        let cache = ShelfCache::default();
        let read = Stamp {
            shelf: 3,
            catalog: 1,
        };
        cache.put(7, rows(read, 2));
        assert!(cache.get(7, read).is_some());
        assert!(cache.get(7, Stamp { shelf: 4, ..read }).is_none());
        assert!(cache.get(7, Stamp { catalog: 2, ..read }).is_none());
        assert!(cache.get(8, read).is_none());
    }

    #[test]
    fn the_least_recently_used_shelf_goes_first_when_full() {
        let cache = ShelfCache::default();
        let s = Stamp {
            shelf: 1,
            catalog: 0,
        };
        cache.put(1, rows(s, CAPACITY / 2));
        cache.put(2, rows(s, CAPACITY / 2));
        assert!(cache.get(1, s).is_some());
        cache.put(3, rows(s, 10));
        assert!(cache.get(1, s).is_some(), "used last, kept");
        assert!(cache.get(2, s).is_none(), "the oldest went");
        assert!(cache.get(3, s).is_some());
        cache.put(4, rows(s, CAPACITY + 1));
        assert!(
            cache.get(4, s).is_none(),
            "larger than everything: not kept"
        );
    }
}

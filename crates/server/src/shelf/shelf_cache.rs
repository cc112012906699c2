//! Shelves kept in memory, each under the version numbers it was read with (migration
//! 0011): a 2,000-game page read from the database and sorted there spent most of its
//! time fetching and decoding 2,000 joined rows, so a server keeps a person's rows and
//! sorts and filters them itself (`shelf_select`). A copy is only used while the
//! database still gives the same numbers, read on every request, so a write through
//! any server node sharing the database is seen by the next read everywhere.
//!
//! A write through this server updates its own copy in place ([`ShelfCache::apply`]):
//! the write's transaction gives the shelf's new version, which follows the copy's by
//! one when no other write came between, so only other nodes' writes (and imports)
//! cost a reread.
//!
//! Bounded by the entries held, least recently used first out.

use super::collection::ShelfEntry;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
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
#[derive(Clone, Debug)]
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
    /// Shelves asked for with no copy under the current numbers (read from the
    /// database), and writes of this server applied to its copy, for `/metrics`.
    misses: AtomicU64,
    applied: AtomicU64,
}

/// One write through this server to a shelf, as [`ShelfCache::apply`] replays it.
#[derive(Debug)]
pub enum Change {
    /// The game's entry as stored after the write (added or replaced).
    Put(Box<Held>),
    /// The game (its catalog id) taken off.
    Remove(i64),
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
        let found = inner
            .shelves
            .get_mut(&user)
            .filter(|(rows, _)| rows.stamp == stamp);
        let Some((rows, used)) = found else {
            self.misses.fetch_add(1, Ordering::Relaxed);
            return None;
        };
        *used = tick;
        Some(rows.clone())
    }

    /// Replays `change`, a write through this server that left `user`'s shelf at
    /// version `shelf`, on the copy held if that copy is at the version just before:
    /// the copy then holds what the database holds at `shelf`, and the next read uses
    /// it. Otherwise (no copy, or another write came between) nothing changes and the
    /// next read rereads. Whether the copy was updated.
    pub fn apply(&self, user: i64, shelf: i64, change: Change) -> bool {
        let Some(old) = self.lock().shelves.get(&user).map(|(rows, _)| rows.clone()) else {
            return false;
        };
        if old.stamp.shelf.checked_add(1) != Some(shelf) {
            return false;
        }
        // Built outside the lock (a copy of up to thousands of entries), swapped in
        // only if no other copy replaced `old` meanwhile.
        let mut rows = ShelfRows::clone(&old);
        rows.stamp.shelf = shelf;
        let at = |id: i64| rows.entries.iter().position(|h| h.entry.game.id == id);
        match change {
            Change::Put(held) => match at(held.entry.game.id) {
                Some(i) => rows.entries[i] = *held,
                None => rows.entries.push(*held),
            },
            Change::Remove(game) => {
                if let Some(i) = at(game) {
                    rows.entries.swap_remove(i);
                }
            }
        }
        let mut inner = self.lock();
        let Some((held, _)) = inner.shelves.get_mut(&user) else {
            return false;
        };
        if !Arc::ptr_eq(held, &old) || rows.entries.len() > CAPACITY {
            return false;
        }
        let size = rows.entries.len();
        *held = Arc::new(rows);
        inner.held = inner.held + size - old.entries.len();
        self.applied.fetch_add(1, Ordering::Relaxed);
        true
    }

    /// The rows of `/metrics`.
    pub fn render_metrics(&self, out: &mut String) {
        crate::metrics::write_rows(
            out,
            &[
                (
                    "takuge_shelf_reads_total",
                    "counter",
                    "Shelves read whole from the database (no copy in memory at their version)",
                    self.misses.load(Ordering::Relaxed) as i64,
                ),
                (
                    "takuge_shelf_writes_applied_total",
                    "counter",
                    "Writes through this server applied to its copy of the shelf in place",
                    self.applied.load(Ordering::Relaxed) as i64,
                ),
            ],
        );
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

    fn held(id: i64, comment: &str) -> Held {
        let mut entry = crate::shelf::collection::tests::entry(id);
        entry.comment = comment.to_string();
        Held {
            entry,
            sort_ja: String::new(),
            sort_en: String::new(),
            rating: None,
        }
    }

    fn comments(rows: &ShelfRows) -> Vec<(i64, String)> {
        let mut v: Vec<_> = (rows.entries.iter())
            .map(|h| (h.entry.game.id, h.entry.comment.clone()))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_write_following_the_copy_by_one_version_is_applied_in_place_and_no_other() {
        let cache = ShelfCache::default();
        let at = |shelf| Stamp { shelf, catalog: 4 };
        assert!(
            !cache.apply(7, 1, Change::Remove(1)),
            "no copy: nothing to do"
        );
        let first = ShelfRows {
            stamp: at(2),
            entries: vec![held(1, "a"), held(2, "b")],
        };
        cache.put(7, Arc::new(first));
        assert!(
            !cache.apply(7, 4, Change::Put(Box::new(held(1, "x")))),
            "a write between"
        );
        assert!(cache.get(7, at(2)).is_some(), "the copy kept as it was");
        assert!(
            cache.apply(7, 3, Change::Put(Box::new(held(1, "c")))),
            "replaced"
        );
        assert!(cache.get(7, at(2)).is_none());
        let now = cache.get(7, at(3)).expect("at version 3");
        assert_eq!(comments(&now), [(1, "c".into()), (2, "b".into())]);
        assert!(
            cache.apply(7, 4, Change::Put(Box::new(held(3, "d")))),
            "added"
        );
        assert!(cache.apply(7, 5, Change::Remove(2)), "removed");
        let now = cache.get(7, at(5)).expect("at version 5");
        assert_eq!(comments(&now), [(1, "c".into()), (3, "d".into())]);
        assert_eq!(cache.lock().held, 2, "the count of entries held follows");
        assert!(
            cache
                .get(
                    7,
                    Stamp {
                        shelf: 5,
                        catalog: 5
                    }
                )
                .is_none(),
            "the catalog's number still counts"
        );
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

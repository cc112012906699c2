//! A lock per key, made on first use and gone with its last user: loading one table
//! from the database never waits for another's load (one lock for every table
//! serialised the late requests of all finished tables behind each other's replays).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use tokio::sync::OwnedMutexGuard;

pub struct KeyedLock<K> {
    locks: Mutex<HashMap<K, Arc<tokio::sync::Mutex<()>>>>,
}

impl<K: Eq + Hash + Copy> Default for KeyedLock<K> {
    fn default() -> Self {
        KeyedLock {
            locks: Mutex::new(HashMap::new()),
        }
    }
}

impl<K: Eq + Hash + Copy> KeyedLock<K> {
    /// Waits until no one else holds `key`'s lock, and holds it until the guard drops.
    pub async fn lock(&self, key: K) -> KeyGuard<'_, K> {
        let lock = self.map().entry(key).or_default().clone();
        let held = lock.clone().lock_owned().await;
        KeyGuard {
            owner: self,
            key,
            lock,
            held: Some(held),
        }
    }

    /// Keys with a lock held or waited for.
    pub fn len(&self) -> usize {
        self.map().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<K, Arc<tokio::sync::Mutex<()>>>> {
        self.locks.lock().unwrap_or_else(|e| e.into_inner())
    }
}

pub struct KeyGuard<'a, K: Eq + Hash + Copy> {
    owner: &'a KeyedLock<K>,
    key: K,
    lock: Arc<tokio::sync::Mutex<()>>,
    held: Option<OwnedMutexGuard<()>>,
}

impl<K: Eq + Hash + Copy> Drop for KeyGuard<'_, K> {
    fn drop(&mut self) {
        drop(self.held.take());
        let mut map = self.owner.map();
        // Only the map's reference and ours left: nobody holds or waits for this key
        // (a waiter holds a reference, and none can be taken while we hold the map).
        if Arc::strong_count(&self.lock) == 2 {
            map.remove(&self.key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_key_held_does_not_hold_back_another_and_its_entry_goes_with_its_last_user() {
        let locks = Arc::new(KeyedLock::<i64>::default());
        let first = locks.lock(1).await;
        // Another key: at once, although key 1 is held.
        let other = tokio::time::timeout(Duration::from_secs(5), locks.lock(2))
            .await
            .expect("key 2 is not held by key 1's holder");
        drop(other);
        assert_eq!(locks.len(), 1);
        // The same key waits for its holder.
        let waiter = tokio::spawn({
            let locks = locks.clone();
            async move {
                let _second = locks.lock(1).await;
            }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiter.is_finished());
        drop(first);
        tokio::time::timeout(Duration::from_secs(5), waiter)
            .await
            .expect("the waiter gets the lock once it is free")
            .expect("the waiter ran");
        assert!(locks.is_empty());
    }
}

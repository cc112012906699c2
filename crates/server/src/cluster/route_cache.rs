//! The owners of tables other nodes run, as looked up a moment ago (`Cluster::route`).
//!
//! Only "another node owns it" is remembered: "no one does" leads to a claim, which the
//! database decides each time. An entry older than [`FRESH_FOR`] is not used; a wrong
//! one costs the request a `moved` and a look-up in the database (`Cluster::reroute`).

use super::Route;
use crate::table::TableId;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a looked-up owner is used without asking again. Well under a lease (a
/// table changes owner at a failover, a handover or a placement), and long enough that
/// the players of one table, subscribing together, ask the database once.
pub const FRESH_FOR: Duration = Duration::from_secs(2);
/// Past this many entries, the stale ones are swept at the next insert.
const SWEEP_PAST: usize = 4096;

#[derive(Default)]
pub struct Owners {
    map: Mutex<HashMap<TableId, (Route, Instant)>>,
}

impl Owners {
    pub fn get(&self, table: TableId) -> Option<Route> {
        self.get_at(table, Instant::now())
    }

    fn get_at(&self, table: TableId, now: Instant) -> Option<Route> {
        let map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        map.get(&table)
            .filter(|(_, at)| now.saturating_duration_since(*at) < FRESH_FOR)
            .map(|(route, _)| route.clone())
    }

    pub fn remember(&self, table: TableId, route: &Route) {
        self.remember_at(table, route, Instant::now());
    }

    fn remember_at(&self, table: TableId, route: &Route, now: Instant) {
        if *route == Route::Here {
            return;
        }
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= SWEEP_PAST {
            map.retain(|_, (_, at)| now.saturating_duration_since(*at) < FRESH_FOR);
        }
        map.insert(table, (route.clone(), now));
    }

    pub fn forget(&self, table: TableId) {
        self.map
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&table);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(name: &str) -> Route {
        Route::Node {
            name: name.into(),
            url: format!("http://{name}"),
        }
    }

    #[test]
    fn an_owner_is_used_for_a_moment_then_asked_again() {
        let owners = Owners::default();
        let t0 = Instant::now();
        owners.remember_at(7, &node("b"), t0);
        assert_eq!(owners.get_at(7, t0 + FRESH_FOR / 2), Some(node("b")));
        assert_eq!(owners.get_at(7, t0 + FRESH_FOR), None);
        assert_eq!(owners.get_at(8, t0), None);
    }

    #[test]
    fn a_forgotten_owner_is_asked_again_and_here_is_never_remembered() {
        let owners = Owners::default();
        let t0 = Instant::now();
        owners.remember_at(7, &node("b"), t0);
        owners.forget(7);
        assert_eq!(owners.get_at(7, t0), None);
        owners.remember_at(7, &Route::Here, t0);
        assert_eq!(owners.get_at(7, t0), None);
    }

    #[test]
    fn stale_owners_are_swept_so_the_map_stays_small() {
        let owners = Owners::default();
        let t0 = Instant::now();
        for t in 0..SWEEP_PAST as TableId {
            owners.remember_at(t, &node("b"), t0);
        }
        owners.remember_at(-1, &node("c"), t0 + FRESH_FOR);
        let map = owners.map.lock().unwrap_or_else(|e| e.into_inner());
        assert_eq!(map.len(), 1);
    }
}

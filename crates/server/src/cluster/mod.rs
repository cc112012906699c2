//! Several takuge nodes on one PostgreSQL (issue 19): which node owns a live table,
//! and how a request for a table owned elsewhere reaches it.
//!
//! One node (SQLite, or PostgreSQL without `--node-name`) owns every table: `route`
//! answers `Route::Here` and nothing here touches the database. With a node name, each
//! live table is owned through a lease row with an epoch (docs/ARCHITECTURE.md,
//! "Several nodes"), and `route` tells the caller whether to serve a table itself or
//! pass the request to the node that owns it.
//!
//! - `nodes.rs`: the node's registration, its heartbeat (renewing its leases), the
//!   failover scan, and the handover at a graceful stop;
//! - `events.rs`: LISTEN/NOTIFY between the nodes (tables handed or placed, sessions
//!   ended).

pub mod events;
pub mod nodes;

use crate::error::ApiError;
use crate::hub::Tables;
use crate::store::cluster::{Presence, SoleNode};
use crate::store::Store;
use crate::table::TableId;
use std::time::Duration;

/// How often a node renews its row and its leases.
pub const HEARTBEAT: Duration = Duration::from_secs(3);
/// How long a lease (and a node's heartbeat) holds without renewal: past it, another
/// node may claim the table. Three heartbeats, so one slow heartbeat loses nothing.
pub const LEASE: Duration = Duration::from_secs(10);
/// How often a node looks for tables whose lease expired (a node died).
pub const FAILOVER_EVERY: Duration = Duration::from_secs(2);
/// How often a node looks for nodes whose presence lock is gone (their process
/// died): such a node's tables are claimed at once, not after their leases.
pub const PRESENCE_EVERY: Duration = Duration::from_secs(1);

/// `LEASE` in milliseconds, as the queries take it.
pub fn lease_ms() -> i64 {
    LEASE.as_millis() as i64
}

pub mod forward;
#[doc(hidden)]
pub mod pause;
#[doc(hidden)]
pub mod pinned;
pub mod relay;
mod route_cache;
pub mod trust;

/// What a node says about itself to the others (`--node-name`, `--advertise`,
/// `--cluster-secret`). Its `Debug` leaves the secret out (a `Config` may be logged).
#[derive(Clone)]
pub struct NodeConfig {
    /// Unique among the nodes on one database; a node that restarts under the same
    /// name takes its own tables back at once instead of waiting for their leases.
    pub name: String,
    /// The base URL the other nodes reach this one at (`http://10.0.0.5:8080`); never
    /// shown to clients.
    pub advertise: String,
    /// Shared by every node: requests one node passes to another carry it, and a node
    /// refuses a passed request without it.
    pub secret: String,
}

impl std::fmt::Debug for NodeConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NodeConfig")
            .field("name", &self.name)
            .field("advertise", &self.advertise)
            .field("secret", &"<hidden>")
            .finish()
    }
}

/// Where a request for a table goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// This node owns the table (or may claim it): serve it here.
    Here,
    /// Another live node owns it: pass the request to it.
    Node { name: String, url: String },
}

/// This node's place among the nodes.
pub struct Cluster {
    node: Option<NodeConfig>,
    /// A named node's own run: set for a member of several nodes (not for a test's
    /// pinned node).
    member: Option<Member>,
    /// Routes a test fixed (`Cluster::pinned`); `None` in production.
    pins: Option<pinned::Pins>,
    /// Wakes the failover scan at once: a node found gone, here or by another node
    /// (`events.rs`).
    pub scan_now: tokio::sync::Notify,
    /// A node without a name on PostgreSQL: its lock, which keeps named nodes away.
    sole: Option<tokio::sync::Mutex<SoleNode>>,
    /// Turns true once, when this node found the other kind of node on its database
    /// (`nodes::displaced`): it stopped serving tables, and `serve` stops the process.
    displaced: tokio::sync::watch::Sender<bool>,
}

/// A named node: the instance it runs as (random, new at each start), its presence
/// lock, the database, and the tables it runs (the hub's map).
struct Member {
    instance: String,
    presence: tokio::sync::Mutex<Presence>,
    db: Store,
    tables: Tables,
    /// Owners looked up lately: the players of a table subscribe and sit within
    /// moments of each other, and each would otherwise ask the database.
    owners: route_cache::Owners,
}

impl Cluster {
    /// The only node: every table is here. `sole` is its lock on PostgreSQL (none on
    /// SQLite, whose file one process holds anyway).
    pub fn single(sole: Option<SoleNode>) -> Self {
        Cluster {
            node: None,
            member: None,
            pins: None,
            scan_now: tokio::sync::Notify::new(),
            sole: sole.map(tokio::sync::Mutex::new),
            displaced: tokio::sync::watch::Sender::new(false),
        }
    }

    /// A node whose routes a test fixes (`pinned.rs`); every table not pinned is here.
    #[doc(hidden)]
    pub fn pinned(node: NodeConfig, pins: pinned::Pins) -> Self {
        Cluster {
            node: Some(node),
            member: None,
            pins: Some(pins),
            scan_now: tokio::sync::Notify::new(),
            sole: None,
            displaced: tokio::sync::watch::Sender::new(false),
        }
    }

    /// One of several nodes on `db`, registered as `instance`.
    pub fn member(
        config: NodeConfig,
        instance: String,
        presence: Presence,
        db: Store,
        tables: Tables,
    ) -> Self {
        Cluster {
            node: Some(config),
            member: Some(Member {
                instance,
                presence: tokio::sync::Mutex::new(presence),
                db,
                tables,
                owners: route_cache::Owners::default(),
            }),
            pins: None,
            scan_now: tokio::sync::Notify::new(),
            sole: None,
            displaced: tokio::sync::watch::Sender::new(false),
        }
    }

    /// A nameless PostgreSQL node's lock (see `SoleNode`).
    pub async fn sole(&self) -> Option<tokio::sync::MutexGuard<'_, SoleNode>> {
        match &self.sole {
            Some(s) => Some(s.lock().await),
            None => None,
        }
    }

    /// Whether this node found the other kind of node on its database and stopped
    /// serving tables (a nameless node beside named ones; `nodes::displaced`).
    pub fn is_displaced(&self) -> bool {
        *self.displaced.borrow()
    }

    /// Turns true when this node is displaced (see `is_displaced`).
    pub fn displaced(&self) -> tokio::sync::watch::Receiver<bool> {
        self.displaced.subscribe()
    }

    /// Marks this node displaced; whether it was not already.
    pub(crate) fn mark_displaced(&self) -> bool {
        !self.displaced.send_replace(true)
    }

    /// This node's presence (a member's): the lock and the connection its heartbeat
    /// and its look for nodes gone run on.
    pub async fn presence(&self) -> Option<tokio::sync::MutexGuard<'_, Presence>> {
        match &self.member {
            Some(m) => Some(m.presence.lock().await),
            None => None,
        }
    }

    /// Ends this node's presence session (or a nameless node's lock) now: at the end
    /// of a graceful stop, and in `Server::kill`, standing in for the process's death.
    pub async fn end_presence(&self) {
        if let Some(m) = &self.member {
            m.presence.lock().await.end().await;
        }
        if let Some(s) = &self.sole {
            s.lock().await.end().await;
        }
    }

    pub fn node(&self) -> Option<&NodeConfig> {
        self.node.as_ref()
    }

    /// This run's instance id (a named node's).
    pub fn instance(&self) -> Option<&str> {
        self.member.as_ref().map(|m| m.instance.as_str())
    }

    /// Where requests for `table` go: a test's pinned route; here for a table this node
    /// runs (from memory); else to the live node holding its lease, as looked up within
    /// the last [`route_cache::FRESH_FOR`]; else here (this node claims it).
    ///
    /// An owner remembered from a moment ago may have lost the table since: the request
    /// then reaches a node that answers `moved` (or none at all), and the caller asks
    /// again with [`Cluster::reroute`], which looks in the database.
    pub async fn route(&self, table: TableId) -> Result<Route, ApiError> {
        self.find(table, true).await
    }

    /// Where requests for `table` go, from the database: after the route given went
    /// wrong (the node said `moved`, or did not answer).
    pub async fn reroute(&self, table: TableId) -> Result<Route, ApiError> {
        self.forget_owner(table);
        self.find(table, false).await
    }

    /// Drops the owner remembered for `table` (it proved wrong).
    pub fn forget_owner(&self, table: TableId) {
        if let Some(m) = &self.member {
            m.owners.forget(table);
        }
    }

    async fn find(&self, table: TableId, remembered: bool) -> Result<Route, ApiError> {
        if let Some(route) = self.pins.as_ref().and_then(|p| p.get(table)) {
            return Ok(route);
        }
        let (Some(m), Some(config)) = (&self.member, &self.node) else {
            return Ok(Route::Here);
        };
        let running = m
            .tables
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&table)
            .is_some_and(|h| !h.tx.is_closed());
        if running {
            return Ok(Route::Here);
        }
        if remembered {
            if let Some(route) = m.owners.get(table) {
                return Ok(route);
            }
        }
        Ok(match m.db.lease_owner(table, &config.name).await? {
            Some((name, url)) => {
                let route = Route::Node { name, url };
                m.owners.remember(table, &route);
                route
            }
            None => {
                m.owners.forget(table);
                Route::Here
            }
        })
    }
}

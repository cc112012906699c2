//! Several takuge nodes on one PostgreSQL (issue 19): which node owns a live table,
//! and how a request for a table owned elsewhere reaches it.
//!
//! One node (SQLite, or PostgreSQL without `--node-name`) owns every table: `route`
//! answers `Route::Here` and nothing here touches the database. With a node name, each
//! live table is owned through a lease row with an epoch (docs/DEPLOY.md, "Several
//! nodes"), and `route` tells the caller whether to serve a table itself or pass the
//! request to the node that owns it.

use crate::error::ApiError;
use crate::table::TableId;

pub mod forward;
#[doc(hidden)]
pub mod pinned;
pub mod relay;
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
    /// Routes a test fixed (`Cluster::pinned`); `None` in production.
    pins: Option<pinned::Pins>,
}

impl Cluster {
    /// The only node: every table is here.
    pub fn single() -> Self {
        Cluster {
            node: None,
            pins: None,
        }
    }

    /// A node whose routes a test fixes (`pinned.rs`); every table not pinned is here.
    #[doc(hidden)]
    pub fn pinned(node: NodeConfig, pins: pinned::Pins) -> Self {
        Cluster {
            node: Some(node),
            pins: Some(pins),
        }
    }

    pub fn node(&self) -> Option<&NodeConfig> {
        self.node.as_ref()
    }

    /// Where requests for `table` go.
    pub async fn route(&self, table: TableId) -> Result<Route, ApiError> {
        if let Some(route) = self.pins.as_ref().and_then(|p| p.get(table)) {
            return Ok(route);
        }
        Ok(Route::Here)
    }
}

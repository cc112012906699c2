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

/// What a node says about itself to the others (`--node-name`, `--advertise`,
/// `--cluster-secret`).
#[derive(Clone, Debug)]
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
}

impl Cluster {
    /// The only node: every table is here.
    pub fn single() -> Self {
        Cluster { node: None }
    }

    pub fn node(&self) -> Option<&NodeConfig> {
        self.node.as_ref()
    }

    /// Where requests for `table` go.
    pub async fn route(&self, _table: TableId) -> Result<Route, ApiError> {
        Ok(Route::Here)
    }
}

//! Routes fixed by a test, before leases decide them: `Cluster::pinned` names the
//! tables another node serves, so two real servers on one database can be made to
//! forward to each other without a lease row. Not for production (`doc(hidden)`).

use super::Route;
use crate::table::TableId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The pinned routes, shared with the test that set them: a table pinned after the
/// server started (its id is known once it is created) is routed from then on.
#[doc(hidden)]
#[derive(Clone, Debug, Default)]
pub struct Pins(Arc<Mutex<HashMap<TableId, Route>>>);

impl Pins {
    pub fn new(routes: HashMap<TableId, Route>) -> Self {
        Pins(Arc::new(Mutex::new(routes)))
    }

    /// Routes `table` to `route` from now on.
    pub fn pin(&self, table: TableId, route: Route) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(table, route);
    }

    /// The pinned route of `table`, if any.
    pub fn get(&self, table: TableId) -> Option<Route> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&table)
            .cloned()
    }
}

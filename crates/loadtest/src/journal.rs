//! What the server told the load clients, kept so that a checker can compare it with
//! the database afterwards (the chaos test, `crates/cli/tests/cluster_chaos.rs`): every
//! table started, and every action the server acknowledged.

use std::collections::HashSet;
use std::sync::Mutex;

/// An action the server acknowledged (`ack`): committed as `version` of `table`, sent
/// under the client action id `id` (docs/PROTOCOL.md, "Action ids").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Acked {
    pub table: i64,
    pub version: u64,
    pub id: String,
}

#[derive(Debug, Default)]
pub(crate) struct Journal {
    acked: Mutex<Vec<Acked>>,
    tables: Mutex<Vec<i64>>,
    finished: Mutex<HashSet<i64>>,
}

/// The journal of a whole run.
#[derive(Clone, Debug, Default)]
pub struct Acknowledged {
    /// Every acknowledged action, in the order the acks arrived.
    pub acked: Vec<Acked>,
    /// Every table the load clients started.
    pub tables: Vec<i64>,
    /// The tables whose end a load client saw.
    pub finished: Vec<i64>,
}

impl Journal {
    pub fn acked(&self, a: Acked) {
        self.acked.lock().unwrap_or_else(|e| e.into_inner()).push(a);
    }

    pub fn started(&self, table: i64) {
        self.tables
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(table);
    }

    /// Notes the end of `table`; true the first time (a table's clients all see it).
    pub fn finished(&self, table: i64) -> bool {
        self.finished
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(table)
    }

    pub fn take(&self) -> Acknowledged {
        Acknowledged {
            acked: take(&self.acked),
            tables: take(&self.tables),
            finished: std::mem::take(&mut *self.finished.lock().unwrap_or_else(|e| e.into_inner()))
                .into_iter()
                .collect(),
        }
    }
}

fn take<T>(m: &Mutex<Vec<T>>) -> Vec<T> {
    std::mem::take(&mut *m.lock().unwrap_or_else(|e| e.into_inner()))
}

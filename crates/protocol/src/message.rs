//! The WebSocket's client → server messages (docs/PROTOCOL.md).

use crate::TableId;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    Subscribe {
        table: TableId,
        #[serde(default)]
        invite: Option<String>,
        #[serde(default, rename = "ref")]
        reference: Option<Value>,
    },
    Unsubscribe {
        table: TableId,
        #[serde(default, rename = "ref")]
        reference: Option<Value>,
    },
    Act {
        table: TableId,
        version: u64,
        /// The `draft` of the table message the action was chosen from (a secret choice
        /// of several steps keeps the version; docs/PROTOCOL.md).
        #[serde(default)]
        draft: Option<u64>,
        action: Value,
        #[serde(default)]
        seat: Option<u8>,
        /// The client's id for the action: a resend is answered, not played again.
        #[serde(default)]
        id: Option<String>,
        #[serde(default, rename = "ref")]
        reference: Option<Value>,
    },
    Ping {
        #[serde(default, rename = "ref")]
        reference: Option<Value>,
    },
}

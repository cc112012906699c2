//! The `table` message (docs/PROTOCOL.md), written straight to JSON text.
//!
//! A server sends one of these to every connection after every action, so it is built
//! without `serde_json::Value` trees: the fixed fields are a borrowed struct, and the
//! seat's view and legal actions arrive already written by the game
//! ([`DynState::write_view`], [`DynState::write_legal_actions`]) and are spliced in.
//!
//! [`DynState::write_view`]: takuge_engine::dynamic::DynState::write_view
//! [`DynState::write_legal_actions`]: takuge_engine::dynamic::DynState::write_legal_actions

use crate::table::{Reason, SeatInfo, Status, TableId};
use axum::extract::ws::Utf8Bytes;
use serde::Serialize;
use std::borrow::Cow;
use takuge_engine::{Outcome, Seat};

/// Every field of the message but the view and the legal actions.
#[derive(Serialize)]
pub struct TableHead<'a> {
    pub protocol: u32,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub table: TableId,
    pub game: &'a str,
    pub status: Status,
    /// Why the server closed the table, when it did.
    pub abandoned_reason: Option<Reason>,
    pub host: i64,
    pub seats: &'a [SeatInfo],
    pub you: Option<Seat>,
    pub version: u64,
    /// To a seat part-way through a secret choice of several steps only: the steps it
    /// has made of it (`crate::moves`); the version stays until the choice is whole.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draft: Option<usize>,
    pub pending: Vec<u8>,
    pub log: Vec<LogLine<'a>>,
    pub outcome: Option<&'a Outcome>,
    pub clock: Option<ClockOut>,
    /// The server's clock (Unix ms) when it wrote the message, so a client can count
    /// `clock.deadline_ms` down on its own clock whatever their difference.
    pub server_time_ms: i64,
}

/// One log line as this viewer may read it.
#[derive(Serialize)]
pub struct LogLine<'a> {
    pub index: usize,
    /// `null` for what an action revealed to everyone (the places, cards or exhibits
    /// of a reveal), a line of its own after the action's.
    pub seat: Option<Seat>,
    pub text: Cow<'a, str>,
    pub text_ja: Cow<'a, str>,
}

/// Each seat's reserve left and, while it thinks, its deadline (Unix ms).
#[derive(Serialize)]
pub struct ClockOut {
    pub reserve_ms: Vec<u64>,
    pub deadline_ms: Vec<Option<i64>>,
}

/// The `moved` message: the table stopped on this node (its lease went to another
/// node); the connection subscribes again to reach it where it runs now.
pub fn moved_message(table: TableId) -> Utf8Bytes {
    Utf8Bytes::from(
        serde_json::json!({ "protocol": takuge_protocol::PROTOCOL, "type": "moved", "table": table })
            .to_string(),
    )
}

/// `head` with `"view"` and `"legal"` added: both must be JSON values already.
pub fn table_message(head: &TableHead<'_>, view: &[u8], legal: &[u8]) -> Utf8Bytes {
    let mut out = Vec::with_capacity(256 + view.len() + legal.len());
    splice(&mut out, head, &[("view", view), ("legal", legal)]);
    // Every part is JSON text serde_json wrote, so this holds; `null` keeps a broken
    // game's message from taking the connection down.
    String::from_utf8(out).map_or_else(|_| Utf8Bytes::from_static("null"), Utf8Bytes::from)
}

/// Writes `head` (a struct, so a JSON object) with `raw` fields added before its
/// closing brace.
fn splice<T: Serialize>(out: &mut Vec<u8>, head: &T, raw: &[(&str, &[u8])]) {
    let start = out.len();
    if serde_json::to_writer(&mut *out, head).is_err() || out.last() != Some(&b'}') {
        out.truncate(start);
        out.extend_from_slice(b"{}");
    }
    out.pop();
    let mut empty = out.len() == start + 1;
    for (key, value) in raw {
        if !empty {
            out.push(b',');
        }
        empty = false;
        out.push(b'"');
        out.extend_from_slice(key.as_bytes());
        out.extend_from_slice(b"\":");
        out.extend_from_slice(value);
    }
    out.push(b'}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[derive(Serialize)]
    struct Head {
        a: u32,
    }

    #[derive(Serialize)]
    struct Nothing {}

    #[test]
    fn spliced_fields_make_one_json_object() {
        let mut out = Vec::new();
        splice(
            &mut out,
            &Head { a: 1 },
            &[("view", b"{\"x\":[1,2]}"), ("legal", b"[]")],
        );
        let v: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v, json!({"a": 1, "view": {"x": [1, 2]}, "legal": []}));
    }

    #[test]
    fn spliced_into_an_empty_object_has_no_leading_comma() {
        let mut out = Vec::new();
        splice(&mut out, &Nothing {}, &[("view", b"null")]);
        assert_eq!(out, b"{\"view\":null}");
    }
}

//! What a client may send the takuge server, and the one way each is decoded: the
//! WebSocket's [`ClientMsg`], the HTTP request bodies and the query strings. The
//! server decodes untrusted input only through [`decode_client_message`],
//! [`decode_body`] and [`decode_query`], so the fuzz targets in `fuzz/` exercise
//! exactly the code that faces the network.

mod bgg;
mod body;
mod clock;
mod message;
mod profile;
mod query;
mod recommend;
mod reviews;
mod shelf;
mod shelf_query;

pub use bgg::{decode_bgg_csv, BggRow, MAX_ROWS as MAX_IMPORT_ROWS};
pub use body::{ActBody, BotsBody, CreateTable, Credentials, PasswordChange, SitBody};
pub use clock::Clock;
pub use message::ClientMsg;
pub use profile::{ProfileChange, MAX_DISPLAY_NAME};
pub use query::{InviteQuery, LobbyQuery, LobbyStatus, ReplayQuery, WsQuery};
pub use recommend::{Dismiss, Language, RecommendQuery, SimilarQuery};
pub use reviews::{
    NewReview, ReportState, ReportsQuery, ReviewEdit, ReviewKind, ReviewOrder, ReviewReport,
    ReviewsQuery, MAX_REPORT_REASON, MAX_REVIEW_TEXT, MAX_REVIEW_TITLE,
};
pub use shelf::{
    rating_tenths, valid_date, CollectionEntry, GameFields, NewPlay, PlayerEntry, ShelfSettings,
    Visibility,
};
pub use shelf_query::{
    ChangeStatus, ChangesQuery, ExportFormat, ExportPart, ExportQuery, Order, PlaysQuery,
    ShelfQuery, SortBy, Status,
};

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

/// The version of the WebSocket protocol (docs/PROTOCOL.md).
pub const PROTOCOL: u32 = 1;

/// A table's id.
pub type TableId = i64;

/// Why input was refused: a stable code and words. The server answers it as a `400`
/// (HTTP) or an `error` message (WebSocket).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub code: &'static str,
    pub message: String,
}

impl Refusal {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        Refusal {
            code,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for Refusal {}

/// Whether the JSON text's top-level value is an object. serde's derives also read a
/// struct from an array of its fields in order (`["alice", "pw"]` as credentials,
/// `[]` as an empty body); nothing takuge documents is sent that way, so an array
/// (or any other non-object) is refused before it reaches them.
fn is_object(text: &[u8]) -> bool {
    text.iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b == b'{')
}

/// An HTTP request body: a JSON object of `T`'s fields and no others.
pub fn decode_body<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Refusal> {
    if !is_object(bytes) {
        return Err(Refusal::new(
            "malformed_json",
            "the body is not the expected JSON: it must be a JSON object",
        ));
    }
    serde_json::from_slice(bytes).map_err(|e| {
        Refusal::new(
            "malformed_json",
            format!("the body is not the expected JSON: {e}"),
        )
    })
}

/// A WebSocket text message from a client.
pub fn decode_client_message(text: &str) -> Result<ClientMsg, Refusal> {
    let refuse = |why: &dyn std::fmt::Display| {
        Refusal::new(
            "malformed_json",
            format!("not a message of protocol {PROTOCOL}: {why}"),
        )
    };
    if !is_object(text.as_bytes()) {
        return Err(refuse(&"a message is a JSON object"));
    }
    serde_json::from_str(text).map_err(|e| refuse(&e))
}

/// A query string (without the `?`) of `T`'s parameters.
pub fn decode_query<T: DeserializeOwned>(query: &str) -> Result<T, Refusal> {
    serde_urlencoded::from_str(query).map_err(|e| {
        Refusal::new(
            "malformed_query",
            format!("the query string is not the expected one: {e}"),
        )
    })
}

/// The parts of a client message an answer refers to, read leniently.
#[derive(Deserialize)]
struct Envelope {
    #[serde(default, rename = "ref")]
    reference: Option<Value>,
    #[serde(default)]
    table: Option<Value>,
}

/// The `ref` (and `table`, when it is a table id) of a message that is refused
/// without being decoded (over a rate limit, or not of the expected shape), so
/// that the client can tell which of its messages the error answers.
pub fn reference_of(text: &str) -> (Option<TableId>, Option<Value>) {
    if !is_object(text.as_bytes()) {
        return (None, None);
    }
    match serde_json::from_str::<Envelope>(text) {
        Ok(e) => (e.table.as_ref().and_then(Value::as_i64), e.reference),
        Err(_) => (None, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Found by the `ws_message` fuzz target: a `ref` of 60 digits parsed to a float
    /// that, written back out, read as a different float (serde_json's fast float
    /// parsing is not correctly rounded without `float_roundtrip`), so the `ref` a
    /// client got back was not the number it sent.
    #[test]
    fn a_huge_numeric_ref_reads_back_as_the_same_number() {
        let text =
            r#"{"type":"ping","ref":666666666666666666666666666666666666666266666666666666666661}"#;
        let msg = decode_client_message(text).unwrap_or_else(|e| panic!("{e:?}"));
        let again = serde_json::to_string(&msg).unwrap_or_default();
        assert_eq!(decode_client_message(&again).ok(), Some(msg), "{again}");
    }

    #[test]
    fn a_json_array_is_not_a_body() {
        assert_eq!(
            decode_body::<SitBody>(b"[]").map_err(|r| r.code),
            Err("malformed_json")
        );
        assert!(decode_body::<Credentials>(br#"["alice", "correct horse"]"#).is_err());
        assert!(decode_body::<SitBody>(b" \n{}").is_ok());
        assert!(decode_body::<SitBody>(b"null").is_err());
        assert!(decode_body::<SitBody>(b"").is_err());
    }

    #[test]
    fn a_json_array_is_not_a_message() {
        assert!(decode_client_message(r#"["ping", 1]"#).is_err());
        assert_eq!(
            decode_client_message(r#"{"type": "ping", "ref": 1}"#),
            Ok(ClientMsg::Ping {
                reference: Some(json!(1))
            })
        );
    }

    #[test]
    fn unknown_fields_are_refused_in_every_message() {
        for text in [
            r#"{"type": "ping", "extra": 1}"#,
            r#"{"type": "subscribe", "table": 1, "extra": 1}"#,
            r#"{"type": "unsubscribe", "table": 1, "extra": 1}"#,
            r#"{"type": "act", "table": 1, "version": 0, "action": null, "extra": 1}"#,
        ] {
            assert!(decode_client_message(text).is_err(), "{text}");
        }
    }

    #[test]
    fn the_reference_of_a_refused_message_is_read_leniently() {
        assert_eq!(
            reference_of(r#"{"type": "nonsense", "table": 4, "ref": "r1", "x": [1]}"#),
            (Some(4), Some(json!("r1")))
        );
        assert_eq!(
            reference_of(r#"{"table": "x", "ref": 2}"#),
            (None, Some(json!(2)))
        );
        assert_eq!(reference_of("[1]"), (None, None));
        assert_eq!(reference_of("{not json"), (None, None));
    }

    #[test]
    fn a_malformed_query_is_refused_with_its_own_code() {
        assert_eq!(
            decode_query::<LobbyQuery>("players=x").map_err(|r| r.code),
            Err("malformed_query")
        );
        assert_eq!(
            decode_query::<LobbyQuery>("game=secret-moon&players=4"),
            Ok(LobbyQuery {
                game: Some("secret-moon".into()),
                players: Some(4),
                status: None,
            })
        );
        assert_eq!(
            decode_query::<LobbyQuery>("status=watching").map_err(|r| r.code),
            Err("malformed_query")
        );
        assert_eq!(
            decode_query::<ReplayQuery>(""),
            Ok(ReplayQuery { seat: None })
        );
    }
}

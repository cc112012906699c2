//! The message a load client reads from the server, read without its view.

use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;

/// The fields of a server message a load client reads.
#[derive(Deserialize)]
pub(crate) struct Incoming<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Cow<'a, str>,
    pub table: Option<i64>,
    pub version: Option<u64>,
    /// The seat's steps so far of a secret choice of several steps (the version stays).
    #[serde(default)]
    pub draft: u64,
    #[serde(borrow)]
    pub status: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub legal: Vec<Legal<'a>>,
    /// An `ack`'s or `error`'s echo of the `ref` sent (load clients send numbers).
    #[serde(rename = "ref")]
    pub reference: Option<u64>,
    /// An `error`'s code.
    #[serde(borrow)]
    pub code: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
pub(crate) struct Legal<'a> {
    #[serde(borrow)]
    pub action: &'a RawValue,
}

impl<'a> Incoming<'a> {
    /// Reads a server message. A `table` message ends `,"view":{…},"legal":[…]}`
    /// (the server writes them last, in that order, docs/PROTOCOL.md), and a client
    /// never reads the view — most of the message — so only the head before it and the
    /// legal actions after it are parsed, and the view is not even scanned. `,"view":`
    /// cannot occur inside a JSON string (a `"` there is always escaped). Any other
    /// message, or one of another shape, is parsed whole.
    pub fn read(text: &'a str, head: &mut String) -> Option<Incoming<'a>> {
        const LEGAL: &str = ",\"legal\":";
        if let (Some(v), Some(l)) = (text.find(",\"view\":"), text.rfind(LEGAL)) {
            if v < l && text.ends_with('}') {
                head.clear();
                head.push_str(&text[..v]);
                head.push('}');
                let legal = text.get(l + LEGAL.len()..text.len() - 1).unwrap_or("");
                if let (Ok(h), Ok(legal)) = (
                    serde_json::from_str::<Incoming<'_>>(head),
                    serde_json::from_str::<Vec<Legal<'a>>>(legal),
                ) {
                    return Some(Incoming {
                        kind: Cow::Owned(h.kind.into_owned()),
                        table: h.table,
                        version: h.version,
                        draft: h.draft,
                        status: h.status.map(|s| Cow::Owned(s.into_owned())),
                        legal,
                        reference: h.reference,
                        code: h.code.map(|c| Cow::Owned(c.into_owned())),
                    });
                }
            }
        }
        serde_json::from_str(text).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_reads_the_head_and_legal_actions_of_a_table_message_without_its_view() {
        let text = r#"{"protocol":1,"type":"table","table":7,"seats":[{"name":"a,\"view\":"}],"version":12,"status":"playing","view":{"hand":[1,2],"legal":9},"legal":[{"action":{"play":3},"label":"x"},{"action":"pass"}]}"#;
        let mut head = String::new();
        let m = Incoming::read(text, &mut head).expect("read");
        assert_eq!(m.kind, "table");
        assert_eq!((m.table, m.version), (Some(7), Some(12)));
        assert_eq!(m.status.as_deref(), Some("playing"));
        let actions: Vec<&str> = m.legal.iter().map(|l| l.action.get()).collect();
        assert_eq!(actions, [r#"{"play":3}"#, r#""pass""#]);
        // The same as reading it whole.
        let whole: Incoming<'_> = serde_json::from_str(text).expect("whole");
        assert_eq!(whole.version, m.version);
        assert_eq!(whole.legal.len(), m.legal.len());
    }

    #[test]
    fn other_messages_are_read_whole() {
        let mut head = String::new();
        let m = Incoming::read(
            r#"{"type":"error","ref":4,"code":"stale_version"}"#,
            &mut head,
        )
        .expect("read");
        assert_eq!(m.kind, "error");
        assert_eq!(
            (m.reference, m.code.as_deref()),
            (Some(4), Some("stale_version"))
        );
        assert!(m.legal.is_empty());
        assert!(Incoming::read("not json", &mut head).is_none());
    }
}

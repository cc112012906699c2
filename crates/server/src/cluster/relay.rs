//! The WebSocket side of forwarding: a client's WebSocket stays on the node it reached,
//! and for each node owning tables it follows, the connection opens one upstream
//! WebSocket to that node's `/ws`, vouched for by the node secret (`trust.rs`) with the
//! user and the client's address. The client's messages for those tables go up as they
//! came; the owner's messages come back through `Event`s and are relayed unchanged.
//!
//! The connection (`ws.rs`) keeps, per upstream, the messages sent and not yet
//! answered, per table in the order sent: the owner handles one connection's messages
//! in order, so each `ack`, `error` or `unsubscribed` for a table answers the oldest,
//! and a subscribe's success is the first `table` message after it. When the upstream
//! dies, its unanswered actions are sent again once the table is found (same client
//! `id`: the new owner answers one already committed with its ack).

use super::{trust, NodeConfig};
use crate::metrics::Metrics;
use crate::outbox::{Lag, LAGGING_REASON, TRY_AGAIN_LATER};
use crate::table::TableId;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// A node that does not take the WebSocket this fast is taken for dead (its tables
/// are looked up again, with backoff).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// Client messages queued for one upstream; past this the upstream is dropped and its
/// tables looked up again.
const UPSTREAM_BACKLOG: usize = 256;
/// The upstream is pinged this often, and taken for dead after `SILENCE` without a
/// word: a node paused (SIGSTOP) keeps its sockets open but answers nothing, and its
/// tables are meanwhile claimed by another node (a lease is 10 s).
const PING_EVERY: Duration = Duration::from_secs(5);
const SILENCE: Duration = Duration::from_secs(15);

/// What an upstream tells the connection it serves.
pub enum Event {
    /// A message from the owner: relayed to the client, or acted on (`moved`).
    Message {
        node: Arc<str>,
        id: u64,
        text: String,
    },
    /// The upstream closed or failed: its node may be dead. `lagging`: the owner
    /// closed it because it fell behind (`crate::outbox`).
    Closed {
        node: Arc<str>,
        id: u64,
        lagging: bool,
    },
}

/// A client message passed up and not yet answered.
pub enum Sent {
    Subscribe,
    Unsubscribe,
    /// An action, kept as the client sent it, to send again if the node dies first.
    Act(String),
}

/// One upstream WebSocket: to one node, for one client connection.
/// Dropping it closes the socket (its task sends a close frame and ends).
pub struct Upstream {
    out: mpsc::Sender<String>,
    /// Per table, the messages sent and not yet answered, oldest first.
    pub pending: HashMap<TableId, VecDeque<Sent>>,
    metrics: Arc<Metrics>,
}

impl Drop for Upstream {
    fn drop(&mut self) {
        self.metrics
            .upstream_sockets
            .fetch_sub(1, Ordering::Relaxed);
    }
}

/// `http://host:port` (a node's `--advertise`) as its WebSocket's URL.
pub fn ws_url(advertise: &str) -> String {
    let base = advertise.trim_end_matches('/');
    let base = match base.split_once("://") {
        Some(("https", rest)) => format!("wss://{rest}"),
        Some((_, rest)) => format!("ws://{rest}"),
        None => format!("ws://{base}"),
    };
    format!("{base}/ws")
}

impl Upstream {
    /// Opens the WebSocket from this node (`me`) to the node `name` at `url` for
    /// `user`, who came from `client`. Its messages arrive on `events`, marked `id`;
    /// when they do not fit, the connection is marked by `lag` as fallen behind.
    pub async fn open(
        me: &NodeConfig,
        (name, url): (&str, &str),
        (user, client): (i64, IpAddr),
        (id, events, lag): (u64, mpsc::Sender<Event>, Arc<Lag>),
        metrics: Arc<Metrics>,
    ) -> Result<Upstream, String> {
        let mut request = ws_url(url)
            .into_client_request()
            .map_err(|e| format!("bad node address {url}: {e}"))?;
        for (k, v) in trust::vouch(me, Some(user), client) {
            request.headers_mut().insert(k, v);
        }
        // Small frames at once (the latency floor of issue 20 applies here too).
        let connecting = tokio_tungstenite::connect_async_with_config(request, None, true);
        let (socket, _) = tokio::time::timeout(CONNECT_TIMEOUT, connecting)
            .await
            .map_err(|_| format!("node {name} did not answer within {CONNECT_TIMEOUT:?}"))?
            .map_err(|e| format!("cannot reach node {name}: {e}"))?;
        let node: Arc<str> = Arc::from(name);
        let (out, out_rx) = mpsc::channel(UPSTREAM_BACKLOG);
        tokio::spawn(pump((node, id), socket, out_rx, (events, lag)));
        metrics.upstream_sockets.fetch_add(1, Ordering::Relaxed);
        Ok(Upstream {
            out,
            pending: HashMap::new(),
            metrics,
        })
    }

    /// Passes a client's message up, remembering it until answered; `false` when the
    /// upstream is gone or too far behind.
    pub fn send(&mut self, table: TableId, sent: Sent, text: &str) -> bool {
        if self.out.try_send(text.to_owned()).is_err() {
            return false;
        }
        self.pending.entry(table).or_default().push_back(sent);
        true
    }

    /// The oldest unanswered message for `table`, taken off the list when the owner's
    /// message of type `kind` for that table answers it.
    pub fn answer(&mut self, table: TableId, kind: &str) -> Option<Sent> {
        let queue = self.pending.get_mut(&table)?;
        let answers = match queue.front()? {
            // A subscribe is answered by the table's state (or an error).
            Sent::Subscribe => matches!(kind, "table" | "error"),
            Sent::Unsubscribe | Sent::Act(_) => matches!(kind, "ack" | "error" | "unsubscribed"),
        };
        if !answers {
            return None;
        }
        let sent = queue.pop_front();
        if queue.is_empty() {
            self.pending.remove(&table);
        }
        sent
    }
}

/// Moves messages between the upstream socket and the connection until either ends.
/// The owner's messages are never waited on the connection for: when they do not fit
/// (the client reads too slowly), the connection is marked lagging and closes with
/// 1013, and this upstream closes too (the owner then forgets it).
async fn pump(
    (node, id): (Arc<str>, u64),
    socket: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    mut out: mpsc::Receiver<String>,
    (events, lag): (mpsc::Sender<Event>, Arc<Lag>),
) {
    let (mut sink, mut stream) = socket.split();
    let mut ping = tokio::time::interval(PING_EVERY);
    let mut last_heard = tokio::time::Instant::now();
    let mut lagging = false;
    loop {
        tokio::select! {
            _ = ping.tick() => {
                if last_heard.elapsed() > SILENCE
                    || sink.send(Message::Ping(Vec::new().into())).await.is_err()
                {
                    break;
                }
            }
            m = out.recv() => match m {
                Some(text) => {
                    if sink.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
                None => {
                    let _ = sink.send(Message::Close(None)).await;
                    return;
                }
            },
            m = stream.next() => {
                let Some(Ok(m)) = m else { break };
                last_heard = tokio::time::Instant::now();
                match m {
                    Message::Text(text) => {
                        let text = text.as_str().to_owned();
                        let event = Event::Message { node: node.clone(), id, text };
                        match events.try_send(event) {
                            Ok(()) => {}
                            Err(mpsc::error::TrySendError::Full(_)) => {
                                lag.mark();
                                let _ = sink.send(Message::Close(None)).await;
                                return;
                            }
                            Err(mpsc::error::TrySendError::Closed(_)) => return,
                        }
                    }
                    Message::Close(frame) => {
                        lagging = frame.is_some_and(|f| {
                            u16::from(f.code) == TRY_AGAIN_LATER && f.reason.as_str() == LAGGING_REASON
                        });
                        break;
                    }
                    // Pings are answered by tungstenite; a pong only proves the node lives.
                    _ => {}
                }
            }
        }
    }
    let _ = events.send(Event::Closed { node, id, lagging }).await;
}

/// The fields of a server message the connection needs to read.
#[derive(Deserialize)]
pub struct Peek {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub table: Option<TableId>,
    /// An error's code.
    #[serde(default)]
    pub code: Option<String>,
}

pub fn peek(text: &str) -> Option<Peek> {
    serde_json::from_str(text).ok()
}

/// The table a `{"type":"moved","table":ID}` message names: a table that stopped here
/// because this node lost its lease (the message is small, so a table's own messages,
/// which are large, are not parsed for it).
pub fn moved_table(text: &str) -> Option<TableId> {
    if text.len() > 128 || !text.contains("\"moved\"") {
        return None;
    }
    peek(text)
        .filter(|p| p.kind == "moved")
        .and_then(|p| p.table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_address_becomes_its_websocket_address() {
        assert_eq!(ws_url("http://10.0.0.5:8080"), "ws://10.0.0.5:8080/ws");
        assert_eq!(ws_url("http://10.0.0.5:8080/"), "ws://10.0.0.5:8080/ws");
        assert_eq!(
            ws_url("https://node-b.internal"),
            "wss://node-b.internal/ws"
        );
    }

    #[test]
    fn only_a_moved_message_names_a_moved_table() {
        assert_eq!(
            moved_table(r#"{"protocol":1,"table":7,"type":"moved"}"#),
            Some(7)
        );
        assert_eq!(moved_table(r#"{"type":"moved","table":7}"#), Some(7));
        // A table message that merely contains the word (a log line) is not one.
        let table = r#"{"protocol":1,"type":"table","table":7,"log":[{"text":"\"moved\""}]}"#;
        assert_eq!(moved_table(table), None);
    }
}

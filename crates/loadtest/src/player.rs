//! One seat played over a WebSocket as the web client plays it (web/app/live.js): a
//! random legal action after a think time, each sent with its own action id; an action
//! is in flight until its `ack`, and is sent again under the same id after a transient
//! error, a silence, or a new connection (docs/PROTOCOL.md, "Action ids"), so a node
//! dying never loses nor doubles a move. A connection that closes or goes silent is
//! opened again, on the next node, and the table subscribed again (how a client
//! resumes); a `moved` message (the table's lease went to another node) is answered by
//! subscribing again.

use crate::client::Shared;
use crate::incoming::Incoming;
use crate::journal::Acked;
use crate::nodes::{backoff, RETRY_FOR};
use futures_util::{SinkExt, StreamExt};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use tokio::time::Instant as Deadline;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

type Stream =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Refusals after which the client chooses again from the next state (the action was
/// not played and will not be); any other error is passing (a node stopping, a table
/// moving to another node, the database away), and the action is sent again.
const CHOOSE_AGAIN: &[&str] = &[
    "stale_version",
    "illegal_action",
    "not_your_turn",
    "game_over",
    "id_reused",
    "not_seated",
    "invalid_action",
];
/// An action not acknowledged within this is sent again (an ack can be lost with the
/// connection, or dropped by a server whose outbound queue was full).
const ACK_WITHIN: Duration = Duration::from_secs(4);
/// The pause before sending again after a passing error.
const RESEND_AFTER: Duration = Duration::from_millis(250);
/// A table in play that says nothing for this long is asked again through a new
/// connection, on the next node (its node may be stopped: its socket stays open).
const SILENCE: Duration = Duration::from_secs(8);
/// A game that makes no progress at all for this long is a failure of the run.
const STALLED: Duration = Duration::from_secs(120);
/// After the end, how long an action still in flight may wait for its ack.
const LAST_ACK_WITHIN: Duration = Duration::from_secs(5);

/// The subscribe's `ref` (actions count from 1).
const SUBSCRIBE_REF: u64 = 0;

/// An action chosen at a step (version, draft steps), not sent yet.
struct Chosen {
    step: (u64, u64),
    action: String,
}

impl Chosen {
    fn message(&self, table: i64, id: &str, reference: u64) -> String {
        let ((version, draft), action) = (self.step, &self.action);
        format!(
            r#"{{"type":"act","table":{table},"version":{version},"draft":{draft},"id":"{id}","ref":{reference},"action":{action}}}"#
        )
    }
}

struct InFlight {
    id: String,
    reference: u64,
    text: String,
    resend_at: Deadline,
}

pub(crate) struct Player {
    pub token: String,
    /// The node this client talks to now (an index into the run's nodes).
    pub node: usize,
    name: String,
    ws: Option<Stream>,
    rng: u64,
    next_ref: u64,
    head: String,
}

impl Player {
    pub fn new(token: String, node: usize, name: String, seed: u64) -> Player {
        Player {
            token,
            node,
            name,
            ws: None,
            rng: seed | 1,
            next_ref: SUBSCRIBE_REF + 1,
            head: String::new(),
        }
    }

    /// xorshift: a cheap, seeded choice.
    fn next(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    /// Opens a WebSocket to the current node, or to the next ones, until one answers
    /// (within [`RETRY_FOR`]).
    async fn connect(&mut self, shared: &Shared) -> Result<(), String> {
        let until = Deadline::now() + RETRY_FOR;
        let mut attempt = 0;
        loop {
            match self.open(shared).await {
                Ok(ws) => {
                    self.ws = Some(ws);
                    return Ok(());
                }
                Err(e) if Deadline::now() >= until => {
                    return Err(format!("no node takes a WebSocket: {e}"));
                }
                Err(_) => {
                    self.node += 1;
                    tokio::time::sleep(backoff(attempt)).await;
                    attempt += 1;
                }
            }
        }
    }

    async fn open(&self, shared: &Shared) -> Result<Stream, String> {
        let url = shared.nodes.url(self.node).replace("http://", "ws://") + "/ws";
        let mut req = url.into_client_request().map_err(|e| e.to_string())?;
        let auth = format!("Bearer {}", self.token)
            .parse()
            .map_err(|_| "bad token header")?;
        req.headers_mut().insert("authorization", auth);
        // tungstenite zeroes its whole read buffer on every read; the default is 128 KiB.
        let config = WebSocketConfig::default().read_buffer_size(16 * 1024);
        // TCP_NODELAY: a move is a small frame answered at once; with Nagle's algorithm
        // against the server's delayed ACKs every round trip waited ~40 ms (issue 20).
        // Bounded: a stopped node accepts the TCP connection and never answers.
        let connecting = tokio_tungstenite::connect_async_with_config(req, Some(config), true);
        match tokio::time::timeout(Duration::from_secs(3), connecting).await {
            Ok(Ok((ws, _))) => Ok(ws),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err("the WebSocket handshake timed out".into()),
        }
    }

    async fn send(&mut self, text: String) -> bool {
        match &mut self.ws {
            Some(ws) => ws.send(Message::Text(text.into())).await.is_ok(),
            None => false,
        }
    }

    /// Drops the connection and opens another on the next node; subscribes to `table`
    /// and sends the action in flight again.
    async fn reconnect(
        &mut self,
        shared: &Shared,
        table: i64,
        in_flight: &Option<InFlight>,
    ) -> Result<(), String> {
        if let Some(mut ws) = self.ws.take() {
            // Not waited for: the node may be stopped.
            let _ = tokio::time::timeout(Duration::from_millis(100), ws.close(None)).await;
        }
        shared.counters.reconnects.fetch_add(1, Ordering::Relaxed);
        self.node += 1;
        for _ in 0..10 {
            self.connect(shared).await?;
            let mut ok = self.subscribe(table).await;
            if let Some(f) = in_flight {
                shared.counters.resends.fetch_add(1, Ordering::Relaxed);
                ok = ok && self.send(f.text.clone()).await;
            }
            if ok {
                return Ok(());
            }
            self.ws = None;
            self.node += 1;
        }
        Err(format!(
            "table {table}: every new connection failed at once"
        ))
    }

    async fn subscribe(&mut self, table: i64) -> bool {
        self.send(format!(
            r#"{{"type":"subscribe","table":{table},"ref":{SUBSCRIBE_REF}}}"#
        ))
        .await
    }

    pub async fn close(&mut self) {
        if let Some(mut ws) = self.ws.take() {
            let _ = tokio::time::timeout(Duration::from_secs(1), ws.close(None)).await;
        }
    }

    /// Plays this client's seat at `table` to the end: its latencies (ms).
    pub async fn play(&mut self, shared: &Shared, table: i64) -> Result<Vec<f64>, String> {
        let cfg = &shared.cfg;
        let counters = &shared.counters;
        if self.ws.is_none() {
            self.connect(shared).await?;
        }
        if !self.subscribe(table).await {
            self.reconnect(shared, table, &None).await?;
        }
        let mut latencies = Vec::new();
        // The step an action was sent at, and when: the latency runs to the update.
        let mut sent: Option<((u64, u64), Instant)> = None;
        // The action chosen and when the player, done thinking, sends it.
        let mut chosen: Option<(Chosen, Deadline)> = None;
        let mut in_flight: Option<InFlight> = None;
        let mut heard = Deadline::now();
        let mut progressed = Deadline::now();
        let mut over: Option<Deadline> = None;
        let mut resubscribe: Option<Deadline> = None;
        loop {
            if shared.stopping() {
                break;
            }
            if let Some(at) = over {
                if in_flight.is_none() || Deadline::now() >= at {
                    break;
                }
            }
            if Deadline::now() >= progressed + STALLED {
                return Err(format!("table {table}: no progress for {STALLED:?}"));
            }
            let wake = [
                chosen.as_ref().map(|c| c.1),
                in_flight.as_ref().map(|f| f.resend_at),
                resubscribe,
                Some(heard + SILENCE),
                over,
            ]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or_else(|| Deadline::now() + SILENCE);
            let incoming = match &mut self.ws {
                Some(ws) => tokio::select! {
                    m = ws.next() => Some(m),
                    () = tokio::time::sleep_until(wake) => None,
                },
                None => Some(None),
            };
            let text = match incoming {
                None => {
                    let now = Deadline::now();
                    if now >= heard + SILENCE {
                        self.reconnect(shared, table, &in_flight).await?;
                        heard = Deadline::now();
                        resubscribe = None;
                        if let Some(f) = &mut in_flight {
                            f.resend_at = heard + ACK_WITHIN;
                        }
                        continue;
                    }
                    if resubscribe.is_some_and(|at| now >= at) {
                        resubscribe = None;
                        if !self.subscribe(table).await {
                            self.reconnect(shared, table, &in_flight).await?;
                        }
                    }
                    if let Some(f) = in_flight.as_mut().filter(|f| now >= f.resend_at) {
                        counters.resends.fetch_add(1, Ordering::Relaxed);
                        f.resend_at = now + ACK_WITHIN;
                        let text = f.text.clone();
                        if !self.send(text).await {
                            self.reconnect(shared, table, &in_flight).await?;
                        }
                    }
                    if in_flight.is_none() && chosen.as_ref().is_some_and(|c| now >= c.1) {
                        if let Some((chose, _)) = chosen.take() {
                            let reference = self.next_ref;
                            self.next_ref += 1;
                            let id = format!("{}-{reference}", self.name);
                            let text = chose.message(table, &id, reference);
                            in_flight = Some(InFlight {
                                id,
                                reference,
                                text: text.clone(),
                                resend_at: now + ACK_WITHIN,
                            });
                            sent = Some((chose.step, Instant::now()));
                            counters.count(&counters.client_actions);
                            if !self.send(text).await {
                                self.reconnect(shared, table, &in_flight).await?;
                            }
                        }
                    }
                    continue;
                }
                Some(Some(Ok(Message::Text(t)))) => t,
                Some(Some(Ok(_))) => {
                    heard = Deadline::now();
                    continue;
                }
                Some(_) => {
                    // Closed, or an error: the node went away.
                    self.reconnect(shared, table, &in_flight).await?;
                    heard = Deadline::now();
                    continue;
                }
            };
            heard = Deadline::now();
            // A client reads what it needs: the view is skipped unread.
            let Some(m) = Incoming::read(text.as_str(), &mut self.head) else {
                continue;
            };
            if m.table != Some(table) {
                continue;
            }
            match m.kind.as_ref() {
                "table" => {}
                "moved" => {
                    // The table left this node (its lease went elsewhere): subscribing
                    // again reaches it where it runs now; the action in flight too.
                    if !self.subscribe(table).await {
                        self.reconnect(shared, table, &in_flight).await?;
                    } else if let Some(f) = &mut in_flight {
                        f.resend_at = Deadline::now() + RESEND_AFTER;
                    }
                    continue;
                }
                "ack" => {
                    if let Some(f) = in_flight.take_if(|f| m.reference == Some(f.reference)) {
                        if let Some(version) = m.version {
                            shared.journal.acked(Acked {
                                table,
                                version,
                                id: f.id,
                            });
                        }
                    }
                    continue;
                }
                "error" => {
                    let code = m.code.as_deref().unwrap_or("");
                    if m.reference == Some(SUBSCRIBE_REF) {
                        // The table is between nodes: ask again shortly.
                        resubscribe = Some(Deadline::now() + RESEND_AFTER);
                    } else if let Some(f) = in_flight
                        .as_mut()
                        .filter(|f| m.reference == Some(f.reference))
                    {
                        if CHOOSE_AGAIN.contains(&code) {
                            counters.errors.fetch_add(1, Ordering::Relaxed);
                            in_flight = None;
                            sent = None;
                        } else {
                            f.resend_at = Deadline::now() + RESEND_AFTER;
                        }
                    } else {
                        counters.errors.fetch_add(1, Ordering::Relaxed);
                    }
                    continue;
                }
                _ => continue,
            }
            let version = m.version.unwrap_or(0);
            // A draft step keeps the version and counts up `draft`: a new state too.
            let at_step = (version, m.draft);
            if let Some((v, at)) = sent {
                if at_step > v {
                    if counters.measuring() {
                        latencies.push(at.elapsed().as_secs_f64() * 1000.0);
                    }
                    sent = None;
                }
            }
            progressed = Deadline::now();
            // A newer state: decide again on it.
            chosen = None;
            match m.status.as_deref() {
                Some("playing") => {}
                Some("finished") | Some("abandoned") => {
                    if over.is_none() {
                        if shared.journal.finished(table) {
                            counters.count(&counters.games);
                        }
                        over = Some(Deadline::now() + LAST_ACK_WITHIN);
                    }
                    continue;
                }
                _ => continue,
            }
            if m.legal.is_empty() || sent.is_some() {
                continue;
            }
            let pick = self.next() % m.legal.len() as u64;
            let chose = Chosen {
                step: at_step,
                action: m.legal[pick as usize].action.get().to_string(),
            };
            // A think time of 0.5 to 1.5 times the mean.
            let think_us = cfg.think_ms * 500 + self.next() % (cfg.think_ms * 1000 + 1);
            chosen = Some((chose, Deadline::now() + Duration::from_micros(think_us)));
        }
        self.unsubscribe(table).await;
        Ok(latencies)
    }

    async fn unsubscribe(&mut self, table: i64) {
        let _ = self
            .send(format!(r#"{{"type":"unsubscribe","table":{table}}}"#))
            .await;
    }
}

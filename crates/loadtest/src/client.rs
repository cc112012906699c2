//! One load client: a guest that creates a table of server bots, plays its own seat
//! over a WebSocket as a player would (a random legal action after a think time),
//! and starts another table when the game ends, until told to stop.

use crate::{http_client, LoadConfig};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};
use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

/// The fields of a server message a load client reads.
#[derive(Deserialize)]
struct Incoming<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    table: Option<i64>,
    version: Option<u64>,
    /// The seat's steps so far of a secret choice of several steps (the version stays).
    #[serde(default)]
    draft: u64,
    #[serde(borrow)]
    status: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    legal: Vec<Legal<'a>>,
}

#[derive(Deserialize)]
struct Legal<'a> {
    #[serde(borrow)]
    action: &'a RawValue,
}

impl<'a> Incoming<'a> {
    /// Reads a server message. A `table` message ends `,"view":{…},"legal":[…]}`
    /// (the server writes them last, in that order, docs/PROTOCOL.md), and a client
    /// never reads the view — most of the message — so only the head before it and the
    /// legal actions after it are parsed, and the view is not even scanned. `,"view":`
    /// cannot occur inside a JSON string (a `"` there is always escaped). Any other
    /// message, or one of another shape, is parsed whole.
    fn read(text: &'a str, head: &mut String) -> Option<Incoming<'a>> {
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
                    });
                }
            }
        }
        serde_json::from_str(text).ok()
    }
}

/// What every client counts, shared.
#[derive(Default)]
pub(crate) struct Counters {
    pub client_actions: AtomicU64,
    pub games: AtomicU64,
    pub errors: AtomicU64,
    /// Clients whose first table is playing.
    pub ready: AtomicU64,
    /// Set after the warm-up: only then are actions, games and latencies counted.
    pub measuring: AtomicBool,
}

impl Counters {
    fn measuring(&self) -> bool {
        self.measuring.load(Ordering::Relaxed)
    }

    fn count(&self, what: &AtomicU64) {
        if self.measuring() {
            what.fetch_add(1, Ordering::Relaxed);
        }
    }
}

type Stream =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn post(
    http: &reqwest::Client,
    url: String,
    token: Option<&str>,
    body: Value,
) -> Result<Value, String> {
    let mut req = http.post(url).header("x-takuge", "1").json(&body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let res = req.send().await.map_err(|e| e.to_string())?;
    let status = res.status();
    let body: Value = res.json().await.map_err(|e| e.to_string())?;
    if status.is_success() {
        Ok(body)
    } else {
        Err(format!("{status}: {body}"))
    }
}

async fn new_table(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    cfg: &LoadConfig,
) -> Result<i64, String> {
    let t = post(
        http,
        format!("{base}/api/tables"),
        Some(token),
        json!({"game": cfg.game, "players": cfg.players, "options": cfg.options}),
    )
    .await?;
    let id = t["id"].as_i64().ok_or("no table id")?;
    post(
        http,
        format!("{base}/api/tables/{id}/bots"),
        Some(token),
        json!({"bot": cfg.bot}),
    )
    .await?;
    post(
        http,
        format!("{base}/api/tables/{id}/start"),
        Some(token),
        json!({}),
    )
    .await?;
    Ok(id)
}

/// One client: plays table after table until `stop`; its latencies (ms) measured.
pub(crate) async fn client(
    base: String,
    cfg: LoadConfig,
    stop: Arc<AtomicBool>,
    counters: Arc<Counters>,
    seed: u64,
) -> Result<Vec<f64>, String> {
    let http = http_client();
    let guest = post(&http, format!("{base}/api/guest"), None, json!({})).await?;
    let token = guest["token"].as_str().ok_or("no token")?.to_string();
    let mut req = (base.replace("http://", "ws://") + "/ws")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    let auth = format!("Bearer {token}")
        .parse()
        .map_err(|_| "bad token header")?;
    req.headers_mut().insert("authorization", auth);
    // tungstenite zeroes its whole read buffer on every read; the default is 128 KiB.
    let config = WebSocketConfig::default().read_buffer_size(16 * 1024);
    let (mut ws, _): (Stream, _) =
        // TCP_NODELAY: a move is a small frame answered at once; with Nagle's algorithm
        // against the server's delayed ACKs every round trip waited ~40 ms (issue 20).
        tokio_tungstenite::connect_async_with_config(req, Some(config), true)
            .await
            .map_err(|e| e.to_string())?;
    let mut latencies = Vec::new();
    let mut head = String::new();
    let mut rng = seed | 1;
    let mut first = true;
    while !stop.load(Ordering::Relaxed) {
        let table = new_table(&http, &base, &token, &cfg).await?;
        ws.send(Message::Text(
            format!(r#"{{"type":"subscribe","table":{table}}}"#).into(),
        ))
        .await
        .map_err(|e| e.to_string())?;
        if std::mem::take(&mut first) {
            counters.ready.fetch_add(1, Ordering::Relaxed);
        }
        let mut sent: Option<((u64, u64), Instant)> = None;
        // The action chosen and when the player, done thinking, sends it.
        let mut chosen: Option<((u64, u64), String, tokio::time::Instant)> = None;
        loop {
            let incoming = match &chosen {
                Some((_, _, at)) => tokio::select! {
                    m = ws.next() => Some(m),
                    () = tokio::time::sleep_until(*at) => None,
                },
                None => match tokio::time::timeout(Duration::from_secs(30), ws.next()).await {
                    Ok(m) => Some(m),
                    Err(_) => return Err("the connection stalled".into()),
                },
            };
            let msg = match incoming {
                None => {
                    if let Some((step, act, _)) = chosen.take() {
                        sent = Some((step, Instant::now()));
                        counters.count(&counters.client_actions);
                        ws.send(Message::Text(act.into()))
                            .await
                            .map_err(|e| e.to_string())?;
                    }
                    continue;
                }
                Some(Some(Ok(Message::Text(t)))) => t,
                Some(Some(Ok(_))) => continue,
                Some(_) => return Err("the connection closed".into()),
            };
            // A client reads what it needs: the view is skipped unread.
            let Some(m) = Incoming::read(msg.as_str(), &mut head) else {
                continue;
            };
            match m.kind.as_ref() {
                "table" if m.table == Some(table) => {}
                "error" => {
                    counters.errors.fetch_add(1, Ordering::Relaxed);
                    sent = None;
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
            // A newer state: decide again on it.
            chosen = None;
            match m.status.as_deref() {
                Some("playing") => {}
                Some("finished") => {
                    counters.count(&counters.games);
                    break;
                }
                _ => continue,
            }
            if stop.load(Ordering::Relaxed) {
                break;
            }
            if m.legal.is_empty() || sent.is_some() {
                continue;
            }
            // xorshift: a cheap, seeded choice, and a think time of 0.5 to 1.5 times
            // the mean.
            let mut next = || {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                rng
            };
            let action = m.legal[(next() % m.legal.len() as u64) as usize]
                .action
                .get();
            let draft = m.draft;
            let act = format!(
                r#"{{"type":"act","table":{table},"version":{version},"draft":{draft},"action":{action}}}"#
            );
            let think_us = cfg.think_ms * 500 + next() % (cfg.think_ms * 1000 + 1);
            let at = tokio::time::Instant::now() + Duration::from_micros(think_us);
            chosen = Some((at_step, act, at));
        }
        let _ = ws
            .send(Message::Text(
                format!(r#"{{"type":"unsubscribe","table":{table}}}"#).into(),
            ))
            .await;
    }
    let _ = ws.close(None).await;
    Ok(latencies)
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
        let m =
            Incoming::read(r#"{"type":"error","code":"stale_version"}"#, &mut head).expect("read");
        assert_eq!(m.kind, "error");
        assert!(m.legal.is_empty());
        assert!(Incoming::read("not json", &mut head).is_none());
    }
}

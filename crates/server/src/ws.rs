//! `/ws`: one WebSocket per client. The client subscribes to tables and acts; every
//! table it follows sends it exactly what its seat (or a spectator) may see.

use crate::auth::{self, Credential, User};
use crate::cluster::trust::Relayed;
use crate::error::ApiError;
use crate::limit::CountGuard;
use crate::outbox::{Lag, LAGGING_REASON, TRY_AGAIN_LATER};
use crate::table::{Caller, TableId, CONNECTION_BACKLOG, PROTOCOL};
use crate::ws_follow::Connection;
use crate::AppState;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use takuge_protocol::reference_of;
pub use takuge_protocol::WsQuery;
use tokio::sync::mpsc;

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// A connection that says nothing (not even a pong) for this long is closed.
const IDLE: Duration = Duration::from_secs(90);
const PING_EVERY: Duration = Duration::from_secs(30);
/// Bytes read from the socket at a time (client messages are small).
const READ_BUFFER: usize = 8 * 1024;

pub(crate) fn error_msg(table: Option<TableId>, reference: Option<&Value>, e: &ApiError) -> String {
    json!({
        "protocol": PROTOCOL,
        "type": "error",
        "table": table,
        "ref": reference,
        "code": e.code,
        "message": e.message,
    })
    .to_string()
}

/// Refuses a cookie-authenticated upgrade from another site (cross-site WebSocket
/// hijacking): the Origin, when sent, must name this host.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true;
    };
    let Some(host) = headers.get(header::HOST).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    origin
        .split_once("://")
        .is_some_and(|(_, rest)| rest.trim_end_matches('/') == host)
}

pub async fn upgrade(
    State(state): State<Arc<AppState>>,
    q: WsQuery,
    req: axum::extract::Request,
) -> Result<Response, ApiError> {
    let (mut parts, _body) = req.into_parts();
    let (user, session) = match parts.extensions.get::<Relayed>().copied() {
        // A node passed this connection on for its client: that node checked the
        // session (and ends the client's socket with it); the user is the one it names.
        Some(relayed) => {
            let id = relayed.user.ok_or_else(ApiError::unauthenticated)?;
            let user = auth::user_by_id(&state.db, id).await?;
            (user.ok_or_else(ApiError::unauthenticated)?, None)
        }
        None => {
            let (user, session) = authenticate(&state, &parts.headers, q).await?;
            (user, Some(session))
        }
    };
    let Some(held) = state.websockets.acquire(user.id) else {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_connections",
            format!(
                "this account already has {} WebSocket connections open; close one first",
                state.config.websockets_per_account
            ),
        ));
    };
    // The client's address as the per-IP middleware worked it out (behind a trusted
    // proxy, from X-Forwarded-For; passed on by a node, the address it names).
    let ip = parts
        .extensions
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0.ip())
        .unwrap_or(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED));
    let ws = WebSocketUpgrade::from_request_parts(&mut parts, &state)
        .await
        .map_err(|e| ApiError::bad_request("not_websocket", e.body_text()))?;
    let max = state.config.max_message_bytes;
    Ok(ws
        // tungstenite zeroes its whole read buffer on every read: the default 128 KiB
        // cost more than the rest of a small message's handling.
        .read_buffer_size(READ_BUFFER)
        .max_message_size(max)
        .max_frame_size(max)
        .on_upgrade(move |socket| run(state, user, session, ip, held, socket))
        .into_response())
}

/// The client's own credential, checked for cross-site use and looked up: the user,
/// and the session's hash (its sockets close when it ends).
async fn authenticate(
    state: &AppState,
    headers: &HeaderMap,
    q: WsQuery,
) -> Result<(User, String), ApiError> {
    let cred = auth::presented(headers)?.or(q.token.map(Credential::Bearer));
    let Some(cred) = cred else {
        return Err(ApiError::unauthenticated());
    };
    if matches!(cred, Credential::Cookie(_)) && !same_origin(headers) {
        return Err(ApiError::forbidden(
            "csrf",
            "a WebSocket authenticated by cookie must come from this site",
        ));
    }
    let user = if cred.token().len() > 256 {
        None
    } else {
        auth::user_for_token(state, cred.token()).await?
    };
    let user = user.ok_or_else(ApiError::unauthenticated)?;
    Ok((user, auth::hash_token(cred.token())))
}

use axum::extract::FromRequestParts;

/// Close code 1008, "policy violation": the session this socket acted for has ended.
const SESSION_ENDED: u16 = 1008;
/// A connection being closed gets this long to take its close frame (after what was
/// already being written to it) and answer it; a client that reads nothing meanwhile
/// is cut off.
const CLOSE_WAIT: Duration = Duration::from_secs(10);

/// Waits for the session's end (never, for a socket a node passed on: its session
/// lives on that node).
async fn session_ended(registration: &mut Option<crate::sockets::Registration<'_>>) {
    match registration {
        Some(r) => {
            if r.closed.changed().await.is_err() {
                std::future::pending::<()>().await;
            }
        }
        None => std::future::pending().await,
    }
}

/// One connection. `_held` keeps its place in the account's count until it closes.
/// `session` is `None` for a connection another node passed on (an upstream).
async fn run(
    state: Arc<AppState>,
    user: User,
    session: Option<String>,
    ip: IpAddr,
    _held: CountGuard<i64>,
    socket: WebSocket,
) {
    let conn = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
    let relayed = session.is_none();
    let mut registration = session.map(|s| state.sockets.register(user.id, s));
    state.metrics.ws_connections.fetch_add(1, Ordering::Relaxed);
    tracing::debug!(conn, user = user.id, relayed, "websocket open");
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx, lag) = crate::outbox::channel(CONNECTION_BACKLOG);
    let caller = Caller {
        user_id: user.id,
        name: user.display_name.clone(),
    };
    let (events_tx, mut events) = mpsc::channel(CONNECTION_BACKLOG);
    let mut me = Connection::new(&state, conn, caller, ip, tx, relayed, events_tx);
    let mut shutdown = state.shutdown.clone();
    let hello = json!({ "protocol": PROTOCOL, "type": "hello", "user": user }).to_string();
    let mut alive = sink.send(Message::Text(hello.into())).await.is_ok();
    let mut ping = tokio::time::interval(PING_EVERY);
    let mut last_heard = tokio::time::Instant::now();
    while alive {
        // Fell behind: what is queued is stale, and the client resumes from the
        // current state once it reconnects.
        if lag.is_set() {
            close_lagging(&state, conn, (&mut sink, &mut stream)).await;
            break;
        }
        let due = me.next_reroute();
        tokio::select! {
            out = rx.recv() => match out {
                Some(text) => {
                    // A table that stopped here because another node took it over.
                    if me.local_moved(text.as_str()) {
                        continue;
                    }
                    alive = put(&mut sink, Message::Text(text), &lag).await;
                }
                None => alive = false,
            },
            Some(event) = events.recv() => {
                if let Some(text) = me.upstream_event(event) {
                    alive = put(&mut sink, Message::Text(text.into()), &lag).await;
                }
            }
            () = lag.wait() => continue,
            () = sleep_until(due) => {
                if !me.reroute_due().await {
                    let reason = "a table moved between servers; reconnect";
                    close(&mut sink, &mut stream, TRY_AGAIN_LATER, reason).await;
                    break;
                }
            }
            incoming = stream.next() => {
                let Some(Ok(msg)) = incoming else { break };
                last_heard = tokio::time::Instant::now();
                let text = match msg {
                    Message::Text(t) => t,
                    Message::Binary(_) => {
                        let e = ApiError::bad_request("malformed_json", "send text frames of JSON");
                        me.reply(error_msg(None, None, &e));
                        continue;
                    }
                    Message::Close(_) => break,
                    _ => continue,
                };
                state.metrics.ws_messages_in.fetch_add(1, Ordering::Relaxed);
                // A message racing the session's end is not acted on.
                if registration.as_ref().is_some_and(|r| r.closed.borrow().is_some()) {
                    continue;
                }
                if !state.account_limiter.check(&user.id) {
                    let e = state.metrics.rate_limited("rate_limited", "too many messages; slow down");
                    // Read just enough of the refused message for the client to tell which it was.
                    let (table, reference) = reference_of(text.as_str());
                    me.reply(error_msg(table, reference.as_ref(), &e));
                    continue;
                }
                me.handle(text.as_str()).await;
            }
            _ = ping.tick() => {
                if last_heard.elapsed() > IDLE {
                    break;
                }
                alive = put(&mut sink, Message::Ping(Vec::new().into()), &lag).await;
            }
            _ = shutdown.changed() => {
                let _ = sink.send(Message::Close(None)).await;
                break;
            }
            () = session_ended(&mut registration) => {
                let reason = registration
                    .as_ref()
                    .and_then(|r| *r.closed.borrow())
                    .unwrap_or(crate::sockets::REVOKED);
                close(&mut sink, &mut stream, SESSION_ENDED, reason).await;
                break;
            }
        }
    }
    me.close().await;
    drop(registration);
    state.metrics.ws_connections.fetch_sub(1, Ordering::Relaxed);
    tracing::debug!(conn, "websocket closed");
}

type Sink = futures_util::stream::SplitSink<WebSocket, Message>;
type Stream = futures_util::stream::SplitStream<WebSocket>;

/// Writes `msg` to the client; `false` when the socket failed. A write the client does
/// not take (it stopped reading) is given up once the connection is marked as fallen
/// behind: the loop then closes it.
async fn put(sink: &mut Sink, msg: Message, lag: &Lag) -> bool {
    tokio::select! {
        sent = sink.send(msg) => sent.is_ok(),
        () = lag.wait() => true,
    }
}

/// Closes a connection that fell behind with 1013 and a reason that is the same for
/// everyone (it names no table and no seat), and counts it.
async fn close_lagging(state: &AppState, conn: u64, (sink, stream): (&mut Sink, &mut Stream)) {
    state
        .metrics
        .ws_closed_lagging
        .fetch_add(1, Ordering::Relaxed);
    tracing::info!(conn, "websocket fell behind; closing it (1013)");
    close(sink, stream, TRY_AGAIN_LATER, LAGGING_REASON).await;
}

/// Closes the connection with `code` and `reason`, and waits (a while) for the client
/// to answer the close: dropped at once, a socket with the client's late messages
/// (a pong) still arriving is reset, and the client's kernel throws away what it had
/// not read yet, the close frame among them.
async fn close(sink: &mut Sink, stream: &mut Stream, code: u16, reason: &'static str) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    let closing = async {
        if sink.send(Message::Close(Some(frame))).await.is_ok() {
            while let Some(Ok(msg)) = stream.next().await {
                if matches!(msg, Message::Close(_)) {
                    break;
                }
            }
        }
    };
    let _ = tokio::time::timeout(CLOSE_WAIT, closing).await;
}

/// Sleeps until `due`, or forever when nothing is due.
async fn sleep_until(due: Option<tokio::time::Instant>) {
    match due {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}

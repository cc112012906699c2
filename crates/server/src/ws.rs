//! `/ws`: one WebSocket per client. The client subscribes to tables and acts; every
//! table it follows sends it exactly what its seat (or a spectator) may see.

use crate::auth::{self, Credential, User};
use crate::error::ApiError;
use crate::limit::CountGuard;
use crate::table::{Caller, Cmd, TableId, CONNECTION_BACKLOG, PROTOCOL};
use crate::AppState;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
pub use takuge_protocol::WsQuery;
use takuge_protocol::{decode_client_message, reference_of, ClientMsg};
use tokio::sync::mpsc;

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// A connection that says nothing (not even a pong) for this long is closed.
const IDLE: Duration = Duration::from_secs(90);
const PING_EVERY: Duration = Duration::from_secs(30);
/// Bytes read from the socket at a time (client messages are small).
const READ_BUFFER: usize = 8 * 1024;

fn error_msg(table: Option<TableId>, reference: Option<&Value>, e: &ApiError) -> String {
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
    let cred = auth::presented(&parts.headers)?.or(q.token.map(Credential::Bearer));
    let Some(cred) = cred else {
        return Err(ApiError::unauthenticated());
    };
    if matches!(cred, Credential::Cookie(_)) && !same_origin(&parts.headers) {
        return Err(ApiError::forbidden(
            "csrf",
            "a WebSocket authenticated by cookie must come from this site",
        ));
    }
    let user = if cred.token().len() > 256 {
        None
    } else {
        auth::user_for_token(&state, cred.token()).await?
    };
    let Some(user) = user else {
        return Err(ApiError::unauthenticated());
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
    // proxy, from X-Forwarded-For).
    let ip = parts
        .extensions
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0.ip())
        .unwrap_or(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED));
    let session = auth::hash_token(cred.token());
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

use axum::extract::FromRequestParts;

/// A table a connection follows.
struct Followed {
    /// It was over (finished or abandoned) when followed.
    over: bool,
    /// Its place in the address's count of subscriptions.
    place: CountGuard<IpAddr>,
}

/// Close code 1008, "policy violation": the session this socket acted for has ended.
const SESSION_ENDED: u16 = 1008;

/// One connection. `_held` keeps its place in the account's count until it closes.
async fn run(
    state: Arc<AppState>,
    user: User,
    session: String,
    ip: IpAddr,
    _held: CountGuard<i64>,
    socket: WebSocket,
) {
    let conn = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
    let mut registration = state.sockets.register(user.id, session);
    state.metrics.ws_connections.fetch_add(1, Ordering::Relaxed);
    tracing::debug!(conn, user = user.id, "websocket open");
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Utf8Bytes>(CONNECTION_BACKLOG);
    // Each subscription holds a place in its address's count.
    let mut subscribed: HashMap<TableId, Followed> = HashMap::new();
    let mut shutdown = state.shutdown.clone();
    let caller = Caller {
        user_id: user.id,
        name: user.display_name.clone(),
    };
    let hello = json!({ "protocol": PROTOCOL, "type": "hello", "user": user }).to_string();
    let mut alive = sink.send(Message::Text(hello.into())).await.is_ok();
    let mut ping = tokio::time::interval(PING_EVERY);
    let mut last_heard = tokio::time::Instant::now();
    while alive {
        tokio::select! {
            out = rx.recv() => match out {
                Some(text) => alive = sink.send(Message::Text(text)).await.is_ok(),
                None => alive = false,
            },
            incoming = stream.next() => {
                let Some(Ok(msg)) = incoming else { break };
                last_heard = tokio::time::Instant::now();
                let text = match msg {
                    Message::Text(t) => t,
                    Message::Binary(_) => {
                        let e = ApiError::bad_request("malformed_json", "send text frames of JSON");
                        let _ = tx.try_send(error_msg(None, None, &e).into());
                        continue;
                    }
                    Message::Close(_) => break,
                    _ => continue,
                };
                state.metrics.ws_messages_in.fetch_add(1, Ordering::Relaxed);
                // A message racing the session's end is not acted on.
                if registration.closed.borrow().is_some() {
                    continue;
                }
                if !state.account_limiter.check(&user.id) {
                    let e = state.metrics.rate_limited("rate_limited", "too many messages; slow down");
                    // Read just enough of the refused message for the client to tell which it was.
                    let (table, reference) = reference_of(text.as_str());
                    let _ = tx.try_send(error_msg(table, reference.as_ref(), &e).into());
                    continue;
                }
                handle(&state, conn, &caller, ip, &tx, &mut subscribed, text.as_str()).await;
            }
            _ = ping.tick() => {
                if last_heard.elapsed() > IDLE {
                    break;
                }
                alive = sink.send(Message::Ping(Vec::new().into())).await.is_ok();
            }
            _ = shutdown.changed() => {
                let _ = sink.send(Message::Close(None)).await;
                break;
            }
            _ = registration.closed.changed() => {
                let reason = registration.closed.borrow().unwrap_or(crate::sockets::REVOKED);
                let frame = CloseFrame { code: SESSION_ENDED, reason: reason.into() };
                let _ = sink.send(Message::Close(Some(frame))).await;
                break;
            }
        }
    }
    // A table not in memory has forgotten its followers already: not loaded for this.
    for table in subscribed.into_keys() {
        state
            .hub
            .send_if_running(table, Cmd::Unsubscribe { conn })
            .await;
    }
    drop(registration);
    state.metrics.ws_connections.fetch_sub(1, Ordering::Relaxed);
    tracing::debug!(conn, "websocket closed");
}

async fn handle(
    state: &Arc<AppState>,
    conn: u64,
    caller: &Caller,
    ip: IpAddr,
    tx: &mpsc::Sender<Utf8Bytes>,
    subscribed: &mut HashMap<TableId, Followed>,
    text: &str,
) {
    let msg = match decode_client_message(text) {
        Ok(m) => m,
        Err(refusal) => {
            let (table, reference) = reference_of(text);
            let _ = tx.try_send(error_msg(table, reference.as_ref(), &refusal.into()).into());
            return;
        }
    };
    match msg {
        ClientMsg::Ping { reference } => {
            let _ = tx.try_send(
                json!({ "protocol": PROTOCOL, "type": "pong", "ref": reference })
                    .to_string()
                    .into(),
            );
        }
        ClientMsg::Subscribe {
            table,
            invite,
            reference,
        } => {
            // Over when followed: those are capped per connection (each one followed
            // cost the server a load from the database and a replay).
            let over = subscribed.values().filter(|f| f.over).count();
            let room_for_over = subscribed.get(&table).is_some_and(|f| f.over)
                || over < state.config.max_finished_subscriptions;
            let place = match subscribed.remove(&table) {
                Some(followed) => followed.place,
                None => match state.subscriptions.acquire(ip) {
                    Some(place) => place,
                    None => {
                        let e = ApiError::new(
                            StatusCode::TOO_MANY_REQUESTS,
                            "too_many_subscriptions",
                            format!(
                                "this address already follows {} tables; unsubscribe from some first",
                                state.config.subscriptions_per_ip
                            ),
                        );
                        let _ = tx.try_send(error_msg(Some(table), reference.as_ref(), &e).into());
                        return;
                    }
                },
            };
            let c = caller.clone();
            let sub_tx = tx.clone();
            let r = state
                .hub
                .ask(table, |reply| Cmd::Subscribe {
                    caller: c,
                    conn,
                    invite,
                    tx: sub_tx,
                    room_for_over,
                    reply,
                })
                .await;
            match r {
                Ok(live) => {
                    subscribed.insert(table, Followed { over: !live, place });
                }
                Err(e) => {
                    let _ = tx.try_send(error_msg(Some(table), reference.as_ref(), &e).into());
                }
            }
        }
        ClientMsg::Unsubscribe { table, reference } => {
            if subscribed.remove(&table).is_some() {
                state
                    .hub
                    .send_if_running(table, Cmd::Unsubscribe { conn })
                    .await;
            }
            let _ = tx.try_send(
                json!({ "protocol": PROTOCOL, "type": "unsubscribed", "table": table, "ref": reference })
                    .to_string()
                    .into(),
            );
        }
        ClientMsg::Act {
            table,
            version,
            draft,
            action,
            seat,
            id,
            reference,
        } => {
            let c = caller.clone();
            let r = state
                .hub
                .ask(table, |reply| Cmd::Act {
                    caller: c,
                    seat,
                    version,
                    draft,
                    action,
                    id,
                    reply,
                })
                .await;
            let text = match r {
                Ok(v) => json!({ "protocol": PROTOCOL, "type": "ack", "table": table, "ref": reference, "version": v }).to_string(),
                Err(e) => error_msg(Some(table), reference.as_ref(), &e),
            };
            let _ = tx.try_send(text.into());
        }
    }
}

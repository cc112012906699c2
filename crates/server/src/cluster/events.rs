//! LISTEN/NOTIFY between the nodes: one listener per node (reconnecting), and what
//! the notices carry.
//!
//! - `takuge_tables`, `"NODE ID ID …"`: the tables handed (graceful stop) or placed
//!   on node NODE, which loads them at once instead of at the next request.
//! - `takuge_sessions`, `"u USER"` or `"h HASH HASH …"`: sessions ended on one node
//!   (logout, password change, account deletion, registration of a guest), which
//!   every node forgets from its session cache.
//! - `takuge_gone`, `"NODE NODE …"`: nodes found gone (their presence lock freed, so
//!   their process died) and their leases expired: every node scans for orphans now,
//!   so that the dead node's tables are shared at once.
//!
//! A notice sent while a listener was away is lost, so a listener that (re)connects
//! forgets every cached session (they are read again from the database).

use crate::auth::Forgotten;
use crate::store::cluster::{Heard, Listener};
use crate::store::{Store, StoreError};
use crate::AppState;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

pub const TABLES: &str = "takuge_tables";
pub const SESSIONS: &str = "takuge_sessions";
pub const GONE: &str = "takuge_gone";

/// At most this many ids or hashes in one notice (PostgreSQL takes 8,000 bytes).
const PER_NOTICE: usize = 100;

/// Tells node `node` to load `tables` now.
pub async fn tell_tables(db: &Store, node: &str, tables: &[i64]) -> Result<(), StoreError> {
    for chunk in tables.chunks(PER_NOTICE) {
        let ids: Vec<String> = chunk.iter().map(i64::to_string).collect();
        db.notify(TABLES, &format!("{node} {}", ids.join(" ")))
            .await?;
    }
    Ok(())
}

/// Tells every node that `nodes` are gone, so that each scans for orphans now.
pub async fn tell_gone(db: &Store, nodes: &[String]) -> Result<(), StoreError> {
    for chunk in nodes.chunks(PER_NOTICE) {
        db.notify(GONE, &chunk.join(" ")).await?;
    }
    Ok(())
}

/// Starts the node's listener, and the sender of what its session cache forgets;
/// returns once the listener listens (or failed its first try, logged).
pub async fn start(state: &Arc<AppState>) {
    let (forgotten_tx, forgotten_rx) = mpsc::unbounded_channel();
    state.sessions.tell_others_through(forgotten_tx);
    tokio::spawn(send_forgotten(state.db.clone(), forgotten_rx));
    let (ready_tx, ready) = oneshot::channel();
    tokio::spawn(listen(state.clone(), ready_tx));
    let _ = tokio::time::timeout(Duration::from_secs(5), ready).await;
}

async fn send_forgotten(db: Store, mut rx: mpsc::UnboundedReceiver<Forgotten>) {
    while let Some(what) = rx.recv().await {
        let payloads: Vec<String> = match what {
            Forgotten::User(id) => vec![format!("u {id}")],
            Forgotten::Hashes(hashes) => hashes
                .chunks(PER_NOTICE)
                .map(|c| format!("h {}", c.join(" ")))
                .collect(),
        };
        for p in payloads {
            if let Err(e) = db.notify(SESSIONS, &p).await {
                tracing::error!(error = %e, "cannot tell the other nodes of ended sessions");
            }
        }
    }
}

async fn listen(state: Arc<AppState>, ready: oneshot::Sender<()>) {
    let mut ready = Some(ready);
    let mut shutdown = state.shutdown.clone();
    loop {
        match Listener::connect(&state.config.database_url, &[TABLES, SESSIONS, GONE]).await {
            Ok(mut listener) => {
                // What was said while nobody listened is lost.
                state.sessions.clear_here();
                if let Some(r) = ready.take() {
                    let _ = r.send(());
                }
                loop {
                    tokio::select! {
                        n = listener.recv() => match n {
                            Ok(Heard::Notice { channel, payload }) => on_notice(&state, &channel, &payload),
                            // The connection dropped; the next call reconnects.
                            Ok(Heard::Dropped) => state.sessions.clear_here(),
                            Err(e) => {
                                tracing::warn!(error = %e, "cluster listener lost; reconnecting");
                                break;
                            }
                        },
                        _ = shutdown.wait_for(|&s| s) => return,
                    }
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "cluster listener cannot connect; trying again");
                if let Some(r) = ready.take() {
                    let _ = r.send(());
                }
            }
        }
        tokio::select! {
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
            _ = shutdown.wait_for(|&s| s) => return,
        }
    }
}

fn on_notice(state: &Arc<AppState>, channel: &str, payload: &str) {
    let mut words = payload.split(' ');
    match (channel, words.next()) {
        (SESSIONS, Some("u")) => {
            if let Some(Ok(id)) = words.next().map(str::parse::<i64>) {
                state.sessions.forget_here(&Forgotten::User(id));
            }
        }
        (SESSIONS, Some("h")) => {
            let hashes: Vec<String> = words.map(str::to_string).collect();
            // Its sockets here end too: a socket is authenticated once, at its
            // upgrade, so one left open would go on reading the ended session's tables.
            state
                .sockets
                .close_sessions(&hashes, crate::sockets::ENDED_ELSEWHERE);
            state.sessions.forget_here(&Forgotten::Hashes(hashes));
        }
        (GONE, Some(_)) => state.cluster.scan_now.notify_one(),
        (TABLES, Some(node)) if state.cluster.node().is_some_and(|c| c.name == node) => {
            let ids: Vec<i64> = words.filter_map(|w| w.parse().ok()).collect();
            let state = state.clone();
            tokio::spawn(async move {
                state.hub.take_handed(&ids).await;
            });
        }
        _ => {}
    }
}

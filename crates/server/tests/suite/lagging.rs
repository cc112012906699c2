//! A connection that falls behind (its client stops reading while tables play on) is
//! closed with 1013, "try again later", not left on a stale view: the client
//! reconnects and gets each table as it is now.

use crate::common::*;
use serde_json::json;
use std::time::Duration;
const LAGGING_REASON: &str = "this connection fell behind; reconnect to resume";
use tokio_tungstenite::tungstenite::Message;

/// Bot tables enough that their messages fill the socket's buffers and the
/// connection's queue (1,024 messages) well before they finish.
const TABLES: usize = 60;

async fn a_client_that_stops_reading_is_closed_with_1013_and_resumes_on_reconnect(
    backend: Backend,
) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = takuge_server::Server::start(takuge_server::Config {
        max_open_tables_per_user: TABLES,
        ..config(env.url.clone())
    })
    .await
    .expect("server starts");
    let base = format!("http://{}", server.addr);
    let host = register(server.addr, "host").await;
    let tables = bot_tables(&host, TABLES, 4).await;
    // It follows every table, then reads nothing more (not even the greeting).
    let mut laggard = slow_reader(&host, server.addr).await;
    for t in &tables {
        let sub = json!({"type": "subscribe", "table": t}).to_string();
        futures_util::SinkExt::send(&mut laggard, Message::Text(sub.into()))
            .await
            .expect("subscribe");
    }
    // A watcher that reads everything stays open throughout, to the end of its table.
    let mut watcher = host.ws().await;
    watcher
        .send(json!({"type": "subscribe", "table": tables[0]}))
        .await;
    watcher.recv_type("table").await;
    let watched = tokio::spawn(async move {
        loop {
            let m = watcher.recv_type("table").await;
            if m["status"] == "finished" {
                return m["version"].as_u64();
            }
        }
    });
    for t in &tables {
        let (s, b) = host
            .post(&format!("/api/tables/{t}/start"), json!({}))
            .await;
        assert_eq!(s, 200, "{b}");
    }
    let closed = eventually(Duration::from_secs(60), || async {
        metric(&base, "takuge_websocket_closed_lagging_total").await >= 1
    })
    .await;
    assert!(
        closed,
        "the connection that stopped reading was never closed"
    );
    // Reading again, the client gets what was already on its way, then the close:
    // 1013 with words that name no table and no seat.
    let frame = close_frame(&mut laggard, Duration::from_secs(20)).await;
    assert_eq!(frame, Some((1013, LAGGING_REASON.to_string())));
    // Only that connection: the watcher saw its table to the end.
    let last = tokio::time::timeout(Duration::from_secs(60), watched)
        .await
        .expect("the watcher's table ends")
        .expect("watcher");
    let (_, end) = host.get(&format!("/api/tables/{}", tables[0])).await;
    assert_eq!(last, end["version"].as_u64());
    assert_eq!(
        metric(&base, "takuge_websocket_closed_lagging_total").await,
        1
    );
    // Reconnecting, it gets the table as it is now.
    let (_, now) = host.get(&format!("/api/tables/{}", tables[1])).await;
    let mut again = host.ws().await;
    again
        .send(json!({"type": "subscribe", "table": tables[1]}))
        .await;
    let fresh = again.recv_type("table").await;
    assert!(
        fresh["version"].as_u64() >= now["version"].as_u64(),
        "{fresh} is older than {now}"
    );
    server.shutdown().await;
}

on_both_databases!(a_client_that_stops_reading_is_closed_with_1013_and_resumes_on_reconnect);

//! One table group: `humans` load clients (guests, each on its own node and WebSocket)
//! sit at a table the first creates, the other seats get server bots, and each plays
//! its seat as a player would; when the game ends they start another table, until told
//! to stop or their games are played.

use crate::journal::Journal;
use crate::nodes::{Nodes, Refused};
use crate::player::Player;
use crate::LoadConfig;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// What every client counts, shared.
#[derive(Default)]
pub(crate) struct Counters {
    pub client_actions: AtomicU64,
    pub games: AtomicU64,
    pub errors: AtomicU64,
    /// Actions sent again under their id (no ack in time, a transient error, or a
    /// connection lost) and connections opened again.
    pub resends: AtomicU64,
    pub reconnects: AtomicU64,
    /// Groups whose first table is playing.
    pub ready: AtomicU64,
    /// Set after the warm-up: only then are actions, games and latencies counted.
    pub measuring: AtomicBool,
}

impl Counters {
    pub fn measuring(&self) -> bool {
        self.measuring.load(Ordering::Relaxed)
    }

    pub fn count(&self, what: &AtomicU64) {
        if self.measuring() {
            what.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// What the clients of a run share.
pub(crate) struct Shared {
    pub cfg: LoadConfig,
    pub nodes: Nodes,
    pub stop: AtomicBool,
    pub counters: Counters,
    pub journal: Journal,
}

impl Shared {
    pub fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Table group `index`: its clients' guests are made on nodes `index`, `index + 1`, …
/// and play over WebSockets to those nodes, so that with several nodes one table has
/// players on several of them. Its latencies (ms).
pub(crate) async fn group(
    shared: Arc<Shared>,
    index: usize,
    seed: u64,
) -> Result<Vec<f64>, String> {
    let humans = shared.cfg.humans.clamp(1, shared.cfg.players.max(1));
    let mut players = Vec::with_capacity(humans);
    for j in 0..humans {
        let mut tries = 0;
        let guest = shared
            .nodes
            .post(index + j, "/api/guest", None, &json!({}), &mut tries)
            .await
            .map_err(describe)?;
        let token = guest["token"].as_str().ok_or("no token")?.to_string();
        let name = format!("g{index}s{j}");
        players.push(Player::new(
            token,
            index + j,
            name,
            seed.wrapping_add(j as u64),
        ));
    }
    let mut latencies = Vec::new();
    let mut played = 0u64;
    let mut first = true;
    while !shared.stopping() && shared.cfg.games_per_table.is_none_or(|g| played < g) {
        let table = new_table(&shared, &players).await?;
        shared.journal.started(table);
        if std::mem::take(&mut first) {
            shared.counters.ready.fetch_add(1, Ordering::Relaxed);
        }
        let plays = players.iter_mut().map(|p| p.play(&shared, table));
        for r in futures_util::future::join_all(plays).await {
            latencies.extend(r?);
        }
        played += 1;
    }
    for p in &mut players {
        p.close().await;
    }
    Ok(latencies)
}

fn describe(e: Result<Refused, String>) -> String {
    match e {
        Ok(r) => r.to_string(),
        Err(e) => e,
    }
}

/// A POST that may have been done already by an earlier try whose answer was lost: a
/// retry's refusal with one of `done_codes` means it was.
async fn post_once(
    shared: &Shared,
    node: usize,
    path: &str,
    token: &str,
    body: Value,
    done_codes: &[&str],
) -> Result<Value, String> {
    let mut tries = 0;
    match shared
        .nodes
        .post(node, path, Some(token), &body, &mut tries)
        .await
    {
        Ok(v) => Ok(v),
        Err(Ok(r)) if tries > 1 && done_codes.contains(&r.code.as_str()) => Ok(Value::Null),
        Err(e) => Err(format!("POST {path}: {}", describe(e))),
    }
}

/// The host (the group's first client) creates a table and sits; the others sit
/// through their own nodes; bots fill the rest; the host starts it.
async fn new_table(shared: &Shared, players: &[Player]) -> Result<i64, String> {
    let cfg = &shared.cfg;
    let host = players.first().ok_or("no player")?;
    let t = post_once(
        shared,
        host.node,
        "/api/tables",
        &host.token,
        json!({"game": cfg.game, "players": cfg.players, "options": cfg.options}),
        &[],
    )
    .await?;
    let id = t["id"].as_i64().ok_or("no table id")?;
    for p in &players[1..] {
        let path = format!("/api/tables/{id}/sit");
        post_once(
            shared,
            p.node,
            &path,
            &p.token,
            json!({}),
            &["already_seated"],
        )
        .await?;
    }
    if players.len() < cfg.players {
        let path = format!("/api/tables/{id}/bots");
        post_once(
            shared,
            host.node,
            &path,
            &host.token,
            json!({"bot": cfg.bot}),
            &[],
        )
        .await?;
    }
    let path = format!("/api/tables/{id}/start");
    post_once(
        shared,
        host.node,
        &path,
        &host.token,
        json!({}),
        &["wrong_status"],
    )
    .await?;
    Ok(id)
}

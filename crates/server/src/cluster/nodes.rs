//! A named node's life among the others: it registers at start (refusing to run
//! beside a live instance of its own name), renews its row and its leases every
//! `HEARTBEAT` (stopping the tables whose lease another node took) and keeps its
//! presence lock held, looks every `PRESENCE_EVERY` for nodes whose presence lock is
//! gone (their process died) and expires their leases, claims (then, and every
//! `FAILOVER_EVERY`) its share of the tables whose lease expired, and at a graceful
//! stop hands its tables to the least-loaded live nodes.

use super::{events, lease_ms, NodeConfig, FAILOVER_EVERY, HEARTBEAT, LEASE, PRESENCE_EVERY};
use crate::store::cluster::{Held, Kept, OrphanScan};
use crate::store::{Store, StoreError};
use crate::AppState;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// Registers `config`'s node as a new instance; the instance's id. While another
/// instance of the name heartbeats (a restart right after a crash: the crashed one's
/// heartbeat is still fresh), waits up to a lease for its heartbeat to go stale, then
/// refuses. The node's presence (`presence_key`, its lock's key) is taken first, so
/// that no scan sees the node's row without its lock and takes it for gone.
pub async fn register(
    db: &Store,
    config: &NodeConfig,
    presence_key: i64,
) -> Result<String, String> {
    let instance = crate::auth::hex(&crate::auth::random_bytes::<8>().map_err(|e| e.message)?);
    let give_up = tokio::time::Instant::now() + LEASE + Duration::from_secs(1);
    loop {
        let registered = db
            .register_node(
                &config.name,
                &config.advertise,
                &instance,
                presence_key,
                lease_ms(),
            )
            .await
            .map_err(|e| format!("cannot register node {}: {e}", config.name))?;
        if registered {
            return Ok(instance);
        }
        if tokio::time::Instant::now() >= give_up {
            return Err(format!(
                "another live node is named {} (its heartbeat is fresh): give each node its own --node-name",
                config.name
            ));
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// Starts the heartbeat and the failover scan; both end at shutdown.
pub fn spawn_loops(state: &Arc<AppState>) {
    tokio::spawn(every(state.clone(), HEARTBEAT, |s| Box::pin(heartbeat(s))));
    tokio::spawn(failover_loop(state.clone()));
}

/// Starts a nameless PostgreSQL node's one loop: every `HEARTBEAT` it makes sure it
/// still holds the database's node lock (`SoleNode::keep`); ends at shutdown.
pub fn spawn_sole_loop(state: &Arc<AppState>) {
    tokio::spawn(every(state.clone(), HEARTBEAT, |s| Box::pin(keep_sole(s))));
}

/// A nameless node's lock, taken again if its session dropped; a node that finds
/// named nodes took theirs meanwhile stops serving (`displaced`).
async fn keep_sole(state: &AppState) -> Result<(), StoreError> {
    if state.cluster.is_displaced() {
        return Ok(());
    }
    let Some(mut sole) = state.cluster.sole().await else {
        return Ok(());
    };
    let kept = sole.keep().await?;
    drop(sole);
    if kept == Kept::Displaced {
        displaced(state, crate::store::cluster::NAMED_NODES_RUN).await;
    }
    Ok(())
}

/// What `serve` answers when it stopped because this node was displaced.
pub const DISPLACED: &str = "stopped: while this node's own database session was down, a node of the other kind took the database's node lock (a node without --node-name beside named ones), and the two would have run the same tables";

/// This node's lock session dropped, and the other kind of node took the database's
/// node lock meanwhile (a nameless node beside named ones): it would run the same
/// tables, so this node stops serving them — every table stops after the command it
/// is running (their followers are told they moved), none is loaded again, and a
/// named node marks itself stopping and lets its leases go, so that a nameless node
/// waiting on its heartbeat starts now. Chosen over taking the lock back by force
/// (there is no such thing) or running on until the nameless node stops (both would
/// write the same tables meanwhile); `serve` then stops the process, with `DISPLACED`.
pub async fn displaced(state: &AppState, why: &str) {
    if !state.cluster.mark_displaced() {
        return;
    }
    tracing::error!(why, "this node stops serving tables");
    let held = state.hub.shutdown().await;
    if let Some((name, instance)) = me(state) {
        let released = async {
            state.db.node_stopping(name, instance).await?;
            state.db.release_leases(name, &held).await
        };
        if let Err(e) = released.await {
            tracing::warn!(node = name, error = %e, "cannot mark the node stopping");
        }
    }
}

/// Every `PRESENCE_EVERY`, looks for nodes whose process died (their presence lock is
/// gone) and, if it found one, scans for orphans at once and wakes the other nodes'
/// scans too (NOTIFY); otherwise scans every `FAILOVER_EVERY` (leases that expired:
/// a paused node, or one whose machine vanished with its sessions still open), or
/// when another node says it found one gone.
async fn failover_loop(state: Arc<AppState>) {
    let mut shutdown = state.shutdown.clone();
    let mut last_scan = tokio::time::Instant::now();
    loop {
        let woken = tokio::select! {
            () = tokio::time::sleep(PRESENCE_EVERY) => false,
            () = state.cluster.scan_now.notified() => true,
            _ = shutdown.wait_for(|&s| s) => return,
        };
        if state.cluster.is_displaced() {
            continue;
        }
        let found = match look_for_gone(&state).await {
            Ok(found) => found,
            Err(e) => {
                tracing::warn!(error = %e, "cannot look for nodes gone; trying again");
                false
            }
        };
        if woken || found || last_scan.elapsed() >= FAILOVER_EVERY {
            last_scan = tokio::time::Instant::now();
            if let Err(e) = failover(&state).await {
                tracing::warn!(error = %e, "failover scan failed; trying again");
            }
        }
    }
}

/// Marks gone the nodes whose presence lock is gone and expires their leases (see
/// `Presence::expire_gone_nodes`); whether it found any (then the other nodes are told).
async fn look_for_gone(state: &AppState) -> Result<bool, StoreError> {
    if me(state).is_none() {
        return Ok(false);
    }
    let Some(mut presence) = state.cluster.presence().await else {
        return Ok(false);
    };
    let gone = presence.expire_gone_nodes(lease_ms()).await?;
    drop(presence);
    if gone.nodes.is_empty() {
        return Ok(false);
    }
    tracing::warn!(
        nodes = %gone.nodes.join(" "),
        leases = gone.leases,
        "nodes gone (their database session ended): their tables are claimed now"
    );
    events::tell_gone(&state.db, &gone.nodes).await?;
    Ok(true)
}

type Round = for<'a> fn(
    &'a AppState,
) -> std::pin::Pin<
    Box<dyn std::future::Future<Output = Result<(), StoreError>> + Send + 'a>,
>;

/// Runs `round` every `period` until the server shuts down; a failed round is logged
/// and the next one tries again.
async fn every(state: Arc<AppState>, period: Duration, round: Round) {
    let mut shutdown = state.shutdown.clone();
    loop {
        tokio::select! {
            () = tokio::time::sleep(period) => {}
            _ = shutdown.wait_for(|&s| s) => return,
        }
        if let Err(e) = round(&state).await {
            tracing::warn!(error = %e, "cluster round failed; trying again");
        }
    }
}

/// This node's name and instance (a named node's).
fn me(state: &AppState) -> Option<(&str, &str)> {
    let node = state.cluster.node()?;
    Some((node.name.as_str(), state.cluster.instance()?))
}

/// Renews the node's row and its leases, each under the epoch it runs the table: a
/// table whose lease another node claimed meanwhile (this node was paused, or cut
/// off, past the lease) is not renewed, and stops here.
pub async fn heartbeat(state: &AppState) -> Result<(), StoreError> {
    let Some((name, instance)) = me(state) else {
        return Ok(());
    };
    if state.cluster.is_displaced() {
        return Ok(());
    }
    let Some(mut presence) = state.cluster.presence().await else {
        return Ok(());
    };
    // On the presence connection, never waiting for the pool: the lock is checked
    // (and taken again if its session dropped: were it gone, the other nodes would
    // take this node for dead and claim its tables), then the row and the leases.
    match presence.keep().await {
        Ok(Kept::Held) => {}
        Ok(Kept::Displaced) => {
            drop(presence);
            displaced(state, crate::store::cluster::NAMELESS_NODE_RUNS).await;
            return Ok(());
        }
        Err(e) => {
            tracing::error!(node = name, error = %e, "cannot hold the node's presence lock")
        }
    }
    let held = state.hub.held();
    let alive = presence
        .node_heartbeat(name, instance, held.len() as i64)
        .await?;
    let kept = if alive {
        presence.renew_leases(name, &held, lease_ms()).await?
    } else {
        // Another instance runs under this name now: none of these is ours.
        tracing::error!(
            node = name,
            "another instance took this node's name; its tables stop here"
        );
        Vec::new()
    };
    drop(presence);
    let lost: Vec<Held> = held.into_iter().filter(|h| !kept.contains(&h.t)).collect();
    if !lost.is_empty() {
        // Named with their epochs (at most 20), so that the log can be read against
        // `lease_claims`: a lease found under another epoch may be this node's own
        // newer claim, not another node's.
        let named: Vec<String> = lost
            .iter()
            .take(20)
            .map(|h| format!("{}@{}", h.t, h.e))
            .collect();
        tracing::warn!(
            node = name,
            tables = lost.len(),
            held = %named.join(" "),
            "leases no longer held under these epochs (claimed since, by another node or this one); those tables stop here"
        );
        state.hub.lose(&lost);
    }
    state
        .metrics
        .leases_held
        .store(kept.len() as i64, Ordering::Relaxed);
    Ok(())
}

/// The failover scan: claims and restores this node's share of the live tables
/// nobody holds (their node stopped heartbeating).
pub async fn failover(state: &AppState) -> Result<(), StoreError> {
    take_orphans(state, false).await.map(|_| ())
}

/// Claims, in one statement, this node's share of the live tables nobody holds (at
/// most the orphans divided by the live nodes, so that several nodes looking at once
/// spread them; with `mine_too`, at start, every orphan and every table whose lease
/// still names this node), then restores them several at a time; how many started.
/// The claim is one statement and the restores overlap because a dead node's
/// thousand tables, claimed and loaded one by one, took longer than a lease under
/// load (docs/PERFORMANCE.md, "Several nodes under load").
pub async fn take_orphans(state: &AppState, mine_too: bool) -> Result<usize, StoreError> {
    let Some((name, _)) = me(state) else {
        return Ok(0);
    };
    let started = std::time::Instant::now();
    let running: Vec<i64> = state.hub.held().iter().map(|h| h.t).collect();
    let claimed = state
        .db
        .claim_orphans(OrphanScan {
            node: name,
            running: &running,
            // A table created in the last lease is left to its creator, which claims it.
            created_before: crate::time::now() - LEASE.as_secs() as i64,
            lease_ms: lease_ms(),
            limit: SCAN_LIMIT,
            mine_too,
        })
        .await?;
    if claimed.is_empty() {
        return Ok(0);
    }
    let count = claimed.len();
    state
        .metrics
        .lease_claims
        .fetch_add(count as u64, Ordering::Relaxed);
    // Logged at the claim and again once restored (scripts/cluster-bench times a
    // failover's restores from the pair).
    tracing::info!(
        claimed = count,
        claim_ms = started.elapsed().as_millis() as u64,
        "tables nobody held claimed here; restoring them"
    );
    let restored = state.hub.restore_claimed(claimed).await;
    state
        .metrics
        .failover_restores
        .fetch_add(restored as u64, Ordering::Relaxed);
    tracing::info!(
        claimed = count,
        restored,
        total_ms = started.elapsed().as_millis() as u64,
        "tables nobody held restored here"
    );
    Ok(restored)
}

/// At most this many tables claimed by one scan (the next scan takes more).
const SCAN_LIMIT: i64 = 5000;

/// At a graceful stop, once every table here has stopped: hands `held` to the live
/// nodes, each table to the least loaded (counting what it is handed), under a new
/// epoch, and tells each node its tables (NOTIFY) so it loads them at once. With no
/// other live node, the leases are let go.
pub async fn hand_over(state: &AppState, held: Vec<Held>) {
    let Some((name, instance)) = me(state) else {
        return;
    };
    if let Err(e) = hand_over_to_others(&state.db, name, instance, held).await {
        tracing::error!(node = name, error = %e, "handover failed: the tables move once their leases expire");
    }
}

async fn hand_over_to_others(
    db: &Store,
    name: &str,
    instance: &str,
    held: Vec<Held>,
) -> Result<(), StoreError> {
    db.node_stopping(name, instance).await?;
    let mut nodes = db.live_nodes(lease_ms()).await?;
    nodes.retain(|n| n.name != name);
    if nodes.is_empty() {
        return db.release_leases(name, &held).await;
    }
    let mut shares: Vec<Vec<Held>> = vec![Vec::new(); nodes.len()];
    for h in held {
        let Some((i, least)) = nodes
            .iter_mut()
            .enumerate()
            .min_by_key(|(_, n)| n.live_tables)
        else {
            break;
        };
        least.live_tables += 1;
        shares[i].push(h);
    }
    for (node, share) in nodes.iter().zip(shares) {
        if share.is_empty() {
            continue;
        }
        let handed = db.hand_over(name, &share, &node.name, lease_ms()).await?;
        tracing::info!(to = %node.name, tables = handed.len(), "tables handed over");
        events::tell_tables(db, &node.name, &handed).await?;
    }
    Ok(())
}

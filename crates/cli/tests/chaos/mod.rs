//! The chaos test's checks against the database (the schema of issue 19's leases:
//! `table_leases(table_id, node, epoch, expires_at)`, `lease_claims(table_id, epoch,
//! node, claimed_at)`, `actions.epoch`): a watcher of the lease rows during the run,
//! and the history and replays at the end.

use serde_json::Value;
use sqlx::{PgPool, Row};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use takuge_loadtest::Acknowledged;

/// A new, empty database on the PostgreSQL `admin` names: its URL.
pub async fn fresh_database(admin: &str) -> String {
    let name = format!("takuge_chaos_{}", std::process::id());
    let pool = PgPool::connect(admin)
        .await
        .expect("connect to the test PostgreSQL");
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .execute(&pool)
        .await
        .expect("drop an old chaos database");
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&pool)
        .await
        .expect("create the chaos database");
    let (base, query) = admin.split_once('?').unwrap_or((admin, ""));
    let server = base
        .rsplit_once('/')
        .filter(|(s, _)| s.contains("://") && !s.ends_with('/'))
        .map_or(base, |(s, _)| s);
    let query = if query.is_empty() {
        String::new()
    } else {
        format!("?{query}")
    };
    format!("{server}/{name}{query}")
}

pub async fn drop_database(admin: &str, url: &str) {
    let name = url
        .rsplit('/')
        .next()
        .unwrap_or("")
        .split('?')
        .next()
        .unwrap_or("");
    if let Ok(pool) = PgPool::connect(admin).await {
        let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .execute(&pool)
            .await;
    }
}

/// Reads the lease rows every `every` while the run goes on: for each table, the epoch
/// never goes down, and one epoch is only ever held by one node (a table changes
/// owner only through a new epoch).
pub struct LeaseWatch {
    stop: Arc<AtomicBool>,
    task: tokio::task::JoinHandle<Vec<String>>,
}

impl LeaseWatch {
    pub fn start(rt: &tokio::runtime::Runtime, db: &str, every: Duration) -> LeaseWatch {
        let stop = Arc::new(AtomicBool::new(false));
        let db = db.to_string();
        let stopping = stop.clone();
        let task = rt.spawn(async move {
            let mut violations = Vec::new();
            let pool = match PgPool::connect(&db).await {
                Ok(p) => p,
                Err(e) => return vec![format!("the lease watcher cannot connect: {e}")],
            };
            let mut last: HashMap<i64, (i64, String)> = HashMap::new();
            let mut errors = HashSet::new();
            let (mut samples, mut most) = (0u64, 0usize);
            while !stopping.load(Ordering::Relaxed) {
                match sqlx::query("SELECT table_id, node, epoch FROM table_leases")
                    .fetch_all(&pool)
                    .await
                {
                    Ok(rows) => {
                        samples += 1;
                        most = most.max(rows.len());
                        for r in rows {
                            let (Ok(t), Ok(node), Ok(epoch)) = (
                                r.try_get::<i64, _>("table_id"),
                                r.try_get::<String, _>("node"),
                                r.try_get::<i64, _>("epoch"),
                            ) else {
                                violations.push("a lease row of another shape".into());
                                continue;
                            };
                            if let Some((e0, n0)) = last.get(&t) {
                                if epoch < *e0 {
                                    violations.push(format!(
                                        "table {t}: its lease went back from epoch {e0} ({n0}) to {epoch} ({node})"
                                    ));
                                } else if epoch == *e0 && node != *n0 {
                                    violations.push(format!(
                                        "table {t}: epoch {epoch} held by {n0}, then by {node}: two owners under one epoch"
                                    ));
                                }
                            }
                            last.insert(t, (epoch, node));
                        }
                    }
                    Err(e) => {
                        if errors.insert(e.to_string()) {
                            violations.push(format!("cannot read the lease rows (no table has a single owner): {e}"));
                        }
                    }
                }
                tokio::time::sleep(every).await;
            }
            eprintln!("lease watcher: {samples} reads, at most {most} leases at once, {} tables seen", last.len());
            if samples == 0 {
                violations.push("the lease watcher never read the lease rows".into());
            }
            violations
        });
        LeaseWatch { stop, task }
    }

    pub async fn stop(self) -> Vec<String> {
        self.stop.store(true, Ordering::Relaxed);
        self.task
            .await
            .unwrap_or_else(|e| vec![format!("the lease watcher failed: {e}")])
    }
}

pub struct History {
    pub violations: Vec<String>,
    pub summary: String,
}

/// The end state against what the clients were told, and each record replayed.
pub async fn check_history(db: &str, ack: &Acknowledged, urls: Vec<String>) -> History {
    let mut v = Vec::new();
    let pool = PgPool::connect(db)
        .await
        .expect("connect to the chaos database");
    let tables: Vec<i64> = ack.tables.clone();

    // Every game finished.
    let rows = sqlx::query("SELECT id, status, outcome FROM game_tables WHERE id = ANY($1)")
        .bind(&tables)
        .fetch_all(&pool)
        .await
        .expect("read the tables");
    let mut outcome: HashMap<i64, Option<String>> = HashMap::new();
    for r in rows {
        let id: i64 = r.get("id");
        let status: String = r.get("status");
        if status != "finished" {
            v.push(format!("table {id} is {status}, not finished"));
        } else {
            outcome.insert(id, r.get("outcome"));
        }
    }

    // No acknowledged action lost; none applied twice.
    let rows = sqlx::query(
        "SELECT table_id, version, client_id FROM actions WHERE table_id = ANY($1) ORDER BY table_id, version",
    )
    .bind(&tables)
    .fetch_all(&pool)
    .await
    .expect("read the actions");
    let mut log: HashMap<(i64, i64), Option<String>> = HashMap::new();
    let mut count: HashMap<i64, i64> = HashMap::new();
    let mut ids: HashMap<(i64, String), u32> = HashMap::new();
    for r in &rows {
        let (t, version, id): (i64, i64, Option<String>) =
            (r.get("table_id"), r.get("version"), r.get("client_id"));
        *count.entry(t).or_default() += 1;
        if let Some(id) = &id {
            *ids.entry((t, id.clone())).or_default() += 1;
        }
        log.insert((t, version), id);
    }
    let mut lost = 0;
    for a in &ack.acked {
        let found = log.get(&(a.table, a.version as i64));
        if found.and_then(|id| id.as_deref()) != Some(a.id.as_str()) {
            lost += 1;
            v.push(format!(
                "table {}: action {} was acknowledged as version {}, but that version holds {found:?}",
                a.table, a.id, a.version
            ));
        }
    }
    for ((t, id), n) in &ids {
        if *n > 1 {
            v.push(format!("table {t}: action {id} was applied {n} times"));
        }
    }

    // History: the epoch of a table's actions never goes down, each epoch was claimed
    // by one node, and every action's epoch was claimed.
    let epochs = sqlx::query(
        "SELECT table_id, version, epoch FROM actions WHERE table_id = ANY($1) ORDER BY table_id, version",
    )
    .bind(&tables)
    .fetch_all(&pool)
    .await;
    let claims = sqlx::query(
        "SELECT table_id, epoch, count(DISTINCT node) AS nodes FROM lease_claims WHERE table_id = ANY($1) GROUP BY table_id, epoch",
    )
    .bind(&tables)
    .fetch_all(&pool)
    .await;
    let (mut owners_changed, mut epochs_seen) = (0, 0);
    match (epochs, claims) {
        (Ok(epochs), Ok(claims)) => {
            let mut claimed = HashSet::new();
            for r in claims {
                let (t, e, nodes): (i64, i64, i64) =
                    (r.get("table_id"), r.get("epoch"), r.get("nodes"));
                claimed.insert((t, e));
                if nodes > 1 {
                    v.push(format!("table {t}: epoch {e} was claimed by {nodes} nodes"));
                }
            }
            let mut last: Option<(i64, i64, i64)> = None;
            for r in epochs {
                let (t, version, e): (i64, i64, i64) =
                    (r.get("table_id"), r.get("version"), r.get("epoch"));
                if !claimed.contains(&(t, e)) {
                    v.push(format!("table {t}: version {version} was committed under epoch {e}, which no node claimed"));
                }
                match last {
                    Some((t0, v0, e0)) if t0 == t && e < e0 => v.push(format!(
                        "table {t}: version {version} committed under epoch {e} after version {v0} under epoch {e0}: an old owner wrote after a new one"
                    )),
                    Some((t0, _, e0)) if t0 == t && e > e0 => owners_changed += 1,
                    Some((t0, _, _)) if t0 == t => {}
                    _ => epochs_seen += 1,
                }
                last = Some((t, version, e));
            }
        }
        (Err(e), _) => v.push(format!(
            "the actions carry no epoch (commits are not fenced): {e}"
        )),
        (_, Err(e)) => v.push(format!("no lease claims to check the epochs against: {e}")),
    }

    // Each finished table's record, downloaded from a node, replays to the outcome the
    // database holds, with every action the database holds.
    let (replayed, failed) = replay_all(&urls, &outcome, &count, &mut v).await;
    let summary = format!(
        "history: {} tables, {} actions ({} acknowledged to the load clients, {lost} of them lost), {} finished tables replayed ({failed} failed), {owners_changed} changes of owner within {epochs_seen} tables' histories",
        tables.len(),
        rows.len(),
        ack.acked.len(),
        replayed,
    );
    History {
        violations: v,
        summary,
    }
}

async fn replay_all(
    urls: &[String],
    outcome: &HashMap<i64, Option<String>>,
    count: &HashMap<i64, i64>,
    v: &mut Vec<String>,
) -> (usize, usize) {
    let http = reqwest::Client::new();
    let mut token = None;
    for url in urls {
        let guest = http
            .post(format!("{url}/api/guest"))
            .header("x-takuge", "1")
            .send()
            .await;
        if let Ok(res) = guest {
            if let Ok(body) = res.json::<Value>().await {
                token = body["token"].as_str().map(|t| (url.clone(), t.to_string()));
                if token.is_some() {
                    break;
                }
            }
        }
    }
    let Some((url, token)) = token else {
        v.push("no node gives a guest account to download the records with".into());
        return (0, 0);
    };
    let registry = takuge_games::registry();
    let (mut replayed, mut failed) = (0, 0);
    let mut ids: Vec<&i64> = outcome.keys().collect();
    ids.sort();
    for &id in ids {
        let stored = outcome.get(&id).cloned().flatten();
        let result = async {
            let res = http
                .get(format!("{url}/api/tables/{id}/record"))
                .bearer_auth(&token)
                .send()
                .await
                .map_err(|e| e.to_string())?;
            let status = res.status();
            let text = res.text().await.map_err(|e| e.to_string())?;
            if !status.is_success() {
                return Err(format!("its record: {status}: {text}"));
            }
            let record: takuge_engine::MatchRecord =
                serde_json::from_str(&text).map_err(|e| format!("not a record: {e}"))?;
            let game = registry.get(&record.game).ok_or("unknown game")?;
            let state = game.replay(&record).map_err(|e| e.to_string())?;
            let replayed = state.outcome().ok_or("the replay does not end the game")?;
            let stored: Value = serde_json::from_str(stored.as_deref().unwrap_or("null"))
                .map_err(|e| e.to_string())?;
            let replayed = serde_json::to_value(&replayed).map_err(|e| e.to_string())?;
            if replayed["scores"] != stored["scores"] || replayed["ranks"] != stored["ranks"] {
                return Err(format!(
                    "the replay ends {replayed}, the database holds {stored}"
                ));
            }
            let n = count.get(&id).copied().unwrap_or(0);
            if record.actions.len() as i64 != n {
                return Err(format!(
                    "the record has {} actions, the database {n}",
                    record.actions.len()
                ));
            }
            Ok::<(), String>(())
        }
        .await;
        match result {
            Ok(()) => replayed += 1,
            Err(e) => {
                failed += 1;
                v.push(format!("table {id}: {e}"));
            }
        }
    }
    (replayed, failed)
}

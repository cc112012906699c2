//! Tables against misuse (issue 13): a resent action is played once, private tables
//! cannot be told from missing ones, and what one account can make the server hold
//! is capped.

use crate::common::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use takuge_server::{Config, Server};

async fn start_with(env: &Env, tweak: impl FnOnce(&mut Config)) -> Server {
    let mut config = config(env.url.clone());
    tweak(&mut config);
    Server::start(config).await.expect("server starts")
}

/// A started Ghost for Sale table: `host` in seat 0, bots in the rest. Its first step
/// has every seat set four cards aside at once, so seat 0 stays pending while the bots
/// move the version on.
async fn ghost_table(host: &Client) -> i64 {
    let (s, t) = host
        .post(
            "/api/tables",
            json!({"game": "ghost-for-sale", "players": 3, "seed": 5}),
        )
        .await;
    assert_eq!(s, 201, "{t}");
    let id = t["id"].as_i64().expect("id");
    for step in ["bots", "start"] {
        let (s, b) = host
            .post(&format!("/api/tables/{id}/{step}"), json!({}))
            .await;
        assert_eq!(s, 200, "{b}");
    }
    id
}

/// The next ack or error, keeping the latest table message in `latest`.
async fn answer(ws: &mut Ws, latest: &mut Value) -> Value {
    loop {
        let m = ws.recv().await.expect("connection open");
        match m["type"].as_str() {
            Some("table") => *latest = m,
            Some("ack") | Some("error") => return m,
            _ => {}
        }
    }
}

/// Seat `seat`'s stored actions at `table`, in order.
async fn stored_actions(env: &Env, table: i64, seat: i64) -> Vec<String> {
    use sqlx::Row;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&env.url).await.expect("open db");
    let rows = sqlx::query(
        "SELECT version, action FROM actions WHERE table_id = $1 AND seat = $2 ORDER BY version",
    )
    .bind(table)
    .bind(seat)
    .fetch_all(&pool)
    .await
    .expect("query");
    pool.close().await;
    rows.iter()
        .map(|r| format!("{}:{}", r.get::<i64, _>(0), r.get::<String, _>(1)))
        .collect()
}

fn legal(m: &Value, k: usize) -> Value {
    m["legal"][k]["action"].clone()
}

async fn a_resent_action_is_played_once(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let mut server = env.start().await;
    let a = Client::guest(server.addr).await;
    let t = ghost_table(&a).await;
    let mut ws = a.ws().await;
    ws.send(json!({"type": "subscribe", "table": t})).await;
    let mut latest = ws.recv_type("table").await;
    let v0 = latest["version"].as_u64().expect("version");
    // A card held twice: its resend would still be legal, so only the server's
    // memory of what was played can refuse it.
    let hand = latest["view"]["me"]["hand"]
        .as_array()
        .expect("hand")
        .clone();
    let pair = hand
        .iter()
        .find(|v| hand.iter().filter(|w| w == v).count() >= 2)
        .expect("the seed deals seat 0 a pair");
    let first = json!({"set_aside": {"value": pair}});

    // A plain resend (no id) of an action chosen before the seat's own action showed:
    // refused, since it cannot be told from a duplicate.
    let act = json!({"type": "act", "table": t, "version": v0, "action": first});
    ws.send(act.clone()).await;
    ws.send(act).await;
    let one = answer(&mut ws, &mut latest).await;
    assert_eq!(one["type"], "ack", "{one}");
    let two = answer(&mut ws, &mut latest).await;
    assert_eq!(
        (two["type"].as_str(), two["code"].as_str()),
        (Some("error"), Some("stale_version")),
        "{two}"
    );
    assert_eq!(stored_actions(&env, t, 0).await.len(), 1);

    // With an id, over the WebSocket: the resend gets the original ack.
    let second = legal(&latest, 0);
    let with_id = json!({"type": "act", "table": t, "version": v0, "action": second, "id": "a-2"});
    ws.send(with_id.clone()).await;
    let acked = answer(&mut ws, &mut latest).await;
    assert_eq!(acked["type"], "ack", "{acked}");
    ws.send(with_id.clone()).await;
    let again = answer(&mut ws, &mut latest).await;
    assert_eq!(
        (again["type"].as_str(), &again["version"]),
        (Some("ack"), &acked["version"]),
        "{again}"
    );
    // The same id with another action is refused.
    let other = (0..latest["legal"].as_array().map_or(0, Vec::len))
        .map(|k| legal(&latest, k))
        .find(|x| *x != second)
        .expect("another legal action");
    ws.send(json!({"type": "act", "table": t, "version": v0, "action": other, "id": "a-2"}))
        .await;
    let reused = answer(&mut ws, &mut latest).await;
    assert_eq!(reused["code"], "id_reused", "{reused}");
    assert_eq!(stored_actions(&env, t, 0).await.len(), 2);

    // Over HTTP, the same.
    let third = legal(&latest, 0);
    let body = json!({"version": v0, "action": third, "id": "a-3"});
    let (s, b) = a
        .post(&format!("/api/tables/{t}/actions"), body.clone())
        .await;
    assert_eq!(s, 200, "{b}");
    let (s, b2) = a
        .post(&format!("/api/tables/{t}/actions"), body.clone())
        .await;
    assert_eq!((s, &b2), (200, &b));
    let bad = json!({"version": v0, "action": third, "id": "no spaces"});
    let (s, e) = a.post(&format!("/api/tables/{t}/actions"), bad).await;
    assert_eq!(
        (s, e["error"]["code"].as_str()),
        (400, Some("invalid_action_id"))
    );
    let before = stored_actions(&env, t, 0).await;
    assert_eq!(before.len(), 3);

    // After a restart the ids are remembered.
    drop(ws);
    server.shutdown().await;
    server = env.start().await;
    let a = a.with_base(server.addr);
    let (s, b3) = a.post(&format!("/api/tables/{t}/actions"), body).await;
    assert_eq!((s, &b3), (200, &b));
    let mut ws = a.ws().await;
    ws.send(with_id).await;
    let after = answer(&mut ws, &mut latest).await;
    assert_eq!(
        (after["type"].as_str(), &after["version"]),
        (Some("ack"), &acked["version"]),
        "{after}"
    );
    assert_eq!(stored_actions(&env, t, 0).await, before);
    server.shutdown().await;
}

/// `text` with table `id` written as `ID` where an answer names it.
fn unnamed(text: &str, id: i64) -> String {
    text.replace(&format!("table {id}\""), "table ID\"")
        .replace(&format!("\"table\":{id},"), "\"table\":ID,")
}

/// What an outsider gets from every table command: HTTP, and the WebSocket's
/// subscribe and act.
async fn outsider_answers(c: &Client, id: i64) -> Vec<(String, u16, String)> {
    let mut out = Vec::new();
    let posts = [
        ("sit", json!({})),
        ("leave", json!({})),
        ("bots", json!({})),
        ("start", json!({})),
        ("abandon", json!({})),
        (
            "actions",
            json!({"version": 0, "action": {"set_aside": {"value": 0}}}),
        ),
    ];
    for (what, body) in posts {
        let path = format!("/api/tables/{id}/{what}");
        let res = c
            .http
            .post(format!("{}{path}", c.base))
            .bearer_auth(&c.token)
            .json(&body)
            .send()
            .await
            .expect("request");
        let status = res.status().as_u16();
        let text = res.text().await.expect("body");
        out.push((what.to_string(), status, unnamed(&text, id)));
    }
    for what in ["", "/record", "/replay", "/replay?seat=1"] {
        let res = c
            .http
            .get(format!("{}/api/tables/{id}{what}", c.base))
            .bearer_auth(&c.token)
            .send()
            .await
            .expect("request");
        let status = res.status().as_u16();
        let text = res.text().await.expect("body");
        out.push((format!("get{what}"), status, unnamed(&text, id)));
    }
    let mut ws = c.ws().await;
    for m in [
        json!({"type": "subscribe", "table": id, "ref": 1}),
        json!({"type": "act", "table": id, "version": 0, "action": {"set_aside": {"value": 0}}, "ref": 2}),
    ] {
        ws.send(m).await;
        let e = ws.recv().await.expect("an answer");
        out.push(("ws".into(), 0, unnamed(&e.to_string(), id)));
    }
    out
}

async fn a_private_table_answers_outsiders_exactly_like_a_missing_one(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let host = Client::guest(server.addr).await;
    let outsider = Client::guest(server.addr).await;
    let private = |players: u8| json!({"game": "ghost-for-sale", "players": players, "private": true, "seed": 3});
    let (s, open) = host.post("/api/tables", private(3)).await;
    assert_eq!(s, 201, "{open}");
    let (s, playing) = host.post("/api/tables", private(3)).await;
    assert_eq!(s, 201, "{playing}");
    let playing = playing["id"].as_i64().expect("id");
    for step in ["bots", "start"] {
        let (s, b) = host
            .post(&format!("/api/tables/{playing}/{step}"), json!({}))
            .await;
        assert_eq!(s, 200, "{b}");
    }
    // The two bots set their four cards aside; then the table waits for the host.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (_, info) = host.get(&format!("/api/tables/{playing}")).await;
        if info["version"] == 8 {
            break;
        }
        assert!(Instant::now() < deadline, "{info}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let before = snapshot(&env).await;
    let missing = outsider_answers(&outsider, 1_000_000).await;
    assert!(missing.iter().all(|(_, s, _)| [0, 404].contains(s)));
    for table in [open["id"].as_i64().expect("id"), playing] {
        let private = outsider_answers(&outsider, table).await;
        for (p, m) in private.iter().zip(&missing) {
            assert_eq!(p, m, "table {table}");
        }
    }
    assert_eq!(snapshot(&env).await, before, "outsiders changed nothing");
    server.shutdown().await;
}

async fn open_tables_per_account_are_capped(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = start_with(&env, |c| {
        c.max_open_tables_per_guest = 2;
        c.max_open_tables_per_user = 3;
    })
    .await;
    let create = |c: &Client| {
        let c = Client {
            base: c.base.clone(),
            http: c.http.clone(),
            token: c.token.clone(),
            user: c.user.clone(),
        };
        async move {
            c.post(
                "/api/tables",
                json!({"game": "ghost-for-sale", "players": 3}),
            )
            .await
        }
    };
    let mut guest = Client::guest(server.addr).await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let (s, t) = create(&guest).await;
        assert_eq!(s, 201, "{t}");
        ids.push(t["id"].as_i64().expect("id"));
    }
    let before = snapshot(&env).await;
    let (s, e) = create(&guest).await;
    assert_eq!(
        (s, e["error"]["code"].as_str()),
        (409, Some("too_many_tables")),
        "{e}"
    );
    assert_eq!(snapshot(&env).await, before);
    // A started table no longer counts.
    for step in ["bots", "start"] {
        let (s, b) = guest
            .post(&format!("/api/tables/{}/{step}", ids[0]), json!({}))
            .await;
        assert_eq!(s, 200, "{b}");
    }
    let (s, t) = create(&guest).await;
    assert_eq!(s, 201, "{t}");
    // A registered account may hold more.
    let (s, b) = guest
        .post(
            "/api/register",
            json!({"name": "capped", "password": "a long password"}),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    // Registering ends the guest's sessions: the account goes on with its new token.
    guest.token = b["token"].as_str().expect("token").to_string();
    let (s, t) = create(&guest).await;
    assert_eq!(s, 201, "{t}");
    let (s, e) = create(&guest).await;
    assert_eq!(
        (s, e["error"]["code"].as_str()),
        (409, Some("too_many_tables"))
    );
    server.shutdown().await;
}

async fn a_table_never_started_expires(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = start_with(&env, |c| c.open_table_ttl = Duration::from_secs(2)).await;
    let host = Client::guest(server.addr).await;
    let (s, open) = host
        .post(
            "/api/tables",
            json!({"game": "ghost-for-sale", "players": 3}),
        )
        .await;
    assert_eq!(s, 201, "{open}");
    let open = open["id"].as_i64().expect("id");
    let playing = ghost_table(&host).await;
    let mut ws = host.ws().await;
    ws.send(json!({"type": "subscribe", "table": open})).await;
    let first = ws.recv_type("table").await;
    assert_eq!(first["status"], "open");
    let started = Instant::now();
    let closed = ws.recv_type("table").await;
    assert_eq!(closed["status"], "abandoned", "{closed}");
    assert_eq!(closed["abandoned_reason"]["code"], "expired", "{closed}");
    assert!(started.elapsed() < Duration::from_secs(10));
    let (_, info) = host.get(&format!("/api/tables/{open}")).await;
    assert_eq!(info["status"], "abandoned");
    assert_eq!(info["abandoned_reason"]["code"], "expired");
    let (_, info) = host.get(&format!("/api/tables/{playing}")).await;
    assert_eq!(info["status"], "playing", "a started table does not expire");
    // Closed, it no longer counts against its host (a guest may hold 3 open tables).
    for _ in 0..3 {
        let (s, b) = host
            .post(
                "/api/tables",
                json!({"game": "ghost-for-sale", "players": 3}),
            )
            .await;
        assert_eq!(s, 201, "{b}");
    }
    server.shutdown().await;
}

async fn a_connection_follows_few_finished_tables(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = start_with(&env, |c| c.max_finished_subscriptions = 2).await;
    let host = Client::guest(server.addr).await;
    let mut over = Vec::new();
    for _ in 0..3 {
        let (s, t) = host
            .post(
                "/api/tables",
                json!({"game": "ghost-for-sale", "players": 3}),
            )
            .await;
        assert_eq!(s, 201, "{t}");
        let id = t["id"].as_i64().expect("id");
        let (s, b) = host
            .post(&format!("/api/tables/{id}/abandon"), json!({}))
            .await;
        assert_eq!(s, 200, "{b}");
        over.push(id);
    }
    let live = ghost_table(&host).await;
    let mut ws = host.ws().await;
    for &t in &over[..2] {
        ws.send(json!({"type": "subscribe", "table": t})).await;
        assert_eq!(ws.recv_type("table").await["table"], t);
    }
    ws.send(json!({"type": "subscribe", "table": over[2], "ref": "third"}))
        .await;
    let e = ws.recv().await.expect("an answer");
    assert_eq!(
        (e["code"].as_str(), e["ref"].as_str()),
        (Some("too_many_subscriptions"), Some("third")),
        "{e}"
    );
    // Live tables are not counted.
    ws.send(json!({"type": "subscribe", "table": live})).await;
    assert_eq!(ws.recv_type("table").await["table"], live);
    // Unsubscribing makes room.
    ws.send(json!({"type": "unsubscribe", "table": over[0]}))
        .await;
    ws.recv_type("unsubscribed").await;
    ws.send(json!({"type": "subscribe", "table": over[2]}))
        .await;
    loop {
        let m = ws.recv().await.expect("an answer");
        assert_ne!(m["type"], "error", "{m}");
        if m["type"] == "table" && m["table"] == over[2] {
            break;
        }
    }
    server.shutdown().await;
}

/// A value of `/metrics` (the test fails when the series is not there).
async fn metric(base: &str, name: &str) -> f64 {
    let (s, text) = get_raw(base, "/metrics", "none").await;
    assert_eq!(s, 200);
    let text = text.as_str().unwrap_or_default().to_string();
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in /metrics:\n{text}"))
}

/// Waits until the server holds no table in memory, and says how many it held last.
/// (A table leaves memory just after its last answer, so the count is read until it
/// is 0; the bound is only there so that a leak fails instead of hanging.)
async fn resident_after_settling(base: &str) -> (f64, f64) {
    let mut last = (f64::NAN, f64::NAN);
    for _ in 0..400 {
        last = (
            metric(base, "takuge_tables_resident").await,
            metric(base, "takuge_finished_tables_resident").await,
        );
        if last == (0.0, 0.0) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    last
}

/// A table message without the server's clock, and its log lines apart (a follower
/// gets the lines it has not had yet; a new one, every line).
fn settled(mut m: Value) -> (Value, Vec<Value>) {
    let mut log = Vec::new();
    if let Some(o) = m.as_object_mut() {
        o.remove("server_time_ms");
        if let Some(Value::Array(lines)) = o.remove("log") {
            log = lines;
        }
    }
    (m, log)
}

/// Issue 20, item 2: memory grew with every finished game (each stayed in memory for
/// a timer, and the hub never forgot its entry). A table that is over leaves memory
/// at once, whether or not connections still follow it, and everything it answered
/// is answered from the database on demand: late viewers, the record, its info.
async fn finished_tables_leave_memory(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    const TABLES: usize = 12;
    let server = start_with(&env, |c| c.max_open_tables_per_guest = TABLES).await;
    let base = format!("http://{}", server.addr);
    let host = Client::guest(server.addr).await;
    let mut still_following = host.ws().await;
    for round in 0..3 {
        let mut ws = host.ws().await;
        let mut tables = Vec::new();
        for k in 0..TABLES {
            // Only bots play: the host does not sit.
            let (s, t) = host
                .post(
                    "/api/tables",
                    json!({"game": "secret-moon", "players": 5, "seed": 1000 * round + k, "sit": false}),
                )
                .await;
            assert_eq!(s, 201, "{t}");
            let id = t["id"].as_i64().expect("id");
            let (s, b) = host
                .post(&format!("/api/tables/{id}/bots"), json!({"bot": "random"}))
                .await;
            assert_eq!(s, 200, "{b}");
            ws.send(json!({"type": "subscribe", "table": id})).await;
            // Half the tables are also followed by a connection that stays.
            if k % 2 == 0 {
                still_following
                    .send(json!({"type": "subscribe", "table": id}))
                    .await;
            }
            tables.push(id);
        }
        assert_eq!(
            metric(&base, "takuge_tables_resident").await,
            TABLES as f64,
            "round {round}: the open tables are in memory, and only they"
        );
        for &id in &tables {
            let (s, b) = host
                .post(&format!("/api/tables/{id}/start"), json!({}))
                .await;
            assert_eq!(s, 200, "{b}");
        }
        // Every table plays to its end.
        let mut last = std::collections::HashMap::new();
        while last.len() < TABLES {
            let m = ws.recv_type("table").await;
            if m["status"] == "finished" {
                last.insert(m["table"].as_i64().expect("table"), settled(m));
            }
        }
        for &id in tables.iter().step_by(3) {
            ws.send(json!({"type": "unsubscribe", "table": id})).await;
            ws.recv_type("unsubscribed").await;
        }
        assert_eq!(
            resident_after_settling(&base).await,
            (0.0, 0.0),
            "round {round}: tables (and tables over) still in memory after every game ended"
        );
        // A late viewer gets the very message the followers got at the end, from the
        // database, and the table leaves memory again after answering.
        let late = Client::guest(server.addr).await;
        let mut late_ws = late.ws().await;
        for &id in &tables[..3] {
            late_ws
                .send(json!({"type": "subscribe", "table": id}))
                .await;
            let (m, log) = settled(late_ws.recv_type("table").await);
            let (followed, new_lines) = &last[&id];
            assert_eq!(&m, followed, "round {round}, table {id}");
            assert!(
                log.ends_with(new_lines) && log.len() > new_lines.len(),
                "round {round}, table {id}: {log:?} does not end with {new_lines:?}"
            );
            let (s, info) = late.get(&format!("/api/tables/{id}")).await;
            assert_eq!((s, &info["status"]), (200, &json!("finished")), "{info}");
            let (s, record) = late.get(&format!("/api/tables/{id}/record")).await;
            assert_eq!(s, 200, "{record}");
            let (s, b) = late.post(&format!("/api/tables/{id}/sit"), json!({})).await;
            assert_eq!(
                (s, &b["error"]["code"]),
                (409, &json!("wrong_status")),
                "{b}"
            );
        }
        assert_eq!(
            resident_after_settling(&base).await,
            (0.0, 0.0),
            "round {round}: a table loaded for a late viewer stayed in memory"
        );
    }
    // The connection that followed half the tables to their end still works.
    still_following
        .send(json!({"type": "ping", "ref": "still"}))
        .await;
    assert_eq!(still_following.recv_type("pong").await["ref"], "still");
    server.shutdown().await;
}

/// Late requests for a finished table (viewers, its info, its record) come in
/// bunches: a bunch for one table costs one database read and replay
/// (`takuge_table_loads_total`), every request is answered as the table's followers
/// saw it end, and the finished tables kept replayed stay within their bound while
/// none stays in memory.
async fn late_requests_to_finished_tables_cost_one_replay_each(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    const TABLES: usize = 5;
    const KEPT: usize = 3;
    /// Requests for each table at once: a third each subscribes, asks the info, the record.
    const LATE: usize = 6;
    let server = start_with(&env, |c| {
        c.max_open_tables_per_guest = TABLES;
        c.finished_cache_tables = KEPT;
    })
    .await;
    let base = format!("http://{}", server.addr);
    let host = Client::guest(server.addr).await;
    let mut ws = host.ws().await;
    let mut tables = Vec::new();
    for k in 0..TABLES {
        let (s, t) = host
            .post(
                "/api/tables",
                json!({"game": "secret-moon", "players": 5, "seed": 70 + k, "sit": false}),
            )
            .await;
        assert_eq!(s, 201, "{t}");
        let id = t["id"].as_i64().expect("id");
        let (s, b) = host
            .post(&format!("/api/tables/{id}/bots"), json!({"bot": "random"}))
            .await;
        assert_eq!(s, 200, "{b}");
        ws.send(json!({"type": "subscribe", "table": id})).await;
        tables.push(id);
    }
    for &id in &tables {
        let (s, b) = host
            .post(&format!("/api/tables/{id}/start"), json!({}))
            .await;
        assert_eq!(s, 200, "{b}");
    }
    let mut last = std::collections::HashMap::new();
    while last.len() < TABLES {
        let m = ws.recv_type("table").await;
        if m["status"] == "finished" {
            last.insert(m["table"].as_i64().expect("table"), settled(m).0);
        }
    }
    assert_eq!(resident_after_settling(&base).await, (0.0, 0.0));
    // Tables that ended in play were never loaded, so none is kept yet.
    assert_eq!(metric(&base, "takuge_finished_tables_cached").await, 0.0);
    let viewers = [
        Client::guest(server.addr).await,
        Client::guest(server.addr).await,
    ];
    for ids in [&tables[..KEPT], &tables[KEPT..]] {
        let loads_before = metric(&base, "takuge_table_loads_total").await;
        let requests = ids.iter().flat_map(|&id| (0..LATE).map(move |k| (id, k)));
        let answers = futures_util::future::join_all(requests.map(|(id, k)| {
            let viewer = &viewers[k % 2];
            async move {
                let answer = match k % 3 {
                    0 => {
                        let mut ws = viewer.ws().await;
                        ws.send(json!({"type": "subscribe", "table": id})).await;
                        settled(ws.recv_type("table").await).0
                    }
                    1 => {
                        let (s, info) = viewer.get(&format!("/api/tables/{id}")).await;
                        assert_eq!(s, 200, "{info}");
                        info
                    }
                    _ => {
                        let (s, record) = viewer.get(&format!("/api/tables/{id}/record")).await;
                        assert_eq!(s, 200, "{record}");
                        record
                    }
                };
                (id, k % 3, answer)
            }
        }))
        .await;
        let mut records = std::collections::HashMap::new();
        for (id, kind, answer) in answers {
            match kind {
                0 => assert_eq!(
                    answer, last[&id],
                    "table {id}: a late viewer's first message"
                ),
                1 => assert_eq!(
                    (&answer["id"], &answer["status"]),
                    (&json!(id), &json!("finished")),
                    "{answer}"
                ),
                _ => {
                    assert!(
                        answer["actions"].as_array().is_some_and(|a| !a.is_empty()),
                        "{answer}"
                    );
                    let first = records.entry(id).or_insert_with(|| answer.clone());
                    assert_eq!(*first, answer, "table {id}: two records differ");
                }
            }
        }
        assert_eq!(
            metric(&base, "takuge_table_loads_total").await - loads_before,
            ids.len() as f64,
            "{LATE} late requests for each of {} finished tables",
            ids.len()
        );
        assert_eq!(
            metric(&base, "takuge_finished_tables_cached").await,
            KEPT as f64,
            "the finished tables kept stay within their bound"
        );
        assert_eq!(resident_after_settling(&base).await, (0.0, 0.0));
    }
    server.shutdown().await;
}

on_both_databases!(
    finished_tables_leave_memory,
    late_requests_to_finished_tables_cost_one_replay_each,
    a_resent_action_is_played_once,
    a_private_table_answers_outsiders_exactly_like_a_missing_one,
    open_tables_per_account_are_capped,
    a_table_never_started_expires,
    a_connection_follows_few_finished_tables,
);

//! Forwarding inside a cluster (issue 19): two real servers on one PostgreSQL, node
//! `a` with its routes pinned by hand (`Cluster::pinned`) so that the tables the test
//! names are owned by node `b`. A client on `a` must not be able to tell: the same
//! messages in the same order as a client on `b`, the same HTTP answers; when `b`
//! stops, `a`'s client finds the table again and plays on.

use crate::common::*;
use serde_json::{json, Value};
use std::time::Duration;
use takuge_server::cluster::pinned::Pins;
use takuge_server::cluster::trust::{CLIENT_HEADER, SECRET_HEADER, USER_HEADER};
use takuge_server::cluster::Route;
use takuge_server::limit::Rate;
use takuge_server::outbox::LAGGING_REASON;
use takuge_server::{Config, Server};
use tokio_tungstenite::tungstenite::Message;

/// Node `name` with its routes pinned by `pins`.
fn pinned_node_config(env: &Env, name: &str, pins: &Pins) -> Config {
    Config {
        pinned_routes: Some(pins.clone()),
        ..node_config(env, name)
    }
}

/// Nodes `a` and `b` on one fresh database; `a`'s pins are returned to route tables
/// to `b`. `None` when no PostgreSQL is given (the test says it is skipped).
async fn two_nodes(
    tune_a: impl FnOnce(&mut Config),
    tune_b: impl FnOnce(&mut Config),
) -> Option<(Env, Server, Server, Pins)> {
    let env = Env::new(Backend::Postgres).await?;
    let pins = Pins::default();
    let mut a_config = pinned_node_config(&env, "a", &pins);
    tune_a(&mut a_config);
    let a = Server::start(a_config).await.expect("a starts");
    let mut b_config = pinned_node_config(&env, "b", &Pins::default());
    tune_b(&mut b_config);
    let b = Server::start(b_config).await.expect("b starts");
    Some((env, a, b, pins))
}

fn to_b(b: &Server) -> Route {
    Route::Node {
        name: "b".into(),
        url: format!("http://{}", b.addr),
    }
}

/// A table message without the one field that differs with the moment it was written.
fn timeless(mut m: Value) -> Value {
    if let Some(o) = m.as_object_mut() {
        o.remove("server_time_ms");
    }
    m
}

/// Follows `table` until it is over: every table message, timeless.
async fn watch(mut ws: Ws, table: i64) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        let m = ws.recv().await.expect("connection open");
        assert_eq!(m["type"], "table", "only table messages: {m}");
        assert_eq!(m["table"], table);
        let over = m["status"] == "finished" || m["status"] == "abandoned";
        seen.push(timeless(m));
        if over {
            return seen;
        }
    }
}

async fn subscribed(c: &Client, table: i64) -> Ws {
    let mut ws = c.ws().await;
    ws.send(json!({"type": "subscribe", "table": table})).await;
    let first = ws.recv_type("table").await;
    assert_eq!(first["table"], table);
    // Put back for `watch`, which wants every message from the first.
    Ws { stream: ws.stream }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_on_another_node_plays_and_sees_exactly_what_a_client_on_the_owner_sees() {
    let Some((_env, a, b, pins)) = two_nodes(|_| {}, |_| {}).await else {
        return;
    };
    let alice = register(b.addr, "alice").await;
    let bob_b = register(b.addr, "bob").await;
    let bob_a = bob_b.with_base(a.addr);
    let carol_b = register(b.addr, "carol").await;
    let carol_a = carol_b.with_base(a.addr);
    let (s, t) = alice
        .post(
            "/api/tables",
            json!({"game": "secret-moon", "players": 3, "seed": 1919}),
        )
        .await;
    assert_eq!(s, 201, "{t}");
    let table = t["id"].as_i64().expect("id");
    pins.pin(table, to_b(&b));
    // Bob sits and the host fills and starts it, both through node a.
    let (s, body) = bob_a
        .post(&format!("/api/tables/{table}/sit"), json!({"seat": 1}))
        .await;
    assert_eq!(s, 200, "{body}");
    let (s, body) = alice
        .with_base(a.addr)
        .post(&format!("/api/tables/{table}/bots"), json!({}))
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(
        metric(
            &format!("http://{}", a.addr),
            "takuge_forwarded_requests_total"
        )
        .await,
        2
    );
    // The table's state is the owner's, whichever node answers.
    let (_, via_a) = carol_a.get(&format!("/api/tables/{table}")).await;
    let (_, via_b) = carol_b.get(&format!("/api/tables/{table}")).await;
    assert_eq!(via_a, via_b);
    assert_eq!(via_a["seats"][1]["user_id"], bob_b.id());

    // Carol watches on both nodes, Bob's seat on b too, before the game starts, so that
    // every follower gets the same messages from the same first one.
    let carol_on_a = tokio::spawn(watch(subscribed(&carol_a, table).await, table));
    let carol_on_b = tokio::spawn(watch(subscribed(&carol_b, table).await, table));
    let bob_on_b = tokio::spawn(watch(subscribed(&bob_b, table).await, table));
    assert_eq!(
        metric(&format!("http://{}", a.addr), "takuge_upstream_sockets").await,
        1
    );
    let (s, body) = alice
        .post(&format!("/api/tables/{table}/start"), json!({}))
        .await;
    assert_eq!(s, 200, "{body}");
    // Bob plays through node a, Alice on b.
    let bob_plays = tokio::spawn(play_seat(bob_a.with_base(a.addr), table, None));
    let alice_plays = tokio::spawn(play_seat(alice.with_base(b.addr), table, None));
    let bob_seen: Vec<Value> = bob_plays
        .await
        .expect("bob")
        .into_iter()
        .map(timeless)
        .collect();
    alice_plays.await.expect("alice");
    let (carol_on_a, carol_on_b) = (carol_on_a.await.expect("a"), carol_on_b.await.expect("b"));
    let last = carol_on_a.last().expect("messages");
    assert_eq!(
        last["status"],
        "finished",
        "a whole game, {} messages",
        carol_on_a.len()
    );
    assert_eq!(
        carol_on_a, carol_on_b,
        "a spectator sees the same on both nodes"
    );
    // Bob's seat through a (playing) and on b (watching): the same views, log lines
    // and legal actions, from the start on.
    let bob_on_b = bob_on_b.await.expect("bob on b");
    let started = |v: &Vec<Value>| -> Vec<Value> {
        v.iter()
            .filter(|m| m["status"] != "open")
            .cloned()
            .collect()
    };
    let (through_a, on_b) = (started(&bob_seen), started(&bob_on_b));
    assert_eq!(through_a.last(), on_b.last());
    // (The first message through a holds the log so far: it subscribed late.)
    for m in through_a.iter().skip(1) {
        assert!(
            on_b.contains(m),
            "a message bob saw through a that b never sent him: {m}"
        );
    }
    // The record, downloaded through a, is the owner's, with its headers.
    let res = bob_a
        .http
        .get(format!("{}/api/tables/{table}/record", bob_a.base))
        .bearer_auth(&bob_a.token)
        .send()
        .await
        .expect("record");
    assert_eq!(res.status().as_u16(), 200);
    let disposition = res.headers().get("content-disposition").cloned();
    assert_eq!(
        disposition.and_then(|v| v.to_str().ok().map(String::from)),
        Some(format!("attachment; filename=\"takuge-{table}.json\""))
    );
    let record: Value = res.json().await.expect("json");
    let (_, on_owner) = bob_b.get(&format!("/api/tables/{table}/record")).await;
    assert_eq!(record, on_owner);
    a.shutdown().await;
    b.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_pass_back_with_the_owners_status_and_code() {
    let Some((env, a, b, pins)) = two_nodes(|_| {}, |_| {}).await else {
        return;
    };
    let alice = register(b.addr, "alice").await;
    let bob_a = register(a.addr, "bob").await;
    let table = setup_table(&alice, &[], 3, 7).await;
    pins.pin(table, to_b(&b));
    let before = snapshot(&env).await;
    // Not seated: 403 not_seated, from b, through a; nothing changed.
    let (s, body) = bob_a
        .post(
            &format!("/api/tables/{table}/actions"),
            json!({"version": 0, "action": {"type": "pass"}}),
        )
        .await;
    assert_eq!(
        (s, body["error"]["code"].as_str()),
        (403, Some("not_seated")),
        "{body}"
    );
    let (s, body) = bob_a
        .post(&format!("/api/tables/{table}/sit"), json!({}))
        .await;
    assert_eq!(
        (s, body["error"]["code"].as_str()),
        (409, Some("wrong_status")),
        "{body}"
    );
    // Unauthenticated through a is unauthenticated on b.
    let (s, body) = anonymous(&bob_a, &format!("/api/tables/{table}")).await;
    assert_eq!(
        (s, body["error"]["code"].as_str()),
        (401, Some("unauthenticated"))
    );
    assert_eq!(snapshot(&env).await, before);
    a.shutdown().await;
    b.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owner_limits_the_real_client_behind_the_node_that_passed_its_request() {
    // a believes its loopback proxy's X-Forwarded-For, so its clients are 10.9.9.x;
    // b lets an address make three requests, then none for a long while.
    let Some((_env, a, b, pins)) = two_nodes(
        |a| a.trusted_proxies = vec!["127.0.0.1/32".parse().expect("cidr")],
        |b| {
            b.per_ip = Rate {
                per_second: 0.01,
                burst: 3.0,
            }
        },
    )
    .await
    else {
        return;
    };
    let alice = register(a.addr, "alice").await;
    let (s, t) = alice
        .post("/api/tables", json!({"game": "secret-moon", "players": 3}))
        .await;
    assert_eq!(s, 201, "{t}");
    let table = t["id"].as_i64().expect("id");
    pins.pin(table, to_b(&b));
    let from = |client: &'static str| {
        let req = alice
            .http
            .get(format!("{}/api/tables/{table}", alice.base))
            .bearer_auth(&alice.token)
            .header("x-forwarded-for", client);
        async move { req.send().await.expect("request").status().as_u16() }
    };
    let mut statuses = Vec::new();
    for _ in 0..4 {
        statuses.push(from("10.9.9.1").await);
    }
    // b counted the client's address, not a's: another client still gets in.
    statuses.push(from("10.9.9.2").await);
    assert_eq!(statuses, [200, 200, 200, 429, 200]);
    a.shutdown().await;
    b.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn node_headers_need_the_secret_and_a_forged_one_is_refused() {
    let Some((env, a, b, _pins)) = two_nodes(|_| {}, |_| {}).await else {
        return;
    };
    let alice = register(a.addr, "alice").await;
    let mallory = register(a.addr, "mallory").await;
    let me = |c: &Client, headers: Vec<(&'static str, String)>| {
        let mut req = reqwest::Client::new().get(format!("{}/api/me", c.base));
        for (k, v) in headers {
            req = req.header(k, v);
        }
        async move {
            let res = req.send().await.expect("request");
            let status = res.status().as_u16();
            (status, res.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    let alice_id = alice.id().to_string();
    // Without the secret the headers are nobody's word: mallory stays mallory, and
    // without a session nobody is signed in.
    let (s, body) = me(
        &mallory,
        vec![
            ("authorization", format!("Bearer {}", mallory.token)),
            (USER_HEADER, alice_id.clone()),
            (CLIENT_HEADER, "10.0.0.1".into()),
        ],
    )
    .await;
    assert_eq!((s, &body["id"]), (200, &json!(mallory.id())));
    let (s, _) = me(&mallory, vec![(USER_HEADER, alice_id.clone())]).await;
    assert_eq!(s, 401);
    // A wrong secret is a forgery: refused, whatever else the request carries.
    let before = snapshot(&env).await;
    for secret in ["guess", "", "the-nodes-shared-secreT"] {
        let (s, body) = me(
            &mallory,
            vec![
                (SECRET_HEADER, secret.into()),
                (USER_HEADER, alice_id.clone()),
                (CLIENT_HEADER, "10.0.0.1".into()),
            ],
        )
        .await;
        assert_eq!(
            (s, body["error"]["code"].as_str()),
            (403, Some("forged_node_request"))
        );
    }
    let (s, body) = post_raw(
        &mallory.base,
        "/api/tables",
        None,
        json!({"game": "secret-moon", "players": 3}).to_string(),
    )
    .await;
    assert_eq!(s, 403, "{body}");
    assert_eq!(snapshot(&env).await, before);
    // A WebSocket upgrade with a forged secret is refused before it opens.
    let mut req = tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(
        format!("ws://{}/ws", a.addr),
    )
    .expect("request");
    req.headers_mut()
        .insert(SECRET_HEADER, "guess".parse().expect("header"));
    req.headers_mut()
        .insert(USER_HEADER, alice_id.parse().expect("header"));
    req.headers_mut()
        .insert(CLIENT_HEADER, "10.0.0.1".parse().expect("header"));
    let refused = tokio_tungstenite::connect_async(req).await;
    assert!(refused.is_err(), "a forged upgrade is refused");
    // The right secret vouches for the user it names (what a node's passed request is).
    let (s, body) = me(
        &mallory,
        vec![
            (SECRET_HEADER, NODE_SECRET.into()),
            (USER_HEADER, alice_id.clone()),
            (CLIENT_HEADER, "10.0.0.1".into()),
        ],
    )
    .await;
    assert_eq!((s, &body["id"]), (200, &json!(alice.id())));
    a.shutdown().await;
    b.shutdown().await;
    // A single node has no secret: any claim to be a node is refused.
    let single = Server::start(config(env.url.clone()))
        .await
        .expect("starts");
    let (s, body) = me(
        &mallory.with_base(single.addr),
        vec![
            (SECRET_HEADER, NODE_SECRET.into()),
            (USER_HEADER, alice_id),
            (CLIENT_HEADER, "10.0.0.1".into()),
        ],
    )
    .await;
    assert_eq!(
        (s, body["error"]["code"].as_str()),
        (403, Some("forged_node_request"))
    );
    single.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_the_owner_stops_the_client_finds_the_table_again_and_its_action_in_flight_is_played_once(
) {
    let Some((env, a, b, pins)) = two_nodes(|_| {}, |_| {}).await else {
        return;
    };
    let alice = register(b.addr, "alice").await;
    let alice_a = alice.with_base(a.addr);
    let table = setup_table(&alice, &[], 3, 42).await;
    pins.pin(table, to_b(&b));
    let mut ws = alice_a.ws().await;
    ws.send(json!({"type": "subscribe", "table": table})).await;
    let mut m = ws.recv_type("table").await;
    // Play through a until it is alice's turn (bots move at once on b).
    while m["legal"].as_array().is_none_or(|l| l.is_empty()) {
        m = ws.recv_type("table").await;
    }
    let version = m["version"].as_u64().expect("version");
    let action = choose(m["legal"].as_array().expect("legal"), version, 0);
    // b dies; its socket to a closes, and a looks the table up again (still b: its
    // lease has not expired) until the route names a.
    b.kill().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    ws.send(json!({"type": "act", "table": table, "version": version, "action": action, "id": "move-1", "ref": 1}))
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(metric(&format!("http://{}", a.addr), "takuge_reroutes_total").await >= 1);
    pins.pin(table, Route::Here);
    // A fresh table message from a, then the action's ack: played once.
    let fresh = ws.recv_type("table").await;
    assert_eq!(fresh["table"], table);
    let ack = ws.recv_type("ack").await;
    assert_eq!(ack["ref"], 1);
    let played = ack["version"].as_u64().expect("version");
    assert!(played > version);
    // The same id again is answered with the same version, not played twice.
    ws.send(json!({"type": "act", "table": table, "version": version, "action": action, "id": "move-1", "ref": 2}))
        .await;
    let again = ws.recv_type("ack").await;
    assert_eq!(
        (again["ref"].as_i64(), again["version"].as_u64()),
        (Some(2), Some(played))
    );
    let _ = env;
    a.shutdown().await;
}

/// A client on node a following tables that node b runs stops reading while they play
/// on: its socket on a closes with 1013 (not a silent gap), and a's upstream to b
/// closes with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_tables_of_another_node_is_closed_with_1013() {
    const TABLES: usize = 60;
    let Some((_env, a, b, pins)) = two_nodes(|_| {}, |b| b.max_open_tables_per_user = TABLES).await
    else {
        return;
    };
    let (a_base, b_base) = (format!("http://{}", a.addr), format!("http://{}", b.addr));
    let host = register(b.addr, "host").await;
    let tables = bot_tables(&host, TABLES, 4).await;
    for t in &tables {
        pins.pin(*t, to_b(&b));
    }
    let mut laggard = slow_reader(&host.with_base(a.addr), a.addr).await;
    for t in &tables {
        let sub = json!({"type": "subscribe", "table": t}).to_string();
        futures_util::SinkExt::send(&mut laggard, Message::Text(sub.into()))
            .await
            .expect("subscribe");
    }
    assert!(
        eventually(Duration::from_secs(10), || async {
            metric(&a_base, "takuge_upstream_sockets").await == 1
        })
        .await,
        "a follows b's tables through an upstream"
    );
    for t in &tables {
        let (s, body) = host
            .post(&format!("/api/tables/{t}/start"), json!({}))
            .await;
        assert_eq!(s, 200, "{body}");
    }
    let closed = eventually(Duration::from_secs(60), || async {
        metric(&a_base, "takuge_websocket_closed_lagging_total").await >= 1
    })
    .await;
    assert!(closed, "the client's socket on a was never closed");
    let frame = close_frame(&mut laggard, Duration::from_secs(20)).await;
    assert_eq!(frame, Some((1013, LAGGING_REASON.to_string())));
    // The upstream closed with it, and b let its side go.
    assert!(
        eventually(Duration::from_secs(10), || async {
            metric(&a_base, "takuge_upstream_sockets").await == 0
                && metric(&b_base, "takuge_websocket_connections").await == 0
        })
        .await,
        "the upstream outlived its client"
    );
    a.shutdown().await;
    b.shutdown().await;
}

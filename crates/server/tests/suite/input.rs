//! Input the server must refuse with its documented JSON error, changing nothing: a
//! JSON array where an object belongs, unknown fields in a clock, a path or query
//! string that does not parse; and WebSocket errors that name the message they refuse.

use crate::common::*;
use serde_json::{json, Value};
use takuge_server::limit::Rate;
use takuge_server::Server;

/// `(status, body)` is the documented error `code`, with words.
fn assert_refused(got: &(u16, Value), status: u16, code: &str, what: &str) {
    let (s, body) = got;
    assert_eq!(*s, status, "{what}: {body}");
    assert_eq!(body["error"]["code"], code, "{what}: {body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{what}: {body}"
    );
}

async fn a_json_array_body_is_refused_and_changes_nothing(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let host = Client::guest(server.addr).await;
    let other = Client::guest(server.addr).await;
    let (s, t) = host
        .post("/api/tables", json!({"game": "secret-moon", "players": 3}))
        .await;
    assert_eq!(s, 201, "{t}");
    let sit = format!("/api/tables/{}/sit", t["id"]);
    let bots = format!("/api/tables/{}/bots", t["id"]);
    let before = snapshot(&env).await;
    let base = &other.base;
    for (path, body) in [
        (sit.as_str(), "[]"),
        (sit.as_str(), "[1]"),
        (bots.as_str(), "[]"),
        ("/api/tables", r#"["secret-moon", null, 3]"#),
        (
            "/api/login",
            r#"[{"name": "alice", "password": "correct horse"}]"#,
        ),
        ("/api/register", r#"["mallory", "correct horse"]"#),
        ("/api/register", "null"),
    ] {
        let got = post_raw(base, path, Some(&other.token), body.into()).await;
        assert_refused(&got, 400, "malformed_json", &format!("{path} {body}"));
    }
    assert_eq!(
        snapshot(&env).await,
        before,
        "a refused body changed something"
    );
    server.shutdown().await;
}

async fn unknown_fields_in_a_clock_are_refused(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let c = Client::guest(server.addr).await;
    let before = snapshot(&env).await;
    for clock in [
        json!({"kind": "none", "per_move_seconds": 5}),
        json!({"kind": "real_time", "per_move_seconds": 60, "reserve_seconds": 0, "bonus": 5}),
        json!({"kind": "turn_based", "hours_per_move": 24, "reserve_seconds": 0}),
        json!(["real_time", 60, 600]),
    ] {
        let got = c
            .post(
                "/api/tables",
                json!({"game": "secret-moon", "players": 3, "clock": clock}),
            )
            .await;
        assert_refused(&got, 400, "malformed_json", &clock.to_string());
    }
    assert_eq!(snapshot(&env).await, before, "a refused clock made a table");
    // The documented clocks are still taken.
    let (s, b) = c
        .post(
            "/api/tables",
            json!({"game": "secret-moon", "players": 3, "clock": {"kind": "turn_based", "hours_per_move": 24}}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    assert_eq!(
        b["clock"],
        json!({"kind": "turn_based", "hours_per_move": 24})
    );
    server.shutdown().await;
}

async fn a_bad_path_or_query_gets_the_documented_json_error(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let c = Client::guest(server.addr).await;
    for (path, code) in [
        ("/api/tables/abc", "malformed_path"),
        ("/api/tables/99999999999999999999999", "malformed_path"),
        ("/api/tables/1.5/record", "malformed_path"),
        ("/api/tables/abc/replay", "malformed_path"),
        ("/api/tables?players=x", "malformed_query"),
        ("/api/tables?players=1&players=2", "malformed_query"),
        ("/api/tables/1/replay?seat=x", "malformed_query"),
        ("/api/tables/1/replay?seat=256", "malformed_query"),
    ] {
        assert_refused(&c.get(path).await, 400, code, path);
    }
    let before = snapshot(&env).await;
    for path in [
        "/api/tables/abc/sit",
        "/api/tables/x/leave",
        "/api/tables/-/actions",
    ] {
        let got = c.post(path, json!({})).await;
        assert_refused(&got, 400, "malformed_path", path);
    }
    assert_eq!(snapshot(&env).await, before);
    server.shutdown().await;
}

/// A server whose accounts may send `burst` requests or messages and then about none.
async fn start_with_account_burst(env: &Env, burst: f64) -> Server {
    let config = takuge_server::Config {
        per_account: Rate {
            per_second: 0.001,
            burst,
        },
        ..config(env.url.clone())
    };
    Server::start(config).await.expect("server starts")
}

async fn a_rate_limited_message_is_answered_with_its_ref(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = start_with_account_burst(&env, 3.0).await;
    let c = Client::guest(server.addr).await;
    let mut ws = c.ws().await;
    for r in 1..=3 {
        ws.send(json!({"type": "ping", "ref": r})).await;
        let pong = ws.recv_type("pong").await;
        assert_eq!(pong["ref"], r);
    }
    ws.send(json!({"type": "ping", "ref": "fourth"})).await;
    let e = ws.recv_type("error").await;
    assert_eq!(
        (&e["code"], &e["ref"], &e["table"]),
        (&json!("rate_limited"), &json!("fourth"), &Value::Null),
        "{e}"
    );
    ws.send(
        json!({"type": "act", "table": 12, "version": 3, "action": {"bid": 1}, "ref": {"n": 5}}),
    )
    .await;
    let e = ws.recv_type("error").await;
    assert_eq!(
        (&e["code"], &e["ref"], &e["table"]),
        (&json!("rate_limited"), &json!({"n": 5}), &json!(12)),
        "{e}"
    );
    server.shutdown().await;
}

async fn a_malformed_message_is_answered_with_its_ref(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let c = Client::guest(server.addr).await;
    let mut ws = c.ws().await;
    ws.send(json!({"type": "act", "table": 3, "ref": "r1"}))
        .await;
    let e = ws.recv_type("error").await;
    assert_eq!(
        (&e["code"], &e["ref"], &e["table"]),
        (&json!("malformed_json"), &json!("r1"), &json!(3)),
        "{e}"
    );
    ws.send(json!({"type": "ping", "ref": 9, "extra": true}))
        .await;
    let e = ws.recv_type("error").await;
    assert_eq!(
        (&e["code"], &e["ref"]),
        (&json!("malformed_json"), &json!(9)),
        "{e}"
    );
    ws.send(json!([{"type": "ping", "ref": 10}])).await;
    let e = ws.recv_type("error").await;
    assert_eq!(
        (&e["code"], &e["ref"]),
        (&json!("malformed_json"), &Value::Null),
        "{e}"
    );
    server.shutdown().await;
}

on_both_databases!(
    a_json_array_body_is_refused_and_changes_nothing,
    unknown_fields_in_a_clock_are_refused,
    a_bad_path_or_query_gets_the_documented_json_error,
    a_rate_limited_message_is_answered_with_its_ref,
    a_malformed_message_is_answered_with_its_ref,
);

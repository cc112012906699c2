//! Accounts and sessions under attack (issue 13): bounded password hashing, session
//! rotation, sockets closed with their session, the per-account login throttle,
//! password rules, session lists, look-alike names, racing registrations.

use crate::common::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

const PASSWORD: &str = "correct horse";

/// A POST with the CSRF header and, optionally, a bearer token; the status, the
/// `Retry-After` header and the body.
async fn post(
    http: &reqwest::Client,
    base: &str,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> (u16, Option<String>, Value) {
    let mut req = http
        .post(format!("{base}{path}"))
        .header(CSRF, "1")
        .json(&body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let res = req.send().await.expect("request");
    let status = res.status().as_u16();
    let retry = res
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    (status, retry, res.json().await.unwrap_or(Value::Null))
}

async fn get(base: &str, path: &str, token: &str) -> (u16, Value) {
    get_raw(base, path, token).await
}

/// A value of `/metrics` (0 when the series is not there).
async fn metric(base: &str, series: &str) -> i64 {
    let (_, text) = get(base, "/metrics", "none").await;
    text.as_str()
        .unwrap_or("")
        .lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or(0)
}

async fn register(base: &str, name: &str, password: &str) -> (u16, Value) {
    let (s, _, b) = post(
        &reqwest::Client::new(),
        base,
        "/api/register",
        None,
        json!({"name": name, "password": password}),
    )
    .await;
    (s, b)
}

async fn login_token(base: &str, name: &str, password: &str) -> String {
    let (s, _, b) = post(
        &reqwest::Client::new(),
        base,
        "/api/login",
        None,
        json!({"name": name, "password": password}),
    )
    .await;
    assert_eq!(s, 200, "{b}");
    b["token"].as_str().expect("token").to_string()
}

fn client(base: &str, token: &str) -> Client {
    Client {
        base: base.to_string(),
        http: reqwest::Client::new(),
        token: token.to_string(),
        user: Value::Null,
    }
}

/// The close frame the server sends next on `ws` (code, reason), skipping other
/// messages; `None` when none comes within 5 s.
async fn close_frame(ws: &mut Ws) -> Option<(u16, String)> {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left = deadline.checked_duration_since(Instant::now())?;
        match tokio::time::timeout(left, ws.stream.next()).await.ok()?? {
            Ok(Message::Close(frame)) => {
                return Some(frame.map_or((1005, String::new()), |f| {
                    (f.code.into(), f.reason.to_string())
                }))
            }
            Ok(_) => continue,
            Err(_) => return None,
        }
    }
}

async fn concurrent_password_checks_are_bounded_and_the_excess_is_told_busy(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let base = format!("http://{}", server.addr);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as i64;
    // 100 wrong-password logins at once, each for its own name (so the per-account
    // throttle stays out of it): what the issue saw take the server to 1.9 GB.
    let http = reqwest::Client::new();
    let tasks: Vec<_> = (0..100)
        .map(|k| {
            let (http, base) = (http.clone(), base.clone());
            tokio::spawn(async move {
                let started = Instant::now();
                let body = json!({"name": format!("nobody-{k}"), "password": "wrong password"});
                let answer = post(&http, &base, "/api/login", None, body).await;
                (answer, started.elapsed())
            })
        })
        .collect();
    let mut busy = 0;
    for t in tasks {
        let ((status, retry, body), took) = t.await.expect("task");
        match status {
            401 => assert_eq!(body["error"]["code"], "invalid_credentials"),
            503 => {
                assert_eq!(body["error"]["code"], "busy", "{body}");
                assert_eq!(retry.as_deref(), Some("1"));
                assert!(took < Duration::from_secs(5), "refused after {took:?}");
                busy += 1;
            }
            _ => panic!("{status} {body}"),
        }
    }
    assert!(busy > 0, "no login was refused as busy");
    let peak = metric(&base, "takuge_password_hashes_peak").await;
    assert!(
        (1..=cores).contains(&peak),
        "{peak} hashes ran at once on {cores} cores"
    );
    assert!(metric(&base, "takuge_password_hashes_refused_total").await >= busy);
    // Once the rush is over, logins are checked again.
    let (s, _) = register(&base, "hanako", PASSWORD).await;
    assert_eq!(s, 200);
    login_token(&base, "hanako", PASSWORD).await;
    server.shutdown().await;
}

async fn registering_or_logging_in_ends_the_sessions_presented_before(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let base = format!("http://{}", server.addr);
    let http = reqwest::Client::new();
    // An attacker makes a guest and plants its cookie in the victim's browser; the
    // victim registers with it.
    let planted = Client::guest(server.addr).await;
    let res = http
        .post(format!("{base}/api/register"))
        .header(CSRF, "1")
        .header("cookie", format!("takuge_session={}", planted.token))
        .json(&json!({"name": "victim", "password": PASSWORD}))
        .send()
        .await
        .expect("register");
    assert_eq!(res.status().as_u16(), 200);
    let body: Value = res.json().await.expect("json");
    assert_eq!(body["user"]["id"], planted.user["id"]);
    let fresh = body["token"].as_str().expect("token").to_string();
    assert_ne!(fresh, planted.token);
    assert_eq!(get(&base, "/api/me", &planted.token).await.0, 401);
    assert_eq!(get(&base, "/api/me", &fresh).await.1["name"], "victim");
    // Logging in with a session in hand ends that session.
    let res = http
        .post(format!("{base}/api/login"))
        .header(CSRF, "1")
        .header("cookie", format!("takuge_session={fresh}"))
        .json(&json!({"name": "victim", "password": PASSWORD}))
        .send()
        .await
        .expect("login");
    assert_eq!(res.status().as_u16(), 200);
    let after: Value = res.json().await.expect("json");
    let newest = after["token"].as_str().expect("token").to_string();
    assert_eq!(get(&base, "/api/me", &fresh).await.0, 401);
    assert_eq!(get(&base, "/api/me", &newest).await.0, 200);
    // Two session cookies, in one header or in two: refused, neither is picked.
    let other = Client::guest(server.addr).await;
    for headers in [
        vec![format!(
            "takuge_session={}; takuge_session={newest}",
            other.token
        )],
        vec![
            format!("takuge_session={newest}"),
            format!("takuge_session={}", other.token),
        ],
    ] {
        let mut req = http.get(format!("{base}/api/me"));
        for h in &headers {
            req = req.header("cookie", h);
        }
        let res = req.send().await.expect("me");
        assert_eq!(res.status().as_u16(), 400, "{headers:?}");
        let b: Value = res.json().await.expect("json");
        assert_eq!(b["error"]["code"], "ambiguous_session");
    }
    server.shutdown().await;
}

async fn ending_a_session_closes_its_websockets(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let base = format!("http://{}", server.addr);
    let (s, _) = register(&base, "hanako", PASSWORD).await;
    assert_eq!(s, 200);
    let host = Client::guest(server.addr).await;
    let table = setup_table(&host, &[], 3, 5).await;
    // Logout: the socket of that session closes, with the reason.
    let a = client(&base, &login_token(&base, "hanako", PASSWORD).await);
    let mut ws = a.ws().await;
    let (s, _) = a.post("/api/logout", json!({})).await;
    assert_eq!(s, 200);
    let (code, reason) = close_frame(&mut ws).await.expect("closed on logout");
    assert_eq!(code, 1008);
    assert!(reason.contains("logged out"), "{reason}");
    // Revoking a session from another one closes the first's socket.
    let b = client(&base, &login_token(&base, "hanako", PASSWORD).await);
    let c = client(&base, &login_token(&base, "hanako", PASSWORD).await);
    let mut ws_b = b.ws().await;
    let (_, list) = b.get("/api/sessions").await;
    let id = list["sessions"]
        .as_array()
        .expect("sessions")
        .iter()
        .find(|s| s["current"] == true)
        .expect("b's session")["id"]
        .as_str()
        .expect("id")
        .to_string();
    let res = c
        .http
        .delete(format!("{base}/api/sessions/{id}"))
        .bearer_auth(&c.token)
        .send()
        .await
        .expect("delete");
    assert_eq!(res.status().as_u16(), 200);
    assert!(close_frame(&mut ws_b)
        .await
        .expect("closed on revoke")
        .1
        .contains("revoked"));
    // A password change closes every other session's socket, not this one's.
    let d = client(&base, &login_token(&base, "hanako", PASSWORD).await);
    let mut ws_c = c.ws().await;
    let mut ws_d = d.ws().await;
    let (s, body) = d
        .post(
            "/api/password",
            json!({"old": PASSWORD, "new": "battery staple"}),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let (_, reason) = close_frame(&mut ws_c)
        .await
        .expect("closed on password change");
    assert!(reason.contains("password"), "{reason}");
    assert_eq!(c.get("/api/me").await.0, 401);
    // The closed socket can no longer act; the kept one still can.
    let act = json!({"type": "subscribe", "table": table}).to_string();
    if ws_c.stream.send(Message::Text(act.into())).await.is_ok() {
        let answer = tokio::time::timeout(Duration::from_secs(2), ws_c.stream.next()).await;
        assert!(
            !matches!(answer, Ok(Some(Ok(Message::Text(_))))),
            "a closed socket answered: {answer:?}"
        );
    }
    ws_d.send(json!({"type": "ping", "ref": 1})).await;
    assert_eq!(ws_d.recv_type("pong").await["ref"], 1);
    assert_eq!(d.get("/api/me").await.0, 200);
    login_token(&base, "hanako", "battery staple").await;
    server.shutdown().await;
}

async fn a_name_that_keeps_failing_backs_off_whatever_the_address(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let base = format!("http://{}", server.addr);
    let (s, _) = register(&base, "hanako", PASSWORD).await;
    assert_eq!(s, 200);
    // Five addresses (127.0.0.2-6), one wrong password each.
    let from = |k: u8| {
        reqwest::Client::builder()
            .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2 + k)))
            .build()
            .expect("client")
    };
    for k in 0..5 {
        let (s, _, b) = post(
            &from(k),
            &base,
            "/api/login",
            None,
            json!({"name": "hanako", "password": "wrong password"}),
        )
        .await;
        assert_eq!(s, 401, "{b}");
    }
    // Now even the right password waits, and argon2 does not run for it.
    let hashes = metric(&base, "takuge_password_hashes_total").await;
    let (s, retry, b) = post(
        &from(0),
        &base,
        "/api/login",
        None,
        json!({"name": "HANAKO", "password": PASSWORD}),
    )
    .await;
    assert_eq!(
        (s, &b["error"]["code"]),
        (429, &json!("login_throttled")),
        "{b}"
    );
    assert_eq!(retry.as_deref(), Some("1"));
    assert_eq!(metric(&base, "takuge_password_hashes_total").await, hashes);
    // An unknown name backs off the same way, so the answers tell no names apart.
    for _ in 0..5 {
        let (s, _, _) = post(
            &from(1),
            &base,
            "/api/login",
            None,
            json!({"name": "nobody-here", "password": "wrong password"}),
        )
        .await;
        assert_eq!(s, 401);
    }
    let (s, retry2, b2) = post(
        &from(1),
        &base,
        "/api/login",
        None,
        json!({"name": "nobody-here", "password": PASSWORD}),
    )
    .await;
    assert_eq!((s, retry2.is_some()), (429, true));
    assert_eq!(b2, b);
    // When the backoff is over, the right password works.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    login_token(&base, "hanako", PASSWORD).await;
    server.shutdown().await;
}

async fn common_passwords_and_the_own_name_are_refused(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let base = format!("http://{}", server.addr);
    let before = snapshot(&env).await;
    for (password, code) in [
        ("password1", "common_password"),
        ("Iloveyou", "common_password"),
        ("qwerty123", "common_password"),
        ("hanako2024", "password_contains_name"),
        ("my-HANAKO-pw", "password_contains_name"),
    ] {
        let (s, b) = register(&base, "hanako", password).await;
        assert_eq!((s, &b["error"]["code"]), (400, &json!(code)), "{password}");
    }
    assert_eq!(snapshot(&env).await, before);
    server.shutdown().await;
}

async fn an_account_keeps_twenty_sessions_which_it_sees_and_revokes(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let base = format!("http://{}", server.addr);
    let (s, reg) = register(&base, "hanako", PASSWORD).await;
    assert_eq!(s, 200);
    let mut tokens = vec![reg["token"].as_str().expect("token").to_string()];
    for _ in 0..20 {
        tokens.push(login_token(&base, "hanako", PASSWORD).await);
    }
    // The 21st session ended the first.
    assert_eq!(get(&base, "/api/me", &tokens[0]).await.0, 401);
    let last = tokens.last().expect("token").clone();
    let (s, list) = get(&base, "/api/sessions", &last).await;
    assert_eq!(s, 200, "{list}");
    let sessions = list["sessions"].as_array().expect("sessions");
    assert_eq!(sessions.len(), 20);
    assert_eq!(sessions.iter().filter(|s| s["current"] == true).count(), 1);
    let text = list.to_string();
    assert!(tokens.iter().all(|t| !text.contains(t.as_str())));
    // Another account sees only its own and cannot end hanako's.
    let other = Client::guest(server.addr).await;
    let (_, theirs) = other.get("/api/sessions").await;
    assert_eq!(theirs["sessions"].as_array().expect("sessions").len(), 1);
    let victim = sessions
        .iter()
        .find(|s| s["current"] == false)
        .expect("other")["id"]
        .as_str()
        .expect("id")
        .to_string();
    let delete = |token: String, id: String| {
        let base = base.clone();
        async move {
            let res = reqwest::Client::new()
                .delete(format!("{base}/api/sessions/{id}"))
                .bearer_auth(token)
                .send()
                .await
                .expect("delete");
            let status = res.status().as_u16();
            (status, res.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    let (s, b) = delete(other.token.clone(), victim.clone()).await;
    assert_eq!((s, &b["error"]["code"]), (404, &json!("unknown_session")));
    let (s, _) = delete(last.clone(), victim.clone()).await;
    assert_eq!(s, 200);
    let (_, list) = get(&base, "/api/sessions", &last).await;
    assert_eq!(list["sessions"].as_array().expect("sessions").len(), 19);
    assert!(!list.to_string().contains(&victim));
    server.shutdown().await;
}

async fn look_alike_names_do_not_register_and_any_spelling_logs_in(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let base = format!("http://{}", server.addr);
    let (s, _) = register(&base, "admin", PASSWORD).await;
    assert_eq!(s, 200);
    let before = snapshot(&env).await;
    for (name, status, code) in [
        ("ADMIN", 409, "name_taken"),
        ("ａｄｍｉｎ", 409, "name_taken"),
        ("\u{430}dmin", 400, "confusable_name"),
    ] {
        let (s, b) = register(&base, name, "battery staple").await;
        assert_eq!((s, &b["error"]["code"]), (status, &json!(code)), "{name}");
    }
    assert_eq!(snapshot(&env).await, before);
    // The name stays as typed; any spelling of it logs in.
    let token = login_token(&base, "ＡＤＭＩＮ", PASSWORD).await;
    assert_eq!(get(&base, "/api/me", &token).await.1["name"], "admin");
    // Other scripts, on their own, are names like any other, unless the whole name
    // reads as one already taken (Cyrillic `асе` as `ace`).
    let (s, b) = register(&base, "たろう", PASSWORD).await;
    assert_eq!(s, 200, "{b}");
    let (s, _) = register(&base, "ace", PASSWORD).await;
    assert_eq!(s, 200);
    let (s, b) = register(&base, "\u{430}\u{441}\u{435}", PASSWORD).await;
    assert_eq!((s, &b["error"]["code"]), (409, &json!("name_taken")), "{b}");
    server.shutdown().await;
}

async fn two_registrations_racing_for_one_guest_give_one_account(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let base = format!("http://{}", server.addr);
    for round in 0..3 {
        let g = Client::guest(server.addr).await;
        let names = [format!("first-{round}"), format!("second-{round}")];
        let tasks: Vec<_> = names
            .iter()
            .map(|name| {
                let (base, token, name) = (base.clone(), g.token.clone(), name.clone());
                tokio::spawn(async move {
                    let body = json!({"name": name, "password": PASSWORD});
                    post(
                        &reqwest::Client::new(),
                        &base,
                        "/api/register",
                        Some(&token),
                        body,
                    )
                    .await
                })
            })
            .collect();
        let mut answers = Vec::new();
        for t in tasks {
            answers.push(t.await.expect("task"));
        }
        let won: Vec<&(u16, Option<String>, Value)> =
            answers.iter().filter(|a| a.0 == 200).collect();
        assert_eq!(won.len(), 1, "{answers:?}");
        let lost = answers.iter().find(|a| a.0 != 200).expect("a loser");
        assert_eq!(
            (lost.0, &lost.2["error"]["code"]),
            (409, &json!("already_registered")),
            "{answers:?}"
        );
        // The winner's name is the account's.
        let winner = &won[0].2;
        assert_eq!(winner["user"]["id"], g.user["id"]);
        let token = winner["token"].as_str().expect("token");
        assert_eq!(
            get(&base, "/api/me", token).await.1["name"],
            winner["user"]["name"]
        );
    }
    server.shutdown().await;
}

on_both_databases!(
    concurrent_password_checks_are_bounded_and_the_excess_is_told_busy,
    registering_or_logging_in_ends_the_sessions_presented_before,
    ending_a_session_closes_its_websockets,
    a_name_that_keeps_failing_backs_off_whatever_the_address,
    common_passwords_and_the_own_name_are_refused,
    an_account_keeps_twenty_sessions_which_it_sees_and_revokes,
    look_alike_names_do_not_register_and_any_spelling_logs_in,
    two_registrations_racing_for_one_guest_give_one_account,
);

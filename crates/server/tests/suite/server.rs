//! The server against real clients on loopback: full games over WebSockets, what
//! each seat receives, bad requests, accounts, and a restart mid-game.

use std::collections::HashMap;

use crate::common::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use takuge_engine::{DynState, Lang, Seat, Viewer};

/// Replays the finished record and checks that every message `messages` (received
/// by `viewer`) holds exactly that viewer's view, legal actions, pending seats and
/// log lines at its version — so nothing another seat knows can be in it.
fn check_messages(record: &takuge_engine::MatchRecord, viewer: Viewer, messages: &[Value]) {
    let reg = takuge_games::registry();
    let game = reg.get(&record.game).expect("game");
    let mut state = game
        .new_game(&record.options, record.players(), record.seed)
        .expect("setup");
    // The state a message at (version, the viewer's draft steps) shows: versions count
    // moves, a secret choice of several steps being one (docs/PROTOCOL.md); each move's
    // log line as the viewer reads it, its own draft steps joined into its line.
    let mut states: HashMap<(u64, u64), Box<dyn DynState>> = HashMap::new();
    states.insert((0, 0), state.box_clone());
    // Each log entry's lines and whether it is what a reveal told everyone (no seat).
    let mut lines: Vec<(Option<String>, Option<String>, bool)> = Vec::new();
    let (mut version, mut drafts) = (0u64, vec![0u64; record.players()]);
    let mut own: (Vec<Option<String>>, Vec<Option<String>>) = Default::default();
    for a in &record.actions {
        let en = state.describe_for(a.seat, &a.action, viewer);
        let ja = state.describe_for_in(a.seat, &a.action, viewer, Lang::Ja);
        let before = state.box_clone();
        state.apply(a.seat, &a.action).expect("replays");
        let mine = viewer == Viewer::Seat(a.seat);
        if state.drafting(a.seat) {
            drafts[a.seat.index()] += 1;
            if mine {
                own.0.push(en);
                own.1.push(ja);
            }
        } else {
            version += 1;
            drafts[a.seat.index()] = 0;
            let joined = |parts: Vec<Option<String>>, last: Option<String>, sep: &str| {
                let parts: Vec<String> = parts.into_iter().chain([last]).flatten().collect();
                (!parts.is_empty()).then(|| parts.join(sep))
            };
            if mine {
                let (e, j) = std::mem::take(&mut own);
                lines.push((joined(e, en, "; "), joined(j, ja, "、"), false));
            } else {
                lines.push((en, ja, false));
            }
            if let Some(news) = state.revealed_in(&*before, Lang::En) {
                lines.push((Some(news), state.revealed_in(&*before, Lang::Ja), true));
            }
        }
        let draft = match viewer {
            Viewer::Seat(s) => drafts[s.index()],
            Viewer::Spectator => 0,
        };
        states.insert((version, draft), state.box_clone());
    }
    let mut checked = 0;
    for m in messages {
        if m["status"] == "open" {
            assert!(m["view"].is_null());
            continue;
        }
        let v = m["version"].as_u64().expect("version");
        let d = m["draft"].as_u64().unwrap_or(0);
        let s = states
            .get(&(v, d))
            .expect("a state at every version and draft step");
        assert_eq!(m["view"], s.view(viewer), "view at version {v}, draft {d}");
        let pending: Vec<u8> = s.to_move().iter().map(|s| s.0).collect();
        assert_eq!(m["pending"], json!(pending), "pending at {v}");
        let legal = match viewer {
            Viewer::Seat(seat) if m["status"] == "playing" => {
                serde_json::to_value(s.legal_actions(seat)).expect("json")
            }
            _ => json!([]),
        };
        assert_eq!(m["legal"], legal, "legal actions at {v}, draft {d}");
        for entry in m["log"].as_array().expect("log") {
            let i = entry["index"].as_u64().expect("index") as usize;
            let (en, ja, news) = &lines[i];
            assert_eq!(
                entry["seat"].is_null(),
                *news,
                "a reveal's line has no seat: {entry}"
            );
            let n = entry["seat"].as_u64().unwrap_or(0) + 1;
            let en = en.clone().unwrap_or_else(|| format!("seat {n} acted"));
            let ja = ja.clone().unwrap_or_else(|| format!("{n}番席が行動した"));
            assert_eq!(entry["text"], json!(en), "log line {i}");
            assert_eq!(entry["text_ja"], json!(ja), "Japanese log line {i}");
        }
        checked += 1;
    }
    assert!(checked > 0);
}

async fn fetch_record(c: &Client, table: i64) -> takuge_engine::MatchRecord {
    let (s, r) = c.get(&format!("/api/tables/{table}/record")).await;
    assert_eq!(s, 200, "{r}");
    serde_json::from_value(r).expect("a match record")
}

async fn full_games_over_websockets_show_each_seat_only_its_own(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let a = Client::guest(server.addr).await;
    let b = Client::guest(server.addr).await;
    let c = Client::guest(server.addr).await;
    let watcher = Client::guest(server.addr).await;
    // Two tables at once: three humans and two bots, and one human with three bots.
    let t1 = setup_table(&a, &[&b, &c], 5, 11).await;
    let d = Client::guest(server.addr).await;
    let t2 = setup_table(&d, &[], 4, 12).await;
    let mut spectator = watcher.ws().await;
    spectator
        .send(json!({"type": "subscribe", "table": t1}))
        .await;
    let players = vec![
        tokio::spawn(play_seat(a.with_base(server.addr), t1, None)),
        tokio::spawn(play_seat(b.with_base(server.addr), t1, None)),
        tokio::spawn(play_seat(c.with_base(server.addr), t1, None)),
        tokio::spawn(play_seat(d.with_base(server.addr), t2, None)),
    ];
    let mut watched = Vec::new();
    loop {
        let m = spectator.recv_type("table").await;
        let done = m["status"] == "finished";
        watched.push(m);
        if done {
            break;
        }
    }
    let mut seen = Vec::new();
    for p in players {
        seen.push(p.await.expect("player"));
    }
    let r1 = fetch_record(&a, t1).await;
    let r2 = fetch_record(&d, t2).await;
    assert!(!r1.actions.is_empty() && !r2.actions.is_empty());
    for (k, msgs) in seen.iter().take(3).enumerate() {
        assert_eq!(msgs.last().expect("messages")["status"], "finished");
        check_messages(&r1, Viewer::Seat(Seat(k as u8)), msgs);
    }
    check_messages(&r2, Viewer::Seat(Seat(0)), &seen[3]);
    check_messages(&r1, Viewer::Spectator, &watched);
    // The record is the one `takuge replay` reads, and it replays to the end.
    let reg = takuge_games::registry();
    let end = reg
        .get("secret-moon")
        .expect("game")
        .replay(&r1)
        .expect("replays");
    assert!(end.outcome().is_some());
    assert_eq!(r1.seats[3].bot.as_deref(), Some("sentry"));
    // The replay endpoint: step by step for seat 1.
    let (s, rep) = b.get(&format!("/api/tables/{t1}/replay?seat=1")).await;
    assert_eq!(s, 200, "{rep}");
    assert_eq!(
        rep["steps"].as_array().expect("steps").len(),
        r1.actions.len() + 1
    );
    let (_, metrics) = a.get("/metrics").await;
    let metrics = metrics.as_str().expect("text").to_string();
    assert!(
        metrics.contains("takuge_actions_committed_total"),
        "{metrics}"
    );
    // The gauges `takuge loadtest --server` reads (docs/PERFORMANCE.md): stable names,
    // each a count over the whole server.
    let gauge = |name: &str| {
        assert!(
            metrics.contains(&format!("# TYPE {name} gauge\n")),
            "{name} is not a gauge in\n{metrics}"
        );
        metrics
            .lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse::<f64>().ok())
            .unwrap_or_else(|| panic!("no {name} in\n{metrics}"))
    };
    assert!(gauge("takuge_open_tables") >= 0.0);
    assert!(gauge("takuge_tables_resident") >= 0.0);
    assert!(gauge("takuge_finished_tables_resident") >= 0.0);
    assert!(gauge("takuge_websocket_connections") >= 0.0);
    if cfg!(target_os = "linux") {
        assert!(gauge("takuge_process_resident_memory_bytes") > 1e6);
        assert!(metrics.contains("# TYPE takuge_process_cpu_seconds_total counter\n"));
        assert!(
            metrics
                .lines()
                .find_map(|l| l.strip_prefix("takuge_process_cpu_seconds_total "))
                .and_then(|v| v.parse::<f64>().ok())
                .is_some_and(|c| c > 0.0),
            "{metrics}"
        );
    }
    server.shutdown().await;
}

async fn every_catalog_game_plays_over_a_websocket_showing_only_its_seat(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let reg = takuge_games::registry();
    for id in reg.ids() {
        let meta = reg.get(id).expect("game").meta();
        let host = Client::guest(server.addr).await;
        let (s, t) = host
            .post(
                "/api/tables",
                json!({"game": id, "players": meta.min_players, "seed": 21}),
            )
            .await;
        assert_eq!(s, 201, "{id}: {t}");
        let table = t["id"].as_i64().expect("id");
        let (s, b) = host
            .post(
                &format!("/api/tables/{table}/bots"),
                json!({"bot": "random"}),
            )
            .await;
        assert_eq!(s, 200, "{id}: {b}");
        let (s, b) = host
            .post(&format!("/api/tables/{table}/start"), json!({}))
            .await;
        assert_eq!(s, 200, "{id}: {b}");
        let seen = play_seat(host.with_base(server.addr), table, None).await;
        assert_eq!(seen.last().expect("messages")["status"], "finished", "{id}");
        let record = fetch_record(&host, table).await;
        check_messages(&record, Viewer::Seat(Seat(0)), &seen);
    }
    server.shutdown().await;
}

async fn bad_requests_get_a_clear_error_and_change_nothing(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let a = Client::guest(server.addr).await;
    let b = Client::guest(server.addr).await;
    let outsider = Client::guest(server.addr).await;
    let t = setup_table(&a, &[&b], 4, 5).await;
    // Wait until a human seat is to move (bots may move first).
    let mut wa = a.ws().await;
    wa.send(json!({"type": "subscribe", "table": t})).await;
    let mut wb = b.ws().await;
    wb.send(json!({"type": "subscribe", "table": t})).await;
    let mut latest = wa.recv_type("table").await;
    while latest["pending"] != json!([0]) && latest["pending"] != json!([1]) {
        latest = wa.recv_type("table").await;
    }
    let version = latest["version"].as_u64().expect("version");
    let mover_is_a = latest["pending"] == json!([0]);
    let (mover, idle, mws) = if mover_is_a {
        (&a, &b, &mut wa)
    } else {
        (&b, &a, &mut wb)
    };
    // The mover's own legal actions (from its own message: `latest` when that is A's).
    let own = if mover_is_a {
        latest.clone()
    } else {
        loop {
            let m = mws.recv_type("table").await;
            if !m["legal"].as_array().expect("legal").is_empty() {
                break m;
            }
        }
    };
    let legal = own["legal"][0]["action"].clone();
    let before = snapshot(&env).await;

    let path = format!("/api/tables/{t}/actions");
    let cases: Vec<(u16, &str, (u16, Value))> = vec![
        (
            400,
            "malformed_json",
            post_raw(&mover.base, &path, Some(&mover.token), "{not json".into()).await,
        ),
        (
            400,
            "malformed_json",
            mover.post(&path, json!({"version": version})).await,
        ),
        (
            409,
            "stale_version",
            mover
                .post(&path, json!({"version": version + 7, "action": legal}))
                .await,
        ),
        (
            403,
            "foreign_seat",
            mover
                .post(
                    &path,
                    json!({"version": version, "seat": 3, "action": legal}),
                )
                .await,
        ),
        (
            409,
            "not_your_turn",
            idle.post(&path, json!({"version": version, "action": legal}))
                .await,
        ),
        (
            403,
            "not_seated",
            outsider
                .post(&path, json!({"version": version, "action": legal}))
                .await,
        ),
        (
            400,
            "malformed_action",
            mover
                .post(
                    &path,
                    json!({"version": version, "action": {"no": "such action"}}),
                )
                .await,
        ),
        (
            404,
            "unknown_table",
            mover
                .post(
                    "/api/tables/999999/actions",
                    json!({"version": 0, "action": legal}),
                )
                .await,
        ),
        (
            413,
            "payload_too_large",
            post_raw(
                &mover.base,
                &path,
                Some(&mover.token),
                format!("{{\"version\":0,\"action\":\"{}\"}}", "x".repeat(200_000)),
            )
            .await,
        ),
        (
            401,
            "unauthenticated",
            post_csrf(
                &mover.base,
                &path,
                json!({"version": version, "action": legal}),
            )
            .await,
        ),
        (
            401,
            "unauthenticated",
            post_raw(&mover.base, &path, Some("forged-token"), "{}".into()).await,
        ),
        (
            403,
            "not_host",
            b.post(&format!("/api/tables/{t}/abandon"), json!({})).await,
        ),
        (
            409,
            "wrong_status",
            a.post(&format!("/api/tables/{t}/start"), json!({})).await,
        ),
        (
            400,
            "invalid_setup",
            a.post("/api/tables", json!({"game": "secret-moon", "players": 2}))
                .await,
        ),
        (
            400,
            "unknown_game",
            a.post("/api/tables", json!({"game": "chess", "players": 2}))
                .await,
        ),
    ];
    for (status, code, (got_status, body)) in cases {
        assert_eq!(got_status, status, "{code}: {body}");
        assert_eq!(body["error"]["code"], code, "{body}");
        assert!(!body["error"]["message"].as_str().unwrap_or("").is_empty());
    }
    // The same over the WebSocket.
    mws.send_text("{oops").await;
    let e = mws.recv_type("error").await;
    assert_eq!(e["code"], "malformed_json");
    mws.send(json!({"type": "act", "table": t, "version": version + 1, "action": legal, "ref": 7}))
        .await;
    let e = mws.recv_type("error").await;
    assert_eq!(
        (e["code"].as_str(), e["ref"].as_i64()),
        (Some("stale_version"), Some(7))
    );
    mws.send(json!({"type": "act", "table": 424242, "version": 0, "action": legal}))
        .await;
    let e = mws.recv_type("error").await;
    assert_eq!(e["code"], "unknown_table");
    mws.send_text(&format!(
        "{{\"type\":\"ping\",\"ref\":\"{}\"}}",
        "y".repeat(100_000)
    ))
    .await;
    // An oversize message closes the connection.
    assert!(mws.recv().await.is_none());
    assert_eq!(
        snapshot(&env).await,
        before,
        "refused requests changed the database"
    );
    server.shutdown().await;
}

async fn accounts_sessions_and_no_enumeration(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let base = format!("http://{}", server.addr);
    let http = reqwest::Client::new();
    // A state-changing request without a bearer token must carry the CSRF header.
    let res = http
        .post(format!("{base}/api/guest"))
        .send()
        .await
        .expect("req");
    assert_eq!(res.status().as_u16(), 403);
    // A guest plays, then registers and keeps its id (and so its history).
    let mut g = Client::guest(server.addr).await;
    let (s, reg) = g
        .post(
            "/api/register",
            json!({"name": "hanako", "password": "correct horse"}),
        )
        .await;
    assert_eq!(s, 200, "{reg}");
    assert_eq!(reg["user"]["id"], g.user["id"]);
    assert_eq!(reg["user"]["guest"], false);
    // Registering ends the guest's sessions: the new token is the one that works.
    g.token = reg["token"].as_str().expect("token").to_string();
    let res = http
        .post(format!("{base}/api/login"))
        .header(CSRF, "1")
        .json(&json!({"name": "hanako", "password": "correct horse"}))
        .send()
        .await
        .expect("login");
    assert_eq!(res.status().as_u16(), 200);
    let cookie = res
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .expect("cookie")
        .to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    let session = cookie.split(';').next().expect("pair").to_string();
    // The cookie authenticates reads...
    let me = http
        .get(format!("{base}/api/me"))
        .header("cookie", &session)
        .send()
        .await
        .expect("me");
    assert_eq!(me.status().as_u16(), 200);
    // ...but a cookie-only POST without the header is refused (CSRF).
    let res = http
        .post(format!("{base}/api/tables"))
        .header("cookie", &session)
        .json(&json!({"game": "secret-moon", "players": 3}))
        .send()
        .await
        .expect("post");
    assert_eq!(res.status().as_u16(), 403);
    // Unknown user and wrong password: the same answer.
    let mut answers = Vec::new();
    for (name, pw) in [("hanako", "wrong password"), ("nobody-here", "whatever123")] {
        let (s, b) = post_raw(
            &base,
            "/api/login",
            Some("none"),
            json!({"name": name, "password": pw}).to_string(),
        )
        .await;
        answers.push((s, b));
    }
    assert_eq!(answers[0], answers[1]);
    assert_eq!(answers[0].0, 401);
    // Taken names, logout.
    let (s, _) = post_raw(
        &base,
        "/api/register",
        Some("none"),
        json!({"name": "hanako", "password": "another one"}).to_string(),
    )
    .await;
    assert_eq!(s, 409);
    let (s, _) = g.post("/api/logout", json!({})).await;
    assert_eq!(s, 200);
    let (s, _) = g.get("/api/me").await;
    assert_eq!(s, 401);
    let (s, body) = g.get("/healthz").await;
    assert_eq!((s, body), (200, Value::String("ok\n".into())));
    server.shutdown().await;
}

async fn lobby_private_tables_and_host_powers(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let host = Client::guest(server.addr).await;
    let friend = Client::guest(server.addr).await;
    let (s, open) = host
        .post("/api/tables", json!({"game": "secret-moon", "players": 4}))
        .await;
    assert_eq!(s, 201, "{open}");
    let (s, private) = host
        .post(
            "/api/tables",
            json!({"game": "secret-moon", "players": 5, "private": true}),
        )
        .await;
    assert_eq!(s, 201);
    let code = private["invite_code"]
        .as_str()
        .expect("invite code")
        .to_string();
    let (_, lobby) = friend.get("/api/tables?game=secret-moon&players=4").await;
    let ids: Vec<i64> = lobby["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .filter_map(|t| t["id"].as_i64())
        .collect();
    assert_eq!(ids, vec![open["id"].as_i64().expect("id")]);
    let (_, lobby) = friend.get("/api/tables?players=5").await;
    assert!(lobby["tables"].as_array().expect("tables").is_empty());
    let pid = private["id"].as_i64().expect("id");
    let (s, _) = friend
        .post(&format!("/api/tables/{pid}/sit"), json!({}))
        .await;
    assert_eq!(s, 404);
    let (s, t) = friend
        .post(&format!("/api/tables/{pid}/sit"), json!({"invite": code}))
        .await;
    assert_eq!(s, 200, "{t}");
    let (s, _) = friend
        .post(&format!("/api/tables/{pid}/start"), json!({}))
        .await;
    assert_eq!(s, 403);
    let (s, b) = host
        .post(&format!("/api/tables/{pid}/start"), json!({}))
        .await;
    assert_eq!((s, b["error"]["code"].as_str()), (409, Some("seats_empty")));
    let (s, _) = friend
        .post(&format!("/api/tables/{pid}/leave"), json!({}))
        .await;
    assert_eq!(s, 200);
    let (s, t) = host
        .post(&format!("/api/tables/{pid}/abandon"), json!({}))
        .await;
    assert_eq!((s, t["status"].as_str()), (200, Some("abandoned")));
    let (s, b) = host.get(&format!("/api/tables/{pid}/record")).await;
    assert_eq!(
        (s, b["error"]["code"].as_str()),
        (409, Some("not_finished"))
    );
    server.shutdown().await;
}

/// Plays a table with two WebSocket seats and two bot seats from a fixed seed,
/// optionally restarting (or killing) the server when it reaches `restart_at`.
async fn deterministic_game(
    env: &Env,
    restart_at: Option<(u64, bool)>,
) -> takuge_engine::MatchRecord {
    let mut server = env.start().await;
    let a = Client::guest(server.addr).await;
    let b = Client::guest(server.addr).await;
    let t = setup_table_with(&a, &[&b], 4, 777, json!({"games": 3})).await;
    if let Some((at, crash)) = restart_at {
        let pa = tokio::spawn(play_seat(a.with_base(server.addr), t, Some(at)));
        let pb = tokio::spawn(play_seat(b.with_base(server.addr), t, Some(at)));
        let ma = pa.await.expect("a");
        let mb = pb.await.expect("b");
        assert!(
            ma.iter().chain(&mb).all(|m| m["status"] != "finished"),
            "the game ended before the restart"
        );
        if crash {
            server.kill().await;
        } else {
            server.shutdown().await;
        }
        server = env.start().await;
    }
    let pa = tokio::spawn(play_seat(a.with_base(server.addr), t, None));
    let pb = tokio::spawn(play_seat(b.with_base(server.addr), t, None));
    let ma = pa.await.expect("a");
    pb.await.expect("b");
    assert_eq!(ma.last().expect("messages")["status"], "finished");
    let record = fetch_record(&a.with_base(server.addr), t).await;
    server.shutdown().await;
    record
}

async fn a_restart_mid_game_finishes_with_an_identical_record(backend: Backend) {
    let fresh = || async {
        Env::new(backend)
            .await
            .expect("checked below: the backend is available")
    };
    if Env::new(backend).await.is_none() {
        return;
    }
    let straight = deterministic_game(&fresh().await, None).await;
    assert!(
        straight.actions.len() > 20,
        "{} actions",
        straight.actions.len()
    );
    let restarted = deterministic_game(&fresh().await, Some((12, false))).await;
    assert_eq!(restarted.actions, straight.actions);
    let crashed = deterministic_game(&fresh().await, Some((12, true))).await;
    assert_eq!(crashed.actions, straight.actions);
    assert_eq!(crashed.seed, straight.seed);
}

async fn a_seat_out_of_time_is_played_by_a_bot_and_marked(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let host = Client::guest(server.addr).await;
    let (s, t) = host
        .post(
            "/api/tables",
            json!({"game": "secret-moon", "players": 3, "seed": 3,
                   "clock": {"kind": "real_time", "per_move_seconds": 1, "reserve_seconds": 0}}),
        )
        .await;
    assert_eq!(s, 201, "{t}");
    let id = t["id"].as_i64().expect("id");
    host.post(&format!("/api/tables/{id}/bots"), json!({}))
        .await;
    let (s, _) = host
        .post(&format!("/api/tables/{id}/start"), json!({}))
        .await;
    assert_eq!(s, 200);
    // The host subscribes and never moves.
    let mut ws = host.ws().await;
    ws.send(json!({"type": "subscribe", "table": id})).await;
    let last = loop {
        let m = ws.recv_type("table").await;
        if m["status"] == "finished" {
            break m;
        }
    };
    assert_eq!(last["you"], 0, "the player still sees its own seat");
    assert_eq!(last["seats"][0]["replaced"], true);
    let record = fetch_record(&host, id).await;
    assert_eq!(record.seats[0].bot.as_deref(), Some("sentry"));
    assert!(last["outcome"]["ranks"].is_array());
    server.shutdown().await;
}

/// The first table message in which seat 0 is thinking, with its clock.
async fn seat0_thinking(ws: &mut Ws) -> Value {
    loop {
        let m = ws.recv_type("table").await;
        assert_eq!(m["status"], "playing", "{m}");
        if m["clock"]["deadline_ms"][0].is_i64() {
            return m;
        }
    }
}

async fn a_restart_keeps_each_seats_reserve_and_deadline(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let host = Client::guest(server.addr).await;
    // Seat 0 (the host) gets 1 s a move and 30 s of reserve; bots play the rest.
    let (s, t) = host
        .post(
            "/api/tables",
            json!({"game": "secret-moon", "players": 3, "seed": 5,
                   "clock": {"kind": "real_time", "per_move_seconds": 1, "reserve_seconds": 30}}),
        )
        .await;
    assert_eq!(s, 201, "{t}");
    let id = t["id"].as_i64().expect("id");
    host.post(&format!("/api/tables/{id}/bots"), json!({}))
        .await;
    let (s, _) = host
        .post(&format!("/api/tables/{id}/start"), json!({}))
        .await;
    assert_eq!(s, 200);
    let mut ws = host.ws().await;
    ws.send(json!({"type": "subscribe", "table": id})).await;
    // Think past the per-move second so the reserve is drawn on, then move.
    let m = seat0_thinking(&mut ws).await;
    tokio::time::sleep(std::time::Duration::from_millis(1600)).await;
    let legal = m["legal"].as_array().cloned().unwrap_or_default();
    let version = m["version"].as_u64().expect("version");
    ws.send(json!({"type": "act", "table": id, "version": version,
                   "action": choose(&legal, version, 0)}))
        .await;
    // The next time seat 0 thinks: its reserve is down by about 0.6 s, and a deadline runs.
    let before = seat0_thinking(&mut ws).await;
    let reserve = before["clock"]["reserve_ms"][0].as_i64().expect("reserve");
    assert!((28_000..=29_700).contains(&reserve), "{before}");
    let deadline = before["clock"]["deadline_ms"][0]
        .as_i64()
        .expect("deadline");
    server.shutdown().await;
    let server = env.start().await;
    let host = host.with_base(server.addr);
    let mut ws = host.ws().await;
    ws.send(json!({"type": "subscribe", "table": id})).await;
    let after = seat0_thinking(&mut ws).await;
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["clock"]["reserve_ms"][0], reserve, "{after}");
    // The same deadline, to the rounding of milliseconds, not a fresh allowance.
    let restored = after["clock"]["deadline_ms"][0].as_i64().expect("deadline");
    assert!(
        (restored - deadline).abs() <= 2,
        "{deadline} then {restored}"
    );
    server.shutdown().await;
}

/// "Bots in seats act server-side", after `Config::bot_delay` each: a table of bots
/// alone plays no faster than one move per pause.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_pause_for_the_servers_bot_delay_before_each_move() {
    let Some(env) = Env::new(Backend::Sqlite).await else {
        return;
    };
    let delay = Duration::from_millis(120);
    let server = takuge_server::Server::start(takuge_server::Config {
        bot_delay: delay,
        ..crate::common::config(env.url.clone())
    })
    .await
    .expect("server starts");
    let host = Client::guest(server.addr).await;
    let (s, t) = host
        .post(
            "/api/tables",
            json!({"game": "secret-moon", "players": 4, "sit": false}),
        )
        .await;
    assert_eq!(s, 201, "{t}");
    let id = t["id"].as_i64().expect("id");
    let (s, b) = host
        .post(&format!("/api/tables/{id}/bots"), json!({}))
        .await;
    assert_eq!(s, 200, "{b}");
    let mut ws = host.ws().await;
    ws.send(json!({"type": "subscribe", "table": id})).await;
    let started = Instant::now();
    let (s, b) = host
        .post(&format!("/api/tables/{id}/start"), json!({}))
        .await;
    assert_eq!(s, 200, "{b}");
    const MOVES: u64 = 5;
    loop {
        let m = ws.recv_type("table").await;
        if m["version"].as_u64().unwrap_or(0) >= MOVES {
            break;
        }
    }
    let took = started.elapsed();
    // Each bot waits for the move before it: the pauses add up.
    assert!(took >= delay * MOVES as u32, "{MOVES} moves in {took:?}");
    assert!(took < Duration::from_secs(10), "{MOVES} moves in {took:?}");
    server.shutdown().await;
}

on_both_databases!(
    the_load_test_plays_drafts_on_the_database_given,
    a_restart_keeps_each_seats_reserve_and_deadline,
    full_games_over_websockets_show_each_seat_only_its_own,
    every_catalog_game_plays_over_a_websocket_showing_only_its_seat,
    bad_requests_get_a_clear_error_and_change_nothing,
    accounts_sessions_and_no_enumeration,
    lobby_private_tables_and_host_powers,
    a_seat_out_of_time_is_played_by_a_bot_and_marked,
    a_restart_mid_game_finishes_with_an_identical_record,
);

/// The load client answers each state once, keyed by (version, draft): a game whose
/// secret choices take several steps (art-heist's exhibits, docs/PROTOCOL.md) must not
/// stall it, on the database it is given.
async fn the_load_test_plays_drafts_on_the_database_given(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = takuge_server::Server::start(takuge_server::Config {
        bot_delay: Duration::ZERO,
        ..crate::common::config(env.url.clone())
    })
    .await
    .expect("server starts");
    let report = takuge_loadtest::run(takuge_loadtest::LoadConfig {
        tables: 2,
        seconds: 2.0,
        server_in_process: true,
        game: "art-heist".into(),
        players: 5,
        options: serde_json::Value::Null,
        think_ms: 2,
        ..takuge_loadtest::LoadConfig::new(vec![format!("http://{}", server.addr)])
    })
    .await
    .expect("runs");
    server.shutdown().await;
    assert!(report.client_actions > 20, "{report}");
    // A few `stale_version`s are the load client's own race in simultaneous choices: a
    // newer state (another seat's move) arrives while its action is in flight, and it
    // chooses again from it. A stalled client (the bug this guards) plays nothing.
    assert!(report.errors * 10 < report.client_actions, "{report}");
}

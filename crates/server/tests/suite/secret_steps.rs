//! A secret choice of several steps is one move for everyone else (issue 21, item 8):
//! the art-heist exhibit is put together in 1 + (letters) steps, but
//! 「「せーの!」で展示する美術品を公開する」 — a rival still choosing must not learn its size
//! (or that it is none) from versions, log lines or messages before committing their own.

use crate::common::*;
use serde_json::{json, Value};
use std::time::Duration;

/// The next table message on `ws`, skipping acks and pongs; errors fail the test.
async fn next_table(ws: &mut Ws) -> Value {
    loop {
        let m = ws.recv().await.expect("connection open");
        match m["type"].as_str() {
            Some("table") => return m,
            Some("error") => panic!("refused: {m}"),
            _ => {}
        }
    }
}

/// Reads table messages until one satisfies `pred`, starting with `first` (a message
/// already read, that came with an ack).
async fn until(ws: &mut Ws, first: Option<Value>, pred: impl Fn(&Value) -> bool) -> Value {
    if let Some(m) = first.filter(|m| pred(m)) {
        return m;
    }
    loop {
        let m = next_table(ws).await;
        if pred(&m) {
            return m;
        }
    }
}

/// The first legal action for which `pick` holds.
fn find(m: &Value, pick: impl Fn(&Value) -> bool) -> Option<Value> {
    m["legal"]
        .as_array()?
        .iter()
        .find(|l| pick(l))
        .map(|l| l["action"].clone())
}

fn has(m: &Value, kind: &str) -> bool {
    find(m, |l| {
        l["action"].get(kind).is_some() || l["action"] == kind
    })
    .is_some()
}

/// Sends `action` at the message's version and waits for its ack; the ack and the
/// table message that came with it (sent before the ack), if any.
async fn act(ws: &mut Ws, table: i64, at: &Value, action: Value) -> (Value, Option<Value>) {
    ws.send(json!({"type": "act", "table": table, "version": at["version"], "action": action}))
        .await;
    let mut seen = None;
    loop {
        let m = ws.recv().await.expect("connection open");
        match m["type"].as_str() {
            Some("ack") => return (m, seen),
            Some("table") => seen = Some(m),
            Some("error") => panic!("refused: {m}"),
            _ => {}
        }
    }
}

/// The table message after `act`: the one that came with the ack, or the next.
async fn after(ws: &mut Ws, with_ack: Option<Value>) -> Value {
    match with_ack {
        Some(m) => m,
        None => next_table(ws).await,
    }
}

/// Everything `ws` receives within `wait`.
async fn drain(ws: &mut Ws, wait: Duration) -> Vec<Value> {
    let mut got = Vec::new();
    while let Ok(Some(m)) = tokio::time::timeout(wait, ws.recv()).await {
        got.push(m);
    }
    got
}

fn pending(m: &Value) -> Vec<u64> {
    m["pending"]
        .as_array()
        .map(|p| p.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default()
}

async fn rows_of(env: &Env, table: i64, seat: i64) -> usize {
    use sqlx::Row;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&env.url).await.expect("open db");
    let n: i64 = sqlx::query("SELECT COUNT(*) FROM actions WHERE table_id = $1 AND seat = $2")
        .bind(table)
        .bind(seat)
        .fetch_one(&pool)
        .await
        .expect("count")
        .get(0);
    pool.close().await;
    n as usize
}

/// An art-heist table with `a` in seat 0, `b` in seat 1 and bots, played to an exhibit
/// phase in which only `a` and `b` are still choosing and `a` holds an exhibit; `None`
/// if this seed's first turn does not get there.
async fn exhibit_phase(a: &Client, b: &Client, seed: u64) -> Option<(i64, Ws, Ws, Value, Value)> {
    let (s, t) = a
        .post(
            "/api/tables",
            json!({"game": "art-heist", "players": 5, "seed": seed}),
        )
        .await;
    assert_eq!(s, 201, "{t}");
    let id = t["id"].as_i64().expect("id");
    let (s, r) = b
        .post(&format!("/api/tables/{id}/sit"), json!({"seat": 1}))
        .await;
    assert_eq!(s, 200, "{r}");
    for step in ["bots", "start"] {
        let (s, r) = a.post(&format!("/api/tables/{id}/{step}"), json!({})).await;
        assert_eq!(s, 200, "{r}");
    }
    let mut wa = a.ws().await;
    let mut wb = b.ws().await;
    for ws in [&mut wa, &mut wb] {
        ws.send(json!({"type": "subscribe", "table": id})).await;
    }
    // Both to the castle, both with the exhibition card, then until only the two
    // people are left to choose their exhibits.
    let (mut la, mut lb) = (None, None);
    for (ws, last) in [(&mut wa, &mut la), (&mut wb, &mut lb)] {
        let m = until(ws, None, |m| has(m, "go")).await;
        *last = act(ws, id, &m, json!({"go": "castle"})).await.1;
    }
    for (ws, last) in [(&mut wa, &mut la), (&mut wb, &mut lb)] {
        let m = until(ws, last.take(), |m| has(m, "play")).await;
        let card = find(&m, |l| {
            l["label"]
                .as_str()
                .is_some_and(|s| s.contains("exhibition"))
        })?;
        *last = act(ws, id, &m, card).await.1;
    }
    let exhibiting = |m: &Value| has(m, "show_nothing") && pending(m) == [0, 1];
    let ma = until(&mut wa, la, exhibiting).await;
    let mb = until(&mut wb, lb, exhibiting).await;
    if !has(&ma, "exhibit") {
        let (s, r) = a
            .post(&format!("/api/tables/{id}/abandon"), json!({}))
            .await;
        assert_eq!(s, 200, "{r}");
        return None;
    }
    Some((id, wa, wb, ma, mb))
}

async fn an_exhibit_is_one_move_for_everyone_else(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let mut server = env.start().await;
    let a = Client::guest(server.addr).await;
    let b = Client::guest(server.addr).await;
    let mut found = None;
    for seed in 1..40 {
        if let Some(x) = exhibit_phase(&a, &b, seed).await {
            found = Some(x);
            break;
        }
    }
    let (t, mut wa, mut wb, ma, mb) = found.expect("a seed where seat 0 holds an exhibit");
    let (va, vb) = (ma["version"].clone(), mb["version"].clone());
    assert_eq!(va, vb);
    let rows_before = rows_of(&env, t, 0).await;

    // The letters: stored, acknowledged at the same version, told to seat 0 alone.
    let letters = find(&ma, |l| l["action"].get("exhibit").is_some()).expect("a run");
    let (ack, with) = act(&mut wa, t, &ma, letters).await;
    assert_eq!(ack["version"], va, "a draft step makes no version: {ack}");
    let mine = after(&mut wa, with).await;
    assert!(has(&mine, "cards"), "{mine}");
    assert_eq!(mine["version"], va);
    assert!(
        drain(&mut wb, Duration::from_millis(300)).await.is_empty(),
        "the rival heard of a draft step"
    );
    assert_eq!(
        rows_of(&env, t, 0).await,
        rows_before + 1,
        "the step is stored"
    );

    // A restart keeps the draft, and shows the rival nothing new.
    drop((wa, wb));
    server.shutdown().await;
    server = env.start().await;
    let (a, b) = (a.with_base(server.addr), b.with_base(server.addr));
    let (mut wa, mut wb) = (a.ws().await, b.ws().await);
    for ws in [&mut wa, &mut wb] {
        ws.send(json!({"type": "subscribe", "table": t})).await;
    }
    let mut m = next_table(&mut wa).await;
    assert!(has(&m, "cards"), "the draft survives a restart: {m}");
    assert_eq!(m["version"], va);
    let seen_b = next_table(&mut wb).await;
    assert_eq!(seen_b["version"], vb);
    let log_b = seen_b["log"].as_array().map_or(0, Vec::len);
    assert_eq!(pending(&seen_b), [0, 1]);

    // The cards, a letter a step; the rival hears of the exhibit once, when it is whole.
    let mut steps = 1;
    while let Some(cards) = find(&m, |l| l["action"].get("cards").is_some()) {
        let (_, with) = act(&mut wa, t, &m, cards).await;
        steps += 1;
        m = after(&mut wa, with).await;
    }
    assert!(steps >= 2, "letters and at least one letter's cards");
    assert_eq!(
        m["version"].as_u64(),
        va.as_u64().map(|v| v + 1),
        "the whole exhibit is one version"
    );
    let heard: Vec<Value> = drain(&mut wb, Duration::from_millis(300))
        .await
        .into_iter()
        .filter(|m| m["type"] == "table")
        .collect();
    assert_eq!(heard.len(), 1, "one message for the rival: {heard:?}");
    assert_eq!(heard[0]["version"].as_u64(), vb.as_u64().map(|v| v + 1));
    let lines = heard[0]["log"].as_array().cloned().unwrap_or_default();
    assert_eq!(
        lines.len(),
        1,
        "one log line for the whole exhibit: {lines:?}"
    );
    assert_eq!(lines[0]["seat"], 0);
    assert_eq!(lines[0]["text"], "seat 1 acted");
    assert_eq!(pending(&heard[0]), [1]);
    assert!(log_b > 0);
    // Seat 0's own line of the move tells every step.
    let own = m["log"]
        .as_array()
        .and_then(|l| l.last())
        .cloned()
        .unwrap_or_default();
    let text = own["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("exhibit art of letter") && text.contains("show"),
        "{text}"
    );
    assert_eq!(rows_of(&env, t, 0).await, rows_before + steps);
    server.shutdown().await;
}

/// The log entries of no seat: what reveals told everyone.
fn news_of(messages: &[Value]) -> Vec<Value> {
    let mut seen = std::collections::BTreeMap::new();
    for m in messages {
        for e in m["log"].as_array().into_iter().flatten() {
            if e["seat"].is_null() {
                seen.insert(e["index"].as_u64().expect("index"), e.clone());
            }
        }
    }
    seen.into_values().collect()
}

/// Issue 21, item 2: 193 of 236 lines of an art-heist game read "seat N acted", even
/// after the reveal and in the replay. Every reveal is now a line of its own, the same
/// for everyone, live, after a restart and in the replay.
async fn every_reveal_is_a_log_line_for_everyone_live_restored_and_replayed(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let mut server = env.start().await;
    let a = Client::guest(server.addr).await;
    let (s, t) = a
        .post(
            "/api/tables",
            json!({"game": "art-heist", "players": 5, "seed": 5}),
        )
        .await;
    assert_eq!(s, 201, "{t}");
    let id = t["id"].as_i64().expect("id");
    for step in ["bots", "start"] {
        let (s, r) = a.post(&format!("/api/tables/{id}/{step}"), json!({})).await;
        assert_eq!(s, 200, "{r}");
    }
    let live = news_of(&play_seat(a.with_base(server.addr), id, None).await);
    assert!(
        live.len() > 10,
        "{} reveals told in a game: {live:?}",
        live.len()
    );
    let text = |e: &Value| e["text"].as_str().unwrap_or_default().to_string();
    assert!(
        text(&live[0]).starts_with("Places revealed — seat 1: "),
        "{}",
        live[0]
    );
    assert!(live.iter().any(|e| text(e).starts_with("Cards at the")));
    assert!(live.iter().any(|e| text(e).starts_with("Final exhibits")));
    assert!(live.iter().all(|e| e["text_ja"]
        .as_str()
        .is_some_and(|t| t.contains("公開") || t.contains("展示"))));

    // A spectator after a restart reads the same lines (the log is rebuilt on restore).
    server.shutdown().await;
    server = env.start().await;
    let watcher = Client::guest(server.addr).await;
    let mut ws = watcher.ws().await;
    ws.send(json!({"type": "subscribe", "table": id})).await;
    let restored = news_of(&[next_table(&mut ws).await]);
    assert_eq!(restored, live, "the reveals after a restart");

    // The replay tells the same, at the steps that revealed.
    let (s, r) = watcher.get(&format!("/api/tables/{id}/replay")).await;
    assert_eq!(s, 200, "{r}");
    let replayed: Vec<String> = r["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter_map(|st| st["news"].as_str().map(str::to_string))
        .collect();
    assert_eq!(replayed, live.iter().map(text).collect::<Vec<_>>());
    server.shutdown().await;
}

on_both_databases!(
    an_exhibit_is_one_move_for_everyone_else,
    every_reveal_is_a_log_line_for_everyone_live_restored_and_replayed
);

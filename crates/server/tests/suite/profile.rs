//! The profile (issue 21, items 1 and 6), on a real server against SQLite and
//! PostgreSQL: the display name, the tables an account sits at and the ones waiting for
//! its move, finished games from the shelf's plays with numbers by seat and team, and
//! who may see a profile.

use crate::common::*;
use serde_json::{json, Value};

/// The ids of a profile's list `key`.
fn ids(profile: &Value, key: &str) -> Vec<i64> {
    profile[key]
        .as_array()
        .map(|a| a.iter().filter_map(|t| t["id"].as_i64()).collect())
        .unwrap_or_default()
}

/// The seats pending at `table` once the bots have moved and only the people seated at
/// `humans` are waited for (they do not act here, so it stays so).
async fn settled_pending(c: &Client, table: i64, humans: &[u64]) -> Vec<u64> {
    let mut ws = c.ws().await;
    ws.send(json!({"type": "subscribe", "table": table})).await;
    loop {
        let m = ws.recv_type("table").await;
        let pending: Vec<u64> = m["pending"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_u64).collect())
            .unwrap_or_default();
        if !pending.is_empty() && pending.iter().all(|s| humans.contains(s)) {
            return pending;
        }
    }
}

async fn a_profile_lists_tables_waiting_and_finished_games(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let alice = register(server.addr, "alice").await;
    let bob = register(server.addr, "bob").await;
    let table = setup_table(&alice, &[&bob], 4, 21).await;
    // A private table alice opened and nobody started.
    let (s, private) = alice
        .post(
            "/api/tables",
            json!({"game": "ghost-at-home", "players": 2, "private": true}),
        )
        .await;
    assert_eq!(s, 201, "{private}");
    let private = private["id"].as_i64().expect("id");

    // "Waiting for you" is exactly the tables where one's own seat is pending.
    let waiting_at_start = settled_pending(&alice, table, &[0, 1]).await;
    for (c, seat) in [(&alice, 0u64), (&bob, 1)] {
        let (s, p) = c.get("/api/profiles/me").await;
        assert_eq!(s, 200, "{p}");
        assert_eq!(p["own"], true);
        assert!(ids(&p, "tables").contains(&table), "{p}");
        assert_eq!(
            ids(&p, "waiting").contains(&table),
            waiting_at_start.contains(&seat),
            "seat {seat}, pending {waiting_at_start:?}: {p}"
        );
        assert!(!ids(&p, "waiting").contains(&private), "{p}");
    }
    let (_, mine) = alice.get("/api/profiles/me").await;
    assert!(ids(&mine, "tables").contains(&private), "{mine}");

    // Another person sees alice's public tables, and not whose move it is.
    let (s, seen) = bob.get("/api/profiles/alice").await;
    assert_eq!(s, 200, "{seen}");
    assert_eq!(seen["own"], false);
    assert_eq!(seen["user"]["name"], "alice");
    assert_eq!(ids(&seen, "tables"), vec![table], "{seen}");
    assert!(seen["tables"][0]["to_act"].is_null(), "{seen}");
    assert_eq!(ids(&seen, "waiting"), Vec::<i64>::new());

    // Played to the end: a finished game with its replay, its numbers by seat and team.
    let a = tokio::spawn(play_seat(alice.with_base(server.addr), table, None));
    let b = tokio::spawn(play_seat(bob.with_base(server.addr), table, None));
    a.await.expect("alice plays");
    b.await.expect("bob plays");
    let (_, p) = alice.get("/api/profiles/me").await;
    assert!(!ids(&p, "tables").contains(&table), "{p}");
    assert!(ids(&p, "waiting").is_empty(), "{p}");
    let finished = &p["finished"][0];
    assert_eq!(finished["table_id"], table, "{p}");
    assert_eq!(finished["replay"], format!("/replay/{table}"));
    let won = finished["players"][0]["winner"] == true;
    let stats = &p["stats"][0];
    assert_eq!(stats["game"]["slug"], "secret-moon");
    assert_eq!(stats["plays"], 1);
    assert_eq!(stats["wins"], i64::from(won));
    assert_eq!(
        stats["by_seat"],
        json!([{"seat": 0, "plays": 1, "wins": i64::from(won)}])
    );
    let teams = stats["by_team"].as_array().expect("by_team");
    assert_eq!(teams.len(), 1, "{stats}");
    assert!(
        ["Princess team", "Minister team", "Thief"]
            .contains(&teams[0]["name_en"].as_str().unwrap_or("")),
        "{stats}"
    );
    assert_eq!(p["results"].as_array().map(Vec::len), Some(1));
    assert_eq!(p["results"][0]["won"], won);
    assert_eq!(p["results"][0]["players"], 4);
    // Bob's numbers are his own seat's.
    let (_, pb) = bob.get("/api/profiles/me").await;
    assert_eq!(pb["stats"][0]["by_seat"][0]["seat"], 1, "{pb}");

    // The shelf's visibility covers the profile.
    let (s, _) = anonymous(&alice, "/api/profiles/alice").await;
    assert_eq!(s, 200);
    let (s, b) = alice
        .put("/api/collections/me", json!({"visibility": "private"}))
        .await;
    assert_eq!(s, 200, "{b}");
    for (status, body) in [
        bob.get("/api/profiles/alice").await,
        anonymous(&alice, "/api/profiles/alice").await,
        bob.get(&format!("/api/profiles/{}", alice.id())).await,
    ] {
        assert_eq!(
            (status, &body["error"]["code"]),
            (404, &json!("unknown_user"))
        );
    }
    let (s, own) = alice.get("/api/profiles/alice").await;
    assert_eq!((s, &own["own"]), (200, &json!(true)));
    assert_eq!(own["visibility"], "private");
    server.shutdown().await;
}

async fn a_display_name_is_checked_and_shown_at_tables_and_in_the_lobby(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let alice = register(server.addr, "alice").await;
    let (s, u) = alice
        .put("/api/me", json!({"display_name": "たくげ 花子"}))
        .await;
    assert_eq!(s, 200, "{u}");
    assert_eq!(u["display_name"], "たくげ 花子");
    assert_eq!(u["name"], "alice");
    let before = snapshot(&env).await;
    for bad in [
        json!({"display_name": ""}),
        json!({"display_name": "  "}),
        json!({"display_name": " lead"}),
        json!({"display_name": "a\u{7}b"}),
        json!({"display_name": "evil\u{202E}cba"}),
        json!({"display_name": "zero\u{200B}width"}),
        json!({"display_name": "字".repeat(33)}),
    ] {
        let (s, b) = alice.put("/api/me", bad.clone()).await;
        assert_eq!(
            (s, &b["error"]["code"]),
            (400, &json!("invalid_display_name")),
            "{bad}"
        );
    }
    let (s, b) = alice
        .put("/api/me", json!({"display_name": "x", "name": "root"}))
        .await;
    assert_eq!((s, &b["error"]["code"]), (400, &json!("malformed_json")));
    let (_, me) = alice.get("/api/me").await;
    assert_eq!(me["display_name"], "たくげ 花子", "nothing changed");
    assert_eq!(snapshot(&env).await, before);
    let guest = Client::guest(server.addr).await;
    let (s, b) = guest
        .put("/api/me", json!({"display_name": "ゲスト"}))
        .await;
    assert_eq!((s, &b["error"]["code"]), (403, &json!("guest")));

    // Shown at the table and in the lobby; the login name stays the login name.
    let (s, t) = alice
        .post(
            "/api/tables",
            json!({"game": "ghost-at-home", "players": 2}),
        )
        .await;
    assert_eq!(s, 201, "{t}");
    assert_eq!(t["seats"][0]["name"], "たくげ 花子", "{t}");
    let (_, lobby) = anonymous(&alice, "/api/tables").await;
    assert_eq!(lobby["tables"][0]["host_name"], "たくげ 花子", "{lobby}");
    assert_eq!(lobby["tables"][0]["seats"][0]["name"], "たくげ 花子");
    let (_, p) = anonymous(&alice, "/api/profiles/alice").await;
    assert_eq!(p["user"]["display_name"], "たくげ 花子");
    // A guest has its own profile (its tables), and no public one.
    let (s, gp) = guest.get("/api/profiles/me").await;
    assert_eq!((s, &gp["user"]["guest"]), (200, &json!(true)));
    let (s, _) = anonymous(&alice, &format!("/api/profiles/{}", guest.id())).await;
    assert_eq!(s, 404);
    let (s, _) = anonymous(&alice, "/api/profiles/nobody").await;
    assert_eq!(s, 404);
    server.shutdown().await;
}

on_both_databases!(
    a_profile_lists_tables_waiting_and_finished_games,
    a_display_name_is_checked_and_shown_at_tables_and_in_the_lobby,
);

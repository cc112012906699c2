//! Bot seats (issue 16): the host picks each bot seat's level, a player who leaves is
//! replaced at the table's level, an abandoned table stops its bot's search, and a
//! searching bot is kept for the table's life and reuses its tree.

use crate::common::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// A value of `/metrics` (0 when the series is not there).
async fn metric(base: &str, series: &str) -> i64 {
    let (_, text) = get_raw(base, "/metrics", "none").await;
    text.as_str()
        .unwrap_or("")
        .lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or(0)
}

/// An open 3-seat Ghost for Sale table of `host`'s (seated in seat 0 when `sit`).
async fn open_table(host: &Client, sit: bool) -> i64 {
    let (s, t) = host
        .post(
            "/api/tables",
            json!({"game": "ghost-for-sale", "players": 3, "seed": 5, "sit": sit}),
        )
        .await;
    assert_eq!(s, 201, "{t}");
    t["id"].as_i64().expect("id")
}

fn bots_of(table: &Value) -> Vec<Option<&str>> {
    table["seats"]
        .as_array()
        .map(|seats| seats.iter().map(|s| s["bot"].as_str()).collect())
        .unwrap_or_default()
}

async fn a_host_picks_each_bot_seats_level_and_a_player_who_leaves_is_replaced_at_that_level(
    backend: Backend,
) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let host = Client::guest(server.addr).await;
    let id = open_table(&host, true).await;
    let bots = format!("/api/tables/{id}/bots");
    let (s, t) = host.post(&bots, json!({"bot": "strong", "seat": 1})).await;
    assert_eq!(s, 200, "{t}");
    assert_eq!(bots_of(&t), [None, Some("strong"), None]);
    let (s, t) = host.post(&bots, json!({"bot": "easy", "seat": 2})).await;
    assert_eq!(s, 200, "{t}");
    assert_eq!(bots_of(&t), [None, Some("strong"), Some("easy")]);
    // A bot seat changes level.
    let (s, t) = host.post(&bots, json!({"bot": "normal", "seat": 2})).await;
    assert_eq!(s, 200, "{t}");
    assert_eq!(bots_of(&t), [None, Some("strong"), Some("normal")]);
    assert_eq!(t["seats"][2]["name"], "bot normal");
    // A player's seat is not the host's to give away; a seat must exist; a level too.
    let (s, e) = host.post(&bots, json!({"bot": "easy", "seat": 0})).await;
    assert_eq!(
        (s, e["error"]["code"].as_str()),
        (409, Some("seat_taken")),
        "{e}"
    );
    let (s, e) = host.post(&bots, json!({"bot": "easy", "seat": 7})).await;
    assert_eq!(
        (s, e["error"]["code"].as_str()),
        (400, Some("no_such_seat")),
        "{e}"
    );
    let (s, e) = host.post(&bots, json!({"bot": "genius", "seat": 1})).await;
    assert_eq!(
        (s, e["error"]["code"].as_str()),
        (400, Some("unknown_bot")),
        "{e}"
    );
    let (s, t) = host
        .post(&format!("/api/tables/{id}/start"), json!({}))
        .await;
    assert_eq!(s, 200, "{t}");
    // The host leaves mid-game: the table's level (its first bot seat's) plays on.
    let (s, t) = host
        .post(&format!("/api/tables/{id}/leave"), json!({}))
        .await;
    assert_eq!(s, 200, "{t}");
    assert_eq!(
        bots_of(&t),
        [Some("strong"), Some("strong"), Some("normal")]
    );
    assert_eq!(t["seats"][0]["replaced"], true);
    let (s, t) = host
        .post(&format!("/api/tables/{id}/abandon"), json!({}))
        .await;
    assert_eq!(s, 200, "{t}");
    server.shutdown().await;
}

async fn abandoning_a_table_stops_its_bots_search(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let base = format!("http://{}", server.addr);
    let host = Client::guest(server.addr).await;
    let id = open_table(&host, false).await;
    // Every seat a strong bot: the first step is a search (about a second) at once.
    for (step, body) in [("bots", json!({"bot": "strong"})), ("start", json!({}))] {
        let (s, t) = host.post(&format!("/api/tables/{id}/{step}"), body).await;
        assert_eq!(s, 200, "{t}");
    }
    let series = "takuge_bot_searches_cancelled_total";
    assert_eq!(metric(&base, series).await, 0);
    let (s, t) = host
        .post(&format!("/api/tables/{id}/abandon"), json!({}))
        .await;
    assert_eq!((s, t["status"].as_str()), (200, Some("abandoned")), "{t}");
    // The search in flight (or about to start) sees the flag and gives up its move.
    let waited = Instant::now();
    while metric(&base, series).await == 0 {
        assert!(
            waited.elapsed() < Duration::from_secs(60),
            "the abandoned table's bot never stopped"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (_, info) = host.get(&format!("/api/tables/{id}")).await;
    assert_eq!(info["status"], "abandoned");
    assert_eq!(
        info["version"], 0,
        "no bot move was played after the abandon"
    );
    server.shutdown().await;
}

async fn a_searching_bot_seat_reuses_its_tree_and_the_table_plays_to_the_end(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let base = format!("http://{}", server.addr);
    let host = Client::guest(server.addr).await;
    let id = open_table(&host, false).await;
    // One ISMCTS seat (about 0.2 s a decision) among rule bots: a whole game in seconds.
    let bots = format!("/api/tables/{id}/bots");
    for body in [json!({"bot": "easy"}), json!({"bot": "normal", "seat": 0})] {
        let (s, t) = host.post(&bots, body).await;
        assert_eq!(s, 200, "{t}");
    }
    let (s, t) = host
        .post(&format!("/api/tables/{id}/start"), json!({}))
        .await;
    assert_eq!(s, 200, "{t}");
    let waited = Instant::now();
    let info = loop {
        let (_, info) = host.get(&format!("/api/tables/{id}")).await;
        if info["status"] != "playing" {
            break info;
        }
        assert!(
            waited.elapsed() < Duration::from_secs(180),
            "the table with a searching bot did not finish: {info}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(info["status"], "finished", "{info}");
    // The kept bot heard every move between its searches, so later searches started
    // from the subtree of where it then stood.
    let reused = metric(&base, "takuge_bot_searches_reused_total").await;
    assert!(reused > 0, "no search started from a kept tree");
    server.shutdown().await;
}

on_both_databases!(
    a_host_picks_each_bot_seats_level_and_a_player_who_leaves_is_replaced_at_that_level,
    abandoning_a_table_stops_its_bots_search,
    a_searching_bot_seat_reuses_its_tree_and_the_table_plays_to_the_end,
);

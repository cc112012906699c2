//! Recommendations (issue 18) on a real server against SQLite and PostgreSQL: a
//! person's list never holds what they own, played or dismissed; reasons name games
//! they like; "not interested" and its undo; bad input gets clear errors.

use crate::common::*;
use serde_json::{json, Value};
use std::time::Duration;
use takuge_server::{Config, Server};

/// The server with a model rebuilt a tenth of a second after shelves change.
async fn start(env: &Env) -> Server {
    Server::start(Config {
        recommend_settle: Duration::from_millis(100),
        ..config(env.url.clone())
    })
    .await
    .expect("server starts")
}

async fn import(c: &Client, csv: String) {
    let res = c
        .http
        .post(format!("{}/api/collections/import", c.base))
        .bearer_auth(&c.token)
        .header("content-type", "text/csv")
        .body(csv)
        .send()
        .await
        .expect("request");
    assert_eq!(res.status().as_u16(), 200);
}

async fn send(
    c: &Client,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut req = c
        .http
        .request(method, format!("{}{path}", c.base))
        .bearer_auth(&c.token)
        .header("accept-language", "ja-JP,ja;q=0.9,en;q=0.5");
    if let Some(b) = body {
        req = req.json(&b);
    }
    let res = req.send().await.expect("request");
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// Two tastes: family games (Catan, Carcassonne, Ticket to Ride, Azul) and party card
/// games (Hanabi, The Mind, Love Letter, Codenames). (BGG id, English, Japanese.)
const FAMILY: [(u32, &str, &str); 4] = [
    (13, "Catan", "カタン"),
    (822, "Carcassonne", "カルカソンヌ"),
    (9209, "Ticket to Ride", "チケット・トゥ・ライド"),
    (230802, "Azul", "アズール"),
];
const PARTY: [(u32, &str, &str); 4] = [
    (98778, "Hanabi", "花火"),
    (244992, "The Mind", "ザ・マインド"),
    (129622, "Love Letter", "ラブレター"),
    (178900, "Codenames", "コードネーム"),
];

fn csv(rows: &[(u32, &str, &str)], rating: u32) -> String {
    let mut s = String::from("objectname,objectid,rating,own,originalname\n");
    for (id, en, ja) in rows {
        s.push_str(&format!("{en},{id},{rating},0,{ja}\n"));
    }
    s
}

/// The catalog id of a game by its English name.
async fn id_of(c: &Client, name: &str) -> i64 {
    let (_, b) = c
        .get(&format!("/api/catalog?q={}", name.replace(' ', "+")))
        .await;
    b["games"][0]["id"].as_i64().expect("in the catalog")
}

/// Ten people of each taste, and the first account (an admin, so the imported games
/// are listed at once) with every game rated 5 (liked by nobody's measure).
async fn shelves(addr: std::net::SocketAddr) -> Client {
    let admin = register(addr, "admin").await;
    let all: Vec<(u32, &str, &str)> = FAMILY.iter().chain(PARTY.iter()).copied().collect();
    import(&admin, csv(&all, 5)).await;
    for k in 0..10 {
        let fam = register(addr, &format!("family{k}")).await;
        import(&fam, csv(&FAMILY, 8 + k % 2)).await;
        let party = register(addr, &format!("party{k}")).await;
        import(&party, csv(&PARTY, 8 + k % 2)).await;
    }
    admin
}

/// The caller's recommendations once the model counts `people` people.
async fn wait_for_model(c: &Client, people: i64) -> Value {
    for _ in 0..200 {
        let (s, b) = send(c, reqwest::Method::GET, "/api/recommendations", None).await;
        assert_eq!(s, 200, "{b}");
        if b["model"]["ready"] == true && b["model"]["people"].as_i64() >= Some(people) {
            return b;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the model was not rebuilt");
}

fn games(b: &Value) -> Vec<String> {
    b["recommendations"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|r| r["game"]["name_en"].as_str().unwrap_or("").to_string())
        .collect()
}

async fn recommendations_never_include_games_owned_played_or_dismissed_and_reasons_name_liked_games(
    backend: Backend,
) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = start(&env).await;
    shelves(server.addr).await;
    let me = register(server.addr, "tester").await;
    // Catan owned and loved, Carcassonne rated: the family taste.
    let catan = id_of(&me, "Catan").await;
    let carcassonne = id_of(&me, "Carcassonne").await;
    let ticket = id_of(&me, "Ticket to Ride").await;
    let azul = id_of(&me, "Azul").await;
    for (id, body) in [
        (catan, json!({"own": true, "rating": 9})),
        (carcassonne, json!({"rating": 8})),
    ] {
        let (s, b) = send(
            &me,
            reqwest::Method::PUT,
            &format!("/api/collections/me/{id}"),
            Some(body),
        )
        .await;
        assert_eq!(s, 200, "{b}");
    }
    let b = wait_for_model(&me, 21).await;
    let list = games(&b);
    let mut top = list[..2].to_vec();
    top.sort();
    assert_eq!(top, ["Azul", "Ticket to Ride"], "{b}");
    assert!(
        !list.contains(&"Catan".to_string()) && !list.contains(&"Carcassonne".to_string()),
        "{b}"
    );
    // The reason names the liked games, in the language Accept-Language prefers.
    let first = &b["recommendations"][0]["reason"];
    assert_eq!(first["kind"], "liked", "{b}");
    let named: Vec<i64> = first["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter_map(|g| g["id"].as_i64())
        .collect();
    assert!(
        named.contains(&catan) && named.contains(&carcassonne),
        "{first}"
    );
    assert_eq!(b["lang"], "ja");
    let text = first["text"].as_str().unwrap_or("");
    assert!(
        text.ends_with("が好きなあなたに") && text.contains("カタン"),
        "{text}"
    );
    let (_, en) = send(
        &me,
        reqwest::Method::GET,
        "/api/recommendations?lang=en",
        None,
    )
    .await;
    let text = en["recommendations"][0]["reason"]["text"]
        .as_str()
        .unwrap_or("");
    assert!(
        text.starts_with("Because you like ") && text.contains("Catan"),
        "{text}"
    );
    // Played (marked just now, before any rebuild): gone at once.
    let (s, _) = send(
        &me,
        reqwest::Method::PUT,
        &format!("/api/collections/me/{azul}"),
        Some(json!({"played": true})),
    )
    .await;
    assert_eq!(s, 200);
    let (_, b) = send(&me, reqwest::Method::GET, "/api/recommendations", None).await;
    assert!(!games(&b).contains(&"Azul".to_string()), "{b}");
    assert_eq!(games(&b)[0], "Ticket to Ride");
    // Dismissed: gone; undone: back.
    let (s, b) = send(
        &me,
        reqwest::Method::POST,
        "/api/recommendations/dismiss",
        Some(json!({"game_id": ticket})),
    )
    .await;
    assert_eq!(s, 200, "{b}");
    let (s, _) = send(
        &me,
        reqwest::Method::POST,
        "/api/recommendations/dismiss",
        Some(json!({"game_id": ticket})),
    )
    .await;
    assert_eq!(s, 200, "dismissing twice is no error");
    let (_, b) = send(&me, reqwest::Method::GET, "/api/recommendations", None).await;
    let list = games(&b);
    for gone in ["Catan", "Carcassonne", "Azul", "Ticket to Ride"] {
        assert!(!list.contains(&gone.to_string()), "{gone}: {b}");
    }
    let (s, b) = send(
        &me,
        reqwest::Method::DELETE,
        &format!("/api/recommendations/dismiss/{ticket}"),
        None,
    )
    .await;
    assert_eq!(s, 200, "{b}");
    let (_, b) = send(&me, reqwest::Method::GET, "/api/recommendations", None).await;
    assert_eq!(games(&b)[0], "Ticket to Ride", "{b}");
    // People who like Catan also like...
    let (s, b) = me
        .get(&format!("/api/catalog/{catan}/similar?limit=3"))
        .await;
    assert_eq!(s, 200, "{b}");
    let similar: Vec<&str> = b["similar"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|s| s["game"]["name_en"].as_str())
        .collect();
    assert_eq!(similar.len(), 3, "{b}");
    for g in similar {
        assert!(
            FAMILY.iter().any(|f| f.1 == g),
            "{g} is not a family game: {b}"
        );
    }
    server.shutdown().await;
}

async fn filters_keep_only_games_that_fit_and_say_so_for_someone_with_an_empty_shelf(
    backend: Backend,
) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = start(&env).await;
    shelves(server.addr).await;
    let me = register(server.addr, "newcomer").await;
    wait_for_model(&me, 20).await;
    // Secret Moon (3–6 players in the seed catalog) is nobody's; the imported games
    // have no player counts, so a players filter leaves nothing liked to offer.
    let (s, b) = send(
        &me,
        reqwest::Method::GET,
        "/api/recommendations?lang=en",
        None,
    )
    .await;
    assert_eq!(s, 200);
    let r = &b["recommendations"];
    assert_eq!(r.as_array().map(Vec::len), Some(8), "{b}");
    assert_eq!(r[0]["reason"]["kind"], "popular");
    assert_eq!(r[0]["reason"]["text"], "Popular on everyone's shelves");
    let (s, b) = send(
        &me,
        reqwest::Method::GET,
        "/api/recommendations?players=4&max_minutes=30",
        None,
    )
    .await;
    assert_eq!(s, 200);
    assert_eq!(b["recommendations"], json!([]), "{b}");
    server.shutdown().await;
}

async fn bad_input_gets_clear_errors(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = start(&env).await;
    let me = register(server.addr, "tester").await;
    for (q, code, words) in [
        (
            "players=0",
            "invalid_field",
            "players: 0 is not from 1 to 99",
        ),
        (
            "limit=1000",
            "invalid_field",
            "limit: 1000 is not from 1 to 100",
        ),
        ("max_minutes=0", "invalid_field", "max_minutes"),
        ("players=four", "malformed_query", ""),
        ("lang=fr", "malformed_query", ""),
    ] {
        let (s, b) = me.get(&format!("/api/recommendations?{q}")).await;
        assert_eq!((s, &b["error"]["code"]), (400, &json!(code)), "{q}: {b}");
        assert!(
            b["error"]["message"].as_str().unwrap_or("").contains(words),
            "{q}: {b}"
        );
    }
    let (s, b) = me
        .post("/api/recommendations/dismiss", json!({"game_id": 999_999}))
        .await;
    assert_eq!(
        (s, &b["error"]["code"]),
        (404, &json!("unknown_game")),
        "{b}"
    );
    let (s, b) = me
        .post("/api/recommendations/dismiss", json!({"game": 1}))
        .await;
    assert_eq!(s, 400, "{b}");
    let (s, b) = send(
        &me,
        reqwest::Method::DELETE,
        "/api/recommendations/dismiss/1",
        None,
    )
    .await;
    assert_eq!(
        (s, &b["error"]["code"]),
        (404, &json!("not_dismissed")),
        "{b}"
    );
    let (s, b) = me.get("/api/catalog/no-such-game/similar").await;
    assert_eq!(
        (s, &b["error"]["code"]),
        (404, &json!("unknown_game")),
        "{b}"
    );
    let (s, b) = me.get("/api/catalog/secret-moon/similar?limit=51").await;
    assert_eq!(
        (s, &b["error"]["code"]),
        (400, &json!("invalid_field")),
        "{b}"
    );
    let guest = Client::guest(server.addr).await;
    let (s, b) = guest
        .post("/api/recommendations/dismiss", json!({"game_id": 1}))
        .await;
    assert_eq!((s, &b["error"]["code"]), (403, &json!("guest")), "{b}");
    let res = reqwest::get(format!("{}/api/recommendations", me.base))
        .await
        .expect("request");
    assert_eq!(res.status().as_u16(), 401);
    server.shutdown().await;
}

on_both_databases!(
    recommendations_never_include_games_owned_played_or_dismissed_and_reasons_name_liked_games,
    filters_keep_only_games_that_fit_and_say_so_for_someone_with_an_empty_shelf,
    bad_input_gets_clear_errors,
);

//! The shelf (issue 17), on a real server against SQLite and PostgreSQL: the catalog
//! and its admin, collections and who may see them, the BoardGameGeek import and the
//! exports, plays logged by hand and recorded by finished matches.

use crate::common::*;
use serde_json::{json, Value};

async fn import(c: &Client, csv: impl Into<Vec<u8>>) -> (u16, Value) {
    let res = c
        .http
        .post(format!("{}/api/collections/import", c.base))
        .bearer_auth(&c.token)
        .header("content-type", "text/csv")
        .body(csv.into())
        .send()
        .await
        .expect("request");
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// Posts `body` to the import over a plain TCP connection, writing all of it before
/// reading the answer. A server that answered early and closed would make the writes
/// fail (broken pipe, reset) and the answer be lost; the refusal must still arrive.
async fn send_whole_then_read(c: &Client, body: &[u8]) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = c.base.trim_start_matches("http://").trim_end_matches('/');
    let mut tcp = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let head = format!(
        "POST /api/collections/import HTTP/1.1\r\nhost: {addr}\r\nauthorization: Bearer {}\r\n\
         content-type: text/csv\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        c.token,
        body.len()
    );
    tcp.write_all(head.as_bytes()).await.expect("headers sent");
    tcp.write_all(body)
        .await
        .expect("the server reads the whole body before it answers");
    let mut answer = Vec::new();
    tcp.read_to_end(&mut answer).await.expect("the answer");
    let text = String::from_utf8_lossy(&answer);
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let json = text
        .split_once("\r\n\r\n")
        .and_then(|(_, b)| serde_json::from_str(b).ok())
        .unwrap_or(Value::Null);
    (status, json)
}

async fn anonymous(c: &Client, path: &str) -> (u16, Value) {
    let res = reqwest::get(format!("{}{path}", c.base))
        .await
        .expect("request");
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// Everything the shelf keeps, to check that a refused request changed nothing.
async fn shelf_snapshot(env: &Env) -> Vec<String> {
    use sqlx::Row;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&env.url).await.expect("open db");
    let mut out = Vec::new();
    for q in [
        "SELECT CAST(id AS TEXT) || ':' || name_en || ':' || name_ja || ':' || status || ':' || CAST(updated_at AS TEXT) FROM catalog_games ORDER BY id",
        "SELECT CAST(id AS TEXT) || ':' || kind || ':' || status || ':' || fields FROM catalog_changes ORDER BY id",
        "SELECT CAST(user_id AS TEXT) || ':' || CAST(game_id AS TEXT) || ':' || CAST(own AS TEXT) || CAST(played AS TEXT) || ':' || COALESCE(CAST(rating AS TEXT), '') || ':' || comment || ':' || CAST(updated_at AS TEXT) FROM collections ORDER BY user_id, game_id",
        "SELECT CAST(id AS TEXT) || ':' || played_on || ':' || comment FROM plays ORDER BY id",
        "SELECT CAST(play_id AS TEXT) || ':' || name FROM play_players ORDER BY play_id, position",
        "SELECT CAST(user_id AS TEXT) || ':' || visibility FROM shelves ORDER BY user_id",
    ] {
        for r in sqlx::query(q).fetch_all(&pool).await.expect("query") {
            out.push(r.get::<String, _>(0));
        }
    }
    pool.close().await;
    out
}

fn names(games: &Value, key: &str) -> Vec<String> {
    games
        .as_array()
        .expect("a list")
        .iter()
        .map(|g| g[key].as_str().unwrap_or("").to_string())
        .collect()
}

async fn the_five_games_are_in_the_catalog_from_the_first_start(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let c = Client::guest(server.addr).await;
    let (s, b) = anonymous(&c, "/api/catalog?sort=name_ja").await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["total"], 5, "{b}");
    // 五十音順 by reading (the names with kanji have theirs).
    assert_eq!(
        names(&b["games"], "slug"),
        [
            "ghost-at-home",
            "ghost-for-sale",
            "secret-moon",
            "art-heist",
            "bitoku"
        ]
    );
    let (s, moon) = anonymous(&c, "/api/catalog/secret-moon").await;
    assert_eq!(s, 200, "{moon}");
    assert_eq!(moon["game"]["playable"], true);
    assert_eq!(moon["game"]["name_ja"], "シークレットムーン");
    assert_eq!(moon["game"]["links"]["rules"], "/rules/secret-moon");
    assert_eq!(moon["game"]["links"]["tables"], "/?game=secret-moon");
    assert_eq!(moon["counts"]["own"], 0);
    let (_, bitoku) = anonymous(&c, "/api/catalog/bitoku").await;
    assert_eq!(bitoku["game"]["playable"], true, "{bitoku}");
    assert_eq!(bitoku["game"]["links"]["rules"], "/rules/bitoku");
    // A restart adds nothing twice.
    server.shutdown().await;
    let server = env.start().await;
    let c = c.with_base(server.addr);
    let (_, b) = anonymous(&c, "/api/catalog").await;
    assert_eq!(b["total"], 5);
    let (_, h) = anonymous(&c, "/api/catalog/secret-moon/history").await;
    assert_eq!(h["changes"].as_array().map(Vec::len), Some(1), "{h}");
    assert_eq!(h["changes"][0]["kind"], "seed");
    server.shutdown().await;
}

async fn the_first_account_approves_what_others_add_and_correct(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let alice = register(server.addr, "alice").await;
    let bob = register(server.addr, "bob").await;
    let guest = Client::guest(server.addr).await;
    let catan = json!({"name_en": "Catan", "name_ja": "カタン", "min_players": 3, "max_players": 4,
        "best_players": [4], "min_minutes": 60, "max_minutes": 120, "min_age": 10, "year": 1995,
        "designers": ["Klaus Teuber"], "bgg_id": 13});
    let (s, b) = guest.post("/api/catalog", catan.clone()).await;
    assert_eq!((s, &b["error"]["code"]), (403, &json!("guest")));
    let (s, added) = bob.post("/api/catalog", catan.clone()).await;
    assert_eq!(s, 201, "{added}");
    assert_eq!(added["game"]["status"], "pending");
    let id = added["game"]["id"].as_i64().expect("id");
    // Not listed yet, not shown to others, but to its adder.
    let (_, b) = anonymous(&bob, "/api/catalog?q=catan").await;
    assert_eq!(b["total"], 0);
    assert_eq!(anonymous(&bob, &format!("/api/catalog/{id}")).await.0, 404);
    assert_eq!(bob.get(&format!("/api/catalog/{id}")).await.0, 200);
    // The same BGG id twice is refused.
    let (s, b) = bob.post("/api/catalog", catan).await;
    assert_eq!((s, &b["error"]["code"]), (409, &json!("bgg_id_taken")));
    // Only an admin decides.
    let (_, queue) = bob.get("/api/catalog/changes").await;
    assert_eq!(queue["admin"], false);
    let change = queue["changes"][0]["id"]
        .as_i64()
        .expect("bob sees his own");
    let (s, b) = bob
        .post(&format!("/api/catalog/changes/{change}/approve"), json!({}))
        .await;
    assert_eq!((s, &b["error"]["code"]), (403, &json!("not_admin")));
    let (_, queue) = alice.get("/api/catalog/changes").await;
    assert_eq!(queue["admin"], true, "the first account is admin");
    let (s, b) = alice
        .post(&format!("/api/catalog/changes/{change}/approve"), json!({}))
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["decided_by"]["name"], "alice");
    let (s, _) = alice
        .post(&format!("/api/catalog/changes/{change}/approve"), json!({}))
        .await;
    assert_eq!(s, 409);
    let (_, b) = anonymous(&bob, "/api/catalog?q=かたん").await;
    assert_eq!(b["total"], 1, "found by its kana: {b}");
    // A correction waits for approval, then applies.
    let (s, corr) = bob
        .post(
            &format!("/api/catalog/{id}/corrections"),
            json!({"max_players": 6}),
        )
        .await;
    assert_eq!(s, 201, "{corr}");
    assert_eq!(corr["status"], "pending");
    let (_, g) = anonymous(&bob, &format!("/api/catalog/{id}")).await;
    assert_eq!(g["game"]["max_players"], 4);
    let (s, b) = bob
        .post(
            &format!("/api/catalog/{id}/corrections"),
            json!({"min_players": 9}),
        )
        .await;
    assert_eq!(
        (s, &b["error"]["code"]),
        (400, &json!("invalid_field")),
        "min above max"
    );
    let corr = corr["id"].as_i64().expect("id");
    let (s, _) = alice
        .post(&format!("/api/catalog/changes/{corr}/approve"), json!({}))
        .await;
    assert_eq!(s, 200);
    let (_, g) = anonymous(&bob, &format!("/api/catalog/{id}")).await;
    assert_eq!(g["game"]["max_players"], 6);
    assert_eq!(g["game"]["designers"], json!(["Klaus Teuber"]));
    // Every change, with who made and who decided it.
    let (_, h) = anonymous(&bob, &format!("/api/catalog/{id}/history")).await;
    let kinds: Vec<(&str, &str, &str)> = h["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .map(|c| {
            (
                c["kind"].as_str().unwrap_or(""),
                c["author"]["name"].as_str().unwrap_or(""),
                c["decided_by"]["name"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [("correct", "bob", "alice"), ("add", "bob", "alice")]
    );
    // An admin's own addition is listed at once; a rejected one is not.
    let (s, b) = alice
        .post(
            "/api/catalog",
            json!({"name_en": "Go", "min_players": 2, "max_players": 2}),
        )
        .await;
    assert_eq!((s, &b["game"]["status"]), (201, &json!("approved")));
    let (_, spam) = bob.post("/api/catalog", json!({"name_en": "Spam"})).await;
    let spam_change = spam["change"]["id"].as_i64().expect("id");
    let (s, _) = alice
        .post(
            &format!("/api/catalog/changes/{spam_change}/reject"),
            json!({}),
        )
        .await;
    assert_eq!(s, 200);
    let (_, b) = anonymous(&bob, "/api/catalog?q=spam").await;
    assert_eq!(b["total"], 0);
    server.shutdown().await;
}

/// A small BGG export: names, statuses, best player counts and times.
const BGG: &str = "objectname,objectid,rating,numplays,own,prevowned,want,wanttoplay,wishlist,wishlistpriority,comment,minplayers,maxplayers,playingtime,yearpublished,bggbestplayers,bggrecagerange,originalname
Catan,13,7.5,3,1,0,0,0,0,,\"<script>alert(1)</script> classic\",3,4,120,1995,4,10+,
Hanabi,98778,8,5,1,0,0,0,0,,,2,5,25,2010,\"3,4\",8+,
Love Letter,129622,N/A,0,0,0,0,1,1,2,,2,4,20,2012,4,10+,ラブレター
Azul,230802,9,2,1,0,0,0,0,,,2,4,45,2017,2,8+,
";

async fn importing_a_bgg_export_twice_changes_nothing_the_second_time(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let _admin = register(server.addr, "admin").await;
    let bob = register(server.addr, "bob").await;
    let (s, r) = import(&bob, BGG).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["rows"], 4);
    assert_eq!(r["games_added"].as_array().map(Vec::len), Some(4));
    assert_eq!(r["entries_added"], 4);
    let before = shelf_snapshot(&env).await;
    let (s, r) = import(&bob, BGG).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(
        (
            &r["games_added"],
            &r["entries_added"],
            &r["entries_updated"],
            &r["entries_unchanged"]
        ),
        (&json!([]), &json!(0), &json!(0), &json!(4))
    );
    assert_eq!(
        shelf_snapshot(&env).await,
        before,
        "a second import changes nothing"
    );
    // The games are on bob's shelf (pending approval in the catalog), the comment as
    // written (escaping is the page's job), the Japanese original name kept. The
    // shelf's list shows games lean (no BoardGameGeek id, no catalog status): the
    // export has them whole.
    let (_, shelf) = bob.get("/api/collections/me?sort=name_ja").await;
    assert_eq!(shelf["total"], 4);
    let listed = &shelf["entries"][0]["game"];
    assert!(listed["name_en"].is_string() && listed["best_players"].is_array());
    for left_out in ["bgg_id", "status", "designers", "mechanics", "links"] {
        assert!(listed.get(left_out).is_none(), "{left_out} in {listed}");
    }
    let (_, export) = bob.get("/api/collections/me/export").await;
    let entries = export["collection"].as_array().expect("entries");
    assert_eq!(entries.len(), 4);
    let catan = entries
        .iter()
        .find(|e| e["game"]["bgg_id"] == 13)
        .expect("catan");
    assert_eq!(catan["comment"], "<script>alert(1)</script> classic");
    assert_eq!(catan["rating"], 7.5);
    assert_eq!(catan["played"], true);
    assert_eq!(catan["game"]["status"], "pending");
    let letter = entries
        .iter()
        .find(|e| e["game"]["bgg_id"] == 129622)
        .expect("love letter");
    assert_eq!(letter["game"]["name_ja"], "ラブレター");
    assert_eq!(
        (&letter["wishlist"], &letter["wishlist_priority"]),
        (&json!(true), &json!(2))
    );
    // Another person importing the same game matches it by its BGG id.
    let carol = register(server.addr, "carol").await;
    let (_, r) = import(
        &carol,
        "objectname,objectid,own\nCatan (another name),13,1\n",
    )
    .await;
    assert_eq!(
        (&r["games_added"], &r["entries_added"]),
        (&json!([]), &json!(1)),
        "{r}"
    );
    server.shutdown().await;
}

async fn a_malformed_csv_is_refused_naming_its_line_and_changes_nothing(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let bob = register(server.addr, "bob").await;
    let (s, _) = import(&bob, BGG).await;
    assert_eq!(s, 200);
    let before = shelf_snapshot(&env).await;
    let head = "objectname,objectid,rating,own\n";
    let mut shift_jis = head.as_bytes().to_vec();
    shift_jis.extend_from_slice(b"Catan,13,,1\n");
    shift_jis.extend_from_slice(&[0x83, 0x4a, 0x83, 0x5e, 0x83, 0x93]);
    shift_jis.extend_from_slice(b",14,,1\n");
    let mut many = String::from(head);
    for k in 1..=10_001 {
        many.push_str(&format!("G{k},{k},,1\n"));
    }
    let cases: Vec<(Vec<u8>, &str, &str)> = vec![
        (b"name,id\nCatan,13\n".to_vec(), "invalid_csv", "line 1"),
        (shift_jis, "invalid_encoding", "line 3"),
        (
            format!("{head}Catan,13,7,1\nGo,188,11,1\n").into_bytes(),
            "invalid_csv",
            "line 3: rating",
        ),
        (
            format!("{head}Catan,13,7,1\nGo,188,x,1\n").into_bytes(),
            "invalid_csv",
            "line 3: rating",
        ),
        (
            format!("{head}Catan,13,7,1\nNew game,999,7,1\nCatan,13,7,1\n").into_bytes(),
            "invalid_csv",
            "line 4",
        ),
        (
            format!("{head}Catan,13,7\n").into_bytes(),
            "invalid_csv",
            "line 2",
        ),
        (many.into_bytes(), "invalid_csv", "line 10002"),
        (b"{}".to_vec(), "invalid_csv", "line 1"),
        (Vec::new(), "invalid_csv", "line 1"),
    ];
    for (body, code, line) in cases {
        let (s, b) = import(&bob, body).await;
        assert_eq!((s, &b["error"]["code"]), (400, &json!(code)), "{b}");
        let message = b["error"]["message"].as_str().unwrap_or("");
        assert!(message.starts_with(line), "{message:?} should name {line}");
    }
    // Past the body limit: refused, and the refusal reaches a client that sends the
    // whole file before it reads the answer (as a browser's upload does). Twice the
    // limit: more than loopback's socket buffers take, so a server that stopped reading
    // at the limit fails the client's writes every time, not now and then.
    let (s, b) = send_whole_then_read(&bob, &vec![b'a'; 16 * 1024 * 1024]).await;
    assert_eq!((s, &b["error"]["code"]), (413, &json!("payload_too_large")));
    assert_eq!(shelf_snapshot(&env).await, before, "nothing half-imported");
    server.shutdown().await;
}

async fn a_shelf_sorts_and_filters_by_status_best_with_time_and_rating(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let bob = register(server.addr, "bob").await;
    import(&bob, BGG).await;
    let (s, e) = bob
        .put(
            "/api/collections/me/ghost-at-home",
            json!({"favourite": true, "played": true, "rating": 9.5, "comment": "猫"}),
        )
        .await;
    assert_eq!(s, 200, "{e}");
    assert_eq!(e["game"]["slug"], "ghost-at-home");
    let list = |q: &'static str| {
        let bob = &bob;
        async move {
            let (s, b) = anonymous(bob, &format!("/api/collections/bob?{q}")).await;
            assert_eq!(s, 200, "{q}: {b}");
            b["entries"]
                .as_array()
                .expect("entries")
                .iter()
                .map(|e| {
                    let g = &e["game"];
                    g["name_en"].as_str().unwrap_or("").to_string()
                })
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(list("best=4").await, ["Catan", "Hanabi", "Love Letter"]);
    assert_eq!(
        list("best=4&max_minutes=30").await,
        ["Hanabi", "Love Letter"]
    );
    assert_eq!(list("players=5").await, ["Hanabi"]);
    assert_eq!(list("status=favourite").await, ["Ghost at Home"]);
    assert_eq!(list("status=wishlist").await, ["Love Letter"]);
    assert_eq!(
        list("status=own&sort=rating&order=desc").await,
        ["Azul", "Hanabi", "Catan"]
    );
    assert_eq!(list("min_rating=8.5").await, ["Azul", "Ghost at Home"]);
    assert_eq!(
        list("sort=year&order=desc&limit=2").await,
        ["Ghost at Home", "Azul"]
    );
    assert_eq!(list("q=letter").await, ["Love Letter"]);
    assert_eq!(list("q=ラブ").await, ["Love Letter"]);
    // By reading: Latin names (no Japanese name) first, then kana in 五十音順.
    assert_eq!(
        list("sort=name_ja").await,
        ["Azul", "Catan", "Hanabi", "Ghost at Home", "Love Letter"]
    );
    let (s, b) = anonymous(&bob, "/api/collections/bob?min_rating=11").await;
    assert_eq!(
        (s, &b["error"]["code"]),
        (200, &Value::Null),
        "clamped: {b}"
    );
    let (s, b) = anonymous(&bob, "/api/collections/bob?best=x").await;
    assert_eq!((s, &b["error"]["code"]), (400, &json!("malformed_query")));
    // Entries are checked: a bad one changes nothing.
    let before = shelf_snapshot(&env).await;
    for bad in [
        json!({"rating": 0}),
        json!({"rating": 10.5}),
        json!({"wishlist_priority": 3}),
        json!({"wishlist": true, "wishlist_priority": 6}),
        json!({"own": true, "colour": "red"}),
        json!({"comment": "x".repeat(5000)}),
    ] {
        let (s, b) = bob
            .put("/api/collections/me/secret-moon", bad.clone())
            .await;
        assert_eq!(s, 400, "{bad}: {b}");
    }
    let (s, _) = bob
        .put("/api/collections/me/no-such-game", json!({"own": true}))
        .await;
    assert_eq!(s, 404);
    assert_eq!(shelf_snapshot(&env).await, before);
    let (s, _) = bob.delete("/api/collections/me/ghost-at-home").await;
    assert_eq!(s, 200);
    let (s, b) = bob.delete("/api/collections/me/ghost-at-home").await;
    assert_eq!((s, &b["error"]["code"]), (404, &json!("not_on_shelf")));
    // Everyone's counts on the game page.
    let (_, g) = anonymous(&bob, "/api/catalog/ghost-at-home").await;
    assert_eq!(g["counts"]["favourite"], 0);
    server.shutdown().await;
}

async fn a_private_shelf_answers_like_a_missing_one(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let bob = register(server.addr, "bob").await;
    let carol = register(server.addr, "carol").await;
    let guest = Client::guest(server.addr).await;
    bob.put("/api/collections/me/secret-moon", json!({"own": true}))
        .await;
    let missing = anonymous(&bob, "/api/collections/nobody").await;
    assert_eq!(missing.0, 404);
    assert_eq!(anonymous(&bob, "/api/collections/bob").await.0, 200);
    let (s, _) = bob
        .put("/api/collections/me", json!({"visibility": "signed_in"}))
        .await;
    assert_eq!(s, 200);
    assert_eq!(anonymous(&bob, "/api/collections/bob").await.0, 404);
    assert_eq!(guest.get("/api/collections/bob").await.0, 404);
    assert_eq!(carol.get("/api/collections/bob").await.0, 200);
    bob.put("/api/collections/me", json!({"visibility": "private"}))
        .await;
    let (s, b) = carol.get("/api/collections/bob").await;
    assert_eq!(s, 404);
    assert_eq!(b["error"]["code"], missing.1["error"]["code"]);
    assert_eq!(
        carol.get(&format!("/api/plays?user={}", bob.id())).await.0,
        404
    );
    let (s, own) = bob.get("/api/collections/bob").await;
    assert_eq!((s, &own["visibility"]), (200, &json!("private")));
    let (s, b) = bob
        .put("/api/collections/me", json!({"visibility": "friends"}))
        .await;
    assert_eq!((s, &b["error"]["code"]), (400, &json!("malformed_json")));
    server.shutdown().await;
}

async fn a_finished_match_is_in_the_plays_of_its_registered_seats(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let alice = register(server.addr, "alice").await;
    let guest = Client::guest(server.addr).await;
    let table = setup_table(&alice, &[&guest], 4, 11).await;
    let a = tokio::spawn(play_seat(alice.with_base(server.addr), table, None));
    let g = tokio::spawn(play_seat(guest.with_base(server.addr), table, None));
    a.await.expect("alice plays");
    g.await.expect("the guest plays");
    let (s, h) = alice.get("/api/plays").await;
    assert_eq!(s, 200, "{h}");
    let plays = h["plays"].as_array().expect("plays");
    assert_eq!(plays.len(), 1, "{h}");
    let p = &plays[0];
    assert_eq!(p["game"]["slug"], "secret-moon");
    assert_eq!(p["table_id"], table);
    assert_eq!(p["replay"], format!("/replay/{table}"));
    assert_eq!(p["players"].as_array().map(Vec::len), Some(4));
    assert_eq!(p["players"][0]["user_id"], alice.id());
    assert!(
        p["players"][1]["user_id"].is_null(),
        "a guest is named, not linked"
    );
    let won = p["players"][0]["winner"] == true;
    assert_eq!(h["stats"][0]["plays"], 1);
    assert_eq!(h["stats"][0]["wins"], i64::from(won));
    assert_eq!(h["by_month"][0]["plays"], 1);
    // The guest has no history; the game page shows the play.
    let (s, _) = anonymous(&alice, &format!("/api/plays?user={}", guest.id())).await;
    assert_eq!(s, 404);
    let (_, page) = anonymous(&alice, "/api/catalog/secret-moon").await;
    assert_eq!(page["recent_plays"][0]["table_id"], table);
    // A restart records nothing twice.
    server.shutdown().await;
    let server = env.start().await;
    let (_, h) = alice.with_base(server.addr).get("/api/plays").await;
    assert_eq!(h["plays"].as_array().map(Vec::len), Some(1));
    server.shutdown().await;
}

async fn a_play_is_logged_by_hand_with_accounts_and_names(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let alice = register(server.addr, "alice").await;
    let bob = register(server.addr, "bob").await;
    let play = json!({"game": "ghost-for-sale", "date": "2026-11-20", "minutes": 25,
        "comment": "<b>close</b>",
        "players": [{"user": "bob", "score": 30, "winner": true}, {"name": "母", "score": 12},
                    {"user": "ALICE", "score": 12}]});
    let before = shelf_snapshot(&env).await;
    for (bad, code) in [
        (
            json!({"game": "ghost-for-sale", "date": "2026-02-30", "players": [{"name": "x"}]}),
            "invalid_field",
        ),
        (
            json!({"game": "ghost-for-sale", "date": "2026-02-03", "players": []}),
            "invalid_field",
        ),
        (
            json!({"game": "ghost-for-sale", "date": "2026-02-03", "players": [{"score": 1}]}),
            "invalid_field",
        ),
        (
            json!({"game": "ghost-for-sale", "date": "2026-02-03", "players": [{"user": "nobody"}]}),
            "unknown_user",
        ),
        (
            json!({"game": "chess", "date": "2026-02-03", "players": [{"name": "x"}]}),
            "unknown_game",
        ),
    ] {
        let (s, b) = bob.post("/api/plays", bad.clone()).await;
        assert!(s == 400 || s == 404, "{bad}: {s}");
        assert_eq!(b["error"]["code"], code, "{bad}");
    }
    assert_eq!(shelf_snapshot(&env).await, before);
    let (s, p) = bob.post("/api/plays", play).await;
    assert_eq!(s, 201, "{p}");
    assert_eq!(p["players"][0]["rank"], 1);
    assert_eq!(p["players"][1]["rank"], 2);
    assert_eq!(p["players"][2]["user_id"], alice.id());
    assert_eq!(p["players"][2]["name"], "alice");
    assert_eq!(p["comment"], "<b>close</b>");
    let (_, h) = anonymous(&bob, "/api/plays?user=bob&game=ghost-for-sale").await;
    assert_eq!(h["stats"][0]["wins"], 1);
    assert_eq!(h["stats"][0]["last_played"], "2026-11-20");
    let (s, b) = anonymous(&bob, "/api/plays").await;
    assert_eq!((s, &b["error"]["code"]), (400, &json!("user_required")));
    server.shutdown().await;
}

/// A play logged by hand is its logger's to delete; the play of a takuge match is the
/// match's record and stays; another person's play, or none, is `unknown_play`.
async fn only_ones_own_manual_play_is_deleted(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let alice = register(server.addr, "alice").await;
    let bob = register(server.addr, "bob").await;
    let guest = Client::guest(server.addr).await;
    let play = json!({"game": "ghost-for-sale", "date": "2026-11-20",
        "players": [{"user": "alice"}, {"name": "母"}]});
    let (s, p) = bob.post("/api/plays", play).await;
    assert_eq!(s, 201, "{p}");
    let id = p["id"].as_i64().expect("id");
    // A match's play, in alice's history.
    let table = setup_table(&alice, &[&guest], 4, 11).await;
    let a = tokio::spawn(play_seat(alice.with_base(server.addr), table, None));
    let g = tokio::spawn(play_seat(guest.with_base(server.addr), table, None));
    a.await.expect("alice plays");
    g.await.expect("the guest plays");
    let (_, h) = alice.get("/api/plays").await;
    let recorded = h["plays"][0]["id"].as_i64().expect("the match's play");
    let before = shelf_snapshot(&env).await;
    for (who, path, status, code) in [
        (&alice, format!("/api/plays/{id}"), 404, "unknown_play"),
        (&bob, "/api/plays/999999".to_string(), 404, "unknown_play"),
        (&bob, "/api/plays/x".to_string(), 400, "malformed_path"),
        (&guest, format!("/api/plays/{id}"), 403, "guest"),
        (
            &alice,
            format!("/api/plays/{recorded}"),
            409,
            "recorded_play",
        ),
    ] {
        let (s, b) = who.delete(&path).await;
        assert_eq!((s, &b["error"]["code"]), (status, &json!(code)), "{path}");
    }
    assert_eq!(
        shelf_snapshot(&env).await,
        before,
        "a refused deletion changes nothing"
    );
    let (s, _) = bob.delete(&format!("/api/plays/{id}")).await;
    assert_eq!(s, 204);
    let (_, h) = bob.get("/api/plays").await;
    assert_eq!(h["plays"].as_array().map(Vec::len), Some(0), "{h}");
    assert_eq!(h["stats"].as_array().map(Vec::len), Some(0), "{h}");
    let (s, _) = bob.delete(&format!("/api/plays/{id}")).await;
    assert_eq!(s, 404, "deleted once");
    server.shutdown().await;
}

async fn the_exported_collection_reads_back_as_an_import(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let bob = register(server.addr, "bob").await;
    import(&bob, BGG).await;
    let (_, shelf) = bob.get("/api/collections/me?q=catan").await;
    let catan = shelf["entries"][0]["game"]["id"].as_i64().expect("catan");
    let (s, b) = bob
        .post(
            "/api/plays",
            json!({"game": catan.to_string(), "date": "2026-01-02", "players": [{"name": "bob"}]}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    let (s, json_export) = bob.get("/api/collections/me/export").await;
    assert_eq!(s, 200);
    assert_eq!(json_export["collection"].as_array().map(Vec::len), Some(4));
    let res = bob
        .http
        .get(format!("{}/api/collections/me/export?format=csv", bob.base))
        .bearer_auth(&bob.token)
        .send()
        .await
        .expect("export");
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap_or("")
        .starts_with("text/csv"));
    let csv = res.bytes().await.expect("csv");
    let before = shelf_snapshot(&env).await;
    let (s, r) = import(&bob, csv.to_vec()).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["entries_unchanged"], 4, "{r}");
    assert_eq!(shelf_snapshot(&env).await, before);
    let (s, plays) = bob
        .get("/api/collections/me/export?format=csv&what=plays")
        .await;
    assert_eq!(s, 200);
    let text = plays.as_str().unwrap_or("");
    assert!(text.starts_with("date,game,"), "{text}");
    assert!(text.contains("2026-01-02,Catan,13,"), "{text}");
    server.shutdown().await;
}

async fn takuge_admin_grant_makes_another_account_an_admin(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let _alice = register(server.addr, "alice").await;
    let bob = register(server.addr, "bob").await;
    let (_, added) = bob.post("/api/catalog", json!({"name_en": "Go"})).await;
    let change = added["change"]["id"].as_i64().expect("change");
    let approve = format!("/api/catalog/changes/{change}/approve");
    assert_eq!(bob.post(&approve, json!({})).await.0, 403);
    // With SQLite the server holds the file alone: the command runs while it is stopped.
    server.shutdown().await;
    let granted = takuge_server::shelf::admin::grant(&env.url, "BOB").await;
    assert_eq!(granted, Ok("bob".to_string()));
    let unknown = takuge_server::shelf::admin::grant(&env.url, "nobody").await;
    assert!(unknown.is_err_and(|e| e.contains("nobody")));
    let server = env.start().await;
    let bob = bob.with_base(server.addr);
    let (s, b) = bob.post(&approve, json!({})).await;
    assert_eq!(s, 200, "{b}");
    server.shutdown().await;
}

/// Not a timed test: how long a 5,000-game BGG export takes to import, printed
/// (`cargo test -p takuge-server --test suite -- --ignored --nocapture five_thousand`).
async fn five_thousand_games_import(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let bob = register(server.addr, "bob").await;
    let mut csv = String::from(BGG.lines().next().unwrap_or_default());
    csv.push('\n');
    for k in 1..=5000 {
        csv.push_str(&format!(
            "Game {k},{},{}.5,{},1,0,0,{},0,,\"a comment, {k}\",2,{},{},{},{},10+,ゲーム{k}\n",
            100_000 + k,
            1 + k % 9,
            k % 4,
            k % 2,
            2 + k % 5,
            15 * (1 + k % 8),
            1990 + k % 35,
            2 + k % 4,
        ));
    }
    for round in ["first", "again"] {
        let started = std::time::Instant::now();
        let (s, r) = import(&bob, csv.clone()).await;
        assert_eq!(s, 200, "{r}");
        println!(
            "{backend:?} 5,000-game import ({round}): {:?}, {} games added, {} unchanged",
            started.elapsed(),
            r["games_added"].as_array().map_or(0, Vec::len),
            r["entries_unchanged"]
        );
    }
    let started = std::time::Instant::now();
    let (s, b) = bob
        .get("/api/collections/me?best=4&max_minutes=60&sort=name_ja&limit=2000")
        .await;
    assert_eq!(s, 200);
    println!(
        "{backend:?} shelf of 5,000 filtered to {} and sorted: {:?}",
        b["total"],
        started.elapsed()
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement, not a check: run it with --ignored --nocapture"]
async fn five_thousand_games_import_sqlite() {
    five_thousand_games_import(Backend::Sqlite).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement, not a check: run it with --ignored --nocapture"]
async fn five_thousand_games_import_postgres() {
    five_thousand_games_import(Backend::Postgres).await
}

on_both_databases!(
    takuge_admin_grant_makes_another_account_an_admin,
    the_five_games_are_in_the_catalog_from_the_first_start,
    the_first_account_approves_what_others_add_and_correct,
    importing_a_bgg_export_twice_changes_nothing_the_second_time,
    a_malformed_csv_is_refused_naming_its_line_and_changes_nothing,
    a_shelf_sorts_and_filters_by_status_best_with_time_and_rating,
    a_private_shelf_answers_like_a_missing_one,
    a_finished_match_is_in_the_plays_of_its_registered_seats,
    a_play_is_logged_by_hand_with_accounts_and_names,
    only_ones_own_manual_play_is_deleted,
    the_exported_collection_reads_back_as_an_import,
);

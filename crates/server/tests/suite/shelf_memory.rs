//! The shelf answered from memory (issue 17's 2,000-game page): its sorts and filters
//! give what the database's own `ORDER BY` and `WHERE` gave, and a write — through
//! this server or another one on the same database — is in the very next read.

use crate::common::*;
use serde_json::{json, Value};
use takuge_protocol::{Order, ShelfQuery, SortBy, Status};
use takuge_server::shelf::Sql;
use takuge_server::store::shelf::catalog::{game_filters, order_by, page};

/// Two servers on one database: on SQLite two without a name, on PostgreSQL two named
/// nodes (a node without a name is the only one there: docs/ARCHITECTURE.md "Several
/// nodes").
async fn two_servers(env: &Env) -> (takuge_server::Server, takuge_server::Server) {
    let start = |name: &str| {
        takuge_server::Server::start(match env.backend {
            Backend::Postgres => node_config(env, name),
            Backend::Sqlite => config(env.url.clone()),
        })
    };
    let one = start("one").await.expect("server one starts");
    let two = start("two").await.expect("server two starts");
    (one, two)
}

async fn shelf(c: &Client, owner: &str, query: &str) -> Value {
    let (s, b) = c.get(&format!("/api/collections/{owner}?{query}")).await;
    assert_eq!(s, 200, "{query}: {b}");
    b
}

fn ids(shelf: &Value) -> Vec<i64> {
    shelf["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| e["game"]["id"].as_i64().expect("an id"))
        .collect()
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
    assert_eq!(
        res.status(),
        200,
        "{}",
        res.text().await.unwrap_or_default()
    );
}

const HEADER: &str = "objectname,objectid,rating,numplays,own,prevowned,want,wanttoplay,wishlist,wishlistpriority,comment,minplayers,maxplayers,playingtime,yearpublished,bggbestplayers,bggrecagerange,originalname";

/// 90 games with every kind of tie and gap: unrated, no year, no playing time, the
/// same English name twice, Japanese names in katakana and hiragana or none.
fn varied_csv() -> String {
    let blank = |k: u32, every: u32, v: String| {
        if k.is_multiple_of(every) {
            String::new()
        } else {
            v
        }
    };
    let mut csv = format!("{HEADER}\n");
    for k in 1..=90u32 {
        let name = if k.is_multiple_of(15) {
            "Same Name".to_string()
        } else {
            format!("Game {}", k % 40)
        };
        let ja = match k % 4 {
            0 => String::new(),
            1 => format!("ゲーム{}", k % 7),
            2 => format!("げーむ{}", k % 9),
            _ => format!("カタン{}", k % 5),
        };
        csv.push_str(&format!(
            "{name},{},{},0,{},{},0,{},{},{},,{},{},{},{},{},{}+,{ja}\n",
            900_000 + k,
            blank(k, 5, format!("{}.5", 1 + k % 9)),
            k % 2,
            u32::from(k.is_multiple_of(7)),
            k % 3 % 2,
            u32::from(k.is_multiple_of(11)),
            if k.is_multiple_of(11) {
                (1 + k % 5).to_string()
            } else {
                String::new()
            },
            blank(k, 13, (1 + k % 3).to_string()),
            blank(k, 13, (2 + k % 5).to_string()),
            blank(k, 6, (15 * (1 + k % 6)).to_string()),
            blank(k, 8, (1990 + k % 12).to_string()),
            2 + k % 4,
            6 + k % 8,
        ));
    }
    csv
}

/// The shelf's SQL before it was answered from memory: the oracle.
async fn by_the_database(pool: &sqlx::AnyPool, owner: i64, q: &ShelfQuery) -> Vec<i64> {
    let mut filter = Sql::new(" WHERE c.user_id = ");
    filter.int(owner);
    if let Some(s) = q.status {
        filter.push(&format!(" AND c.{} = 1", s.column()));
    }
    if let Some(r) = q.min_rating {
        filter
            .push(" AND c.rating >= ")
            .int(takuge_protocol::rating_tenths(r.clamp(1.0, 10.0)).expect("a rating"));
    }
    game_filters(&mut filter, q);
    let mut list = filter.clone();
    list.text = format!(
        "SELECT g.id FROM collections c JOIN catalog_games g ON g.id = c.game_id{}",
        filter.text
    );
    order_by(&mut list, q, "c.rating", "c.updated_at");
    page(&mut list, q);
    use sqlx::Row;
    list.query()
        .fetch_all(pool)
        .await
        .expect("the oracle's query")
        .iter()
        .map(|r| r.get::<i64, _>(0))
        .collect()
}

fn query_string(q: &ShelfQuery) -> String {
    let req = reqwest::Client::new()
        .get("http://localhost/")
        .query(q)
        .build()
        .expect("a query string");
    req.url().query().unwrap_or("").to_string()
}

async fn the_shelf_sorts_and_filters_as_the_database_did(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let bob = register(server.addr, "bob").await;
    import(&bob, varied_csv()).await;
    // Entries changed at different times, so `updated` has an order of its own.
    for (k, game) in ["secret-moon", "ghost-at-home"].into_iter().enumerate() {
        let (s, b) = bob
            .put(
                &format!("/api/collections/me/{game}"),
                json!({"played": true, "rating": 3 + k}),
            )
            .await;
        assert_eq!(s, 200, "{b}");
        tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    }
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&env.url).await.expect("open db");
    let sorts = [
        SortBy::NameEn,
        SortBy::NameJa,
        SortBy::Year,
        SortBy::Players,
        SortBy::Minutes,
        SortBy::Age,
        SortBy::Rating,
        SortBy::Updated,
    ];
    let filters = [
        ShelfQuery::default(),
        ShelfQuery {
            status: Some(Status::Own),
            ..Default::default()
        },
        ShelfQuery {
            status: Some(Status::Wishlist),
            ..Default::default()
        },
        ShelfQuery {
            min_rating: Some(5.0),
            ..Default::default()
        },
        ShelfQuery {
            players: Some(4),
            age: Some(10),
            ..Default::default()
        },
        ShelfQuery {
            best: Some(3),
            max_minutes: Some(60),
            ..Default::default()
        },
        ShelfQuery {
            year_from: Some(1995),
            year_to: Some(1999),
            ..Default::default()
        },
        ShelfQuery {
            q: Some("game 1".into()),
            ..Default::default()
        },
        ShelfQuery {
            q: Some("カタン".into()),
            ..Default::default()
        },
        ShelfQuery {
            q: Some("げーむ".into()),
            ..Default::default()
        },
        ShelfQuery {
            limit: Some(7),
            offset: Some(5),
            ..Default::default()
        },
        ShelfQuery {
            offset: Some(500),
            ..Default::default()
        },
    ];
    let mut checked = 0;
    for filter in &filters {
        for sort in sorts {
            for order in [Order::Asc, Order::Desc] {
                let q = ShelfQuery {
                    sort: Some(sort),
                    order: Some(order),
                    ..filter.clone()
                };
                let expected = by_the_database(&pool, bob.id(), &q).await;
                let answer = shelf(&bob, "bob", &query_string(&q)).await;
                assert_eq!(ids(&answer), expected, "{}", query_string(&q));
                checked += usize::from(!expected.is_empty());
            }
        }
    }
    assert!(checked > 150, "most queries find something: {checked}");
    pool.close().await;
    server.shutdown().await;
}

async fn a_write_is_in_the_next_read_on_this_node_and_another(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let (one, two) = two_servers(&env).await;
    let alice = register(one.addr, "alice").await;
    let on_two = alice.with_base(two.addr);
    let names = |shelf: Value| -> Vec<String> {
        shelf["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .map(|e| e["game"]["name_en"].as_str().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(
        names(shelf(&alice, "alice", "").await),
        Vec::<String>::new()
    );
    // A write on this node, then on the other: each read after it has it.
    let (s, b) = alice
        .put(
            "/api/collections/me/secret-moon",
            json!({"own": true, "comment": "one"}),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    let read = shelf(&alice, "alice", "").await;
    assert_eq!(read["entries"][0]["comment"], "one");
    let (s, _) = on_two
        .put(
            "/api/collections/me/secret-moon",
            json!({"own": true, "comment": "two"}),
        )
        .await;
    assert_eq!(s, 200);
    let read = shelf(&alice, "alice", "").await;
    assert_eq!(
        read["entries"][0]["comment"], "two",
        "the other node's write"
    );
    // An import on the other node.
    import(
        &on_two,
        format!("{HEADER}\nHanabi,98778,8,5,1,0,0,0,0,,,2,5,25,2010,\"3,4\",8+,\n"),
    )
    .await;
    assert_eq!(
        names(shelf(&alice, "alice", "").await),
        ["Hanabi", "Secret Moon"]
    );
    // A catalog correction (alice is the first account: an admin, applied at once).
    let id = shelf(&alice, "alice", "").await["entries"][0]["game"]["id"].clone();
    let (s, b) = on_two
        .post(
            &format!("/api/catalog/{id}/corrections"),
            json!({"name_en": "Hanabi (new)"}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    assert_eq!(
        names(shelf(&alice, "alice", "").await),
        ["Hanabi (new)", "Secret Moon"]
    );
    // Taken off on the other node.
    let (s, _) = on_two.delete("/api/collections/me/secret-moon").await;
    assert_eq!(s, 200);
    assert_eq!(names(shelf(&alice, "alice", "").await), ["Hanabi (new)"]);
    // Made private there: a stranger here gets the missing shelf's answer.
    let (s, _) = on_two
        .put("/api/collections/me", json!({"visibility": "private"}))
        .await;
    assert_eq!(s, 200);
    let stranger = Client::guest(one.addr).await;
    let (s, b) = stranger.get("/api/collections/alice").await;
    assert_eq!((s, &b["error"]["code"]), (404, &json!("unknown_user")));
    one.shutdown().await;
    two.shutdown().await;
}

/// A counter of `/metrics` on the server at `base`.
async fn counter(c: &Client, base: &str, name: &str) -> u64 {
    let text = c
        .http
        .get(format!("{base}/metrics"))
        .send()
        .await
        .expect("metrics")
        .text()
        .await
        .expect("metrics text");
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
        .unwrap_or_else(|| panic!("{name} in {text}"))
}

async fn a_write_through_this_server_updates_its_copy_and_only_another_nodes_write_rereads(
    backend: Backend,
) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let (one, two) = two_servers(&env).await;
    let alice = register(one.addr, "alice").await;
    let on_two = alice.with_base(two.addr);
    let base = alice.base.clone();
    let reads = || counter(&alice, &base, "takuge_shelf_reads_total");
    let comments = |shelf: Value| -> Vec<String> {
        (shelf["entries"].as_array().expect("entries").iter())
            .map(|e| e["comment"].as_str().unwrap_or("").to_string())
            .collect()
    };
    assert!(comments(shelf(&alice, "alice", "").await).is_empty());
    let first = reads().await;
    // Writes here: each next read has it, from the copy updated in place.
    for (i, comment) in ["one", "again"].into_iter().enumerate() {
        let (s, b) = alice
            .put(
                "/api/collections/me/secret-moon",
                json!({"own": true, "comment": comment}),
            )
            .await;
        assert_eq!(s, 200, "{b}");
        assert_eq!(comments(shelf(&alice, "alice", "").await), [comment]);
        assert_eq!(reads().await, first, "write {i} here: no reread");
    }
    let (s, _) = alice
        .put("/api/collections/me/bitoku", json!({"played": true}))
        .await;
    assert_eq!(s, 200);
    let (s, _) = alice.delete("/api/collections/me/secret-moon").await;
    assert_eq!(s, 200);
    let names = shelf(&alice, "alice", "").await;
    assert_eq!(names["total"], 1);
    assert_eq!(names["entries"][0]["played"], true);
    assert_eq!(
        reads().await,
        first,
        "an entry added and one taken off here"
    );
    let applied = counter(&alice, &base, "takuge_shelf_writes_applied_total").await;
    assert_eq!(applied, 4);
    // A write on the other node: the copy here is behind, read again once.
    let (s, _) = on_two
        .put(
            "/api/collections/me/secret-moon",
            json!({"own": true, "comment": "two"}),
        )
        .await;
    assert_eq!(s, 200);
    let page = shelf(&alice, "alice", "sort=name_en").await;
    assert_eq!(comments(page), ["", "two"], "the other node's write");
    assert_eq!(reads().await, first + 1, "one reread");
    assert_eq!(
        comments(shelf(&alice, "alice", "sort=name_en").await),
        ["", "two"]
    );
    assert_eq!(reads().await, first + 1, "then the copy again");
    // And a write here after it is applied to the reread copy.
    let (s, _) = alice
        .put(
            "/api/collections/me/secret-moon",
            json!({"comment": "three"}),
        )
        .await;
    assert_eq!(s, 200);
    assert_eq!(
        comments(shelf(&alice, "alice", "sort=name_en").await),
        ["", "three"]
    );
    assert_eq!(reads().await, first + 1);
    one.shutdown().await;
    two.shutdown().await;
}

/// The status and `ETag` of a shelf read, sending `If-None-Match: tag` when given.
async fn conditional(c: &Client, path: &str, tag: Option<&str>) -> (u16, String) {
    let mut req = c
        .http
        .get(format!("{}{path}", c.base))
        .bearer_auth(&c.token);
    if let Some(t) = tag {
        req = req.header("if-none-match", t);
    }
    let res = req.send().await.expect("request");
    let tag = res
        .headers()
        .get("etag")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    (res.status().as_u16(), tag)
}

async fn the_etag_changes_with_the_shelf_and_answers_304_until_then(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let alice = register(server.addr, "alice").await;
    let bob = register(server.addr, "bob").await;
    let path = "/api/collections/bob?sort=name_en&limit=2000";
    let (s, first) = conditional(&alice, path, None).await;
    assert_eq!(s, 200);
    assert!(first.starts_with('"') && first.len() > 2, "{first}");
    assert_eq!(
        conditional(&alice, path, Some(&first)).await,
        (304, first.clone())
    );
    assert_eq!(conditional(&alice, path, Some("\"other\", *")).await.0, 304);
    let mut seen = vec![first.clone()];
    let mut changed = |tag: String| {
        assert!(
            !seen.contains(&tag),
            "a new tag after each change: {tag} in {seen:?}"
        );
        seen.push(tag);
    };
    // An entry added, then changed, then removed; the visibility; a game's name.
    let (s, _) = bob
        .put("/api/collections/me/secret-moon", json!({"own": true}))
        .await;
    assert_eq!(s, 200);
    let (s, tag) = conditional(&alice, path, Some(&first)).await;
    assert_eq!(s, 200, "changed: the whole answer");
    changed(tag.clone());
    let (s, _) = bob
        .put("/api/collections/me/secret-moon", json!({"rating": 7}))
        .await;
    assert_eq!(s, 200);
    let (s, tag) = conditional(&alice, path, Some(&tag)).await;
    assert_eq!(s, 200);
    changed(tag.clone());
    let (s, b) = alice
        .post(
            "/api/catalog/secret-moon/corrections",
            json!({"name_ja": "秘密の月"}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    let (s, tag) = conditional(&alice, path, Some(&tag)).await;
    assert_eq!(s, 200, "the game's name changed");
    changed(tag.clone());
    let (s, _) = bob
        .put("/api/collections/me", json!({"visibility": "signed_in"}))
        .await;
    assert_eq!(s, 200);
    let (s, tag) = conditional(&alice, path, Some(&tag)).await;
    assert_eq!(s, 200, "the visibility shown changed");
    changed(tag.clone());
    let (s, _) = bob.delete("/api/collections/me/secret-moon").await;
    assert_eq!(s, 200);
    let (s, tag) = conditional(&alice, path, Some(&tag)).await;
    assert_eq!(s, 200);
    changed(tag.clone());
    assert_eq!(conditional(&alice, path, Some(&tag)).await.0, 304);
    // A refused write changes nothing, so the tag stands.
    let (s, _) = bob
        .put("/api/collections/me/secret-moon", json!({"rating": 11}))
        .await;
    assert_eq!(s, 400);
    assert_eq!(conditional(&alice, path, Some(&tag)).await.0, 304);
    // Not shown to a guest: no tag given away, the missing shelf's answer.
    let guest = Client::guest(server.addr).await;
    assert_eq!(
        conditional(&guest, path, Some(&tag)).await,
        (404, String::new())
    );
    server.shutdown().await;
}

on_both_databases!(
    the_shelf_sorts_and_filters_as_the_database_did,
    a_write_is_in_the_next_read_on_this_node_and_another,
    a_write_through_this_server_updates_its_copy_and_only_another_nodes_write_rereads,
    the_etag_changes_with_the_shelf_and_answers_304_until_then,
);

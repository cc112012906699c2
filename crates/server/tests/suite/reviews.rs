//! Reviews (レビュー) and rule notes (ルール解説) of catalog games (issue 17), on a real
//! server against SQLite and PostgreSQL: writing, editing and deleting one's own, the
//! two orders with paging, Nice! (ナイス!), reports and the admin's queue, and bad
//! input that changes nothing.

use crate::common::*;
use serde_json::{json, Value};

/// Everything reviews keep, to check that a refused request changed nothing.
async fn snapshot_reviews(env: &Env) -> Vec<String> {
    use sqlx::Row;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&env.url).await.expect("open db");
    let mut out = Vec::new();
    for q in [
        "SELECT CAST(id AS TEXT) || ':' || kind || ':' || title || ':' || body || ':' || CAST(likes AS TEXT) || ':' || status || ':' || CAST(updated_at AS TEXT) FROM reviews ORDER BY id",
        "SELECT CAST(review_id AS TEXT) || ':' || CAST(user_id AS TEXT) FROM review_likes ORDER BY review_id, user_id",
        "SELECT CAST(id AS TEXT) || ':' || reason || ':' || status FROM review_reports ORDER BY id",
        "SELECT CAST(id AS TEXT) || ':' || kind || ':' || CAST(author AS TEXT) FROM review_changes ORDER BY id",
    ] {
        for r in sqlx::query(q).fetch_all(&pool).await.expect("query") {
            out.push(r.get::<String, _>(0));
        }
    }
    pool.close().await;
    out
}

async fn write(c: &Client, game: &str, kind: &str, title: &str, text: &str) -> i64 {
    let (s, r) = c
        .post(
            "/api/reviews",
            json!({"game": game, "kind": kind, "title": title, "text": text}),
        )
        .await;
    assert_eq!(s, 201, "{r}");
    r["id"].as_i64().expect("id")
}

fn ids(page: &Value) -> Vec<i64> {
    page["reviews"]
        .as_array()
        .expect("reviews")
        .iter()
        .map(|r| r["id"].as_i64().unwrap_or(0))
        .collect()
}

async fn a_registered_account_writes_edits_and_deletes_only_its_own_review(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let alice = register(server.addr, "alice").await;
    let bob = register(server.addr, "bob").await;
    let guest = Client::guest(server.addr).await;
    let (s, b) = guest
        .post(
            "/api/reviews",
            json!({"game": "secret-moon", "text": "fun"}),
        )
        .await;
    assert_eq!((s, &b["error"]["code"]), (403, &json!("guest")));
    let (s, r) = bob
        .post(
            "/api/reviews",
            json!({"game": "secret-moon", "title": "月", "text": "短くて楽しい"}),
        )
        .await;
    assert_eq!(s, 201, "{r}");
    assert_eq!(r["kind"], "review", "the default kind");
    assert_eq!(r["author"]["name"], "bob");
    assert_eq!(r["game"]["slug"], "secret-moon");
    assert_eq!(
        (r["likes"].clone(), r["edited"].clone()),
        (json!(0), json!(false))
    );
    let id = r["id"].as_i64().expect("id");
    // Only the author edits or deletes it.
    let before = snapshot_reviews(&env).await;
    let (s, b) = alice
        .put(&format!("/api/reviews/{id}"), json!({"text": "mine now"}))
        .await;
    assert_eq!((s, &b["error"]["code"]), (403, &json!("not_author")));
    let (s, b) = alice.delete(&format!("/api/reviews/{id}")).await;
    assert_eq!((s, &b["error"]["code"]), (403, &json!("not_author")));
    assert_eq!(snapshot_reviews(&env).await, before);
    let (s, e) = bob
        .put(
            &format!("/api/reviews/{id}"),
            json!({"title": "月", "text": "短くて楽しい。4人がいい"}),
        )
        .await;
    assert_eq!(s, 200, "{e}");
    assert_eq!(e["text"], "短くて楽しい。4人がいい");
    assert_eq!(e["edited"], true);
    // The same text again records nothing.
    let before = snapshot_reviews(&env).await;
    let (s, _) = bob
        .put(
            &format!("/api/reviews/{id}"),
            json!({"title": "月", "text": "短くて楽しい。4人がいい"}),
        )
        .await;
    assert_eq!(s, 200);
    assert_eq!(snapshot_reviews(&env).await, before);
    let (_, page) = anonymous(&bob, "/api/reviews?game=secret-moon").await;
    assert_eq!(page["total"], 1, "{page}");
    let (s, _) = bob.delete(&format!("/api/reviews/{id}")).await;
    assert_eq!(s, 204);
    let (_, page) = anonymous(&bob, "/api/reviews?game=secret-moon").await;
    assert_eq!(page["total"], 0, "a deleted review leaves the list");
    assert_eq!(anonymous(&bob, &format!("/api/reviews/{id}")).await.0, 404);
    let (s, b) = bob.delete(&format!("/api/reviews/{id}")).await;
    assert_eq!((s, &b["error"]["code"]), (404, &json!("unknown_review")));
    // Every change is kept with who made it: alice is the first account, an admin.
    let (s, h) = alice.get(&format!("/api/reviews/{id}/history")).await;
    assert_eq!(s, 200, "{h}");
    let kinds: Vec<&str> = h["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .map(|c| c["kind"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(kinds, ["create", "edit", "delete"]);
    assert_eq!(h["changes"][1]["author"]["name"], "bob");
    assert_eq!(h["changes"][2]["text"], "短くて楽しい。4人がいい");
    server.shutdown().await;
}

async fn reviews_are_listed_newest_or_most_liked_a_page_at_a_time(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let alice = register(server.addr, "alice").await;
    let bob = register(server.addr, "bob").await;
    let carol = register(server.addr, "carol").await;
    let a = write(&alice, "bitoku", "review", "", "one").await;
    let b = write(&bob, "bitoku", "rules", "徳の数え方", "two").await;
    let c = write(&carol, "bitoku", "review", "", "three").await;
    write(&carol, "secret-moon", "review", "", "elsewhere").await;
    for (who, id) in [(&alice, b), (&carol, b), (&bob, a)] {
        let (s, n) = who
            .post(&format!("/api/reviews/{id}/nice"), json!({}))
            .await;
        assert_eq!(s, 200, "{n}");
    }
    let (_, newest) = anonymous(&alice, "/api/reviews?game=bitoku").await;
    assert_eq!(ids(&newest), [c, b, a]);
    assert_eq!(newest["total"], 3);
    let (_, liked) = anonymous(&alice, "/api/reviews?game=bitoku&order=liked").await;
    assert_eq!(ids(&liked), [b, a, c], "most Nice! first, then newest");
    assert_eq!(liked["reviews"][0]["likes"], 2);
    let (_, page2) = anonymous(
        &alice,
        "/api/reviews?game=bitoku&order=liked&limit=2&offset=2",
    )
    .await;
    assert_eq!((ids(&page2), page2["total"].clone()), (vec![c], json!(3)));
    let (_, rules) = anonymous(&alice, "/api/reviews?game=bitoku&kind=rules").await;
    assert_eq!((ids(&rules), rules["total"].clone()), (vec![b], json!(1)));
    // The caller's own Nice! shows.
    let (_, mine) = carol.get("/api/reviews?game=bitoku&order=liked").await;
    assert_eq!(mine["reviews"][0]["liked"], true);
    assert_eq!(mine["reviews"][1]["liked"], false);
    // By the takuge id or the catalog id alike.
    let gid = newest["reviews"][0]["game"]["id"]
        .as_i64()
        .expect("game id");
    let (_, by_id) = anonymous(&alice, &format!("/api/reviews?game={gid}")).await;
    assert_eq!(ids(&by_id), [c, b, a]);
    server.shutdown().await;
}

async fn a_nice_is_once_per_person_undoable_and_never_on_ones_own_review(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let alice = register(server.addr, "alice").await;
    let bob = register(server.addr, "bob").await;
    let guest = Client::guest(server.addr).await;
    let id = write(&alice, "art-heist", "review", "", "盗め!").await;
    let nice = format!("/api/reviews/{id}/nice");
    for _ in 0..2 {
        let (s, n) = bob.post(&nice, json!({})).await;
        assert_eq!(s, 200, "{n}");
        assert_eq!(
            n,
            json!({"review_id": id, "likes": 1, "liked": true}),
            "twice is once"
        );
    }
    let before = snapshot_reviews(&env).await;
    let (s, b) = alice.post(&nice, json!({})).await;
    assert_eq!((s, &b["error"]["code"]), (403, &json!("own_review")));
    let (s, b) = guest.post(&nice, json!({})).await;
    assert_eq!((s, &b["error"]["code"]), (403, &json!("guest")));
    let (s, b) = bob.post("/api/reviews/424242/nice", json!({})).await;
    assert_eq!((s, &b["error"]["code"]), (404, &json!("unknown_review")));
    assert_eq!(snapshot_reviews(&env).await, before);
    for _ in 0..2 {
        let (s, n) = bob.delete(&nice).await;
        assert_eq!(s, 200, "{n}");
        assert_eq!(
            n,
            json!({"review_id": id, "likes": 0, "liked": false}),
            "undone once"
        );
    }
    let (_, r) = bob.get(&format!("/api/reviews/{id}")).await;
    assert_eq!(
        (r["likes"].clone(), r["liked"].clone()),
        (json!(0), json!(false))
    );
    server.shutdown().await;
}

async fn bad_input_is_refused_with_a_json_error_and_changes_nothing(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let alice = register(server.addr, "alice").await;
    let id = write(&alice, "ghost-at-home", "rules", "", "夜は静かに").await;
    let before = snapshot_reviews(&env).await;
    let long = "あ".repeat(10_001);
    let long_title = "t".repeat(101);
    for (body, status, code) in [
        (
            json!({"game": "ghost-at-home", "text": ""}),
            400,
            "invalid_field",
        ),
        (
            json!({"game": "ghost-at-home", "text": " \n\t "}),
            400,
            "invalid_field",
        ),
        (
            json!({"game": "ghost-at-home", "text": long}),
            400,
            "invalid_field",
        ),
        (
            json!({"game": "ghost-at-home", "title": long_title, "text": "x"}),
            400,
            "invalid_field",
        ),
        (
            json!({"game": "ghost-at-home", "text": "a\u{7}b"}),
            400,
            "invalid_field",
        ),
        (
            json!({"game": "ghost-at-home", "kind": "essay", "text": "x"}),
            400,
            "malformed_json",
        ),
        (
            json!({"game": "ghost-at-home", "text": "x", "likes": 99}),
            400,
            "malformed_json",
        ),
        (json!({"game": "chess", "text": "x"}), 404, "unknown_game"),
    ] {
        let (s, b) = alice.post("/api/reviews", body.clone()).await;
        assert_eq!((s, &b["error"]["code"]), (status, &json!(code)), "{body}");
    }
    let path = format!("/api/reviews/{id}");
    let (s, b) = alice.put(&path, json!({"text": ""})).await;
    assert_eq!((s, &b["error"]["code"]), (400, &json!("invalid_field")));
    let (s, b) = alice.put("/api/reviews/999999", json!({"text": "x"})).await;
    assert_eq!((s, &b["error"]["code"]), (404, &json!("unknown_review")));
    let (s, b) = alice.put("/api/reviews/abc", json!({"text": "x"})).await;
    assert_eq!((s, &b["error"]["code"]), (400, &json!("malformed_path")));
    let (s, b) = alice.delete("/api/reviews/999999").await;
    assert_eq!((s, &b["error"]["code"]), (404, &json!("unknown_review")));
    let (s, b) = alice.get("/api/reviews/999999").await;
    assert_eq!((s, &b["error"]["code"]), (404, &json!("unknown_review")));
    let (s, b) = anonymous(&alice, "/api/reviews").await;
    assert_eq!((s, &b["error"]["code"]), (400, &json!("game_required")));
    let (s, b) = anonymous(&alice, "/api/reviews?game=secret-moon&order=best").await;
    assert_eq!((s, &b["error"]["code"]), (400, &json!("malformed_query")));
    let (s, b) = anonymous(&alice, "/api/reviews?game=nope").await;
    assert_eq!((s, &b["error"]["code"]), (404, &json!("unknown_game")));
    let (s, b) = alice
        .post("/api/reviews/999999/reports", json!({"reason": "spam"}))
        .await;
    assert_eq!((s, &b["error"]["code"]), (404, &json!("unknown_review")));
    assert_eq!(snapshot_reviews(&env).await, before);
    server.shutdown().await;
}

async fn html_in_a_review_is_stored_and_answered_as_given(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let alice = register(server.addr, "alice").await;
    let text = "<script>alert(1)</script> & <b>bold</b>\n二行目";
    let title = "<img src=x onerror=alert(1)>";
    let id = write(&alice, "secret-moon", "review", title, text).await;
    let (_, r) = anonymous(&alice, &format!("/api/reviews/{id}")).await;
    assert_eq!(
        (r["text"].as_str(), r["title"].as_str()),
        (Some(text), Some(title))
    );
    let (_, page) = anonymous(&alice, "/api/reviews?game=secret-moon").await;
    assert_eq!(page["reviews"][0]["text"], text);
    server.shutdown().await;
}

async fn a_reported_review_is_hidden_and_restored_by_an_admin_only(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let admin = register(server.addr, "alice").await;
    let bob = register(server.addr, "bob").await;
    let carol = register(server.addr, "carol").await;
    let id = write(&bob, "ghost-for-sale", "review", "", "buy my stuff at …").await;
    let reports = format!("/api/reviews/{id}/reports");
    let (s, b) = bob.post(&reports, json!({"reason": "mine"})).await;
    assert_eq!((s, &b["error"]["code"]), (403, &json!("own_review")));
    let (s, b) = carol.post(&reports, json!({"reason": ""})).await;
    assert_eq!((s, &b["error"]["code"]), (400, &json!("invalid_field")));
    let (s, r) = carol.post(&reports, json!({"reason": "<i>spam</i>"})).await;
    assert_eq!(s, 201, "{r}");
    assert_eq!(
        (r["status"].clone(), r["reason"].clone()),
        (json!("open"), json!("<i>spam</i>"))
    );
    let (s, b) = carol.post(&reports, json!({"reason": "again"})).await;
    assert_eq!((s, &b["error"]["code"]), (409, &json!("already_reported")));
    // Only an admin sees the queue and decides.
    let (s, b) = bob.get("/api/reviews/reports").await;
    assert_eq!((s, &b["error"]["code"]), (403, &json!("not_admin")));
    let (s, b) = carol
        .post(&format!("/api/reviews/{id}/hide"), json!({}))
        .await;
    assert_eq!((s, &b["error"]["code"]), (403, &json!("not_admin")));
    let (s, q) = admin.get("/api/reviews/reports").await;
    assert_eq!(s, 200, "{q}");
    assert_eq!(q["items"][0]["review"]["id"], id);
    assert_eq!(q["items"][0]["reports"][0]["reporter"]["name"], "carol");
    let (s, h) = admin
        .post(&format!("/api/reviews/{id}/hide"), json!({}))
        .await;
    assert_eq!(s, 200, "{h}");
    assert_eq!(h["status"], "hidden");
    let (s, b) = admin
        .post(&format!("/api/reviews/{id}/hide"), json!({}))
        .await;
    assert_eq!((s, &b["error"]["code"]), (409, &json!("nothing_to_decide")));
    // Hidden: out of the list, not shown to others, seen by its author; no Nice!.
    let (_, page) = anonymous(&bob, "/api/reviews?game=ghost-for-sale").await;
    assert_eq!(page["total"], 0);
    assert_eq!(carol.get(&format!("/api/reviews/{id}")).await.0, 404);
    let (s, own) = bob.get(&format!("/api/reviews/{id}")).await;
    assert_eq!((s, &own["status"]), (200, &json!("hidden")));
    let (s, _) = carol
        .post(&format!("/api/reviews/{id}/nice"), json!({}))
        .await;
    assert_eq!(s, 404);
    let (_, q) = admin.get("/api/reviews/reports").await;
    assert_eq!(q["items"].as_array().map(Vec::len), Some(0), "{q}");
    let (_, q) = admin.get("/api/reviews/reports?state=hidden").await;
    assert_eq!(q["items"][0]["reports"][0]["status"], "hidden");
    assert_eq!(q["items"][0]["reports"][0]["decided_by"]["name"], "alice");
    // Restored, it is listed again.
    let (s, r) = admin
        .post(&format!("/api/reviews/{id}/restore"), json!({}))
        .await;
    assert_eq!((s, &r["status"]), (200, &json!("shown")));
    let (_, page) = anonymous(&bob, "/api/reviews?game=ghost-for-sale").await;
    assert_eq!(page["total"], 1);
    let (s, b) = admin
        .post(&format!("/api/reviews/{id}/restore"), json!({}))
        .await;
    assert_eq!((s, &b["error"]["code"]), (409, &json!("nothing_to_decide")));
    // A second person's report is kept shown: the report closes, the review stays.
    let (s, _) = admin.post(&reports, json!({"reason": "check again"})).await;
    assert_eq!(s, 201);
    let (s, _) = admin
        .post(&format!("/api/reviews/{id}/restore"), json!({}))
        .await;
    assert_eq!(s, 200);
    let (_, q) = admin.get("/api/reviews/reports").await;
    assert_eq!(q["items"].as_array().map(Vec::len), Some(0), "{q}");
    let (_, h) = admin.get(&format!("/api/reviews/{id}/history")).await;
    let kinds: Vec<&str> = h["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .map(|c| c["kind"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(kinds, ["create", "hide", "restore", "keep"]);
    assert_eq!(h["changes"][1]["author"]["name"], "alice");
    let (s, b) = carol.get(&format!("/api/reviews/{id}/history")).await;
    assert_eq!((s, &b["error"]["code"]), (403, &json!("not_author")));
    server.shutdown().await;
}

on_both_databases!(
    a_registered_account_writes_edits_and_deletes_only_its_own_review,
    reviews_are_listed_newest_or_most_liked_a_page_at_a_time,
    a_nice_is_once_per_person_undoable_and_never_on_ones_own_review,
    bad_input_is_refused_with_a_json_error_and_changes_nothing,
    html_in_a_review_is_stored_and_answered_as_given,
    a_reported_review_is_hidden_and_restored_by_an_admin_only,
);

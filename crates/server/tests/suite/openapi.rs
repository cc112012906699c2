//! `/api/openapi.json` against the running server: it is OpenAPI 3.1 whose references
//! all resolve; every route the router has is in it and every route in it answers; the
//! security it states is the one the server enforces; and real answers match the
//! schemas and statuses it documents.

use crate::common::*;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// (method, path) of every operation in the document.
fn operations(doc: &Value) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, _) in item.as_object().expect("path item") {
            if METHODS.contains(&method.as_str()) {
                out.insert((method.clone(), path.clone()));
            }
        }
    }
    out
}

/// Resolves a local `$ref` (`#/components/...`) in `doc`.
fn resolve<'a>(doc: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    doc.pointer(pointer)
}

/// Every `$ref` in `v`, with where it was found.
fn refs(v: &Value, at: &str, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k == "$ref" {
                    out.push((at.to_string(), x.as_str().unwrap_or("").to_string()));
                } else {
                    refs(x, &format!("{at}/{k}"), out);
                }
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                refs(x, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// The subset of JSON Schema (2020-12, as OpenAPI 3.1 uses it) that the document's
/// schemas are written in; anything else in a schema fails the check, so the subset
/// cannot silently grow past what is checked. Returns the first mismatch.
fn check(doc: &Value, schema: &Value, v: &Value, at: &str) -> Result<(), String> {
    let Some(s) = schema.as_object() else {
        return match schema {
            Value::Bool(true) => Ok(()),
            _ => Err(format!("{at}: schema {schema} is not an object")),
        };
    };
    keywords_known(schema, at)?;
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let target = resolve(doc, r).ok_or(format!("{at}: {r} does not resolve"))?;
        check(doc, target, v, at)?;
    }
    if let Some(t) = s.get("type") {
        let types: Vec<&str> = match t {
            Value::String(t) => vec![t.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => return Err(format!("{at}: bad type {t}")),
        };
        let fits = types.iter().any(|t| match *t {
            "null" => v.is_null(),
            "boolean" => v.is_boolean(),
            "object" => v.is_object(),
            "array" => v.is_array(),
            "string" => v.is_string(),
            "number" => v.is_number(),
            "integer" => v.is_i64() || v.is_u64(),
            _ => false,
        });
        if !fits {
            return Err(format!("{at}: {v} is not of type {t}"));
        }
    }
    if let Some(m) = s.get("minimum").and_then(Value::as_f64) {
        if v.as_f64().is_some_and(|x| x < m) {
            return Err(format!("{at}: {v} is below the minimum {m}"));
        }
    }
    if let Some(e) = s.get("enum").and_then(Value::as_array) {
        if !e.contains(v) {
            return Err(format!("{at}: {v} is not one of {e:?}"));
        }
    }
    if let Some(c) = s.get("const") {
        if c != v {
            return Err(format!("{at}: {v} is not {c}"));
        }
    }
    if let Some(obj) = v.as_object() {
        let props = s.get("properties").and_then(Value::as_object);
        if let Some(required) = s.get("required").and_then(Value::as_array) {
            for r in required.iter().filter_map(Value::as_str) {
                if !obj.contains_key(r) {
                    return Err(format!("{at}: `{r}` is missing from {v}"));
                }
            }
        }
        for (k, x) in obj {
            match props.and_then(|p| p.get(k)) {
                Some(p) => check(doc, p, x, &format!("{at}.{k}"))?,
                None => match s.get("additionalProperties") {
                    Some(Value::Bool(false)) => {
                        return Err(format!("{at}: `{k}` is not in the schema"))
                    }
                    Some(extra) => check(doc, extra, x, &format!("{at}.{k}"))?,
                    // A typed object whose schema names its fields: an undocumented
                    // field is drift between the type and its description.
                    None if props.is_some() => {
                        return Err(format!("{at}: `{k}` is not documented"))
                    }
                    None => {}
                },
            }
        }
    }
    if let Some(a) = v.as_array() {
        let prefix = s.get("prefixItems").and_then(Value::as_array);
        for (i, x) in a.iter().enumerate() {
            let here = format!("{at}[{i}]");
            match prefix.and_then(|p| p.get(i)) {
                Some(p) => check(doc, p, x, &here)?,
                None => {
                    if let Some(items) = s.get("items") {
                        check(doc, items, x, &here)?;
                    }
                }
            }
        }
    }
    if let Some(all) = s.get("allOf").and_then(Value::as_array) {
        for sub in all {
            check(doc, sub, v, at)?;
        }
    }
    if let Some(one) = s.get("oneOf").and_then(Value::as_array) {
        let fits = one
            .iter()
            .filter(|sub| check(doc, sub, v, at).is_ok())
            .count();
        if fits != 1 {
            return Err(format!("{at}: {v} fits {fits} of the oneOf {one:?}"));
        }
    }
    if let Some(any) = s.get("anyOf").and_then(Value::as_array) {
        if !any.iter().any(|sub| check(doc, sub, v, at).is_ok()) {
            return Err(format!("{at}: {v} fits none of the anyOf {any:?}"));
        }
    }
    Ok(())
}

/// Fails on a keyword [`check`] does not implement, anywhere in `schema`.
fn keywords_known(schema: &Value, at: &str) -> Result<(), String> {
    const KNOWN: [&str; 22] = [
        "$ref",
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "oneOf",
        "anyOf",
        "allOf",
        "enum",
        "const",
        "format",
        "minimum",
        "maximum",
        "description",
        "default",
        "discriminator",
        "examples",
        "title",
    ];
    let Some(s) = schema.as_object() else {
        return Ok(());
    };
    for (key, sub) in s {
        if !KNOWN.contains(&key.as_str()) {
            return Err(format!("{at}: the check does not know `{key}` in {schema}"));
        }
        match key.as_str() {
            "properties" => {
                for (name, p) in sub.as_object().into_iter().flatten() {
                    keywords_known(p, &format!("{at}.{name}"))?;
                }
            }
            "items" | "additionalProperties" => keywords_known(sub, at)?,
            "prefixItems" | "oneOf" | "anyOf" | "allOf" => {
                for p in sub.as_array().into_iter().flatten() {
                    keywords_known(p, at)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The schema of the JSON answer `status` of `method path`.
fn answer_schema<'a>(doc: &'a Value, method: &str, path: &str, status: u16) -> Option<&'a Value> {
    let responses = &doc["paths"][path][method]["responses"];
    let response = responses
        .get(status.to_string())
        .or_else(|| responses.get("default"))?;
    response["content"]["application/json"].get("schema")
}

/// Records every answer of the server with the documented operation it came from,
/// and checks it: the status is documented, and a JSON answer fits its schema.
struct Checker {
    doc: Value,
    seen: BTreeMap<(String, String), BTreeSet<u16>>,
}

impl Checker {
    fn answer(&mut self, method: &str, template: &str, status: u16, body: &Value) {
        let op = &self.doc["paths"][template][method];
        assert!(op.is_object(), "{method} {template} is not documented");
        assert!(
            op["responses"].get(status.to_string()).is_some(),
            "{method} {template} answered {status}, which it does not document: {body}"
        );
        if let Some(schema) = answer_schema(&self.doc, method, template, status) {
            if let Err(e) = check(&self.doc, schema, body, "answer") {
                panic!("{method} {template} {status}: {e}\nbody: {body}");
            }
        }
        self.seen
            .entry((method.to_string(), template.to_string()))
            .or_default()
            .insert(status);
    }
}

async fn fetch_doc(addr: std::net::SocketAddr) -> Value {
    let res = reqwest::get(format!("http://{addr}/api/openapi.json"))
        .await
        .expect("request");
    assert_eq!(res.status().as_u16(), 200);
    res.json().await.expect("json")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_document_is_openapi_3_1_whose_references_all_resolve() {
    let env = Env::new(Backend::Sqlite).await.expect("sqlite");
    let server = env.start().await;
    let doc = fetch_doc(server.addr).await;
    assert_eq!(&doc, takuge_server::openapi::document());

    assert!(
        doc["openapi"]
            .as_str()
            .is_some_and(|v| v.starts_with("3.1.")),
        "{}",
        doc["openapi"]
    );
    assert_eq!(doc["info"]["title"], "takuge");
    assert_eq!(doc["info"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(doc["info"]["x-websocket-protocol"], 1);
    assert!(doc["info"]["description"].is_string());

    let schemes = doc["components"]["securitySchemes"]
        .as_object()
        .expect("security schemes");
    assert_eq!(schemes["bearer"]["type"], "http");
    assert_eq!(schemes["bearer"]["scheme"], "bearer");
    assert_eq!(
        (&schemes["cookie"]["in"], &schemes["cookie"]["name"]),
        (&json!("cookie"), &json!("takuge_session"))
    );
    assert_eq!(
        (&schemes["csrf"]["in"], &schemes["csrf"]["name"]),
        (&json!("header"), &json!("x-takuge"))
    );
    for (at, v) in doc["components"]["schemas"].as_object().expect("schemas") {
        assert!(v.is_object(), "schema {at}");
    }

    let mut operation_ids = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        assert!(path.starts_with('/'), "{path}");
        let templated: BTreeSet<&str> = path
            .split('/')
            .filter_map(|seg| seg.strip_prefix('{')?.strip_suffix('}'))
            .collect();
        for (method, op) in item.as_object().expect("path item") {
            assert!(METHODS.contains(&method.as_str()), "{path}: `{method}`");
            let id = op["operationId"].as_str().expect("operationId");
            assert!(
                operation_ids.insert(id.to_string()),
                "operationId {id} twice"
            );
            assert!(op["summary"].is_string(), "{method} {path}: no summary");
            let responses = op["responses"].as_object().expect("responses");
            assert!(!responses.is_empty(), "{method} {path}: no responses");
            for (status, r) in responses {
                assert!(
                    status == "default"
                        || (status.len() == 3
                            && status.parse::<u16>().is_ok_and(|s| (100..600).contains(&s))),
                    "{method} {path}: status {status}"
                );
                assert!(r["description"].is_string(), "{method} {path} {status}");
            }
            let mut in_path = BTreeSet::new();
            for p in op["parameters"].as_array().into_iter().flatten() {
                let place = p["in"].as_str().expect("in");
                assert!(
                    ["query", "header", "path", "cookie"].contains(&place),
                    "{place}"
                );
                assert!(p["schema"].is_object(), "{method} {path}: parameter {p}");
                if place == "path" {
                    assert_eq!(p["required"], true, "{method} {path}: {p}");
                    in_path.insert(p["name"].as_str().expect("name"));
                }
            }
            assert_eq!(in_path, templated, "{method} {path}: path parameters");
            if let Some(body) = op.get("requestBody") {
                // JSON, or the one file upload (the BoardGameGeek CSV import).
                let json = body["content"]["application/json"]["schema"].is_object();
                let csv = path == "/api/collections/import"
                    && body["content"]["text/csv"]["schema"].is_object();
                assert!(json || csv, "{method} {path}: request body");
            }
            for alternative in op["security"].as_array().into_iter().flatten() {
                for name in alternative.as_object().expect("requirement").keys() {
                    assert!(schemes.contains_key(name), "{method} {path}: scheme {name}");
                }
            }
            // Every error answer is the ApiError body.
            for (status, r) in responses {
                if status.starts_with('4') || status.starts_with('5') {
                    if let Some(schema) = r["content"]["application/json"].get("schema") {
                        assert_eq!(
                            schema["$ref"], "#/components/schemas/ErrorBody",
                            "{method} {path} {status}"
                        );
                    }
                }
            }
        }
    }

    let mut found = Vec::new();
    refs(&doc, "", &mut found);
    assert!(found.len() > 20, "{} references", found.len());
    for (at, r) in &found {
        assert!(
            r.starts_with("#/components/") && resolve(&doc, r).is_some(),
            "{at}: {r} does not resolve"
        );
    }
    // Every schema in the document is written in the subset the answers are checked with.
    for (name, s) in doc["components"]["schemas"].as_object().expect("schemas") {
        keywords_known(s, name).expect("a keyword the check implements");
    }
    // The error shape: {"error": {"code", "message"}}.
    let error = &doc["components"]["schemas"]["ErrorBody"];
    check(
        &doc,
        error,
        &json!({"error": {"code": "stale_version", "message": "m"}}),
        "ErrorBody",
    )
    .expect("the error body fits");
    assert!(check(&doc, error, &json!({"code": "x"}), "ErrorBody").is_err());
    server.shutdown().await;
}

/// The HTTP table of docs/PROTOCOL.md and its `/ws`: (method, path) as written there.
fn protocol_md_routes() -> BTreeSet<(String, String)> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/PROTOCOL.md"
    ))
    .expect("docs/PROTOCOL.md");
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("| `") else {
            continue;
        };
        let Some((route, _)) = rest.split_once('`') else {
            continue;
        };
        let Some((method, path)) = route.split_once(' ') else {
            continue;
        };
        if !METHODS.contains(&method.to_lowercase().as_str()) {
            continue;
        }
        let path = path.split_once('?').map_or(path, |(p, _)| p);
        out.insert((method.to_lowercase(), path.to_string()));
    }
    out
}

async fn every_route_of_the_router_is_documented_and_answers(backend: Backend) {
    let Some(env) = Env::new(backend).await else {
        return;
    };
    let server = env.start().await;
    let doc = fetch_doc(server.addr).await;
    let documented = operations(&doc);

    // The router is made from the list the document is made from (`routes`), and that
    // list adds routes only through `routes!`, which describes each.
    let (_, from_routes) =
        takuge_server::routes(&takuge_server::Config::default()).split_for_parts();
    let from_routes = operations(&serde_json::to_value(from_routes).expect("json"));
    assert_eq!(from_routes, documented);
    let lib = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/lib.rs"))
        .expect("src/lib.rs");
    for plain in [".route(", ".route_service(", ".nest(", ".nest_service("] {
        assert!(
            !lib.contains(plain),
            "lib.rs adds a route with `{plain}`, which goes undocumented"
        );
    }
    // And the protocol page lists the same routes.
    assert_eq!(
        protocol_md_routes(),
        documented,
        "docs/PROTOCOL.md's HTTP table"
    );
    assert!(documented.len() >= 20, "{documented:?}");

    let c = Client::guest(server.addr).await;
    let http = reqwest::Client::new();
    for (method, path) in &documented {
        let url = format!("{}{}", c.base, path.replace("{id}", "1"));
        let m = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).expect("method");
        let res = http
            .request(m, &url)
            .bearer_auth(&c.token)
            .header("content-type", "application/json")
            .body("{}")
            .send()
            .await
            .expect("request");
        let status = res.status().as_u16();
        let body: Value = res.json().await.unwrap_or(Value::Null);
        // Whatever the answer, it is not the fallback for unknown endpoints.
        assert!(
            !(status == 404 && body["error"]["code"] == "not_found") && status != 405,
            "{method} {path}: {status} {body}"
        );
    }
    // The methods a documented path does not list are refused: the router has no
    // operation there that the document lacks.
    let paths: BTreeSet<&String> = documented.iter().map(|(_, p)| p).collect();
    for path in paths {
        for method in ["get", "post", "put", "delete", "patch"] {
            if documented.contains(&(method.to_string(), path.clone())) {
                continue;
            }
            let url = format!("{}{}", c.base, path.replace("{id}", "1"));
            let m = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).expect("method");
            let res = http
                .request(m, &url)
                .bearer_auth(&c.token)
                .send()
                .await
                .expect("request");
            assert_eq!(res.status().as_u16(), 405, "{method} {path}");
        }
    }
    // And a path it does not list is the fallback's.
    let (s, b) = c.get("/api/nothing-here").await;
    assert_eq!((s, &b["error"]["code"]), (404, &json!("not_found")));
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_security_the_document_states_is_what_the_server_enforces() {
    let env = Env::new(Backend::Sqlite).await.expect("sqlite");
    let server = env.start().await;
    let doc = fetch_doc(server.addr).await;
    let mut checker = Checker {
        doc: doc.clone(),
        seen: BTreeMap::new(),
    };
    let c = Client::guest(server.addr).await;
    let http = reqwest::Client::new();
    for (method, path) in operations(&doc) {
        let op = &doc["paths"][&path][&method];
        let alternatives: Vec<&serde_json::Map<String, Value>> = op["security"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|a| a.as_object().expect("requirement"))
            .collect();
        // Open: some alternative names no session (the CSRF header is not one).
        let open = alternatives.is_empty()
            || alternatives.iter().any(|a| {
                !a.keys()
                    .any(|k| ["bearer", "cookie", "token"].contains(&k.as_str()))
            });
        let writes = method != "get";
        if writes {
            // The CSRF check covers every write, so each says so.
            assert!(
                alternatives.iter().any(|a| a.contains_key("csrf")),
                "{method} {path}: no csrf"
            );
        }
        let url = format!("{}{}", c.base, path.replace("{id}", "1"));
        let m = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).expect("method");
        // No credentials (but the CSRF header).
        let res = http
            .request(m.clone(), &url)
            .header(CSRF, "1")
            .header("content-type", "application/json")
            .body("{}")
            .send()
            .await
            .expect("request");
        let status = res.status().as_u16();
        let body: Value = res.json().await.unwrap_or(Value::Null);
        if open {
            assert_ne!(status, 401, "{method} {path} is documented open: {body}");
        } else {
            assert_eq!(
                (status, &body["error"]["code"]),
                (401, &json!("unauthenticated")),
                "{method} {path} is documented as needing a session"
            );
        }
        if status != 200 && !matches!(path.as_str(), "/healthz" | "/readyz" | "/metrics") {
            checker.answer(&method, &path, status, &body);
        }
        if writes {
            // A session cookie without the header is refused as cross-site...
            let res = http
                .request(m.clone(), &url)
                .header("cookie", format!("takuge_session={}", c.token))
                .header("content-type", "application/json")
                .body("{}")
                .send()
                .await
                .expect("request");
            let status = res.status().as_u16();
            let body: Value = res.json().await.unwrap_or(Value::Null);
            assert_eq!(
                (status, &body["error"]["code"]),
                (403, &json!("csrf")),
                "{method} {path}"
            );
            checker.answer(&method, &path, status, &body);
            // ...and a bearer token needs no header (logging out is tried on a
            // session of its own, as it ends the one it names).
            let token = if path == "/api/logout" {
                Client::guest(server.addr).await.token
            } else {
                c.token.clone()
            };
            let res = http
                .request(m, &url)
                .bearer_auth(&token)
                .header("content-type", "application/json")
                .body("{}")
                .send()
                .await
                .expect("request");
            let status = res.status().as_u16();
            let body: Value = res.json().await.unwrap_or(Value::Null);
            assert!(body["error"]["code"] != "csrf", "{method} {path}: {body}");
            checker.answer(&method, &path, status, &body);
        }
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_answers_fit_the_documented_schemas_and_statuses() {
    let env = Env::new(Backend::Sqlite).await.expect("sqlite");
    let server = env.start().await;
    let doc = fetch_doc(server.addr).await;
    let mut k = Checker {
        doc,
        seen: BTreeMap::new(),
    };
    let base = format!("http://{}", server.addr);

    let (s, b) = post_csrf(&base, "/api/guest", json!(null)).await;
    k.answer("post", "/api/guest", s, &b);
    let (s, b) = post_csrf(
        &base,
        "/api/register",
        json!({"name": "alice", "password": "correct horse"}),
    )
    .await;
    k.answer("post", "/api/register", s, &b);
    let alice = b["token"].as_str().expect("token").to_string();
    // (path, body, the status it must get where the test depends on it)
    for (path, body, want) in [
        (
            "/api/register",
            json!({"name": "alice", "password": "correct horse"}),
            Some(409),
        ),
        (
            "/api/register",
            json!({"name": "a", "password": "correct horse"}),
            None,
        ),
        (
            "/api/login",
            json!({"name": "alice", "password": "correct horse"}),
            None,
        ),
        (
            "/api/login",
            json!({"name": "alice", "password": "wrong horse"}),
            Some(401),
        ),
    ] {
        let (s, b) = post_csrf(&base, path, body).await;
        if let Some(want) = want {
            assert_eq!(s, want, "{path}");
        }
        k.answer("post", path, s, &b);
    }
    // Alice's sessions: listed, one ended, the password changed.
    let me = Client {
        base: base.clone(),
        http: reqwest::Client::new(),
        token: alice.clone(),
        user: Value::Null,
    };
    let (s, b) = me.get("/api/sessions").await;
    k.answer("get", "/api/sessions", s, &b);
    let other_session = b["sessions"]
        .as_array()
        .expect("sessions")
        .iter()
        .find(|s| s["current"] == false)
        .expect("the login's session")["id"]
        .as_str()
        .expect("id")
        .to_string();
    for want in [200, 404] {
        let res = me
            .http
            .delete(format!("{base}/api/sessions/{other_session}"))
            .bearer_auth(&alice)
            .send()
            .await
            .expect("request");
        let s = res.status().as_u16();
        let b: Value = res.json().await.unwrap_or(Value::Null);
        assert_eq!(s, want, "{b}");
        k.answer("delete", "/api/sessions/{id}", s, &b);
    }
    for (old, want) in [("wrong horse", 401), ("correct horse", 200)] {
        let (s, b) = me
            .post(
                "/api/password",
                json!({"old": old, "new": "battery staple"}),
            )
            .await;
        assert_eq!(s, want, "{b}");
        k.answer("post", "/api/password", s, &b);
    }
    let (s, b) = post_raw(&base, "/api/login", Some(&alice), "{not json".into()).await;
    k.answer("post", "/api/login", s, &b);
    let (s, b) = post_raw(&base, "/api/login", Some(&alice), "x".repeat(100 * 1024)).await;
    assert_eq!(s, 413);
    k.answer("post", "/api/login", s, &b);

    let c = Client::guest(server.addr).await;
    let other = Client::guest(server.addr).await;
    let (s, b) = c.get("/api/me").await;
    k.answer("get", "/api/me", s, &b);
    let (s, b) = c.get("/api/games").await;
    k.answer("get", "/api/games", s, &b);
    let (s, b) = c.get("/healthz").await;
    assert_eq!((s, b), (200, json!("ok\n")));
    k.answer("get", "/healthz", s, &Value::Null);
    let (s, b) = c.get("/readyz").await;
    assert_eq!((s, b), (200, json!("ready\n")));
    k.answer("get", "/readyz", s, &Value::Null);

    // A table through its whole life: created, joined, bots, started, played, finished.
    let (s, b) = c
        .post(
            "/api/tables",
            json!({"game": "secret-moon", "players": 4, "seed": 7,
                   "clock": {"kind": "real_time", "per_move_seconds": 60, "reserve_seconds": 600}}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    k.answer("post", "/api/tables", s, &b);
    let t = b["id"].as_i64().expect("id");
    let (s, b) = c
        .post("/api/tables", json!({"game": "chess", "players": 2}))
        .await;
    k.answer("post", "/api/tables", s, &b);
    let (s, b) = c.get("/api/tables?game=secret-moon").await;
    k.answer("get", "/api/tables", s, &b);
    assert!(!b["tables"].as_array().expect("tables").is_empty());
    let (s, b) = other.get(&format!("/api/tables/{t}")).await;
    k.answer("get", "/api/tables/{id}", s, &b);
    let (s, b) = other.get("/api/tables/999999").await;
    k.answer("get", "/api/tables/{id}", s, &b);
    let (s, b) = other
        .post(&format!("/api/tables/{t}/sit"), json!({"seat": 1}))
        .await;
    k.answer("post", "/api/tables/{id}/sit", s, &b);
    let (s, b) = other
        .post(&format!("/api/tables/{t}/sit"), json!({"seat": 2}))
        .await;
    k.answer("post", "/api/tables/{id}/sit", s, &b);
    let (s, b) = other
        .post(&format!("/api/tables/{t}/leave"), json!({}))
        .await;
    k.answer("post", "/api/tables/{id}/leave", s, &b);
    let (s, b) = other
        .post(&format!("/api/tables/{t}/bots"), json!({}))
        .await;
    k.answer("post", "/api/tables/{id}/bots", s, &b);
    let (s, b) = c.post(&format!("/api/tables/{t}/start"), json!({})).await;
    k.answer("post", "/api/tables/{id}/start", s, &b);
    let (s, b) = c
        .post(&format!("/api/tables/{t}/bots"), json!({"bot": "nobody"}))
        .await;
    k.answer("post", "/api/tables/{id}/bots", s, &b);
    let (s, b) = c.post(&format!("/api/tables/{t}/bots"), json!({})).await;
    k.answer("post", "/api/tables/{id}/bots", s, &b);
    let (s, b) = c.post(&format!("/api/tables/{t}/start"), json!({})).await;
    assert_eq!(s, 200, "{b}");
    k.answer("post", "/api/tables/{id}/start", s, &b);
    let (s, b) = c.get(&format!("/api/tables/{t}/record")).await;
    k.answer("get", "/api/tables/{id}/record", s, &b);
    let (s, b) = c.get(&format!("/api/tables/{t}/turn")).await;
    assert_eq!(s, 200, "{b}");
    k.answer("get", "/api/tables/{id}/turn", s, &b);
    let (s, b) = c.get("/api/tables/999999/turn").await;
    k.answer("get", "/api/tables/{id}/turn", s, &b);
    let (s, b) = c
        .post(
            &format!("/api/tables/{t}/actions"),
            json!({"version": 0, "action": {"nothing": 1}}),
        )
        .await;
    k.answer("post", "/api/tables/{id}/actions", s, &b);
    let (s, b) = other
        .post(
            &format!("/api/tables/{t}/actions"),
            json!({"version": 0, "action": {}}),
        )
        .await;
    k.answer("post", "/api/tables/{id}/actions", s, &b);
    // Seat 0 plays over HTTP, taking its legal actions from the WebSocket.
    let mut ws = c.ws().await;
    ws.send(json!({"type": "subscribe", "table": t})).await;
    let mut acted = None;
    loop {
        let m = ws.recv_type("table").await;
        if m["status"] == "finished" {
            break;
        }
        let version = m["version"].as_u64().expect("version");
        let legal = m["legal"].as_array().cloned().unwrap_or_default();
        if m["status"] != "playing" || legal.is_empty() || acted == Some(version) {
            continue;
        }
        acted = Some(version);
        let (s, b) = c
            .post(
                &format!("/api/tables/{t}/actions"),
                json!({"version": version, "action": choose(&legal, version, 0)}),
            )
            .await;
        k.answer("post", "/api/tables/{id}/actions", s, &b);
    }
    let (s, b) = c.get(&format!("/api/tables/{t}")).await;
    assert_eq!(b["status"], "finished");
    assert!(b["outcome"].is_object(), "{b}");
    k.answer("get", "/api/tables/{id}", s, &b);
    let (s, b) = c.get(&format!("/api/tables/{t}/record")).await;
    assert_eq!(s, 200);
    k.answer("get", "/api/tables/{id}/record", s, &b);
    for q in ["", "?seat=0", "?seat=3", "?seat=9"] {
        let (s, b) = c.get(&format!("/api/tables/{t}/replay{q}")).await;
        k.answer("get", "/api/tables/{id}/replay", s, &b);
    }
    // A private table, abandoned by its host.
    let (s, b) = c
        .post(
            "/api/tables",
            json!({"game": "secret-moon", "players": 3, "private": true, "sit": false}),
        )
        .await;
    k.answer("post", "/api/tables", s, &b);
    assert!(b["invite_code"].is_string(), "{b}");
    let p = b["id"].as_i64().expect("id");
    let (s, b) = other
        .post(&format!("/api/tables/{p}/abandon"), json!({}))
        .await;
    k.answer("post", "/api/tables/{id}/abandon", s, &b);
    let (s, b) = c.post(&format!("/api/tables/{p}/abandon"), json!({})).await;
    assert_eq!(s, 200);
    k.answer("post", "/api/tables/{id}/abandon", s, &b);
    let (s, b) = c.post("/api/logout", json!({})).await;
    k.answer("post", "/api/logout", s, &b);

    shelf_answers(&mut k, &me).await;

    // Every operation whose answer is JSON was seen succeeding at least once.
    for (method, path) in operations(&k.doc.clone()) {
        if ["/ws", "/metrics", "/api/openapi.json"].contains(&path.as_str()) {
            continue;
        }
        let seen = k
            .seen
            .get(&(method.clone(), path.clone()))
            .cloned()
            .unwrap_or_default();
        assert!(
            seen.iter().any(|s| (200..300).contains(s)),
            "{method} {path}: no success seen ({seen:?})"
        );
    }
    server.shutdown().await;
}

on_both_databases!(every_route_of_the_router_is_documented_and_answers);

/// Every shelf route answering, each at least once with success; `admin` is the first
/// registered account (so an admin).
async fn shelf_answers(k: &mut Checker, admin: &Client) {
    let send = |method: reqwest::Method, path: String, body: Option<Value>| {
        let mut req = admin
            .http
            .request(method, format!("{}{path}", admin.base))
            .bearer_auth(&admin.token);
        if let Some(b) = body {
            req = req.json(&b);
        }
        async move {
            let res = req.send().await.expect("request");
            let s = res.status().as_u16();
            (s, res.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    let (s, b) = admin
        .get("/api/catalog?best=4&max_minutes=30&sort=name_ja")
        .await;
    k.answer("get", "/api/catalog", s, &b);
    let (s, b) = admin.get("/api/catalog/secret-moon").await;
    assert_eq!(s, 200, "{b}");
    k.answer("get", "/api/catalog/{id}", s, &b);
    let (s, b) = admin.get("/api/catalog/no-such-game").await;
    k.answer("get", "/api/catalog/{id}", s, &b);
    let (s, b) = admin.get("/api/catalog/secret-moon/history").await;
    k.answer("get", "/api/catalog/{id}/history", s, &b);
    let (s, b) = admin
        .post(
            "/api/catalog",
            json!({"name_en": "Catan", "bgg_id": 13, "best_players": [4]}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    k.answer("post", "/api/catalog", s, &b);
    let catan = b["game"]["id"].as_i64().expect("id");
    let (s, b) = admin
        .post("/api/catalog", json!({"name_en": "Catan", "bgg_id": 13}))
        .await;
    k.answer("post", "/api/catalog", s, &b);
    let (s, b) = admin.post("/api/catalog", json!({})).await;
    k.answer("post", "/api/catalog", s, &b);
    let (s, b) = admin
        .post(
            &format!("/api/catalog/{catan}/corrections"),
            json!({"year": 1995}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    k.answer("post", "/api/catalog/{id}/corrections", s, &b);
    let (s, b) = admin
        .post(
            &format!("/api/catalog/{catan}/corrections"),
            json!({"year": 1995}),
        )
        .await;
    k.answer("post", "/api/catalog/{id}/corrections", s, &b);
    // A guest's addition, pending, for the admin to decide.
    let guest = Client::guest(
        admin
            .base
            .trim_start_matches("http://")
            .parse()
            .expect("addr"),
    )
    .await;
    let (s, b) = guest.post("/api/catalog", json!({"name_en": "Go"})).await;
    k.answer("post", "/api/catalog", s, &b);
    let (s, b) = post_csrf(
        &admin.base,
        "/api/register",
        json!({"name": "bobby", "password": "correct horse battery"}),
    )
    .await;
    assert_eq!(s, 200, "{b}");
    let bob = Client {
        base: admin.base.clone(),
        http: reqwest::Client::new(),
        token: b["token"].as_str().expect("token").to_string(),
        user: b["user"].clone(),
    };
    let (_, go) = bob.post("/api/catalog", json!({"name_en": "Go"})).await;
    let (_, spam) = bob.post("/api/catalog", json!({"name_en": "Spam"})).await;
    let (s, b) = admin.get("/api/catalog/changes").await;
    k.answer("get", "/api/catalog/changes", s, &b);
    let (s, b) = bob.get("/api/catalog/changes?status=approved").await;
    k.answer("get", "/api/catalog/changes", s, &b);
    for (who, verb, change) in [
        (&bob, "approve", &go),
        (admin, "approve", &go),
        (admin, "approve", &go),
        (admin, "reject", &spam),
        (admin, "reject", &spam),
    ] {
        let id = change["change"]["id"].as_i64().expect("change");
        let (s, b) = who
            .post(&format!("/api/catalog/changes/{id}/{verb}"), json!({}))
            .await;
        k.answer(
            "post",
            &format!("/api/catalog/changes/{{id}}/{verb}"),
            s,
            &b,
        );
    }
    let (s, b) = admin
        .post("/api/catalog/changes/999999/approve", json!({}))
        .await;
    k.answer("post", "/api/catalog/changes/{id}/approve", s, &b);
    // A shelf.
    for (body, want) in [
        (
            json!({"own": true, "rating": 8.5, "comment": "<i>fun</i>"}),
            200,
        ),
        (json!({"rating": 11}), 400),
    ] {
        let (s, b) = send(
            reqwest::Method::PUT,
            format!("/api/collections/me/{catan}"),
            Some(body),
        )
        .await;
        assert_eq!(s, want, "{b}");
        k.answer("put", "/api/collections/me/{id}", s, &b);
    }
    let (s, b) = send(
        reqwest::Method::PUT,
        "/api/collections/me/nothing".into(),
        Some(json!({})),
    )
    .await;
    k.answer("put", "/api/collections/me/{id}", s, &b);
    let (s, b) = send(
        reqwest::Method::PUT,
        "/api/collections/me/secret-moon".into(),
        Some(json!({"played": true})),
    )
    .await;
    k.answer("put", "/api/collections/me/{id}", s, &b);
    for _ in 0..2 {
        let (s, b) = send(
            reqwest::Method::DELETE,
            "/api/collections/me/secret-moon".into(),
            None,
        )
        .await;
        k.answer("delete", "/api/collections/me/{id}", s, &b);
    }
    let (s, b) = admin
        .get("/api/collections/me?status=own&sort=rating&order=desc")
        .await;
    k.answer("get", "/api/collections/me", s, &b);
    let (s, b) = send(
        reqwest::Method::PUT,
        "/api/collections/me".into(),
        Some(json!({"visibility": "signed_in"})),
    )
    .await;
    k.answer("put", "/api/collections/me", s, &b);
    let (s, b) = bob
        .get(&format!("/api/collections/{}", admin_name(admin).await))
        .await;
    assert_eq!(s, 200, "{b}");
    k.answer("get", "/api/collections/{id}", s, &b);
    let (s, b) = bob.get("/api/collections/nobody-here").await;
    k.answer("get", "/api/collections/{id}", s, &b);
    let csv =
        "objectname,objectid,own,rating,bggbestplayers,playingtime\nHanabi,98778,1,8,\"3,4\",25\n";
    for body in [
        csv.to_string(),
        "objectname,objectid,rating\nHanabi,98778,11\n".to_string(),
    ] {
        let res = admin
            .http
            .post(format!("{}/api/collections/import", admin.base))
            .bearer_auth(&admin.token)
            .header("content-type", "text/csv")
            .body(body)
            .send()
            .await
            .expect("import");
        let s = res.status().as_u16();
        let b: Value = res.json().await.unwrap_or(Value::Null);
        k.answer("post", "/api/collections/import", s, &b);
    }
    let (s, b) = admin
        .post("/api/plays", json!({"game": "secret-moon", "date": "2026-11-27",
            "players": [{"user": "bobby", "score": 3, "winner": true}, {"name": "母", "score": 1}]}))
        .await;
    assert_eq!(s, 201, "{b}");
    k.answer("post", "/api/plays", s, &b);
    let (s, b) = admin
        .post(
            "/api/plays",
            json!({"game": "secret-moon", "date": "x", "players": []}),
        )
        .await;
    k.answer("post", "/api/plays", s, &b);
    let (s, b) = admin.get("/api/plays").await;
    k.answer("get", "/api/plays", s, &b);
    let (s, b) = bob.get("/api/plays?user=nobody-here").await;
    k.answer("get", "/api/plays", s, &b);
    // Profiles (issue 21): one's own, another's (signed-in visibility), a missing one; the
    // display name, accepted and refused.
    let (s, b) = admin.get("/api/profiles/me").await;
    assert_eq!(s, 200, "{b}");
    k.answer("get", "/api/profiles/me", s, &b);
    let (s, b) = bob
        .get(&format!("/api/profiles/{}", admin_name(admin).await))
        .await;
    assert_eq!(s, 200, "{b}");
    k.answer("get", "/api/profiles/{id}", s, &b);
    let (s, b) = bob.get("/api/profiles/nobody-here").await;
    assert_eq!(s, 404, "{b}");
    k.answer("get", "/api/profiles/{id}", s, &b);
    for (body, want) in [
        (json!({"display_name": "管理人"}), 200),
        (json!({"display_name": "a\u{202E}b"}), 400),
    ] {
        let (s, b) = send(reqwest::Method::PUT, "/api/me".into(), Some(body)).await;
        assert_eq!(s, want, "{b}");
        k.answer("put", "/api/me", s, &b);
    }
    let (s, b) = admin.get("/api/collections/me/export").await;
    assert_eq!(s, 200);
    k.answer("get", "/api/collections/me/export", s, &b);
    // Recommendations (issue 18).
    for q in [
        "?players=2&max_minutes=60&lang=ja",
        "?limit=5",
        "?players=0",
    ] {
        let (s, b) = admin.get(&format!("/api/recommendations{q}")).await;
        k.answer("get", "/api/recommendations", s, &b);
    }
    for q in ["", "?limit=0"] {
        let (s, b) = admin
            .get(&format!("/api/catalog/secret-moon/similar{q}"))
            .await;
        k.answer("get", "/api/catalog/{id}/similar", s, &b);
    }
    let (_, moon) = admin.get("/api/catalog/secret-moon").await;
    let moon = moon["game"]["id"].as_i64().expect("id");
    for id in [moon, 999_999] {
        let (s, b) = admin
            .post("/api/recommendations/dismiss", json!({ "game_id": id }))
            .await;
        k.answer("post", "/api/recommendations/dismiss", s, &b);
    }
    for _ in 0..2 {
        let (s, b) = send(
            reqwest::Method::DELETE,
            format!("/api/recommendations/dismiss/{moon}"),
            None,
        )
        .await;
        k.answer("delete", "/api/recommendations/dismiss/{id}", s, &b);
    }
    // A manual play deleted; a second time it is gone.
    let (_, h) = admin.get("/api/plays").await;
    let play = h["plays"][0]["id"].as_i64().expect("the logged play");
    for want in [204, 404] {
        let (s, b) = send(reqwest::Method::DELETE, format!("/api/plays/{play}"), None).await;
        assert_eq!(s, want, "{b}");
        k.answer("delete", "/api/plays/{id}", s, &b);
    }
    review_answers(k, admin, &bob).await;
}

/// Every review route answering, each at least once with success.
async fn review_answers(k: &mut Checker, admin: &Client, bob: &Client) {
    let send = |c: &Client, method: reqwest::Method, path: String, body: Option<Value>| {
        let mut req = c
            .http
            .request(method, format!("{}{path}", c.base))
            .bearer_auth(&c.token);
        if let Some(b) = body {
            req = req.json(&b);
        }
        async move {
            let res = req.send().await.expect("request");
            let s = res.status().as_u16();
            (s, res.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    use reqwest::Method;
    let (s, b) = bob
        .post(
            "/api/reviews",
            json!({"game": "secret-moon", "kind": "rules", "title": "<b>t</b>", "text": "x"}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    k.answer("post", "/api/reviews", s, &b);
    let id = b["id"].as_i64().expect("id");
    for body in [
        json!({"game": "secret-moon", "text": ""}),
        json!({"game": "nope", "text": "x"}),
    ] {
        let (s, b) = bob.post("/api/reviews", body).await;
        k.answer("post", "/api/reviews", s, &b);
    }
    for q in ["?game=secret-moon&order=liked&limit=5", "", "?game=nope"] {
        let (s, b) = admin.get(&format!("/api/reviews{q}")).await;
        k.answer("get", "/api/reviews", s, &b);
    }
    for path in [format!("/api/reviews/{id}"), "/api/reviews/999999".into()] {
        let (s, b) = admin.get(&path).await;
        k.answer("get", "/api/reviews/{id}", s, &b);
    }
    for (who, body) in [(bob, json!({"text": "y"})), (admin, json!({"text": "z"}))] {
        let (s, b) = send(who, Method::PUT, format!("/api/reviews/{id}"), Some(body)).await;
        k.answer("put", "/api/reviews/{id}", s, &b);
    }
    for (who, method) in [
        (admin, Method::POST),
        (bob, Method::POST),
        (admin, Method::DELETE),
    ] {
        let (s, b) = send(who, method.clone(), format!("/api/reviews/{id}/nice"), None).await;
        k.answer(
            &method.as_str().to_lowercase(),
            "/api/reviews/{id}/nice",
            s,
            &b,
        );
    }
    for (who, reason) in [(admin, "spam"), (admin, "again"), (bob, "mine")] {
        let (s, b) = who
            .post(
                &format!("/api/reviews/{id}/reports"),
                json!({"reason": reason}),
            )
            .await;
        k.answer("post", "/api/reviews/{id}/reports", s, &b);
    }
    for (who, q) in [(admin, ""), (admin, "?state=hidden"), (bob, "")] {
        let (s, b) = who.get(&format!("/api/reviews/reports{q}")).await;
        k.answer("get", "/api/reviews/reports", s, &b);
    }
    for (who, verb) in [
        (bob, "hide"),
        (admin, "hide"),
        (admin, "hide"),
        (admin, "restore"),
        (admin, "restore"),
    ] {
        let (s, b) = who
            .post(&format!("/api/reviews/{id}/{verb}"), json!({}))
            .await;
        k.answer("post", &format!("/api/reviews/{{id}}/{verb}"), s, &b);
    }
    for who in [bob, admin] {
        let (s, b) = who.get(&format!("/api/reviews/{id}/history")).await;
        k.answer("get", "/api/reviews/{id}/history", s, &b);
    }
    for (who, want) in [(admin, 403), (bob, 204), (bob, 404)] {
        let (s, b) = send(who, Method::DELETE, format!("/api/reviews/{id}"), None).await;
        assert_eq!(s, want, "{b}");
        k.answer("delete", "/api/reviews/{id}", s, &b);
    }
}

async fn admin_name(c: &Client) -> String {
    let (_, me) = c.get("/api/me").await;
    me["name"].as_str().expect("a registered name").to_string()
}

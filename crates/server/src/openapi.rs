//! `/api/openapi.json`: the HTTP API described from the route table below, which a
//! test checks against the router (every route listed answers; see tests/server.rs).

use serde_json::{json, Map, Value};

/// Method, path, whether it needs authentication, summary, request body schema.
pub struct Route {
    pub method: &'static str,
    pub path: &'static str,
    pub auth: bool,
    pub summary: &'static str,
    pub body: Option<fn() -> Value>,
}

fn credentials() -> Value {
    json!({"type": "object", "required": ["name", "password"], "additionalProperties": false,
        "properties": {"name": {"type": "string", "minLength": 3, "maxLength": 32},
                        "password": {"type": "string", "minLength": 8, "maxLength": 256}}})
}
fn create_table() -> Value {
    json!({"type": "object", "required": ["game", "players"], "additionalProperties": false,
        "properties": {"game": {"type": "string"}, "players": {"type": "integer", "minimum": 1},
            "options": {"description": "the game's options (null: the recommended setup)"},
            "private": {"type": "boolean"}, "sit": {"type": "boolean"},
            "clock": {"$ref": "#/components/schemas/Clock"}}})
}
fn sit() -> Value {
    json!({"type": "object", "additionalProperties": false,
        "properties": {"seat": {"type": "integer"}, "invite": {"type": "string"}}})
}
fn bots() -> Value {
    json!({"type": "object", "additionalProperties": false, "properties": {"bot": {"type": "string"}}})
}
fn act() -> Value {
    json!({"type": "object", "required": ["version", "action"], "additionalProperties": false,
        "properties": {"version": {"type": "integer", "minimum": 0}, "seat": {"type": "integer"},
            "action": {"description": "one of the seat's legal actions"}}})
}
fn empty() -> Value {
    json!({"type": "object"})
}

pub const ROUTES: &[Route] = &[
    Route {
        method: "get",
        path: "/healthz",
        auth: false,
        summary: "ok when the database answers",
        body: None,
    },
    Route {
        method: "get",
        path: "/metrics",
        auth: false,
        summary: "Prometheus metrics",
        body: None,
    },
    Route {
        method: "post",
        path: "/api/guest",
        auth: false,
        summary: "create a guest account and session",
        body: None,
    },
    Route {
        method: "post",
        path: "/api/register",
        auth: false,
        summary: "register (a guest keeps its id and history)",
        body: Some(credentials),
    },
    Route {
        method: "post",
        path: "/api/login",
        auth: false,
        summary: "log in",
        body: Some(credentials),
    },
    Route {
        method: "post",
        path: "/api/logout",
        auth: true,
        summary: "end this session",
        body: None,
    },
    Route {
        method: "get",
        path: "/api/me",
        auth: true,
        summary: "the current user",
        body: None,
    },
    Route {
        method: "get",
        path: "/api/games",
        auth: false,
        summary: "the games, their default options and bots",
        body: None,
    },
    Route {
        method: "get",
        path: "/api/tables",
        auth: false,
        summary: "the lobby: open public tables (filters: game, players)",
        body: None,
    },
    Route {
        method: "post",
        path: "/api/tables",
        auth: true,
        summary: "create a table (the caller is its host)",
        body: Some(create_table),
    },
    Route {
        method: "get",
        path: "/api/tables/{id}",
        auth: true,
        summary: "a table (private ones need ?invite=)",
        body: None,
    },
    Route {
        method: "post",
        path: "/api/tables/{id}/sit",
        auth: true,
        summary: "take a seat",
        body: Some(sit),
    },
    Route {
        method: "post",
        path: "/api/tables/{id}/leave",
        auth: true,
        summary: "leave (during play a bot takes the seat)",
        body: Some(empty),
    },
    Route {
        method: "post",
        path: "/api/tables/{id}/bots",
        auth: true,
        summary: "host: fill empty seats with a bot",
        body: Some(bots),
    },
    Route {
        method: "post",
        path: "/api/tables/{id}/start",
        auth: true,
        summary: "host: start the game",
        body: Some(empty),
    },
    Route {
        method: "post",
        path: "/api/tables/{id}/abandon",
        auth: true,
        summary: "host: abandon the table",
        body: Some(empty),
    },
    Route {
        method: "post",
        path: "/api/tables/{id}/actions",
        auth: true,
        summary: "play an action chosen at a version",
        body: Some(act),
    },
    Route {
        method: "get",
        path: "/api/tables/{id}/record",
        auth: true,
        summary: "finished: the match record (takuge replay reads it)",
        body: None,
    },
    Route {
        method: "get",
        path: "/api/tables/{id}/replay",
        auth: true,
        summary: "finished: views step by step for ?seat=K (or the spectator)",
        body: None,
    },
    Route {
        method: "get",
        path: "/ws",
        auth: true,
        summary: "the WebSocket of live play (docs/PROTOCOL.md)",
        body: None,
    },
    Route {
        method: "get",
        path: "/api/openapi.json",
        auth: false,
        summary: "this document",
        body: None,
    },
];

pub fn document() -> Value {
    let mut paths = Map::new();
    for r in ROUTES {
        let mut op = json!({
            "summary": r.summary,
            "responses": {
                "200": {"description": "success"},
                "default": {"description": "an error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            }
        });
        if r.auth {
            op["security"] = json!([{"bearer": []}, {"cookie": []}]);
        }
        if r.path.contains("{id}") {
            op["parameters"] = json!([{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}]);
        }
        if let Some(body) = r.body {
            op["requestBody"] =
                json!({"required": true, "content": {"application/json": {"schema": body()}}});
        }
        let entry = paths
            .entry(r.path.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
        entry[r.method] = op;
    }
    json!({
        "openapi": "3.0.3",
        "info": {"title": "takuge", "version": env!("CARGO_PKG_VERSION"),
                 "description": "Japanese tabletop games: rules enforced, secrets kept, bots included. State-changing requests without a bearer token need the header `x-takuge: 1`."},
        "paths": paths,
        "components": {
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "cookie": {"type": "apiKey", "in": "cookie", "name": crate::auth::COOKIE}
            },
            "schemas": {
                "Error": {"type": "object", "properties": {"error": {"type": "object",
                    "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}}},
                "Clock": {"oneOf": [
                    {"type": "object", "properties": {"kind": {"enum": ["none"]}}},
                    {"type": "object", "properties": {"kind": {"enum": ["real_time"]},
                        "per_move_seconds": {"type": "integer"}, "reserve_seconds": {"type": "integer"}}},
                    {"type": "object", "properties": {"kind": {"enum": ["turn_based"]},
                        "hours_per_move": {"type": "integer"}}}
                ]}
            }
        }
    })
}

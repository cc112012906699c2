//! `/api/openapi.json`: OpenAPI 3.1 generated from the code. Each handler carries its
//! own `#[utoipa::path]` (method, path, parameters, body, answers, security) and the
//! types it takes and gives derive `ToSchema`; the router is built from the same list
//! of handlers ([`crate::routes`]), so a route cannot be served without being described,
//! nor described without being served. What every route shares because of the
//! middleware (rate limits, CSRF, authentication, body limits) is added here once.

use crate::auth::{COOKIE, CSRF_HEADER};
use crate::table::PROTOCOL;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};
use std::sync::OnceLock;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi, ToSchema};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "takuge",
        description = "Japanese tabletop games: rules enforced, secrets kept, bots included. \
            State-changing requests without a bearer token need the header `x-takuge: 1`. \
            Live play is over the WebSocket `/ws`, whose messages docs/PROTOCOL.md describes \
            (the protocol version is `x-websocket-protocol`). Every error is \
            `{\"error\": {\"code\", \"message\"}}` and changes nothing; requests time out \
            after the server's limit with `408` and no body."
    ),
    modifiers(&SecuritySchemes),
    tags(
        (name = "accounts", description = "guests, registration, sessions"),
        (name = "games", description = "the catalog"),
        (name = "tables", description = "the lobby, tables, actions, records and replays"),
        (name = "shelf", description = "the catalog of board games, collections, plays, the BoardGameGeek import and exports"),
        (name = "reviews", description = "reviews and rule notes of catalog games, Nice!, reports and the admin's decisions"),
        (name = "server", description = "health, metrics, this document, the WebSocket"),
    )
)]
pub struct ApiDoc;

/// The names the handlers' `security(...)` use.
struct SecuritySchemes;

impl Modify for SecuritySchemes {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "`Authorization: Bearer <token>`: the token that /api/guest, \
                         /api/register and /api/login answer with (programs)",
                    ))
                    .build(),
            ),
        );
        components.add_security_scheme(
            "cookie",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                COOKIE,
                "the session cookie those answers set (browsers); HttpOnly, SameSite=Lax",
            ))),
        );
        components.add_security_scheme(
            "csrf",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
                CSRF_HEADER,
                "not a secret: any value (`1`). Every request other than GET/HEAD that carries \
                 no bearer token must send this header, which a cross-site form cannot set",
            ))),
        );
        components.add_security_scheme(
            "token",
            SecurityScheme::ApiKey(ApiKey::Query(ApiKeyValue::with_description(
                "token",
                "the session token in the query, for WebSocket clients that can set neither \
                 a cookie nor a header",
            ))),
        );
    }
}

/// `Outcome` of `takuge-engine` (a rules crate's type, so described here).
#[derive(ToSchema)]
#[schema(as = Outcome)]
#[allow(dead_code)]
pub struct OutcomeSchema {
    /// Per seat.
    scores: Vec<i64>,
    /// Per seat: 1 is best; ties share a rank.
    ranks: Vec<u8>,
    /// Per seat, in team games.
    teams: Vec<Option<u8>>,
    /// Team games: the winning team (an index into the game's `meta.teams`).
    winning_team: Option<u8>,
}

/// `MatchRecord` of `takuge-engine`: everything that reproduces a match exactly; what
/// `takuge replay` reads.
#[derive(ToSchema)]
#[schema(as = MatchRecord)]
#[allow(dead_code)]
pub struct MatchRecordSchema {
    format: u32,
    game: String,
    /// The rules version of the build that played it.
    rules: u32,
    options: serde_json::Value,
    seats: Vec<SeatRecordSchema>,
    seed: u64,
    actions: Vec<LoggedActionSchema>,
}

#[derive(ToSchema)]
#[schema(as = SeatRecord)]
#[allow(dead_code)]
pub struct SeatRecordSchema {
    name: String,
    /// The bot that played the seat, from the start or after a timeout.
    bot: Option<String>,
}

#[derive(ToSchema)]
#[schema(as = LoggedAction)]
#[allow(dead_code)]
pub struct LoggedActionSchema {
    seat: u8,
    /// The game's action, as JSON.
    action: serde_json::Value,
}

/// `GameMeta` of `takuge-engine`.
#[derive(ToSchema)]
#[schema(as = GameMeta)]
#[allow(dead_code)]
pub struct GameMetaSchema {
    /// The id used everywhere (`secret-moon`, ...).
    id: String,
    name_en: String,
    name_ja: String,
    min_players: usize,
    max_players: usize,
    /// Typical playing time in minutes, as printed on the box: [from, to].
    minutes: (u32, u32),
    min_age: u32,
    year: u32,
    /// The teams' names, for team games (index = team id in an outcome).
    teams: Vec<TeamNameSchema>,
}

#[derive(ToSchema)]
#[schema(as = TeamName)]
#[allow(dead_code)]
pub struct TeamNameSchema {
    en: String,
    ja: String,
}

/// `Viewer` of `takuge-engine`: `{"seat": K}` or `"spectator"`.
#[derive(serde::Serialize, ToSchema)]
#[schema(as = Viewer)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)]
pub enum ViewerSchema {
    Seat(u8),
    Spectator,
}

/// One step of a replay: version 0 is the setup; each later one follows an action.
#[derive(ToSchema)]
#[schema(as = ReplayStep)]
#[allow(dead_code)]
pub struct ReplayStepSchema {
    version: u64,
    /// The seat that acted (absent at version 0).
    seat: Option<u8>,
    /// The action as the viewer may read it (absent at version 0).
    log: Option<String>,
    /// The same in Japanese.
    log_ja: Option<String>,
    /// The viewer's view after it (the game's JSON).
    view: serde_json::Value,
}

/// The document, made once.
pub fn document() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(|| {
        let openapi = crate::routes(&crate::Config::default()).into_openapi();
        let mut doc = serde_json::to_value(openapi).unwrap_or_else(|e| {
            tracing::error!(error = %e, "the OpenAPI document does not serialise");
            Value::Null
        });
        finish(&mut doc);
        doc
    })
}

#[utoipa::path(get, path = "/api/openapi.json", tag = "server", summary = "this document",
    responses((status = 200, description = "OpenAPI 3.1", content_type = "application/json",
        body = Object)))]
pub async fn openapi_json() -> Response {
    axum::Json(document()).into_response()
}

fn error_response(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
    })
}

/// Adds to `op` an error answer; a status the handler already documents gets the
/// middleware's codes appended to its description.
fn add_error(op: &mut Map<String, Value>, status: &str, description: &str) {
    let responses = op
        .entry("responses")
        .or_insert_with(|| Value::Object(Map::new()));
    let Some(responses) = responses.as_object_mut() else {
        return;
    };
    match responses.get_mut(status) {
        Some(existing) => {
            let before = existing["description"].as_str().unwrap_or("").to_string();
            existing["description"] = json!(format!("{before}; {description}"));
        }
        None => {
            responses.insert(status.to_string(), error_response(description));
        }
    }
}

/// Whether a security alternative names a session (the CSRF header alone does not).
pub fn needs_session(requirement: &Value) -> bool {
    SESSION_SCHEMES
        .iter()
        .any(|scheme| requirement.get(scheme).is_some())
}

/// The security schemes that name a session.
pub const SESSION_SCHEMES: [&str; 3] = ["bearer", "cookie", "token"];

fn names_scheme(requirements: Option<&Value>, scheme: &str) -> bool {
    requirements
        .and_then(Value::as_array)
        .is_some_and(|alts| alts.iter().any(|alt| alt.get(scheme).is_some()))
}

/// Whether `op` declares parameters `place` (`path`, `query`): its extractor refuses
/// one that does not parse.
fn takes_parameters_in(op: &Map<String, Value>, place: &str) -> bool {
    op.get("parameters")
        .and_then(Value::as_array)
        .is_some_and(|ps| ps.iter().any(|p| p["in"] == place))
}

/// What the middleware and extractors do to every route, added to each operation from
/// what its annotation says (its security and its body), plus the top-level facts.
fn finish(doc: &mut Value) {
    doc["info"]["x-websocket-protocol"] = json!(PROTOCOL);
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        for op in item.values_mut() {
            let Some(op) = op.as_object_mut() else {
                continue;
            };
            let security = op.get("security").cloned();
            let open = security
                .as_ref()
                .and_then(Value::as_array)
                .is_none_or(|alts| alts.iter().any(|a| !needs_session(a)));
            if !open {
                add_error(op, "401", "`unauthenticated`: no valid session");
            }
            if names_scheme(security.as_ref(), "csrf") {
                add_error(
                    op,
                    "403",
                    "`csrf`: neither a bearer token nor the `x-takuge` header",
                );
            }
            if takes_parameters_in(op, "path") {
                add_error(
                    op,
                    "400",
                    "`malformed_path`: a path parameter does not parse",
                );
            }
            if takes_parameters_in(op, "query") {
                add_error(
                    op,
                    "400",
                    "`malformed_query`: the query string does not parse",
                );
            }
            if op.contains_key("requestBody") {
                add_error(
                    op,
                    "400",
                    "`malformed_json`, `bad_request`: not the expected JSON object",
                );
                add_error(op, "413", "`payload_too_large`: the body is over the limit");
            }
            add_error(
                op,
                "429",
                "`rate_limited`: too many requests from this address or account",
            );
            if path.starts_with("/api/") && path != "/api/openapi.json" && path != "/api/games" {
                add_error(
                    op,
                    "500",
                    "`internal`: the server failed; nothing was changed",
                );
                add_error(op, "503", "`unavailable`: the server is shutting down");
            }
        }
    }
}

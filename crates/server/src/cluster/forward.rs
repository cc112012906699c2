//! HTTP requests for a live table owned by another node are passed to that node
//! (`Cluster::route`), and its answer passed back: the method, path, query and body as
//! they came, the acting user and the client's address vouched for by the node secret
//! (`trust.rs`), and of the answer its status, body and the headers a client reads.
//!
//! Only the requests that reach a live table through the hub are passed on (the table
//! routes below); everything that only reads or writes the database is served by
//! whichever node the request reached.

use super::{trust, Route};
use crate::auth::MaybeAuth;
use crate::error::ApiError;
use crate::table::TableId;
use crate::AppState;
use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::{header, HeaderName, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// How long a passed request may take, below the client's own request timeout (10 s)
/// so that the client reads our answer rather than a timeout.
const FORWARD_TIMEOUT: Duration = Duration::from_secs(8);
/// A node that does not accept a connection this fast is taken for dead.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

/// The headers of an owner's answer that a client reads; the rest (hop-by-hop headers,
/// the owner's own security headers, which this node adds) stay behind.
const ANSWER_HEADERS: [HeaderName; 6] = [
    header::CONTENT_TYPE,
    header::CONTENT_DISPOSITION,
    header::RETRY_AFTER,
    header::CACHE_CONTROL,
    header::ETAG,
    header::VARY,
];

/// The HTTP client requests are passed on with (one pool of connections per node).
pub struct Forwarder {
    http: reqwest::Client,
}

impl Default for Forwarder {
    fn default() -> Self {
        let http = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .timeout(FORWARD_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .build()
            .unwrap_or_default();
        Forwarder { http }
    }
}

/// The live table a request reaches through the hub, from its method and path:
/// `GET /api/tables/{id}` and `/api/tables/{id}/{sit,leave,bots,start,abandon,actions,
/// record,replay,turn}`. A path whose id does not parse is the handler's to refuse.
pub fn table_of(method: &Method, path: &str) -> Option<TableId> {
    let rest = path.strip_prefix("/api/tables/")?;
    let (id, action) = match rest.split_once('/') {
        Some((id, action)) => (id, Some(action)),
        None => (rest, None),
    };
    let id = id.parse::<TableId>().ok()?;
    let reaches_the_table = match action {
        None => method == Method::GET,
        Some("sit" | "leave" | "bots" | "start" | "abandon" | "actions") => method == Method::POST,
        Some("record" | "replay" | "turn") => method == Method::GET,
        Some(_) => false,
    };
    reaches_the_table.then_some(id)
}

/// The middleware: a table request whose table another node owns is passed to it.
pub async fn forward_tables(
    State(state): State<Arc<AppState>>,
    req: Request,
    next: Next,
) -> Response {
    let Some(table) = table_of(req.method(), req.uri().path()) else {
        return next.run(req).await;
    };
    let route = match state.cluster.route(table).await {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    let url = match route {
        Route::Here => return next.run(req).await,
        Route::Node { url, .. } => url,
    };
    // A request a node passed here is never passed on again: the two nodes disagree
    // about the owner only while it changes, and the first node asks again.
    if req.extensions().get::<trust::Relayed>().is_some() {
        return moving(table).into_response();
    }
    let answer = match pass(&state, &url, req).await {
        Ok(answer) => answer,
        Err(e) => e.into_response(),
    };
    // The owner did not answer, or no longer holds the table: the next request asks
    // the database rather than the owner remembered (`Cluster::route`).
    if answer.status() == StatusCode::SERVICE_UNAVAILABLE {
        state.cluster.forget_owner(table);
    }
    answer
}

/// Sends `req` to the node at `url` and turns its answer into ours.
async fn pass(state: &Arc<AppState>, url: &str, req: Request) -> Result<Response, ApiError> {
    let Some(node) = state.cluster.node() else {
        return Err(ApiError::internal(
            "a table routed to another node on a single node",
        ));
    };
    let (mut parts, body) = req.into_parts();
    // The acting user as this node knows it (the owner applies its own checks and
    // limits to that user); an unauthenticated request goes as one.
    let MaybeAuth(auth) = MaybeAuth::from_request_parts(&mut parts, state).await?;
    let client = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip())
        .unwrap_or(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED));
    let body = crate::extract::read_body(body, state.config.max_body_bytes).await?;
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let mut out = state
        .forwarder
        .http
        .request(
            parts.method.clone(),
            format!("{}{path}", url.trim_end_matches('/')),
        )
        .body(body);
    if let Some(v) = parts.headers.get(header::CONTENT_TYPE) {
        out = out.header(header::CONTENT_TYPE, v);
    }
    for (name, value) in trust::vouch(node, auth.map(|a| a.user.id), client) {
        out = out.header(name, value);
    }
    state
        .metrics
        .forwarded_requests
        .fetch_add(1, Ordering::Relaxed);
    let answer = out.send().await.map_err(|e| {
        state
            .metrics
            .forward_failures
            .fetch_add(1, Ordering::Relaxed);
        // The owner's address and the error, never the request's headers.
        tracing::warn!(url, error = %e, "cannot pass a request to the table's node");
        owner_unreachable()
    })?;
    let status = answer.status();
    let headers: Vec<_> = ANSWER_HEADERS
        .iter()
        .filter_map(|h| answer.headers().get(h).map(|v| (h.clone(), v.clone())))
        .collect();
    let bytes = answer.bytes().await.map_err(|e| {
        state
            .metrics
            .forward_failures
            .fetch_add(1, Ordering::Relaxed);
        tracing::warn!(url, error = %e, "the table's node broke off its answer");
        owner_unreachable()
    })?;
    let mut response = (status, bytes).into_response();
    for (name, value) in headers {
        response.headers_mut().insert(name, value);
    }
    Ok(response)
}

/// Asks the node at `url` (which owns the table) `GET path` for `user`, who came from
/// `client`, the way a passed request goes, and reads its JSON answer: for what this
/// node needs of a table it does not run (a profile's "your move", `crate::profile`).
pub async fn get_from_owner<T: serde::de::DeserializeOwned>(
    state: &AppState,
    url: &str,
    path: &str,
    (user, client): (i64, std::net::IpAddr),
) -> Result<T, ApiError> {
    let Some(node) = state.cluster.node() else {
        return Err(ApiError::internal(
            "a table routed to another node on a single node",
        ));
    };
    let mut out = state
        .forwarder
        .http
        .get(format!("{}{path}", url.trim_end_matches('/')));
    for (name, value) in trust::vouch(node, Some(user), client) {
        out = out.header(name, value);
    }
    state
        .metrics
        .forwarded_requests
        .fetch_add(1, Ordering::Relaxed);
    let answer = out.send().await.and_then(|a| a.error_for_status());
    let answer = match answer {
        Ok(a) => a.json::<T>().await,
        Err(e) => Err(e),
    };
    answer.map_err(|e| {
        state
            .metrics
            .forward_failures
            .fetch_add(1, Ordering::Relaxed);
        tracing::warn!(url, error = %e, "cannot ask the table's node");
        owner_unreachable()
    })
}

/// The node that owns the table does not answer (it may have died: another node takes
/// its tables within seconds).
fn owner_unreachable() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "unavailable",
        "the server holding this table does not answer; try again in a few seconds",
    )
    .retry_after(1)
}

/// Asked of a node that no longer owns the table.
fn moving(table: TableId) -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "unavailable",
        format!("table {table} is moving to another server; try again shortly"),
    )
    .retry_after(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_requests_that_reach_a_live_table_are_passed_on() {
        let get = Method::GET;
        let post = Method::POST;
        assert_eq!(table_of(&get, "/api/tables/12"), Some(12));
        assert_eq!(table_of(&post, "/api/tables/12/actions"), Some(12));
        assert_eq!(table_of(&post, "/api/tables/12/sit"), Some(12));
        assert_eq!(table_of(&get, "/api/tables/12/replay"), Some(12));
        // The lobby and creating a table read and write the database only.
        assert_eq!(table_of(&get, "/api/tables"), None);
        assert_eq!(table_of(&post, "/api/tables"), None);
        // Not a table's id, or not a route: the handler (or the 404) answers.
        assert_eq!(table_of(&get, "/api/tables/abc"), None);
        assert_eq!(table_of(&get, "/api/tables/12/actions"), None);
        assert_eq!(table_of(&post, "/api/tables/12/elsewhere"), None);
    }
}

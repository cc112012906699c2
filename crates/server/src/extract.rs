//! Extractors whose every refusal is the documented JSON error (`ApiError`), not
//! axum's plain-text rejection: bodies, paths and query strings. Bodies and queries
//! are decoded by `takuge-protocol`, the code the fuzz targets exercise.

use crate::error::ApiError;
use crate::AppState;
use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use futures_util::StreamExt;
use serde::de::DeserializeOwned;
use std::sync::Arc;
use std::time::Duration;

/// A JSON body whose every failure (too large, not a JSON object, wrong shape) is a
/// JSON error.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned> FromRequest<Arc<AppState>> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &Arc<AppState>) -> Result<Self, Self::Rejection> {
        let RawBody(bytes) = RawBody::from_request(req, state).await?;
        Ok(ApiJson(takuge_protocol::decode_body(&bytes)?))
    }
}

/// A body as bytes, for a decoder of its own (the CSV import); too large is the JSON
/// error like any other. The limit is the route's [`BodyLimit`], else the server's
/// `max_body_bytes`.
pub struct RawBody(pub Bytes);

impl FromRequest<Arc<AppState>> for RawBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &Arc<AppState>) -> Result<Self, Self::Rejection> {
        let limit = req
            .extensions()
            .get::<BodyLimit>()
            .map_or(state.config.max_body_bytes, |l| l.0);
        read_body(req.into_body(), limit).await.map(RawBody)
    }
}

/// The body limit of the routes under it, where it is not the server's `max_body_bytes`
/// (the import takes a file).
#[derive(Clone, Copy, Debug)]
pub struct BodyLimit(pub usize);

/// After a body goes over its limit, at most this much more is read and thrown away…
const DRAIN_BYTES: usize = 32 * 1024 * 1024;
/// …for at most this long.
const DRAIN_TIME: Duration = Duration::from_secs(3);

/// The body, at most `limit` bytes. One over the limit is refused with `413
/// payload_too_large`, but only after the rest of it (up to [`DRAIN_BYTES`], for up
/// to [`DRAIN_TIME`]) has been read and dropped: a client still sending when the
/// connection closed would see a broken pipe instead of the refusal, as browsers and
/// HTTP clients do when a server answers early and closes (no lingering close in
/// hyper). Nothing past the limit is kept, so memory stays bounded.
pub async fn read_body(body: Body, limit: usize) -> Result<Bytes, ApiError> {
    let mut stream = body.into_data_stream();
    let mut kept = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| ApiError::bad_request("bad_request", e.to_string()))?;
        if kept.len() + chunk.len() > limit {
            let mut drained = 0usize;
            let _ = tokio::time::timeout(DRAIN_TIME, async {
                while drained < DRAIN_BYTES {
                    match stream.next().await {
                        Some(Ok(more)) => drained += more.len(),
                        _ => break,
                    }
                }
            })
            .await;
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "payload_too_large",
                format!("the request body is over {limit} bytes"),
            ));
        }
        kept.extend_from_slice(&chunk);
    }
    Ok(Bytes::from(kept))
}

/// Path parameters; one that does not parse (`/api/tables/abc`) is `400 malformed_path`.
pub struct ApiPath<T>(pub T);

impl<T: DeserializeOwned + Send> FromRequestParts<Arc<AppState>> for ApiPath<T> {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &Arc<AppState>,
    ) -> Result<Self, Self::Rejection> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(v)) => Ok(ApiPath(v)),
            // A route whose template lacks the parameter: the server's fault.
            Err(rej) if rej.status().is_server_error() => Err(ApiError::internal(rej.body_text())),
            Err(rej) => Err(ApiError::bad_request(
                "malformed_path",
                format!("the path is not the expected one: {}", rej.body_text()),
            )),
        }
    }
}

/// A query string; one that does not parse (`?players=x`) is `400 malformed_query`.
pub struct ApiQuery<T>(pub T);

impl<T: DeserializeOwned, S: Sync> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        query(parts.uri.query()).map(ApiQuery)
    }
}

/// A query string (`None`: there was no `?`) as `T`.
pub fn query<T: DeserializeOwned>(q: Option<&str>) -> Result<T, ApiError> {
    Ok(takuge_protocol::decode_query(q.unwrap_or(""))?)
}

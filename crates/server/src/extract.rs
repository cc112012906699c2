//! Extractors whose every refusal is the documented JSON error (`ApiError`), not
//! axum's plain-text rejection: bodies, paths and query strings. Bodies and queries
//! are decoded by `takuge-protocol`, the code the fuzz targets exercise.

use crate::error::ApiError;
use crate::AppState;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use serde::de::DeserializeOwned;
use std::sync::Arc;

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
/// error like any other.
pub struct RawBody(pub Bytes);

impl FromRequest<Arc<AppState>> for RawBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &Arc<AppState>) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state).await.map_err(|rej| {
            let status = rej.status();
            if status == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(status, "payload_too_large", "the request body is too large")
            } else {
                ApiError::new(status, "bad_request", rej.body_text())
            }
        })?;
        Ok(RawBody(bytes))
    }
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

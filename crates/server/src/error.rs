//! One error type for every request and message: a stable code and words.

use crate::store::StoreError;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use takuge_engine::DynError;

/// Why a request or a WebSocket message was refused. Nothing changed when one is returned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct ApiError {
    #[serde(skip)]
    pub status: u16,
    /// Stable, for programs: `stale_version`, `unknown_table`, `rate_limited`, ...
    pub code: &'static str,
    /// In words, for people.
    pub message: String,
    /// Seconds to wait before trying again, sent as `Retry-After` (throttles, `busy`).
    #[serde(skip)]
    pub retry_after: Option<u32>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status: status.as_u16(),
            code,
            message: message.into(),
            retry_after: None,
        }
    }
    pub fn retry_after(mut self, seconds: u32) -> Self {
        self.retry_after = Some(seconds);
        self
    }
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, message)
    }
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, code, message)
    }
    pub fn unauthenticated() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "unauthenticated",
            "log in (session cookie or `Authorization: Bearer <token>`) first",
        )
    }
    pub fn unknown_table(id: i64) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "unknown_table",
            format!("there is no table {id}"),
        )
    }
    pub fn internal(what: impl std::fmt::Display) -> Self {
        tracing::error!(error = %what, "internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "the server failed; nothing was changed",
        )
    }
    pub fn unavailable() -> Self {
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            "the server is shutting down; try again shortly",
        )
    }
}

impl From<DynError> for ApiError {
    fn from(e: DynError) -> Self {
        let status = match e.code {
            "not_your_turn" | "game_over" => StatusCode::CONFLICT,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError::new(status, e.code, e.message)
    }
}

impl ApiError {
    /// The table is run by another node now (its lease moved): nothing was changed
    /// here, and the same request again reaches the node that runs it.
    pub fn table_moved() -> Self {
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "table_moved",
            "this table is now served by another node; nothing was changed — try again",
        )
        .retry_after(1)
    }

    /// The database refuses writes: nothing was changed, and trying again later may work.
    pub fn database_unavailable() -> Self {
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "database_unavailable",
            "the server cannot store changes right now; nothing was changed — try again shortly",
        )
    }
}

impl From<takuge_protocol::Refusal> for ApiError {
    fn from(r: takuge_protocol::Refusal) -> Self {
        ApiError::bad_request(r.code, r.message)
    }
}

/// The one place a storage error becomes an answer. A database that cannot be used now
/// is 503 `database_unavailable` (nothing changed; try again); anything else the
/// handler did not expect (a row gone, a key taken, a wrong statement) is 500
/// `internal`, logged. Handlers that expect a missing row or a taken key match the
/// `StoreError` themselves and answer in their own words.
impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        if e.is_unavailable() {
            tracing::warn!(error = %e, "database unavailable");
            return ApiError::database_unavailable();
        }
        if matches!(e, StoreError::Fenced) {
            return ApiError::table_moved();
        }
        ApiError::internal(e)
    }
}

/// The body of every refused HTTP request.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub error: ApiError,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let retry_after = self.retry_after;
        let mut response = (status, axum::Json(ErrorBody { error: self })).into_response();
        if let Some(seconds) = retry_after {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

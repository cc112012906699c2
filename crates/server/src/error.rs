//! One error type for every request and message: a stable code and words.

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
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status: status.as_u16(),
            code,
            message: message.into(),
        }
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

impl From<takuge_protocol::Refusal> for ApiError {
    fn from(r: takuge_protocol::Refusal) -> Self {
        ApiError::bad_request(r.code, r.message)
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
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
        (status, axum::Json(ErrorBody { error: self })).into_response()
    }
}

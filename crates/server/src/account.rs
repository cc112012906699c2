//! A user's own sessions and password: list and revoke sessions, change the password.
//! Ending a session anywhere here also closes its WebSockets.

use crate::api::{ApiJson, Done};
use crate::auth::{self, Auth};
use crate::error::{ApiError, ErrorBody};
use crate::sockets::{self, Reason};
use crate::store::accounts::SessionRow;
use crate::time::now;
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::sync::Arc;
use utoipa::ToSchema;

/// Sessions an account keeps at once; a new one past this ends the oldest.
pub const MAX_SESSIONS: usize = 20;

/// A session's public id: derived from its token hash but not revealing it (the token
/// hash is what a session is looked up by, so it must not be shown even to its owner).
pub fn session_id(token_hash: &str) -> String {
    let digest = Sha256::digest(format!("takuge session id:{token_hash}").as_bytes());
    auth::hex(&digest[..16])
}

/// Ends these sessions: their rows, their cache entries, their sockets.
pub async fn end_sessions(
    state: &AppState,
    token_hashes: &[String],
    reason: Reason,
) -> Result<(), ApiError> {
    for hash in token_hashes {
        state.hub.writer().delete_session(hash.clone()).await?;
    }
    state.sessions.forget_hashes(token_hashes);
    state.sockets.close_sessions(token_hashes, reason);
    Ok(())
}

/// Ends every session of `user_id` but `keep` (a token hash).
pub async fn end_user_sessions(
    state: &AppState,
    user_id: i64,
    keep: Option<&str>,
    reason: Reason,
) -> Result<(), ApiError> {
    let hashes: Vec<String> = user_sessions(state, user_id)
        .await?
        .into_iter()
        .map(|s| s.token_hash)
        .filter(|h| Some(h.as_str()) != keep)
        .collect();
    end_sessions(state, &hashes, reason).await
}

/// The user's live sessions, newest first.
async fn user_sessions(state: &AppState, user_id: i64) -> Result<Vec<SessionRow>, ApiError> {
    Ok(state.db.sessions_of(user_id, now()).await?)
}

/// Keeps the `MAX_SESSIONS` newest sessions of `user_id` (always `new`, just made).
pub async fn drop_oldest_sessions(
    state: &AppState,
    user_id: i64,
    new: &str,
) -> Result<(), ApiError> {
    let older: Vec<String> = user_sessions(state, user_id)
        .await?
        .into_iter()
        .map(|s| s.token_hash)
        .filter(|h| h != new)
        .skip(MAX_SESSIONS - 1)
        .collect();
    if older.is_empty() {
        return Ok(());
    }
    end_sessions(state, &older, sockets::REVOKED).await
}

#[derive(Serialize, ToSchema)]
pub struct SessionInfo {
    /// Names the session for `DELETE /api/sessions/{id}`; not its token.
    pub id: String,
    /// Unix seconds.
    pub created_at: i64,
    pub expires_at: i64,
    /// The session this request came with.
    pub current: bool,
}

#[derive(Serialize, ToSchema)]
pub struct Sessions {
    /// Newest first; at most 20 (a new session past that ends the oldest).
    pub sessions: Vec<SessionInfo>,
}

#[utoipa::path(get, path = "/api/sessions", tag = "accounts",
    summary = "this account's sessions",
    security(("bearer" = []), ("cookie" = [])),
    responses((status = 200, description = "the live sessions, newest first", body = Sessions)))]
pub async fn list_sessions(
    State(state): State<Arc<AppState>>,
    auth: Auth,
) -> Result<Json<Sessions>, ApiError> {
    let current = auth::hash_token(auth.credential.token());
    let sessions = user_sessions(&state, auth.user.id)
        .await?
        .into_iter()
        .map(|s| SessionInfo {
            id: session_id(&s.token_hash),
            created_at: s.created_at,
            expires_at: s.expires_at,
            current: s.token_hash == current,
        })
        .collect();
    Ok(Json(Sessions { sessions }))
}

#[utoipa::path(delete, path = "/api/sessions/{id}", tag = "accounts",
    summary = "end one of this account's sessions (its WebSockets close)",
    params(("id" = String, Path, description = "a session id from `GET /api/sessions`")),
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "the session is over", body = Done),
        (status = 404, description = "`unknown_session`: no such session of this account", body = ErrorBody),
    ))]
pub async fn revoke_session(
    State(state): State<Arc<AppState>>,
    auth: Auth,
    Path(id): Path<String>,
) -> Result<Json<Done>, ApiError> {
    let hash = user_sessions(&state, auth.user.id)
        .await?
        .into_iter()
        .map(|s| s.token_hash)
        .find(|h| session_id(h) == id)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "unknown_session",
                "this account has no such session",
            )
        })?;
    end_sessions(&state, &[hash], sockets::REVOKED).await?;
    Ok(Json(Done { ok: true }))
}

pub use takuge_protocol::PasswordChange;

#[utoipa::path(post, path = "/api/password", tag = "accounts",
    summary = "change the password (every other session ends)",
    request_body = PasswordChange,
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "changed; every other session of the account ended and its WebSockets closed", body = Done),
        (status = 400, description = "`weak_password`, `common_password`, `password_contains_name`, `guest` (a guest has no password)", body = ErrorBody),
        (status = 401, description = "`invalid_credentials`: the old password is wrong", body = ErrorBody),
        (status = 429, description = "`login_throttled`: too many wrong passwords for this account; see `Retry-After`", body = ErrorBody),
    ))]
pub async fn change_password(
    State(state): State<Arc<AppState>>,
    auth: Auth,
    ApiJson(body): ApiJson<PasswordChange>,
) -> Result<Json<Done>, ApiError> {
    let Some(name) = auth.user.name.clone().filter(|_| !auth.user.guest) else {
        return Err(ApiError::bad_request(
            "guest",
            "a guest has no password; register first",
        ));
    };
    if body.old.len() > 1024 {
        return Err(crate::api::invalid_credentials());
    }
    crate::policy::valid_password(&body.new, &name)?;
    let stored = state.db.password_hash(auth.user.id).await?;
    crate::api::check_password(&state, &name, body.old, stored).await?;
    let hash = state.hasher.hash(body.new).await?;
    state.hub.writer().set_password(auth.user.id, hash).await?;
    let keep = auth::hash_token(auth.credential.token());
    end_user_sessions(&state, auth.user.id, Some(&keep), sockets::PASSWORD_CHANGED).await?;
    Ok(Json(Done { ok: true }))
}

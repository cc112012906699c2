//! Registering, logging in and out, guests, the current user.

use crate::auth::{self, Auth, Credential, MaybeAuth, User};
use crate::error::ApiError;
use crate::error::ErrorBody;
use crate::extract::ApiJson;
use crate::time::now;
use crate::AppState;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use takuge_protocol::Credentials;
use utoipa::ToSchema;

use super::{Done, S};

#[derive(Serialize, ToSchema)]
pub struct SessionOut {
    pub user: User,
    /// Use as `Authorization: Bearer <token>`; browsers get the same in a cookie.
    pub token: String,
}

fn with_cookie(state: &AppState, out: SessionOut) -> Response {
    let cookie = auth::session_cookie(&out.token, state.config.secure_cookies);
    ([(header::SET_COOKIE, cookie)], Json(out)).into_response()
}

pub(crate) fn invalid_credentials() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "invalid_credentials",
        "unknown name or wrong password",
    )
}

fn auth_limited(state: &AppState, ip: std::net::IpAddr) -> Result<(), ApiError> {
    if state.auth_limiter.check(&ip) {
        Ok(())
    } else {
        Err(state.metrics.rate_limited(
            "rate_limited",
            "too many login attempts from this address; wait a little",
        ))
    }
}

/// Checks `password` against the account named `name` (its stored hash; `None` for an
/// unknown name, checked against the dummy hash so that it takes the same time) under
/// the per-account throttle: while the name backs off, argon2 does not even run.
pub(crate) async fn check_password(
    state: &AppState,
    name: &str,
    password: String,
    stored: Option<String>,
) -> Result<(), ApiError> {
    let key = crate::policy::name_key(name);
    if let Err(wait) = state.login_throttle.check(&key) {
        return Err(state
            .metrics
            .rate_limited(
                "login_throttled",
                "too many wrong passwords for this account; wait before trying again",
            )
            .retry_after(crate::throttle::retry_seconds(wait)));
    }
    let known = stored.is_some();
    let stored = stored.unwrap_or_else(|| state.dummy_hash.clone());
    if state.hasher.verify(password, stored).await? && known {
        state.login_throttle.succeeded(&key);
        Ok(())
    } else {
        state.login_throttle.failed(&key);
        Err(invalid_credentials())
    }
}

/// Registers an account; a guest calling it keeps its id, and so its history.
#[utoipa::path(post, path = "/api/register", tag = "accounts",
    summary = "register (a guest keeps its id and history)",
    request_body = Credentials,
    security(("csrf" = []), ("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "the new account, logged in; the token is also set as the session cookie", body = SessionOut,
            headers(("set-cookie" = String, description = "the session cookie"))),
        (status = 400, description = "`invalid_name`, `confusable_name` (mixes scripts), `weak_password`, `common_password`, `password_contains_name`, `ambiguous_session` (two session cookies)", body = ErrorBody),
        (status = 409, description = "`name_taken` (also by a look-alike: same key), `already_registered` (this guest registered meanwhile)", body = ErrorBody),
    ))]
pub async fn register(
    State(state): S,
    axum::extract::ConnectInfo(addr): axum::extract::ConnectInfo<std::net::SocketAddr>,
    MaybeAuth(auth): MaybeAuth,
    ApiJson(body): ApiJson<Credentials>,
) -> Result<Response, ApiError> {
    auth_limited(&state, addr.ip())?;
    crate::policy::valid_name(&body.name)?;
    crate::policy::valid_password(&body.password, &body.name)?;
    let key = crate::policy::name_key(&body.name);
    let hash = state.hasher.hash(body.password).await?;
    let guest = auth.as_ref().filter(|a| a.user.guest).map(|a| a.user.id);
    let result = state
        .hub
        .writer()
        .register(guest, body.name, key, hash, now())
        .await;
    let id = match result {
        Ok(Some(id)) => id,
        Ok(None) => {
            return Err(ApiError::conflict(
                "already_registered",
                "this guest has registered already (another request did it first)",
            ))
        }
        Err(e) if e.conflict().is_some() => {
            return Err(ApiError::conflict(
                "name_taken",
                "that name, or one that looks like it, is taken",
            ))
        }
        Err(e) => return Err(e.into()),
    };
    if guest.is_some() {
        // Whoever held a session of the guest (one planted in the browser before it
        // registered, say) must not hold the account: every guest session ends.
        crate::account::end_user_sessions(&state, id, None, crate::sockets::ROTATED).await?;
        // Cached sessions still carry the guest name.
        state.sessions.forget_user(id);
    }
    // The first account of a fresh database approves catalog changes.
    crate::shelf::admin::first_account(state.hub.writer(), id).await?;
    let user = auth::user_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::internal("registered user vanished"))?;
    let token = auth::new_session(&state, id).await?;
    Ok(with_cookie(&state, SessionOut { user, token }))
}

/// Logs in. An unknown name and a wrong password get the same answer in the same time.
#[utoipa::path(post, path = "/api/login", tag = "accounts", summary = "log in",
    request_body = Credentials,
    security(("csrf" = [])),
    responses(
        (status = 200, description = "logged in; the token is also set as the session cookie", body = SessionOut,
            headers(("set-cookie" = String, description = "the session cookie"))),
        (status = 401, description = "`invalid_credentials`: unknown name or wrong password", body = ErrorBody),
        (status = 429, description = "`login_throttled`: too many wrong passwords for this name; see `Retry-After`", body = ErrorBody),
    ))]
pub async fn login(
    State(state): S,
    axum::extract::ConnectInfo(addr): axum::extract::ConnectInfo<std::net::SocketAddr>,
    headers: axum::http::HeaderMap,
    ApiJson(body): ApiJson<Credentials>,
) -> Result<Response, ApiError> {
    auth_limited(&state, addr.ip())?;
    if body.name.len() > 64 || body.password.len() > 1024 {
        return Err(invalid_credentials());
    }
    // Any spelling with the same key names the account; an old account left without
    // a key (see `policy::backfill_name_keys`) answers to its exact name.
    let found = state
        .db
        .login_account(&crate::policy::name_key(&body.name), &body.name)
        .await?;
    let (id, stored) = match found {
        Some((id, stored)) => (Some(id), stored),
        None => (None, None),
    };
    check_password(&state, &body.name, body.password, stored).await?;
    let id = id.ok_or_else(invalid_credentials)?;
    let user = auth::user_by_id(&state.db, id)
        .await?
        .ok_or_else(invalid_credentials)?;
    // A session the caller came with ends: a login always starts a fresh one, so a
    // session id fixed before the login is worth nothing after it.
    if let Ok(Some(old)) = auth::presented(&headers) {
        let old = vec![auth::hash_token(old.token())];
        crate::account::end_sessions(&state, &old, crate::sockets::ROTATED).await?;
    }
    let token = auth::new_session(&state, id).await?;
    Ok(with_cookie(&state, SessionOut { user, token }))
}

/// A guest account and its session; registering later keeps its id and history.
#[utoipa::path(post, path = "/api/guest", tag = "accounts",
    summary = "create a guest account and session",
    security(("csrf" = [])),
    responses(
        (status = 200, description = "the guest, logged in; the token is also set as the session cookie", body = SessionOut,
            headers(("set-cookie" = String, description = "the session cookie"))),
    ))]
pub async fn guest(
    State(state): S,
    axum::extract::ConnectInfo(addr): axum::extract::ConnectInfo<std::net::SocketAddr>,
) -> Result<Response, ApiError> {
    auth_limited(&state, addr.ip())?;
    let suffix = auth::hex(&auth::random_bytes::<3>()?);
    let id = state
        .hub
        .writer()
        .insert_guest(format!("guest-{suffix}"), now())
        .await?;
    let user = auth::user_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::internal("guest vanished"))?;
    let token = auth::new_session(&state, id).await?;
    Ok(with_cookie(&state, SessionOut { user, token }))
}

#[utoipa::path(post, path = "/api/logout", tag = "accounts", summary = "end this session (its WebSockets close)",
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "the session is over; the cookie is cleared", body = Done,
            headers(("set-cookie" = String, description = "the cleared session cookie"))),
    ))]
pub async fn logout(State(state): S, auth: Auth) -> Result<Response, ApiError> {
    let session = vec![auth::hash_token(auth.credential.token())];
    crate::account::end_sessions(&state, &session, crate::sockets::LOGGED_OUT).await?;
    let cookie = auth::clear_cookie(state.config.secure_cookies);
    Ok(([(header::SET_COOKIE, cookie)], Json(Done { ok: true })).into_response())
}

#[utoipa::path(get, path = "/api/me", tag = "accounts", summary = "the current user",
    security(("bearer" = []), ("cookie" = [])),
    responses((status = 200, description = "the user", body = User)))]
pub async fn me(auth: Auth) -> Json<User> {
    let _ = matches!(auth.credential, Credential::Cookie(_));
    Json(auth.user)
}

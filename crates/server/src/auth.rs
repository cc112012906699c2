//! Accounts and sessions: argon2id passwords, random tokens stored hashed, session
//! cookies for browsers and bearer tokens for programs.

use crate::db::{now, Db};
use crate::error::ApiError;
use crate::writer::Writer;
use crate::AppState;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, Method, StatusCode};
use serde::Serialize;
use sha2::{Digest, Sha256};
use sqlx::Row;
use std::sync::Arc;

pub const COOKIE: &str = "takuge_session";
/// The header that a cookie-authenticated state-changing request must carry: a
/// cross-site form or image cannot set it, and we answer no CORS preflight.
pub const CSRF_HEADER: &str = "x-takuge";
pub const SESSION_SECONDS: i64 = 30 * 24 * 3600;

/// OWASP's argon2id parameters: m = 19456 KiB, t = 2, p = 1.
fn hasher() -> Result<Argon2<'static>, ApiError> {
    let params = Params::new(19_456, 2, 1, None).map_err(ApiError::internal)?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

pub fn random_bytes<const N: usize>() -> Result<[u8; N], ApiError> {
    let mut buf = [0u8; N];
    getrandom::fill(&mut buf).map_err(ApiError::internal)?;
    Ok(buf)
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Hashes a password on a blocking thread (argon2 takes tens of milliseconds).
pub async fn hash_password(password: String) -> Result<String, ApiError> {
    let salt = random_bytes::<16>()?;
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::encode_b64(&salt).map_err(ApiError::internal)?;
        hasher()?
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(ApiError::internal)
    })
    .await
    .map_err(ApiError::internal)?
}

/// Verifies on a blocking thread; a malformed stored hash counts as a mismatch.
pub async fn verify_password(password: String, stored: String) -> Result<bool, ApiError> {
    tokio::task::spawn_blocking(move || {
        let Ok(parsed) = PasswordHash::new(&stored) else {
            return Ok(false);
        };
        Ok(hasher()?
            .verify_password(password.as_bytes(), &parsed)
            .is_ok())
    })
    .await
    .map_err(ApiError::internal)?
}

/// A hash of a random password, verified against when the user does not exist, so
/// an unknown name and a wrong password take the same time.
pub async fn dummy_hash() -> Result<String, ApiError> {
    hash_password(hex(&random_bytes::<16>()?)).await
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct User {
    pub id: i64,
    /// The login name; `None` for a guest.
    pub name: Option<String>,
    pub display_name: String,
    pub guest: bool,
}

/// Creates a session and returns its token.
pub async fn new_session(writer: &Writer, user_id: i64) -> Result<String, ApiError> {
    let token = hex(&random_bytes::<32>()?);
    let t = now();
    writer
        .execute(
            "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
            vec![
                hash_token(&token).into(),
                user_id.into(),
                t.into(),
                (t + SESSION_SECONDS).into(),
            ],
        )
        .await?;
    Ok(token)
}

pub async fn user_by_id(db: &Db, id: i64) -> Result<Option<User>, ApiError> {
    let row = sqlx::query("SELECT id, name, display_name, guest FROM users WHERE id = $1")
        .bind(id)
        .fetch_optional(db)
        .await?;
    Ok(row.map(|r| User {
        id: r.get("id"),
        name: r.get("name"),
        display_name: r.get("display_name"),
        guest: r.get::<i64, _>("guest") != 0,
    }))
}

pub async fn user_by_token(db: &Db, token: &str) -> Result<Option<User>, ApiError> {
    let row = sqlx::query(
        "SELECT u.id, u.name, u.display_name, u.guest FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE s.token_hash = $1 AND s.expires_at > $2",
    )
    .bind(hash_token(token))
    .bind(now())
    .fetch_optional(db)
    .await?;
    Ok(row.map(|r| User {
        id: r.get("id"),
        name: r.get("name"),
        display_name: r.get("display_name"),
        guest: r.get::<i64, _>("guest") != 0,
    }))
}

/// Sessions already looked up, by token hash: every request and WebSocket names its
/// session, and asking the database each time put a round trip in front of every
/// request. Logout and registration (which renames a guest) forget entries.
#[derive(Default)]
pub struct SessionCache {
    map: std::sync::Mutex<std::collections::HashMap<String, (User, i64)>>,
}

/// A bound on the cache; past it the cache starts again (the database still knows).
const SESSION_CACHE_MAX: usize = 100_000;

impl SessionCache {
    fn get(&self, hash: &str, now: i64) -> Option<User> {
        let map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        map.get(hash)
            .filter(|(_, expires)| *expires > now)
            .map(|(u, _)| u.clone())
    }
    fn put(&self, hash: String, user: User, expires: i64) {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= SESSION_CACHE_MAX {
            map.clear();
        }
        map.insert(hash, (user, expires));
    }
    pub fn forget_token(&self, token: &str) {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        map.remove(&hash_token(token));
    }
    pub fn forget_user(&self, user_id: i64) {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        map.retain(|_, (u, _)| u.id != user_id);
    }
}

/// The user a session token belongs to, from the cache or the database.
pub async fn user_for_token(state: &AppState, token: &str) -> Result<Option<User>, ApiError> {
    let hash = hash_token(token);
    let t = now();
    if let Some(user) = state.sessions.get(&hash, t) {
        return Ok(Some(user));
    }
    let row = sqlx::query(
        "SELECT u.id, u.name, u.display_name, u.guest, s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE s.token_hash = $1 AND s.expires_at > $2",
    )
    .bind(&hash)
    .bind(t)
    .fetch_optional(&state.db)
    .await?;
    Ok(row.map(|r| {
        let user = User {
            id: r.get("id"),
            name: r.get("name"),
            display_name: r.get("display_name"),
            guest: r.get::<i64, _>("guest") != 0,
        };
        state.sessions.put(hash, user.clone(), r.get("expires_at"));
        user
    }))
}

/// How a request proved who it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Credential {
    Cookie(String),
    Bearer(String),
}

impl Credential {
    pub fn token(&self) -> &str {
        match self {
            Credential::Cookie(t) | Credential::Bearer(t) => t,
        }
    }
}

pub fn credential(parts: &Parts) -> Option<Credential> {
    if let Some(v) = parts.headers.get(header::AUTHORIZATION) {
        let v = v.to_str().ok()?;
        let token = v
            .strip_prefix("Bearer ")
            .or_else(|| v.strip_prefix("bearer "))?;
        return Some(Credential::Bearer(token.trim().to_string()));
    }
    for v in parts.headers.get_all(header::COOKIE) {
        let Ok(v) = v.to_str() else { continue };
        for pair in v.split(';') {
            if let Some((k, val)) = pair.trim().split_once('=') {
                if k == COOKIE && !val.is_empty() {
                    return Some(Credential::Cookie(val.to_string()));
                }
            }
        }
    }
    None
}

/// Refuses a state-changing request that a browser could have sent cross-site:
/// anything but GET/HEAD without a bearer token must carry the custom header.
pub fn check_csrf(parts: &Parts) -> Result<(), ApiError> {
    if matches!(parts.method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return Ok(());
    }
    if matches!(credential(parts), Some(Credential::Bearer(_))) {
        return Ok(());
    }
    if parts.headers.contains_key(CSRF_HEADER) {
        return Ok(());
    }
    Err(ApiError::forbidden(
        "csrf",
        format!(
            "a state-changing request without a bearer token must carry the `{CSRF_HEADER}` header"
        ),
    ))
}

/// The authenticated user of a request (extractor): 401 otherwise.
pub struct Auth {
    pub user: User,
    pub credential: Credential,
}

/// The user, if the request is authenticated (extractor that never refuses for that).
pub struct MaybeAuth(pub Option<Auth>);

impl FromRequestParts<Arc<AppState>> for MaybeAuth {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &Arc<AppState>,
    ) -> Result<Self, Self::Rejection> {
        let Some(cred) = credential(parts) else {
            return Ok(MaybeAuth(None));
        };
        if cred.token().len() > 256 {
            return Ok(MaybeAuth(None));
        }
        let user = user_for_token(state, cred.token()).await?;
        Ok(MaybeAuth(user.map(|user| Auth {
            user,
            credential: cred,
        })))
    }
}

impl FromRequestParts<Arc<AppState>> for Auth {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &Arc<AppState>,
    ) -> Result<Self, Self::Rejection> {
        let MaybeAuth(auth) = MaybeAuth::from_request_parts(parts, state).await?;
        let auth = auth.ok_or_else(ApiError::unauthenticated)?;
        if !state.account_limiter.check(&auth.user.id) {
            state
                .metrics
                .rate_limited
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                "too many requests from this account; slow down",
            ));
        }
        Ok(auth)
    }
}

pub fn session_cookie(token: &str, secure: bool) -> String {
    format!(
        "{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={SESSION_SECONDS}{}",
        if secure { "; Secure" } else { "" }
    )
}

pub fn clear_cookie(secure: bool) -> String {
    format!(
        "{COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{}",
        if secure { "; Secure" } else { "" }
    )
}

/// Login names: 3 to 32 letters, digits, `_`, `-`, `.`.
pub fn valid_name(name: &str) -> Result<(), ApiError> {
    let ok = (3..=32).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if ok {
        Ok(())
    } else {
        Err(ApiError::bad_request(
            "invalid_name",
            "a name is 3 to 32 letters, digits, `_`, `-` or `.`",
        ))
    }
}

pub fn valid_password(password: &str) -> Result<(), ApiError> {
    let n = password.chars().count();
    if !(8..=256).contains(&n) {
        return Err(ApiError::bad_request(
            "weak_password",
            "a password is 8 to 256 characters",
        ));
    }
    Ok(())
}

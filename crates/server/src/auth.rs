//! Accounts and sessions: argon2id passwords, random tokens stored hashed, session
//! cookies for browsers and bearer tokens for programs.

use crate::error::ApiError;
use crate::hashing::Hasher;
use crate::store::accounts::NewSession;
use crate::store::Store;
use crate::time::now;
use crate::AppState;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, Method};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::sync::Arc;

pub const COOKIE: &str = "takuge_session";
/// The header that a cookie-authenticated state-changing request must carry: a
/// cross-site form or image cannot set it, and we answer no CORS preflight.
pub const CSRF_HEADER: &str = "x-takuge";
pub const SESSION_SECONDS: i64 = 30 * 24 * 3600;

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

/// A hash of a random password, verified against when the user does not exist, so
/// an unknown name and a wrong password take the same time.
pub async fn dummy_hash(hasher: &Hasher) -> Result<String, ApiError> {
    hasher.hash(hex(&random_bytes::<16>()?)).await
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct User {
    pub id: i64,
    /// The login name; `None` for a guest.
    pub name: Option<String>,
    pub display_name: String,
    pub guest: bool,
}

/// Milliseconds since the epoch, but never the same twice in this process: the order
/// in which sessions began, even for several in one millisecond.
fn session_clock() -> i64 {
    static LAST: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(0);
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    let prev = LAST.fetch_max(ms, std::sync::atomic::Ordering::SeqCst);
    if prev >= ms {
        LAST.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1
    } else {
        ms
    }
}

/// Creates a session and returns its token. An account keeps at most
/// `MAX_SESSIONS`; past that its oldest sessions end (and their sockets close).
pub async fn new_session(state: &AppState, user_id: i64) -> Result<String, ApiError> {
    let token = hex(&random_bytes::<32>()?);
    let hash = hash_token(&token);
    let t = now();
    state
        .hub
        .writer()
        .insert_session(NewSession {
            token_hash: hash.clone(),
            user_id,
            created_at: t,
            expires_at: t + SESSION_SECONDS,
            created_ms: session_clock(),
        })
        .await?;
    crate::account::drop_oldest_sessions(state, user_id, &hash).await?;
    Ok(token)
}

pub async fn user_by_id(db: &Store, id: i64) -> Result<Option<User>, ApiError> {
    Ok(db.user_by_id(id).await?)
}

pub async fn user_by_token(db: &Store, token: &str) -> Result<Option<User>, ApiError> {
    Ok(db
        .session_user(&hash_token(token), now())
        .await?
        .map(|(user, _)| user))
}

/// Sessions already looked up, by token hash: every request and WebSocket names its
/// session, and asking the database each time put a round trip in front of every
/// request. Logout and registration (which renames a guest) forget entries. With
/// several nodes, what one node forgets every node forgets (`cluster::events`): else
/// a session ended on one node would still work on another.
#[derive(Default)]
pub struct SessionCache {
    map: std::sync::Mutex<std::collections::HashMap<String, (User, i64)>>,
    /// Where a forgetting goes to reach the other nodes (set on a named node).
    others: std::sync::OnceLock<tokio::sync::mpsc::UnboundedSender<Forgotten>>,
}

/// What a node forgot, for the others to forget too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Forgotten {
    Hashes(Vec<String>),
    User(i64),
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
        self.forget_hashes(&[hash_token(token)]);
    }
    pub fn forget_hashes(&self, hashes: &[String]) {
        self.forget_here(&Forgotten::Hashes(hashes.to_vec()));
        self.tell_others(Forgotten::Hashes(hashes.to_vec()));
    }
    pub fn forget_user(&self, user_id: i64) {
        self.forget_here(&Forgotten::User(user_id));
        self.tell_others(Forgotten::User(user_id));
    }

    /// Forgets on this node only (what another node forgot).
    pub fn forget_here(&self, what: &Forgotten) {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        match what {
            Forgotten::Hashes(hashes) => {
                for h in hashes {
                    map.remove(h);
                }
            }
            Forgotten::User(user_id) => map.retain(|_, (u, _)| u.id != *user_id),
        }
    }

    /// Forgets everything (this node may have missed what others forgot).
    pub fn clear_here(&self) {
        self.map.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// From now on, what this cache forgets is also sent to `others`.
    pub fn tell_others_through(&self, others: tokio::sync::mpsc::UnboundedSender<Forgotten>) {
        let _ = self.others.set(others);
    }

    fn tell_others(&self, what: Forgotten) {
        if let Some(tx) = self.others.get() {
            let _ = tx.send(what);
        }
    }
}

/// The user a session token belongs to, from the cache or the database.
pub async fn user_for_token(state: &AppState, token: &str) -> Result<Option<User>, ApiError> {
    let hash = hash_token(token);
    let t = now();
    if let Some(user) = state.sessions.get(&hash, t) {
        return Ok(Some(user));
    }
    let found = state.db.session_user(&hash, t).await?;
    Ok(found.map(|(user, expires_at)| {
        state.sessions.put(hash, user.clone(), expires_at);
        user
    }))
}

/// How a request proved who it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Credential {
    Cookie(String),
    Bearer(String),
    /// Another node of the cluster passed the request on and names the user
    /// (`cluster::trust`): it checked the session; there is no token here.
    Node,
}

impl Credential {
    pub fn token(&self) -> &str {
        match self {
            Credential::Cookie(t) | Credential::Bearer(t) => t,
            Credential::Node => "",
        }
    }
}

/// The credential a request presents. Two `Authorization` headers, or more than one
/// `takuge_session` cookie (however spread over `Cookie` headers), are refused rather
/// than one picked: a cookie planted from a sibling site (cookie tossing) would
/// otherwise choose the session. A bearer token, when present, is used and cookies are
/// ignored (programs send no cookies).
pub fn presented(headers: &HeaderMap) -> Result<Option<Credential>, ApiError> {
    let mut auths = headers.get_all(header::AUTHORIZATION).iter();
    if let Some(v) = auths.next() {
        if auths.next().is_some() {
            return Err(ambiguous());
        }
        let Ok(v) = v.to_str() else { return Ok(None) };
        let token = v
            .strip_prefix("Bearer ")
            .or_else(|| v.strip_prefix("bearer "));
        return Ok(token.map(|t| Credential::Bearer(t.trim().to_string())));
    }
    let mut found = None;
    for v in headers.get_all(header::COOKIE) {
        let Ok(v) = v.to_str() else { continue };
        for pair in v.split(';') {
            let Some((k, val)) = pair.trim().split_once('=') else {
                continue;
            };
            if k.trim() != COOKIE {
                continue;
            }
            if found.is_some() {
                return Err(ambiguous());
            }
            found = Some(val.trim().to_string());
        }
    }
    Ok(found.filter(|v| !v.is_empty()).map(Credential::Cookie))
}

fn ambiguous() -> ApiError {
    ApiError::bad_request(
        "ambiguous_session",
        "the request carries more than one session (cookie or authorization); log in again",
    )
}

/// The credential, or none when there is none or it is ambiguous.
pub fn credential(parts: &Parts) -> Option<Credential> {
    presented(&parts.headers).ok().flatten()
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
        if let Some(relayed) = parts.extensions.get::<crate::cluster::trust::Relayed>() {
            let Some(id) = relayed.user else {
                return Ok(MaybeAuth(None));
            };
            let user = user_by_id(&state.db, id).await?;
            return Ok(MaybeAuth(user.map(|user| Auth {
                user,
                credential: Credential::Node,
            })));
        }
        let Some(cred) = presented(&parts.headers)? else {
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
            return Err(state.metrics.rate_limited(
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

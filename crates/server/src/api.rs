//! The HTTP API: accounts, the lobby, tables, records and replays.

use crate::auth::{self, Auth, Credential, MaybeAuth, User};
use crate::db::now;
use crate::error::ApiError;
use crate::error::ErrorBody;
pub use crate::extract::ApiJson;
use crate::extract::{ApiPath, ApiQuery};
use crate::openapi::{GameMetaSchema, MatchRecordSchema, ReplayStepSchema, ViewerSchema};
use crate::table::{Caller, Clock, Cmd, TableId, TableInfo};
use crate::AppState;
use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use serde_json::Value;
use sqlx::Row;
use std::sync::Arc;
use takuge_engine::{GameMeta, MatchRecord, Seat, Viewer};
pub use takuge_protocol::{
    ActBody, BotsBody, CreateTable, Credentials, InviteQuery, LobbyQuery, ReplayQuery, SitBody,
};
use utoipa::ToSchema;

type S = State<Arc<AppState>>;

fn caller(user: &User) -> Caller {
    Caller {
        user_id: user.id,
        name: user.display_name.clone(),
    }
}

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
    let name = body.name;
    let result = state
        .hub
        .writer()
        .write(move |c| {
            Box::pin(async move {
                match guest {
                    // `guest = 1`: of two registrations racing for one guest, the
                    // second changes no row and is told so.
                    Some(id) => sqlx::query(
                        "UPDATE users SET name = $1, display_name = $2, password_hash = $3, guest = 0, name_key = $4 WHERE id = $5 AND guest = 1",
                    )
                    .bind(&name)
                    .bind(&name)
                    .bind(&hash)
                    .bind(&key)
                    .bind(id)
                    .execute(&mut *c)
                    .await
                    .map(|done| (done.rows_affected() == 1).then_some(id)),
                    None => crate::db::insert_returning_id(
                        sqlx::query(
                            "INSERT INTO users (name, display_name, password_hash, guest, created_at, name_key) VALUES ($1, $2, $3, 0, $4, $5) RETURNING id",
                        )
                        .bind(&name)
                        .bind(&name)
                        .bind(&hash)
                        .bind(now())
                        .bind(&key),
                        c,
                    )
                    .await
                    .map(Some),
                }
            })
        })
        .await;
    let id = match result {
        Ok(Some(id)) => id,
        Ok(None) => {
            return Err(ApiError::conflict(
                "already_registered",
                "this guest has registered already (another request did it first)",
            ))
        }
        Err(sqlx::Error::Database(d)) if d.is_unique_violation() => {
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
    let row = sqlx::query(
        "SELECT id, password_hash FROM users
         WHERE guest = 0 AND (name_key = $1 OR (name_key IS NULL AND name = $2))
         ORDER BY name_key IS NULL",
    )
    .bind(crate::policy::name_key(&body.name))
    .bind(&body.name)
    .fetch_optional(&state.db)
    .await?;
    let (id, stored) = match row {
        Some(r) => (
            Some(r.get::<i64, _>("id")),
            r.get::<Option<String>, _>("password_hash"),
        ),
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
    let id: i64 = state
        .hub
        .writer()
        .write(move |c| {
            Box::pin(async move {
                crate::db::insert_returning_id(
                    sqlx::query(
                        "INSERT INTO users (name, display_name, password_hash, guest, created_at) VALUES (NULL, $1, NULL, 1, $2) RETURNING id",
                    )
                    .bind(format!("guest-{suffix}"))
                    .bind(now()),
                    c,
                )
                .await
            })
        })
        .await?;
    let user = auth::user_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::internal("guest vanished"))?;
    let token = auth::new_session(&state, id).await?;
    Ok(with_cookie(&state, SessionOut { user, token }))
}

#[derive(Serialize, ToSchema)]
pub struct Done {
    pub ok: bool,
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

#[derive(Serialize, ToSchema)]
pub struct Games {
    pub games: Vec<GameEntry>,
}

#[derive(Serialize, ToSchema)]
pub struct GameEntry {
    #[schema(value_type = GameMetaSchema)]
    pub meta: GameMeta,
    /// The options a table gets when it is created with none (the recommended setup).
    pub default_options: Value,
    /// Every distinct option set the game accepts, so a client can offer each option's
    /// values without knowing the game.
    pub option_sets: Vec<Value>,
    /// The bots' names; the first is the default.
    pub bots: Vec<&'static str>,
}

#[utoipa::path(get, path = "/api/games", tag = "games",
    summary = "the games, their default options and bots",
    responses((status = 200, description = "the catalog", body = Games)))]
pub async fn games(State(state): S) -> Json<Games> {
    let games = state
        .hub
        .registry()
        .games()
        .map(|g| GameEntry {
            meta: *g.meta(),
            default_options: g.default_options(),
            option_sets: g.option_sets(),
            bots: g.bot_names(),
        })
        .collect();
    Json(Games { games })
}

/// A new table's rows: the table and its seats, written in one transaction.
struct NewTableRow {
    game: String,
    options: String,
    players: i64,
    host: i64,
    private: i64,
    invite: Option<String>,
    clock: String,
    seed: i64,
    at: i64,
    rules_version: i64,
    /// How many tables not yet started the host may have (`caps`).
    open_allowed: i64,
    /// Per seat, who sits there (the host, or nobody) and the name shown.
    seats: Vec<(Option<i64>, String)>,
}

impl NewTableRow {
    /// Inserts the table and its seats; the table's id, or `None` when the host has
    /// as many tables not yet started as it may.
    async fn insert(self, conn: &mut sqlx::AnyConnection) -> Result<Option<i64>, sqlx::Error> {
        use sqlx::Connection;
        let mut tx = conn.begin().await?;
        if crate::caps::open_tables_of(&mut tx, self.host).await? >= self.open_allowed {
            return Ok(None);
        }
        let id: i64 = sqlx::query(
            "INSERT INTO game_tables (game, options, players, host, private, invite_code, clock, seed, status, created_at, updated_at, rules_version)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'open', $9, $10, $11)
             RETURNING id",
        )
        .bind(&self.game)
        .bind(&self.options)
        .bind(self.players)
        .bind(self.host)
        .bind(self.private)
        .bind(&self.invite)
        .bind(&self.clock)
        .bind(self.seed)
        .bind(self.at)
        .bind(self.at)
        .bind(self.rules_version)
        .fetch_one(&mut *tx)
        .await?
        .get(0);
        // Every seat in one statement (each statement is a round trip to the database).
        let values: Vec<String> = (0..self.seats.len())
            .map(|k| {
                let p = k * 4;
                format!("(${}, ${}, ${}, NULL, ${})", p + 1, p + 2, p + 3, p + 4)
            })
            .collect();
        let sql = format!(
            "INSERT INTO seats (table_id, seat, user_id, bot, name) VALUES {}",
            values.join(", ")
        );
        let mut insert = sqlx::query(&sql);
        for (k, (user, name)) in self.seats.iter().enumerate() {
            insert = insert.bind(id).bind(k as i64).bind(*user).bind(name);
        }
        insert.execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(Some(id))
    }
}

#[utoipa::path(post, path = "/api/tables", tag = "tables",
    summary = "create a table (the caller is its host)",
    request_body = CreateTable,
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 201, description = "the new table", body = TableInfo),
        (status = 400, description = "`unknown_game`, `invalid_options`, `invalid_setup`, `invalid_clock`, `fixed_seed_refused`", body = ErrorBody),
        (status = 409, description = "`too_many_tables`: the caller hosts as many tables not yet started as it may (10; a guest 3)", body = ErrorBody),
    ))]
pub async fn create_table(
    State(state): S,
    auth: Auth,
    ApiJson(body): ApiJson<CreateTable>,
) -> Result<(StatusCode, Json<TableInfo>), ApiError> {
    let game = state
        .hub
        .registry()
        .get(&body.game)
        .cloned()
        .ok_or_else(|| {
            let ids: Vec<&str> = state.hub.registry().ids().collect();
            ApiError::bad_request(
                "unknown_game",
                format!("no game {:?}; the games are {}", body.game, ids.join(", ")),
            )
        })?;
    game.validate(&body.options, body.players)?;
    body.clock.validate()?;
    let options = if body.options.is_null() {
        game.default_options()
    } else {
        body.options.clone()
    };
    let seed = match body.seed {
        Some(_) if !state.config.allow_fixed_seeds => {
            return Err(ApiError::bad_request(
                "fixed_seed_refused",
                "this server does not accept fixed seeds",
            ))
        }
        Some(s) => s,
        None => u64::from_le_bytes(auth::random_bytes::<8>()?),
    };
    let invite = if body.private {
        Some(auth::hex(&auth::random_bytes::<12>()?))
    } else {
        None
    };
    let seats: Vec<crate::table::SeatInfo> = (0..body.players)
        .map(|k| {
            let sit = k == 0 && body.sit.unwrap_or(true);
            crate::table::SeatInfo {
                seat: k as u8,
                user_id: sit.then_some(auth.user.id),
                name: if sit {
                    auth.user.display_name.clone()
                } else {
                    String::new()
                },
                bot: None,
                replaced: false,
            }
        })
        .collect();
    let t = now();
    let open_allowed = crate::caps::open_tables_allowed(&state.config, &auth.user);
    let row = NewTableRow {
        game: body.game.clone(),
        options: options.to_string(),
        players: body.players as i64,
        host: auth.user.id,
        private: body.private as i64,
        invite: invite.clone(),
        clock: serde_json::to_string(&body.clock).map_err(ApiError::internal)?,
        seed: seed as i64,
        at: t,
        rules_version: i64::from(game.rules_version()),
        open_allowed,
        seats: seats.iter().map(|s| (s.user_id, s.name.clone())).collect(),
    };
    let id = state
        .hub
        .writer()
        .write(move |c| Box::pin(row.insert(c)))
        .await?
        .ok_or_else(|| crate::caps::too_many_tables(open_allowed))?;
    state.hub.adopt(crate::table::TableMeta {
        id,
        game: body.game.clone(),
        options,
        players: body.players,
        host: auth.user.id,
        private: body.private,
        invite_code: invite,
        clock: body.clock,
        seed,
        status: crate::table::Status::Open,
        seats,
        outcome: None,
        clock_state: None,
        rules: Some(game.rules_version()),
        abandoned_reason: None,
    })?;
    let c = caller(&auth.user);
    let info = state
        .hub
        .ask(id, |reply| Cmd::Info {
            caller: c,
            invite: None,
            reply,
        })
        .await?;
    Ok((StatusCode::CREATED, Json(info)))
}

#[derive(Serialize, ToSchema)]
pub struct Lobby {
    /// Newest first, at most 200.
    pub tables: Vec<LobbyTable>,
}

#[derive(Serialize, ToSchema)]
pub struct LobbyTable {
    pub id: i64,
    pub game: String,
    pub players: i64,
    pub seats_taken: i64,
    pub host: i64,
    /// The host's display name.
    pub host_name: String,
    /// `open` or `playing`.
    pub status: String,
    /// The table's options (as created; the game's defaults filled in).
    #[schema(value_type = Object)]
    pub options: Value,
    pub clock: Option<Clock>,
    /// Who sits where: a person's display name, or a bot's name.
    pub seats: Vec<LobbySeat>,
}

#[derive(Serialize, ToSchema)]
pub struct LobbySeat {
    pub seat: i64,
    /// A person's display name (absent for a bot or an empty seat).
    pub name: Option<String>,
    /// The bot in the seat, if any.
    pub bot: Option<String>,
}

#[utoipa::path(get, path = "/api/tables", tag = "tables",
    summary = "the lobby: public tables open to join or in play to watch (filters: game, players, status)",
    params(LobbyQuery),
    responses((status = 200, description = "public tables, newest first", body = Lobby)))]
pub async fn lobby(
    State(state): S,
    ApiQuery(q): ApiQuery<LobbyQuery>,
) -> Result<Json<Lobby>, ApiError> {
    let status = q.status.unwrap_or_default().as_str();
    let rows = sqlx::query(
        "SELECT t.id, t.game, t.players, t.clock, t.host, t.options, u.display_name AS host_name,
                (SELECT COUNT(*) FROM seats s WHERE s.table_id = t.id AND (s.user_id IS NOT NULL OR s.bot IS NOT NULL)) AS taken
         FROM game_tables t JOIN users u ON u.id = t.host
         WHERE t.status = $1 AND t.private = 0
           AND ($2 IS NULL OR t.game = $3) AND ($4 IS NULL OR t.players = $5)
         ORDER BY t.id DESC LIMIT 200",
    )
    .bind(status)
    .bind(&q.game)
    .bind(&q.game)
    .bind(q.players)
    .bind(q.players)
    .fetch_all(&state.db)
    .await?;
    let ids: Vec<i64> = rows.iter().map(|r| r.get("id")).collect();
    let mut seats: std::collections::HashMap<i64, Vec<LobbySeat>> = Default::default();
    if !ids.is_empty() {
        // The listed tables' seats in one query (at most 200 ids, bound one by one).
        let marks: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT s.table_id, s.seat, s.bot, CASE WHEN s.user_id IS NULL THEN NULL ELSE s.name END AS name
             FROM seats s WHERE s.table_id IN ({}) ORDER BY s.table_id, s.seat",
            marks.join(", ")
        );
        let mut query = sqlx::query(&sql);
        for id in &ids {
            query = query.bind(id);
        }
        for r in &query.fetch_all(&state.db).await? {
            seats.entry(r.get("table_id")).or_default().push(LobbySeat {
                seat: r.get("seat"),
                name: r.get("name"),
                bot: r.get("bot"),
            });
        }
    }
    let tables = rows
        .iter()
        .map(|r| {
            let id: i64 = r.get("id");
            LobbyTable {
                id,
                game: r.get("game"),
                players: r.get("players"),
                seats_taken: r.get("taken"),
                host: r.get("host"),
                host_name: r.get("host_name"),
                status: status.to_string(),
                options: serde_json::from_str(&r.get::<String, _>("options"))
                    .unwrap_or(Value::Null),
                clock: serde_json::from_str(&r.get::<String, _>("clock")).ok(),
                seats: seats.remove(&id).unwrap_or_default(),
            }
        })
        .collect();
    Ok(Json(Lobby { tables }))
}

#[utoipa::path(get, path = "/api/tables/{id}", tag = "tables",
    summary = "a table (private ones need ?invite=)",
    params(("id" = i64, Path, description = "the table"), InviteQuery),
    security(("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "the table", body = TableInfo),
        (status = 404, description = "`unknown_table` (also a private table without its code)", body = ErrorBody),
    ))]
pub async fn table_info(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<TableId>,
    ApiQuery(q): ApiQuery<InviteQuery>,
) -> Result<Json<TableInfo>, ApiError> {
    let c = caller(&auth.user);
    let info = state
        .hub
        .ask(id, |reply| Cmd::Info {
            caller: c,
            invite: q.invite,
            reply,
        })
        .await?;
    Ok(Json(info))
}

#[utoipa::path(post, path = "/api/tables/{id}/sit", tag = "tables", summary = "take a seat",
    params(("id" = i64, Path, description = "the table")),
    request_body = SitBody,
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "the table", body = TableInfo),
        (status = 400, description = "`no_such_seat`", body = ErrorBody),
        (status = 404, description = "`unknown_table` (also a private table the caller may not see)", body = ErrorBody),
        (status = 409, description = "`seat_taken`, `table_full`, `already_seated`, `wrong_status`", body = ErrorBody),
    ))]
pub async fn sit(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<TableId>,
    ApiJson(body): ApiJson<SitBody>,
) -> Result<Json<TableInfo>, ApiError> {
    let c = caller(&auth.user);
    Ok(Json(
        state
            .hub
            .ask(id, |reply| Cmd::Sit {
                caller: c,
                seat: body.seat,
                invite: body.invite,
                reply,
            })
            .await?,
    ))
}

/// Before the start the seat is freed; during play a bot plays it from then on.
#[utoipa::path(post, path = "/api/tables/{id}/leave", tag = "tables",
    summary = "leave (during play a bot takes the seat)",
    params(("id" = i64, Path, description = "the table")),
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "the table", body = TableInfo),
        (status = 404, description = "`unknown_table` (also a private table the caller may not see)", body = ErrorBody),
        (status = 409, description = "`not_seated`, `wrong_status`", body = ErrorBody),
    ))]
pub async fn leave(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<TableId>,
) -> Result<Json<TableInfo>, ApiError> {
    let c = caller(&auth.user);
    Ok(Json(
        state
            .hub
            .ask(id, |reply| Cmd::Leave { caller: c, reply })
            .await?,
    ))
}

#[utoipa::path(post, path = "/api/tables/{id}/bots", tag = "tables",
    summary = "host: fill empty seats (or one seat) with a bot",
    params(("id" = i64, Path, description = "the table")),
    request_body = BotsBody,
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "the table", body = TableInfo),
        (status = 400, description = "`unknown_bot`, `no_such_seat`", body = ErrorBody),
        (status = 403, description = "`not_host`", body = ErrorBody),
        (status = 404, description = "`unknown_table` (also a private table the caller may not see)", body = ErrorBody),
        (status = 409, description = "`wrong_status`, `seat_taken`", body = ErrorBody),
    ))]
pub async fn fill_bots(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<TableId>,
    ApiJson(body): ApiJson<BotsBody>,
) -> Result<Json<TableInfo>, ApiError> {
    let c = caller(&auth.user);
    Ok(Json(
        state
            .hub
            .ask(id, |reply| Cmd::FillBots {
                caller: c,
                bot: body.bot,
                seat: body.seat,
                reply,
            })
            .await?,
    ))
}

#[utoipa::path(post, path = "/api/tables/{id}/start", tag = "tables",
    summary = "host: start the game",
    params(("id" = i64, Path, description = "the table")),
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "the table, playing", body = TableInfo),
        (status = 403, description = "`not_host`", body = ErrorBody),
        (status = 404, description = "`unknown_table` (also a private table the caller may not see)", body = ErrorBody),
        (status = 409, description = "`seats_empty`, `wrong_status`", body = ErrorBody),
    ))]
pub async fn start(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<TableId>,
) -> Result<Json<TableInfo>, ApiError> {
    let c = caller(&auth.user);
    Ok(Json(
        state
            .hub
            .ask(id, |reply| Cmd::Start { caller: c, reply })
            .await?,
    ))
}

#[utoipa::path(post, path = "/api/tables/{id}/abandon", tag = "tables",
    summary = "host: abandon the table",
    params(("id" = i64, Path, description = "the table")),
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "the table, abandoned", body = TableInfo),
        (status = 403, description = "`not_host`", body = ErrorBody),
        (status = 404, description = "`unknown_table` (also a private table the caller may not see)", body = ErrorBody),
        (status = 409, description = "`wrong_status`", body = ErrorBody),
    ))]
pub async fn abandon(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<TableId>,
) -> Result<Json<TableInfo>, ApiError> {
    let c = caller(&auth.user);
    Ok(Json(
        state
            .hub
            .ask(id, |reply| Cmd::Abandon { caller: c, reply })
            .await?,
    ))
}

#[derive(Serialize, ToSchema)]
pub struct Acted {
    /// The table's version after the action.
    pub version: u64,
}

/// The same as the WebSocket's `act` message.
#[utoipa::path(post, path = "/api/tables/{id}/actions", tag = "tables",
    summary = "play an action chosen at a version",
    params(("id" = i64, Path, description = "the table")),
    request_body = ActBody,
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "committed", body = Acted),
        (status = 400, description = "`malformed_action`, `illegal`, `no_such_seat`, `invalid_action_id` and the game's own reasons", body = ErrorBody),
        (status = 403, description = "`not_seated`, `foreign_seat`", body = ErrorBody),
        (status = 404, description = "`unknown_table` (also a private table the caller may not see)", body = ErrorBody),
        (status = 409, description = "`stale_version`, `not_your_turn`, `game_over`, `version_conflict`, `wrong_status`, `id_reused`", body = ErrorBody),
    ))]
pub async fn act(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<TableId>,
    ApiJson(body): ApiJson<ActBody>,
) -> Result<Json<Acted>, ApiError> {
    let c = caller(&auth.user);
    let version = state
        .hub
        .ask(id, |reply| Cmd::Act {
            caller: c,
            seat: body.seat,
            version: body.version,
            draft: body.draft,
            action: body.action,
            id: body.id,
            reply,
        })
        .await?;
    Ok(Json(Acted { version }))
}

#[utoipa::path(get, path = "/api/tables/{id}/record", tag = "tables",
    summary = "finished: the match record (takuge replay reads it)",
    params(("id" = i64, Path, description = "the table")),
    security(("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "the match record, as a download", body = MatchRecordSchema,
            headers(("content-disposition" = String, description = "attachment; filename=\"takuge-{id}.json\""))),
        (status = 404, description = "`unknown_table` (also a private table the caller may not see)", body = ErrorBody),
        (status = 409, description = "`not_finished`", body = ErrorBody),
    ))]
pub async fn record(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<TableId>,
) -> Result<Response, ApiError> {
    let c = caller(&auth.user);
    let record = state
        .hub
        .ask(id, |reply| Cmd::Record { caller: c, reply })
        .await?;
    Ok((
        [(
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"takuge-{id}.json\""),
        )],
        Json(record),
    )
        .into_response())
}

#[derive(Serialize, ToSchema)]
pub struct Replay {
    #[schema(value_type = MatchRecordSchema)]
    pub record: MatchRecord,
    #[schema(value_type = ViewerSchema)]
    pub viewer: Viewer,
    /// Version 0 (the setup) and then one step per action.
    #[schema(value_type = Vec<ReplayStepSchema>)]
    pub steps: Vec<Value>,
}

#[utoipa::path(get, path = "/api/tables/{id}/replay", tag = "tables",
    summary = "finished: views step by step for ?seat=K (or the spectator)",
    params(("id" = i64, Path, description = "the table"), ReplayQuery),
    security(("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "the record and every view of the viewer, step by step", body = Replay),
        (status = 400, description = "`no_such_seat`", body = ErrorBody),
        (status = 404, description = "`unknown_table` (also a private table the caller may not see)", body = ErrorBody),
        (status = 409, description = "`not_finished`, `rules_version` (a match of other rules than this server's)", body = ErrorBody),
    ))]
pub async fn replay(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<TableId>,
    ApiQuery(q): ApiQuery<ReplayQuery>,
) -> Result<Json<Replay>, ApiError> {
    let c = caller(&auth.user);
    let record = state
        .hub
        .ask(id, |reply| Cmd::Record { caller: c, reply })
        .await?;
    let viewer = match q.seat {
        None => Viewer::Spectator,
        Some(k) if (k as usize) < record.players() => Viewer::Seat(Seat(k)),
        Some(k) => {
            return Err(ApiError::bad_request(
                "no_such_seat",
                format!("seat {k} is not at this table"),
            ))
        }
    };
    let game = state
        .hub
        .registry()
        .get(&record.game)
        .cloned()
        .ok_or_else(|| ApiError::internal("record of an unknown game"))?;
    let steps = crate::table::replay_steps(game.as_ref(), &record, viewer)?;
    Ok(Json(Replay {
        record,
        viewer,
        steps,
    }))
}

/// `/ws` as the route list and the document see it; the connection itself is
/// `ws::upgrade`'s.
#[utoipa::path(get, path = "/ws", tag = "server",
    summary = "the WebSocket of live play (docs/PROTOCOL.md)",
    description = "Upgrades to the WebSocket of live play, whose messages docs/PROTOCOL.md \
        describes. A cookie-authenticated upgrade must come with a same-host `Origin`.",
    params(("token" = Option<String>, Query,
        description = "the session token, for clients that can set neither a cookie nor a header")),
    security(("bearer" = []), ("cookie" = []), ("token" = [])),
    responses(
        (status = 101, description = "switching to the WebSocket protocol"),
        (status = 400, description = "`not_websocket`: not a WebSocket upgrade", body = ErrorBody),
        (status = 403, description = "`csrf`: a cookie-authenticated upgrade from another site", body = ErrorBody),
    ))]
pub async fn websocket(state: S, req: Request) -> Result<Response, ApiError> {
    let query = crate::extract::query(req.uri().query())?;
    crate::ws::upgrade(state, query, req).await
}

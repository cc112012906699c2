//! Tables: creating, the lobby, seats, bots, starting, abandoning, acting.

use crate::auth::{self, Auth};
use crate::error::ApiError;
use crate::error::ErrorBody;
use crate::extract::ApiJson;
use crate::extract::{ApiPath, ApiQuery};
use crate::table::{Clock, Cmd, TableId, TableInfo, Turn};
use crate::time::now;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use serde_json::Value;
use takuge_protocol::{ActBody, BotsBody, CreateTable, InviteQuery, LobbyQuery, SitBody};
use utoipa::ToSchema;

use super::{caller, S};

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
    let row = crate::store::tables::NewTable {
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
        .create_table(row)
        .await?
        .ok_or_else(|| crate::caps::too_many_tables(open_allowed))?;
    let placed = state
        .hub
        .adopt(
            crate::table::TableMeta {
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
            },
            auth.user.id,
        )
        .await?;
    // Placed on another node (several nodes): the table as created.
    let info = match placed {
        Some(info) => info,
        None => {
            let c = caller(&auth.user);
            state
                .hub
                .ask(id, |reply| Cmd::Info {
                    caller: c,
                    invite: None,
                    reply,
                })
                .await?
        }
    };
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
    let (rows, seat_rows) = state.db.lobby(status, q.game.as_deref(), q.players).await?;
    let mut seats: std::collections::HashMap<i64, Vec<LobbySeat>> = Default::default();
    for s in seat_rows {
        seats.entry(s.table_id).or_default().push(LobbySeat {
            seat: s.seat,
            name: s.name,
            bot: s.bot,
        });
    }
    let tables = rows
        .into_iter()
        .map(|r| LobbyTable {
            id: r.id,
            game: r.game,
            players: r.players,
            seats_taken: r.taken,
            host: r.host,
            host_name: r.host_name,
            status: status.to_string(),
            options: serde_json::from_str(&r.options).unwrap_or(Value::Null),
            clock: serde_json::from_str(&r.clock).ok(),
            seats: seats.remove(&r.id).unwrap_or_default(),
        })
        .collect();
    Ok(Json(Lobby { tables }))
}

#[utoipa::path(get, path = "/api/tables/{id}/turn", tag = "tables",
    summary = "whether it is your move at a table in play",
    params(("id" = i64, Path, description = "the table")),
    security(("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "whether one of your own seats is pending, and its deadline", body = Turn),
        (status = 404, description = "`unknown_table` (also a private table you do not sit at)", body = ErrorBody),
    ))]
/// The profile's "your move" for one table, from the table itself: a node that does
/// not run the table asks this of the one that does (`cluster::forward`).
pub async fn table_turn(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<TableId>,
) -> Result<Json<Turn>, ApiError> {
    let c = caller(&auth.user);
    let turn = state
        .hub
        .ask(id, |reply| Cmd::Turn { caller: c, reply })
        .await?;
    Ok(Json(turn))
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
            asked: std::time::Instant::now(),
            reply,
        })
        .await?;
    Ok(Json(Acted { version }))
}

//! The catalog's history: every change (the seed, additions, imports, corrections)
//! with who made it and who decided on it; the admin's queue and decisions.

use super::Person;
use crate::auth::{Auth, MaybeAuth};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{ApiPath, ApiQuery};
use crate::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use serde_json::Value;
use std::sync::Arc;
use takuge_protocol::ChangesQuery;
use utoipa::ToSchema;

type S = State<Arc<AppState>>;

/// One change of the catalog.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Change {
    pub id: i64,
    pub game_id: i64,
    /// The game's English (else Japanese) name now.
    pub game_name: String,
    /// `seed`, `add`, `import` or `correct`.
    pub kind: String,
    /// The fields it sets (an addition: all it gave).
    #[schema(value_type = Object)]
    pub fields: Value,
    /// Absent for the server's own (the seed).
    pub author: Option<Person>,
    /// `pending`, `approved` or `rejected`.
    pub status: String,
    pub decided_by: Option<Person>,
    /// Unix seconds.
    pub decided_at: Option<i64>,
    pub created_at: i64,
}

pub async fn change_by_id(db: &crate::store::Store, id: i64) -> Result<Change, ApiError> {
    db.change_by_id(id).await?.ok_or_else(|| unknown_change(id))
}

fn unknown_change(id: i64) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "unknown_change",
        format!("there is no catalog change {id}"),
    )
}

#[derive(Serialize, ToSchema)]
pub struct Changes {
    /// Newest first, at most 500.
    pub changes: Vec<Change>,
    /// Whether the caller is an admin (who sees everyone's and decides on them).
    pub admin: bool,
}

#[utoipa::path(get, path = "/api/catalog/changes", tag = "shelf",
    summary = "catalog changes by status (default pending): an admin's queue, or the caller's own",
    params(ChangesQuery),
    security(("bearer" = []), ("cookie" = [])),
    responses((status = 200, description = "the changes, newest first", body = Changes)))]
pub async fn list_changes(
    State(state): S,
    auth: Auth,
    ApiQuery(q): ApiQuery<ChangesQuery>,
) -> Result<Json<Changes>, ApiError> {
    let admin = super::admin::is_admin(&state.db, auth.user.id).await?;
    let status = q.status.unwrap_or_default().as_str();
    let author = (!admin).then_some(auth.user.id);
    let changes = state.db.changes_by_status(status, author).await?;
    Ok(Json(Changes { changes, admin }))
}

#[derive(Serialize, ToSchema)]
pub struct GameHistory {
    /// Newest first.
    pub changes: Vec<Change>,
}

#[utoipa::path(get, path = "/api/catalog/{id}/history", tag = "shelf",
    summary = "every change of a game, with who made and who decided it",
    params(("id" = String, Path, description = "a catalog id or a takuge game id")),
    security((), ("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "the game's history, newest first", body = GameHistory),
        (status = 404, description = "`unknown_game`", body = ErrorBody),
    ))]
pub async fn history(
    State(state): S,
    MaybeAuth(auth): MaybeAuth,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<GameHistory>, ApiError> {
    let game = super::catalog_api::visible_game(&state, &id, auth.as_ref()).await?;
    let changes = state.db.game_history(game.id).await?;
    Ok(Json(GameHistory { changes }))
}

async fn decide(state: &AppState, auth: &Auth, id: i64, approve: bool) -> Result<Change, ApiError> {
    super::admin::require_admin(&state.db, auth.user.id).await?;
    change_by_id(&state.db, id).await?;
    let admin = auth.user.id;
    let result = state.hub.writer().decide_change(id, approve, admin).await;
    match result {
        Ok(Some(())) => change_by_id(&state.db, id).await,
        Ok(None) => Err(ApiError::conflict(
            "not_pending",
            "this change has been decided already",
        )),
        Err(e) if e.conflict().is_some() => Err(ApiError::conflict(
            "bgg_id_taken",
            "the correction gives a BoardGameGeek id another game has",
        )),
        Err(e) => Err(e.into()),
    }
}

#[utoipa::path(post, path = "/api/catalog/changes/{id}/approve", tag = "shelf",
    summary = "admin: approve a pending change (an addition is listed, a correction applied)",
    params(("id" = i64, Path, description = "the change")),
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "the change, approved", body = Change),
        (status = 403, description = "`not_admin`", body = ErrorBody),
        (status = 404, description = "`unknown_change`", body = ErrorBody),
        (status = 409, description = "`not_pending`, `bgg_id_taken`", body = ErrorBody),
    ))]
pub async fn approve(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<Change>, ApiError> {
    Ok(Json(decide(&state, &auth, id, true).await?))
}

#[utoipa::path(post, path = "/api/catalog/changes/{id}/reject", tag = "shelf",
    summary = "admin: reject a pending change (a rejected addition stays on its adder's shelf, unlisted)",
    params(("id" = i64, Path, description = "the change")),
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "the change, rejected", body = Change),
        (status = 403, description = "`not_admin`", body = ErrorBody),
        (status = 404, description = "`unknown_change`", body = ErrorBody),
        (status = 409, description = "`not_pending`", body = ErrorBody),
    ))]
pub async fn reject(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<Change>, ApiError> {
    Ok(Json(decide(&state, &auth, id, false).await?))
}

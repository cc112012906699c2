//! `/api/catalog`: searching, a game's page, adding games and proposing corrections.

use super::catalog::{merged, CatalogGame};
use super::changes::Change;
use super::plays::{recent_public_plays, Play};
use super::registered;
use crate::api::ApiJson;
use crate::auth::{Auth, MaybeAuth};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{ApiPath, ApiQuery};
use crate::store::shelf::catalog::GameKey;
use crate::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use std::sync::Arc;
use takuge_protocol::{GameFields, ShelfQuery};
use utoipa::ToSchema;

type S = State<Arc<AppState>>;

#[derive(Serialize, ToSchema)]
pub struct CatalogPage {
    pub games: Vec<CatalogGame>,
    /// How many match the filters (the page holds at most `limit`).
    pub total: i64,
}

#[utoipa::path(get, path = "/api/catalog", tag = "shelf",
    summary = "search the catalog (approved games): words, players, best with, time, age, year; sorted",
    params(ShelfQuery),
    responses((status = 200, description = "a page of games and how many match", body = CatalogPage)))]
pub async fn search(
    State(state): S,
    ApiQuery(q): ApiQuery<ShelfQuery>,
) -> Result<Json<CatalogPage>, ApiError> {
    let min_rating = q
        .min_rating
        .map(|r| takuge_protocol::rating_tenths(r.clamp(1.0, 10.0)))
        .transpose()?;
    let (games, total) = state.db.search_catalog(&q, min_rating).await?;
    Ok(Json(CatalogPage { games, total }))
}

pub fn unknown_game(id: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "unknown_game",
        format!("the catalog has no game {id:?}"),
    )
}

/// A game by its catalog id or takuge id, as `viewer` may see it: approved games to
/// everyone, a pending or rejected one to its adder and admins.
pub async fn visible_game(
    state: &AppState,
    id: &str,
    viewer: Option<&Auth>,
) -> Result<CatalogGame, ApiError> {
    let key = match id.parse::<i64>() {
        Ok(n) => GameKey::Id(n),
        Err(_) => GameKey::Slug(id),
    };
    let (game, adder) = state
        .db
        .catalog_game(key)
        .await?
        .ok_or_else(|| unknown_game(id))?;
    if game.status != "approved" {
        let allowed = match viewer {
            Some(a) if adder == Some(a.user.id) => true,
            Some(a) => {
                super::collection::entry_of(&state.db, a.user.id, game.id)
                    .await?
                    .is_some()
                    || super::admin::is_admin(&state.db, a.user.id).await?
            }
            None => false,
        };
        if !allowed {
            return Err(unknown_game(id));
        }
    }
    Ok(game)
}

/// Everyone's collections for one game, counted.
#[derive(Serialize, ToSchema)]
pub struct GameCounts {
    pub own: i64,
    pub prev_owned: i64,
    pub want_to_play: i64,
    pub wishlist: i64,
    pub played: i64,
    pub favourite: i64,
    pub ratings: i64,
    /// 1 to 10, one decimal; absent without ratings.
    pub average_rating: Option<f64>,
}

#[derive(Serialize, ToSchema)]
pub struct GamePage {
    pub game: CatalogGame,
    pub counts: GameCounts,
    /// The latest plays on shelves shown to everyone, newest first (at most 10).
    pub recent_plays: Vec<Play>,
}

#[utoipa::path(get, path = "/api/catalog/{id}", tag = "shelf",
    summary = "a game's page: its facts, everyone's counts and average rating, recent plays",
    params(("id" = String, Path, description = "a catalog id (`12`) or a takuge game id (`secret-moon`)")),
    security((), ("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "the game", body = GamePage),
        (status = 404, description = "`unknown_game` (also one waiting for approval that the caller did not add)", body = ErrorBody),
    ))]
pub async fn game_page(
    State(state): S,
    MaybeAuth(auth): MaybeAuth,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<GamePage>, ApiError> {
    let game = visible_game(&state, &id, auth.as_ref()).await?;
    let counts = state.db.game_counts(game.id).await?;
    let recent_plays = recent_public_plays(&state.db, game.id, 10).await?;
    Ok(Json(GamePage {
        game,
        counts,
        recent_plays,
    }))
}

#[derive(Serialize, ToSchema)]
pub struct Added {
    pub game: CatalogGame,
    /// The addition as kept in the history (approved at once when an admin adds).
    pub change: Change,
}

pub fn bgg_id_taken(bgg: u32) -> ApiError {
    ApiError::conflict(
        "bgg_id_taken",
        format!("another game of the catalog has BoardGameGeek id {bgg}"),
    )
}

#[utoipa::path(post, path = "/api/catalog", tag = "shelf",
    summary = "add a game (listed once an admin approves; at once when an admin adds it)",
    request_body = GameFields,
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 201, description = "the game and its addition", body = Added),
        (status = 400, description = "`invalid_field`: a name missing, a value out of range", body = ErrorBody),
        (status = 403, description = "`guest`: the shelf is for registered accounts", body = ErrorBody),
        (status = 409, description = "`bgg_id_taken`: a game with that BoardGameGeek id is in the catalog", body = ErrorBody),
    ))]
pub async fn add_game(
    State(state): S,
    auth: Auth,
    ApiJson(fields): ApiJson<GameFields>,
) -> Result<(StatusCode, Json<Added>), ApiError> {
    registered(&auth)?;
    fields.validate_new()?;
    let admin = super::admin::is_admin(&state.db, auth.user.id).await?;
    let status = if admin { "approved" } else { "pending" };
    let author = auth.user.id;
    let result = state
        .hub
        .writer()
        .add_game(fields.clone(), status, author)
        .await;
    let (id, change) = match result {
        Ok(ids) => ids,
        Err(e) if e.conflict().is_some() => return Err(bgg_id_taken(fields.bgg_id.unwrap_or(0))),
        Err(e) => return Err(e.into()),
    };
    let game = visible_game(&state, &id.to_string(), Some(&auth)).await?;
    let change = super::changes::change_by_id(&state.db, change).await?;
    Ok((StatusCode::CREATED, Json(Added { game, change })))
}

#[utoipa::path(post, path = "/api/catalog/{id}/corrections", tag = "shelf",
    summary = "propose a correction of a game's fields (applied once an admin approves; at once for an admin)",
    params(("id" = String, Path, description = "a catalog id or a takuge game id")),
    request_body = GameFields,
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 201, description = "the proposal, as kept in the history", body = Change),
        (status = 400, description = "`invalid_field` (also a correction that changes nothing, or one that leaves the game inconsistent)", body = ErrorBody),
        (status = 403, description = "`guest`", body = ErrorBody),
        (status = 404, description = "`unknown_game`", body = ErrorBody),
        (status = 409, description = "`bgg_id_taken`", body = ErrorBody),
    ))]
pub async fn propose(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<String>,
    ApiJson(fields): ApiJson<GameFields>,
) -> Result<(StatusCode, Json<Change>), ApiError> {
    registered(&auth)?;
    let game = visible_game(&state, &id, Some(&auth)).await?;
    fields.validate()?;
    let current = game.fields();
    let after = merged(&current, &fields);
    if after == current {
        return Err(ApiError::bad_request(
            "invalid_field",
            "the correction changes nothing",
        ));
    }
    after.validate_new()?;
    let admin = super::admin::is_admin(&state.db, auth.user.id).await?;
    let author = auth.user.id;
    let applied = admin.then_some(after);
    let result = state
        .hub
        .writer()
        .correct_game(game.id, fields, applied, author)
        .await;
    let change = match result {
        Ok(change) => change,
        Err(e) if e.conflict().is_some() => return Err(bgg_id_taken(0)),
        Err(e) => return Err(e.into()),
    };
    let change = super::changes::change_by_id(&state.db, change).await?;
    Ok((StatusCode::CREATED, Json(change)))
}

//! `/api/catalog`: searching, a game's page, adding games and proposing corrections.

use super::catalog::{
    bind_fields, game_filters, merged, order_by, page, CatalogGame, Columns, FIELD_COLUMNS,
    GAME_COLUMNS,
};
use super::changes::{insert_change, Change};
use super::plays::{recent_public_plays, Play};
use super::{registered, Sql};
use crate::api::ApiJson;
use crate::auth::{Auth, MaybeAuth};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{ApiPath, ApiQuery};
use crate::time::now;
use crate::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use sqlx::Row;
use std::sync::Arc;
use takuge_protocol::{GameFields, ShelfQuery};
use utoipa::ToSchema;

type S = State<Arc<AppState>>;

/// The average rating of a game, as the catalog sorts by it.
const AVERAGE: &str = "(SELECT AVG(c.rating) FROM collections c WHERE c.game_id = g.id)";

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
    let mut filter = Sql::new(" WHERE g.status = 'approved'");
    game_filters(&mut filter, &q);
    if let Some(r) = q.min_rating {
        filter
            .push(&format!(" AND {AVERAGE} >= "))
            .int(takuge_protocol::rating_tenths(r.clamp(1.0, 10.0))?);
    }
    let mut count = Sql::new("SELECT COUNT(*) FROM catalog_games g");
    count.push(&filter.text);
    let mut list = filter.clone();
    list.text = format!("SELECT {GAME_COLUMNS} FROM catalog_games g{}", filter.text);
    order_by(&mut list, &q, AVERAGE, "g.updated_at");
    page(&mut list, &q);
    // The count's text is the filter's with the same placeholders in the same order.
    let mut counted = filter.clone();
    counted.text = count.text;
    let total: i64 = counted.query().fetch_one(state.db.pool()).await?.get(0);
    let games = list
        .query()
        .fetch_all(state.db.pool())
        .await?
        .iter()
        .map(CatalogGame::from_row)
        .collect();
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
    let sql = format!(
        "SELECT {GAME_COLUMNS}, g.added_by FROM catalog_games g WHERE {}",
        if id.parse::<i64>().is_ok() {
            "g.id = $1"
        } else {
            "g.slug = $1"
        }
    );
    let mut q = sqlx::query(&sql);
    q = match id.parse::<i64>() {
        Ok(n) => q.bind(n),
        Err(_) => q.bind(id),
    };
    let row = q
        .fetch_optional(state.db.pool())
        .await?
        .ok_or_else(|| unknown_game(id))?;
    let game = CatalogGame::from_row(&row);
    if game.status != "approved" {
        let adder: Option<i64> = row.get("added_by");
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

pub async fn counts(db: &crate::store::Store, game: i64) -> Result<GameCounts, ApiError> {
    let r = sqlx::query(
        "SELECT COUNT(*) AS n,
            CAST(COALESCE(SUM(own), 0) AS BIGINT) AS own,
            CAST(COALESCE(SUM(prev_owned), 0) AS BIGINT) AS prev_owned,
            CAST(COALESCE(SUM(want_to_play), 0) AS BIGINT) AS want_to_play,
            CAST(COALESCE(SUM(wishlist), 0) AS BIGINT) AS wishlist,
            CAST(COALESCE(SUM(played), 0) AS BIGINT) AS played,
            CAST(COALESCE(SUM(favourite), 0) AS BIGINT) AS favourite,
            COUNT(rating) AS ratings,
            CAST(COALESCE(SUM(rating), 0) AS BIGINT) AS rating_sum
         FROM collections WHERE game_id = $1",
    )
    .bind(game)
    .fetch_one(db.pool())
    .await?;
    let ratings: i64 = r.get("ratings");
    let sum: i64 = r.get("rating_sum");
    Ok(GameCounts {
        own: r.get("own"),
        prev_owned: r.get("prev_owned"),
        want_to_play: r.get("want_to_play"),
        wishlist: r.get("wishlist"),
        played: r.get("played"),
        favourite: r.get("favourite"),
        ratings,
        average_rating: (ratings > 0)
            .then(|| (sum as f64 / ratings as f64 / 10.0 * 10.0).round() / 10.0),
    })
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
    let counts = counts(&state.db, game.id).await?;
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

/// Inserts a game with `fields` and its addition to the history, in `tx`.
pub async fn insert_game(
    tx: &mut sqlx::AnyConnection,
    fields: &GameFields,
    status: &str,
    kind: &'static str,
    author: i64,
) -> Result<(i64, i64), sqlx::Error> {
    let at = now();
    let columns = Columns::of(fields);
    let sql = format!(
        "INSERT INTO catalog_games ({FIELD_COLUMNS}, slug, playable, status, added_by, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, NULL, 0, $18, $19, $20, $21)
         RETURNING id"
    );
    let q = bind_fields(sqlx::query(&sql), fields, &columns)
        .bind(status)
        .bind(author)
        .bind(at)
        .bind(at);
    let id = crate::store::insert_returning_id(q, tx).await?;
    let decided = (status == "approved").then_some(author);
    let change = insert_change(tx, id, kind, fields, author, status, decided).await?;
    Ok((id, change))
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
    let body = fields.clone();
    let result = state
        .hub
        .writer()
        .write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                let ids = insert_game(&mut tx, &body, status, "add", author).await?;
                tx.commit().await?;
                Ok(ids)
            })
        })
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
    let game_id = game.id;
    let result = state
        .hub
        .writer()
        .write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                let (status, decided) = if admin {
                    super::changes::apply_fields(&mut tx, game_id, &after).await?;
                    ("approved", Some(author))
                } else {
                    ("pending", None)
                };
                let change = insert_change(
                    &mut tx, game_id, "correct", &fields, author, status, decided,
                )
                .await?;
                tx.commit().await?;
                Ok(change)
            })
        })
        .await;
    let change = match result {
        Ok(change) => change,
        Err(e) if e.conflict().is_some() => return Err(bgg_id_taken(0)),
        Err(e) => return Err(e.into()),
    };
    let change = super::changes::change_by_id(&state.db, change).await?;
    Ok((StatusCode::CREATED, Json(change)))
}

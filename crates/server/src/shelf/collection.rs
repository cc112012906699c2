//! `/api/collections`: one's own entries and settings, and anyone's shelf as its
//! owner lets them see it — sorted and filtered like the catalog, plus by status and
//! the owner's rating.

use super::catalog::{game_filters, order_by, page, CatalogGame, GAME_COLUMNS};
use super::catalog_api::visible_game;
use super::{registered, visible_owner, Person, Sql};
use crate::api::{ApiJson, Done};
use crate::auth::{Auth, MaybeAuth};
use crate::db::now;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{ApiPath, ApiQuery};
use crate::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use sqlx::any::AnyRow;
use sqlx::Row;
use std::sync::Arc;
use takuge_protocol::{CollectionEntry, ShelfQuery, ShelfSettings, Visibility};
use utoipa::ToSchema;

type S = State<Arc<AppState>>;

/// One game on a shelf.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ShelfEntry {
    pub game: CatalogGame,
    pub own: bool,
    pub prev_owned: bool,
    pub want_to_play: bool,
    pub wishlist: bool,
    pub wishlist_priority: Option<i64>,
    pub played: bool,
    pub favourite: bool,
    /// 1 to 10 (one decimal).
    pub rating: Option<f64>,
    pub comment: String,
    /// Unix seconds.
    pub updated_at: i64,
}

pub const ENTRY_COLUMNS: &str =
    "c.own, c.prev_owned, c.want_to_play, c.wishlist, c.wishlist_priority,
    c.played, c.favourite, c.rating, c.comment, c.updated_at";

impl ShelfEntry {
    pub fn from_row(r: &AnyRow) -> ShelfEntry {
        let on = |c: &str| r.get::<i64, _>(c) != 0;
        ShelfEntry {
            game: CatalogGame::from_row(r),
            own: on("own"),
            prev_owned: on("prev_owned"),
            want_to_play: on("want_to_play"),
            wishlist: on("wishlist"),
            wishlist_priority: r.get("wishlist_priority"),
            played: on("played"),
            favourite: on("favourite"),
            rating: r.get::<Option<i64>, _>("rating").map(|t| t as f64 / 10.0),
            comment: r.get("comment"),
            updated_at: r.get("updated_at"),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct Shelf {
    pub owner: Person,
    pub visibility: Visibility,
    pub entries: Vec<ShelfEntry>,
    /// How many entries match the filters (the page holds at most `limit`).
    pub total: i64,
}

/// The shelf of `owner` filtered and sorted by `q`.
pub async fn shelf_of(
    db: &crate::db::Db,
    owner: Person,
    q: &ShelfQuery,
) -> Result<Shelf, ApiError> {
    let mut filter = Sql::new(" WHERE c.user_id = ");
    filter.int(owner.id);
    if let Some(s) = q.status {
        filter.push(&format!(" AND c.{} = 1", s.column()));
    }
    if let Some(r) = q.min_rating {
        filter
            .push(" AND c.rating >= ")
            .int(takuge_protocol::rating_tenths(r.clamp(1.0, 10.0))?);
    }
    game_filters(&mut filter, q);
    let from = " FROM collections c JOIN catalog_games g ON g.id = c.game_id";
    let mut count = filter.clone();
    count.text = format!("SELECT COUNT(*){from}{}", filter.text);
    let total: i64 = count.query().fetch_one(db).await?.get(0);
    let mut list = filter.clone();
    list.text = format!(
        "SELECT {GAME_COLUMNS}, {ENTRY_COLUMNS}{from}{}",
        filter.text
    );
    order_by(&mut list, q, "c.rating", "c.updated_at");
    page(&mut list, q);
    let entries = list
        .query()
        .fetch_all(db)
        .await?
        .iter()
        .map(ShelfEntry::from_row)
        .collect();
    Ok(Shelf {
        visibility: super::visibility_of(db, owner.id).await?,
        owner,
        entries,
        total,
    })
}

fn me(auth: &Auth) -> Person {
    Person {
        id: auth.user.id,
        name: auth.user.name.clone().unwrap_or_default(),
    }
}

#[utoipa::path(get, path = "/api/collections/me", tag = "shelf",
    summary = "one's own shelf, whatever its visibility (same filters and sorts as anyone's)",
    params(ShelfQuery),
    security(("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "the shelf", body = Shelf),
        (status = 400, description = "`invalid_field`: a rating filter out of range", body = ErrorBody),
    ))]
pub async fn my_shelf(
    State(state): S,
    auth: Auth,
    ApiQuery(q): ApiQuery<ShelfQuery>,
) -> Result<Json<Shelf>, ApiError> {
    Ok(Json(shelf_of(&state.db, me(&auth), &q).await?))
}

#[utoipa::path(put, path = "/api/collections/me", tag = "shelf",
    summary = "who may see one's shelf and plays: public (default), signed_in or private",
    request_body = ShelfSettings,
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "set", body = Done),
        (status = 403, description = "`guest`", body = ErrorBody),
    ))]
pub async fn set_settings(
    State(state): S,
    auth: Auth,
    ApiJson(body): ApiJson<ShelfSettings>,
) -> Result<Json<Done>, ApiError> {
    registered(&auth)?;
    state
        .hub
        .writer()
        .execute(
            "INSERT INTO shelves (user_id, visibility) VALUES ($1, $2)
             ON CONFLICT (user_id) DO UPDATE SET visibility = excluded.visibility",
            vec![auth.user.id.into(), body.visibility.as_str().into()],
        )
        .await?;
    Ok(Json(Done { ok: true }))
}

#[utoipa::path(get, path = "/api/collections/{id}", tag = "shelf",
    summary = "a person's shelf (the share link), sorted and filtered; a shelf not shown to the caller answers as a missing one",
    params(("id" = String, Path, description = "a login name or an account id"), ShelfQuery),
    security((), ("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "the shelf", body = Shelf),
        (status = 400, description = "`invalid_field`: a rating filter out of range", body = ErrorBody),
        (status = 404, description = "`unknown_user`: no such account, or its shelf is not shown to the caller", body = ErrorBody),
    ))]
pub async fn shelf(
    State(state): S,
    MaybeAuth(auth): MaybeAuth,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<ShelfQuery>,
) -> Result<Json<Shelf>, ApiError> {
    let owner = visible_owner(&state.db, &id, auth.as_ref()).await?;
    Ok(Json(shelf_of(&state.db, owner, &q).await?))
}

/// The columns an entry writes, in `upsert_entry`'s order.
pub struct EntryRow {
    pub own: bool,
    pub prev_owned: bool,
    pub want_to_play: bool,
    pub wishlist: bool,
    pub wishlist_priority: Option<i64>,
    pub played: bool,
    pub favourite: bool,
    pub rating: Option<i64>,
    pub comment: String,
}

impl EntryRow {
    pub fn of(e: &CollectionEntry) -> Result<EntryRow, ApiError> {
        Ok(EntryRow {
            own: e.own,
            prev_owned: e.prev_owned,
            want_to_play: e.want_to_play,
            wishlist: e.wishlist,
            wishlist_priority: e.wishlist_priority.map(i64::from),
            played: e.played,
            favourite: e.favourite,
            rating: e.rating.map(takuge_protocol::rating_tenths).transpose()?,
            comment: e.comment.clone(),
        })
    }
}

/// Writes one entry, whole.
pub async fn upsert_entry(
    c: &mut sqlx::AnyConnection,
    user: i64,
    game: i64,
    e: &EntryRow,
) -> Result<(), sqlx::Error> {
    let b = |v: bool| i64::from(v);
    sqlx::query(
        "INSERT INTO collections (user_id, game_id, own, prev_owned, want_to_play, wishlist, wishlist_priority,
            played, favourite, rating, comment, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (user_id, game_id) DO UPDATE SET own = excluded.own, prev_owned = excluded.prev_owned,
            want_to_play = excluded.want_to_play, wishlist = excluded.wishlist,
            wishlist_priority = excluded.wishlist_priority, played = excluded.played,
            favourite = excluded.favourite, rating = excluded.rating, comment = excluded.comment,
            updated_at = excluded.updated_at",
    )
    .bind(user)
    .bind(game)
    .bind(b(e.own))
    .bind(b(e.prev_owned))
    .bind(b(e.want_to_play))
    .bind(b(e.wishlist))
    .bind(e.wishlist_priority)
    .bind(b(e.played))
    .bind(b(e.favourite))
    .bind(e.rating)
    .bind(e.comment.as_str())
    .bind(now())
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn entry_of(
    db: &crate::db::Db,
    user: i64,
    game: i64,
) -> Result<Option<ShelfEntry>, ApiError> {
    let row = sqlx::query(&format!(
        "SELECT {GAME_COLUMNS}, {ENTRY_COLUMNS} FROM collections c JOIN catalog_games g ON g.id = c.game_id
         WHERE c.user_id = $1 AND c.game_id = $2"
    ))
    .bind(user)
    .bind(game)
    .fetch_optional(db)
    .await?;
    Ok(row.as_ref().map(ShelfEntry::from_row))
}

#[utoipa::path(put, path = "/api/collections/me/{id}", tag = "shelf",
    summary = "put a game on one's shelf, or replace its entry (statuses, rating, comment)",
    params(("id" = String, Path, description = "a catalog id or a takuge game id")),
    request_body = CollectionEntry,
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "the entry as stored", body = ShelfEntry),
        (status = 400, description = "`invalid_field`: a rating not from 1 to 10, a priority not from 1 to 5 or without the wishlist, a comment too long", body = ErrorBody),
        (status = 403, description = "`guest`", body = ErrorBody),
        (status = 404, description = "`unknown_game`", body = ErrorBody),
    ))]
pub async fn put_entry(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<CollectionEntry>,
) -> Result<Json<ShelfEntry>, ApiError> {
    registered(&auth)?;
    body.validate()?;
    let game = visible_game(&state, &id, Some(&auth)).await?;
    let row = EntryRow::of(&body)?;
    let user = auth.user.id;
    let game_id = game.id;
    state
        .hub
        .writer()
        .write(move |c| Box::pin(async move { upsert_entry(c, user, game_id, &row).await }))
        .await?;
    state.recommender.changed();
    entry_of(&state.db, user, game_id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::internal("a stored entry vanished"))
}

#[utoipa::path(delete, path = "/api/collections/me/{id}", tag = "shelf",
    summary = "take a game off one's shelf",
    params(("id" = String, Path, description = "a catalog id or a takuge game id")),
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "removed", body = Done),
        (status = 403, description = "`guest`", body = ErrorBody),
        (status = 404, description = "`unknown_game`, `not_on_shelf`", body = ErrorBody),
    ))]
pub async fn delete_entry(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<Done>, ApiError> {
    registered(&auth)?;
    let game = visible_game(&state, &id, Some(&auth)).await?;
    let gone = state
        .hub
        .writer()
        .execute(
            "DELETE FROM collections WHERE user_id = $1 AND game_id = $2",
            vec![auth.user.id.into(), game.id.into()],
        )
        .await?;
    state.recommender.changed();
    if gone == 0 {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "not_on_shelf",
            "that game is not on your shelf",
        ));
    }
    Ok(Json(Done { ok: true }))
}

//! `/api/collections`: one's own entries and settings, and anyone's shelf as its
//! owner lets them see it — sorted and filtered like the catalog, plus by status and
//! the owner's rating.

use super::catalog::CatalogGame;
use super::catalog_api::visible_game;
use super::shelf_cache::{Change, ShelfRows, Stamp};
use super::shelf_select::select;
use super::{find_user, registered, shown_to, unknown_user, Person};
use crate::api::{ApiJson, Done};
use crate::auth::{Auth, MaybeAuth};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{ApiPath, ApiQuery};
use crate::AppState;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
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

/// A game as a shelf's list shows it: what the list displays, sorts and filters by.
/// The rest (designers, publishers, mechanics, categories, the BoardGameGeek id, the
/// takuge id and links, the catalog status) is on the game's page
/// (`GET /api/catalog/{id}`) and in the export; a 2,000-game page was ≈ 1.2 MB of JSON
/// with them, mostly lists no list shows.
#[derive(Serialize, ToSchema)]
pub struct ShelfListGame<'a> {
    pub id: i64,
    /// Empty when not known.
    pub name_ja: &'a str,
    pub name_en: &'a str,
    pub min_players: Option<i64>,
    pub max_players: Option<i64>,
    #[schema(value_type = Vec<i64>)]
    pub best_players: &'a [i64],
    pub min_minutes: Option<i64>,
    pub max_minutes: Option<i64>,
    pub min_age: Option<i64>,
    pub year: Option<i64>,
}

/// One game on a shelf's list: the owner's entry whole, its game lean
/// ([`ShelfListGame`]). Written from the entry held by reference, nothing copied.
#[derive(Serialize, ToSchema)]
pub struct ShelfListEntry<'a> {
    pub game: ShelfListGame<'a>,
    pub own: bool,
    pub prev_owned: bool,
    pub want_to_play: bool,
    pub wishlist: bool,
    pub wishlist_priority: Option<i64>,
    pub played: bool,
    pub favourite: bool,
    /// 1 to 10 (one decimal).
    pub rating: Option<f64>,
    pub comment: &'a str,
    /// Unix seconds.
    pub updated_at: i64,
}

impl<'a> From<&'a ShelfEntry> for ShelfListEntry<'a> {
    fn from(e: &'a ShelfEntry) -> Self {
        let g = &e.game;
        ShelfListEntry {
            game: ShelfListGame {
                id: g.id,
                name_ja: &g.name_ja,
                name_en: &g.name_en,
                min_players: g.min_players,
                max_players: g.max_players,
                best_players: &g.best_players,
                min_minutes: g.min_minutes,
                max_minutes: g.max_minutes,
                min_age: g.min_age,
                year: g.year,
            },
            own: e.own,
            prev_owned: e.prev_owned,
            want_to_play: e.want_to_play,
            wishlist: e.wishlist,
            wishlist_priority: e.wishlist_priority,
            played: e.played,
            favourite: e.favourite,
            rating: e.rating,
            comment: &e.comment,
            updated_at: e.updated_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct Shelf<'a> {
    pub owner: Person,
    pub visibility: Visibility,
    pub entries: Vec<ShelfListEntry<'a>>,
    /// How many entries match the filters (the page holds at most `limit`).
    pub total: i64,
}

/// `owner`'s shelf visibility and the version numbers its rows are at now, in one
/// statement.
pub async fn stamp_of(state: &AppState, owner: i64) -> Result<(Visibility, Stamp), ApiError> {
    let (visibility, stamp) = state.db.shelf_stamp(owner).await?;
    let visibility = visibility.map_or(Visibility::Public, |v| Visibility::parse(&v));
    Ok((visibility, stamp))
}

/// `owner`'s whole shelf at `stamp` (read by [`stamp_of`] just before): the copy in
/// memory if it was read under the same numbers, else the database's rows. Rows read
/// after the numbers are never older than the numbers say, because every write raises
/// its shelf's number in its own transaction.
pub async fn shelf_rows(
    state: &AppState,
    owner: i64,
    stamp: Stamp,
) -> Result<Arc<ShelfRows>, ApiError> {
    if let Some(rows) = state.shelves.get(owner, stamp) {
        return Ok(rows);
    }
    let entries = state.db.shelf_entries(owner).await?;
    let rows = Arc::new(ShelfRows { stamp, entries });
    state.shelves.put(owner, rows.clone());
    Ok(rows)
}

/// The shelf's entity tag: it changes with everything the answer shows for one URL
/// (the entries and games through the version numbers, the visibility, the owner's
/// name), so a browser's `If-None-Match` gets `304` without the rows being touched.
fn etag(owner: &Person, visibility: Visibility, stamp: Stamp) -> String {
    use std::hash::{Hash, Hasher};
    // SipHash with fixed keys: the same tag from every node of one release.
    let mut h = std::hash::DefaultHasher::new();
    owner.name.hash(&mut h);
    format!(
        "\"shelf-{}-{}-{}-{}-{:016x}\"",
        owner.id,
        stamp.shelf,
        stamp.catalog,
        visibility.as_str(),
        h.finish()
    )
}

/// Whether `If-None-Match` names `tag` (or is `*`).
fn not_modified(headers: &HeaderMap, tag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == tag || t == "*")
}

/// The shelf of `owner` filtered, sorted and paged by `q`, as the JSON answer (or
/// `304` when the caller holds it already).
async fn shelf_answer(
    state: &AppState,
    owner: Person,
    (visibility, stamp): (Visibility, Stamp),
    q: &ShelfQuery,
    headers: &HeaderMap,
) -> Result<Response, ApiError> {
    let tag = etag(&owner, visibility, stamp);
    // Revalidated on every use; never kept by a shared cache (a shelf may be private).
    let caching = [
        (header::CACHE_CONTROL, "private, no-cache".to_string()),
        (header::ETAG, tag.clone()),
    ];
    if not_modified(headers, &tag) {
        return Ok((StatusCode::NOT_MODIFIED, caching).into_response());
    }
    let rows = shelf_rows(state, owner.id, stamp).await?;
    let (entries, total) = select(&rows.entries, q)?;
    let body = serde_json::to_vec(&Shelf {
        owner,
        visibility,
        entries: entries.into_iter().map(ShelfListEntry::from).collect(),
        total,
    })
    .map_err(|e| ApiError::internal(format!("writing a shelf: {e}")))?;
    Ok((
        caching,
        [(header::CONTENT_TYPE, "application/json".to_string())],
        body,
    )
        .into_response())
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
        (status = 200, description = "the shelf, each game lean (`ShelfListGame`: the rest is on `GET /api/catalog/{id}` and in the export); `ETag` set (`Cache-Control: private, no-cache`)", body = Shelf),
        (status = 304, description = "`If-None-Match` named the shelf's current `ETag`: unchanged, no body"),
        (status = 400, description = "`invalid_field`: a rating filter out of range", body = ErrorBody),
    ))]
pub async fn my_shelf(
    State(state): S,
    auth: Auth,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<ShelfQuery>,
) -> Result<Response, ApiError> {
    let me = me(&auth);
    let stamp = stamp_of(&state, me.id).await?;
    shelf_answer(&state, me, stamp, &q, &headers).await
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
        .set_shelf_visibility(auth.user.id, body.visibility.as_str())
        .await?;
    Ok(Json(Done { ok: true }))
}

#[utoipa::path(get, path = "/api/collections/{id}", tag = "shelf",
    summary = "a person's shelf (the share link), sorted and filtered; a shelf not shown to the caller answers as a missing one",
    params(("id" = String, Path, description = "a login name or an account id"), ShelfQuery),
    security((), ("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "the shelf, each game lean (`ShelfListGame`: the rest is on `GET /api/catalog/{id}` and in the export); `ETag` set (`Cache-Control: private, no-cache`)", body = Shelf),
        (status = 304, description = "`If-None-Match` named the shelf's current `ETag`: unchanged, no body"),
        (status = 400, description = "`invalid_field`: a rating filter out of range", body = ErrorBody),
        (status = 404, description = "`unknown_user`: no such account, or its shelf is not shown to the caller", body = ErrorBody),
    ))]
pub async fn shelf(
    State(state): S,
    MaybeAuth(auth): MaybeAuth,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<ShelfQuery>,
) -> Result<Response, ApiError> {
    let owner = find_user(&state.db, &id)
        .await?
        .ok_or_else(|| unknown_user(&id))?;
    let stamp = stamp_of(&state, owner.id).await?;
    if !shown_to(stamp.0, owner.id, auth.as_ref()) {
        return Err(unknown_user(&id));
    }
    shelf_answer(&state, owner, stamp, &q, &headers).await
}

/// The columns an entry writes (`store::shelf::collections::upsert_entry`).
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

pub async fn entry_of(
    db: &crate::store::Store,
    user: i64,
    game: i64,
) -> Result<Option<ShelfEntry>, ApiError> {
    Ok(db.collection_entry(user, game).await?)
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
    let (version, held) = state.hub.writer().put_entry(user, game_id, row).await?;
    state.recommender.changed();
    let entry = held.entry.clone();
    state
        .shelves
        .apply(user, version, Change::Put(Box::new(held)));
    Ok(Json(entry))
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
    let (user, game_id) = (auth.user.id, game.id);
    let gone = state.hub.writer().delete_entry(user, game_id).await?;
    state.recommender.changed();
    let Some(version) = gone else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "not_on_shelf",
            "that game is not on your shelf",
        ));
    };
    state.shelves.apply(user, version, Change::Remove(game_id));
    Ok(Json(Done { ok: true }))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// An entry of game `id` with nothing set, for the in-memory shelf's tests.
    pub fn entry(id: i64) -> ShelfEntry {
        ShelfEntry {
            game: CatalogGame {
                id,
                slug: None,
                name_ja: String::new(),
                name_en: format!("Game {id}"),
                reading_ja: String::new(),
                min_players: None,
                max_players: None,
                best_players: Vec::new(),
                min_minutes: None,
                max_minutes: None,
                min_age: None,
                year: None,
                designers: Vec::new(),
                publishers: Vec::new(),
                mechanics: Vec::new(),
                categories: Vec::new(),
                bgg_id: None,
                playable: false,
                status: "approved".into(),
                links: None,
            },
            own: false,
            prev_owned: false,
            want_to_play: false,
            wishlist: false,
            wishlist_priority: None,
            played: false,
            favourite: false,
            rating: None,
            comment: String::new(),
            updated_at: 0,
        }
    }
}

//! The catalog's history: every change (the seed, additions, imports, corrections)
//! with who made it and who decided on it; the admin's queue and decisions.

use super::catalog::{bind_fields, merged, CatalogGame, Columns, FIELD_COLUMNS, GAME_COLUMNS};
use super::Person;
use crate::auth::{Auth, MaybeAuth};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{ApiPath, ApiQuery};
use crate::time::now;
use crate::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use serde_json::Value;
use sqlx::Row;
use std::sync::Arc;
use takuge_protocol::{ChangesQuery, GameFields};
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

const CHANGE_SELECT: &str =
    "SELECT k.id, k.game_id, k.kind, k.fields, k.status, k.decided_at, k.created_at,
        k.author, a.name AS author_name, k.decided_by, d.name AS decider_name,
        CASE WHEN g.name_en <> '' THEN g.name_en ELSE g.name_ja END AS game_name
    FROM catalog_changes k JOIN catalog_games g ON g.id = k.game_id
    LEFT JOIN users a ON a.id = k.author LEFT JOIN users d ON d.id = k.decided_by";

fn change_from_row(r: &sqlx::any::AnyRow) -> Change {
    let person = |id: Option<i64>, name: Option<String>| {
        id.map(|id| Person {
            id,
            name: name.unwrap_or_default(),
        })
    };
    Change {
        id: r.get("id"),
        game_id: r.get("game_id"),
        game_name: r.get("game_name"),
        kind: r.get("kind"),
        fields: serde_json::from_str(&r.get::<String, _>("fields")).unwrap_or(Value::Null),
        author: person(r.get("author"), r.get("author_name")),
        status: r.get("status"),
        decided_by: person(r.get("decided_by"), r.get("decider_name")),
        decided_at: r.get("decided_at"),
        created_at: r.get("created_at"),
    }
}

pub async fn change_by_id(db: &crate::store::Store, id: i64) -> Result<Change, ApiError> {
    let row = sqlx::query(&format!("{CHANGE_SELECT} WHERE k.id = $1"))
        .bind(id)
        .fetch_optional(db.pool())
        .await?
        .ok_or_else(|| unknown_change(id))?;
    Ok(change_from_row(&row))
}

fn unknown_change(id: i64) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "unknown_change",
        format!("there is no catalog change {id}"),
    )
}

/// Records a change; its id.
pub async fn insert_change(
    tx: &mut sqlx::AnyConnection,
    game: i64,
    kind: &'static str,
    fields: &GameFields,
    author: i64,
    status: &str,
    decided_by: Option<i64>,
) -> Result<i64, sqlx::Error> {
    let at = now();
    crate::store::insert_returning_id(
        sqlx::query(
            "INSERT INTO catalog_changes (game_id, kind, fields, author, status, decided_by, decided_at, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
        )
        .bind(game)
        .bind(kind)
        .bind(serde_json::to_string(fields).unwrap_or_else(|_| "{}".into()))
        .bind(author)
        .bind(status)
        .bind(decided_by)
        .bind(decided_by.map(|_| at))
        .bind(at),
        tx,
    )
    .await
}

/// Writes all of a game's fields.
pub async fn apply_fields(
    tx: &mut sqlx::AnyConnection,
    game: i64,
    fields: &GameFields,
) -> Result<(), sqlx::Error> {
    let columns = Columns::of(fields);
    let sets: Vec<String> = FIELD_COLUMNS
        .split(',')
        .map(str::trim)
        .enumerate()
        .map(|(k, c)| format!("{c} = ${}", k + 1))
        .collect();
    let sql = format!(
        "UPDATE catalog_games SET {}, updated_at = $18 WHERE id = $19",
        sets.join(", ")
    );
    bind_fields(sqlx::query(&sql), fields, &columns)
        .bind(now())
        .bind(game)
        .execute(&mut *tx)
        .await?;
    super::versions::bump_catalog(tx).await
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
    let rows = if admin {
        sqlx::query(&format!(
            "{CHANGE_SELECT} WHERE k.status = $1 ORDER BY k.id DESC LIMIT 500"
        ))
        .bind(status)
        .fetch_all(state.db.pool())
        .await?
    } else {
        sqlx::query(&format!(
            "{CHANGE_SELECT} WHERE k.status = $1 AND k.author = $2 ORDER BY k.id DESC LIMIT 500"
        ))
        .bind(status)
        .bind(auth.user.id)
        .fetch_all(state.db.pool())
        .await?
    };
    Ok(Json(Changes {
        changes: rows.iter().map(change_from_row).collect(),
        admin,
    }))
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
    let rows = sqlx::query(&format!(
        "{CHANGE_SELECT} WHERE k.game_id = $1 ORDER BY k.id DESC LIMIT 1000"
    ))
    .bind(game.id)
    .fetch_all(state.db.pool())
    .await?;
    Ok(Json(GameHistory {
        changes: rows.iter().map(change_from_row).collect(),
    }))
}

/// What deciding does, in the writer's transaction: the change's status, and for an
/// approval its effect (an addition listed, a correction applied); for a rejected
/// addition the game is marked rejected too. `None`: the change was no longer pending.
async fn decide_in(
    c: &mut sqlx::AnyConnection,
    id: i64,
    approve: bool,
    admin: i64,
) -> Result<Option<()>, sqlx::Error> {
    use sqlx::Connection;
    let mut tx = c.begin().await?;
    let Some(row) = sqlx::query(
        "SELECT game_id, kind, fields FROM catalog_changes WHERE id = $1 AND status = 'pending'",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?
    else {
        return Ok(None);
    };
    let game: i64 = row.get("game_id");
    let kind: String = row.get("kind");
    let status = if approve { "approved" } else { "rejected" };
    if kind == "correct" {
        if approve {
            let current = sqlx::query(&format!(
                "SELECT {GAME_COLUMNS} FROM catalog_games g WHERE g.id = $1"
            ))
            .bind(game)
            .fetch_one(&mut *tx)
            .await?;
            let fields: GameFields =
                serde_json::from_str(&row.get::<String, _>("fields")).unwrap_or_default();
            let after = merged(&CatalogGame::from_row(&current).fields(), &fields);
            apply_fields(&mut tx, game, &after).await?;
        }
    } else {
        sqlx::query("UPDATE catalog_games SET status = $1, updated_at = $2 WHERE id = $3")
            .bind(status)
            .bind(now())
            .bind(game)
            .execute(&mut *tx)
            .await?;
        super::versions::bump_catalog(&mut tx).await?;
    }
    sqlx::query(
        "UPDATE catalog_changes SET status = $1, decided_by = $2, decided_at = $3 WHERE id = $4",
    )
    .bind(status)
    .bind(admin)
    .bind(now())
    .bind(id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Some(()))
}

async fn decide(state: &AppState, auth: &Auth, id: i64, approve: bool) -> Result<Change, ApiError> {
    super::admin::require_admin(&state.db, auth.user.id).await?;
    change_by_id(&state.db, id).await?;
    let admin = auth.user.id;
    let result = state
        .hub
        .writer()
        .write(move |c| Box::pin(decide_in(c, id, approve, admin)))
        .await;
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

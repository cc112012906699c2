//! `/api/reviews`: reviews (レビュー) and rule notes (ルール解説) of catalog games, the
//! Nice! (ナイス!) button, reports to the admin and the admin's decisions. Every
//! change is kept in `review_changes` with who made it (the author's writing, editing
//! and deleting; an admin's hiding, restoring and keeping). Text is stored as given:
//! clients show it as text, never as markup.
//!
//! The rules, each checked in the writer's transaction so that a refused request
//! changes nothing: only registered accounts write, Nice! and report; only the author
//! edits and deletes (a deletion is kept in the history, and the review leaves every
//! list); a Nice! is one per person per review, giving it twice is the same as once,
//! and nobody gives one to their own review (`own_review`); a report is one per
//! person per review; only an admin hides, restores or keeps a reported review.

use super::catalog_api::visible_game;
use super::plays::PlayGame;
use super::{registered, Person, Sql};
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
use takuge_protocol::{
    NewReview, ReportState, ReportsQuery, ReviewEdit, ReviewOrder, ReviewReport, ReviewsQuery,
};
use utoipa::ToSchema;

type S = State<Arc<AppState>>;

/// A review or a rule note.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Review {
    pub id: i64,
    pub game: PlayGame,
    /// `review` (レビュー) or `rules` (ルール解説).
    pub kind: String,
    /// Plain text (may be empty); never markup.
    pub title: String,
    /// Plain text; never markup.
    pub text: String,
    pub author: Person,
    /// How many people gave it a Nice!
    pub likes: i64,
    /// Whether the caller gave it a Nice!
    pub liked: bool,
    /// `shown`; `hidden` (by an admin: seen only by its author and admins); `deleted`
    /// (seen only by admins).
    pub status: String,
    /// Whether its author edited it since writing it.
    pub edited: bool,
    /// Unix seconds.
    pub created_at: i64,
    pub updated_at: i64,
}

/// `$1`: the caller's account id (0 signed out), for `liked`.
const REVIEW_SELECT: &str = "SELECT r.id, r.kind, r.title, r.body, r.likes, r.status,
        r.created_at, r.updated_at, r.user_id, u.name AS author_name,
        g.id AS gid, g.slug, g.name_ja, g.name_en, g.bgg_id,
        CAST(CASE WHEN EXISTS (SELECT 1 FROM review_changes k
            WHERE k.review_id = r.id AND k.kind = 'edit') THEN 1 ELSE 0 END AS BIGINT) AS edited,
        CAST(CASE WHEN EXISTS (SELECT 1 FROM review_likes l
            WHERE l.review_id = r.id AND l.user_id = $1) THEN 1 ELSE 0 END AS BIGINT) AS liked
    FROM reviews r JOIN users u ON u.id = r.user_id JOIN catalog_games g ON g.id = r.game_id";

fn review_from_row(r: &sqlx::any::AnyRow) -> Review {
    Review {
        id: r.get("id"),
        game: PlayGame {
            id: r.get("gid"),
            slug: r.get("slug"),
            name_ja: r.get("name_ja"),
            name_en: r.get("name_en"),
            bgg_id: r.get("bgg_id"),
        },
        kind: r.get("kind"),
        title: r.get("title"),
        text: r.get("body"),
        author: Person {
            id: r.get("user_id"),
            name: r
                .get::<Option<String>, _>("author_name")
                .unwrap_or_default(),
        },
        likes: r.get("likes"),
        liked: r.get::<i64, _>("liked") != 0,
        status: r.get("status"),
        edited: r.get::<i64, _>("edited") != 0,
        created_at: r.get("created_at"),
        updated_at: r.get("updated_at"),
    }
}

fn viewer_id(auth: Option<&Auth>) -> i64 {
    auth.map_or(0, |a| a.user.id)
}

pub fn unknown_review(id: i64) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "unknown_review",
        format!("there is no review {id} (or it is not shown to you)"),
    )
}

fn not_author() -> ApiError {
    ApiError::forbidden(
        "not_author",
        "only the review's author may change or delete it",
    )
}

fn own_review() -> ApiError {
    ApiError::forbidden(
        "own_review",
        "you cannot give a Nice! to (or report) your own review",
    )
}

/// A review in any status, as the caller sees its fields (`None`: no such id).
async fn review_row(
    db: &crate::store::Store,
    id: i64,
    viewer: i64,
) -> Result<Option<Review>, ApiError> {
    let row = sqlx::query(&format!("{REVIEW_SELECT} WHERE r.id = $2"))
        .bind(viewer)
        .bind(id)
        .fetch_optional(db.pool())
        .await?;
    Ok(row.as_ref().map(review_from_row))
}

/// A review as `viewer` may see it: a shown one (of a game the viewer may see) to
/// everyone, a hidden one to its author and admins, a deleted one to admins.
async fn visible_review(
    state: &AppState,
    id: i64,
    viewer: Option<&Auth>,
) -> Result<Review, ApiError> {
    let review = review_row(&state.db, id, viewer_id(viewer))
        .await?
        .ok_or_else(|| unknown_review(id))?;
    let mine = viewer.is_some_and(|a| a.user.id == review.author.id);
    let allowed = match review.status.as_str() {
        "shown" => true,
        "hidden" if mine => true,
        _ => match viewer {
            Some(a) => super::admin::is_admin(&state.db, a.user.id).await?,
            None => false,
        },
    };
    if !allowed {
        return Err(unknown_review(id));
    }
    // Its game must be one the viewer may see (a review of a game awaiting approval
    // is seen with the game).
    visible_game(state, &review.game.id.to_string(), viewer)
        .await
        .map_err(|_| unknown_review(id))?;
    Ok(review)
}

/// Records a change of a review, in the writer's transaction.
async fn insert_review_change(
    c: &mut sqlx::AnyConnection,
    review: i64,
    kind: &'static str,
    author: i64,
    title: &str,
    body: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO review_changes (review_id, kind, author, title, body, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(review)
    .bind(kind)
    .bind(author)
    .bind(title)
    .bind(body)
    .bind(now())
    .execute(&mut *c)
    .await?;
    Ok(())
}

#[derive(Serialize, ToSchema)]
pub struct ReviewPage {
    /// At most `limit`, in the order asked for.
    pub reviews: Vec<Review>,
    /// How many there are of the game (of the kind asked for), shown.
    pub total: i64,
}

#[utoipa::path(get, path = "/api/reviews", tag = "reviews",
    summary = "a game's reviews and rule notes, newest or most liked first, a page at a time",
    params(ReviewsQuery),
    security((), ("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "a page of reviews and how many there are", body = ReviewPage),
        (status = 400, description = "`game_required`: no `game`", body = ErrorBody),
        (status = 404, description = "`unknown_game`", body = ErrorBody),
    ))]
pub async fn list_reviews(
    State(state): S,
    MaybeAuth(auth): MaybeAuth,
    ApiQuery(q): ApiQuery<ReviewsQuery>,
) -> Result<Json<ReviewPage>, ApiError> {
    let Some(game) = &q.game else {
        return Err(ApiError::bad_request(
            "game_required",
            "name the game whose reviews to list (`?game=`)",
        ));
    };
    let game = visible_game(&state, game, auth.as_ref()).await?;
    let (game_id, kind) = (game.id, q.kind);
    let filter = |sql: &mut Sql| {
        sql.push(" WHERE r.status = 'shown' AND r.game_id = ")
            .int(game_id);
        if let Some(kind) = kind {
            sql.push(" AND r.kind = ").text(kind.as_str());
        }
    };
    let mut count = Sql::new("SELECT COUNT(*) FROM reviews r");
    filter(&mut count);
    // `REVIEW_SELECT` names the viewer as `$1`.
    let mut list = Sql::new(REVIEW_SELECT);
    list.bind_int(viewer_id(auth.as_ref()));
    filter(&mut list);
    list.push(match q.order.unwrap_or_default() {
        ReviewOrder::Newest => " ORDER BY r.id DESC",
        ReviewOrder::Liked => " ORDER BY r.likes DESC, r.id DESC",
    });
    let limit = i64::from(q.limit.unwrap_or(20).clamp(1, 100));
    let offset = i64::from(q.offset.unwrap_or(0));
    list.push(" LIMIT ").int(limit).push(" OFFSET ").int(offset);
    let total: i64 = count.query().fetch_one(state.db.pool()).await?.get(0);
    let reviews = list
        .query()
        .fetch_all(state.db.pool())
        .await?
        .iter()
        .map(review_from_row)
        .collect();
    Ok(Json(ReviewPage { reviews, total }))
}

#[utoipa::path(get, path = "/api/reviews/{id}", tag = "reviews",
    summary = "one review (a hidden one only to its author and admins)",
    params(("id" = i64, Path, description = "the review")),
    security((), ("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "the review", body = Review),
        (status = 404, description = "`unknown_review`", body = ErrorBody),
    ))]
pub async fn get_review(
    State(state): S,
    MaybeAuth(auth): MaybeAuth,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<Review>, ApiError> {
    Ok(Json(visible_review(&state, id, auth.as_ref()).await?))
}

#[utoipa::path(post, path = "/api/reviews", tag = "reviews",
    summary = "write a review or a rule note of a game (registered accounts)",
    request_body = NewReview,
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 201, description = "the review", body = Review),
        (status = 400, description = "`invalid_field`: an empty text, a text over 10,000 or a title over 100 characters, control characters", body = ErrorBody),
        (status = 403, description = "`guest`: reviews are for registered accounts", body = ErrorBody),
        (status = 404, description = "`unknown_game`", body = ErrorBody),
    ))]
pub async fn create_review(
    State(state): S,
    auth: Auth,
    ApiJson(body): ApiJson<NewReview>,
) -> Result<(StatusCode, Json<Review>), ApiError> {
    registered(&auth)?;
    body.validate()?;
    let game = visible_game(&state, &body.game, Some(&auth)).await?;
    let author = auth.user.id;
    let id = state
        .hub
        .writer()
        .write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                let at = now();
                let id = crate::store::insert_returning_id(
                    sqlx::query(
                        "INSERT INTO reviews (game_id, user_id, kind, title, body, created_at, updated_at)
                         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                    )
                    .bind(game.id)
                    .bind(author)
                    .bind(body.kind.as_str())
                    .bind(body.title.as_str())
                    .bind(body.text.as_str())
                    .bind(at)
                    .bind(at),
                    &mut tx,
                )
                .await?;
                insert_review_change(&mut tx, id, "create", author, &body.title, &body.text)
                    .await?;
                tx.commit().await?;
                Ok(id)
            })
        })
        .await?;
    let review = review_row(&state.db, id, author)
        .await?
        .ok_or_else(|| ApiError::internal("a stored review vanished"))?;
    Ok((StatusCode::CREATED, Json(review)))
}

/// What a write on one review found, decided in its transaction.
enum Found<T> {
    Missing,
    NotAuthor,
    Own,
    Done(T),
}

impl<T> Found<T> {
    fn answer(self, id: i64) -> Result<T, ApiError> {
        match self {
            Found::Missing => Err(unknown_review(id)),
            Found::NotAuthor => Err(not_author()),
            Found::Own => Err(own_review()),
            Found::Done(v) => Ok(v),
        }
    }
}

/// The author and status of a review, in a transaction.
async fn owner_and_status(
    c: &mut sqlx::AnyConnection,
    id: i64,
) -> Result<Option<(i64, String)>, sqlx::Error> {
    Ok(
        sqlx::query("SELECT user_id, status FROM reviews WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *c)
            .await?
            .map(|r| (r.get("user_id"), r.get("status"))),
    )
}

#[utoipa::path(put, path = "/api/reviews/{id}", tag = "reviews",
    summary = "edit one's own review: its title and text, whole (kept in its history)",
    params(("id" = i64, Path, description = "the review")),
    request_body = ReviewEdit,
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "the review, edited (unchanged text: nothing recorded)", body = Review),
        (status = 400, description = "`invalid_field`", body = ErrorBody),
        (status = 403, description = "`guest`, `not_author`", body = ErrorBody),
        (status = 404, description = "`unknown_review` (also a deleted one)", body = ErrorBody),
    ))]
pub async fn edit_review(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
    ApiJson(body): ApiJson<ReviewEdit>,
) -> Result<Json<Review>, ApiError> {
    registered(&auth)?;
    body.validate()?;
    let author = auth.user.id;
    let found = state
        .hub
        .writer()
        .write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                let Some(row) =
                    sqlx::query("SELECT user_id, status, title, body FROM reviews WHERE id = $1")
                        .bind(id)
                        .fetch_optional(&mut *tx)
                        .await?
                else {
                    return Ok(Found::Missing);
                };
                let (owner, status): (i64, String) = (row.get("user_id"), row.get("status"));
                if status == "deleted" {
                    return Ok(Found::Missing);
                }
                if owner != author {
                    return Ok(Found::NotAuthor);
                }
                let same = row.get::<String, _>("title") == body.title
                    && row.get::<String, _>("body") == body.text;
                if !same {
                    sqlx::query(
                        "UPDATE reviews SET title = $1, body = $2, updated_at = $3 WHERE id = $4",
                    )
                    .bind(body.title.as_str())
                    .bind(body.text.as_str())
                    .bind(now())
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                    insert_review_change(&mut tx, id, "edit", author, &body.title, &body.text)
                        .await?;
                }
                tx.commit().await?;
                Ok(Found::Done(()))
            })
        })
        .await?;
    found.answer(id)?;
    let review = review_row(&state.db, id, author)
        .await?
        .ok_or_else(|| unknown_review(id))?;
    Ok(Json(review))
}

#[utoipa::path(delete, path = "/api/reviews/{id}", tag = "reviews",
    summary = "delete one's own review (it leaves every list; its history is kept for admins)",
    params(("id" = i64, Path, description = "the review")),
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 204, description = "deleted"),
        (status = 403, description = "`guest`, `not_author`", body = ErrorBody),
        (status = 404, description = "`unknown_review` (also one deleted already)", body = ErrorBody),
    ))]
pub async fn delete_review(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    registered(&auth)?;
    let author = auth.user.id;
    let found = state
        .hub
        .writer()
        .write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                let Some(row) =
                    sqlx::query("SELECT user_id, status, title, body FROM reviews WHERE id = $1")
                        .bind(id)
                        .fetch_optional(&mut *tx)
                        .await?
                else {
                    return Ok(Found::Missing);
                };
                if row.get::<String, _>("status") == "deleted" {
                    return Ok(Found::Missing);
                }
                if row.get::<i64, _>("user_id") != author {
                    return Ok(Found::NotAuthor);
                }
                sqlx::query("UPDATE reviews SET status = 'deleted', updated_at = $1 WHERE id = $2")
                    .bind(now())
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                let (title, body): (String, String) = (row.get("title"), row.get("body"));
                insert_review_change(&mut tx, id, "delete", author, &title, &body).await?;
                tx.commit().await?;
                Ok(Found::Done(()))
            })
        })
        .await?;
    found.answer(id)?;
    Ok(StatusCode::NO_CONTENT)
}

/// A review's Nice! after a press or an undo.
#[derive(Serialize, ToSchema)]
pub struct Nice {
    pub review_id: i64,
    /// How many people gave it a Nice!
    pub likes: i64,
    /// Whether the caller's Nice! is on it.
    pub liked: bool,
}

/// Gives (`on`) or takes back the caller's Nice! on a shown review of someone else.
async fn nice(state: &AppState, auth: &Auth, id: i64, on: bool) -> Result<Nice, ApiError> {
    registered(auth)?;
    let who = auth.user.id;
    let found = state
        .hub
        .writer()
        .write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                match owner_and_status(&mut tx, id).await? {
                    Some((_, status)) if status != "shown" => return Ok(Found::Missing),
                    None => return Ok(Found::Missing),
                    Some((owner, _)) if owner == who => return Ok(Found::Own),
                    Some(_) => {}
                }
                let changed = if on {
                    sqlx::query(
                        "INSERT INTO review_likes (review_id, user_id, created_at) VALUES ($1, $2, $3)
                         ON CONFLICT (review_id, user_id) DO NOTHING",
                    )
                    .bind(id)
                    .bind(who)
                    .bind(now())
                    .execute(&mut *tx)
                    .await?
                    .rows_affected()
                } else {
                    sqlx::query("DELETE FROM review_likes WHERE review_id = $1 AND user_id = $2")
                        .bind(id)
                        .bind(who)
                        .execute(&mut *tx)
                        .await?
                        .rows_affected()
                };
                if changed > 0 {
                    sqlx::query("UPDATE reviews SET likes = likes + $1 WHERE id = $2")
                        .bind(if on { 1_i64 } else { -1 })
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                }
                let likes: i64 = sqlx::query_scalar("SELECT likes FROM reviews WHERE id = $1")
                    .bind(id)
                    .fetch_one(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(Found::Done(likes))
            })
        })
        .await?;
    let likes = found.answer(id)?;
    Ok(Nice {
        review_id: id,
        likes,
        liked: on,
    })
}

#[utoipa::path(post, path = "/api/reviews/{id}/nice", tag = "reviews",
    summary = "give a review a Nice! (ナイス!): one per person; giving it again changes nothing",
    params(("id" = i64, Path, description = "the review")),
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "the review's count, with the caller's Nice! on it", body = Nice),
        (status = 403, description = "`guest`; `own_review`: one's own review", body = ErrorBody),
        (status = 404, description = "`unknown_review` (also a hidden or deleted one)", body = ErrorBody),
    ))]
pub async fn give_nice(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<Nice>, ApiError> {
    Ok(Json(nice(&state, &auth, id, true).await?))
}

#[utoipa::path(delete, path = "/api/reviews/{id}/nice", tag = "reviews",
    summary = "take back one's Nice! (without one, changes nothing)",
    params(("id" = i64, Path, description = "the review")),
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "the review's count, without the caller's Nice!", body = Nice),
        (status = 403, description = "`guest`, `own_review`", body = ErrorBody),
        (status = 404, description = "`unknown_review`", body = ErrorBody),
    ))]
pub async fn undo_nice(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<Nice>, ApiError> {
    Ok(Json(nice(&state, &auth, id, false).await?))
}

/// A report of a review.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Report {
    pub id: i64,
    pub review_id: i64,
    pub reporter: Person,
    /// Plain text.
    pub reason: String,
    /// `open`; `hidden` (the admin hid the review); `kept` (the admin kept it shown).
    pub status: String,
    pub decided_by: Option<Person>,
    pub decided_at: Option<i64>,
    pub created_at: i64,
}

const REPORT_SELECT: &str = "SELECT p.id, p.review_id, p.reporter, a.name AS reporter_name,
        p.reason, p.status, p.decided_by, d.name AS decider_name, p.decided_at, p.created_at
    FROM review_reports p JOIN users a ON a.id = p.reporter LEFT JOIN users d ON d.id = p.decided_by";

fn report_from_row(r: &sqlx::any::AnyRow) -> Report {
    Report {
        id: r.get("id"),
        review_id: r.get("review_id"),
        reporter: Person {
            id: r.get("reporter"),
            name: r
                .get::<Option<String>, _>("reporter_name")
                .unwrap_or_default(),
        },
        reason: r.get("reason"),
        status: r.get("status"),
        decided_by: r.get::<Option<i64>, _>("decided_by").map(|id| Person {
            id,
            name: r
                .get::<Option<String>, _>("decider_name")
                .unwrap_or_default(),
        }),
        decided_at: r.get("decided_at"),
        created_at: r.get("created_at"),
    }
}

#[utoipa::path(post, path = "/api/reviews/{id}/reports", tag = "reviews",
    summary = "report a review to the admins, with a reason (once per person per review)",
    params(("id" = i64, Path, description = "the review")),
    request_body = ReviewReport,
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 201, description = "the report", body = Report),
        (status = 400, description = "`invalid_field`: an empty reason, or one over 1,000 characters", body = ErrorBody),
        (status = 403, description = "`guest`, `own_review`", body = ErrorBody),
        (status = 404, description = "`unknown_review` (also a hidden or deleted one)", body = ErrorBody),
        (status = 409, description = "`already_reported`: the caller reported it before", body = ErrorBody),
    ))]
pub async fn report_review(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
    ApiJson(body): ApiJson<ReviewReport>,
) -> Result<(StatusCode, Json<Report>), ApiError> {
    registered(&auth)?;
    body.validate()?;
    let who = auth.user.id;
    let found = state
        .hub
        .writer()
        .write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                match owner_and_status(&mut tx, id).await? {
                    Some((_, status)) if status != "shown" => return Ok(Found::Missing),
                    None => return Ok(Found::Missing),
                    Some((owner, _)) if owner == who => return Ok(Found::Own),
                    Some(_) => {}
                }
                let rows = sqlx::query(
                    "INSERT INTO review_reports (review_id, reporter, reason, created_at)
                     VALUES ($1, $2, $3, $4)
                     ON CONFLICT (review_id, reporter) DO NOTHING RETURNING id",
                )
                .bind(id)
                .bind(who)
                .bind(body.reason.as_str())
                .bind(now())
                .fetch_all(&mut *tx)
                .await?;
                let report = rows.first().map(|r| r.get::<i64, _>(0));
                tx.commit().await?;
                Ok(Found::Done(report))
            })
        })
        .await?;
    let report = found.answer(id)?.ok_or_else(|| {
        ApiError::conflict(
            "already_reported",
            "you reported this review already; an admin will look at it",
        )
    })?;
    let row = sqlx::query(&format!("{REPORT_SELECT} WHERE p.id = $1"))
        .bind(report)
        .fetch_one(state.db.pool())
        .await?;
    Ok((StatusCode::CREATED, Json(report_from_row(&row))))
}

/// A review in the admin's queue, with its reports.
#[derive(Serialize, ToSchema)]
pub struct Reported {
    pub review: Review,
    /// Oldest first.
    pub reports: Vec<Report>,
}

#[derive(Serialize, ToSchema)]
pub struct ReportQueue {
    /// `open`: shown reviews with undecided reports, the longest waiting first;
    /// `hidden`: hidden reviews, the latest hidden first. At most 200.
    pub items: Vec<Reported>,
}

#[utoipa::path(get, path = "/api/reviews/reports", tag = "reviews",
    summary = "admin: reported reviews waiting for a decision, or the hidden ones",
    params(ReportsQuery),
    security(("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "the queue", body = ReportQueue),
        (status = 403, description = "`not_admin`", body = ErrorBody),
    ))]
pub async fn review_reports(
    State(state): S,
    auth: Auth,
    ApiQuery(q): ApiQuery<ReportsQuery>,
) -> Result<Json<ReportQueue>, ApiError> {
    super::admin::require_admin(&state.db, auth.user.id).await?;
    let sql = match q.state.unwrap_or_default() {
        ReportState::Open => format!(
            "{REVIEW_SELECT} WHERE r.status = 'shown' AND EXISTS (SELECT 1 FROM review_reports p
                 WHERE p.review_id = r.id AND p.status = 'open')
             ORDER BY (SELECT MIN(p.id) FROM review_reports p
                 WHERE p.review_id = r.id AND p.status = 'open') LIMIT 200"
        ),
        ReportState::Hidden => {
            format!("{REVIEW_SELECT} WHERE r.status = 'hidden' ORDER BY r.updated_at DESC, r.id DESC LIMIT 200")
        }
    };
    let reviews: Vec<Review> = sqlx::query(&sql)
        .bind(auth.user.id)
        .fetch_all(state.db.pool())
        .await?
        .iter()
        .map(review_from_row)
        .collect();
    let mut items = Vec::with_capacity(reviews.len());
    for review in reviews {
        let reports = sqlx::query(&format!(
            "{REPORT_SELECT} WHERE p.review_id = $1 ORDER BY p.id"
        ))
        .bind(review.id)
        .fetch_all(state.db.pool())
        .await?
        .iter()
        .map(report_from_row)
        .collect();
        items.push(Reported { review, reports });
    }
    Ok(Json(ReportQueue { items }))
}

/// An admin's decision on a review: hide it, or show it (restore a hidden one, keep a
/// reported one). Open reports are closed with the decision.
async fn decide(state: &AppState, auth: &Auth, id: i64, hide: bool) -> Result<Review, ApiError> {
    super::admin::require_admin(&state.db, auth.user.id).await?;
    let admin = auth.user.id;
    let found = state
        .hub
        .writer()
        .write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                let Some(row) =
                    sqlx::query("SELECT status, title, body FROM reviews WHERE id = $1")
                        .bind(id)
                        .fetch_optional(&mut *tx)
                        .await?
                else {
                    return Ok(Found::Missing);
                };
                let status: String = row.get("status");
                let open: i64 = sqlx::query_scalar(
                    "SELECT COUNT(*) FROM review_reports WHERE review_id = $1 AND status = 'open'",
                )
                .bind(id)
                .fetch_one(&mut *tx)
                .await?;
                // What the decision is, given where the review stands.
                let kind = match (status.as_str(), hide) {
                    ("deleted", _) => return Ok(Found::Missing),
                    ("shown", true) => "hide",
                    ("hidden", false) => "restore",
                    ("shown", false) if open > 0 => "keep",
                    _ => return Ok(Found::Done(false)),
                };
                let at = now();
                if kind != "keep" {
                    sqlx::query("UPDATE reviews SET status = $1, updated_at = $2 WHERE id = $3")
                        .bind(if hide { "hidden" } else { "shown" })
                        .bind(at)
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                }
                sqlx::query(
                    "UPDATE review_reports SET status = $1, decided_by = $2, decided_at = $3
                     WHERE review_id = $4 AND status = 'open'",
                )
                .bind(if hide { "hidden" } else { "kept" })
                .bind(admin)
                .bind(at)
                .bind(id)
                .execute(&mut *tx)
                .await?;
                let (title, body): (String, String) = (row.get("title"), row.get("body"));
                insert_review_change(&mut tx, id, kind, admin, &title, &body).await?;
                tx.commit().await?;
                Ok(Found::Done(true))
            })
        })
        .await?;
    if !found.answer(id)? {
        return Err(ApiError::conflict(
            "nothing_to_decide",
            if hide {
                "this review is hidden already"
            } else {
                "this review is shown and has no open report"
            },
        ));
    }
    review_row(&state.db, id, admin)
        .await?
        .ok_or_else(|| unknown_review(id))
}

#[utoipa::path(post, path = "/api/reviews/{id}/hide", tag = "reviews",
    summary = "admin: hide a review (its open reports are closed as `hidden`)",
    params(("id" = i64, Path, description = "the review")),
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "the review, hidden", body = Review),
        (status = 403, description = "`not_admin`", body = ErrorBody),
        (status = 404, description = "`unknown_review` (also a deleted one)", body = ErrorBody),
        (status = 409, description = "`nothing_to_decide`: hidden already", body = ErrorBody),
    ))]
pub async fn hide_review(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<Review>, ApiError> {
    Ok(Json(decide(&state, &auth, id, true).await?))
}

#[utoipa::path(post, path = "/api/reviews/{id}/restore", tag = "reviews",
    summary = "admin: show a hidden review again, or keep a reported one shown (its open reports are closed as `kept`)",
    params(("id" = i64, Path, description = "the review")),
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "the review, shown", body = Review),
        (status = 403, description = "`not_admin`", body = ErrorBody),
        (status = 404, description = "`unknown_review` (also a deleted one)", body = ErrorBody),
        (status = 409, description = "`nothing_to_decide`: shown, with no open report", body = ErrorBody),
    ))]
pub async fn restore_review(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<Review>, ApiError> {
    Ok(Json(decide(&state, &auth, id, false).await?))
}

/// One change of a review.
#[derive(Serialize, ToSchema)]
pub struct ReviewChange {
    pub id: i64,
    /// `create`, `edit`, `delete` (by the author); `hide`, `restore`, `keep` (by an admin).
    pub kind: String,
    pub author: Person,
    /// The title and text the change left (a deletion or a decision: the text it was about).
    pub title: String,
    pub text: String,
    pub created_at: i64,
}

#[derive(Serialize, ToSchema)]
pub struct ReviewHistory {
    /// Oldest first.
    pub changes: Vec<ReviewChange>,
}

#[utoipa::path(get, path = "/api/reviews/{id}/history", tag = "reviews",
    summary = "every change of a review with who made it: its author's and admins' to see",
    params(("id" = i64, Path, description = "the review")),
    security(("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "the history, oldest first", body = ReviewHistory),
        (status = 403, description = "`not_author`: a shown review of someone else", body = ErrorBody),
        (status = 404, description = "`unknown_review`", body = ErrorBody),
    ))]
pub async fn review_history(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<ReviewHistory>, ApiError> {
    let review = visible_review(&state, id, Some(&auth)).await?;
    if review.author.id != auth.user.id && !super::admin::is_admin(&state.db, auth.user.id).await? {
        return Err(not_author());
    }
    let changes = sqlx::query(
        "SELECT k.id, k.kind, k.author, u.name AS author_name, k.title, k.body, k.created_at
         FROM review_changes k JOIN users u ON u.id = k.author
         WHERE k.review_id = $1 ORDER BY k.id",
    )
    .bind(id)
    .fetch_all(state.db.pool())
    .await?
    .iter()
    .map(|r| ReviewChange {
        id: r.get("id"),
        kind: r.get("kind"),
        author: Person {
            id: r.get("author"),
            name: r
                .get::<Option<String>, _>("author_name")
                .unwrap_or_default(),
        },
        title: r.get("title"),
        text: r.get("body"),
        created_at: r.get("created_at"),
    })
    .collect();
    Ok(Json(ReviewHistory { changes }))
}

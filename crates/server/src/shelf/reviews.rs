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
use super::{registered, Person};
use crate::api::ApiJson;
use crate::auth::{Auth, MaybeAuth};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{ApiPath, ApiQuery};
use crate::store::shelf::reviews::Found;
use crate::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use std::sync::Arc;
use takuge_protocol::{NewReview, ReportsQuery, ReviewEdit, ReviewReport, ReviewsQuery};
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
    Ok(db.review(id, viewer).await?)
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
    let limit = i64::from(q.limit.unwrap_or(20).clamp(1, 100));
    let offset = i64::from(q.offset.unwrap_or(0));
    let (reviews, total) = state
        .db
        .game_reviews(
            game.id,
            q.kind.map(|k| k.as_str()),
            q.order.unwrap_or_default(),
            viewer_id(auth.as_ref()),
            (limit, offset),
        )
        .await?;
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
        .create_review(game.id, author, body.kind.as_str(), body.title, body.text)
        .await?;
    let review = review_row(&state.db, id, author)
        .await?
        .ok_or_else(|| ApiError::internal("a stored review vanished"))?;
    Ok((StatusCode::CREATED, Json(review)))
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
        .edit_review(id, author, body.title, body.text)
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
    let found = state.hub.writer().delete_review(id, author).await?;
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
    let found = state.hub.writer().nice(id, who, on).await?;
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
        .report_review(id, who, body.reason)
        .await?;
    let report = found.answer(id)?.ok_or_else(|| {
        ApiError::conflict(
            "already_reported",
            "you reported this review already; an admin will look at it",
        )
    })?;
    let report = state.db.report_by_id(report).await?;
    Ok((StatusCode::CREATED, Json(report)))
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
    let reviews = state
        .db
        .review_queue(q.state.unwrap_or_default(), auth.user.id)
        .await?;
    let mut items = Vec::with_capacity(reviews.len());
    for review in reviews {
        let reports = state.db.reports_of(review.id).await?;
        items.push(Reported { review, reports });
    }
    Ok(Json(ReportQueue { items }))
}

/// An admin's decision on a review: hide it, or show it (restore a hidden one, keep a
/// reported one). Open reports are closed with the decision.
async fn decide(state: &AppState, auth: &Auth, id: i64, hide: bool) -> Result<Review, ApiError> {
    super::admin::require_admin(&state.db, auth.user.id).await?;
    let admin = auth.user.id;
    let found = state.hub.writer().decide_review(id, admin, hide).await?;
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
    let changes = state.db.review_history(id).await?;
    Ok(Json(ReviewHistory { changes }))
}

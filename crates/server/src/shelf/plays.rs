//! `/api/plays`: plays logged by hand, plays of takuge matches (recorded when a match
//! finishes, one for each registered seat), a person's history and per-game numbers.

use super::catalog_api::visible_game;
use super::{registered, visible_owner, Person};
use crate::api::ApiJson;
use crate::auth::{Auth, MaybeAuth};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{ApiPath, ApiQuery};
use crate::store::Store;
use crate::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use std::sync::Arc;
use takuge_protocol::{NewPlay, PlaysQuery};
use utoipa::ToSchema;

pub use crate::store::shelf::plays::{NewPlayer, PlayRow};

type S = State<Arc<AppState>>;

/// The game of a play, briefly.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlayGame {
    pub id: i64,
    pub slug: Option<String>,
    pub name_ja: String,
    pub name_en: String,
    pub bgg_id: Option<i64>,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlayPlayer {
    /// The account, when the player has one here.
    pub user_id: Option<i64>,
    pub name: String,
    pub score: Option<i64>,
    /// 1 is best.
    pub rank: Option<i64>,
    pub winner: bool,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Play {
    pub id: i64,
    /// Whose history it is in.
    pub user_id: i64,
    pub game: PlayGame,
    /// `YYYY-MM-DD`.
    pub date: String,
    pub minutes: Option<i64>,
    pub comment: String,
    /// The takuge table it was played at (absent for a play logged by hand).
    pub table_id: Option<i64>,
    /// The replay's web page, for a takuge match.
    pub replay: Option<String>,
    pub players: Vec<PlayPlayer>,
}

/// The latest plays of a game in histories shown to everyone.
pub async fn recent_public_plays(db: &Store, game: i64, n: i64) -> Result<Vec<Play>, ApiError> {
    Ok(db.recent_public_plays(game, n).await?)
}

/// Ranks by score, higher better, ties sharing (when every player has a score).
fn ranks(scores: &[Option<i64>]) -> Vec<Option<i64>> {
    if scores.iter().any(Option::is_none) {
        return vec![None; scores.len()];
    }
    scores
        .iter()
        .map(|s| Some(1 + scores.iter().filter(|o| *o > s).count() as i64))
        .collect()
}

#[utoipa::path(post, path = "/api/plays", tag = "shelf",
    summary = "log a play on a real table: date, game, players (accounts or names), scores, winners, minutes, comment",
    request_body = NewPlay,
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 201, description = "the play, in the caller's history", body = Play),
        (status = 400, description = "`invalid_field`: a date that is not on the calendar, no players, a player with neither account nor name; `unknown_user`: a player's account is not found", body = ErrorBody),
        (status = 403, description = "`guest`", body = ErrorBody),
        (status = 404, description = "`unknown_game`", body = ErrorBody),
    ))]
pub async fn log_play(
    State(state): S,
    auth: Auth,
    ApiJson(body): ApiJson<NewPlay>,
) -> Result<(StatusCode, Json<Play>), ApiError> {
    registered(&auth)?;
    body.validate()?;
    let game = visible_game(&state, &body.game, Some(&auth)).await?;
    let scores: Vec<Option<i64>> = body.players.iter().map(|p| p.score).collect();
    let ranks = ranks(&scores);
    let mut players = Vec::new();
    for (p, rank) in body.players.iter().zip(ranks) {
        let account = match &p.user {
            Some(u) => Some(super::find_user(&state.db, u).await?.ok_or_else(|| {
                ApiError::bad_request("unknown_user", format!("there is no account {u:?}"))
            })?),
            None => None,
        };
        players.push(NewPlayer {
            user_id: account.as_ref().map(|a| a.id),
            name: p
                .name
                .clone()
                .or_else(|| account.map(|a| a.name))
                .unwrap_or_default(),
            score: p.score,
            rank,
            winner: p.winner,
        });
    }
    let row = PlayRow {
        user_id: auth.user.id,
        game_id: game.id,
        date: body.date,
        minutes: body.minutes.map(i64::from),
        comment: body.comment,
        table_id: None,
        players,
    };
    let id = state
        .hub
        .writer()
        .log_play(row)
        .await?
        .ok_or_else(|| ApiError::internal("a manual play conflicted"))?;
    let play = state
        .db
        .play_by_id(id)
        .await?
        .ok_or_else(|| ApiError::internal("a stored play vanished"))?;
    state.recommender.changed();
    Ok((StatusCode::CREATED, Json(play)))
}

/// One game's numbers in a history.
#[derive(Serialize, ToSchema)]
pub struct GameStats {
    pub game: PlayGame,
    pub plays: i64,
    /// Plays in which the history's owner is among the winners.
    pub wins: i64,
    pub last_played: String,
}

/// Plays per month, for the plot.
#[derive(Serialize, ToSchema)]
pub struct Month {
    /// `YYYY-MM`.
    pub month: String,
    pub plays: i64,
}

#[derive(Serialize, ToSchema)]
pub struct PlayHistory {
    pub user: Person,
    /// Newest first.
    pub plays: Vec<Play>,
    /// Per game, most played first (over the whole history, whatever the limit).
    pub stats: Vec<GameStats>,
    /// Oldest first.
    pub by_month: Vec<Month>,
}

pub async fn history_of(
    db: &Store,
    user: Person,
    game: Option<i64>,
    limit: i64,
) -> Result<PlayHistory, ApiError> {
    let plays = db.plays_of_user(user.id, game, limit).await?;
    let stats = db.play_stats(user.id, game).await?;
    let by_month = db.plays_by_month(user.id, game).await?;
    Ok(PlayHistory {
        user,
        plays,
        stats,
        by_month,
    })
}

#[utoipa::path(get, path = "/api/plays", tag = "shelf",
    summary = "a person's plays (newest first) with per-game plays, wins and last played, and plays per month",
    params(PlaysQuery),
    security((), ("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "the history", body = PlayHistory),
        (status = 400, description = "`user_required`: no `user` and no session", body = ErrorBody),
        (status = 404, description = "`unknown_user` (also a history not shown to the caller), `unknown_game`", body = ErrorBody),
    ))]
pub async fn plays(
    State(state): S,
    MaybeAuth(auth): MaybeAuth,
    ApiQuery(q): ApiQuery<PlaysQuery>,
) -> Result<Json<PlayHistory>, ApiError> {
    let user = match (&q.user, &auth) {
        (Some(who), _) => visible_owner(&state.db, who, auth.as_ref()).await?,
        (None, Some(a)) => Person {
            id: a.user.id,
            name: a.user.name.clone().unwrap_or_default(),
        },
        (None, None) => {
            return Err(ApiError::bad_request(
                "user_required",
                "name whose plays (`?user=`), or sign in for your own",
            ))
        }
    };
    let game = match &q.game {
        Some(g) => Some(visible_game(&state, g, auth.as_ref()).await?.id),
        None => None,
    };
    let limit = i64::from(q.limit.unwrap_or(100).clamp(1, 1000));
    Ok(Json(history_of(&state.db, user, game, limit).await?))
}

#[utoipa::path(delete, path = "/api/plays/{id}", tag = "shelf",
    summary = "delete one's own play logged by hand (a takuge match's play is its record and stays)",
    params(("id" = i64, Path, description = "the play")),
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 204, description = "deleted, with its players"),
        (status = 403, description = "`guest`", body = ErrorBody),
        (status = 404, description = "`unknown_play` (also another person's)", body = ErrorBody),
        (status = 409, description = "`recorded_play`: the play of a takuge match, which cannot be deleted", body = ErrorBody),
    ))]
pub async fn delete_play(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    registered(&auth)?;
    let who = auth.user.id;
    // `Some(true)`: deleted; `Some(false)`: a match's play; `None`: not the caller's.
    let outcome = state.hub.writer().delete_own_play(id, who).await?;
    match outcome {
        Some(true) => Ok(StatusCode::NO_CONTENT),
        Some(false) => Err(ApiError::conflict(
            "recorded_play",
            "this play is the record of a takuge match and cannot be deleted",
        )),
        None => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "unknown_play",
            format!("there is no play {id} in your history"),
        )),
    }
}

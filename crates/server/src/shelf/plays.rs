//! `/api/plays`: plays logged by hand, plays of takuge matches (recorded when a match
//! finishes, one for each registered seat), a person's history and per-game numbers.

use super::catalog_api::visible_game;
use super::{registered, visible_owner, Person};
use crate::api::ApiJson;
use crate::auth::{Auth, MaybeAuth};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{ApiPath, ApiQuery};
use crate::store::Store;
use crate::time::now;
use crate::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use sqlx::Row;
use std::collections::HashMap;
use std::sync::Arc;
use takuge_protocol::{NewPlay, PlaysQuery};
use utoipa::ToSchema;

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

const PLAY_SELECT: &str = "SELECT p.id, p.user_id, p.played_on, p.minutes, p.comment, p.table_id,
        g.id AS gid, g.slug, g.name_ja, g.name_en, g.bgg_id
    FROM plays p JOIN catalog_games g ON g.id = p.game_id";

/// The plays of `rows` (from [`PLAY_SELECT`]) with their players.
async fn plays_of(db: &Store, rows: Vec<sqlx::any::AnyRow>) -> Result<Vec<Play>, ApiError> {
    let mut plays: Vec<Play> = rows
        .iter()
        .map(|r| {
            let table: Option<i64> = r.get("table_id");
            Play {
                id: r.get("id"),
                user_id: r.get("user_id"),
                game: PlayGame {
                    id: r.get("gid"),
                    slug: r.get("slug"),
                    name_ja: r.get("name_ja"),
                    name_en: r.get("name_en"),
                    bgg_id: r.get("bgg_id"),
                },
                date: r.get("played_on"),
                minutes: r.get("minutes"),
                comment: r.get("comment"),
                table_id: table,
                replay: table.map(|t| format!("/replay/{t}")),
                players: Vec::new(),
            }
        })
        .collect();
    if plays.is_empty() {
        return Ok(plays);
    }
    // The players of every play at once: their ids are a list of integers we made.
    let ids: Vec<String> = plays.iter().map(|p| p.id.to_string()).collect();
    let rows = sqlx::query(&format!(
        "SELECT play_id, user_id, name, score, rank, winner FROM play_players
         WHERE play_id IN ({}) ORDER BY play_id, position",
        ids.join(",")
    ))
    .fetch_all(db.pool())
    .await?;
    let mut by_play: HashMap<i64, Vec<PlayPlayer>> = HashMap::new();
    for r in rows {
        by_play
            .entry(r.get("play_id"))
            .or_default()
            .push(PlayPlayer {
                user_id: r.get("user_id"),
                name: r.get("name"),
                score: r.get("score"),
                rank: r.get("rank"),
                winner: r.get::<i64, _>("winner") != 0,
            });
    }
    for p in &mut plays {
        p.players = by_play.remove(&p.id).unwrap_or_default();
    }
    Ok(plays)
}

/// The latest plays of a game in histories shown to everyone.
pub async fn recent_public_plays(db: &Store, game: i64, n: i64) -> Result<Vec<Play>, ApiError> {
    let rows = sqlx::query(&format!(
        "{PLAY_SELECT} JOIN users u ON u.id = p.user_id
         WHERE p.game_id = $1 AND u.guest = 0
           AND NOT EXISTS (SELECT 1 FROM shelves s WHERE s.user_id = p.user_id AND s.visibility <> 'public')
         ORDER BY p.played_on DESC, p.id DESC LIMIT $2"
    ))
    .bind(game)
    .bind(n)
    .fetch_all(db.pool())
    .await?;
    plays_of(db, rows).await
}

/// One player of a play about to be written.
pub struct NewPlayer {
    pub user_id: Option<i64>,
    pub name: String,
    pub score: Option<i64>,
    pub rank: Option<i64>,
    pub winner: bool,
}

/// A play about to be written.
pub struct PlayRow {
    pub user_id: i64,
    pub game_id: i64,
    pub date: String,
    pub minutes: Option<i64>,
    pub comment: String,
    pub table_id: Option<i64>,
    pub players: Vec<NewPlayer>,
}

/// Writes a play and its players; its id, or `None` when a play of that table is
/// already in that person's history.
pub async fn insert_play(
    c: &mut sqlx::AnyConnection,
    p: &PlayRow,
) -> Result<Option<i64>, sqlx::Error> {
    let rows = sqlx::query(
        "INSERT INTO plays (user_id, game_id, played_on, minutes, comment, table_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (table_id, user_id) DO NOTHING RETURNING id",
    )
    .bind(p.user_id)
    .bind(p.game_id)
    .bind(p.date.as_str())
    .bind(p.minutes)
    .bind(p.comment.as_str())
    .bind(p.table_id)
    .bind(now())
    .fetch_all(&mut *c)
    .await?;
    let Some(id) = rows.first().map(|r| r.get::<i64, _>(0)) else {
        return Ok(None);
    };
    for (k, pl) in p.players.iter().enumerate() {
        sqlx::query(
            "INSERT INTO play_players (play_id, position, user_id, name, score, rank, winner)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(id)
        .bind(k as i64)
        .bind(pl.user_id)
        .bind(pl.name.as_str())
        .bind(pl.score)
        .bind(pl.rank)
        .bind(i64::from(pl.winner))
        .execute(&mut *c)
        .await?;
    }
    Ok(Some(id))
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
        .write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                let id = insert_play(&mut tx, &row).await?;
                tx.commit().await?;
                Ok(id)
            })
        })
        .await?
        .ok_or_else(|| ApiError::internal("a manual play conflicted"))?;
    let rows = sqlx::query(&format!("{PLAY_SELECT} WHERE p.id = $1"))
        .bind(id)
        .fetch_all(state.db.pool())
        .await?;
    let play = plays_of(&state.db, rows)
        .await?
        .pop()
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
    let rows = sqlx::query(&format!(
        "{PLAY_SELECT} WHERE p.user_id = $1 AND ($2 IS NULL OR p.game_id = $3)
         ORDER BY p.played_on DESC, p.id DESC LIMIT $4"
    ))
    .bind(user.id)
    .bind(game)
    .bind(game)
    .bind(limit)
    .fetch_all(db.pool())
    .await?;
    let plays = plays_of(db, rows).await?;
    let stats = sqlx::query(
        "SELECT g.id AS gid, g.slug, g.name_ja, g.name_en, g.bgg_id, COUNT(*) AS n, MAX(p.played_on) AS last,
            CAST(COALESCE(SUM(CASE WHEN EXISTS (SELECT 1 FROM play_players w
                 WHERE w.play_id = p.id AND w.user_id = p.user_id AND w.winner = 1) THEN 1 ELSE 0 END), 0) AS BIGINT) AS wins
         FROM plays p JOIN catalog_games g ON g.id = p.game_id
         WHERE p.user_id = $1 AND ($2 IS NULL OR p.game_id = $3)
         GROUP BY g.id, g.slug, g.name_ja, g.name_en, g.bgg_id
         ORDER BY COUNT(*) DESC, MAX(p.played_on) DESC, g.id",
    )
    .bind(user.id)
    .bind(game)
    .bind(game)
    .fetch_all(db.pool())
    .await?
    .iter()
    .map(|r| GameStats {
        game: PlayGame {
            id: r.get("gid"),
            slug: r.get("slug"),
            name_ja: r.get("name_ja"),
            name_en: r.get("name_en"),
            bgg_id: r.get("bgg_id"),
        },
        plays: r.get("n"),
        wins: r.get("wins"),
        last_played: r.get("last"),
    })
    .collect();
    let by_month = sqlx::query(
        "SELECT SUBSTR(played_on, 1, 7) AS m, COUNT(*) AS n FROM plays
         WHERE user_id = $1 AND ($2 IS NULL OR game_id = $3)
         GROUP BY SUBSTR(played_on, 1, 7) ORDER BY SUBSTR(played_on, 1, 7)",
    )
    .bind(user.id)
    .bind(game)
    .bind(game)
    .fetch_all(db.pool())
    .await?
    .iter()
    .map(|r| Month {
        month: r.get("m"),
        plays: r.get("n"),
    })
    .collect();
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
    let outcome = state
        .hub
        .writer()
        .write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                let Some(table) =
                    sqlx::query("SELECT table_id FROM plays WHERE id = $1 AND user_id = $2")
                        .bind(id)
                        .bind(who)
                        .fetch_optional(&mut *tx)
                        .await?
                        .map(|r| r.get::<Option<i64>, _>("table_id"))
                else {
                    return Ok(None);
                };
                if table.is_some() {
                    return Ok(Some(false));
                }
                sqlx::query("DELETE FROM play_players WHERE play_id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query("DELETE FROM plays WHERE id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(Some(true))
            })
        })
        .await?;
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

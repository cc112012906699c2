//! Recommendations (issue 18): games a person has neither played nor owned, chosen from
//! everyone's shelves, each with its reason; "people who like this game also like";
//! "not interested".
//!
//! The model (`takuge_recommend::Model`) is built off the request path: at start, every
//! `recommend_every`, and soon after shelves change (the rebuild loop below), on a
//! blocking thread, then swapped in whole behind an `Arc`. A request clones the `Arc`
//! and never waits for a build; before the first build it answers from popularity in
//! the database. The caller's own entries and dismissals are read fresh on every
//! request, so what they just marked owned, played or not interested never shows.

use super::catalog::CatalogGame;
use super::catalog_api::visible_game;
use super::registered;
use crate::api::{ApiJson, Done};
use crate::auth::{Auth, MaybeAuth};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{ApiPath, ApiQuery};
use crate::store::Store;
use crate::time::now;
use crate::AppState;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};
use takuge_protocol::{Dismiss, Language, RecommendQuery, ShelfQuery, SimilarQuery};
use takuge_recommend::{Filters, Interaction, Lang, Model, Params, Reason, Request};
use tokio::sync::Notify;
use utoipa::ToSchema;

type S = State<Arc<AppState>>;

/// A built model and when it was built.
pub struct Built {
    pub model: Model,
    /// Unix seconds.
    pub built_at: i64,
    pub took: Duration,
}

/// The current model, swapped whole by the rebuild loop.
#[derive(Default)]
pub struct Recommender {
    current: RwLock<Option<Arc<Built>>>,
    changed: Notify,
    /// Builds over (made, failed) and whether one runs now, for `/metrics`: a
    /// benchmark waits until the start-up build is over, which reads every shelf.
    builds: AtomicU64,
    build_failures: AtomicU64,
    building: AtomicBool,
}

impl Recommender {
    /// The model now (a clone of the `Arc`: the lock is held for no longer than that).
    pub fn current(&self) -> Option<Arc<Built>> {
        self.current.read().map(|g| g.clone()).unwrap_or(None)
    }

    fn set(&self, built: Built) {
        if let Ok(mut g) = self.current.write() {
            *g = Some(Arc::new(built));
        }
    }

    /// Shelves changed: rebuild soon (see [`rebuild_loop`]).
    pub fn changed(&self) {
        self.changed.notify_one();
    }

    /// The builds' rows of `/metrics`.
    pub fn render_metrics(&self, out: &mut String) {
        crate::metrics::write_rows(
            out,
            &[
                (
                    "takuge_recommend_builds_total",
                    "counter",
                    "Recommendation models built (the first at start)",
                    self.builds.load(Ordering::Relaxed) as i64,
                ),
                (
                    "takuge_recommend_build_failures_total",
                    "counter",
                    "Recommendation builds that failed (logged)",
                    self.build_failures.load(Ordering::Relaxed) as i64,
                ),
                (
                    "takuge_recommend_building",
                    "gauge",
                    "1 while a recommendation model is being built (it reads every shelf)",
                    i64::from(self.building.load(Ordering::Relaxed)),
                ),
            ],
        );
    }
}

/// Builds the model at start, then again every `recommend_every`, or after a change
/// once `recommend_settle` has passed — and at least ten times the last build's
/// duration since it, so rebuilding takes at most about a tenth of one core however
/// busy the shelves are. Ends when the server shuts down.
pub async fn rebuild_loop(state: Arc<AppState>) {
    let mut shutdown = state.shutdown.clone();
    loop {
        if *shutdown.borrow() {
            return;
        }
        let started = Instant::now();
        let recommender = &state.recommender;
        recommender.building.store(true, Ordering::Relaxed);
        let mut made = false;
        match state.db.recommendation_inputs().await {
            Ok((interactions, games)) => {
                let built = tokio::task::spawn_blocking(move || {
                    Model::build(&interactions, &games, Params::default())
                })
                .await;
                match built {
                    Ok(model) => {
                        let took = started.elapsed();
                        tracing::info!(
                            games = model.games(),
                            people = model.users(),
                            entries = model.interactions(),
                            ms = took.as_millis() as u64,
                            "recommendation model built"
                        );
                        recommender.set(Built {
                            model,
                            built_at: now(),
                            took,
                        });
                        made = true;
                    }
                    Err(e) => tracing::error!(error = %e, "the recommendation build failed"),
                }
            }
            Err(e) => tracing::warn!(error = %e, "cannot read the shelves for recommendations"),
        }
        let over = if made {
            &recommender.builds
        } else {
            &recommender.build_failures
        };
        over.fetch_add(1, Ordering::Relaxed);
        recommender.building.store(false, Ordering::Relaxed);
        let took = started.elapsed();
        let every = state.config.recommend_every;
        let settle = state.config.recommend_settle.max(took * 10).min(every);
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            _ = state.recommender.changed.notified() => {
                tokio::select! {
                    _ = tokio::time::sleep(settle) => {}
                    _ = shutdown.changed() => return,
                }
            }
            _ = shutdown.changed() => return,
        }
    }
}

/// The model, as the answers describe it.
#[derive(Serialize, ToSchema)]
pub struct ModelInfo {
    /// False until the first build: answers come from popularity alone.
    pub ready: bool,
    /// Unix seconds.
    pub built_at: Option<i64>,
    /// People with a liked game, and games, the model was built from.
    pub people: i64,
    pub games: i64,
}

fn model_info(built: Option<&Built>) -> ModelInfo {
    match built {
        Some(b) => ModelInfo {
            ready: true,
            built_at: Some(b.built_at),
            people: b.model.users() as i64,
            games: b.model.games() as i64,
        },
        None => ModelInfo {
            ready: false,
            built_at: None,
            people: 0,
            games: 0,
        },
    }
}

/// A game a reason names.
#[derive(Clone, Serialize, ToSchema)]
pub struct GameName {
    pub id: i64,
    pub name_en: String,
    pub name_ja: String,
}

/// Why a game is recommended.
#[derive(Serialize, ToSchema)]
pub struct RecommendReason {
    /// `liked`: people who like `games` (the caller's) like it too; `similar`: like
    /// `games[0]` (the caller's) in players, time, mechanics or designers; `popular`:
    /// popular among the games passing the filters.
    pub kind: String,
    pub games: Vec<GameName>,
    /// The reason in words, in `lang`.
    pub text: String,
}

#[derive(Serialize, ToSchema)]
pub struct Recommended {
    pub game: CatalogGame,
    /// Higher is better (within one answer).
    pub score: f64,
    pub reason: RecommendReason,
}

#[derive(Serialize, ToSchema)]
pub struct Recommendations {
    pub recommendations: Vec<Recommended>,
    /// The language of the reasons.
    pub lang: Language,
    pub model: ModelInfo,
}

/// `lang`, else the first of `ja`/`en` by quality in `Accept-Language`, else English.
pub fn language(asked: Option<Language>, headers: &HeaderMap) -> Language {
    if let Some(l) = asked {
        return l;
    }
    let Some(accept) = headers
        .get(axum::http::header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
    else {
        return Language::En;
    };
    let mut best: Option<(f32, Language)> = None;
    for part in accept.split(',') {
        let mut bits = part.split(';');
        let tag = bits.next().unwrap_or("").trim().to_ascii_lowercase();
        let q = bits
            .find_map(|b| b.trim().strip_prefix("q="))
            .and_then(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        let lang = match tag.split('-').next() {
            Some("ja") => Language::Ja,
            Some("en") => Language::En,
            _ => continue,
        };
        if q > 0.0 && best.is_none_or(|(b, _)| q > b) {
            best = Some((q, lang));
        }
    }
    best.map_or(Language::En, |(_, l)| l)
}

fn lang_of(l: Language) -> Lang {
    match l {
        Language::En => Lang::En,
        Language::Ja => Lang::Ja,
    }
}

/// The caller's entries (their games by id) and their interactions with play counts.
async fn own_entries(
    db: &Store,
    user: i64,
) -> Result<(HashMap<i64, CatalogGame>, Vec<Interaction>), ApiError> {
    let mut games = HashMap::new();
    let mut by_game: HashMap<i64, Interaction> = HashMap::new();
    for e in db.own_entries(user).await? {
        by_game.insert(
            e.game.id,
            Interaction {
                user,
                game: e.game.id,
                rating: e.rating.map(|r| r as f32),
                own: e.own,
                prev_owned: e.prev_owned,
                played: e.played,
                favourite: e.favourite,
                want: e.want_to_play || e.wishlist,
                plays: 0,
            },
        );
        games.insert(e.game.id, e.game);
    }
    for (g, n) in db.play_counts(user).await? {
        let n = u32::try_from(n).unwrap_or(u32::MAX);
        by_game
            .entry(g.id)
            .or_insert_with(|| Interaction {
                user,
                game: g.id,
                ..Default::default()
            })
            .plays = n;
        games.entry(g.id).or_insert(g);
    }
    Ok((games, by_game.into_values().collect()))
}

/// Approved games by id (a list of integers the model gave).
async fn games_by_id(db: &Store, ids: &[i64]) -> Result<HashMap<i64, CatalogGame>, ApiError> {
    Ok(db
        .approved_games(ids)
        .await?
        .into_iter()
        .map(|g| (g.id, g))
        .collect())
}

/// Before the first build: the approved games most often liked on shelves, passing
/// the filters, not known to the caller nor dismissed.
async fn popular_from_database(
    db: &Store,
    filters: &RecommendQuery,
    excluded: &[i64],
    limit: usize,
) -> Result<Vec<(i64, f32)>, ApiError> {
    let filters = ShelfQuery {
        players: filters.players,
        max_minutes: filters.max_minutes,
        age: filters.min_age,
        ..Default::default()
    };
    Ok(db
        .most_liked_games(&filters, (limit + excluded.len()) as i64)
        .await?
        .into_iter()
        .filter(|(id, liked)| *liked > 0 && !excluded.contains(id))
        .take(limit)
        .map(|(id, _)| (id, 0.0))
        .collect())
}

fn name_of(g: &CatalogGame) -> GameName {
    GameName {
        id: g.id,
        name_en: g.name_en.clone(),
        name_ja: g.name_ja.clone(),
    }
}

fn display(g: &GameName, lang: Language) -> String {
    let (first, second) = match lang {
        Language::Ja => (&g.name_ja, &g.name_en),
        Language::En => (&g.name_en, &g.name_ja),
    };
    if first.is_empty() {
        second.clone()
    } else {
        first.clone()
    }
}

#[utoipa::path(get, path = "/api/recommendations", tag = "shelf",
    summary = "games for the caller: ones they have neither played nor owned (nor rated, nor dismissed), from everyone's shelves, each with its reason",
    description = "Filtered by players, time and age. The reasons' words are in `lang`, else \
        the language `Accept-Language` prefers of `ja` and `en`, else English. The model is \
        rebuilt in the background; before its first build the list is the most liked \
        games (`model.ready` false).",
    params(RecommendQuery),
    security(("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "the list, best first", body = Recommendations),
        (status = 400, description = "`invalid_field`: a filter or limit out of range", body = ErrorBody),
    ))]
pub async fn recommendations(
    State(state): S,
    auth: Auth,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<RecommendQuery>,
) -> Result<Json<Recommendations>, ApiError> {
    q.validate()?;
    let lang = language(q.lang, &headers);
    let limit = q.limit.unwrap_or(20) as usize;
    let user = auth.user.id;
    let (mine, entries) = own_entries(&state.db, user).await?;
    let dismissed = state.db.dismissed_games(user).await?;
    let filters = Filters {
        players: q.players,
        max_minutes: q.max_minutes,
        min_age: q.min_age,
    };
    let built = state.recommender.current();
    let picks: Vec<(i64, f32, Reason)> = match &built {
        Some(b) => b
            .model
            .recommend(&Request {
                entries: &entries,
                dismissed: &dismissed,
                filters,
                limit,
            })
            .into_iter()
            .map(|r| (r.game, r.score, r.reason))
            .collect(),
        None => {
            let mut excluded: Vec<i64> = entries
                .iter()
                .filter(|e| e.known())
                .map(|e| e.game)
                .collect();
            excluded.extend(&dismissed);
            popular_from_database(&state.db, &q, &excluded, limit)
                .await?
                .into_iter()
                .map(|(g, s)| {
                    (
                        g,
                        s,
                        Reason::Popular {
                            players: q.players,
                            max_minutes: q.max_minutes,
                        },
                    )
                })
                .collect()
        }
    };
    let ids: Vec<i64> = picks.iter().map(|p| p.0).collect();
    let mut games = games_by_id(&state.db, &ids).await?;
    let names: HashMap<i64, GameName> = mine.values().map(|g| (g.id, name_of(g))).collect();
    let recommendations = picks
        .into_iter()
        .filter_map(|(id, score, reason)| {
            let game = games.remove(&id)?;
            let named: Vec<GameName> = reason
                .games()
                .iter()
                .filter_map(|g| names.get(g).cloned())
                .collect();
            let text = reason.text(lang_of(lang), |g| {
                names
                    .get(&g)
                    .map_or_else(|| format!("#{g}"), |n| display(n, lang))
            });
            let kind = match reason {
                Reason::Liked(_) => "liked",
                Reason::Similar(_) => "similar",
                Reason::Popular { .. } => "popular",
            };
            Some(Recommended {
                game,
                score: (f64::from(score) * 1000.0).round() / 1000.0,
                reason: RecommendReason {
                    kind: kind.to_string(),
                    games: named,
                    text,
                },
            })
        })
        .collect();
    Ok(Json(Recommendations {
        recommendations,
        lang,
        model: model_info(built.as_deref()),
    }))
}

#[utoipa::path(post, path = "/api/recommendations/dismiss", tag = "shelf",
    summary = "\"not interested\": the game is never recommended to the caller again (until undone)",
    request_body = Dismiss,
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "remembered (again: no change)", body = Done),
        (status = 403, description = "`guest`", body = ErrorBody),
        (status = 404, description = "`unknown_game`", body = ErrorBody),
    ))]
pub async fn dismiss(
    State(state): S,
    auth: Auth,
    ApiJson(body): ApiJson<Dismiss>,
) -> Result<Json<Done>, ApiError> {
    registered(&auth)?;
    let game = visible_game(&state, &body.game_id.to_string(), Some(&auth)).await?;
    state
        .hub
        .writer()
        .dismiss_game(auth.user.id, game.id)
        .await?;
    Ok(Json(Done { ok: true }))
}

#[utoipa::path(delete, path = "/api/recommendations/dismiss/{id}", tag = "shelf",
    summary = "undo \"not interested\": the game may be recommended again",
    params(("id" = i64, Path, description = "the game's catalog id")),
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "forgotten", body = Done),
        (status = 403, description = "`guest`", body = ErrorBody),
        (status = 404, description = "`not_dismissed`: the caller had not dismissed that game", body = ErrorBody),
    ))]
pub async fn undismiss(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<Done>, ApiError> {
    registered(&auth)?;
    let gone = state.hub.writer().undismiss_game(auth.user.id, id).await?;
    if !gone {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "not_dismissed",
            format!("you have not dismissed game {id}"),
        ));
    }
    Ok(Json(Done { ok: true }))
}

#[derive(Serialize, ToSchema)]
pub struct SimilarGame {
    pub game: CatalogGame,
    /// Higher is more similar (within one answer).
    pub score: f64,
}

#[derive(Serialize, ToSchema)]
pub struct SimilarGames {
    pub game_id: i64,
    /// Most similar first: games liked by the same people; for a game few people have
    /// yet, games like it in players, time, mechanics and designers.
    pub similar: Vec<SimilarGame>,
    pub model: ModelInfo,
}

#[utoipa::path(get, path = "/api/catalog/{id}/similar", tag = "shelf",
    summary = "people who like this game also like: the games most often liked together with it",
    params(("id" = String, Path, description = "a catalog id or a takuge game id"), SimilarQuery),
    security((), ("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "the similar games (empty before the model's first build)", body = SimilarGames),
        (status = 400, description = "`invalid_field`: a limit out of range", body = ErrorBody),
        (status = 404, description = "`unknown_game`", body = ErrorBody),
    ))]
pub async fn similar(
    State(state): S,
    MaybeAuth(auth): MaybeAuth,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<SimilarQuery>,
) -> Result<Json<SimilarGames>, ApiError> {
    q.validate()?;
    let game = visible_game(&state, &id, auth.as_ref()).await?;
    let built = state.recommender.current();
    let found = built.as_ref().map_or_else(Vec::new, |b| {
        b.model.similar(game.id, q.limit.unwrap_or(10) as usize)
    });
    let ids: Vec<i64> = found.iter().map(|f| f.0).collect();
    let mut games = games_by_id(&state.db, &ids).await?;
    let similar = found
        .into_iter()
        .filter_map(|(g, s)| {
            Some(SimilarGame {
                game: games.remove(&g)?,
                score: (f64::from(s) * 1000.0).round() / 1000.0,
            })
        })
        .collect();
    Ok(Json(SimilarGames {
        game_id: game.id,
        similar,
        model: model_info(built.as_deref()),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_language_is_the_parameter_else_the_preferred_of_ja_and_en() {
        let mut h = HeaderMap::new();
        assert_eq!(language(None, &h), Language::En);
        h.insert(
            axum::http::header::ACCEPT_LANGUAGE,
            "fr;q=1, en;q=0.5, ja-JP;q=0.8".parse().expect("header"),
        );
        assert_eq!(language(None, &h), Language::Ja);
        assert_eq!(language(Some(Language::En), &h), Language::En);
    }
}

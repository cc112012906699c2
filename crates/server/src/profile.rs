//! An account's profile (issue 21): its display name, the tables it sits at (open and in
//! play) and, for its owner, the ones waiting for its move; its finished games with their
//! results and replays, per-game numbers (played, won, by seat and by team or role) and
//! its results over time. Finished games are the shelf's plays (`shelf::matches` records
//! one for each registered seat when a match ends): one history, not two.
//!
//! Who sees it: the shelf's visibility (`PUT /api/collections/me`) covers the profile
//! too — `public`, `signed_in` (registered accounts) or `private` (only its owner); a
//! profile not shown to the caller answers as a missing one. Another person's profile
//! lists only their public tables, and never whose move it is there.

use crate::api::ApiJson;
use crate::auth::{Auth, MaybeAuth, User};
use crate::error::{ApiError, ErrorBody};
use crate::extract::ApiPath;
use crate::shelf::plays::{history_of, Play, PlayGame};
use crate::shelf::{registered, unknown_user, visibility_of, visible_owner, Person};
use crate::table::{Clock, Cmd, Turn};
use crate::AppState;
use axum::extract::{ConnectInfo, State};
use axum::Json;
use serde::Serialize;
use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use takuge_protocol::ProfileChange;
use utoipa::ToSchema;

type S = State<Arc<AppState>>;

/// Finished games listed on a profile (the plays page has the whole history).
const FINISHED: i64 = 50;
/// Results in the plot, the latest.
const RESULTS: usize = 200;

#[derive(Serialize, ToSchema)]
pub struct ProfileUser {
    pub id: i64,
    /// The login name (ASCII); `None` for a guest.
    pub name: Option<String>,
    /// The name shown at tables and in the lobby.
    pub display_name: String,
    pub guest: bool,
}

/// A table the account sits at, open or in play.
#[derive(Clone, Serialize, ToSchema)]
pub struct ProfileTable {
    pub id: i64,
    pub game: String,
    /// `open` or `playing`.
    pub status: String,
    pub players: i64,
    /// The account's seat (0-based; the lowest when it holds several).
    pub seat: i64,
    pub private: bool,
    pub clock: Option<Clock>,
    /// On one's own profile: whether the table waits for one's move (one's own pending
    /// choice, never anyone else's). Absent on another person's profile.
    pub to_act: Option<bool>,
    /// On one's own profile, when it is one's move at a clocked table: the deadline
    /// (Unix ms).
    pub deadline_ms: Option<i64>,
    /// Unix seconds of the table's last change.
    pub updated_at: i64,
}

#[derive(Serialize, ToSchema)]
pub struct SeatStats {
    /// 0-based, as the table numbers it from 1.
    pub seat: i64,
    pub plays: i64,
    pub wins: i64,
}

#[derive(Serialize, ToSchema)]
pub struct TeamStats {
    /// An index into the game's `meta.teams`.
    pub team: i64,
    pub name_en: String,
    pub name_ja: String,
    pub plays: i64,
    pub wins: i64,
}

/// One game's numbers: every play (takuge matches and plays logged by hand), and per
/// seat and per team (role) over the takuge matches, whose seats and teams are known.
#[derive(Serialize, ToSchema)]
pub struct ProfileStats {
    pub game: PlayGame,
    pub plays: i64,
    pub wins: i64,
    pub last_played: String,
    pub by_seat: Vec<SeatStats>,
    /// Games with teams or roles only (Secret Moon: princess, minister, thief).
    pub by_team: Vec<TeamStats>,
}

/// One finished game in the plot.
#[derive(Serialize, ToSchema)]
pub struct ResultPoint {
    pub play_id: i64,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// The catalog's game.
    pub game_id: i64,
    pub won: bool,
    pub rank: Option<i64>,
    pub players: i64,
}

#[derive(Serialize, ToSchema)]
pub struct Profile {
    pub user: ProfileUser,
    /// Whether the caller is the owner.
    pub own: bool,
    /// Who may see it (the shelf's setting): `public`, `signed_in`, `private`.
    pub visibility: String,
    /// Tables open or in play where the account sits, newest first (another person's:
    /// public tables only).
    pub tables: Vec<ProfileTable>,
    /// One's own profile only: the tables in play waiting for one's move.
    pub waiting: Vec<ProfileTable>,
    /// Finished games (plays), newest first, at most 50.
    pub finished: Vec<Play>,
    /// Per game, most played first.
    pub stats: Vec<ProfileStats>,
    /// The latest 200 results, oldest first.
    pub results: Vec<ResultPoint>,
}

fn owner_of(user: &User) -> ProfileUser {
    ProfileUser {
        id: user.id,
        name: user.name.clone(),
        display_name: user.display_name.clone(),
        guest: user.guest,
    }
}

#[utoipa::path(get, path = "/api/profiles/me", tag = "accounts",
    summary = "one's own profile: tables, the ones waiting for one's move, finished games, numbers, results over time",
    security(("bearer" = []), ("cookie" = [])),
    responses((status = 200, description = "the caller's profile (a guest's has its tables, no plays)", body = Profile)))]
pub async fn my_profile(
    State(state): S,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    auth: Auth,
) -> Result<Json<Profile>, ApiError> {
    let user = owner_of(&auth.user);
    Ok(Json(build(&state, user, Some(client.ip())).await?))
}

#[utoipa::path(get, path = "/api/profiles/{id}", tag = "accounts",
    summary = "a registered account's profile, by login name or id, as its shelf's visibility allows",
    params(("id" = String, Path, description = "a login name (any spelling with its key) or an account id (all digits)")),
    security((), ("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "the profile", body = Profile),
        (status = 404, description = "`unknown_user` (also a profile not shown to the caller)", body = ErrorBody),
    ))]
pub async fn profile(
    State(state): S,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    MaybeAuth(auth): MaybeAuth,
    ApiPath(name): ApiPath<String>,
) -> Result<Json<Profile>, ApiError> {
    let Person { id, .. } = visible_owner(&state.db, &name, auth.as_ref()).await?;
    let user = crate::auth::user_by_id(&state.db, id)
        .await?
        .ok_or_else(|| unknown_user(&name))?;
    let own = auth.as_ref().is_some_and(|a| a.user.id == id);
    Ok(Json(
        build(&state, owner_of(&user), own.then_some(client.ip())).await?,
    ))
}

#[utoipa::path(put, path = "/api/me", tag = "accounts",
    summary = "set one's display name (shown at tables and in the lobby; Japanese welcome)",
    request_body = ProfileChange,
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "the user, renamed", body = User),
        (status = 400, description = "`invalid_display_name`: empty, over 32 characters, control or invisible characters, white space at an end", body = ErrorBody),
        (status = 403, description = "`guest`: register first", body = ErrorBody),
    ))]
pub async fn set_profile(
    State(state): S,
    auth: Auth,
    ApiJson(body): ApiJson<ProfileChange>,
) -> Result<Json<User>, ApiError> {
    registered(&auth)?;
    body.validate()?;
    let id = auth.user.id;
    state
        .hub
        .writer()
        .set_display_name(id, body.display_name.clone())
        .await?;
    // Cached sessions carry the old name.
    state.sessions.forget_user(id);
    let mut user = auth.user;
    user.display_name = body.display_name;
    Ok(Json(user))
}

/// `own`: on the caller's own profile, the address it asks from (a node passes it on
/// when it asks another node for a table's "your move"); `None` on someone else's.
async fn build(
    state: &AppState,
    user: ProfileUser,
    own: Option<IpAddr>,
) -> Result<Profile, ApiError> {
    let visibility = visibility_of(&state.db, user.id)
        .await?
        .as_str()
        .to_string();
    let tables = tables_of(state, user.id, own).await?;
    let waiting = tables
        .iter()
        .filter(|t| t.to_act == Some(true))
        .cloned()
        .collect();
    let (finished, stats, results) = if user.guest {
        (Vec::new(), Vec::new(), Vec::new())
    } else {
        let person = Person {
            id: user.id,
            name: user.name.clone().unwrap_or_default(),
        };
        let history = history_of(&state.db, person, None, FINISHED).await?;
        let (splits, results) = splits_of(state, user.id).await?;
        let stats = history
            .stats
            .into_iter()
            .map(|s| {
                let (by_seat, by_team) = splits.get(&s.game.id).map_or_else(
                    || (Vec::new(), Vec::new()),
                    |g| split_lists(state, s.game.slug.as_deref(), g),
                );
                ProfileStats {
                    game: s.game,
                    plays: s.plays,
                    wins: s.wins,
                    last_played: s.last_played,
                    by_seat,
                    by_team,
                }
            })
            .collect();
        (history.plays, stats, results)
    };
    Ok(Profile {
        user,
        own: own.is_some(),
        visibility,
        tables,
        waiting,
        finished,
        stats,
        results,
    })
}

/// The tables open or in play where `user` holds a seat of its own (not one a bot took
/// over), newest first; on one's own profile with whether it is one's move.
async fn tables_of(
    state: &AppState,
    user: i64,
    own: Option<IpAddr>,
) -> Result<Vec<ProfileTable>, ApiError> {
    let rows = state.db.seated_tables(user, own.is_some()).await?;
    // Asked of every table in play at once: some may be on other nodes.
    let turns = futures_util::future::join_all(rows.iter().map(|r| async move {
        let client = own?;
        Some(if r.status == "playing" {
            turn_of(state, r.id, (user, client)).await
        } else {
            Turn::default()
        })
    }))
    .await;
    let mut tables = Vec::with_capacity(rows.len());
    for (r, turn) in rows.into_iter().zip(turns) {
        let (id, status) = (r.id, r.status);
        tables.push(ProfileTable {
            id,
            game: r.game,
            status,
            players: r.players,
            seat: r.seat,
            private: r.private,
            clock: serde_json::from_str(&r.clock).ok(),
            to_act: turn.map(|t| t.to_act),
            deadline_ms: turn.and_then(|t| t.deadline_ms),
            updated_at: r.updated_at,
        });
    }
    Ok(tables)
}

/// Whether it is `user`'s move at table `id`, from the table itself: asked here, or of
/// the node that runs it (several nodes; the database holds no pending seats, and
/// working them out would replay the game). A table that cannot answer now (shutting
/// down, moving, its node unreachable) is simply not waiting.
async fn turn_of(state: &AppState, id: i64, (user, client): (i64, IpAddr)) -> Turn {
    match state.cluster.route(id).await {
        Ok(crate::cluster::Route::Here) => {
            let caller = crate::table::Caller {
                user_id: user,
                name: String::new(),
            };
            state
                .hub
                .ask(id, |reply| Cmd::Turn { caller, reply })
                .await
                .unwrap_or_default()
        }
        Ok(crate::cluster::Route::Node { url, .. }) => {
            let path = format!("/api/tables/{id}/turn");
            crate::cluster::forward::get_from_owner(state, &url, &path, (user, client))
                .await
                .unwrap_or_default()
        }
        Err(_) => Turn::default(),
    }
}

#[derive(Default)]
struct GameSplits {
    seats: BTreeMap<i64, (i64, i64)>,
    teams: BTreeMap<i64, (i64, i64)>,
}

/// Per catalog game, plays and wins by seat and by team over the takuge matches; and
/// the latest results, oldest first.
async fn splits_of(
    state: &AppState,
    user: i64,
) -> Result<(BTreeMap<i64, GameSplits>, Vec<ResultPoint>), ApiError> {
    let rows = state.db.play_results(user).await?;
    let mut games: BTreeMap<i64, GameSplits> = BTreeMap::new();
    let mut results: Vec<ResultPoint> = Vec::new();
    for r in rows {
        let id = r.play_id;
        // A play logged by hand may name its owner twice; the first counts.
        if results.last().is_some_and(|p| p.play_id == id) {
            continue;
        }
        let won = r.winner == Some(1);
        let game = r.game_id;
        results.push(ResultPoint {
            play_id: id,
            date: r.played_on,
            game_id: game,
            won,
            rank: r.rank,
            players: r.players,
        });
        let (Some(_), Some(seat)) = (r.table_id, r.position) else {
            continue;
        };
        let g = games.entry(game).or_default();
        let w = i64::from(won);
        let e = g.seats.entry(seat).or_default();
        *e = (e.0 + 1, e.1 + w);
        let team = r
            .outcome
            .and_then(|o| serde_json::from_str::<takuge_engine::Outcome>(&o).ok())
            .and_then(|o| {
                usize::try_from(seat)
                    .ok()
                    .and_then(|k| o.teams.get(k).copied().flatten())
            });
        if let Some(team) = team {
            let e = g.teams.entry(i64::from(team)).or_default();
            *e = (e.0 + 1, e.1 + w);
        }
    }
    let skip = results.len().saturating_sub(RESULTS);
    results.drain(..skip);
    Ok((games, results))
}

fn split_lists(
    state: &AppState,
    slug: Option<&str>,
    g: &GameSplits,
) -> (Vec<SeatStats>, Vec<TeamStats>) {
    let names = slug
        .and_then(|s| state.hub.registry().get(s))
        .map(|d| d.meta().teams)
        .unwrap_or(&[]);
    let seats = g
        .seats
        .iter()
        .map(|(seat, (plays, wins))| SeatStats {
            seat: *seat,
            plays: *plays,
            wins: *wins,
        })
        .collect();
    let teams = g
        .teams
        .iter()
        .map(|(team, (plays, wins))| {
            let name = usize::try_from(*team).ok().and_then(|k| names.get(k));
            TeamStats {
                team: *team,
                name_en: name.map_or_else(|| format!("team {}", team + 1), |n| n.en.to_string()),
                name_ja: name.map_or_else(|| format!("チーム{}", team + 1), |n| n.ja.to_string()),
                plays: *plays,
                wins: *wins,
            }
        })
        .collect();
    (seats, teams)
}

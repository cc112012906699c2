//! Finished and running tables as records and replays.

use crate::auth::Auth;
use crate::error::ApiError;
use crate::error::ErrorBody;
use crate::extract::{ApiPath, ApiQuery};
use crate::openapi::{MatchRecordSchema, ReplayStepSchema, ViewerSchema};
use crate::table::{Cmd, TableId};
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use serde_json::Value;
use takuge_engine::{MatchRecord, Seat, Viewer};
use takuge_protocol::ReplayQuery;
use utoipa::ToSchema;

use super::{caller, S};

#[utoipa::path(get, path = "/api/tables/{id}/record", tag = "tables",
    summary = "finished: the match record (takuge replay reads it)",
    params(("id" = i64, Path, description = "the table")),
    security(("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "the match record, as a download", body = MatchRecordSchema,
            headers(("content-disposition" = String, description = "attachment; filename=\"takuge-{id}.json\""))),
        (status = 404, description = "`unknown_table` (also a private table the caller may not see)", body = ErrorBody),
        (status = 409, description = "`not_finished`", body = ErrorBody),
    ))]
pub async fn record(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<TableId>,
) -> Result<Response, ApiError> {
    let c = caller(&auth.user);
    let record = state
        .hub
        .ask(id, |reply| Cmd::Record { caller: c, reply })
        .await?;
    Ok((
        [(
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"takuge-{id}.json\""),
        )],
        Json(record),
    )
        .into_response())
}

#[derive(Serialize, ToSchema)]
pub struct Replay {
    #[schema(value_type = MatchRecordSchema)]
    pub record: MatchRecord,
    #[schema(value_type = ViewerSchema)]
    pub viewer: Viewer,
    /// Version 0 (the setup) and then one step per action.
    #[schema(value_type = Vec<ReplayStepSchema>)]
    pub steps: Vec<Value>,
}

#[utoipa::path(get, path = "/api/tables/{id}/replay", tag = "tables",
    summary = "finished: views step by step for ?seat=K (or the spectator)",
    params(("id" = i64, Path, description = "the table"), ReplayQuery),
    security(("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "the record and every view of the viewer, step by step", body = Replay),
        (status = 400, description = "`no_such_seat`", body = ErrorBody),
        (status = 404, description = "`unknown_table` (also a private table the caller may not see)", body = ErrorBody),
        (status = 409, description = "`not_finished`, `rules_version` (a match of other rules than this server's)", body = ErrorBody),
    ))]
pub async fn replay(
    State(state): S,
    auth: Auth,
    ApiPath(id): ApiPath<TableId>,
    ApiQuery(q): ApiQuery<ReplayQuery>,
) -> Result<Json<Replay>, ApiError> {
    let c = caller(&auth.user);
    let record = state
        .hub
        .ask(id, |reply| Cmd::Record { caller: c, reply })
        .await?;
    let viewer = match q.seat {
        None => Viewer::Spectator,
        Some(k) if (k as usize) < record.players() => Viewer::Seat(Seat(k)),
        Some(k) => {
            return Err(ApiError::bad_request(
                "no_such_seat",
                format!("seat {k} is not at this table"),
            ))
        }
    };
    let game = state
        .hub
        .registry()
        .get(&record.game)
        .cloned()
        .ok_or_else(|| ApiError::internal("record of an unknown game"))?;
    let steps = crate::table::replay_steps(game.as_ref(), &record, viewer)?;
    Ok(Json(Replay {
        record,
        viewer,
        steps,
    }))
}

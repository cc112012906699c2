//! The HTTP API, one file per resource: accounts and sessions (`accounts`), the games
//! (`games`), tables and play (`tables`), records and replays (`replays`). Handlers are
//! thin: they check the request, ask the table actor or the store, and shape the
//! answer; SQL lives in `crate::store`.

mod accounts;
mod games;
mod replays;
mod tables;

pub use accounts::*;
pub use games::*;
pub use replays::*;
pub use tables::*;

use crate::auth::User;
use crate::error::ApiError;
use crate::error::ErrorBody;
pub use crate::extract::ApiJson;
use crate::table::Caller;
use crate::AppState;
use axum::extract::{Request, State};
use axum::response::Response;
use serde::Serialize;
use std::sync::Arc;
pub use takuge_protocol::{
    ActBody, BotsBody, CreateTable, Credentials, InviteQuery, LobbyQuery, ReplayQuery, SitBody,
};
use utoipa::ToSchema;

type S = State<Arc<AppState>>;

fn caller(user: &User) -> Caller {
    Caller {
        user_id: user.id,
        name: user.display_name.clone(),
    }
}

#[derive(Serialize, ToSchema)]
pub struct Done {
    pub ok: bool,
}

/// `/ws` as the route list and the document see it; the connection itself is
/// `ws::upgrade`'s.
#[utoipa::path(get, path = "/ws", tag = "server",
    summary = "the WebSocket of live play (docs/PROTOCOL.md)",
    description = "Upgrades to the WebSocket of live play, whose messages docs/PROTOCOL.md \
        describes. A cookie-authenticated upgrade must come with a same-host `Origin`.",
    params(("token" = Option<String>, Query,
        description = "the session token, for clients that can set neither a cookie nor a header")),
    security(("bearer" = []), ("cookie" = []), ("token" = [])),
    responses(
        (status = 101, description = "switching to the WebSocket protocol"),
        (status = 400, description = "`not_websocket`: not a WebSocket upgrade", body = ErrorBody),
        (status = 403, description = "`csrf`: a cookie-authenticated upgrade from another site", body = ErrorBody),
    ))]
pub async fn websocket(state: S, req: Request) -> Result<Response, ApiError> {
    let query = crate::extract::query(req.uri().query())?;
    crate::ws::upgrade(state, query, req).await
}

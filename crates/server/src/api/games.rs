//! The games the server offers.

use crate::openapi::GameMetaSchema;
use axum::extract::State;
use axum::Json;
use serde::Serialize;
use serde_json::Value;
use takuge_engine::GameMeta;
use utoipa::ToSchema;

use super::S;

#[derive(Serialize, ToSchema)]
pub struct Games {
    pub games: Vec<GameEntry>,
}

#[derive(Serialize, ToSchema)]
pub struct GameEntry {
    #[schema(value_type = GameMetaSchema)]
    pub meta: GameMeta,
    /// The options a table gets when it is created with none (the recommended setup).
    pub default_options: Value,
    /// Every distinct option set the game accepts, so a client can offer each option's
    /// values without knowing the game.
    pub option_sets: Vec<Value>,
    /// The bots' names; the first is the default.
    pub bots: Vec<&'static str>,
}

#[utoipa::path(get, path = "/api/games", tag = "games",
    summary = "the games, their default options and bots",
    responses((status = 200, description = "the catalog", body = Games)))]
pub async fn games(State(state): S) -> Json<Games> {
    let games = state
        .hub
        .registry()
        .games()
        .map(|g| GameEntry {
            meta: *g.meta(),
            default_options: g.default_options(),
            option_sets: g.option_sets(),
            bots: g.bot_names(),
        })
        .collect();
    Json(Games { games })
}

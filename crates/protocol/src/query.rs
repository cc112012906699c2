//! The query strings. Unknown parameters are ignored, not refused: a query string is
//! where proxies and browsers add their own (cache busters), and no parameter here
//! changes anything.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
pub struct LobbyQuery {
    /// Only tables of this game.
    pub game: Option<String>,
    /// Only tables for this many players.
    pub players: Option<i64>,
    /// `open` (the default: tables with seats to take) or `playing` (games in progress,
    /// to watch as a spectator).
    #[cfg_attr(feature = "openapi", param(inline))]
    pub status: Option<LobbyStatus>,
}

/// Which tables the lobby lists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum LobbyStatus {
    #[default]
    Open,
    Playing,
}

impl LobbyStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            LobbyStatus::Open => "open",
            LobbyStatus::Playing => "playing",
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
pub struct InviteQuery {
    /// The invite code of a private table.
    pub invite: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
pub struct ReplayQuery {
    /// The seat whose views to show; absent: the spectator's.
    pub seat: Option<u8>,
}

/// `/ws`'s query. No `Debug`: it carries a session token.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WsQuery {
    /// The session token, for clients that can set neither a cookie nor a header.
    pub token: Option<String>,
}

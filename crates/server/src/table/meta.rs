//! What a table is, as the database holds it and as clients read it: its status, its
//! seats, its settings, and who asks.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use takuge_engine::Outcome;

pub use takuge_protocol::{Clock, TableId};

use super::clock::ClockState;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Open,
    Playing,
    Finished,
    Abandoned,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Playing => "playing",
            Status::Finished => "finished",
            Status::Abandoned => "abandoned",
        }
    }
    pub(super) fn parse(s: &str) -> Status {
        match s {
            "open" => Status::Open,
            "playing" => Status::Playing,
            "finished" => Status::Finished,
            _ => Status::Abandoned,
        }
    }
    pub fn is_live(self) -> bool {
        matches!(self, Status::Open | Status::Playing)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct SeatInfo {
    pub seat: u8,
    pub user_id: Option<i64>,
    pub name: String,
    pub bot: Option<String>,
    /// A bot took over a player's seat (the player left or ran out of time).
    pub replaced: bool,
}

impl SeatInfo {
    pub(super) fn is_free(&self) -> bool {
        self.user_id.is_none() && self.bot.is_none()
    }
}

/// A table as the database holds it.
#[derive(Clone, Debug)]
pub struct TableMeta {
    pub id: TableId,
    pub game: String,
    pub options: Value,
    pub players: usize,
    pub host: i64,
    pub private: bool,
    pub invite_code: Option<String>,
    pub clock: Clock,
    pub seed: u64,
    pub status: Status,
    pub seats: Vec<SeatInfo>,
    pub outcome: Option<Outcome>,
    /// The clocks as last committed (`None`: not started, or no clock).
    pub clock_state: Option<ClockState>,
    /// The rules version (`DynGame::rules_version`) the table is played under; `None`:
    /// stored before the server kept versions (migration 0003), so not known.
    pub rules: Option<u32>,
    /// Why the server itself closed the table (`None` for a host's abandon).
    pub abandoned_reason: Option<AbandonedReason>,
}

/// The rules version a record carries when the table's is not known (stored before
/// versions were kept, and this build's rules do not replay it): no build plays
/// version 0, so every build refuses to replay it instead of replaying it wrongly.
pub const UNKNOWN_RULES: u32 = 0;

/// Why the server, not the host, abandoned a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbandonedReason {
    /// It was in play under rules this build does not play: replaying its log would
    /// show the players another match than the one they played.
    RulesVersion,
    /// Nobody started it within `Config::open_table_ttl` of its creation.
    Expired,
}

impl AbandonedReason {
    pub fn as_str(self) -> &'static str {
        match self {
            AbandonedReason::RulesVersion => "rules_version",
            AbandonedReason::Expired => "expired",
        }
    }
    pub(super) fn parse(s: &str) -> Option<AbandonedReason> {
        match s {
            "rules_version" => Some(AbandonedReason::RulesVersion),
            "expired" => Some(AbandonedReason::Expired),
            _ => None,
        }
    }
}

/// An [`AbandonedReason`] as clients read it: a stable code and words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Reason {
    pub code: &'static str,
    pub message: String,
}

/// What anyone allowed to see the table may read about it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct TableInfo {
    #[schema(value_type = i64)]
    pub id: TableId,
    pub game: String,
    pub options: Value,
    pub players: usize,
    pub host: i64,
    pub private: bool,
    /// Only for the host and seated players.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite_code: Option<String>,
    pub clock: Clock,
    pub status: Status,
    pub seats: Vec<SeatInfo>,
    pub version: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::openapi::OutcomeSchema>)]
    pub outcome: Option<Outcome>,
    /// The rules version the table is played under (`null`: not known, see
    /// [`TableMeta::rules`]).
    pub rules: Option<u32>,
    /// Only when the server closed the table itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub abandoned_reason: Option<Reason>,
}

/// Whether an account is to act at a table: one of its own seats (not a bot's, not one
/// a bot took over) is pending. Who is pending is public at the table; this says
/// nothing about what anyone chose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Turn {
    pub to_act: bool,
    /// Its move's deadline (Unix ms), on a clocked table.
    pub deadline_ms: Option<i64>,
}

/// Who asks: an account, or the server itself (bots, clocks).
#[derive(Clone, Debug)]
pub struct Caller {
    pub user_id: i64,
    pub name: String,
}

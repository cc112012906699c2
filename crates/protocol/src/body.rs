//! The HTTP request bodies. Each refuses fields it does not know.

use crate::clock::Clock;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// No `Debug`: it carries a password, which must not reach a log line.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// Registering: 3 to 32 letters, digits, `_`, `-` or `.`.
    pub name: String,
    /// Registering: 8 to 256 characters.
    pub password: String,
}

/// `POST /api/password`. No `Debug`: it carries passwords.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    pub old: String,
    /// 8 to 256 characters, not a common password, not containing the name.
    pub new: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct CreateTable {
    /// A game id from `/api/games`.
    pub game: String,
    /// The game's options; absent or null: the recommended setup.
    #[serde(default)]
    pub options: Value,
    pub players: usize,
    /// Private tables are reached only with their invite code.
    #[serde(default)]
    pub private: bool,
    #[serde(default)]
    pub clock: Clock,
    /// Take a seat right away (default true).
    #[serde(default)]
    pub sit: Option<bool>,
    /// A fixed seed; only when the server allows it (tests).
    #[serde(default)]
    pub seed: Option<u64>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SitBody {
    /// The seat to take; absent: the first free one.
    #[serde(default)]
    pub seat: Option<u8>,
    /// The invite code of a private table.
    #[serde(default)]
    pub invite: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct BotsBody {
    /// One of the game's bots (or levels: `easy`, `normal`, `strong`); absent: its
    /// default bot.
    #[serde(default)]
    pub bot: Option<String>,
    /// The one seat to give this bot (a free seat, or a bot seat changing level);
    /// absent: every free seat.
    #[serde(default)]
    pub seat: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ActBody {
    /// The seat to act for; absent: the caller's (first) seat.
    #[serde(default)]
    pub seat: Option<u8>,
    /// The table version the action was chosen at.
    pub version: u64,
    /// The `draft` of the table message the action was chosen from, if it had one (a
    /// secret choice of several steps keeps the version).
    #[serde(default)]
    pub draft: Option<u64>,
    /// One of the seat's legal actions, as the game's JSON.
    pub action: Value,
    /// The client's id for this action, 1 to 64 visible ASCII characters, unique per
    /// seat and table: sent again with the same action, it is answered with the
    /// original version and not played twice.
    #[serde(default)]
    pub id: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode_body;

    #[test]
    fn unknown_fields_are_refused_in_every_body() {
        assert!(decode_body::<Credentials>(br#"{"name": "a", "password": "b", "x": 1}"#).is_err());
        assert!(decode_body::<CreateTable>(br#"{"game": "g", "players": 2, "x": 1}"#).is_err());
        assert!(decode_body::<SitBody>(br#"{"x": 1}"#).is_err());
        assert!(decode_body::<BotsBody>(br#"{"x": 1}"#).is_err());
        assert!(decode_body::<ActBody>(br#"{"version": 0, "action": 1, "x": 1}"#).is_err());
    }

    #[test]
    fn a_clock_given_as_an_array_is_refused() {
        assert!(decode_body::<CreateTable>(
            br#"{"game": "g", "players": 2, "clock": ["real_time", 60, 600]}"#
        )
        .is_err());
    }
}

//! Client action ids (docs/PROTOCOL.md, "Action ids"): a client names each action it
//! sends, so that sending it again after a lost ack (a dropped connection, a timed-out
//! request) is answered with the original ack instead of being played a second time.
//! Simultaneous choices make this necessary: an action chosen at an older version is
//! still accepted while its seat stays pending, so the version alone cannot tell a
//! resend from the seat's next choice.

use crate::error::ApiError;
use serde_json::Value;
use std::collections::HashMap;
use takuge_engine::record::LoggedAction;
use takuge_engine::Seat;

/// The longest id accepted, in bytes: room for a UUID or a counter with a prefix,
/// and a bound on what a table keeps per action.
pub const MAX_LEN: usize = 64;

/// Per seat, the id of each of its committed actions and the version that action made.
#[derive(Clone, Debug, Default)]
pub struct ActionIds {
    made: HashMap<(Seat, String), u64>,
}

/// What an action's id says about it.
#[derive(Debug, PartialEq, Eq)]
pub enum Seen {
    /// No id, or one this seat has not used: play it.
    New,
    /// This seat already played this very action under this id: the version it made.
    Retry(u64),
}

impl ActionIds {
    pub fn insert(&mut self, seat: Seat, id: String, version: u64) {
        self.made.insert((seat, id), version);
    }

    /// Whether `action` under `id` by `seat` was already played. The same id with
    /// another action is refused: the client reused an id, and playing either one
    /// could be the wrong one.
    pub fn check(
        &self,
        seat: Seat,
        id: Option<&str>,
        action: &Value,
        log: &[LoggedAction<Value>],
    ) -> Result<Seen, ApiError> {
        let Some(id) = id else {
            return Ok(Seen::New);
        };
        validate(id)?;
        // The key is owned; a lookup by a borrowed pair would need a second map type.
        let Some(&version) = self.made.get(&(seat, id.to_string())) else {
            return Ok(Seen::New);
        };
        let played = version
            .checked_sub(1)
            .and_then(|i| log.get(usize::try_from(i).ok()?));
        match played {
            Some(a) if a.seat == seat && a.action == *action => Ok(Seen::Retry(version)),
            _ => Err(ApiError::conflict(
                "id_reused",
                format!(
                    "this seat already played another action under id {id:?} (it made version {version}); give each action its own id"
                ),
            )),
        }
    }
}

/// An id is 1 to [`MAX_LEN`] visible ASCII characters (no spaces or controls), so it
/// can be logged and compared as it is.
pub fn validate(id: &str) -> Result<(), ApiError> {
    let ok = !id.is_empty() && id.len() <= MAX_LEN && id.bytes().all(|b| b.is_ascii_graphic());
    if ok {
        Ok(())
    } else {
        Err(ApiError::bad_request(
            "invalid_action_id",
            format!("an action id is 1 to {MAX_LEN} visible ASCII characters"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn log() -> Vec<LoggedAction<Value>> {
        vec![
            LoggedAction {
                seat: Seat(0),
                action: json!({"a": 1}),
            },
            LoggedAction {
                seat: Seat(1),
                action: json!({"a": 2}),
            },
        ]
    }

    #[test]
    fn a_known_id_with_its_action_is_a_retry_and_with_another_is_refused() {
        let mut ids = ActionIds::default();
        ids.insert(Seat(1), "x".into(), 2);
        let log = log();
        let a2 = json!({"a": 2});
        assert_eq!(ids.check(Seat(1), Some("x"), &a2, &log), Ok(Seen::Retry(2)));
        let other = ids.check(Seat(1), Some("x"), &json!({"a": 3}), &log);
        assert_eq!(other.map_err(|e| e.code), Err("id_reused"));
        // Ids are per seat: another seat's "x" is its own.
        assert_eq!(ids.check(Seat(0), Some("x"), &a2, &log), Ok(Seen::New));
        assert_eq!(ids.check(Seat(1), None, &a2, &log), Ok(Seen::New));
    }

    #[test]
    fn ids_must_be_short_visible_ascii() {
        for bad in ["", " ", "a b", "é", &"x".repeat(MAX_LEN + 1)] {
            assert_eq!(validate(bad).map_err(|e| e.code), Err("invalid_action_id"));
        }
        assert!(validate(&"x".repeat(MAX_LEN)).is_ok());
        assert!(validate("7f1c2a9e-0b1d-4c55-9a0e-3f1b2c3d4e5f").is_ok());
    }
}

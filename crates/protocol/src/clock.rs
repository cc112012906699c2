//! A table's clock, as a client asks for it when creating the table.

use crate::Refusal;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

/// How long a seat may think.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Clock {
    /// No clock: the table waits for ever.
    #[default]
    None,
    /// Real time: each move may take `per_move_seconds`, plus what is left of the
    /// seat's `reserve_seconds`.
    RealTime {
        per_move_seconds: u32,
        reserve_seconds: u32,
    },
    /// Turn-based (correspondence): each move may take `hours_per_move`.
    TurnBased { hours_per_move: u32 },
}

/// [`Clock`] as it is read. Every variant has braces because serde lets a unit
/// variant of an internally tagged enum carry any fields beside its tag
/// (`{"kind": "none", "per_move_seconds": 5}` would be a clock without one).
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum ClockFields {
    None {},
    RealTime {
        per_move_seconds: u32,
        reserve_seconds: u32,
    },
    TurnBased {
        hours_per_move: u32,
    },
}

impl<'de> Deserialize<'de> for Clock {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // An object first: serde reads an internally tagged enum from an array too
        // (the tag first, then the fields in order), which the protocol does not allow.
        let object = Map::<String, Value>::deserialize(d)?;
        let fields = ClockFields::deserialize(Value::Object(object)).map_err(D::Error::custom)?;
        Ok(match fields {
            ClockFields::None {} => Clock::None,
            ClockFields::RealTime {
                per_move_seconds,
                reserve_seconds,
            } => Clock::RealTime {
                per_move_seconds,
                reserve_seconds,
            },
            ClockFields::TurnBased { hours_per_move } => Clock::TurnBased { hours_per_move },
        })
    }
}

impl Clock {
    /// Whether the server keeps such a clock: the limits docs/PROTOCOL.md states.
    pub fn validate(&self) -> Result<(), Refusal> {
        let ok = match *self {
            Clock::None => true,
            Clock::RealTime {
                per_move_seconds,
                reserve_seconds,
            } => (1..=3600).contains(&per_move_seconds) && reserve_seconds <= 24 * 3600,
            Clock::TurnBased { hours_per_move } => (1..=24 * 14).contains(&hours_per_move),
        };
        if ok {
            Ok(())
        } else {
            Err(Refusal::new(
                "invalid_clock",
                "real-time clocks allow 1 to 3600 seconds per move and a reserve up to 24 hours; turn-based clocks 1 to 336 hours per move",
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: Value) -> Result<Clock, serde_json::Error> {
        serde_json::from_str(&v.to_string())
    }

    #[test]
    fn unknown_fields_in_a_clock_are_refused() {
        for v in [
            json!({"kind": "none", "per_move_seconds": 5}),
            json!({"kind": "real_time", "per_move_seconds": 5, "reserve_seconds": 0, "x": 1}),
            json!({"kind": "turn_based", "hours_per_move": 5, "per_move_seconds": 1}),
        ] {
            assert!(read(v.clone()).is_err(), "{v}");
        }
    }

    #[test]
    fn every_clock_reads_back_what_it_writes() {
        for clock in [
            Clock::None,
            Clock::RealTime {
                per_move_seconds: 60,
                reserve_seconds: 600,
            },
            Clock::TurnBased { hours_per_move: 24 },
        ] {
            let text = serde_json::to_string(&clock).unwrap();
            assert_eq!(serde_json::from_str::<Clock>(&text).unwrap(), clock);
        }
        assert_eq!(
            serde_json::to_value(Clock::None).unwrap(),
            json!({"kind": "none"})
        );
    }

    #[test]
    fn a_clock_is_an_object() {
        assert!(read(json!(["none"])).is_err());
        assert!(read(json!(null)).is_err());
        assert!(read(json!({"kind": "sundial"})).is_err());
    }
}

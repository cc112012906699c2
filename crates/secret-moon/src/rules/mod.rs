//! What each action does, one file per part of play. `apply_legal` dispatches to
//! [`turn`]; nothing here checks whether an action may be played (that is legal.rs).

pub(crate) mod order;
pub(crate) mod round;
pub(crate) mod setup;
pub(crate) mod turn;

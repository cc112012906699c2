//! Bitoku (美徳), the heavy euro of seed 003, for 1–4 players, on takuge's own
//! component set: the rules text gives the round structure and the scoring, but no
//! card's or tile's contents are public, so every effect, cost and value is authored
//! by the project as data (`data/*.toml`) in a small effect language ([`Step`]) that
//! the rules interpret.
//!
//! Status: the component set, its effect language and the loader that checks it are
//! here; the `Game` impl (setup, the four seasons, the Awakening) follows the layout of
//! docs/CONTRIBUTING.md in the next steps. docs/games/bitoku.md holds the rules, every
//! decision with the Japanese it resolves, and the component set explained.

mod data;
mod types;

pub use data::{components, Components, DataError, BOARD_TOML, CARDS_TOML, TILES_TOML};
pub use types::*;

pub const ID: &str = "bitoku";

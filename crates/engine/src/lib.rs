//! takuge-engine: the shape every takuge game has.
//!
//! - [`Game`]: a validated state with legal actions, a transactional `apply`, per-seat
//!   views, an outcome, and `determinize` for search under hidden information.
//! - [`GameRng`]: the pinned, seeded source of all chance.
//! - [`record`]: match records and replay.
//! - [`bot`]: bots that only ever see what their seat may know.
//! - [`dynamic`]: the object-safe JSON adapter and the registry by game id.
//! - [`conformance`]: the suite every game must pass.

pub mod arena;
pub mod assign;
pub mod bits;
pub mod bot;
pub mod conformance;
pub mod dynamic;
pub mod game;
pub mod golden;
pub mod ismcts;
pub mod list;
pub mod outcome;
pub mod record;
pub mod rng;
pub mod seat;

pub use bits::Bits;
pub use bot::{Ask, Bot, BotFactory, Determinized, MonteCarloBot, RandomBot};
pub use dynamic::{DynBot, DynError, DynGame, DynSeen, DynState, Registry};
pub use game::{action_key, ActionError, Game, GameMeta, Lang, SetupError, TeamName};
pub use ismcts::IsmctsBot;
pub use list::FixedList;
pub use outcome::Outcome;
pub use record::{MatchRecord, Recorder, SeatRecord};
pub use rng::GameRng;
pub use seat::{Seat, SeatMap, SeatSet, Seated, Viewer, MAX_SEATS};

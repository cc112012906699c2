//! Ghost at Home (ゴーストアットホーム): each player explores a haunted house of three
//! floors, bottom to top, with room cards; the first to explore every room and escape
//! wins. Ghosts empty dark floors, cats chase ghosts away, lights make a floor hold out
//! against one ghost. The rules and every decision taken where the source is silent are
//! in `docs/games/ghost-at-home.md`.

pub mod bot;
pub mod cards;
mod log_ja;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests;

pub use bot::RulesBot;
pub use cards::{Card, Floor};
pub use state::{Action, Cards, GhostAtHome, Options, Reject, Then};
pub use view::{FloorView, HouseView, PhaseView, View};

use takuge_engine::{BotFactory, MonteCarloBot, RandomBot};

/// The bots of Ghost at Home; the first is the default for empty seats.
pub fn bots() -> Vec<(&'static str, BotFactory<GhostAtHome>)> {
    vec![
        ("rules", RulesBot::boxed),
        ("random", RandomBot::boxed),
        ("monte-carlo", MonteCarloBot::boxed),
    ]
}

//! The catalog of takuge games.
//!
//! Two ways in, one list: [`registry`] hosts every game behind the JSON adapter (the
//! server, replays), and [`visit`] calls generic code with each game's concrete type
//! (simulation and benchmarks, which must not pay for JSON).

use takuge_engine::{BotFactory, Game, Registry};

/// A game as the catalog knows it: its rules plus its bots.
pub trait CatalogGame: Game {
    /// Bots by name; the first is the default for empty seats.
    fn bots() -> Vec<(&'static str, BotFactory<Self>)>;
}

/// Generic code to run with one game's concrete type.
pub trait GameVisitor {
    type Output;
    fn visit<G: CatalogGame>(self) -> Self::Output;
}

/// Calls `visitor` with the game whose id is `id`; `None` for an unknown id.
pub fn visit<V: GameVisitor>(id: &str, visitor: V) -> Option<V::Output> {
    // One arm per game. Keep in step with `registry` and `GAME_IDS`.
    #[allow(clippy::match_single_binding)]
    match id {
        _ => {
            let _ = visitor;
            None
        }
    }
}

/// The ids of the games takuge hosts now, in catalog order.
pub const GAME_IDS: &[&str] = &[];

/// Every game behind the JSON adapter.
pub fn registry() -> Registry {
    let reg = Registry::new();
    #[allow(clippy::let_and_return)]
    reg
}

fn _assert_object_safe(_: &dyn takuge_engine::DynGame) {}

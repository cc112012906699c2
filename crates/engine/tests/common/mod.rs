//! Helpers shared by the engine's test games.
#![allow(dead_code)]

use takuge_engine::conformance::Config;
use takuge_engine::{Game, Seat};

/// A conformance configuration small enough for a tiny test game to finish in well
/// under a second per setup, yet deep enough to catch a leak.
pub fn quick_config(games: usize) -> Config {
    Config {
        games,
        deep_every: 2,
        determinizations: 3,
        ..Config::default()
    }
}

/// Plays `action` for `seat`, panicking with the game's own reason if it is refused.
pub fn play<G: Game>(state: &mut G, seat: Seat, action: G::Action) {
    if let Err(e) = state.apply(seat, &action) {
        panic!("{seat} could not play {action:?}: {e}");
    }
}

/// Asserts that `seat` may not play `action` and that refusing it changed nothing.
pub fn assert_refused<G: Game>(state: &G, seat: Seat, action: G::Action) {
    let mut probe = state.clone();
    assert!(
        probe.apply(seat, &action).is_err(),
        "{seat} was allowed {action:?}"
    );
    assert_eq!(&probe, state, "refusing {action:?} changed the state");
}

/// The legal actions of `seat`, as a fresh vector.
pub fn legal<G: Game>(state: &G, seat: Seat) -> Vec<G::Action> {
    let mut out = Vec::new();
    state.legal_actions(seat, &mut out);
    out
}

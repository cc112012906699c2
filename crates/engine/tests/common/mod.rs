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

/// Plays one game with a bot in every seat (each seeing only worlds determinized for
/// its seat, and told every move as its seat saw it); returns each seat's reward.
pub fn play_bots<G: Game>(
    options: &G::Options,
    bots: &mut [Box<dyn takuge_engine::Bot<G>>],
    seed: u64,
) -> Vec<f64> {
    let players = bots.len();
    let mut state = match G::new(options, players, seed) {
        Ok(s) => s,
        Err(e) => panic!("setup: {e}"),
    };
    let mut rng = takuge_engine::GameRng::from_seed(seed ^ 0xb075);
    let mut steps = 0;
    while let Some(seat) = state.to_move().first_seat() {
        let Some(action) =
            takuge_engine::bot::bot_move(bots[seat.index()].as_mut(), &state, seat, &mut rng)
        else {
            panic!("{seat} pending with no move from its bot");
        };
        let seen: Vec<_> = Seat::all(players)
            .map(|s| takuge_engine::ismcts::Seen::of(&state, s, seat, &action))
            .collect();
        play(&mut state, seat, action);
        for (bot, seen) in bots.iter_mut().zip(&seen) {
            bot.seen(seen);
        }
        steps += 1;
        assert!(steps < 100_000, "no end");
    }
    let Some(outcome) = state.outcome() else {
        panic!("over without an outcome");
    };
    Seat::all(players).map(|s| outcome.reward(s)).collect()
}

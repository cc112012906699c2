//! The engine's conformance suite over art-heist's one setup (5 players, no options),
//! with the game's near misses (`Probe`); and the fast copies of `fast.rs` against the
//! rules they copy: the sampler against the legal list, the game's own random playout
//! against the engine's checked loop (whole, cut off, resumed mid-turn and in redrawn
//! worlds).

use takuge_art_heist::{ArtHeist, Options, PLAYERS};
use takuge_engine::conformance::{assert_conforms, Config};
use takuge_engine::{Game, GameRng};

#[test]
fn art_heist_conforms() {
    let report = assert_conforms::<ArtHeist>(&Config::default());
    assert!(report.games >= 300);
    assert!(report.determinizations > 0 && report.refusals_checked > 0);
}

/// The fuzz target's check (`fuzz/fuzz_targets/game_art_heist.rs`) over a few hundred
/// random inputs: listed actions and near misses, `apply` accepting exactly the list,
/// playouts from every state reached.
#[test]
fn random_inputs_find_no_disagreement_between_the_copies() {
    let mut rng = GameRng::from_seed(14);
    for len in (0..300).map(|i| 10 + 4 * i) {
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u32() as u8).collect();
        if let Err(what) = takuge_engine::conformance::fuzz_actions::<ArtHeist>(&bytes) {
            panic!("{what}: {bytes:?}");
        }
    }
}

#[test]
fn sampled_actions_follow_the_legal_list() {
    // Random playouts draw without listing; the draw must be the legal list's k-th.
    let mut g = ArtHeist::new(&Options::default(), PLAYERS, 3).expect("setup");
    let mut rng = GameRng::from_seed(8);
    let mut legal = Vec::new();
    let mut steps = 0;
    while let Some(seat) = g.to_move().first_seat() {
        g.legal_actions(seat, &mut legal);
        let mut a = rng.clone();
        let mut b = rng.clone();
        let sampled = g.sample_action(seat, &mut a, &mut Vec::new());
        let listed = b.pick(&legal).copied();
        assert_eq!(sampled, listed);
        rng = a;
        let action = sampled.expect("pending seats have an action");
        g.apply(seat, &action).expect("legal");
        steps += 1;
    }
    assert!(steps > 50);
}

/// The game's own random playout plays the common steps without `apply`'s check: it
/// must play exactly the games of the engine's checked loop, whole or cut off.
#[test]
fn random_playout_plays_the_same_games_as_the_checked_loop() {
    let mut buf_a = Vec::new();
    let mut buf_b = Vec::new();
    for seed in 0..300 {
        for max_steps in [100_000, 37] {
            let mut fast = ArtHeist::new(&Options::default(), PLAYERS, seed).expect("setup");
            let mut checked = fast.clone();
            let mut rng_a = GameRng::from_seed(seed);
            let mut rng_b = GameRng::from_seed(seed);
            let a =
                takuge_engine::bot::random_playout(&mut fast, &mut rng_a, &mut buf_a, max_steps);
            let b = takuge_engine::bot::checked_random_playout(
                &mut checked,
                &mut rng_b,
                &mut buf_b,
                max_steps,
            );
            assert_eq!(a, b);
            assert_eq!(fast, checked);
            assert_eq!(rng_a.next_u64(), rng_b.next_u64());
            assert_eq!(fast.is_over(), max_steps == 100_000);
        }
    }
}

/// The Monte Carlo bot plays out from the middle of a turn, in worlds redrawn for the
/// seat to move (an exhibit half put together starts again from nothing): the game's own
/// playout must resume from any such state exactly as the checked loop does.
#[test]
fn random_playout_resumes_mid_turn_and_in_redrawn_worlds_like_the_checked_loop() {
    let mut buf = Vec::new();
    for seed in 0..200 {
        for cut in [1, 3, 6, 9, 14, 22, 41, 77, 150, 301] {
            let mut start = ArtHeist::new(&Options::default(), PLAYERS, seed).expect("setup");
            let mut rng = GameRng::from_seed(seed ^ 0x5eed);
            takuge_engine::bot::checked_random_playout(&mut start, &mut rng, &mut buf, cut);
            let mut worlds = vec![start.clone()];
            if let Some(seat) = start.to_move().first_seat() {
                worlds.push(start.determinize(seat, &mut rng));
            }
            for world in worlds {
                let mut fast = world.clone();
                let mut checked = world;
                let (mut rng_a, mut rng_b) = (rng.clone(), rng.clone());
                let a =
                    takuge_engine::bot::random_playout(&mut fast, &mut rng_a, &mut buf, 100_000);
                let b = takuge_engine::bot::checked_random_playout(
                    &mut checked,
                    &mut rng_b,
                    &mut buf,
                    100_000,
                );
                assert_eq!((a, &fast), (b, &checked), "seed {seed}, cut {cut}");
                assert_eq!(rng_a.next_u64(), rng_b.next_u64());
            }
        }
    }
}

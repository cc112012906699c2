//! The bots play whole games with legal actions, the rule bot beats random play, and
//! each strategy bot ends its games with more of its strategy's things than the others.

use std::sync::OnceLock;
use takuge_bitoku::{bots, Bitoku, Count, Options};
use takuge_engine::{Bot, Determinized, Game, GameRng, RandomBot, Seat};

/// Plays one game: `rule` in the seats of `rule_seats`, random elsewhere; the ranks.
fn play(
    players: usize,
    seed: u64,
    rule_seats: &[usize],
    make: fn() -> Box<dyn Bot<Bitoku>>,
) -> Vec<u8> {
    let mut g = match Bitoku::new(&Options::default(), players, seed) {
        Ok(g) => g,
        Err(e) => panic!("{e}"),
    };
    let mut bots: Vec<Box<dyn Bot<Bitoku>>> = (0..players)
        .map(|s| {
            if rule_seats.contains(&s) {
                make()
            } else {
                RandomBot::<Bitoku>::boxed()
            }
        })
        .collect();
    let mut rng = GameRng::from_seed(seed ^ 0x5eed);
    for _ in 0..5_000 {
        let Some(seat) = g.to_move().first_seat() else {
            break;
        };
        let world = Determinized::sample(&g, seat, &mut rng);
        let Some(a) = bots[seat.index()].choose(&world, &mut rng) else {
            panic!("no action for {seat:?}")
        };
        if let Err(e) = g.apply(Seat(seat.0), &a) {
            panic!("{a:?}: {e}");
        }
    }
    match g.outcome() {
        Some(o) => o.ranks,
        None => panic!("the game did not end"),
    }
}

#[test]
fn every_bot_plays_whole_games() {
    for (name, make) in bots() {
        for players in 1..=4 {
            let ranks = play(players, 3, &[0], make);
            assert_eq!(ranks.len(), players, "{name}");
        }
    }
}

#[test]
fn the_rule_bot_beats_random_players() {
    let rule = bots()[0].1;
    let mut wins = 0;
    let games = 20;
    for seed in 0..games {
        let seat = (seed % 2) as usize;
        if play(2, seed, &[seat], rule)[seat] == 1 {
            wins += 1;
        }
    }
    assert!(wins >= 14, "the rule bot won {wins} of {games}");
}

/// Alone there is nobody to beat: every finished solo game would be worth the same 1 to a
/// searching bot. Its reward is the score over the data's `solo_search_scale` (a higher
/// score, a higher reward); with rivals it is the share of them beaten, as in every game.
#[test]
fn a_searching_bot_alone_is_rewarded_by_its_score() {
    for (players, seed) in [(1, 4), (1, 5), (2, 4)] {
        let mut g = match Bitoku::new(&Options::default(), players, seed) {
            Ok(g) => g,
            Err(e) => panic!("{e}"),
        };
        let mut rng = GameRng::from_seed(seed);
        let mut bot = RandomBot::<Bitoku>::boxed();
        while let Some(seat) = g.to_move().first_seat() {
            let world = Determinized::sample(&g, seat, &mut rng);
            let Some(a) = bot.choose(&world, &mut rng) else {
                panic!("no action")
            };
            if let Err(e) = g.apply(seat, &a) {
                panic!("{a:?}: {e}");
            }
        }
        let Some(outcome) = g.outcome() else {
            panic!("the game did not end")
        };
        let reward = g.search_reward(&outcome, Seat(0));
        if players == 1 {
            let score = outcome.scores[0];
            assert!(score > 0, "{score}");
            assert!(
                (reward - score as f64 / 160.0).abs() < 1e-9,
                "{score}: {reward}"
            );
        } else {
            assert_eq!(reward, outcome.reward(Seat(0)));
        }
    }
}

/// The five strategy bots, in the balance tool's order.
const STRATEGIES: [&str; 5] = ["yokai", "builder", "crystals", "kodama", "visions"];

/// Seat-rotated 4-player games of the strategy bots: game `g` seats strategies
/// `(g + s + g / 5) % 5` as the balance tool does, so over 100 games each strategy
/// plays 80 seat-games, 20 in each seat.
const GAMES: u64 = 100;

/// What one seat ended a game with.
#[derive(Clone, Copy, Debug, Default)]
struct End {
    buildings: f64,
    crystals: f64,
    yokai_taken: f64,
    yokai_retired: f64,
    kodama_steps: f64,
    tracks_led: f64,
    visions_met: f64,
}

/// Per strategy, what its seats ended with, from the same fixed set of games (played
/// once for all the tests below).
fn ends() -> &'static [Vec<End>; 5] {
    static ENDS: OnceLock<[Vec<End>; 5]> = OnceLock::new();
    ENDS.get_or_init(|| {
        let catalog = bots();
        let make = |name: &str| match catalog.iter().find(|(n, _)| *n == name) {
            Some((_, make)) => make(),
            None => panic!("no bot {name}"),
        };
        let mut ends: [Vec<End>; 5] = Default::default();
        for g in 0..GAMES {
            let lineup: Vec<usize> = (0..4)
                .map(|s| (g as usize + s + g as usize / 5) % 5)
                .collect();
            let mut players: Vec<Box<dyn Bot<Bitoku>>> =
                lineup.iter().map(|&i| make(STRATEGIES[i])).collect();
            let mut state = match Bitoku::new(&Options::default(), 4, 1000 + g) {
                Ok(s) => s,
                Err(e) => panic!("{e}"),
            };
            let mut rng = GameRng::from_seed(g);
            while let Some(seat) = state.to_move().first_seat() {
                let world = Determinized::sample(&state, seat, &mut rng);
                let Some(a) = players[seat.index()].choose(&world, &mut rng) else {
                    panic!("no action for {seat:?}")
                };
                if let Err(e) = state.apply(seat, &a) {
                    panic!("{a:?}: {e}");
                }
            }
            for (s, &strategy) in lineup.iter().enumerate() {
                let seat = s as u8;
                let count = |what| f64::from(state.count(seat, what));
                let p = state.player(s);
                ends[strategy].push(End {
                    buildings: count(Count::BuildingsBuilt),
                    crystals: count(Count::Crystals),
                    // Yokai leave a player only by being retired: whatever it owns or
                    // retired beyond its five starting yokai it took during the game.
                    yokai_taken: count(Count::YokaiOwned) + count(Count::YokaiRetired) - 5.0,
                    yokai_retired: count(Count::YokaiRetired),
                    kodama_steps: p.kodama.iter().map(|&k| f64::from(k)).sum(),
                    tracks_led: f64::from(state.tracks_led(seat)),
                    visions_met: f64::from(state.visions_met(seat)),
                });
            }
        }
        ends
    })
}

/// The mean of one measure per strategy.
fn means(measure: fn(&End) -> f64) -> [f64; 5] {
    let mut out = [0.0; 5];
    for (m, seats) in out.iter_mut().zip(ends()) {
        *m = seats.iter().map(measure).sum::<f64>() / seats.len().max(1) as f64;
    }
    out
}

/// `strategy`'s mean of the measure is above every other strategy's, and at least
/// `least`.
fn leads(strategy: &str, what: &str, measure: fn(&End) -> f64, least: f64) {
    let m = means(measure);
    let Some(i) = STRATEGIES.iter().position(|s| *s == strategy) else {
        panic!("no strategy {strategy}")
    };
    let shown: Vec<String> = STRATEGIES
        .iter()
        .zip(m)
        .map(|(s, v)| format!("{s} {v:.2}"))
        .collect();
    assert!(m[i] >= least, "{what}: {}", shown.join(", "));
    for (j, other) in m.iter().enumerate() {
        if j != i {
            assert!(m[i] > *other, "{what}: {}", shown.join(", "));
        }
    }
}

#[test]
fn the_builder_ends_with_several_buildings_more_than_any_other_strategy() {
    leads("builder", "buildings", |e| e.buildings, 1.5);
}

#[test]
fn the_crystal_bot_ends_with_several_crystals_more_than_any_other_strategy() {
    leads("crystals", "crystals", |e| e.crystals, 1.5);
}

#[test]
fn the_yokai_bot_takes_yokai_from_the_hills_and_retires_more_than_any_other_strategy() {
    leads("yokai", "deck yokai taken", |e| e.yokai_taken, 3.0);
    leads("yokai", "yokai retired", |e| e.yokai_retired, 3.0);
}

#[test]
fn the_kodama_bot_moves_its_kodama_furthest_and_leads_the_most_tracks() {
    leads("kodama", "kodama steps", |e| e.kodama_steps, 13.0);
    leads("kodama", "tracks led", |e| e.tracks_led, 2.2);
}

#[test]
fn the_visions_bot_meets_more_visions_than_any_other_strategy() {
    leads("visions", "visions met", |e| e.visions_met, 0.5);
}

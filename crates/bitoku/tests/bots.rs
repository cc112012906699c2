//! The bots play whole games with legal actions, and the rule bot beats random play.

use takuge_bitoku::{bots, Bitoku, Options};
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

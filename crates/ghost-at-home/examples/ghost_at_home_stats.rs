//! Game-length and win statistics under random and rules-bot play (a development aid).
use takuge_engine::bot::bot_move;
use takuge_engine::{Bot, Game, GameRng, MonteCarloBot, RandomBot};
use takuge_ghost_at_home::{GhostAtHome, Options, RulesBot};

fn main() {
    if std::env::args().any(|a| a == "--mc") {
        // Rules bot against the Monte Carlo bot, 2 players, seats alternating.
        let mut rng = GameRng::from_seed(9);
        let games = 40;
        let mut rules_wins = 0;
        for seed in 0..games {
            let mut g = GhostAtHome::new(&Options::default(), 2, seed).unwrap();
            let rules_seat = (seed % 2) as usize;
            let mut bots: Vec<Box<dyn Bot<GhostAtHome>>> = (0..2)
                .map(|i| {
                    if i == rules_seat {
                        RulesBot::boxed()
                    } else {
                        MonteCarloBot::<GhostAtHome>::boxed()
                    }
                })
                .collect();
            while let Some(seat) = g.to_move().first_seat() {
                let a = bot_move(bots[seat.index()].as_mut(), &g, seat, &mut rng).unwrap();
                g.apply(seat, &a).unwrap();
            }
            if g.outcome().unwrap().ranks[rules_seat] == 1 {
                rules_wins += 1;
            }
        }
        println!("rules vs monte-carlo (2p): rules won {rules_wins}/{games}");
        return;
    }
    for special_cards in [false, true] {
        for players in 2..=4 {
            let options = Options { special_cards };
            let mut rng = GameRng::from_seed(1);
            let mut lens = Vec::new();
            let mut turns = 0u64;
            let t = std::time::Instant::now();
            for seed in 0..2000 {
                let mut g = GhostAtHome::new(&options, players, seed).unwrap();
                let mut buf = Vec::new();
                let steps =
                    takuge_engine::bot::random_playout(&mut g, &mut rng, &mut buf, 1_000_000);
                lens.push(steps);
                turns += u64::from(g.view(takuge_engine::Viewer::Spectator).turn);
            }
            let el = t.elapsed();
            let mean = lens.iter().sum::<usize>() as f64 / lens.len() as f64;
            lens.sort();
            println!(
                "random specials={special_cards} {players}p: mean {mean:.0} median {} p99 {} max {} steps, {:.0} turns; {:.0} games/s",
                lens[lens.len() / 2], lens[lens.len() * 99 / 100], lens[lens.len() - 1],
                turns as f64 / 2000.0,
                2000.0 / el.as_secs_f64()
            );
            // seat 0 rules bot vs random others
            let mut wins = 0;
            let mut turns = Vec::new();
            let games = 300;
            for seed in 0..games {
                let mut g = GhostAtHome::new(&options, players, seed).unwrap();
                let rules_seat = (seed as usize) % players;
                let mut bots: Vec<Box<dyn Bot<GhostAtHome>>> = (0..players)
                    .map(|i| {
                        if i == rules_seat {
                            RulesBot::boxed()
                        } else {
                            RandomBot::boxed()
                        }
                    })
                    .collect();
                let mut steps = 0;
                while let Some(seat) = g.to_move().first_seat() {
                    let a = bot_move(bots[seat.index()].as_mut(), &g, seat, &mut rng).unwrap();
                    g.apply(seat, &a).unwrap();
                    steps += 1;
                    if steps > 100_000 {
                        break;
                    }
                }
                if g.outcome().unwrap().ranks[rules_seat] == 1 {
                    wins += 1;
                }
                turns.push(steps);
            }
            turns.sort();
            println!(
                "  rules vs random: won {wins}/{games}; median steps {}",
                turns[turns.len() / 2]
            );
            // all rules bots
            let mut turns = Vec::new();
            for seed in 0..games {
                let mut g = GhostAtHome::new(&options, players, seed).unwrap();
                let mut bot = RulesBot::default();
                let mut steps = 0;
                while let Some(seat) = g.to_move().first_seat() {
                    let a = bot_move(&mut bot, &g, seat, &mut rng).unwrap();
                    g.apply(seat, &a).unwrap();
                    steps += 1;
                    if steps > 100_000 {
                        break;
                    }
                }
                turns.push(steps);
            }
            turns.sort();
            println!(
                "  all rules: median steps {} p99 {} max {}",
                turns[turns.len() / 2],
                turns[turns.len() * 99 / 100],
                turns[turns.len() - 1]
            );
        }
    }
}

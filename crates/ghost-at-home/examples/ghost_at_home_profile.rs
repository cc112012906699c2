//! Random games in a loop, for profiling (a development aid): `profile [players] [games]
//! [specials|plain] [checked]` (`checked`: the engine's generic loop, every action through
//! `apply`, to compare with the game's own playout). Under `valgrind --tool=callgrind`, (instructions of N games − those of 0
//! games) / N is the cost of one random game.
use takuge_engine::{Game, GameRng};
use takuge_ghost_at_home::{GhostAtHome, Options};

fn main() {
    let players: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(4);
    let games: u64 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    let special_cards = std::env::args().nth(3).is_some_and(|s| s == "specials");
    let checked = std::env::args().nth(4).is_some_and(|s| s == "checked");
    let options = Options { special_cards };
    let mut rng = GameRng::from_seed(1);
    let mut buf = Vec::with_capacity(64);
    let mut steps = 0usize;
    let t = std::time::Instant::now();
    for seed in 0..games {
        let mut g = GhostAtHome::new(&options, players, seed).unwrap();
        steps += if checked {
            takuge_engine::bot::checked_random_playout(&mut g, &mut rng, &mut buf, 1_000_000)
        } else {
            takuge_engine::bot::random_playout(&mut g, &mut rng, &mut buf, 1_000_000)
        };
    }
    let el = t.elapsed().as_secs_f64();
    let per_game = |n: f64| n / games.max(1) as f64;
    println!(
        "{players}p{}: {:.0} games/s, {:.0} actions/game, {:.1} ns/action",
        if special_cards { " specials" } else { "" },
        games as f64 / el,
        per_game(steps as f64),
        el * 1e9 / steps.max(1) as f64
    );
}

//! Random complete games, as the benchmark plays them: games per second, decisions and
//! (with `TURNS=1`) turns per game. Under callgrind, instructions per game are
//! total / GAMES.
//!
//! `GAMES=500 valgrind --tool=callgrind cargo run --release -p takuge-art-heist --example art_heist_speed`
//! (or run the built binary under valgrind). `CHECKED=1` plays the engine's generic loop
//! (every action through `apply`) instead of the game's own playout, for comparison.

use std::time::Instant;
use takuge_art_heist::{ArtHeist, Options};
use takuge_engine::bot::{checked_random_playout, random_playout};
use takuge_engine::{Game, GameRng, Viewer};

fn main() {
    let games: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let options = Options::default();
    // The benchmark's stream: game seeds and moves from one generator seeded with 1.
    let mut rng = GameRng::from_seed(1);
    let mut buf = Vec::with_capacity(64);
    let mut decisions = 0;
    let checked = std::env::var("CHECKED").is_ok();
    let t = Instant::now();
    for _ in 0..games {
        let seed = rng.next_u64();
        let Ok(mut g) = ArtHeist::new(&options, 5, seed) else {
            return;
        };
        decisions += if checked {
            checked_random_playout(&mut g, &mut rng, &mut buf, 100_000)
        } else {
            random_playout(&mut g, &mut rng, &mut buf, 100_000)
        };
    }
    let e = t.elapsed().as_secs_f64();
    println!(
        "{games} games: {:.0} games/s, {:.1} decisions/game, {:.1} ns/decision",
        games as f64 / e,
        decisions as f64 / games as f64,
        e * 1e9 / decisions as f64
    );
    if std::env::var("TURNS").is_ok() {
        // Turns per game, from the views (outside the timed loop).
        let mut rng = GameRng::from_seed(1);
        let mut turns = 0;
        for _ in 0..games {
            let seed = rng.next_u64();
            let Ok(mut g) = ArtHeist::new(&options, 5, seed) else {
                return;
            };
            random_playout(&mut g, &mut rng, &mut buf, 100_000);
            turns += u64::from(g.view(Viewer::Spectator).turn);
        }
        println!("{:.1} turns/game", turns as f64 / games as f64);
    }
}

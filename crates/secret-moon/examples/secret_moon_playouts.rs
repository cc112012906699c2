//! Plays N random 5-player games and prints the average number of actions: a fixed
//! workload for instruction-count profiling (`perf stat -e instructions`), which is
//! repeatable on a busy machine where wall-clock benchmarks are not.
//!
//! `cargo run --release -p takuge-secret-moon --example secret_moon_playouts -- 100000`

use takuge_engine::bot::random_game;
use takuge_engine::GameRng;
use takuge_secret_moon::{Options, SecretMoon};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let players: usize = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    let mut rng = GameRng::from_seed(1);
    let mut buf = Vec::new();
    let mut actions = 0;
    let start = std::time::Instant::now();
    for _ in 0..games {
        actions +=
            random_game::<SecretMoon>(&Options::default(), players, &mut rng, &mut buf, 1_000)
                .unwrap_or(0);
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {:.2} actions/game, {:.0} games/s",
        actions as f64 / games as f64,
        games as f64 / secs
    );
}

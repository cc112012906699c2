//! Random 4-player games in a loop, for profiling (a development aid).
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
    let mut rng = GameRng::from_seed(1);
    let mut buf = Vec::with_capacity(64);
    let mut steps = 0usize;
    let t = std::time::Instant::now();
    for seed in 0..games {
        let mut g = GhostAtHome::new(&Options::default(), players, seed).unwrap();
        steps += takuge_engine::bot::random_playout(&mut g, &mut rng, &mut buf, 1_000_000);
    }
    let el = t.elapsed().as_secs_f64();
    println!(
        "{players}p: {:.0} games/s, {:.0} steps/game, {:.1} ns/step",
        games as f64 / el,
        steps as f64 / games as f64,
        el * 1e9 / steps as f64
    );
}

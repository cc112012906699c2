use std::time::Instant;
use takuge_engine::bot::random_playout;
use takuge_engine::{Game, GameRng};
use takuge_ghost_for_sale::{GhostForSale, Options};
fn main() {
    let games: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let special = std::env::var("SPECIAL").is_ok();
    let options = Options {
        special_cards: special,
        first_player: None,
    };
    // CHECK=1: print a digest of every game's final state, to compare two builds.
    let check = std::env::var("CHECK").is_ok();
    let only: Option<usize> = std::env::var("PLAYERS").ok().and_then(|s| s.parse().ok());
    for players in [3, 4, 5] {
        if only.is_some_and(|o| o != players) {
            continue;
        }
        let mut rng = GameRng::from_seed(1);
        let mut buf = Vec::with_capacity(128);
        let t = Instant::now();
        let mut steps = 0;
        let mut digest = 0u64;
        for seed in 0..games {
            let mut g = GhostForSale::new(&options, players, seed).unwrap();
            steps += random_playout(&mut g, &mut rng, &mut buf, 100_000);
            if check {
                let o = g.outcome().unwrap();
                let line = format!("{:?}{:?}", o.scores, o.ranks);
                for b in line.bytes() {
                    digest = (digest ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
                }
                digest = digest.rotate_left(7) ^ rng.below(1 << 30) as u64;
            }
        }
        if check {
            println!("{players}p digest {digest:016x}");
        }
        let e = t.elapsed().as_secs_f64();
        println!(
            "{players}p: {:.0} games/s, {:.1} steps/game, {:.1} ns/step",
            games as f64 / e,
            steps as f64 / games as f64,
            e * 1e9 / steps as f64
        );
    }
}

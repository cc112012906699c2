use takuge_art_heist::ArtHeist;
use takuge_engine::{bot::random_playout, Game, GameRng};
fn main() {
    let mut rng = GameRng::from_seed(1);
    let mut buf = Vec::new();
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20000);
    let mut steps = 0;
    let t = std::time::Instant::now();
    for i in 0..n {
        let mut g = ArtHeist::new(&Default::default(), 5, i).unwrap();
        steps += random_playout(&mut g, &mut rng, &mut buf, 100_000);
    }
    println!(
        "avg steps {} wall/game {:?}",
        steps as u64 / n,
        t.elapsed() / n as u32
    );
}

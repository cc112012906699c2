use takuge_bitoku::{Bitoku, Options};
use takuge_engine::{Game, GameRng};

#[test]
fn random_games_end() {
    let mut rng = GameRng::from_seed(5);
    let mut buf = Vec::new();
    for players in 1..=4 {
        for seed in 0..20 {
            let mut g = Bitoku::new(&Options::default(), players, seed).unwrap();
            let steps = g.random_playout(&mut rng, &mut buf, 50_000);
            assert!(
                g.is_over(),
                "{players}p seed {seed}: {steps} steps, {:?}",
                g.phase()
            );
            let o = g.outcome().unwrap();
            if seed == 0 {
                eprintln!("{players}p: {steps} steps, scores {:?}", o.scores);
            }
        }
    }
}

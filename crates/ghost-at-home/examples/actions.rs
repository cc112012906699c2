//! Which actions random games are made of (a development aid).
use std::collections::BTreeMap;
use takuge_engine::{Game, GameRng};
use takuge_ghost_at_home::{GhostAtHome, Options};

fn main() {
    let mut rng = GameRng::from_seed(1);
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut buf = Vec::new();
    let games = 2000;
    let mut reshuffles = 0;
    for seed in 0..games {
        let mut g = GhostAtHome::new(&Options::default(), 4, seed).unwrap();
        while let Some(seat) = g.to_move().first_seat() {
            g.legal_actions(seat, &mut buf);
            let a = *rng.pick(&buf).unwrap();
            let name = format!("{a:?}");
            let name = name.split([' ', '{', '(']).next().unwrap().to_string();
            *counts.entry(name).or_default() += 1;
            g.apply(seat, &a).unwrap();
        }
        reshuffles += g.view(takuge_engine::Viewer::Spectator).reshuffles as usize;
    }
    for (k, v) in counts { println!("{k:>20} {:.1}", v as f64 / games as f64); }
    println!("reshuffles/game {:.2}", reshuffles as f64 / games as f64);
}

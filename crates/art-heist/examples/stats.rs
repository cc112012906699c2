use std::collections::BTreeMap;
use takuge_art_heist::{Action, ArtHeist};
use takuge_engine::{Game, GameRng, Viewer};
fn main() {
    let mut rng = GameRng::from_seed(1);
    let mut buf = Vec::new();
    let n = 2000u64;
    let mut kinds: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    let (mut steps, mut turns, mut capped) = (0u64, 0u64, 0);
    let t = std::time::Instant::now();
    for i in 0..n {
        let mut g = ArtHeist::new(&Default::default(), 5, i).unwrap();
        while let Some(seat) = g.to_move().first_seat() {
            g.legal_actions(seat, &mut buf);
            let a = *rng.pick(&buf).unwrap();
            let k = format!("{:?}", a).split('(').next().unwrap().to_string();
            let e = kinds.entry(k).or_default();
            e.0 += 1;
            e.1 += buf.len() as u64;
            g.apply(seat, &a).unwrap();
            steps += 1;
        }
        let v = g.view(Viewer::Spectator);
        turns += v.turn as u64;
        if v.turn >= v.max_turns {
            capped += 1;
        }
        let _ = Action::Show;
    }
    println!(
        "avg steps {} avg turns {} capped {} time/game {:?}",
        steps / n,
        turns / n,
        capped,
        t.elapsed() / n as u32
    );
    for (k, (c, l)) in kinds {
        println!("{k}: {} per game, avg legal {}", c / n, l / c);
    }
}

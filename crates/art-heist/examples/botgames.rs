use takuge_art_heist::{ArtHeist, CollectorBot};
use takuge_engine::{bot::bot_move, Game, GameRng, Viewer};
fn main() {
    let mut rng = GameRng::from_seed(7);
    let n = 300u64;
    let (mut turns, mut steps, mut capped) = (0u64, 0u64, 0);
    let mut wins = [0u32; 5];
    for i in 0..n {
        let mut g = ArtHeist::new(&Default::default(), 5, i).unwrap();
        let mut bots: Vec<_> = (0..5).map(|_| CollectorBot::boxed()).collect();
        while let Some(seat) = g.to_move().first_seat() {
            let a = bot_move(bots[seat.index()].as_mut(), &g, seat, &mut rng).unwrap();
            g.apply(seat, &a).unwrap();
            steps += 1;
        }
        let v = g.view(Viewer::Spectator);
        turns += v.turn as u64;
        if v.turn >= v.max_turns {
            capped += 1;
        }
        for w in g.outcome().unwrap().winners() {
            wins[v.players[w.index()].colour as usize] += 1;
        }
    }
    println!(
        "collector games: avg turns {} avg steps {} capped {} wins by colour {:?}",
        turns / n,
        steps / n,
        capped,
        wins
    );
}

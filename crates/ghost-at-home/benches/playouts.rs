//! Random complete games per second (2, 3 and 4 players, with and without the special
//! cards) and Monte Carlo bot iterations per second.
//!
//! cargo bench -p takuge-ghost-at-home -- --warm-up-time 1 --measurement-time 3

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use std::hint::black_box;
use takuge_engine::bot::random_playout;
use takuge_engine::ismcts::SearchBench;
use takuge_engine::{Bot, Determinized, Game, GameRng, MonteCarloBot};
use takuge_ghost_at_home::{Action, GhostAtHome, Options};

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("ghost-at-home/random-game");
    group.throughput(Throughput::Elements(1));
    for special_cards in [false, true] {
        for players in 2..=4 {
            let options = Options { special_cards };
            let name = format!("{players}p{}", if special_cards { "-specials" } else { "" });
            let mut seed = 0u64;
            let mut rng = GameRng::from_seed(7);
            let mut buf: Vec<Action> = Vec::with_capacity(64);
            group.bench_function(name, |b| {
                b.iter(|| {
                    seed += 1;
                    let Ok(mut game) = GhostAtHome::new(&options, players, seed) else {
                        return 0;
                    };
                    let steps = random_playout(&mut game, &mut rng, &mut buf, 100_000);
                    black_box(game.is_over());
                    steps
                })
            });
        }
    }
    group.finish();
}

fn monte_carlo(c: &mut Criterion) {
    let mut group = c.benchmark_group("ghost-at-home/monte-carlo");
    const ITERATIONS: usize = 100;
    group.throughput(Throughput::Elements(ITERATIONS as u64));
    for players in [2, 4] {
        // A position a few turns in, so the bot has real choices.
        let mut rng = GameRng::from_seed(11);
        let mut game = match GhostAtHome::new(&Options::default(), players, 3) {
            Ok(g) => g,
            Err(e) => panic!("setup: {e}"),
        };
        let mut buf = Vec::new();
        random_playout(&mut game, &mut rng, &mut buf, 12);
        // On to a decision with a real choice (the bot answers a forced move at once).
        let mut legal = Vec::new();
        while let Some(seat) = game.to_move().first_seat() {
            game.legal_actions(seat, &mut legal);
            if legal.len() >= 3 {
                break;
            }
            random_playout(&mut game, &mut rng, &mut buf, 1);
        }
        let Some(seat) = game.to_move().first_seat() else {
            continue;
        };
        let mut bot = MonteCarloBot::<GhostAtHome>::new(ITERATIONS);
        group.bench_function(format!("{players}p-iterations"), |b| {
            let mut sample_rng = GameRng::from_seed(12);
            b.iter_batched(
                || Determinized::sample(&game, seat, &mut sample_rng),
                |world| black_box(bot.choose(&world, &mut rng)),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

/// ISMCTS iterations per second (one tree, random rollouts), from a decision with a
/// real choice: the measure of search speed.
fn ismcts_iterations(c: &mut Criterion) {
    const ITERATIONS: u32 = 1_000;
    let mut group = c.benchmark_group("ghost-at-home/ismcts");
    group.throughput(Throughput::Elements(u64::from(ITERATIONS)));
    group.bench_function("4p-iterations", |b| {
        let mut bench = SearchBench::new(
            GhostAtHome::new(&Options::default(), 4, 3).expect("4 players is a valid setup"),
            ITERATIONS,
            5,
        );
        b.iter(|| black_box(bench.search()));
    });
    group.finish();
}

criterion_group!(benches, playouts, monte_carlo, ismcts_iterations);
criterion_main!(benches);

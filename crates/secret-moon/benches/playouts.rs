//! Random playouts and bot iterations per second.
//!
//! `cargo bench -p takuge-secret-moon`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use takuge_engine::bot::random_game;
use takuge_engine::ismcts::SearchBench;
use takuge_engine::{Bot, Determinized, Game, GameRng, MonteCarloBot, Seat};
use takuge_secret_moon::{Options, SecretMoon};

fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("secret-moon/random-game");
    group.throughput(Throughput::Elements(1));
    for players in 3..=8 {
        group.bench_with_input(
            BenchmarkId::from_parameter(players),
            &players,
            |b, &players| {
                let mut rng = GameRng::from_seed(1);
                let mut buf = Vec::with_capacity(64);
                let options = Options::default();
                b.iter(|| {
                    black_box(random_game::<SecretMoon>(
                        &options, players, &mut rng, &mut buf, 1_000,
                    ))
                });
            },
        );
    }
    group.finish();
}

fn monte_carlo_iterations(c: &mut Criterion) {
    let mut group = c.benchmark_group("secret-moon/monte-carlo-iterations");
    const ITERATIONS: usize = 100;
    group.throughput(Throughput::Elements(ITERATIONS as u64));
    group.bench_function("5p", |b| {
        let mut rng = GameRng::from_seed(2);
        let game = SecretMoon::new(&Options::default(), 5, 7).expect("5 players is a valid setup");
        let seat = game.to_move().first_seat().unwrap_or(Seat(0));
        let mut bot = MonteCarloBot::<SecretMoon>::new(ITERATIONS);
        b.iter(|| {
            let world = Determinized::sample(&game, seat, &mut rng);
            black_box(bot.choose(&world, &mut rng))
        });
    });
    group.finish();
}

/// ISMCTS iterations per second (one tree, random rollouts), from a decision with a
/// real choice: the measure of search speed.
fn ismcts_iterations(c: &mut Criterion) {
    const ITERATIONS: u32 = 1_000;
    let mut group = c.benchmark_group("secret-moon/ismcts-iterations");
    group.throughput(Throughput::Elements(u64::from(ITERATIONS)));
    group.bench_function("5p", |b| {
        let mut bench = SearchBench::new(
            SecretMoon::new(&Options::default(), 5, 7).expect("5 players is a valid setup"),
            ITERATIONS,
            5,
        );
        b.iter(|| black_box(bench.search()));
    });
    group.finish();
}

criterion_group!(
    benches,
    random_games,
    monte_carlo_iterations,
    ismcts_iterations
);
criterion_main!(benches);

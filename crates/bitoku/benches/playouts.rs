//! Random complete games per second.
//!
//! `cargo bench -p takuge-bitoku`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use takuge_bitoku::{Bitoku, Options};
use takuge_engine::bot::random_game;
use takuge_engine::GameRng;

fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("bitoku/random-game");
    group.throughput(Throughput::Elements(1));
    for players in 1..=4 {
        group.bench_with_input(
            BenchmarkId::from_parameter(players),
            &players,
            |b, &players| {
                let mut rng = GameRng::from_seed(1);
                let mut buf = Vec::with_capacity(64);
                let options = Options::default();
                b.iter(|| {
                    black_box(random_game::<Bitoku>(
                        &options, players, &mut rng, &mut buf, 20_000,
                    ))
                });
            },
        );
    }
    group.finish();
}

criterion_group!(benches, random_games);
criterion_main!(benches);

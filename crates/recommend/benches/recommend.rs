//! One person's recommendations, and a model build, on synthetic shelves
//! (`takuge_recommend::synth`). Run outside CI:
//! `cargo bench -p takuge-recommend -- --warm-up-time 1`; the size comes from
//! `TAKUGE_BENCH_USERS` / `TAKUGE_BENCH_GAMES` (default 20,000 × 5,000) and
//! `TAKUGE_BENCH_MEDIAN_ENTRIES` (games a person knows at the median; default 33).

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use takuge_recommend::synth::{synthesize_known, Spec};
use takuge_recommend::{Interaction, Model, Params, Request};

fn size(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn shelves() -> Vec<Interaction> {
    let spec = Spec {
        users: size("TAKUGE_BENCH_USERS", 20_000),
        games: size("TAKUGE_BENCH_GAMES", 5_000),
        seed: 1,
    };
    synthesize_known(spec, size("TAKUGE_BENCH_MEDIAN_ENTRIES", 33))
        .into_iter()
        .map(|r| Interaction {
            user: r.user,
            game: r.game,
            rating: Some(r.rating),
            played: true,
            ..Default::default()
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let data = shelves();
    let users = data.iter().map(|i| i.user).max().unwrap_or(0);
    eprintln!(
        "{} entries, {} people, {:.1} entries per person",
        data.len(),
        users,
        data.len() as f64 / users.max(1) as f64
    );
    let model = Model::build(&data, &[], Params::default());
    // The person with the most entries: the slowest answer.
    let mut counts = std::collections::HashMap::new();
    for i in &data {
        *counts.entry(i.user).or_insert(0usize) += 1;
    }
    let heavy = counts
        .iter()
        .max_by_key(|(u, n)| (**n, -**u))
        .map_or(1, |(u, _)| *u);
    let mine: Vec<Interaction> = data.iter().filter(|i| i.user == heavy).cloned().collect();
    eprintln!("the heaviest person has {} entries", mine.len());
    c.bench_function("recommend/one person (heaviest), 20 results", |b| {
        b.iter(|| {
            black_box(model.recommend(&Request {
                entries: black_box(&mine),
                limit: 20,
                ..Default::default()
            }))
        })
    });
    let mut g = c.benchmark_group("build");
    g.sample_size(10);
    g.bench_function("model build", |b| {
        b.iter(|| black_box(Model::build(black_box(&data), &[], Params::default())))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

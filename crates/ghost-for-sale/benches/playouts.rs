//! Random complete games per second (3, 4, 5 players; basic and advanced), Monte
//! Carlo bot iterations per second, and the rule bot's (the appraiser's) decisions
//! per second.
//!
//! cargo bench -p takuge-ghost-for-sale -- --warm-up-time 1 --measurement-time 3

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use takuge_engine::bot::random_playout;
use takuge_engine::ismcts::SearchBench;
use takuge_engine::{Bot, Determinized, Game, GameRng, MonteCarloBot, Seat};
use takuge_ghost_for_sale::{Appraiser, GhostForSale, Options};

fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_game");
    group.throughput(Throughput::Elements(1));
    for (variant, options) in [
        ("basic", Options::default()),
        (
            "special",
            Options {
                special_cards: true,
                first_player: None,
            },
        ),
    ] {
        for players in 3..=5 {
            group.bench_function(format!("{variant}/{players}p"), |b| {
                let mut rng = GameRng::from_seed(1);
                let mut buf = Vec::with_capacity(128);
                let mut seed = 0u64;
                b.iter(|| {
                    seed += 1;
                    let Ok(mut game) = GhostForSale::new(&options, players, seed) else {
                        return 0;
                    };
                    let steps = random_playout(&mut game, &mut rng, &mut buf, 100_000);
                    debug_assert!(game.is_over());
                    black_box(steps)
                })
            });
        }
    }
    group.finish();
}

/// A state in the middle of round 1's property auction, reached by random play.
fn mid_game(players: usize) -> GhostForSale {
    let mut rng = GameRng::from_seed(7);
    let mut buf = Vec::new();
    for seed in 0.. {
        let Ok(mut game) = GhostForSale::new(&Options::default(), players, seed) else {
            continue;
        };
        while let Some(seat) = game.to_move().first_seat() {
            let view = game.view(takuge_engine::Viewer::Spectator);
            if view.step == takuge_ghost_for_sale::Step::PropertyAuction {
                game.legal_actions(seat, &mut buf);
                if buf.len() >= 6 {
                    return game;
                }
            }
            game.legal_actions(seat, &mut buf);
            let Some(a) = rng.pick(&buf).copied() else {
                break;
            };
            if game.apply(seat, &a).is_err() {
                break;
            }
        }
    }
    unreachable!()
}

fn monte_carlo(c: &mut Criterion) {
    const ITERATIONS: usize = 200;
    let mut group = c.benchmark_group("monte_carlo_iterations");
    group.throughput(Throughput::Elements(ITERATIONS as u64));
    for players in [3, 5] {
        let game = mid_game(players);
        let seat: Seat = game.to_move().first_seat().unwrap_or(Seat(0));
        group.bench_function(format!("{players}p"), |b| {
            let mut bot = MonteCarloBot::<GhostForSale>::new(ITERATIONS);
            let mut rng = GameRng::from_seed(3);
            b.iter(|| {
                let world = Determinized::sample(&game, seat, &mut rng);
                black_box(bot.choose(&world, &mut rng))
            })
        });
    }
    group.finish();
}

/// ISMCTS iterations per second (one tree, random rollouts), from a decision with a
/// real choice: the measure of search speed.
fn ismcts_iterations(c: &mut Criterion) {
    const ITERATIONS: u32 = 1_000;
    let mut group = c.benchmark_group("ismcts_iterations");
    group.throughput(Throughput::Elements(u64::from(ITERATIONS)));
    group.bench_function("5p", |b| {
        let mut bench = SearchBench::new(mid_game(5), ITERATIONS, 5);
        b.iter(|| black_box(bench.search()));
    });
    group.finish();
}

/// Every decision of a few seeded 5-player games the appraiser plays against itself,
/// each with the world it was given: the bench times `choose` alone.
fn appraiser_positions() -> Vec<Determinized<GhostForSale>> {
    let mut positions = Vec::new();
    let mut rng = GameRng::from_seed(11);
    for seed in 0..4 {
        let Ok(mut game) = GhostForSale::new(&Options::default(), 5, seed) else {
            continue;
        };
        let mut bot = Appraiser::boxed();
        while let Some(seat) = game.to_move().first_seat() {
            let world = Determinized::sample(&game, seat, &mut rng);
            let Some(action) = bot.choose(&world, &mut rng) else {
                break;
            };
            positions.push(world);
            if game.apply(seat, &action).is_err() {
                break;
            }
        }
    }
    positions
}

/// The rule bot's decisions per second, over every decision of whole games (the
/// cheap ones with a single legal move included, as a table meets them).
fn appraiser_decisions(c: &mut Criterion) {
    let positions = appraiser_positions();
    let mut group = c.benchmark_group("appraiser_decisions");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("5p", |b| {
        let mut bot = Appraiser::boxed();
        let mut rng = GameRng::from_seed(5);
        b.iter(|| {
            for world in &positions {
                black_box(bot.choose(world, &mut rng));
            }
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    random_games,
    monte_carlo,
    ismcts_iterations,
    appraiser_decisions
);
criterion_main!(benches);

//! Synthetic ratings that behave like a board-game site's, for measuring without real
//! data (`takuge recommend synth`).
//!
//! - **taste clusters**: every game belongs to one of `clusters` kinds (about one per
//!   40 games, at least 3); every person has a home kind (affinity 1), a second one
//!   they like less (0.6) and a little interest in the rest (0.15);
//! - **popularity skew**: games have a Zipf popularity (exponent 1: the 10th game is
//!   known to a tenth as many people as the first), independent of their kind;
//! - **what people know**: each person knows 8 to a few hundred games (log-normal,
//!   median about 33), drawn without replacement with probability ∝ popularity ×
//!   affinity — popular games in one's taste first;
//! - **rating most of what they know**: each known game is rated with probability 0.85;
//! - **ratings follow affinity**: `4 + 4.5·affinity + quality + leniency + noise`
//!   (the game's quality ~ N(0, 0.7), the person's leniency ~ N(0, 0.6), noise ~ N(0, 1)),
//!   rounded and kept within 1–10. A home-kind game averages about 8.5, a foreign one 4.7.

use crate::eval::Rating;
use crate::rng::Rng;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    pub users: usize,
    pub games: usize,
    pub seed: u64,
}

/// The ratings, people in id order (ids from 1), each person's games in the order drawn.
pub fn synthesize(spec: Spec) -> Vec<Rating> {
    generate(spec, 3.2)
}

/// The same with people knowing `median` games at the median (at least 9; the spread
/// is the same log-normal), for measuring at other shelf sizes (the benchmark).
pub fn synthesize_known(spec: Spec, median: usize) -> Vec<Rating> {
    generate(spec, (median.max(9) as f64 - 8.0).ln())
}

/// `location`: the log-normal's location (the log of the median, less the 8 everyone
/// knows).
fn generate(spec: Spec, location: f64) -> Vec<Rating> {
    let games = spec.games.max(1);
    let clusters = (games / 40).max(3);
    let mut rng = Rng::new(spec.seed);
    let kind: Vec<usize> = (0..games).map(|_| rng.below(clusters)).collect();
    let quality: Vec<f64> = (0..games).map(|_| 0.7 * rng.normal()).collect();
    let mut rank: Vec<usize> = (0..games).collect();
    rng.shuffle(&mut rank);
    let popularity: Vec<f64> = rank.iter().map(|r| 1.0 / (*r as f64 + 1.0)).collect();
    let mut out = Vec::new();
    for u in 0..spec.users {
        let mut r = Rng::stream(spec.seed, u as u64 + 1);
        let home = r.below(clusters);
        let second = (home + 1 + r.below(clusters - 1)) % clusters;
        let affinity = |k: usize| {
            if k == home {
                1.0
            } else if k == second {
                0.6
            } else {
                0.15
            }
        };
        let leniency = 0.6 * r.normal();
        let known = ((location + 0.9 * r.normal()).exp().round() as usize + 8).min(games / 2);
        // Weighted sampling without replacement (Efraimidis–Spirakis keys: ln(u)/w).
        let mut keys: Vec<(f64, usize)> = (0..games)
            .map(|g| {
                let w = popularity[g] * affinity(kind[g]);
                ((1.0 - r.unit()).ln() / w, g)
            })
            .collect();
        let take = known.min(keys.len());
        if take == 0 {
            continue;
        }
        keys.select_nth_unstable_by(take - 1, |a, b| b.0.total_cmp(&a.0));
        keys.truncate(take);
        keys.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        for (_, g) in keys {
            if r.unit() >= 0.85 {
                continue;
            }
            let raw = 4.0 + 4.5 * affinity(kind[g]) + quality[g] + leniency + r.normal();
            out.push(Rating {
                user: u as i64 + 1,
                game: g as i64 + 1,
                rating: raw.round().clamp(1.0, 10.0) as f32,
            });
        }
    }
    out
}

/// `user_id,game_id,rating` with a header, as `takuge recommend eval` reads it.
pub fn to_csv(ratings: &[Rating]) -> String {
    let mut s = String::with_capacity(ratings.len() * 16 + 32);
    s.push_str("user_id,game_id,rating\n");
    for r in ratings {
        s.push_str(&format!("{},{},{}\n", r.user, r.game, r.rating));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_makes_the_same_file() {
        let spec = Spec {
            users: 50,
            games: 100,
            seed: 7,
        };
        let a = synthesize(spec);
        assert_eq!(a, synthesize(spec));
        assert_ne!(a, synthesize(Spec { seed: 8, ..spec }));
        assert!(a.iter().all(|r| (1.0..=10.0).contains(&r.rating)));
        let back = crate::eval::parse_ratings(&to_csv(&a)).expect("reads back");
        assert_eq!(back, a);
    }
}

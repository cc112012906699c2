//! Tournaments between bots: seat-rotated games on all cores, win rates with 95%
//! confidence intervals, and Elo ratings from a Bradley–Terry fit of every pair of
//! seats in every game. The CLI's `takuge arena` prints and plots what this returns.

use crate::bot::{bot_move, Bot};
use crate::game::Game;
use crate::ismcts::Seen;
use crate::rng::GameRng;
use crate::seat::Seat;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A bot entry: its name in the tables and how to make one.
pub struct Entrant<'a, G: Game> {
    pub name: String,
    pub make: &'a (dyn Fn() -> Box<dyn Bot<G>> + Sync),
}

/// One finished game: which entrant sat where, and each seat's result.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    pub seed: u64,
    /// Entrant index per seat.
    pub lineup: Vec<usize>,
    /// [`crate::Outcome::reward`] per seat: 1 a sole win, shared by ties, 0 a loss.
    pub rewards: Vec<f64>,
    pub ranks: Vec<u8>,
    pub teams: Vec<Option<u8>>,
    /// The game's final score per seat ([`crate::Outcome::scores`]).
    pub scores: Vec<i64>,
    pub actions: usize,
}

/// An entrant's record.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub name: String,
    pub games: usize,
    /// Mean reward: the win rate, ties counted as shares.
    pub win_rate: f64,
    /// 95% confidence interval of the win rate (normal approximation, clamped to 0..1).
    pub interval: (f64, f64),
    /// Bradley–Terry strength as Elo, the entrants' mean at 1500.
    pub elo: f64,
    /// Win rate per team (roles) the entrant played, for games with teams.
    pub by_team: Vec<(u8, usize, f64)>,
    /// The entrant's final scores: what a solo game (one seat, nobody to beat) is
    /// measured by.
    pub scores: ScoreSummary,
}

/// Final scores: the mean and the 10th, 50th and 90th percentiles (nearest rank).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScoreSummary {
    pub mean: f64,
    pub p10: i64,
    pub p50: i64,
    pub p90: i64,
}

impl ScoreSummary {
    pub fn of(scores: &[i64]) -> ScoreSummary {
        if scores.is_empty() {
            return ScoreSummary::default();
        }
        let mut sorted = scores.to_vec();
        sorted.sort_unstable();
        let at = |q: f64| {
            let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
            sorted.get(rank - 1).copied().unwrap_or(0)
        };
        ScoreSummary {
            mean: sorted.iter().sum::<i64>() as f64 / sorted.len() as f64,
            p10: at(0.1),
            p50: at(0.5),
            p90: at(0.9),
        }
    }
}

/// Plays `games` games of `players` seats. Game `g` seats the entrants in the order
/// `g, g+1, …` (mod the entrants), then rotates, so every entrant plays every seat
/// equally often when `games` is a multiple of the table size. Runs on all cores;
/// the results depend only on `seed` (each game's seed is drawn from it by index).
pub fn play<G: Game>(
    options: &G::Options,
    players: usize,
    entrants: &[Entrant<'_, G>],
    games: usize,
    seed: u64,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<GameResult>, String> {
    if entrants.is_empty() {
        return Err("no bots to play".into());
    }
    G::validate(options, players).map_err(|e| e.to_string())?;
    let done = AtomicUsize::new(0);
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut results: Vec<Option<Result<GameResult, String>>> = vec![None; games];
    let slots: Vec<std::sync::Mutex<Option<Result<GameResult, String>>>> =
        (0..games).map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(games.max(1)) {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= games {
                    break;
                }
                let result = play_one(options, players, entrants, g, seed);
                if let Some(slot) = slots.get(g) {
                    if let Ok(mut s) = slot.lock() {
                        *s = Some(result);
                    }
                }
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            });
        }
    });
    for (slot, out) in slots.into_iter().zip(results.iter_mut()) {
        *out = slot.into_inner().ok().flatten();
    }
    results
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err("a game was not played".into())))
        .collect()
}

fn play_one<G: Game>(
    options: &G::Options,
    players: usize,
    entrants: &[Entrant<'_, G>],
    g: usize,
    seed: u64,
) -> Result<GameResult, String> {
    let game_seed =
        GameRng::from_seed(seed ^ (g as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)).next_u64();
    let k = entrants.len();
    // Rotate through the entrants, then shift by the round so seats rotate too.
    let shift = g / k.max(1);
    let lineup: Vec<usize> = (0..players).map(|s| (g + s + shift) % k).collect();
    let mut bots: Vec<Box<dyn Bot<G>>> = lineup
        .iter()
        .map(|&i| entrants.get(i).map(|e| (e.make)()))
        .collect::<Option<_>>()
        .ok_or("no such entrant")?;
    let mut state = G::new(options, players, game_seed).map_err(|e| e.to_string())?;
    let mut rng = GameRng::from_seed(game_seed ^ 0xa7e4a);
    let mut actions = 0;
    while let Some(seat) = state.to_move().first_seat() {
        let bot = bots.get_mut(seat.index()).ok_or("a seat without a bot")?;
        let action = bot_move(bot.as_mut(), &state, seat, &mut rng)
            .ok_or_else(|| format!("{} gave no move for {seat}", bot.name()))?;
        // Each bot learns the move as its seat sees it (searching bots keep their trees).
        let seen: Vec<Seen<G::Action>> = Seat::all(players)
            .map(|s| Seen::of(&state, s, seat, &action))
            .collect();
        state.apply(seat, &action).map_err(|e| {
            let name = bots.get(seat.index()).map_or("a bot", |b| b.name());
            format!("{name} played an illegal move: {e}")
        })?;
        for (bot, seen) in bots.iter_mut().zip(&seen) {
            bot.seen(seen);
        }
        actions += 1;
        if actions > 1_000_000 {
            return Err("a game did not end".into());
        }
    }
    let outcome = state.outcome().ok_or("a game ended without an outcome")?;
    Ok(GameResult {
        seed: game_seed,
        rewards: Seat::all(players).map(|s| outcome.reward(s)).collect(),
        ranks: outcome.ranks.clone(),
        teams: outcome.teams.clone(),
        scores: outcome.scores.clone(),
        lineup,
        actions,
    })
}

/// The standings of `entrants` (by name) over `results`.
pub fn standings(names: &[String], results: &[GameResult]) -> Vec<Standing> {
    let elo = bradley_terry_elo(names.len(), results);
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let rewards: Vec<f64> = results
                .iter()
                .flat_map(|r| {
                    r.lineup
                        .iter()
                        .zip(&r.rewards)
                        .filter(move |(e, _)| **e == i)
                        .map(|(_, x)| *x)
                })
                .collect();
            let (mean, interval) = mean_interval(&rewards);
            let mut teams: Vec<u8> = results
                .iter()
                .flat_map(|r| {
                    r.lineup
                        .iter()
                        .zip(&r.teams)
                        .filter(move |(e, _)| **e == i)
                        .filter_map(|(_, t)| *t)
                })
                .collect();
            teams.sort_unstable();
            teams.dedup();
            let by_team = teams
                .into_iter()
                .map(|team| {
                    let xs: Vec<f64> = results
                        .iter()
                        .flat_map(|r| {
                            r.lineup
                                .iter()
                                .zip(&r.teams)
                                .zip(&r.rewards)
                                .filter(move |((e, t), _)| **e == i && **t == Some(team))
                                .map(|(_, x)| *x)
                        })
                        .collect();
                    (team, xs.len(), mean_interval(&xs).0)
                })
                .collect();
            let scores: Vec<i64> = results
                .iter()
                .flat_map(|r| {
                    r.lineup
                        .iter()
                        .zip(&r.scores)
                        .filter(move |(e, _)| **e == i)
                        .map(|(_, x)| *x)
                })
                .collect();
            Standing {
                name: name.clone(),
                scores: ScoreSummary::of(&scores),
                games: rewards.len(),
                win_rate: mean,
                interval,
                elo: elo.get(i).copied().unwrap_or(1500.0),
                by_team,
            }
        })
        .collect()
}

/// The mean and its 95% confidence interval (1.96 standard errors), within 0..1.
pub fn mean_interval(xs: &[f64]) -> (f64, (f64, f64)) {
    if xs.is_empty() {
        return (0.0, (0.0, 1.0));
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 {
        xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)
    } else {
        0.25
    };
    let half = 1.96 * (var / n).sqrt();
    (mean, ((mean - half).max(0.0), (mean + half).min(1.0)))
}

/// Elo ratings from a Bradley–Terry model fitted (Hunter's MM algorithm) to every pair
/// of seats of every game: the better-ranked seat wins the pair, equal ranks draw (half
/// a win each); pairs of one entrant with itself are skipped. A small prior (one draw
/// against a virtual average player) keeps ratings finite when someone never loses.
pub fn bradley_terry_elo(entrants: usize, results: &[GameResult]) -> Vec<f64> {
    let mut wins = vec![vec![0.0f64; entrants]; entrants];
    for r in results {
        for (a, (&ea, &ra)) in r.lineup.iter().zip(&r.ranks).enumerate() {
            for (&eb, &rb) in r.lineup.iter().zip(&r.ranks).skip(a + 1) {
                if ea == eb || ea >= entrants || eb >= entrants {
                    continue;
                }
                let (wa, wb) = match ra.cmp(&rb) {
                    std::cmp::Ordering::Less => (1.0, 0.0),
                    std::cmp::Ordering::Greater => (0.0, 1.0),
                    std::cmp::Ordering::Equal => (0.5, 0.5),
                };
                wins[ea][eb] += wa;
                wins[eb][ea] += wb;
            }
        }
    }
    let mut p = vec![1.0f64; entrants];
    for _ in 0..500 {
        let mut next = p.clone();
        for i in 0..entrants {
            // Prior: half a win and half a loss against a player of strength 1.
            let w: f64 = wins[i].iter().sum::<f64>() + 0.5;
            let mut denom = 1.0 / (p[i] + 1.0);
            for j in 0..entrants {
                let n = wins[i][j] + wins[j][i];
                if i != j && n > 0.0 {
                    denom += n / (p[i] + p[j]);
                }
            }
            next[i] = w / denom;
        }
        let diff: f64 = p.iter().zip(&next).map(|(a, b)| (a - b).abs()).sum();
        p = next;
        if diff < 1e-12 {
            break;
        }
    }
    let logs: Vec<f64> = p.iter().map(|x| 400.0 * x.max(1e-12).log10()).collect();
    let mean = logs.iter().sum::<f64>() / logs.len().max(1) as f64;
    logs.iter().map(|l| 1500.0 + l - mean).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(lineup: Vec<usize>, ranks: Vec<u8>) -> GameResult {
        GameResult {
            seed: 0,
            rewards: ranks
                .iter()
                .map(|r| if *r == 1 { 1.0 } else { 0.0 })
                .collect(),
            teams: vec![None; lineup.len()],
            scores: ranks.iter().map(|r| 10 - i64::from(*r)).collect(),
            lineup,
            ranks,
            actions: 0,
        }
    }

    #[test]
    fn a_player_who_wins_three_pairs_in_four_is_about_190_elo_ahead() {
        // Bradley–Terry: p(A beats B) = 0.75 ⇔ 400·log10(3) ≈ 190.8 Elo apart.
        let mut results = Vec::new();
        for _ in 0..300 {
            results.push(result(vec![0, 1], vec![1, 2]));
        }
        for _ in 0..100 {
            results.push(result(vec![0, 1], vec![2, 1]));
        }
        let elo = bradley_terry_elo(2, &results);
        let gap = elo[0] - elo[1];
        assert!((gap - 190.8).abs() < 5.0, "{elo:?}");
        assert!(((elo[0] + elo[1]) / 2.0 - 1500.0).abs() < 1e-6);
    }

    #[test]
    fn a_solo_entrant_is_summed_up_by_its_scores_percentiles() {
        // Ten games alone, scores 10, 20, …, 100: nearest-rank percentiles.
        let results: Vec<GameResult> = (1..=10)
            .map(|k| GameResult {
                scores: vec![10 * k],
                ..result(vec![0], vec![1])
            })
            .collect();
        let table = standings(&["solo".into()], &results);
        let s = table.first().map(|t| t.scores).unwrap_or_default();
        assert_eq!((s.p10, s.p50, s.p90), (10, 50, 90));
        assert!((s.mean - 55.0).abs() < 1e-9);
    }

    #[test]
    fn the_interval_of_a_fair_coin_over_400_games_is_about_five_points_wide() {
        let xs: Vec<f64> = (0..400).map(|i| f64::from(i % 2)).collect();
        let (mean, (lo, hi)) = mean_interval(&xs);
        assert!((mean - 0.5).abs() < 1e-9);
        assert!((hi - lo - 0.098).abs() < 0.002, "{lo} {hi}");
    }
}

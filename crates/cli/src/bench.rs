//! `takuge bench`: random playouts on one core for a while; games and actions per second.

use crate::args::BenchArgs;
use crate::error::CliError;
use crate::setup::{options_json, series_seed, typed_options, validate_typed};
use crate::simulate::MAX_ACTIONS;
use serde_json::Value;
use std::fmt::Write as _;
use std::time::{Duration, Instant};
use takuge_engine::bot::random_playout;
use takuge_engine::{Game, GameRng};
use takuge_games::{CatalogGame, GameVisitor};

#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// `None`: the game's smallest table.
    pub players: Option<usize>,
    pub duration: Duration,
    pub options: Value,
    pub seed: u64,
}

impl BenchConfig {
    pub fn from_args(args: &BenchArgs) -> Result<Self, CliError> {
        if !(args.seconds.is_finite() && args.seconds > 0.0 && args.seconds <= 86_400.0) {
            return Err(CliError(format!(
                "--seconds must be more than 0 and at most a day, not {}",
                args.seconds
            )));
        }
        Ok(BenchConfig {
            players: args.players,
            duration: Duration::from_secs_f64(args.seconds),
            options: options_json(args.options.as_deref())?,
            seed: args.seed,
        })
    }
}

/// What was measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measured {
    pub players: usize,
    pub games: u64,
    pub actions: u64,
    pub elapsed: Duration,
}

pub struct BenchVisitor<'a>(pub &'a BenchConfig);

impl GameVisitor for BenchVisitor<'_> {
    type Output = Result<String, CliError>;

    fn visit<G: CatalogGame>(self) -> Self::Output {
        let m = bench::<G>(self.0)?;
        let secs = m.elapsed.as_secs_f64().max(1e-9);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} ({}), {} players: {} random playouts in {:.2} s on one core",
            G::meta().name_en,
            G::meta().name_ja,
            m.players,
            m.games,
            secs
        );
        let _ = writeln!(out, "{:.1} games/s", m.games as f64 / secs);
        let _ = writeln!(out, "{:.1} actions/s", m.actions as f64 / secs);
        Ok(out)
    }
}

/// Plays random games of `G` (setup included) until the time is up.
pub fn bench<G: Game>(config: &BenchConfig) -> Result<Measured, CliError> {
    let options: G::Options = typed_options::<G>(&config.options)?;
    let players = config.players.unwrap_or(G::meta().min_players);
    validate_typed::<G>(&options, players)?;
    let mut buf: Vec<G::Action> = Vec::new();
    let mut measured = Measured {
        players,
        ..Measured::default()
    };
    let started = Instant::now();
    while started.elapsed() < config.duration {
        let seed = series_seed(config.seed, measured.games);
        let mut state = G::new(&options, players, seed)
            .map_err(|e| CliError(format!("seed {seed} cannot be set up: {e}")))?;
        let mut rng = GameRng::from_seed(seed ^ 0x5EED_B075);
        measured.actions += random_playout(&mut state, &mut rng, &mut buf, MAX_ACTIONS) as u64;
        measured.games += 1;
    }
    measured.elapsed = started.elapsed();
    Ok(measured)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testgame::HighCard;

    #[test]
    fn bench_plays_until_the_time_is_up() {
        let config = BenchConfig {
            players: None,
            duration: Duration::from_millis(50),
            options: Value::Null,
            seed: 1,
        };
        let m = bench::<HighCard>(&config).unwrap();
        assert_eq!(m.players, 2);
        assert!(m.games > 0);
        assert_eq!(m.actions, m.games * 4);
        assert!(m.elapsed >= Duration::from_millis(50));
    }
}

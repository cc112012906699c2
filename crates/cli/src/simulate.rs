//! `takuge simulate`: bot-vs-bot games on every core, through the typed game (no JSON
//! in the loop), with outcome statistics.

use crate::args::SimulateArgs;
use crate::error::CliError;
use crate::render::{table, team_name};
use crate::setup::{fresh_seed, options_json, series_seed, typed_options, validate_typed};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::Value;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use takuge_engine::bot::{bot_move, random_playout};
use takuge_engine::{Bot, Game, GameMeta, GameRng, Outcome, Seat};
use takuge_games::{CatalogGame, GameVisitor};

/// A game that runs longer than this is counted as unfinished (a bug in its rules).
pub const MAX_ACTIONS: usize = 100_000;

/// The fast default: a uniformly random legal action, chosen without determinizing.
pub const RANDOM: &str = "random";

#[derive(Clone, Debug)]
pub struct SimConfig {
    pub players: usize,
    pub games: u64,
    /// `None`: uniform random actions without determinize; otherwise a catalog bot.
    pub bot: Option<String>,
    pub threads: usize,
    pub seed: u64,
    pub options: Value,
    /// Draw a progress bar on stderr.
    pub progress: bool,
}

impl SimConfig {
    pub fn from_args(args: &SimulateArgs) -> Result<Self, CliError> {
        let threads = match args.threads {
            Some(0) => return Err(CliError("--threads must be at least 1".into())),
            Some(t) => t,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        if args.games == 0 {
            return Err(CliError("--games must be at least 1".into()));
        }
        Ok(SimConfig {
            players: args.players,
            games: args.games,
            bot: args.bot.clone(),
            threads,
            seed: args.seed.unwrap_or_else(fresh_seed),
            options: options_json(args.options.as_deref())?,
            progress: std::io::stderr().is_terminal(),
        })
    }
}

/// What a series of games came to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub games: u64,
    /// Games cut off at [`MAX_ACTIONS`] or stuck without an outcome.
    pub unfinished: u64,
    pub actions: u64,
    /// Per seat: games in which it had rank 1 (ties count for each tied seat).
    pub seat_wins: Vec<u64>,
    pub seat_scores: Vec<i64>,
    /// Per team: games it won: the outcome's `winning_team` if it names one, else every
    /// team with a seat of rank 1.
    pub team_wins: Vec<u64>,
    /// Games whose outcome had teams at all (a game's teams may be an option).
    pub team_games: u64,
}

impl Tally {
    fn new(players: usize, teams: usize) -> Self {
        Tally {
            seat_wins: vec![0; players],
            seat_scores: vec![0; players],
            team_wins: vec![0; teams],
            ..Tally::default()
        }
    }

    pub fn add(&mut self, outcome: &Outcome, actions: usize) {
        self.games += 1;
        self.actions += actions as u64;
        let mut won = 0u64;
        for (i, &rank) in outcome.ranks.iter().enumerate() {
            if let Some(wins) = self.seat_wins.get_mut(i) {
                *wins += u64::from(rank == 1);
            }
            if let (true, Some(Some(team))) = (rank == 1, outcome.teams.get(i)) {
                won |= 1 << (team % 64);
            }
        }
        // The game's own word, when it gives one, decides: the winning team may have
        // no seat at the table, and seats of the losing team may share rank 1.
        if let Some(team) = outcome.winning_team {
            won = 1 << (team % 64);
        }
        if outcome.winning_team.is_some() || outcome.teams.iter().any(Option::is_some) {
            self.team_games += 1;
        }
        for team in (0..64).filter(|t| won & (1 << t) != 0) {
            if self.team_wins.len() <= team {
                self.team_wins.resize(team + 1, 0);
            }
            self.team_wins[team] += 1;
        }
        for (total, score) in self.seat_scores.iter_mut().zip(&outcome.scores) {
            *total += score;
        }
    }

    pub fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        self.unfinished += other.unfinished;
        self.team_games += other.team_games;
        self.actions += other.actions;
        for (a, b) in self.seat_wins.iter_mut().zip(&other.seat_wins) {
            *a += b;
        }
        for (a, b) in self.seat_scores.iter_mut().zip(&other.seat_scores) {
            *a += b;
        }
        if self.team_wins.len() < other.team_wins.len() {
            self.team_wins.resize(other.team_wins.len(), 0);
        }
        for (a, b) in self.team_wins.iter_mut().zip(&other.team_wins) {
            *a += b;
        }
    }
}

/// Plays the series for one game type: the visitor `takuge_games::visit` calls.
pub struct SimVisitor<'a>(pub &'a SimConfig);

impl GameVisitor for SimVisitor<'_> {
    type Output = Result<String, CliError>;

    fn visit<G: CatalogGame>(self) -> Self::Output {
        let config = self.0;
        let started = Instant::now();
        let tally = simulate::<G>(config)?;
        Ok(report::<G>(config, &tally, started.elapsed()))
    }
}

/// How each seat chooses.
enum Chooser<G: Game> {
    Random,
    Bots(Vec<Box<dyn Bot<G>>>),
}

/// Plays `config.games` games of `G` on `config.threads` threads.
pub fn simulate<G: CatalogGame>(config: &SimConfig) -> Result<Tally, CliError> {
    let options: G::Options = typed_options::<G>(&config.options)?;
    validate_typed::<G>(&options, config.players)?;
    // `random` is always the fast path: a uniformly random legal action has the same
    // distribution with or without determinizing (legal actions depend only on what
    // the seat knows), so a game's own random bot would only be slower.
    let factory = match config.bot.as_deref() {
        None | Some(RANDOM) => None,
        Some(name) => match G::bots().into_iter().find(|(n, _)| *n == name) {
            Some((_, factory)) => Some(factory),
            None => {
                let mut names = vec![RANDOM];
                names.extend(G::bots().iter().map(|(n, _)| *n).filter(|n| *n != RANDOM));
                return Err(CliError(format!(
                    "{} has no bot called {name:?}; its bots: {}",
                    G::meta().id,
                    names.join(", ")
                )));
            }
        },
    };
    let bar = config.progress.then(|| {
        let bar = ProgressBar::new(config.games);
        if let Ok(style) = ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} games ({per_sec}, eta {eta})",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar
    });
    let next = AtomicU64::new(0);
    let teams = G::meta().teams.len();
    let results: Vec<Result<Tally, CliError>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..config.threads.max(1))
            .map(|_| {
                let (next, bar, options) = (&next, bar.as_ref(), &options);
                scope.spawn(move || {
                    let chooser = match factory {
                        None => Chooser::Random,
                        Some(make) => {
                            Chooser::Bots(Seat::all(config.players).map(|_| make()).collect())
                        }
                    };
                    let result = worker::<G>(config, options, chooser, teams, next, bar);
                    if result.is_err() {
                        // Make the other workers stop taking games.
                        next.store(u64::MAX / 2, Ordering::Relaxed);
                    }
                    result
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err(CliError("a simulation thread panicked".into())))
            })
            .collect()
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let mut total = Tally::new(config.players, teams);
    for result in results {
        total.merge(&result?);
    }
    Ok(total)
}

/// Takes games from the shared counter until the series is done.
fn worker<G: CatalogGame>(
    config: &SimConfig,
    options: &G::Options,
    mut chooser: Chooser<G>,
    teams: usize,
    next: &AtomicU64,
    bar: Option<&ProgressBar>,
) -> Result<Tally, CliError> {
    let mut tally = Tally::new(config.players, teams);
    let mut buf: Vec<G::Action> = Vec::new();
    let mut unreported = 0;
    loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= config.games {
            break;
        }
        let seed = series_seed(config.seed, index);
        let mut state = G::new(options, config.players, seed)
            .map_err(|e| CliError(format!("game {index} (seed {seed}) cannot be set up: {e}")))?;
        let mut rng = GameRng::from_seed(seed ^ 0x5EED_B075);
        let actions = match &mut chooser {
            Chooser::Random => random_playout(&mut state, &mut rng, &mut buf, MAX_ACTIONS),
            Chooser::Bots(bots) => play_bots(&mut state, bots, &mut rng, index, seed)?,
        };
        match state.outcome() {
            Some(outcome) => tally.add(&outcome, actions),
            None => {
                tally.unfinished += 1;
                tally.actions += actions as u64;
            }
        }
        unreported += 1;
        if let Some(bar) = bar {
            if unreported >= 16 {
                bar.inc(unreported);
                unreported = 0;
            }
        }
    }
    if let Some(bar) = bar {
        bar.inc(unreported);
    }
    Ok(tally)
}

/// One game with a bot per seat, each seeing only a determinized world.
fn play_bots<G: Game>(
    state: &mut G,
    bots: &mut [Box<dyn Bot<G>>],
    rng: &mut GameRng,
    index: u64,
    seed: u64,
) -> Result<usize, CliError> {
    let mut actions = 0;
    while actions < MAX_ACTIONS {
        let Some(seat) = state.to_move().first_seat() else {
            break;
        };
        let Some(bot) = bots.get_mut(seat.index()) else {
            return Err(CliError(format!(
                "game {index}: {seat} is beyond the table"
            )));
        };
        let Some(action) = bot_move(bot.as_mut(), state, seat, rng) else {
            return Err(CliError(format!(
                "game {index} (seed {seed}): the bot {} had no action for {seat}",
                bot.name()
            )));
        };
        state.apply(seat, &action).map_err(|e| {
            CliError(format!(
                "game {index} (seed {seed}): the bot {} chose {action:?} for {seat}, refused: {e}",
                bot.name()
            ))
        })?;
        actions += 1;
    }
    Ok(actions)
}

fn per_second(count: u64, elapsed: Duration) -> f64 {
    count as f64 / elapsed.as_secs_f64().max(1e-9)
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "—".into()
    } else {
        format!("{:.1}%", 100.0 * part as f64 / whole as f64)
    }
}

/// The printed summary.
pub fn report<G: Game>(config: &SimConfig, tally: &Tally, elapsed: Duration) -> String {
    let meta: &GameMeta = G::meta();
    let mut out = String::new();
    let played = tally.games + tally.unfinished;
    let _ = writeln!(
        out,
        "{} ({}): {} games of {} players, bot {}, {} threads, seed {}",
        meta.name_en,
        meta.name_ja,
        played,
        config.players,
        config.bot.as_deref().unwrap_or(RANDOM),
        config.threads,
        config.seed
    );
    let _ = writeln!(out, "{:.1} games/s", per_second(played, elapsed));
    let _ = writeln!(out, "{:.1} actions/s", per_second(tally.actions, elapsed));
    let _ = writeln!(
        out,
        "average actions per game: {:.1}",
        tally.actions as f64 / played.max(1) as f64
    );
    if tally.unfinished > 0 {
        let _ = writeln!(
            out,
            "unfinished games: {} (no outcome after {MAX_ACTIONS} actions or a stuck state)",
            tally.unfinished
        );
    }
    let n = tally.games;
    if tally.team_games > 0 {
        let _ = writeln!(out, "win rate per team:");
        let rows: Vec<Vec<String>> = tally
            .team_wins
            .iter()
            .enumerate()
            .map(|(t, wins)| {
                vec![
                    team_name(meta, t.min(255) as u8) + ":",
                    percent(*wins, n),
                    format!("({wins} of {n})"),
                ]
            })
            .collect();
        out.push_str(&table(&rows, "  "));
    }
    let _ = writeln!(out, "win rate per seat (rank 1, ties count for each):");
    let rows: Vec<Vec<String>> = tally
        .seat_wins
        .iter()
        .enumerate()
        .map(|(s, wins)| {
            vec![
                format!("seat {}:", s + 1),
                percent(*wins, n),
                format!("({wins} of {n})"),
            ]
        })
        .collect();
    out.push_str(&table(&rows, "  "));
    let _ = writeln!(out, "average score per seat:");
    let rows: Vec<Vec<String>> = tally
        .seat_scores
        .iter()
        .enumerate()
        .map(|(s, total)| {
            vec![
                format!("seat {}:", s + 1),
                format!("{:.2}", *total as f64 / n.max(1) as f64),
            ]
        })
        .collect();
    out.push_str(&table(&rows, "  "));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testgame::HighCard;

    fn config(threads: usize, bot: Option<&str>, options: Value) -> SimConfig {
        SimConfig {
            players: 3,
            games: 200,
            bot: bot.map(String::from),
            threads,
            seed: 9,
            options,
            progress: false,
        }
    }

    #[test]
    fn results_do_not_depend_on_the_thread_count() {
        let one = simulate::<HighCard>(&config(1, None, Value::Null)).unwrap();
        let three = simulate::<HighCard>(&config(3, None, Value::Null)).unwrap();
        assert_eq!(one, three);
        assert_eq!(one.games, 200);
        assert_eq!(one.unfinished, 0);
        assert_eq!(one.team_games, 0);
        let text = report::<HighCard>(&config(1, None, Value::Null), &one, Duration::from_secs(1));
        assert!(!text.contains("per team"), "{text}");
        assert_eq!(one.actions, 200 * 6);
        // Somebody wins every round, so at least one seat has rank 1 per game.
        assert!(one.seat_wins.iter().sum::<u64>() >= 200);
    }

    #[test]
    fn named_bots_play_through_determinize() {
        let tally = simulate::<HighCard>(&config(2, Some("monte-carlo"), Value::Null)).unwrap();
        assert_eq!(tally.games, 200);
        let err = simulate::<HighCard>(&config(2, Some("nobody"), Value::Null)).unwrap_err();
        assert!(err.0.contains("no bot called \"nobody\""), "{err}");
    }

    #[test]
    fn team_wins_are_counted_and_reported() {
        let options = serde_json::json!({"teams": true});
        let cfg = config(2, None, options);
        let tally = simulate::<HighCard>(&cfg).unwrap();
        assert_eq!(tally.team_wins.len(), 2);
        // A game is won by at least one team; ties can make both win.
        assert!(tally.team_wins.iter().sum::<u64>() >= 200);
        let text = report::<HighCard>(&cfg, &tally, Duration::from_millis(10));
        assert!(text.contains("games/s\n"), "{text}");
        assert!(text.contains("actions/s\n"), "{text}");
        assert!(text.contains("win rate per team:\n  Sun (日):"), "{text}");
        assert!(text.contains("win rate per seat"), "{text}");
        assert!(
            text.contains("average score per seat:\n  seat 1:"),
            "{text}"
        );
    }

    #[test]
    fn the_games_winning_team_overrides_ranks() {
        let mut tally = Tally::new(3, 2);
        // All tied at 0, but the game says team 1 (with no seat of rank above) won.
        let tied = Outcome::from_scores(vec![0, 0, 0], vec![Some(0), Some(0), Some(1)]);
        tally.add(&tied.clone().with_winning_team(1), 5);
        assert_eq!(tally.team_wins, vec![0, 1]);
        // Without the game's word, every team with a seat of rank 1 won.
        tally.add(&tied, 5);
        assert_eq!(tally.team_wins, vec![1, 2]);
        assert_eq!(tally.seat_wins, vec![2, 2, 2]);
        assert_eq!((tally.games, tally.actions, tally.team_games), (2, 10, 2));
    }

    #[test]
    fn bad_options_and_player_counts_are_explained() {
        let err =
            simulate::<HighCard>(&config(1, None, serde_json::json!({"nope": 1}))).unwrap_err();
        assert!(err.0.contains("options for high-card"), "{err}");
        let mut cfg = config(1, None, Value::Null);
        cfg.players = 7;
        let err = simulate::<HighCard>(&cfg).unwrap_err();
        assert!(err.0.contains("2 to 3 players, not 7"), "{err}");
    }
}

//! `takuge arena`: a seat-rotated tournament between bots on every core, with win
//! rates, 95% confidence intervals, per-team rates and Elo (a Bradley–Terry fit);
//! optionally a CSV of every game and an SVG plot of the standings.

use crate::args::ArenaArgs;
use crate::error::CliError;
use crate::setup::{fresh_seed, options_json, typed_options};
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write as _;
use std::path::Path;
use takuge_engine::arena::{play, standings, Entrant, GameResult, Standing};
use takuge_engine::ismcts::{Budget, Config, Rollout};
use takuge_engine::{Bot, BotFactory, Game, IsmctsBot};
use takuge_games::{CatalogGame, GameVisitor};

pub struct ArenaVisitor<'a>(pub &'a ArenaArgs);

impl GameVisitor for ArenaVisitor<'_> {
    type Output = Result<String, CliError>;

    fn visit<G: CatalogGame>(self) -> Self::Output {
        arena::<G>(self.0)
    }
}

/// How an entrant's bots are made.
type MakeBot<G> = Box<dyn Fn() -> Box<dyn Bot<G>> + Sync>;

/// A level with a budget in iterations, `normal@N` or `strong@N`: ISMCTS with one tree
/// of N iterations a move (random rollouts for `normal`, the game's rule bot playing
/// them for `strong`), for tournaments reproducible from their seed and cheap enough
/// to run thousands of games. `None` for any other name.
fn budgeted<G: CatalogGame>(
    name: &str,
    catalog: &[(&'static str, BotFactory<G>)],
) -> Result<Option<MakeBot<G>>, CliError> {
    let Some((level, n)) = name.split_once('@') else {
        return Ok(None);
    };
    let iterations: u32 = n.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
        CliError(format!(
            "{name:?}: the budget after @ is a number of iterations"
        ))
    })?;
    let rollout = match level {
        "normal" => Rollout::Random,
        "strong" => match catalog.first() {
            Some(&(_, rule_bot)) => Rollout::Policy(rule_bot),
            None => Rollout::Random,
        },
        _ => {
            return Err(CliError(format!(
                "{name:?}: only normal@N and strong@N take a budget"
            )))
        }
    };
    let label: &'static str = if level == "normal" {
        "ismcts-normal"
    } else {
        "ismcts-strong"
    };
    Ok(Some(Box::new(move || {
        Box::new(IsmctsBot::<G>::new(
            label,
            Config {
                budget: Budget::Iterations(iterations),
                trees: 1,
                rollout,
                ..Config::default()
            },
        )) as Box<dyn Bot<G>>
    })))
}

fn arena<G: CatalogGame>(args: &ArenaArgs) -> Result<String, CliError> {
    let options: G::Options = typed_options::<G>(&options_json(args.options.as_deref())?)?;
    let players = args.players.unwrap_or(G::meta().max_players.min(4));
    let names: Vec<String> = args
        .bots
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if names.is_empty() {
        return Err(CliError("--bots lists no bot".into()));
    }
    let catalog = G::bots();
    let mut factories: Vec<MakeBot<G>> = Vec::new();
    for name in &names {
        if let Some(make) = budgeted::<G>(name, &catalog)? {
            factories.push(make);
            continue;
        }
        match catalog.iter().find(|(n, _)| n == name) {
            Some((_, f)) => {
                let f = *f;
                factories.push(Box::new(move || f()));
            }
            None => {
                let known: Vec<&str> = catalog.iter().map(|(n, _)| *n).collect();
                return Err(CliError(format!(
                    "{} has no bot called {name:?}; its bots: {}",
                    G::meta().id,
                    known.join(", ")
                )));
            }
        }
    }
    if args.games == 0 {
        return Err(CliError("--games must be at least 1".into()));
    }
    let entrants: Vec<Entrant<'_, G>> = names
        .iter()
        .zip(&factories)
        .map(|(name, make)| Entrant {
            name: name.clone(),
            make: make.as_ref(),
        })
        .collect();
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let bar = ProgressBar::new(args.games as u64);
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} [{bar:40}] {pos}/{len} games ({per_sec}, eta {eta})",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    let results = play::<G>(&options, players, &entrants, args.games, seed, &|done| {
        bar.set_position(done as u64)
    })
    .map_err(CliError)?;
    bar.finish_and_clear();
    let table = standings(&names, &results);
    if let Some(path) = &args.csv {
        write_csv(path, &names, &results)?;
    }
    if let Some(path) = &args.svg {
        let title = format!(
            "{} ({}), {players} players, {} games, seed {seed}",
            G::meta().name_en,
            G::meta().name_ja,
            args.games
        );
        std::fs::write(path, svg(&title, &table))
            .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(report::<G>(players, args.games, seed, &table))
}

fn report<G: Game>(players: usize, games: usize, seed: u64, table: &[Standing]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({}), {players} players, {games} games, seats rotated, seed {seed}",
        G::meta().name_en,
        G::meta().name_ja
    );
    let _ = writeln!(
        out,
        "{:<16} {:>6} {:>9} {:>17} {:>6}  score: mean (p10 / p50 / p90)",
        "bot", "games", "win rate", "95% interval", "Elo"
    );
    let mut sorted: Vec<&Standing> = table.iter().collect();
    sorted.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    for s in &sorted {
        let _ = writeln!(
            out,
            "{:<16} {:>6} {:>8.1}% {:>7.1}% – {:>5.1}% {:>6.0}  {:.1} ({} / {} / {})",
            s.name,
            s.games,
            100.0 * s.win_rate,
            100.0 * s.interval.0,
            100.0 * s.interval.1,
            s.elo,
            s.scores.mean,
            s.scores.p10,
            s.scores.p50,
            s.scores.p90
        );
    }
    let teams = G::meta().teams;
    if !teams.is_empty() {
        let _ = writeln!(out, "by team (win rate, games):");
        for s in &sorted {
            let parts: Vec<String> = s
                .by_team
                .iter()
                .map(|(team, n, rate)| {
                    let name = teams.get(usize::from(*team)).map_or("?", |t| t.en);
                    format!("{name} {:.1}% ({n})", 100.0 * rate)
                })
                .collect();
            let _ = writeln!(out, "  {:<14} {}", s.name, parts.join(", "));
        }
    }
    out
}

fn write_csv(path: &Path, names: &[String], results: &[GameResult]) -> Result<(), CliError> {
    let mut text = String::from("game,seed,seat,bot,rank,reward,team,score,actions\n");
    for (g, r) in results.iter().enumerate() {
        for (seat, entrant) in r.lineup.iter().enumerate() {
            let _ = writeln!(
                text,
                "{g},{},{seat},{},{},{},{},{},{}",
                r.seed,
                names.get(*entrant).map_or("?", String::as_str),
                r.ranks.get(seat).copied().unwrap_or(0),
                r.rewards.get(seat).copied().unwrap_or(0.0),
                r.teams
                    .get(seat)
                    .copied()
                    .flatten()
                    .map_or(String::new(), |t| t.to_string()),
                r.scores.get(seat).copied().unwrap_or(0),
                r.actions
            );
        }
    }
    std::fs::write(path, text)
        .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))
}

/// Win rates as bars with their 95% intervals as whiskers, Elo at the right.
fn svg(title: &str, table: &[Standing]) -> String {
    let row = 28.0;
    let left = 140.0;
    let width = 400.0;
    let height = 60.0 + row * table.len() as f64;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{height}" font-family="sans-serif" font-size="13">"#,
        left + width + 90.0
    );
    let _ = writeln!(out, r#"<text x="10" y="20">{}</text>"#, escape(title));
    for tick in 0..=4 {
        let x = left + width * f64::from(tick) / 4.0;
        let _ = writeln!(
            out,
            r##"<line x1="{x}" y1="30" x2="{x}" y2="{}" stroke="#ccc"/><text x="{x}" y="{}" text-anchor="middle" fill="#666">{}%</text>"##,
            height - 20.0,
            height - 6.0,
            tick * 25
        );
    }
    for (i, s) in table.iter().enumerate() {
        let y = 36.0 + row * i as f64;
        let w = width * s.win_rate;
        let (lo, hi) = (left + width * s.interval.0, left + width * s.interval.1);
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" text-anchor="end">{}</text><rect x="{left}" y="{y}" width="{w:.1}" height="18" fill="#4a7fb5"/><line x1="{lo:.1}" y1="{}" x2="{hi:.1}" y2="{}" stroke="#222" stroke-width="2"/><text x="{}" y="{}">Elo {:.0}</text>"##,
            left - 8.0,
            y + 14.0,
            escape(&s.name),
            y + 9.0,
            y + 9.0,
            left + width + 8.0,
            y + 14.0,
            s.elo
        );
    }
    out.push_str("</svg>\n");
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

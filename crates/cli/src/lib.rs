//! The `takuge` command line.
//!
//! Every subcommand is a function over the catalog's [`Registry`] (JSON face: `play`,
//! `replay`, `games`) or over one concrete game type reached through
//! [`takuge_games::visit`] (`simulate`, `bench`, which must not pay for JSON), so
//! each is testable with a game that is not in the shipped catalog.

pub mod arena;
pub mod args;
pub mod bench;
pub mod cluster;
pub mod error;
pub mod games;
pub mod loadtest;
pub mod play;
pub mod recommend;
pub mod render;
pub mod replay;
pub mod setup;
pub mod simulate;

#[cfg(test)]
mod testgame;

pub use args::{Cli, Command};
pub use error::CliError;

use std::io::{IsTerminal, Write};

/// Runs one parsed command line against the shipped catalog, writing to stdout.
pub fn run(cli: Cli) -> Result<(), CliError> {
    let registry = takuge_games::registry();
    // Locked per command, and never for `serve` or `loadtest`: a lock held for the
    // server's whole life made every log line written from a runtime worker wait for
    // ever, and with it every request (issue 13).
    let stdout = std::io::stdout();
    let out = || stdout.lock();
    match cli.command {
        Command::Games => games::list(&registry, &mut out()),
        Command::Play(args) => {
            let config = play::PlayConfig::from_args(&registry, &args)?;
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            let io = play::Terminal {
                clear_screen: std::io::stdout().is_terminal(),
            };
            let mut out = out();
            let ended = play::play(&registry, &config, &mut input, &mut out, io)?;
            if let Some(path) = &args.save {
                setup::write_record(path, &ended.record)?;
                writeln!(out, "Saved the match record to {}.", path.display())?;
            }
            Ok(())
        }
        Command::Simulate(args) => {
            let config = simulate::SimConfig::from_args(&args)?;
            let report = takuge_games::visit(&args.game, simulate::SimVisitor(&config))
                .ok_or_else(|| setup::unknown_game(&registry, &args.game))??;
            write!(out(), "{report}")?;
            Ok(())
        }
        Command::Replay(args) => {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            let pause = args.step && std::io::stdin().is_terminal();
            replay::replay_file(&registry, &args, pause, &mut input, &mut out())
        }
        Command::Serve(args) => {
            let config = takuge_server::Config {
                bind: args.bind,
                database_url: args.database_url,
                secure_cookies: args.secure_cookies,
                bot_delay: std::time::Duration::from_millis(args.bot_delay_ms),
                bot_pool: args.bot_pool.config(),
                trusted_proxies: args.trusted_proxies,
                connections: takuge_server::listen::ConnectionLimits {
                    max_total: args.max_connections,
                    max_per_ip: args.max_connections_per_ip,
                    header_timeout: std::time::Duration::from_secs(args.header_timeout_secs),
                },
                websockets_per_account: args.websockets_per_account,
                subscriptions_per_ip: args.subscriptions_per_ip,
                per_ip: args.rate_per_ip,
                per_account: args.rate_per_account,
                auth_per_ip: args.rate_auth_per_ip,
                node: match (args.node_name, args.advertise, args.cluster_secret) {
                    (Some(name), Some(advertise), Some(secret)) => {
                        Some(takuge_server::cluster::NodeConfig {
                            name,
                            advertise,
                            secret,
                        })
                    }
                    _ => None,
                },
                ..takuge_server::Config::default()
            };
            takuge_server::serve_blocking(config, args.log_json).map_err(CliError)
        }
        Command::Admin(args) => {
            let args::AdminAction::Grant { name } = &args.action;
            let name = takuge_server::shelf::admin::grant_blocking(&args.database_url, name)
                .map_err(CliError)?;
            writeln!(out(), "{name} is an admin").map_err(|e| CliError(e.to_string()))?;
            Ok(())
        }
        Command::Migrate(args) => {
            let outcome =
                takuge_server::migrate::migrate_blocking(&args.from, &args.to, args.replace)
                    .map_err(CliError)?;
            write!(out(), "{}", outcome.report()).map_err(|e| CliError(e.to_string()))?;
            Ok(())
        }
        Command::ShelfBench(args) => {
            let report = takuge_server::shelf::bench::run_blocking(
                takuge_server::shelf::bench::BenchConfig {
                    database_url: args.database_url,
                    users: args.users,
                    entries: args.entries,
                    games: args.games,
                    shelf: args.shelf,
                    rounds: args.rounds,
                },
            )
            .map_err(CliError)?;
            let mut o = out();
            let w = |e: std::io::Error| CliError(e.to_string());
            writeln!(
                o,
                "{}: {} collection rows (filled in {:.0} s)",
                report.backend, report.collection_rows, report.fill_seconds
            )
            .map_err(w)?;
            writeln!(
                o,
                "measured after the start-up recommendation build ended ({}, {:.1} s after the \
                 server started; no rebuild during the run)",
                if report.recommend_built {
                    "built"
                } else {
                    "failed"
                },
                report.recommend_wait_seconds
            )
            .map_err(w)?;
            writeln!(o, "| request | size | p50 ms | p99 ms | max ms |").map_err(w)?;
            writeln!(o, "|---|---|---|---|---|").map_err(w)?;
            for t in &report.timings {
                writeln!(
                    o,
                    "| `{}` | {} | {:.1} | {:.1} | {:.1} |",
                    t.what, t.size, t.p50_ms, t.p99_ms, t.max_ms
                )
                .map_err(w)?;
            }
            Ok(())
        }
        Command::Loadtest(args) => {
            let (report, max_p99_ms) = loadtest::run(args)?;
            write!(out(), "{report}")?;
            loadtest::check_ceiling(&report, max_p99_ms)
        }
        Command::Recommend(args) => recommend::run(&args.action, &mut out()),
        Command::Arena(args) => {
            let report = takuge_games::visit(&args.game, arena::ArenaVisitor(&args))
                .ok_or_else(|| setup::unknown_game(&registry, &args.game))??;
            write!(out(), "{report}")?;
            Ok(())
        }
        Command::Bench(args) => {
            let config = bench::BenchConfig::from_args(&args)?;
            let report = takuge_games::visit(&args.game, bench::BenchVisitor(&config))
                .ok_or_else(|| setup::unknown_game(&registry, &args.game))??;
            write!(out(), "{report}")?;
            Ok(())
        }
    }
}

//! `takuge recommend eval` and `takuge recommend synth` (issue 18, docs/RECOMMEND.md).

use crate::args::RecommendAction;
use crate::error::CliError;
use std::io::Write;
use takuge_recommend::eval::{evaluate, parse_ratings, parse_titles};
use takuge_recommend::synth::{synthesize, to_csv, Spec};
use takuge_recommend::{Lang, Params};

fn read(path: &std::path::Path) -> Result<String, CliError> {
    std::fs::read_to_string(path)
        .map_err(|e| CliError::new(format!("cannot read {}: {e}", path.display())))
}

pub fn run(action: &RecommendAction, out: &mut impl Write) -> Result<(), CliError> {
    match action {
        RecommendAction::Eval {
            ratings,
            titles,
            seed,
        } => {
            let list = parse_ratings(&read(ratings)?)
                .map_err(|e| CliError::new(format!("{}: {e}", ratings.display())))?;
            if list.is_empty() {
                return Err(CliError::new(format!("{}: no ratings", ratings.display())));
            }
            let names = match titles {
                Some(p) => parse_titles(&read(p)?)
                    .map_err(|e| CliError::new(format!("{}: {e}", p.display())))?,
                None => Default::default(),
            };
            let report = evaluate(&list, *seed, Params::default());
            writeln!(out, "{}", report.takuge.line("takuge"))?;
            writeln!(out, "{}", report.popularity.line("popularity"))?;
            writeln!(out, "{}", report.random.line("random"))?;
            // A look at one person's list, with its reasons, on stderr.
            if let Some((user, recs)) = &report.sample {
                let name = |g: i64| names.get(&g).cloned().unwrap_or_else(|| format!("#{g}"));
                eprintln!(
                    "({} people measured; user {user}'s recommendations:)",
                    report.takuge.users
                );
                for r in recs {
                    eprintln!("  {}: {}", name(r.game), r.reason.text(Lang::En, name));
                }
            }
            Ok(())
        }
        RecommendAction::Synth {
            users,
            games,
            seed,
            out: path,
        } => {
            if *users == 0 || *games < 2 {
                return Err(CliError::new(
                    "--users must be at least 1 and --games at least 2",
                ));
            }
            let ratings = synthesize(Spec {
                users: *users,
                games: *games,
                seed: *seed,
            });
            std::fs::write(path, to_csv(&ratings))
                .map_err(|e| CliError::new(format!("cannot write {}: {e}", path.display())))?;
            writeln!(
                out,
                "{} ratings by {users} people of {games} games written to {}",
                ratings.len(),
                path.display()
            )?;
            Ok(())
        }
    }
}

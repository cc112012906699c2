//! `takuge replay`: steps through a JSON match record through the registry.

use crate::args::ReplayArgs;
use crate::error::CliError;
use crate::render::{render_outcome, render_view};
use crate::setup::{find_game, read_record};
use std::io::{BufRead, Write};
use takuge_engine::{MatchRecord, Registry, Seat, Viewer};

pub fn replay_file(
    registry: &Registry,
    args: &ReplayArgs,
    pause: bool,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let record = read_record(&args.file)?;
    replay(registry, &record, args.seat, pause, input, out)
        .map_err(|e| CliError(format!("{}: {e}", args.file.display())))
}

/// Plays `record` from its seed, printing every step and `seat`'s view (or the
/// spectator's) after it. With `pause`, waits for a line of input between steps.
pub fn replay(
    registry: &Registry,
    record: &MatchRecord,
    seat: Option<usize>,
    pause: bool,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let game = find_game(registry, &record.game)?;
    // Another rules version's log may still apply action by action and yet tell
    // another match: refuse it rather than show a wrong replay.
    record
        .check_rules(game.rules_version())
        .map_err(|e| CliError(e.to_string()))?;
    let meta = game.meta();
    let players = record.players();
    let viewer = match seat {
        None => Viewer::Spectator,
        Some(k) if (1..=players).contains(&k) => Viewer::Seat(Seat((k - 1) as u8)),
        Some(k) => {
            return Err(CliError(format!(
            "--seat {k}: the record's table has seats 1 to {players} (seats are numbered from 1)"
        )))
        }
    };
    let mut state = game
        .new_game(&record.options, players, record.seed)
        .map_err(|e| CliError(format!("the record cannot be set up: {}", e.message)))?;
    let names: Vec<String> = record
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| match (&s.bot, s.name.is_empty()) {
            (Some(bot), true) => format!("bot {bot}"),
            (Some(bot), false) => format!("{}, {bot}", s.name),
            (None, true) => format!("seat {}", i + 1),
            (None, false) => s.name.clone(),
        })
        .collect();
    writeln!(
        out,
        "{} ({}) — {} players, seed {}, {} actions",
        meta.name_en,
        meta.name_ja,
        players,
        record.seed,
        record.actions.len()
    )?;
    let whose = match viewer {
        Viewer::Seat(s) => format!("{s}'s view"),
        Viewer::Spectator => "the spectator's view".into(),
    };
    writeln!(out, "Showing {whose}.")?;
    write!(out, "{}", render_view(&state.view(viewer)))?;
    for (index, entry) in record.actions.iter().enumerate() {
        if pause {
            write!(out, "[Enter for the next step, q to quit] ")?;
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                return Ok(());
            }
            if matches!(line.trim(), "q" | "Q" | "quit" | "exit") {
                return Ok(());
            }
        }
        let Some(label) = state.describe(&entry.action) else {
            return Err(CliError(format!(
                "action {index} ({}) is not an action of {}: {}",
                entry.seat, record.game, entry.action
            )));
        };
        state.apply(entry.seat, &entry.action).map_err(|e| {
            CliError(format!(
                "action {index} ({}, {label}) was refused: {}",
                entry.seat, e.message
            ))
        })?;
        let name = names
            .get(entry.seat.index())
            .map_or_else(String::new, |n| format!(" ({n})"));
        writeln!(out, "\n#{} {}{name}: {label}", index + 1, entry.seat)?;
        write!(out, "{}", render_view(&state.view(viewer)))?;
    }
    match state.outcome() {
        Some(outcome) => {
            writeln!(out, "\nGame over. Outcome:")?;
            write!(out, "{}", render_outcome(&outcome, meta, &names))?;
        }
        None => {
            let pending: Vec<String> = state.to_move().iter().map(|s| s.to_string()).collect();
            writeln!(
                out,
                "\nThe record ends before the game does (waiting for {}).",
                pending.join(", ")
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::{play, PlayConfig, Terminal};
    use crate::testgame;
    use takuge_engine::SeatSet;

    fn record() -> MatchRecord {
        let config = PlayConfig {
            game: testgame::ID.into(),
            players: 3,
            humans: SeatSet::EMPTY,
            bot: Some("random".into()),
            seed: 12,
            options: serde_json::json!({}),
        };
        let mut sink = Vec::new();
        play(
            &testgame::registry(),
            &config,
            &mut "".as_bytes(),
            &mut sink,
            Terminal::default(),
        )
        .unwrap()
        .record
    }

    fn run(record: &MatchRecord, seat: Option<usize>) -> Result<String, CliError> {
        let mut out = Vec::new();
        replay(
            &testgame::registry(),
            record,
            seat,
            false,
            &mut "".as_bytes(),
            &mut out,
        )?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn q_quits_the_replay_stepper() {
        // Issue 21, item 9: `q` at the pause ends the replay, cleanly, after one step.
        let record = record();
        let mut out = Vec::new();
        replay(
            &testgame::registry(),
            &record,
            None,
            true,
            &mut "\nq\n\n\n".as_bytes(),
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("#1 "), "{text}");
        assert!(!text.contains("#2 "), "{text}");
        assert!(!text.contains("Game over"), "{text}");
    }

    #[test]
    fn a_played_record_replays_to_its_outcome() {
        let record = record();
        let text = run(&record, Some(1)).unwrap();
        assert!(text.contains("Showing seat 1's view"), "{text}");
        assert!(
            text.contains("#6 seat 3 (bot 3, random): play the"),
            "{text}"
        );
        assert!(text.contains("Game over. Outcome:"), "{text}");
        let spectator = run(&record, None).unwrap();
        assert!(spectator.contains("hand: —"), "{spectator}");
    }

    #[test]
    fn a_tampered_record_is_refused_clearly() {
        let mut record = record();
        record.actions[0].action = serde_json::json!({"play": 42});
        let err = run(&record, None).unwrap_err();
        assert!(
            err.0.contains("action 0 (seat 1, play the 42) was refused"),
            "{err}"
        );
        record.actions[0].action = serde_json::json!("dance");
        let err = run(&record, None).unwrap_err();
        assert!(err.0.contains("is not an action of high-card"), "{err}");
        record.game = "chess".into();
        let err = run(&record, None).unwrap_err();
        assert!(err.0.contains("unknown game \"chess\""), "{err}");
        // Seats are numbered from 1: a table of 3 has no seat 0 and no seat 4.
        for k in [0, 4] {
            let err = run(&self::record(), Some(k)).unwrap_err();
            assert!(err.0.contains(&format!("--seat {k}")), "{err}");
        }
    }

    #[test]
    fn a_record_from_another_rules_version_is_refused_with_the_reason() {
        // A server's record of a table played under older rules carries that version.
        let mut record = record();
        record.rules += 1;
        let err = run(&record, None).unwrap_err();
        assert!(
            err.0.contains(&format!(
                "played under high-card rules version {}; this build plays version {}",
                record.rules,
                record.rules - 1
            )),
            "{err}"
        );
    }
}

//! `takuge play`: a game in the terminal, through the registry's JSON face.
//!
//! Humans see only their own view and choose from their legal actions; bots play the
//! other seats. What a bot chose is never printed while a human plays (a secret
//! choice would show): humans learn what their view shows them, as at a real table.

use crate::args::PlayArgs;
use crate::error::CliError;
use crate::render::{render_outcome, render_view};
use crate::setup::{find_game, fresh_seed, options_json};
use serde_json::Value;
use std::io::{BufRead, Write};
use takuge_engine::record::{LoggedAction, RECORD_FORMAT};
use takuge_engine::{
    DynState, GameRng, Lang, MatchRecord, Outcome, Registry, Seat, SeatRecord, SeatSet, Viewer,
    MAX_SEATS,
};

/// The bot every game has: a uniformly random legal action (used when the game has
/// no bot of that name).
pub const RANDOM: &str = "random";

/// A game that runs longer than this is taken to be stuck (a bug in its rules).
const MAX_ACTIONS: usize = 1_000_000;

/// A table, checked against the game before anything is played.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    pub game: String,
    pub players: usize,
    /// Seats a human plays; the others are the bot's.
    pub humans: SeatSet,
    /// The bot for every other seat.
    pub bot: Option<String>,
    pub seed: u64,
    /// The options as recorded: the game's defaults made explicit when none were given.
    pub options: Value,
}

impl PlayConfig {
    pub fn from_args(registry: &Registry, args: &PlayArgs) -> Result<Self, CliError> {
        let game = find_game(registry, &args.game)?;
        let players = args.players;
        if players > MAX_SEATS {
            return Err(CliError(format!(
                "{} seats is more than any table has ({MAX_SEATS})",
                players
            )));
        }
        let mut options = options_json(args.options.as_deref())?;
        game.validate(&options, players)?;
        if options.is_null() {
            options = game.default_options();
        }
        let humans = if args.all_bots {
            SeatSet::EMPTY
        } else if args.hotseat {
            SeatSet::first(players)
        } else if args.seats.is_empty() {
            SeatSet::single(Seat(0))
        } else {
            let mut humans = SeatSet::EMPTY;
            for &k in &args.seats {
                if k == 0 || k > players {
                    return Err(CliError(format!(
                        "--seat {k}: a table of {players} has seats 1 to {players} (seats are numbered from 1)"
                    )));
                }
                humans.insert(Seat((k - 1) as u8));
            }
            humans
        };
        let needs_bot = humans.len() < players;
        let names = game.bot_names();
        let bot = match &args.bot {
            Some(name) if names.contains(&name.as_str()) || name == RANDOM => Some(name.clone()),
            Some(name) => {
                let mut known = vec![RANDOM];
                known.extend(names.iter().copied().filter(|n| *n != RANDOM));
                return Err(CliError(format!(
                    "{} has no bot called {name:?}; its bots: {}",
                    args.game,
                    known.join(", ")
                )));
            }
            None if needs_bot => Some(names.first().copied().unwrap_or(RANDOM).to_string()),
            None => None,
        };
        Ok(PlayConfig {
            game: args.game.clone(),
            players,
            humans,
            bot,
            seed: args.seed.unwrap_or_else(fresh_seed),
            options,
        })
    }

    fn seat_name(&self, seat: Seat) -> String {
        if !self.humans.contains(seat) {
            format!("bot {}", u16::from(seat.0) + 1)
        } else if self.humans.len() == 1 {
            "you".into()
        } else {
            format!("player {}", u16::from(seat.0) + 1)
        }
    }
}

/// How the terminal behaves.
#[derive(Clone, Copy, Debug, Default)]
pub struct Terminal {
    /// Clear the screen before passing the device, so the next seat does not see the
    /// last one's hand (only when stdout is a terminal).
    pub clear_screen: bool,
}

/// How a game ended: played out, or left early (stdin closed or `q`).
#[derive(Debug)]
pub struct Ended {
    pub record: MatchRecord,
    pub outcome: Option<Outcome>,
}

/// What a human answered.
enum Answer {
    Action(Value),
    /// `q`: the human left.
    Leave,
    /// Standard input closed.
    InputEnded,
}

pub fn play(
    registry: &Registry,
    config: &PlayConfig,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    terminal: Terminal,
) -> Result<Ended, CliError> {
    let game = find_game(registry, &config.game)?;
    let meta = game.meta();
    let mut state = game.new_game(&config.options, config.players, config.seed)?;
    let names: Vec<String> = Seat::all(config.players)
        .map(|s| config.seat_name(s))
        .collect();
    let mut record = MatchRecord {
        format: RECORD_FORMAT,
        game: config.game.clone(),
        rules: game.rules_version(),
        options: config.options.clone(),
        seats: Seat::all(config.players)
            .map(|s| {
                if config.humans.contains(s) {
                    SeatRecord {
                        name: format!("player {}", u16::from(s.0) + 1),
                        bot: None,
                    }
                } else {
                    SeatRecord {
                        name: format!("bot {}", u16::from(s.0) + 1),
                        bot: config.bot.clone(),
                    }
                }
            })
            .collect(),
        seed: config.seed,
        actions: Vec::new(),
    };
    writeln!(
        out,
        "{} ({}) — {} players, seed {}",
        meta.name_en, meta.name_ja, config.players, config.seed
    )?;
    let bot = config.bot.as_deref().unwrap_or("");
    let humans: Vec<String> = config
        .humans
        .iter()
        .map(|s| (u16::from(s.0) + 1).to_string())
        .collect();
    match (humans.len(), config.bot.as_deref()) {
        (0, _) => writeln!(out, "Every seat is played by the bot {bot}.")?,
        (_, None) => writeln!(out, "Seats {} are human.", humans.join(", "))?,
        (1, Some(bot)) => writeln!(
            out,
            "You play seat {}; the bot {bot} plays the others.",
            humans.join("")
        )?,
        (_, Some(bot)) => writeln!(
            out,
            "Humans play seats {}; the bot {bot} plays the others.",
            humans.join(", ")
        )?,
    }
    let mut bot_rng = GameRng::from_seed(config.seed ^ 0xB07_B07_B07);
    let mut last_human: Option<Seat> = None;
    // Per seat, its view as shown when it last chose (`ask` then shows what changed).
    let mut last_views: Vec<Option<String>> = vec![None; state.players()];
    let shared_device = config.humans.len() > 1;
    loop {
        let pending = state.to_move();
        if pending.is_empty() {
            break;
        }
        if record.actions.len() >= MAX_ACTIONS {
            return Err(CliError(format!(
                "the game has not ended after {MAX_ACTIONS} actions; giving up"
            )));
        }
        // Bots first: a human then sees every choice that is already in.
        if let Some(seat) = pending.iter().find(|s| !config.humans.contains(*s)) {
            let action = bot_action(state.as_ref(), seat, bot, &mut bot_rng)?;
            // What the watching human may read of it: everything when no human plays,
            // the game's log line for the one human, the public line on a shared device.
            let label = match (config.humans.len(), config.humans.first_seat()) {
                (0, _) => Some(
                    state
                        .describe(&action)
                        .unwrap_or_else(|| action.to_string()),
                ),
                (1, Some(human)) => state.describe_for(seat, &action, Viewer::Seat(human)),
                _ => state.describe_for(seat, &action, Viewer::Spectator),
            };
            let before = state.box_clone();
            apply(state.as_mut(), seat, &action)?;
            match label {
                Some(label) => writeln!(out, "{seat} ({}): {label}", names[seat.index()])?,
                None => writeln!(out, "{seat} ({}) has played.", names[seat.index()])?,
            }
            tell_news(out, before.as_ref(), state.as_ref())?;
            record.actions.push(LoggedAction { seat, action });
            continue;
        }
        let Some(seat) = pending.first_seat() else {
            break;
        };
        if shared_device && last_human != Some(seat) {
            if terminal.clear_screen {
                // Also the scrollback: the last seat's view must not be a scroll away.
                write!(out, "\x1b[H\x1b[2J\x1b[3J")?;
            }
            writeln!(
                out,
                "\n── Pass the device to seat {} ({}), then press Enter ──",
                u16::from(seat.0) + 1,
                names[seat.index()]
            )?;
            out.flush()?;
            match read_line(input)? {
                None => return leave(out, record, "Input ended"),
                Some(line) if is_quit(&line) => return leave(out, record, "You left the table"),
                Some(_) => {}
            }
        }
        last_human = Some(seat);
        let last_view = last_views.get_mut(seat.index()).and_then(Option::take);
        let (answer, seen) = ask(state.as_ref(), seat, last_view, input, out)?;
        if let Some(slot) = last_views.get_mut(seat.index()) {
            *slot = Some(seen);
        }
        match answer {
            Answer::Leave => return leave(out, record, "You left the table"),
            Answer::InputEnded => return leave(out, record, "Input ended"),
            Answer::Action(action) => {
                let label = state.describe(&action).unwrap_or_default();
                let before = state.box_clone();
                apply(state.as_mut(), seat, &action)?;
                writeln!(out, "{seat} ({}) played: {label}", names[seat.index()])?;
                tell_news(out, before.as_ref(), state.as_ref())?;
                record.actions.push(LoggedAction { seat, action });
            }
        }
    }
    writeln!(out, "\nGame over after {} actions.", record.actions.len())?;
    let final_viewer = match config.humans.first_seat() {
        Some(seat) if config.humans.len() == 1 => Viewer::Seat(seat),
        _ => Viewer::Spectator,
    };
    write!(out, "{}", render_view(&state.view(final_viewer)))?;
    let outcome = state.outcome();
    match &outcome {
        Some(outcome) => {
            writeln!(out, "Outcome:")?;
            write!(out, "{}", render_outcome(outcome, meta, &names))?;
        }
        None => writeln!(
            out,
            "The game ended without an outcome (a bug in the game)."
        )?,
    }
    Ok(Ended { record, outcome })
}

/// The named bot's choice for `seat`; `random` is built in for every game.
fn bot_action(
    state: &dyn DynState,
    seat: Seat,
    bot: &str,
    rng: &mut GameRng,
) -> Result<Value, CliError> {
    match state.bot_action(seat, bot, rng) {
        Ok(action) => Ok(action),
        Err(e) if e.code == "unknown_bot" && bot == RANDOM => {
            let choices = state.legal_actions(seat);
            rng.pick(&choices)
                .map(|c| c.action.clone())
                .ok_or_else(|| CliError(format!("{seat} is pending but has no legal action")))
        }
        Err(e) => Err(CliError(format!(
            "the bot {bot} failed for {seat}: {}",
            e.message
        ))),
    }
}

/// What the last action revealed to everyone (a reveal's places, cards, exhibits).
fn tell_news(
    out: &mut dyn Write,
    before: &dyn DynState,
    after: &dyn DynState,
) -> Result<(), CliError> {
    if let Some(news) = after.revealed_in(before, Lang::En) {
        writeln!(out, "  ▸ {news}")?;
    }
    Ok(())
}

fn apply(state: &mut dyn DynState, seat: Seat, action: &Value) -> Result<(), CliError> {
    state.apply(seat, action).map_err(|e| {
        CliError(format!(
            "the game refused {seat}'s legal action {action}: {} (a bug in the game)",
            e.message
        ))
    })
}

fn leave(out: &mut dyn Write, record: MatchRecord, why: &str) -> Result<Ended, CliError> {
    writeln!(
        out,
        "\n{why}; leaving the game after {} actions.",
        record.actions.len()
    )?;
    Ok(Ended {
        record,
        outcome: None,
    })
}

/// One line of input without its line ending; `None` at the end of input.
fn read_line(input: &mut dyn BufRead) -> Result<Option<String>, CliError> {
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    Ok(Some(line.trim().to_string()))
}

fn is_quit(line: &str) -> bool {
    matches!(line.to_ascii_lowercase().as_str(), "q" | "quit" | "exit")
}

/// Shows `seat` its view and choices, and reads a choice until one is valid.
/// Asks `seat` for its action. The first time it shows the seat's whole view; after
/// that only what changed since the seat last chose (`last_view`, its view then, as
/// rendered): a whole view is a page, and a move changes a few lines of it. `v` shows
/// the whole view again. Also returns the view as rendered now.
fn ask(
    state: &dyn DynState,
    seat: Seat,
    last_view: Option<String>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(Answer, String), CliError> {
    let choices = state.legal_actions(seat);
    if choices.is_empty() {
        return Err(CliError(format!(
            "{seat} is pending but has no legal action (a bug in the game)"
        )));
    }
    let view = render_view(&state.view(Viewer::Seat(seat)));
    match &last_view {
        None => {
            writeln!(out, "\n── {seat}: your view ──")?;
            write!(out, "{view}")?;
        }
        Some(before) => {
            writeln!(
                out,
                "\n── {seat}: what changed since your last choice (v: the whole view) ──"
            )?;
            let changed = changed_lines(before, &view);
            if changed.is_empty() {
                writeln!(out, "(nothing you can see)")?;
            }
            for line in changed {
                writeln!(out, "{line}")?;
            }
        }
    }
    let answer = choose(&choices, &view, input, out)?;
    Ok((answer, view))
}

/// The lines of `now` that `before` does not have, each under the lines it is nested
/// in (its less indented headers), in order.
fn changed_lines<'a>(before: &str, now: &'a str) -> Vec<&'a str> {
    let old: std::collections::HashSet<&str> = before.lines().collect();
    let lines: Vec<&str> = now.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut keep = vec![false; lines.len()];
    for (i, line) in lines.iter().enumerate() {
        if old.contains(line) {
            continue;
        }
        keep[i] = true;
        // Its headers: walking up, each line less indented than the last one kept.
        let mut depth = indent(line);
        for j in (0..i).rev() {
            if depth == 0 {
                break;
            }
            if indent(lines[j]) < depth {
                keep[j] = true;
                depth = indent(lines[j]);
            }
        }
    }
    lines
        .iter()
        .zip(keep)
        .filter_map(|(l, k)| k.then_some(*l))
        .collect()
}

/// The choice loop: the numbered choices, then a number, `v` (the whole view) or `q`.
fn choose(
    choices: &[takuge_engine::dynamic::DynAction],
    view: &str,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Answer, CliError> {
    writeln!(out, "Your choices:")?;
    for (i, choice) in choices.iter().enumerate() {
        writeln!(out, "  {:>2}. {}", i + 1, choice.label)?;
    }
    let n = choices.len();
    loop {
        if n == 1 {
            write!(out, "Choose 1 (q to leave): ")?;
        } else {
            write!(out, "Choose 1–{n} (q to leave): ")?;
        }
        out.flush()?;
        let Some(line) = read_line(input)? else {
            return Ok(Answer::InputEnded);
        };
        if is_quit(&line) {
            return Ok(Answer::Leave);
        }
        if line == "v" || line == "V" {
            write!(out, "{view}")?;
            continue;
        }
        match line.parse::<usize>() {
            Ok(k) if (1..=n).contains(&k) => {
                if let Some(choice) = choices.get(k - 1) {
                    return Ok(Answer::Action(choice.action.clone()));
                }
            }
            _ => {}
        }
        if line.is_empty() {
            writeln!(
                out,
                "Type the number of your choice, from 1 to {n} (v: your whole view; q: leave)."
            )?;
        } else {
            writeln!(
                out,
                "{line:?} is not one of the choices: type a number from 1 to {n} (or q to leave)."
            )?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testgame;

    fn config(humans: SeatSet) -> PlayConfig {
        PlayConfig {
            game: testgame::ID.into(),
            players: 2,
            humans,
            bot: Some("random".into()),
            seed: 4,
            options: Value::Null,
        }
    }

    fn run(config: &PlayConfig, input: &str) -> (Ended, String) {
        let mut out = Vec::new();
        let ended = play(
            &testgame::registry(),
            config,
            &mut input.as_bytes(),
            &mut out,
            Terminal::default(),
        )
        .unwrap();
        (ended, String::from_utf8(out).unwrap())
    }

    #[test]
    fn bots_play_a_whole_game() {
        let (ended, text) = run(&config(SeatSet::EMPTY), "");
        assert!(ended.outcome.is_some(), "{text}");
        assert!(text.contains("Outcome:"), "{text}");
        assert!(!ended.record.actions.is_empty());
        assert_eq!(ended.record.seats[1].bot.as_deref(), Some("random"));
    }

    #[test]
    fn after_the_first_choice_a_human_sees_what_changed_and_v_shows_the_whole_view() {
        // Issue 21, item 9: each move printed the whole view, a page of it.
        let (ended, text) = run(
            &config(SeatSet::single(Seat(0))),
            "1\nv\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n",
        );
        assert_eq!(text.matches(": your view ──").count(), 1, "{text}");
        assert!(
            text.contains("what changed since your last choice"),
            "{text}"
        );
        assert!(ended.outcome.is_some(), "{text}");
    }

    #[test]
    fn changed_lines_keep_their_headers() {
        let before = "hand: 1, 2\nboard\n  row 1: a\n  row 2: b\nscore: 3\n";
        let now = "hand: 1\nboard\n  row 1: a\n  row 2: c\nscore: 3\n";
        assert_eq!(
            changed_lines(before, now),
            vec!["hand: 1", "board", "  row 2: c"]
        );
    }

    #[test]
    fn a_human_is_asked_again_after_a_bad_answer() {
        let (ended, text) = run(
            &config(SeatSet::single(Seat(0))),
            "x\n99\n\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n",
        );
        assert!(text.contains("\"x\" is not one of the choices"), "{text}");
        assert!(text.contains("\"99\" is not one of the choices"), "{text}");
        assert!(text.contains("Type the number of your choice"), "{text}");
        assert!(text.contains("your view"), "{text}");
        assert!(ended.outcome.is_some(), "{text}");
        assert_eq!(ended.record.seats[0].bot, None);
    }

    #[test]
    fn end_of_input_leaves_cleanly_with_a_partial_record() {
        let (ended, text) = run(&config(SeatSet::single(Seat(0))), "");
        assert!(ended.outcome.is_none());
        assert!(text.contains("Input ended; leaving the game"), "{text}");
    }

    #[test]
    fn hotseat_asks_to_pass_the_device() {
        let input = "\n1\n".repeat(40);
        let (ended, text) = run(&config(SeatSet::first(2)), &input);
        assert!(text.contains("Pass the device to seat 1"), "{text}");
        assert!(ended.outcome.is_some(), "{text}");
    }
}

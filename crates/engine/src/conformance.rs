//! The conformance suite every game runs, for every player count and option set —
//! takuge's version of OpenSpiel's random-simulation test.
//!
//! Random games are played to the end, and along the way the suite checks that:
//! - every pending seat has a legal action, no other seat has any, and every legal
//!   action of the mover applies;
//! - illegal actions — out of turn, by a seat that is not at the table, another
//!   seat's actions, actions from other states and other setups — are refused and
//!   leave the state bit-identical;
//! - a seat's view, the pending seats and the seat's legal actions are identical in
//!   the real state and in every `determinize` from that seat, so nothing a seat
//!   receives depends on what is hidden from it (and the spectator's view likewise);
//! - the log line a seat reads of another's action, in every language, is identical
//!   in every `determinize` from that seat, and a translated line is there exactly
//!   when the English one is;
//! - views serialize; the game ends within a bound and has a sound outcome exactly
//!   when it is over;
//! - replaying the action log from the seed reproduces the final state exactly.

use crate::game::{ActionError, Game, Lang};
use crate::record::{LoggedAction, MatchRecord, RECORD_FORMAT};
use crate::rng::GameRng;
use crate::seat::{Seat, Viewer};
use std::fmt;

/// A game's near misses: actions that look like the ones a seat may play but may not
/// be legal — another card, another target, another value, an action of another phase.
/// The suite checks that `apply` accepts exactly the listed ones among them (and the
/// fuzz target builds its actions from them). A game with a small action space lists
/// all of it.
pub trait Probe: Game {
    /// Writes near misses for `seat` at this state into `out` (cleared first). They
    /// may be legal or not, and may repeat; a few dozen to a few hundred is right.
    fn near_misses(&self, seat: Seat, out: &mut Vec<Self::Action>);
}

#[derive(Clone, Debug)]
pub struct Config {
    /// Random games per (option set, player count).
    pub games: usize,
    /// A game that has not ended after this many actions fails the suite.
    pub max_steps: usize,
    /// Deep checks (determinize, foreign actions, every legal action) run on about
    /// one step in `deep_every`.
    pub deep_every: u32,
    /// Worlds sampled per seat at a deep check.
    pub determinizations: usize,
    pub seed: u64,
    /// The game hides something from someone: `determinize` must sometimes change
    /// the state (catches a `determinize` that just clones, which would make the
    /// view check vacuous).
    pub expect_hidden_information: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            games: 300,
            max_steps: 5_000,
            deep_every: 4,
            determinizations: 2,
            seed: 0x7a6b_5c4d,
            expect_hidden_information: true,
        }
    }
}

/// What was played.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub setups: usize,
    pub games: usize,
    pub actions: usize,
    pub refusals_checked: usize,
    pub determinizations: usize,
}

/// A broken rule of the suite, with what is needed to reproduce it.
#[derive(Debug)]
pub struct Violation {
    pub what: String,
    pub options: String,
    pub players: usize,
    pub seed: u64,
    pub log: Vec<String>,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "conformance violation: {}", self.what)?;
        writeln!(f, "  options: {}", self.options)?;
        writeln!(f, "  players: {}, seed: {}", self.players, self.seed)?;
        writeln!(f, "  after {} actions:", self.log.len())?;
        for line in self.log.iter().rev().take(12).rev() {
            writeln!(f, "    {line}")?;
        }
        Ok(())
    }
}

/// Runs the suite and panics with a reproducible report on the first violation.
pub fn assert_conforms<G: Probe>(config: &Config) -> Report {
    match run::<G>(config) {
        Ok(report) => {
            assert!(report.games > 0, "no game of {} was played", G::meta().id);
            report
        }
        Err(v) => panic!("{}: {v}", G::meta().id),
    }
}

const FOREIGN_POOL: usize = 256;

pub fn run<G: Probe>(config: &Config) -> Result<Report, Violation> {
    let meta = G::meta();
    let mut report = Report::default();
    let mut rng = GameRng::from_seed(config.seed);
    let mut foreign: Vec<G::Action> = Vec::new();
    let mut hidden_seen = false;
    for options in G::option_sets() {
        for players in 0..=meta.max_players + 1 {
            let valid = G::validate(&options, players).is_ok();
            let setup = G::new(&options, players, 1);
            if valid != setup.is_ok() {
                return Err(Violation {
                    what: format!("validate and new disagree (validate ok: {valid})"),
                    options: format!("{options:?}"),
                    players,
                    seed: 1,
                    log: vec![],
                });
            }
            if !valid {
                continue;
            }
            report.setups += 1;
            for _ in 0..config.games {
                let seed = rng.next_u64();
                let mut game = Playthrough::<G> {
                    config,
                    options: &options,
                    players,
                    seed,
                    log: Vec::new(),
                    record: Vec::new(),
                };
                hidden_seen |= game.play(&mut rng, &mut foreign, &mut report)?;
                report.games += 1;
            }
        }
    }
    if config.expect_hidden_information && !hidden_seen {
        return Err(Violation {
            what: "determinize never changed a state, though the game hides information".into(),
            options: String::new(),
            players: 0,
            seed: config.seed,
            log: vec![],
        });
    }
    Ok(report)
}

struct Playthrough<'a, G: Game> {
    config: &'a Config,
    options: &'a G::Options,
    players: usize,
    seed: u64,
    log: Vec<String>,
    record: Vec<LoggedAction<G::Action>>,
}

impl<G: Game> Playthrough<'_, G> {
    fn fail(&self, what: impl Into<String>) -> Violation {
        Violation {
            what: what.into(),
            options: format!("{:?}", self.options),
            players: self.players,
            seed: self.seed,
            log: self.log.clone(),
        }
    }

    /// Plays one random game with all checks; returns whether a determinization
    /// ever differed from the real state.
    fn play(
        &mut self,
        rng: &mut GameRng,
        foreign: &mut Vec<G::Action>,
        report: &mut Report,
    ) -> Result<bool, Violation> {
        let mut state = G::new(self.options, self.players, self.seed)
            .map_err(|e| self.fail(format!("setup failed: {e}")))?;
        if G::new(self.options, self.players, self.seed).ok().as_ref() != Some(&state) {
            return Err(self.fail("two setups from the same seed differ"));
        }
        let mut hidden_seen = false;
        let mut legal: Vec<G::Action> = Vec::new();
        let mut other: Vec<G::Action> = Vec::new();
        let mut steps = 0;
        loop {
            let pending = state.to_move();
            if pending.is_empty() {
                break;
            }
            if state.outcome().is_some() {
                return Err(self.fail("outcome given while seats are still pending"));
            }
            if steps >= self.config.max_steps {
                return Err(self.fail(format!("no end after {steps} actions")));
            }
            for seat in Seat::all(self.players) {
                state.legal_actions(seat, &mut legal);
                if pending.contains(seat) == legal.is_empty() {
                    return Err(self.fail(format!(
                        "{seat}: pending = {}, but {} legal actions",
                        pending.contains(seat),
                        legal.len()
                    )));
                }
            }
            if pending.iter().any(|s| s.index() >= self.players) {
                return Err(self.fail(format!("pending seats {pending:?} beyond the table")));
            }
            let pick = pending
                .iter()
                .nth(rng.index(pending.len()))
                .unwrap_or(Seat(0));
            state.legal_actions(pick, &mut legal);
            let deep = rng.below(self.config.deep_every) == 0;
            if deep {
                hidden_seen |=
                    self.deep_checks(&state, pick, &legal, &mut other, foreign, rng, report)?;
            }
            let Some(action) = rng.pick(&legal).cloned() else {
                return Err(self.fail(format!("{pick} is pending with no legal action")));
            };
            if deep {
                self.check_log_lines(&state, pick, &action, rng)?;
            }
            if foreign.len() < FOREIGN_POOL {
                foreign.push(action.clone());
            } else {
                let slot = rng.index(FOREIGN_POOL);
                foreign[slot] = action.clone();
            }
            self.log
                .push(format!("{pick}: {}", state.describe(&action)));
            if let Err(e) = state.apply(pick, &action) {
                return Err(self.fail(format!(
                    "legal action {action:?} of {pick} was refused: {e}"
                )));
            }
            self.record.push(LoggedAction { seat: pick, action });
            steps += 1;
            report.actions += 1;
        }
        let Some(outcome) = state.outcome() else {
            return Err(self.fail("the game is over but has no outcome"));
        };
        let n = self.players;
        if outcome.scores.len() != n || outcome.ranks.len() != n || outcome.teams.len() != n {
            return Err(self.fail(format!("outcome is not one entry per seat: {outcome:?}")));
        }
        if outcome.ranks.iter().any(|r| *r == 0 || usize::from(*r) > n)
            || !outcome.ranks.contains(&1)
        {
            return Err(self.fail(format!("unsound ranks: {outcome:?}")));
        }
        for seat in Seat::all(n) {
            if state.apply(seat, &self.record[0].action) != Err(ActionError::GameOver) {
                return Err(self.fail("an action after the end was not refused as GameOver"));
            }
        }
        self.check_views_serialize(&state)?;
        let record = MatchRecord {
            format: RECORD_FORMAT,
            rules: G::RULES_VERSION,
            game: G::meta().id.to_string(),
            options: self.options.clone(),
            seats: vec![Default::default(); n],
            seed: self.seed,
            actions: std::mem::take(&mut self.record),
        };
        match crate::record::replay::<G>(&record) {
            Ok(replayed) if replayed == state => {}
            Ok(_) => return Err(self.fail("replaying the log gave a different final state")),
            Err(e) => return Err(self.fail(format!("replay failed: {e}"))),
        }
        Ok(hidden_seen)
    }

    #[allow(clippy::too_many_arguments)]
    fn deep_checks(
        &self,
        state: &G,
        pick: Seat,
        legal: &[G::Action],
        other: &mut Vec<G::Action>,
        foreign: &[G::Action],
        rng: &mut GameRng,
        report: &mut Report,
    ) -> Result<bool, Violation> {
        let pending = state.to_move();
        // Every legal action applies.
        for action in legal {
            let mut probe = state.clone();
            if let Err(e) = probe.apply(pick, action) {
                return Err(self.fail(format!(
                    "legal action {action:?} of {pick} was refused: {e}"
                )));
            }
        }
        // Sampled actions are legal, and only pending seats get one.
        for seat in Seat::all(self.players) {
            state.legal_actions(seat, other);
            for _ in 0..16 {
                let mut scratch = Vec::new();
                match state.sample_action(seat, rng, &mut scratch) {
                    Some(a) if !other.contains(&a) => {
                        return Err(self.fail(format!(
                            "sample_action gave {a:?} to {seat}, not a legal action"
                        )));
                    }
                    None if !other.is_empty() => {
                        return Err(self.fail(format!(
                            "sample_action gave nothing to {seat}, which has legal actions"
                        )));
                    }
                    Some(_) if other.is_empty() => {
                        return Err(self.fail(format!(
                            "sample_action gave an action to {seat}, which has none"
                        )));
                    }
                    _ => {}
                }
            }
        }
        // Seats beyond the table.
        for action in legal.iter().take(1) {
            self.expect_refused(state, Seat(self.players as u8), action, report)?;
            self.expect_refused(state, Seat(200), action, report)?;
        }
        // Other seats' actions, out of turn or simply not theirs.
        for seat in Seat::all(self.players) {
            state.legal_actions(seat, other);
            for action in legal.iter().take(8) {
                if !pending.contains(seat) || !other.contains(action) {
                    self.expect_refused(state, seat, action, report)?;
                }
            }
        }
        // Actions from other states and setups.
        for _ in 0..8 {
            let Some(action) = rng.pick(foreign) else {
                break;
            };
            for seat in pending.iter() {
                state.legal_actions(seat, other);
                if !other.contains(action) {
                    self.expect_refused(state, seat, action, report)?;
                }
            }
        }
        // Views and legal actions are functions of what the seat knows.
        let mut hidden_seen = false;
        let spectator = state.view(Viewer::Spectator);
        for seat in Seat::all(self.players) {
            let view = state.view(Viewer::Seat(seat));
            state.legal_actions(seat, other);
            let real_legal = other.clone();
            for _ in 0..self.config.determinizations {
                let world = state.determinize(seat, rng);
                report.determinizations += 1;
                hidden_seen |= world != *state;
                if world.view(Viewer::Seat(seat)) != view {
                    return Err(self.fail(format!(
                        "{seat}'s view differs in a world determinized for it: it depends on something hidden\n  real:  {view:?}\n  world: {:?}",
                        world.view(Viewer::Seat(seat))
                    )));
                }
                if world.view(Viewer::Spectator) != spectator {
                    return Err(self.fail(format!(
                        "the spectator view differs in a world determinized for {seat}: it shows something hidden from {seat}"
                    )));
                }
                if world.to_move() != pending {
                    return Err(self.fail(format!(
                        "pending seats differ in a world determinized for {seat}"
                    )));
                }
                world.legal_actions(seat, other);
                if *other != real_legal {
                    return Err(self.fail(format!(
                        "{seat}'s legal actions differ in a world determinized for it: they reveal something hidden"
                    )));
                }
                if world.outcome() != state.outcome() {
                    return Err(self.fail(format!(
                        "the outcome differs in a world determinized for {seat}"
                    )));
                }
            }
        }
        Ok(hidden_seen)
    }

    /// The log line each viewer reads of an action depends only on what it may know.
    fn check_log_lines(
        &self,
        state: &G,
        actor: Seat,
        action: &G::Action,
        rng: &mut GameRng,
    ) -> Result<(), Violation> {
        for seat in Seat::all(self.players).filter(|s| *s != actor) {
            let line = state.describe_for(actor, action, Viewer::Seat(seat));
            let world = state.determinize(seat, rng);
            if world.describe_for(actor, action, Viewer::Seat(seat)) != line {
                return Err(self.fail(format!(
                    "the log line {seat} reads of {actor}'s action differs in a world determinized for it: {line:?}"
                )));
            }
            for lang in Lang::ALL {
                let line = state.describe_for_in(actor, action, Viewer::Seat(seat), lang);
                if world.describe_for_in(actor, action, Viewer::Seat(seat), lang) != line {
                    return Err(self.fail(format!(
                        "the {lang:?} log line {seat} reads of {actor}'s action differs in a world determinized for it: {line:?}"
                    )));
                }
            }
        }
        // A translation that hides or shows more than the English line would leak, or
        // lose, what the English line decides.
        let viewers = Seat::all(self.players)
            .map(Viewer::Seat)
            .chain([Viewer::Spectator]);
        for viewer in viewers {
            let en = state.describe_for(actor, action, viewer);
            for lang in Lang::ALL {
                let line = state.describe_for_in(actor, action, viewer, lang);
                if line.is_some() != en.is_some() {
                    return Err(self.fail(format!(
                        "{viewer:?} reads {line:?} in {lang:?} of {actor}'s action but {en:?} in English"
                    )));
                }
            }
        }
        Ok(())
    }

    fn expect_refused(
        &self,
        state: &G,
        seat: Seat,
        action: &G::Action,
        report: &mut Report,
    ) -> Result<(), Violation> {
        let mut probe = state.clone();
        match probe.apply(seat, action) {
            Ok(()) => Err(self.fail(format!(
                "{seat} could play {action:?}, which is not among its legal actions"
            ))),
            Err(_) if probe != *state => {
                Err(self.fail(format!("refusing {action:?} of {seat} changed the state")))
            }
            Err(_) => {
                report.refusals_checked += 1;
                Ok(())
            }
        }
    }

    fn check_views_serialize(&self, state: &G) -> Result<(), Violation> {
        let viewers = Seat::all(self.players)
            .map(Viewer::Seat)
            .chain([Viewer::Spectator]);
        for viewer in viewers {
            serde_json::to_string(&state.view(viewer))
                .map_err(|e| self.fail(format!("view for {viewer:?} does not serialize: {e}")))?;
        }
        Ok(())
    }
}

//! The conformance suite every game runs, for every player count and option set —
//! takuge's version of OpenSpiel's random-simulation test.
//!
//! Random games are played to the end, and along the way the suite checks that:
//! - every pending seat has a legal action, no other seat has any, and every legal
//!   action of the mover applies;
//! - illegal actions — out of turn, by a seat that is not at the table, another
//!   seat's actions, actions from other states and other setups — are refused and
//!   leave the state bit-identical;
//! - a seat's view, the pending seats and the seat's legal actions (with their
//!   [`Game::action_facts`]) are identical in
//!   the real state and in every `determinize` from that seat, so nothing a seat
//!   receives depends on what is hidden from it (and the spectator's view likewise);
//! - `determinize` itself depends only on what the seat knows: from the real state
//!   and from a world the seat cannot tell apart, the same RNG draws the same world,
//!   so no bot's decision can depend on what is hidden from it;
//! - the log line a seat reads of another's action, in every language, is identical
//!   in every `determinize` from that seat, and a translated line is there exactly
//!   when the English one is;
//! - views serialize; the game ends within a bound and has a sound outcome exactly
//!   when it is over;
//! - replaying the action log from the seed reproduces the final state exactly;
//! - (a) the game's `random_playout` plays exactly the games the checked loop
//!   ([`crate::bot::checked_random_playout`]) plays — same steps, same final state,
//!   same RNG position — played whole and cut off, from the real state and from
//!   determinized worlds;
//! - (b) `sample_action` draws uniformly from `legal_actions` (a chi-square test,
//!   deterministic: fixed seeds, a critical value far in the tail);
//! - (c) `apply` accepts exactly the listed actions among near misses — the game's
//!   [`Probe`] hook, numeric mutations of listed actions, actions of other states — and
//!   `is_legal` agrees with the list; `G::apply` behaves as [`apply_checked`];
//! - (e) a step that shows nothing to anyone else and leaves its seat choosing is a
//!   draft step ([`Game::drafting`]) and a draft step shows nothing to anyone else;
//!   a world determinized for a seat keeps that seat's own draft and begins every
//!   other seat's afresh.
//!
//! [`fuzz_actions`] drives the same checks from arbitrary bytes (one `cargo fuzz`
//! target per game).

use crate::bot::checked_random_playout;
use crate::dynamic::facts_value;
use crate::game::{apply_checked, ActionError, Game, Lang};
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
    /// Chi-square uniformity tests of `sample_action` per (option set, player count).
    pub uniformity_checks: usize,
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
            uniformity_checks: 24,
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
    /// (a) fast playouts compared with the checked loop.
    pub playouts_compared: usize,
    /// (b) chi-square tests of the sampler.
    pub uniformity_tests: usize,
    /// (c) near misses whose acceptance was compared with the list.
    pub near_misses_checked: usize,
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
/// Near misses tried per seat at a deep step.
const NEAR_MISSES_PER_SEAT: usize = 24;

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
            let mut uniformity_budget = config.uniformity_checks;
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
                hidden_seen |=
                    game.play(&mut rng, &mut foreign, &mut report, &mut uniformity_budget)?;
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

struct Playthrough<'a, G: Probe> {
    config: &'a Config,
    options: &'a G::Options,
    players: usize,
    seed: u64,
    log: Vec<String>,
    record: Vec<LoggedAction<G::Action>>,
}

impl<G: Probe> Playthrough<'_, G> {
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
        uniformity_budget: &mut usize,
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
            if steps == 0 {
                for cut in [1, 7, 1 + rng.index(40), usize::MAX] {
                    self.check_playout(&state, None, cut, rng, report)?;
                }
            }
            if deep {
                hidden_seen |=
                    self.deep_checks(&state, pick, &legal, &mut other, foreign, rng, report)?;
                self.check_near_misses(&state, foreign, rng, report)?;
                if rng.below(2) == 0 {
                    let cut = [1, 7, 1 + rng.index(40), usize::MAX][rng.index(4)];
                    let from = pending.iter().nth(rng.index(pending.len()));
                    self.check_playout(
                        &state,
                        from.filter(|_| rng.below(2) == 0),
                        cut,
                        rng,
                        report,
                    )?;
                }
                if *uniformity_budget > 0 && rng.below(4) == 0 {
                    for seat in pending.iter() {
                        if self.check_uniform(&state, seat, rng, report)? {
                            *uniformity_budget = uniformity_budget.saturating_sub(1);
                        }
                    }
                }
            }
            let Some(action) = rng.pick(&legal).cloned() else {
                return Err(self.fail(format!("{pick} is pending with no legal action")));
            };
            if deep {
                self.check_log_lines(&state, pick, &action, rng)?;
                self.check_observation_keys(&state, pick, &legal, rng)?;
                self.check_draft_step(&state, pick, &action)?;
            }
            if foreign.len() < FOREIGN_POOL {
                foreign.push(action.clone());
            } else {
                let slot = rng.index(FOREIGN_POOL);
                foreign[slot] = action.clone();
            }
            self.log
                .push(format!("{pick}: {}", state.describe(&action)));
            let before = deep.then(|| state.clone());
            if let Err(e) = state.apply(pick, &action) {
                return Err(self.fail(format!(
                    "legal action {action:?} of {pick} was refused: {e}"
                )));
            }
            if let Some(before) = before {
                self.check_news(&before, &state, rng)?;
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
                // A world depends only on what the seat knows: redrawn from the real
                // state or from another world the seat cannot tell from it, with the
                // same RNG, it is the same world. So a bot (which only ever gets such
                // worlds) decides the same in every state that looks the same to it.
                let s = rng.next_u64();
                if state.determinize(seat, &mut GameRng::from_seed(s))
                    != world.determinize(seat, &mut GameRng::from_seed(s))
                {
                    return Err(self.fail(format!(
                        "{seat}: determinize depends on more than the seat knows (redrawn from the real state and from a world it cannot tell apart, with the same RNG, the worlds differ)"
                    )));
                }
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
                // The facts sent beside them too (Game::action_facts).
                if let Some(a) = real_legal
                    .iter()
                    .find(|a| facts_value(&world, seat, a) != facts_value(state, seat, a))
                {
                    return Err(self.fail(format!(
                        "the facts of {seat}'s legal action {a:?} differ in a world determinized for it: they reveal something hidden"
                    )));
                }
                if world.outcome() != state.outcome() {
                    return Err(self.fail(format!(
                        "the outcome differs in a world determinized for {seat}"
                    )));
                }
                if world.drafting(seat) != state.drafting(seat) {
                    return Err(self.fail(format!(
                        "{seat}'s own part-made choice (Game::drafting) differs in a world determinized for it"
                    )));
                }
                if let Some(o) = Seat::all(self.players).find(|&o| o != seat && world.drafting(o)) {
                    return Err(self.fail(format!(
                        "a world determinized for {seat} keeps {o}'s part-made choice (Game::drafting): its steps so far are hidden from {seat}, so the world must begin that choice afresh"
                    )));
                }
            }
        }
        Ok(hidden_seen)
    }

    /// (e) Draft steps ([`Game::drafting`]): `action` of `pick` leaves `pick` drafting
    /// exactly when it shows nothing to anyone else (the pending seats, every other
    /// viewer's view and log line unchanged) and leaves `pick` still choosing. A draft
    /// step that shows is a leak; a silent step the game does not call a draft is one
    /// too, on a server: it would make a new version everyone sees, and a rival who
    /// counts them learns how big the choice is (the art-heist exhibit of 1 + letters
    /// steps, or none in one).
    fn check_draft_step(&self, state: &G, pick: Seat, action: &G::Action) -> Result<(), Violation> {
        let mut after = state.clone();
        if after.apply(pick, action).is_err() {
            // Reported by the main loop.
            return Ok(());
        }
        let pending = state.to_move();
        let still_choosing = after.to_move() == pending && pending.contains(pick);
        let shown_to = Seat::all(self.players)
            .filter(|&s| s != pick)
            .map(Viewer::Seat)
            .chain(std::iter::once(Viewer::Spectator))
            .find(|&v| {
                after.view(v) != state.view(v)
                    || state.describe_for(pick, action, v).is_some()
                    || after.revealed_in(state, Lang::En).is_some()
            });
        let draft = after.drafting(pick);
        match (draft, still_choosing, shown_to) {
            (true, false, _) => Err(self.fail(format!(
                "{pick}'s step {action:?} changes who is pending, yet leaves {pick} drafting (Game::drafting): a draft step must show nothing to anyone else"
            ))),
            (true, true, Some(v)) => Err(self.fail(format!(
                "{pick}'s draft step {action:?} (Game::drafting) shows to {v:?}: its view or log line changes, so the steps of the choice can be counted"
            ))),
            (false, true, None) => Err(self.fail(format!(
                "{pick}'s step {action:?} shows nothing to anyone else and leaves {pick} choosing, but the game does not call it a draft step (Game::drafting): a server would make a new version of it for everyone, and the number of such steps tells a rival about the choice"
            ))),
            _ => Ok(()),
        }
    }

    /// (a) The game's `random_playout` against the checked loop, from `state` or from a
    /// world determinized for `world_of`, cut off after `cut` actions.
    fn check_playout(
        &self,
        state: &G,
        world_of: Option<Seat>,
        cut: usize,
        rng: &mut GameRng,
        report: &mut Report,
    ) -> Result<(), Violation> {
        let start = match world_of {
            Some(seat) => state.determinize(seat, rng),
            None => state.clone(),
        };
        let cut = cut.min(self.config.max_steps);
        let seed = rng.next_u64();
        let (mut fast, mut checked) = (start.clone(), start);
        let (mut fast_rng, mut checked_rng) = (GameRng::from_seed(seed), GameRng::from_seed(seed));
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let fast_steps = fast.random_playout(&mut fast_rng, &mut a, cut);
        let checked_steps = checked_random_playout(&mut checked, &mut checked_rng, &mut b, cut);
        report.playouts_compared += 1;
        let from = match world_of {
            Some(seat) => format!("a world determinized for {seat}"),
            None => "the real state".into(),
        };
        if fast_steps != checked_steps {
            return Err(self.fail(format!(
                "random_playout from {from} (cut off at {cut}) played {fast_steps} actions, the checked loop {checked_steps}"
            )));
        }
        if fast != checked {
            return Err(self.fail(format!(
                "random_playout from {from} (cut off at {cut}) ended in another state than the checked loop, after {fast_steps} actions"
            )));
        }
        if fast_rng != checked_rng {
            return Err(self.fail(format!(
                "random_playout from {from} (cut off at {cut}) drew from the RNG differently than the checked loop"
            )));
        }
        Ok(())
    }

    /// (b) `sample_action` against a uniform draw from the list: 50 draws per action, a
    /// chi-square test at z = 5.3 (a false alarm about once in ten million tests), and
    /// every action drawn. Returns whether a test ran.
    fn check_uniform(
        &self,
        state: &G,
        seat: Seat,
        rng: &mut GameRng,
        report: &mut Report,
    ) -> Result<bool, Violation> {
        let mut legal = Vec::new();
        state.legal_actions(seat, &mut legal);
        let k = legal.len();
        if !(2..=128).contains(&k) {
            return Ok(false);
        }
        let draws = 50 * k;
        let mut counts = vec![0u32; k];
        let mut sampler = GameRng::from_seed(rng.next_u64());
        let mut scratch = Vec::new();
        for _ in 0..draws {
            let Some(action) = state.sample_action(seat, &mut sampler, &mut scratch) else {
                return Err(self.fail(format!(
                    "sample_action gave nothing to {seat}, which has {k} legal actions"
                )));
            };
            // Duplicates in the list count as one action drawn with their total weight.
            let Some(i) = legal.iter().position(|a| *a == action) else {
                return Err(self.fail(format!(
                    "sample_action gave {action:?} to {seat}, not a legal action"
                )));
            };
            counts[i] += 1;
        }
        let mut weights = vec![0u32; k];
        for a in &legal {
            if let Some(i) = legal.iter().position(|b| b == a) {
                weights[i] += 1;
            }
        }
        let mut chi2 = 0.0;
        let mut cells = 0usize;
        for (count, weight) in counts.iter().zip(&weights) {
            if *weight == 0 {
                continue;
            }
            cells += 1;
            let expected = draws as f64 * f64::from(*weight) / k as f64;
            let d = f64::from(*count) - expected;
            chi2 += d * d / expected;
            if *count == 0 {
                return Err(self.fail(format!(
                    "sample_action never drew one of {seat}'s {k} legal actions in {draws} draws"
                )));
            }
        }
        let critical = chi_square_critical(cells.saturating_sub(1).max(1) as f64, 5.3);
        report.uniformity_tests += 1;
        if chi2 > critical {
            return Err(self.fail(format!(
                "sample_action is not uniform over {seat}'s {k} legal actions: chi-square {chi2:.1} > {critical:.1} over {draws} draws (counts {counts:?})"
            )));
        }
        Ok(true)
    }

    /// (c) Near misses: `apply` accepts exactly the listed ones, refusals leave the
    /// state untouched, `is_legal` agrees with the list, `G::apply` is `apply_checked`.
    fn check_near_misses(
        &self,
        state: &G,
        foreign: &[G::Action],
        rng: &mut GameRng,
        report: &mut Report,
    ) -> Result<(), Violation> {
        let mut candidates = Vec::new();
        let mut legal = Vec::new();
        let mut near = Vec::new();
        for seat in Seat::all(self.players) {
            state.legal_actions(seat, &mut legal);
            state.near_misses(seat, &mut near);
            candidates.clear();
            candidates.extend(near.iter().cloned());
            for action in legal.iter().take(16) {
                mutations(action, &mut candidates);
            }
            for _ in 0..8 {
                if let Some(a) = rng.pick(foreign) {
                    candidates.push(a.clone());
                }
            }
            // A random few at each deep step: over a suite's thousands of steps every
            // kind of near miss is tried, at a cost that stays small for big states.
            let keep = NEAR_MISSES_PER_SEAT.min(candidates.len());
            rng.partial_shuffle(&mut candidates, keep);
            candidates.truncate(keep);
            for action in &candidates {
                check_one(state, seat, action, &legal).map_err(|e| self.fail(e))?;
                report.near_misses_checked += 1;
            }
        }
        Ok(())
    }

    /// A seat's [`Game::observation_key`] of another's move tells apart no more than
    /// its log line does: two moves it reads the same line of (in the real state and in
    /// a world determinized for it) have the same key. The searching bots key their
    /// trees by it, so this keeps them from acting on what the seat cannot see.
    fn check_observation_keys(
        &self,
        state: &G,
        actor: Seat,
        legal: &[G::Action],
        rng: &mut GameRng,
    ) -> Result<(), Violation> {
        let mut theirs = Vec::new();
        for seat in Seat::all(self.players).filter(|s| *s != actor) {
            let world = state.determinize(seat, rng);
            world.legal_actions(actor, &mut theirs);
            let read = |g: &G, a: &G::Action| {
                (
                    g.describe_for(actor, a, Viewer::Seat(seat)),
                    g.observation_key(actor, a, seat),
                )
            };
            let mine: Vec<_> = legal.iter().take(24).map(|a| read(state, a)).collect();
            let other: Vec<_> = theirs.iter().take(24).map(|a| read(&world, a)).collect();
            for (line, key) in &mine {
                for (other_line, other_key) in mine.iter().chain(&other) {
                    if line == other_line && key != other_key {
                        return Err(self.fail(format!(
                            "{seat} reads {line:?} of two moves of {actor}'s but observes them with different keys"
                        )));
                    }
                }
            }
        }
        Ok(())
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

    /// What an action revealed ([`Game::revealed_in`]) is the same in every world a
    /// seat believes in, before and after the action, and in every language or none.
    fn check_news(&self, before: &G, after: &G, rng: &mut GameRng) -> Result<(), Violation> {
        for lang in Lang::ALL {
            let line = after.revealed_in(before, lang);
            if line.is_some() != after.revealed_in(before, Lang::En).is_some() {
                return Err(self.fail(format!(
                    "an action revealed {line:?} in {lang:?} but not in English, or the other way"
                )));
            }
            for seat in Seat::all(self.players) {
                let (was, is) = (before.determinize(seat, rng), after.determinize(seat, rng));
                if is.revealed_in(&was, lang) != line {
                    return Err(self.fail(format!(
                        "what an action revealed differs in worlds determinized for {seat}: {line:?}"
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

/// The chi-square value a statistic with `df` degrees of freedom exceeds with the
/// probability of a standard normal exceeding `z` (Wilson–Hilferty).
fn chi_square_critical(df: f64, z: f64) -> f64 {
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + z * a.sqrt()).powi(3)
}

/// Actions that differ from `action` in one number (±1, 0, a large value), read back
/// through the action's JSON: near misses for every game without knowing its types.
fn mutations<A: serde::Serialize + serde::de::DeserializeOwned>(action: &A, out: &mut Vec<A>) {
    let Ok(value) = serde_json::to_value(action) else {
        return;
    };
    let mut variants = Vec::new();
    mutate(&value, &mut Vec::new(), &value, &mut variants);
    out.extend(
        variants
            .into_iter()
            .filter_map(|v| serde_json::from_value::<A>(v).ok()),
    );
}

fn mutate(
    root: &serde_json::Value,
    path: &mut Vec<PathStep>,
    here: &serde_json::Value,
    out: &mut Vec<serde_json::Value>,
) {
    use serde_json::Value;
    match here {
        Value::Number(n) => {
            if let Some(x) = n.as_u64() {
                for y in [x.wrapping_sub(1), x + 1, 0, 255, 1000] {
                    if y != x {
                        out.push(replace_at(root, path, Value::from(y)));
                    }
                }
            } else if let Some(x) = n.as_i64() {
                for y in [x - 1, x + 1, 0] {
                    out.push(replace_at(root, path, Value::from(y)));
                }
            }
        }
        Value::Bool(b) => out.push(replace_at(root, path, Value::Bool(!b))),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(PathStep::Index(i));
                mutate(root, path, item, out);
                path.pop();
            }
        }
        Value::Object(fields) => {
            for (k, v) in fields {
                path.push(PathStep::Key(k.clone()));
                mutate(root, path, v, out);
                path.pop();
            }
        }
        _ => {}
    }
}

#[derive(Clone)]
enum PathStep {
    Index(usize),
    Key(String),
}

fn replace_at(
    root: &serde_json::Value,
    path: &[PathStep],
    with: serde_json::Value,
) -> serde_json::Value {
    let mut copy = root.clone();
    let mut at = &mut copy;
    for step in path {
        let next = match step {
            PathStep::Index(i) => at.get_mut(*i),
            PathStep::Key(k) => at.get_mut(k.as_str()),
        };
        match next {
            Some(n) => at = n,
            None => return copy,
        }
    }
    *at = with;
    copy
}

/// (c) for one candidate: accepted exactly when listed, `is_legal` the same, a refusal
/// leaves the state bit-identical, and `G::apply` behaves as `apply_checked`.
fn check_one<G: Game>(
    state: &G,
    seat: Seat,
    action: &G::Action,
    legal: &[G::Action],
) -> Result<(), String> {
    let listed = legal.contains(action);
    if state.is_legal(seat, action) != listed {
        return Err(format!(
            "is_legal({seat}, {action:?}) = {}, but the action is {}listed",
            !listed,
            if listed { "" } else { "not " }
        ));
    }
    let mut applied = state.clone();
    let result = applied.apply(seat, action);
    match (&result, listed) {
        (Ok(()), false) => {
            return Err(format!(
                "{seat} could play {action:?}, which is not among its legal actions"
            ))
        }
        (Err(e), true) => {
            return Err(format!(
                "legal action {action:?} of {seat} was refused: {e}"
            ))
        }
        (Err(_), false) if applied != *state => {
            return Err(format!("refusing {action:?} of {seat} changed the state"))
        }
        _ => {}
    }
    let mut checked = state.clone();
    let checked_result = apply_checked(&mut checked, seat, action);
    if checked_result != result || checked != applied {
        return Err(format!(
            "{}'s apply does not behave as the engine's apply_checked for {action:?} of {seat}",
            G::meta().id
        ));
    }
    Ok(())
}

/// Plays a game chosen by `bytes` with the checks (a) and (c) at every step: the
/// first bytes pick the option set, the player count and the seed; then each byte
/// pair picks a pending seat's action — a listed one, or a near miss (the game's
/// [`Probe`], or a numeric mutation of a listed action) for any seat. For a
/// `cargo fuzz` target: an `Err` is a disagreement between the game's copies of its
/// rules, a panic a crash.
pub fn fuzz_actions<G: Probe>(bytes: &[u8]) -> Result<(), String> {
    let mut input = bytes.iter().copied();
    let mut next = move || input.next();
    let sets = G::option_sets();
    let Some(options) = sets.get(usize::from(next().unwrap_or(0)) % sets.len().max(1)) else {
        return Ok(());
    };
    let meta = G::meta();
    let span = meta.max_players - meta.min_players + 1;
    let players = meta.min_players + usize::from(next().unwrap_or(0)) % span;
    let mut seed = 0u64;
    for _ in 0..8 {
        seed = seed << 8 | u64::from(next().unwrap_or(0));
    }
    let Ok(mut state) = G::new(options, players, seed) else {
        return Ok(());
    };
    let (mut legal, mut near, mut candidates) = (Vec::new(), Vec::new(), Vec::new());
    let mut steps = 0;
    while let (Some(a), Some(b)) = (next(), next()) {
        if state.is_over() || steps > 20_000 {
            break;
        }
        let seat = Seat(a % (players as u8 + 1));
        state.legal_actions(seat, &mut legal);
        candidates.clear();
        if b & 0x80 == 0 && !legal.is_empty() {
            if let Some(action) = legal.get(usize::from(b) % legal.len()) {
                candidates.push(action.clone());
            }
        } else {
            state.near_misses(seat, &mut near);
            candidates.extend(near.iter().cloned());
            if let Some(action) = legal.first() {
                mutations(action, &mut candidates);
            }
            let last = candidates.len().saturating_sub(1);
            let pick = usize::from(b & 0x7f) % candidates.len().max(1);
            candidates.swap(0, pick.min(last));
            candidates.truncate(1);
        }
        let Some(action) = candidates.first().cloned() else {
            continue;
        };
        check_one(&state, seat, &action, &legal)?;
        if b & 0x40 != 0 {
            let seed = u64::from(a) << 8 | u64::from(b);
            let cut = usize::from(b & 0x0f) + 1;
            let (mut fast, mut checked) = (state.clone(), state.clone());
            let (mut r1, mut r2) = (GameRng::from_seed(seed), GameRng::from_seed(seed));
            let (mut x, mut y) = (Vec::new(), Vec::new());
            let n1 = fast.random_playout(&mut r1, &mut x, cut);
            let n2 = checked_random_playout(&mut checked, &mut r2, &mut y, cut);
            if n1 != n2 || fast != checked || r1 != r2 {
                return Err("random_playout and the checked loop played different games".into());
            }
        }
        if state.apply(seat, &action).is_ok() {
            steps += 1;
        }
    }
    Ok(())
}

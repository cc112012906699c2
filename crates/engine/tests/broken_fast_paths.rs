//! A test of the conformance suite's own checks (a)–(c): a tiny game whose fast paths
//! (`random_playout`, `sample_action`, `is_legal`, `apply`) are deliberately broken one
//! at a time must each be caught, with a message naming what broke; the correct game
//! passes. Without this, a check that can never fail would look like a passing one.
//!
//! The game, Take: 2–3 players in turn take a number from a shared pool 1..=9; when the
//! pool is empty the highest sum wins.

use serde::{Deserialize, Serialize};
use takuge_engine::conformance::{self, Config, Probe};
use takuge_engine::{bits, Game, GameMeta, GameRng, Outcome, Seat, SeatSet, SetupError, Viewer};

/// Which fast path is broken.
const CORRECT: u8 = 0;
/// (a) The playout plays the lowest number instead of drawing.
const PLAYOUT_SKIPS_THE_DRAW: u8 = 1;
/// (b) The sampler draws the last number twice as often.
const SAMPLER_FAVOURS_THE_LAST: u8 = 2;
/// (c) The fast `is_legal` forgets that a number taken is gone.
const IS_LEGAL_FORGETS_TAKEN: u8 = 3;
/// (c) `apply` overridden without the mover check.
const APPLY_SKIPS_THE_MOVER_CHECK: u8 = 4;
/// The searching bots' observation key tells apart the others' moves, which the log
/// does not show them (by default only the mover reads its line).
const OBSERVATION_KEY_SHOWS_THE_MOVE: u8 = 5;

#[derive(Clone, Debug, PartialEq, Eq)]
struct Take<const BUG: u8> {
    players: usize,
    turn: Seat,
    /// Bits 1..=9: the numbers still in the pool.
    pool: u16,
    sums: [i64; 3],
    options: Options,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Options {}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
enum Action {
    Take(u8),
}

static META: GameMeta = GameMeta {
    id: "take",
    name_en: "Take",
    name_ja: "テイク",
    min_players: 2,
    max_players: 3,
    minutes: (1, 1),
    min_age: 3,
    year: 2026,
    teams: &[],
};

impl<const BUG: u8> Game for Take<BUG> {
    type Options = Options;
    type Action = Action;
    type View = (u16, [i64; 3]);
    type Reject = String;

    fn meta() -> &'static GameMeta {
        &META
    }

    fn validate(_: &Options, players: usize) -> Result<(), SetupError> {
        META.check_players(players)
    }

    fn new(options: &Options, players: usize, _seed: u64) -> Result<Self, SetupError> {
        Self::validate(options, players)?;
        Ok(Take {
            players,
            turn: Seat(0),
            pool: 0b11_1111_1110,
            sums: [0; 3],
            options: options.clone(),
        })
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn players(&self) -> usize {
        self.players
    }

    fn to_move(&self) -> SeatSet {
        if self.pool == 0 {
            SeatSet::EMPTY
        } else {
            SeatSet::single(self.turn)
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        if self.to_move().contains(seat) {
            out.extend(bits::iter(u64::from(self.pool)).map(Action::Take));
        }
    }

    fn is_legal(&self, seat: Seat, action: &Action) -> bool {
        let Action::Take(n) = *action;
        let pool = if BUG == IS_LEGAL_FORGETS_TAKEN {
            0b11_1111_1110
        } else {
            self.pool
        };
        self.to_move().contains(seat) && n < 16 && pool & (1 << n) != 0
    }

    fn apply_legal(&mut self, seat: Seat, action: &Action) {
        let Action::Take(n) = *action;
        self.pool &= !(1u16 << (n & 15));
        if let Some(sum) = self.sums.get_mut(seat.index()) {
            *sum += i64::from(n);
        }
        self.turn = self.turn.next(self.players);
    }

    fn refusal(&self, _seat: Seat, action: &Action) -> String {
        let Action::Take(n) = *action;
        format!("{n} is not in the pool")
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
    ) -> Result<(), takuge_engine::ActionError<String>> {
        if BUG == APPLY_SKIPS_THE_MOVER_CHECK && !self.is_over() {
            self.apply_legal(seat, action);
            return Ok(());
        }
        takuge_engine::game::apply_checked(self, seat, action)
    }

    fn sample_action(&self, seat: Seat, rng: &mut GameRng, _: &mut Vec<Action>) -> Option<Action> {
        if !self.to_move().contains(seat) {
            return None;
        }
        let mask = u64::from(self.pool);
        if BUG == SAMPLER_FAVOURS_THE_LAST {
            let len = bits::count(mask);
            let k = rng.below(len + 1).min(len - 1);
            return bits::nth(mask, k).map(Action::Take);
        }
        bits::pick(mask, rng).map(Action::Take)
    }

    fn random_playout(
        &mut self,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
        max_steps: usize,
    ) -> usize {
        let mut steps = 0;
        while steps < max_steps && !self.is_over() {
            let seat = self.turn;
            let action = if BUG == PLAYOUT_SKIPS_THE_DRAW {
                Action::Take(self.pool.trailing_zeros() as u8)
            } else {
                match self.sample_action(seat, rng, buf) {
                    Some(a) => a,
                    None => break,
                }
            };
            self.apply_legal(seat, &action);
            steps += 1;
        }
        steps
    }

    fn view(&self, _viewer: Viewer) -> (u16, [i64; 3]) {
        (self.pool, self.sums)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| {
            Outcome::from_scores(self.sums[..self.players].to_vec(), vec![None; self.players])
        })
    }

    fn determinize(&self, _seat: Seat, _rng: &mut GameRng) -> Self {
        self.clone()
    }

    fn observation_key(&self, actor: Seat, action: &Action, viewer: Seat) -> u64 {
        if BUG == OBSERVATION_KEY_SHOWS_THE_MOVE {
            takuge_engine::action_key(action)
        } else {
            match self.describe_for(actor, action, Viewer::Seat(viewer)) {
                Some(line) => takuge_engine::action_key(&line),
                None => 0,
            }
        }
    }
}

impl<const BUG: u8> Probe for Take<BUG> {
    fn near_misses(&self, _seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        out.extend((0..=12).map(Action::Take));
    }
}

fn config() -> Config {
    Config {
        games: 40,
        expect_hidden_information: false,
        ..Config::default()
    }
}

fn violation<const BUG: u8>() -> String {
    match conformance::run::<Take<BUG>>(&config()) {
        Ok(report) => panic!("the broken fast path {BUG} was not caught: {report:?}"),
        Err(v) => v.what,
    }
}

#[test]
fn the_correct_game_passes_every_check() {
    let report = conformance::assert_conforms::<Take<CORRECT>>(&config());
    assert!(report.playouts_compared > 100, "{report:?}");
    assert!(report.uniformity_tests > 10, "{report:?}");
    assert!(report.near_misses_checked > 1_000, "{report:?}");
}

#[test]
fn a_playout_that_plays_other_games_than_the_checked_loop_is_caught() {
    let what = violation::<PLAYOUT_SKIPS_THE_DRAW>();
    assert!(what.contains("random_playout"), "{what}");
}

#[test]
fn a_sampler_that_is_not_uniform_is_caught() {
    let what = violation::<SAMPLER_FAVOURS_THE_LAST>();
    assert!(what.contains("not uniform"), "{what}");
}

#[test]
fn a_fast_legality_check_that_disagrees_with_the_list_is_caught() {
    let what = violation::<IS_LEGAL_FORGETS_TAKEN>();
    assert!(
        what.contains("is_legal") || what.contains("could play"),
        "{what}"
    );
}

#[test]
fn an_apply_that_is_not_the_engines_is_caught() {
    let what = violation::<APPLY_SKIPS_THE_MOVER_CHECK>();
    assert!(
        what.contains("could play") || what.contains("apply_checked"),
        "{what}"
    );
}

#[test]
fn an_observation_key_finer_than_the_log_line_is_caught() {
    let what = violation::<OBSERVATION_KEY_SHOWS_THE_MOVE>();
    assert!(what.contains("different keys"), "{what}");
}

#[test]
fn the_fuzz_driver_finds_the_same_disagreements() {
    let bytes: Vec<u8> = (0..400u32).map(|i| (i * 37 % 251) as u8).collect();
    assert_eq!(conformance::fuzz_actions::<Take<CORRECT>>(&bytes), Ok(()));
    let found = (0..50u64).any(|s| {
        let mut rng = GameRng::from_seed(s);
        let bytes: Vec<u8> = (0..400).map(|_| rng.below(256) as u8).collect();
        conformance::fuzz_actions::<Take<IS_LEGAL_FORGETS_TAKEN>>(&bytes).is_err()
    });
    assert!(found, "fuzzing never found the broken is_legal");
}

//! Sealed Bid: a tiny game of simultaneous secret choices, to check that the engine
//! (and its conformance suite) models them.
//!
//! 2–4 players each hold the cards 1..=5. Every round all players commit one card at
//! once and in secret: every seat that has not committed is pending, and views show
//! who has committed, never what. When the last card is in, all are revealed; the
//! highest card nobody else played scores its value for its owner. With the `teams`
//! option (4 players) seats 0 and 2 play against seats 1 and 3 and score together.
//!
//! `Sealed<true>` is the same game with a deliberately leaky view (other seats'
//! committed cards are shown): the suite must catch it.

mod common;

use common::{assert_refused, legal, play, quick_config};
use serde::{Deserialize, Serialize};
use takuge_engine::conformance::{self, assert_conforms};
use takuge_engine::{
    Game, GameMeta, GameRng, Outcome, Seat, SeatSet, SetupError, TeamName, Viewer,
};

const MAX_PLAYERS: usize = 4;
const MAX_ROUNDS: u8 = 5;
/// Every hand at the start: the cards 1..=5, as bits 1..=5.
const FULL_HAND: u8 = 0b11_1110;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
struct Options {
    rounds: u8,
    teams: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            rounds: 3,
            teams: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Action {
    Commit(u8),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
enum Reject {
    NotInHand(u8),
}

impl std::fmt::Display for Reject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reject::NotInHand(c) => write!(f, "you do not hold a {c}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
struct View {
    round: u8,
    rounds: u8,
    scores: Vec<i64>,
    /// The viewer's cards not yet revealed (including a committed one).
    hand: Option<Vec<u8>>,
    /// The viewer's own secret card this round.
    committed_card: Option<u8>,
    /// Who has committed this round — public, since who is pending is public.
    committed: Vec<bool>,
    /// Every revealed round, card per seat.
    revealed: Vec<Vec<u8>>,
    /// Only in the leaky variant: everybody's committed card. A bug on purpose.
    leaked: Option<Vec<Option<u8>>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Sealed<const LEAK: bool> {
    options: Options,
    players: usize,
    hands: [u8; MAX_PLAYERS],
    committed: [Option<u8>; MAX_PLAYERS],
    round: u8,
    revealed: [[u8; MAX_PLAYERS]; MAX_ROUNDS as usize],
    scores: [i64; MAX_PLAYERS],
}

type SealedBid = Sealed<false>;
type LeakySealedBid = Sealed<true>;

static TEAMS: [TeamName; 2] = [
    TeamName {
        en: "Even seats",
        ja: "偶数席",
    },
    TeamName {
        en: "Odd seats",
        ja: "奇数席",
    },
];

static META: GameMeta = GameMeta {
    id: "sealed-bid",
    name_en: "Sealed Bid",
    name_ja: "入札",
    min_players: 2,
    max_players: MAX_PLAYERS,
    minutes: (5, 5),
    min_age: 6,
    year: 2026,
    teams: &TEAMS,
};

static LEAKY_META: GameMeta = GameMeta {
    id: "sealed-bid-leaky",
    ..META
};

fn cards(hand: u8) -> impl Iterator<Item = u8> {
    (1..=5u8).filter(move |c| hand & (1 << c) != 0)
}

impl<const LEAK: bool> Sealed<LEAK> {
    fn seat_ok(&self, seat: Seat) -> bool {
        seat.index() < self.players
    }

    fn over(&self) -> bool {
        self.round >= self.options.rounds
    }

    /// All cards are in: reveal them, score the highest unique card, start a round.
    fn reveal(&mut self) {
        let mut shown = [0u8; MAX_PLAYERS];
        for (i, slot) in shown.iter_mut().enumerate().take(self.players) {
            let card = self.committed[i].take().unwrap_or(0);
            *slot = card;
            self.hands[i] &= !(1 << card);
        }
        let unique_best = (0..self.players)
            .filter(|&i| {
                shown[..self.players]
                    .iter()
                    .filter(|&&c| c == shown[i])
                    .count()
                    == 1
            })
            .max_by_key(|&i| shown[i]);
        if let Some(i) = unique_best {
            self.scores[i] += i64::from(shown[i]);
        }
        if let Some(row) = self.revealed.get_mut(usize::from(self.round)) {
            *row = shown;
        }
        self.round += 1;
    }
}

impl<const LEAK: bool> Game for Sealed<LEAK> {
    type Options = Options;
    type Action = Action;
    type View = View;
    type Reject = Reject;

    fn meta() -> &'static GameMeta {
        if LEAK {
            &LEAKY_META
        } else {
            &META
        }
    }

    fn validate(options: &Options, players: usize) -> Result<(), SetupError> {
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(SetupError::PlayerCount {
                game: Self::meta().id,
                min: 2,
                max: MAX_PLAYERS,
                got: players,
            });
        }
        if !(1..=MAX_ROUNDS).contains(&options.rounds) {
            return Err(SetupError::InvalidOptions {
                reason: format!("rounds must be 1 to {MAX_ROUNDS}"),
            });
        }
        if options.teams && players != 4 {
            return Err(SetupError::InvalidOptions {
                reason: "teams need exactly 4 players".into(),
            });
        }
        Ok(())
    }

    fn new(options: &Options, players: usize, _seed: u64) -> Result<Self, SetupError> {
        Self::validate(options, players)?;
        Ok(Sealed {
            options: options.clone(),
            players,
            hands: [FULL_HAND; MAX_PLAYERS],
            committed: [None; MAX_PLAYERS],
            round: 0,
            revealed: [[0; MAX_PLAYERS]; MAX_ROUNDS as usize],
            scores: [0; MAX_PLAYERS],
        })
    }

    fn option_sets() -> Vec<Options> {
        vec![
            Options::default(),
            Options {
                rounds: 5,
                teams: true,
            },
        ]
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn players(&self) -> usize {
        self.players
    }

    fn to_move(&self) -> SeatSet {
        if self.over() {
            return SeatSet::EMPTY;
        }
        Seat::all(self.players)
            .filter(|s| self.committed[s.index()].is_none())
            .collect()
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        if !self.to_move().contains(seat) {
            return;
        }
        if let Some(&hand) = self.hands.get(seat.index()) {
            out.extend(cards(hand).map(Action::Commit));
        }
    }

    fn apply_legal(&mut self, seat: Seat, action: &Action) {
        let Action::Commit(card) = *action;
        if let Some(slot) = self.committed.get_mut(seat.index()) {
            *slot = Some(card);
        }
        if self.committed[..self.players].iter().all(Option::is_some) {
            self.reveal();
        }
    }

    fn refusal(&self, _seat: Seat, action: &Action) -> Reject {
        let Action::Commit(card) = *action;
        Reject::NotInHand(card)
    }

    fn view(&self, viewer: Viewer) -> View {
        let own = viewer.seat().filter(|s| self.seat_ok(*s));
        View {
            round: self.round,
            rounds: self.options.rounds,
            scores: self.scores[..self.players].to_vec(),
            hand: own.map(|s| cards(self.hands[s.index()]).collect()),
            committed_card: own.and_then(|s| self.committed[s.index()]),
            committed: self.committed[..self.players]
                .iter()
                .map(Option::is_some)
                .collect(),
            revealed: self.revealed[..usize::from(self.round.min(MAX_ROUNDS))]
                .iter()
                .map(|r| r[..self.players].to_vec())
                .collect(),
            leaked: LEAK.then(|| self.committed[..self.players].to_vec()),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.over() {
            return None;
        }
        let n = self.players;
        if self.options.teams {
            let team_total =
                |t: usize| -> i64 { (0..n).filter(|i| i % 2 == t).map(|i| self.scores[i]).sum() };
            let scores = (0..n).map(|i| team_total(i % 2)).collect();
            let teams = (0..n).map(|i| Some((i % 2) as u8)).collect();
            Some(Outcome::from_scores(scores, teams))
        } else {
            Some(Outcome::from_scores(
                self.scores[..n].to_vec(),
                vec![None; n],
            ))
        }
    }

    /// Redraws every other seat's secret card from the cards it still holds: the
    /// hands are public (everybody starts with 1..=5 and every played card is
    /// revealed), the commitments are not.
    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut world = self.clone();
        for other in Seat::all(self.players).filter(|s| *s != seat) {
            let i = other.index();
            if world.committed[i].is_some() {
                let held: Vec<u8> = cards(world.hands[i]).collect();
                world.committed[i] = rng.pick(&held).copied();
            }
        }
        world
    }

    fn describe(&self, action: &Action) -> String {
        let Action::Commit(card) = action;
        format!("commit the {card}")
    }
}

#[test]
fn sealed_bid_conforms_for_every_player_count() {
    let report = assert_conforms::<SealedBid>(&quick_config(500));
    // 2, 3 and 4 players without teams, 4 players with.
    assert_eq!(report.setups, 4);
    assert!(report.determinizations > 0);
}

#[test]
fn the_suite_catches_a_view_that_shows_committed_cards() {
    let violation = match conformance::run::<LeakySealedBid>(&quick_config(50)) {
        Ok(report) => panic!("the leaky view passed the suite: {report:?}"),
        Err(v) => v,
    };
    assert!(
        violation.what.contains("view differs"),
        "caught, but not as a leak: {violation}"
    );
}

#[test]
fn every_uncommitted_seat_is_pending_and_commitments_stay_secret() {
    let mut game = SealedBid::new(&Options::default(), 3, 0).unwrap();
    assert_eq!(game.to_move(), SeatSet::first(3));
    play(&mut game, Seat(1), Action::Commit(4));
    assert_eq!(game.to_move(), [Seat(0), Seat(2)].into_iter().collect());
    // A committed seat has nothing more to decide this round.
    assert!(legal(&game, Seat(1)).is_empty());
    assert_refused(&game, Seat(1), Action::Commit(5));
    let seen_by_0 = game.view(Viewer::Seat(Seat(0)));
    assert_eq!(seen_by_0.committed, vec![false, true, false]);
    assert_eq!(seen_by_0.committed_card, None);
    assert_eq!(seen_by_0.leaked, None);
    let seen_by_1 = game.view(Viewer::Seat(Seat(1)));
    assert_eq!(seen_by_1.committed_card, Some(4));
    let spectator = game.view(Viewer::Spectator);
    assert_eq!(spectator.hand, None);
    assert_eq!(spectator.committed_card, None);
}

#[test]
fn the_highest_unique_card_scores_and_ties_cancel() {
    let mut game = SealedBid::new(&Options::default(), 3, 0).unwrap();
    play(&mut game, Seat(0), Action::Commit(5));
    play(&mut game, Seat(1), Action::Commit(5));
    play(&mut game, Seat(2), Action::Commit(2));
    // The two fives cancel; the 2 is the highest card nobody else played.
    assert_eq!(game.scores[..3], [0, 0, 2]);
    assert_eq!(game.view(Viewer::Spectator).revealed, vec![vec![5, 5, 2]]);
    assert_eq!(game.to_move(), SeatSet::first(3));
    // A revealed card is spent.
    assert_refused(&game, Seat(0), Action::Commit(5));
    assert_eq!(legal(&game, Seat(0)).len(), 4);
}

#[test]
fn teams_score_together() {
    let options = Options {
        rounds: 1,
        teams: true,
    };
    assert!(SealedBid::new(&options, 3, 0).is_err());
    let mut game = SealedBid::new(&options, 4, 0).unwrap();
    for (seat, card) in [(0, 1), (1, 2), (2, 3), (3, 3)] {
        play(&mut game, Seat(seat), Action::Commit(card));
    }
    let outcome = game.outcome().unwrap();
    // The 2 of seat 1 is the highest unique card: the odd team wins.
    assert_eq!(outcome.scores, vec![0, 2, 0, 2]);
    assert_eq!(outcome.ranks, vec![3, 1, 3, 1]);
    assert_eq!(outcome.teams, vec![Some(0), Some(1), Some(0), Some(1)]);
    assert!(game.is_over());
}

impl<const LEAK: bool> takuge_engine::conformance::Probe for Sealed<LEAK> {
    /// The whole action space, and cards that do not exist.
    fn near_misses(&self, _seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        out.extend((0..=7).map(Action::Commit));
    }
}

/// "It cannot peek": the search only ever sees worlds determinized from its seat, so
/// two real states that look the same from that seat get the same move (same seed,
/// same budget in iterations), whatever the others hold or committed.
#[test]
fn ismcts_decides_the_same_in_every_state_its_seat_cannot_tell_apart() {
    use takuge_engine::ismcts::{search, Budget, Config};
    use takuge_engine::Determinized;
    let config = Config {
        budget: Budget::Iterations(200),
        trees: 2,
        ..Config::default()
    };
    let mut checked = 0;
    for seed in 0..30u64 {
        let mut state = match SealedBid::new(&Options::default(), 3, seed) {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        };
        // Seat 0 commits first, so seat 1 decides with a hidden card on the table.
        let first = legal(&state, Seat(0))[(seed % 3) as usize].clone();
        play(&mut state, Seat(0), first);
        let me = Seat(1);
        let mut rng = GameRng::from_seed(seed);
        let other = state.determinize(me, &mut rng);
        assert_eq!(other.view(Viewer::Seat(me)), state.view(Viewer::Seat(me)));
        let decide = |real: &SealedBid| {
            let world = Determinized::sample(real, me, &mut GameRng::from_seed(7));
            search(&world, &config, 99).map(|(a, _)| a)
        };
        assert_eq!(decide(&state), decide(&other), "seed {seed}");
        if other != state {
            checked += 1;
        }
    }
    assert!(checked > 10, "the worlds never differed: {checked}");
}

/// The same for a searcher told every move (for tree reuse): the moves it is told of
/// are only what it saw (the others' commitments as "has acted"), so two real states
/// it cannot tell apart still get the same move. (Here the kept tree is dropped: in
/// the tree the searcher decides first at a simultaneous step, and seat 0 committed
/// before it; `interrupt.rs` checks a kept tree is used where the order fits.)
#[test]
fn ismcts_told_every_move_decides_the_same_in_every_state_its_seat_cannot_tell_apart() {
    use takuge_engine::bot::bot_move;
    use takuge_engine::ismcts::{Budget, Config, Seen};
    use takuge_engine::{Bot, IsmctsBot};
    let me = Seat(1);
    // Round 1 played with the searcher in seat 1, told every move; in round 2 seat 0
    // commits first, then the searcher decides in the real state or in `alternative`.
    let decide = |seed: u64, alternative: bool| -> (Action, bool, u32) {
        let mut bot = IsmctsBot::<SealedBid>::new(
            "ismcts",
            Config {
                budget: Budget::Iterations(200),
                trees: 2,
                ..Config::default()
            },
        );
        let mut state = SealedBid::new(&Options::default(), 3, seed).unwrap();
        let mut rng = GameRng::from_seed(seed);
        let mut moves = vec![
            (Seat(0), legal(&state, Seat(0))[(seed % 5) as usize].clone()),
            (me, bot_move(&mut bot, &state, me, &mut rng).unwrap()),
            (Seat(2), legal(&state, Seat(2))[(seed % 3) as usize].clone()),
        ];
        for (actor, action) in moves.drain(..) {
            bot.seen(&Seen::of(&state, me, actor, &action));
            play(&mut state, actor, action);
        }
        let first = legal(&state, Seat(0))[(seed % 2) as usize].clone();
        bot.seen(&Seen::of(&state, me, Seat(0), &first));
        play(&mut state, Seat(0), first);
        let real = if alternative {
            state.determinize(me, &mut GameRng::from_seed(seed ^ 0xa17))
        } else {
            state.clone()
        };
        assert_eq!(real.view(Viewer::Seat(me)), state.view(Viewer::Seat(me)));
        let choice = bot_move(&mut bot, &real, me, &mut GameRng::from_seed(7)).unwrap();
        (choice, real != state, bot.root_visits())
    };
    let mut differed = 0;
    for seed in 0..20u64 {
        let (a, _, visits) = decide(seed, false);
        let (b, different, _) = decide(seed, true);
        assert_eq!(a, b, "seed {seed}");
        assert_eq!(visits, 400, "a tree kept across an order it does not fit");
        differed += usize::from(different);
    }
    assert!(differed > 5, "the worlds never differed: {differed}");
}

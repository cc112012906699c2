//! A tiny hidden-information game for the CLI's own unit tests. It is not in the
//! shipped catalog: tests build a registry of their own with it.
//!
//! 2–3 players are dealt two cards each from a shuffled 1..=9; in two rounds every
//! seat in turn plays a card face up, and the highest card of a round scores 1.

use serde::{Deserialize, Serialize};
use takuge_engine::{
    BotFactory, Game, GameMeta, GameRng, MonteCarloBot, Outcome, RandomBot, Registry, Seat,
    SeatSet, SetupError, TeamName, Viewer,
};
use takuge_games::CatalogGame;

pub const ID: &str = "high-card";
const MAX: usize = 3;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Seats 0 and 2 against seat 1.
    #[serde(default)]
    pub teams: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Play(u8),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HighCard {
    options: Options,
    players: usize,
    deck: Vec<u8>,
    hands: [Vec<u8>; MAX],
    table: [Option<u8>; MAX],
    turn: Seat,
    round: u8,
    scores: [i64; MAX],
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    round: u8,
    turn: Seat,
    hand: Option<Vec<u8>>,
    hand_sizes: Vec<usize>,
    table: Vec<Option<u8>>,
    scores: Vec<i64>,
}

static TEAMS: [TeamName; 2] = [
    TeamName {
        en: "Sun",
        ja: "日",
    },
    TeamName {
        en: "Moon",
        ja: "月",
    },
];

static META: GameMeta = GameMeta {
    id: ID,
    name_en: "High Card",
    name_ja: "ハイカード",
    min_players: 2,
    max_players: MAX,
    minutes: (1, 2),
    min_age: 6,
    year: 2026,
    teams: &TEAMS,
};

impl Game for HighCard {
    type Options = Options;
    type Action = Action;
    type View = View;
    type Reject = String;

    fn meta() -> &'static GameMeta {
        &META
    }

    fn validate(options: &Options, players: usize) -> Result<(), SetupError> {
        if !(2..=MAX).contains(&players) {
            return Err(SetupError::PlayerCount {
                game: ID,
                min: 2,
                max: MAX,
                got: players,
            });
        }
        if options.teams && players != 3 {
            return Err(SetupError::InvalidOptions {
                reason: "teams need 3 players".into(),
            });
        }
        Ok(())
    }

    fn new(options: &Options, players: usize, seed: u64) -> Result<Self, SetupError> {
        Self::validate(options, players)?;
        let mut rng = GameRng::from_seed(seed);
        let mut deck: Vec<u8> = (1..=9).collect();
        rng.shuffle(&mut deck);
        let mut hands: [Vec<u8>; MAX] = Default::default();
        for hand in hands.iter_mut().take(players) {
            hand.extend(deck.drain(..2));
            hand.sort_unstable();
        }
        Ok(HighCard {
            options: options.clone(),
            players,
            deck,
            hands,
            table: [None; MAX],
            turn: Seat(0),
            round: 0,
            scores: [0; MAX],
        })
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn players(&self) -> usize {
        self.players
    }

    fn to_move(&self) -> SeatSet {
        if self.round >= 2 {
            SeatSet::EMPTY
        } else {
            SeatSet::single(self.turn)
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        if self.to_move().contains(seat) {
            out.extend(self.hands[seat.index()].iter().map(|&c| Action::Play(c)));
        }
    }

    fn apply_legal(&mut self, seat: Seat, action: &Action) {
        let Action::Play(card) = *action;
        let hand = &mut self.hands[seat.index()];
        if let Some(at) = hand.iter().position(|&c| c == card) {
            hand.remove(at);
        }
        self.table[seat.index()] = Some(card);
        self.turn = seat.next(self.players);
        if self.turn == Seat(0) {
            let best = (0..self.players)
                .max_by_key(|&i| self.table[i])
                .unwrap_or(0);
            self.scores[best] += 1;
            self.table = [None; MAX];
            self.round += 1;
        }
    }

    fn refusal(&self, _seat: Seat, action: &Action) -> String {
        let Action::Play(card) = *action;
        format!("you do not hold a {card}")
    }

    fn view(&self, viewer: Viewer) -> View {
        View {
            round: self.round,
            turn: self.turn,
            hand: viewer
                .seat()
                .filter(|s| s.index() < self.players)
                .map(|s| self.hands[s.index()].clone()),
            hand_sizes: self.hands[..self.players].iter().map(Vec::len).collect(),
            table: self.table[..self.players].to_vec(),
            scores: self.scores[..self.players].to_vec(),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.round < 2 {
            return None;
        }
        let teams = (0..self.players)
            .map(|i| self.options.teams.then_some((i % 2) as u8))
            .collect();
        Some(Outcome::from_scores(
            self.scores[..self.players].to_vec(),
            teams,
        ))
    }

    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut world = self.clone();
        let mut unseen = world.deck.clone();
        for (i, hand) in world.hands.iter().enumerate().take(self.players) {
            if i != seat.index() {
                unseen.extend(hand);
            }
        }
        // Sorted: the world depends only on what the seat knows, not where cards are.
        unseen.sort_unstable();
        rng.shuffle(&mut unseen);
        for (i, hand) in world.hands.iter_mut().enumerate().take(self.players) {
            if i != seat.index() {
                let n = hand.len();
                *hand = unseen.drain(..n).collect();
                hand.sort_unstable();
            }
        }
        world.deck = unseen;
        world
    }

    fn describe(&self, action: &Action) -> String {
        let Action::Play(card) = action;
        format!("play the {card}")
    }
}

impl CatalogGame for HighCard {
    fn bots() -> Vec<(&'static str, BotFactory<Self>)> {
        vec![
            ("random", RandomBot::<HighCard>::boxed),
            ("monte-carlo", || {
                Box::new(MonteCarloBot::<HighCard>::new(20))
            }),
        ]
    }
}

pub fn registry() -> Registry {
    let mut registry = Registry::new();
    registry.register::<HighCard>(HighCard::bots());
    registry
}

impl takuge_engine::conformance::Probe for HighCard {
    /// Every card value, held or not, and values no deck has.
    fn near_misses(&self, _seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        out.extend((0..=11).map(Action::Play));
    }
}

#[test]
fn high_card_conforms() {
    takuge_engine::conformance::assert_conforms::<HighCard>(&Default::default());
}
